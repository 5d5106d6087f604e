package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The names PostgreSQL gives the result columns of a query, from its text as the client wrote it: PostgreSQL's
 * {@code FigureColname} (parse_target.c) over the items of the outermost SELECT list (the leftmost SELECT of a
 * UNION; {@code column1, column2, ...} for VALUES). An alias names its item; otherwise a column reference gives
 * the column's name, a function call the function's ({@code count}, {@code pg_catalog.version()} is
 * {@code version}; {@code trim} is btrim, ltrim or rtrim), {@code CURRENT_TIMESTAMP} and the other SQL value
 * functions their own, {@code CASE} {@code case}, a scalar sub-select the name of its column, {@code EXISTS},
 * {@code ARRAY}, {@code ROW} their keyword, and a cast ({@code ::}, {@code CAST}, {@code DATE '...'}) the name
 * PostgreSQL gives its type ({@code int4}, {@code text}) unless the operand has a name of its own (a column or
 * function; {@code x::text} is {@code x}). Literals, parameters and operator expressions are {@code ?column?}.
 *
 * <p>Works on the text before Accel's rewrites for Calcite ({@code now()} becomes CURRENT_TIMESTAMP there),
 * and a normalised text (literals of WHERE replaced by parameters, never in the SELECT list) gives the same
 * names as the original.
 */
public final class PgColumnNames {
  /** The name PostgreSQL gives a column it cannot name otherwise. */
  public static final String UNNAMED = "?column?";

  /** Words after which a select item's expression continues (so a word after them is no alias). */
  private static final Set<String> OPERATOR_WORDS = Set.of("and", "or", "is", "isnull", "notnull", "in", "not",
      "like", "ilike", "similar", "between", "at", "overlaps", "collate", "escape", "from", "into", "where",
      "group", "having", "window", "order", "limit", "offset", "fetch", "for", "union", "intersect", "except");
  /** Keywords that are values (IS NULL, IS TRUE), never an alias. */
  private static final Set<String> VALUE_WORDS = Set.of("null", "true", "false", "unknown", "distinct");
  /** Words that end a SELECT list at its own depth. */
  private static final Set<String> LIST_END = Set.of("from", "into", "where", "group", "having", "window", "order",
      "limit", "offset", "fetch", "for", "union", "intersect", "except");
  private static final Set<String> INTERVAL_FIELDS = Set.of("year", "month", "day", "hour", "minute", "second", "to");

  private final List<Token> tokens;

  private PgColumnNames(List<Token> tokens) {
    this.tokens = tokens;
  }

