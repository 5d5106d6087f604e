package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Full scans of small tables served from decoded rows: never a row a reader's snapshot should not see. */
class ScanCacheTest {
  private SimpleMeterRegistry registry;
  private Database db;
  private Session s;
  private int keys;

  @BeforeEach
  void open() throws Exception {
    registry = new SimpleMeterRegistry();
    db = Database.open(Store.openInMemory("scan-cache-" + System.nanoTime(), new StoreOptions(8 << 20, false)),
        registry);
    s = session();
    run(s, "CREATE TABLE dim (id INTEGER PRIMARY KEY, name VARCHAR(20), v INTEGER)");
    run(s, "INSERT INTO dim VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
  }

  @AfterEach
  void close() {
    s.close();
    db.close();
  }

  private Session session() {
    return new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "tester"));
  }

  private Result run(Session session, String sql) {
    return session.execute("k" + keys++, sql);
  }

  private List<List<Object>> rows(Session session, String sql) {
    Result r = run(session, sql);
    List<List<Object>> out = new ArrayList<>();
    while (r.cursor().hasNext()) {
      Object row = r.cursor().next();
      out.add(row instanceof Object[] a ? List.of(a) : List.of(row));
    }
    r.cursor().close();
    return out;
  }

  private double meter(String name) {
    return registry.find(name).counter() == null ? 0 : registry.find(name).counter().count();
  }

  @Test
  void aRepeatedFullScanIsServedFromTheCacheWithTheSameRows() {
    List<List<Object>> first = rows(s, "SELECT id, name FROM dim WHERE v >= 20 ORDER BY id");
    double hits = meter("accel.scan.cache.hits");
    List<List<Object>> second = rows(s, "SELECT id, name FROM dim WHERE v >= 20 ORDER BY id");
    assertThat(second).isEqualTo(first).containsExactly(List.of(2, "b"), List.of(3, "c"));
    assertThat(meter("accel.scan.cache.hits")).isEqualTo(hits + 1);
  }

  @Test
  void eachExecutionOfOneCachedPlanFiltersByItsOwnValues() {
    // the literals become parameters of one shared plan; the residual reads them once per execution
    assertThat(rows(s, "SELECT id FROM dim WHERE v >= 20 AND v < 25.5 OR name = 'c' ORDER BY id"))
        .containsExactly(List.of(2), List.of(3));
    assertThat(rows(s, "SELECT id FROM dim WHERE v >= 5 AND v < 15.5 OR name = 'b' ORDER BY id"))
        .containsExactly(List.of(1), List.of(2));
    assertThat(rows(s, "SELECT id FROM dim WHERE v >= 40 AND v < 45.5 OR name = 'x' ORDER BY id")).isEmpty();
  }

  @Test
  void aLargeTableIsCachedByAFullScanThatReadsToTheEndNotByOneStoppedEarly() {
    run(s, "CREATE TABLE big (id INTEGER PRIMARY KEY, grp BIGINT, name TEXT, at DATE, x DOUBLE PRECISION)");
    run(s, "INSERT INTO big SELECT i, i % 7, CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (i % 100) END, "
        + "DATE '2020-01-01' + (i % 300), i / 4.0 FROM generate_series(1, 120000) AS g(i)");
    run(s, "ANALYZE big");
    double builds = meter("accel.scan.cache.builds");
    assertThat(rows(s, "SELECT id FROM big LIMIT 3")).hasSize(3);
    assertThat(meter("accel.scan.cache.builds")).isEqualTo(builds);
    String query = "SELECT grp, count(*), count(name), min(at), sum(x) FROM big WHERE id % 3 = 0 GROUP BY grp "
        + "ORDER BY grp";
    List<List<Object>> fromRocksDb = rows(s, query);
    assertThat(meter("accel.scan.cache.builds")).isEqualTo(builds + 1);
    double hits = meter("accel.scan.cache.hits");
    assertThat(rows(s, query)).isEqualTo(fromRocksDb).hasSize(7);
    assertThat(meter("accel.scan.cache.hits")).isEqualTo(hits + 1);
    assertThat(rows(s, "SELECT id, grp, coalesce(name, 'null'), CAST(at AS TEXT), x FROM big "
        + "WHERE id IN (5, 6, 119999) ORDER BY id"))
        .containsExactly(List.of(5, 5L, "null", "2020-01-06", 1.25), List.of(6, 6L, "n6", "2020-01-07", 1.5),
            List.of(119999, 119999L % 7, "n99", "2020-10-26", 29999.75));
    run(s, "UPDATE big SET name = 'changed' WHERE id = 6");
    assertThat(rows(s, "SELECT count(*) FROM big WHERE name = 'changed'")).containsExactly(List.of(1L));
    assertThat(rows(s, "SELECT count(*) FROM big WHERE name = 'changed'")).containsExactly(List.of(1L));
  }

  @Test
  void committedWritesAreSeenByTheNextScan() {
    rows(s, "SELECT * FROM dim");
    run(s, "UPDATE dim SET v = 99 WHERE id = 2");
    run(s, "DELETE FROM dim WHERE id = 3");
    run(s, "INSERT INTO dim VALUES (4, 'd', 40)");
    assertThat(rows(s, "SELECT id, v FROM dim ORDER BY id"))
        .containsExactly(List.of(1, 10), List.of(2, 99), List.of(4, 40));
    assertThat(rows(s, "SELECT id, v FROM dim ORDER BY id"))
        .containsExactly(List.of(1, 10), List.of(2, 99), List.of(4, 40));
  }

  @Test
  void aTransactionKeepsItsSnapshotAndSeesItsOwnWrites() {
    Session other = session();
    try {
      run(s, "BEGIN ISOLATION LEVEL REPEATABLE READ");
      assertThat(rows(s, "SELECT sum(v) FROM dim")).containsExactly(List.of(60L));
      run(other, "UPDATE dim SET v = v + 1 WHERE id = 1");
      // the other session caches the new rows; this transaction's snapshot is older
      assertThat(rows(other, "SELECT sum(v) FROM dim")).containsExactly(List.of(61L));
      assertThat(rows(other, "SELECT sum(v) FROM dim")).containsExactly(List.of(61L));
      assertThat(rows(s, "SELECT sum(v) FROM dim")).containsExactly(List.of(60L));
      run(s, "INSERT INTO dim VALUES (5, 'e', 100)");
      assertThat(rows(s, "SELECT sum(v) FROM dim")).containsExactly(List.of(160L));
      run(s, "ROLLBACK");
      assertThat(rows(s, "SELECT sum(v) FROM dim")).containsExactly(List.of(61L));
    } finally {
      other.close();
    }
  }

  @Test
  void schemaChangesAreSeen() {
    rows(s, "SELECT * FROM dim");
    run(s, "DROP TABLE dim");
    run(s, "CREATE TABLE dim (id INTEGER PRIMARY KEY, w VARCHAR(5))");
    run(s, "INSERT INTO dim VALUES (7, 'x')");
    assertThat(rows(s, "SELECT * FROM dim")).containsExactly(List.of(7, "x"));
  }

  /**
   * A writer raises one row's value commit after commit; every full scan must return at least the value
   * committed before the scan began (a stale cached copy would return less).
   */
  @Test
  void concurrentScansNeverSeeOlderRowsThanCommittedBeforeThem() throws Exception {
    AtomicLong committed = new AtomicLong(10);
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<?> writer = pool.submit(() -> {
        Session w = session();
        try {
          for (int i = 11; i <= 200; i++) {
            run(w, "UPDATE dim SET v = " + i + " WHERE id = 1");
            committed.set(i);
          }
        } finally {
          stop.set(true);
          w.close();
        }
        return null;
      });
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(pool.submit(() -> {
          Session reader = session();
          int scans = 0;
          try {
            while (!stop.get()) {
              long before = committed.get();
              List<List<Object>> got = rows(reader, "SELECT v FROM dim WHERE name = 'a'");
              assertThat(((Number) got.get(0).get(0)).longValue()).isGreaterThanOrEqualTo(before);
              scans++;
            }
          } finally {
            reader.close();
          }
          return scans;
        }));
      }
      writer.get(60, TimeUnit.SECONDS);
      for (Future<Integer> reader : readers) {
        assertThat(reader.get(60, TimeUnit.SECONDS)).isPositive();
      }
      assertThat(meter("accel.scan.cache.hits") + meter("accel.scan.cache.misses")).isPositive();
    } finally {
      pool.shutdownNow();
    }
  }
}
