package io.accel.e2e.fuzz;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One seed of {@link ApiFuzzTest}, in a JVM of its own (launched with {@code -ea}, so RocksJava's assertions turn a
 * use of a closed native object into an AssertionError instead of a read of freed memory). It creates the tables,
 * runs the workers until the deadline, then checks through a fresh connection that every own table holds exactly
 * the rows committed to it, through every access path, and that no connection read a row of a transaction that never
 * committed; last it closes whatever the workers left open.
 *
 * <p>Usage: {@code ApiFuzzRun <seed> <seconds> <threads> <store URL> <directory for call logs>}. Prints a report
 * ending in {@code FUZZ RESULT: clean} (exit 0) or {@code FUZZ RESULT: <n> violations} (exit 1); a call that hangs
 * prints every thread's stack and exits {@value #EXIT_HANG}.
 */
public final class ApiFuzzRun {
  static final int EXIT_VIOLATIONS = 1;
  static final int EXIT_HARNESS = 2;
  static final int EXIT_HANG = 3;
  /** A call running longer than this is a hang. */
  static final long STALL_SECONDS = 30;

  private static volatile Violations violations;
  private static volatile String phase = "setup";
  private static volatile long phaseSince = System.nanoTime();

  private ApiFuzzRun() {
  }

  public static void main(String[] args) {
    long seed = Long.parseLong(args[0]);
    int seconds = Integer.parseInt(args[1]);
    int threads = Integer.parseInt(args[2]);
    String url = args[3];
    Path dir = Path.of(args[4]);
    PrintStream out = System.out;
    out.printf("FUZZ seed=%d seconds=%d threads=%d url=%s%n", seed, seconds, threads, url);
    OpLog log = new OpLog(dir);
    List<FuzzWorker> workers = new ArrayList<>();
    Thread watchdog = new Thread(() -> watch(workers, log), "fuzz-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    Connection anchor;
    List<String> tables = new ArrayList<>();
    try {
      anchor = DriverManager.getConnection(url); // keeps an in-memory store open while workers come and go
      for (int t = 0; t < threads; t++) {
        tables.add(FuzzSql.ownTable(t));
      }
      for (int k = 0; k < FuzzSql.SHARED_TABLES; k++) {
        tables.add(FuzzSql.sharedTable(k));
      }
      createTables(anchor, tables, threads);
    } catch (Throwable t) {
      out.println("FUZZ setup failed:");
      t.printStackTrace(out);
      out.flush();
      Runtime.getRuntime().halt(EXIT_HARNESS);
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    FuzzContext ctx = new FuzzContext(url, List.copyOf(tables), deadline, log);
    violations = ctx.violations;
    List<ObjectPool> sharedPools = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      if (i % 2 == 0) {
        sharedPools.add(new ObjectPool("shared" + i / 2));
      }
      FuzzWorker w = new FuzzWorker(i, ctx, seed, sharedPools.get(i / 2));
      w.own.initialRowsCommitted();
      synchronized (workers) {
        workers.add(w);
      }
    }
    enter("workers running");
    List<Thread> running = new ArrayList<>();
    synchronized (workers) {
      for (FuzzWorker w : workers) {
        Thread th = new Thread(w, "fuzz-" + w.name);
        th.start();
        running.add(th);
      }
    }
    for (Thread th : running) {
      try {
        th.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    enter("verification");
    System.gc();
    List<String> checked = verify(ctx, workers, url);
    enter("closing what the workers left open");
    for (FuzzWorker w : workers) {
      w.closeEverything();
    }
    try {
      anchor.close();
    } catch (Throwable t) {
      ctx.violations.failure("anchor connection close()", t);
    }
    enter("report");
    out.println("FUZZ calls: " + ctx.calls());
    out.println("FUZZ legal failures by SQLSTATE: " + ctx.violations.legalStates());
    out.print(ctx.violations.internalErrors());
    out.println("FUZZ checked: " + String.join("; ", checked));
    if (ctx.violations.isEmpty()) {
      out.println("FUZZ RESULT: clean");
      out.flush();
      Runtime.getRuntime().halt(0);
    }
    out.println(ctx.violations.report());
    out.println("FUZZ RESULT: " + ctx.violations.total() + " violations");
    out.flush();
    Runtime.getRuntime().halt(EXIT_VIOLATIONS);
  }

  private static void enter(String p) {
    phase = p;
    phaseSince = System.nanoTime();
  }

  /** Creates every table with its grp index; the own tables get the initial rows, the shared ones as many. */
  private static void createTables(Connection c, List<String> tables, int threads) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String t : tables) {
        st.execute(FuzzSql.createTable(t));
        st.execute("CREATE INDEX " + t + "_grp ON " + t + " (grp)");
      }
      String first = tables.get(0);
      StringBuilder values = new StringBuilder();
      for (int id = 0; id < OwnedTable.INITIAL_ROWS; id++) {
        TableModel.Row r = OwnedTable.initialRow(id);
        values.append(values.length() == 0 ? "" : ", ").append('(').append(r.id()).append(", ").append(r.grp())
            .append(", '").append(r.val()).append("')");
        if (id % 50 == 49 || id == OwnedTable.INITIAL_ROWS - 1) {
          st.executeUpdate("INSERT INTO " + first + " (id, grp, val) VALUES " + values);
          values.setLength(0);
        }
      }
      for (String t : tables.subList(1, tables.size())) {
        st.executeUpdate(t.startsWith("own_") ? "INSERT INTO " + t + " SELECT id, grp, val FROM " + first
            : FuzzSql.fillShared(t, first));
      }
    }
  }

