package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UPDATE ... FROM and DELETE ... USING through JDBC: the update counts PostgreSQL reports (a target row matched by
 * several rows of the list counts once) and parameters in the SET list, the FROM list and the WHERE clause, bound in
 * the order they are written.
 */
class UpdateFromTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void tables() throws SQLException {
    c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT, tier TEXT)");
      s.execute("CREATE TABLE movement (account_id INT, amount INT, batch INT)");
      s.execute("INSERT INTO account VALUES (1, 100, 'a'), (2, 200, 'a'), (3, 300, 'b')");
      s.execute("INSERT INTO movement VALUES (1, 10, 7), (1, 11, 7), (2, 20, 7), (3, 30, 8)");
    }
  }

  private int balance(int id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
      p.setInt(1, id);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getInt(1);
      }
    }
  }

  @Test
  void parametersAreBoundInTextOrderAndEachTargetRowCountsOnce() throws SQLException {
    String sql = "UPDATE account SET balance = balance + m.amount * ? FROM movement m "
        + "JOIN (VALUES (CAST(? AS INT))) AS b(batch) ON b.batch = m.batch WHERE account.id = m.account_id AND account.tier = ?";
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setInt(1, 2);
      p.setInt(2, 7);
      p.setString(3, "a");
      // account 1 is matched by two movements: updated once, as in PostgreSQL
      assertThat(p.executeUpdate()).isEqualTo(2);
    }
    assertThat(balance(1)).isIn(120, 122);
    assertThat(balance(2)).isEqualTo(240);
    assertThat(balance(3)).isEqualTo(300);
  }

  @Test
  void deleteUsingCountsTheDeletedRows() throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "DELETE FROM account a USING movement m WHERE m.account_id = a.id AND m.batch = ?")) {
      p.setInt(1, 7);
      assertThat(p.executeUpdate()).isEqualTo(2);
    }
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM account")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(3);
      assertThat(rs.next()).isFalse();
    }
  }
}
