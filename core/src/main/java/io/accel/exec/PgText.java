package io.accel.exec;

import io.accel.catalog.DataType;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;

/**
 * PostgreSQL's text representation of engine values, as its type output functions print them (what the
 * wire protocol's text format, COPY and {@code ::text} show), and back.
 *
 * <p>{@link #format(Object, ColumnMetaData, ZoneId)} takes a value as a {@link io.accel.cursor.Cursor} yields it
 * (Calcite's internal representation, see {@link io.accel.catalog.ColumnType}) with its result column:
 * <ul>
 *   <li>BOOLEAN {@code t}/{@code f}; integers in decimal; NUMERIC plain, never with an exponent ({@code 1.50});
 *   <li>REAL and DOUBLE as PostgreSQL 12+ with {@code extra_float_digits} 1: the shortest text that reads back
 *       as the same value, with an exponent below 1e-4 and from 1e15 (1e6 for REAL) on ({@code 1e+20},
 *       {@code 1e-05}), {@code Infinity}, {@code -Infinity}, {@code NaN};
 *   <li>DATE {@code 2024-01-31} ({@code 0001-12-31 BC} before year 1); TIME {@code 13:45:00[.fff]};
 *       TIMESTAMP {@code 2024-01-31 13:45:00[.fff]}; TIMESTAMP WITH TIME ZONE in {@code zone} with its offset
 *       ({@code +00}, {@code +05:30}, {@code -03:30}); fractions without trailing zeros;
 *   <li>BYTEA in hex ({@code \x0a0b}); UUID in lower case; CHAR(n) as the cursor padded it; arrays
 *       {@code {1,2}} with PostgreSQL's element quoting; intervals {@code 5 days 01:30:00}, {@code 1 year 2 mons}.
 * </ul>
 * SQL NULL is {@code null} both ways. {@link #parse(String, DataType, ZoneId)} reads such text (and what
 * PostgreSQL's input functions accept besides) into a column's internal representation, through
 * {@link ParameterConversions} so that text from COPY and text bound as a parameter convert alike.
 */
public final class PgText {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private PgText() {
  }

  /** The text of {@code value} (internal representation) in a column of this result; null for SQL NULL. */
  public static String format(Object value, ColumnMetaData column, ZoneId zone) {
    return format(value, column.type, zone);
  }

  /** The text of {@code value} (internal representation) of type {@code type}; null for SQL NULL. */
  public static String format(Object value, ColumnMetaData.AvaticaType type, ZoneId zone) {
    if (value == null) {
      return null;
    }
    switch (type.id) {
      case Types.BOOLEAN, Types.BIT:
        return value instanceof Boolean b ? (b ? "t" : "f") : value.toString();
      case Types.REAL:
        return value instanceof Number n ? float4(n.floatValue()) : value.toString();
      case Types.FLOAT, Types.DOUBLE:
        return value instanceof Number n ? float8(n.doubleValue()) : value.toString();
      case Types.DECIMAL, Types.NUMERIC:
        return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
      case Types.DATE:
        return value instanceof Number n ? date(n.intValue()) : value.toString();
      case Types.TIME:
        return value instanceof Number n ? time(n.longValue()) : value.toString();
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE:
        if (!(value instanceof Number n)) {
          return value.toString();
        }
        return isTimestampTz(type) ? timestampTz(n.longValue(), zone) : timestamp(n.longValue());
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB:
        return bytea(value);
      case Types.ARRAY:
        if (value instanceof List<?> list) {
          ColumnMetaData.AvaticaType component = type instanceof ColumnMetaData.ArrayType a ? a.getComponent()
              : ColumnMetaData.scalar(Types.VARCHAR, "VARCHAR", Rep.STRING);
          return array(list, component, zone);
        }
        return value.toString();
      default:
        if (value instanceof Boolean b) {
          return b ? "t" : "f";
        }
        if (value instanceof ByteString || value instanceof byte[]) {
          return bytea(value);
        }
        if (value instanceof BigDecimal d) {
          return d.toPlainString();
        }
        if (type.name != null && type.name.startsWith("INTERVAL_") && value instanceof Number) {
          return io.accel.plan.PgExpressions.intervalText(value, type.name.contains("YEAR")
              || type.name.contains("MONTH"));
        }
        return value.toString();
    }
  }

