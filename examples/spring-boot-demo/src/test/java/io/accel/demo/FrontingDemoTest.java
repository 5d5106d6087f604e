package io.accel.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The demo through Accel in front of the logical-replication PostgreSQL (database {@code spring_demo_test}):
 * Flyway's DDL goes upstream, the mirror follows, and the orders endpoint's reads run on the mirror.
 */
@ExtendWith(FrontingDemoTest.DropMirrorAfterContext.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "demo.users=50", "accel.mirror-dir=target/demo-test-mirror", "accel.slot-name=spring_demo_test"})
@DirtiesContext
class FrontingDemoTest extends DemoBehaviour {
  static final String HOST_PORT = System.getenv().getOrDefault("ACCEL_PG_LOGICAL", "127.0.0.1:5434");
  static final String DATABASE = "spring_demo_test";

  @Autowired
  MeterRegistry registry;

  @DynamicPropertySource
  static void url(DynamicPropertyRegistry properties) {
    properties.add("spring.datasource.url", () -> "jdbc:accel:postgresql://" + HOST_PORT + "/" + DATABASE);
  }

  /** An empty database for the test; a skip (or, with ACCEL_REQUIRE_SERVICES, a failure) without PostgreSQL. */
  @BeforeAll
  static void emptyDatabase() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/postgres", postgres());
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
        if (!rs.next()) {
          s.execute("CREATE DATABASE " + DATABASE);
        }
      }
    } catch (SQLException e) {
      String why = "PostgreSQL with wal_level=logical at " + HOST_PORT + " is unreachable (" + e.getMessage() + ")";
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw new SQLException(why + " and ACCEL_REQUIRE_SERVICES is set", e);
      }
      Assumptions.abort(why + "; skipping. Start one with: .ci/pg-logical");
    }
    dropMirrorObjects();
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA public CASCADE");
      s.execute("CREATE SCHEMA public");
    }
    FileSystemUtils.deleteRecursively(java.nio.file.Path.of("target/demo-test-mirror"));
  }

  /**
   * Drops the mirror's slot and publication once the context is closed (the mirror stops with its last
   * connection). Declared before {@code @SpringBootTest}, so it runs after Spring's own after-all, which closes
   * the context of a {@code @DirtiesContext} class.
   */
  static class DropMirrorAfterContext implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      dropMirrorObjects();
    }
  }

  @Test
  void flywayMigratedThePostgresSchema() throws SQLException {
    try (Connection c = upstream(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("1");
      assertThat(rs.getBoolean(2)).isTrue();
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void ordersEndpointReadsRunOnTheMirror() throws Exception {
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      double local = count("local");
      double upstream = count("upstream");
      get("/users/user7@example.com/orders?status=SHIPPED");
      assertThat(count("local")).isGreaterThan(local);
      assertThat(count("upstream")).isEqualTo(upstream);
    });
    tools.jackson.databind.JsonNode viaAccel = get("/users/user7@example.com/orders?status=SHIPPED");
    java.util.List<Long> ids = new java.util.ArrayList<>();
    viaAccel.forEach(r -> ids.add(r.get("orderId").asLong()));
    assertThat(ids).isNotEmpty().isEqualTo(shippedOrdersInPostgres(7));
  }

  @Test
  void actuatorShowsAccelHealthAndMirroredTables() throws Exception {
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
        get("/actuator/health").get("components").get("accel").get("status").asString()).isEqualTo("UP"));
    java.util.Map<String, String> tables = new java.util.HashMap<>();
    get("/actuator/accel").get("tables").forEach(t -> tables.put(t.get("table").asString(), t.get("status").asString()));
    assertThat(tables).containsEntry("users", "online").containsEntry("orders", "online");
  }

  private double count(String destination) {
    return registry.find("accel.query").tag("destination", destination).timers().stream()
        .mapToDouble(t -> t.count()).sum();
  }

  /** The SHIPPED orders of user {@code id} as PostgreSQL itself answers. */
  private static java.util.List<Long> shippedOrdersInPostgres(long id) throws SQLException {
    java.util.List<Long> ids = new java.util.ArrayList<>();
    try (Connection c = upstream(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT order_id FROM orders WHERE user_id = " + id + " AND status = 'SHIPPED' ORDER BY order_id")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private static Properties postgres() {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    return p;
  }

  private static Connection upstream() throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/" + DATABASE, postgres());
  }

  private static void dropMirrorObjects() throws SQLException {
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = '" + DATABASE
          + "' AND active");
      await().atMost(Duration.ofSeconds(5)).until(() -> {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE database = '" + DATABASE
            + "' AND active")) {
          rs.next();
          return rs.getLong(1) == 0;
        }
      });
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" + DATABASE
          + "'");
      s.execute("DO $$ DECLARE p text; BEGIN FOR p IN SELECT pubname FROM pg_publication LOOP"
          + " EXECUTE 'DROP PUBLICATION ' || quote_ident(p); END LOOP; END $$");
    }
  }
}
