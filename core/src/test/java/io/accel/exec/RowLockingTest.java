package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SELECT ... FOR UPDATE / SHARE between two sessions: waits, NOWAIT, SKIP LOCKED, and 40001 at REPEATABLE READ. */
class RowLockingTest extends EngineTestBase {

  private static List<Object> rows(Session session, String key, String sql) {
    List<Object> out = new ArrayList<>();
    try (Result r = session.execute(key, sql)) {
      while (r.cursor().hasNext()) {
        Object row = r.cursor().next();
        out.add(row instanceof Object[] a ? Arrays.asList(a).toString() : row);
      }
    }
    return out;
  }

  private void jobs() {
    run("CREATE TABLE jobs (id INTEGER PRIMARY KEY, state TEXT)");
    run("INSERT INTO jobs VALUES (1, 'new'), (2, 'new'), (3, 'new')");
  }

  @Test
  void nowaitFailsOnARowAnotherTransactionLocked() {
    jobs();
    try (Session other = new Session(db)) {
      run("BEGIN");
      assertThat(rows("SELECT id FROM jobs WHERE id = 1 FOR UPDATE")).containsExactly(1);
      other.execute("1", "BEGIN");
      AccelException e = failure(() -> rows(other, "2", "SELECT id FROM jobs WHERE id = 1 FOR UPDATE NOWAIT"));
      assertThat(e.state().code()).isEqualTo("55P03");
      assertThat(e.getMessage()).isEqualTo("could not obtain lock on row in relation \"jobs\"");
      other.execute("3", "ROLLBACK");
      // shared locks do not conflict with each other
      other.execute("4", "BEGIN");
      assertThat(rows(other, "5", "SELECT id FROM jobs WHERE id = 2 FOR SHARE NOWAIT")).containsExactly(2);
      assertThat(rows("SELECT id FROM jobs WHERE id = 2 FOR KEY SHARE NOWAIT")).containsExactly(2);
      assertThat(failure(() -> rows("SELECT id FROM jobs WHERE id = 2 FOR UPDATE NOWAIT")).state().code())
          .isEqualTo("55P03");
      run("COMMIT");
      other.execute("6", "COMMIT");
      other.execute("7", "BEGIN");
      assertThat(rows(other, "8", "SELECT id FROM jobs WHERE id = 1 FOR UPDATE NOWAIT")).containsExactly(1);
      other.execute("9", "COMMIT");
    }
  }

  @Test
  void skipLockedHandsEachWorkerAnotherRow() {
    jobs();
    try (Session other = new Session(db)) {
      run("BEGIN");
      other.execute("1", "BEGIN");
      String next = "SELECT id FROM jobs WHERE state = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED";
      assertThat(rows(next)).containsExactly(1);
      assertThat(rows(other, "2", next)).containsExactly(2);
      run("UPDATE jobs SET state = 'done' WHERE id = 1");
      other.execute("3", "UPDATE jobs SET state = 'done' WHERE id = 2");
      run("COMMIT");
      other.execute("4", "COMMIT");
    }
    assertThat(rows("SELECT id FROM jobs WHERE state = 'new'")).containsExactly(3);
  }

  @Test
  void aWriterWaitsForTheLockingTransaction() throws Exception {
    jobs();
    java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
    try (Session other = new Session(db)) {
      run("BEGIN");
      assertThat(rows("SELECT id, state FROM jobs WHERE id = 1 FOR UPDATE")).containsExactly("[1, new]");
      java.util.concurrent.Future<?> steal = thread.submit(
          () -> other.execute("1", "UPDATE jobs SET state = 'stolen' WHERE id = 1").close());
      run("UPDATE jobs SET state = 'taken' WHERE id = 1");
      Thread.sleep(300);
      assertThat(steal.isDone()).as("the UPDATE waits for the lock").isFalse();
      run("COMMIT");
      steal.get(10, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      thread.shutdownNow();
    }
    assertThat(rows("SELECT state FROM jobs WHERE id = 1")).containsExactly("stolen");
  }

  @Test
  void repeatableReadFailsToLockARowChangedSinceItsSnapshot() {
    jobs();
    try (Session other = new Session(db)) {
      run("BEGIN ISOLATION LEVEL REPEATABLE READ");
      assertThat(rows("SELECT count(*) FROM jobs")).containsExactly(3L);
      other.execute("1", "UPDATE jobs SET state = 'x' WHERE id = 3");
      assertThat(rows("SELECT id FROM jobs WHERE id = 2 FOR UPDATE")).containsExactly(2);
      AccelException e = failure(() -> rows("SELECT id FROM jobs WHERE id = 3 FOR UPDATE"));
      assertThat(e.state().code()).isEqualTo("40001");
      run("ROLLBACK");
      // READ COMMITTED: the locking read sees the committed change
      run("BEGIN");
      assertThat(rows("SELECT count(*) FROM jobs")).containsExactly(3L);
      other.execute("2", "UPDATE jobs SET state = 'y' WHERE id = 3");
      assertThat(rows("SELECT state FROM jobs WHERE id = 3 FOR UPDATE")).containsExactly("y");
      run("COMMIT");
    }
  }

  @Test
  void ofLocksOnlyTheNamedTableAndJoinsWork() {
    jobs();
    run("CREATE TABLE notes (job INTEGER, text TEXT)");
    run("INSERT INTO notes VALUES (1, 'a'), (2, 'b')");
    try (Session other = new Session(db)) {
      run("BEGIN");
      assertThat(rows("SELECT j.id, n.text FROM jobs j JOIN notes n ON n.job = j.id WHERE j.id = 1"
          + " FOR UPDATE OF jobs")).containsExactly("[1, a]");
      other.execute("1", "BEGIN");
      assertThat(failure(() -> rows(other, "2", "SELECT id FROM jobs WHERE id = 1 FOR SHARE NOWAIT")).state().code())
          .isEqualTo("55P03");
      other.execute("2a", "ROLLBACK");
      other.execute("2b", "BEGIN");
      assertThat(rows(other, "3", "SELECT text FROM notes FOR UPDATE NOWAIT")).hasSize(2);
      other.execute("4", "ROLLBACK");
      run("COMMIT");
    }
    // outside a transaction block the statement is its own transaction: the rows come back, the locks go with it
    assertThat(rows("SELECT id FROM jobs ORDER BY id FOR UPDATE")).containsExactly(1, 2, 3);
    assertThat(rows("SELECT id FROM jobs WHERE id = 1 FOR UPDATE NOWAIT")).containsExactly(1);
  }
}
