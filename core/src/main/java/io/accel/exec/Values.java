package io.accel.exec;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import org.apache.calcite.avatica.util.ByteString;

/** Conversions of engine values (Calcite's internal representation) to a column's type, and to text. */
public final class Values {
  private Values() {
  }

  /** The value as the column stores it, or a PostgreSQL-coded error when it does not fit. */
  public static Object coerce(DataType type, Object v) {
    return switch (type.kind()) {
      case SMALLINT -> {
        long l = integral(v, "smallint");
        if (l < Short.MIN_VALUE || l > Short.MAX_VALUE) {
          throw outOfRange("smallint");
        }
        yield (short) l;
      }
      case INTEGER, DATE, TIME -> {
        long l = integral(v, type.kind() == ColumnType.INTEGER ? "integer" : type.kind() == ColumnType.DATE ? "date"
            : "time");
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
          throw outOfRange("integer");
        }
        yield (int) l;
      }
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> integral(v, "bigint");
      case NUMERIC -> scaled(type, decimal(v));
      case REAL -> ((Number) v).floatValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case BOOLEAN -> (Boolean) v;
      case CHAR -> {
        String s = stripTrailingSpaces(v.toString());
        int n = type.precision() < 0 ? 1 : type.precision();
        if (s.codePointCount(0, s.length()) > n) {
          throw tooLong("character(" + n + ")");
        }
        yield s;
      }
      case VARCHAR, TEXT -> {
        String s = v.toString();
        if (type.precision() >= 0 && s.codePointCount(0, s.length()) > type.precision()) {
          String trimmed = stripTrailingSpaces(s);
          if (trimmed.codePointCount(0, trimmed.length()) > type.precision()) {
            throw tooLong("character varying(" + type.precision() + ")");
          }
          yield trimmed + " ".repeat(type.precision() - trimmed.codePointCount(0, trimmed.length()));
        }
        yield s;
      }
      case BYTEA -> v instanceof byte[] b ? new ByteString(b) : (ByteString) v;
      case UUID -> v instanceof String s ? java.util.UUID.fromString(s) : (java.util.UUID) v;
      // whatever the statement computed, the column holds valid JSON (jsonb: in its printed form)
      case JSON -> io.accel.json.Jsonb.validate(v.toString());
      case JSONB -> io.accel.json.Jsonb.normalize(v.toString());
    };
  }

  /** The value as PostgreSQL prints it in messages. */
  public static String toText(DataType type, Object v) {
    if (v == null) {
      return "null";
    }
    return switch (type.kind()) {
      case DATE -> LocalDate.ofEpochDay(((Number) v).longValue()).toString();
      case TIME -> LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L).toString();
      case TIMESTAMP -> LocalDateTime.ofEpochSecond(Math.floorDiv(((Number) v).longValue(), 1000),
          (int) Math.floorMod(((Number) v).longValue(), 1000) * 1_000_000, ZoneOffset.UTC).toString().replace('T', ' ');
      case TIMESTAMPTZ -> Instant.ofEpochMilli(((Number) v).longValue()).toString();
      case BYTEA -> "\\x" + ((ByteString) v).toString();
      case NUMERIC -> ((BigDecimal) v).toPlainString();
      default -> v.toString();
    };
  }

  /** NUMERIC(p,s): rounded half-up to the scale, 22003 when the digits before the point do not fit. */
  private static BigDecimal scaled(DataType type, BigDecimal value) {
    if (type.precision() < 0) {
      return value;
    }
    BigDecimal v = value.setScale(Math.max(type.scale(), 0), java.math.RoundingMode.HALF_UP);
    if (v.precision() - v.scale() > type.precision() - Math.max(type.scale(), 0) && v.signum() != 0) {
      throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow (a field with precision "
          + type.precision() + ", scale " + Math.max(type.scale(), 0) + " must round to an absolute value less than 10^"
          + (type.precision() - Math.max(type.scale(), 0)) + ")");
    }
    return v;
  }
  private static long integral(Object v, String typeName) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      BigDecimal rounded = d.setScale(0, java.math.RoundingMode.HALF_UP);
      if (rounded.toBigInteger().bitLength() > 63) {
        throw outOfRange(typeName);
      }
      return rounded.longValueExact();
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || d >= 9.223372036854775807E18 || d < -9.223372036854775808E18) {
        throw outOfRange(typeName);
      }
      return Math.round(d);
    }
    throw new AccelException(SqlState.DATATYPE_MISMATCH, "cannot store a value of " + v.getClass().getSimpleName()
        + " in a column of type " + typeName);
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw outOfRange("numeric");
      }
      return BigDecimal.valueOf(d);
    }
    return BigDecimal.valueOf(((Number) v).longValue());
  }

  private static String stripTrailingSpaces(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return s.substring(0, end);
  }

  private static AccelException outOfRange(String typeName) {
    return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, typeName + " out of range");
  }

  private static AccelException tooLong(String typeName) {
    return new AccelException(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value too long for type " + typeName);
  }
}
