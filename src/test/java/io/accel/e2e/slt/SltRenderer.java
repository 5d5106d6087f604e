package io.accel.e2e.slt;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns result values into the strings sqllogictest compares, and sorts and hashes them.
 *
 * <p>Rendering by column type character:
 * <ul>
 *   <li>any type: SQL NULL is {@code NULL};</li>
 *   <li>{@code I}: integral numbers as integers; a number with a fraction keeps its fraction (so a wrong
 *       fractional result never matches an integer); other values as for {@code T};</li>
 *   <li>{@code R}: numbers with exactly three decimals ({@code %.3f}, as sqllogictest prints them), the
 *       exact value rounded half-even, so a {@code double} and a {@code numeric} of the same value print
 *       alike;</li>
 *   <li>{@code T}: strings as they are ({@code (empty)} for the empty string, control characters as
 *       {@code @}); booleans {@code true}/{@code false}; numbers in plain notation (numerics keep their
 *       scale); dates {@code yyyy-MM-dd}; times {@code HH:mm:ss[.ffffff]}; timestamps
 *       {@code yyyy-MM-dd HH:mm:ss[.ffffff]}; timestamps with time zone in UTC with {@code +00}, as
 *       PostgreSQL prints them with {@code TimeZone=UTC}; byte arrays as PostgreSQL's hex form
 *       {@code \x0a1b}.</li>
 * </ul>
 */
public final class SltRenderer {
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd");

  private SltRenderer() {
  }

  public static String render(Object value, char type) {
    if (value == null) {
      return "NULL";
    }
    return switch (type) {
      case 'I' -> renderInteger(value);
      case 'R' -> renderReal(value);
      default -> renderText(value);
    };
  }

