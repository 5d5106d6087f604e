package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The health of a running application whose upstream misbehaves, through a relay in front of the logical-replication
 * PostgreSQL (database {@code spring_outage}): replication held back until the mirror lags beyond
 * {@code accel.max-staleness} (OUT_OF_SERVICE, reads still correct from upstream), then the upstream gone (DOWN),
 * then back (UP, with what was written meanwhile served by the mirror).
 */
@ExtendWith(MirrorOutageTest.DropMirrorAfterContext.class)
@SpringBootTest(classes = StarterTestApplication.class, properties = {
    "spring.datasource.username=postgres",
    "spring.datasource.hikari.maximum-pool-size=2",
    "spring.datasource.hikari.minimum-idle=1",
    "spring.datasource.hikari.connection-timeout=2000",
    "accel.tables=accounts",
    "accel.mirror-dir=target/spring-outage-mirror",
    "accel.slot-name=spring_outage",
    "accel.max-staleness=1s"})
@DirtiesContext
class MirrorOutageTest {
  static final String DATABASE = "spring_outage";
  static UpstreamProxy proxy;

  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  AccelHealthIndicator health;

  @BeforeAll
  static void upstream() throws Exception {
    FileSystemUtils.deleteRecursively(java.nio.file.Path.of("target/spring-outage-mirror"));
    try (Connection c = LogicalPostgres.fresh(DATABASE); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(40) NOT NULL)");
      s.execute("INSERT INTO accounts SELECT g, 'owner ' || g FROM generate_series(1, 100) g");
    }
    proxy = new UpstreamProxy(LogicalPostgres.HOST_PORT).start();
  }

  @DynamicPropertySource
  static void url(DynamicPropertyRegistry properties) {
    // plain TCP: the relay finds replication connections by their startup message, which TLS would hide
    properties.add("spring.datasource.url", () -> "jdbc:accel:postgresql://127.0.0.1:" + proxy.port() + "/" + DATABASE
        + "?sslmode=disable");
  }

  @AfterAll
  static void stopProxy() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
  }

  /** Drops the slot and publication once the context (and with it the mirror) is closed. */
  static class DropMirrorAfterContext implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      LogicalPostgres.dropMirrorObjects(DATABASE);
    }
  }

  @Test
  void healthFollowsALaggingThenStoppedThenReturningUpstream() throws Exception {
    jdbc.queryForObject("SELECT count(*) FROM accounts", Long.class);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.UP));

    // replication held back: the mirror falls behind, reads go upstream and stay correct
    proxy.stallReplication(true);
    writeUpstream("INSERT INTO accounts VALUES (101, 'written while lagging')");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      Health h = health.health();
      assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
      assertThat(String.valueOf(h.getDetails().get("reason"))).contains("accel.max-staleness");
    });
    assertThat(jdbc.queryForObject("SELECT owner FROM accounts WHERE id = 101", String.class))
        .isEqualTo("written while lagging");
    proxy.stallReplication(false);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.UP));

    // the upstream gone: DOWN
    proxy.stop();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.DOWN));
    writeUpstream("INSERT INTO accounts VALUES (102, 'written while Accel was cut off')");

    // back: UP again, and the mirror serves what was written meanwhile
    proxy.start();
    await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.UP));
    // a pooled connection whose upstream link died in the outage fails once (08006), as a pgJDBC one does, and the
    // pool drops it: each attempt borrows a connection
    await().atMost(Duration.ofSeconds(30))
        .ignoreExceptionsInstanceOf(org.springframework.dao.DataAccessResourceFailureException.class)
        .untilAsserted(() -> jdbc.execute((Connection c) -> {
          try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT owner FROM accounts WHERE id = 102")) {
              assertThat(rs.next()).isTrue();
              assertThat(rs.getString(1)).isEqualTo("written while Accel was cut off");
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
              rs.next();
              assertThat(rs.getString("Query_destination")).isEqualTo("accel");
            }
          }
          return null;
        }));
  }

  /** A write straight to PostgreSQL, not through the relay. */
  private static void writeUpstream(String sql) throws Exception {
    try (Connection c = java.sql.DriverManager.getConnection("jdbc:postgresql://" + LogicalPostgres.HOST_PORT + "/"
        + DATABASE, "postgres", ""); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
