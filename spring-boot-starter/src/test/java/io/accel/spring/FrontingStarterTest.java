package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * The starter in front of the logical-replication PostgreSQL (database {@code spring_front}): health UP once the
 * mirror streams, the endpoint's status and tables, replication meters in the application's registry.
 */
@ExtendWith(FrontingStarterTest.DropMirrorAfterContext.class)
@SpringBootTest(classes = StarterTestApplication.class, properties = {
    "spring.datasource.username=postgres",
    "spring.datasource.hikari.maximum-pool-size=2",
    "spring.datasource.hikari.minimum-idle=1",
    "accel.tables=accounts",
    "accel.mirror-dir=target/spring-front-mirror",
    "accel.slot-name=spring_front_starter",
    "accel.max-staleness=30s"})
@DirtiesContext
class FrontingStarterTest {
  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  AccelHealthIndicator health;
  @Autowired
  AccelEndpoint endpoint;
  @Autowired
  MeterRegistry registry;

  @DynamicPropertySource
  static void url(DynamicPropertyRegistry properties) {
    properties.add("spring.datasource.url", () -> "jdbc:accel:postgresql://" + LogicalPostgres.HOST_PORT
        + "/spring_front");
  }

  @BeforeAll
  static void upstream() throws Exception {
    FileSystemUtils.deleteRecursively(java.nio.file.Path.of("target/spring-front-mirror"));
    try (Connection c = LogicalPostgres.fresh("spring_front"); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(40) NOT NULL)");
      s.execute("INSERT INTO accounts SELECT g, 'owner ' || g FROM generate_series(1, 100) g");
    }
  }

  /**
   * Drops the mirror's slot and publication once the context is closed (the mirror stops with its last
   * connection). Declared before {@code @SpringBootTest}, so it runs after Spring's own after-all, which closes
   * the context of a {@code @DirtiesContext} class.
   */
  static class DropMirrorAfterContext implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      LogicalPostgres.dropMirrorObjects("spring_front");
    }
  }

  @Test
  void healthIsUpOnceTheMirrorStreams() {
    jdbc.queryForObject("SELECT count(*) FROM accounts", Long.class);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.UP));
    Health h = health.health();
    assertThat(h.getDetails()).containsEntry("mode", "fronting").containsEntry("replication", "streaming")
        .containsEntry("replication slot", "spring_front_starter");
  }

  @Test
  void endpointShowsStatusAndTables() {
    jdbc.queryForObject("SELECT count(*) FROM accounts", Long.class);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      @SuppressWarnings("unchecked")
      List<Map<String, String>> tables = (List<Map<String, String>>) endpoint.accel().get("tables");
      assertThat(tables).anySatisfy(t -> assertThat(t).containsEntry("table", "accounts")
          .containsEntry("status", "online"));
    });
    Map<String, Object> report = endpoint.accel();
    assertThat(report).containsEntry("mode", "fronting");
    @SuppressWarnings("unchecked")
    Map<String, String> status = (Map<String, String>) report.get("status");
    assertThat(status).containsEntry("publication", "spring_front_starter_pub");
  }

  @Test
  void readsRunLocallyAndReplicationMetersReachTheApplicationRegistry() {
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(health.health().getStatus())
        .isEqualTo(Status.UP));
    jdbc.update("INSERT INTO accounts VALUES (1000, 'new owner')");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(registry.get("accel.replication.transactions").functionCounter().count()).isPositive());
    // JdbcTemplate may take another pooled connection per call: ask the same one what served the read
    jdbc.execute((java.sql.Connection c) -> {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        try (Statement s = c.createStatement()) {
          s.executeQuery("SELECT owner FROM accounts WHERE id = 1").close();
          try (java.sql.ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
            rs.next();
            assertThat(rs.getString("Query_destination")).isEqualTo("accel");
          }
        }
      });
      return null;
    });
    assertThat(registry.find("accel.query").tag("destination", "local").timers()).isNotEmpty();
  }
}
