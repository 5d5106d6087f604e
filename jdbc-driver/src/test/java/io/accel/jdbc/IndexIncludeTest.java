package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CREATE INDEX ... INCLUDE: the included columns answer queries from the index entry, kept current by writes. */
class IndexIncludeTest extends JdbcTestSupport {
  @TempDir
  Path dir;

  private static List<String> plan(Connection c, String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + sql)) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return lines;
  }

  @Test
  void includedColumnsCoverQueriesAndFollowWrites() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, amount NUMERIC(10,2), note TEXT)");
    update(c, "INSERT INTO t VALUES (1, 'a', 1.50, 'x'), (2, 'b', 2.00, 'y'), (3, 'a', NULL, 'z')");
    update(c, "CREATE INDEX t_k ON t (k) INCLUDE (amount)");
    update(c, "INSERT INTO t VALUES (4, 'a', 7.25, 'w')");
    update(c, "UPDATE t SET amount = 3.00 WHERE id = 1");
    update(c, "DELETE FROM t WHERE id = 3");

    String query = "SELECT id, amount FROM t WHERE k = 'a' AND amount > 2";
    List<String> lines = plan(c, query);
    assertThat(lines.get(0)).contains("access=[index t_k]").contains("covering=[true]").contains("icp=[");
    assertThat(String.join("\n", lines)).contains("rows fetched from tables: 0");
    assertThat(rows(c, query + " ORDER BY id")).containsExactly(
        List.of(1, new BigDecimal("3.00")), List.of(4, new BigDecimal("7.25")));
  }

  @Test
  void uniqueIndexWithIncludeKeepsUniquenessAndSurvivesReopen() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("db");
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      update(c, "CREATE TABLE u (id INTEGER PRIMARY KEY, code TEXT, qty INTEGER)");
      update(c, "CREATE UNIQUE INDEX u_code ON u (code) INCLUDE (qty)");
      update(c, "INSERT INTO u VALUES (1, 'p', 10), (2, 'q', 20), (3, NULL, 30), (4, NULL, 40)");
      expectState("23505", c, "INSERT INTO u VALUES (5, 'p', 50)");
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      String query = "SELECT id, qty FROM u WHERE code = 'q'";
      assertThat(plan(c, query).get(0)).contains("access=[index u_code]").contains("covering=[true]");
      assertThat(rows(c, query)).containsExactly(List.of(2, 20));
      assertThat(rows(c, "SELECT id, qty FROM u WHERE code IS NULL ORDER BY id"))
          .containsExactly(List.of(3, 30), List.of(4, 40));
    }
  }

  @Test
  void includeErrors() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE e (id INTEGER PRIMARY KEY, k TEXT)");
    expectState("42703", c, "CREATE INDEX e_k ON e (k) INCLUDE (nosuch)");
    expectState("42P10", c, "CREATE INDEX e_k ON e (k) INCLUDE (k)");
    expectState("42601", c, "CREATE INDEX e_k ON e (k) INCLUDE k");
    assertUsable(c);
  }
}
