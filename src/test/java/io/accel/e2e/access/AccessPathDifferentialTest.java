package io.accel.e2e.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.accel.e2e.Services;
import io.accel.e2e.access.AccessWorkload.Copy;
import io.accel.e2e.access.AccessWorkload.Param;
import io.accel.e2e.access.AccessWorkload.Query;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every access path returns the same rows: one table loaded identically into copies that differ only in their
 * indexes ({@link AccessWorkload#COPIES}: none, composite, DESC, UNIQUE with NULLs, covering, all of them, and one
 * without a primary key), queried by random filters, orderings with LIMIT/OFFSET, aggregates, {@code ?} parameters
 * and correlated sub-queries, through four connections to the same store: the default one (whose plan cache
 * replaces literals by parameters, so one plan serves every literal value), {@code planCacheSize=0} (which plans
 * the literals themselves, as EXPLAIN shows them), {@code icp=false} and {@code indexScans=false}. Each result is
 * compared with {@code t_plain} read with index scans off, and with PostgreSQL holding the same data. The queries run on the freshly loaded data, after ANALYZE, inside a transaction
 * whose uncommitted UPDATE/DELETE/INSERTs the index paths of that transaction must see (and other connections must
 * not), after its COMMIT, and after a rolled-back transaction. EXPLAIN PLAN FOR shows that a meaningful share of
 * the queries really read an index.
 *
 * <p>{@code -Dseed=N} picks the data and queries (printed on failure); {@code -Daccess.queries=N} the number of
 * random queries per phase (default 40, each followed with probability 0.3 by the same query with other literals),
 * {@code -Daccess.rows=N} the table size (default 400), {@code -Daccess.full=true} runs every query on every copy
 * through every connection (about three times as many statements).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AccessPathDifferentialTest {
  static final long DEFAULT_SEED = 20_240_601L;
  static final boolean FULL = Boolean.getBoolean("access.full");
  static final Copy MULTI = AccessWorkload.COPIES.get(5);

  /**
   * Generator features switched off because they hit known discrepancies (each has a disabled reproduction in
   * {@link AccessPathReproTest}); remove an entry to see its discrepancies again.
   */
  static final Set<String> OFF = AccessWorkload.set(
      // access-path bug: strings outside ASCII whose UTF-16 order differs from their code-point order (U+FF71
      // vs U+1F600): index keys order them as PostgreSQL does (UTF-8 bytes), Calcite's comparisons and sorts
      // (full scans, residual predicates, EnumerableSort) by UTF-16 code unit, so results depend on the path.
      "wideStrings",
      // accel gap (not access path): a BigDecimal 2.5 or a Long outside INTEGER bound to `int_col = ?` is
      // converted to INTEGER (rounded to 3, or 22003) where PostgreSQL compares it as numeric/bigint.
      "pgParamConversion");

  private final List<String> discrepancies = new ArrayList<>();
  private final Map<String, Integer> features = new TreeMap<>();
  private final Map<String, int[]> indexShareByKind = new TreeMap<>();
  private final Map<String, long[]> timing = new TreeMap<>();
  private int statements;
  private int multiExplained;
  private int multiIndexPlans;
  private int queries;
  private int explained;
  private int indexPlans;

  private long seed;
  private AccessWorkload w;
  private Connection def;
  private Connection lit;
  private Connection noIcp;
  private Connection noIdx;
  private Connection pg;
  private Connection pgCommitted;

  @Test
  void everyAccessPathReturnsTheSameRows() throws Exception {
    String s = System.getProperty("seed");
    seed = s == null || s.isBlank() ? DEFAULT_SEED : Long.parseLong(s.trim());
    int perPhase = Integer.getInteger("access.queries", 40);
    int rows = Integer.getInteger("access.rows", 400);
    System.out.println("AccessPathDifferentialTest: seed " + seed + " (-Dseed=" + seed + " to repeat)");
    long t0 = System.nanoTime();
    pg = Services.postgres();
    pgCommitted = Services.postgres();
    String schema = "apd_" + seed + "_" + Long.toHexString(System.nanoTime() & 0xffffffL);
    String url = "jdbc:accel:mem:apd_" + seed + "_" + System.nanoTime();
    try {
      w = new AccessWorkload(seed, rows, OFF);
      setUpPostgres(schema);
      def = DriverManager.getConnection(url);
      lit = DriverManager.getConnection(url + "?planCacheSize=0");
      noIcp = DriverManager.getConnection(url + "?icp=false");
      noIdx = DriverManager.getConnection(url + "?indexScans=false");
      setUpAccel();

      lap("setup");
      phase("loaded", perPhase);
      lap("loaded");
      update(def, "ANALYZE");
      phase("analyzed", perPhase);
      lap("analyzed");
      transactionPhase(perPhase);
      lap("transaction");
      update(def, "ANALYZE");
      phase("committed+analyzed", perPhase);
      lap("committed");
      rollbackPhase(perPhase / 4);
      lap("rollback");
    } catch (SQLException | RuntimeException e) {
      throw new AssertionError("seed " + seed + " (-Dseed=" + seed + " to repeat) failed after " + queries
          + " queries: " + e, e);
    } finally {
      for (Connection c : new Connection[] {def, lit, noIcp, noIdx}) {
        if (c != null) {
          c.close();
        }
      }
      try (Statement st = pgCommitted.createStatement()) {
        pg.close();
        st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
      pgCommitted.close();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    String summary = String.format("seed %d: %d queries, %d statements in %.1fs (%s); %d of %d sampled plans of"
        + " indexed copies read an index (%.0f%%), %d of %d on %s; by kind %s; plan features %s", seed, queries,
        statements, seconds, timings(), indexPlans, explained, 100.0 * indexPlans / Math.max(1, explained),
        multiIndexPlans, multiExplained, MULTI.name(), shares(), features);
    System.out.println(summary);
    if (!discrepancies.isEmpty()) {
      fail(summary + "\nReproduce with -Dseed=" + seed + " -Dtest=AccessPathDifferentialTest\n"
          + discrepancies.size() + " DISCREPANCIES:\n" + discrepancies.stream().limit(40)
              .collect(Collectors.joining("\n")));
    }
    // t_multi has an index for nearly every predicate the generator writes; the other copies one or two each
    assertThat((double) multiIndexPlans / multiExplained).as("share of plans on " + MULTI.name()
        + " reading an index: " + summary).isGreaterThan(0.4);
    assertThat((double) indexPlans / explained).as("share of plans reading an index: " + summary)
        .isGreaterThan(0.2);
    for (String f : List.of("index", "skip scan (in {..})", "icp", "covering", "order forward", "order backward",
        "limit", "range")) {
      assertThat(features.getOrDefault(f, 0)).as("plans with " + f + ": " + summary).isPositive();
    }
  }

  // ------------------------------------------------------------------------------------------ setup

  private void setUpPostgres(String schema) throws SQLException {
    for (Connection c : List.of(pg, pgCommitted)) {
      try (Statement st = c.createStatement()) {
        if (c == pg) {
          st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
          st.execute("CREATE SCHEMA " + schema);
        }
        st.execute("SET search_path TO " + schema);
      }
    }
    // PostgreSQL answers for every copy; the UNIQUE index keeps its constraint like Accel's copies
    for (String ddl : AccessWorkload.PLAIN.ddl()) {
      update(pg, ddl);
    }
    update(pg, "CREATE UNIQUE INDEX t_plain_u ON t_plain (u)");
    update(pg, AccessWorkload.OUTER_DDL);
    for (String insert : AccessWorkload.inserts("t_plain", w.data)) {
      update(pg, insert);
    }
    for (String insert : w.outerInserts()) {
      update(pg, insert);
    }
    update(pg, "ANALYZE");
  }

  private void setUpAccel() throws SQLException {
    update(def, AccessWorkload.OUTER_DDL);
    try (Statement st = pgCommitted.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM s")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add("(" + rs.getInt(1) + ", " + AccessRows.literal(rs.getObject(2)) + ", "
            + AccessRows.literal(rs.getObject(3)) + ", " + AccessRows.literal(rs.getObject(4)) + ")");
      }
      update(def, "INSERT INTO s VALUES " + String.join(", ", rows));
    }
    for (Copy copy : AccessWorkload.COPIES) {
      // half the copies get their indexes before the rows (maintained on insert), half after (backfilled)
      boolean indexFirst = copy.name().hashCode() % 2 == 0;
      List<String> ddl = copy.ddl();
      update(def, ddl.get(0));
      if (indexFirst) {
        for (String index : ddl.subList(1, ddl.size())) {
          update(def, index);
        }
      }
      if (copy == AccessWorkload.PLAIN) {
        for (String insert : AccessWorkload.inserts(copy.name(), w.data)) {
          update(def, insert);
        }
      } else {
        update(def, "INSERT INTO " + copy.name() + " SELECT " + AccessWorkload.ALL_COLUMNS + " FROM t_plain");
      }
      if (!indexFirst) {
        for (String index : ddl.subList(1, ddl.size())) {
          update(def, index);
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------ phases

  /** Random queries (and the index sweeps) on committed data, through every copy and connection. */
  private void phase(String phase, int n) throws SQLException {
    for (Query q : AccessWorkload.sweeps()) {
      compareEverywhere(phase, q);
    }
    for (int i = 0; i < n; i++) {
      Query q = w.query();
      compareEverywhere(phase, q);
      if (!q.template().contains("CAST(") && w.chance(0.3)) {
        compareEverywhere(phase, w.withOtherLiterals(q));
      }
    }
  }

  private void compareEverywhere(String phase, Query q) throws SQLException {
    queries++;
    AccessRows expectedPg = q.pgComparable() ? run(pgCommitted, q.sql("t_plain"), q.params()) : null;
    AccessRows base = run(noIdx, q.sql("t_plain"), q.params());
    if (expectedPg != null) {
      String d = AccessRows.compare(expectedPg, base, q.mode(), true, false);
      if (d != null) {
        report(phase, "ENGINE (t_plain, indexScans=false vs PostgreSQL)", q, "t_plain", noIdx, d);
      }
    }
    // every copy through the default connection and t_multi plus two random indexed copies with literal plans
    // (those EXPLAIN shows), two with icp=false and one with indexScans=false; with -Daccess.full=true every copy
    // through every connection
    List<Copy> indexed = AccessWorkload.COPIES.subList(1, AccessWorkload.COPIES.size());
    Copy lit1 = w.pick(indexed);
    Copy lit2 = w.pick(indexed);
    Copy icpOff1 = w.pick(indexed);
    Copy icpOff2 = w.pick(indexed);
    Copy idxOff = w.pick(indexed);
    for (Copy copy : AccessWorkload.COPIES) {
      List<Connection> connections = new ArrayList<>(List.of(def));
      if (FULL || copy == MULTI || copy == lit1 || copy == lit2) {
        connections.add(lit);
      }
      if (FULL && copy.indexed() || copy == icpOff1 || copy == icpOff2) {
        connections.add(noIcp);
      }
      if (FULL && copy.indexed() || copy == idxOff) {
        connections.add(noIdx);
      }
      for (Connection c : connections) {
        AccessRows actual = run(c, q.sql(copy.name()), q.params());
        String d = AccessRows.compare(base, actual, q.mode(), false, true);
        if (d != null) {
          report(phase, "ACCESS PATH (vs t_plain with indexScans=false)", q, copy.name(), c, d);
        } else if (expectedPg != null && AccessRows.compare(expectedPg, base, q.mode(), true, false) == null) {
          String dp = AccessRows.compare(expectedPg, actual, q.mode(), true, false);
          if (dp != null) {
            report(phase, "ACCESS PATH (vs PostgreSQL)", q, copy.name(), c, dp);
          }
        }
      }
      if (copy.indexed() && (FULL || copy == MULTI || copy == lit1 || copy == lit2)) {
        countPlan(q, copy, explain(lit, q, copy.name()));
      }
    }
  }

  /**
   * Random DML inside one transaction on the literal-plan connection (and on PostgreSQL), queries between the
   * statements: the index paths of the transaction see its own uncommitted writes, the other connections (and a
   * second PostgreSQL session) still the committed rows. ANALYZE runs half way, inside the block.
   */
  private void transactionPhase(int n) throws SQLException {
    String phase = "in transaction";
    Connection txn = lit;
    txn.setAutoCommit(false);
    pg.setAutoCommit(false);
    boolean aborted = false;
    try {
      int dml = Math.max(8, n / 3);
      outer:
      for (int i = 0; i < dml; i++) {
        String stmt = w.dml();
        Integer expected = null;
        try {
          expected = update(pg, stmt.replace("{T}", "t_plain"));
        } catch (SQLException e) {
          discrepancies.add("[generator] PostgreSQL rejected " + stmt + ": " + e.getMessage());
          aborted = true;
          break;
        }
        for (Copy copy : AccessWorkload.COPIES) {
          String sql = stmt.replace("{T}", copy.name());
          try {
            int count = update(txn, sql);
            if (count != expected) {
              report(phase, "DML row count", new Query("dml", stmt, List.of(), AccessRows.Mode.UNORDERED),
                  copy.name(), txn, "PostgreSQL changed " + expected + " rows, Accel " + count);
            }
          } catch (SQLException e) {
            report(phase, "DML failed", new Query("dml", stmt, List.of(), AccessRows.Mode.UNORDERED), copy.name(),
                txn, e.getSQLState() + " " + e.getMessage());
            aborted = true;
            break outer;
          }
        }
        if (i == dml / 2) {
          update(txn, "ANALYZE");
        }
        for (int k = 0; k < Math.max(1, n / dml); k++) {
          Query q = w.query();
          if (!q.pgComparable()) {
            continue;
          }
          if (!compareInTransaction(phase, q)) {
            aborted = true;
            break outer;
          }
        }
      }
      if (!aborted) {
        for (Query q : AccessWorkload.sweeps()) {
          if (!compareInTransaction(phase, q)) {
            aborted = true;
            break;
          }
        }
      }
    } finally {
      if (aborted) {
        txn.rollback();
        pg.rollback();
      } else {
        txn.commit();
        pg.commit();
      }
      txn.setAutoCommit(true);
      pg.setAutoCommit(true);
    }
  }

  /** One query inside the transaction; false when a statement failed (which aborts the block). */
  private boolean compareInTransaction(String phase, Query q) throws SQLException {
    queries++;
    AccessRows expected = run(pg, q.sql("t_plain"), q.params());
    AccessRows base = run(lit, q.sql("t_plain"), q.params());
    if (expected.failed() || base.failed()) {
      report(phase, expected.failed() ? "query failed on PostgreSQL" : "query failed on Accel", q, "t_plain", lit,
          "PostgreSQL: " + expected + "; Accel: " + base);
      return false;
    }
    String d = AccessRows.compare(expected, base, q.mode(), true, false);
    if (d != null) {
      report(phase, "ENGINE in transaction (t_plain vs PostgreSQL)", q, "t_plain", lit, d);
    }
    for (Copy copy : AccessWorkload.COPIES) {
      if (!copy.indexed()) {
        continue;
      }
      AccessRows actual = run(lit, q.sql(copy.name()), q.params());
      if (actual.failed()) {
        report(phase, "query failed on Accel", q, copy.name(), lit, actual.toString());
        return false;
      }
      String dc = AccessRows.compare(base, actual, q.mode(), false, true);
      if (dc != null) {
        report(phase, "ACCESS PATH in transaction (vs t_plain in the transaction)", q, copy.name(), lit, dc);
      }
      if (FULL || copy == MULTI) {
        countPlan(q, copy, explain(lit, q, copy.name()));
      }
    }
    // the other connections still read the committed rows, through their own index paths
    AccessRows committed = run(pgCommitted, q.sql("t_plain"), q.params());
    Copy copy = w.pick(AccessWorkload.COPIES.subList(1, AccessWorkload.COPIES.size()));
    Connection other = w.pick(List.of(def, noIcp, noIdx));
    AccessRows outside = run(other, q.sql(copy.name()), q.params());
    String dc = AccessRows.compare(committed, outside, q.mode(), true, false);
    if (dc != null) {
      report(phase, "SNAPSHOT (another connection vs committed PostgreSQL rows)", q, copy.name(), other, dc);
    }
    return true;
  }

  /**
   * DML in a transaction (on the default connection, whose plans take literals as parameters) that rolls back,
   * queries inside it comparing the copies with each other; afterwards every copy and index holds the committed
   * rows again.
   */
  private void rollbackPhase(int n) throws SQLException {
    String phase = "rolled back";
    def.setAutoCommit(false);
    try {
      for (int i = 0; i < 10; i++) {
        String stmt = w.dml();
        for (Copy copy : AccessWorkload.COPIES) {
          update(def, stmt.replace("{T}", copy.name()));
        }
      }
      for (int i = 0; i < n; i++) {
        Query q = w.query();
        if (!q.pgComparable()) {
          continue;
        }
        queries++;
        AccessRows base = run(def, q.sql("t_plain"), q.params());
        for (Copy copy : AccessWorkload.COPIES.subList(1, AccessWorkload.COPIES.size())) {
          String d = AccessRows.compare(base, run(def, q.sql(copy.name()), q.params()), q.mode(), false, true);
          if (d != null) {
            report(phase + " (before ROLLBACK)", "ACCESS PATH in transaction", q, copy.name(), def, d);
          }
        }
      }
    } finally {
      def.rollback();
      def.setAutoCommit(true);
    }
    for (Query q : AccessWorkload.sweeps()) {
      compareEverywhere(phase, q);
    }
  }

  // ------------------------------------------------------------------------------------------ execution

  private AccessRows run(Connection c, String sql, List<Param> params) throws SQLException {
    statements++;
    long t0 = System.nanoTime();
    String category = (c == pg || c == pgCommitted ? "postgres" : c == noIcp ? "icp=false"
        : c == noIdx ? "indexScans=false" : c == lit ? "planCacheSize=0" : "default")
        + (sql.startsWith("EXPLAIN") ? " explain" : "");
    try {
      return execute(c, sql, params);
    } finally {
      long[] t = timing.computeIfAbsent(category, k -> new long[2]);
      t[0]++;
      t[1] += System.nanoTime() - t0;
    }
  }

  private AccessRows execute(Connection c, String sql, List<Param> params) throws SQLException {
    try {
      if (params.isEmpty()) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
          return AccessRows.of(AccessRows.read(rs));
        }
      }
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < params.size(); i++) {
          params.get(i).bind(ps, i + 1);
        }
        try (ResultSet rs = ps.executeQuery()) {
          return AccessRows.of(AccessRows.read(rs));
        }
      }
    } catch (SQLException e) {
      if (c.isClosed()) {
        throw e;
      }
      return AccessRows.error(e);
    }
  }

  private int update(Connection c, String sql) throws SQLException {
    statements++;
    try (Statement st = c.createStatement()) {
      return st.executeUpdate(sql);
    }
  }

  private String explain(Connection c, Query q, String table) throws SQLException {
    AccessRows plan = run(c, "EXPLAIN PLAN FOR " + q.sql(table), q.params());
    if (plan.failed()) {
      return "(EXPLAIN failed: " + plan.state + " " + plan.message + ")";
    }
    return plan.rows.stream().map(r -> String.valueOf(r[0])).collect(Collectors.joining("\n"));
  }

  private void countPlan(Query q, Copy copy, String plan) {
    explained++;
    int[] share = indexShareByKind.computeIfAbsent(q.kind(), k -> new int[2]);
    share[1]++;
    boolean index = plan.contains("access=[index");
    if (copy == MULTI) {
      multiExplained++;
      multiIndexPlans += index ? 1 : 0;
    }
    if (index) {
      indexPlans++;
      share[0]++;
      feature("index");
    }
    for (String line : plan.split("\n")) {
      if (!line.contains("access=[index")) {
        if (line.contains("access=[primary key")) {
          feature("primary key");
        }
        continue;
      }
      if (line.matches(".*keys=\\[[^]]* in \\{.*")) {
        feature("skip scan (in {..})");
      }
      if (line.matches(".*keys=\\[[^]]*\\.\\..*")) {
        feature("range");
      }
      if (line.contains("icp=[")) {
        feature("icp");
      }
      if (line.contains("residual=[")) {
        feature("residual");
      }
      if (line.contains("covering=[true]")) {
        feature("covering");
      }
      if (line.contains("order=[forward]")) {
        feature("order forward");
      }
      if (line.contains("order=[backward]")) {
        feature("order backward");
      }
      if (line.contains("limit=[")) {
        feature("limit");
      }
      if (line.contains("?")) {
        feature("parameter keys");
      }
      if (line.contains("$cor")) {
        feature("correlation keys");
      }
    }
  }

  private void feature(String name) {
    features.merge(name, 1, Integer::sum);
  }

  private long lapStart = System.nanoTime();
  private final List<String> laps = new ArrayList<>();

  private void lap(String name) {
    long now = System.nanoTime();
    laps.add(String.format("%s %.1fs", name, (now - lapStart) / 1e9));
    lapStart = now;
  }

  private String timings() {
    return "phases " + String.join(", ", laps) + "; " + timing.entrySet().stream().map(e -> String.format(
        "%s %d in %.1fs", e.getKey(), e.getValue()[0], e.getValue()[1] / 1e9)).collect(Collectors.joining(", "));
  }

  private String shares() {
    Map<String, String> out = new LinkedHashMap<>();
    indexShareByKind.forEach((k, v) -> out.put(k, v[0] + "/" + v[1]));
    return out.toString();
  }

  private void report(String phase, String what, Query q, String table, Connection c, String difference)
      throws SQLException {
    String setting = c == noIcp ? "icp=false" : c == noIdx ? "indexScans=false" : c == lit ? "planCacheSize=0"
        : "default";
    String plan;
    try {
      // EXPLAIN plans the literals; the default connection may have run a plan cached for other values
      plan = explain(c, q, table);
    } catch (SQLException e) {
      plan = "(EXPLAIN failed: " + e.getMessage() + ")";
    }
    discrepancies.add("- " + what + " [" + phase + ", " + table + ", " + setting + ", " + q.mode() + "]\n    "
        + q.sql(table) + (q.params().isEmpty() ? "" : "\n    params " + q.params()) + "\n    " + difference
        + "\n    plan: " + plan.replace("\n", "\n          "));
  }
}