  /** Whether a result column of this type is TIMESTAMP WITH TIME ZONE (an instant). */
  public static boolean isTimestampTz(ColumnMetaData.AvaticaType type) {
    return type.id == Types.TIMESTAMP_WITH_TIMEZONE || ParameterConversions.TIMESTAMPTZ.equals(type.name);
  }

  /**
   * The internal representation of PostgreSQL text for a table column of {@code type}; TIMESTAMP WITH TIME ZONE
   * text without an offset is read in {@code zone}. Malformed text fails as PostgreSQL's input function does
   * (22P02, 22003, 22007, 22008). Lengths, NUMERIC scale and NOT NULL are the table writer's to check.
   */
  public static Object parse(String text, DataType type, ZoneId zone) {
    if (text == null) {
      return null;
    }
    return switch (type.kind()) {
      case SMALLINT -> (short) integral(text, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
      case INTEGER -> (int) integral(text, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
      case BIGINT -> integral(text, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
      case CHAR, VARCHAR, TEXT -> text;
      case JSON -> io.accel.json.Jsonb.validate(text);
      case JSONB -> io.accel.json.Jsonb.normalize(text);
      case BYTEA -> parseBytea(text);
      case DATE -> {
        Integer days = isoDate(text);
        yield days != null ? days : convert(text, type.kind().sqlTypeName().getName(), zone);
      }
      default -> convert(text, type.kind().sqlTypeName().getName(), zone);
    };
  }

  /**
   * Days since 1970-01-01 of a date written exactly {@code YYYY-MM-DD} (what COPY and clients send), read without a
   * formatter; null for any other text or an invalid date, which the general conversion reads or rejects.
   */
  static Integer isoDate(String text) {
    if (text.length() != 10 || text.charAt(4) != '-' || text.charAt(7) != '-') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 7);
    int day = digits(text, 8, 10);
    if (year <= 0 || month < 1 || month > 12 || day < 1 || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
      return null;
    }
    return (int) java.time.LocalDate.of(year, month, day).toEpochDay();
  }

  /**
   * The value of the common spellings of a number or date, read straight from bytes (COPY's text format): an integer
   * type's {@code [-]digits}, a NUMERIC's {@code [-]digits[.digits]} of at most 18 digits, a DATE's {@code YYYY-MM-DD}.
   * Null for anything else (other spellings, out-of-range values, other types), which {@link #parse} then reads or
   * rejects with its message: where this returns a value, it is the value {@code parse} gives.
   */
  static Object parseSimple(byte[] b, int from, int to, DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> {
        long v = simpleLong(b, from, to);
        yield v >= Short.MIN_VALUE && v <= Short.MAX_VALUE ? (Object) (short) v : null;
      }
      case INTEGER -> {
        long v = simpleLong(b, from, to);
        yield v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : null;
      }
      case BIGINT -> {
        long v = simpleLong(b, from, to);
        yield v != NOT_SIMPLE ? (Object) v : null;
      }
      case NUMERIC -> simpleDecimal(b, from, to);
      case DATE -> to - from == 10 ? isoDate(new String(b, from, 10, java.nio.charset.StandardCharsets.ISO_8859_1))
          : null;
      default -> null;
    };
  }

  /** What {@link #simpleLong} returns for text that is not {@code [-]digits} of at most 18 digits. */
  private static final long NOT_SIMPLE = Long.MIN_VALUE;

  private static long simpleLong(byte[] b, int from, int to) {
    int i = from;
    boolean negative = i < to && b[i] == '-';
    if (negative) {
      i++;
    }
    if (i == to || to - i > 18) {
      return NOT_SIMPLE;
    }
    long v = 0;
    for (; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NOT_SIMPLE;
      }
      v = v * 10 + d;
    }
    return negative ? -v : v;
  }

