package io.accel.e2e.diff;

import io.accel.e2e.diff.QueryGenerator.Dml;
import io.accel.e2e.diff.QueryGenerator.Query;
import io.accel.e2e.diff.Schema.Table;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Runs one seed: the same DDL, data, queries and DML on PostgreSQL (the oracle) and on Accel, and records every
 * disagreement. With {@code accel == null} it only runs PostgreSQL, to check that the generator stays inside what
 * PostgreSQL accepts.
 */
final class DiffRunner implements AutoCloseable {
  /** Queries whose PostgreSQL result is larger than this are skipped (kept cheap, not compared). */
  static final int MAX_ROWS = 5000;
  /** Queries PostgreSQL needs longer than this for are skipped too (keeps the run time bounded). */
  static final long MAX_PG_NANOS = 400_000_000L;

  record Outcome(List<Object[]> rows, long updateCount, SQLException error) {
    boolean failed() {
      return error != null;
    }

    String errorClass() {
      String s = error.getSQLState();
      return s == null || s.length() < 2 ? "null" : s.substring(0, 2);
    }

    String describe() {
      if (error != null) {
        return "error SQLSTATE " + error.getSQLState() + ": " + firstLine(error.getMessage());
      }
      if (rows != null) {
        return rows.size() + " rows";
      }
      return "update count " + updateCount;
    }
  }

  record Discrepancy(long seed, String kind, String sql, String detail) {
    /** A coarse class of the discrepancy: Accel's error message without numbers, or "wrong result". */
    String signature() {
      int i = detail.indexOf("Accel: error");
      if (i < 0) {
        i = detail.indexOf("Accel error");
      }
      if (i >= 0) {
        String msg = detail.substring(i).replaceAll("\\d+", "N").replaceAll("\\s+", " ");
        return msg.substring(0, Math.min(110, msg.length()));
      }
      return "wrong result: " + kind.replaceAll(" \\(.*", "");
    }

    @Override
    public String toString() {
      return "[seed " + seed + "] " + kind + "\n    SQL: " + sql + "\n    " + detail;
    }
  }

  final long seed;
  final Features features;
  final Connection pg;
  final Connection accel;
  final Schema schema;
  final List<List<Object[]>> data;
  final QueryGenerator gen;
  final List<Discrepancy> discrepancies = new ArrayList<>();
  final List<String> generatorBugs = new ArrayList<>();
  final List<String> log = new ArrayList<>();
  int queriesCompared;
  int queriesSkipped;
  int errorsCompared;
  int dmlCompared;
  long pgNanos;
  long accelNanos;

  DiffRunner(long seed, Features features, Connection pg, Connection accel) throws SQLException {
    this(seed, features, pg, accel, true);
  }

