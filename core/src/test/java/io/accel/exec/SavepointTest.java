package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SAVEPOINT, RELEASE and ROLLBACK TO SAVEPOINT in transaction blocks, with PostgreSQL 15's semantics. */
class SavepointTest extends EngineTestBase {

  private void table() {
    run("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    run("CREATE INDEX t_v ON t (v)");
  }

  private List<Object> ids() {
    return rows("SELECT id FROM t ORDER BY id");
  }

  @Test
  void outsideABlockEachCommandFailsWith25P01() {
    assertThat(failure(() -> run("SAVEPOINT a")).getMessage())
        .isEqualTo("SAVEPOINT can only be used in transaction blocks");
    AccelException release = failure(() -> run("RELEASE SAVEPOINT a"));
    assertThat(release.state().code()).isEqualTo("25P01");
    assertThat(release.getMessage()).isEqualTo("RELEASE SAVEPOINT can only be used in transaction blocks");
    AccelException rollback = failure(() -> run("ROLLBACK WORK TO SAVEPOINT a"));
    assertThat(rollback.state().code()).isEqualTo("25P01");
    assertThat(rollback.getMessage()).isEqualTo("ROLLBACK TO SAVEPOINT can only be used in transaction blocks");
    assertThat(s.inTransactionBlock()).isFalse();
  }

  @Test
  void rollbackToUndoesWritesSinceTheSavepointAndKeepsIt() {
    table();
    run("BEGIN");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT one");
    run("INSERT INTO t VALUES (2, 'b')");
    run("UPDATE t SET v = 'z' WHERE id = 1");
    run("SAVEPOINT two");
    run("DELETE FROM t WHERE id = 1");
    assertThat(ids()).containsExactly(2);
    run("ROLLBACK TO SAVEPOINT two");
    assertThat(rows("SELECT v FROM t ORDER BY id")).containsExactly("z", "b");
    run("ROLLBACK TO one");
    assertThat(rows("SELECT v FROM t ORDER BY id")).containsExactly("a");
    assertThat(rows("SELECT id FROM t WHERE v = 'b'")).isEmpty(); // the index entry went too
    // "two" was destroyed by rolling back to "one"; "one" itself remains, and again
    assertThat(failure(() -> run("ROLLBACK TO two")).state().code()).isEqualTo("3B001");
    run("ROLLBACK TO one");
    run("INSERT INTO t VALUES (3, 'c')");
    run("ROLLBACK TO one");
    run("INSERT INTO t VALUES (4, 'd')");
    run("COMMIT");
    assertThat(ids()).containsExactly(1, 4);
    assertThat(rows("SELECT v FROM t WHERE id = 1")).containsExactly("a");
  }

  @Test
  void aRepeatedNameMeansTheNewestAndReleaseDropsItAndLaterOnes() {
    table();
    run("BEGIN");
    run("SAVEPOINT a");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT a");
    run("INSERT INTO t VALUES (2, 'b')");
    run("SAVEPOINT b");
    run("INSERT INTO t VALUES (3, 'c')");
    run("ROLLBACK TO a");
    assertThat(ids()).containsExactly(1);
    run("INSERT INTO t VALUES (5, 'e')");
    run("SAVEPOINT c");
    run("RELEASE a"); // the newest "a", and "c" after it
    assertThat(failure(() -> run("ROLLBACK TO c")).getMessage()).isEqualTo("savepoint \"c\" does not exist");
    // that error aborted the block, as in PostgreSQL; the older "a" still exists and rolls back to the start
    assertThat(failure(() -> run("SELECT 1")).state().code()).isEqualTo("25P02");
    run("ROLLBACK TO a");
    assertThat(ids()).isEmpty();
    run("INSERT INTO t VALUES (6, 'f')");
    run("RELEASE SAVEPOINT a");
    assertThat(failure(() -> run("RELEASE a")).state().code()).isEqualTo("3B001");
    run("ROLLBACK");
    assertThat(ids()).isEmpty();
  }

  @Test
  void quotedNamesKeepTheirCase() {
    run("BEGIN");
    run("SAVEPOINT \"Mixed\"");
    assertThat(failure(() -> run("RELEASE Mixed")).state().code()).isEqualTo("3B001");
    run("ROLLBACK TO \"Mixed\"");
    run("SAVEPOINT Upper");
    run("RELEASE upper");
    run("COMMIT");
  }

  @Test
  void rollbackToAfterAnErrorClearsTheAbortedStateAndCommitKeepsTheRest() {
    table();
    run("BEGIN");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT before");
    run("INSERT INTO t VALUES (2, 'b')");
    AccelException duplicate = failure(() -> run("INSERT INTO t VALUES (3, 'c'), (1, 'again')"));
    assertThat(duplicate.state().code()).isEqualTo("23505");
    assertThat(s.failedTransaction()).isTrue();
    assertThat(failure(() -> run("SELECT 1")).state().code()).isEqualTo("25P02");
    assertThat(failure(() -> run("SAVEPOINT x")).state().code()).isEqualTo("25P02");
    assertThat(failure(() -> run("RELEASE before")).state().code()).isEqualTo("25P02");
    run("ROLLBACK TO before");
    assertThat(s.failedTransaction()).isFalse();
    assertThat(s.inTransactionBlock()).isTrue();
    assertThat(ids()).containsExactly(1);
    run("INSERT INTO t VALUES (2, 'two')");
    run("COMMIT");
    assertThat(rows("SELECT v FROM t ORDER BY id")).containsExactly("a", "two");
  }

  @Test
  void anUnknownNameInAFailedBlockLeavesItFailed() {
    table();
    run("BEGIN");
    run("SAVEPOINT a");
    failure(() -> run("INSERT INTO t VALUES (1, 'a'), (1, 'b')"));
    assertThat(failure(() -> run("ROLLBACK TO nosuch")).state().code()).isEqualTo("3B001");
    assertThat(s.failedTransaction()).isTrue();
    run("ROLLBACK TO a");
    run("INSERT INTO t VALUES (1, 'a')");
    run("COMMIT");
    assertThat(ids()).containsExactly(1);
  }

  @Test
  void commitOfAFailedBlockStillRollsBackEverything() {
    table();
    run("BEGIN");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT a");
    failure(() -> run("INSERT INTO t VALUES (1, 'a')"));
    run("COMMIT");
    assertThat(ids()).isEmpty();
  }

  @Test
  void aSavepointBeforeTheFirstStatementMarksTheTransactionsStart() {
    table();
    run("BEGIN");
    run("SAVEPOINT start");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT later");
    run("INSERT INTO t VALUES (2, 'b')");
    run("ROLLBACK TO start");
    assertThat(ids()).isEmpty();
    run("INSERT INTO t VALUES (3, 'c')");
    run("COMMIT");
    assertThat(ids()).containsExactly(3);
  }

  @Test
  void worksWithAutoCommitOffAndAfterBatchedInserts() {
    table();
    s.setAutoCommit(false);
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT a");
    Prepared insert = s.prepare("INSERT INTO t VALUES (?, ?)");
    long[] counts = s.executeBatch("batch", insert, List.of(
        List.of(org.apache.calcite.avatica.remote.TypedValue.ofLocal(
            org.apache.calcite.avatica.ColumnMetaData.Rep.INTEGER, 2),
            org.apache.calcite.avatica.remote.TypedValue.ofLocal(
                org.apache.calcite.avatica.ColumnMetaData.Rep.STRING, "b")),
        List.of(org.apache.calcite.avatica.remote.TypedValue.ofLocal(
            org.apache.calcite.avatica.ColumnMetaData.Rep.INTEGER, 3),
            org.apache.calcite.avatica.remote.TypedValue.ofLocal(
                org.apache.calcite.avatica.ColumnMetaData.Rep.STRING, "c"))),
        new java.util.concurrent.atomic.AtomicBoolean(), 0);
    assertThat(counts).containsExactly(1, 1);
    run("SAVEPOINT b"); // above the savepoint the batch left on RocksDB's stack
    run("INSERT INTO t VALUES (4, 'd')");
    run("ROLLBACK TO b");
    assertThat(ids()).containsExactly(1, 2, 3);
    run("ROLLBACK TO a");
    assertThat(ids()).containsExactly(1);
    s.commit();
    s.setAutoCommit(true);
    assertThat(ids()).containsExactly(1);
  }

  @Test
  void rolledBackRowsDoNotCountInStatistics() {
    table();
    run("BEGIN");
    run("INSERT INTO t VALUES (1, 'a')");
    run("SAVEPOINT a");
    run("INSERT INTO t VALUES (2, 'b'), (3, 'c')");
    run("ROLLBACK TO a");
    run("COMMIT");
    assertThat(db.statistics().changesSinceAnalyze(db.catalog().table("t").orElseThrow())).isEqualTo(1);
  }

  @Test
  void aResultSetOpenAcrossRollbackToFailsInsteadOfReadingFreedMemory() {
    table();
    run("INSERT INTO t SELECT g, 'x' FROM generate_series(1, 1000) AS g");
    run("BEGIN");
    run("SAVEPOINT a");
    run("INSERT INTO t VALUES (1001, 'd')");
    try (Result open = s.execute("open", s.prepare("SELECT id FROM t"), List.of(),
        new java.util.concurrent.atomic.AtomicBoolean(), 0)) {
      run("ROLLBACK TO a");
      AccelException e = failure(() -> {
        while (open.cursor().hasNext()) {
          open.cursor().next();
        }
      });
      assertThat(e.state().code()).isEqualTo("55000");
    }
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(1000L);
    run("COMMIT");
  }

  @Test
  void ddlInsideIsNotUndone() {
    run("BEGIN");
    run("SAVEPOINT a");
    run("CREATE TABLE u (id INTEGER PRIMARY KEY)");
    run("ROLLBACK TO a");
    run("INSERT INTO u VALUES (1)");
    run("COMMIT");
    assertThat(rows("SELECT id FROM u")).containsExactly(1);
  }

  /**
   * A referenced key removed and then rolled back to a savepoint is no longer the transaction's removal: a
   * concurrent transaction that committed a row referencing it does not fail this one's commit (40001).
   */
  @Test
  void aRemovalOfAReferencedKeyRolledBackIsForgotten() {
    run("CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT)");
    run("CREATE TABLE o (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES u)");
    run("INSERT INTO u VALUES (1, 'a'), (2, 'b')");
    try (Session other = new Session(db)) {
      run("BEGIN");
      other.execute("1", "BEGIN");
      rows("SELECT count(*) FROM o");
      other.execute("2", "SELECT count(*) FROM u").close();
      other.execute("3", "SAVEPOINT a");
      other.execute("4", "DELETE FROM u WHERE id = 1");
      other.execute("5", "ROLLBACK TO a");
      other.execute("6", "UPDATE u SET email = 'bb' WHERE id = 2");
      run("INSERT INTO o VALUES (1, 1)");
      run("COMMIT");
      other.execute("7", "COMMIT");
    }
    assertThat(rows("SELECT id, email FROM u ORDER BY id")).containsExactly("[1, a]", "[2, bb]");
    assertThat(rows("SELECT id, user_id FROM o")).containsExactly("[1, 1]");
  }

  @Test
  void settingsSetAfterTheSavepointAreUndone() {
    Object zone = rows("SHOW TIME ZONE").get(0);
    Object timeout = rows("SHOW statement_timeout").get(0);
    run("BEGIN");
    run("SET TIME ZONE 'Europe/Paris'");
    run("SAVEPOINT a");
    run("SET TIME ZONE 'Asia/Tokyo'");
    run("SET LOCAL statement_timeout = '5s'");
    assertThat(rows("SHOW statement_timeout")).doesNotContain(timeout);
    run("ROLLBACK TO a");
    assertThat(rows("SHOW TIME ZONE")).containsExactly("Europe/Paris");
    assertThat(rows("SHOW statement_timeout")).containsExactly(timeout);
    run("SET TIME ZONE 'Asia/Tokyo'");
    run("RELEASE a");
    run("COMMIT");
    assertThat(rows("SHOW TIME ZONE")).containsExactly("Asia/Tokyo");
    assertThat(zone).isNotEqualTo("Asia/Tokyo");
  }

  /**
   * DDL is not undone, so rolling back to a savepoint set before DDL in a transaction that has written would
   * leave the DDL's work inconsistent with the rows (an index built from the block's rows losing their entries, a
   * constraint checked against rows that come back): refused with 0A000, which aborts the block.
   */
  @Test
  void rollbackToBeforeDdlInABlockThatWroteIsRefused() {
    run("BEGIN");
    run("CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT)");
    run("INSERT INTO w VALUES (1, 'x'), (2, 'y')");
    run("SAVEPOINT a");
    run("CREATE INDEX w_v ON w (v)");
    run("SAVEPOINT b");
    run("INSERT INTO w VALUES (3, 'x')");
    run("ROLLBACK TO b"); // after the DDL: fine
    AccelException e = failure(() -> run("ROLLBACK TO a"));
    assertThat(e.state().code()).isEqualTo("0A000");
    assertThat(s.failedTransaction()).isTrue();
    run("ROLLBACK TO b"); // b is still there and recovers the block
    assertThat(rows("SELECT id FROM w WHERE v = 'x'")).containsExactly(1);
    run("COMMIT");
    assertThat(rows("SELECT id FROM w WHERE v = 'x'")).containsExactly(1);

    // in a block that has not written, DDL leaves the savepoint usable
    run("CREATE TABLE other (id INTEGER PRIMARY KEY, v TEXT)");
    run("INSERT INTO w VALUES (4, 'z')");
    run("BEGIN");
    assertThat(rows("SELECT count(*) FROM w")).containsExactly(3L);
    run("SAVEPOINT c");
    run("CREATE INDEX other_v ON other (v)");
    run("INSERT INTO w VALUES (5, 'z')");
    run("ROLLBACK TO c");
    run("COMMIT");
    assertThat(rows("SELECT id FROM w WHERE v = 'z'")).containsExactly(4);
  }
}
