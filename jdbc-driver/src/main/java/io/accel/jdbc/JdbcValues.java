package io.accel.jdbc;

import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.util.ByteString;

/**
 * The JDBC 4.2 value conversions (java.time, UUID) that Avatica's accessors and parameters lack, and the
 * corrections for the two engine types Avatica does not know: UUID values travel as {@link UUID}
 * objects, and TIMESTAMP WITH TIME ZONE values are instants (milliseconds since the epoch, UTC), which
 * Avatica would shift by the JVM's zone offset as if they were local date-times.
 */
final class JdbcValues {
  /** The engine's type name of TIMESTAMP WITH TIME ZONE as Calcite reports it. */
  static final String TIMESTAMPTZ = io.accel.exec.ParameterConversions.TIMESTAMPTZ;
  static final String UUID_TYPE = "UUID";

  private JdbcValues() {
  }

  /** The declared type name of a result column, given by index or label. */
  static String columnTypeName(ResultSet rs, Object column) throws SQLException {
    int index = column instanceof Integer i ? i : rs.findColumn((String) column);
    var metaData = rs.getMetaData();
    if (index < 1 || index > metaData.getColumnCount()) {
      throw new SQLException("the column index " + index + " is out of range", SqlState.INVALID_PARAMETER_VALUE.code());
    }
    return metaData.getColumnTypeName(index);
  }

  /** Whether a result column holds text (CHAR, VARCHAR, TEXT). */
  static boolean isText(ResultSet rs, Object column) throws SQLException {
    int index = column instanceof Integer i ? i : rs.findColumn((String) column);
    var metaData = rs.getMetaData();
    if (index < 1 || index > metaData.getColumnCount()) {
      return false;
    }
    return isTextType(metaData.getColumnType(index));
  }

  /** Whether a JDBC type code is one of text (CHAR, VARCHAR, TEXT). */
  static boolean isTextType(int type) {
    return type == java.sql.Types.VARCHAR || type == java.sql.Types.CHAR || type == java.sql.Types.LONGVARCHAR;
  }

  /**
   * A number read from a text column, as pgJDBC reads one ({@code getLong} of information_schema's
   * {@code character_data} columns, which Hibernate reads sequences from): the text parsed, integers truncated, NULL
   * as 0; text that is no number, or out of the type's range, is 22003 "Bad value for type".
   */
  static Object numberFromText(ResultSet rs, Object column, Class<?> type) throws SQLException {
    String text = column instanceof Integer i ? rs.getString(i) : rs.getString((String) column);
    if (text == null) {
      return type == BigDecimal.class ? null : type == double.class ? (Object) 0d : type == float.class
          ? (Object) 0f : type == long.class ? (Object) 0L : type == int.class ? (Object) 0
          : type == short.class ? (Object) (short) 0 : (Object) (byte) 0;
    }
    String name = type == BigDecimal.class ? "BigDecimal" : type.getName();
    try {
      String trimmed = text.strip();
      if (type == double.class) {
        return Double.parseDouble(trimmed);
      }
      if (type == float.class) {
        return Float.parseFloat(trimmed);
      }
      BigDecimal value = new BigDecimal(trimmed);
      if (type == BigDecimal.class) {
        return value;
      }
      java.math.BigInteger whole = value.toBigInteger();
      return switch (name) {
        case "long" -> whole.longValueExact();
        case "int" -> whole.intValueExact();
        case "short" -> whole.shortValueExact();
        default -> whole.byteValueExact();
      };
    } catch (NumberFormatException | ArithmeticException e) {
      throw new SQLException("Bad value for type " + name + " : " + text, SqlState.NUMERIC_VALUE_OUT_OF_RANGE.code());
    }
  }

  private static long rawLong(ResultSet rs, Object column) throws SQLException {
    return column instanceof Integer i ? rs.getLong(i) : rs.getLong((String) column);
  }

  private static Object plainObject(ResultSet rs, Object column) throws SQLException {
    return column instanceof Integer i ? rs.getObject(i) : rs.getObject((String) column);
  }

