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

  private Services() {
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
