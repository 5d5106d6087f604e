package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Isolation levels and row locks between sessions, as PostgreSQL behaves: READ COMMITTED (the default) statements see
 * what was committed before they began, a writer waits for the transaction holding the row, then changes the row as
 * committed; REPEATABLE READ reads one snapshot and fails with 40001 instead; deadlocks and lock timeouts end waits.
 */
class ReadCommittedTest extends EngineTestBase {
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  private void counters() {
    run("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER)");
    run("INSERT INTO counters VALUES (1, 1), (2, 100)");
  }

  private static List<Object> rowLists(Session session, String sql) {
    List<Object> out = new ArrayList<>();
    try (Result r = session.execute(new Object(), sql)) {
      while (r.cursor().hasNext()) {
        Object row = r.cursor().next();
        out.add(row instanceof Object[] a ? List.of(a) : row);
      }
    }
    return out;
  }

  private static void exec(Session session, String sql) {
    session.execute(new Object(), sql).close();
  }

  /** Runs {@code sql} in {@code session} on another thread. */
  private Future<?> later(Session session, String sql) {
    return threads.submit(() -> exec(session, sql));
  }

  /** Asserts the statement is still waiting (for a row lock). */
  private static void stillWaiting(Future<?> f) throws Exception {
    try {
      f.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("the statement did not wait for the row lock");
    } catch (TimeoutException expected) {
      // waiting
    }
  }

