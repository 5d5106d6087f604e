package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;

/**
 * Shared plumbing of the JDBC conformance tests: a fresh in-memory store per test, connections that are
 * closed after the test, and assertions on the SQLSTATE and message of failures.
 */
abstract class JdbcTestSupport {
  private static final AtomicInteger STORES = new AtomicInteger();

  private final List<Connection> opened = new ArrayList<>();
  /** The URL of this test's own in-memory store. */
  protected final String url = "jdbc:accel:mem:" + getClass().getSimpleName() + "_" + STORES.incrementAndGet();

  /** A new connection to this test's store, closed after the test. */
  protected Connection connect() throws SQLException {
    return track(DriverManager.getConnection(url));
  }

  protected Connection connect(String anyUrl) throws SQLException {
    return track(DriverManager.getConnection(anyUrl));
  }

  protected Connection track(Connection c) {
    opened.add(c);
    return c;
  }

  @AfterEach
  void closeConnections() throws SQLException {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    opened.clear();
  }

  @FunctionalInterface
  interface SqlAction {
    void run() throws Exception;

    /** Binds the parameters of a prepared statement. */
    @FunctionalInterface
    interface Binder {
      void bind(java.sql.PreparedStatement ps) throws SQLException;
    }
  }

  /** Runs the action, which must fail with an SQLException; returns it after checking it is well formed. */
  static SQLException sqlError(SqlAction action) {
    try {
      action.run();
    } catch (SQLException e) {
      assertWellFormed(e);
      return e;
    } catch (Throwable t) {
      fail("expected an SQLException but got " + t, t);
    }
    return fail("expected an SQLException, but the statement succeeded");
  }

  /** Runs the action, which must fail with an SQLException carrying {@code state}. */
  static SQLException expectState(String state, SqlAction action) {
    SQLException e = sqlError(action);
    assertThat(e.getSQLState()).as("SQLSTATE of \"%s\"", e.getMessage()).isEqualTo(state);
    return e;
  }

  /** Runs {@code sql} on {@code c}, reading every row, and expects it to fail with {@code state}. */
  static SQLException expectState(String state, Connection c, String sql) {
    return expectState(state, () -> drain(c, sql));
  }

  /** An SQLException users can act on: a five-character SQLSTATE and a message free of Java internals. */
  static void assertWellFormed(SQLException e) {
    assertThat(e.getSQLState()).as("SQLSTATE of %s", e).isNotNull().hasSize(5);
    String m = e.getMessage();
    assertThat(m).as("message").isNotBlank()
        .doesNotContain("java.lang")
        .doesNotContain("java.sql")
        .doesNotContain("Exception")
        .doesNotContain("org.apache")
        .doesNotContain("io.accel")
        .doesNotContain("\tat ");
  }

  /** Executes {@code sql}; when it is a query, reads all its rows. */
  static void drain(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
              rs.getObject(i);
            }
          }
        }
      }
    }
  }

  static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** The single value of a one-row, one-column query. */
  static Object scalar(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as("a row from %s", sql).isTrue();
      Object v = rs.getObject(1);
      assertThat(rs.next()).as("only one row from %s", sql).isFalse();
      return v;
    }
  }

  static long count(Connection c, String table) throws SQLException {
    return ((Number) scalar(c, "SELECT count(*) FROM " + table)).longValue();
  }

  /** Every row of a query, each as a list of getObject values. */
  static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  static List<List<Object>> rows(ResultSet rs) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(rs.getObject(i));
      }
      rows.add(row);
    }
    return rows;
  }

  /** The connection still runs statements after a failure. */
  static void assertUsable(Connection c) throws SQLException {
    assertThat(c.isClosed()).isFalse();
    assertThat(((Number) scalar(c, "SELECT 1 + 1")).intValue()).isEqualTo(2);
  }
}