  private static java.math.BigDecimal simpleDecimal(byte[] b, int from, int to) {
    int i = from;
    boolean negative = i < to && b[i] == '-';
    if (negative) {
      i++;
    }
    long v = 0;
    int digits = 0;
    int scale = -1;
    for (; i < to; i++) {
      int c = b[i];
      if (c == '.' && scale < 0) {
        scale = 0;
        continue;
      }
      int d = c - '0';
      if (d < 0 || d > 9 || ++digits > 18) {
        return null;
      }
      v = v * 10 + d;
      if (scale >= 0) {
        scale++;
      }
    }
    if (digits == 0) {
      return null;
    }
    return java.math.BigDecimal.valueOf(negative ? -v : v, Math.max(scale, 0));
  }

  private static int digits(String text, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** The internal representation of PostgreSQL text for a value of {@code type} (a result column's or parameter's). */
  public static Object parse(String text, ColumnMetaData.AvaticaType type, ZoneId zone) {
    if (text == null) {
      return null;
    }
    return switch (type.id) {
      case Types.SMALLINT -> (short) integral(text, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
      case Types.INTEGER -> (int) integral(text, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer");
      case Types.BIGINT -> integral(text, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> text;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> parseBytea(text);
      default -> convert(text, isTimestampTz(type) ? ParameterConversions.TIMESTAMPTZ : type.name, zone);
    };
  }

  private static Object convert(String text, String typeName, ZoneId zone) {
    AvaticaParameter p = new AvaticaParameter(false, 0, 0, Types.OTHER, typeName, Object.class.getName(), "text");
    return ParameterConversions.convert(TypedValue.ofLocal(Rep.STRING, text), p, zoneOrUtc(zone)).toLocal();
  }

  private static ZoneId zoneOrUtc(ZoneId zone) {
    return zone == null ? ZoneOffset.UTC : zone;
  }

  /** An integer as PostgreSQL's int2in/int4in/int8in read it: optional sign, digits, surrounding spaces. */
  private static long integral(String text, long min, long max, String typeName) {
    String t = text.strip();
    long v;
    try {
      v = Long.parseLong(t);
    } catch (NumberFormatException e) {
      if (t.matches("[+-]?\\d+")) {
        throw outOfRange(text, typeName);
      }
      throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
          "invalid input syntax for type " + typeName + ": \"" + text + "\"");
    }
    if (v < min || v > max) {
      throw outOfRange(text, typeName);
    }
    return v;
  }

  private static AccelException outOfRange(String text, String typeName) {
    return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
        "value \"" + text + "\" is out of range for type " + typeName);
  }

  /** BYTEA text: hex ({@code \x0a0b}, whitespace between pairs allowed) or the escape format ({@code a\\b\012}). */
  public static ByteString parseBytea(String text) {
    if (text.startsWith("\\x")) {
      byte[] out = new byte[(text.length() - 2) / 2];
      int n = 0;
      for (int i = 2; i < text.length(); ) {
        char c = text.charAt(i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
          i++;
          continue;
        }
        int hi = Character.digit(c, 16);
        if (hi < 0) {
          throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
              "invalid hexadecimal digit: \"" + c + "\"");
        }
        if (i + 1 >= text.length()) {
          throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid hexadecimal data: odd number of digits");
        }
        int lo = Character.digit(text.charAt(i + 1), 16);
        if (lo < 0) {
          throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
              "invalid hexadecimal digit: \"" + text.charAt(i + 1) + "\"");
        }
        out[n++] = (byte) (hi << 4 | lo);
        i += 2;
      }
      return new ByteString(n == out.length ? out : java.util.Arrays.copyOf(out, n));
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length());
    byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < utf8.length; i++) {
      byte b = utf8[i];
      if (b != '\\') {
        out.write(b);
      } else if (i + 1 < utf8.length && utf8[i + 1] == '\\') {
        out.write('\\');
        i++;
      } else if (i + 3 < utf8.length && isOctal(utf8[i + 1], '3') && isOctal(utf8[i + 2], '7')
          && isOctal(utf8[i + 3], '7')) {
        out.write((utf8[i + 1] - '0') << 6 | (utf8[i + 2] - '0') << 3 | (utf8[i + 3] - '0'));
        i += 3;
      } else {
        throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bytea");
      }
    }
    return new ByteString(out.toByteArray());
  }

  private static boolean isOctal(byte b, char max) {
    return b >= '0' && b <= max;
  }

  // ---- output functions ----

  /** float8out: the shortest text that reads back as {@code d}; exponent form below 1e-4 and from 1e15. */
  public static String float8(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    double a = Math.abs(d);
    BigDecimal digits = shortest(new BigDecimal(a), new BigDecimal(Math.nextDown(a)),
        Double.isInfinite(Math.nextUp(a)) ? null : new BigDecimal(Math.nextUp(a)),
        new BigDecimal(Double.toString(a)).precision(), 17);
    return decimal(d < 0, digits, 15);
  }

  /** float4out: as {@link #float8} for a REAL; exponent form below 1e-4 and from 1e6. */
  public static String float4(float f) {
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "Infinity" : "-Infinity";
    }
    if (f == 0) {
      return 1 / f < 0 ? "-0" : "0";
    }
    float a = Math.abs(f);
    BigDecimal digits = shortest(new BigDecimal(a), new BigDecimal(Math.nextDown(a)),
        Float.isInfinite(Math.nextUp(a)) ? null : new BigDecimal(Math.nextUp(a)),
        new BigDecimal(Float.toString(a)).precision(), 9);
    return decimal(f < 0, digits, 6);
  }

  /**
   * The decimal of fewest digits strictly between the midpoints from {@code exact} to its neighbours (the
   * interval that reads back as it; PostgreSQL's Ryu excludes the midpoints themselves), rounded to nearest.
   * The search starts at {@code guess} digits (Java's own shortest, at most a digit too long before Java 19).
   */
  private static BigDecimal shortest(BigDecimal exact, BigDecimal below, BigDecimal above, int guess, int max) {
    BigDecimal two = BigDecimal.valueOf(2);
    BigDecimal low = exact.add(below).divide(two);
    BigDecimal high = above == null ? exact.add(exact.subtract(below)) : exact.add(above).divide(two);
    int p = Math.min(guess, max);
    BigDecimal found = null;
    while (p <= max) {
      BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (candidate.compareTo(low) > 0 && candidate.compareTo(high) < 0) {
        found = candidate;
        break;
      }
      p++;
    }
    if (found == null) {
      return exact.round(new MathContext(max, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }
    for (p--; p >= 1; p--) {
      BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (candidate.compareTo(low) <= 0 || candidate.compareTo(high) >= 0) {
        break;
      }
      found = candidate;
    }
    return found.stripTrailingZeros();
  }

  /** Digits in fixed notation when the decimal exponent is in [-4, maxExponent), else as {@code d.ddde+XX}. */
  private static String decimal(boolean negative, BigDecimal digits, int maxExponent) {
    String unscaled = digits.unscaledValue().toString();
    int exponent = unscaled.length() - 1 - digits.scale();
    StringBuilder out = new StringBuilder(24);
    if (negative) {
      out.append('-');
    }
    if (exponent >= -4 && exponent < maxExponent) {
      return out.append(digits.toPlainString()).toString();
    }
    out.append(unscaled.charAt(0));
    if (unscaled.length() > 1) {
      out.append('.').append(unscaled, 1, unscaled.length());
    }
    out.append('e').append(exponent < 0 ? '-' : '+');
    int abs = Math.abs(exponent);
    if (abs < 10) {
      out.append('0');
    }
    return out.append(abs).toString();
  }

  /** date_out in the ISO style: days since 1970-01-01, years before 1 as {@code BC}. */
  public static String date(int days) {
    StringBuilder out = new StringBuilder(13);
    LocalDate d = LocalDate.ofEpochDay(days);
    appendDate(out, d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    if (d.getYear() <= 0) {
      out.append(" BC");
    }
    return out.toString();
  }

  /** time_out: milliseconds of the day as {@code HH:MM:SS[.fff]}. */
  public static String time(long millisOfDay) {
    StringBuilder out = new StringBuilder(12);
    appendTime(out, Math.floorMod(millisOfDay, MILLIS_PER_DAY));
    return out.toString();
  }

  /** timestamp_out: local milliseconds since 1970-01-01 00:00. */
  public static String timestamp(long millis) {
    StringBuilder out = new StringBuilder(26);
    long days = Math.floorDiv(millis, MILLIS_PER_DAY);
    LocalDate d = LocalDate.ofEpochDay(days);
    appendDate(out, d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    out.append(' ');
    appendTime(out, Math.floorMod(millis, MILLIS_PER_DAY));
    if (d.getYear() <= 0) {
      out.append(" BC");
    }
    return out.toString();
  }

  /** timestamptz_out: an instant (UTC milliseconds) in {@code zone}, with the offset there. */
  public static String timestampTz(long millis, ZoneId zone) {
    ZoneOffset offset = zoneOrUtc(zone).getRules().getOffset(Instant.ofEpochMilli(millis));
    long local = millis + offset.getTotalSeconds() * 1000L;
    StringBuilder out = new StringBuilder(32);
    long days = Math.floorDiv(local, MILLIS_PER_DAY);
    LocalDate d = LocalDate.ofEpochDay(days);
    appendDate(out, d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    out.append(' ');
    appendTime(out, Math.floorMod(local, MILLIS_PER_DAY));
    int seconds = offset.getTotalSeconds();
    out.append(seconds < 0 ? '-' : '+');
    seconds = Math.abs(seconds);
    two(out, seconds / 3600);
    if (seconds % 3600 != 0) {
      out.append(':');
      two(out, seconds / 60 % 60);
      if (seconds % 60 != 0) {
        out.append(':');
        two(out, seconds % 60);
      }
    }
    if (d.getYear() <= 0) {
      out.append(" BC");
    }
    return out.toString();
  }

  /** byteaout in the hex format: {@code \x} and two lower-case digits a byte. */
  public static String bytea(Object value) {
    byte[] bytes = value instanceof ByteString b ? b.getBytes() : (byte[]) value;
    char[] out = new char[2 + 2 * bytes.length];
    out[0] = '\\';
    out[1] = 'x';
    for (int i = 0; i < bytes.length; i++) {
      out[2 + 2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[3 + 2 * i] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }

  /** array_out: {@code {e1,e2}}, elements quoted when empty, NULL-like or holding quotes, braces, commas or spaces. */
  private static String array(List<?> list, ColumnMetaData.AvaticaType component, ZoneId zone) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < list.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      Object element = list.get(i);
      String text = element instanceof List<?> inner ? array(inner, component, zone) : format(element, component, zone);
      if (text == null) {
        out.append("NULL");
      } else if (element instanceof List<?> || !needsQuotes(text)) {
        out.append(text);
      } else {
        appendQuoted(out, text);
      }
    }
    return out.append('}').toString();
  }

  /** An array element in double quotes, its quotes and backslashes escaped, as PostgreSQL's array text has it. */
  public static void appendQuoted(StringBuilder out, String text) {
    out.append('"');
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    out.append('"');
  }

  private static boolean needsQuotes(String text) {
    if (text.isEmpty() || text.equalsIgnoreCase("NULL")) {
      return true;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' || Character.isWhitespace(c)) {
        return true;
      }
    }
    return false;
  }

  private static void appendDate(StringBuilder out, int year, int month, int day) {
    int y = year <= 0 ? 1 - year : year;
    String ys = Integer.toString(y);
    for (int i = ys.length(); i < 4; i++) {
      out.append('0');
    }
    out.append(ys).append('-');
    two(out, month);
    out.append('-');
    two(out, day);
  }

  private static void appendTime(StringBuilder out, long millisOfDay) {
    long seconds = millisOfDay / 1000;
    two(out, (int) (seconds / 3600));
    out.append(':');
    two(out, (int) (seconds / 60 % 60));
    out.append(':');
    two(out, (int) (seconds % 60));
    int millis = (int) (millisOfDay % 1000);
    if (millis != 0) {
      out.append('.').append((char) ('0' + millis / 100));
      if (millis % 100 != 0) {
        out.append((char) ('0' + millis / 10 % 10));
        if (millis % 10 != 0) {
          out.append((char) ('0' + millis % 10));
        }
      }
    }
  }

  private static void two(StringBuilder out, int v) {
    if (v < 10) {
      out.append('0');
    }
    out.append(v);
  }
}
