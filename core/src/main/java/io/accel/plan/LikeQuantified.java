package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * {@code x [NOT] LIKE|ILIKE ANY|ALL (array)} ({@link io.accel.sql.QuantifiedLike} rewrites it into a call of this):
 * each pattern matched as PostgreSQL's LIKE does (a backslash escapes any character), combined with
 * three-valued logic: ANY is true when some match is, else NULL when some pattern (or x) is NULL, else false; ALL
 * is false when some match is, else NULL, else true. An empty array gives false for ANY, true for ALL.
 */
public final class LikeQuantified {
  private LikeQuantified() {
  }

  static final SqlUserDefinedFunction FUNCTION = PgFunctions.function("accel_like_quantified",
      binding -> binding.getTypeFactory().createTypeWithNullability(
          binding.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN), true), 5, 5,
      new PgFunctions.Implementation(PgFunctions.method(LikeQuantified.class, "match"), false, NullPolicy.NONE));

  /** Called by generated code. */
  public static Boolean match(Object value, Object patterns, Object ilike, Object not, Object all) {
    if (value == null || patterns == null) {
      return null;
    }
    boolean anyNull = false;
    boolean every = Boolean.TRUE.equals(all);
    for (Object p : (List<?>) patterns) {
      if (p == null) {
        anyNull = true;
        continue;
      }
      boolean matched = like(value.toString(), p.toString(), Boolean.TRUE.equals(ilike)) != Boolean.TRUE.equals(not);
      if (matched != every) {
        return matched;
      }
    }
    return anyNull ? null : every;
  }

  /** Compiled patterns: a scan tests the same few on every row (bounded: patterns may be parameters). */
  private static final com.github.benmanes.caffeine.cache.Cache<String, Pattern> COMPILED =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(1_000).executor(Runnable::run).build();

  /** PostgreSQL's LIKE: {@code %} any run, {@code _} any character, a backslash makes the next one literal. */
  static boolean like(String value, String pattern, boolean ignoreCase) {
    return COMPILED.get((ignoreCase ? "i" : "c") + pattern, k -> compile(pattern, ignoreCase)).matcher(value).matches();
  }

  private static Pattern compile(String pattern, boolean ignoreCase) {
    StringBuilder regex = new StringBuilder(pattern.length() + 8);
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (++i == pattern.length()) {
          throw new AccelException(SqlState.INVALID_ESCAPE_SEQUENCE,
              "LIKE pattern must not end with escape character");
        }
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    int flags = Pattern.DOTALL | (ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    return Pattern.compile(regex.toString(), flags);
  }
}
