package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What closing a Connection, Statement or ResultSet does, and what using one afterwards reports. */
class CloseSemanticsTest extends JdbcTestSupport {
  private Connection keeper;

  @BeforeEach
  void createTable() throws SQLException {
    keeper = connect(); // keeps the in-memory store alive
    update(keeper, "CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
    update(keeper, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  }

  @Test
  void usingAClosedConnectionIsAnError() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    Statement open = c.createStatement();
    DatabaseMetaData md = c.getMetaData();
    c.close();
    assertThat(c.isClosed()).isTrue();
    c.close(); // closing twice is allowed
    assertThat(open.isClosed()).isTrue();
    for (SqlAction action : List.<SqlAction>of(
        c::createStatement,
        () -> c.prepareStatement("SELECT 1"),
        c::commit,
        c::rollback,
        () -> c.setAutoCommit(false),
        c::getAutoCommit,
        c::getMetaData,
        c::getTransactionIsolation,
        () -> open.executeQuery("SELECT 1"),
        () -> open.executeUpdate("INSERT INTO t VALUES (9, 'z')"),
        () -> md.getTables(null, null, "%", null))) {
      SQLException e = sqlError(action);
      assertThat(e.getSQLState()).as(e.getMessage()).isIn("08003", "55000");
    }
    expectState("08003", c::createStatement);
    assertThat(count(keeper, "t")).isEqualTo(3);
  }

  @Test
  void usingAClosedStatementIsAnError() throws SQLException {
    Connection c = connect();
    Statement s = c.createStatement();
    PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?");
    s.close();
    ps.close();
    assertThat(s.isClosed()).isTrue();
    assertThat(ps.isClosed()).isTrue();
    s.close();
    expectState("55000", () -> s.executeQuery("SELECT 1"));
    expectState("55000", () -> s.execute("SELECT 1"));
    expectState("55000", () -> s.executeUpdate("DELETE FROM t"));
    expectState("55000", () -> s.addBatch("DELETE FROM t"));
    expectState("55000", s::getResultSet);
    expectState("55000", () -> s.setMaxRows(1));
    expectState("55000", () -> ps.setInt(1, 1));
    expectState("55000", ps::executeQuery);
    assertThat(count(c, "t")).isEqualTo(3);
    assertUsable(c);
  }

  @Test
  void usingAClosedResultSetIsAnError() throws SQLException {
    Connection c = connect();
    try (Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT id, v FROM t ORDER BY id");
      assertThat(rs.next()).isTrue();
      rs.close();
      assertThat(rs.isClosed()).isTrue();
      rs.close();
      expectState("55000", rs::next);
      expectState("55000", () -> rs.getInt(1));
      expectState("55000", () -> rs.getString("v"));
      expectState("55000", rs::getMetaData);
      // the statement is still usable
      try (ResultSet again = s.executeQuery("SELECT count(*) FROM t")) {
        assertThat(again.next()).isTrue();
        assertThat(again.getLong(1)).isEqualTo(3);
      }
    }
  }

  @Test
  void closingAStatementClosesItsResultSet() throws SQLException {
    Connection c = connect();
    Statement s = c.createStatement();
    ResultSet rs = s.executeQuery("SELECT id FROM t");
    assertThat(rs.next()).isTrue();
    s.close();
    assertThat(rs.isClosed()).isTrue();
    expectState("55000", rs::next);

    PreparedStatement ps = c.prepareStatement("SELECT id FROM t WHERE id > ?");
    ps.setInt(1, 0);
    ResultSet prs = ps.executeQuery();
    ps.close();
    assertThat(prs.isClosed()).isTrue();
  }

  @Test
  void reExecutingAStatementClosesItsPreviousResultSet() throws SQLException {
    Connection c = connect();
    try (Statement s = c.createStatement()) {
      ResultSet first = s.executeQuery("SELECT id FROM t");
      ResultSet second = s.executeQuery("SELECT v FROM t");
      assertThat(first.isClosed()).isTrue();
      assertThat(second.isClosed()).isFalse();
      assertThat(rows(second)).hasSize(3);
    }
  }

  @Test
  void closeOnCompletionClosesTheStatementWithItsResultSet() throws SQLException {
    Connection c = connect();
    Statement s = c.createStatement();
    s.closeOnCompletion();
    assertThat(s.isCloseOnCompletion()).isTrue();
    ResultSet rs = s.executeQuery("SELECT id FROM t");
    rs.close();
    assertThat(s.isClosed()).isTrue();
  }

  @Test
  void closingTheConnectionClosesStatementsAndResultSets() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    Statement s = c.createStatement();
    ResultSet rs = s.executeQuery("SELECT id FROM t");
    PreparedStatement ps = c.prepareStatement("SELECT 1");
    c.close();
    assertThat(s.isClosed()).isTrue();
    assertThat(ps.isClosed()).isTrue();
    assertThat(rs.isClosed()).isTrue();
    sqlError(rs::next);
  }

  @Test
  void closingTheConnectionRollsBackItsOpenTransaction() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    c.setAutoCommit(false);
    update(c, "INSERT INTO t VALUES (4, 'd')");
    update(c, "UPDATE t SET v = 'changed' WHERE id = 1");
    update(c, "DELETE FROM t WHERE id = 2");
    assertThat(count(c, "t")).isEqualTo(3);
    c.close();
    assertThat(rows(keeper, "SELECT id, v FROM t ORDER BY id")).containsExactly(List.of(1, "a"), List.of(2, "b"),
        List.of(3, "c"));
  }

  @Test
  void closingTheConnectionRollsBackASqlBeginBlock() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    update(c, "BEGIN");
    update(c, "INSERT INTO t VALUES (4, 'd')");
    c.close();
    assertThat(count(keeper, "t")).isEqualTo(3);
  }

  @Test
  void anOpenResultSetDoesNotKeepAClosedConnectionsStoreAlive() throws SQLException {
    String own = url + "_alone";
    Connection c = DriverManager.getConnection(own);
    update(c, "CREATE TABLE x (id INTEGER)");
    Statement s = c.createStatement();
    ResultSet rs = s.executeQuery("SELECT * FROM x");
    c.close();
    assertThat(rs.isClosed()).isTrue();
    try (Connection again = DriverManager.getConnection(own)) {
      expectState("42P01", again, "SELECT * FROM x");
    }
  }
}
