package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;

/**
 * PostgreSQL's ordered-set aggregates, which Calcite cannot run ({@code percentile_cont(0.5) WITHIN GROUP (ORDER BY
 * x)} failed to plan): written as Accel's aggregates of the ordered value and the direct argument,
 * {@code accel_percentile_cont(x, 0.5, descending)}, {@code accel_percentile_disc(...)} and
 * {@code accel_mode(x, descending)} ({@code io.accel.plan.OrderedSetFunctions}).
 */
public final class OrderedSetAggregates {
  private OrderedSetAggregates() {
  }

  private static final List<String> NAMES = List.of("percentile_cont", "percentile_disc", "mode");

  /** {@code sql} with each such call rewritten; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(java.util.Locale.ROOT);
    if (!lower.contains("within") || NAMES.stream().noneMatch(lower::contains)) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 16, OrderedSetAggregates::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 0; k + 1 < tokens.size(); k++) {
      Token name = tokens.get(k);
      if (name.kind() != Kind.WORD || !NAMES.contains(name.text()) || !tokens.get(k + 1).isSymbol("(")
          || k > 0 && tokens.get(k - 1).isSymbol(".")) {
        continue;
      }
      int argsEnd = PgCatalogSyntax.closing(tokens, k + 1);
      if (argsEnd < 0 || argsEnd + 6 >= tokens.size() || !tokens.get(argsEnd + 1).is("within")
          || !tokens.get(argsEnd + 2).is("group") || !tokens.get(argsEnd + 3).isSymbol("(")
          || !tokens.get(argsEnd + 4).is("order") || !tokens.get(argsEnd + 5).is("by")) {
        continue;
      }
      int groupEnd = PgCatalogSyntax.closing(tokens, argsEnd + 3);
      if (groupEnd < 0) {
        continue;
      }
      // ORDER BY expression [ASC | DESC] [NULLS FIRST | LAST]: NULLs are skipped, as the aggregates skip them
      int exprEnd = groupEnd;
      boolean descending = false;
      if (exprEnd - 2 > argsEnd + 5 && tokens.get(exprEnd - 2).is("nulls")) {
        exprEnd -= 2;
      }
      if (tokens.get(exprEnd - 1).is("desc") || tokens.get(exprEnd - 1).is("asc")) {
        descending = tokens.get(exprEnd - 1).is("desc");
        exprEnd--;
      }
      String ordered = sql.substring(tokens.get(argsEnd + 6).start(), tokens.get(exprEnd - 1).end());
      String direct = sql.substring(tokens.get(k + 1).end(), tokens.get(argsEnd).start()).strip();
      String call = "accel_" + name.text() + "((" + ordered + "), " + (direct.isEmpty() ? "" : "(" + direct + "), ")
          + descending + ")";
      return sql.substring(0, name.start()) + call + sql.substring(tokens.get(groupEnd).end());
    }
    return null;
  }
}
