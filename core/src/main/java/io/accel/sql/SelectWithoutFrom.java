package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * A SELECT without FROM that has a WHERE, GROUP BY or HAVING ({@code INSERT INTO t SELECT 1, 'x' WHERE NOT EXISTS
 * (...)}, the idempotent insert of migration scripts), which PostgreSQL runs over one empty row and Calcite's grammar
 * rejects: given {@code FROM (VALUES (0)) AS accel_no_from(accel_no_from)}, the same one row.
 */
public final class SelectWithoutFrom {
  private SelectWithoutFrom() {
  }

  private static final String FROM = " FROM (VALUES (0)) AS accel_no_from(accel_no_from) ";

  /** {@code sql} with such SELECTs given that FROM; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(java.util.Locale.ROOT);
    if (!lower.contains("select") || !lower.contains("where") && !lower.contains("group") && !lower.contains("having")) {
      return sql;
    }
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    List<Integer> inserts = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (!tokens.get(i).is("select")) {
        continue;
      }
      int at = clauseWithoutFrom(tokens, i + 1);
      if (at >= 0) {
        inserts.add(tokens.get(at).start());
      }
    }
    if (inserts.isEmpty()) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length() + inserts.size() * FROM.length());
    int copied = 0;
    for (int offset : inserts) {
      out.append(sql, copied, offset).append(FROM.strip()).append(' ');
      copied = offset;
    }
    return out.append(sql, copied, sql.length()).toString();
  }

  /** The token index of the WHERE, GROUP or HAVING of the SELECT list starting at {@code from}, if it has no FROM. */
  private static int clauseWithoutFrom(List<Token> tokens, int from) {
    int depth = 0;
    for (int i = from; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        if (--depth < 0) {
          return -1;
        }
      } else if (depth == 0 && t.kind() == Kind.WORD) {
        switch (t.text()) {
          case "from" -> {
            if (!(i > 0 && tokens.get(i - 1).is("distinct"))) {
              return -1; // (IS [NOT] DISTINCT FROM is no clause)
            }
          }
          case "where", "having" -> {
            return i;
          }
          case "group" -> {
            return i + 1 < tokens.size() && tokens.get(i + 1).is("by") ? i : -1;
          }
          case "union", "intersect", "except", "order", "limit", "offset", "fetch", "returning", "into", "window",
              "for", "on", "select" -> {
            return -1;
          }
          default -> {
          }
        }
      } else if (depth == 0 && (t.isSymbol(";") || t.kind() == Kind.END)) {
        return -1;
      }
    }
    return -1;
  }
}
