package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** INSERT ... ON CONFLICT through the driver: parameters in VALUES, SET and RETURNING, in that order. */
class UpsertJdbcTest extends JdbcTestSupport {

  @Test
  void parametersOfValuesSetAndReturningBindInTextOrder() throws SQLException {
    Connection c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v INT NOT NULL)");
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO kv VALUES (?, ?) ON CONFLICT (k)"
        + " DO UPDATE SET v = kv.v + ? WHERE kv.v < ? RETURNING k, v * ?")) {
      int[][] runs = {{1, 100, 1000, 10}, {2, 100, 1000, 10}, {3, 100, 1000, 10}, {4, 100, 1000, 10}};
      String[] expected = {"a,10", "a,1010", "a,2010", null};
      for (int i = 0; i < runs.length; i++) {
        ps.setString(1, "a");
        ps.setInt(2, runs[i][0]);
        ps.setInt(3, runs[i][1]);
        ps.setInt(4, runs[i][2] - (i == 3 ? 1000 : 0));
        ps.setInt(5, runs[i][3]);
        try (ResultSet rs = ps.executeQuery()) {
          if (expected[i] == null) {
            assertThat(rs.next()).isFalse();
          } else {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1) + "," + rs.getInt(2)).isEqualTo(expected[i]);
          }
        }
      }
    }
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM kv")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(201);
    }
  }
}
