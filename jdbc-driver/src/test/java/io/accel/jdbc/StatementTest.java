package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** execute / executeQuery / executeUpdate, update counts, batches, maxRows and fetchSize. */
class StatementTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
  }

  private void createItems() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    update(c, "INSERT INTO item VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40), (5, 'e', 50)");
  }

  @Test
  void executeReportsResultSetOrUpdateCount() throws SQLException {
    try (Statement s = c.createStatement()) {
      assertThat(s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)")).isFalse();
      assertThat(s.getResultSet()).isNull();
      assertThat(s.getUpdateCount()).isZero();

      assertThat(s.execute("INSERT INTO item VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)")).isFalse();
      assertThat(s.getResultSet()).isNull();
      assertThat(s.getUpdateCount()).isEqualTo(3);

      assertThat(s.execute("UPDATE item SET qty = qty + 1 WHERE id >= 2")).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(2);

      assertThat(s.execute("DELETE FROM item WHERE id = 3")).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(1);

      assertThat(s.execute("SELECT id, qty FROM item ORDER BY id")).isTrue();
      assertThat(s.getUpdateCount()).isEqualTo(-1);
      try (ResultSet rs = s.getResultSet()) {
        assertThat(rs).isNotNull();
        assertThat(rows(rs)).containsExactly(List.of(1, 10), List.of(2, 21));
      }
      assertThat(s.getMoreResults()).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(-1);
    }
  }

  @Test
  void escapeProcessingAndPoolableAreAcceptedAsHints() throws SQLException {
    createItems();
    try (Statement s = c.createStatement(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM item")) {
      s.setEscapeProcessing(false);
      s.setEscapeProcessing(true);
      s.setPoolable(true);
      ps.setEscapeProcessing(false);
      ps.setPoolable(false);
      assertThat(s.executeUpdate("UPDATE item SET qty = 0 WHERE id = 1")).isEqualTo(1);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).containsExactly(List.of(5L));
      }
      s.close();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.setEscapeProcessing(false))
          .isInstanceOf(SQLException.class);
    }
  }

  @Test
  void executeUpdateReturnsRowCounts() throws SQLException {
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)"))
          .isZero();
      assertThat(s.executeUpdate("INSERT INTO item VALUES (1, 'a', 10)")).isEqualTo(1);
      assertThat(s.executeUpdate("INSERT INTO item VALUES (2, 'b', 20), (3, 'c', 30), (4, 'd', 40)")).isEqualTo(3);
      assertThat(s.executeUpdate("INSERT INTO item SELECT id + 10, name, qty FROM item WHERE id > 2")).isEqualTo(2);
      assertThat(s.executeUpdate("UPDATE item SET qty = 0 WHERE id > 10")).isEqualTo(2);
      assertThat(s.executeUpdate("UPDATE item SET qty = 0 WHERE id = 99")).isZero();
      assertThat(s.executeUpdate("UPDATE item SET name = 'z'")).isEqualTo(6);
      assertThat(s.executeUpdate("DELETE FROM item WHERE qty = 0")).isEqualTo(2);
      assertThat(s.executeUpdate("DELETE FROM item WHERE id = 99")).isZero();
      assertThat(s.executeUpdate("CREATE INDEX item_qty ON item (qty)")).isZero();
      assertThat(s.executeUpdate("DROP INDEX item_qty")).isZero();
      assertThat(s.executeUpdate("DELETE FROM item")).isEqualTo(4);
      assertThat(s.executeUpdate("DROP TABLE item")).isZero();
      assertThat(s.getUpdateCount()).isZero();
    }
  }

  @Test
  void executeQueryReturnsRows() throws SQLException {
    createItems();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM item WHERE qty > 25 ORDER BY name")) {
      assertThat(rs.getStatement()).isSameAs(s);
      assertThat(rows(rs)).containsExactly(List.of("c"), List.of("d"), List.of("e"));
    }
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM item WHERE id < 0")) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void nextAfterTheEndKeepsReturningFalse() throws SQLException {
    createItems();
    update(c, "CREATE TABLE other (id INTEGER PRIMARY KEY, val VARCHAR(20))");
    update(c, "INSERT INTO other VALUES (1, 'x'), (3, 'y'), (5, 'z'), (7, 'w')");
    for (String sql : List.of("SELECT a.name, b.qty FROM item a JOIN item b ON a.id = b.id WHERE a.id = 2",
        "SELECT a.name, b.val FROM item a JOIN other b ON a.id = b.id",
        "SELECT name FROM item WHERE id = 3", "SELECT name FROM item ORDER BY qty")) {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          assertThat(rs.getString(1)).isNotNull();
        }
        for (int i = 0; i < 3; i++) {
          assertThat(rs.next()).as(sql).isFalse();
        }
      }
    }
  }

  @Test
  void aResultSetThatFailedKeepsFailingInsteadOfReturningRowsItSkipped() throws SQLException {
    update(c, "CREATE TABLE n (id INTEGER PRIMARY KEY)");
    StringBuilder values = new StringBuilder("INSERT INTO n VALUES (1)");
    for (int i = 2; i <= 300; i++) {
      values.append(", (").append(i).append(')');
    }
    update(c, values.toString());
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM n WHERE 10 / (id - 250) <> 7")) {
      int read = 0;
      SQLException first = null;
      while (first == null) {
        try {
          assertThat(rs.next()).isTrue();
          read++;
        } catch (SQLException e) {
          first = e;
        }
      }
      assertThat(first.getSQLState()).isEqualTo("22012");
      assertThat(read).isEqualTo(249);
      // row 250 is where the filter failed: it must never come out as if it had passed
      expectState("22012", rs::next);
      expectState("22012", rs::next);
    }
  }

  @Test
  void executeQueryOfAStatementWithoutRowsIsAnError() throws SQLException {
    createItems();
    try (Statement s = c.createStatement()) {
      expectState("02000", () -> s.executeQuery("UPDATE item SET qty = 0 WHERE id = 1"));
      expectState("02000", () -> s.executeQuery("CREATE INDEX item_qty ON item (qty)"));
    }
    assertUsable(c);
  }

  @Test
  void executeUpdateOfAQueryIsAnError() throws SQLException {
    createItems();
    try (Statement s = c.createStatement()) {
      expectState("0100E", () -> s.executeUpdate("SELECT * FROM item"));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM item WHERE id = ?")) {
      ps.setInt(1, 1);
      expectState("0100E", ps::executeUpdate);
    }
    assertUsable(c);
  }

  @Test
  void statementIsReusable() throws SQLException {
    createItems();
    try (Statement s = c.createStatement()) {
      for (int i = 1; i <= 5; i++) {
        try (ResultSet rs = s.executeQuery("SELECT qty FROM item WHERE id = " + i)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i * 10);
        }
        assertThat(s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE id = " + i)).isEqualTo(1);
      }
    }
    assertThat(scalar(c, "SELECT sum(qty) FROM item")).isEqualTo(155L);
  }

  @Test
  void statementBatch() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    try (Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO item VALUES (1, 'a', 10)");
      s.addBatch("INSERT INTO item VALUES (2, 'b', 20), (3, 'c', 30)");
      s.addBatch("UPDATE item SET qty = qty * 2 WHERE id <= 2");
      s.addBatch("DELETE FROM item WHERE id = 3");
      s.addBatch("CREATE INDEX item_name ON item (name)");
      assertThat(s.executeBatch()).containsExactly(1, 2, 2, 1, 0);
      // the batch is emptied by executeBatch
      assertThat(s.executeBatch()).isEmpty();
      s.addBatch("INSERT INTO item VALUES (9, 'z', 90)");
      s.clearBatch();
      assertThat(s.executeBatch()).isEmpty();
    }
    assertThat(rows(c, "SELECT id, qty FROM item ORDER BY id")).containsExactly(List.of(1, 20), List.of(2, 40));
  }

  @Test
  void failingStatementBatchReportsTheError() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    try (Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO item VALUES (1, 'a', 10)");
      s.addBatch("INSERT INTO item VALUES (1, 'dup', 10)");
      s.addBatch("INSERT INTO item VALUES (3, 'c', 30)");
      SQLException e = expectState("23505", s::executeBatch);
      assertThat((Throwable) e).isInstanceOf(BatchUpdateException.class);
      // the statement before the failing one ran
      assertThat(((BatchUpdateException) e).getUpdateCounts()).containsExactly(1);
    }
    assertUsable(c);
    // the duplicate itself was not inserted
    assertThat(scalar(c, "SELECT count(*) FROM item WHERE name = 'dup'")).isEqualTo(0L);
  }

  @Test
  void preparedStatementBatch() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, qty) VALUES (?, ?, ?)")) {
      for (int i = 1; i <= 4; i++) {
        ps.setInt(1, i);
        ps.setString(2, "n" + i);
        ps.setInt(3, i * 100);
        ps.addBatch();
      }
      assertThat(ps.executeBatch()).containsExactly(1, 1, 1, 1);
      assertThat(ps.executeBatch()).isEmpty();
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = qty + ? WHERE id >= ?")) {
      ps.setInt(1, 1);
      ps.setInt(2, 3);
      ps.addBatch();
      ps.setInt(1, 10);
      ps.setInt(2, 1);
      ps.addBatch();
      ps.setInt(1, 5);
      ps.setInt(2, 100);
      ps.addBatch();
      assertThat(ps.executeBatch()).containsExactly(2, 4, 0);
    }
    assertThat(rows(c, "SELECT id, name, qty FROM item ORDER BY id")).containsExactly(List.of(1, "n1", 110),
        List.of(2, "n2", 210), List.of(3, "n3", 311), List.of(4, "n4", 411));
  }

  @Test
  void failingPreparedBatchReportsTheError() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, qty INTEGER)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setString(2, "a");
      ps.addBatch();
      ps.setInt(1, 2);
      ps.setNull(2, java.sql.Types.VARCHAR);
      ps.addBatch();
      SQLException e = expectState("23502", ps::executeBatch);
      assertThat((Throwable) e).isInstanceOf(BatchUpdateException.class);
      assertThat(((BatchUpdateException) e).getUpdateCounts()).containsExactly(1);
    }
    assertUsable(c);
    // as with pgJDBC, a batch outside a transaction block is one transaction: the row before the failure is gone
    assertThat(count(c, "item")).isZero();
    assertThat(c.getAutoCommit()).isTrue();
    update(c, "INSERT INTO item (id, name) VALUES (1, 'after')");
    assertThat(count(connect(), "item")).isEqualTo(1);
  }

  @Test
  void preparedBatchInsideATransaction() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    Connection other = connect();
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id) VALUES (?)")) {
      for (int i = 1; i <= 3; i++) {
        ps.setInt(1, i);
        ps.addBatch();
      }
      assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
    }
    assertThat(count(c, "item")).isEqualTo(3);
    assertThat(count(other, "item")).isZero();
    c.commit();
    assertThat(count(other, "item")).isEqualTo(3);
  }

  @Test
  void aBatchFailingInsideATransactionKeepsTheRowsBeforeItsFailureAndAbortsTheBlock() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20) UNIQUE, qty INTEGER)");
    c.setAutoCommit(false);
    update(c, "INSERT INTO item VALUES (100, 'before', 0)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
      String[] names = {"a", "b", "c", "b", "e"};
      for (int i = 0; i < names.length; i++) {
        ps.setInt(1, i + 1);
        ps.setString(2, names[i]);
        ps.addBatch();
      }
      SQLException e = expectState("23505", ps::executeBatch);
      assertThat(((BatchUpdateException) e).getUpdateCounts()).containsExactly(1, 1, 1);
      assertThat(e.getMessage()).contains("item_name_key");
    }
    // as in PostgreSQL, the failed statement aborted the transaction block
    expectState("25P02", () -> count(c, "item"));
    c.rollback();
    assertThat(count(c, "item")).isZero();
  }

  @Test
  void aBatchedInsertIsReadByTheSameTransactionAndUndoneByItsRollback() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    update(c, "CREATE INDEX item_qty ON item (qty)");
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?), (? + 1000, ?, ?)")) {
      for (int i = 1; i <= 50; i++) {
        ps.setInt(1, i);
        ps.setString(2, "n" + i);
        ps.setInt(3, i % 7);
        ps.setInt(4, i);
        ps.setString(5, "m" + i);
        ps.setInt(6, i % 7);
        ps.addBatch();
      }
      int[] counts = ps.executeBatch();
      assertThat(counts).hasSize(50).containsOnly(2);
    }
    assertThat(count(c, "item")).isEqualTo(100);
    assertThat(scalar(c, "SELECT count(*) FROM item WHERE qty = 3")).isEqualTo(14L);
    assertThat(scalar(c, "SELECT name FROM item WHERE id = 1049")).isEqualTo("m49");
    c.rollback();
    assertThat(count(c, "item")).isZero();
    assertThat(scalar(c, "SELECT count(*) FROM item WHERE qty = 3")).isEqualTo(0L);
  }

  @Test
  void batchedInsertsThatReadTheTableSeeTheRowsOfTheExecutionsBeforeThem() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO item SELECT COALESCE(MAX(id), 0) + 1, ?, 0 FROM item")) {
      for (String name : List.of("a", "b", "c")) {
        ps.setString(1, name);
        ps.addBatch();
      }
      assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
    }
    assertThat(rows(c, "SELECT id, name FROM item ORDER BY id"))
        .containsExactly(List.of(1, "a"), List.of(2, "b"), List.of(3, "c"));
  }

  @Test
  void aBatchWithADuplicateKeyWithinItselfFailsAtThatRow() throws SQLException {
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, qty) VALUES (?, ?)")) {
      int[] ids = {1, 2, 3, 4, 2, 6};
      for (int id : ids) {
        ps.setInt(1, id);
        ps.setInt(2, id * 10);
        ps.addBatch();
      }
      SQLException e = expectState("23505", ps::executeBatch);
      assertThat(((BatchUpdateException) e).getUpdateCounts()).containsExactly(1, 1, 1, 1);
      assertThat(e.getMessage()).contains("item_pkey").contains("(id)=(2)");
    }
    assertUsable(c);
  }

  @Test
  void maxRowsLimitsTheRowsReturned() throws SQLException {
    createItems();
    try (Statement s = c.createStatement()) {
      assertThat(s.getMaxRows()).isZero();
      s.setMaxRows(2);
      assertThat(s.getMaxRows()).isEqualTo(2);
      try (ResultSet rs = s.executeQuery("SELECT id FROM item ORDER BY id")) {
        assertThat(rows(rs)).containsExactly(List.of(1), List.of(2));
      }
      s.setMaxRows(0);
      try (ResultSet rs = s.executeQuery("SELECT id FROM item ORDER BY id")) {
        assertThat(rows(rs)).hasSize(5);
      }
      s.setLargeMaxRows(3);
      assertThat(s.getLargeMaxRows()).isEqualTo(3);
      try (ResultSet rs = s.executeQuery("SELECT id FROM item ORDER BY id DESC")) {
        assertThat(rows(rs)).containsExactly(List.of(5), List.of(4), List.of(3));
      }
      // maxRows does not limit how many rows an update changes
      s.setMaxRows(1);
      assertThat(s.executeUpdate("UPDATE item SET qty = 0")).isEqualTo(5);
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM item WHERE id > ? ORDER BY id")) {
      ps.setMaxRows(1);
      ps.setInt(1, 2);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).containsExactly(List.of(3));
      }
    }
  }

  @Test
  void negativeMaxRowsIsRejected() throws SQLException {
    try (Statement s = c.createStatement()) {
      expectState("22023", () -> s.setMaxRows(-1));
    }
  }

  @Test
  void fetchSizeIsAcceptedAndAllRowsAreStillRead() throws SQLException {
    update(c, "CREATE TABLE seq (n INTEGER PRIMARY KEY)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO seq VALUES (?)")) {
      for (int i = 0; i < 250; i++) {
        ps.setInt(1, i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (Statement s = c.createStatement()) {
      s.setFetchSize(7);
      assertThat(s.getFetchSize()).isEqualTo(7);
      try (ResultSet rs = s.executeQuery("SELECT n FROM seq ORDER BY n")) {
        rs.setFetchSize(3);
        assertThat(rs.getFetchSize()).isEqualTo(3);
        int expected = 0;
        while (rs.next()) {
          assertThat(rs.getInt(1)).isEqualTo(expected++);
        }
        assertThat(expected).isEqualTo(250);
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT n FROM seq WHERE n >= ?")) {
      ps.setFetchSize(1);
      ps.setInt(1, 200);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).hasSize(50);
      }
    }
  }

  @Test
  void twoOpenResultSetsAndAWriteInBetween() throws SQLException {
    createItems();
    try (Statement s1 = c.createStatement(); Statement s2 = c.createStatement(); Statement s3 = c.createStatement()) {
      ResultSet r1 = s1.executeQuery("SELECT id FROM item ORDER BY id");
      ResultSet r2 = s2.executeQuery("SELECT name FROM item ORDER BY id");
      assertThat(s3.executeUpdate("INSERT INTO item VALUES (6, 'f', 60)")).isEqualTo(1);
      int n = 0;
      while (r1.next()) {
        assertThat(r2.next()).isTrue();
        n++;
        assertThat(r1.getInt(1)).isEqualTo(n);
        assertThat(r2.getString(1)).isEqualTo(String.valueOf((char) ('a' + n - 1)));
      }
      // each result set reads the snapshot of its own statement
      assertThat(n).isEqualTo(5);
      assertThat(r2.next()).isFalse();
    }
    assertThat(count(c, "item")).isEqualTo(6);
  }

  @Test
  void queryInABatchIsAnError() throws SQLException {
    createItems();
    try (Statement s = c.createStatement()) {
      s.addBatch("UPDATE item SET qty = 1 WHERE id = 1");
      s.addBatch("SELECT * FROM item");
      SQLException e = sqlError(s::executeBatch);
      assertThat((Throwable) e).isInstanceOf(BatchUpdateException.class);
    }
    assertUsable(c);
  }

  @Test
  void ddlAndTransactionControlThroughPrepareStatement() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("CREATE TABLE prepared (id INTEGER PRIMARY KEY, v TEXT)")) {
      assertThat(ps.getParameterMetaData().getParameterCount()).isZero();
      assertThat(ps.executeUpdate()).isZero();
      // running it again fails like the SQL would
      expectState("42P07", ps::execute);
      expectState("22023", () -> ps.setInt(1, 1));
    }
    Connection other = connect();
    try (PreparedStatement begin = c.prepareStatement("BEGIN");
         PreparedStatement insert = c.prepareStatement("INSERT INTO prepared VALUES (?, ?)");
         PreparedStatement commit = c.prepareStatement("COMMIT");
         PreparedStatement rollback = c.prepareStatement("ROLLBACK")) {
      assertThat(begin.execute()).isFalse();
      insert.setInt(1, 1);
      insert.setString(2, "one");
      insert.executeUpdate();
      assertThat(count(other, "prepared")).isZero();
      commit.executeUpdate();
      assertThat(count(other, "prepared")).isEqualTo(1);
      begin.executeUpdate();
      insert.setInt(1, 2);
      insert.executeUpdate();
      rollback.executeUpdate();
      assertThat(count(other, "prepared")).isEqualTo(1);
    }
    try (PreparedStatement ps = c.prepareStatement("CREATE INDEX prepared_v ON prepared (v DESC)")) {
      ps.execute();
      assertThat(ps.getUpdateCount()).isZero();
    }
    try (PreparedStatement ps = c.prepareStatement("DROP TABLE prepared")) {
      assertThat(ps.executeUpdate()).isZero();
    }
    expectState("42P01", c, "SELECT * FROM prepared");
  }

  @Test
  void preparedStatementExecuteReturnsUpdateCount() throws SQLException {
    createItems();
    try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = ? WHERE id <= ?")) {
      ps.setInt(1, 0);
      ps.setInt(2, 3);
      assertThat(ps.execute()).isFalse();
      assertThat(ps.getUpdateCount()).isEqualTo(3);
      assertThat(ps.getResultSet()).isNull();
      ps.setInt(2, 1);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM item WHERE qty = ?")) {
      ps.setInt(1, 0);
      assertThat(ps.execute()).isTrue();
      assertThat(ps.getUpdateCount()).isEqualTo(-1);
      try (ResultSet rs = ps.getResultSet()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(3);
      }
    }
    try (PreparedStatement ps = c.prepareStatement("CREATE INDEX item_qty ON item (qty)")) {
      assertThat(ps.executeUpdate()).isZero();
    }
  }

  @Test
  void sessionSettingsThroughJdbc() throws SQLException {
    try (Statement st = c.createStatement()) {
      assertThat(st.execute("SET application_name = 'reports'")).isFalse();
      assertThat(st.getUpdateCount()).isEqualTo(0);
    }
    assertThat(scalar(c, "SHOW application_name")).isEqualTo("reports");
    try (PreparedStatement ps = c.prepareStatement("SHOW TimeZone"); ResultSet rs = ps.executeQuery()) {
      assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("TimeZone");
      assertThat(rs.next()).isTrue();
    }
    expectState("42704", c, "SET no_such_setting = 1");
    expectState("22023", c, "SET statement_timeout = 'never'");
    assertUsable(c);
  }

  @Test
  void statementTimeoutCancelsThroughJdbc() throws SQLException {
    update(c, "CREATE TABLE n (id INTEGER PRIMARY KEY)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO n VALUES (?)")) {
      for (int i = 0; i < 1500; i++) {
        ps.setInt(1, i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    update(c, "SET statement_timeout = '100ms'");
    SQLException e = expectState("57014", c, "SELECT count(*) FROM n a, n b, n c WHERE a.id + b.id + c.id < 0");
    assertThat(e.getMessage()).contains("statement timeout");
    update(c, "SET statement_timeout = 0");
    assertUsable(c);
  }
}
