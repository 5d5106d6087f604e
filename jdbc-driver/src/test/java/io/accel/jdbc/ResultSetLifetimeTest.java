package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A result set lives only as long as what it reads: the end of its transaction (COMMIT, ROLLBACK,
 * setAutoCommit(true)) closes it, and the next read is an SQLException (55000), never a read of freed
 * native memory. Before, reading an index scan's result set after commit() crashed the JVM in
 * RocksIterator.isValid0Jni (with -ea, RocksJava's assertion gave XX000).
 */
class ResultSetLifetimeTest extends JdbcTestSupport {
  private static final int ROWS = 2_000;
  private Connection c;

  @BeforeEach
  void load() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, name VARCHAR(20))");
    update(c, "CREATE INDEX item_grp ON item (grp)");
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        ins.setInt(1, i);
        ins.setInt(2, i % 3);
        ins.setString(3, "n" + i);
        ins.addBatch();
      }
      ins.executeBatch();
    }
  }

  /** An open result set over an index scan (more rows than are evaluated ahead), positioned on its 5th row. */
  private ResultSet openScan(Statement s) throws SQLException {
    ResultSet rs = s.executeQuery("SELECT id, name FROM item WHERE grp >= 0 ORDER BY grp, id");
    for (int i = 0; i < 5; i++) {
      assertThat(rs.next()).isTrue();
    }
    return rs;
  }

  private static void assertClosedByTransactionEnd(ResultSet rs) {
    assertThatThrownBy(() -> {
      while (rs.next()) {
        rs.getObject(1);
      }
    }).isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
  }

  @Test
  void readingAfterCommitFailsWith55000() throws SQLException {
    c.setAutoCommit(false);
    Statement s = c.createStatement();
    ResultSet rs = openScan(s);
    c.commit();
    assertClosedByTransactionEnd(rs);
    // the connection and the statement go on working
    assertThat(count(c, "item")).isEqualTo(ROWS);
    try (ResultSet again = s.executeQuery("SELECT count(*) FROM item WHERE grp = 1")) {
      assertThat(again.next()).isTrue();
      assertThat(again.getLong(1)).isEqualTo(667);
    }
  }

  @Test
  void readingAfterRollbackFailsWith55000() throws SQLException {
    c.setAutoCommit(false);
    ResultSet rs = openScan(c.createStatement());
    c.rollback();
    assertClosedByTransactionEnd(rs);
  }

  @Test
  void readingAfterSetAutoCommitTrueFailsWith55000() throws SQLException {
    c.setAutoCommit(false);
    ResultSet rs = openScan(c.createStatement());
    c.setAutoCommit(true);
    assertClosedByTransactionEnd(rs);
  }

  @Test
  void readingAfterSqlCommitFailsWith55000() throws SQLException {
    update(c, "BEGIN");
    ResultSet rs = openScan(c.createStatement());
    update(c, "COMMIT");
    assertClosedByTransactionEnd(rs);
  }

  @Test
  void rowsAlreadyEvaluatedAreClosedToo() throws SQLException {
    c.setAutoCommit(false);
    // a small result, wholly evaluated when the query executes
    ResultSet rs = c.createStatement().executeQuery("SELECT id FROM item WHERE id < 3 ORDER BY id");
    assertThat(rs.next()).isTrue();
    c.commit();
    assertClosedByTransactionEnd(rs);
  }

  @Test
  void preparedStatementResultsAfterCommit() throws SQLException {
    c.setAutoCommit(false);
    PreparedStatement ps = c.prepareStatement("SELECT id FROM item WHERE grp = ? ORDER BY id");
    ps.setInt(1, 2);
    ResultSet rs = ps.executeQuery();
    assertThat(rs.next()).isTrue();
    c.commit();
    assertClosedByTransactionEnd(rs);
    // executed again in the next transaction, it reads again
    try (ResultSet again = ps.executeQuery()) {
      int n = 0;
      while (again.next()) {
        n++;
      }
      assertThat(n).isEqualTo(666);
    }
  }

  @Test
  void inAutocommitModeAResultSetOutlivesOtherStatements() throws SQLException {
    ResultSet rs = openScan(c.createStatement());
    update(c, "UPDATE item SET name = 'x' WHERE id = 1999");
    int n = 5;
    while (rs.next()) {
      n++;
    }
    assertThat(n).isEqualTo(ROWS);
  }

  @Test
  void readingAfterCancelFailsWith57014() throws SQLException {
    Statement s = c.createStatement();
    ResultSet rs = openScan(s);
    s.cancel();
    SQLException e = sqlError(rs::next);
    assertThat(e.getSQLState()).isEqualTo("57014");
    assertThat(e.getMessage()).isEqualTo("canceling statement due to user request");
    // the connection goes on working
    assertThat(count(c, "item")).isEqualTo(ROWS);
  }

  @Test
  void commitFromAnotherThreadWhileAScanReadsNeverCrashes() throws Exception {
    c.setAutoCommit(false);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      for (int round = 0; round < 20; round++) {
        ResultSet rs = openScan(c.createStatement());
        CountDownLatch started = new CountDownLatch(1);
        Future<Integer> read = reader.submit(() -> {
          started.countDown();
          int n = 0;
          try {
            while (rs.next()) {
              n++;
            }
          } catch (SQLException e) {
            assertThat(e.getSQLState()).isEqualTo("55000");
          }
          return n;
        });
        started.await();
        c.commit();
        assertThat(read.get(30, TimeUnit.SECONDS)).isBetween(0, ROWS);
      }
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  void holdCursorsOverCommitKeepsReadingTheSnapshotAfterCommit() throws SQLException {
    assertThat(c.getHoldability()).isEqualTo(ResultSet.CLOSE_CURSORS_AT_COMMIT);
    assertThat(c.getMetaData().getResultSetHoldability()).isEqualTo(ResultSet.CLOSE_CURSORS_AT_COMMIT);
    c.setAutoCommit(false);
    try (Statement held = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
        ResultSet.HOLD_CURSORS_OVER_COMMIT); Statement plain = c.createStatement()) {
      ResultSet kept = openScan(held);
      ResultSet closed = openScan(plain);
      try (Connection other = connect()) {
        update(other, "DELETE FROM item WHERE id >= 1000");
      }
      c.commit();
      assertClosedByTransactionEnd(closed);
      int rows = 5;
      while (kept.next()) {
        rows++;
      }
      assertThat(rows).as("the rows of the snapshot before the delete, read after commit").isEqualTo(ROWS);
    }
    // rolled back, a held cursor closes, as PostgreSQL closes a WITH HOLD cursor declared in that transaction
    try (Statement held = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
        ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
      ResultSet rs = openScan(held);
      c.rollback();
      assertThatThrownBy(() -> {
        while (rs.next()) {
          rs.getObject(1);
        }
      }).isInstanceOf(SQLException.class);
    }
    assertUsable(c);
  }

  private int snapshotsHeld() throws SQLException {
    return c.unwrap(AccelJdbcFactory.AccelConnection.class).accelMeta().session().snapshotsHeld();
  }

  @Test
  void statementsLeftOpenOrForgottenDoNotPinSnapshots() throws Exception {
    Statement open = c.createStatement();
    try (ResultSet rs = open.executeQuery("SELECT id FROM item ORDER BY id")) {
      assertThat(rs.next()).isTrue();
      assertThat(snapshotsHeld()).isEqualTo(1);
      while (rs.next()) {
        rs.getInt(1);
      }
    }
    assertThat(snapshotsHeld()).as("a result read to its end releases its snapshot; the statement is open")
        .isZero();
    for (int i = 0; i < 20; i++) {
      ResultSet rs = c.createStatement().executeQuery("SELECT id FROM item ORDER BY id");
      assertThat(rs.next()).isTrue();
    }
    assertThat(snapshotsHeld()).isEqualTo(20);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (snapshotsHeld() > 0 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50);
    }
    assertThat(snapshotsHeld()).as("statements the application dropped are closed once unreachable").isZero();
    assertUsable(c);
    open.close();
  }
}
