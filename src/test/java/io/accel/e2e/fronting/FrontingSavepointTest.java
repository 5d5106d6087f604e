package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Savepoints through {@code jdbc:accel:postgresql://}: SQL and JDBC savepoints run upstream, in its transaction. */
class FrontingSavepointTest extends FrontedDatabase {
  private static final String DB = "accel_fronting_sp";

  @Override
  String database() {
    return DB;
  }

  @Override
  void createTables(Statement s) throws SQLException {
    s.execute("DROP TABLE IF EXISTS item");
    s.execute("CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)");
    s.execute("INSERT INTO item VALUES (1, 'one')");
  }

  private static List<Integer> ids(Connection c) throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM item ORDER BY id")) {
      while (rs.next()) {
        out.add(rs.getInt(1));
      }
    }
    return out;
  }

  @Test
  void jdbcAndSqlSavepointsRunUpstream() throws SQLException {
    try (Connection c = accel(""); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO item VALUES (2, 'two')");
      Savepoint sp = c.setSavepoint("before_three");
      assertThat(sp.getSavepointName()).isEqualTo("before_three");
      s.executeUpdate("INSERT INTO item VALUES (3, 'three')");
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO item VALUES (1, 'dup')"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"));
      c.rollback(sp);
      assertThat(ids(c)).containsExactly(1, 2);
      assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
      Savepoint unnamed = c.setSavepoint();
      s.executeUpdate("INSERT INTO item VALUES (4, 'four')");
      c.releaseSavepoint(unnamed);
      c.commit();
      c.setAutoCommit(true);
      assertThat(ids(pg)).containsExactly(1, 2, 4);

      // SQL savepoints in a block begun with BEGIN
      s.execute("BEGIN");
      s.execute("INSERT INTO item VALUES (5, 'five')");
      s.execute("SAVEPOINT a");
      assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
      s.execute("DELETE FROM item");
      s.execute("ROLLBACK TO SAVEPOINT a");
      s.execute("RELEASE a");
      s.execute("COMMIT");
      assertThat(ids(pg)).containsExactly(1, 2, 4, 5);
      // outside a block PostgreSQL answers, with its SQLSTATE
      assertThatThrownBy(() -> s.execute("SAVEPOINT x"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25P01"));
    }
  }
}
