package io.accel.sql;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.sql.Command.ColumnSpec;
import io.accel.sql.Command.IndexKeySpec;
import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;

/**
 * Recognises and parses the statements Accel runs itself (see {@link Command}); every other statement is
 * left to Calcite. Calcite's Babel grammar has no constraints, defaults or CREATE INDEX, hence this parser.
 */
public final class CommandParser {
  private final String sql;
  private final List<Token> tokens;
  private int pos;
  /** CHECK constraints declared so far in the statement (column and table constraints). */
  private final List<Command.CheckSpec> checks = new ArrayList<>();
  /** FOREIGN KEY constraints declared so far in the statement (column and table constraints). */
  private final List<Command.ForeignKeySpec> foreignKeys = new ArrayList<>();
  /** The name of a {@code CONSTRAINT name} just read, for the constraint that follows. */
  private Optional<String> constraintName = Optional.empty();

  private CommandParser(String sql) {
    this(sql, false);
  }

  /** {@code extended}: E'...' strings are one token (COMMENT's text may be one). */
  private CommandParser(String sql, boolean extended) {
    this.sql = sql;
    this.tokens = extended ? SqlLexer.tokenizeExtended(sql) : SqlLexer.tokenize(sql);
  }

  private static final java.util.regex.Pattern FIRST_WORD = java.util.regex.Pattern.compile(
      "\\s*([A-Za-z]+)\\b");
  /** The first words of queries and DML, which Calcite plans. */
  private static final java.util.Set<String> QUERY_WORDS =
      java.util.Set.of("select", "insert", "update", "delete", "with", "values", "table");

