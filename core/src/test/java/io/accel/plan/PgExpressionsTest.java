package io.accel.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.sql.AccelException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.TimeZone;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;

/** The runtime functions behind the rewritten expressions; planning through them is covered by the slt files. */
class PgExpressionsTest {
  @Test
  void divisionHasPostgresScaleForTheValuesAndRoundsHalfAwayFromZero() {
    // expected values from PostgreSQL 15 (select 12.50/3, ...)
    assertThat(PgExpressions.divide(new BigDecimal("12.50"), 3L)).isEqualTo(new BigDecimal("4.1666666666666667"));
    assertThat(PgExpressions.divide(new BigDecimal("-12.50"), 3)).isEqualTo(new BigDecimal("-4.1666666666666667"));
    assertThat(PgExpressions.divide(new BigDecimal("0.5"), new BigDecimal("4")))
        .isEqualTo(new BigDecimal("0.12500000000000000000"));
    assertThat(PgExpressions.divide(new BigDecimal("-0.5"), 4)).isEqualTo(new BigDecimal("-0.12500000000000000000"));
    assertThat(PgExpressions.divide(BigDecimal.ZERO, 3)).isEqualTo(new BigDecimal("0.00000000000000000000"));
    assertThat(PgExpressions.divide(new BigDecimal("1234567"), 3)).isEqualTo(new BigDecimal("411522.333333333333"));
    assertThat(PgExpressions.divide(BigDecimal.ONE, 30000)).isEqualTo(new BigDecimal("0.000033333333333333333333"));
    assertThat(PgExpressions.divide(new BigDecimal("100000"), 7)).isEqualTo(new BigDecimal("14285.714285714286"));
    assertThat(PgExpressions.divide(new BigDecimal("1.000000000000000000001"), 3))
        .isEqualTo(new BigDecimal("0.333333333333333333334"));
    assertThat(PgExpressions.divide(new BigDecimal("99999"), 10000)).isEqualTo(new BigDecimal("9.9999000000000000"));
    assertThat(PgExpressions.divide(new BigDecimal("10000"), 9999)).isEqualTo(new BigDecimal("1.0001000100010001"));
    assertThat(PgExpressions.divide(null, 3)).isNull();
    assertThat(PgExpressions.divide(BigDecimal.ONE, null)).isNull();
    assertThatThrownBy(() -> PgExpressions.divide(BigDecimal.ONE, BigDecimal.ZERO))
        .isInstanceOf(ArithmeticException.class).hasMessage("Division by zero");
  }

  @Test
  void floatsRoundHalfToEvenIntoTheRange() {
    assertThat(PgExpressions.roundToInteger(2.5, Integer.MIN_VALUE, Integer.MAX_VALUE)).isEqualTo(2L);
    assertThat(PgExpressions.roundToInteger(3.5, Integer.MIN_VALUE, Integer.MAX_VALUE)).isEqualTo(4L);
    assertThat(PgExpressions.roundToInteger(-3.5, Integer.MIN_VALUE, Integer.MAX_VALUE)).isEqualTo(-4L);
    assertThat(PgExpressions.roundToInteger(2.75f, Short.MIN_VALUE, Short.MAX_VALUE)).isEqualTo(3L);
    assertThat(PgExpressions.roundToInteger(2147483647.4, Integer.MIN_VALUE, Integer.MAX_VALUE))
        .isEqualTo(2147483647L);
    assertThat(PgExpressions.roundToInteger(null, 0, 1)).isNull();
    assertThatThrownBy(() -> PgExpressions.roundToInteger(2147483647.5, Integer.MIN_VALUE, Integer.MAX_VALUE))
        .hasMessage("integer out of range");
    assertThatThrownBy(() -> PgExpressions.roundToInteger(9.3e18, Long.MIN_VALUE, Long.MAX_VALUE))
        .hasMessage("bigint out of range");
    assertThatThrownBy(() -> PgExpressions.roundToInteger(Double.NaN, Short.MIN_VALUE, Short.MAX_VALUE))
        .hasMessage("smallint out of range");
    assertThatThrownBy(() -> PgExpressions.roundToInteger(Double.NEGATIVE_INFINITY, Long.MIN_VALUE,
        Long.MAX_VALUE)).isInstanceOf(ArithmeticException.class);
  }

