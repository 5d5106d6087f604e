package io.accel.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's numbered parameters ({@code $1}, {@code $2}, ...) rewritten as the engine's positional
 * {@code ?}: a frontend speaking PostgreSQL's protocol prepares {@link #sql()} and binds, for the i-th
 * {@code ?}, the value of parameter {@code order()[i]} (1-based), so {@code $2 ... $1 ... $2} works as in
 * PostgreSQL. Text without {@code $n} (or that does not lex) is returned unchanged.
 */
public record PositionalParameters(String sql, int[] order, int count) {

  private static final java.util.regex.Pattern PREPARE = java.util.regex.Pattern.compile("(?i)\\s*prepare\\s");

  public static PositionalParameters of(String sql) {
    return of(sql, n -> null);
  }

  /**
   * As {@link #of(String)}, with {@code $n} written {@code CAST(? AS type)} where {@code castTo} gives parameter n
   * (1-based) a type name: PREPARE's declared types, for statements whose parameters Calcite cannot type alone.
   */
  public static PositionalParameters of(String sql, java.util.function.IntFunction<String> castTo) {
    if (sql.indexOf('$') < 0 || CacheCommands.isCacheStatement(sql) || PREPARE.matcher(sql).lookingAt()) {
      // CREATE CACHE FROM ... $1, PREPARE ... AS ... $1: the inner statement's placeholders, not the statement's
      return new PositionalParameters(sql, new int[0], 0);
    }
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return new PositionalParameters(sql, new int[0], 0); // preparing reports the lexical error
    }
    StringBuilder out = new StringBuilder(sql.length());
    List<Integer> order = new ArrayList<>();
    int copied = 0;
    int max = 0;
    for (SqlLexer.Token t : tokens) {
      if (t.kind() == SqlLexer.Kind.PARAM && t.text().startsWith("$")) {
        int n;
        try {
          n = Integer.parseInt(t.text().substring(1));
        } catch (NumberFormatException e) {
          throw new AccelException(SqlState.UNDEFINED_PARAMETER, "there is no parameter " + t.text())
              .locatedIn(sql);
        }
        if (n < 1) {
          throw new AccelException(SqlState.UNDEFINED_PARAMETER, "there is no parameter " + t.text());
        }
        String type = castTo.apply(n);
        out.append(sql, copied, t.start()).append(type == null ? "?" : "CAST(? AS " + type + ")");
        copied = t.end();
        order.add(n);
        max = Math.max(max, n);
      }
    }
    if (order.isEmpty()) {
      return new PositionalParameters(sql, new int[0], 0);
    }
    out.append(sql, copied, sql.length());
    return new PositionalParameters(out.toString(), order.stream().mapToInt(Integer::intValue).toArray(), max);
  }
}
