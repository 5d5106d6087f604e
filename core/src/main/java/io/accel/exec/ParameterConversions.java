package io.accel.exec;

import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import io.accel.sql.AccelException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Converts bound parameter values to the type the statement declares for the parameter, as JDBC asks of
 * a driver (setString on an INTEGER parameter, setInt on a NUMERIC one, setTimestamp on a DATE one...).
 * Avatica binds each value in the representation of the setter that was called, and the code Calcite
 * generates casts it blindly to the parameter's type: without this a mismatch fails with a
 * ClassCastException, or silently compares wrong (setInt against NUMERIC) or wraps (70000 into
 * SMALLINT). Values that cannot be converted fail with PostgreSQL's SQLSTATE: 22P02 for malformed text,
 * 22003 for numbers out of range, 22007/22008 for malformed or impossible dates.
 */
public final class ParameterConversions {
  /** Calcite's name for TIMESTAMP WITH TIME ZONE (an instant, as UTC milliseconds). */
  public static final String TIMESTAMPTZ = "TIMESTAMP_WITH_LOCAL_TIME_ZONE";

  private static final long MILLIS_PER_DAY = 86_400_000L;
  /** A zone after a time without time zone ({@code 08:30:00+00}), which PostgreSQL ignores. */
  private static final Pattern TRAILING_ZONE = Pattern.compile("\\s*(?:[+-]\\d{1,2}(?::?\\d{2}){0,2}|Z)$");
  private static final Pattern DATE_SHAPE = Pattern.compile("\\d{4,}-\\d{1,2}-\\d{1,2}");
  private static final DateTimeFormatter LOCAL_DATE_TIME = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .optionalStart().append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
      // a zone after a date or timestamp without time zone is ignored, as PostgreSQL does (pgJDBC sends one)
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().parseLenient().appendOffset("+HH:MM:ss", "Z").parseStrict().optionalEnd()
      .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
      .toFormatter(Locale.ROOT)
      .withResolverStyle(ResolverStyle.STRICT);
  private static final DateTimeFormatter OFFSET_DATE_TIME = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .optionalStart().appendLiteral(' ').optionalEnd()
      // PostgreSQL prints offsets as +00, +05:30 or +00:19:32: hours alone are enough
      .parseLenient().appendOffset("+HH:MM:ss", "Z").parseStrict()
      .toFormatter(Locale.ROOT)
      .withResolverStyle(ResolverStyle.STRICT);

  private ParameterConversions() {
  }

  /**
   * The value to bind for a parameter declared as {@code parameter}; text and dates bound to a TIMESTAMP WITH
   * TIME ZONE parameter without an offset are read in {@code zone}, the session's time zone.
   */
  public static TypedValue convert(TypedValue value, AvaticaParameter parameter, java.time.ZoneId zone) {
    return convert(value, parameter.typeName == null ? "" : parameter.typeName.toUpperCase(Locale.ROOT), zone);
  }

  /**
   * PostgreSQL's text of a one-dimensional array ({@code {1,2}}, {@code {"a b",NULL}}) as its elements of type
   * {@code element} (a SQL type name: INTEGER, VARCHAR, ...).
   */
  @SuppressWarnings("unchecked")
  public static List<Object> arrayIn(String text, String element, java.time.ZoneId zone) {
    return (List<Object>) convert(TypedValue.ofLocal(Rep.STRING, text), element + " ARRAY", zone).toLocal();
  }

  /**
   * A Java value (a string, number or boolean) converted to an element of an array of {@code type} (a SQL type
   * name), as a parameter of that type would be: integers rounded half away from zero and range-checked. Other
   * values (dates, times, UUIDs) stay as they are.
   */
  public static Object element(Object e, String type, java.time.ZoneId zone) {
    Rep rep = e instanceof String ? Rep.STRING : e instanceof Integer ? Rep.INTEGER : e instanceof Long ? Rep.LONG
        : e instanceof Short ? Rep.SHORT : e instanceof Byte ? Rep.BYTE : e instanceof Double ? Rep.DOUBLE
        : e instanceof Float ? Rep.FLOAT : e instanceof java.math.BigDecimal ? Rep.NUMBER
        : e instanceof Boolean ? Rep.BOOLEAN : null;
    return e == null || rep == null ? e : convert(TypedValue.ofLocal(rep, e), type, zone).toLocal();
  }