  /** The command, or empty when the statement is one for Calcite (queries and DML). */
  public static Optional<Command> parse(String sql) {
    java.util.regex.Matcher word = FIRST_WORD.matcher(sql);
    String firstWord = word.lookingAt() ? word.group(1).toLowerCase(java.util.Locale.ROOT) : null;
    if (firstWord != null && QUERY_WORDS.contains(firstWord)) {
      return Optional.empty(); // no command starts so: spares every query the lexing and matching below
    }
    Optional<Command> cache = CacheCommands.parse(sql);
    if (cache.isPresent()) {
      return cache;
    }
    if (firstWord != null) {
      // lexed as Calcite's statements are: their arguments and bodies may hold $n, E'' strings and casts
      switch (firstWord) {
        case "prepare", "execute", "deallocate" -> {
          return PreparedStatementSyntax.parse(sql);
        }
        case "listen", "unlisten", "notify" -> {
          return NotifySyntax.parse(sql);
        }
        default -> {
        }
      }
    }
    CommandParser p = new CommandParser(sql, "comment".equals(firstWord));
    Token first = p.peek();
    if (first.kind() != Kind.WORD) {
      return Optional.empty();
    }
    Command c = switch (first.text()) {
      case "create" -> p.create();
      case "drop" -> p.drop();
      case "begin", "start" -> p.begin();
      case "commit", "end" -> p.endWith(new Command.Commit(), "transaction", "work");
      case "rollback" -> p.rollback();
      case "abort" -> p.endWith(new Command.Rollback(), "transaction", "work");
      case "savepoint" -> p.savepoint();
      case "release" -> p.release();
      case "analyze", "analyse" -> p.analyze();
      case "explain" -> p.explain();
      case "set" -> p.set();
      case "show" -> p.show();
      case "reset" -> p.reset();
      case "truncate" -> p.truncate();
      case "vacuum" -> p.vacuum();
      case "alter" -> p.alter();
      case "copy" -> p.copy();
      case "comment" -> p.comment();
      case "grant" -> p.grant();
      case "revoke" -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "REVOKE is not supported by Accel:"
          + " every user of a store may read and write all of it");
      default -> null;
    };
    return Optional.ofNullable(c);
  }

  private static final java.util.regex.Pattern ZONE_INTERVAL =
      java.util.regex.Pattern.compile("\\s*([+-]?)(\\d{1,2})(?::(\\d{2}))?\\s*");

  /**
   * {@code INTERVAL '+05:30' HOUR TO MINUTE} (the SQL standard's zone, Sequelize's on every connection) as the
   * zone PostgreSQL names it ({@code <+05:30>-05:30}).
   */
  private String intervalZone() {
    next();
    Token text = next();
    java.util.regex.Matcher m = text.kind() == Kind.STRING ? ZONE_INTERVAL.matcher(text.text()) : null;
    if (m == null || !m.matches()) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid interval value for time zone: "
          + text.text());
    }
    if (optionalWord("hour")) {
      if (optionalWord("to")) {
        expectWord("minute");
      }
    }
    String hours = String.format(java.util.Locale.ROOT, "%02d", Integer.parseInt(m.group(2)))
        + (m.group(3) == null || m.group(3).equals("00") ? "" : ":" + m.group(3));
    boolean west = m.group(1).equals("-");
    // PostgreSQL's own name for it: the abbreviation, then the POSIX offset (hours west)
    return "<" + (west ? "-" : "+") + hours + ">" + (west ? "+" : "-") + hours;
  }

  /**
   * {@code SET [SESSION | LOCAL] name {TO | =} value [, ...] | DEFAULT}, {@code SET TIME ZONE value | LOCAL |
   * DEFAULT}. Null when the statement is not a setting (Calcite's own SET forms are left to it).
   */
  private Command set() {
    next();
    boolean local = false;
    if (peek().is("session") && !tokens.get(pos + 1).isSymbol("=") && !tokens.get(pos + 1).is("to")
        && !tokens.get(pos + 1).is("characteristics")) {
      next();
    } else if (peek().is("local") && !tokens.get(pos + 1).isSymbol("=") && !tokens.get(pos + 1).is("to")) {
      next();
      local = true;
    }
    if (peek().is("constraints") && !tokens.get(pos + 1).isSymbol("=") && !tokens.get(pos + 1).is("to")) {
      next();
      List<String> names = null;
      if (!optionalWord("all")) {
        names = new ArrayList<>();
        do {
          String name = name();
          if (optionalSymbol(".")) {
            name = name(); // schema-qualified: Accel has the one schema
          }
          names.add(name);
        } while (optionalSymbol(","));
      }
      boolean deferred = optionalWord("deferred");
      if (!deferred) {
        expectWord("immediate");
      }
      finish();
      return new Command.SetConstraints(names, deferred);
    }
    if (peek().is("time") && tokens.get(pos + 1).is("zone")) {
      next();
      next();
      String value;
      if (peek().is("interval")) {
        value = intervalZone();
      } else {
        value = peek().is("local") || peek().is("default") ? null : settingValue();
        if (value == null) {
          next();
        }
      }
      finish();
      return new Command.Set("timezone", value, local);
    }
    if ((peek().is("role") || peek().is("authorization")) && !tokens.get(pos + 1).isSymbol("=")
        && !tokens.get(pos + 1).is("to")) {
      // SET ROLE name | NONE, SET SESSION AUTHORIZATION name | DEFAULT (Flyway restores its role so)
      next();
      Token t = next();
      String role = switch (t.kind()) {
        case WORD -> t.text().toLowerCase(java.util.Locale.ROOT);
        case QUOTED, STRING -> t.text();
        default -> throw error(t, "syntax error at or near \""
            + (t.kind() == Kind.END ? "end of input" : t.text()) + "\"");
      };
      finish();
      return new Command.Set("role", role.equals("default") && t.kind() == Kind.WORD ? null : role, local);
    }
    if (peek().is("transaction") || peek().is("session") && tokens.get(pos + 1).is("characteristics")) {
      // SET TRANSACTION modes / SET SESSION CHARACTERISTICS AS TRANSACTION modes: the isolation level is kept
      boolean session = next().is("session");
      if (session) {
        next();
        expectWord("as");
        expectWord("transaction");
      }
      String isolation = transactionModes();
      finish();
      return isolation == null ? new Command.Set("transaction", "", local)
          : new Command.Set(session ? "default_transaction_isolation" : "transaction_isolation", isolation, local);
    }
    String name = settingName();
    if (!optionalWord("to") && !optionalSymbol("=")) {
      throw error("syntax error at or near \"" + peek().text() + "\", expected TO or =");
    }
    if (peek().is("default")) {
      next();
      finish();
      return new Command.Set(name, null, local);
    }
    StringBuilder value = new StringBuilder(settingValue());
    while (optionalSymbol(",")) {
      value.append(", ").append(settingValue());
    }
    finish();
    return new Command.Set(name, value.toString(), local);
  }

  private Command show() {
    next();
    String name = peek().is("time") && tokens.get(pos + 1).is("zone") ? "timezone" : null;
    if (name != null) {
      next();
      next();
    } else if (peek().is("transaction") && tokens.get(pos + 1).is("isolation")) {
      next();
      next();
      expectWord("level");
      name = "transaction_isolation";
    } else {
      name = settingName();
    }
    finish();
    return new Command.Show(name);
  }

  private Command reset() {
    next();
    String name = peek().is("time") && tokens.get(pos + 1).is("zone") ? "timezone" : null;
    if (name != null) {
      next();
      next();
    } else {
      name = settingName();
    }
    finish();
    return new Command.Reset(name);
  }

  /** A setting's name, folded to lower case (names may be qualified: {@code accel.x}). */
  private String settingName() {
    Token t = next();
    if (!t.isName()) {
      throw error(t, "syntax error at or near \"" + (t.kind() == Kind.END ? "end of input" : t.text()) + "\"");
    }
    StringBuilder name = new StringBuilder(t.text().toLowerCase(java.util.Locale.ROOT));
    while (optionalSymbol(".")) {
      name.append('.').append(next().text().toLowerCase(java.util.Locale.ROOT));
    }
    return name.toString();
  }

  /** One value of SET: a word, a quoted name, a string or a (signed) number. */
  private String settingValue() {
    Token t = next();
    if (t.isSymbol("-") || t.isSymbol("+")) {
      Token n = next();
      if (n.kind() != Kind.NUMBER) {
        throw error(n, "syntax error at or near \"" + n.text() + "\"");
      }
      return (t.text().equals("-") ? "-" : "") + n.text();
    }
    return switch (t.kind()) {
      case WORD, QUOTED, STRING, NUMBER -> t.text();
      default -> throw error(t, "syntax error at or near \""
          + (t.kind() == Kind.END ? "end of input" : t.text()) + "\"");
    };
  }

  private Command begin() {
    if (next().is("start")) {
      expectWord("transaction");
    } else {
      optionalWord("transaction", "work");
    }
    String isolation = transactionModes();
    finish();
    return new Command.Begin(isolation);
  }

  /**
   * A transaction's modes (BEGIN, SET TRANSACTION): {@code ISOLATION LEVEL level}, {@code READ WRITE | READ ONLY},
   * {@code [NOT] DEFERRABLE}, separated by commas or not. Returns the isolation level given, or null; READ
   * UNCOMMITTED is READ COMMITTED, as in PostgreSQL. The access modes are accepted and have no effect.
   */
  private String transactionModes() {
    String isolation = null;
    while (peek().kind() != Kind.END && !peek().isSymbol(";")) {
      if (optionalSymbol(",")) {
        continue;
      }
      Token t = next();
      if (t.is("isolation")) {
        expectWord("level");
        Token level = next();
        if (level.is("serializable")) {
          isolation = "serializable";
        } else if (level.is("repeatable")) {
          expectWord("read");
          isolation = "repeatable read";
        } else if (level.is("read") && (peek().is("committed") || peek().is("uncommitted"))) {
          next();
          isolation = "read committed";
        } else {
          throw error(level, "syntax error at or near \"" + level.text() + "\"");
        }
      } else if (t.is("read")) {
        if (!optionalWord("write") && !optionalWord("only")) {
          throw error(peek(), "syntax error at or near \"" + peek().text() + "\"");
        }
      } else if (t.is("not")) {
        expectWord("deferrable");
      } else if (!t.is("deferrable")) {
        throw error(t, "syntax error at or near \"" + t.text() + "\"");
      }
    }
    return isolation;
  }

  /**
   * {@code ANALYZE [VERBOSE] [TABLE] [name [, ...]]}, or PostgreSQL's {@code ANALYZE (VERBOSE [boolean],
   * SKIP_LOCKED [boolean]) ...}; no name means every table. Column lists are not supported.
   */
  private Command analyze() {
    next();
    boolean verbose = false;
    if (optionalSymbol("(")) {
      do {
        Token option = next();
        if (!option.is("verbose") && !option.is("skip_locked")) {
          throw error(option, "unrecognized ANALYZE option \"" + option.text() + "\"");
        }
        Boolean given = booleanValue();
        boolean value = given != null ? given
            : peek().kind() == Kind.NUMBER && (peek().text().equals("0") || peek().text().equals("1"))
                ? next().text().equals("1") : true;
        if (option.is("verbose")) {
          verbose = value;
        }
      } while (optionalSymbol(","));
      expectSymbol(")");
    } else {
      verbose = optionalWord("verbose");
    }
    boolean tableWord = optionalWord("table");
    List<String> names = tableNames("ANALYZE", tableWord);
    finish();
    return new Command.Analyze(names, verbose);
  }

  /**
   * PostgreSQL's {@code EXPLAIN [ANALYZE] [VERBOSE] statement} and {@code EXPLAIN (option [value], ...)
   * statement} with the options ANALYZE, VERBOSE, COSTS, TIMING, SUMMARY and BUFFERS (the last four are
   * accepted and ignored). Null for Calcite's own {@code EXPLAIN PLAN FOR}, which Calcite runs.
   */
  private Command explain() {
    next();
    if (peek().is("plan")) {
      return null;
    }
    boolean analyze = false;
    boolean verbose = false;
    if (optionalSymbol("(")) {
      do {
        Token option = next();
        if (!(option.is("analyze") || option.is("analyse") || option.is("verbose") || option.is("costs")
            || option.is("timing") || option.is("summary") || option.is("buffers"))) {
          throw error(option, "unrecognized EXPLAIN option \"" + option.text() + "\"");
        }
        Boolean given = booleanValue();
        boolean value = given == null || given;
        if (option.is("analyze") || option.is("analyse")) {
          analyze = value;
        } else if (option.is("verbose")) {
          verbose = value;
        }
      } while (optionalSymbol(","));
      expectSymbol(")");
    } else {
      analyze = optionalWord("analyze", "analyse");
      verbose = optionalWord("verbose");
    }
    String statement = restOfStatement();
    return new Command.Explain(statement, analyze, verbose);
  }

  /** Storage parameters PostgreSQL's tables accept (heap and toast reloptions of PostgreSQL 15). */
  private static final java.util.Set<String> STORAGE_PARAMETERS = java.util.Set.of("fillfactor", "toast_tuple_target",
      "parallel_workers", "autovacuum_enabled", "autovacuum_vacuum_threshold", "autovacuum_vacuum_insert_threshold",
      "autovacuum_analyze_threshold", "autovacuum_vacuum_cost_delay", "autovacuum_vacuum_cost_limit",
      "autovacuum_freeze_min_age", "autovacuum_freeze_max_age", "autovacuum_freeze_table_age",
      "autovacuum_multixact_freeze_min_age", "autovacuum_multixact_freeze_max_age",
      "autovacuum_multixact_freeze_table_age", "autovacuum_vacuum_scale_factor",
      "autovacuum_vacuum_insert_scale_factor", "autovacuum_analyze_scale_factor", "log_autovacuum_min_duration",
      "user_catalog_table", "vacuum_index_cleanup", "vacuum_truncate");

  /**
   * {@code WITH (name [= value], ...)} after CREATE TABLE: known parameters are accepted and ignored (RocksDB has no
   * heap pages or vacuum), fillfactor is range-checked, anything else is 22023 as in PostgreSQL.
   */
  private void storageParameters() {
    expectSymbol("(");
    do {
      String name = settingName();
      String value = optionalSymbol("=") ? settingValue() : "true";
      String base = name.startsWith("toast.") ? name.substring("toast.".length()) : name;
      if (!STORAGE_PARAMETERS.contains(base) || name.startsWith("toast.") && !base.startsWith("autovacuum_")
          && !base.equals("vacuum_truncate") && !base.equals("vacuum_index_cleanup")
          && !base.equals("log_autovacuum_min_duration")) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + name + "\"");
      }
      if (name.equals("fillfactor")) {
        int fill;
        try {
          fill = Integer.parseInt(value);
        } catch (NumberFormatException e) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
              "invalid value for integer option \"fillfactor\": " + value);
        }
        if (fill < 10 || fill > 100) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "value " + value
              + " out of bounds for option \"fillfactor\"").withDetail("Valid values are between \"10\" and \"100\".");
        }
      }
    } while (optionalSymbol(","));
    expectSymbol(")");
  }

  /** {@code TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
  private Command truncate() {
    next();
    optionalWord("table");
    List<String> names = new ArrayList<>();
    do {
      optionalWord("only");
      names.add(name());
      optionalSymbol("*");
    } while (optionalSymbol(","));
    if (optionalWord("restart", "continue")) {
      expectWord("identity");
    }
    boolean cascade = optionalWord("cascade");
    if (!cascade) {
      optionalWord("restrict");
    }
    finish();
    return new Command.Truncate(names, cascade);
  }

  /** {@code COMMENT ON kind object IS 'text' | NULL} for the objects Accel has (see {@link Command.Comment}). */
  private Command comment() {
    next();
    expectWord("on");
    Token kindToken = next();
    String kind = kindToken.kind() == Kind.WORD ? kindToken.text() : "";
    String name;
    String table = null;
    switch (kind) {
      case "table", "view", "index", "sequence" -> name = name();
      case "column" -> {
        List<String> parts = new ArrayList<>();
        do {
          Token t = next();
          if (!t.isName()) {
            throw error(t, "syntax error at or near \"" + t.text() + "\"");
          }
          parts.add(t.text());
        } while (optionalSymbol("."));
        if (parts.size() < 2) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "column name must be qualified");
        }
        if (parts.size() > 3 || parts.size() == 3 && !parts.get(0).equals("public")) {
          throw new AccelException(SqlState.UNDEFINED_OBJECT, "schema \"" + parts.get(parts.size() - 3)
              + "\" does not exist");
        }
        table = parts.get(parts.size() - 2);
        name = parts.get(parts.size() - 1);
      }
      case "constraint" -> {
        name = name();
        expectWord("on");
        if (peek().is("domain")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "domains are not supported by Accel");
        }
        table = name();
      }
      case "schema", "database" -> {
        Token t = next();
        if (!t.isName()) {
          throw error(t, "syntax error at or near \"" + t.text() + "\"");
        }
        name = t.text();
      }
      default -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COMMENT ON "
          + (kindToken.text() + (peek().isName() ? " " + peek().text() : "")).toUpperCase(java.util.Locale.ROOT)
          + " is not supported by Accel (it has comments on tables, views, columns, indexes, sequences,"
          + " constraints, the schema and the database)");
    }
    expectWord("is");
    String text = optionalWord("null") ? null : expectString();
    finish();
    return new Command.Comment(kind, name, table, text);
  }

  /**
   * {@code VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [name [, ...]]} or {@code VACUUM (option [value], ...)
   * [name [, ...]]}; column lists are not supported.
   */
  private Command vacuum() {
    next();
    boolean analyze = false;
    boolean full = false;
    if (optionalSymbol("(")) {
      do {
        Token option = next();
        if (!option.isName()) {
          throw error(option, "syntax error at or near \"" + option.text() + "\"");
        }
        String o = option.text().toLowerCase(java.util.Locale.ROOT);
        if (!java.util.Set.of("full", "freeze", "verbose", "analyze", "analyse", "disable_page_skipping",
            "skip_locked", "index_cleanup", "process_toast", "truncate", "parallel").contains(o)) {
          throw error(option, "unrecognized VACUUM option \"" + option.text() + "\"");
        }
        Boolean given = booleanValue();
        boolean value = given != null ? given
            : peek().kind() == Kind.NUMBER || peek().is("auto") || peek().kind() == Kind.STRING
                ? !next().text().equals("0") : true;
        if (o.startsWith("analy")) {
          analyze = value;
        } else if (o.equals("full")) {
          full = value;
        }
      } while (optionalSymbol(","));
      expectSymbol(")");
    } else {
      full = optionalWord("full");
      optionalWord("freeze");
      optionalWord("verbose");
      analyze = optionalWord("analyze", "analyse");
    }
    List<String> names = tableNames("VACUUM", false);
    finish();
    return new Command.Vacuum(names, analyze, full);
  }

  /** The tables ANALYZE or VACUUM name (none: every table); column lists are refused. */
  private List<String> tableNames(String command, boolean required) {
    List<String> names = new ArrayList<>();
    if (required || peek().isName()) {
      do {
        names.add(name());
        if (peek().isSymbol("(")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
              "column lists in " + command + " are not supported by Accel; " + command + " the whole table");
        }
      } while (optionalSymbol(","));
    }
    return names;
  }

  /**
   * {@code ALTER TABLE [IF EXISTS] [ONLY] name action [, ...]}: ADD / DROP / RENAME / ALTER COLUMN, RENAME TO, and
   * ADD [CONSTRAINT c] PRIMARY KEY | UNIQUE (columns); the latter alone is an {@link Command.AddKey}.
   */
  private Command alter() {
    next();
    Command owner = alterOwner();
    if (owner != null) {
      return owner;
    }
    if (optionalWord("sequence")) {
      return alterSequence();
    }
    if (!optionalWord("table")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER " + peek().text().toUpperCase(java.util.Locale.ROOT)
          + " is not supported by Accel");
    }
    boolean ifExists = false;
    if (optionalWord("if")) {
      expectWord("exists");
      ifExists = true;
    }
    optionalWord("only");
    String table = name();
    optionalSymbol("*");
    List<Command.AlterAction> actions = new ArrayList<>();
    if (optionalWord("rename")) {
      if (optionalWord("to")) {
        actions.add(new Command.RenameTable(name()));
      } else if (peek().is("constraint")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE RENAME CONSTRAINT is not supported by"
            + " Accel");
      } else {
        optionalWord("column");
        String column = name();
        expectWord("to");
        actions.add(new Command.RenameColumn(column, name()));
      }
      finish();
      return new Command.AlterTable(table, ifExists, actions);
    }
    do {
      actions.add(alterAction(table, ifExists));
      // a column's REFERENCES: the constraint is added once the column is there
      foreignKeys.forEach(fk -> actions.add(new Command.AddForeignKey(fk)));
      foreignKeys.clear();
    } while (optionalSymbol(","));
    finish();
    if (actions.size() == 1 && actions.get(0) instanceof Command.AddKeyAction k) {
      return k.key();
    }
    return new Command.AlterTable(table, ifExists, actions);
  }

  /** {@code ALTER kind [IF EXISTS] [ONLY] name OWNER TO role}, or null (the position unchanged) for any other ALTER. */
  private Command alterOwner() {
    int start = pos;
    Token kind = next();
    if (!(kind.is("table") || kind.is("sequence") || kind.is("view") || kind.is("index") || kind.is("schema"))) {
      pos = start;
      return null;
    }
    boolean ifExists = false;
    if (peek().is("if") && pos + 1 < tokens.size() && tokens.get(pos + 1).is("exists")) {
      pos += 2;
      ifExists = true;
    }
    optionalWord("only");
    if (!peek().isName()) {
      pos = start;
      return null;
    }
    String name = peek().text();
    next();
    if (optionalSymbol(".")) {
      if (!peek().isName()) {
        pos = start;
        return null;
      }
      name = next().text();
    }
    if (!peek().is("owner")) {
      pos = start;
      return null;
    }
    next();
    expectWord("to");
    Token role = next();
    if (!role.isName()) {
      throw error(role, "syntax error at or near \"" + role.text() + "\"");
    }
    finish();
    return new Command.AlterOwner(kind.text(), name, ifExists, role.text());
  }

  /** {@code GRANT privileges ON objects TO grantees [WITH GRANT OPTION] [GRANTED BY role]}; role membership is 0A000. */
  private Command grant() {
    expectWord("grant");
    while (!peek().is("on") && !peek().is("to") && peek().kind() != Kind.END) {
      next(); // the privileges, with column lists
    }
    if (!optionalWord("on")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "GRANT of role membership is not supported by Accel");
    }
    String kind = "table";
    List<String> names = new ArrayList<>();
    if (optionalWord("all")) {
      Token what = next();
      if (!what.is("tables") && !what.is("sequences") && !what.is("functions") && !what.is("routines")
          && !what.is("procedures")) {
        throw error(what, "syntax error at or near \"" + what.text() + "\"");
      }
      kind = "all " + what.text();
      expectWord("in");
      expectWord("schema");
      do {
        names.add(name());
      } while (optionalSymbol(","));
    } else {
      for (String k : List.of("table", "sequence", "schema", "database")) {
        if (optionalWord(k)) {
          kind = k;
        }
      }
      if (peek().is("function") || peek().is("procedure") || peek().is("routine") || peek().is("type")
          || peek().is("language") || peek().is("domain") || peek().is("foreign") || peek().is("large")
          || peek().is("tablespace")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "GRANT ON " + peek().text().toUpperCase(
            java.util.Locale.ROOT) + " is not supported by Accel");
      }
      do {
        names.add(name());
      } while (optionalSymbol(","));
    }
    expectWord("to");
    List<String> grantees = new ArrayList<>();
    do {
      optionalWord("group");
      Token g = next();
      if (!g.isName()) {
        throw error(g, "syntax error at or near \"" + g.text() + "\"");
      }
      grantees.add(g.text());
    } while (optionalSymbol(","));
    if (optionalWord("with")) {
      expectWord("grant");
      expectWord("option");
    }
    if (optionalWord("granted")) {
      expectWord("by");
      name();
    }
    finish();
    return new Command.Grant(kind, names, grantees);
  }

  /** An optional {@code NOT VALID} after a constraint ALTER TABLE adds. */
  private boolean notValid() {
    if (optionalWord("not")) {
      expectWord("valid");
      return true;
    }
    return false;
  }

  private Command.AlterAction alterAction(String table, boolean ifExists) {
    Token verb = next();
    if (verb.is("add")) {
      boolean column = optionalWord("column");
      if (!column && (peek().is("constraint") || peek().is("primary") || peek().is("unique") || peek().is("check")
          || peek().is("foreign") || peek().is("exclude"))) {
        int at = pos;
        constraintName = Optional.empty();
        if (optionalWord("constraint")) {
          constraintName = Optional.of(name());
        }
        if (optionalWord("check")) {
          Command.CheckSpec check = new Command.CheckSpec(constraintName, Optional.empty(), checkExpression());
          return new Command.AddCheck(check, notValid());
        }
        if (optionalWord("foreign")) {
          expectWord("key");
          Command.ForeignKeySpec fk = references(nameList());
          return new Command.AddForeignKey(fk, notValid());
        }
        pos = at;
        return new Command.AddKeyAction(addKey(table, ifExists));
      }
      boolean ifNotExists = ifNotExists();
      List<String> primaryKey = new ArrayList<>();
      List<List<String>> uniques = new ArrayList<>();
      int before = checks.size();
      ColumnSpec spec = column(table, primaryKey, uniques);
      List<Command.CheckSpec> columnChecks = new ArrayList<>(checks.subList(before, checks.size()));
      return new Command.AddColumn(spec, ifNotExists, !uniques.isEmpty(), !primaryKey.isEmpty(), columnChecks);
    }
    if (verb.is("validate")) {
      expectWord("constraint");
      return new Command.ValidateConstraint(name());
    }
    if (verb.is("drop")) {
      if (optionalWord("constraint")) {
        boolean constraintIfExists = false;
        if (optionalWord("if")) {
          expectWord("exists");
          constraintIfExists = true;
        }
        String constraint = name();
        if (!optionalWord("cascade")) {
          optionalWord("restrict");
        }
        return new Command.DropConstraint(constraint, constraintIfExists);
      }
      optionalWord("column");
      boolean columnIfExists = false;
      if (optionalWord("if")) {
        expectWord("exists");
        columnIfExists = true;
      }
      String column = name();
      boolean cascade = optionalWord("cascade");
      if (!cascade) {
        optionalWord("restrict");
      }
      return new Command.DropColumn(column, columnIfExists, cascade);
    }
    if (verb.is("alter")) {
      optionalWord("column");
      String column = name();
      if (optionalWord("set")) {
        if (optionalWord("default")) {
          return new Command.SetDefault(column, Optional.of(defaultExpression()));
        }
        if (optionalWord("not")) {
          expectWord("null");
          return new Command.SetNotNull(column, true);
        }
        if (optionalWord("data")) {
          expectWord("type");
          return alterType(column);
        }
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER COLUMN SET " + peek().text().toUpperCase(
            java.util.Locale.ROOT) + " is not supported by Accel");
      }
      if (optionalWord("drop")) {
        if (optionalWord("default")) {
          return new Command.SetDefault(column, Optional.empty());
        }
        if (optionalWord("not")) {
          expectWord("null");
          return new Command.SetNotNull(column, false);
        }
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER COLUMN DROP " + peek().text().toUpperCase(
            java.util.Locale.ROOT) + " is not supported by Accel");
      }
      if (optionalWord("type")) {
        return alterType(column);
      }
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER COLUMN " + peek().text().toUpperCase(
          java.util.Locale.ROOT) + " is not supported by Accel");
    }
    throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE " + verb.text().toUpperCase(
        java.util.Locale.ROOT) + " is not supported by Accel");
  }

  /** The rest of {@code ALTER COLUMN c [SET DATA] TYPE type [USING expression]}. */
  private Command.AlterType alterType(String column) {
    DataType type = type();
    Optional<String> using = Optional.empty();
    if (optionalWord("collate")) {
      name();
    }
    if (optionalWord("using")) {
      int start = peek().start();
      int end = start;
      int depth = 0;
      while (peek().kind() != Kind.END && !(depth == 0 && (peek().isSymbol(",") || peek().isSymbol(";")))) {
        Token t = next();
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          depth--;
        }
        end = t.end();
      }
      if (end == start) {
        throw error("syntax error at or near \"" + peek().text() + "\"");
      }
      using = Optional.of(sql.substring(start, end).trim());
    }
    return new Command.AlterType(column, type, using);
  }

  /** {@code [CONSTRAINT c] PRIMARY KEY | UNIQUE (columns)} after ADD. */
  private Command.AddKey addKey(String table, boolean ifExists) {
    Optional<String> constraint = Optional.empty();
    if (optionalWord("constraint")) {
      constraint = Optional.of(name());
    }
    boolean primary;
    if (optionalWord("primary")) {
      expectWord("key");
      primary = true;
    } else if (optionalWord("unique")) {
      primary = false;
    } else {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE ADD " + peek().text().toUpperCase(
          java.util.Locale.ROOT) + " is not supported by Accel; it adds PRIMARY KEY and UNIQUE constraints");
    }
    List<String> columns = nameList();
    if (optionalWord("using")) {
      expectWord("index");
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "USING INDEX is not supported by Accel");
    }
    return new Command.AddKey(table, ifExists, constraint, columns, primary);
  }

  /**
   * PostgreSQL's COPY: {@code COPY table [(columns)] FROM STDIN | TO STDOUT}, {@code COPY (query) TO STDOUT}, with
   * {@code [WITH] (option [value], ...)} or the options of before 9.0 ({@code [BINARY] [DELIMITER [AS] 'c'] [NULL
   * [AS] 's'] [CSV [HEADER] [QUOTE [AS] 'q'] [ESCAPE [AS] 'e']]}). Files and programs are the server's and refused.
   */
  private Command copy() {
    next();
    String table = null;
    String query = null;
    List<String> columns = new ArrayList<>();
    if (peek().isSymbol("(")) {
      Token open = next();
      Token t = closingParenthesis();
      query = sql.substring(open.end(), t.start()).trim();
    } else {
      table = name();
      if (peek().isSymbol("(")) {
        columns.addAll(nameList());
      }
    }
    boolean from;
    if (optionalWord("from")) {
      from = true;
      if (query != null) {
        throw error("syntax error at or near \"FROM\"");
      }
    } else if (optionalWord("to")) {
      from = false;
    } else {
      throw error("syntax error at or near \"" + peek().text() + "\", expected FROM or TO");
    }
    boolean program = optionalWord("program");
    if (program || peek().kind() == Kind.STRING) {
      throw new AccelException(SqlState.INSUFFICIENT_PRIVILEGE, !program
          ? (from ? "must be superuser or have privileges of the pg_read_server_files role to COPY from a file"
              : "must be superuser or have privileges of the pg_write_server_files role to COPY to a file")
          : "must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an"
              + " external program")
          .withHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.");
    }
    if (!optionalWord(from ? "stdin" : "stdout")) {
      throw error("syntax error at or near \"" + peek().text() + "\", expected " + (from ? "STDIN" : "STDOUT"));
    }
    CopyOptions o = new CopyOptions();
    boolean with = optionalWord("with");
    if (peek().isSymbol("(")) {
      next();
      do {
        Token option = next();
        if (!option.isName()) {
          throw error(option, "syntax error at or near \"" + option.text() + "\"");
        }
        o.option(option, optionValue());
      } while (optionalSymbol(","));
      expectSymbol(")");
    } else {
      while (peek().kind() == Kind.WORD) {
        Token option = next();
        switch (option.text()) {
          case "binary" -> o.option(option, null);
          case "csv" -> o.csv = true;
          case "header" -> o.header = true;
          case "delimiter", "null", "quote", "escape" -> {
            optionalWord("as");
            o.option(option, expectString());
          }
          case "force" -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
              "COPY FORCE options are not supported by Accel");
          default -> throw error(option, "syntax error at or near \"" + option.text() + "\"");
        }
      }
    }
    if (!with && peek().kind() != Kind.END && !peek().isSymbol(";")) {
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
    finish();
    return new Command.Copy(table, columns, query, from, o.format());
  }

  /** The value after a parenthesised COPY option: a word, string or number, or nothing (null). */
  private String optionValue() {
    Token t = peek();
    if (t.isSymbol(",") || t.isSymbol(")")) {
      return null;
    }
    next();
    return t.text();
  }

  private String expectString() {
    Token t = next();
    if (t.kind() != Kind.STRING) {
      throw error(t, "syntax error at or near \"" + t.text() + "\"");
    }
    return t.text();
  }

  /** COPY options as given, checked as PostgreSQL's ProcessCopyOptions does. */
  private static final class CopyOptions {
    boolean csv;
    boolean binary;
    boolean header;
    boolean headerMatch;
    boolean freeze;
    String delimiter;
    String nullString;
    String quote;
    String escape;
    private final java.util.Set<String> seen = new java.util.HashSet<>();

    void option(Token option, String value) {
      String name = option.text().toLowerCase(java.util.Locale.ROOT);
      if (!seen.add(name)) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "conflicting or redundant options");
      }
      switch (name) {
        case "format" -> {
          String f = value == null ? "" : value.toLowerCase(java.util.Locale.ROOT);
          binary = f.equals("binary");
          if (!binary && !f.equals("text") && !f.equals("csv")) {
            throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "COPY format \"" + value + "\" not recognized");
          }
          csv = f.equals("csv");
        }
        case "binary" -> binary = true; // the syntax of before 9.0
        case "freeze" -> freeze = bool(name, value);
        case "header" -> {
          if (value != null && value.equalsIgnoreCase("match")) {
            header = true;
            headerMatch = true;
          } else {
            header = bool(name, value);
          }
        }
        case "delimiter" -> delimiter = value;
        case "null" -> nullString = value;
        case "quote" -> quote = value;
        case "escape" -> escape = value;
        case "encoding" -> {
          String e = value == null ? "" : value.toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
          if (!e.equals("utf8") && !e.equals("unicode")) {
            throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY encoding \"" + value
                + "\" is not supported by Accel; it reads and writes UTF8");
          }
        }
        case "force_quote", "force_not_null", "force_null" -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
            "COPY " + name.toUpperCase(java.util.Locale.ROOT) + " is not supported by Accel");
        default -> throw new AccelException(SqlState.SYNTAX_ERROR, "option \"" + option.text() + "\" not recognized");
      }
    }

    private static boolean bool(String name, String value) {
      if (value == null) {
        return true;
      }
      return switch (value.toLowerCase(java.util.Locale.ROOT)) {
        case "true", "on", "1" -> true;
        case "false", "off", "0" -> false;
        default -> throw new AccelException(SqlState.SYNTAX_ERROR, name + " requires a Boolean value");
      };
    }

    Command.CopyFormat format() {
      if (binary) {
        // PostgreSQL's ProcessCopyOptions: the text options mean nothing to the binary format
        if (delimiter != null || nullString != null) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "cannot specify " + (delimiter != null ? "DELIMITER"
              : "NULL") + " in BINARY mode");
        }
        if (header) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot specify HEADER in BINARY mode");
        }
        if (quote != null || escape != null) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (quote != null ? "quote" : "escape")
              + " available only in CSV mode");
        }
        return new Command.CopyFormat(false, '\t', "\\N", '"', '"', false, false, freeze, true);
      }
      String d = delimiter != null ? delimiter : csv ? "," : "\t";
      if (d.length() != 1 || d.charAt(0) > 127) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY delimiter must be a single one-byte character");
      }
      if (d.equals("\r") || d.equals("\n")) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
            "COPY delimiter cannot be newline or carriage return");
      }
      String n = nullString != null ? nullString : csv ? "" : "\\N";
      if (n.contains("\r") || n.contains("\n")) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
            "COPY null representation cannot use newline or carriage return");
      }
      if (!csv && (quote != null || escape != null)) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (quote != null ? "quote" : "escape")
            + " available only in CSV mode");
      }
      String q = quote != null ? quote : "\"";
      String e = escape != null ? escape : q;
      if (q.length() != 1 || q.charAt(0) > 127) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY quote must be a single one-byte character");
      }
      if (e.length() != 1 || e.charAt(0) > 127) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY escape must be a single one-byte character");
      }
      if (csv && d.equals(q)) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "COPY delimiter and quote must be different");
      }
      return new Command.CopyFormat(csv, d.charAt(0), n, q.charAt(0), e.charAt(0), header, headerMatch, freeze);
    }
  }

  /** {@code ROLLBACK [WORK | TRANSACTION]} or {@code ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name}. */
  private Command rollback() {
    next();
    optionalWord("transaction", "work");
    if (optionalWord("to")) {
      optionalWord("savepoint");
      String name = savepointName();
      finish();
      return new Command.RollbackToSavepoint(name);
    }
    finish();
    return new Command.Rollback();
  }

  /** {@code SAVEPOINT name}. */
  private Command savepoint() {
    next();
    String name = savepointName();
    finish();
    return new Command.Savepoint(name);
  }

  /** {@code RELEASE [SAVEPOINT] name}. */
  private Command release() {
    next();
    if (peek().is("savepoint") && tokens.get(pos + 1).isName()) {
      next();
    }
    String name = savepointName();
    finish();
    return new Command.ReleaseSavepoint(name);
  }

  /** A savepoint's name: an identifier, folded unless quoted (never schema-qualified). */
  private String savepointName() {
    Token t = next();
    if (!t.isName()) {
      throw error(t, "syntax error at or near \"" + (t.kind() == Kind.END ? "end of input" : t.text()) + "\"");
    }
    return t.text();
  }

  private Command endWith(Command c, String... optionalWords) {
    next();
    optionalWord(optionalWords);
    finish();
    return c;
  }

  private Command create() {
    expectWord("create");
    boolean unique = optionalWord("unique");
    if (optionalWord("index")) {
      return createIndex(unique);
    }
    if (unique) {
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
    if (optionalWord("extension")) {
      return createExtension();
    }
    boolean unlogged = !unique && optionalWord("unlogged");
    if (optionalWord("table")) {
      return createTable();
    }
    if (!unlogged && (peek().is("view") || peek().is("or") && tokens.get(pos + 1).is("replace"))) {
      return createView();
    }
    if (!unlogged && optionalWord("sequence")) {
      return createSequence();
    }
    if (unlogged) {
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
    if (peek().is("temp") || peek().is("temporary") || peek().is("view") || peek().is("schema")
        || peek().is("sequence") || peek().is("materialized") || peek().is("or")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE " + peek().text().toUpperCase()
          + " is not supported by Accel");
    }
    throw error("syntax error at or near \"" + peek().text() + "\"");
  }

  /**
   * {@code CREATE TABLE name [(column, ...)] AS query [WITH [NO] DATA]}, when the tokens after the name are that;
   * else null (nothing consumed).
   */
  private Command createTableAs(String table, boolean ifNotExists) {
    int at = pos;
    List<String> columns = List.of();
    if (peek().isSymbol("(")) {
      // a list of bare names followed by AS, not column definitions
      int i = pos + 1;
      while (i + 1 < tokens.size() && (tokens.get(i).kind() == Kind.WORD || tokens.get(i).kind() == Kind.QUOTED)
          && (tokens.get(i + 1).isSymbol(",") || tokens.get(i + 1).isSymbol(")"))) {
        i += 2;
        if (tokens.get(i - 1).isSymbol(")")) {
          break;
        }
      }
      if (i >= tokens.size() || !tokens.get(i - 1).isSymbol(")") || !tokens.get(i).is("as")) {
        return null;
      }
      columns = nameList();
    }
    if (!peek().is("as")) {
      pos = at;
      return null;
    }
    next();
    String query = restOfStatement();
    boolean withData = true;
    java.util.regex.Matcher data = java.util.regex.Pattern.compile("(?is)(.*?)\\s+with\\s+(no\\s+)?data$")
        .matcher(query);
    if (data.matches()) {
      query = data.group(1).trim();
      withData = data.group(2) == null;
    }
    return new Command.CreateTableAs(table, ifNotExists, columns, query, withData);
  }

  /** The text from the next token to the end, without trailing semicolons (a statement inside this one). */
  private String restOfStatement() {
    Token start = peek();
    if (start.kind() == Kind.END) {
      throw error(start, "syntax error at end of input");
    }
    String text = sql.substring(start.start()).trim();
    while (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).trim();
    }
    return text;
  }

  /** {@code CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v] [CASCADE]}. */
  private Command createExtension() {
    boolean ifNotExists = ifNotExists();
    String name = name();
    optionalWord("with");
    while (peek().is("schema") || peek().is("version") || peek().is("cascade")) {
      if (next().is("cascade")) {
        continue;
      }
      Token value = next();
      if (value.kind() != Kind.WORD && value.kind() != Kind.QUOTED && value.kind() != Kind.STRING) {
        throw error(value, "syntax error at or near \"" + value.text() + "\"");
      }
    }
    finish();
    return new Command.CreateExtension(name, ifNotExists);
  }

  /** {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}; the query is kept as written. */
  private Command createView() {
    boolean orReplace = false;
    if (optionalWord("or")) {
      expectWord("replace");
      orReplace = true;
    }
    if (peek().is("temp") || peek().is("temporary") || peek().is("recursive") || peek().is("materialized")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE " + peek().text().toUpperCase()
          + " VIEW is not supported by Accel");
    }
    expectWord("view");
    String name = name();
    List<String> columns = peek().isSymbol("(") ? nameList() : List.of();
    if (optionalWord("with")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "view options (WITH ...) are not supported by Accel");
    }
    expectWord("as");
    String query = restOfStatement();
    if (query.toLowerCase(java.util.Locale.ROOT).matches("(?s).*\\bwith\\s+(cascaded\\s+|local\\s+)?check\\s+option$")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "WITH CHECK OPTION is not supported by Accel");
    }
    return new Command.CreateView(name, orReplace, columns, query);
  }

  private Command createTable() {
    boolean ifNotExists = ifNotExists();
    String table = name();
    Command createAs = createTableAs(table, ifNotExists);
    if (createAs != null) {
      return createAs;
    }
    expectSymbol("(");
    List<ColumnSpec> columns = new ArrayList<>();
    List<String> primaryKey = new ArrayList<>();
    List<List<String>> uniques = new ArrayList<>();
    keyNames.clear();
    primaryKeyName = Optional.empty();
    do {
      constraintName = Optional.empty();
      if (peek().is("constraint")) {
        next();
        constraintName = Optional.of(name());
      }
      if (peek().is("check")) {
        next();
        checks.add(new Command.CheckSpec(constraintName, Optional.empty(), checkExpression()));
      } else if (peek().is("primary")) {
        next();
        expectWord("key");
        if (!primaryKey.isEmpty()) {
          throw new AccelException(SqlState.INVALID_TABLE_DEFINITION,
              "multiple primary keys for table \"" + table + "\" are not allowed");
        }
        primaryKey.addAll(nameList());
        primaryKeyName = constraintName;
      } else if (peek().is("unique")) {
        next();
        constraintName.ifPresent(n -> keyNames.put(uniques.size(), n));
        uniques.add(nameList());
      } else if (peek().is("foreign")) {
        next();
        expectWord("key");
        foreignKeys.add(references(nameList()));
      } else if (peek().is("exclude")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, peek().text().toUpperCase()
            + " constraints are not supported by Accel");
      } else {
        columns.add(column(table, primaryKey, uniques));
      }
    } while (optionalSymbol(","));
    expectSymbol(")");
    if (optionalWord("with")) {
      storageParameters();
    } else if (optionalWord("without")) {
      expectWord("oids");
    }
    finish();
    if (columns.isEmpty()) {
      throw new AccelException(SqlState.INVALID_TABLE_DEFINITION, "table \"" + table + "\" has no columns");
    }
    Command.CreateTable created = new Command.CreateTable(table, ifNotExists, columns, primaryKey, uniques, checks,
        foreignKeys, primaryKeyName, Map.copyOf(keyNames));
    return columnSequences.isEmpty() ? created : new Command.CreateTableWithSequences(created, columnSequences);
  }

  /** The declared names of the UNIQUE constraints of the CREATE TABLE being parsed, by position. */
  private final Map<Integer, String> keyNames = new java.util.HashMap<>();
  /** The declared name of its PRIMARY KEY constraint. */
  private Optional<String> primaryKeyName = Optional.empty();

  /** The SERIAL and identity columns of the CREATE TABLE being parsed. */
  private final List<Command.ColumnSequence> columnSequences = new ArrayList<>();

  /** {@code smallserial}, {@code serial}, {@code bigserial} (and serial2/4/8): the integer type, or null. */
  private static ColumnType serialType(Token t) {
    if (t.kind() != Kind.WORD) {
      return null;
    }
    return switch (t.text()) {
      case "smallserial", "serial2" -> ColumnType.SMALLINT;
      case "serial", "serial4" -> ColumnType.INTEGER;
      case "bigserial", "serial8" -> ColumnType.BIGINT;
      default -> null;
    };
  }

  /**
   * The DEFAULT of a SERIAL or identity column before its sequence is named: {@code CommandExecutor} puts the
   * sequence's name in place of the marker (PostgreSQL shows {@code nextval('t_id_seq'::regclass)}).
   */
  public static final String SEQUENCE_MARKER = "\u0000sequence\u0000";

  /** {@code CREATE SEQUENCE [IF NOT EXISTS] name [options]}. */
  private Command createSequence() {
    boolean ifNotExists = ifNotExists();
    String name = name();
    Command.SequenceOptions options = sequenceOptions(false, false);
    finish();
    return new Command.CreateSequence(name, ifNotExists, options);
  }

  /** {@code ALTER SEQUENCE [IF EXISTS] name options}. */
  private Command alterSequence() {
    boolean ifExists = false;
    if (optionalWord("if")) {
      expectWord("exists");
      ifExists = true;
    }
    String name = name();
    if (peek().is("rename") || peek().is("owner") || peek().is("set")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER SEQUENCE " + peek().text().toUpperCase(
          java.util.Locale.ROOT) + " is not supported by Accel");
    }
    Command.SequenceOptions options = sequenceOptions(true, false);
    finish();
    return new Command.AlterSequence(name, ifExists, options);
  }

  /** {@code DROP SEQUENCE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
  private Command dropSequence() {
    DropList d = dropList();
    return new Command.DropSequence(d.names(), d.ifExists(), d.cascade());
  }

  /** What follows DROP and the object kind: {@code [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}, to the end. */
  private record DropList(List<String> names, boolean ifExists, boolean cascade) {
  }

  private DropList dropList() {
    boolean ifExists = false;
    if (optionalWord("if")) {
      expectWord("exists");
      ifExists = true;
    }
    List<String> names = new ArrayList<>();
    do {
      names.add(name());
    } while (optionalSymbol(","));
    boolean cascade = optionalWord("cascade");
    if (!cascade) {
      optionalWord("restrict");
    }
    finish();
    return new DropList(names, ifExists, cascade);
  }

  /**
   * PostgreSQL's SeqOptList: AS type, INCREMENT [BY] n, MINVALUE n | NO MINVALUE, MAXVALUE n | NO MAXVALUE, START
   * [WITH] n, RESTART [[WITH] n] (ALTER only), CACHE n, [NO] CYCLE, OWNED BY table.column | NONE; in an identity
   * column's parentheses also SEQUENCE NAME.
   */
  private Command.SequenceOptions sequenceOptions(boolean alter, boolean identity) {
    ColumnType type = null;
    Long increment = null;
    Long min = null;
    Long max = null;
    Long start = null;
    Long cache = null;
    Boolean cycle = null;
    Long restart = null;
    boolean noMin = false;
    boolean noMax = false;
    boolean restartDefault = false;
    String ownedBy = null;
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (peek().kind() == Kind.WORD) {
      Token t = peek();
      String option = t.text();
      if (option.equals("no")) {
        option = tokens.get(pos + 1).text();
      }
      if (!java.util.Set.of("as", "increment", "minvalue", "maxvalue", "start", "restart", "cache", "cycle", "owned")
          .contains(option) || !alter && option.equals("restart") || identity && option.equals("owned")) {
        break;
      }
      if (!seen.add(option)) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "conflicting or redundant options");
      }
      if (t.is("no")) {
        next();
        Token what = next();
        switch (what.text()) {
          case "minvalue" -> noMin = true;
          case "maxvalue" -> noMax = true;
          case "cycle" -> cycle = false;
          default -> throw error(what, "syntax error at or near \"" + what.text() + "\"");
        }
        continue;
      }
      next();
      switch (option) {
        case "as" -> {
          Token typeToken = peek();
          DataType d = type();
          if (d.kind() != ColumnType.SMALLINT && d.kind() != ColumnType.INTEGER && d.kind() != ColumnType.BIGINT) {
            throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
                "sequence type must be smallint, integer, or bigint");
          }
          type = d.kind();
        }
        case "increment" -> {
          optionalWord("by");
          increment = signedLong();
        }
        case "minvalue" -> min = signedLong();
        case "maxvalue" -> max = signedLong();
        case "start" -> {
          optionalWord("with");
          start = signedLong();
        }
        case "restart" -> {
          boolean with = optionalWord("with");
          if (with || peek().kind() == Kind.NUMBER || peek().isSymbol("-") || peek().isSymbol("+")) {
            restart = signedLong();
          } else {
            restartDefault = true;
          }
        }
        case "cache" -> cache = signedLong();
        case "cycle" -> cycle = true;
        case "owned" -> {
          expectWord("by");
          if (optionalWord("none")) {
            ownedBy = "";
          } else {
            Token table = next();
            expectSymbol(".");
            Token column = next();
            if (peek().isSymbol(".")) {
              // public.table.column
              next();
              table = column;
              column = next();
            }
            if (!table.isName() || !column.isName()) {
              throw error(column, "syntax error at or near \"" + column.text() + "\"");
            }
            ownedBy = table.text() + "." + column.text();
          }
        }
        default -> throw error(t, "syntax error at or near \"" + t.text() + "\"");
      }
    }
    return new Command.SequenceOptions(type, increment, min, noMin, max, noMax, start, cache, cycle, restart,
        restartDefault, ownedBy);
  }

  /** A possibly signed integer of up to 64 bits. */
  private long signedLong() {
    boolean negative = false;
    if (peek().isSymbol("-") || peek().isSymbol("+")) {
      negative = next().text().equals("-");
    }
    Token t = next();
    if (t.kind() != Kind.NUMBER) {
      throw error(t, "syntax error at or near \"" + (t.kind() == Kind.END ? "end of input" : t.text()) + "\"");
    }
    try {
      return Long.parseLong((negative ? "-" : "") + t.text());
    } catch (NumberFormatException e) {
      throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"" + (negative ? "-" : "") + t.text()
          + "\" is out of range for type bigint");
    }
  }

  private ColumnSpec column(String table, List<String> primaryKey, List<List<String>> uniques) {
    String name = name();
    ColumnType serial = serialType(peek());
    DataType type = serial != null ? DataType.of(serial) : null;
    if (serial != null) {
      next();
      columnSequences.add(new Command.ColumnSequence(name, io.accel.catalog.SequenceDef.Identity.NONE,
          Command.SequenceOptions.NONE.withType(serial)));
    } else {
      type = type();
    }
    boolean notNull = serial != null;
    Optional<String> defaultSql = serial != null ? Optional.of(SEQUENCE_MARKER) : Optional.empty();
    boolean identity = false;
    constraintName = Optional.empty();
    while (true) {
      Token t = peek();
      if (t.is("generated") && !tokens.get(pos + 1).is("always") || t.is("generated")
          && tokens.get(pos + 2).is("as") && tokens.get(pos + 3).is("identity")) {
        // GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(sequence options)]
        next();
        io.accel.catalog.SequenceDef.Identity kind;
        if (optionalWord("always")) {
          kind = io.accel.catalog.SequenceDef.Identity.ALWAYS;
        } else {
          expectWord("by");
          expectWord("default");
          kind = io.accel.catalog.SequenceDef.Identity.BY_DEFAULT;
        }
        expectWord("as");
        expectWord("identity");
        Command.SequenceOptions options = Command.SequenceOptions.NONE;
        if (optionalSymbol("(")) {
          options = sequenceOptions(false, true);
          expectSymbol(")");
        }
        if (identity) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "multiple identity specifications for column \"" + name
              + "\" of table \"" + table + "\"");
        }
        if (defaultSql.isPresent()) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "both default and identity specified for column \""
              + name + "\" of table \"" + table + "\"");
        }
        if (type.kind() != ColumnType.SMALLINT && type.kind() != ColumnType.INTEGER
            && type.kind() != ColumnType.BIGINT) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint,"
              + " integer, or bigint");
        }
        identity = true;
        notNull = true;
        defaultSql = Optional.of(SEQUENCE_MARKER);
        columnSequences.add(new Command.ColumnSequence(name, kind,
            options.type() == null ? options.withType(type.kind()) : options));
        continue;
      }
      if (t.is("default") && defaultSql.isPresent() && (serial != null || identity)) {
        throw new AccelException(SqlState.SYNTAX_ERROR, (identity ? "both default and identity specified"
            : "multiple default values specified") + " for column \"" + name + "\" of table \"" + table + "\"");
      }
      if (t.is("null") && (serial != null || identity)) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "conflicting NULL/NOT NULL declarations for column \""
            + name + "\" of table \"" + table + "\"");
      }
      if (t.is("constraint")) {
        next();
        constraintName = Optional.of(name());
        continue;
      } else if (t.is("check")) {
        next();
        checks.add(new Command.CheckSpec(constraintName, Optional.of(name), checkExpression()));
      } else if (t.is("not")) {
        next();
        expectWord("null");
        notNull = true;
      } else if (t.is("null")) {
        next();
      } else if (t.is("primary")) {
        next();
        expectWord("key");
        if (!primaryKey.isEmpty()) {
          throw new AccelException(SqlState.INVALID_TABLE_DEFINITION,
              "multiple primary keys for table \"" + table + "\" are not allowed");
        }
        primaryKey.add(name);
        primaryKeyName = constraintName;
      } else if (t.is("unique")) {
        next();
        constraintName.ifPresent(n -> keyNames.put(uniques.size(), n));
        uniques.add(List.of(name));
      } else if (t.is("default")) {
        next();
        if (defaultSql.isPresent() && defaultSql.get().startsWith(io.accel.catalog.Column.GENERATED)) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "both default and generation expression specified for"
              + " column \"" + name + "\" of table \"" + table + "\"");
        }
        defaultSql = Optional.of(defaultExpression());
      } else if (t.is("references")) {
        foreignKeys.add(references(List.of(name)));
      } else if (t.is("generated") && tokens.get(pos + 1).is("always") && tokens.get(pos + 2).is("as")
          && tokens.get(pos + 3).isSymbol("(")) {
        // GENERATED ALWAYS AS (expression) STORED: computed from the row on every write
        next();
        next();
        next();
        String expression = checkExpression();
        expectWord("stored");
        if (defaultSql.isPresent()) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "both default and generation expression specified for"
              + " column \"" + name + "\" of table \"" + table + "\"");
        }
        defaultSql = Optional.of(io.accel.catalog.Column.GENERATED + expression);
      } else if (t.is("generated") || t.is("collate")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, t.text().toUpperCase()
            + " in a column definition is not supported by Accel");
      } else {
        break;
      }
      constraintName = Optional.empty();
    }
    return new ColumnSpec(name, type, notNull, defaultSql);
  }

  /**
   * {@code REFERENCES table [(columns)] [MATCH SIMPLE] [ON DELETE action] [ON UPDATE action] [[NOT] DEFERRABLE]
   * [INITIALLY DEFERRED | IMMEDIATE]} for the referencing {@code columns}, named by the {@code CONSTRAINT name} before
   * it if any.
   */
  private Command.ForeignKeySpec references(List<String> columns) {
    Optional<String> name = constraintName;
    expectWord("references");
    String refTable = name();
    List<String> refColumns = peek().isSymbol("(") ? nameList() : List.of();
    io.accel.catalog.ForeignKeyDef.Action onUpdate = io.accel.catalog.ForeignKeyDef.Action.NO_ACTION;
    io.accel.catalog.ForeignKeyDef.Action onDelete = io.accel.catalog.ForeignKeyDef.Action.NO_ACTION;
    Boolean deferrable = null;
    boolean initiallyDeferred = false;
    while (true) {
      if (optionalWord("match")) {
        if (!optionalWord("simple")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "MATCH " + peek().text().toUpperCase(
              java.util.Locale.ROOT) + " is not supported by Accel");
        }
      } else if (optionalWord("on")) {
        boolean delete = optionalWord("delete");
        if (!delete) {
          expectWord("update");
        }
        io.accel.catalog.ForeignKeyDef.Action action = referentialAction();
        if (delete) {
          onDelete = action;
        } else {
          onUpdate = action;
        }
      } else if (peek().is("not") && tokens.get(pos + 1).is("deferrable")) {
        next();
        next();
        deferrable = Boolean.FALSE;
      } else if (optionalWord("deferrable")) {
        deferrable = Boolean.TRUE;
      } else if (optionalWord("initially")) {
        if (optionalWord("deferred")) {
          initiallyDeferred = true;
        } else {
          expectWord("immediate");
          initiallyDeferred = false;
        }
      } else {
        break;
      }
    }
    if (initiallyDeferred && Boolean.FALSE.equals(deferrable)) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
    }
    io.accel.catalog.ForeignKeyDef.Deferral deferral = initiallyDeferred
        ? io.accel.catalog.ForeignKeyDef.Deferral.INITIALLY_DEFERRED
        : Boolean.TRUE.equals(deferrable) ? io.accel.catalog.ForeignKeyDef.Deferral.DEFERRABLE
        : io.accel.catalog.ForeignKeyDef.Deferral.NOT_DEFERRABLE;
    constraintName = Optional.empty();
    return new Command.ForeignKeySpec(name, columns, refTable, refColumns, onUpdate, onDelete, deferral);
  }

  private io.accel.catalog.ForeignKeyDef.Action referentialAction() {
    if (optionalWord("cascade")) {
      return io.accel.catalog.ForeignKeyDef.Action.CASCADE;
    }
    if (optionalWord("restrict")) {
      return io.accel.catalog.ForeignKeyDef.Action.RESTRICT;
    }
    if (optionalWord("no")) {
      expectWord("action");
      return io.accel.catalog.ForeignKeyDef.Action.NO_ACTION;
    }
    expectWord("set");
    if (optionalWord("null")) {
      return io.accel.catalog.ForeignKeyDef.Action.SET_NULL;
    }
    expectWord("default");
    return io.accel.catalog.ForeignKeyDef.Action.SET_DEFAULT;
  }

  /** After a consumed "(": consumes the tokens up to its matching ")" and returns that one. */
  private Token closingParenthesis() {
    int depth = 1;
    Token t;
    do {
      t = next();
      if (t.kind() == Kind.END) {
        throw error(t, "syntax error at end of input");
      }
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      }
    } while (depth > 0);
    return t;
  }

  /** The parenthesised expression of CHECK (expression), as written; {@code NO INHERIT} is accepted. */
  private String checkExpression() {
    Token open = peek();
    expectSymbol("(");
    Token t = closingParenthesis();
    String text = sql.substring(open.end(), t.start()).trim();
    if (text.isEmpty()) {
      throw error(t, "syntax error at or near \")\"");
    }
    if (optionalWord("no")) {
      expectWord("inherit");
    }
    return text;
  }

  /** The text of a DEFAULT expression, checked by Calcite's parser; it runs at every INSERT that omits the column. */
  private String defaultExpression() {
    int start = peek().start();
    int depth = 0;
    int end = start;
    while (true) {
      Token t = peek();
      if (t.kind() == Kind.END) {
        break;
      }
      if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")") || t.is("not") || t.is("null") && end > start
          || t.is("primary") || t.is("unique") || t.is("constraint") || t.is("references") || t.is("check"))) {
        break;
      }
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      }
      next();
      end = t.end();
    }
    String text = sql.substring(start, end).trim();
    if (text.isEmpty()) {
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
    try {
      SqlParser.create(text, SqlParser.config().withParserFactory(SqlBabelParserImpl.FACTORY)).parseExpression();
    } catch (SqlParseException e) {
      throw AccelException.syntax("invalid DEFAULT expression \"" + text + "\": " + e.getMessage());
    }
    return text;
  }

  /** One type name as a column declares it ({@code int}, {@code numeric(10,2)}, ...); 42704 when unknown. */
  static DataType parseType(String text) {
    CommandParser p = new CommandParser(text);
    DataType type = p.type();
    p.finish();
    return type;
  }

  private DataType type() {
    Token t = next();
    if (t.kind() != Kind.WORD) {
      throw error(t, "syntax error at or near \"" + t.text() + "\"");
    }
    switch (t.text()) {
      case "smallint", "int2":
        return DataType.of(ColumnType.SMALLINT);
      case "integer", "int", "int4":
        return DataType.of(ColumnType.INTEGER);
      case "bigint", "int8":
        return DataType.of(ColumnType.BIGINT);
      case "numeric", "decimal": {
        if (optionalSymbol("(")) {
          int precision = number();
          int scale = optionalSymbol(",") ? number() : 0;
          expectSymbol(")");
          if (precision < 1 || precision > 1000) {
            throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
                "NUMERIC precision " + precision + " must be between 1 and 1000");
          }
          if (scale < 0 || scale > precision) {
            throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
                "NUMERIC scale " + scale + " must be between 0 and precision " + precision);
          }
          return new DataType(ColumnType.NUMERIC, precision, scale);
        }
        return DataType.of(ColumnType.NUMERIC);
      }
      case "real", "float4":
        return DataType.of(ColumnType.REAL);
      case "float8":
        return DataType.of(ColumnType.DOUBLE);
      case "float": {
        if (optionalSymbol("(")) {
          int bits = number();
          expectSymbol(")");
          return DataType.of(bits <= 24 ? ColumnType.REAL : ColumnType.DOUBLE);
        }
        return DataType.of(ColumnType.DOUBLE);
      }
      case "double":
        expectWord("precision");
        return DataType.of(ColumnType.DOUBLE);
      case "boolean", "bool":
        return DataType.of(ColumnType.BOOLEAN);
      case "char", "character", "bpchar": {
        if (optionalWord("varying")) {
          return DataType.of(ColumnType.VARCHAR, optionalLength());
        }
        int n = optionalLength();
        return DataType.of(ColumnType.CHAR, n < 0 ? 1 : n);
      }
      case "varchar":
        return DataType.of(ColumnType.VARCHAR, optionalLength());
      case "text":
        return DataType.of(ColumnType.TEXT);
      case "json":
        return DataType.of(ColumnType.JSON);
      case "jsonb":
        return DataType.of(ColumnType.JSONB);
      case "date":
        return DataType.of(ColumnType.DATE);
      case "time":
        optionalPrecision();
        if (optionalWord("with")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "TIME WITH TIME ZONE is not supported by Accel");
        }
        if (optionalWord("without")) {
          expectWord("time");
          expectWord("zone");
        }
        return DataType.of(ColumnType.TIME);
      case "timestamp":
        optionalPrecision();
        if (optionalWord("with")) {
          expectWord("time");
          expectWord("zone");
          return DataType.of(ColumnType.TIMESTAMPTZ);
        }
        if (optionalWord("without")) {
          expectWord("time");
          expectWord("zone");
        }
        return DataType.of(ColumnType.TIMESTAMP);
      case "timestamptz":
        optionalPrecision();
        return DataType.of(ColumnType.TIMESTAMPTZ);
      case "bytea", "varbinary", "binary":
        optionalLength();
        return DataType.of(ColumnType.BYTEA);
      case "uuid":
        return DataType.of(ColumnType.UUID);
      default:
        throw new AccelException(SqlState.UNDEFINED_OBJECT, "type \"" + t.text() + "\" does not exist");
    }
  }

  private int optionalLength() {
    if (optionalSymbol("(")) {
      int n = number();
      expectSymbol(")");
      if (n < 1) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "length for type must be at least 1");
      }
      return n;
    }
    return -1;
  }

  private void optionalPrecision() {
    if (optionalSymbol("(")) {
      number();
      expectSymbol(")");
    }
  }

  private Command createIndex(boolean unique) {
    // building the index does not block writers in Accel either; the keyword keeps PostgreSQL's rule (25001 in a block)
    boolean concurrently = optionalWord("concurrently");
    boolean ifNotExists = ifNotExists();
    Optional<String> name = Optional.empty();
    if (!peek().is("on")) {
      name = Optional.of(name());
    }
    expectWord("on");
    optionalWord("only"); // no partitions: the table alone either way
    String table = name();
    if (optionalWord("using")) {
      Token method = next();
      if (!method.is("btree")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "access method \"" + method.text()
            + "\" is not supported by Accel");
      }
    }
    expectSymbol("(");
    List<IndexKeySpec> keys = new ArrayList<>();
    do {
      IndexKeySpec key = indexKey();
      String column = key.column();
      if (peek().kind() == Kind.WORD && peek().text().endsWith("_ops")) {
        // an operator class: the default ones and the *_pattern_ops order as Accel's keys do (C collation)
        Token opclass = next();
        if (!OPERATOR_CLASSES.contains(opclass.text())) {
          throw new AccelException(SqlState.UNDEFINED_OBJECT, "operator class \"" + opclass.text()
              + "\" does not exist for access method \"btree\"");
        }
      }
      if (optionalWord("collate")) {
        Token collation = next();
        if (!collation.text().equals("C") && !collation.text().equals("default") && !collation.text().equals("POSIX")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "collation \"" + collation.text()
              + "\" is not supported by Accel (its text keys are ordered as in the C collation)");
        }
      }
      boolean desc = false;
      if (optionalWord("desc")) {
        desc = true;
      } else {
        optionalWord("asc");
      }
      if (optionalWord("nulls")) {
        Token which = next();
        boolean nullsFirst = which.is("first");
        if (!nullsFirst && !which.is("last")) {
          throw error(which, "syntax error at or near \"" + which.text() + "\"");
        }
        if (nullsFirst != desc) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
              "NULLS " + which.text().toUpperCase() + " on an " + (desc ? "DESC" : "ASC")
                  + " index column is not supported by Accel");
        }
      }
      keys.add(new IndexKeySpec(column, desc, key.expression()));
    } while (optionalSymbol(","));
    expectSymbol(")");
    List<String> include = new ArrayList<>();
    if (optionalWord("include")) {
      expectSymbol("(");
      do {
        include.add(name());
      } while (optionalSymbol(","));
      expectSymbol(")");
    }
    if (optionalWord("with")) {
      // btree's storage parameters: accepted (RocksDB has no pages to fill or deduplicate)
      expectSymbol("(");
      do {
        String parameter = settingName();
        if (optionalSymbol("=")) {
          settingValue();
        }
        if (!parameter.equals("fillfactor") && !parameter.equals("deduplicate_items")) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + parameter + "\"");
        }
      } while (optionalSymbol(","));
      expectSymbol(")");
    }
    String predicate = null;
    if (optionalWord("where")) {
      int start = peek().start();
      int end = start;
      while (peek().kind() != Kind.END && !peek().isSymbol(";")) {
        end = next().end();
      }
      predicate = sql.substring(start, end).trim();
      if (predicate.isEmpty()) {
        throw error("syntax error at end of input");
      }
      checkIndexExpression(SqlLexer.tokenize(predicate), "index predicate");
    }
    finish();
    return new Command.CreateIndex(name, table, keys, unique, ifNotExists, include, concurrently, predicate);
  }

  /** btree operator classes a key may name: the types' defaults and the pattern ones (C collation: the same order). */
  private static final java.util.Set<String> OPERATOR_CLASSES = java.util.Set.of("text_ops", "varchar_ops",
      "bpchar_ops", "text_pattern_ops", "varchar_pattern_ops", "bpchar_pattern_ops", "int2_ops", "int4_ops",
      "int8_ops", "numeric_ops", "bool_ops", "date_ops", "timestamp_ops", "timestamptz_ops", "uuid_ops",
      "float4_ops", "float8_ops", "bytea_ops", "time_ops");

  /**
   * One index key: a column; a parenthesised expression; or a function call ({@code lower(email)}), named as
   * PostgreSQL names its column (the function's name, else {@code expr}).
   */
  private IndexKeySpec indexKey() {
    Token first = peek();
    boolean call = first.isName() && pos + 1 < tokens.size() && tokens.get(pos + 1).isSymbol("(");
    if (!first.isSymbol("(") && !call) {
      return new IndexKeySpec(name(), false);
    }
    int start = first.start();
    if (call) {
      next();
    }
    Token open = next();
    Token t = closingParenthesis();
    String text = call ? sql.substring(start, t.end()).trim() : sql.substring(open.end(), t.start()).trim();
    if (text.isEmpty()) {
      throw error(t, "syntax error at or near \")\"");
    }
    List<Token> inner = SqlLexer.tokenize(text);
    if (!call && inner.size() == 2 && inner.get(0).isName()) {
      return new IndexKeySpec(inner.get(0).text(), false); // (a) is the column a, as in PostgreSQL
    }
    checkIndexExpression(inner, "index expression");
    return new IndexKeySpec(expressionLabel(text), false, text);
  }

  private static final java.util.Set<String> AGGREGATES = java.util.Set.of("count", "sum", "avg", "min", "max",
      "array_agg", "string_agg", "bool_and", "bool_or", "every", "json_agg", "jsonb_agg", "json_object_agg",
      "jsonb_object_agg", "stddev", "variance");

  /** Functions whose value changes between calls with the same arguments, and the keywords that read the clock. */
  private static final java.util.Set<String> MUTABLE_FUNCTIONS = java.util.Set.of("now", "random", "nextval",
      "currval", "setval", "lastval", "gen_random_uuid", "uuid_generate_v1", "uuid_generate_v1mc", "uuid_generate_v4",
      "gen_random_bytes", "clock_timestamp", "statement_timestamp",
      "transaction_timestamp", "timeofday", "current_setting");
  private static final java.util.Set<String> MUTABLE_KEYWORDS = java.util.Set.of("current_timestamp",
      "current_date", "current_time", "localtimestamp", "localtime", "current_user", "session_user");

  /**
   * An index's expression or predicate is evaluated once per row written: no sub-query (0A000), no aggregate
   * (42803), no function whose value changes (42P17). Checked on the tokens, so a string literal never matches.
   */
  private static void checkIndexExpression(List<Token> tokens, String what) {
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).is("select")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in " + what);
      }
      boolean call = i + 1 < tokens.size() && tokens.get(i + 1).isSymbol("(");
      if (tokens.get(i).kind() == Kind.WORD && (MUTABLE_KEYWORDS.contains(tokens.get(i).text())
          || call && MUTABLE_FUNCTIONS.contains(tokens.get(i).text()))) {
        throw new AccelException(SqlState.INVALID_OBJECT_DEFINITION, "functions in " + what
            + " must be marked IMMUTABLE");
      }
      if (tokens.get(i).kind() == Kind.WORD && AGGREGATES.contains(tokens.get(i).text()) && i + 1 < tokens.size()
          && tokens.get(i + 1).isSymbol("(")) {
        throw new AccelException(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in " + what
            + "s");
      }
    }
  }

  private static final java.util.regex.Pattern CALL = java.util.regex.Pattern.compile(
      "\\s*([A-Za-z_][A-Za-z_0-9]*)\\s*\\(");

  /** The name PostgreSQL gives an index's expression column: the function it calls, else {@code expr}. */
  public static String expressionLabel(String expression) {
    java.util.regex.Matcher m = CALL.matcher(expression);
    return m.lookingAt() ? m.group(1).toLowerCase(java.util.Locale.ROOT) : "expr";
  }

  private Command drop() {
    expectWord("drop");
    if (optionalWord("sequence")) {
      return dropSequence();
    }
    if (optionalWord("extension")) {
      DropList d = dropList();
      return new Command.DropExtension(d.names(), d.ifExists());
    }
    boolean table = optionalWord("table");
    boolean index = !table && optionalWord("index");
    boolean view = !table && !index && optionalWord("view");
    boolean concurrently = index && optionalWord("concurrently");
    if (!table && !index && !view) {
      if (peek().is("schema") || peek().is("sequence") || peek().is("materialized")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "DROP " + peek().text().toUpperCase()
            + " is not supported by Accel");
      }
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
    DropList d = dropList();
    if (view) {
      return new Command.DropView(d.names(), d.ifExists(), d.cascade());
    }
    return table ? new Command.DropTable(d.names(), d.ifExists(), d.cascade())
        : new Command.DropIndex(d.names(), d.ifExists(), concurrently);
  }

  private boolean ifNotExists() {
    if (optionalWord("if")) {
      expectWord("not");
      expectWord("exists");
      return true;
    }
    return false;
  }

  private List<String> nameList() {
    expectSymbol("(");
    List<String> names = new ArrayList<>();
    do {
      names.add(name());
    } while (optionalSymbol(","));
    expectSymbol(")");
    return names;
  }

  /** A possibly schema-qualified name; the schema, if given, must be {@code public}. */
  private String name() {
    Token t = next();
    if (!t.isName()) {
      throw error(t, "syntax error at or near \"" + t.text() + "\"");
    }
    if (optionalSymbol(".")) {
      if (!t.text().equals("public")) {
        throw new AccelException(SqlState.UNDEFINED_OBJECT, "schema \"" + t.text() + "\" does not exist");
      }
      return name();
    }
    return t.text();
  }

  private int number() {
    Token t = next();
    if (t.kind() != Kind.NUMBER) {
      throw error(t, "syntax error at or near \"" + t.text() + "\"");
    }
    try {
      return Integer.parseInt(t.text());
    } catch (NumberFormatException e) {
      throw error(t, "invalid number \"" + t.text() + "\"");
    }
  }

  private void finish() {
    while (optionalSymbol(";")) {
      // trailing semicolons end the statement
    }
    if (peek().kind() != Kind.END) {
      throw error("syntax error at or near \"" + peek().text() + "\"");
    }
  }

  private Token peek() {
    return tokens.get(pos);
  }

  private Token next() {
    Token t = tokens.get(pos);
    if (t.kind() != Kind.END) {
      pos++;
    }
    return t;
  }

  private void expectWord(String word) {
    Token t = next();
    if (!t.is(word)) {
      throw error(t, "syntax error at or near \"" + (t.kind() == Kind.END ? "end of input" : t.text())
          + "\", expected " + word.toUpperCase());
    }
  }

  private void expectSymbol(String symbol) {
    Token t = next();
    if (!t.isSymbol(symbol)) {
      throw error(t, "syntax error at or near \"" + (t.kind() == Kind.END ? "end of input" : t.text())
          + "\", expected \"" + symbol + "\"");
    }
  }

  /** An option's TRUE / ON or FALSE / OFF, or null when neither follows (the caller reads other values). */
  private Boolean booleanValue() {
    if (optionalWord("true", "on")) {
      return true;
    }
    return optionalWord("false", "off") ? false : null;
  }

  private boolean optionalWord(String... words) {
    for (String w : words) {
      if (peek().is(w)) {
        next();
        return true;
      }
    }
    return false;
  }

  private boolean optionalSymbol(String symbol) {
    if (peek().isSymbol(symbol)) {
      next();
      return true;
    }
    return false;
  }

  private AccelException error(String message) {
    return error(peek(), message);
  }

  private AccelException error(Token at, String message) {
    return SqlLexer.syntax(sql, at.start(), message);
  }
}
