package io.accel.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Persisted benchmark data: loaded once, reused while the marker matches, reloaded when it does not. */
class WorkloadDataTest {
  private static final Straddle TINY = new Straddle(50, 400);

  @Test
  void namesFollowTheWorkloadAndItsSize() {
    assertThat(WorkloadData.postgresSchema(new Straddle())).isEqualTo("straddle_100000_1000000");
    assertThat(WorkloadData.postgresSchema(new Employees())).isEqualTo("employees_300024");
    assertThat(WorkloadData.accelDir(new Straddle()).toString()).endsWith("bench-data/straddle-100000_1000000");
    assertThat(WorkloadData.accelDir(new Employees(30_000)).toString()).endsWith("bench-data/employees-30000");
    assertThat(new Straddle(10, 20, 7, 5).sizeLabel()).isEqualTo("10_20_s7");
    assertThat(new Straddle().fingerprint()).startsWith("straddle(users=100000, orders=1000000, seed=42) schema=")
        .endsWith(" v1");
  }

  @Test
  void anAccelStoreIsLoadedOnceThenReusedUntilItsMarkerDiffers(@TempDir Path dir) throws SQLException {
    String url = WorkloadData.accelUrl(dir.resolve("store"));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);

    WorkloadData.Outcome first = WorkloadData.ensureAccel(TINY, url, out);
    assertThat(first.reused()).isFalse();
    assertThat(first.analyzed()).isTrue();
    assertThat(first.tableRows()).containsExactly(java.util.Map.entry("users", 50L), java.util.Map.entry("orders", 400L));

    WorkloadData.Outcome second = WorkloadData.ensureAccel(TINY, url, out);
    assertThat(second.reused()).isTrue();
    assertThat(second.rows()).isEqualTo(450);
    assertThat(second.toString()).contains("reused (450 rows");

    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(count(c, "SELECT COUNT(*) FROM orders")).isEqualTo(400);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE " + WorkloadData.MARKER_TABLE + " SET fingerprint = 'something else'");
        s.executeUpdate("DELETE FROM orders WHERE order_id <= 10");
      }
    }
    WorkloadData.Outcome third = WorkloadData.ensureAccel(TINY, url, out);
    assertThat(third.reused()).as("a marker of other data means a reload").isFalse();
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(count(c, "SELECT COUNT(*) FROM orders")).isEqualTo(400);
    }
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("loading straddle(users=50, orders=400, seed=42)");
  }

  @Test
  void aPostgresqlSchemaIsLoadedOnceThenReusedUntilARowGoesMissing() throws SQLException {
    String schema = "workload_data_test";
    try (Connection pg = PostgresService.connect(schema)) {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
      assertThat(WorkloadData.ensurePostgres(TINY, schema, null).reused()).isFalse();
      assertThat(WorkloadData.ensurePostgres(TINY, schema, null).reused()).isTrue();
      assertThat(count(pg, "SELECT COUNT(*) FROM orders")).isEqualTo(400);
      try (Statement s = pg.createStatement()) {
        s.executeUpdate("DELETE FROM users WHERE id = 1");
      }
      assertThat(WorkloadData.ensurePostgres(TINY, schema, null).reused()).isFalse();
      assertThat(count(pg, "SELECT COUNT(*) FROM users")).isEqualTo(50);
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
