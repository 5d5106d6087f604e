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

  /**
   * A unique expression index and a unique partial index under concurrent writers: e-mails differing only in case
   * collide, and of the rows not deleted each e-mail appears once, however the inserts and updates interleave.
   */
  @Test
  void concurrentWritersKeepUniqueExpressionAndPartialIndexes() throws Exception {
    run("CREATE TABLE accounts (id INT PRIMARY KEY, email TEXT NOT NULL, handle TEXT NOT NULL,"
        + " deleted BOOLEAN NOT NULL)");
    run("CREATE UNIQUE INDEX accounts_email_ci ON accounts (lower(email))");
    run("CREATE UNIQUE INDEX accounts_live_handle ON accounts (handle) WHERE NOT deleted");
    AtomicInteger inserted = new AtomicInteger();
    onThreads(4, t -> {
      Random random = new Random(SEED + t);
      try (Session s = session()) {
        for (int i = 0; i < 120; i++) {
          int n = random.nextInt(30);
          String email = (random.nextBoolean() ? "U" : "u") + n + "@x.org";
          String handle = "h" + random.nextInt(10);
          try {
            if (random.nextInt(4) == 0) {
              untilCommitted(s, "UPDATE accounts SET deleted = NOT deleted WHERE id = " + (t * 1000 + n));
            } else {
              untilCommitted(s, "INSERT INTO accounts VALUES (" + (t * 1000 + i) + ", '" + email + "', '" + handle
                  + "', " + random.nextBoolean() + ")");
              inserted.incrementAndGet();
            }
          } catch (AccelException e) {
            if (e.state() != SqlState.UNIQUE_VIOLATION) {
              throw e;
            }
          }
        }
      }
    });
    assertThat(inserted.get()).isPositive();
    assertThat(rows("SELECT count(*) - count(DISTINCT lower(email)) FROM accounts")).containsExactly(0L);
    assertThat(rows("SELECT count(*) - count(DISTINCT handle) FROM accounts WHERE NOT deleted"))
        .containsExactly(0L);
    // the indexes hold exactly the rows they cover: one more of each kind collides, one of another case too
    for (Object email : rows("SELECT upper(email) FROM accounts LIMIT 1")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> run("INSERT INTO accounts VALUES (99999, '" + email
          + "', 'fresh', true)")).isInstanceOf(AccelException.class).hasMessageContaining("accounts_email_ci");
    }
  }
}
