package io.accel.exec;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Set;

/**
 * The conversions ALTER COLUMN TYPE applies to stored values: PostgreSQL's assignment casts between the types Accel
 * stores (numbers among themselves, anything to text, dates and timestamps), and with {@code USING column::type} its
 * explicit casts (text to anything, integer to and from boolean).
 */
final class ColumnConversion {
  private static final long DAY_MILLIS = 86_400_000L;
  private static final Set<ColumnType> NUMBERS = EnumSet.of(ColumnType.SMALLINT, ColumnType.INTEGER,
      ColumnType.BIGINT, ColumnType.NUMERIC, ColumnType.REAL, ColumnType.DOUBLE);
  private static final Set<ColumnType> STRINGS = EnumSet.of(ColumnType.CHAR, ColumnType.VARCHAR, ColumnType.TEXT);
  private static final Set<ColumnType> DATETIMES = EnumSet.of(ColumnType.DATE, ColumnType.TIMESTAMP,
      ColumnType.TIMESTAMPTZ);

  private ColumnConversion() {
  }

  /** Whether PostgreSQL converts {@code from} to {@code to} without USING (an implicit or assignment cast). */
  static boolean assignable(DataType from, DataType to) {
    ColumnType f = from.kind();
    ColumnType t = to.kind();
    return f == t || STRINGS.contains(t) || NUMBERS.contains(f) && NUMBERS.contains(t)
        || (f == ColumnType.JSON || f == ColumnType.JSONB) && (t == ColumnType.JSON || t == ColumnType.JSONB)
        || DATETIMES.contains(f) && DATETIMES.contains(t)
        || t == ColumnType.TIME && (f == ColumnType.TIMESTAMP || f == ColumnType.TIMESTAMPTZ);
  }

  /** Whether an explicit cast converts {@code from} to {@code to}. */
  static boolean castable(DataType from, DataType to) {
    ColumnType f = from.kind();
    ColumnType t = to.kind();
    return assignable(from, to) || STRINGS.contains(f)
        || f == ColumnType.INTEGER && t == ColumnType.BOOLEAN || f == ColumnType.BOOLEAN && t == ColumnType.INTEGER;
  }

  /** Whether values of {@code from} are stored, indexed and valid as values of {@code to} (no rewrite needed). */
  static boolean sameStoredForm(DataType from, DataType to) {
    if (from.equals(to)) {
      return true;
    }
    ColumnType f = from.kind();
    ColumnType t = to.kind();
    if ((f == ColumnType.VARCHAR || f == ColumnType.TEXT) && (t == ColumnType.VARCHAR || t == ColumnType.TEXT)) {
      return to.precision() < 0 || from.precision() >= 0 && to.precision() >= from.precision();
    }
    if (f == ColumnType.NUMERIC && t == ColumnType.NUMERIC) {
      return to.precision() < 0 || from.precision() >= 0 && to.scale() == from.scale()
          && to.precision() >= from.precision();
    }
    return false;
  }

  /** The value of {@code from} as a value of {@code to}, before the column's own checks (lengths, scale, range). */
  static Object convert(Object v, DataType from, DataType to, ZoneId zone) {
    ColumnType f = from.kind();
    ColumnType t = to.kind();
    if (f == t) {
      return v;
    }
    if ((f == ColumnType.JSON || f == ColumnType.JSONB) && (t == ColumnType.JSON || t == ColumnType.JSONB)) {
      return t == ColumnType.JSONB ? io.accel.json.Jsonb.normalize((String) v) : v;
    }
    if (STRINGS.contains(t)) {
      return text(from, v, zone);
    }
    if (STRINGS.contains(f)) {
      return PgText.parse((String) v, to, zone);
    }
    if (t == ColumnType.BOOLEAN) {
      return ((Number) v).intValue() != 0;
    }
    if (f == ColumnType.BOOLEAN) {
      return (Boolean) v ? 1 : 0;
    }
    if (NUMBERS.contains(f)) {
      boolean integral = t == ColumnType.SMALLINT || t == ColumnType.INTEGER || t == ColumnType.BIGINT;
      if (f == ColumnType.REAL || f == ColumnType.DOUBLE) {
        double d = ((Number) v).doubleValue();
        if (integral) {
          if (Double.isNaN(d) || Double.isInfinite(d) || Math.abs(d) >= 9.2e18) {
            throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, pgName(to) + " out of range");
          }
          return (long) Math.rint(d); // PostgreSQL rounds floats half to even
        }
        if (t == ColumnType.NUMERIC) {
          return new BigDecimal(f == ColumnType.REAL ? PgText.float4((Float) v) : PgText.float8(d));
        }
      }
      return v;
    }
    long ms;
    switch (f) {
      case DATE -> {
        LocalDate date = LocalDate.ofEpochDay(((Number) v).longValue());
        return t == ColumnType.TIMESTAMP ? date.toEpochDay() * DAY_MILLIS
            : date.atStartOfDay(zone).toInstant().toEpochMilli();
      }
      case TIMESTAMP -> ms = ((Number) v).longValue();
      case TIMESTAMPTZ -> {
        LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) v).longValue()), zone);
        ms = local.toInstant(ZoneOffset.UTC).toEpochMilli();
        if (t == ColumnType.TIMESTAMP) {
          return ms;
        }
      }
      default -> throw new AccelException(SqlState.CANNOT_COERCE, "cannot cast type " + pgName(from) + " to "
          + pgName(to));
    }
    return switch (t) {
      case DATE -> (int) Math.floorDiv(ms, DAY_MILLIS);
      case TIME -> (int) Math.floorMod(ms, DAY_MILLIS);
      case TIMESTAMPTZ -> LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC).atZone(zone).toInstant()
          .toEpochMilli();
      default -> throw new AccelException(SqlState.CANNOT_COERCE, "cannot cast type " + pgName(from) + " to "
          + pgName(to));
    };
  }

  /** The value as PostgreSQL's output function writes it (what a cast to text gives). */
  static String text(DataType type, Object v, ZoneId zone) {
    return switch (type.kind()) {
      case REAL -> PgText.float4(((Number) v).floatValue());
      case DOUBLE -> PgText.float8(((Number) v).doubleValue());
      case NUMERIC -> ((BigDecimal) v).toPlainString();
      case DATE -> PgText.date(((Number) v).intValue());
      case TIME -> PgText.time(((Number) v).longValue());
      case TIMESTAMP -> PgText.timestamp(((Number) v).longValue());
      case TIMESTAMPTZ -> PgText.timestampTz(((Number) v).longValue(), zone);
      case BYTEA -> PgText.bytea(v);
      default -> v.toString();
    };
  }

  /** The type as PostgreSQL's format_type names it. */
  static String pgName(DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> "smallint";
      case INTEGER -> "integer";
      case BIGINT -> "bigint";
      case NUMERIC -> type.precision() < 0 ? "numeric" : "numeric(" + type.precision() + "," + Math.max(type.scale(), 0)
          + ")";
      case REAL -> "real";
      case DOUBLE -> "double precision";
      case BOOLEAN -> "boolean";
      case CHAR -> "character(" + Math.max(type.precision(), 1) + ")";
      case VARCHAR -> type.precision() < 0 ? "character varying" : "character varying(" + type.precision() + ")";
      case TEXT -> "text";
      case DATE -> "date";
      case TIME -> "time without time zone";
      case TIMESTAMP -> "timestamp without time zone";
      case TIMESTAMPTZ -> "timestamp with time zone";
      case BYTEA -> "bytea";
      case UUID -> "uuid";
      case JSON -> "json";
      case JSONB -> "jsonb";
    };
  }
}
