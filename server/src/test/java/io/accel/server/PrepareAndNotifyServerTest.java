package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * SQL PREPARE / EXECUTE / DEALLOCATE and LISTEN / NOTIFY over the wire, on a standalone store: psql scripts run on
 * PostgreSQL 15 (127.0.0.1:5432, database test) and on Accel must print the same, and pgJDBC receives notifications
 * as from PostgreSQL.
 */
class PrepareAndNotifyServerTest {
  private static final String POSTGRES = "host=127.0.0.1 port=5432 dbname=test user=postgres";

  /** psql's output (stdout, then stderr) for {@code script}, process ids masked. */
  private static String psql(String conninfo, String script) throws Exception {
    Psql.Run r = Psql.run(Map.of(), script, "psql", "-X", "-v", "VERBOSITY=sqlstate", "-d", conninfo);
    return (r.out() + "--\n" + r.err()).replaceAll("server process with PID \\d+", "server process with PID N");
  }

  /** The output of {@code script} on PostgreSQL: what Accel must print. Skipped where none runs, outside CI. */
  private static String onPostgres(String script) throws Exception {
    Psql.Run probe = Psql.run(Map.of(), null, "psql", "-X", "-A", "-t", "-d", POSTGRES, "-c", "select 1");
    if (probe.exit() != 0) {
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw new IllegalStateException("PostgreSQL is unreachable: " + probe.err());
      }
      Assumptions.abort("PostgreSQL 15 at 127.0.0.1:5432 is unreachable: " + probe.err());
    }
    return psql(POSTGRES, script);
  }

  private static String onAccel(TestServer s, String script) throws Exception {
    return psql("host=127.0.0.1 port=" + s.port() + " dbname=test user=tester", script);
  }

  @Test
  void prepareExecuteAndDeallocatePrintAsOnPostgres() throws Exception {
    String script = """
        CREATE TABLE prep16 (a int PRIMARY KEY, b text);
        PREPARE p(int) AS SELECT $1 + 1 AS x;
        PREPARE p(int) AS SELECT $1;
        EXECUTE p(41);
        EXECUTE p(1, 2);
        EXECUTE p;
        EXECUTE p('abc');
        EXECUTE p('5');
        EXECUTE p(1.5);
        EXECUTE p(CAST('x' AS text));
        EXECUTE nosuch(1);
        DEALLOCATE nosuch;
        PREPARE q2(nosuchtype) AS SELECT $1;
        PREPARE r(int, text) AS SELECT $2 || CAST($1 AS text) AS y;
        EXECUTE r(3, 'a');
        EXECUTE r('abc', 'a');
        PREPARE tz(timestamptz, numeric, boolean, date) AS SELECT $1 AS t, $2 AS n, $3 AS b, $4 AS d;
        EXECUTE tz('2024-01-02 03:04:05+00', '1.50', 'yes', '2024-02-29');
        PREPARE ins(int, text) AS INSERT INTO prep16 VALUES ($1, $2);
        EXECUTE ins(1, 'one');
        EXECUTE ins(2, 'two');
        EXECUTE ins(1, 'again');
        PREPARE upd AS UPDATE prep16 SET b = 'z' WHERE a > 1;
        EXECUTE upd;
        PREPARE del(int) AS DELETE FROM prep16 WHERE a = $1;
        BEGIN;
        EXECUTE del(1);
        SELECT 1/0;
        EXECUTE del(2);
        ROLLBACK;
        SELECT a, b FROM prep16 ORDER BY a;
        SELECT name, replace(statement, ';', '') AS statement, parameter_types, from_sql
          FROM pg_prepared_statements ORDER BY name;
        DEALLOCATE PREPARE p;
        EXECUTE p(1);
        DEALLOCATE ALL;
        EXECUTE r(1, 'b');
        SELECT count(*) AS left FROM pg_prepared_statements;
        DROP TABLE prep16;
        """;
    onPostgres("DROP TABLE IF EXISTS prep16;"); // left by an interrupted run
    String expected = onPostgres(script);
    try (TestServer s = new TestServer()) {
      assertThat(onAccel(s, script)).isEqualTo(expected);
    }
  }

  @Test
  void listenAndNotifyPrintAsOnPostgres() throws Exception {
    String script = """
        LISTEN c1;
        NOTIFY c1, 'a';
        BEGIN;
        NOTIFY c1, 'x';
        NOTIFY c1, 'x';
        NOTIFY c1, 'y';
        NOTIFY c1, 'x';
        COMMIT;
        BEGIN;
        NOTIFY c1, 'r';
        ROLLBACK;
        SELECT pg_notify('c1', 'f') IS NULL AS void;
        NOTIFY c1;
        SELECT pg_notify('', 'x');
        BEGIN;
        NOTIFY c1, 's1';
        SAVEPOINT a;
        NOTIFY c1, 's2';
        ROLLBACK TO a;
        COMMIT;
        NOTIFY c1, 'x', 'y';
        NOTIFY c2, 'not listened';
        UNLISTEN *;
        NOTIFY c1, 'gone';
        LISTEN "Mixed";
        NOTIFY "Mixed", 'm';
        NOTIFY mixed, 'm2';
        """;
    String expected = onPostgres(script);
    try (TestServer s = new TestServer()) {
      assertThat(onAccel(s, script)).isEqualTo(expected);
    }
  }

  @Test
  void pgJdbcReceivesNotificationsOnAnIdleConnectionAfterTheCommit() throws Exception {
    try (TestServer s = new TestServer(); Connection listener = s.connect(); Connection notifier = s.connect();
        Statement ls = listener.createStatement(); Statement ns = notifier.createStatement()) {
      ls.execute("LISTEN jobs");
      PGConnection pg = listener.unwrap(PGConnection.class);
      assertThat(pg.getNotifications(100)).isEmpty();
      notifier.setAutoCommit(false);
      ns.execute("NOTIFY jobs, 'one'");
      try (ResultSet rs = ns.executeQuery("SELECT pg_notify('jobs', 'two')")) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(pg.getNotifications(300)).isEmpty(); // not before the commit
      notifier.commit();
      List<PGNotification> got = new ArrayList<>();
      long deadline = System.currentTimeMillis() + 10_000;
      while (got.size() < 2 && System.currentTimeMillis() < deadline) {
        PGNotification[] batch = pg.getNotifications(1000); // the listener sends nothing: delivered while idle
        if (batch != null) {
          got.addAll(List.of(batch));
        }
      }
      assertThat(got).extracting(PGNotification::getParameter).containsExactly("one", "two");
      assertThat(got).extracting(PGNotification::getName).containsOnly("jobs");
      assertThat(got).extracting(PGNotification::getPID)
          .containsOnly(notifier.unwrap(PGConnection.class).getBackendPID());
      ns.execute("NOTIFY jobs, 'rolled back'");
      notifier.rollback();
      assertThat(pg.getNotifications(300)).isEmpty();
      // a listener inside a transaction block gets them only when the block ends, as in PostgreSQL
      notifier.setAutoCommit(true);
      listener.setAutoCommit(false);
      try (ResultSet rs = ls.executeQuery("SELECT 1")) {
        assertThat(rs.next()).isTrue();
      }
      ns.execute("NOTIFY jobs, 'after the block'");
      try (ResultSet rs = ls.executeQuery("SELECT 2")) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(pg.getNotifications()).isEmpty();
      listener.commit();
      assertThat(pg.getNotifications(1000)).extracting(PGNotification::getParameter).containsExactly("after the block");
      listener.setAutoCommit(true);
            // the notifier hears itself, after its statement and before ReadyForQuery
      notifier.setAutoCommit(true);
      ns.execute("LISTEN jobs");
      ns.execute("NOTIFY jobs, 'self'");
      PGNotification[] self = notifier.unwrap(PGConnection.class).getNotifications();
      assertThat(self).extracting(PGNotification::getParameter).containsExactly("self");
    }
  }

  @Test
  void pgJdbcRunsPrepareAndExecuteAsStatements() throws Exception {
    try (TestServer s = new TestServer(); Connection c = s.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (a int PRIMARY KEY, b text)");
      st.execute("PREPARE ins(int, text) AS INSERT INTO t VALUES ($1, $2)");
      assertThat(st.executeUpdate("EXECUTE ins(1, 'one')")).isEqualTo(1);
      st.execute("PREPARE get(int) AS SELECT b FROM t WHERE a = $1");
      try (ResultSet rs = st.executeQuery("EXECUTE get(1)")) {
        assertThat(rs.getMetaData().getColumnName(1)).isEqualTo("b");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("one");
      }
      // EXECUTE's arguments may be the protocol's parameters, as on PostgreSQL
      try (java.sql.PreparedStatement ps = c.prepareStatement("EXECUTE get(?)")) {
        ps.setInt(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("one");
        }
      }
      SQLException missing = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class,
          () -> st.execute("EXECUTE nosuch"));
      assertThat(missing.getSQLState()).isEqualTo("26000");
      st.execute("DEALLOCATE get");
      SQLException gone = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class,
          () -> st.execute("EXECUTE get(1)"));
      assertThat(gone.getSQLState()).isEqualTo("26000");
    }
  }

  /** What a client sees when PREPARE and the protocol's named statements meet: SQLSTATEs and results, in order. */
  private static List<String> sharedNameSpace(Connection c) throws SQLException {
    List<String> seen = new ArrayList<>();
    c.unwrap(PGConnection.class).setPrepareThreshold(1); // a named statement (S_1) from the first execution
    try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS int) AS v"); Statement st = c.createStatement()) {
      ps.setInt(1, 5);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        seen.add("protocol " + rs.getInt(1));
      }
      for (String sql : List.of("PREPARE \"S_1\" AS SELECT 1", "PREPARE named AS SELECT 2", "EXECUTE named",
          "DEALLOCATE named", "EXECUTE named")) {
        try {
          st.execute(sql);
          seen.add(sql + ": ok");
        } catch (SQLException e) {
          seen.add(sql + ": " + e.getSQLState());
        }
      }
    }
    return seen;
  }

  @Test
  void prepareAndTheProtocolsNamedStatementsShareOneNameSpace() throws Exception {
    List<String> expected;
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    try (Connection pg = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", p)) {
      expected = sharedNameSpace(pg);
    } catch (SQLException unreachable) {
      Assumptions.assumeTrue(System.getenv("ACCEL_REQUIRE_SERVICES") == null, unreachable.getMessage());
      Assumptions.abort("PostgreSQL 15 at 127.0.0.1:5432 is unreachable: " + unreachable.getMessage());
      return;
    }
    assertThat(expected).contains("PREPARE \"S_1\" AS SELECT 1: 42P05"); // the oracle says so
    try (TestServer s = new TestServer(); Connection c = s.connect()) {
      assertThat(sharedNameSpace(c)).isEqualTo(expected);
    }
  }
}
