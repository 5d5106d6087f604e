package io.accel.sql;

import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's {@code x [NOT] LIKE|ILIKE ANY|SOME|ALL (array)}, which Calcite's parser does not read, rewritten
 * into {@code accel_like_quantified(x, array, ilike, not, all)} ({@link io.accel.plan.LikeQuantified}). As in
 * PostgreSQL, NOT negates each match ({@code x NOT LIKE ANY (a)} is true when x misses some pattern), and
 * {@code x} is what binds tighter than LIKE: primaries joined by arithmetic and {@code ||}.
 */
public final class QuantifiedLike {
  private QuantifiedLike() {
  }

  /** {@code sql} with each quantified LIKE as a call; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("like")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 64, QuantifiedLike::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 1; k + 2 < tokens.size(); k++) {
      Token like = tokens.get(k);
      Token quantifier = tokens.get(k + 1);
      if (!(like.is("like") || like.is("ilike")) || !(quantifier.is("any") || quantifier.is("some")
          || quantifier.is("all")) || !tokens.get(k + 2).isSymbol("(")) {
        continue;
      }
      boolean not = tokens.get(k - 1).is("not");
      int leftEnd = not ? k - 2 : k - 1;
      int left = JsonSyntax.operandStart(tokens, leftEnd);
      int close = JsonSyntax.closing(tokens, k + 2);
      if (left < 0 || close < 0 || close == k + 3) {
        continue;
      }
      String call = "accel_like_quantified(" + sql.substring(tokens.get(left).start(), tokens.get(leftEnd).end())
          + ", " + sql.substring(tokens.get(k + 3).start(), tokens.get(close - 1).end()) + ", "
          + like.is("ilike") + ", " + not + ", " + quantifier.is("all") + ")";
      return sql.substring(0, tokens.get(left).start()) + call + sql.substring(tokens.get(close).end());
    }
    return null;
  }
}
