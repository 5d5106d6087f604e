package io.accel.sql;

import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code EXTRACT(EPOCH | SECOND FROM x)}, whose result PostgreSQL gives with its fraction (a numeric: 1.500000 for
 * a time 1.5 seconds past the minute) and Calcite as a whole BIGINT, rewritten into {@code accel_extract('epoch',
 * x)} ({@link io.accel.plan.PgExtract}). The other fields are whole numbers in both.
 */
public final class FractionalExtract {
  private FractionalExtract() {
  }

  private static final Set<String> UNITS = Set.of("epoch", "second");

  /** {@code sql} with each such EXTRACT rewritten; unchanged when it has none. */
  public static String rewrite(String sql) {
    if (!sql.toLowerCase(Locale.ROOT).contains("extract")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 8, FractionalExtract::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 0; k + 4 < tokens.size(); k++) {
      if (!tokens.get(k).is("extract") || !tokens.get(k + 1).isSymbol("(")
          || !UNITS.contains(tokens.get(k + 2).text()) || !tokens.get(k + 3).is("from")
          || k > 0 && tokens.get(k - 1).isSymbol(".")) {
        continue;
      }
      int close = PgCatalogSyntax.closing(tokens, k + 1);
      if (close < 0) {
        return null;
      }
      return sql.substring(0, tokens.get(k).start()) + "accel_extract('" + tokens.get(k + 2).text() + "', "
          + sql.substring(tokens.get(k + 4).start(), tokens.get(close).start()) + ")"
          + sql.substring(tokens.get(close).end());
    }
    return null;
  }
}
