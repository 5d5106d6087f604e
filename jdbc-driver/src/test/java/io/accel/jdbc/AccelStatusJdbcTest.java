package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SHOW ACCEL STATUS and SHOW ACCEL TABLES on standalone stores, in the columns fronting mode answers in. */
class AccelStatusJdbcTest extends JdbcTestSupport {
  @TempDir
  Path dir;

  static Map<String, String> status(Connection c) throws SQLException {
    Map<String, String> m = new LinkedHashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(2);
      assertThat(md.getColumnLabel(1)).isEqualTo("name");
      assertThat(md.getColumnLabel(2)).isEqualTo("value");
      assertThat(md.getColumnType(2)).isEqualTo(java.sql.Types.VARCHAR);
      while (rs.next()) {
        m.put(rs.getString(1), rs.getString(2));
      }
    }
    return m;
  }

  static List<List<String>> tables(Connection c) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("show accel tables;")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(List.of(md.getColumnLabel(1), md.getColumnLabel(2), md.getColumnLabel(3)))
          .containsExactly("table", "status", "description");
      while (rs.next()) {
        rows.add(List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
      }
    }
    return rows;
  }

  @Test
  void anInMemoryStoreDescribesItselfItsTablesAndItsCaches() throws SQLException {
    Connection c = connect();
    assertThat(tables(c)).isEmpty();
    update(c, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
    update(c, "CREATE TABLE a (id INT PRIMARY KEY)");
    update(c, "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    update(c, "CREATE CACHE t_by_id FROM SELECT v FROM t WHERE id = ?");
    try (var ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      for (int i = 0; i < 3; i++) {
        ps.setInt(1, 2);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
        }
      }
    }
    Map<String, String> m = status(c);
    assertThat(m.get("mode")).isEqualTo("standalone");
    assertThat(m.get("store")).isEqualTo(url.substring("jdbc:accel:".length()));
    assertThat(m.get("tables")).isEqualTo("2");
    assertThat(m.get("result caches")).isEqualTo("1");
    assertThat(m.get("cached results")).isEqualTo("1");
    assertThat(Long.parseLong(m.get("result cache memory (bytes)"))).isPositive();
    assertThat(m.get("result cache hits")).isEqualTo("2");
    assertThat(Long.parseLong(m.get("store memtables (bytes)"))).isPositive();
    assertThat(m).containsKeys("store size on disk (bytes)", "row cache memory (bytes)", "row cache size (bytes)");
    assertThat(Long.parseLong(m.get("uptime (s)"))).isNotNegative();
    // the row counts come from the statistics the commits keep up to date
    assertThat(tables(c)).containsExactly(List.of("a", "online", "about 0 rows"),
        List.of("t", "online", "about 3 rows"));
  }

  @Test
  void aFileStoreNamesItsDirectoryAndWorksInsideATransactionBlock() throws SQLException {
    Connection c = connect("jdbc:accel:file:" + dir);
    update(c, "CREATE TABLE t (id INT PRIMARY KEY)");
    update(c, "INSERT INTO t SELECT * FROM (VALUES (1), (2)) AS v(x)");
    c.setAutoCommit(false);
    update(c, "INSERT INTO t VALUES (3)");
    Map<String, String> m = status(c);
    assertThat(m.get("store")).isEqualTo(dir.toString());
    assertThat(m.get("mode")).isEqualTo("standalone");
    c.commit();
    assertThat(tables(c)).containsExactly(List.of("t", "online", "about 3 rows"));
  }
}
