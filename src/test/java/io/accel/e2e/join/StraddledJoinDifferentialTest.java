package io.accel.e2e.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.accel.e2e.Services;
import io.accel.e2e.access.AccessRows;
import io.accel.e2e.join.JoinWorkload.Indexing;
import io.accel.e2e.join.JoinWorkload.KeyPair;
import io.accel.e2e.join.JoinWorkload.Query;
import io.accel.e2e.join.JoinWorkload.Schema;
import io.accel.e2e.join.JoinWorkload.Table;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Straddled joins (predicates on both sides plus the join condition) return PostgreSQL's rows whichever join the
 * planner picks. Several random schemas ({@link JoinWorkload#schema}) of an outer table {@code a} and inner tables
 * {@code b} (and often {@code c}) with join keys of comparable but sometimes different types (INTEGER/BIGINT,
 * INTEGER/NUMERIC(10,2) with x.50 values on the NUMERIC side, SMALLINT/INTEGER, VARCHAR, DATE), NULL and duplicate
 * keys on both sides, and inner indexes that lead with the join key followed by status and range columns (DESC,
 * UNIQUE, INCLUDE), or none usable, are loaded identically into a fresh Accel store and a fresh PostgreSQL schema;
 * half the stores are ANALYZEd. Random inner, left, right, semi (IN, EXISTS), anti (NOT IN with NULLs, NOT EXISTS),
 * non-equi, three-way and self joins (the employees E1 shape), ordered with LIMIT, aggregated, some with {@code ?}
 * parameters, run on PostgreSQL and through two Accel connections to the same store: the default one, which may
 * plan an {@code IndexLookupJoin} (the batched index-lookup join), and {@code lookupJoins=false}, which plans hash
 * and merge joins of independently filtered sides. Both must return PostgreSQL's rows (a multiset, or a list when
 * the query orders totally). Some queries run inside transactions whose uncommitted INSERT/UPDATE/DELETE of the
 * inner tables they must see, then again after ROLLBACK.
 *
 * <p>EXPLAIN of every query on the default connection counts the plans using {@code IndexLookupJoin}: at least
 * {@link #MIN_LOOKUP_SHARE} of the queries on schemas whose inner table {@code b} has an index or primary key
 * leading with the join key must use it, and no query on {@code lookupJoins=false} (EXPLAINed there: every query
 * whose default plan uses it, and every second other query).
 *
 * <p>{@code -Dseed=N} picks schemas, data and queries (printed on failure); {@code -Djoin.schemas=N} the number of
 * schemas (default 5), {@code -Djoin.queries=N} the queries per schema (default 60), {@code -Djoin.scale=N} the
 * inner table's largest size (default 1600 rows; the outer table holds a third to two thirds of it);
 * {@code -Djoin.gaps=true} also generates the constructs of known Accel gaps (see below).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StraddledJoinDifferentialTest {
  static final long DEFAULT_SEED = 20_240_715L;
  static final double MIN_LOOKUP_SHARE = 0.3;
  static final String LOOKUP = "IndexLookupJoin";

  /*
   * Constructs not generated because of Accel discrepancies that are not join bugs ({@code -Djoin.gaps=true}
   * generates them too, to see whether they are fixed):
   *
   * - row-value NOT IN with a NULL component: (a.k, a.k2) NOT IN (SELECT b.k, b.k2 FROM b ...) drops an outer row
   *   ('K1', NULL) that differs from every sub-query row in its first column, which PostgreSQL keeps (a row
   *   comparison is false as soon as one pair of non-null fields differs). Reproduction:
   *     CREATE TABLE a (id INTEGER PRIMARY KEY, k VARCHAR(12), k2 INTEGER);
   *     CREATE TABLE b (id INTEGER PRIMARY KEY, k VARCHAR(12), k2 INTEGER);
   *     INSERT INTO a VALUES (2, 'k1 ', 1), (3, 'K1', NULL);
   *     INSERT INTO b VALUES (1, 'k1', 1), (2, 'k1 ', 2);
   *     SELECT a.id FROM a WHERE (a.k, a.k2) NOT IN (SELECT b.k, b.k2 FROM b) ORDER BY 1;
   *   PostgreSQL: 2, 3; Accel: 2 (with or without any index: Calcite's NOT IN rewrite treats a NULL in any
   *   column of the row as UNKNOWN).
   */

  private final List<String> discrepancies = new ArrayList<>();
  private final Map<String, int[]> lookupByKind = new TreeMap<>();
  private final Map<String, long[]> timing = new TreeMap<>();
  private final List<String> schemaLines = new ArrayList<>();
  /** The slowest queries on the default connection: seconds, then the query. */
  private final TreeMap<Double, String> slowest = new TreeMap<>();
  private int queries;
  private int statements;
  private int explained;
  private int lookupPlans;
  /** Plans of queries on schemas whose inner table b can be read by its join key (an index or primary key). */
  private int capableExplained;
  private int capableLookupPlans;
  private int offExplained;
  private int offLookupPlans;
  private int emptyResults;

  private long seed;
  private JoinWorkload w;
  private Schema schema;
  private Connection def;
  private Connection off;
  private Connection pg;

  @Test
  void straddledJoinsReturnPostgresRows() throws Exception {
    String s = System.getProperty("seed");
    seed = s == null || s.isBlank() ? DEFAULT_SEED : Long.parseLong(s.trim());
    int schemas = Integer.getInteger("join.schemas", 5);
    int perSchema = Integer.getInteger("join.queries", 60);
    int scale = Integer.getInteger("join.scale", 1600);
    System.out.println("StraddledJoinDifferentialTest: seed " + seed + " (-Dseed=" + seed + " to repeat)");
    long t0 = System.nanoTime();
    w = new JoinWorkload(seed, Boolean.getBoolean("join.gaps"));
    // every run covers different key-type pairs; one schema (of runs of three or more) without an inner index
    // leading with the join key
    List<KeyPair> pairs = new ArrayList<>(JoinWorkload.KEY_PAIRS);
    Collections.shuffle(pairs, w.r);
    List<Indexing> indexing = new ArrayList<>();
    for (int i = 0; i < schemas; i++) {
      indexing.add(i == 0 && schemas >= 3 ? Indexing.UNUSABLE : i % 2 == 1 ? Indexing.RICH : Indexing.ONE);
    }
    Collections.shuffle(indexing, w.r);
    pg = Services.postgres();
    try {
      for (int i = 0; i < schemas; i++) {
        schema = w.schema(i, pairs.get(i % pairs.size()), indexing.get(i), i % 2 == 0, scale);
        runSchema(perSchema);
      }
    } catch (SQLException | RuntimeException e) {
      throw new AssertionError("seed " + seed + " (-Dseed=" + seed + " to repeat) failed in "
          + (schema == null ? "setup" : schema.describe()) + " after " + queries + " queries: " + e, e);
    } finally {
      pg.close();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double capableShare = (double) capableLookupPlans / Math.max(1, capableExplained);
    String summary = String.format("seed %d: %d schemas, %d queries, %d statements in %.1fs (%s); %d empty results;"
        + " %d of %d plans on the default connection use %s (%.0f%%; on schemas with a lookup path %d of %d, %.0f%%),"
        + " by kind %s; %d of %d on lookupJoins=false", seed, schemas, queries, statements, seconds, timings(),
        emptyResults, lookupPlans, explained, LOOKUP, 100.0 * lookupPlans / Math.max(1, explained),
        capableLookupPlans, capableExplained, 100.0 * capableShare, shares(), offLookupPlans, offExplained);
    System.out.println(summary);
    schemaLines.forEach(l -> System.out.println("  " + l));
    slowest.descendingMap().forEach((t, q) -> System.out.println(String.format("  slow: %.2fs %s", t, q)));
    if (!discrepancies.isEmpty()) {
      fail(summary + "\nReproduce with -Dseed=" + seed + " -Dtest=StraddledJoinDifferentialTest\n"
          + String.join("\n", schemaLines) + "\n" + discrepancies.size() + " DISCREPANCIES:\n"
          + discrepancies.stream().limit(40).collect(Collectors.joining("\n")));
    }
    assertThat(offLookupPlans).as(() -> "plans using " + LOOKUP + " with lookupJoins=false: " + summary).isZero();
    // the share among queries on schemas where b can be read by its join key (one schema of each run has no such
    // index or primary key)
    assertThat(capableShare).as(() -> "share of straddled-join plans using " + LOOKUP + " on schemas with a lookup"
        + " path" + (lookupPlans == 0 ? " (no plan at all uses it: has the operator landed?)" : "") + ": " + summary)
        .isGreaterThanOrEqualTo(MIN_LOOKUP_SHARE);
  }

  // ------------------------------------------------------------------------------------------ one schema

  private void runSchema(int n) throws SQLException {
    String name = "sj_" + seed + "_" + schema.number + "_" + Long.toHexString(System.nanoTime() & 0xffffffL);
    String url = "jdbc:accel:mem:" + name;
    lapStart = System.nanoTime();
    try (Statement st = pg.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
      st.execute("CREATE SCHEMA " + name);
      st.execute("SET search_path TO " + name);
    }
    try {
      def = DriverManager.getConnection(url);
      // the property by URL for half the schemas, by Properties for the other half
      if (schema.number % 2 == 0) {
        off = DriverManager.getConnection(url + "?lookupJoins=false");
      } else {
        Properties p = new Properties();
        p.setProperty("lookupJoins", "false");
        off = DriverManager.getConnection(url, p);
      }
      load();
      double load = lap("load");
      for (int i = 0; i < n; i++) {
        compare("committed", w.query(schema), true);
      }
      double query = lap("queries");
      transaction(Math.max(4, n / 10));
      double txn = lap("transaction");
      schemaLines.add(schema.describe() + String.format(": load %.1fs, queries %.1fs, transaction %.1fs", load, query,
          txn));
    } finally {
      for (Connection c : new Connection[] {def, off}) {
        if (c != null) {
          c.close();
        }
      }
      def = null;
      off = null;
      try (Statement st = pg.createStatement()) {
        st.execute("SET search_path TO public");
        st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
      }
    }
  }

  private void load() throws SQLException {
    List<Table> tables = new ArrayList<>(List.of(schema.a, schema.b));
    if (schema.c != null) {
      tables.add(schema.c);
    }
    for (Table t : tables) {
      // half the tables get their indexes before the rows (maintained on insert), half after (backfilled)
      boolean indexFirst = w.chance(0.5);
      List<String> steps = new ArrayList<>();
      steps.add(t.createTable());
      if (indexFirst) {
        steps.addAll(t.indexes());
      }
      for (String sql : steps) {
        update(pg, sql);
        update(def, sql);
      }
      // the rows in JDBC batches of a parameterised INSERT (planned once; many literal INSERTs take far longer)
      for (Connection c : List.of(pg, def)) {
        insertBatch(c, t);
      }
      if (!indexFirst) {
        for (String sql : t.indexes()) {
          update(pg, sql);
          update(def, sql);
        }
      }
    }
    update(pg, "ANALYZE");
    if (schema.analyze) {
      if (w.chance(0.5)) {
        update(def, "ANALYZE");
      } else {
        for (Table t : tables) {
          update(def, "ANALYZE " + t.name());
        }
      }
    }
  }

  private void insertBatch(Connection c, Table t) throws SQLException {
    timed(c, "INSERT", () -> {
      try (PreparedStatement ps = c.prepareStatement(t.insertParameterised())) {
        for (Object[] row : t.rows()) {
          for (int i = 0; i < row.length; i++) {
            if (row[i] == null) {
              ps.setNull(i + 1, t.jdbcType(i));
            } else {
              JoinWorkload.bind(ps, i + 1, row[i]);
            }
          }
          ps.addBatch();
        }
        int total = 0;
        boolean unknown = false;
        for (int n : ps.executeBatch()) {
          total += Math.max(0, n);
          unknown |= n == Statement.SUCCESS_NO_INFO;
        }
        if (!unknown && total != t.rows().size()) {
          throw new AssertionError(setting(c) + " inserted " + total + " of the " + t.rows().size() + " rows of "
              + t.name());
        }
        return total;
      }
    });
  }

  // ------------------------------------------------------------------------------------------ comparisons

  /**
   * Runs the query on PostgreSQL and on both Accel connections, reports differences; with {@code explain}
   * counts the plans using IndexLookupJoin on each connection.
   */
  private void compare(String phase, Query q, boolean explain) throws SQLException {
    queries++;
    AccessRows expected = run(pg, q);
    if (expected.failed()) {
      discrepancies.add("- [generator] PostgreSQL rejected [" + phase + ", schema " + schema.number + "] " + q.sql()
          + (q.params().isEmpty() ? "" : "\n    params " + q.params()) + "\n    " + expected);
      return;
    }
    if (expected.rows.isEmpty()) {
      emptyResults++;
    }
    for (Connection c : compared == null ? List.of(def, off) : compared) {
      long t0 = System.nanoTime();
      AccessRows actual = run(c, q);
      if (c == def) {
        slowest.put((System.nanoTime() - t0) / 1e9 + queries * 1e-12, "schema " + schema.number + " " + q.sql());
        if (slowest.size() > 5) {
          slowest.pollFirstEntry();
        }
      }
      String d = AccessRows.compare(expected, actual, q.mode(), true, false);
      if (d != null) {
        report(phase, q, c, d);
      }
    }
    if (explain) {
      String plan = explain(def, q);
      explained++;
      int[] share = lookupByKind.computeIfAbsent(q.kind().replace(" ?", ""), k -> new int[2]);
      share[1]++;
      boolean lookup = plan.contains(LOOKUP);
      if (lookup) {
        lookupPlans++;
        share[0]++;
      }
      if (schema.lookupCapable()) {
        capableExplained++;
        capableLookupPlans += lookup ? 1 : 0;
      }
      // the setting is the session's: every second query is enough to show that it holds (and saves time)
      if (explained % 2 == 0 || lookup) {
        String offPlan = explain(off, q);
        offExplained++;
        if (offPlan.contains(LOOKUP)) {
          offLookupPlans++;
          discrepancies.add("- " + LOOKUP + " planned with lookupJoins=false [" + phase + ", schema " + schema.number
              + "]\n    " + q.sql() + "\n    plan: " + offPlan.replace("\n", "\n          "));
        }
      }
    }
  }

  /** The Accel connections queries are compared on, when not both (null). */
  private List<Connection> compared;

  /**
   * Random writes to the inner tables inside a transaction on PostgreSQL and on each Accel connection in turn
   * (uncommitted; the two Accel connections share a store, where the second's write of a row the first changed
   * would wait for the first's transaction, as in PostgreSQL), queries after each write seeing them; then ROLLBACK,
   * and queries on the committed rows.
   */
  private void transaction(int n) throws SQLException {
    for (Connection accel : List.of(def, off)) {
      compared = List.of(accel);
      try {
        transaction(n, accel);
      } finally {
        compared = null;
      }
    }
    for (int i = 0; i < Math.max(2, n / 3); i++) {
      compare("after ROLLBACK", w.query(schema), false);
    }
  }

  private void transaction(int n, Connection accel) throws SQLException {
    String phase = "in transaction";
    List<Connection> all = List.of(pg, accel);
    for (Connection c : all) {
      c.setAutoCommit(false);
    }
    try {
      int writes = Math.max(3, n / 2);
      for (int i = 0; i < writes; i++) {
        String dml = w.dml(schema);
        int expected;
        try {
          expected = update(pg, dml);
        } catch (SQLException e) {
          discrepancies.add("- [generator] PostgreSQL rejected [" + phase + ", schema " + schema.number + "] " + dml
              + ": " + e.getMessage());
          return;
        }
        try {
          int count = update(accel, dml);
          if (count != expected) {
            discrepancies.add("- DML row count [" + phase + ", schema " + schema.number + ", " + setting(accel) + "] "
                + dml + ": PostgreSQL changed " + expected + " rows, Accel " + count);
          }
        } catch (SQLException e) {
          discrepancies.add("- DML failed [" + phase + ", schema " + schema.number + ", " + setting(accel) + "] " + dml
              + ": " + e.getSQLState() + " " + e.getMessage());
          return;
        }
        for (int k = 0; k < 2; k++) {
          compare(phase + " after " + (i + 1) + " write(s)", w.query(schema), false);
        }
      }
    } finally {
      for (Connection c : all) {
        c.rollback();
        c.setAutoCommit(true);
      }
    }
  }

  // ------------------------------------------------------------------------------------------ execution

  private AccessRows run(Connection c, Query q) throws SQLException {
    return timed(c, q.sql(), () -> execute(c, q.sql(), q.params()));
  }

  private interface Action<T> {
    T run() throws SQLException;
  }

  private <T> T timed(Connection c, String sql, Action<T> action) throws SQLException {
    statements++;
    long t0 = System.nanoTime();
    String category = setting(c) + (sql.startsWith("EXPLAIN") ? " explain" : "");
    try {
      return action.run();
    } finally {
      long[] t = timing.computeIfAbsent(category, k -> new long[2]);
      t[0]++;
      t[1] += System.nanoTime() - t0;
    }
  }

  private static AccessRows execute(Connection c, String sql, List<Object> params) throws SQLException {
    try {
      if (params.isEmpty()) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
          return AccessRows.of(AccessRows.read(rs));
        }
      }
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < params.size(); i++) {
          JoinWorkload.bind(ps, i + 1, params.get(i));
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
    return timed(c, sql, () -> {
      try (Statement st = c.createStatement()) {
        return st.executeUpdate(sql);
      }
    });
  }

  /** Accel's EXPLAIN of the query (one text row per plan line; {@code ?} parameters stay unbound). */
  private String explain(Connection c, Query q) throws SQLException {
    String sql = "EXPLAIN " + q.sql();
    AccessRows plan = timed(c, sql, () -> execute(c, sql, List.of()));
    if (plan.failed()) {
      return "(EXPLAIN failed: " + plan.state + " " + plan.message + ")";
    }
    return plan.rows.stream().map(r -> String.valueOf(r[0])).collect(Collectors.joining("\n"));
  }

  private String setting(Connection c) {
    return c == pg ? "postgres" : c == off ? "lookupJoins=false" : "default";
  }

  private void report(String phase, Query q, Connection c, String difference) throws SQLException {
    String plan = explain(c, q);
    discrepancies.add("- " + q.kind() + " [" + phase + ", schema " + schema.number + " " + schema.keys + ", "
        + setting(c) + ", " + q.mode() + "]\n    " + q.sql() + (q.params().isEmpty() ? "" : "\n    params "
        + q.params().stream().map(p -> p + ":" + p.getClass().getSimpleName()).collect(Collectors.joining(", ")))
        + "\n    " + difference + "\n    plan: " + plan.replace("\n", "\n          "));
  }

  // ------------------------------------------------------------------------------------------ reporting

  private long lapStart = System.nanoTime();
  private final Map<String, Double> laps = new TreeMap<>();

  private double lap(String name) {
    long now = System.nanoTime();
    double seconds = (now - lapStart) / 1e9;
    laps.merge(name, seconds, Double::sum);
    lapStart = now;
    return seconds;
  }

  private String timings() {
    return "phases " + laps.entrySet().stream().map(e -> String.format("%s %.1fs", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", ")) + "; " + timing.entrySet().stream().map(e -> String.format(
            "%s %d in %.1fs", e.getKey(), e.getValue()[0], e.getValue()[1] / 1e9)).collect(Collectors.joining(", "));
  }

  private String shares() {
    return lookupByKind.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()[0] + "/" + e.getValue()[1])
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
