package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shallow caches of queries only the upstream can answer (a table the mirror does not hold, a function Accel lacks),
 * through {@code jdbc:accel:postgresql://}: the upstream's result is kept for the TTL and answers later identical
 * executions without asking the upstream, which the test proves by changing the row straight in PostgreSQL and
 * reading the old value until the TTL ends. DEEP caches of them are refused with the reason.
 */
class UpstreamShallowCacheTest extends FrontedDatabase {
  private static final String DB = "accel_shallow";

  @Override
  String database() {
    return DB;
  }

  @Override
  void createTables(Statement s) throws SQLException {
    s.execute("DROP TABLE IF EXISTS kv, notes");
    s.execute("CREATE TABLE kv (id int PRIMARY KEY, v text NOT NULL)");
    s.execute("INSERT INTO kv VALUES (1, 'a'), (2, 'bb')");
    // no primary key and no REPLICA IDENTITY FULL: not mirrored, its reads go upstream
    s.execute("CREATE TABLE notes (id int, v text)");
    s.execute("INSERT INTO notes VALUES (1, 'one'), (2, 'two')");
  }

  private Connection accel() throws SQLException {
    return accel("");
  }

  private static String one(PreparedStatement ps, int id) throws SQLException {
    ps.setInt(1, id);
    try (ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      String v = rs.getString(1);
      assertThat(rs.next()).isFalse();
      return v;
    }
  }

  private static List<String> row(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getString(i));
      }
    }
    return out;
  }

  private void upstreamSets(String sql) throws SQLException {
    try (Statement s = pg.createStatement()) {
      s.execute(sql);
    }
  }

  @Test
  void aProxiedResultIsKeptForItsTtlAndAnswersWithoutTheUpstream() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      String query = "SELECT v FROM notes WHERE id = ?";
      List<String> explain = row(c, "EXPLAIN CREATE CACHE FROM " + query);
      assertThat(explain.get(2)).isEqualTo("shallow only");
      assertThat(explain.get(3)).contains("not kept exact, because Accel cannot run it").contains("notes");

      // DEEP (the default) cannot be kept exact: nothing Accel applies says when the upstream's answer changes
      assertThatThrownBy(() -> s.execute("CREATE CACHE FROM " + query))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("cannot be cached exactly, because Accel cannot run it")
          .hasMessageContaining("only the upstream can answer it");
      assertThatThrownBy(() -> s.execute("CREATE DEEP CACHE FROM " + query)).isInstanceOf(SQLException.class);

      s.execute("CREATE SHALLOW CACHE POLICY TTL 3 SECONDS notes_by_id FROM " + query);
      try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("cache name")).isEqualTo("notes_by_id");
        assertThat(rs.getString("properties")).startsWith("shallow, ttl 3 s, upstream results");
      }

      try (PreparedStatement ps = c.prepareStatement(query)) {
        assertThat(one(ps, 1)).isEqualTo("one");
        long filled = System.nanoTime();
        String[] route = FrontingTest.lastRoute(c);
        assertThat(route[0]).isEqualTo("upstream");
        assertThat(route[1]).contains("not mirrored").contains("kept in shallow cache notes_by_id for 3 s");

        // changed straight in PostgreSQL: the kept result answers until its TTL ends
        upstreamSets("UPDATE notes SET v = 'uno' WHERE id = 1");
        ps.setInt(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
          // pgJDBC's own result set, described as the upstream described it
          assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("v");
          assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("text");
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString("v")).isEqualTo("one");
          assertThat(rs.next()).isFalse();
        }
        route = FrontingTest.lastRoute(c);
        assertThat(route[0]).isEqualTo("accel");
        assertThat(route[1]).startsWith("answered from shallow cache notes_by_id");
        assertThat(ps.execute()).isTrue(); // execute() and getResultSet() too
        try (ResultSet rs = ps.getResultSet()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("one");
        }
        assertThat(ps.getMoreResults()).isFalse();
        assertThat(ps.getUpdateCount()).isEqualTo(-1);
        // other parameter values are other results
        assertThat(one(ps, 2)).isEqualTo("two");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");

        String seen;
        do {
          seen = one(ps, 1);
        } while (seen.equals("one") && System.nanoTime() - filled < 10_000_000_000L);
        assertThat(seen).isEqualTo("uno");
        assertThat((System.nanoTime() - filled) / 1_000_000).as("ms until the new value").isGreaterThanOrEqualTo(2_900);
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
        assertThat(one(ps, 1)).isEqualTo("uno");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("accel");

        // in a transaction block every statement runs upstream, the cache is not used
        upstreamSets("UPDATE notes SET v = 'eins' WHERE id = 1");
        c.setAutoCommit(false);
        assertThat(one(ps, 1)).isEqualTo("eins");
        assertThat(FrontingTest.lastRoute(c)[1]).contains("transaction block");
        c.commit();
        c.setAutoCommit(true);
        // ... and a result read before the connection's last commit is not its to see any more
        assertThat(one(ps, 1)).isEqualTo("eins");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");

        // read-your-writes: the connection's own write is never hidden by a result kept before it
        assertThat(one(ps, 2)).isEqualTo("two");
        assertThat(one(ps, 2)).isEqualTo("two");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("accel");
        assertThat(s.executeUpdate("UPDATE notes SET v = 'zwei' WHERE id = 2")).isEqualTo(1);
        assertThat(one(ps, 2)).isEqualTo("zwei");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
        assertThat(one(ps, 2)).isEqualTo("zwei");
        assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("accel");
      }
      java.util.Map<String, String> status = new java.util.LinkedHashMap<>();
      try (ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
        while (rs.next()) {
          status.put(rs.getString("name"), rs.getString("value"));
        }
      }
      // the mirror's rows, then the store's figures as a standalone store reports them
      assertThat(status.keySet().iterator().next()).isEqualTo("mode");
      assertThat(status).containsEntry("mode", "fronting").containsEntry("replication", "streaming")
          .containsKeys("store size on disk (bytes)", "store memtables (bytes)", "uptime (s)");
      assertThat(Long.parseLong(status.get("result cache hits"))).isGreaterThanOrEqualTo(4);
      assertThat(status.get("result caches")).isEqualTo("1");
    }
    // the definition survives the mirror's restart (it closed with its last connection)
    try (Connection c = accel(); PreparedStatement ps = c.prepareStatement("SELECT v FROM notes WHERE id = ?")) {
      assertThat(one(ps, 1)).isEqualTo("eins");
      assertThat(one(ps, 1)).isEqualTo("eins");
      assertThat(FrontingTest.lastRoute(c)[1]).startsWith("answered from shallow cache notes_by_id");
      try (Statement s = c.createStatement()) {
        s.execute("DROP CACHE notes_by_id");
      }
      assertThat(one(ps, 1)).isEqualTo("eins");
      assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
    }
  }

  @Test
  void aFunctionAccelLacksIsCachedShallowOnAMirroredTable() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      String query = "SELECT v, pg_column_size(v) FROM kv WHERE id = 2";
      assertThat(row(c, query)).containsExactly("bb", "3");
      assertThat(FrontingTest.lastRoute(c)[1]).startsWith("not supported by Accel");
      assertThatThrownBy(() -> s.execute("CREATE CACHE FROM " + query))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("pg_column_size");
      // by its query id, as SHOW PROXIED QUERIES lists it; the default TTL
      String id = null;
      try (ResultSet rs = s.executeQuery("SHOW PROXIED QUERIES")) {
        while (rs.next()) {
          if (rs.getString(2).equals(query)) {
            id = rs.getString(1);
          }
        }
      }
      assertThat(id).isNotNull();
      s.execute("CREATE SHALLOW CACHE FROM " + id);
      assertThat(row(c, query)).containsExactly("bb", "3");
      upstreamSets("UPDATE kv SET v = 'cccc' WHERE id = 2");
      // the mirrored table changed, but the kept upstream result is not tracked: it answers for its TTL (10 s)
      assertThat(row(c, query)).containsExactly("bb", "3");
      assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("accel");
      // literals are part of the key: another id is another result
      assertThat(row(c, "SELECT v, pg_column_size(v) FROM kv WHERE id = 1")).containsExactly("a", "2");
      assertThat(FrontingTest.lastRoute(c)[0]).isEqualTo("upstream");
      try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("query id")).isEqualTo(id);
        assertThat(rs.getString("properties")).startsWith("shallow, ttl 10 s, upstream results, 2 results");
      }
    }
  }
}
