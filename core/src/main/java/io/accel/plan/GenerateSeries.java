package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongFunction;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop [, step])} in FROM: integers, bigints, numerics, and timestamps
 * (with or without time zone) stepped by an interval. A NULL argument gives no rows; a zero step is 22023. The one
 * column is named {@code generate_series}, as PostgreSQL names it. Each method is called by Calcite while validating
 * (the arguments are the literals' values, or null) for the row type, and by the generated code to scan.
 */
public final class GenerateSeries extends AbstractTable implements ScannableTable {
  private final SqlTypeName type;
  private final Object start;
  private final Object stop;
  private final Object step;
  /** Whether a series stepped by months adds them in the session's zone (timestamptz) or to the wall time. */
  private final boolean zoned;

  private GenerateSeries(SqlTypeName type, Object start, Object stop, Object step, boolean zoned) {
    this.type = type;
    this.start = start;
    this.stop = stop;
    this.step = step;
    this.zoned = zoned;
  }

  public static GenerateSeries integers(Object start, Object stop) {
    return new GenerateSeries(SqlTypeName.INTEGER, start, stop, 1, false);
  }

  public static GenerateSeries integers(Object start, Object stop, Object step) {
    return new GenerateSeries(SqlTypeName.INTEGER, start, stop, step, false);
  }

  public static GenerateSeries bigints(Object start, Object stop) {
    return new GenerateSeries(SqlTypeName.BIGINT, start, stop, 1L, false);
  }

  public static GenerateSeries bigints(Object start, Object stop, Object step) {
    return new GenerateSeries(SqlTypeName.BIGINT, start, stop, step, false);
  }

  public static GenerateSeries numerics(Object start, Object stop) {
    return new GenerateSeries(SqlTypeName.DECIMAL, start, stop, BigDecimal.ONE, false);
  }

  public static GenerateSeries numerics(Object start, Object stop, Object step) {
    return new GenerateSeries(SqlTypeName.DECIMAL, start, stop, step, false);
  }

  public static GenerateSeries timestamps(Object start, Object stop, Object step) {
    return new GenerateSeries(SqlTypeName.TIMESTAMP, start, stop, step, false);
  }

  public static GenerateSeries timestampTzs(Object start, Object stop, Object step) {
    return new GenerateSeries(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, start, stop, step, true);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    RelDataType column = switch (type) {
      case DECIMAL -> typeFactory.createSqlType(type, typeFactory.getTypeSystem().getMaxPrecision(type),
          typeFactory.getTypeSystem().getMaxScale(type) / 2);
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> typeFactory.createSqlType(type, 3);
      default -> typeFactory.createSqlType(type);
    };
    return typeFactory.builder().add("generate_series", column).build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    if (start == null || stop == null || step == null) {
      return Linq4j.emptyEnumerable();
    }
    return switch (type) {
      case INTEGER, BIGINT -> {
        long from = ((Number) start).longValue();
        long to = ((Number) stop).longValue();
        long by = ((Number) step).longValue();
        checkStep(by == 0);
        boolean ints = type == SqlTypeName.INTEGER;
        yield longs(from, to, by, v -> ints ? (Object) (int) v : (Object) v);
      }
      case DECIMAL -> {
        BigDecimal from = decimal(start);
        BigDecimal to = decimal(stop);
        BigDecimal by = decimal(step);
        checkStep(by.signum() == 0);
        yield new AbstractEnumerable<>() {
          @Override
          public Enumerator<Object[]> enumerator() {
            return Linq4j.iterableEnumerator(() -> new java.util.Iterator<>() {
              BigDecimal next = from;

              @Override
              public boolean hasNext() {
                return by.signum() > 0 ? next.compareTo(to) <= 0 : next.compareTo(to) >= 0;
              }

              @Override
              public Object[] next() {
                BigDecimal v = next;
                next = next.add(by);
                return new Object[] {v};
              }
            });
          }
        };
      }
      default -> timestamps(root);
    };
  }

  private static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) value).longValue());
  }

  private static void checkStep(boolean zero) {
    if (zero) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
    }
  }

  /** Stepped by a day-time interval (milliseconds) or a year-month one (months, added to the wall-clock time). */
  private Enumerable<Object[]> timestamps(DataContext root) {
    long from = ((Number) start).longValue();
    long to = ((Number) stop).longValue();
    if (step instanceof Integer months) {
      checkStep(months == 0);
      ZoneId zone = zoned ? PgTimeFunctions.zone(root) : ZoneOffset.UTC;
      LocalDateTime first = LocalDateTime.ofInstant(Instant.ofEpochMilli(from), zone);
      LocalDateTime last = LocalDateTime.ofInstant(Instant.ofEpochMilli(to), zone);
      // each value is the previous one plus the interval, as PostgreSQL adds it (Jan 31, Feb 29, Mar 29, ...)
      return new AbstractEnumerable<>() {
        @Override
        public Enumerator<Object[]> enumerator() {
          return Linq4j.iterableEnumerator(() -> java.util.stream.Stream.iterate(first,
                  t -> months > 0 ? !t.isAfter(last) : !t.isBefore(last), t -> t.plusMonths(months))
              .map(t -> new Object[] {t.atZone(zone).toInstant().toEpochMilli()}).iterator());
        }
      };
    }
    long by = ((Number) step).longValue();
    checkStep(by == 0);
    return longs(from, to, by, v -> v);
  }

  /** from, from + by, ... while not past to (without overflowing). */
  private static Enumerable<Object[]> longs(long from, long to, long by, LongFunction<Object> value) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return Linq4j.iterableEnumerator(() -> new java.util.Iterator<>() {
          long next = from;
          boolean done = by > 0 ? from > to : from < to;

          @Override
          public boolean hasNext() {
            return !done;
          }

          @Override
          public Object[] next() {
            long v = next;
            long following = v + by;
            // stop on overflow, or past the end
            done = ((v ^ following) & (by ^ following)) < 0 || (by > 0 ? following > to : following < to);
            next = following;
            return new Object[] {value.apply(v)};
          }
        });
      }
    };
  }
}
