package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parameters of every column type, and the values read back through the ResultSet getters. */
class PreparedStatementTypesTest extends JdbcTestSupport {
  static final String COLUMNS = "id, c_small, c_int, c_big, c_num, c_real, c_double, c_bool, c_char, c_varchar,"
      + " c_text, c_date, c_time, c_ts, c_tstz, c_bytea, c_uuid";
  static final String INSERT = "INSERT INTO all_types (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
      + " ?, ?, ?, ?, ?)";
  static final UUID SOME_UUID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
  static final byte[] SOME_BYTES = {0, 1, 2, (byte) 0x7f, (byte) 0x80, (byte) 0xff};

  Connection c;

  @BeforeEach
  void createTable() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE all_types (id INTEGER PRIMARY KEY, c_small SMALLINT, c_int INTEGER, c_big BIGINT,"
        + " c_num NUMERIC(12,2), c_real REAL, c_double DOUBLE PRECISION, c_bool BOOLEAN, c_char CHAR(5),"
        + " c_varchar VARCHAR(20), c_text TEXT, c_date DATE, c_time TIME, c_ts TIMESTAMP,"
        + " c_tstz TIMESTAMP WITH TIME ZONE, c_bytea BYTEA, c_uuid UUID)");
  }

  private ResultSet selectRow(int id) throws SQLException {
    PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM all_types WHERE id = ?");
    ps.setInt(1, id);
    ResultSet rs = ps.executeQuery();
    ps.closeOnCompletion();
    assertThat(rs.next()).as("row %s", id).isTrue();
    return rs;
  }

  @Test
  void typedSettersRoundTripThroughTypedGetters() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setInt(1, 1);
      ps.setShort(2, (short) -12345);
      ps.setInt(3, 2_000_000_000);
      ps.setLong(4, 9_000_000_000_000_000_000L);
      ps.setBigDecimal(5, new BigDecimal("1234567890.12"));
      ps.setFloat(6, 1.25f);
      ps.setDouble(7, 2.5e100);
      ps.setBoolean(8, true);
      ps.setString(9, "abc");
      ps.setString(10, "varchar value");
      ps.setString(11, "text with 'quotes' and ünïcødé €");
      ps.setDate(12, Date.valueOf("2024-02-29"));
      ps.setTime(13, Time.valueOf("13:45:30"));
      ps.setTimestamp(14, Timestamp.valueOf("2024-02-29 13:45:30.123"));
      ps.setTimestamp(15, Timestamp.from(Instant.parse("2024-02-29T11:45:30.456Z")));
      ps.setBytes(16, SOME_BYTES);
      ps.setObject(17, SOME_UUID);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (ResultSet rs = selectRow(1)) {
      assertThat(rs.getShort("c_small")).isEqualTo((short) -12345);
      assertThat(rs.getInt("c_int")).isEqualTo(2_000_000_000);
      assertThat(rs.getLong("c_big")).isEqualTo(9_000_000_000_000_000_000L);
      assertThat(rs.getBigDecimal("c_num")).isEqualTo(new BigDecimal("1234567890.12"));
      assertThat(rs.getFloat("c_real")).isEqualTo(1.25f);
      assertThat(rs.getDouble("c_double")).isEqualTo(2.5e100);
      assertThat(rs.getBoolean("c_bool")).isTrue();
      assertThat(rs.getString("c_char")).isEqualTo("abc  ");
      assertThat(rs.getString("c_varchar")).isEqualTo("varchar value");
      assertThat(rs.getString("c_text")).isEqualTo("text with 'quotes' and ünïcødé €");
      assertThat(rs.getDate("c_date")).isEqualTo(Date.valueOf("2024-02-29"));
      assertThat(rs.getTime("c_time")).isEqualTo(Time.valueOf("13:45:30"));
      assertThat(rs.getTimestamp("c_ts")).isEqualTo(Timestamp.valueOf("2024-02-29 13:45:30.123"));
      assertThat(rs.getTimestamp("c_tstz").toInstant()).isEqualTo(Instant.parse("2024-02-29T11:45:30.456Z"));
      assertThat(rs.getBytes("c_bytea")).containsExactly(SOME_BYTES);
      assertThat(rs.getObject("c_uuid", UUID.class)).isEqualTo(SOME_UUID);
      assertThat(rs.getString("c_uuid")).isEqualTo(SOME_UUID.toString());
      assertThat(rs.wasNull()).isFalse();
      // the same values by column index
      assertThat(rs.getShort(2)).isEqualTo((short) -12345);
      assertThat(rs.getInt(3)).isEqualTo(2_000_000_000);
      assertThat(rs.getLong(4)).isEqualTo(9_000_000_000_000_000_000L);
      assertThat(rs.getBigDecimal(5)).isEqualTo(new BigDecimal("1234567890.12"));
      assertThat(rs.getFloat(6)).isEqualTo(1.25f);
      assertThat(rs.getDouble(7)).isEqualTo(2.5e100);
      assertThat(rs.getBoolean(8)).isTrue();
      assertThat(rs.getString(9)).isEqualTo("abc  ");
      assertThat(rs.getDate(12)).isEqualTo(Date.valueOf("2024-02-29"));
      assertThat(rs.getTime(13)).isEqualTo(Time.valueOf("13:45:30"));
      assertThat(rs.getTimestamp(14)).isEqualTo(Timestamp.valueOf("2024-02-29 13:45:30.123"));
      assertThat(rs.getBytes(16)).containsExactly(SOME_BYTES);
      assertThat(rs.getObject(17, UUID.class)).isEqualTo(SOME_UUID);
    }
  }

  @Test
  void javaTimeAndUuidRoundTripThroughSetObjectAndGetObject() throws SQLException {
    OffsetDateTime odt = OffsetDateTime.of(2023, 12, 31, 23, 30, 15, 250_000_000, ZoneOffset.ofHours(5));
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO all_types (id, c_date, c_time, c_ts, c_tstz, c_uuid) VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setObject(1, 2);
      ps.setObject(2, LocalDate.of(1999, 12, 31));
      ps.setObject(3, LocalTime.of(23, 59, 58));
      ps.setObject(4, LocalDateTime.of(2000, 1, 1, 0, 0, 1, 5_000_000));
      ps.setObject(5, odt);
      ps.setObject(6, SOME_UUID);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (ResultSet rs = selectRow(2)) {
      assertThat(rs.getObject("c_date", LocalDate.class)).isEqualTo(LocalDate.of(1999, 12, 31));
      assertThat(rs.getObject("c_time", LocalTime.class)).isEqualTo(LocalTime.of(23, 59, 58));
      assertThat(rs.getObject("c_ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(2000, 1, 1, 0, 0, 1, 5_000_000));
      assertThat(rs.getObject("c_tstz", OffsetDateTime.class)).isEqualTo(odt.withOffsetSameInstant(ZoneOffset.UTC));
      assertThat(rs.getObject("c_tstz", Instant.class)).isEqualTo(odt.toInstant());
      assertThat(rs.getObject("c_uuid", UUID.class)).isEqualTo(SOME_UUID);
      assertThat(rs.getObject(12, LocalDate.class)).isEqualTo(LocalDate.of(1999, 12, 31));
      assertThat(rs.getObject(13, LocalTime.class)).isEqualTo(LocalTime.of(23, 59, 58));
      assertThat(rs.getObject(14, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2000, 1, 1, 0, 0, 1, 5_000_000));
      assertThat(rs.getObject(15, OffsetDateTime.class).toInstant()).isEqualTo(odt.toInstant());
    }
  }

  @Test
  void setObjectWithBoxedValues() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setObject(1, 3);
      ps.setObject(2, (short) 7);
      ps.setObject(3, 42);
      ps.setObject(4, 42L);
      ps.setObject(5, new BigDecimal("0.5"));
      ps.setObject(6, 0.5f);
      ps.setObject(7, 0.25d);
      ps.setObject(8, Boolean.FALSE);
      ps.setObject(9, "xy");
      ps.setObject(10, "v");
      ps.setObject(11, "t");
      ps.setObject(12, Date.valueOf("2020-01-02"));
      ps.setObject(13, Time.valueOf("00:00:01"));
      ps.setObject(14, Timestamp.valueOf("2020-01-02 03:04:05"));
      ps.setObject(15, OffsetDateTime.parse("2020-01-02T03:04:05Z"));
      ps.setObject(16, new byte[] {9});
      ps.setObject(17, SOME_UUID.toString(), Types.OTHER);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (ResultSet rs = selectRow(3)) {
      assertThat(rs.getObject("c_small", Integer.class)).isEqualTo(7);
      assertThat(rs.getObject("c_int")).isEqualTo(42);
      assertThat(rs.getObject("c_big")).isEqualTo(42L);
      assertThat(rs.getObject("c_num")).isEqualTo(new BigDecimal("0.50"));
      assertThat(rs.getObject("c_real", Float.class)).isEqualTo(0.5f);
      assertThat(rs.getObject("c_double")).isEqualTo(0.25d);
      assertThat(rs.getObject("c_bool")).isEqualTo(false);
      assertThat(rs.getObject("c_char")).isEqualTo("xy   ");
      assertThat(rs.getObject("c_varchar")).isEqualTo("v");
      assertThat(rs.getObject("c_date")).isEqualTo(Date.valueOf("2020-01-02"));
      assertThat(rs.getObject("c_time")).isEqualTo(Time.valueOf("00:00:01"));
      assertThat(rs.getObject("c_ts")).isEqualTo(Timestamp.valueOf("2020-01-02 03:04:05"));
      assertThat(rs.getObject("c_tstz", Instant.class)).isEqualTo(Instant.parse("2020-01-02T03:04:05Z"));
      assertThat(rs.getObject("c_bytea")).isEqualTo(new byte[] {9});
      assertThat(rs.getObject("c_uuid", UUID.class)).isEqualTo(SOME_UUID);
    }
  }

  @Test
  void getObjectReturnsTheJdbcDefaultClasses() throws SQLException {
    update(c, "INSERT INTO all_types (" + COLUMNS + ") VALUES (4, 1, 2, 3, 4.5, 5.5, 6.5, TRUE, 'c', 'vc', 'txt',"
        + " DATE '2021-03-04', TIME '05:06:07', TIMESTAMP '2021-03-04 05:06:07', TIMESTAMP '2021-03-04 05:06:07',"
        + " X'0A0B', '123e4567-e89b-12d3-a456-426614174000')");
    try (ResultSet rs = selectRow(4)) {
      assertThat(rs.getObject("c_int")).isInstanceOf(Integer.class);
      assertThat(rs.getObject("c_big")).isInstanceOf(Long.class);
      assertThat(rs.getObject("c_num")).isInstanceOf(BigDecimal.class).isEqualTo(new BigDecimal("4.50"));
      assertThat(rs.getObject("c_double")).isInstanceOf(Double.class);
      assertThat(rs.getObject("c_bool")).isInstanceOf(Boolean.class);
      assertThat(rs.getObject("c_varchar")).isInstanceOf(String.class);
      assertThat(rs.getObject("c_text")).isEqualTo("txt");
      assertThat(rs.getObject("c_date")).isInstanceOf(Date.class);
      assertThat(rs.getObject("c_time")).isInstanceOf(Time.class);
      assertThat(rs.getObject("c_ts")).isInstanceOf(Timestamp.class);
      assertThat(rs.getObject("c_bytea")).isInstanceOf(byte[].class).isEqualTo(new byte[] {10, 11});
      assertThat(rs.getObject("c_uuid")).isEqualTo(SOME_UUID);
      assertThat(rs.getObject("c_small", Short.class)).isEqualTo((short) 1);
      assertThat(rs.getObject("c_int", Long.class)).isEqualTo(2L);
      assertThat(rs.getObject("c_big", BigDecimal.class)).isEqualByComparingTo("3");
      assertThat(rs.getObject("c_varchar", String.class)).isEqualTo("vc");
      assertThat(rs.getObject("c_bool", Boolean.class)).isTrue();
      assertThat(rs.getObject("c_date", Date.class)).isEqualTo(Date.valueOf("2021-03-04"));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.DECIMAL, Types.REAL,
      Types.FLOAT, Types.DOUBLE, Types.BOOLEAN, Types.BIT, Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.DATE,
      Types.TIME, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.BINARY, Types.VARBINARY, Types.OTHER,
      Types.NULL})
  void setNullWithEachTypeCodeStoresNullInEveryColumn(int sqlType) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setInt(1, 10);
      for (int i = 2; i <= 17; i++) {
        ps.setNull(i, sqlType);
      }
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    assertAllNull(10);
  }

  @Test
  void setNullWithTheMatchingTypeOfEachColumn() throws SQLException {
    int[] types = {Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.REAL, Types.DOUBLE,
        Types.BOOLEAN, Types.CHAR, Types.VARCHAR, Types.VARCHAR, Types.DATE, Types.TIME, Types.TIMESTAMP,
        Types.TIMESTAMP_WITH_TIMEZONE, Types.VARBINARY, Types.OTHER};
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setInt(1, 11);
      for (int i = 0; i < types.length; i++) {
        ps.setNull(i + 2, types[i]);
      }
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    assertAllNull(11);
  }

  @Test
  void nullValuesThroughSetObjectAndTypedSetters() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setInt(1, 12);
      ps.setObject(2, null);
      ps.setObject(3, null, Types.INTEGER);
      ps.setObject(4, null);
      ps.setBigDecimal(5, null);
      ps.setObject(6, null);
      ps.setObject(7, null);
      ps.setObject(8, null);
      ps.setString(9, null);
      ps.setString(10, null);
      ps.setString(11, null);
      ps.setDate(12, null);
      ps.setTime(13, null);
      ps.setTimestamp(14, null);
      ps.setObject(15, null, Types.TIMESTAMP_WITH_TIMEZONE);
      ps.setBytes(16, null);
      ps.setObject(17, null, Types.OTHER);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    assertAllNull(12);
  }

  private void assertAllNull(int id) throws SQLException {
    try (ResultSet rs = selectRow(id)) {
      assertThat(rs.getShort("c_small")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getInt("c_int")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getLong("c_big")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getBigDecimal("c_num")).isNull();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getFloat("c_real")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getDouble("c_double")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getBoolean("c_bool")).isFalse();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getString("c_char")).isNull();
      assertThat(rs.getString("c_varchar")).isNull();
      assertThat(rs.getString("c_text")).isNull();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getDate("c_date")).isNull();
      assertThat(rs.getTime("c_time")).isNull();
      assertThat(rs.getTimestamp("c_ts")).isNull();
      assertThat(rs.getTimestamp("c_tstz")).isNull();
      assertThat(rs.getBytes("c_bytea")).isNull();
      assertThat(rs.getObject("c_uuid")).isNull();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getObject("c_date", LocalDate.class)).isNull();
      assertThat(rs.getObject("c_time", LocalTime.class)).isNull();
      assertThat(rs.getObject("c_ts", LocalDateTime.class)).isNull();
      assertThat(rs.getObject("c_tstz", OffsetDateTime.class)).isNull();
      assertThat(rs.getObject("c_uuid", UUID.class)).isNull();
      for (int i = 2; i <= 17; i++) {
        assertThat(rs.getObject(i)).as("column %s", i).isNull();
        assertThat(rs.wasNull()).isTrue();
      }
      assertThat(rs.getInt("id")).isEqualTo(id);
      assertThat(rs.wasNull()).isFalse();
    }
    assertThat(scalar(c, "SELECT count(*) FROM all_types WHERE id = " + id + " AND c_int IS NULL AND c_text IS NULL"
        + " AND c_uuid IS NULL AND c_tstz IS NULL AND c_bytea IS NULL")).isEqualTo(1L);
  }

  @Test
  void parametersInWhereReExecutedWithDifferentValues() throws SQLException {
    update(c, "INSERT INTO all_types (id, c_int, c_varchar, c_date, c_uuid, c_num, c_bool) VALUES"
        + " (1, 10, 'one', DATE '2024-01-01', '123e4567-e89b-12d3-a456-426614174000', 1.50, TRUE),"
        + " (2, 20, 'two', DATE '2024-01-02', '00000000-0000-0000-0000-000000000002', 2.50, FALSE),"
        + " (3, 30, 'three', DATE '2024-01-03', NULL, 3.50, NULL)");
    try (PreparedStatement ps = c.prepareStatement("SELECT c_varchar FROM all_types WHERE id = ?")) {
      for (int id = 1; id <= 3; id++) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rows(rs)).containsExactly(List.of(List.of("one", "two", "three").get(id - 1)));
        }
      }
      ps.setInt(1, 99);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isFalse();
      }
      ps.setNull(1, Types.INTEGER);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isFalse();
      }
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT id FROM all_types WHERE c_int BETWEEN ? AND ? AND c_varchar <> ? ORDER BY id")) {
      ps.setInt(1, 10);
      ps.setInt(2, 30);
      ps.setString(3, "two");
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(1), List.of(3));
      ps.setInt(1, 15);
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(3));
      ps.clearParameters();
      ps.setInt(1, 0);
      ps.setInt(2, 100);
      ps.setString(3, "none");
      assertThat(rows(ps.executeQuery())).hasSize(3);
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE c_date = ?")) {
      ps.setDate(1, Date.valueOf("2024-01-02"));
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(2));
      ps.setObject(1, LocalDate.of(2024, 1, 3));
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(3));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE c_uuid = ?")) {
      ps.setObject(1, SOME_UUID);
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(1));
      ps.setObject(1, UUID.fromString("00000000-0000-0000-0000-000000000002"));
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(2));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE c_num > ? AND c_varchar LIKE ?")) {
      ps.setBigDecimal(1, new BigDecimal("2"));
      ps.setString(2, "t%");
      assertThat(rows(ps.executeQuery())).containsExactlyInAnyOrder(List.of(2), List.of(3));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE c_bool = ?")) {
      ps.setBoolean(1, false);
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(2));
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE all_types SET c_int = c_int + ? WHERE id = ?")) {
      ps.setInt(1, 5);
      ps.setInt(2, 1);
      assertThat(ps.executeUpdate()).isEqualTo(1);
      ps.setInt(2, 42);
      assertThat(ps.executeUpdate()).isZero();
    }
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM all_types WHERE id = ?")) {
      ps.setLong(1, 3);
      assertThat(ps.executeUpdate()).isEqualTo(1);
      assertThat(ps.executeUpdate()).isZero();
    }
    assertThat(rows(c, "SELECT id, c_int FROM all_types ORDER BY id")).containsExactly(List.of(1, 15), List.of(2, 20));
  }

  /** Setters whose Java type differs from the parameter's SQL type convert, as JDBC asks of a driver. */
  @Test
  void settersConvertToTheParameterType() throws SQLException {
    update(c, "INSERT INTO all_types (id, c_small, c_int, c_big, c_num, c_double, c_bool, c_varchar, c_date, c_ts) VALUES"
        + " (1, 1, 10, 100, 1.00, 0.5, TRUE, '5', DATE '2024-02-29', TIMESTAMP '2024-02-29 00:00:00'),"
        + " (2, 2, 20, 200, 2.50, 1.5, FALSE, 'x', DATE '2024-03-01', TIMESTAMP '2024-03-01 12:30:00')");
    record Case(String where, SqlAction.Binder binder, List<Integer> expected) {
    }
    List<Case> cases = List.of(
        new Case("c_int = ?", ps -> ps.setString(1, " 20 "), List.of(2)),
        new Case("c_int = ?", ps -> ps.setLong(1, 10L), List.of(1)),
        new Case("c_int = ?", ps -> ps.setBigDecimal(1, new BigDecimal("20")), List.of(2)),
        new Case("c_int = ?", ps -> ps.setShort(1, (short) 10), List.of(1)),
        new Case("c_small = ?", ps -> ps.setLong(1, 2L), List.of(2)),
        new Case("c_big = ?", ps -> ps.setInt(1, 200), List.of(2)),
        new Case("c_big = ?", ps -> ps.setString(1, "100"), List.of(1)),
        new Case("c_num = ?", ps -> ps.setInt(1, 1), List.of(1)),
        new Case("c_num = ?", ps -> ps.setDouble(1, 2.5), List.of(2)),
        new Case("c_num = ?", ps -> ps.setString(1, "2.50"), List.of(2)),
        new Case("c_double = ?", ps -> ps.setBigDecimal(1, new BigDecimal("1.5")), List.of(2)),
        new Case("c_double = ?", ps -> ps.setString(1, "0.5"), List.of(1)),
        new Case("c_bool = ?", ps -> ps.setString(1, "true"), List.of(1)),
        new Case("c_bool = ?", ps -> ps.setString(1, "f"), List.of(2)),
        new Case("c_bool = ?", ps -> ps.setInt(1, 1), List.of(1)),
        new Case("c_varchar = ?", ps -> ps.setInt(1, 5), List.of(1)),
        new Case("c_date = ?", ps -> ps.setString(1, "2024-03-01"), List.of(2)),
        new Case("c_date = ?", ps -> ps.setTimestamp(1, Timestamp.valueOf("2024-02-29 18:00:00")), List.of(1)),
        new Case("c_date = ?", ps -> ps.setObject(1, LocalDateTime.of(2024, 3, 1, 1, 2)), List.of(2)),
        new Case("c_ts = ?", ps -> ps.setDate(1, Date.valueOf("2024-02-29")), List.of(1)),
        new Case("c_ts = ?", ps -> ps.setObject(1, LocalDate.of(2024, 2, 29)), List.of(1)),
        new Case("c_ts = ?", ps -> ps.setString(1, "2024-03-01 12:30:00"), List.of(2)),
        new Case("c_ts > ?", ps -> ps.setString(1, "2024-03-01"), List.of(2)));
    for (Case k : cases) {
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE " + k.where() + " ORDER BY id")) {
        k.binder().bind(ps);
        List<Integer> ids = new java.util.ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getInt(1));
          }
        }
        assertThat(ids).as(k.where()).isEqualTo(k.expected());
      }
    }
  }

  @Test
  void valuesThatDoNotFitTheParameterTypeAreErrors() throws SQLException {
    record Case(String state, String sql, SqlAction.Binder binder) {
    }
    List<Case> cases = List.of(
        new Case("22P02", "SELECT id FROM all_types WHERE c_int = ?", ps -> ps.setString(1, "abc")),
        new Case("22P02", "SELECT id FROM all_types WHERE c_int = ?", ps -> ps.setString(1, "1.5")),
        new Case("22P02", "SELECT id FROM all_types WHERE c_num = ?", ps -> ps.setString(1, "1,5")),
        new Case("22P02", "SELECT id FROM all_types WHERE c_bool = ?", ps -> ps.setString(1, "maybe")),
        new Case("22P02", "SELECT id FROM all_types WHERE c_double = ?", ps -> ps.setString(1, "x")),
        new Case("22003", "INSERT INTO all_types (id, c_small) VALUES (1, ?)", ps -> ps.setInt(1, 70000)),
        new Case("22003", "INSERT INTO all_types (id, c_int) VALUES (1, ?)", ps -> ps.setLong(1, 3_000_000_000L)),
        new Case("22003", "INSERT INTO all_types (id, c_int) VALUES (1, ?)", ps -> ps.setDouble(1, 1e20)),
        new Case("22007", "SELECT id FROM all_types WHERE c_date = ?", ps -> ps.setString(1, "yesterday")),
        new Case("22008", "SELECT id FROM all_types WHERE c_date = ?", ps -> ps.setString(1, "2024-02-30")),
        new Case("22007", "SELECT id FROM all_types WHERE c_ts = ?", ps -> ps.setString(1, "2024-01-01 nine")),
        new Case("22007", "SELECT id FROM all_types WHERE c_time = ?", ps -> ps.setString(1, "noon")));
    for (Case k : cases) {
      try (PreparedStatement ps = c.prepareStatement(k.sql())) {
        k.binder().bind(ps);
        SQLException e = expectState(k.state(), () -> {
          if (ps.execute()) {
            rows(ps.getResultSet());
          }
        });
        assertThat(e.getMessage()).as(k.sql()).isNotBlank();
      }
    }
    assertThat(count(c, "all_types")).isZero();
    assertUsable(c);
  }

  @Test
  void parameterMetaDataCountsParameters() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT c_text FROM all_types WHERE id = ? AND c_int > ?")) {
      assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(2);
      assertThat(ps.getMetaData().getColumnCount()).isEqualTo(1);
      assertThat(ps.getMetaData().getColumnName(1)).isEqualTo("c_text");
    }
  }

  /** Parameters as function arguments take the function's type, else text, as in PostgreSQL. */
  @Test
  void parametersAsFunctionArgumentsAreTypedByTheFunction() throws SQLException {
    try (var s = c.createStatement()) {
      s.execute("CREATE TABLE serial_ids (id BIGSERIAL PRIMARY KEY, v TEXT)");
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT setval(pg_get_serial_sequence('serial_ids', 'id'), ?)")) {
      assertThat(ps.getParameterMetaData().getParameterType(1)).isEqualTo(Types.BIGINT);
      ps.setLong(1, 41);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(41);
      }
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO serial_ids (v) VALUES (upper(?) || ?) RETURNING id, v")) {
      ps.setString(1, "ab");
      ps.setString(2, "c");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(42);
        assertThat(rs.getString(2)).isEqualTo("ABc");
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT length(?), lower(?)")) {
      assertThat(ps.getParameterMetaData().getParameterType(1)).isEqualTo(Types.VARCHAR);
      ps.setString(1, "four");
      ps.setString(2, "LoW");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(4);
        assertThat(rs.getString(2)).isEqualTo("low");
      }
    }
  }

  @Test
  void timeKeepsMilliseconds() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO all_types (id, c_time, c_ts) VALUES (?, ?, ?)")) {
      ps.setInt(1, 1);
      ps.setObject(2, LocalTime.of(1, 2, 3, 456_000_000));
      ps.setObject(3, LocalDateTime.of(2001, 2, 3, 4, 5, 6, 789_000_000));
      ps.executeUpdate();
    }
    try (ResultSet rs = selectRow(1)) {
      assertThat(rs.getObject("c_time", LocalTime.class)).isEqualTo(LocalTime.of(1, 2, 3, 456_000_000));
      assertThat(rs.getObject("c_ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(2001, 2, 3, 4, 5, 6, 789_000_000));
      assertThat(rs.getTimestamp("c_ts").getNanos()).isEqualTo(789_000_000);
    }
  }

  @Test
  void uuidParameterAcceptsStringsAndRejectsMalformedOnes() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO all_types (id, c_uuid) VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setString(2, SOME_UUID.toString());
      ps.executeUpdate();
      ps.setInt(1, 2);
      expectState("22P02", () -> ps.setString(2, "not-a-uuid"));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM all_types WHERE c_uuid = ?")) {
      ps.setString(1, SOME_UUID.toString());
      assertThat(rows(ps.executeQuery())).containsExactly(List.of(1));
    }
  }

  @Test
  void uuidColumnComparedWithATextLiteralAndCastToText() throws SQLException {
    update(c, "INSERT INTO all_types (id, c_uuid) VALUES (1, '123e4567-e89b-12d3-a456-426614174000')");
    assertThat(rows(c, "SELECT id FROM all_types WHERE c_uuid = '123e4567-e89b-12d3-a456-426614174000'"))
        .containsExactly(List.of(1));
    assertThat(scalar(c, "SELECT CAST(c_uuid AS VARCHAR) FROM all_types")).isEqualTo(SOME_UUID.toString());
  }

  @Test
  void timestampWithTimeZoneParameterIsTheInstantInSql() throws SQLException {
    Instant instant = Instant.parse("2024-07-01T03:00:00Z");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO all_types (id, c_tstz) VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setObject(2, instant);
      ps.executeUpdate();
    }
    update(c, "INSERT INTO all_types (id, c_tstz) VALUES (2, (SELECT c_tstz FROM all_types WHERE id = 1))");
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM all_types WHERE c_tstz = ?")) {
      ps.setTimestamp(1, Timestamp.from(instant));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(2);
      }
      ps.setObject(1, instant.atOffset(ZoneOffset.ofHours(9)));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(2);
      }
    }
    try (ResultSet rs = selectRow(2)) {
      assertThat(rs.getObject("c_tstz", Instant.class)).isEqualTo(instant);
      assertThat(rs.getTimestamp("c_tstz").toInstant()).isEqualTo(instant);
      assertThat(((Timestamp) rs.getObject("c_tstz")).toInstant()).isEqualTo(instant);
    }
  }

  @Test
  void numericValuesAreRoundedToTheColumnScale() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO all_types (id, c_num) VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setBigDecimal(2, new BigDecimal("2.345"));
      ps.executeUpdate();
      ps.setInt(1, 2);
      ps.setDouble(2, 7.5);
      ps.executeUpdate();
      ps.setInt(1, 3);
      ps.setInt(2, 7);
      ps.executeUpdate();
    }
    assertThat(rows(c, "SELECT c_num FROM all_types ORDER BY id")).containsExactly(List.of(new BigDecimal("2.35")),
        List.of(new BigDecimal("7.50")), List.of(new BigDecimal("7.00")));
  }

  /** As pgJDBC: numeric getters parse a text column (Hibernate reads information_schema.sequences so). */
  @Test
  void numericGettersReadNumbersFromText() throws SQLException {
    try (var s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT '42' AS a, ' -7 ' AS b, '9223372036854775807' AS big, '2.75' AS frac, 'x' AS bad, CAST(NULL AS TEXT) AS n")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong("a")).isEqualTo(42L);
      assertThat(rs.getInt(1)).isEqualTo(42);
      assertThat(rs.getShort("b")).isEqualTo((short) -7);
      assertThat(rs.getLong("big")).isEqualTo(Long.MAX_VALUE);
      assertThat(rs.getBigDecimal("frac")).isEqualByComparingTo("2.75");
      assertThat(rs.getDouble("frac")).isEqualTo(2.75);
      assertThat(rs.getInt("frac")).isEqualTo(2);
      assertThat(rs.getLong("n")).isZero();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getBigDecimal("n")).isNull();
      for (String column : List.of("bad", "big")) {
        try {
          rs.getInt(column);
          throw new AssertionError("no failure for " + column);
        } catch (SQLException e) {
          assertThat(e.getSQLState()).isEqualTo("22003");
          assertThat(e.getMessage()).startsWith("Bad value for type int");
        }
      }
    }
  }
}
