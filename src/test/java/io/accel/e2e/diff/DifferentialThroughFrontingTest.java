package io.accel.e2e.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import io.accel.jdbc.AccelDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The differential generator through {@code jdbc:accel:postgresql://}: the generated schema and data go upstream
 * (database {@code accel_diff} of the logical-replication PostgreSQL), the mirror copies them, and the generated
 * queries run through Accel, most of them on the mirror (reads wait for the mirror to hold the connection's writes:
 * {@code readYourWritesTimeout=5s}); every result is compared with the same statement on the oracle PostgreSQL.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DifferentialThroughFrontingTest {
  private static final String DB = "accel_diff";

  @TempDir
  Path dir;

  static List<Long> seeds() {
    return DiffSeeds.seeds(2);
  }

  @DisabledIfSystemProperty(named = "diff.run", matches = "false", disabledReason = "-Ddiff.run=false")
  @ParameterizedTest(name = "fronting queries, seed {0}")
  @MethodSource("seeds")
  void queries(long seed) throws Exception {
    AccelDriver.load();
    Services.resetLogicalDatabase(DB);
    String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir="
        + dir + "&readYourWritesTimeout=5s";
    DiffRunner runner;
    long local = 0;
    try (Connection pg = Services.postgres(); Connection accel = DriverManager.getConnection(url)) {
      runner = new DiffRunner(seed, Features.forAccel(), pg, accel);
      try {
        if (runner.setup()) {
          awaitOnline(accel, runner.schema.tables.size());
          runner.runQueries(Integer.getInteger("diff.queries", 150));
        }
      } finally {
        runner.close();
      }
      try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
        while (rs.next()) {
          if (rs.getString(1).equals("statements run locally")) {
            local = Long.parseLong(rs.getString(2));
          }
        }
      }
      try (Statement s = accel.createStatement()) {
        // the slot would make PostgreSQL keep WAL for this mirror from run to run
        s.execute("DROP ACCEL MIRROR");
      }
    }
    System.out.println("fronting " + runner.summary() + ", " + local + " run on the mirror");
    assertThat(runner.generatorBugs).isEmpty();
    assertThat(runner.discrepancies).as("PostgreSQL is expected, Accel through fronting is actual").isEmpty();
    // tables without a primary key are read upstream, so not every query can run on the mirror
    assertThat(local).as("queries the mirror answered").isGreaterThanOrEqualTo(Integer.getInteger("diff.queries", 150) / 10);
  }

  private static void awaitOnline(Connection accel, int tables) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    StringBuilder states = new StringBuilder();
    while (System.currentTimeMillis() < deadline) {
      int online = 0;
      states.setLength(0);
      try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL TABLES")) {
        while (rs.next()) {
          // tables without a primary key are read upstream ("not mirrored"): settled too
          online += rs.getString(2).equals("online") || rs.getString(2).equals("not mirrored") ? 1 : 0;
          states.append(rs.getString(1)).append(": ").append(rs.getString(2)).append(' ').append(rs.getString(3))
              .append("; ");
        }
      }
      if (online >= tables) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the mirror did not settle the " + tables + " tables in 60 s: " + states);
  }
}
