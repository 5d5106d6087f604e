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

  /** The fields {@code date_part('field', x)} reads as EXTRACT does (Calcite's own DATE_PART numbered DOW 1 to 7). */
  private static final Set<String> DATE_PARTS = Set.of("century", "day", "decade", "dow", "doy", "epoch", "hour",
      "isodow", "isoyear", "millennium", "minute", "month", "quarter", "second", "week", "year");

  /**
   * {@code sql} with each such EXTRACT rewritten, and each {@code date_part('field', x)} of a field above into the
   * double precision of {@code EXTRACT(field FROM x)}, as PostgreSQL defines it; unchanged when it has none.
   */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    String text = lower.contains("date_part") ? SqlLexer.rewriteEach(sql, 8, FractionalExtract::rewriteDatePart)
        : sql;
    if (!text.toLowerCase(Locale.ROOT).contains("extract")) {
      return text;
    }
    return SqlLexer.rewriteEach(text, 8, FractionalExtract::rewriteFirst);
  }

  private static String rewriteDatePart(String sql, List<Token> tokens) {
    for (int k = 0; k + 4 < tokens.size(); k++) {
      if (!tokens.get(k).is("date_part") || !tokens.get(k + 1).isSymbol("(")
          || tokens.get(k + 2).kind() != SqlLexer.Kind.STRING
          || !DATE_PARTS.contains(tokens.get(k + 2).text().toLowerCase(Locale.ROOT))
          || !tokens.get(k + 3).isSymbol(",") || k > 0 && tokens.get(k - 1).isSymbol(".")) {
        continue;
      }
      int close = PgCatalogSyntax.closing(tokens, k + 1);
      if (close < 0) {
        return null;
      }
      return sql.substring(0, tokens.get(k).start()) + "CAST(EXTRACT("
          + tokens.get(k + 2).text().toLowerCase(Locale.ROOT) + " FROM "
          + sql.substring(tokens.get(k + 4).start(), tokens.get(close).start()) + ") AS DOUBLE PRECISION)"
          + sql.substring(tokens.get(close).end());
    }
    return null;
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
