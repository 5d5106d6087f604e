package io.accel.spring;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Accel's health ({@code accel} in /actuator/health). Standalone: UP while the store answers a query, with what
 * {@code SHOW ACCEL STATUS} says of the store (size, caches, uptime). Fronting,
 * from {@code SHOW ACCEL STATUS}: DOWN when the upstream or the store cannot be reached or replication is
 * reconnecting; OUT_OF_SERVICE while the mirror catches up or lags more than {@code accel.max-staleness}
 * (reads then go upstream: correct but not accelerated); UP otherwise.
 */
public class AccelHealthIndicator implements HealthIndicator {
  private final DataSource dataSource;
  private final AccelMode mode;
  private final Optional<Duration> maxStaleness;

  public AccelHealthIndicator(DataSource dataSource, AccelMode mode, Optional<Duration> maxStaleness) {
    this.dataSource = dataSource;
    this.mode = mode;
    this.maxStaleness = maxStaleness;
  }

  @Override
  public Health health() {
    try (Connection c = dataSource.getConnection()) {
      if (mode == AccelMode.STANDALONE) {
        try (Statement s = c.createStatement()) {
          s.executeQuery("SELECT 1").close();
        }
        return Health.up().withDetails(Map.copyOf(AccelCommands.status(c))).withDetail("mode", "standalone").build();
      }
      return fronting(AccelCommands.status(c), maxStaleness);
    } catch (SQLException | RuntimeException e) {
      return Health.down(e).withDetail("mode", mode.name().toLowerCase(java.util.Locale.ROOT)).build();
    }
  }

  /** The health of a fronting mirror whose SHOW ACCEL STATUS is {@code status}. */
  static Health fronting(Map<String, String> status, Optional<Duration> maxStaleness) {
    String replication = status.getOrDefault("replication", "");
    long lagMillis = parseLong(status.get("lag (ms)"));
    Health.Builder health;
    if (replication.startsWith("reconnecting")) {
      health = Health.down().withDetail("reason", "replication is not running: " + replication);
    } else if (!replication.equals("streaming")) {
      health = Health.status(Status.OUT_OF_SERVICE).withDetail("reason", "the mirror is " + replication
          + "; reads go upstream until it is online");
    } else if (maxStaleness.isPresent() && lagMillis > maxStaleness.get().toMillis()) {
      health = Health.status(Status.OUT_OF_SERVICE).withDetail("reason", "replication lag " + lagMillis
          + " ms exceeds accel.max-staleness " + maxStaleness.get().toMillis() + " ms");
    } else {
      health = Health.up();
    }
    return health.withDetail("mode", "fronting").withDetails(Map.copyOf(status)).build();
  }

  private static long parseLong(String text) {
    try {
      return text == null ? 0 : Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
