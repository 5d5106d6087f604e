package io.accel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** The starter on a standalone in-memory store: settings reach the driver, health, endpoint and meters. */
@SpringBootTest(classes = StarterTestApplication.class, properties = {
    "spring.datasource.url=jdbc:accel:mem:starter_standalone",
    "accel.row-cache-size=8MB",
    "accel.time-zone=Asia/Tokyo"})
class StandaloneStarterTest {
  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  AccelHealthIndicator health;
  @Autowired
  AccelEndpoint endpoint;
  @Autowired
  MeterRegistry registry;

  @Test
  void settingsReachTheDriver() {
    assertThat(jdbc.queryForObject("SHOW TimeZone", String.class)).isEqualTo("Asia/Tokyo");
    assertThat(registry.get("accel.row.cache.max.bytes").tag("store", "mem:starter_standalone").gauge().value())
        .isEqualTo(8 * 1024 * 1024);
  }

  @Test
  void healthIsUpWhileTheStoreAnswers() {
    Health h = health.health();
    assertThat(h.getStatus()).isEqualTo(Status.UP);
    assertThat(h.getDetails()).containsEntry("mode", "standalone").containsEntry("store", "mem:starter_standalone")
        .containsKey("uptime (s)");
  }

  @Test
  void endpointReportsTheModeAndEachCommand() {
    jdbc.execute("CREATE TABLE IF NOT EXISTS endpoint_probe (id BIGINT PRIMARY KEY, name VARCHAR(20))");
    jdbc.execute("CREATE CACHE endpoint_probe_by_id FROM SELECT name FROM endpoint_probe WHERE id = 1");
    Map<String, Object> report = endpoint.accel();
    assertThat(report).containsEntry("mode", "standalone");
    @SuppressWarnings("unchecked")
    Map<String, String> status = (Map<String, String>) report.get("status");
    assertThat(status).containsEntry("mode", "standalone").containsEntry("store", "mem:starter_standalone");
    @SuppressWarnings("unchecked")
    List<Map<String, String>> tables = (List<Map<String, String>>) report.get("tables");
    assertThat(tables).anySatisfy(t -> assertThat(t).containsEntry("table", "endpoint_probe")
        .containsEntry("status", "online"));
    @SuppressWarnings("unchecked")
    List<Map<String, String>> caches = (List<Map<String, String>>) report.get("caches");
    assertThat(caches).anySatisfy(c -> assertThat(c).containsValue("endpoint_probe_by_id"));
  }

  @Test
  void accelMetersReachTheApplicationRegistry() {
    jdbc.execute("CREATE TABLE IF NOT EXISTS meter_probe (id BIGINT PRIMARY KEY, name VARCHAR(20))");
    jdbc.update("INSERT INTO meter_probe VALUES (?, ?)", System.nanoTime(), "probe");
    jdbc.queryForList("SELECT name FROM meter_probe");
    double fetched = registry.find("accel.table.rows.fetched").tag("store", "mem:starter_standalone").counters()
        .stream().mapToDouble(c -> c.count()).sum();
    assertThat(fetched).isPositive();
  }
}