  @Test
  void aWriterWaitsForTheHolderAndThenChangesTheCommittedRow() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("UPDATE counters SET n = n + 10 WHERE id = 1");
      Future<?> doubling = later(other, "UPDATE counters SET n = n * 2 WHERE id = 1");
      stillWaiting(doubling);
      // a row the holder did not touch is not waited for
      exec(other, "UPDATE counters SET n = n + 1 WHERE id = 2");
      run("COMMIT");
      doubling.get(10, TimeUnit.SECONDS);
    }
    assertThat(rows("SELECT n FROM counters ORDER BY id")).containsExactly(22, 101);
  }

  @Test
  void aWriterWhoseHolderRollsBackChangesTheOriginalRow() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("DELETE FROM counters WHERE id = 1");
      Future<?> doubling = later(other, "UPDATE counters SET n = n * 2 WHERE id = 1");
      stillWaiting(doubling);
      run("ROLLBACK");
      doubling.get(10, TimeUnit.SECONDS);
    }
    assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(2);
  }

  @Test
  void aRowDeletedByTheHolderIsNotUpdated() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("DELETE FROM counters WHERE id = 1");
      CompletableFuture<Long> count = CompletableFuture.supplyAsync(() -> {
        try (Result r = other.execute(new Object(), "UPDATE counters SET n = n * 2 WHERE id = 1")) {
          return r.updateCount();
        }
      }, threads);
      stillWaiting(count);
      run("COMMIT");
      assertThat(count.get(10, TimeUnit.SECONDS)).isZero();
    }
    assertThat(rows("SELECT id FROM counters")).containsExactly(2);
  }

  @Test
  void concurrentIncrementsInTransactionsAreNeitherLostNorFailed() throws Exception {
    counters();
    int clients = 4;
    int each = 40;
    List<Future<?>> done = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      done.add(threads.submit(() -> {
        try (Session session = new Session(db)) {
          for (int i = 0; i < each; i++) {
            exec(session, "BEGIN");
            exec(session, "UPDATE counters SET n = n + 1 WHERE id = 2");
            exec(session, "UPDATE counters SET n = n + 1 WHERE id = 1");
            rowLists(session, "SELECT n FROM counters WHERE id = 1");
            exec(session, "COMMIT");
          }
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS); // a 40001 or a deadlock would surface here
    }
    assertThat(rows("SELECT n FROM counters ORDER BY id")).containsExactly(1 + clients * each, 100 + clients * each);
  }

  @Test
  void readCommittedStatementsSeeEarlierCommitsAndRepeatableReadDoesNot() {
    counters();
    try (Session other = new Session(db)) {
      assertThat(rows("SHOW transaction_isolation")).containsExactly("read committed");
      run("BEGIN");
      assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(1);
      exec(other, "UPDATE counters SET n = 5 WHERE id = 1");
      assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(5);
      run("COMMIT");

      run("BEGIN ISOLATION LEVEL REPEATABLE READ");
      assertThat(rows("SHOW transaction_isolation")).containsExactly("repeatable read");
      assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(5);
      exec(other, "UPDATE counters SET n = 6 WHERE id = 1");
      assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(5);
      run("COMMIT");
      assertThat(rows("SHOW transaction_isolation")).containsExactly("read committed");
    }
  }

  @Test
  void repeatableReadFailsToChangeARowChangedSinceItsSnapshot() {
    counters();
    try (Session other = new Session(db)) {
      run("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE");
      assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(1);
      exec(other, "UPDATE counters SET n = 7 WHERE id = 1");
      AccelException e = failure(() -> run("UPDATE counters SET n = n + 1 WHERE id = 1"));
      assertThat(e.state().code()).isEqualTo("40001");
      assertThat(e.getMessage()).isEqualTo("could not serialize access due to concurrent update");
      run("ROLLBACK");
    }
    assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(7);
  }

  @Test
  void setTransactionIsolationComesBeforeTheFirstQuery() {
    counters();
    run("BEGIN");
    run("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
    assertThat(rows("SHOW transaction_isolation")).containsExactly("serializable");
    rows("SELECT n FROM counters");
    AccelException e = failure(() -> run("SET TRANSACTION ISOLATION LEVEL READ COMMITTED"));
    assertThat(e.state().code()).isEqualTo("25001");
    assertThat(e.getMessage()).isEqualTo("SET TRANSACTION ISOLATION LEVEL must be called before any query");
    run("ROLLBACK");
    run("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    assertThat(rows("SHOW default_transaction_isolation")).containsExactly("repeatable read");
    assertThat(rows("SHOW transaction_isolation")).containsExactly("repeatable read");
    assertThat(failure(() -> run("SET default_transaction_isolation = 'sometimes'")).state().code())
        .isEqualTo("22023");
  }

  @Test
  void aDeadlockFailsTheTransactionThatClosesTheCycle() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("UPDATE counters SET n = 0 WHERE id = 1");
      exec(other, "BEGIN");
      exec(other, "UPDATE counters SET n = 0 WHERE id = 2");
      Future<?> mine = threads.submit(() -> run("UPDATE counters SET n = 3 WHERE id = 2"));
      stillWaiting(mine);
      AccelException e = failure(() -> exec(other, "UPDATE counters SET n = 4 WHERE id = 1"));
      assertThat(e.state().code()).isEqualTo("40P01");
      assertThat(e.getMessage()).isEqualTo("deadlock detected");
      exec(other, "ROLLBACK");
      mine.get(10, TimeUnit.SECONDS);
      run("COMMIT");
    }
    assertThat(rows("SELECT n FROM counters ORDER BY id")).containsExactly(0, 3);
  }

  @Test
  void lockTimeoutAndStatementTimeoutEndAWait() {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("SELECT n FROM counters WHERE id = 1 FOR UPDATE");
      exec(other, "SET lock_timeout = '150ms'");
      AccelException e = failure(() -> exec(other, "DELETE FROM counters WHERE id = 1"));
      assertThat(e.state().code()).isEqualTo("55P03");
      assertThat(e.getMessage()).isEqualTo("canceling statement due to lock timeout");
      exec(other, "RESET lock_timeout");
      exec(other, "SET statement_timeout = 150");
      e = failure(() -> exec(other, "UPDATE counters SET n = 9 WHERE id = 1"));
      assertThat(e.state().code()).isEqualTo("57014");
      run("COMMIT");
      exec(other, "UPDATE counters SET n = 9 WHERE id = 1");
    }
    assertThat(rows("SELECT n FROM counters WHERE id = 1")).containsExactly(9);
  }

  @Test
  void aLockingReadWaitsAndReturnsTheCommittedRow() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("UPDATE counters SET n = 50 WHERE id = 1");
      CompletableFuture<List<Object>> locked = CompletableFuture.supplyAsync(() -> {
        exec(other, "BEGIN");
        return rowLists(other, "SELECT n FROM counters WHERE id = 1 FOR UPDATE");
      }, threads);
      stillWaiting(locked);
      run("COMMIT");
      assertThat(locked.get(10, TimeUnit.SECONDS)).containsExactly(50);
      exec(other, "COMMIT");
    }
  }

  @Test
  void concurrentUpsertsOfOneKeyUpdateTheRowTheFirstInserted() throws Exception {
    counters();
    String upsert = "INSERT INTO counters VALUES (3, 1) ON CONFLICT (id) DO UPDATE SET n = counters.n + 1";
    try (Session other = new Session(db)) {
      run("BEGIN");
      run(upsert);
      Future<?> second = later(other, upsert);
      stillWaiting(second);
      run("COMMIT");
      second.get(10, TimeUnit.SECONDS);
    }
    assertThat(rows("SELECT n FROM counters WHERE id = 3")).containsExactly(2);
  }

  /**
   * An INSERT of a key another open transaction inserted waits for it, as PostgreSQL's unique check does: 23505 when
   * the other commits, the row inserted when it rolls back. The same for a UNIQUE index and an UPDATE to the key.
   */
  @Test
  void anInsertOfAKeyBeingInsertedWaitsThenFailsOrSucceeds() throws Exception {
    run("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE)");
    run("INSERT INTO users VALUES (1, 'a@x')");
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("INSERT INTO users VALUES (2, 'b@x')");
      Future<?> samePrimaryKey = later(other, "INSERT INTO users VALUES (2, 'c@x')");
      stillWaiting(samePrimaryKey);
      run("COMMIT");
      assertThat(causeState(samePrimaryKey)).isEqualTo("23505");

      run("BEGIN");
      run("INSERT INTO users VALUES (3, 'd@x')");
      Future<?> sameEmail = later(other, "INSERT INTO users VALUES (4, 'd@x')");
      stillWaiting(sameEmail);
      run("ROLLBACK");
      sameEmail.get(10, TimeUnit.SECONDS);

      run("BEGIN");
      run("INSERT INTO users VALUES (5, 'e@x')");
      Future<?> updateToTheKey = later(other, "UPDATE users SET email = 'e@x' WHERE id = 1");
      stillWaiting(updateToTheKey);
      run("COMMIT");
      assertThat(causeState(updateToTheKey)).isEqualTo("23505");
    }
    assertThat(rows("SELECT id, email FROM users ORDER BY id"))
        .containsExactly("[1, a@x]", "[2, b@x]", "[4, d@x]", "[5, e@x]");
  }

  /** A statement that restarts after a wait sends what its last run notified, once (the first run's is undone). */
  @Test
  void aRestartedStatementNotifiesOnce() throws Exception {
    counters();
    try (Session other = new Session(db)) {
      exec(other, "LISTEN ch");
      run("BEGIN");
      run("UPDATE counters SET n = n + 10");
      exec(other, "BEGIN");
      Future<?> update = later(other,
          "UPDATE counters SET n = n * 2 WHERE id = 1 OR pg_notify('ch', n::text) IS NULL");
      stillWaiting(update);
      run("COMMIT");
      update.get(10, TimeUnit.SECONDS);
      exec(other, "COMMIT");
      List<String> received = new ArrayList<>();
      for (var n = other.pollNotification(); n.isPresent(); n = other.pollNotification()) {
        received.add(n.get().payload());
      }
      assertThat(received).containsExactly("110");
    }
    assertThat(rows("SELECT n FROM counters ORDER BY id")).containsExactly(22, 110);
  }

  /**
   * A key another transaction committed after this one's snapshot is a unique violation (23505) at REPEATABLE READ
   * too, as PostgreSQL's unique check reads committed rows; a key this transaction deleted can be inserted again.
   */
  @Test
  void aKeyCommittedSinceTheSnapshotIs23505AtRepeatableReadAndOwnDeletesFreeTheirKeys() {
    run("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE)");
    run("INSERT INTO users VALUES (1, 'a@x')");
    try (Session other = new Session(db)) {
      run("BEGIN ISOLATION LEVEL REPEATABLE READ");
      assertThat(rows("SELECT count(*) FROM users")).containsExactly(1L);
      exec(other, "INSERT INTO users VALUES (2, 'b@x')");
      assertThat(failure(() -> run("INSERT INTO users VALUES (2, 'c@x')")).state().code()).isEqualTo("23505");
      run("ROLLBACK");

      run("BEGIN ISOLATION LEVEL REPEATABLE READ");
      assertThat(rows("SELECT count(*) FROM users")).containsExactly(2L);
      exec(other, "INSERT INTO users VALUES (3, 'd@x')");
      assertThat(failure(() -> run("INSERT INTO users VALUES (4, 'd@x')")).state().code()).isEqualTo("23505");
      run("ROLLBACK");

      run("BEGIN");
      exec(other, "INSERT INTO users VALUES (5, 'e@x')"); // a commit since the snapshot: the keys are looked at
      run("DELETE FROM users WHERE id = 1");
      run("INSERT INTO users VALUES (1, 'a@x')");
      run("COMMIT");
    }
    assertThat(rows("SELECT id, email FROM users ORDER BY id"))
        .containsExactly("[1, a@x]", "[2, b@x]", "[3, d@x]", "[5, e@x]");
  }

  private static String causeState(Future<?> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
      throw new AssertionError("the statement succeeded");
    } catch (java.util.concurrent.ExecutionException e) {
      return ((AccelException) e.getCause()).state().code();
    }
  }
}
