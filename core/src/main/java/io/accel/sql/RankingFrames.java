package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A frame in the window of a function that ignores frames ({@code row_number() OVER (ORDER BY x ROWS BETWEEN
 * UNBOUNDED PRECEDING AND CURRENT ROW)}), which PostgreSQL accepts and Calcite rejects ("ROW/RANGE not allowed with
 * RANK, DENSE_RANK, ROW_NUMBER ..."): the frame clause is dropped, which changes nothing the function computes.
 */
public final class RankingFrames {
  private RankingFrames() {
  }

  /** Functions whose result does not depend on a frame. */
  private static final Set<String> FRAMELESS = Set.of("row_number", "rank", "dense_rank", "percent_rank",
      "cume_dist", "ntile", "lag", "lead");
  private static final Set<String> FRAME_WORDS = Set.of("rows", "range", "groups");

  /** {@code sql} with such frames dropped; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("over") || !lower.contains("rows") && !lower.contains("range") && !lower.contains("groups")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 16, RankingFrames::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 0; k + 1 < tokens.size(); k++) {
      Token name = tokens.get(k);
      if (name.kind() != Kind.WORD || !FRAMELESS.contains(name.text()) || !tokens.get(k + 1).isSymbol("(")
          || k > 0 && tokens.get(k - 1).isSymbol(".")) {
        continue;
      }
      int argsEnd = PgCatalogSyntax.closing(tokens, k + 1);
      if (argsEnd < 0 || argsEnd + 2 >= tokens.size() || !tokens.get(argsEnd + 1).is("over")
          || !tokens.get(argsEnd + 2).isSymbol("(")) {
        continue;
      }
      int windowEnd = PgCatalogSyntax.closing(tokens, argsEnd + 2);
      if (windowEnd < 0) {
        continue;
      }
      int depth = 0;
      for (int j = argsEnd + 3; j < windowEnd; j++) {
        Token t = tokens.get(j);
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          depth--;
        } else if (depth == 0 && t.kind() == Kind.WORD && FRAME_WORDS.contains(t.text())) {
          return sql.substring(0, t.start()) + sql.substring(tokens.get(windowEnd).start());
        }
      }
    }
    return null;
  }
}
