package io.accel.bench.fronting;

import io.accel.bench.workload.LineitemData;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * The PostgreSQL the fronting benchmarks run in front of: one with {@code wal_level=logical}, by default the
 * private cluster {@code .ci/pg-logical} starts ({@code 127.0.0.1:5434/test}; system property
 * {@value #PROPERTY}). The workloads' data is loaded into schemas there, as {@code WorkloadData} does for the other
 * benchmarks, and each schema gets its own mirror under {@code target/bench-data/mirror-<schema>}.
 */
public final class Upstream {
  static final String PROPERTY = "accel.bench.fronting";

  private Upstream() {
  }

  /** host:port/database. */
  static String hostPortDb() {
    return System.getProperty(PROPERTY, "127.0.0.1:5434/test");
  }

  /** Points the workload loaders at the fronted PostgreSQL (in this benchmark JVM only). */
  static void useForWorkloads() {
    System.setProperty(LineitemData.POSTGRES_URL_PROPERTY, "jdbc:postgresql://" + hostPortDb());
  }

  static Connection postgres(String schema) throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + hostPortDb() + "?user=postgres&currentSchema=" + schema);
  }

  static Path mirrorDir(String schema) {
    return Path.of(System.getProperty(LineitemData.DATA_DIR_PROPERTY, LineitemData.DEFAULT_DATA_DIR),
        "mirror-" + schema).toAbsolutePath();
  }

  /** The fronting URL for a workload's schema: its tables are the ones on the search path, so the ones mirrored. */
  static String accelUrl(String schema) {
    return "jdbc:accel:postgresql://" + hostPortDb() + "?user=postgres&currentSchema=" + schema + "&mirrorDir="
        + mirrorDir(schema);
  }

  /**
   * Waits until every one of {@code tables} is online in the mirror (a first connection copies them) and the mirror
   * has caught up with what the upstream committed while it was stopped.
   */
  public static void awaitOnline(Connection accel, Set<String> tables) throws SQLException, InterruptedException {
    long deadline = System.currentTimeMillis() + 600_000;
    while (true) {
      int online = 0;
      try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL TABLES")) {
        while (rs.next()) {
          if (tables.contains(rs.getString(1)) && rs.getString(2).equals("online")) {
            online++;
          }
        }
      }
      boolean streaming = false;
      try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
        while (rs.next()) {
          streaming |= rs.getString(1).equals("replication") && rs.getString(2).equals("streaming");
        }
      }
      if (online == tables.size() && streaming) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the mirror did not bring " + tables + " online in 10 minutes");
      }
      Thread.sleep(100);
    }
  }

  /** Where the connection's last statement ran: {@code accel} or {@code upstream}, with the reason. */
  public static String lastRoute(Connection accel) throws SQLException {
    try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
      rs.next();
      return rs.getString(1) + (rs.getString(1).equals("accel") ? "" : " (" + rs.getString(2) + ")");
    }
  }
}
