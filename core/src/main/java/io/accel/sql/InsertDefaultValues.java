package io.accel.sql;

import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code INSERT INTO t [AS a] DEFAULT VALUES}, which Calcite's grammar lacks (ORMs write it for a row whose columns
 * are all generated): written {@code INSERT INTO t [AS a] ("first column") VALUES (DEFAULT)}, the same row.
 */
public final class InsertDefaultValues {
  private InsertDefaultValues() {
  }

  /** A cheap test before {@link #rewrite}. */
  public static boolean mayHave(String sql) {
    return sql.regionMatches(true, firstWord(sql), "insert", 0, 6) && sql.toLowerCase(java.util.Locale.ROOT)
        .contains("default");
  }

  private static int firstWord(String sql) {
    int i = 0;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * The statement rewritten, when it is such an INSERT; {@code firstColumn} gives a table's first column by the
   * table's name (empty for an unknown table, left for planning to report).
   */
  public static Optional<String> rewrite(String sql, Function<String, Optional<String>> firstColumn) {
    List<Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return Optional.empty();
    }
    int i = 0;
    if (!is(tokens, i++, "insert") || !is(tokens, i++, "into") || i >= tokens.size() || !tokens.get(i).isName()) {
      return Optional.empty();
    }
    String table = tokens.get(i++).text();
    if (i + 1 < tokens.size() && tokens.get(i).isSymbol(".") && tokens.get(i + 1).isName()) {
      table = tokens.get(i + 1).text();
      i += 2;
    }
    if (is(tokens, i, "as")) {
      i += 2;
    } else if (i < tokens.size() && tokens.get(i).isName() && !is(tokens, i, "default")) {
      i++;
    }
    if (!is(tokens, i, "default") || !is(tokens, i + 1, "values")) {
      return Optional.empty();
    }
    Token defaultToken = tokens.get(i);
    Token valuesToken = tokens.get(i + 1);
    return firstColumn.apply(table).map(column -> sql.substring(0, defaultToken.start()) + "(\""
        + column.replace("\"", "\"\"") + "\") VALUES (DEFAULT)" + sql.substring(valuesToken.end()));
  }

  private static boolean is(List<Token> tokens, int i, String word) {
    return i < tokens.size() && tokens.get(i).is(word);
  }
}