  @Test
  void textAsPostgresqlPrintsIt() {
    assertThat(PgExpressions.toText(true)).isEqualTo("true");
    assertThat(PgExpressions.toText(false)).isEqualTo("false");
    assertThat(PgExpressions.toText(new BigDecimal("0.25"))).isEqualTo("0.25");
    assertThat(PgExpressions.toText(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(PgExpressions.toText(0.0)).isEqualTo("0");
    assertThat(PgExpressions.toText(-0.0)).isEqualTo("-0");
    assertThat(PgExpressions.toText(2.0)).isEqualTo("2");
    assertThat(PgExpressions.toText(0.1)).isEqualTo("0.1");
    assertThat(PgExpressions.toText(1e20)).isEqualTo("1e+20");
    assertThat(PgExpressions.toText(1.25e-7)).isEqualTo("1.25e-07");
    assertThat(PgExpressions.toText(0.0001)).isEqualTo("0.0001");
    assertThat(PgExpressions.toText(123456789012345.0)).isEqualTo("123456789012345");
    assertThat(PgExpressions.toText(1234567890123456.0)).isEqualTo("1.234567890123456e+15");
    assertThat(PgExpressions.toText(1e300)).isEqualTo("1e+300");
    assertThat(PgExpressions.toText(Double.NaN)).isEqualTo("NaN");
    assertThat(PgExpressions.toText(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(PgExpressions.toText(1.5f)).isEqualTo("1.5");
    assertThat(PgExpressions.toText(null)).isNull();
  }

  @Test
  void byteaFromHexAndEscapeFormats() {
    assertThat(PgExpressions.toBytea("\\x0102ff")).isEqualTo(new ByteString(new byte[] {1, 2, (byte) 0xff}));
    assertThat(PgExpressions.toBytea("\\xCA FE")).isEqualTo(new ByteString(new byte[] {(byte) 0xca, (byte) 0xfe}));
    assertThat(PgExpressions.toBytea("\\x")).isEqualTo(ByteString.EMPTY);
    assertThat(PgExpressions.toBytea("a\\\\b\\001é")).isEqualTo(new ByteString(
        new byte[] {'a', '\\', 'b', 1, (byte) 0xc3, (byte) 0xa9}));
    assertThat(PgExpressions.toBytea(null)).isNull();
    assertThatThrownBy(() -> PgExpressions.toBytea("\\xzz")).isInstanceOf(AccelException.class)
        .hasMessage("invalid hexadecimal digit: \"z\"");
    assertThatThrownBy(() -> PgExpressions.toBytea("\\x012")).hasMessageContaining("odd number of digits");
    assertThatThrownBy(() -> PgExpressions.toBytea("a\\q")).hasMessage("invalid input syntax for type bytea");
    assertThat(PgExpressions.toText(new ByteString(new byte[] {0, (byte) 0xab}))).isEqualTo("\\x00ab");
  }

  @Test
  void timestampsWithTimeZoneFromPostgresqlForms() {
    long utc1030 = Instant.parse("2024-01-15T10:30:00Z").toEpochMilli();
    assertThat(PgExpressions.toTimestampTz("2024-01-15 10:30:00+00", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 12:30:00+02", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 16:00:00+05:30", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 05:30:00-0500", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15T10:30:00Z", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz(" 2024-01-15 10:30 UTC ", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 11:30:00 Europe/Paris", "Asia/Tokyo")).isEqualTo(utc1030);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 10:30:00.25+00", "Asia/Tokyo")).isEqualTo(utc1030 + 250);
    assertThat(PgExpressions.toTimestampTz("2024-01-15 9:30:00-01", "Asia/Tokyo")).isEqualTo(utc1030);
    ZoneId session = ZoneId.of("Asia/Tokyo");
    assertThat(PgExpressions.toTimestampTz("2024-01-15 10:30:00", "Asia/Tokyo"))
        .isEqualTo(LocalDateTime.of(2024, 1, 15, 10, 30).atZone(session).toInstant().toEpochMilli());
    assertThat(PgExpressions.toTimestampTz("2024-01-15", "Asia/Tokyo"))
        .isEqualTo(LocalDateTime.of(2024, 1, 15, 0, 0).atZone(session).toInstant().toEpochMilli());
    assertThat(PgExpressions.toTimestampTz(null, "Asia/Tokyo")).isNull();
    assertThatThrownBy(() -> PgExpressions.toTimestampTz("yesterday", "Asia/Tokyo")).isInstanceOf(AccelException.class)
        .hasMessageContaining("invalid input syntax for type timestamp with time zone");
    assertThatThrownBy(() -> PgExpressions.toTimestampTz("2024-13-01 00:00:00", "Asia/Tokyo"))
        .hasMessageContaining("date/time field value out of range");
    assertThatThrownBy(() -> PgExpressions.toTimestampTz("2024-01-15 10:30:00 Mars/Olympus", "Asia/Tokyo"))
        .hasMessageContaining("date/time field value out of range");
  }

  @Test
  void booleansFromPostgresqlSpellings() {
    for (String t : new String[] {"t", "TRUE", "tr", " yes ", "y", "on", "ON", "1"}) {
      assertThat(PgExpressions.toBoolean(t)).as(t).isTrue();
    }
    for (String f : new String[] {"f", "false", "FALS", "no", "n", "off", "of", "0", "\tfalse\n"}) {
      assertThat(PgExpressions.toBoolean(f)).as(f).isFalse();
    }
    assertThat(PgExpressions.toBoolean(null)).isNull();
    for (String bad : new String[] {"", "o", "maybe", "2", "truee", "yess"}) {
      assertThatThrownBy(() -> PgExpressions.toBoolean(bad)).as(bad).isInstanceOf(AccelException.class)
          .hasMessage("invalid input syntax for type boolean: \"" + bad + "\"");
    }
  }
}
