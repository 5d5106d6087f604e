package io.accel.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;

/**
 * PostgreSQL for the benchmark tests, as {@code io.accel.e2e.Services} has it for the end-to-end tests:
 * outside CI a test that needs it skips with a clear message when the server is down; with
 * {@code ACCEL_REQUIRE_SERVICES=1} (set by {@code .ci/run}) it fails instead.
 */
final class PostgresService {
  private PostgresService() {
  }

  static boolean servicesRequired() {
    return "1".equals(System.getenv("ACCEL_REQUIRE_SERVICES"));
  }

  /** A connection whose search path is {@code schema}, or an aborted (skipped) test when PostgreSQL is unreachable outside CI. */
  static Connection connect(String schema) throws SQLException {
    try {
      return LineitemData.openPostgres(schema);
    } catch (SQLException e) {
      if (servicesRequired()) {
        throw new SQLException("PostgreSQL at " + LineitemData.postgresUrl() + " is required in CI but unreachable: "
            + e.getMessage(), e);
      }
      Assumptions.abort("PostgreSQL at " + LineitemData.postgresUrl() + " is unreachable (" + e.getMessage()
          + "); skipping the comparison with PostgreSQL. Start it with: pg_ctlcluster --skip-systemctl-redirect"
          + " $(ls /etc/postgresql) main start");
      throw new AssertionError("unreachable");
    }
  }
}
