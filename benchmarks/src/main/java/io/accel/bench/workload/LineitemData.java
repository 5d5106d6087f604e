package io.accel.bench.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The {@link Lineitem} data kept between runs: an Accel file store and a PostgreSQL schema per scale
 * factor, each loaded once and reused while it holds the complete data.
 *
 * <p>Completeness is recorded by a marker row, written after the last row and the index: table
 * {@code bench_loaded} holds the workload's {@link #fingerprint(Lineitem) fingerprint} (scale factor,
 * generator version and a hash of the schema) and the row counts. A store or schema without that row, or
 * with another fingerprint, is emptied and loaded again.
 *
 * <ul>
 *   <li>Accel: {@code jdbc:accel:file:<base>/lineitem-sf<sf>}, base {@code target/bench-data} relative to
 *       the working directory unless the system property {@value #DATA_DIR_PROPERTY} names another;
 *       loaded with COPY FROM STDIN through the driver's {@code AccelCopy}, the index built after the rows.
 *   <li>PostgreSQL: schema {@code lineitem_sf<sf with _ for .>} (e.g. {@code lineitem_sf0_1}) of
 *       {@value #DEFAULT_POSTGRES_URL} (system properties {@value #POSTGRES_URL_PROPERTY},
 *       {@value #POSTGRES_USER_PROPERTY}), loaded with COPY FROM STDIN, then the same index and
 *       VACUUM ANALYZE.
 * </ul>
 */
public final class LineitemData {
  public static final String DATA_DIR_PROPERTY = "accel.bench.dataDir";
  public static final String DEFAULT_DATA_DIR = "target/bench-data";
  public static final String POSTGRES_URL_PROPERTY = "accel.bench.postgresUrl";
  public static final String DEFAULT_POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";
  public static final String POSTGRES_USER_PROPERTY = "accel.bench.postgresUser";
  public static final String DEFAULT_POSTGRES_USER = "postgres";

  public static final String MARKER_TABLE = "bench_loaded";
  static final String CREATE_MARKER = "CREATE TABLE " + MARKER_TABLE + " (workload VARCHAR(32) NOT NULL, "
      + "fingerprint VARCHAR(200) NOT NULL, part_rows BIGINT NOT NULL, lineitem_rows BIGINT NOT NULL, "
      + "load_millis BIGINT NOT NULL, analyzed BOOLEAN NOT NULL, PRIMARY KEY (workload))";
  /** Bumped whenever the generated rows change in a way the schema hash does not show. */
  static final int DATA_VERSION = 1;

  private LineitemData() {
  }

  /**
   * What {@code ensure...} found or did: {@code reused} when the data was already complete; otherwise the
   * rows loaded and the time of the whole load (tables, rows, index, statistics) and of the index alone.
   */
  public record Outcome(String target, boolean reused, long partRows, long lineitemRows, long loadNanos,
      long indexNanos, long storedLoadMillis, boolean analyzed) {
    public double rowsPerSecond() {
      return loadNanos == 0 ? 0 : (partRows + lineitemRows) * 1e9 / loadNanos;
    }

    @Override
    public String toString() {
      if (reused) {
        return target + ": reused (" + partRows + " parts, " + lineitemRows + " lineitems; loaded earlier in "
            + String.format(Locale.ROOT, "%.1f s", storedLoadMillis / 1e3) + ")";
      }
      return String.format(Locale.ROOT, "%s: loaded %d parts and %d lineitems in %.1f s (%.0f rows/s; index %.1f s)",
          target, partRows, lineitemRows, loadNanos / 1e9, rowsPerSecond(), indexNanos / 1e9);
    }
  }

  /** What identifies complete data: scale factor, generator, data version and the schema's text. */
  public static String fingerprint(Lineitem w) {
    String schema = String.join(";", w.schema());
    return "lineitem sf=" + w.scaleFactor() + " tpch=1.2 v" + DATA_VERSION + " schema="
        + Integer.toHexString(schema.hashCode());
  }

  // ---------------------------------------------------------------------------------------------------
  // Accel

  /** The store directory of {@code w}: {@code <base>/lineitem-sf<sf>}, absolute. */
  public static Path accelDir(Lineitem w) {
    String base = System.getProperty(DATA_DIR_PROPERTY, DEFAULT_DATA_DIR);
    return Path.of(base).resolve("lineitem-sf" + w.scaleFactor()).toAbsolutePath().normalize();
  }

  /** {@code jdbc:accel:file:<dir>}. The store's meters carry the tag {@code store=<dir>}. */
  public static String accelUrl(Path dir) {
    return "jdbc:accel:file:" + dir.toAbsolutePath().normalize();
  }

  /** Loads {@code w} into the Accel store in {@link #accelDir(Lineitem)} unless it is complete there. */
  public static Outcome ensureAccel(Lineitem w, PrintStream log) throws SQLException {
    return ensureAccel(w, accelUrl(accelDir(w)), log);
  }

  /**
   * Loads {@code w} into the Accel store at {@code url} ({@code jdbc:accel:file:...} or {@code mem:})
   * unless it is complete there.
   */
  public static Outcome ensureAccel(Lineitem w, String url, PrintStream log) throws SQLException {
    // Nothing is lost to a crash of the process without synchronous commits; the marker, written last,
    // reaches the log after every row.
    String loadUrl = url + (url.contains("?") ? "&" : "?") + "syncCommits=false";
    try (Connection c = DriverManager.getConnection(loadUrl)) {
      Outcome found = complete(c, w, url);
      if (found != null) {
        WorkloadData.log(log, found.toString());
        if (!found.analyzed() && analyzeAccel(c, log)) {
          Workload.execute(c, List.of("UPDATE " + MARKER_TABLE + " SET analyzed = TRUE"));
        }
        return found;
      }
      WorkloadData.log(log, url + ": loading " + w + " with COPY (the driver's AccelCopy)");
      long start = System.nanoTime();
      List<String> drops = new ArrayList<>(w.dropTables());
      drops.add("DROP TABLE IF EXISTS " + MARKER_TABLE);
      Workload.execute(c, drops);
      Workload.execute(c, w.createTables());
      long partStart = System.nanoTime();
      long parts = accelCopy(c, "COPY part (" + Lineitem.PART_COLUMNS + ") FROM STDIN", w::copyParts);
      long lineitemStart = System.nanoTime();
      long lineitems = accelCopy(c, "COPY lineitem (" + Lineitem.LINEITEM_COLUMNS + ") FROM STDIN", w::copyLineitems);
      LoadResult rows = LoadResult.of(new LoadResult.TableLoad("part", parts, lineitemStart - partStart),
          new LoadResult.TableLoad("lineitem", lineitems, System.nanoTime() - lineitemStart));
      long indexStart = System.nanoTime();
      Workload.execute(c, w.createIndexes());
      long indexNanos = System.nanoTime() - indexStart;
      boolean analyzed = analyzeAccel(c, log);
      long nanos = System.nanoTime() - start;
      mark(c, w, rows.rows("part"), rows.rows("lineitem"), nanos, analyzed);
      Outcome done = new Outcome(url, false, rows.rows("part"), rows.rows("lineitem"), nanos, indexNanos,
          nanos / 1_000_000, analyzed);
      WorkloadData.log(log, done.toString());
      return done;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // PostgreSQL

  /** {@code lineitem_sf<sf>} with {@code _} for {@code .}, e.g. {@code lineitem_sf0_1}. */
  public static String postgresSchema(Lineitem w) {
    return "lineitem_sf" + w.scaleFactor().replace('.', '_');
  }

  public static String postgresUrl() {
    return System.getProperty(POSTGRES_URL_PROPERTY, DEFAULT_POSTGRES_URL);
  }

  /** A connection to PostgreSQL whose search path is {@code schema} (which need not exist yet). */
  public static Connection openPostgres(String schema) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", System.getProperty(POSTGRES_USER_PROPERTY, DEFAULT_POSTGRES_USER));
    p.setProperty("connectTimeout", "5");
    p.setProperty("currentSchema", schema);
    return DriverManager.getConnection(postgresUrl(), p);
  }

  /** Loads {@code w} into its PostgreSQL schema unless it is complete there. */
  public static Outcome ensurePostgres(Lineitem w, PrintStream log) throws SQLException {
    return ensurePostgres(w, postgresSchema(w), log);
  }

  public static Outcome ensurePostgres(Lineitem w, String schema, PrintStream log) throws SQLException {
    String target = postgresUrl() + " schema " + schema;
    try (Connection c = openPostgres(schema)) {
      Outcome found = complete(c, w, target);
      if (found != null && countsMatch(c, found)) {
        WorkloadData.log(log, found.toString());
        return found;
      }
      WorkloadData.log(log, target + ": loading " + w + " with COPY");
      long start = System.nanoTime();
      try (Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        s.execute("CREATE SCHEMA " + schema);
      }
      Workload.execute(c, w.createTables());
      long parts = copy(c, "COPY part (" + Lineitem.PART_COLUMNS + ") FROM STDIN", w::copyParts);
      long lineitems = copy(c, "COPY lineitem (" + Lineitem.LINEITEM_COLUMNS + ") FROM STDIN", w::copyLineitems);
      long indexStart = System.nanoTime();
      Workload.execute(c, w.createIndexes());
      long indexNanos = System.nanoTime() - indexStart;
      try (Statement s = c.createStatement()) {
        // Sets the visibility map too, so index-only scans need not visit the heap.
        s.execute("VACUUM ANALYZE part");
        s.execute("VACUUM ANALYZE lineitem");
      }
      long nanos = System.nanoTime() - start;
      mark(c, w, parts, lineitems, nanos, true);
      Outcome done = new Outcome(target, false, parts, lineitems, nanos, indexNanos, nanos / 1_000_000, true);
      WorkloadData.log(log, done.toString());
      return done;
    }
  }

  /**
   * COPY through Accel's embedded driver: the generator writes the text on a thread of its own into a pipe the COPY
   * reads, as pgJDBC's COPY below streams it to PostgreSQL.
   */
  private static long accelCopy(Connection c, String sql, Consumer<Writer> rows) throws SQLException {
    try (java.io.PipedReader in = new java.io.PipedReader(1 << 20)) {
      java.io.PipedWriter out = new java.io.PipedWriter(in);
      java.util.concurrent.CompletableFuture<Void> writer = java.util.concurrent.CompletableFuture.runAsync(() -> {
        try (Writer w = new java.io.BufferedWriter(out, 1 << 16)) {
          rows.accept(w);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      long copied = c.unwrap(io.accel.jdbc.AccelCopy.class).copyIn(sql, in);
      writer.join();
      return copied;
    } catch (IOException e) {
      throw new SQLException("COPY failed: " + e.getMessage(), e);
    }
  }

  private static long copy(Connection c, String sql, Consumer<Writer> rows) throws SQLException {
    CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
    try (Writer w = new CopyWriter(in)) {
      rows.accept(w);
    } catch (IOException | UncheckedIOException e) {
      if (in.isActive()) {
        in.cancelCopy();
      }
      Throwable cause = e instanceof UncheckedIOException ? e.getCause() : e;
      if (cause.getCause() instanceof SQLException) {
        throw (SQLException) cause.getCause();
      }
      throw new SQLException("COPY failed: " + cause.getMessage(), cause);
    }
    return in.getHandledRowCount();
  }

  /** Buffers COPY text and hands it to PostgreSQL in 1 MiB chunks; {@link #close()} ends the COPY. */
  private static final class CopyWriter extends Writer {
    private final CopyIn in;
    private final StringBuilder buffer = new StringBuilder(1 << 20);

    CopyWriter(CopyIn in) {
      this.in = in;
    }

    @Override
    public void write(char[] chars, int off, int len) throws IOException {
      buffer.append(chars, off, len);
      if (buffer.length() >= 1 << 20) {
        flush();
      }
    }

    @Override
    public void write(String s) throws IOException {
      buffer.append(s);
      if (buffer.length() >= 1 << 20) {
        flush();
      }
    }

    @Override
    public void flush() throws IOException {
      if (buffer.length() == 0) {
        return;
      }
      byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
      buffer.setLength(0);
      try {
        in.writeToCopy(bytes, 0, bytes.length);
      } catch (SQLException e) {
        throw new IOException(e.getMessage(), e);
      }
    }

    @Override
    public void close() throws IOException {
      flush();
      try {
        in.endCopy();
      } catch (SQLException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // The marker

  /** The outcome "reused" when {@code c} holds the marker row of {@code w}'s fingerprint, else null. */
  static Outcome complete(Connection c, Lineitem w, String target) throws SQLException {
    String sql = "SELECT fingerprint, part_rows, lineitem_rows, load_millis, analyzed FROM " + MARKER_TABLE
        + " WHERE workload = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, Lineitem.NAME);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && fingerprint(w).equals(rs.getString(1)) && rs.getLong(2) == w.parts()) {
          return new Outcome(target, true, rs.getLong(2), rs.getLong(3), 0, 0, rs.getLong(4), rs.getBoolean(5));
        }
        return null;
      }
    } catch (SQLException e) {
      // "No such table" or "no such column" (a marker of an older layout): not loaded. Anything else is a
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

  private static boolean countsMatch(Connection c, Outcome marker) throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM part), (SELECT COUNT(*) FROM lineitem)")) {
      rs.next();
      return rs.getLong(1) == marker.partRows() && rs.getLong(2) == marker.lineitemRows();
    }
  }

  /**
   * Collects the planner's statistics with ANALYZE where the engine has it; false (and a note) where it
   * does not yet, in which case a later reuse of the store tries again.
   */
  private static boolean analyzeAccel(Connection c, PrintStream log) {
    try (Statement s = c.createStatement()) {
      s.execute("ANALYZE part, lineitem");
      return true;
    } catch (SQLException e) {
      WorkloadData.log(log, "  ANALYZE not available (" + e.getSQLState() + ": " + e.getMessage() + "); the planner runs without statistics");
      return false;
    }
  }

  private static void mark(Connection c, Lineitem w, long parts, long lineitems, long nanos, boolean analyzed)
      throws SQLException {
    Workload.execute(c, List.of("DROP TABLE IF EXISTS " + MARKER_TABLE, CREATE_MARKER));
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + MARKER_TABLE
        + " (workload, fingerprint, part_rows, lineitem_rows, load_millis, analyzed) VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, Lineitem.NAME);
      ps.setString(2, fingerprint(w));
      ps.setLong(3, parts);
      ps.setLong(4, lineitems);
      ps.setLong(5, nanos / 1_000_000);
      ps.setBoolean(6, analyzed);
      ps.executeUpdate();
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }
}