  static String renderInteger(Object value) {
    BigDecimal d = toDecimal(value);
    if (d == null) {
      return renderText(value);
    }
    if (d.signum() == 0) {
      return "0";
    }
    BigDecimal stripped = d.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      return stripped.toBigIntegerExact().toString();
    }
    return stripped.toPlainString();
  }

  static String renderReal(Object value) {
    BigDecimal d = toDecimal(value);
    if (d == null) {
      if (value instanceof Double x) {
        return x.isNaN() ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
      }
      if (value instanceof Float x) {
        return x.isNaN() ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
      }
      return renderText(value);
    }
    String s = d.setScale(3, RoundingMode.HALF_EVEN).toPlainString();
    if (d.signum() < 0 && !s.startsWith("-")) {
      s = "-" + s; // printf("%.3f", -0.0001) prints -0.000
    }
    return s;
  }

  /** The exact decimal value of a number, or null when the value is not a (finite) number. */
  static BigDecimal toDecimal(Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double x = ((Number) value).doubleValue();
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        return null;
      }
      return new BigDecimal(x);
    }
    if (value instanceof Number n) {
      try {
        return new BigDecimal(n.toString());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  static String renderText(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof String s) {
      return renderString(s);
    }
    if (value instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Double || value instanceof Float) {
      return renderFloat(((Number) value).doubleValue(), value instanceof Float ? Float.toString((Float) value)
          : Double.toString((Double) value));
    }
    if (value instanceof Number n) {
      return n.toString();
    }
    if (value instanceof byte[] bytes) {
      return "\\x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof java.sql.Timestamp ts) {
      return renderText(ts.toLocalDateTime());
    }
    if (value instanceof java.sql.Date d) {
      return renderText(d.toLocalDate());
    }
    if (value instanceof java.sql.Time t) {
      int millis = (int) Math.floorMod(t.getTime(), 1000L);
      return renderText(t.toLocalTime().withNano(millis * 1_000_000));
    }
    if (value instanceof LocalDate d) {
      return d.format(DATE);
    }
    if (value instanceof LocalTime t) {
      return time(t);
    }
    if (value instanceof LocalDateTime t) {
      return t.toLocalDate().format(DATE) + " " + time(t.toLocalTime());
    }
    if (value instanceof OffsetDateTime t) {
      return renderText(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "+00";
    }
    if (value instanceof ZonedDateTime t) {
      return renderText(t.toOffsetDateTime());
    }
    if (value instanceof java.time.Instant t) {
      return renderText(t.atOffset(ZoneOffset.UTC));
    }
    if (value instanceof java.sql.Array array) {
      // both drivers' arrays as PostgreSQL's text of a one-dimensional array: {1,NULL,3}
      try {
        StringBuilder out = new StringBuilder("{");
        Object elements = array.getArray();
        for (int i = 0; i < java.lang.reflect.Array.getLength(elements); i++) {
          Object e = java.lang.reflect.Array.get(elements, i);
          out.append(i > 0 ? "," : "").append(e == null ? "NULL"
              : e instanceof BigDecimal d ? d.toPlainString() : e.toString());
        }
        return out.append('}').toString();
      } catch (java.sql.SQLException e) {
        return renderString(value.toString());
      }
    }
    return renderString(value.toString());
  }

  private static String renderString(String s) {
    if (s.isEmpty()) {
      return "(empty)";
    }
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < 0x20 || ch == 0x7f) {
        if (b == null) {
          b = new StringBuilder(s.substring(0, i));
        }
        b.append('@');
      } else if (b != null) {
        b.append(ch);
      }
    }
    return b == null ? s : b.toString();
  }

  /** Floating-point numbers in a PostgreSQL-like form: 1.5, 100, 1e+20. */
  private static String renderFloat(double x, String javaString) {
    if (Double.isNaN(x)) {
      return "NaN";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "Infinity" : "-Infinity";
    }
    if (x == Math.rint(x) && Math.abs(x) < 1e15) {
      return x == 0 && 1 / x < 0 ? "-0" : Long.toString((long) x);
    }
    BigDecimal d = new BigDecimal(javaString);
    if (Math.abs(x) >= 1e-4 && Math.abs(x) < 1e15) {
      return d.stripTrailingZeros().toPlainString();
    }
    String s = javaString.replace(".0E", "E");
    int e = s.indexOf('E');
    if (e < 0) {
      return s;
    }
    String exp = s.substring(e + 1);
    String sign = exp.startsWith("-") ? "-" : "+";
    exp = exp.replace("-", "");
    if (exp.length() < 2) {
      exp = "0" + exp;
    }
    return s.substring(0, e) + "e" + sign + exp;
  }

  private static String time(LocalTime t) {
    StringBuilder b = new StringBuilder(String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond()));
    int nanos = t.getNano();
    if (nanos != 0) {
      String frac = String.format("%09d", nanos);
      frac = frac.replaceAll("0+$", "");
      b.append('.').append(frac);
    }
    return b.toString();
  }

  /** Renders every row with the query's type string (one character per column). */
  public static List<List<String>> renderRows(List<List<Object>> rows, String types) {
    List<List<String>> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<String> r = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        char t = c < types.length() ? types.charAt(c) : 'T';
        r.add(render(row.get(c), t));
      }
      out.add(r);
    }
    return out;
  }

  /**
   * Orders rendered rows as sqllogictest does and flattens them into the value list that is compared:
   * {@code nosort} keeps the order, {@code rowsort} sorts the rows (comparing column by column, bytewise
   * like strcmp), {@code valuesort} sorts all values on their own.
   */
  public static List<String> sortedValues(List<List<String>> rows, SltRecord.SortMode mode) {
    List<List<String>> ordered = new ArrayList<>(rows);
    if (mode == SltRecord.SortMode.ROWSORT) {
      ordered.sort(SltRenderer::compareRows);
    }
    List<String> values = new ArrayList<>();
    for (List<String> row : ordered) {
      values.addAll(row);
    }
    if (mode == SltRecord.SortMode.VALUESORT) {
      values.sort(SltRenderer::compareStrings);
    }
    return values;
  }

  /** Rows in the order used for comparison (for messages and for writing expected results). */
  public static List<List<String>> sortedRows(List<List<String>> rows, SltRecord.SortMode mode) {
    List<List<String>> ordered = new ArrayList<>(rows);
    if (mode == SltRecord.SortMode.ROWSORT) {
      ordered.sort(SltRenderer::compareRows);
    }
    return ordered;
  }

  static int compareRows(List<String> a, List<String> b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compareStrings(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** strcmp over the UTF-8 bytes. */
  static int compareStrings(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  /** MD5 (lower-case hex) over the values, each followed by a newline, as sqllogictest hashes them. */
  public static String md5(List<String> values) {
    try {
      MessageDigest md = MessageDigest.getInstance("MD5");
      for (String v : values) {
        md.update(v.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The line sqllogictest writes instead of the values of a large result. */
  public static String hashLine(List<String> values) {
    return values.size() + " values hashing to " + md5(values);
  }
}