  /** With {@code ownSchema} false the caller has set up PostgreSQL's search_path (used by {@link DiffCheck}). */
  DiffRunner(long seed, Features features, Connection pg, Connection accel, boolean ownSchema) throws SQLException {
    this.seed = seed;
    this.features = features;
    this.pg = pg;
    this.accel = accel;
    Random r = new Random(seed);
    this.schema = Schema.generate(r, features);
    this.data = Schema.data(r, schema);
    this.gen = new QueryGenerator(r, schema, features, data);
    if (!ownSchema) {
      return;
    }
    try (Statement st = pg.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + pgSchema() + " CASCADE");
      st.execute("CREATE SCHEMA " + pgSchema());
      st.execute("SET search_path TO " + pgSchema());
      st.execute("SET statement_timeout = '10s'");
    }
  }

  String pgSchema() {
    return "diff_" + seed;
  }

  /** The store of a seed; {@code -Ddiff.accelProperties=lookupJoins=false} (say) adds connection properties. */
  static String accelUrl(long seed) {
    String properties = System.getProperty("diff.accelProperties", "");
    return "jdbc:accel:mem:diff_" + seed + (properties.isEmpty() ? "" : "?" + properties);
  }

  @Override
  public void close() throws SQLException {
    if (accelExecutor != null) {
      accelExecutor.shutdownNow();
    }
    try (Statement st = pg.createStatement()) {
      if (!pg.getAutoCommit()) {
        pg.rollback();
        pg.setAutoCommit(true);
      }
      st.execute("DROP SCHEMA IF EXISTS " + pgSchema() + " CASCADE");
    }
  }

  /** Creates and loads the schema on both sides; false (with a discrepancy recorded) when Accel cannot. */
  boolean setup() {
    List<String> stmts = new ArrayList<>(schema.ddl());
    for (int i = 0; i < schema.tables.size(); i++) {
      stmts.addAll(Schema.inserts(schema.tables.get(i), data.get(i), features.multiRowInsert,
          features.plainDecimalDoubleLiterals));
    }
    for (String sql : stmts) {
      log.add(sql + ";");
      Outcome p = execute(pg, sql, false, true);
      if (p.failed()) {
        generatorBugs.add("[seed " + seed + "] PostgreSQL rejected setup statement: " + sql + "\n    "
            + p.describe());
        return false;
      }
      if (accel != null) {
        Outcome a = execute(accel, sql, false, false);
        if (a.failed()) {
          discrepancies.add(new Discrepancy(seed, "setup statement failed on Accel", sql, a.describe()));
          return false;
        }
      }
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------------------------

  /** How long Accel may take for one statement before the run is abandoned as hung. */
  static final long ACCEL_TIMEOUT_SECONDS = Long.getLong("diff.accelTimeout", 20);

  private java.util.concurrent.ExecutorService accelExecutor;
  private volatile Thread accelThread;
  /** Set when Accel hung on a statement: the connection is unusable and the rest of the seed is skipped. */
  String hungOn;

  Outcome execute(Connection c, String sql, boolean query, boolean isPg) {
    long t0 = System.nanoTime();
    try {
      if (isPg) {
        return executeNow(c, sql, query, MAX_ROWS, null);
      }
      if (hungOn != null) {
        return new Outcome(null, -1, new SQLException("not run: Accel hung on an earlier statement", "HY000"));
      }
      if (accelExecutor == null) {
        accelExecutor = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "accel-diff-" + seed);
          t.setDaemon(true);
          accelThread = t;
          return t;
        });
      }
      Statement[] holder = new Statement[1];
      java.util.concurrent.Future<Outcome> f = accelExecutor.submit(
          () -> executeNow(c, sql, query, Integer.MAX_VALUE, holder));
      try {
        return f.get(ACCEL_TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        hungOn = sql;
        abandonHungStatement(holder[0]);
        return new Outcome(null, -1, new SQLException("Accel did not finish within " + ACCEL_TIMEOUT_SECONDS
            + "s (hang in planning or execution); the rest of this seed is skipped", "HYT00"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Outcome(null, -1, new SQLException("interrupted", "HY008"));
      } catch (java.util.concurrent.ExecutionException e) {
        return new Outcome(null, -1, new SQLException("unchecked " + e.getCause(), (String) null, e.getCause()));
      }
    } finally {
      if (isPg) {
        pgNanos += System.nanoTime() - t0;
      } else {
        accelNanos += System.nanoTime() - t0;
      }
    }
  }

  @SuppressWarnings({"deprecation", "removal"})
  private void abandonHungStatement(Statement st) {
    // Statement.cancel() blocks on a monitor the busy thread holds, so cancel from a throw-away thread
    Thread canceller = new Thread(() -> {
      try {
        if (st != null) {
          st.cancel();
        }
      } catch (SQLException | RuntimeException ignored) {
        // best effort
      }
    }, "accel-diff-cancel");
    canceller.setDaemon(true);
    canceller.start();
    Thread t = accelThread;
    try {
      if (t != null) {
        t.join(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (t != null && t.isAlive()) {
      t.stop(); // a planner loop does not look at interrupts; free the CPU for the remaining tests
    }
    accelExecutor.shutdownNow();
  }

  private static Outcome executeNow(Connection c, String sql, boolean query, int maxRows, Statement[] holder) {
    try (Statement st = c.createStatement()) {
      if (holder != null) {
        holder[0] = st;
      }
      if (query) {
        if (maxRows < Integer.MAX_VALUE) {
          // the server stops after the rows compared: pgJDBC buffers a whole result, and a cross join of a few
          // hundred rows a table ran the test out of heap (the connection then answered out of step)
          st.setMaxRows(maxRows + 1);
        }
        try (var rs = st.executeQuery(sql)) {
          return new Outcome(Results.read(rs, maxRows), -1, null);
        }
      }
      if (st.execute(sql)) { // DML with RETURNING: its rows
        try (var rs = st.getResultSet()) {
          List<Object[]> rows = Results.read(rs, maxRows);
          return new Outcome(rows, rows.size(), null);
        }
      }
      return new Outcome(null, st.getUpdateCount(), null);
    } catch (SQLException e) {
      return new Outcome(null, -1, e);
    } catch (RuntimeException | Error e) {
      if (e instanceof ThreadDeath td) {
        throw td;
      }
      // a driver that throws unchecked exceptions is itself a discrepancy; keep going
      return new Outcome(null, -1, new SQLException("unchecked " + e, (String) null, e));
    }
  }

  private static boolean generatorBugClass(String cls) {
    return cls.equals("42") || cls.equals("0A") || cls.equals("XX") || cls.equals("57");
  }

  void runQueries(int n) {
    for (int i = 0; i < n && hungOn == null; i++) {
      runQuery(gen.nextQuery());
    }
  }

  /** The slowest queries (PostgreSQL + Accel time), for keeping the run fast. */
  final java.util.TreeMap<Long, String> slowest = new java.util.TreeMap<>();

  private void noteTime(long nanos, String sql) {
    slowest.put(nanos, sql);
    if (slowest.size() > 5) {
      slowest.pollFirstEntry();
    }
  }

  void runQuery(Query q) {
    long t0 = System.nanoTime();
    try {
      runQueryTimed(q);
    } finally {
      noteTime(System.nanoTime() - t0, q.sql());
    }
  }

  private void runQueryTimed(Query q) {
    long t0 = System.nanoTime();
    Outcome p = execute(pg, q.sql(), true, true);
    long pgTime = System.nanoTime() - t0;
    if (p.failed() && "57014".equals(p.error().getSQLState())) {
      queriesSkipped++; // statement timeout: too expensive to be useful
      return;
    }
    if (p.failed() && (!q.mayError() || generatorBugClass(p.errorClass()))) {
      generatorBugs.add("[seed " + seed + "] PostgreSQL rejected generated " + q.shape() + " query: " + q.sql()
          + "\n    " + p.describe());
      return;
    }
    if (!p.failed() && (p.rows().size() > MAX_ROWS || pgTime > MAX_PG_NANOS)) {
      queriesSkipped++;
      return;
    }
    if (accel == null) {
      queriesCompared++;
      return;
    }
    log.add(q.sql() + ";");
    Outcome a = execute(accel, q.sql(), true, false);
    queriesCompared++;
    String diff = compare(p, a, q.ordered());
    if (diff != null) {
      discrepancies.add(new Discrepancy(seed, q.shape() + (q.ordered() ? " (ordered)" : ""), q.sql(), diff));
    }
  }

  String compare(Outcome p, Outcome a, boolean ordered) {
    if (p.failed() || a.failed()) {
      if (p.failed() && a.failed()) {
        errorsCompared++;
        return p.errorClass().equals(a.errorClass()) ? null
            : "both failed but SQLSTATE classes differ: PostgreSQL " + p.describe() + "; Accel " + a.describe();
      }
      return "PostgreSQL: " + p.describe() + "; Accel: " + a.describe();
    }
    if (p.rows() != null) {
      return ordered ? Results.compareOrdered(p.rows(), a.rows()) : Results.compareUnordered(p.rows(), a.rows());
    }
    return p.updateCount() == a.updateCount() ? null
        : "update count: PostgreSQL " + p.updateCount() + ", Accel " + a.updateCount();
  }

  // ------------------------------------------------------------------------------------------------------------
  // DML

  void runDml(int n) {
    int i = 0;
    while (i < n && hungOn == null) {
      if (features.transactions && gen != null && i + 4 < n && new Random(seed * 31 + i).nextInt(6) == 0) {
        i += runTransaction();
        continue;
      }
      runOneDml(gen.nextDml(), true);
      i++;
    }
    refreshStats();
  }

  /** Gives the generator the tables' current contents (from PostgreSQL) for its join size estimates. */
  void refreshStats() {
    for (Table t : schema.tables) {
      Outcome p = execute(pg, "SELECT " + t.columnList() + " FROM " + t.name, true, true);
      if (!p.failed()) {
        gen.refreshStats(t, p.rows());
      }
    }
  }

  /** Runs one statement on both; returns false if either failed. */
  private boolean runOneDml(Dml d, boolean compareTable) {
    log.add(d.sql() + ";");
    Outcome p = execute(pg, d.sql(), false, true);
    if (p.failed() && generatorBugClass(p.errorClass())) {
      generatorBugs.add("[seed " + seed + "] PostgreSQL rejected generated DML: " + d.sql() + "\n    "
          + p.describe());
      return false;
    }
    if (accel == null) {
      dmlCompared++;
      return !p.failed();
    }
    Outcome a = execute(accel, d.sql(), false, false);
    dmlCompared++;
    String diff = compare(p, a, false);
    if (diff != null) {
      discrepancies.add(new Discrepancy(seed, "dml", d.sql(), diff));
    }
    if (compareTable) {
      compareTable(d.table(), "table contents after DML", d.sql());
    }
    return !p.failed() && !a.failed();
  }

  private int runTransaction() {
    if (hungOn != null) {
      return 1;
    }
    Random tr = new Random(seed * 17 + dmlCompared);
    int n = 2 + tr.nextInt(3);
    boolean commit = tr.nextInt(3) != 0;
    Set<Table> touched = new LinkedHashSet<>();
    StringBuilder script = new StringBuilder("BEGIN; ");
    try {
      pg.setAutoCommit(false);
      if (accel != null) {
        accel.setAutoCommit(false);
      }
      boolean ok = true;
      for (int i = 0; i < n && ok; i++) {
        Dml d = gen.nextDml();
        for (int k = 0; k < 20 && d.mayError(); k++) {
          d = gen.nextDml();
        }
        touched.add(d.table());
        script.append(d.sql()).append("; ");
        ok = runOneDml(d, false);
      }
      if (ok && accel != null) {
        // read-your-own-writes inside the open transaction
        Table t = touched.iterator().next();
        compareTable(t, "table contents inside an open transaction", script.toString());
      }
      if (ok && commit) {
        pg.commit();
        if (accel != null) {
          accel.commit();
        }
        script.append("COMMIT");
      } else {
        pg.rollback();
        if (accel != null) {
          accel.rollback();
        }
        script.append("ROLLBACK");
      }
    } catch (SQLException e) {
      discrepancies.add(new Discrepancy(seed, "transaction control failed", script.toString(),
          firstLine(e.getMessage())));
      try {
        pg.rollback();
      } catch (SQLException ignored) {
        // best effort
      }
      try {
        if (accel != null) {
          accel.rollback();
        }
      } catch (SQLException ignored) {
        // best effort
      }
    } finally {
      try {
        pg.setAutoCommit(true);
        if (accel != null) {
          accel.setAutoCommit(true);
        }
      } catch (SQLException e) {
        discrepancies.add(new Discrepancy(seed, "setAutoCommit(true) failed", script.toString(),
            firstLine(e.getMessage())));
      }
    }
    for (Table t : touched) {
      compareTable(t, "table contents after transaction", script.toString());
    }
    return n;
  }

  void compareAllTables(String when) {
    for (Table t : schema.tables) {
      compareTable(t, when, "SELECT " + t.columnList() + " FROM " + t.name);
    }
  }

  /** Compares a table's contents; on a difference records it and copies PostgreSQL's rows into Accel. */
  void compareTable(Table t, String kind, String sql) {
    if (accel == null || hungOn != null) {
      return;
    }
    String select = "SELECT " + t.columnList() + " FROM " + t.name;
    Outcome p = execute(pg, select, true, true);
    Outcome a = execute(accel, select, true, false);
    if (p.failed()) {
      generatorBugs.add("[seed " + seed + "] PostgreSQL failed to read " + t.name + ": " + p.describe());
      return;
    }
    String diff = a.failed() ? "Accel failed to read the table: " + a.describe()
        : Results.compareUnordered(p.rows(), a.rows());
    if (diff != null) {
      discrepancies.add(new Discrepancy(seed, kind + " (" + t.name + ")", sql, diff));
      resync(t, p.rows());
    }
  }

  private void resync(Table t, List<Object[]> rows) {
    try {
      boolean auto = accel.getAutoCommit();
      if (!auto) {
        return; // compared inside a transaction; the final comparison resyncs
      }
      execute(accel, "DELETE FROM " + t.name, false, false);
      for (String ins : Schema.inserts(t, rows, features.multiRowInsert, features.plainDecimalDoubleLiterals)) {
        execute(accel, ins, false, false);
      }
    } catch (SQLException e) {
      // nothing more to do: later comparisons will show it
    }
  }

  // ------------------------------------------------------------------------------------------------------------

  String slowestQueries() {
    StringBuilder sb = new StringBuilder();
    slowest.descendingMap().forEach((ns, sql) -> sb.append(String.format("  %.3fs %s%n", ns / 1e9, sql)));
    return sb.toString();
  }

  String summary() {
    return String.format("seed %d: %d tables, %d queries compared (%d both-failed), %d skipped as too large/slow, %d DML,"
            + " %d discrepancies, %d generator bugs; PostgreSQL %.1fs, Accel %.1fs", seed, schema.tables.size(),
        queriesCompared, errorsCompared, queriesSkipped, dmlCompared, discrepancies.size(), generatorBugs.size(),
        pgNanos / 1e9, accelNanos / 1e9);
  }

  /** Writes the DDL, data and every statement sent to Accel to target/diff-repro/seed-N.sql. */
  Path writeRepro(String name) {
    try {
      Path dir = Path.of("target", "diff-repro");
      Files.createDirectories(dir);
      Path file = dir.resolve(name + "-seed-" + seed + ".sql");
      try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
        w.println("-- Accel differential test, seed " + seed + ": statements in the order they were run");
        for (Discrepancy d : discrepancies) {
          w.println("-- DISCREPANCY " + d.kind() + ": " + d.sql().replace('\n', ' ') + "\n--   "
              + d.detail().replace("\n", "\n--   "));
        }
        for (String s : log) {
          w.println(s);
        }
      }
      return file.toAbsolutePath();
    } catch (IOException e) {
      return null;
    }
  }

  static String firstLine(String s) {
    if (s == null) {
      return "(no message)";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
