package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PgLiteralsTest {
  @Test
  void timestampsWithTimeZone() {
    assertThat(PgLiterals.rewrite("INSERT INTO z VALUES (1, TIMESTAMP WITH TIME ZONE '2024-01-15 10:30:00+02')"))
        .isEqualTo("INSERT INTO z VALUES (1, CAST('2024-01-15 10:30:00+02' AS timestamptz))");
    assertThat(PgLiterals.rewrite("SELECT * FROM z WHERE tz > timestamptz '2024-03-01 00:00:00Z'"))
        .isEqualTo("SELECT * FROM z WHERE tz > CAST('2024-03-01 00:00:00Z' AS timestamptz)");
    String withoutZone = "SELECT TIMESTAMP '2024-01-15 10:30:00' FROM z";
    assertThat(PgLiterals.rewrite(withoutZone)).isEqualTo(withoutZone);
    // the long type name is the short one wherever it names a type
    assertThat(PgLiterals.rewrite("SELECT CAST(x AS TIMESTAMP WITH TIME ZONE), y::timestamp with time zone FROM z"))
        .isEqualTo("SELECT CAST(x AS timestamptz), y::timestamptz FROM z");
  }

  private static String standard(String text) {
    return PgLiterals.standard(text).orElse(null);
  }

  @Test
  void singleQuantities() {
    assertThat(standard("1 day")).isEqualTo("INTERVAL '1' DAY(2)");
    assertThat(standard("7 days")).isEqualTo("INTERVAL '7' DAY(2)");
    assertThat(standard("365 d")).isEqualTo("INTERVAL '365' DAY(3)");
    assertThat(standard("45 minutes")).isEqualTo("INTERVAL '45' MINUTE(2)");
    assertThat(standard("1 HOUR")).isEqualTo("INTERVAL '1' HOUR(2)");
    assertThat(standard("30 secs")).isEqualTo("INTERVAL '30' SECOND(2)");
    assertThat(standard("1.5 seconds")).isEqualTo("INTERVAL '1.5' SECOND(2, 1)");
    assertThat(standard("250 ms")).isEqualTo("INTERVAL '0.25' SECOND(2, 2)");
    assertThat(standard("2 weeks")).isEqualTo("INTERVAL '14' DAY(2)");
    assertThat(standard("3 mons")).isEqualTo("INTERVAL '3' MONTH(2)");
    assertThat(standard("2 years")).isEqualTo("INTERVAL '2' YEAR(2)");
    assertThat(standard("-3 days")).isEqualTo("INTERVAL '-3' DAY(2)");
    assertThat(standard(" 10 min ")).isEqualTo("INTERVAL '10' MINUTE(2)");
  }

  @Test
  void severalQuantitiesAddUpInTheSmallestUnit() {
    assertThat(standard("1 day 2 hours")).isEqualTo("INTERVAL '26' HOUR(2)");
    assertThat(standard("1 hour 30 minutes")).isEqualTo("INTERVAL '90' MINUTE(2)");
    assertThat(standard("1 year 2 months")).isEqualTo("INTERVAL '14' MONTH(2)");
    assertThat(standard("1.5 hours")).isEqualTo("INTERVAL '5400' SECOND(4)");
    assertThat(standard("1 day -1 hour")).isEqualTo("INTERVAL '23' HOUR(2)");
    assertThat(standard("2 days ago")).isEqualTo("INTERVAL '-2' DAY(2)");
  }

  @Test
  void unreadableTextIsLeftAlone() {
    assertThat(standard("1 month 2 days")).isNull(); // mixes year-month and day-time
    assertThat(standard("1.5 months")).isNull();
    assertThat(standard("01:30:00")).isNull();
    assertThat(standard("1 fortnight")).isNull();
    assertThat(standard("")).isNull();
    assertThat(standard("day")).isNull();
    assertThat(standard("0.0001 seconds")).isNull();
  }

  @Test
  void statements() {
    assertThat(PgLiterals.rewrite("SELECT * FROM t WHERE d > current_date - INTERVAL '7 days'"))
        .isEqualTo("SELECT * FROM t WHERE d > current_date - INTERVAL '7' DAY(2)");
    assertThat(PgLiterals.rewrite("SELECT ts + '45 minutes'::interval, ts - interval '1 day 2 hours' FROM t"))
        .isEqualTo("SELECT ts + INTERVAL '45' MINUTE(2), ts - INTERVAL '26' HOUR(2) FROM t");
    String standard = "SELECT d + INTERVAL '7' DAY, 'interval' FROM t";
    assertThat(PgLiterals.rewrite(standard)).isSameAs(standard);
    String unreadable = "SELECT d + INTERVAL '1 month 2 days' FROM t";
    assertThat(PgLiterals.rewrite(unreadable)).isEqualTo(unreadable);
    String noInterval = "SELECT 1";
    assertThat(PgLiterals.rewrite(noInterval)).isSameAs(noInterval);
  }
}
