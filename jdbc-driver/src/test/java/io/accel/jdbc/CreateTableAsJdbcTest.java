package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a JDBC application sees of CREATE TABLE ... AS (the count of rows it inserted, as pgJDBC reports PostgreSQL's
 * "SELECT n"), INSERT ... DEFAULT VALUES with generated keys, and generated columns written through a prepared
 * statement and read back.
 */
class CreateTableAsJdbcTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void table() throws SQLException {
    c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE item (id INT PRIMARY KEY, price NUMERIC(10,2), qty INT,"
          + " total NUMERIC(12,2) GENERATED ALWAYS AS (price * qty) STORED)");
      s.execute("INSERT INTO item (id, price, qty) VALUES (1, 2.50, 4), (2, 10, 1), (3, 1, NULL)");
    }
  }

  @Test
  void createTableAsCountsTheRowsItInserted() throws SQLException {
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("CREATE TABLE big AS SELECT id, total FROM item WHERE total >= 10")).isEqualTo(2);
      try (ResultSet rs = s.executeQuery("SELECT id, total FROM big ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("10.00");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
        assertThat(rs.next()).isFalse();
      }
      assertThat(s.executeUpdate("CREATE TABLE none AS SELECT * FROM item WITH NO DATA")).isZero();
    }
  }

  @Test
  void generatedColumnsFollowTheirInputsThroughPreparedWrites() throws SQLException {
    try (PreparedStatement p = c.prepareStatement("UPDATE item SET qty = ? WHERE id = ?")) {
      p.setInt(1, 3);
      p.setInt(2, 3);
      assertThat(p.executeUpdate()).isEqualTo(1);
    }
    try (PreparedStatement p = c.prepareStatement("SELECT total FROM item WHERE id = ?")) {
      p.setInt(1, 3);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("3.00");
      }
    }
    // refused when the statement is prepared (pgJDBC would report it at its first execution)
    assertThatThrownBy(() -> {
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO item (id, price, qty, total) VALUES (?, ?, ?, ?)")) {
        p.setInt(1, 9);
        p.setInt(2, 1);
        p.setInt(3, 1);
        p.setInt(4, 99);
        p.executeUpdate();
      }
    }).isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("428C9");
  }

  @Test
  void insertDefaultValuesReturnsItsGeneratedKey() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE event (id BIGSERIAL PRIMARY KEY, kind TEXT DEFAULT 'ping')");
      s.executeUpdate("INSERT INTO event DEFAULT VALUES", Statement.RETURN_GENERATED_KEYS);
      try (ResultSet keys = s.getGeneratedKeys()) {
        assertThat(keys.next()).isTrue();
        assertThat(keys.getLong("id")).isEqualTo(1L);
        assertThat(keys.getString("kind")).isEqualTo("ping");
      }
    }
  }
}
