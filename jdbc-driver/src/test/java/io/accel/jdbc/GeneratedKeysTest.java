package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JDBC's generated keys on a standalone store, as pgJDBC gives them: RETURN_GENERATED_KEYS returns every column
 * of the rows written (pgJDBC adds RETURNING *), column names or indexes only those; the execution itself reports
 * its row count; RETURNING written by the application comes back as a result set.
 */
class GeneratedKeysTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void table() throws SQLException {
    c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20), qty INT DEFAULT 5)");
    }
  }

  private static List<String> keyRows(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      StringBuilder b = new StringBuilder();
      for (int i = 1; i <= n; i++) {
        b.append(i > 1 ? "," : "").append(rs.getString(i));
      }
      out.add(b.toString());
    }
    rs.close();
    return out;
  }

  @Test
  void statementExecuteUpdateWithReturnGeneratedKeysGivesEveryColumnOfTheInsertedRows() throws SQLException {
    try (Statement s = c.createStatement()) {
      int n = s.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b')",
          Statement.RETURN_GENERATED_KEYS);
      assertThat(n).isEqualTo(2);
      ResultSet keys = s.getGeneratedKeys();
      assertThat(keys.getMetaData().getColumnLabel(1)).isEqualTo("id");
      assertThat(keyRows(keys)).containsExactly("1,a,5", "2,b,5");
    }
  }

  @Test
  void columnNamesAndIndexesSelectTheKeyColumns() throws SQLException {
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("INSERT INTO item (id, name) VALUES (3, 'c')", new String[] {"qty", "id"}))
          .isEqualTo(1);
      assertThat(keyRows(s.getGeneratedKeys())).containsExactly("5,3");
      assertThat(s.execute("UPDATE item SET qty = qty + 1 WHERE id = 3", new int[] {3})).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(1);
      assertThat(keyRows(s.getGeneratedKeys())).containsExactly("6");
    }
  }

  @Test
  void preparedStatementReturnsKeysOfEachExecutionAndOfAWholeBatch() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)",
        Statement.RETURN_GENERATED_KEYS)) {
      ps.setInt(1, 10);
      ps.setString(2, "x");
      assertThat(ps.executeUpdate()).isEqualTo(1);
      assertThat(keyRows(ps.getGeneratedKeys())).containsExactly("10,x,5");
      for (int i = 11; i <= 13; i++) {
        ps.setInt(1, i);
        ps.setString(2, "b" + i);
        ps.addBatch();
      }
      assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
      assertThat(keyRows(ps.getGeneratedKeys())).containsExactly("11,b11,5", "12,b12,5", "13,b13,5");
    }
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM item WHERE id > ?", new String[] {"id"})) {
      ps.setInt(1, 11);
      assertThat(ps.executeUpdate()).isEqualTo(2);
      assertThat(keyRows(ps.getGeneratedKeys())).containsExactly("12", "13");
    }
  }

  @Test
  void noKeysRequestedOrNoRowsGivesAnEmptyResult() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO item (id) VALUES (20)");
      assertThat(keyRows(s.getGeneratedKeys())).isEmpty();
      assertThat(s.executeUpdate("DELETE FROM item WHERE id = 99", Statement.RETURN_GENERATED_KEYS)).isZero();
      assertThat(keyRows(s.getGeneratedKeys())).isEmpty();
      assertThat(s.executeUpdate("INSERT INTO item (id) VALUES (21)", Statement.NO_GENERATED_KEYS)).isEqualTo(1);
      assertThat(keyRows(s.getGeneratedKeys())).isEmpty();
    }
  }

  @Test
  void returningWrittenByTheApplicationIsAResultSet() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?) RETURNING id * 2, name")) {
      ps.setInt(1, 30);
      ps.setString(2, "r");
      assertThat(ps.execute()).isTrue();
      assertThat(keyRows(ps.getResultSet())).containsExactly("60,r");
    }
    try (Statement s = c.createStatement()) {
      assertThat(keyRows(s.executeQuery("UPDATE item SET name = 'z' WHERE id = 30 RETURNING name, qty")))
          .containsExactly("z,5");
      SQLException e = expectState(JdbcErrors.RESULT_WHEN_NONE_EXPECTED,
          () -> s.executeUpdate("DELETE FROM item WHERE id = 30 RETURNING id"));
      assertThat(e.getMessage()).contains("result was returned");
    }
  }
}