  /** As {@link #convert(TypedValue, AvaticaParameter, java.time.ZoneId)} for the upper-case type name {@code type}. */
  static TypedValue convert(TypedValue value, String type, java.time.ZoneId zone) {
    Object v = value.toLocal();
    if ((v instanceof String || v instanceof Object[] || v instanceof List) && type.endsWith(" ARRAY")) {
      // PostgreSQL's array text ({1,3}, {"a b",NULL}), as the server receives x = ANY($1), or a Java array bound
      // with setArray or setObject: each element converted to the element's type, without its precision
      // (DECIMAL(13, 1) ARRAY for id * 1.5 = ANY(?)); a Long[] for an INTEGER column failed with a cast error
      String element = type.substring(0, type.length() - " ARRAY".length()).replaceAll("\\(.*\\)", "").trim();
      List<Object> elements = new java.util.ArrayList<>();
      if (v instanceof String text) {
        for (String e : io.accel.json.Jsonb.textArray(text)) {
          elements.add(e == null ? null : convert(TypedValue.ofLocal(Rep.STRING, e), element, zone).toLocal());
        }
      } else {
        for (Object e : v instanceof Object[] array ? java.util.Arrays.asList(array) : (List<?>) v) {
          elements.add(element(e, element, zone));
        }
      }
      return TypedValue.ofLocal(Rep.ARRAY, elements);
    }
    Rep rep = value.type;
    switch (type) {
      case "TINYINT":
        return rep == Rep.BYTE ? value : TypedValue.ofLocal(Rep.BYTE, (byte) integral(v, rep, -128, 127, "tinyint"));
      case "SMALLINT":
        return rep == Rep.SHORT ? value
            : TypedValue.ofLocal(Rep.SHORT, (short) integral(v, rep, Short.MIN_VALUE, Short.MAX_VALUE, "smallint"));
      case "INTEGER":
        return rep == Rep.INTEGER ? value : TypedValue.ofLocal(Rep.INTEGER,
            (int) integral(v, rep, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer"));
      case "BIGINT":
        return rep == Rep.LONG ? value
            : TypedValue.ofLocal(Rep.LONG, integral(v, rep, Long.MIN_VALUE, Long.MAX_VALUE, "bigint"));
      case "DECIMAL":
        return rep == Rep.NUMBER ? value : TypedValue.ofLocal(Rep.NUMBER, decimal(v, rep));
      case "REAL":
        return rep == Rep.FLOAT ? value : TypedValue.ofLocal(Rep.FLOAT, (float) floating(v, rep, "real"));
      case "FLOAT":
      case "DOUBLE":
        return rep == Rep.DOUBLE ? value : TypedValue.ofLocal(Rep.DOUBLE, floating(v, rep, "double precision"));
      case "BOOLEAN":
        return rep == Rep.BOOLEAN ? value : TypedValue.ofLocal(Rep.BOOLEAN, bool(v, rep));
      case "CHAR":
      case "VARCHAR":
        return rep == Rep.STRING ? value : TypedValue.ofLocal(Rep.STRING, text(v, rep));
      case "DATE":
        return rep == Rep.JAVA_SQL_DATE ? value : TypedValue.ofLocal(Rep.JAVA_SQL_DATE, date(v, rep));
      case "TIME":
        return rep == Rep.JAVA_SQL_TIME ? value : TypedValue.ofLocal(Rep.JAVA_SQL_TIME, time(v, rep));
      case "TIMESTAMP":
        return rep == Rep.JAVA_SQL_TIMESTAMP ? value : TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, timestamp(v, rep));
      case TIMESTAMPTZ:
        // instants bound by setTimestamp/setObject are already UTC milliseconds (the JDBC driver binds them so)
        return rep == Rep.JAVA_SQL_TIMESTAMP ? value : TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, instant(v, rep, zone));
      case "UUID":
        return v instanceof UUID ? value : TypedValue.ofLocal(Rep.OBJECT, uuid(v));
      default:
        // setObject(i, new Integer[] {...}) for x = ANY(?): the list an array parameter holds
        return v instanceof Object[] array && type.contains("ARRAY")
            ? TypedValue.ofLocal(Rep.ARRAY, java.util.Arrays.asList(array)) : value;
    }
  }

