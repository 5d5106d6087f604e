package io.accel.demo;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.stream.Collectors;

/** SQL text helpers: substituting literal values for {@code ?} placeholders (for EXPLAIN and for display). */
final class SqlText {
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private SqlText() {
  }

  /**
   * {@code sql} with each {@code ?} placeholder (outside quoted strings, quoted identifiers and comments)
   * replaced by the SQL literal of the matching parameter.
   */
  static String inline(String sql, Object... params) {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    int next = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = i + 1;
        while (end < n) {
          if (sql.charAt(end) == c) {
            if (end + 1 < n && sql.charAt(end + 1) == c) {
              end += 2;
              continue;
            }
            break;
          }
          end++;
        }
        end = Math.min(end + 1, n);
        out.append(sql, i, end);
        i = end;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        end = end < 0 ? n : end;
        out.append(sql, i, end);
        i = end;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        out.append(sql, i, end);
        i = end;
      } else if (c == '?') {
        if (next >= params.length) {
          throw new IllegalArgumentException("more placeholders than the " + params.length + " parameters in: " + sql);
        }
        out.append(literal(params[next++]));
        i++;
      } else {
        out.append(c);
        i++;
      }
    }
    if (next != params.length) {
      throw new IllegalArgumentException(params.length + " parameters for " + next + " placeholders in: " + sql);
    }
    return out.toString();
  }

  /** The SQL literal for a parameter value. */
  static String literal(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString().toUpperCase(java.util.Locale.ROOT);
    }
    if (value instanceof LocalDateTime t) {
      return "TIMESTAMP '" + TIMESTAMP.format(t) + (t.getNano() == 0 ? "" : "." + String.format("%09d", t.getNano())) + "'";
    }
    if (value instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (value instanceof LocalTime t) {
      return "TIME '" + t + "'";
    }
    throw new IllegalArgumentException("no SQL literal for a " + value.getClass().getName());
  }

  /** Parameters as shown to a reader: {@code 'user7@example.com', TIMESTAMP '2024-09-01 00:00:00'}. */
  static String describe(Object... params) {
    return Arrays.stream(params).map(SqlText::literal).collect(Collectors.joining(", "));
  }
}
