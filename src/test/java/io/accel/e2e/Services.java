package io.accel.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;

/**
 * The external services the end-to-end tests compare against. Outside CI a test that needs PostgreSQL
 * skips with a clear message when the server is down; in CI ({@code ACCEL_REQUIRE_SERVICES=1}, set by
 * {@code .ci/run}) it fails instead, so a stopped server can never turn the oracle tests green.
 */
public final class Services {
  public static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

  /** The upstream of the fronting tests: a PostgreSQL with wal_level=logical ({@code .ci/pg-logical} starts one). */
  public static final String LOGICAL_HOST_PORT = System.getenv().getOrDefault("ACCEL_PG_LOGICAL", "127.0.0.1:5434");

  private Services() {
  }

  /**
   * A connection to database {@code database} of the logical-replication PostgreSQL, created (empty) when missing;
   * an aborted (skipped) test outside CI when that server is not running.
   */
  public static Connection logicalPostgres(String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    String admin = "jdbc:postgresql://" + LOGICAL_HOST_PORT + "/postgres";
    try (Connection c = DriverManager.getConnection(admin, p);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
      if (!rs.next()) {
        s.execute("CREATE DATABASE " + database);
      }
    } catch (SQLException e) {
      if (servicesRequired()) {
        throw new SQLException("PostgreSQL with wal_level=logical at " + LOGICAL_HOST_PORT
            + " is required in CI but unreachable: " + e.getMessage(), e);
      }
      Assumptions.abort("PostgreSQL with wal_level=logical at " + LOGICAL_HOST_PORT + " is unreachable ("
          + e.getMessage() + "); skipping the fronting tests. Start one with: .ci/pg-logical");
      throw new AssertionError("unreachable");
    }
    return DriverManager.getConnection("jdbc:postgresql://" + LOGICAL_HOST_PORT + "/" + database, p);
  }

  /**
   * Drops the replication slots of {@code database} (stopping a stream that still reads one: an idle slot makes
   * PostgreSQL keep WAL for it from run to run) and its publications.
   */
  public static void dropMirrorObjects(java.sql.Statement s, String database) throws SQLException {
    s.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = '" + database
        + "' AND active");
    for (int i = 0; i < 50; i++) {
      try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE database = '"
          + database + "' AND active")) {
        rs.next();
        if (rs.getLong(1) == 0) {
          break;
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" + database
        + "'");
    s.execute("DO $$ DECLARE p text; BEGIN FOR p IN SELECT pubname FROM pg_publication LOOP"
        + " EXECUTE 'DROP PUBLICATION ' || quote_ident(p); END LOOP; END $$");
  }

  /** Empties {@code database} of the logical-replication PostgreSQL for a fronting test: no slots, no tables. */
  public static void resetLogicalDatabase(String database) throws SQLException {
    try (Connection c = logicalPostgres(database); java.sql.Statement s = c.createStatement()) {
      dropMirrorObjects(s, database);
      s.execute("DROP SCHEMA public CASCADE");
      s.execute("CREATE SCHEMA public");
      s.execute("GRANT ALL ON SCHEMA public TO public");
    }
  }

  public static boolean servicesRequired() {
    return "1".equals(System.getenv("ACCEL_REQUIRE_SERVICES"));
  }

  /** A new connection to the PostgreSQL oracle, or an aborted (skipped) test when it is unreachable outside CI. */
  public static Connection postgres() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    try {
      return DriverManager.getConnection(POSTGRES_URL, p);
    } catch (SQLException e) {
      if (servicesRequired()) {
        throw new SQLException("PostgreSQL at " + POSTGRES_URL + " is required in CI but unreachable: "
            + e.getMessage(), e);
      }
      Assumptions.abort("PostgreSQL at " + POSTGRES_URL + " is unreachable (" + e.getMessage()
          + "); skipping the oracle comparison. Start it with: pg_ctlcluster --skip-systemctl-redirect"
          + " $(ls /etc/postgresql) main start");
      throw new AssertionError("unreachable");
    }
  }
}