  /** The instant of a TIMESTAMP WITH TIME ZONE column, or null. */
  static Instant instant(ResultSet rs, Object column) throws SQLException {
    long millis = rawLong(rs, column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
  }

  /** Whether a result column is an interval (Calcite's INTERVAL_DAY_TO_SECOND, INTERVAL_MONTH, ...). */
  static boolean isInterval(ResultSet rs, Object column) throws SQLException {
    return columnTypeName(rs, column).startsWith("INTERVAL_");
  }

  /** An interval column's value as PostgreSQL prints it ({@code 5 days 01:30:00}), or null. */
  static String intervalText(ResultSet rs, Object column) throws SQLException {
    String type = columnTypeName(rs, column);
    Object value = plainObject(rs, column);
    return io.accel.plan.PgExpressions.intervalText(value, type.contains("YEAR") || type.contains("MONTH"));
  }

  /**
   * getObject(column): byte strings as byte[], TIMESTAMP WITH TIME ZONE as the right instant, an interval as
   * PostgreSQL's text of it (pgJDBC returns a PGInterval).
   */
  static Object getObject(ResultSet rs, Object column) throws SQLException {
    if (TIMESTAMPTZ.equals(columnTypeName(rs, column))) {
      Instant i = instant(rs, column);
      return i == null ? null : Timestamp.from(i);
    }
    if (isInterval(rs, column)) {
      return intervalText(rs, column);
    }
    Object o = plainObject(rs, column);
    return o instanceof ByteString b ? b.getBytes() : o;
  }

  static Object getObject(ResultSet rs, Object column, Class<?> type) throws SQLException {
    if (type == null) {
      throw new SQLException("getObject needs a type", SqlState.INVALID_PARAMETER_VALUE.code());
    }
    String columnType = columnTypeName(rs, column);
    if (TIMESTAMPTZ.equals(columnType)) {
      Instant i = instant(rs, column);
      if (i == null) {
        return null;
      }
      if (type == Instant.class) {
        return i;
      }
      if (type == OffsetDateTime.class) {
        return i.atOffset(ZoneOffset.UTC);
      }
      if (type == ZonedDateTime.class) {
        return i.atZone(ZoneOffset.UTC);
      }
      if (type == Timestamp.class || type == java.util.Date.class || type == Object.class) {
        return Timestamp.from(i);
      }
      if (type == LocalDateTime.class) {
        return LocalDateTime.ofInstant(i, java.util.TimeZone.getDefault().toZoneId());
      }
    }
    if (type == LocalDate.class) {
      if ("DATE".equals(columnType)) {
        long days = rawLong(rs, column);
        return rs.wasNull() ? null : LocalDate.ofEpochDay(days);
      }
      java.sql.Date d = column instanceof Integer i ? rs.getDate(i) : rs.getDate((String) column);
      return d == null ? null : d.toLocalDate();
    }
    if (type == LocalTime.class) {
      if ("TIME".equals(columnType)) {
        long millis = rawLong(rs, column);
        return rs.wasNull() ? null : LocalTime.ofNanoOfDay(Math.floorMod(millis, 86_400_000L) * 1_000_000L);
      }
      Time t = column instanceof Integer i ? rs.getTime(i) : rs.getTime((String) column);
      return t == null ? null : t.toLocalTime();
    }
    if (type == LocalDateTime.class) {
      if ("TIMESTAMP".equals(columnType)) {
        long millis = rawLong(rs, column);
        return rs.wasNull() ? null : LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
      }
      Timestamp t = column instanceof Integer i ? rs.getTimestamp(i) : rs.getTimestamp((String) column);
      return t == null ? null : t.toLocalDateTime();
    }
    if (type == Instant.class || type == OffsetDateTime.class || type == ZonedDateTime.class) {
      Timestamp t = column instanceof Integer i ? rs.getTimestamp(i) : rs.getTimestamp((String) column);
      if (t == null) {
        return null;
      }
      Instant instant = t.toInstant();
      return type == Instant.class ? instant
          : type == OffsetDateTime.class ? instant.atOffset(ZoneOffset.UTC) : instant.atZone(ZoneOffset.UTC);
    }
    if (type == UUID.class) {
      Object o = plainObject(rs, column);
      if (o == null || o instanceof UUID) {
        return o;
      }
      try {
        return UUID.fromString(o.toString());
      } catch (IllegalArgumentException e) {
        throw new SQLException("invalid input syntax for type uuid: \"" + o + "\"",
            SqlState.INVALID_TEXT_REPRESENTATION.code());
      }
    }
    if (type == byte[].class) {
      Object o = plainObject(rs, column);
      return o instanceof ByteString b ? b.getBytes() : o instanceof byte[] ? o
          : column instanceof Integer i ? rs.getBytes(i) : rs.getBytes((String) column);
    }
    if (type == Object.class) {
      return getObject(rs, column);
    }
    Object converted = typed(rs, column instanceof Integer i ? i : rs.findColumn((String) column), type);
    if (converted != NOT_CONVERTED) {
      return converted;
    }
    return column instanceof Integer i ? rs.getObject(i, type) : rs.getObject((String) column, type);
  }

  private static final Object NOT_CONVERTED = new Object();

  /** getObject(column, type) for the types JDBC converts through the typed getters. */
  private static Object typed(ResultSet rs, int i, Class<?> type) throws SQLException {
    Object v;
    if (type == Integer.class) {
      v = rs.getInt(i);
    } else if (type == Long.class) {
      v = rs.getLong(i);
    } else if (type == Short.class) {
      v = rs.getShort(i);
    } else if (type == Byte.class) {
      v = rs.getByte(i);
    } else if (type == Double.class) {
      v = rs.getDouble(i);
    } else if (type == Float.class) {
      v = rs.getFloat(i);
    } else if (type == Boolean.class) {
      v = rs.getBoolean(i);
    } else if (type == java.math.BigDecimal.class) {
      v = rs.getBigDecimal(i);
    } else if (type == String.class) {
      v = rs.getString(i);
    } else if (type == java.sql.Date.class) {
      v = rs.getDate(i);
    } else if (type == Time.class) {
      v = rs.getTime(i);
    } else if (type == Timestamp.class) {
      v = rs.getTimestamp(i);
    } else {
      return NOT_CONVERTED;
    }
    return rs.wasNull() ? null : v;
  }

  /** The java.sql.Types code of a setObject target type given as an int or an {@link SQLType}. */
  static Integer targetType(Object arg) {
    if (arg instanceof Integer i) {
      return i;
    }
    if (arg instanceof SQLType t) {
      return t.getVendorTypeNumber();
    }
    return null;
  }

  /**
   * Binds a parameter Avatica binds wrongly or not at all: java.time values, UUIDs, instants into
   * TIMESTAMP WITH TIME ZONE parameters, and values of type OTHER. False when Avatica's own setter for
   * the call is right.
   */
  static boolean setObject(PreparedStatement ps, int index, Object value, Integer targetType) throws SQLException {
    String parameterType = parameterTypeName(ps, index);
    if (value == null) {
      if (targetType != null && (targetType == Types.OTHER || targetType == Types.JAVA_OBJECT
          || targetType == Types.TIMESTAMP_WITH_TIMEZONE || targetType == Types.TIME_WITH_TIMEZONE)) {
        ps.setNull(index, Types.NULL);
        return true;
      }
      return false;
    }
    if (TIMESTAMPTZ.equals(parameterType)) {
      Instant instant = toInstant(value);
      if (instant != null) {
        accel(ps).setLocal(index, ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP, instant.toEpochMilli());
        return true;
      }
    }
    if (UUID_TYPE.equals(parameterType) && (value instanceof UUID || value instanceof String)) {
      accel(ps).setLocal(index, ColumnMetaData.Rep.OBJECT, toUuid(value));
      return true;
    }
    if (value instanceof LocalDate d) {
      ps.setDate(index, java.sql.Date.valueOf(d));
    } else if (value instanceof LocalTime t) {
      Time time = Time.valueOf(t);
      time.setTime(time.getTime() + t.getNano() / 1_000_000);
      ps.setTime(index, time);
    } else if (value instanceof LocalDateTime t) {
      ps.setTimestamp(index, Timestamp.valueOf(t));
    } else if (value instanceof Instant i) {
      ps.setTimestamp(index, Timestamp.from(i));
    } else if (value instanceof OffsetDateTime o) {
      ps.setTimestamp(index, Timestamp.from(o.toInstant()));
    } else if (value instanceof ZonedDateTime z) {
      ps.setTimestamp(index, Timestamp.from(z.toInstant()));
    } else if (value instanceof UUID u) {
      ps.setString(index, u.toString());
    } else if (targetType != null && (targetType == Types.OTHER || targetType == Types.JAVA_OBJECT)) {
      ps.setObject(index, value);
    } else {
      return false;
    }
    return true;
  }

  /** setTimestamp / setString into parameters of the engine types Avatica does not know. */
  static boolean setTyped(PreparedStatement ps, int index, Object value) throws SQLException {
    String parameterType = parameterTypeName(ps, index);
    if (value != null && TIMESTAMPTZ.equals(parameterType) && value instanceof Timestamp t) {
      accel(ps).setLocal(index, ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP, t.getTime());
      return true;
    }
    if (value != null && UUID_TYPE.equals(parameterType) && value instanceof String s) {
      accel(ps).setLocal(index, ColumnMetaData.Rep.OBJECT, toUuid(s));
      return true;
    }
    return false;
  }

  private static Instant toInstant(Object value) {
    if (value instanceof Instant i) {
      return i;
    }
    if (value instanceof OffsetDateTime o) {
      return o.toInstant();
    }
    if (value instanceof ZonedDateTime z) {
      return z.toInstant();
    }
    if (value instanceof Timestamp t) {
      return t.toInstant();
    }
    if (value instanceof LocalDateTime l) {
      return Timestamp.valueOf(l).toInstant();
    }
    return null;
  }

  private static UUID toUuid(Object value) throws SQLException {
    if (value instanceof UUID u) {
      return u;
    }
    try {
      return UUID.fromString(value.toString());
    } catch (IllegalArgumentException e) {
      throw new SQLException("invalid input syntax for type uuid: \"" + value + "\"",
          SqlState.INVALID_TEXT_REPRESENTATION.code());
    }
  }

  private static AccelJdbcFactory.AccelPreparedStatement accel(PreparedStatement ps) throws SQLException {
    return ps.unwrap(AccelJdbcFactory.AccelPreparedStatement.class);
  }

  /** The declared type name of parameter {@code index} (1-based), or null when unknown. */
  private static String parameterTypeName(PreparedStatement ps, int index) throws SQLException {
    return ps.isWrapperFor(AccelJdbcFactory.AccelPreparedStatement.class) ? accel(ps).parameterTypeName(index) : null;
  }
}
