package io.accel.bench.workload;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Any {@link Workload}'s data kept between benchmark runs: an Accel file store and a PostgreSQL schema per
 * workload and size, each loaded once and reused while it holds the complete data ({@link LineitemData}
 * does the same for lineitem, with COPY).
 *
 * <p>Completeness is recorded by a marker row written after the last row, the indexes and the
 * statistics: table {@value #MARKER_TABLE} holds the workload's {@link Workload#fingerprint() fingerprint}
 * (sizes, seed, data version, a hash of the schema) and the rows of each table. A store or schema without
 * that row, or with another fingerprint, is emptied and loaded again.
 *
 * <ul>
 *   <li>Accel: {@code jdbc:accel:file:<base>/<name>-<size label>} (e.g. {@code target/bench-data/straddle-100000_1000000}),
 *       base {@code target/bench-data} relative to the working directory unless the system property
 *       {@value LineitemData#DATA_DIR_PROPERTY} names another; rows through JDBC batches
 *       ({@link Workload#loadRows}) with {@code syncCommits=false}, then the indexes, then {@code ANALYZE}.
 *   <li>PostgreSQL: schema {@code <name>_<size label>} (e.g. {@code employees_300024}) of
 *       {@value LineitemData#DEFAULT_POSTGRES_URL} (system properties {@value LineitemData#POSTGRES_URL_PROPERTY},
 *       {@value LineitemData#POSTGRES_USER_PROPERTY}); rows through the same JDBC batches with pgJDBC's
 *       {@code reWriteBatchedInserts=true} (multi-row INSERTs), then the indexes, then {@code VACUUM ANALYZE}.
 *       Reuse also checks that each table still has the marker's row count.
 * </ul>
 */
public final class WorkloadData {
  public static final String MARKER_TABLE = "bench_loaded";
  static final String CREATE_MARKER = "CREATE TABLE " + MARKER_TABLE + " (workload VARCHAR(32) NOT NULL, "
      + "fingerprint VARCHAR(300) NOT NULL, table_rows VARCHAR(300) NOT NULL, total_rows BIGINT NOT NULL, "
      + "load_millis BIGINT NOT NULL, index_millis BIGINT NOT NULL, analyzed BOOLEAN NOT NULL, PRIMARY KEY (workload))";

  private WorkloadData() {
  }

  /**
   * What {@code ensure...} found or did: {@code reused} when the data was already complete; otherwise the
   * time of the whole load (tables, rows, indexes, statistics) and of the indexes alone.
   */
  public record Outcome(String target, boolean reused, Map<String, Long> tableRows, long loadNanos,
      long indexNanos, long storedLoadMillis, boolean analyzed) {
    public Outcome {
      tableRows = Collections.unmodifiableMap(new LinkedHashMap<>(tableRows));
    }

    public long rows() {
      return tableRows.values().stream().mapToLong(Long::longValue).sum();
    }

    public double rowsPerSecond() {
      return loadNanos == 0 ? 0 : rows() * 1e9 / loadNanos;
    }

    @Override
    public String toString() {
      if (reused) {
        return target + ": reused (" + String.format(Locale.ROOT, "%,d", rows()) + " rows; loaded earlier in "
            + String.format(Locale.ROOT, "%.1f s", storedLoadMillis / 1e3) + ")";
      }
      return String.format(Locale.ROOT, "%s: loaded %,d rows in %.1f s (%.0f rows/s; indexes %.1f s)",
          target, rows(), loadNanos / 1e9, rowsPerSecond(), indexNanos / 1e9);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Accel

  /** The store directory of {@code w}: {@code <base>/<name>-<size label>}, absolute. */
  public static Path accelDir(Workload w) {
    String base = System.getProperty(LineitemData.DATA_DIR_PROPERTY, LineitemData.DEFAULT_DATA_DIR);
    return Path.of(base).resolve(w.name() + "-" + w.sizeLabel()).toAbsolutePath().normalize();
  }

  /** {@code jdbc:accel:file:<dir>}. */
  public static String accelUrl(Path dir) {
    return LineitemData.accelUrl(dir);
  }

  /** {@code jdbc:accel:file:<accelDir(w)>}. */
  public static String accelUrl(Workload w) {
    return accelUrl(accelDir(w));
  }

  /** Loads {@code w} into the Accel store in {@link #accelDir(Workload)} unless it is complete there. */
  public static Outcome ensureAccel(Workload w, PrintStream log) throws SQLException {
    return ensureAccel(w, accelUrl(w), log);
  }

  /**
   * Loads {@code w} into the Accel store at {@code url} ({@code jdbc:accel:file:...} or {@code mem:})
   * unless it is complete there.
   */
  public static Outcome ensureAccel(Workload w, String url, PrintStream log) throws SQLException {
    // Nothing is lost to a crash of the process without synchronous commits; the marker, written last,
    // reaches the log after every row.
    String loadUrl = url + (url.contains("?") ? "&" : "?") + "syncCommits=false";
    try (Connection c = DriverManager.getConnection(loadUrl)) {
      Outcome found = complete(c, w, url);
      if (found != null) {
        log(log, found.toString());
        if (!found.analyzed() && analyzeAccel(c, w, log)) {
          Workload.execute(c, List.of("UPDATE " + MARKER_TABLE + " SET analyzed = TRUE"));
        }
        return found;
      }
      log(log, url + ": loading " + w + " (about 13,000 rows/s)");
      long start = System.nanoTime();
      List<String> drops = new ArrayList<>(w.dropTables());
      drops.add("DROP TABLE IF EXISTS " + MARKER_TABLE);
      Workload.execute(c, drops);
      Workload.execute(c, w.createTables());
      LoadResult rows = w.loadRows(c, progress(log, url));
      long indexStart = System.nanoTime();
      Workload.execute(c, w.createIndexes());
      long indexNanos = System.nanoTime() - indexStart;
      boolean analyzed = analyzeAccel(c, w, log);
      long nanos = System.nanoTime() - start;
      Map<String, Long> tableRows = tableRows(w, rows);
      mark(c, w, tableRows, nanos, indexNanos, analyzed);
      Outcome done = new Outcome(url, false, tableRows, nanos, indexNanos, nanos / 1_000_000, analyzed);
      log(log, done.toString());
      return done;
    }
  }

  /** ANALYZE of the workload's tables; false (and a note) where the engine refuses it. */
  private static boolean analyzeAccel(Connection c, Workload w, PrintStream log) {
    try (Statement s = c.createStatement()) {
      s.execute("ANALYZE " + String.join(", ", w.tables()));
      return true;
    } catch (SQLException e) {
      log(log, "  ANALYZE not available (" + e.getSQLState() + ": " + e.getMessage()
          + "); the planner runs without statistics");
      return false;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // PostgreSQL

  /** {@code <name>_<size label>}, lower case, e.g. {@code straddle_100000_1000000}. */
  public static String postgresSchema(Workload w) {
    return (w.name() + "_" + w.sizeLabel()).toLowerCase(Locale.ROOT);
  }

  public static String postgresUrl() {
    return LineitemData.postgresUrl();
  }

  /** A connection to PostgreSQL whose search path is {@code schema} (which need not exist yet). */
  public static Connection openPostgres(String schema) throws SQLException {
    return LineitemData.openPostgres(schema);
  }

  /** Whether PostgreSQL answers; if not, says so on {@code log}. */
  public static boolean postgresReachable(PrintStream log) {
    try (Connection probe = openPostgres("public")) {
      return probe.isValid(5);
    } catch (SQLException e) {
      log(log, "PostgreSQL at " + postgresUrl() + " is unreachable (" + e.getMessage() + ")");
      return false;
    }
  }

  /** Loads {@code w} into its PostgreSQL schema unless it is complete there. */
  public static Outcome ensurePostgres(Workload w, PrintStream log) throws SQLException {
    return ensurePostgres(w, postgresSchema(w), log);
  }

  public static Outcome ensurePostgres(Workload w, String schema, PrintStream log) throws SQLException {
    String target = postgresUrl() + " schema " + schema;
    Properties p = new Properties();
    p.setProperty("user", System.getProperty(LineitemData.POSTGRES_USER_PROPERTY, LineitemData.DEFAULT_POSTGRES_USER));
    p.setProperty("connectTimeout", "5");
    p.setProperty("currentSchema", schema);
    p.setProperty("reWriteBatchedInserts", "true");
    try (Connection c = DriverManager.getConnection(postgresUrl(), p)) {
      Outcome found = complete(c, w, target);
      if (found != null && countsMatch(c, found)) {
        log(log, found.toString());
        return found;
      }
      log(log, target + ": loading " + w + " with batched INSERTs");
      long start = System.nanoTime();
      try (Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        s.execute("CREATE SCHEMA " + schema);
      }
      Workload.execute(c, w.createTables());
      LoadResult rows = w.loadRows(c, progress(log, target));
      long indexStart = System.nanoTime();
      Workload.execute(c, w.createIndexes());
      long indexNanos = System.nanoTime() - indexStart;
      try (Statement s = c.createStatement()) {
        // Sets the visibility map too, so index-only scans need not visit the heap.
        for (String table : w.tables()) {
          s.execute("VACUUM ANALYZE " + table);
        }
      }
      long nanos = System.nanoTime() - start;
      Map<String, Long> tableRows = tableRows(w, rows);
      mark(c, w, tableRows, nanos, indexNanos, true);
      Outcome done = new Outcome(target, false, tableRows, nanos, indexNanos, nanos / 1_000_000, true);
      log(log, done.toString());
      return done;
    }
  }

  private static boolean countsMatch(Connection c, Outcome marker) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (Map.Entry<String, Long> table : marker.tableRows().entrySet()) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table.getKey())) {
          rs.next();
          if (rs.getLong(1) != table.getValue()) {
            return false;
          }
        }
      }
      return true;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // The marker

  private static Map<String, Long> tableRows(Workload w, LoadResult rows) {
    Map<String, Long> byTable = new LinkedHashMap<>();
    for (String table : w.tables()) {
      byTable.put(table, rows.rows(table));
    }
    return byTable;
  }

  static String formatTableRows(Map<String, Long> tableRows) {
    return tableRows.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }

  static Map<String, Long> parseTableRows(String text) {
    Map<String, Long> byTable = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        byTable.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
      }
    }
    return byTable;
  }

  /**
   * Whether {@code c} (Accel or PostgreSQL, already in the right store or schema) holds the marker row of
   * {@code w}'s fingerprint, i.e. {@code w}'s complete data; for a benchmark that must open its own
   * connection first (the first connection to an Accel store fixes the store's options for the JVM).
   */
  public static boolean isComplete(Connection c, Workload w) throws SQLException {
    return complete(c, w, "") != null;
  }

  /** The outcome "reused" when {@code c} holds the marker row of {@code w}'s fingerprint, else null. */
  static Outcome complete(Connection c, Workload w, String target) throws SQLException {
    String sql = "SELECT fingerprint, table_rows, load_millis, analyzed FROM " + MARKER_TABLE + " WHERE workload = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, w.name());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && w.fingerprint().equals(rs.getString(1))) {
          Map<String, Long> tableRows = parseTableRows(rs.getString(2));
          if (tableRows.keySet().equals(new HashSet<>(w.tables()))) {
            return new Outcome(target, true, tableRows, 0, 0, rs.getLong(3), rs.getBoolean(4));
          }
        }
        return null;
      }
    } catch (SQLException e) {
      // "No such table" or "no such column" (a marker of another layout): not loaded. Anything else is a
      // real failure of the store.
      if (!"42P01".equals(e.getSQLState()) && !"42703".equals(e.getSQLState())) {
        throw e;
      }
      if (!c.getAutoCommit()) {
        c.rollback();
      }
      return null;
    }
  }

  private static void mark(Connection c, Workload w, Map<String, Long> tableRows, long nanos, long indexNanos,
      boolean analyzed) throws SQLException {
    Workload.execute(c, List.of("DROP TABLE IF EXISTS " + MARKER_TABLE, CREATE_MARKER));
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + MARKER_TABLE
        + " (workload, fingerprint, table_rows, total_rows, load_millis, index_millis, analyzed)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, w.name());
      ps.setString(2, w.fingerprint());
      ps.setString(3, formatTableRows(tableRows));
      ps.setLong(4, tableRows.values().stream().mapToLong(Long::longValue).sum());
      ps.setLong(5, nanos / 1_000_000);
      ps.setLong(6, indexNanos / 1_000_000);
      ps.setBoolean(7, analyzed);
      ps.executeUpdate();
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }

  /** Progress lines on {@code log} every 100,000 rows of a table (nothing when {@code log} is null). */
  static Workload.LoadListener progress(PrintStream log, String target) {
    if (log == null) {
      return Workload.LoadListener.NONE;
    }
    long start = System.nanoTime();
    long[] next = {100_000};
    return (table, loaded, total) -> {
      if (loaded >= next[0] || loaded == total) {
        double s = (System.nanoTime() - start) / 1e9;
        log.printf(Locale.ROOT, "  %s: %s %,d/%,d rows (%.0f s)%n", target, table, loaded, total, s);
        next[0] = loaded == total ? 100_000 : (loaded / 100_000 + 1) * 100_000;
      }
    };
  }

  static void log(PrintStream log, String line) {
    if (log != null) {
      log.println(line);
    }
  }
}