  /**
   * The name of each item of the outermost SELECT list of {@code sql}, null for a {@code *} or {@code t.*}
   * item (its columns keep the names of what it expands to); empty when the statement is no query or is not
   * understood.
   */
  public static Optional<List<String>> of(String sql) {
    List<Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(new PgColumnNames(tokens).query(0));
    } catch (RuntimeException e) {
      // a shape this reading does not follow: Calcite's names stay
      return Optional.empty();
    }
  }

  private Token at(int i) {
    return tokens.get(Math.min(i, tokens.size() - 1));
  }

  /** The names of the query starting at token {@code p}, or null. */
  private List<String> query(int p) {
    if (at(p).is("with")) {
      p++;
      if (at(p).is("recursive")) {
        p++;
      }
      while (true) {
        p++; // the name
        if (at(p).isSymbol("(")) {
          p = close(p) + 1;
        }
        if (!at(p).is("as")) {
          return null;
        }
        p++;
        if (at(p).is("not")) {
          p++;
        }
        if (at(p).is("materialized")) {
          p++;
        }
        if (!at(p).isSymbol("(")) {
          return null;
        }
        p = close(p) + 1;
        if (!at(p).isSymbol(",")) {
          break;
        }
        p++;
      }
    }
    Token t = at(p);
    if (t.isSymbol("(")) {
      return query(p + 1);
    }
    if (t.is("values")) {
      if (!at(p + 1).isSymbol("(")) {
        return null;
      }
      List<String> names = new ArrayList<>();
      for (int i = 0; i < items(p + 2, close(p + 1)).size(); i++) {
        names.add("column" + (i + 1));
      }
      return names;
    }
    if (!t.is("select")) {
      return null;
    }
    p++;
    if (at(p).is("all")) {
      p++;
    } else if (at(p).is("distinct")) {
      p++;
      if (at(p).is("on")) {
        p = close(p + 1) + 1;
      }
    }
    int end = p;
    while (true) {
      Token e = at(end);
      if (e.kind() == Kind.END || e.isSymbol(")") || e.isSymbol(";") || e.kind() == Kind.WORD
          && LIST_END.contains(e.text()) && !(e.is("from") && end > 0 && at(end - 1).is("distinct"))
          && !(e.is("group") && end > 0 && at(end - 1).is("within"))) {
        break; // (the FROM of IS [NOT] DISTINCT FROM, the GROUP of WITHIN GROUP are no clauses)
      }
      end = e.isSymbol("(") || e.isSymbol("[") ? close(end) + 1 : e.is("case") ? caseEnd(end) + 1 : end + 1;
    }
    List<String> names = new ArrayList<>();
    for (int[] item : items(p, end)) {
      names.add(item(item[0], item[1]));
    }
    return names;
  }

  /** The [start, end) ranges of the comma-separated items from {@code p} to {@code end}. */
  private List<int[]> items(int p, int end) {
    if (p >= end) {
      return Collections.emptyList();
    }
    List<int[]> items = new ArrayList<>();
    int start = p;
    while (p < end) {
      Token t = at(p);
      if (t.isSymbol(",")) {
        items.add(new int[] {start, p});
        start = ++p;
      } else {
        p = t.isSymbol("(") || t.isSymbol("[") ? close(p) + 1 : t.is("case") ? caseEnd(p) + 1 : p + 1;
      }
    }
    items.add(new int[] {start, end});
    return items;
  }

  /** The name of the select item in [a, b); null for a star. */
  private String item(int a, int b) {
    if (b - a == 1 && at(a).isSymbol("*") || b - a >= 3 && at(b - 1).isSymbol("*") && at(b - 2).isSymbol(".")) {
      return null;
    }
    if (b - a >= 3 && at(b - 2).is("as") && at(b - 1).isName()) {
      return at(b - 1).text();
    }
    Named e = expression(a, b);
    if (e.end == b - 1 && nameNoOperator(at(b - 1))) {
      return at(b - 1).text(); // a bare alias
    }
    if (e.end == b && e.strength == 0 && aliasAfterOperand(a, b)) {
      return at(b - 1).text(); // an operator expression's bare alias: price * qty total
    }
    return e.end == b ? e.label() : UNNAMED;
  }

  /**
   * Whether the last token of an operator expression's item is a bare alias: a name after an operand (not after an
   * operator, nor a keyword value such as the NULL of IS NULL, nor the zone of AT TIME ZONE).
   */
  private boolean aliasAfterOperand(int a, int b) {
    Token last = at(b - 1);
    Token before = at(b - 2);
    if (b - a < 3 || !nameNoOperator(last) || last.kind() == Kind.WORD && VALUE_WORDS.contains(last.text())) {
      return false;
    }
    if (before.kind() == Kind.SYMBOL && !before.isSymbol(")") && !before.isSymbol("]")
        || before.kind() == Kind.WORD && (OPERATOR_WORDS.contains(before.text()) || before.is("zone"))) {
      return false;
    }
    return true;
  }

  /** Whether the token is a name that no operator word continues the expression with (so may be an alias). */
  private static boolean nameNoOperator(Token t) {
    return t.isName() && !(t.kind() == Kind.WORD && OPERATOR_WORDS.contains(t.text()));
  }

  /** A name and its strength as FigureColnameInternal ranks them (0 none, 1 a type's or case, 2 a name). */
  private record Named(String name, int strength, int end) {
    String label() {
      return strength == 0 ? UNNAMED : name;
    }
  }

  /** The name of the expression starting at {@code a} (ending at or before {@code b}). */
  private Named expression(int a, int b) {
    Token t = at(a);
    if (t.kind() == Kind.SYMBOL && !t.isSymbol("(") || t.is("not")) {
      return new Named(null, 0, b); // a prefix operator: an operator expression
    }
    Named first = postfix(primary(a), b);
    int p = first.end;
    if (p >= b) {
      return first;
    }
    if (at(p).is("at") && at(p + 1).is("time") && at(p + 2).is("zone")) {
      // x AT TIME ZONE z is the function timezone(z, x)
      Named zone = postfix(primary(p + 3), b);
      if (zone.end >= b) {
        return new Named("timezone", 2, zone.end);
      }
    }
    if (at(p).kind() == Kind.SYMBOL || at(p).kind() == Kind.WORD && OPERATOR_WORDS.contains(at(p).text())) {
      return new Named(null, 0, b); // a binary or postfix operator
    }
    return first; // an alias follows
  }

  /** {@code ::type}, subscripts, field selection and COLLATE after an operand. */
  private Named postfix(Named operand, int b) {
    Named n = operand;
    while (n.end < b) {
      int p = n.end;
      Token t = at(p);
      if (t.isSymbol("::")) {
        TypeName type = typeName(p + 1);
        n = n.strength <= 1 ? new Named(type.name, 1, type.end) : new Named(n.name, n.strength, type.end);
      } else if (t.isSymbol("[")) {
        n = new Named(n.name, n.strength, close(p) + 1);
      } else if (t.isSymbol(".") && at(p + 1).isName()) {
        n = new Named(at(p + 1).text(), 2, p + 2);
      } else if (t.is("collate") && at(p + 1).isName()) {
        p += 2;
        while (at(p).isSymbol(".") && at(p + 1).isName()) {
          p += 2;
        }
        n = new Named(n.name, n.strength, p);
      } else {
        break;
      }
    }
    return n;
  }

  private Named primary(int p) {
    Token t = at(p);
    switch (t.kind()) {
      case NUMBER, STRING, PARAM:
        return new Named(null, 0, p + 1);
      case SYMBOL:
        if (t.isSymbol("(")) {
          int close = close(p);
          Token inner = at(p + 1);
          if (inner.is("select") || inner.is("with") || inner.is("values")) {
            // a scalar sub-select: the name of its column
            List<String> names = query(p + 1);
            String name = names == null || names.isEmpty() || names.get(0) == null ? UNNAMED : names.get(0);
            return new Named(name, 2, close + 1);
          }
          if (items(p + 1, close).size() > 1) {
            return new Named("row", 2, close + 1);
          }
          Named e = expression(p + 1, close);
          return new Named(e.name, e.end == close ? e.strength : 0, close + 1);
        }
        return new Named(null, 0, p + 1);
      case WORD:
        return word(p);
      case QUOTED:
        return name(p);
      default:
        return new Named(null, 0, p + 1);
    }
  }

  private Named word(int p) {
    Token t = at(p);
    boolean call = at(p + 1).isSymbol("(");
    switch (t.text()) {
      case "case":
        return caseName(p);
      case "true", "false", "null":
        return new Named(null, 0, p + 1);
      case "array":
        if (at(p + 1).isSymbol("[") || call) {
          return new Named("array", 2, close(p + 1) + 1);
        }
        break;
      case "row", "exists":
        if (call) {
          return new Named(t.text(), 2, close(p + 1) + 1);
        }
        break;
      case "cast":
        if (call) {
          int close = close(p + 1);
          int as = p + 2;
          while (as < close && !at(as).is("as")) {
            Token a = at(as);
            as = a.isSymbol("(") || a.isSymbol("[") ? close(as) + 1 : a.is("case") ? caseEnd(as) + 1 : as + 1;
          }
          Named operand = expression(p + 2, as);
          int strength = operand.end == as ? operand.strength : 0;
          return strength <= 1 ? new Named(typeName(as + 1).name, 1, close + 1)
              : new Named(operand.name, strength, close + 1);
        }
        break;
      case "trim":
        if (call) {
          Token first = at(p + 2);
          String name = first.is("leading") ? "ltrim" : first.is("trailing") ? "rtrim" : "btrim";
          return new Named(name, 2, close(p + 1) + 1);
        }
        break;
      default:
        break;
    }
    // a typed literal: DATE '...', INTERVAL '1' DAY, DOUBLE PRECISION '1', int4 '1'
    if (!call) {
      TypeName type = typeName(p);
      if (at(type.end).kind() == Kind.STRING) {
        int end = type.end + 1;
        while (at(end).kind() == Kind.WORD && INTERVAL_FIELDS.contains(at(end).text())) {
          end = at(end + 1).isSymbol("(") ? close(end + 1) + 1 : end + 1;
        }
        return new Named(type.name, 1, end);
      }
    }
    return name(p);
  }

  /** A column reference (its last name) or a function call (its name), qualified or not. */
  private Named name(int p) {
    String name = at(p).text();
    p++;
    while (at(p).isSymbol(".") && at(p + 1).isName()) {
      name = at(p + 1).text();
      p += 2;
    }
    if (at(p).isSymbol("(")) {
      p = close(p) + 1;
      if (at(p).is("within") && at(p + 1).is("group")) {
        p = close(p + 2) + 1;
      }
      if (at(p).is("filter") && at(p + 1).isSymbol("(")) {
        p = close(p + 1) + 1;
      }
      if (at(p).is("over")) {
        p = at(p + 1).isSymbol("(") ? close(p + 1) + 1 : p + 2;
      }
    }
    return new Named(name, 2, p);
  }

  private record TypeName(String name, int end) {
  }

  /** The name PostgreSQL's grammar gives the type written at {@code p} (SystemTypeName's, or as written). */
  private TypeName typeName(int p) {
    Token t = at(p);
    String name;
    int end = p + 1;
    if (t.kind() == Kind.WORD) {
      switch (t.text()) {
        case "int", "integer" -> name = "int4";
        case "smallint" -> name = "int2";
        case "bigint" -> name = "int8";
        case "real" -> name = "float4";
        case "decimal", "dec", "numeric" -> name = "numeric";
        case "boolean" -> name = "bool";
        case "varchar" -> name = "varchar";
        case "double" -> {
          name = "float8";
          end = at(end).is("precision") ? end + 1 : end;
        }
        case "float" -> {
          name = "float8";
          if (at(end).isSymbol("(") && at(end + 1).kind() == Kind.NUMBER
              && Integer.parseInt(at(end + 1).text()) < 25) {
            name = "float4";
          }
        }
        case "character", "char", "nchar", "national" -> {
          if (t.is("national")) {
            end++;
          }
          boolean varying = at(end).is("varying");
          name = varying ? "varchar" : "bpchar";
          end = varying ? end + 1 : end;
        }
        case "bit" -> {
          boolean varying = at(end).is("varying");
          name = varying ? "varbit" : "bit";
          end = varying ? end + 1 : end;
        }
        case "timestamp", "time" -> {
          if (at(end).isSymbol("(")) {
            end = close(end) + 1;
          }
          boolean zone = at(end).is("with") && at(end + 1).is("time") && at(end + 2).is("zone");
          if (zone || at(end).is("without") && at(end + 1).is("time") && at(end + 2).is("zone")) {
            end += 3;
          }
          name = t.text() + (zone ? "tz" : "");
          return new TypeName(name, arrayBounds(end));
        }
        case "interval" -> {
          name = "interval";
          while (at(end).kind() == Kind.WORD && INTERVAL_FIELDS.contains(at(end).text())) {
            end++;
          }
        }
        default -> name = null;
      }
      if (name != null) {
        if (at(end).isSymbol("(")) {
          end = close(end) + 1;
        }
        return new TypeName(name, arrayBounds(end));
      }
    }
    // a generic type name, perhaps qualified: its last name as written
    name = t.text();
    while (at(end).isSymbol(".") && at(end + 1).isName()) {
      name = at(end + 1).text();
      end += 2;
    }
    if (at(end).isSymbol("(")) {
      end = close(end) + 1;
    }
    return new TypeName(name, arrayBounds(end));
  }

  /** Past {@code []}, {@code [n]} and {@code ARRAY[n]} after a type. */
  private int arrayBounds(int p) {
    while (true) {
      if (at(p).isSymbol("[")) {
        p = close(p) + 1;
      } else if (at(p).is("array")) {
        p = at(p + 1).isSymbol("[") ? close(p + 1) + 1 : p + 1;
      } else {
        return p;
      }
    }
  }

  /** The position of the bracket closing the one at {@code p}. */
  private int close(int p) {
    int depth = 0;
    for (int i = p; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        if (--depth == 0) {
          return i;
        }
      } else if (t.kind() == Kind.END) {
        throw new IllegalStateException("unbalanced");
      }
    }
    throw new IllegalStateException("unbalanced");
  }

  /** A CASE is named by its ELSE value when that has a name of its own (a column, a function), else "case". */
  private Named caseName(int p) {
    int end = caseEnd(p);
    int depth = 0;
    for (int i = p + 1; i < end; i++) {
      Token t = at(i);
      if (t.is("case")) {
        i = caseEnd(i);
      } else if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        depth--;
      } else if (depth == 0 && t.is("else") && i + 1 < end) {
        Named value = expression(i + 1, end);
        return value.end == end && value.strength == 2 ? new Named(value.name, 2, end + 1)
            : new Named("case", 1, end + 1);
      }
    }
    return new Named("case", 1, end + 1);
  }

  /** The position of the END of the CASE at {@code p}. */
  private int caseEnd(int p) {
    int depth = 0;
    for (int i = p; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.is("case")) {
        depth++;
      } else if (t.is("end") && --depth == 0) {
        return i;
      } else if (t.kind() == Kind.END) {
        throw new IllegalStateException("unbalanced");
      }
    }
    throw new IllegalStateException("unbalanced");
  }
}
