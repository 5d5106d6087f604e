package io.accel.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The syntax of the queries clients send about the catalog (psql's meta-commands, pgJDBC's DatabaseMetaData and
 * TypeInfoCache), rewritten before Calcite parses them into what it reads:
 * <ul>
 *   <li>{@code OPERATOR(pg_catalog.~)} is {@code ~}; {@code COLLATE pg_catalog.default} is dropped;
 *       {@code E'\n'} strings become standard ones;</li>
 *   <li>{@code 'name'::regclass} (and regtype, regnamespace) becomes the oid, resolved now ({@code 42P01} when
 *       there is no such relation); {@code 'pg_catalog.array_in'::regproc} the bare name; {@code x::regclass} of
 *       an expression its name, through {@code accel_regclass_name};</li>
 *   <li>calls of the functions that depend on the session ({@code current_database()}, {@code current_schema},
 *       {@code pg_get_userbyid}, {@code pg_get_indexdef}, ...) become calls of pg_catalog's {@code accel_}
 *       functions with the session's token as first argument (see {@code PgCatalogSchema}), as do
 *       {@code current_setting}, {@code set_config}, {@code pg_has_role} and the size functions
 *       ({@code pg_table_size}, ...); {@code now()} becomes {@code CURRENT_TIMESTAMP};</li>
 *   <li>calls of {@code io.accel.plan.PgFunctions}' functions that Calcite would misread: {@code date_trunc} quoted
 *       (Calcite's parser has a DATE_TRUNC of its own), the volatile {@code gen_random_uuid()}, {@code random()} and
 *       {@code clock_timestamp()} numbered by call site, {@code round(x, n)} as {@code accel_round};</li>
 *   <li>a few exact fragments of client queries that use set-returning functions and arrays Calcite lacks
 *       ({@code information_schema._pg_expandarray}, {@code generate_series} over {@code current_schemas})
 *       are replaced by joins with pg_catalog's {@code accel_*_keys} and {@code accel_search_path} tables, psql's
 *       {@code \d+} reloptions ({@code unnest}) by {@code accel_reloptions}.</li>
 * </ul>
 * Statements that mention none of these are returned unchanged (one scan for the trigger words).
 */
public final class PgCatalogSyntax {
  /** What the rewrite needs from the session: its token, and the oids of names. */
  public interface Resolver {
    int token();

    Integer relationOid(String name);

    Integer typeOid(String name);
  }

  private static final Pattern TRIGGER = Pattern.compile(
      "(?i)operator\\s*\\(|collate|\\be'|::\\s*(pg_catalog\\s*\\.\\s*)?reg|current_|pg_get_|pg_table_is_visible"
          + "|_pg_expandarray|generate_series|regexp_matches|regexp_split_to_table|object_keys"
          + "|any\\s*\\(|\\bnow\\s*\\(|set_config|pg_notify|pg_has_role|_size\\s*\\(|unnest"
          + "|nextval|currval|setval|lastval|date_trunc|gen_random_uuid|uuid_generate_v|clock_timestamp|random"
          + "|round\\s*\\("
          + "|_advisory_|select\\s+exists|_description\\s*\\("
          + "|'\\s*(epoch|now|today|tomorrow|yesterday)\\s*'");

  private static final Map<String, String> SESSION_FUNCTIONS = Map.ofEntries(
      Map.entry("current_database", "accel_current_database"),
      Map.entry("obj_description", "accel_obj_description"),
      Map.entry("col_description", "accel_col_description"),
      Map.entry("shobj_description", "accel_shobj_description"),
      Map.entry("current_schemas", "accel_current_schemas"),
      Map.entry("current_schema", "accel_current_schema"),
      Map.entry("pg_get_userbyid", "accel_get_userbyid"),
      Map.entry("pg_get_indexdef", "accel_get_indexdef"),
      Map.entry("pg_get_constraintdef", "accel_get_constraintdef"),
      Map.entry("pg_get_viewdef", "accel_get_viewdef"),
      Map.entry("pg_table_is_visible", "accel_table_is_visible"),
      Map.entry("current_setting", "accel_current_setting"),
      Map.entry("set_config", "accel_set_config"),
      Map.entry("pg_notify", "accel_pg_notify"),
      // the session's role and its store's sizes
      Map.entry("pg_has_role", "accel_has_role"),
      Map.entry("pg_table_size", "accel_table_size"),
      Map.entry("pg_relation_size", "accel_relation_size"),
      Map.entry("pg_total_relation_size", "accel_total_relation_size"),
      Map.entry("pg_indexes_size", "accel_indexes_size"),
      Map.entry("pg_database_size", "accel_database_size"),
      // sequences: the session's currval and lastval, the store's values
      Map.entry("nextval", "accel_nextval"),
      Map.entry("currval", "accel_currval"),
      Map.entry("setval", "accel_setval"),
      Map.entry("lastval", "accel_lastval"),
      Map.entry("pg_get_serial_sequence", "accel_get_serial_sequence"),
      // advisory locks, held by the session or its transaction
      Map.entry("pg_advisory_lock", "accel_advisory_lock"),
      Map.entry("pg_advisory_xact_lock", "accel_advisory_xact_lock"),
      Map.entry("pg_try_advisory_lock", "accel_try_advisory_lock"),
      Map.entry("pg_try_advisory_xact_lock", "accel_try_advisory_xact_lock"),
      Map.entry("pg_advisory_unlock", "accel_advisory_unlock"),
      Map.entry("pg_advisory_unlock_all", "accel_advisory_unlock_all"));

  /** Numbers the volatile calls rewritten (nextval, gen_random_uuid), so no two are the same expression to Calcite. */
  private static final java.util.concurrent.atomic.AtomicInteger NEXTVAL_SITES =
      new java.util.concurrent.atomic.AtomicInteger();

  /** The functions whose first argument names a sequence: {@code 's'::regclass} is read as the name. */
  private static final Set<String> SEQUENCE_FUNCTIONS = Set.of("nextval", "currval", "setval");

  /** Words after a FROM item that are no alias. */
  private static final Set<String> COLUMN_ALIAS_STOPS = Set.of("where", "join", "inner", "left", "right", "full",
      "cross", "natural", "on", "using", "group", "order", "limit", "offset", "fetch", "union", "intersect", "except",
      "window", "having", "for", "qualify");

  private static final Set<String> REG_TYPES = Set.of("regclass", "regtype", "regnamespace", "regproc");

  private PgCatalogSyntax() {
  }

  public static String rewrite(String sql, Resolver resolver) {
    sql = scalarsInFrom(sql);
    if (!TRIGGER.matcher(sql).find()) {
      return sql;
    }
    sql = shapes(sql);
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return sql;
    }
    int n = tokens.size();
    String[] pieces = new String[n];
    for (int i = 0; i < n; i++) {
      SqlLexer.Token t = tokens.get(i);
      pieces[i] = sql.substring(t.start(), t.end());
    }
    String token = Integer.toString(resolver.token());
    for (int i = 0; i < n; i++) {
      SqlLexer.Token t = tokens.get(i);
      if (t.kind() == SqlLexer.Kind.STRING && SPECIAL_DATETIMES.contains(t.text().strip().toLowerCase(Locale.ROOT))) {
        specialDatetime(tokens, pieces, i);
      }
      if (t.isSymbol("(") && i + 3 < n && tokens.get(i + 1).is("select") && tokens.get(i + 2).is("exists")
          && symbol(tokens, i + 3, "(")) {
        // (SELECT EXISTS (q)) is EXISTS (q): Calcite's sub-query removal fails on the nested form when q is
        // correlated (Flyway's clean: NOT (SELECT EXISTS (SELECT inhrelid ... WHERE inhrelid = <outer>)))
        int inner = closing(tokens, i + 3);
        if (inner > 0 && symbol(tokens, inner + 1, ")") && closing(tokens, i) == inner + 1) {
          pieces[i] = "";
          pieces[i + 1] = "";
          pieces[inner + 1] = "";
        }
      }
      if (t.is("operator") && symbol(tokens, i + 1, "(")) {
        // OPERATOR(pg_catalog.~) or OPERATOR(~): the operator itself
        int j = i + 2;
        if (j + 1 < n && tokens.get(j).is("pg_catalog") && tokens.get(j + 1).isSymbol(".")) {
          j += 2;
        }
        if (j + 1 < n && tokens.get(j).kind() == SqlLexer.Kind.SYMBOL && symbol(tokens, j + 1, ")")) {
          for (int k = i; k <= j + 1; k++) {
            pieces[k] = "";
          }
          pieces[j] = " " + tokens.get(j).text() + " ";
          i = j + 1;
        }
      } else if (t.is("collate")) {
        int j = i + 1;
        if (j + 1 < n && tokens.get(j).is("pg_catalog") && tokens.get(j + 1).isSymbol(".")) {
          j += 2;
        }
        if (j < n && tokens.get(j).isName() && tokens.get(j).text().equalsIgnoreCase("default")) {
          for (int k = i; k <= j; k++) {
            pieces[k] = "";
          }
          i = j;
        }
      } else if (t.kind() == SqlLexer.Kind.STRING && (pieces[i].startsWith("E") || pieces[i].startsWith("e"))) {
        pieces[i] = quote(unescape(pieces[i].substring(2, pieces[i].length() - 1)));
      } else if (t.isSymbol("::")) {
        int j = i + 1;
        if (j + 1 < n && tokens.get(j).is("pg_catalog") && tokens.get(j + 1).isSymbol(".")) {
          j += 2;
        }
        if (j < n && tokens.get(j).is("regclass") && i >= 3 && tokens.get(i - 1).kind() == SqlLexer.Kind.STRING
            && tokens.get(i - 2).isSymbol("(") && SEQUENCE_FUNCTIONS.contains(tokens.get(i - 3).text())) {
          // nextval('s'::regclass), as PostgreSQL shows a serial column's default: the name itself
          for (int k = i; k <= j; k++) {
            pieces[k] = "";
          }
          i = j;
        } else if (j < n && (tokens.get(j).kind() == SqlLexer.Kind.WORD || tokens.get(j).kind() == SqlLexer.Kind.QUOTED)
            && REG_TYPES.contains(tokens.get(j).text())) {
          regCast(tokens, pieces, i, j, resolver, token);
          i = j;
        }
      } else if (t.is("now") && symbol(tokens, i + 1, "(") && symbol(tokens, i + 2, ")")
          && !(i > 0 && tokens.get(i - 1).isSymbol(".") && !(i > 1 && tokens.get(i - 2).is("pg_catalog")))) {
        // now() is CURRENT_TIMESTAMP (PostgreSQL defines it so), labelled "now" as a bare SELECT item
        if (i > 1 && tokens.get(i - 1).isSymbol(".")) {
          pieces[i - 2] = "";
          pieces[i - 1] = "";
        }
        boolean item = (startsItem(tokens, i) || i > 2 && tokens.get(i - 1).isSymbol(".")
            && startsItem(tokens, i - 2)) && inSelectList(tokens, i);
        pieces[i] = NOW;
        pieces[i + 1] = "";
        pieces[i + 2] = item && endsItem(tokens, i + 3) ? " AS now" : "";
        i += 2;
      } else if (t.is("current_timestamp") && !symbol(tokens, i + 1, "(")
          && !(i > 0 && tokens.get(i - 1).isSymbol("."))) {
        pieces[i] = NOW + (startsItem(tokens, i) && inSelectList(tokens, i) && endsItem(tokens, i + 1)
            ? " AS current_timestamp" : "");
      } else if (t.kind() == SqlLexer.Kind.WORD && ONE_COLUMN_FUNCTIONS.contains(t.text())
          && symbol(tokens, i + 1, "(") && i > 0
          && (tokens.get(i - 1).is("from") || tokens.get(i - 1).is("join") || tokens.get(i - 1).is("lateral"))) {
        // FROM generate_series(...) AS g: PostgreSQL names the one column g too (so for the other functions of
        // one column)
        int close = closing(tokens, i + 1);
        int alias = close < 0 ? -1 : close + 1 < n && tokens.get(close + 1).is("as") ? close + 2 : close + 1;
        if (alias > 0 && alias < n && tokens.get(alias).kind() == SqlLexer.Kind.WORD
            && !COLUMN_ALIAS_STOPS.contains(tokens.get(alias).text()) && !symbol(tokens, alias + 1, "(")) {
          pieces[alias] = pieces[alias] + "(" + pieces[alias] + ")";
        }
      } else if (t.is("round") && symbol(tokens, i + 1, "(") && arguments(tokens, i + 1) == 2
          && !(i > 0 && tokens.get(i - 1).isSymbol("."))) {
        // round(numeric, n) with PostgreSQL's result scale (io.accel.plan.PgFunctions)
        pieces[i] = "accel_round";
      } else if ((t.is("date_trunc") || t.is("gen_random_uuid") || t.is("clock_timestamp") || t.is("random")
          || t.is("uuid_generate_v4") || t.is("uuid_generate_v1") || t.is("uuid_generate_v1mc"))
          && symbol(tokens, i + 1, "(") && !(i > 0 && tokens.get(i - 1).isSymbol(".")
              && !(i > 1 && tokens.get(i - 2).is("pg_catalog")))) {
        // functions of io.accel.plan.PgFunctions: date_trunc quoted (Calcite's parser reads the key word as its
        // own DATE_TRUNC), the volatile ones given a call-site number (Calcite would take two equal calls for one)
        if (i > 1 && tokens.get(i - 1).isSymbol(".")) {
          pieces[i - 2] = "";
          pieces[i - 1] = "";
        }
        if (t.is("date_trunc")) {
          pieces[i] = "\"date_trunc\"";
        } else if (symbol(tokens, i + 2, ")")) {
          pieces[i + 1] = "(" + NEXTVAL_SITES.incrementAndGet();
        }
        i++;
      } else if (t.kind() == SqlLexer.Kind.WORD && (SESSION_FUNCTIONS.containsKey(t.text())
          || t.is("current_catalog")) && !(i > 0 && tokens.get(i - 1).isSymbol(".")
              && !(i > 1 && tokens.get(i - 2).is("pg_catalog")))) {
        boolean call = symbol(tokens, i + 1, "(");
        String name = t.is("current_catalog") ? "accel_current_database" : SESSION_FUNCTIONS.get(t.text());
        if (!call && !t.is("current_schema") && !t.is("current_catalog")) {
          continue;
        }
        if (i > 1 && tokens.get(i - 1).isSymbol(".")) {
          pieces[i - 2] = "";
          pieces[i - 1] = "";
        }
        // a bare item of a SELECT list is labelled by the function's name, as PostgreSQL labels it
        boolean item = i > 0 && (tokens.get(i - 1).is("select") || tokens.get(i - 1).isSymbol(","));
        if (call) {
          boolean empty = symbol(tokens, i + 2, ")");
          pieces[i] = "pg_catalog." + name;
          pieces[i + 1] = "(" + token + (empty ? "" : ", ");
          if (t.is("nextval")) {
            // a call site of its own: Calcite takes two equal calls for one value (nextval('s'), nextval('s'))
            pieces[i + 1] = "(" + token + ", " + NEXTVAL_SITES.incrementAndGet() + (empty ? "" : ", ");
          }
          int close = closing(tokens, i + 1);
          if (item && close > 0 && endsItem(tokens, close + 1)) {
            pieces[close] = pieces[close] + " AS " + t.text();
          }
          i++;
        } else {
          pieces[i] = "pg_catalog." + name + "(" + token + ")" + (item && endsItem(tokens, i + 1) ? " AS "
              + t.text() : "");
        }
      }
    }
    StringBuilder out = new StringBuilder(sql.length() + 64);
    int at = 0;
    for (int i = 0; i < n; i++) {
      SqlLexer.Token t = tokens.get(i);
      out.append(sql, at, t.start()).append(pieces[i]);
      at = t.end();
    }
    out.append(sql.substring(at));
    return afterTokens(out.toString());
  }

  /** {@code operand::regclass} (tokens i is {@code ::}, j the type name). */
  private static void regCast(List<SqlLexer.Token> tokens, String[] pieces, int i, int j, Resolver resolver,
      String token) {
    String type = tokens.get(j).text();
    for (int k = i; k <= j; k++) {
      pieces[k] = "";
    }
    SqlLexer.Token operand = tokens.get(i - 1);
    if (operand.kind() == SqlLexer.Kind.STRING) {
      String name = operand.text();
      switch (type) {
        case "regproc" -> {
          String proc = name.startsWith("pg_catalog.") ? name.substring("pg_catalog.".length()) : name;
          pieces[i - 1] = quote(proc);
        }
        case "regclass" -> {
          // a number is an oid as it is, as regclass's input function reads it
          Integer oid = name.matches("\\d{1,9}") ? Integer.valueOf(name) : resolver.relationOid(name);
          if (oid == null) {
            throw new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
          }
          pieces[i - 1] = Integer.toString(oid);
        }
        case "regtype" -> {
          Integer oid = resolver.typeOid(name);
          if (oid == null) {
            throw new AccelException(SqlState.UNDEFINED_OBJECT, "type \"" + name + "\" does not exist");
          }
          pieces[i - 1] = Integer.toString(oid);
        }
        default -> {
          Integer oid = switch (name) {
            case "pg_catalog" -> 11;
            case "public" -> 2200;
            case "information_schema" -> 13181;
            default -> throw new AccelException(SqlState.UNDEFINED_OBJECT, "schema \"" + name + "\" does not exist");
          };
          pieces[i - 1] = Integer.toString(oid);
        }
      }
      return;
    }
    // an expression: its start is the identifier chain or parenthesised expression before ::
    int start = i - 1;
    if (operand.isSymbol(")")) {
      int depth = 0;
      for (int k = i - 1; k >= 0; k--) {
        if (tokens.get(k).isSymbol(")")) {
          depth++;
        } else if (tokens.get(k).isSymbol("(")) {
          depth--;
          if (depth == 0) {
            start = k;
            break;
          }
        }
      }
      // a call: its name (and schema) too, pg_get_serial_sequence(t, c)::regclass::oid (SQLAlchemy's reflection)
      if (start > 0 && tokens.get(start - 1).kind() == SqlLexer.Kind.WORD
          && !NOT_FUNCTIONS.contains(tokens.get(start - 1).text())) {
        start--;
        if (start >= 2 && tokens.get(start - 1).isSymbol(".") && tokens.get(start - 2).isName()) {
          start -= 2;
        }
      }
    } else {
      while (start >= 2 && tokens.get(start - 1).isSymbol(".") && tokens.get(start - 2).isName()) {
        start -= 2;
      }
    }
    if (type.equals("regclass") && j + 2 < tokens.size() && tokens.get(j + 1).isSymbol("::")
        && tokens.get(j + 2).is("oid")) {
      // text::regclass::oid (Flyway's clean: (quote_ident(schema)||'.'||quote_ident(name))::regclass::oid)
      pieces[j + 1] = "";
      pieces[j + 2] = "";
      pieces[start] = "(pg_catalog.accel_regclass_oid(" + token + ", " + pieces[start];
      pieces[i - 1] = pieces[i - 1] + "))";
      return;
    }
    if (type.equals("regtype") && textOperand(tokens, start, i - 1)) {
      // a type named by text ('"' || udt_schema || '"."' || udt_name || '"')::regtype: its name as format_type's
      pieces[start] = "(pg_catalog.accel_regtype_text(" + pieces[start];
      pieces[i - 1] = pieces[i - 1] + "))";
      return;
    }
    if (type.equals("regclass") && textOperand(tokens, start, i - 1)) {
      // a name computed as text ((quote_ident(schema) || '.' || quote_ident(name))::regclass, TypeORM's table
      // comments): the relation's oid, which the functions it is passed to (obj_description, ...) take
      pieces[start] = "(pg_catalog.accel_regclass_oid(" + token + ", " + pieces[start];
      pieces[i - 1] = pieces[i - 1] + "))";
      return;
    }
    String function = switch (type) {
      case "regclass" -> "pg_catalog.accel_regclass_name(" + token + ", ";
      case "regnamespace" -> "pg_catalog.accel_regnamespace_name(" + token + ", ";
      case "regtype" -> "pg_catalog.format_type(";
      default -> "(";
    };
    pieces[start] = "(" + function + pieces[start];
    pieces[i - 1] = pieces[i - 1] + (type.equals("regtype") ? ", NULL))" : "))");
  }

  /** Whether tokens {@code from..to} compute text: a string literal, a concatenation or quote_ident in them. */
  private static boolean textOperand(List<SqlLexer.Token> tokens, int from, int to) {
    for (int k = from; k <= to; k++) {
      SqlLexer.Token t = tokens.get(k);
      if (t.kind() == SqlLexer.Kind.STRING || t.isSymbol("||") || t.is("quote_ident") || t.is("concat")
          || t.is("format")) {
        return true;
      }
    }
    return false;
  }

  /** Words before a parenthesis that do not call a function. */
  private static final Set<String> NOT_FUNCTIONS = Set.of("and", "or", "not", "select", "where", "on", "when",
      "then", "else", "in", "is", "by", "as", "case", "from", "between", "like", "ilike", "exists", "any", "all",
      "some", "array", "values", "having", "using", "return", "returning", "set", "distinct", "join", "lateral");

  /** The number of arguments of the call whose parenthesis is at {@code open} (0 for none). */
  private static int arguments(List<SqlLexer.Token> tokens, int open) {
    int depth = 0;
    int commas = 0;
    for (int k = open; k < tokens.size(); k++) {
      if (tokens.get(k).isSymbol("(")) {
        depth++;
      } else if (tokens.get(k).isSymbol(")") && --depth == 0) {
        return k == open + 1 ? 0 : commas + 1;
      } else if (depth == 1 && tokens.get(k).isSymbol(",")) {
        commas++;
      }
    }
    return -1;
  }

  /** Whether token {@code i} starts a list item (follows SELECT or a comma). */
  private static boolean startsItem(List<SqlLexer.Token> tokens, int i) {
    return i > 0 && (tokens.get(i - 1).is("select") || tokens.get(i - 1).isSymbol(","));
  }

  /**
   * now() and CURRENT_TIMESTAMP: a timestamptz, as in PostgreSQL (Calcite's CURRENT_TIMESTAMP is the session's
   * wall-clock timestamp, which the cast reads in the session's zone).
   */
  private static final String NOW = "CAST(CURRENT_TIMESTAMP AS TIMESTAMP WITH LOCAL TIME ZONE)";

  /** Scalar functions a client calls in FROM as a table of one row ({@code SELECT * FROM current_schema()}). */
  private static final Set<String> SCALARS_IN_FROM = Set.of("current_schema", "current_schemas", "current_database",
      "version", "now", "current_setting", "pg_backend_pid", "pg_is_in_recovery", "statement_timestamp",
      "transaction_timestamp", "clock_timestamp", "gen_random_uuid", "nextval", "currval", "lastval", "setval");

  private static final Pattern SCALAR_IN_FROM = Pattern.compile("(?i)\\b(?:from|join)\\s+(?:pg_catalog\\s*\\.\\s*)?(?:"
      + String.join("|", SCALARS_IN_FROM) + ")\\s*\\(");

  /**
   * A scalar function in FROM as PostgreSQL reads it, a one-row table whose one column the alias (else the
   * function) names: {@code FROM version() v} is {@code FROM (SELECT version() AS v) AS v} (TypeORM asks
   * {@code SELECT * FROM current_schema()}; Calcite's FROM takes only table functions).
   */
  static String scalarsInFrom(String sql) {
    return SCALAR_IN_FROM.matcher(sql).find() ? SqlLexer.rewriteEach(sql, 16, PgCatalogSyntax::scalarInFrom) : sql;
  }

  private static String scalarInFrom(String sql, List<SqlLexer.Token> tokens) {
    int n = tokens.size();
    for (int k = 0; k + 2 < n; k++) {
      if (!tokens.get(k).is("from") && !tokens.get(k).is("join") || k > 0 && tokens.get(k - 1).is("distinct")
          || insideCall(tokens, k)) {
        continue; // IS DISTINCT FROM now(), extract(hour FROM now()), substring(x FROM 2)
      }
      int start = k + 1;
      int f = tokens.get(start).is("pg_catalog") && symbol(tokens, start + 1, ".") ? start + 2 : start;
      if (f >= n || tokens.get(f).kind() != SqlLexer.Kind.WORD || !SCALARS_IN_FROM.contains(tokens.get(f).text())
          || !symbol(tokens, f + 1, "(")) {
        continue;
      }
      int close = closing(tokens, f + 1);
      if (close < 0) {
        return null;
      }
      int alias = close + 1 < n && tokens.get(close + 1).is("as") ? close + 2 : close + 1;
      boolean aliased = alias < n && (tokens.get(alias).kind() == SqlLexer.Kind.QUOTED
          || tokens.get(alias).kind() == SqlLexer.Kind.WORD && !COLUMN_ALIAS_STOPS.contains(tokens.get(alias).text()));
      if (aliased && symbol(tokens, alias + 1, "(")) {
        continue; // a column list: left as written
      }
      // quoted: the function's name as a name, which the renaming of functions below leaves alone
      String name = aliased ? sql.substring(tokens.get(alias).start(), tokens.get(alias).end())
          : "\"" + tokens.get(f).text() + "\"";
      int end = aliased ? tokens.get(alias).end() : tokens.get(close).end();
      return sql.substring(0, tokens.get(start).start()) + "(SELECT "
          + sql.substring(tokens.get(start).start(), tokens.get(close).end()) + " AS " + name + ") AS " + name
          + sql.substring(end);
    }
    return null;
  }

  /** Whether token {@code k} is inside the parentheses of a call ({@code extract(... FROM ...)}), not a query's. */
  private static boolean insideCall(List<SqlLexer.Token> tokens, int k) {
    int depth = 0;
    for (int i = k - 1; i >= 0; i--) {
      if (tokens.get(i).isSymbol(")")) {
        depth++;
      } else if (tokens.get(i).isSymbol("(") && depth-- == 0) {
        return !symbol(tokens, i + 1, "select") && !tokens.get(i + 1).is("select")
            && i > 0 && tokens.get(i - 1).kind() == SqlLexer.Kind.WORD;
      }
    }
    return false;
  }

  /** Set-returning functions of one column, which an alias without a column list names. */
  private static final Set<String> ONE_COLUMN_FUNCTIONS = Set.of("generate_series", "regexp_matches",
      "regexp_split_to_table", "jsonb_object_keys", "json_object_keys");

  private static final Set<String> SPECIAL_DATETIMES = Set.of("epoch", "now", "today", "tomorrow", "yesterday");

  /**
   * PostgreSQL's special date/time inputs in a literal of a date or time type ({@code 'epoch'::timestamp},
   * {@code DATE 'today'}, {@code 'now'::timestamptz}): the value they stand for, as an expression Calcite reads
   * (the transaction's start for now, the session's date for today).
   */
  private static void specialDatetime(List<SqlLexer.Token> tokens, String[] pieces, int i) {
    String word = tokens.get(i).text().strip().toLowerCase(Locale.ROOT);
    int n = tokens.size();
    String type;
    int from = i;
    int to = i;
    if (i > 0 && tokens.get(i - 1).kind() == SqlLexer.Kind.WORD
        && Set.of("date", "timestamp", "timestamptz").contains(tokens.get(i - 1).text())
        && !(i > 1 && tokens.get(i - 2).isSymbol("::"))) {
      type = tokens.get(i - 1).text();
      from = i - 1;
    } else if (i + 2 < n && tokens.get(i + 1).isSymbol("::") && tokens.get(i + 2).kind() == SqlLexer.Kind.WORD) {
      type = tokens.get(i + 2).text();
      to = i + 2;
      if (type.equals("timestamp") && i + 5 < n && (tokens.get(i + 3).is("with") || tokens.get(i + 3).is("without"))
          && tokens.get(i + 4).is("time") && tokens.get(i + 5).is("zone")) {
        type = tokens.get(i + 3).is("with") ? "timestamptz" : "timestamp";
        to = i + 5;
      }
    } else {
      return;
    }
    String day = switch (word) {
      case "tomorrow" -> "(CURRENT_DATE + 1)";
      case "yesterday" -> "(CURRENT_DATE - 1)";
      default -> "CURRENT_DATE";
    };
    String value = switch (type) {
      case "date" -> word.equals("epoch") ? "DATE '1970-01-01'" : day;
      case "timestamp" -> word.equals("epoch") ? "TIMESTAMP '1970-01-01 00:00:00'"
          : word.equals("now") ? "LOCALTIMESTAMP" : "CAST(" + day + " AS TIMESTAMP)";
      case "timestamptz" -> word.equals("epoch") ? "to_timestamp(0)"
          : word.equals("now") ? NOW : "CAST(CAST(" + day + " AS TIMESTAMP) AS TIMESTAMP WITH LOCAL TIME ZONE)";
      default -> null;
    };
    if (value == null) {
      return;
    }
    for (int k = from; k <= to; k++) {
      pieces[k] = "";
    }
    pieces[from] = "(" + value + ")";
  }

  /** The index of the parenthesis closing the one at {@code open}, or -1. */
  static int closing(List<SqlLexer.Token> tokens, int open) {
    int depth = 0;
    for (int k = open; k < tokens.size(); k++) {
      if (tokens.get(k).isSymbol("(")) {
        depth++;
      } else if (tokens.get(k).isSymbol(")") && --depth == 0) {
        return k;
      }
    }
    return -1;
  }

  /** Whether a select-list item ends before token {@code i} (a comma, FROM, the end of the statement). */
  private static boolean endsItem(List<SqlLexer.Token> tokens, int i) {
    if (i >= tokens.size()) {
      return true;
    }
    SqlLexer.Token t = tokens.get(i);
    return t.kind() == SqlLexer.Kind.END || t.isSymbol(",") || t.isSymbol(";") || t.is("from");
  }

  /**
   * Whether token {@code i} stands in a SELECT list at that list's own depth: not inside parentheses opened after
   * the SELECT (a function's arguments, a row of VALUES).
   */
  private static boolean inSelectList(List<SqlLexer.Token> tokens, int i) {
    int depth = 0;
    for (int k = i - 1; k >= 0; k--) {
      SqlLexer.Token t = tokens.get(k);
      if (t.isSymbol(")")) {
        depth++;
      } else if (t.isSymbol("(")) {
        if (depth == 0) {
          return false;
        }
        depth--;
      } else if (depth == 0 && t.is("select")) {
        return true;
      }
    }
    return false;
  }

  private static boolean symbol(List<SqlLexer.Token> tokens, int i, String symbol) {
    return i < tokens.size() && tokens.get(i).isSymbol(symbol);
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /** The value of an E'...' string's body: backslash escapes as PostgreSQL reads them. */
  static String unescape(String body) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\'' && i + 1 < body.length() && body.charAt(i + 1) == '\'') {
        b.append('\'');
        i++;
      } else if (c == '\\' && i + 1 < body.length()) {
        char d = body.charAt(++i);
        b.append(switch (d) {
          case 'n' -> '\n';
          case 't' -> '\t';
          case 'r' -> '\r';
          case 'b' -> '\b';
          case 'f' -> '\f';
          default -> d;
        });
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static final Pattern SCHEMAS_AT = Pattern.compile(
      "\\(\\s*pg_catalog\\.accel_current_schemas\\((\\d+), (true|false)\\s*\\)\\s*\\)\\s*\\[\\s*(\\d+)\\s*\\]",
      Pattern.CASE_INSENSITIVE);

  /** Rewrites that need the calls already rewritten: {@code (current_schemas(b))[n]}. */
  private static String afterTokens(String sql) {
    Matcher m = SCHEMAS_AT.matcher(sql);
    return m.find() ? m.replaceAll("pg_catalog.accel_current_schemas_at($1, $2, $3)") : sql;
  }

  /** A fragment of a client query (whitespace-insensitive, case-insensitive) and what replaces it. */
  private record Shape(Pattern pattern, String replacement) {
    static Shape of(String fragment, String replacement) {
      StringBuilder regex = new StringBuilder();
      for (String part : fragment.trim().split("\\s+")) {
        regex.append(regex.length() > 0 ? "\\s+" : "");
        // whitespace is optional around punctuation
        regex.append(Pattern.quote(part).replace("(", "\\E\\s*\\(\\s*\\Q").replace(")", "\\E\\s*\\)\\Q")
            .replace(",", "\\E\\s*,\\s*\\Q"));
      }
      if (Character.isLetterOrDigit(fragment.charAt(fragment.length() - 1))) {
        regex.append("(?![\\w$])"); // a whole word: pg_constraint con is not pg_constraint cons
      }
      return new Shape(Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE),
          Matcher.quoteReplacement(replacement));
    }
  }

  private static final List<Shape> SHAPES = List.of(
      // pgJDBC's TypeInfoCache: the position of each type's schema in current_schemas(false)
      Shape.of("(select ns.oid as nspoid, ns.nspname, r.r from pg_namespace as ns join ( select s.r,"
          + " (current_schemas(false))[s.r] as nspname from generate_series(1, array_upper(current_schemas(false), 1))"
          + " as s(r) ) as r using ( nspname ) )",
          "(SELECT ns.oid AS nspoid, ns.nspname, r.r FROM pg_catalog.pg_namespace AS ns"
              + " JOIN pg_catalog.accel_search_path AS r ON (r.nspname = ns.nspname))"),
      // pgJDBC's getPrimaryKeys: one row per key column of the constraint
      Shape.of("(information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ", "k.n AS KEY_SEQ"),
      Shape.of("information_schema._pg_expandarray(con.conkey) AS KEYS", "k.x AS KEYS_X"),
      Shape.of("FROM pg_catalog.pg_constraint con",
          "FROM pg_catalog.pg_constraint con JOIN pg_catalog.accel_constraint_keys k ON (k.oid = con.oid)"),
      Shape.of("(result.KEYS).x", "result.KEYS_X"),
      // pgJDBC's getIndexInfo: one row per key column of the index, with its sort option
      Shape.of("(information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION", "k.n AS ORDINAL_POSITION"),
      Shape.of("JOIN pg_catalog.pg_index i ON (ct.oid = i.indrelid)", "JOIN pg_catalog.pg_index i ON (ct.oid ="
          + " i.indrelid) JOIN pg_catalog.accel_index_keys k ON (k.indexrelid = i.indexrelid)"),
      Shape.of("i.indoption AS I_INDOPTION", "k.option AS I_INDOPTION"),
      Shape.of("tmp.I_INDOPTION[tmp.ORDINAL_POSITION - 1] & 1::smallint", "MOD(tmp.I_INDOPTION, 2)"),
      // psql's \d: roles of row-level security policies (Accel has none), extended statistics kinds
      Shape.of("pg_catalog.array_to_string(array(select rolname from pg_catalog.pg_roles where oid = any"
          + " (pol.polroles) order by 1),',')", "pol.polroles"),
      Shape.of("'d' = any(stxkind)", "POSITION('d' IN stxkind) > 0"),
      Shape.of("'f' = any(stxkind)", "POSITION('f' IN stxkind) > 0"),
      Shape.of("'m' = any(stxkind)", "POSITION('m' IN stxkind) > 0"),
      // psql's \d+: the table's and its TOAST table's reloptions, joined (unnest is a keyword to Calcite)
      Shape.of("pg_catalog.array_to_string(c.reloptions || array(select 'toast.' || x from"
          + " pg_catalog.unnest(tc.reloptions) x), ', ')",
          "pg_catalog.accel_reloptions(c.reloptions, tc.reloptions) AS array_to_string"),
      // psql's \dp: roles of row-level security policies (Accel has none), as in \d above
      Shape.of("pg_catalog.array_to_string( ARRAY( SELECT rolname FROM pg_catalog.pg_roles WHERE oid = ANY (polroles)"
          + " ORDER BY 1 ), E', ')", "polroles"));

  /** psql's \d publications query: Accel has no publications, so its answer is the empty result. */
  private static final Pattern PUBLICATIONS = Pattern.compile(
      "(?is)^\\s*SELECT\\s+pubname\\s*,\\s*NULL\\s*,\\s*NULL\\s+FROM\\s+pg_catalog\\.pg_publication\\s+p.*");

  /** pgJDBC's getImportedKeys / getExportedKeys: positions 1 .. max_index_keys, and a key array's element there. */
  private static final Pattern KEY_POSITIONS = Pattern.compile(
      "pg_catalog\\.generate_series\\(\\s*1\\s*,\\s*\\d+\\s*\\)\\s+pos\\s*\\(\\s*n\\s*\\)",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern KEY_AT = Pattern.compile(
      "\\b(\\w+)\\.(conkey|confkey)\\s*\\[\\s*(\\w+)\\.(\\w+)\\s*\\]", Pattern.CASE_INSENSITIVE);

  /**
   * psql's {@code \d}: {@code pg_partition_ancestors('oid')}, a relation and its ancestors; Accel has no partitions,
   * so the relation alone.
   */
  private static final Pattern PARTITION_ANCESTORS = Pattern.compile(
      "(?i)(pg_catalog\\s*\\.\\s*)?pg_partition_ancestors\\s*\\(\\s*('[^']*')\\s*\\)");

  /**
   * psql's {@code \d} trigger list: {@code pg_partition_ancestors(rel) WITH ORDINALITY AS a(relid, depth)}, the
   * relation alone at depth 1 (a lateral row: {@code rel} names the outer query's column).
   */
  private static final Pattern PARTITION_ANCESTORS_ORDINALITY = Pattern.compile(
      "(?i)(pg_catalog\\s*\\.\\s*)?pg_partition_ancestors\\s*\\(\\s*([\\w.]+)\\s*\\)\\s+with\\s+ordinality\\s+as\\s+"
          + "(\\w+)\\s*\\(\\s*(\\w+)\\s*,\\s*(\\w+)\\s*\\)");

  private static String shapes(String sql) {
    if (PARTITION_ANCESTORS_ORDINALITY.matcher(sql).find()) {
      sql = PARTITION_ANCESTORS_ORDINALITY.matcher(sql)
          .replaceAll("LATERAL (SELECT $2 AS $4, CAST(1 AS BIGINT) AS $5) AS $3($4, $5)");
    }
    if (PARTITION_ANCESTORS.matcher(sql).find()) {
      sql = PARTITION_ANCESTORS.matcher(sql).replaceAll("$2::pg_catalog.regclass");
    }
    if (KEY_POSITIONS.matcher(sql).find()) {
      sql = KEY_POSITIONS.matcher(sql).replaceAll("pg_catalog.accel_key_positions AS pos");
      sql = KEY_AT.matcher(sql).replaceAll("pg_catalog.accel_key_at($1.$2, $3.$4)");
    }
    if (PUBLICATIONS.matcher(sql).matches()) {
      return "SELECT CAST(NULL AS VARCHAR) AS pubname, CAST(NULL AS VARCHAR) AS \"?column?\","
          + " CAST(NULL AS VARCHAR) AS \"?column?\" FROM pg_catalog.pg_publication WHERE FALSE";
    }
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("_pg_expandarray") && !lower.contains("generate_series") && !lower.contains("any")
        && !lower.contains("unnest")) {
      return sql;
    }
    sql = KEY_IN.matcher(sql).replaceAll("pg_catalog.accel_key_in($1, $2)");
    for (Shape shape : SHAPES) {
      sql = shape.pattern().matcher(sql).replaceAll(shape.replacement());
    }
    return sql;
  }

  private static final String IDENTIFIER = "(?:\"[^\"]+\"|\\w+)";

  /**
   * {@code a.attnum = ANY (con.conkey)} over the catalog's key columns, which Accel keeps as text ({@code {1,2}},
   * an index's {@code 1 2}): whether the number is one of the keys (TypeORM's constraint and index listings).
   */
  private static final Pattern KEY_IN = Pattern.compile("(" + IDENTIFIER + "(?:\\s*\\.\\s*" + IDENTIFIER
      + ")*)\\s*=\\s*(?i:any)\\s*\\(\\s*((?:" + IDENTIFIER + "\\s*\\.\\s*)?\"?(?i:conkey|confkey|indkey)\"?)\\s*\\)");
}