  /**
   * Checks the own tables through a fresh connection (with and without index scans): each holds exactly the rows
   * committed to it, whatever path reads them; no connection but the writer's read a tag of a transaction that
   * never committed; the shared tables' indexes agree with the tables. Returns what was checked.
   */
  private static List<String> verify(FuzzContext ctx, List<FuzzWorker> workers, String url) {
    List<String> checked = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
         Connection noIndex = DriverManager.getConnection(url + (url.contains("?") ? "&" : "?") + "indexScans=false")) {
      for (FuzzWorker w : workers) {
        OwnedTable t = w.own;
        Set<String> seen = new HashSet<>(t.model.abandonedTags());
        seen.retainAll(ctx.observedTags);
        if (!seen.isEmpty()) {
          ctx.violations.wrong("uncommitted rows visible: another connection read rows of transactions that never"
              + " committed", "reads of " + t.table, "tags of transactions that never committed, read elsewhere: "
              + seen);
        }
        if (t.model.uncertain() != null) {
          checked.add(t.table + " NOT checked (" + t.model.uncertain() + ")");
          continue;
        }
        List<TableModel.Row> expected = t.model.committedRows();
        compare(ctx, c, "SELECT id, grp, val FROM " + t.table + " ORDER BY id", expected, r -> true);
        for (int g = 0; g < FuzzSql.GROUPS; g++) {
          final int grp = g;
          String sql = "SELECT id, grp, val FROM " + t.table + " WHERE grp = " + g + " ORDER BY id";
          compare(ctx, c, sql, expected, r -> r.grp() == grp);
          compare(ctx, noIndex, sql, expected, r -> r.grp() == grp);
        }
        checked.add(t.table + " (" + expected.size() + " rows, " + t.model.committedTags().size() + " committed and "
            + t.model.abandonedTags().size() + " abandoned transactions)");
      }
      for (String table : ctx.tables) {
        if (table.startsWith("shared_") && indexAgreesWithTable(ctx, c, noIndex, table)) {
          checked.add(table + " (indexes agree with the table)");
        }
      }
    } catch (Throwable e) {
      ctx.violations.failure("verification: getConnection/close", e);
    }
    return checked;
  }

  private static void compare(FuzzContext ctx, Connection c, String sql, List<TableModel.Row> committed,
      Predicate<TableModel.Row> which) {
    List<TableModel.Row> expected = committed.stream().filter(which).toList();
    List<TableModel.Row> actual;
    try {
      actual = OwnedTable.rows(c, sql);
    } catch (Throwable e) {
      ctx.violations.failure("verification: " + sql, e);
      ctx.violations.wrong("verification query failed", sql, String.valueOf(e));
      return;
    }
    if (!actual.equals(expected)) {
      ctx.violations.wrong("committed rows: a fresh connection reads rows other than those committed", sql,
          OwnedTable.difference(expected, actual));
    }
  }

  private static boolean indexAgreesWithTable(FuzzContext ctx, Connection c, Connection noIndex, String table) {
    for (int g = 0; g < FuzzSql.GROUPS; g++) {
      String sql = "SELECT id, grp, val FROM " + table + " WHERE grp = " + g + " ORDER BY id";
      try {
        List<TableModel.Row> viaTable = OwnedTable.rows(noIndex, sql);
        List<TableModel.Row> viaIndex = OwnedTable.rows(c, sql);
        if (!viaIndex.equals(viaTable)) {
          ctx.violations.wrong("index disagrees with its table", sql, "table scan vs default plan: "
              + OwnedTable.difference(viaTable, viaIndex));
        }
      } catch (SQLException e) {
        if (!"42P01".equals(e.getSQLState())) {
          ctx.violations.failure("verification: " + sql, e);
        }
        return false;
      } catch (Throwable e) {
        ctx.violations.failure("verification: " + sql, e);
        return false;
      }
    }
    return true;
  }

  /** Every half second: a call running longer than {@value #STALL_SECONDS}s, or a stuck phase, is a hang. */
  private static void watch(List<FuzzWorker> workers, OpLog log) {
    while (true) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      String stuck = null;
      synchronized (workers) {
        for (FuzzWorker w : workers) {
          String call = w.current;
          if (!w.done && call != null && now - w.currentSince > TimeUnit.SECONDS.toNanos(STALL_SECONDS)) {
            stuck = w.name + " has been in one call for over " + STALL_SECONDS + "s: " + call;
          }
        }
      }
      if (stuck == null && !phase.equals("workers running")
          && now - phaseSince > TimeUnit.SECONDS.toNanos(3 * STALL_SECONDS)) {
        stuck = "the phase '" + phase + "' has taken over " + 3 * STALL_SECONDS + "s";
      }
      if (stuck != null) {
        hang(stuck, log);
      }
    }
  }

  private static void hang(String what, OpLog log) {
    PrintStream out = System.out;
    out.println("FUZZ HANG: " + what);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] deadlocked = mx.findDeadlockedThreads();
    if (deadlocked != null) {
      out.println("deadlocked threads: " + java.util.Arrays.toString(deadlocked));
    }
    for (ThreadInfo ti : mx.dumpAllThreads(true, true)) {
      out.printf("\"%s\" id=%d %s%s%s%n", ti.getThreadName(), ti.getThreadId(), ti.getThreadState(),
          ti.getLockName() == null ? "" : " waiting for " + ti.getLockName(),
          ti.getLockOwnerName() == null ? "" : " held by \"" + ti.getLockOwnerName() + "\"");
      for (StackTraceElement e : ti.getStackTrace()) {
        out.println("    at " + e);
      }
    }
    out.println("calls of all threads just before (oldest first):");
    log.recent(60).forEach(l -> out.println("  " + l));
    Violations found = violations;
    if (found != null && !found.isEmpty()) {
      out.println("violations before the hang:");
      out.println(found.report());
    }
    out.println("FUZZ RESULT: hang");
    out.flush();
    Runtime.getRuntime().halt(EXIT_HANG);
  }
}
