package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** Autocommit, JDBC and SQL transaction control, isolation between connections, write conflicts. */
class TransactionTest extends JdbcTestSupport {
  private Connection a;
  private Connection b;

  @BeforeEach
  void open() throws SQLException {
    a = connect();
    b = connect();
    update(a, "CREATE TABLE account (id INTEGER PRIMARY KEY, owner VARCHAR(20) NOT NULL, balance INTEGER)");
    update(a, "CREATE UNIQUE INDEX account_owner ON account (owner)");
    update(a, "INSERT INTO account VALUES (1, 'ann', 100), (2, 'bob', 50)");
  }

  private int balance(Connection c, int id) throws SQLException {
    return ((Number) scalar(c, "SELECT balance FROM account WHERE id = " + id)).intValue();
  }

  @Test
  void autocommitIsOnByDefaultAndEachStatementIsVisibleAtOnce() throws SQLException {
    assertThat(a.getAutoCommit()).isTrue();
    assertThat(b.getAutoCommit()).isTrue();
    assertThat(a.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    update(a, "UPDATE account SET balance = 0 WHERE id = 1");
    assertThat(balance(b, 1)).isZero();
  }

  @Test
  void commitMakesWritesVisibleToOthers() throws SQLException {
    a.setAutoCommit(false);
    assertThat(a.getAutoCommit()).isFalse();
    update(a, "UPDATE account SET balance = balance - 30 WHERE id = 1");
    update(a, "UPDATE account SET balance = balance + 30 WHERE id = 2");
    update(a, "INSERT INTO account VALUES (3, 'cy', 1)");
    // the transaction sees its own writes
    assertThat(balance(a, 1)).isEqualTo(70);
    assertThat(balance(a, 2)).isEqualTo(80);
    assertThat(count(a, "account")).isEqualTo(3);
    // others do not, until commit
    assertThat(balance(b, 1)).isEqualTo(100);
    assertThat(count(b, "account")).isEqualTo(2);
    a.commit();
    assertThat(balance(b, 1)).isEqualTo(70);
    assertThat(balance(b, 2)).isEqualTo(80);
    assertThat(count(b, "account")).isEqualTo(3);
    // still in manual commit mode: the next transaction starts by itself
    update(a, "DELETE FROM account WHERE id = 3");
    assertThat(count(b, "account")).isEqualTo(3);
    a.commit();
    assertThat(count(b, "account")).isEqualTo(2);
  }

  @Test
  void readCommittedSeesEarlierCommitsAndRepeatableReadKeepsItsSnapshot() throws SQLException {
    a.setAutoCommit(false);
    assertThat(balance(a, 1)).isEqualTo(100);
    update(b, "UPDATE account SET balance = 90 WHERE id = 1");
    assertThat(balance(a, 1)).isEqualTo(90);
    a.commit();
    a.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    assertThat(a.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    assertThat(scalar(a, "SHOW transaction_isolation")).isEqualTo("repeatable read");
    update(b, "UPDATE account SET balance = 80 WHERE id = 1");
    assertThat(balance(a, 1)).isEqualTo(80);
    update(b, "UPDATE account SET balance = 70 WHERE id = 1");
    assertThat(balance(a, 1)).isEqualTo(80);
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> update(a, "UPDATE account SET balance = balance + 1 WHERE id = 1"));
    assertThat(e.getSQLState()).isEqualTo("40001");
    a.rollback();
    assertThat(balance(a, 1)).isEqualTo(70);
  }

  @Test
  void theOptionsPropertySetsSessionParametersAsPgJdbcDoes() throws Exception {
    try (Connection c = connect(url + "?options=-c%20lock_timeout=150ms%20-cstatement_timeout=5s")) {
      assertThat(scalar(c, "SHOW statement_timeout")).isEqualTo("5000");
      assertThat(scalar(c, "SHOW lock_timeout")).isEqualTo("150");
      a.setAutoCommit(false);
      update(a, "UPDATE account SET balance = 5 WHERE id = 1");
      SQLException e = expectState("55P03", c, "UPDATE account SET balance = 6 WHERE id = 1");
      assertThat(e.getMessage()).contains("lock timeout");
      a.commit();
    }
    try (Connection c = connect(url + "?options=--lock-timeout=2s")) {
      assertThat(scalar(c, "SHOW lock_timeout")).isEqualTo("2000");
    }
    assertThat(org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> connect(url + "?options=-c%20no_such_setting=1")).getSQLState()).isEqualTo("42704");
    assertThat(org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> connect(url + "?options=lock_timeout")).getSQLState()).isEqualTo("08006");
  }

  @Test
  void rollbackDiscardsWrites() throws SQLException {
    a.setAutoCommit(false);
    update(a, "UPDATE account SET balance = 0");
    update(a, "DELETE FROM account WHERE id = 2");
    update(a, "INSERT INTO account VALUES (3, 'cy', 1)");
    assertThat(count(a, "account")).isEqualTo(2);
    a.rollback();
    assertThat(rows(a, "SELECT id, balance FROM account ORDER BY id")).containsExactly(List.of(1, 100), List.of(2, 50));
    assertThat(rows(b, "SELECT id, balance FROM account ORDER BY id")).containsExactly(List.of(1, 100), List.of(2, 50));
  }

  @Test
  void preparedStatementsJoinTheTransaction() throws SQLException {
    a.setAutoCommit(false);
    try (PreparedStatement up = a.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?");
         PreparedStatement read = a.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
      up.setInt(1, 5);
      up.setInt(2, 1);
      assertThat(up.executeUpdate()).isEqualTo(1);
      read.setInt(1, 1);
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(105);
      }
      assertThat(balance(b, 1)).isEqualTo(100);
      a.rollback();
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(100);
      }
    }
  }

  @Test
  void switchingAutocommitOnCommitsTheOpenTransaction() throws SQLException {
    a.setAutoCommit(false);
    update(a, "UPDATE account SET balance = 1 WHERE id = 1");
    assertThat(balance(b, 1)).isEqualTo(100);
    a.setAutoCommit(true);
    assertThat(balance(b, 1)).isEqualTo(1);
    a.rollback(); // nothing to roll back
    assertThat(balance(b, 1)).isEqualTo(1);
  }

  @Test
  void aRepeatableReadTransactionReadsOneSnapshot() throws SQLException {
    a.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    a.setAutoCommit(false);
    assertThat(balance(a, 1)).isEqualTo(100);
    update(b, "UPDATE account SET balance = 999 WHERE id = 1");
    update(b, "INSERT INTO account VALUES (3, 'cy', 1)");
    assertThat(balance(a, 1)).isEqualTo(100);
    assertThat(count(a, "account")).isEqualTo(2);
    a.commit();
    assertThat(balance(a, 1)).isEqualTo(999);
    assertThat(count(a, "account")).isEqualTo(3);
  }

  @Test
  void sqlBeginCommitAndRollback() throws SQLException {
    try (Statement s = a.createStatement()) {
      assertThat(s.execute("BEGIN")).isFalse();
      s.executeUpdate("UPDATE account SET balance = 0 WHERE id = 1");
      assertThat(balance(a, 1)).isZero();
      assertThat(balance(b, 1)).isEqualTo(100);
      assertThat(s.execute("COMMIT")).isFalse();
      assertThat(balance(b, 1)).isZero();

      s.execute("START TRANSACTION");
      s.executeUpdate("UPDATE account SET balance = 7 WHERE id = 1");
      s.executeUpdate("INSERT INTO account VALUES (3, 'cy', 1)");
      assertThat(balance(a, 1)).isEqualTo(7);
      s.execute("ROLLBACK");
      assertThat(balance(a, 1)).isZero();
      assertThat(count(a, "account")).isEqualTo(2);

      // after the block, autocommit applies again
      s.executeUpdate("UPDATE account SET balance = 3 WHERE id = 1");
      assertThat(balance(b, 1)).isEqualTo(3);

      s.execute("begin transaction");
      s.executeUpdate("UPDATE account SET balance = 4 WHERE id = 1");
      s.execute("commit work");
      assertThat(balance(b, 1)).isEqualTo(4);
    }
  }

  @Test
  void sqlCommitEndsATransactionStartedBySetAutoCommitFalse() throws SQLException {
    a.setAutoCommit(false);
    update(a, "UPDATE account SET balance = 11 WHERE id = 1");
    update(a, "COMMIT");
    assertThat(balance(b, 1)).isEqualTo(11);
  }

  /** Runs an update on another thread, as a second client would. */
  private static java.util.concurrent.CompletableFuture<Integer> later(Connection c, String sql) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return update(c, sql);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  private static void stillWaiting(java.util.concurrent.Future<?> f) throws Exception {
    Thread.sleep(300);
    assertThat(f.isDone()).as("the second writer waits for the first's transaction").isFalse();
  }

  @Test
  void aSecondWriterWaitsForTheFirstAndChangesWhatItCommitted() throws Exception {
    a.setAutoCommit(false);
    b.setAutoCommit(false);
    assertThat(update(a, "UPDATE account SET balance = balance + 10 WHERE id = 1")).isEqualTo(1);
    var second = later(b, "UPDATE account SET balance = balance + 20 WHERE id = 1");
    stillWaiting(second);
    a.commit();
    assertThat(second.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
    b.commit();
    assertThat(balance(a, 1)).isEqualTo(130);
  }

  @Test
  void anAutocommitWriterWaitsForATransactionsRow() throws Exception {
    a.setAutoCommit(false);
    update(a, "UPDATE account SET balance = 1 WHERE id = 2");
    var second = later(b, "UPDATE account SET balance = balance + 2 WHERE id = 2");
    stillWaiting(second);
    a.commit();
    assertThat(second.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(balance(a, 2)).isEqualTo(3);
  }

  @Test
  void aRowDeletedByTheFirstWriterIsNotUpdatedByTheSecond() throws Exception {
    update(a, "BEGIN");
    update(b, "BEGIN");
    update(a, "DELETE FROM account WHERE id = 2");
    var second = later(b, "UPDATE account SET balance = 0 WHERE id = 2");
    stillWaiting(second);
    update(a, "COMMIT");
    assertThat(second.get(10, java.util.concurrent.TimeUnit.SECONDS)).isZero();
    update(b, "COMMIT");
    assertThat(count(a, "account")).isEqualTo(1);
  }

  @Test
  void ofTwoRepeatableReadWritersOfOneRowTheSecondFails() throws Exception {
    b.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    a.setAutoCommit(false);
    b.setAutoCommit(false);
    assertThat(balance(b, 1)).isEqualTo(100);
    update(a, "UPDATE account SET balance = balance + 10 WHERE id = 1");
    var second = later(b, "UPDATE account SET balance = balance + 20 WHERE id = 1");
    stillWaiting(second);
    a.commit();
    assertThatThrownBy(() -> second.get(10, java.util.concurrent.TimeUnit.SECONDS))
        .hasCauseInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e.getCause()).getSQLState()).isEqualTo("40001"));
    b.rollback();
    assertUsable(b);
    assertThat(balance(b, 1)).isEqualTo(110);
  }

  @Test
  void writersOfDifferentRowsBothCommit() throws SQLException {
    a.setAutoCommit(false);
    b.setAutoCommit(false);
    update(a, "UPDATE account SET balance = 1 WHERE id = 1");
    update(b, "UPDATE account SET balance = 2 WHERE id = 2");
    a.commit();
    b.commit();
    assertThat(rows(a, "SELECT balance FROM account ORDER BY id")).containsExactly(List.of(1), List.of(2));
  }

  @Test
  void concurrentInsertsOfTheSameKeyConflict() throws Exception {
    a.setAutoCommit(false);
    b.setAutoCommit(false);
    update(a, "INSERT INTO account VALUES (3, 'cy', 1)");
    // as in PostgreSQL, the second insert of the key waits for the first transaction, then fails with 23505
    java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<SQLException> second = thread.submit(
          () -> sqlError(() -> update(b, "INSERT INTO account VALUES (3, 'di', 2)")));
      assertThatThrownBy(() -> second.get(300, java.util.concurrent.TimeUnit.MILLISECONDS))
          .isInstanceOf(java.util.concurrent.TimeoutException.class);
      a.commit();
      assertThat(second.get(10, java.util.concurrent.TimeUnit.SECONDS).getSQLState()).isEqualTo("23505");
    } finally {
      thread.shutdownNow();
    }
    b.rollback();
    assertThat(rows(b, "SELECT owner FROM account WHERE id = 3")).containsExactly(List.of("cy"));
  }

  @Test
  void aFailedStatementAbortsTheTransactionAsInPostgresql() throws SQLException {
    a.setAutoCommit(false);
    update(a, "INSERT INTO account VALUES (3, 'cy', 30)");
    // the second row collides with the primary key: the statement fails and the transaction is aborted
    expectState("23505", a, "INSERT INTO account VALUES (4, 'di', 40), (1, 'dup', 0)");
    expectState("25P02", a, "INSERT INTO account VALUES (5, 'ed', 50)");
    expectState("25P02", a, "SELECT count(*) FROM account");
    // COMMIT of an aborted transaction rolls it back: nothing of it is visible, and the connection goes on
    a.commit();
    assertThat(count(b, "account")).isEqualTo(2);
    update(a, "INSERT INTO account VALUES (5, 'ed', 50)");
    a.commit();
    assertThat(rows(b, "SELECT id, owner, balance FROM account ORDER BY id")).containsExactly(
        List.of(1, "ann", 100), List.of(2, "bob", 50), List.of(5, "ed", 50));
  }

  @Test
  void aFailedStatementInASqlBlockAbortsItUntilRollback() throws SQLException {
    update(a, "BEGIN");
    update(a, "UPDATE account SET balance = 0 WHERE id = 1");
    expectState("23505", a, "INSERT INTO account VALUES (3, 'x', 1), (4, 'x', 1)");
    expectState("25P02", a, "INSERT INTO account VALUES (5, 'y', 1)");
    update(a, "ROLLBACK");
    assertThat(rows(b, "SELECT id, balance FROM account ORDER BY id")).containsExactly(List.of(1, 100), List.of(2, 50));
    assertUsable(a);
  }

  @Test
  void rollbackAfterAFailedStatementRecoversTheConnection() throws SQLException {
    a.setAutoCommit(false);
    update(a, "INSERT INTO account VALUES (3, 'cy', 30)");
    expectState("23505", a, "INSERT INTO account VALUES (1, 'dup', 0)");
    a.rollback();
    assertUsable(a);
    assertThat(count(a, "account")).isEqualTo(2);
    update(a, "INSERT INTO account VALUES (4, 'di', 40)");
    a.commit();
    assertThat(count(b, "account")).isEqualTo(3);
  }

  @Test
  void failedAutocommitStatementChangesNothing() throws SQLException {
    expectState("23505", a, "INSERT INTO account VALUES (3, 'cy', 1), (4, 'di', 1), (2, 'dup', 1)");
    expectState("23505", a, "UPDATE account SET id = 1 WHERE id = 2");
    expectState("23505", a, "UPDATE account SET owner = 'bob', balance = 0 WHERE id <= 2");
    assertThat(rows(b, "SELECT balance FROM account ORDER BY id")).containsExactly(List.of(100), List.of(50));
    assertThat(rows(b, "SELECT id FROM account ORDER BY id")).containsExactly(List.of(1), List.of(2));
  }

  @Test
  void ddlInsideATransactionDoesNotCommitIt() throws SQLException {
    a.setAutoCommit(false);
    update(a, "INSERT INTO account VALUES (3, 'cy', 1)");
    update(a, "CREATE TABLE extra (x INTEGER)");
    assertThat(count(b, "account")).isEqualTo(2);
    a.rollback();
    assertThat(count(a, "account")).isEqualTo(2);
    // the DDL itself took effect at once and stays
    assertThat(count(b, "extra")).isZero();
  }

  @Test
  void ddlInsideATransactionIsVisible() throws SQLException {
    a.setAutoCommit(false);
    update(a, "CREATE TABLE extra (x INTEGER)");
    update(a, "INSERT INTO extra VALUES (1)");
    assertThat(count(a, "extra")).isEqualTo(1);
    a.commit();
    assertThat(count(b, "extra")).isEqualTo(1);
  }

  @Test
  void anIndexCreatedAfterABlockBeganNeverGivesItWrongRowsOrMissingEntries() throws SQLException {
    a.setAutoCommit(false);
    assertThat(count(a, "account")).isEqualTo(2);
    update(a, "INSERT INTO account VALUES (3, 'cy', 70)");
    // b indexes balance while a's block is open: the index holds neither a's row nor what a's snapshot sees
    update(b, "CREATE INDEX account_balance ON account (balance)");
    SQLException read = expectState("40001", a, "SELECT id FROM account WHERE balance >= 60");
    assertThat(read.getMessage()).contains("account").contains("DDL");
    // the block is aborted; its row never lands, so the index stays complete
    expectState("25P02", a, "SELECT 1");
    a.rollback();
    assertThat(rows(b, "SELECT id FROM account WHERE balance >= 60 ORDER BY id")).containsExactly(List.of(1));
    assertThat(rows(a, "SELECT id FROM account WHERE balance >= 60 ORDER BY id")).containsExactly(List.of(1));
  }

  @Test
  void aBlockThatWroteATableIndexedMeanwhileFailsToCommitAndChangesNothing() throws SQLException {
    a.setAutoCommit(false);
    update(a, "INSERT INTO account VALUES (3, 'cy', 70)");
    update(b, "CREATE INDEX account_balance ON account (balance)");
    SQLException commit = sqlError(() -> a.commit());
    assertThat(commit.getSQLState()).isEqualTo("40001");
    a.setAutoCommit(true);
    assertThat(count(b, "account")).isEqualTo(2);
    // with no entry missing, the index and the table agree: the retried write lands in both
    update(a, "INSERT INTO account VALUES (3, 'cy', 70)");
    assertThat(rows(b, "SELECT id FROM account WHERE balance = 70")).containsExactly(List.of(3));
    assertThat(rows(b, "SELECT count(*) FROM account WHERE balance >= 0")).containsExactly(List.of(3L));
  }

  @Test
  void aBlockThatWroteADroppedIndexOrTableFailsWithSerializationFailureNotAStorageError() throws SQLException {
    a.setAutoCommit(false);
    update(a, "UPDATE account SET owner = 'anna' WHERE id = 1");
    update(b, "DROP INDEX account_owner");
    assertThat(sqlError(() -> a.commit()).getSQLState()).isEqualTo("40001");
    update(a, "INSERT INTO account VALUES (3, 'cy', 1)");
    update(b, "DROP TABLE account");
    assertThat(sqlError(() -> a.commit()).getSQLState()).isEqualTo("40001");
    assertUsable(a);
  }

  @Test
  void aTableCreatedFilledAndIndexedInOneBlockIsComplete() throws SQLException {
    a.setAutoCommit(false);
    update(a, "CREATE TABLE item (id INTEGER PRIMARY KEY, tag VARCHAR(10))");
    update(a, "INSERT INTO item VALUES (1, 'x'), (2, 'y'), (3, 'x')");
    update(a, "CREATE INDEX item_tag ON item (tag)");
    update(a, "INSERT INTO item VALUES (4, 'x')");
    assertThat(rows(a, "SELECT id FROM item WHERE tag = 'x' ORDER BY id"))
        .containsExactly(List.of(1), List.of(3), List.of(4));
    a.commit();
    assertThat(rows(b, "SELECT id FROM item WHERE tag = 'x' ORDER BY id"))
        .containsExactly(List.of(1), List.of(3), List.of(4));
  }

  @Test
  void aBlockAlreadyUnderWayCanCreateFillIndexAndCommitANewTable() throws SQLException {
    a.setAutoCommit(false);
    assertThat(count(a, "account")).isEqualTo(2);
    update(a, "CREATE TABLE item (id INTEGER PRIMARY KEY, tag VARCHAR(10), UNIQUE (tag))");
    update(a, "INSERT INTO item VALUES (1, 'x'), (2, 'y')");
    update(a, "CREATE INDEX item_tag_id ON item (tag, id)");
    expectState("23505", a, "INSERT INTO item VALUES (3, 'x')");
    a.rollback();
    assertThat(count(b, "item")).isZero();
    update(a, "INSERT INTO item VALUES (1, 'x'), (2, 'y')");
    update(a, "UPDATE item SET tag = 'z' WHERE id = 2");
    a.commit();
    assertThat(rows(b, "SELECT id FROM item WHERE tag = 'z'")).containsExactly(List.of(2));
    assertThat(rows(b, "SELECT id FROM item WHERE tag >= 'a' ORDER BY tag")).containsExactly(List.of(1), List.of(2));
  }

  /** A failed DDL statement aborts its block as any failed statement does; a nested BEGIN does not. */
  @Test
  void failedCommandsAbortTheBlockButANestedBeginDoesNot() throws SQLException {
    update(a, "CREATE TABLE blk (id INT PRIMARY KEY)");
    a.setAutoCommit(false);
    update(a, "INSERT INTO blk VALUES (1)");
    update(a, "BEGIN"); // a warning in PostgreSQL, and no error here
    update(a, "INSERT INTO blk VALUES (2)");
    expectState("42P07", a, "CREATE TABLE blk (id INT)");
    expectState("25P02", a, "CREATE TABLE blk2 (id INT)");
    expectState("25P02", a, "ANALYZE blk");
    a.rollback();
    assertThat(count(a, "blk")).isZero();
    expectState("42P01", a, "SELECT * FROM blk2");
    a.rollback();
  }
}
