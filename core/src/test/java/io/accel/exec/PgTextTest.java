package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.sql.AccelException;
import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's text output of every engine type. Each expected string is what PostgreSQL 15 printed for the same
 * value ({@code select '<input>'::<type>::text} through psql), not this class's own output.
 */
class PgTextTest {
  private static final ZoneId UTC = ZoneOffset.UTC;

  private static ColumnMetaData.AvaticaType type(int id, String name, Rep rep) {
    return ColumnMetaData.scalar(id, name, rep);
  }

  private static final ColumnMetaData.AvaticaType REAL = type(Types.REAL, "REAL", Rep.FLOAT);
  private static final ColumnMetaData.AvaticaType DOUBLE = type(Types.DOUBLE, "DOUBLE", Rep.DOUBLE);
  private static final ColumnMetaData.AvaticaType DATE = type(Types.DATE, "DATE", Rep.INTEGER);
  private static final ColumnMetaData.AvaticaType TIME = type(Types.TIME, "TIME", Rep.INTEGER);
  private static final ColumnMetaData.AvaticaType TIMESTAMP = type(Types.TIMESTAMP, "TIMESTAMP", Rep.LONG);
  private static final ColumnMetaData.AvaticaType TIMESTAMPTZ =
      type(Types.TIMESTAMP, "TIMESTAMP_WITH_LOCAL_TIME_ZONE", Rep.LONG);

  /** {input, PostgreSQL's {@code input::float8::text}}. */
  private static final String[][] FLOAT8 = {
      {"1.5", "1.5"}, {"0.1", "0.1"}, {"1e20", "1e+20"}, {"1e-5", "1e-05"}, {"Infinity", "Infinity"},
      {"-Infinity", "-Infinity"}, {"NaN", "NaN"}, {"-0", "-0"}, {"100", "100"}, {"1234567", "1234567"},
      {"123456.7", "123456.7"}, {"0.0001", "0.0001"}, {"9.99e-05", "9.99e-05"}, {"3.4028235e38", "3.4028235e+38"},
      {"1e-45", "1e-45"}, {"1e15", "1e+15"}, {"1e14", "100000000000000"},
      {"123456789012345678", "1.2345678901234568e+17"}, {"0.30000000000000004", "0.30000000000000004"},
      {"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"},
      {"2e23", "1.9999999999999998e+23"}, {"4.35", "4.35"}, {"-2.5e-7", "-2.5e-07"}, {"1e22", "1e+22"},
      {"123456789012345", "123456789012345"}, {"1234567890123456", "1.234567890123456e+15"},
      {"2.2250738585072014e-308", "2.2250738585072014e-308"}, {"3.14159265358979", "3.14159265358979"},
      {"8.589973e9", "8589973000"},
  };

  /** {input, PostgreSQL's {@code input::float4::text}}. */
  private static final String[][] FLOAT4 = {
      {"1.5", "1.5"}, {"0.1", "0.1"}, {"1e20", "1e+20"}, {"1e-5", "1e-05"}, {"Infinity", "Infinity"},
      {"-Infinity", "-Infinity"}, {"NaN", "NaN"}, {"-0", "-0"}, {"100", "100"}, {"1234567", "1.234567e+06"},
      {"12345678", "1.2345678e+07"}, {"123456.7", "123456.7"}, {"999999.9", "999999.9"}, {"0.0001", "0.0001"},
      {"3.4028235e38", "3.4028235e+38"}, {"1e-45", "1e-45"}, {"16777217", "1.6777216e+07"},
      {"3.14159265358979", "3.1415927"}, {"8.589973e9", "8.589974e+09"}, {"1e-40", "1e-40"}, {"7e-45", "7e-45"},
      {"0.30000001192092896", "0.3"},
  };

  @Test
  void floatsPrintAsPostgresShortestRoundTripText() {
    for (String[] c : FLOAT8) {
      double d = Double.parseDouble(c[0].replace("Infinity", "Infinity"));
      assertThat(PgText.format(d, DOUBLE, UTC)).as("float8 " + c[0]).isEqualTo(c[1]);
      assertThat(PgText.parse(c[1], DataType.of(ColumnType.DOUBLE), UTC)).as("float8in " + c[1]).isEqualTo(d);
    }
    for (String[] c : FLOAT4) {
      float f = Float.parseFloat(c[0]);
      assertThat(PgText.format(f, REAL, UTC)).as("float4 " + c[0]).isEqualTo(c[1]);
      assertThat(PgText.parse(c[1], DataType.of(ColumnType.REAL), UTC)).as("float4in " + c[1]).isEqualTo(f);
    }
  }

