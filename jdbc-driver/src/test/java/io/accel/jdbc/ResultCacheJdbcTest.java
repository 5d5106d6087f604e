package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Result caches as a JDBC user meets them: the cache statements, prepared reads answered from a cache, properties. */
class ResultCacheJdbcTest extends JdbcTestSupport {

  @Test
  void preparedReadsAreAnsweredFromTheCacheWithTheirColumnsAndFreshAfterAWrite() throws SQLException {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Metrics.addRegistry(meters);
    try {
      Connection c = connect();
      update(c, "CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(20), dept CHAR(4))");
      update(c, "INSERT INTO emp VALUES (1, 'ann', 'ops'), (2, 'bob', 'dev')");
      update(c, "CREATE CACHE emp_by_id FROM SELECT name, dept FROM emp WHERE id = ?");
      try (PreparedStatement ps = c.prepareStatement("SELECT name, dept FROM emp WHERE id = ?")) {
        for (int i = 0; i < 3; i++) {
          ps.setInt(1, 1);
          try (ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            assertThat(md.getColumnLabel(1)).isEqualTo("name");
            assertThat(md.getColumnLabel(2)).isEqualTo("dept");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ann");
            assertThat(rs.getString(2)).isEqualTo("ops "); // CHAR(4) padded, from the cache too
            assertThat(rs.next()).isFalse();
          }
        }
        update(c, "UPDATE emp SET name = 'anne' WHERE id = 1");
        ps.setInt(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("anne");
        }
      }
      assertThat(meters.get("accel.result.cache.hits").functionCounter().count()).isEqualTo(2);
      assertThat(meters.get("accel.result.cache.invalidations").tag("kind", "key").functionCounter().count())
          .isEqualTo(1);
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("query id");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("cache name")).isEqualTo("emp_by_id");
        assertThat(rs.getString("query text")).isEqualTo("SELECT name, dept FROM emp WHERE id = ?");
        assertThat(rs.getString("properties")).startsWith("deep");
        assertThat(rs.getLong("count")).isEqualTo(2);
      }
      expectState("42710", c, "CREATE CACHE emp_by_id FROM SELECT id FROM emp");
      expectState("42704", c, "DROP CACHE nope");
      update(c, "DROP ALL CACHES");
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.next()).isFalse();
      }
    } finally {
      Metrics.removeRegistry(meters);
    }
  }

  @Test
  void propertiesTurnTheCacheOffOrOnForEveryQueryAndRejectBadValues() throws SQLException {
    Connection off = connect(url + "_off?resultCacheSize=0");
    expectState("0A000", off, "CREATE CACHE FROM SELECT 1");
    expectState("22023", () -> connect(url + "_bad?autoCache=sometimes"));
    expectState("22023", () -> connect(url + "_bad2?resultCacheSize=lots"));

    Connection auto = connect(url + "_auto?autoCache=true");
    update(auto, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    update(auto, "INSERT INTO t VALUES (1, 10)");
    for (int i = 0; i < 3; i++) {
      assertThat(scalar(auto, "SELECT v FROM t WHERE id = 1")).isEqualTo(10);
    }
    try (Statement s = auto.createStatement(); ResultSet rs = s.executeQuery("SHOW CACHES")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("properties")).contains("auto");
      assertThat(rs.getLong("count")).isEqualTo(1);
    }
    // in a transaction block the block's snapshot answers, not the cache
    auto.setAutoCommit(false);
    update(auto, "UPDATE t SET v = 11 WHERE id = 1");
    assertThat(scalar(auto, "SELECT v FROM t WHERE id = 1")).isEqualTo(11);
    auto.rollback();
    auto.setAutoCommit(true);
    assertThat(scalar(auto, "SELECT v FROM t WHERE id = 1")).isEqualTo(10);
  }
}
