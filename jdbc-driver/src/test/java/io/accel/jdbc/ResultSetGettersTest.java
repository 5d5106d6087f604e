package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The getters applications call for every value, as pgJDBC answers them on PostgreSQL: the Java class getObject
 * returns per type, NULLs and wasNull across getters that read the row directly and those that convert, numbers
 * from text, labels in any case, and errors before the first row, after the last and after close.
 */
class ResultSetGettersTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void load() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, big BIGINT, name VARCHAR(20), ok BOOLEAN, "
        + "ratio DOUBLE PRECISION, price NUMERIC(10,2), at TIMESTAMP, day DATE, digits VARCHAR(10))");
    update(c, "INSERT INTO t VALUES (1, 10000000000, 'one', true, 0.5, 12.30, TIMESTAMP '2026-01-02 03:04:05', "
        + "DATE '2026-01-02', '42')");
    update(c, "INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
  }

  @Test
  void getObjectReturnsPgJdbcsClassPerType() throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, big, name, ok, ratio, price FROM t WHERE id = 1")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1)).isEqualTo(1);
      assertThat(rs.getObject(2)).isEqualTo(10_000_000_000L);
      assertThat(rs.getObject(3)).isEqualTo("one");
      assertThat(rs.getObject(4)).isEqualTo(Boolean.TRUE);
      assertThat(rs.getObject(5)).isEqualTo(0.5d);
      assertThat(rs.getObject(6)).isEqualTo(new BigDecimal("12.30"));
      assertThat(rs.getObject("NAME")).isEqualTo("one");
      assertThat(rs.getLong(1)).isEqualTo(1L);
      assertThat(rs.getString(1)).isEqualTo("1");
      assertThat(rs.getInt("Id")).isEqualTo(1);
      assertThat(rs.getDouble("ratio")).isEqualTo(0.5d);
      assertThat(rs.getBoolean(4)).isTrue();
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void getStringOfTimesArraysBooleansAndFloatsIsPostgresText() throws SQLException {
    // pgJDBC returns the server's text: no ".000" on whole seconds, arrays in braces, timestamptz with its offset,
    // booleans as t and f, floats without a ".0"
    update(c, "SET TIME ZONE 'UTC'");
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT at, at + INTERVAL '1' SECOND * 3, date_trunc('month', at),"
            + " TIME '10:00:00' + INTERVAL '1' MINUTE, CAST(at AS TIMESTAMP WITH TIME ZONE), ARRAY[id, 7],"
            + " ARRAY['a', 'b c', NULL], at + INTERVAL '0.25' SECOND, ok, ratio * 4096, ratio FROM t ORDER BY id")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("2026-01-02 03:04:05");
      assertThat(rs.getString(2)).isEqualTo("2026-01-02 03:04:08");
      assertThat(rs.getString(3)).isEqualTo("2026-01-01 00:00:00");
      assertThat(rs.getString(4)).isEqualTo("10:01:00");
      assertThat(rs.getString(5)).isEqualTo("2026-01-02 03:04:05+00");
      assertThat(rs.getString(6)).isEqualTo("{1,7}");
      assertThat(rs.getString(7)).isEqualTo("{a,\"b c\",NULL}");
      assertThat(rs.getString(8)).isEqualTo("2026-01-02 03:04:05.25");
      assertThat(rs.getString(9)).isEqualTo("t");
      assertThat(rs.getBoolean(9)).isTrue();
      assertThat(rs.getString(10)).isEqualTo("2048");
      assertThat(rs.getString(11)).isEqualTo("0.5");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isNull();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getString(6)).isEqualTo("{2,7}");
      assertThat(rs.wasNull()).isFalse();
      assertThat(rs.getTimestamp(1)).isNull();
    }
  }

  @Test
  void getStringOfTimestamptzFollowsSetTimeZone() throws SQLException {
    // pgJDBC's getString is the server's text, printed in the session's zone; the driver printed in the zone the
    // connection opened with
    for (String[] zoneAndText : new String[][] {{"America/New_York", "2024-01-01 07:00:00-05"},
        {"Asia/Tokyo", "2024-01-01 21:00:00+09"}}) {
      update(c, "SET TIME ZONE '" + zoneAndText[0] + "'");
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT TIMESTAMPTZ '2024-01-01 12:00:00+00', id FROM t WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo(zoneAndText[1]);
      }
    }
  }

  @Test
  void getStringOfNumericIsPlainDecimals() throws SQLException {
    // PostgreSQL's text of a numeric never has an exponent (BigDecimal.toString printed 0E-20)
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT avg(price * 0), avg(price), 0.000000000000000000001::numeric(30,21)"
            + " FROM t")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("0.00000000000000000000");
      assertThat(rs.getString(2)).isEqualTo("12.3000000000000000");
      assertThat(rs.getString(3)).isEqualTo("0.000000000000000000001");
      assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("0");
    }
  }

  @Test
  void arraysReadAsPgJdbcsBoxedArrays() throws SQLException {
    // pgJDBC's getArray() is an array of the element's boxed class, NULL elements included; Avatica's was a
    // primitive int[] (an Integer[] cast failed) and failed on a NULL element
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT ARRAY[id, 7], ARRAY[id, NULL], ARRAY['a', 'b c', NULL, ''],"
            + " ARRAY[big], ARRAY[ok, NOT ok], ARRAY[price], ARRAY[id] || 3 FROM t WHERE id = 1")) {
      assertThat(rs.next()).isTrue();
      assertThat((Integer[]) rs.getArray(1).getArray()).containsExactly(1, 7);
      assertThat(rs.getArray(1).getBaseTypeName()).isEqualTo("int4");
      assertThat((Integer[]) rs.getArray(2).getArray()).containsExactly(1, null);
      assertThat((String[]) rs.getArray(3).getArray()).containsExactly("a", "b c", null, "");
      assertThat(rs.getArray(3).getBaseTypeName()).isEqualTo("text");
      assertThat((Long[]) rs.getArray(4).getArray()).containsExactly(10_000_000_000L);
      assertThat((Boolean[]) rs.getArray(5).getArray()).containsExactly(true, false);
      assertThat((BigDecimal[]) rs.getArray(6).getArray()).containsExactly(new BigDecimal("12.30"));
      assertThat((Integer[]) rs.getArray(7).getArray(2, 1)).containsExactly(3);
      assertThat(rs.getObject(2)).isInstanceOf(java.sql.Array.class);
      assertThat(rs.getObject(2).toString()).isEqualTo("{1,NULL}");
      assertThat(rs.getObject(3).toString()).isEqualTo("{a,\"b c\",NULL,\"\"}");
    }
  }

  @Test
  void getStringOfASingleColumnIsPostgresTextToo() throws SQLException {
    // a result of one column is the cursor's values themselves, not rows of one value
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT at + INTERVAL '1' SECOND FROM t ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("2026-01-02 03:04:06");
        assertThat(rs.getTimestamp(1)).isEqualTo(Timestamp.valueOf("2026-01-02 03:04:06"));
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isNull();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.next()).isFalse();
      }
      try (ResultSet rs = s.executeQuery("SELECT ok FROM t ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("t");
        assertThat(rs.getBoolean(1)).isTrue();
        assertThat(rs.getObject(1)).isEqualTo(Boolean.TRUE);
      }
      try (ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
        assertThat(rs.getObject(1)).isEqualTo(1);
        assertThat(rs.getString(1)).isEqualTo("1");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(2L);
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void nullsReadAsPgJdbcDefaultsAndWasNullFollowsTheLastGetter() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT id, big, name, ok, ratio, at, day FROM t ORDER BY id")) {
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.next()).isTrue(); // the row of NULLs
        assertThat(rs.getLong(2)).isZero();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
        assertThat(rs.wasNull()).isFalse();
        assertThat(rs.getString(3)).isNull();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getBoolean(4)).isFalse();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getDouble(5)).isZero();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getObject(1)).isEqualTo(2);
        assertThat(rs.wasNull()).isFalse();
        // a converting getter after a direct one, and the other way round
        assertThat(rs.getTimestamp(6)).isNull();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
        assertThat(rs.wasNull()).isFalse();
        assertThat(rs.getDate(7)).isNull();
        assertThat(rs.wasNull()).isTrue();
        assertThat(rs.getObject(3)).isNull();
        assertThat(rs.wasNull()).isTrue();
      }
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(3)).isEqualTo("one");
        assertThat(rs.getTimestamp(6)).isEqualTo(Timestamp.valueOf("2026-01-02 03:04:05"));
        assertThat(rs.wasNull()).isFalse();
        assertThat(rs.getObject(2)).isEqualTo(10_000_000_000L);
        assertThat(rs.wasNull()).isFalse();
      }
    }
  }

  @Test
  void numbersAreReadFromText() throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT digits, name FROM t WHERE id = 1")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(42);
      assertThat(rs.getLong("digits")).isEqualTo(42L);
      assertThat(rs.getBigDecimal(1)).isEqualTo(new BigDecimal("42"));
      assertThatThrownBy(() -> rs.getInt(2)).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
    }
  }

  @Test
  void gettersOffARowOrAfterCloseFail() throws SQLException {
    try (Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT id, name FROM t WHERE id = 1");
      assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class);
      assertThat(rs.next()).isTrue();
      assertThatThrownBy(() -> rs.getInt(3)).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
      assertThatThrownBy(() -> rs.getString("nope")).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42703"));
      assertThat(rs.next()).isFalse();
      assertThatThrownBy(() -> rs.getString(2)).isInstanceOf(SQLException.class);
      rs.close();
      assertThat(rs.isClosed()).isTrue();
      assertThatThrownBy(() -> rs.getObject(1)).isInstanceOf(SQLException.class);
      assertThatThrownBy(() -> rs.getString(2)).isInstanceOf(SQLException.class);
    }
  }

  @Test
  void aResultSetIsItselfAndKnowsItsStatement() throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t")) {
      assertThat(rs.getStatement()).isSameAs(s);
      assertThat(rs.unwrap(ResultSet.class)).isSameAs(rs);
      assertThat(rs.isWrapperFor(ResultSet.class)).isTrue();
      assertThat(rs).isEqualTo(rs);
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
    }
  }
}
