package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's typed literals that Calcite's parser reads differently or not at all, rewritten before the
 * statement reaches Calcite. {@code TIMESTAMP WITH TIME ZONE '2024-01-15 10:30:00+02'} and
 * {@code TIMESTAMPTZ '...'} become {@code CAST('...' AS timestamptz)}, which
 * {@link io.accel.plan.PgExpressions} reads as PostgreSQL does (Calcite's literal took no offset).
 *
 * <p>Interval literals, with the unit inside the string: {@code INTERVAL '7 days'},
 * {@code INTERVAL '1 day 2 hours'}, {@code '45 minutes'::interval}, {@code INTERVAL '2 weeks ago'}. Calcite
 * reads only the SQL standard's {@code INTERVAL '7' DAY}, so {@link #rewrite} turns each such literal into that
 * form before the statement reaches Calcite: the quantities are added up in their smallest unit
 * ({@code '1 day 2 hours'} is {@code INTERVAL '26' HOUR(2)}; a week is 7 days), with the leading precision the
 * value needs. Units are PostgreSQL's names, plurals and abbreviations: year (y, yr, yrs), month (mon, mons),
 * week (w), day (d), hour (h, hr, hrs), minute (m, min, mins), second (s, sec, secs) and millisecond (ms,
 * msec). A literal that mixes years or months with days or smaller units, or that this class does not read,
 * is left as it is (Calcite then reports it).
 */
public final class PgLiterals {
  private PgLiterals() {
  }

  private enum Unit {
    YEAR(12, "MONTH"), MONTH(1, "MONTH"), WEEK(7L * 86_400_000, "DAY"), DAY(86_400_000, "DAY"),
    HOUR(3_600_000, "HOUR"), MINUTE(60_000, "MINUTE"), SECOND(1_000, "SECOND"), MILLISECOND(1, "SECOND");

    /** Months for YEAR and MONTH; milliseconds for the others. */
    final long size;
    /** The SQL unit a quantity of this unit is written in. */
    final String sqlUnit;

    Unit(long size, String sqlUnit) {
      this.size = size;
      this.sqlUnit = sqlUnit;
    }

    boolean yearMonth() {
      return this == YEAR || this == MONTH;
    }
  }

  private static final Map<String, Unit> UNITS = Map.ofEntries(
      Map.entry("y", Unit.YEAR), Map.entry("yr", Unit.YEAR), Map.entry("yrs", Unit.YEAR),
      Map.entry("year", Unit.YEAR), Map.entry("years", Unit.YEAR),
      Map.entry("mon", Unit.MONTH), Map.entry("mons", Unit.MONTH), Map.entry("month", Unit.MONTH),
      Map.entry("months", Unit.MONTH),
      Map.entry("w", Unit.WEEK), Map.entry("week", Unit.WEEK), Map.entry("weeks", Unit.WEEK),
      Map.entry("d", Unit.DAY), Map.entry("day", Unit.DAY), Map.entry("days", Unit.DAY),
      Map.entry("h", Unit.HOUR), Map.entry("hr", Unit.HOUR), Map.entry("hrs", Unit.HOUR),
      Map.entry("hour", Unit.HOUR), Map.entry("hours", Unit.HOUR),
      Map.entry("m", Unit.MINUTE), Map.entry("min", Unit.MINUTE), Map.entry("mins", Unit.MINUTE),
      Map.entry("minute", Unit.MINUTE), Map.entry("minutes", Unit.MINUTE),
      Map.entry("s", Unit.SECOND), Map.entry("sec", Unit.SECOND), Map.entry("secs", Unit.SECOND),
      Map.entry("second", Unit.SECOND), Map.entry("seconds", Unit.SECOND),
      Map.entry("ms", Unit.MILLISECOND), Map.entry("msec", Unit.MILLISECOND), Map.entry("msecs", Unit.MILLISECOND),
      Map.entry("millisecond", Unit.MILLISECOND), Map.entry("milliseconds", Unit.MILLISECOND));

  private static final Pattern QUANTITY = Pattern.compile("\\s*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*([a-zA-Z]+)");
  private static final Pattern AGO_SUFFIX = Pattern.compile("\\s+ago$", Pattern.CASE_INSENSITIVE);

  /** The statement with PostgreSQL's typed literals in Calcite's form; the statement itself when it has none. */
  private static final Pattern SHORT_TIME = Pattern.compile("\\d{1,2}:\\d{2}");
  /** A timestamp's text PostgreSQL reads and Calcite's TIMESTAMP literal does not: no time, no seconds, or a T. */
  private static final Pattern LOOSE_TIMESTAMP =
      Pattern.compile("(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{1,2}:\\d{2})(:\\d{2}(?:\\.\\d+)?)?)?");

  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("interval") && !lower.contains("zone") && !lower.contains("time")) {
      return sql;
    }
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int at = 0;
    for (int k = 0; k + 1 < tokens.size(); k++) {
      Token t = tokens.get(k);
      Token next = tokens.get(k + 1);
      int start;
      int end;
      String text;
      Token third = k + 2 < tokens.size() ? tokens.get(k + 2) : null;
      Token fifth = k + 4 < tokens.size() ? tokens.get(k + 4) : null;
      if (t.is("timestamp") && next.is("with") && third != null && third.is("time") && k + 3 < tokens.size()
          && tokens.get(k + 3).is("zone") && fifth != null && fifth.kind() == Kind.STRING) {
        out.append(sql, at, t.start()).append("CAST(").append(sql, fifth.start(), fifth.end())
            .append(" AS timestamptz)");
        at = fifth.end();
        k += 4;
        continue;
      }
      if (t.is("timestamp") && next.is("with") && third != null && third.is("time") && k + 3 < tokens.size()
          && tokens.get(k + 3).is("zone")) {
        // the type name in a cast (CAST(x AS TIMESTAMP WITH TIME ZONE), x::timestamp with time zone): Calcite
        // reads it as a type of its own that casts text as a number
        out.append(sql, at, t.start()).append("timestamptz");
        at = tokens.get(k + 3).end();
        k += 3;
        continue;
      }
      if (t.is("time") && next.kind() == Kind.STRING && SHORT_TIME.matcher(next.text()).matches()
          && !(k > 0 && tokens.get(k - 1).is("at"))) {
        // TIME '09:30': PostgreSQL's seconds are optional, Calcite's are not
        out.append(sql, at, next.start()).append('\'').append(next.text()).append(":00'");
        at = next.end();
        k += 1;
        continue;
      }
      if (t.is("timestamp") && next.kind() == Kind.STRING) {
        java.util.regex.Matcher m = LOOSE_TIMESTAMP.matcher(next.text().trim());
        if (m.matches() && (m.group(2) == null || m.group(3) == null || next.text().contains("T"))) {
          // TIMESTAMP '2024-09-01', '2024-09-01 10:30', '2024-09-01T10:30:00': as PostgreSQL reads them
          String hourMinute = m.group(2) == null ? "00:00" : m.group(2).length() == 4 ? "0" + m.group(2) : m.group(2);
          String time = hourMinute + (m.group(3) == null ? ":00" : m.group(3));
          out.append(sql, at, next.start()).append('\'').append(m.group(1)).append(' ').append(time).append('\'');
          at = next.end();
          k += 1;
          continue;
        }
      }
      if (t.is("timestamptz") && next.kind() == Kind.STRING) {
        out.append(sql, at, t.start()).append("CAST(").append(sql, next.start(), next.end())
            .append(" AS timestamptz)");
        at = next.end();
        k += 1;
        continue;
      }
      if (t.is("interval") && next.kind() == Kind.STRING && !(k + 2 < tokens.size() && isUnit(tokens.get(k + 2)))) {
        // INTERVAL '7 days' (not INTERVAL '7' DAY)
        start = t.start();
        end = next.end();
        text = next.text();
      } else if (t.kind() == Kind.STRING && next.isSymbol("::") && k + 2 < tokens.size()
          && tokens.get(k + 2).is("interval")) {
        // '7 days'::interval
        start = t.start();
        end = tokens.get(k + 2).end();
        text = t.text();
      } else {
        continue;
      }
      Optional<String> literal = standard(text);
      if (literal.isPresent()) {
        out.append(sql, at, start).append(literal.get());
        at = end;
      }
    }
    return at == 0 ? sql : out.append(sql, at, sql.length()).toString();
  }

  private static boolean isUnit(Token t) {
    return t.kind() == Kind.WORD && switch (t.text()) {
      case "year", "month", "day", "hour", "minute", "second" -> true;
      default -> false;
    };
  }

  /** {@code INTERVAL 'n' UNIT(p)} for PostgreSQL's interval text, or empty when it is not one this class reads. */
  static Optional<String> standard(String text) {
    String body = text.strip();
    boolean ago = AGO_SUFFIX.matcher(body).find();
    if (ago) {
      body = AGO_SUFFIX.matcher(body).replaceFirst("");
    }
    Matcher m = QUANTITY.matcher(body);
    BigDecimal total = BigDecimal.ZERO;
    Unit smallest = null;
    Boolean yearMonth = null;
    int pos = 0;
    BigDecimal[] amounts = new BigDecimal[Unit.values().length];
    while (pos < body.length() && !body.substring(pos).isBlank()) {
      if (!m.find(pos) || m.start() != pos) {
        return Optional.empty();
      }
      Unit unit = UNITS.get(m.group(2).toLowerCase(Locale.ROOT));
      if (unit == null || yearMonth != null && yearMonth != unit.yearMonth()) {
        return Optional.empty();
      }
      yearMonth = unit.yearMonth();
      BigDecimal amount = new BigDecimal(m.group(1));
      amounts[unit.ordinal()] = amounts[unit.ordinal()] == null ? amount : amounts[unit.ordinal()].add(amount);
      pos = m.end();
    }
    if (yearMonth == null) {
      return Optional.empty();
    }
    for (Unit unit : Unit.values()) {
      if (amounts[unit.ordinal()] != null) {
        total = total.add(amounts[unit.ordinal()].multiply(BigDecimal.valueOf(unit.size)));
        smallest = unit;
      }
    }
    if (ago) {
      total = total.negate();
    }
    String sqlUnit;
    BigDecimal value;
    if (yearMonth) {
      boolean wholeYears = smallest == Unit.YEAR && total.remainder(BigDecimal.valueOf(12)).signum() == 0;
      value = wholeYears ? total.divide(BigDecimal.valueOf(12)) : total;
      sqlUnit = wholeYears ? "YEAR" : "MONTH";
      if (value.stripTrailingZeros().scale() > 0) {
        return Optional.empty(); // PostgreSQL keeps a fraction of a month as days
      }
    } else {
      Unit unit = smallest == Unit.WEEK ? Unit.DAY : smallest == Unit.MILLISECOND ? Unit.SECOND : smallest;
      value = total.divide(BigDecimal.valueOf(unit.size));
      sqlUnit = unit.sqlUnit;
      if (value.stripTrailingZeros().scale() > 0 && unit != Unit.SECOND) {
        // a fraction of a larger unit (1.5 hours): written in seconds
        value = total.divide(BigDecimal.valueOf(Unit.SECOND.size));
        sqlUnit = "SECOND";
      }
    }
    value = value.stripTrailingZeros();
    if (value.scale() < 0) {
      value = value.setScale(0);
    }
    int fraction = Math.max(0, value.scale());
    if (fraction > 3) {
      return Optional.empty(); // beyond Calcite's millisecond intervals
    }
    int digits = Math.max(2, value.precision() - value.scale());
    if (digits > 10) {
      return Optional.empty();
    }
    String precision = sqlUnit.equals("SECOND") && fraction > 0 ? "(" + digits + ", " + fraction + ")"
        : "(" + digits + ")";
    return Optional.of("INTERVAL '" + value.toPlainString() + "' " + sqlUnit + precision);
  }
}
