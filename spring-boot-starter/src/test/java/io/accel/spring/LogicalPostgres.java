package io.accel.spring;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL with wal_level=logical that fronting tests run against ({@code .ci/pg-logical} starts it at
 * 127.0.0.1:5434; {@code ACCEL_PG_LOGICAL=host:port} points elsewhere). Unreachable, a test skips with a message,
 * or fails when {@code ACCEL_REQUIRE_SERVICES} is set (CI), as the end-to-end tests' {@code Services} does.
 */
final class LogicalPostgres {
  static final String HOST_PORT = System.getenv().getOrDefault("ACCEL_PG_LOGICAL", "127.0.0.1:5434");

  private LogicalPostgres() {
  }

  /** A connection to {@code database}, created empty (no tables, slots or publications) for this test. */
  static Connection fresh(String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/postgres", p);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
      if (!rs.next()) {
        s.execute("CREATE DATABASE " + database);
      }
    } catch (SQLException e) {
      String why = "PostgreSQL with wal_level=logical at " + HOST_PORT + " is unreachable (" + e.getMessage() + ")";
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw new SQLException(why + " and ACCEL_REQUIRE_SERVICES is set", e);
      }
      Assumptions.abort(why + "; skipping. Start one with: .ci/pg-logical");
    }
    Connection c = DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/" + database, p);
    try (Statement s = c.createStatement()) {
      dropMirrorObjects(s, database);
      s.execute("DROP SCHEMA public CASCADE");
      s.execute("CREATE SCHEMA public");
    }
    return c;
  }

  /**
   * Drops {@code database}'s replication slots (ending streams still reading them) and its publications; nothing
   * when the cluster is unreachable and not required (the tests that would have made them were skipped).
   */
  static void dropMirrorObjects(String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    Connection c;
    try {
      c = DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/" + database, p);
    } catch (SQLException e) {
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw e;
      }
      return;
    }
    try (c; Statement s = c.createStatement()) {
      dropMirrorObjects(s, database);
    }
  }

  private static void dropMirrorObjects(Statement s, String database) throws SQLException {
    s.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = '" + database
        + "' AND active");
    for (int i = 0; i < 50; i++) {
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE database = '" + database
          + "' AND active")) {
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
}
