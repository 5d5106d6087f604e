package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.catalog.SequenceDef;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sequence values from several sessions at once and across restarts: every value handed out once, SERIAL inserts
 * never conflict with each other, a crash skips values (never repeats them), a clean close leaves no gap.
 */
class SequenceConcurrencyTest {
  @TempDir
  Path dir;

  private Database open() throws Exception {
    return Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
  }

  private static Session session(Database db) {
    return new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "tester"));
  }

  private static long single(Session s, String sql) {
    try (Result r = s.execute("k", sql)) {
      return ((Number) r.cursor().next()).longValue();
    }
  }

  /** Runs {@code body(thread)} on {@code n} threads started together; the first failure is rethrown. */
  private static void onThreads(int n, java.util.function.IntConsumer body) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      int id = t;
      Thread th = new Thread(() -> {
        try {
          start.await();
          body.accept(id);
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      th.start();
      threads.add(th);
    }
    start.countDown();
    for (Thread th : threads) {
      th.join();
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.peek());
    }
  }

  @Test
  void concurrentNextvalHandsOutEveryValueExactlyOnce() throws Exception {
    try (Database db = open(); Session s = session(db)) {
      s.execute("ddl", "CREATE SEQUENCE s");
      ConcurrentLinkedQueue<Long> values = new ConcurrentLinkedQueue<>();
      onThreads(4, t -> {
        try (Session mine = session(db)) {
          for (int i = 0; i < 300; i++) {
            values.add(single(mine, "SELECT nextval('s')"));
          }
        }
      });
      Set<Long> distinct = new TreeSet<>(values);
      assertThat(values).hasSize(1200);
      assertThat(distinct).containsExactlyElementsOf(LongStream.rangeClosed(1, 1200).boxed().toList());
    }
  }

  @Test
  void concurrentSerialInsertsGetDistinctIdsWithoutConflicts() throws Exception {
    try (Database db = open(); Session s = session(db)) {
      s.execute("ddl", "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, thread INT, n INT)");
      ConcurrentLinkedQueue<Long> returned = new ConcurrentLinkedQueue<>();
      onThreads(4, t -> {
        try (Session mine = session(db)) {
          for (int i = 0; i < 200; i++) {
            // each statement its own transaction: a write conflict (40001) would fail the test
            returned.add(single(mine, "INSERT INTO t (thread, n) VALUES (" + t + ", " + i + ") RETURNING id"));
          }
        }
      });
      assertThat(new TreeSet<>(returned)).hasSize(800);
      assertThat(single(s, "SELECT count(DISTINCT id) FROM t")).isEqualTo(800);
      assertThat(single(s, "SELECT count(*) FROM t")).isEqualTo(800);
    }
  }

  @Test
  void aCrashSkipsValuesAndACleanCloseContinuesWithoutAGap() throws Exception {
    long before;
    try (Database db = open(); Session s = session(db)) {
      s.execute("ddl", "CREATE SEQUENCE s CACHE 1");
      for (int i = 0; i < 5; i++) {
        single(s, "SELECT nextval('s')");
      }
      before = single(s, "SELECT currval('s')");
      // what a process that died now would find: the range recorded ahead, not the value in memory
      SequenceDef def = db.sequences().sequence("s").orElseThrow();
      long afterCrash = new SequenceValues(db.store()).next(def);
      assertThat(before).isEqualTo(5);
      assertThat(afterCrash).isGreaterThan(before);
    }
    try (Database db = open(); Session s = session(db)) {
      // the clean close recorded the exact value the open store had reached
      assertThat(single(s, "SELECT nextval('s')")).isEqualTo(6);
      assertThat(db.sequences().sequence("s")).isPresent();
    }
  }
}
