package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * INSERT ... ON CONFLICT from several sessions on the same keys: each statement either takes effect whole or fails
 * with 40001 (and is retried), so no increment is lost and no key is inserted twice.
 */
class UpsertConcurrencyTest extends EngineTestBase {
  private static final long SEED = 17;

  private Session session() {
    return new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "tester"));
  }

  /** Runs {@code sql} until it commits, retrying serialization failures; returns the retries. */
  private static int untilCommitted(Session s, String sql) {
    for (int retries = 0; ; retries++) {
      try {
        s.execute("k", sql).close();
        return retries;
      } catch (AccelException e) {
        if (e.state() != SqlState.SERIALIZATION_FAILURE) {
          throw e;
        }
      }
    }
  }

  private void onThreads(int n, java.util.function.IntConsumer body) throws InterruptedException {
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
      throw new AssertionError("seed " + SEED, failures.peek());
    }
  }

  @Test
  void concurrentIncrementsOfTheSameKeysLoseNothing() throws Exception {
    run("CREATE TABLE counters (k INT PRIMARY KEY, n INT NOT NULL)");
    AtomicIntegerArray committed = new AtomicIntegerArray(5);
    AtomicInteger retries = new AtomicInteger();
    onThreads(4, t -> {
      Random random = new Random(SEED + t);
      try (Session s = session()) {
        for (int i = 0; i < 150; i++) {
          int k = random.nextInt(5);
          retries.addAndGet(untilCommitted(s, "INSERT INTO counters VALUES (" + k + ", 1)"
              + " ON CONFLICT (k) DO UPDATE SET n = counters.n + EXCLUDED.n"));
          committed.incrementAndGet(k);
        }
      }
    });
    List<Object> expected = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      if (committed.get(k) > 0) {
        expected.add("[" + k + ", " + committed.get(k) + "]");
      }
    }
    assertThat(rows("SELECT k, n FROM counters ORDER BY k")).as("seed %d, %d retries", SEED, retries.get())
        .isEqualTo(expected);
  }

  @Test
  void concurrentDoNothingInsertsEachKeyOnce() throws Exception {
    run("CREATE TABLE users (id BIGSERIAL PRIMARY KEY, email TEXT UNIQUE NOT NULL, by_thread INT)");
    onThreads(4, t -> {
      try (Session s = session()) {
        for (int i = 0; i < 100; i++) {
          untilCommitted(s, "INSERT INTO users (email, by_thread) VALUES ('u" + i + "@x', " + t + ")"
              + " ON CONFLICT (email) DO NOTHING");
        }
      }
    });
    assertThat(rows("SELECT count(*) FROM users")).containsExactly(100L);
    assertThat(rows("SELECT count(DISTINCT email) FROM users")).containsExactly(100L);
  }
}
