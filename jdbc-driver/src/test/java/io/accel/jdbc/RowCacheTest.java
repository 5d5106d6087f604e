package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.cache.RowCache;
import io.accel.exec.Database;
import io.accel.exec.StoreRegistry;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MVCC row cache as a user of the driver meets it: the {@code rowCacheSize} property, every fetch by
 * primary key served from it the third time (a row's first miss only marks it, the second installs it) (a point lookup, the rows of an index scan, both kinds of lookup
 * join), writes of other connections and of one's own transaction seen at once, a transaction block's snapshot
 * kept across another connection's commit, and its size and hit rate in the metrics.
 *
 * <p>Table {@code item(id INTEGER PRIMARY KEY, kind INTEGER, name VARCHAR)} with index {@code item_kind (kind)}:
 * ids 1..40, kind = id % 4, name 'n' || id; ids 41..200 of kinds 141..300, one each. Table {@code pick(id INTEGER PRIMARY KEY, item_id INTEGER, kind
 * INTEGER)}: 3 rows pointing at items 5, 6, 7 and at kind 1.
 */
class RowCacheTest extends JdbcTestSupport {
  private Connection c;
  private Database database;
  private SimpleMeterRegistry meters;

  @BeforeEach
  void createTables() throws SQLException {
    meters = new SimpleMeterRegistry();
    Metrics.addRegistry(meters);
    c = connect();
    database = StoreRegistry.acquire(url.substring("jdbc:accel:".length()), StoreOptions.DEFAULTS);
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, kind INTEGER, name VARCHAR(20))");
    update(c, "CREATE INDEX item_kind ON item (kind)");
    StringBuilder values = new StringBuilder();
    for (int id = 1; id <= 40; id++) {
      values.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 4).append(", 'n")
          .append(id).append("')");
    }
    // rows of kinds of their own, so that a kind's ten rows are 5% of the table: read through the index
    for (int id = 41; id <= 200; id++) {
      values.append(", (").append(id).append(", ").append(100 + id).append(", 'n").append(id).append("')");
    }
    update(c, "INSERT INTO item VALUES " + values);
    update(c, "CREATE TABLE pick (id INTEGER PRIMARY KEY, item_id INTEGER, kind INTEGER)");
    update(c, "INSERT INTO pick VALUES (1, 5, 1), (2, 6, 1), (3, 7, 1)");
    update(c, "ANALYZE");
  }

  @AfterEach
  void release() {
    StoreRegistry.release(database);
    Metrics.removeRegistry(meters);
  }

  private RowCache cache() {
    return database.rowCache();
  }

  private long hits() {
    return cache().stats().hitCount();
  }

  /**
   * Runs a query three times (the first miss of a row only marks it, the second installs it); returns the rows
   * (the same every time) and the row-cache hits of the third run.
   */
  private long hitsOfThirdRun(String sql, List<String> expectedRows) throws SQLException {
    assertThat(texts(c, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expectedRows);
    assertThat(texts(c, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expectedRows);
    long before = hits();
    assertThat(texts(c, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expectedRows);
    return hits() - before;
  }

  @Test
  void everyFetchByPrimaryKeyIsServedFromTheCacheTheThirdTime() throws SQLException {
    assertThat(plan(c, "SELECT name FROM item WHERE id = 7")).doesNotContain("item_kind");
    assertThat(hitsOfThirdRun("SELECT name FROM item WHERE id = 7", List.of("n7"))).isEqualTo(1);

    // index scan: ten entries of kind 2, each row fetched by its primary key
    assertThat(plan(c, "SELECT name FROM item WHERE kind = 2")).contains("item_kind");
    List<String> kind2 = new ArrayList<>();
    for (int id = 2; id <= 40; id += 4) {
      kind2.add("n" + id);
    }
    assertThat(hitsOfThirdRun("SELECT name FROM item WHERE kind = 2", kind2)).isEqualTo(10);

    // lookup join by primary key: three items
    String byKey = "SELECT p.id, i.name FROM pick p JOIN item i ON i.id = p.item_id";
    assertThat(plan(c, byKey)).containsAnyOf("IndexLookupJoin", "DirectLookupJoin");
    assertThat(hitsOfThirdRun(byKey, List.of("1|n5", "2|n6", "3|n7"))).isEqualTo(3);

    // lookup join through the index: kind 1 has ten items, fetched once per distinct key
    String byIndex = "SELECT i.name FROM pick p JOIN item i ON i.kind = p.kind WHERE p.id = 1";
    assertThat(plan(c, byIndex)).containsAnyOf("IndexLookupJoin", "DirectLookupJoin").contains("item_kind");
    List<String> kind1 = new ArrayList<>();
    for (int id = 1; id <= 40; id += 4) {
      kind1.add("n" + id);
    }
    assertThat(hitsOfThirdRun(byIndex, kind1)).as("pick's row by its primary key, then ten items").isEqualTo(11);
  }

  @Test
  void writesOfAnotherConnectionAreSeenAtOnce() throws SQLException {
    Connection other = connect();
    assertThat(texts(c, "SELECT name FROM item WHERE id = 3")).containsExactly("n3");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 3")).containsExactly("n3");
    update(other, "UPDATE item SET name = 'changed' WHERE id = 3");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 3")).containsExactly("changed");
    update(other, "DELETE FROM item WHERE id = 3");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 3")).isEmpty();
    assertThat(texts(c, "SELECT name FROM item WHERE kind = 3 AND id < 10")).containsExactlyInAnyOrder("n7");
    update(other, "INSERT INTO item VALUES (3, 3, 'back')");
    assertThat(texts(c, "SELECT name FROM item WHERE kind = 3 AND id < 10")).containsExactlyInAnyOrder("back", "n7");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 3")).containsExactly("back");
  }

  @Test
  void aTransactionSeesItsOwnWritesAndKeepsItsSnapshot() throws SQLException {
    Connection other = connect();
    texts(other, "SELECT name FROM item WHERE id = 9");
    texts(other, "SELECT name FROM item WHERE id = 9");
    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    c.setAutoCommit(false);
    assertThat(texts(c, "SELECT name FROM item WHERE id = 9")).containsExactly("n9");
    update(other, "UPDATE item SET name = 'later' WHERE id = 9");
    long before = hits();
    assertThat(texts(c, "SELECT name FROM item WHERE id = 9")).as("the block's snapshot").containsExactly("n9");
    assertThat(hits() - before).as("the superseded version served the old snapshot").isEqualTo(1);
    assertThat(texts(other, "SELECT name FROM item WHERE id = 9")).containsExactly("later");

    update(c, "UPDATE item SET name = 'mine' WHERE id = 10");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 10")).containsExactly("mine");
    assertThat(texts(c, "SELECT name FROM item WHERE kind = 2 AND id BETWEEN 9 AND 11")).containsExactly("mine");
    assertThat(texts(other, "SELECT name FROM item WHERE id = 10")).containsExactly("n10");
    c.rollback();
    assertThat(texts(c, "SELECT name FROM item WHERE id = 10")).containsExactly("n10");
    assertThat(texts(c, "SELECT name FROM item WHERE id = 9")).containsExactly("later");
    c.commit();
  }

  @Test
  void sizeAndHitRateAreInTheMetrics() throws SQLException {
    texts(c, "SELECT name FROM item WHERE kind = 1");
    texts(c, "SELECT name FROM item WHERE kind = 1");
    texts(c, "SELECT name FROM item WHERE kind = 1");
    cache().cleanUp();
    String store = url.substring("jdbc:accel:".length());
    assertThat(meters.get("cache.gets").tags("cache", "accel.row", "result", "hit", "store", store)
        .functionCounter().count()).isEqualTo(10);
    assertThat(meters.get("cache.gets").tags("cache", "accel.row", "result", "miss", "store", store)
        .functionCounter().count()).isEqualTo(20);
    assertThat(meters.get("cache.size").tags("cache", "accel.row", "store", store).gauge().value()).isEqualTo(10);
    assertThat(meters.get("accel.row.cache.bytes").tags("store", store).gauge().value()).isPositive();
    assertThat(meters.get("accel.row.cache.hit.ratio").tags("store", store).gauge().value()).isEqualTo(1.0 / 3);
  }

  @Test
  void aStoreReopenedInTheSameJvmShowsItsNewCachesMeters() throws SQLException {
    String store = "mem:" + getClass().getSimpleName() + "_reopen";
    try (Connection first = java.sql.DriverManager.getConnection("jdbc:accel:" + store + "?rowCacheSize=1MB")) {
      assertThat(meters.get("accel.row.cache.max.bytes").tags("store", store).gauge().value()).isEqualTo(1 << 20);
    }
    assertThat(meters.find("accel.row.cache.max.bytes").tags("store", store).gauge()).as("closed store").isNull();
    assertThat(meters.find("cache.gets").tags("cache", "accel.row", "store", store).meters()).isEmpty();
    try (Connection second = java.sql.DriverManager.getConnection("jdbc:accel:" + store + "?rowCacheSize=2MB")) {
      assertThat(meters.get("accel.row.cache.max.bytes").tags("store", store).gauge().value()).isEqualTo(2 << 20);
    }
  }

  @Test
  void droppingATableEmptiesItsEntries() throws SQLException {
    texts(c, "SELECT name FROM item WHERE kind = 0");
    texts(c, "SELECT name FROM item WHERE kind = 0");
    cache().cleanUp();
    assertThat(cache().entries()).isEqualTo(10);
    update(c, "DROP TABLE item");
    cache().cleanUp();
    assertThat(cache().entries()).isZero();
  }

  @Test
  void rowCacheSizeConnectionProperty() throws SQLException {
    String base = "jdbc:accel:mem:" + getClass().getSimpleName() + "_property_";
    Connection off = connect(base + "off?rowCacheSize=0");
    update(off, "CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(5))");
    update(off, "INSERT INTO t VALUES (1, 'a')");
    assertThat(texts(off, "SELECT v FROM t WHERE id = 1")).containsExactly("a");
    Database offStore = StoreRegistry.acquire("mem:" + getClass().getSimpleName() + "_property_off", StoreOptions.DEFAULTS);
    try {
      assertThat(offStore.rowCache()).isNull();
    } finally {
      StoreRegistry.release(offStore);
    }
    Connection sized = connect(base + "sized?rowCacheSize=3MB");
    Database sizedStore = StoreRegistry.acquire("mem:" + getClass().getSimpleName() + "_property_sized",
        StoreOptions.DEFAULTS);
    try {
      assertThat(sizedStore.rowCache().maxBytes()).isEqualTo(3L << 20);
    } finally {
      StoreRegistry.release(sizedStore);
    }
    sized.close();
    assertThat(StoreOptions.DEFAULTS.rowCacheBytes()).isEqualTo(
        Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4));
    expectState("22023", () -> connect(base + "bad?rowCacheSize=-1"));
    SQLException e = expectState("22023", () -> connect(base + "bad?rowCacheSize=lots"));
    assertThat(e.getMessage()).contains("rowCacheSize").contains("lots");
    expectState("22023", () -> connect(base + "bad?blockCacheSize=0"));
  }

  // --- helpers

  /** The rows of a query, columns joined by '|'. */
  private static List<String> texts(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i == 1 ? "" : "|").append(rs.getString(i));
        }
        out.add(row.toString());
      }
    }
    return out;
  }

  private static String plan(Connection c, String sql) throws SQLException {
    return String.join("\n", texts(c, "EXPLAIN " + sql));
  }
}
