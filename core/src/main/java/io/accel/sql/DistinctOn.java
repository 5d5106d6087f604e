package io.accel.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's {@code SELECT DISTINCT ON (k, ...) items ... ORDER BY o, ...}, rewritten before Calcite parses it
 * (its parser has no DISTINCT ON) into the first row of each group in ORDER BY order:
 * {@code SELECT items ... QUALIFY ROW_NUMBER() OVER (PARTITION BY k, ... ORDER BY o, ...) = 1 ORDER BY o, ...}.
 * Keys and ORDER BY items that name an output column (by number, or by an {@code AS} alias) stand for its
 * expression inside the window, as PostgreSQL reads them. As in PostgreSQL, the keys must be the leftmost ORDER BY
 * expressions (42P10).
 */
public final class DistinctOn {
  private DistinctOn() {
  }

  /** Clause key words that end the part of a SELECT before them (at the SELECT's own nesting depth). */
  private static final Set<String> CLAUSES = Set.of("from", "where", "group", "having", "window", "qualify",
      "order", "limit", "offset", "fetch", "for", "union", "intersect", "except");

  public static String rewrite(String sql) {
    if (!containsDistinctOn(sql)) {
      return sql;
    }
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return sql;
    }
    // rewrite the last occurrence first, so earlier offsets stay valid
    for (int i = tokens.size() - 1; i >= 2; i--) {
      if (tokens.get(i).is("on") && tokens.get(i - 1).is("distinct") && tokens.get(i - 2).is("select")
          && i + 1 < tokens.size() && tokens.get(i + 1).isSymbol("(")) {
        sql = rewriteOne(sql, tokens, i - 2);
        // the tokens before this SELECT are unchanged
        tokens = SqlLexer.tokenizeExtended(sql);
        i -= 2;
      }
    }
    return sql;
  }

  private static final java.util.regex.Pattern TRIGGER = java.util.regex.Pattern.compile(
      "(?i)\\bdistinct\\s+on\\b");

  private static boolean containsDistinctOn(String sql) {
    return TRIGGER.matcher(sql).find();
  }

  /** One SELECT DISTINCT ON, whose SELECT is token {@code select}. */
  private static String rewriteOne(String sql, List<SqlLexer.Token> tokens, int select) {
    int open = select + 3;
    int close = PgCatalogSyntax.closing(tokens, open);
    if (close < 0) {
      return sql;
    }
    List<String> keys = split(sql, tokens, open + 1, close);
    // the SELECT's clauses at its own depth, up to the parenthesis or set operation that ends it
    int end = tokens.size();
    int from = -1;
    int order = -1;
    int tail = -1; // LIMIT, OFFSET, FETCH, FOR, or the end
    int depth = 0;
    for (int k = close + 1; k < tokens.size(); k++) {
      SqlLexer.Token t = tokens.get(k);
      if (t.kind() == SqlLexer.Kind.END || t.isSymbol(";")) {
        end = k;
        break;
      }
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (depth == 0) {
          end = k;
          break;
        }
        depth--;
      } else if (depth == 0 && t.kind() == SqlLexer.Kind.WORD && CLAUSES.contains(t.text())) {
        switch (t.text()) {
          case "from" -> from = from < 0 ? k : from;
          case "order" -> order = k;
          case "limit", "offset", "fetch", "for" -> tail = tail < 0 ? k : tail;
          case "union", "intersect", "except" -> end = k;
          default -> {
          }
        }
        if (end == k) {
          break;
        }
      }
    }
    int itemsEnd = from >= 0 ? from : order >= 0 ? order : tail >= 0 ? tail : end;
    List<String> items = split(sql, tokens, close + 1, itemsEnd);
    List<String> orderItems = order >= 0 ? split(sql, tokens, order + 2, tail >= 0 ? tail : end) : List.of();
    List<String> partition = new ArrayList<>();
    for (String key : keys) {
      partition.add(resolve(key, items));
    }
    List<String> windowOrder = new ArrayList<>();
    List<String> orderExpressions = new ArrayList<>();
    for (String item : orderItems) {
      String[] parts = direction(item);
      String expression = resolve(parts[0], items);
      orderExpressions.add(normal(expression));
      windowOrder.add(expression + parts[1]);
    }
    checkOrder(partition, orderExpressions);
    String window = " QUALIFY ROW_NUMBER() OVER (PARTITION BY " + String.join(", ", partition)
        + (windowOrder.isEmpty() ? "" : " ORDER BY " + String.join(", ", windowOrder)) + ") = 1 ";
    int insertAt = order >= 0 ? tokens.get(order).start() : tail >= 0 ? tokens.get(tail).start()
        : end < tokens.size() ? tokens.get(end).start() : sql.length();
    String before = sql.substring(0, tokens.get(select + 1).start()) + sql.substring(tokens.get(close).end(),
        insertAt);
    return before + window + sql.substring(insertAt);
  }

  /** PostgreSQL's rule: the keys are the leftmost ORDER BY expressions (in any order among themselves). */
  private static void checkOrder(List<String> partition, List<String> order) {
    if (order.isEmpty()) {
      return;
    }
    Set<String> keys = new HashSet<>();
    partition.forEach(k -> keys.add(normal(k)));
    Set<String> matched = new HashSet<>();
    for (String o : order) {
      if (!keys.contains(o)) {
        break;
      }
      matched.add(o);
    }
    if (!matched.containsAll(keys)) {
      throw new AccelException(SqlState.INVALID_COLUMN_REFERENCE,
          "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
    }
  }

  /** An ORDER BY item split into its expression and its direction and null order (with a leading space). */
  private static String[] direction(String item) {
    List<SqlLexer.Token> t = SqlLexer.tokenizeExtended(item);
    int n = t.size();
    while (n > 0 && t.get(n - 1).kind() == SqlLexer.Kind.END) {
      n--;
    }
    int cut = n;
    if (cut >= 2 && t.get(cut - 2).is("nulls") && (t.get(cut - 1).is("first") || t.get(cut - 1).is("last"))) {
      cut -= 2;
    }
    if (cut >= 1 && (t.get(cut - 1).is("asc") || t.get(cut - 1).is("desc"))) {
      cut -= 1;
    }
    if (cut == n || cut == 0) {
      return new String[] {item.strip(), ""};
    }
    int at = t.get(cut).start();
    return new String[] {item.substring(0, at).strip(), " " + item.substring(at).strip()};
  }

  /**
   * A key or ORDER BY expression as the window reads it: an output column's number or {@code AS} alias stands for
   * that item's expression.
   */
  private static String resolve(String expression, List<String> items) {
    String e = expression.strip();
    if (e.matches("\\d+")) {
      int n = Integer.parseInt(e);
      if (n >= 1 && n <= items.size()) {
        return itemExpression(items.get(n - 1));
      }
      throw new AccelException(SqlState.INVALID_COLUMN_REFERENCE, "ORDER BY position " + n
          + " is not in select list");
    }
    List<SqlLexer.Token> t = SqlLexer.tokenizeExtended(e);
    if (t.size() >= 1 && t.get(0).isName() && (t.size() == 1 || t.get(1).kind() == SqlLexer.Kind.END)) {
      for (String item : items) {
        List<SqlLexer.Token> it = SqlLexer.tokenizeExtended(item);
        int n = it.size();
        while (n > 0 && it.get(n - 1).kind() == SqlLexer.Kind.END) {
          n--;
        }
        if (n >= 3 && it.get(n - 2).is("as") && it.get(n - 1).isName()
            && it.get(n - 1).text().equals(t.get(0).text()) && it.get(n - 1).kind() == t.get(0).kind()) {
          return "(" + item.substring(0, it.get(n - 2).start()).strip() + ")";
        }
      }
    }
    return e;
  }

  /** A select item without its {@code AS} alias. */
  private static String itemExpression(String item) {
    List<SqlLexer.Token> it = SqlLexer.tokenizeExtended(item);
    int n = it.size();
    while (n > 0 && it.get(n - 1).kind() == SqlLexer.Kind.END) {
      n--;
    }
    if (n >= 3 && it.get(n - 2).is("as") && it.get(n - 1).isName()) {
      return "(" + item.substring(0, it.get(n - 2).start()).strip() + ")";
    }
    return item.strip();
  }

  /** An expression's tokens, for comparing two spellings of it. */
  private static String normal(String expression) {
    StringBuilder b = new StringBuilder();
    String e = expression.strip();
    while (e.startsWith("(") && e.endsWith(")") && balanced(e.substring(1, e.length() - 1))) {
      e = e.substring(1, e.length() - 1).strip();
    }
    for (SqlLexer.Token t : SqlLexer.tokenizeExtended(e)) {
      if (t.kind() != SqlLexer.Kind.END) {
        b.append(t.kind()).append(':').append(t.text()).append(' ');
      }
    }
    return b.toString();
  }

  private static boolean balanced(String s) {
    int depth = 0;
    for (SqlLexer.Token t : SqlLexer.tokenizeExtended(s)) {
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")") && --depth < 0) {
        return false;
      }
    }
    return depth == 0;
  }

  /** The text of tokens [from, to) split at their top-level commas. */
  private static List<String> split(String sql, List<SqlLexer.Token> tokens, int from, int to) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = from;
    for (int k = from; k < to; k++) {
      SqlLexer.Token t = tokens.get(k);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.isSymbol(",")) {
        parts.add(sql.substring(tokens.get(start).start(), tokens.get(k - 1).end()));
        start = k + 1;
      }
    }
    if (start < to) {
      parts.add(sql.substring(tokens.get(start).start(), tokens.get(to - 1).end()));
    }
    return parts;
  }
}
