package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.cache.ResultCache;
import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultCacheTest extends EngineTestBase {
  private ResultCache cache;

  @BeforeEach
  void schema() {
    cache = db.resultCache();
    run("CREATE TABLE users (id INT PRIMARY KEY, name TEXT, city TEXT)");
    run("CREATE INDEX users_city ON users (city)");
    run("CREATE TABLE orders (id INT PRIMARY KEY, user_id INT, amount INT)");
    run("CREATE INDEX orders_user ON orders (user_id)");
    run("INSERT INTO users VALUES (1, 'ann', 'oslo'), (2, 'bob', 'rome'), (3, 'cy', 'oslo')");
    run("INSERT INTO orders VALUES (10, 1, 5), (11, 1, 7), (12, 2, 9)");
  }

  @Test
  void aCachedQueryIsAnsweredFromItsEntryUntilAWriteTouchesWhatItRead() {
    run("CREATE CACHE by_id FROM SELECT name FROM users WHERE id = 1");
    assertThat(rows("SELECT name FROM users WHERE id = 1")).containsExactly("ann");
    long hits = cache.hitCount();
    assertThat(rows("SELECT name FROM users WHERE id = 1")).containsExactly("ann");
    assertThat(cache.hitCount()).isEqualTo(hits + 1);
    assertThat(rows("EXPLAIN LAST STATEMENT")).containsExactly("[accel, answered from cache by_id]");

    // another parameter value of the same shape has its own entry
    assertThat(rows("SELECT name FROM users WHERE id = 2")).containsExactly("bob");
    assertThat(rows("SELECT name FROM users WHERE id = 2")).containsExactly("bob");

    long precise = cache.keyInvalidations();
    run("UPDATE users SET name = 'anna' WHERE id = 1");
    assertThat(rows("EXPLAIN LAST STATEMENT")).containsExactly("[accel, a standalone store: every statement runs in"
        + " Accel]");
    assertThat(cache.keyInvalidations()).isEqualTo(precise + 1); // id = 2's result was not touched
    assertThat(rows("SELECT name FROM users WHERE id = 1")).containsExactly("anna");
    hits = cache.hitCount();
    assertThat(rows("SELECT name FROM users WHERE id = 2")).containsExactly("bob");
    assertThat(cache.hitCount()).isEqualTo(hits + 1);
  }

  @Test
  void aRowInsertedIntoAScannedIndexRangeInvalidatesAndOneOutsideItDoesNot() {
    // enough rows elsewhere that the query reads the city index, not the whole table
    StringBuilder others = new StringBuilder("INSERT INTO users VALUES ");
    for (int id = 100; id < 300; id++) {
      others.append(id == 100 ? "" : ", ").append('(').append(id).append(", 'x").append(id).append("', 'c")
          .append(id).append("')");
    }
    run(others.toString());
    run("ANALYZE users");
    assertThat(rows("EXPLAIN SELECT name FROM users WHERE city = 'oslo' ORDER BY name").toString())
        .contains("access=[index users_city]");
    run("CREATE CACHE FROM SELECT name FROM users WHERE city = 'oslo' ORDER BY name");
    assertThat(rows("SELECT name FROM users WHERE city = 'oslo' ORDER BY name")).containsExactly("ann", "cy");
    run("INSERT INTO users VALUES (4, 'dee', 'paris')");
    long hits = cache.hitCount();
    assertThat(rows("SELECT name FROM users WHERE city = 'oslo' ORDER BY name")).containsExactly("ann", "cy");
    assertThat(cache.hitCount()).isEqualTo(hits + 1);
    run("INSERT INTO users VALUES (5, 'eve', 'oslo')");
    assertThat(rows("SELECT name FROM users WHERE city = 'oslo' ORDER BY name")).containsExactly("ann", "cy", "eve");
    run("DELETE FROM users WHERE id = 1");
    assertThat(rows("SELECT name FROM users WHERE city = 'oslo' ORDER BY name")).containsExactly("cy", "eve");
  }

  @Test
  void aJoinIsInvalidatedThroughEitherTable() {
    String q = "SELECT u.name, o.amount FROM users u JOIN orders o ON o.user_id = u.id WHERE u.id = 1 ORDER BY o.amount";
    run("CREATE CACHE FROM " + q);
    assertThat(rows(q)).containsExactly("[ann, 5]", "[ann, 7]");
    run("INSERT INTO orders VALUES (13, 1, 6)");
    assertThat(rows(q)).containsExactly("[ann, 5]", "[ann, 6]", "[ann, 7]");
    run("UPDATE users SET name = 'anna' WHERE id = 1");
    assertThat(rows(q)).containsExactly("[anna, 5]", "[anna, 6]", "[anna, 7]");
    long hits = cache.hitCount();
    run("INSERT INTO orders VALUES (14, 2, 1)"); // another user's order
    assertThat(rows(q)).containsExactly("[anna, 5]", "[anna, 6]", "[anna, 7]");
    assertThat(cache.hitCount()).isEqualTo(hits + 1);
  }

  @Test
  void writesOfAnOpenTransactionAreSeenByItAndByOthersOnlyAfterCommit() {
    run("CREATE CACHE FROM SELECT name FROM users WHERE id = 1");
    assertThat(rows("SELECT name FROM users WHERE id = 1")).containsExactly("ann");
    Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "other"));
    try {
      run("BEGIN");
      run("UPDATE users SET name = 'x' WHERE id = 1");
      assertThat(rows("SELECT name FROM users WHERE id = 1")).containsExactly("x");
      assertThat(rowsOf(other, "SELECT name FROM users WHERE id = 1")).containsExactly("ann");
      run("COMMIT");
      assertThat(rowsOf(other, "SELECT name FROM users WHERE id = 1")).containsExactly("x");
      run("BEGIN");
      run("UPDATE users SET name = 'y' WHERE id = 1");
      run("ROLLBACK");
      assertThat(rowsOf(other, "SELECT name FROM users WHERE id = 1")).containsExactly("x");
    } finally {
      other.close();
    }
  }

  @Test
  void aResultReadingTooManyKeysIsInvalidatedByTable() {
    ResultCache.Definition d = cache.define("wide", "SELECT wide", "SELECT wide", ResultCache.Mode.DEEP, null, false);
    org.rocksdb.ColumnFamilyHandle family = db.store().meta();
    io.accel.cache.ReadSet reads = new io.accel.cache.ReadSet();
    for (int i = 0; i < io.accel.cache.ReadSet.MAX_TRACKED + 1; i++) {
      reads.point(family, new byte[] {7, (byte) (i >> 8), (byte) i});
    }
    ResultCache.Key key = new ResultCache.Key(d.id(), "SELECT wide", List.of(), "UTC");
    long version = db.catalog().version();
    assertThat(cache.put(key, d, List.of(1), reads, java.util.Set.of(42L),
        db.store().db().getLatestSequenceNumber(), version)).isTrue();
    assertThat(cache.entryModes(d)).containsExactly(java.util.Map.entry(ResultCache.Invalidation.TABLE, 1));
    assertThat(rows("SHOW CACHES").toString()).contains("1 result (tracked 1 by table)");

    // a write of a key it never read, to a table it read: dropped all the same, as table-level
    long coarse = cache.tableInvalidations();
    ResultCache.Writes writes = new ResultCache.Writes(java.util.Set.of(42L),
        java.util.Map.of(family, List.of(new byte[] {8, 8, 8})));
    cache.committing(writes);
    cache.committed(writes, true, db.store().db().getLatestSequenceNumber());
    assertThat(cache.tableInvalidations()).isEqualTo(coarse + 1);
    assertThat(cache.get(key, d, version)).isNull();

    // and a write to another table leaves it
    assertThat(cache.put(key, d, List.of(1), reads, java.util.Set.of(42L),
        db.store().db().getLatestSequenceNumber(), version)).isTrue();
    ResultCache.Writes other = new ResultCache.Writes(java.util.Set.of(43L),
        java.util.Map.of(family, List.of(new byte[] {7, 0, 1})));
    cache.committing(other);
    cache.committed(other, true, db.store().db().getLatestSequenceNumber());
    assertThat(cache.get(key, d, version)).isNotNull();
  }

  @Test
  void shallowCachesLiveForTheirTtlAndQueriesThatCannotBeTrackedNeedOne() throws Exception {
    AccelException e = failure(() -> run("CREATE CACHE FROM SELECT name, now() FROM users WHERE id = 1"));
    assertThat(e.state().code()).isEqualTo("0A000");
    assertThat(e.hint()).contains("SHALLOW");
    assertThat(rows("EXPLAIN CREATE CACHE FROM SELECT name, now() FROM users WHERE id = 1").toString())
        .contains("shallow only");
    List<Object> explained = rows("EXPLAIN CREATE CACHE FROM SELECT name FROM users WHERE id = 1");
    assertThat(explained).hasSize(1);
    assertThat(explained.get(0).toString()).startsWith("[q_").contains(", yes, ").contains("users");
    assertThat(rows("EXPLAIN CREATE CACHE FROM SELECT * FROM nosuch").toString()).contains("no");

    run("CREATE SHALLOW CACHE POLICY TTL 1 SECONDS s FROM SELECT count(*) FROM users");
    assertThat(rows("SELECT count(*) FROM users")).containsExactly(3L);
    run("INSERT INTO users VALUES (9, 'zed', 'oslo')");
    assertThat(rows("SELECT count(*) FROM users")).containsExactly(3L); // stale within its TTL, as asked
    Thread.sleep(1100);
    assertThat(rows("SELECT count(*) FROM users")).containsExactly(4L);
    assertThat(rows("SHOW CACHES").toString()).contains("shallow, ttl 1 s");
  }

  @Test
  void cacheStatementsCheckTheirArguments() {
    run("CREATE CACHE c1 FROM SELECT name FROM users WHERE id = $1");
    assertThat(failure(() -> run("CREATE CACHE c2 FROM SELECT name FROM users WHERE id = 7")).state().code())
        .isEqualTo("42710"); // the same query shape
    assertThat(failure(() -> run("CREATE CACHE c1 FROM SELECT city FROM users")).state().code())
        .isEqualTo("42710");
    assertThat(failure(() -> run("DROP CACHE nosuch")).state().code()).isEqualTo("42704");
    assertThat(failure(() -> run("CREATE CACHE FROM q_0123456789abcdef")).state().code()).isEqualTo("42704");
    assertThat(failure(() -> run("CREATE CACHE FROM DELETE FROM users")).state().code()).isEqualTo("0A000");
    assertThat(failure(() -> run("CREATE CACHE FROM SELECT * FROM users WHERE id = 1 FOR UPDATE")).state().code())
        .isEqualTo("0A000");
    assertThat(failure(() -> run("CREATE CACHE FROM SELECT gen_random_uuid(), name FROM users WHERE id = 1")).hint())
        .contains("SHALLOW");
    assertThat(failure(() -> run("CREATE CACHE FROM SELECT * FROM nosuch")).state().code()).isEqualTo("42P01");
    run("DROP CACHE c1");
    assertThat(rows("SHOW CACHES")).isEmpty();
    run("CREATE CACHE FROM SELECT name FROM users WHERE id = 1");
    run("CREATE CACHE FROM SELECT city FROM users WHERE id = 1");
    assertThat(rows("SHOW CACHES")).hasSize(2);
    run("DROP ALL CACHES");
    assertThat(rows("SHOW CACHES")).isEmpty();
  }

  @Test
  void aQueryIdFromAnEarlierExecutionNamesItsQuery() {
    assertThat(rows("SELECT name FROM users WHERE id = 3")).containsExactly("cy");
    String id = ResultCache.queryId(ResultCache.shapeOf("SELECT name FROM users WHERE id = 3"));
    run("CREATE CACHE FROM " + id);
    List<Object> shown = rows("SHOW CACHES");
    assertThat(shown).hasSize(1);
    assertThat(shown.get(0).toString()).startsWith("[" + id + ", " + id + ", SELECT name FROM users WHERE id = 3");
  }

  @Test
  void ddlMakesCachedResultsStale() {
    run("CREATE CACHE FROM SELECT * FROM users WHERE id = 2");
    assertThat(rows("SELECT * FROM users WHERE id = 2")).containsExactly("[2, bob, rome]");
    run("ALTER TABLE users ADD COLUMN age INT DEFAULT 40");
    assertThat(rows("SELECT * FROM users WHERE id = 2")).containsExactly("[2, bob, rome, 40]");
  }

  @Test
  void autoCacheCachesAQueryOnItsSecondExecution() throws Exception {
    try (Database auto = Database.open(Store.openInMemory("auto-" + System.nanoTime(),
        new StoreOptions(8 << 20, false).withResultCache(1 << 20, true)));
        Session a = new Session(auto, new Session.Options(100, TimeZone.getTimeZone("UTC"), "a"))) {
      a.execute("k1", "CREATE TABLE t (id INT PRIMARY KEY, v INT)").close();
      a.execute("k2", "INSERT INTO t VALUES (1, 10), (2, 20)").close();
      for (int i = 0; i < 3; i++) {
        assertThat(rowsOf(a, "SELECT v FROM t WHERE id = 2")).containsExactly(20);
      }
      assertThat(auto.resultCache().hitCount()).isEqualTo(1);
      assertThat(rowsOf(a, "SHOW CACHES").toString()).contains("auto");
      a.execute("k3", "UPDATE t SET v = 21 WHERE id = 2").close();
      assertThat(rowsOf(a, "SELECT v FROM t WHERE id = 2")).containsExactly(21);
      // now() is never cached automatically
      for (int i = 0; i < 3; i++) {
        rowsOf(a, "SELECT v, now() FROM t WHERE id = 1");
      }
      assertThat(rowsOf(a, "SHOW CACHES")).hasSize(1);
    }
  }

  @Test
  void cachesCreatedByCommandSurviveARestartOfAFileStore(@TempDir Path dir) throws Exception {
    StoreOptions options = new StoreOptions(8 << 20, false);
    try (Database f = Database.open(Store.openFile(dir, options));
        Session a = new Session(f, new Session.Options(100, TimeZone.getTimeZone("UTC"), "a"))) {
      a.execute("k1", "CREATE TABLE t (id INT PRIMARY KEY, v INT)").close();
      a.execute("k2", "INSERT INTO t VALUES (1, 10)").close();
      a.execute("k3", "CREATE CACHE kept FROM SELECT v FROM t WHERE id = 1").close();
      a.execute("k4", "CREATE SHALLOW CACHE POLICY TTL 30 SECONDS FROM SELECT count(*) FROM t").close();
    }
    try (Database f = Database.open(Store.openFile(dir, options));
        Session a = new Session(f, new Session.Options(100, TimeZone.getTimeZone("UTC"), "a"))) {
      List<Object> shown = rowsOf(a, "SHOW CACHES");
      assertThat(shown).hasSize(2);
      assertThat(shown.toString()).contains("kept").contains("shallow, ttl 30 s");
      assertThat(rowsOf(a, "SELECT v FROM t WHERE id = 1")).containsExactly(10);
      assertThat(rowsOf(a, "SELECT v FROM t WHERE id = 1")).containsExactly(10);
      assertThat(f.resultCache().hitCount()).isEqualTo(1);
      a.execute("k5", "DROP CACHE kept").close();
    }
    try (Database f = Database.open(Store.openFile(dir, options));
        Session a = new Session(f, new Session.Options(100, TimeZone.getTimeZone("UTC"), "a"))) {
      assertThat(rowsOf(a, "SHOW CACHES")).hasSize(1);
    }
  }

  /**
   * Writers move amounts between rows in transactions (the sum stays 1000) and bump a counter row; readers run the
   * cached sum and counter queries. A cached sum is never anything but 1000, and a cached counter is never below the
   * value a writer had committed before the read began, nor above a fresh read made after it.
   */
  @Test
  void cachedResultsStayExactUnderConcurrentWriters() throws Exception {
    run("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
    run("INSERT INTO acct VALUES (1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100), (7, 100), (8, 100),"
        + " (9, 100), (10, 100), (11, 0)");
    run("CREATE CACHE sum FROM SELECT sum(v) FROM acct WHERE id BETWEEN 1 AND 10");
    run("CREATE CACHE one FROM SELECT v FROM acct WHERE id = $1");
    AtomicLong committedCounter = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      int writer = w;
      threads.add(new Thread(() -> {
        try (Session ws = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "w"))) {
          int k = 0;
          while (!stop.get()) {
            int from = 1 + ThreadLocalRandom.current().nextInt(10);
            int to = 1 + ThreadLocalRandom.current().nextInt(10);
            try {
              ws.execute("b" + k++, "BEGIN").close();
              ws.execute("b" + k++, "UPDATE acct SET v = v - 1 WHERE id = " + from).close();
              ws.execute("b" + k++, "UPDATE acct SET v = v + 1 WHERE id = " + to).close();
              ws.execute("b" + k++, "COMMIT").close();
            } catch (AccelException e) {
              ws.execute("b" + k++, "ROLLBACK").close();
              // transfers between two rows in either order deadlock now and then, as in PostgreSQL
              if (!e.state().code().equals("40001") && !e.state().code().equals("40P01")) {
                throw e;
              }
            }
            if (writer == 0) {
              // the only writer of row 11: what it committed is known exactly
              ws.execute("c" + k++, "UPDATE acct SET v = v + 1 WHERE id = 11").close();
              committedCounter.incrementAndGet();
            }
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    for (int r = 0; r < 2; r++) {
      threads.add(new Thread(() -> {
        try (Session rs = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "r"))) {
          Prepared one = rs.prepare("SELECT v FROM acct WHERE id = ?");
          int k = 0;
          while (!stop.get()) {
            assertThat(rowsOf(rs, "SELECT sum(v) FROM acct WHERE id BETWEEN 1 AND 10")).containsExactly(1000L);
            long floor = committedCounter.get();
            Object cached;
            try (Result res = rs.execute("p", one, List.of(org.apache.calcite.avatica.remote.TypedValue.ofLocal(
                org.apache.calcite.avatica.ColumnMetaData.Rep.INTEGER, 11)), new AtomicBoolean(), 0)) {
              cached = res.cursor().next();
            }
            rs.execute("f" + k++, "BEGIN").close();
            Object fresh = rowsOf(rs, "SELECT v FROM acct WHERE id = 11").get(0);
            rs.execute("f" + k++, "COMMIT").close();
            assertThat(((Number) cached).longValue()).isGreaterThanOrEqualTo(floor)
                .isLessThanOrEqualTo(((Number) fresh).longValue());
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    threads.forEach(Thread::start);
    Thread.sleep(3000);
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertThat(cache.hitCount()).isPositive();
    assertThat(committedCounter.get()).isPositive();
  }

  private static List<Object> rowsOf(Session session, String sql) {
    List<Object> out = new ArrayList<>();
    try (Result r = session.execute("x" + System.nanoTime(), sql)) {
      while (r.cursor().hasNext()) {
        Object row = r.cursor().next();
        out.add(row instanceof Object[] a ? java.util.Arrays.asList(a).toString() : row);
      }
    }
    return out;
  }
}