  @Test
  void scalarsPrintAsPostgresOutputFunctions() {
    assertThat(PgText.format(true, type(Types.BOOLEAN, "BOOLEAN", Rep.BOOLEAN), UTC)).isEqualTo("t");
    assertThat(PgText.format(false, type(Types.BOOLEAN, "BOOLEAN", Rep.BOOLEAN), UTC)).isEqualTo("f");
    ColumnMetaData.AvaticaType numeric = type(Types.DECIMAL, "DECIMAL", Rep.NUMBER);
    assertThat(PgText.format(new BigDecimal("1.50"), numeric, UTC)).isEqualTo("1.50");
    assertThat(PgText.format(new BigDecimal("-0.000001"), numeric, UTC)).isEqualTo("-0.000001");
    assertThat(PgText.format(new BigDecimal("1E-10"), numeric, UTC)).isEqualTo("0.0000000001");
    assertThat(PgText.format(new BigDecimal("1E+3"), numeric, UTC)).isEqualTo("1000");
    assertThat(PgText.format((short) -7, type(Types.SMALLINT, "SMALLINT", Rep.SHORT), UTC)).isEqualTo("-7");
    assertThat(PgText.format(Long.MIN_VALUE, type(Types.BIGINT, "BIGINT", Rep.LONG), UTC))
        .isEqualTo("-9223372036854775808");
    ColumnMetaData.AvaticaType bytea = type(Types.VARBINARY, "VARBINARY", Rep.BYTE_STRING);
    assertThat(PgText.format(new ByteString(new byte[] {0x0a, 0x0b}), bytea, UTC)).isEqualTo("\\x0a0b");
    assertThat(PgText.format(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}, bytea, UTC))
        .isEqualTo("\\xdeadbeef");
    assertThat(PgText.format(new ByteString(new byte[0]), bytea, UTC)).isEqualTo("\\x");
    assertThat(PgText.format(UUID.fromString("0E984725-C51C-4BF4-9960-E1C80E27ABA0"),
        type(Types.OTHER, "UUID", Rep.OBJECT), UTC)).isEqualTo("0e984725-c51c-4bf4-9960-e1c80e27aba0");
    assertThat(PgText.format("ab   ", type(Types.CHAR, "CHAR", Rep.STRING), UTC)).isEqualTo("ab   ");
    assertThat(PgText.format(null, numeric, UTC)).isNull();
  }

  private static int days(String date) {
    return (int) LocalDate.parse(date).toEpochDay();
  }

  private static long millis(String localDateTime) {
    LocalDateTime t = LocalDateTime.parse(localDateTime);
    return t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
  }

  @Test
  void datesParseAsPostgresReadsThemWithOrWithoutTheIsoFastPath() {
    DataType date = DataType.of(ColumnType.DATE);
    for (String text : List.of("2024-01-31", "2024-02-29", "1970-01-01", "0001-01-01", "9999-12-31", "1969-12-31")) {
      assertThat(PgText.parse(text, date, ZoneOffset.UTC)).as(text)
          .isEqualTo((int) LocalDate.parse(text).toEpochDay());
    }
    assertThat(PgText.parse(" 2024-01-31", date, ZoneOffset.UTC)).isEqualTo((int) LocalDate.parse("2024-01-31")
        .toEpochDay());
    for (String bad : List.of("2023-02-29", "2024-13-01", "2024-00-10", "2024-01-32", "2024-1-310")) {
      assertThatThrownBy(() -> PgText.parse(bad, date, ZoneOffset.UTC)).as(bad).isInstanceOf(AccelException.class);
    }
  }

  @Test
  void datesAndTimesPrintInTheIsoStyle() {
    assertThat(PgText.format(days("2024-01-31"), DATE, UTC)).isEqualTo("2024-01-31");
    assertThat(PgText.format(days("2024-02-29"), DATE, UTC)).isEqualTo("2024-02-29");
    assertThat(PgText.format(-1, DATE, UTC)).isEqualTo("1969-12-31");
    assertThat(PgText.format(days("0000-12-31"), DATE, UTC)).as("date '0001-01-01' - 1").isEqualTo("0001-12-31 BC");
    assertThat(PgText.format(days("+10000-01-01"), DATE, UTC)).isEqualTo("10000-01-01");
    assertThat(PgText.format(49_500_000, TIME, UTC)).isEqualTo("13:45:00");
    assertThat(PgText.format(49_500_500, TIME, UTC)).isEqualTo("13:45:00.5");
    assertThat(PgText.format(49_500_050, TIME, UTC)).isEqualTo("13:45:00.05");
    assertThat(PgText.format(49_500_123, TIME, UTC)).isEqualTo("13:45:00.123");
    assertThat(PgText.format(0, TIME, UTC)).isEqualTo("00:00:00");
    assertThat(PgText.format(86_399_999, TIME, UTC)).isEqualTo("23:59:59.999");
    assertThat(PgText.format(millis("2024-01-31T13:45:00.250"), TIMESTAMP, UTC)).isEqualTo("2024-01-31 13:45:00.25");
    assertThat(PgText.format(millis("2024-01-31T13:45:00"), TIMESTAMP, UTC)).isEqualTo("2024-01-31 13:45:00");
    assertThat(PgText.format(-1L, TIMESTAMP, UTC)).isEqualTo("1969-12-31 23:59:59.999");
    assertThat(PgText.format(millis("0000-12-31T00:00:00"), TIMESTAMP, UTC)).isEqualTo("0001-12-31 00:00:00 BC");
  }

  @Test
  void timestampsWithTimeZonePrintInTheSessionZoneWithItsOffset() {
    long instant = millis("2024-01-31T13:45:00");
    assertThat(PgText.format(instant, TIMESTAMPTZ, UTC)).isEqualTo("2024-01-31 13:45:00+00");
    assertThat(PgText.format(instant + 500, TIMESTAMPTZ, ZoneId.of("Asia/Kolkata")))
        .isEqualTo("2024-01-31 19:15:00.5+05:30");
    assertThat(PgText.format(instant, TIMESTAMPTZ, ZoneId.of("America/St_Johns")))
        .isEqualTo("2024-01-31 10:15:00-03:30");
    assertThat(PgText.format(millis("2024-07-01T12:00:00"), TIMESTAMPTZ, ZoneId.of("America/New_York")))
        .isEqualTo("2024-07-01 08:00:00-04");
    assertThat(PgText.format(millis("2024-01-01T12:00:00"), TIMESTAMPTZ, ZoneId.of("America/New_York")))
        .isEqualTo("2024-01-01 07:00:00-05");
    assertThat(PgText.format(millis("1970-06-01T12:00:00"), TIMESTAMPTZ, ZoneId.of("Africa/Monrovia")))
        .as("an offset with seconds").isEqualTo("1970-06-01 11:15:30-00:44:30");
  }

  @Test
  void arraysQuoteElementsAsArrayOut() {
    ColumnMetaData.ArrayType ints = ColumnMetaData.array(type(Types.INTEGER, "INTEGER", Rep.INTEGER), "INTEGER ARRAY",
        Rep.ARRAY);
    assertThat(PgText.format(List.of(1, 2), ints, UTC)).isEqualTo("{1,2}");
    ColumnMetaData.ArrayType texts = ColumnMetaData.array(type(Types.VARCHAR, "VARCHAR", Rep.STRING),
        "VARCHAR ARRAY", Rep.ARRAY);
    assertThat(PgText.format(Arrays.asList("a b", "c\"d", null, "", "x\\y"), texts, UTC))
        .isEqualTo("{\"a b\",\"c\\\"d\",NULL,\"\",\"x\\\\y\"}");
    ColumnMetaData.ArrayType bools = ColumnMetaData.array(type(Types.BOOLEAN, "BOOLEAN", Rep.BOOLEAN),
        "BOOLEAN ARRAY", Rep.ARRAY);
    assertThat(PgText.format(List.of(true, false), bools, UTC)).isEqualTo("{t,f}");
  }

  @Test
  void textReadsBackIntoTheInternalRepresentation() {
    assertThat(PgText.parse(" 12 ", DataType.of(ColumnType.INTEGER), UTC)).isEqualTo(12);
    assertThat(PgText.parse("-32768", DataType.of(ColumnType.SMALLINT), UTC)).isEqualTo((short) -32768);
    assertThat(PgText.parse("9223372036854775807", DataType.of(ColumnType.BIGINT), UTC)).isEqualTo(Long.MAX_VALUE);
    assertThat(PgText.parse("1.50", DataType.of(ColumnType.NUMERIC), UTC)).isEqualTo(new BigDecimal("1.50"));
    assertThat(PgText.parse("t", DataType.of(ColumnType.BOOLEAN), UTC)).isEqualTo(true);
    assertThat(PgText.parse("off", DataType.of(ColumnType.BOOLEAN), UTC)).isEqualTo(false);
    assertThat(PgText.parse("2024-01-31", DataType.of(ColumnType.DATE), UTC)).isEqualTo(days("2024-01-31"));
    assertThat(PgText.parse("13:45:00.5", DataType.of(ColumnType.TIME), UTC)).isEqualTo(49_500_500);
    assertThat(PgText.parse("2024-01-31 13:45:00.25", DataType.of(ColumnType.TIMESTAMP), UTC))
        .isEqualTo(millis("2024-01-31T13:45:00.250"));
    long instant = millis("2024-01-31T13:45:00.500");
    assertThat(PgText.parse("2024-01-31 19:15:00.5+05:30", DataType.of(ColumnType.TIMESTAMPTZ), UTC)).isEqualTo(instant);
    assertThat(PgText.parse("2024-01-31 13:45:00.5+00", DataType.of(ColumnType.TIMESTAMPTZ), UTC)).isEqualTo(instant);
    assertThat(PgText.parse("2024-01-31 19:15:00.5", DataType.of(ColumnType.TIMESTAMPTZ), ZoneId.of("Asia/Kolkata")))
        .as("no offset: the session's zone").isEqualTo(instant);
    assertThat(PgText.parse("\\x0A0b", DataType.of(ColumnType.BYTEA), UTC))
        .isEqualTo(new ByteString(new byte[] {0x0a, 0x0b}));
    assertThat(PgText.parse("a\\\\b\\012", DataType.of(ColumnType.BYTEA), UTC)).as("the escape format")
        .isEqualTo(new ByteString(new byte[] {'a', '\\', 'b', '\n'}));
    assertThat(PgText.parse("0E984725-C51C-4BF4-9960-E1C80E27ABA0", DataType.of(ColumnType.UUID), UTC))
        .isEqualTo(UUID.fromString("0e984725-c51c-4bf4-9960-e1c80e27aba0"));
    assertThat(PgText.parse("", DataType.of(ColumnType.TEXT), UTC)).isEqualTo("");
    assertThat(PgText.parse(null, DataType.of(ColumnType.INTEGER), UTC)).isNull();
  }

  @Test
  void malformedTextFailsWithPostgresStatesAndMessages() {
    assertThatThrownBy(() -> PgText.parse("x", DataType.of(ColumnType.INTEGER), UTC))
        .isInstanceOf(AccelException.class).hasMessage("invalid input syntax for type integer: \"x\"")
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("22P02"));
    assertThatThrownBy(() -> PgText.parse("99999999999", DataType.of(ColumnType.INTEGER), UTC))
        .hasMessage("value \"99999999999\" is out of range for type integer")
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("22003"));
    assertThatThrownBy(() -> PgText.parse("2024-02-30", DataType.of(ColumnType.DATE), UTC))
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("22008"));
    assertThatThrownBy(() -> PgText.parse("maybe", DataType.of(ColumnType.BOOLEAN), UTC))
        .hasMessage("invalid input syntax for type boolean: \"maybe\"");
  }

  /**
   * COPY reads plain numbers and dates straight from bytes: every spelling it takes gives what the general reader
   * gives, and every other spelling (signs, spaces, exponents, 19 digits, out-of-range values, bad dates) is left to it.
   */
  @Test
  void simpleSpellingsReadFromBytesAgreeWithTheGeneralReader() {
    List<String> texts = List.of("0", "-0", "7", "-12", "32767", "32768", "-32768", "2147483647", "2147483648",
        "-2147483649", "999999999999999999", "9999999999999999999", "+5", " 5", "5 ", "", "-", "1.5", "-0.25",
        "17.00", ".5", "5.", "1.2.3", "1e5", "NaN", "0001.10", "123456789012345678", "1234567890123456789.0",
        "2024-02-29", "2023-02-29", "1999-12-31", "0000-01-01", "2024-1-01", "20240101", "infinity", "abc");
    for (ColumnType kind : List.of(ColumnType.SMALLINT, ColumnType.INTEGER, ColumnType.BIGINT, ColumnType.NUMERIC,
        ColumnType.DATE, ColumnType.TEXT)) {
      DataType type = DataType.of(kind);
      for (String text : texts) {
        byte[] bytes = ("|" + text + "|").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Object simple = PgText.parseSimple(bytes, 1, bytes.length - 1, type);
        if (simple == null) {
          continue;
        }
        Object general = PgText.parse(text, type, UTC);
        assertThat(simple).as("%s as %s", text, kind).isEqualTo(general);
        assertThat(simple.getClass()).as("%s as %s", text, kind).isEqualTo(general.getClass());
      }
    }
    DataType integer = DataType.of(ColumnType.INTEGER);
    assertThat(PgText.parseSimple("2147483648".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, 10, integer))
        .as("out of range: the general reader's 22003").isNull();
    assertThat(PgText.parseSimple("-45".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, 3, integer))
        .isEqualTo(-45);
    assertThat(PgText.parseSimple("17.00".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, 5,
        DataType.of(ColumnType.NUMERIC))).isEqualTo(new BigDecimal("17.00"));
  }
}
