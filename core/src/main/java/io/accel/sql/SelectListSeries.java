package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;

/**
 * {@code generate_series(...)} in the SELECT list of a SELECT without FROM ({@code SELECT generate_series(1, 3)},
 * {@code INSERT INTO t SELECT generate_series(1, 1000), 'x'}), which PostgreSQL expands into one row per value
 * and Calcite cannot call there: rewritten as a SELECT from the series, {@code SELECT x FROM
 * generate_series(1, 3) AS accel_series(generate_series)} with the call replaced by its column. One such call per
 * SELECT; a SELECT with FROM keeps its text (Calcite reports it).
 */
public final class SelectListSeries {
  private SelectListSeries() {
  }

  private static final String ALIAS = "accel_series";

  /** {@code sql} with each such SELECT rewritten; unchanged when it has none. */
  public static String rewrite(String sql) {
    if (!sql.toLowerCase(Locale.ROOT).contains("generate_series")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 8, SelectListSeries::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int s = 0; s < tokens.size(); s++) {
      if (!tokens.get(s).is("select")) {
        continue;
      }
      // the SELECT list: up to the first word at its depth that ends it
      int depth = 0;
      int call = -1;
      int calls = 0;
      int end = s + 1;
      for (; end < tokens.size(); end++) {
        Token t = tokens.get(end);
        if (t.kind() == Kind.END) {
          break;
        }
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          if (depth == 0) {
            break; // the end of a parenthesized SELECT
          }
          depth--;
        } else if (depth == 0 && t.kind() == Kind.WORD && ENDS_LIST.contains(t.text())) {
          break;
        } else if (t.is("generate_series") && end + 1 < tokens.size() && tokens.get(end + 1).isSymbol("(")
            && !tokens.get(end - 1).isSymbol(".")) {
          calls++;
          call = end;
        }
      }
      boolean from = end < tokens.size() && tokens.get(end).is("from");
      if (call < 0 || calls != 1 || from) {
        continue;
      }
      int close = PgCatalogSyntax.closing(tokens, call + 1);
      if (close < 0 || close > end) {
        continue;
      }
      int listEnd = tokens.get(end - 1).end();
      return sql.substring(0, tokens.get(call).start()) + ALIAS + ".generate_series"
          + sql.substring(tokens.get(close).end(), listEnd) + " FROM "
          + sql.substring(tokens.get(call).start(), tokens.get(close).end()) + " AS " + ALIAS + "(generate_series)"
          + sql.substring(listEnd);
    }
    return null;
  }

  /** Words that end a SELECT list without FROM at its depth. */
  private static final java.util.Set<String> ENDS_LIST = java.util.Set.of("from", "where", "group", "having",
      "window", "order", "limit", "offset", "fetch", "for", "union", "intersect", "except", "into", "returning",
      "on");
}
