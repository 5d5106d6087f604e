package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code date_trunc(field, source)} over Calcite's internal values: TIMESTAMP as milliseconds of the
 * wall-clock time, TIMESTAMPTZ as milliseconds since the epoch (truncated in the session's zone, as PostgreSQL does),
 * a DATE as that day's midnight in the session's zone (PostgreSQL casts it to timestamptz).
 */
public final class PgTimeFunctions {
  private PgTimeFunctions() {
  }

  /**
   * {@code timestamp - timestamp}, installed by {@link PgSqlValidator#deriveType} in place of Calcite's minus: a
   * day-time interval (milliseconds), converted to Calcite's {@code (a - b) DAY TO SECOND}.
   */
  static final SqlBinaryOperator TIMESTAMP_DIFFERENCE = new SqlBinaryOperator("-", SqlKind.OTHER, 40, true,
      binding -> {
        RelDataTypeFactory f = binding.getTypeFactory();
        RelDataType interval = f.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY,
            f.getTypeSystem().getMaxPrecision(SqlTypeName.INTERVAL_DAY_SECOND), TimeUnit.SECOND, 3,
            SqlParserPos.ZERO));
        return f.createTypeWithNullability(interval,
            binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable());
      }, InferTypes.FIRST_KNOWN, OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP)) {
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      // as it is: Calcite's would look "-" up again and find its own
      for (SqlNode operand : call.getOperandList()) {
        validator.deriveType(scope, operand);
      }
      return validateOperands(validator, scope, call);
    }
  };

  /** A timestamp with or without time zone. */
  static boolean isTimestamp(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIMESTAMP
        || type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  /** PostgreSQL's spellings of the fields, and their canonical names. */
  private static final Map<String, String> FIELDS = Map.ofEntries(
      Map.entry("microsecond", "microseconds"), Map.entry("microseconds", "microseconds"),
      Map.entry("us", "microseconds"), Map.entry("usec", "microseconds"), Map.entry("usecs", "microseconds"),
      Map.entry("millisecond", "milliseconds"), Map.entry("milliseconds", "milliseconds"),
      Map.entry("ms", "milliseconds"), Map.entry("msec", "milliseconds"), Map.entry("msecs", "milliseconds"),
      Map.entry("second", "second"), Map.entry("seconds", "second"), Map.entry("s", "second"),
      Map.entry("sec", "second"), Map.entry("secs", "second"),
      Map.entry("minute", "minute"), Map.entry("minutes", "minute"), Map.entry("m", "minute"),
      Map.entry("min", "minute"), Map.entry("mins", "minute"),
      Map.entry("hour", "hour"), Map.entry("hours", "hour"), Map.entry("h", "hour"), Map.entry("hr", "hour"),
      Map.entry("hrs", "hour"),
      Map.entry("day", "day"), Map.entry("days", "day"), Map.entry("d", "day"),
      Map.entry("week", "week"), Map.entry("weeks", "week"), Map.entry("w", "week"),
      Map.entry("month", "month"), Map.entry("months", "month"), Map.entry("mon", "month"),
      Map.entry("mons", "month"),
      Map.entry("quarter", "quarter"), Map.entry("qtr", "quarter"),
      Map.entry("year", "year"), Map.entry("years", "year"), Map.entry("y", "year"), Map.entry("yr", "year"),
      Map.entry("yrs", "year"),
      Map.entry("decade", "decade"), Map.entry("decades", "decade"), Map.entry("dec", "decade"),
      Map.entry("century", "century"), Map.entry("centuries", "century"), Map.entry("c", "century"),
      Map.entry("cent", "century"),
      Map.entry("millennium", "millennium"), Map.entry("millennia", "millennium"), Map.entry("mil", "millennium"),
      Map.entry("mils", "millennium"));

  public static long truncTimestamp(DataContext context, String field, long millis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    return truncate(field, t, "timestamp without time zone").toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  public static long truncTimestampTz(DataContext context, String field, long millis) {
    ZoneId zone = zone(context);
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
    return truncate(field, t, "timestamp with time zone").atZone(zone).toInstant().toEpochMilli();
  }

  public static long truncDate(DataContext context, String field, int days) {
    ZoneId zone = zone(context);
    LocalDateTime t = LocalDate.ofEpochDay(days).atStartOfDay();
    return truncate(field, t, "timestamp with time zone").atZone(zone).toInstant().toEpochMilli();
  }

  /** {@code timezone(zone, timestamp)}: the wall-clock time read in {@code zone}, as a timestamptz. */
  public static long timestampAtZone(String zone, long wallMillis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(wallMillis), ZoneOffset.UTC);
    return t.atZone(zoneNamed(zone)).toInstant().toEpochMilli();
  }

  /** {@code timezone(zone, timestamptz)}: the wall-clock time in {@code zone} at that instant, as a timestamp. */
  public static long timestampTzAtZone(String zone, long epochMillis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), zoneNamed(zone));
    return t.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  /** {@code make_date(year, month, day)}: days since the epoch; 22008 for a date that does not exist. */
  public static int makeDate(int year, int month, int day) {
    try {
      return (int) LocalDate.of(year, month, day).toEpochDay();
    } catch (java.time.DateTimeException e) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW,
          "date field value out of range: " + year + "-" + String.format(Locale.ROOT, "%02d-%02d", month, day));
    }
  }

  /** {@code to_timestamp(seconds)}: the instant that many seconds after the epoch, to the millisecond. */
  public static long fromEpochSeconds(double seconds) {
    if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"" + seconds + "\"");
    }
    return Math.round(seconds * 1000);
  }

  /** A zone by its name or abbreviation, in any case ({@code UTC}, {@code america/new_york}, {@code EST}). */
  static ZoneId zoneNamed(String name) {
    try {
      return ZoneId.of(name, ZoneId.SHORT_IDS);
    } catch (java.time.DateTimeException e) {
      for (String id : ZoneId.getAvailableZoneIds()) {
        if (id.equalsIgnoreCase(name)) {
          return ZoneId.of(id);
        }
      }
      for (Map.Entry<String, String> e2 : ZoneId.SHORT_IDS.entrySet()) {
        if (e2.getKey().equalsIgnoreCase(name)) {
          return ZoneId.of(e2.getValue());
        }
      }
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "time zone \"" + name + "\" not recognized");
    }
  }

  static ZoneId zone(DataContext context) {
    Object zone = context.get(DataContext.Variable.TIME_ZONE.camelName);
    return zone instanceof TimeZone z ? z.toZoneId() : ZoneOffset.UTC;
  }

  private static LocalDateTime truncate(String field, LocalDateTime t, String typeName) {
    String canonical = FIELDS.get(field.toLowerCase(Locale.ROOT));
    if (canonical == null) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
          "unit \"" + field.toLowerCase(Locale.ROOT) + "\" not recognized for type " + typeName);
    }
    int year = t.getYear();
    return switch (canonical) {
      case "microseconds", "milliseconds" -> t;
      case "second" -> t.truncatedTo(ChronoUnit.SECONDS);
      case "minute" -> t.truncatedTo(ChronoUnit.MINUTES);
      case "hour" -> t.truncatedTo(ChronoUnit.HOURS);
      case "day" -> t.truncatedTo(ChronoUnit.DAYS);
      case "week" -> t.truncatedTo(ChronoUnit.DAYS).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
      case "month" -> t.toLocalDate().withDayOfMonth(1).atStartOfDay();
      case "quarter" -> LocalDate.of(year, (t.getMonthValue() - 1) / 3 * 3 + 1, 1).atStartOfDay();
      case "year" -> LocalDate.of(year, 1, 1).atStartOfDay();
      // PostgreSQL's: decades, centuries and millennia of positive years; years before 1 as it computes them
      case "decade" -> LocalDate.of(year > 0 ? year / 10 * 10 : -((8 - (year - 1)) / 10) * 10, 1, 1)
          .atStartOfDay();
      case "century" -> LocalDate.of(year > 0 ? (year + 99) / 100 * 100 - 99 : -((99 - (year - 1)) / 100) * 100 + 1,
          1, 1).atStartOfDay();
      default -> LocalDate.of(year > 0 ? (year + 999) / 1000 * 1000 - 999
          : -((999 - (year - 1)) / 1000) * 1000 + 1, 1, 1).atStartOfDay();
    };
  }

  /**
   * {@code age(a, b)}: the symbolic difference as PostgreSQL's timestamp_age computes it (field by field, a negative
   * day borrowing the days of b's month, or of a's when a is earlier), printed as its interval text. Called by
   * generated code.
   */
  public static String age(long a, long b) {
    LocalDateTime t1 = local(a);
    LocalDateTime t2 = local(b);
    // year, month, day, hour, minute, second, millisecond: a's fields less b's
    long[] f = {t1.getYear() - t2.getYear(), t1.getMonthValue() - t2.getMonthValue(),
        t1.getDayOfMonth() - t2.getDayOfMonth(), t1.getHour() - t2.getHour(), t1.getMinute() - t2.getMinute(),
        t1.getSecond() - t2.getSecond(), Math.floorMod(a, 1000L) - Math.floorMod(b, 1000L)};
    boolean flip = a < b;
    negateIf(flip, f);
    long[] carry = {0, 12, 0, 24, 60, 60, 1000}; // what one unit of the field before is worth (days: the month's)
    for (int i = f.length - 1; i > 0; i--) {
      while (f[i] < 0) {
        f[i] += i == 2 ? (flip ? t1 : t2).toLocalDate().lengthOfMonth() : carry[i];
        f[i - 1]--;
      }
    }
    negateIf(flip, f);
    long year = f[0];
    long mon = f[1];
    long day = f[2];
    long hour = f[3];
    long min = f[4];
    long sec = f[5];
    long millis = f[6];
    return intervalText(year, mon, day, hour, min, sec, millis);
  }

  /** {@code age(a, b)} of dates (days since 1970) as of their midnights, and timestamps. Called by generated code. */
  public static String ageOfDates(int a, int b) {
    return age(a * 86_400_000L, b * 86_400_000L);
  }

  public static String ageOfDateAndTimestamp(int a, long b) {
    return age(a * 86_400_000L, b);
  }

  public static String ageOfTimestampAndDate(long a, int b) {
    return age(a, b * 86_400_000L);
  }

  private static void negateIf(boolean negate, long[] fields) {
    for (int i = 0; negate && i < fields.length; i++) {
      fields[i] = -fields[i];
    }
  }

  /** {@code age(t)}: age from midnight of the session's current date. Called by generated code. */
  public static String ageFromToday(DataContext context, Long t) {
    if (t == null) {
      return null;
    }
    long now = (Long) context.get(DataContext.Variable.LOCAL_TIMESTAMP.camelName);
    return age(Math.floorDiv(now, 86_400_000L) * 86_400_000L, t);
  }

  private static LocalDateTime local(long millis) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L), (int) Math.floorMod(millis, 1000L) * 1_000_000,
        ZoneOffset.UTC);
  }

  /** An interval's fields as PostgreSQL prints them (IntervalStyle postgres). */
  static String intervalText(long year, long mon, long day, long hour, long min, long sec, long millis) {
    StringBuilder out = new StringBuilder();
    boolean[] zeroBefore = {true, false}; // nothing printed yet; the last part printed was negative
    part(out, year, "year", zeroBefore);
    part(out, mon, "mon", zeroBefore);
    part(out, day, "day", zeroBefore);
    if (zeroBefore[0] || hour != 0 || min != 0 || sec != 0 || millis != 0) {
      boolean minus = hour < 0 || min < 0 || sec < 0 || millis < 0;
      out.append(zeroBefore[0] ? "" : " ").append(minus ? "-" : zeroBefore[1] ? "+" : "")
          .append(String.format(Locale.ROOT, "%02d:%02d:%02d", Math.abs(hour), Math.abs(min), Math.abs(sec)));
      if (millis != 0) {
        String fraction = String.format(Locale.ROOT, "%03d", Math.abs(millis));
        out.append('.').append(fraction.replaceAll("0+$", ""));
      }
    }
    return out.toString();
  }

  private static void part(StringBuilder out, long value, String unit, boolean[] state) {
    if (value == 0) {
      return;
    }
    out.append(state[0] ? "" : " ").append(state[1] && value > 0 ? "+" : "").append(value).append(' ').append(unit)
        .append(value != 1 ? "s" : "");
    state[1] = value < 0;
    state[0] = false;
  }
}