  private static AccelException invalidText(String typeName, Object v) {
    return new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
        "invalid input syntax for type " + typeName + ": \"" + v + "\"");
  }

  private static AccelException outOfRange(String typeName) {
    return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, typeName + " out of range");
  }

  private static AccelException mismatch(String typeName, Rep rep) {
    return new AccelException(SqlState.DATATYPE_MISMATCH, "a parameter of type " + typeName
        + " cannot take a value of type " + rep.name().toLowerCase(Locale.ROOT).replace("java_sql_", ""));
  }

  /** An integer in [min, max]; fractions round half away from zero, as PostgreSQL's casts do. */
  private static long integral(Object v, Rep rep, long min, long max, String typeName) {
    BigDecimal d;
    if (v instanceof Boolean b) {
      d = b ? BigDecimal.ONE : BigDecimal.ZERO;
    } else if (v instanceof String s) {
      try {
        d = new BigDecimal(Long.parseLong(s.trim()));
      } catch (NumberFormatException e) {
        throw invalidText(typeName, s);
      }
    } else if (v instanceof BigDecimal b) {
      d = b;
    } else if (v instanceof Double || v instanceof Float) {
      double x = ((Number) v).doubleValue();
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        throw outOfRange(typeName);
      }
      d = BigDecimal.valueOf(x);
    } else if (v instanceof Number n) {
      d = BigDecimal.valueOf(n.longValue());
    } else {
      throw mismatch(typeName, rep);
    }
    BigDecimal rounded = d.setScale(0, RoundingMode.HALF_UP);
    if (rounded.compareTo(BigDecimal.valueOf(min)) < 0 || rounded.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw outOfRange(typeName);
    }
    return rounded.longValueExact();
  }

  private static BigDecimal decimal(Object v, Rep rep) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Boolean b) {
      return b ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (v instanceof String s) {
      try {
        return new BigDecimal(s.trim());
      } catch (NumberFormatException e) {
        throw invalidText("numeric", s);
      }
    }
    if (v instanceof Double || v instanceof Float) {
      double x = ((Number) v).doubleValue();
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        throw outOfRange("numeric");
      }
      return new BigDecimal(Double.toString(x));
    }
    if (v instanceof Number n) {
      return BigDecimal.valueOf(n.longValue());
    }
    throw mismatch("numeric", rep);
  }

  private static double floating(Object v, Rep rep, String typeName) {
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    if (v instanceof String s) {
      String t = s.trim();
      switch (t.toLowerCase(Locale.ROOT)) {
        case "nan":
          return Double.NaN;
        case "infinity":
        case "+infinity":
          return Double.POSITIVE_INFINITY;
        case "-infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
      try {
        return Double.parseDouble(t);
      } catch (NumberFormatException e) {
        throw invalidText(typeName, s);
      }
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw mismatch(typeName, rep);
  }

  private static boolean bool(Object v, Rep rep) {
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s) {
      switch (s.trim().toLowerCase(Locale.ROOT)) {
        case "t": case "true": case "y": case "yes": case "on": case "1":
          return true;
        case "f": case "false": case "n": case "no": case "off": case "0":
          return false;
        default:
          throw invalidText("boolean", s);
      }
    }
    if (v instanceof Number n && !(v instanceof Double) && !(v instanceof Float)) {
      return n.longValue() != 0;
    }
    throw mismatch("boolean", rep);
  }

  private static String text(Object v, Rep rep) {
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return switch (rep) {
      case JAVA_SQL_DATE -> LocalDate.ofEpochDay(((Number) v).longValue()).toString();
      case JAVA_SQL_TIME -> LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L).toString();
      case JAVA_SQL_TIMESTAMP -> localDateTime(((Number) v).longValue()).toString().replace('T', ' ');
      case BYTE_STRING -> ((ByteString) v).toString();
      default -> String.valueOf(v);
    };
  }

  private static LocalDateTime localDateTime(long millis) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), (int) Math.floorMod(millis, 1000L) * 1_000_000,
        ZoneOffset.UTC);
  }

  private static long localMillis(LocalDateTime t) {
    return t.toEpochSecond(ZoneOffset.UTC) * 1000L + t.getNano() / 1_000_000;
  }

  private static AccelException badDateTime(String typeName, String s, RuntimeException e) {
    // well-formed but impossible (2024-02-30, 25:00) is 22008; anything else 22007, as in PostgreSQL
    boolean shaped = DATE_SHAPE.matcher(s.trim()).lookingAt() && e instanceof DateTimeParseException p
        && p.getCause() instanceof DateTimeException;
    return shaped
        ? new AccelException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"" + s + "\"")
        : new AccelException(SqlState.INVALID_DATETIME_FORMAT,
            "invalid input syntax for type " + typeName + ": \"" + s + "\"");
  }

  /** Days since 1970-01-01. */
  private static int date(Object v, Rep rep) {
    if (v instanceof String s) {
      try {
        return (int) LocalDateTime.parse(s.trim(), LOCAL_DATE_TIME).toLocalDate().toEpochDay();
      } catch (DateTimeParseException e) {
        throw badDateTime("date", s, e);
      }
    }
    if (rep == Rep.JAVA_SQL_TIMESTAMP) {
      return (int) Math.floorDiv(((Number) v).longValue(), MILLIS_PER_DAY);
    }
    throw mismatch("date", rep);
  }

  /** Milliseconds of the day. */
  private static int time(Object v, Rep rep) {
    if (v instanceof String s) {
      try {
        return (int) (LocalTime.parse(TRAILING_ZONE.matcher(s.trim()).replaceFirst("")).toNanoOfDay() / 1_000_000L);
      } catch (DateTimeParseException e) {
        throw badDateTime("time", s, e);
      }
    }
    if (rep == Rep.JAVA_SQL_TIMESTAMP) {
      return (int) Math.floorMod(((Number) v).longValue(), MILLIS_PER_DAY);
    }
    throw mismatch("time", rep);
  }

  /** Milliseconds since 1970-01-01 00:00 of the local date-time. */
  private static long timestamp(Object v, Rep rep) {
    if (v instanceof String s) {
      try {
        return localMillis(LocalDateTime.parse(s.trim(), LOCAL_DATE_TIME));
      } catch (DateTimeParseException e) {
        throw badDateTime("timestamp", s, e);
      }
    }
    if (rep == Rep.JAVA_SQL_DATE) {
      return ((Number) v).longValue() * MILLIS_PER_DAY;
    }
    throw mismatch("timestamp", rep);
  }

  /** Milliseconds since the epoch, UTC; local values are taken in the session's zone. */
  private static long instant(Object v, Rep rep, java.time.ZoneId zone) {
    if (v instanceof String s) {
      String t = s.trim();
      try {
        return OffsetDateTime.parse(t, OFFSET_DATE_TIME).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        try {
          return LocalDateTime.parse(t, LOCAL_DATE_TIME).atZone(zone).toInstant()
              .toEpochMilli();
        } catch (DateTimeParseException e2) {
          throw badDateTime("timestamp with time zone", s, e2);
        }
      }
    }
    if (rep == Rep.JAVA_SQL_DATE) {
      return LocalDate.ofEpochDay(((Number) v).longValue()).atStartOfDay(zone)
          .toInstant().toEpochMilli();
    }
    throw mismatch("timestamp with time zone", rep);
  }

  private static UUID uuid(Object v) {
    try {
      return UUID.fromString(String.valueOf(v).trim());
    } catch (IllegalArgumentException e) {
      throw invalidText("uuid", v);
    }
  }
}
