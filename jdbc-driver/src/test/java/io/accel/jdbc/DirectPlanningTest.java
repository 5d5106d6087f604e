package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Queries of one table planned directly (without Calcite's pipeline) answer exactly as the general path does:
 * thousands of random statements of the shape (comparisons, BETWEEN, IN, IS NULL, NOT, AND, OR; columns,
 * aggregates, GROUP BY, ORDER BY, LIMIT, OFFSET; literals and parameters) and of shapes just outside it, each
 * run on a connection with {@code directPlanning=false} and one with it on: the same rows (in the same order
 * where ORDER BY fixes one), the same result metadata and parameter metadata, the same SQLSTATE on failure.
 */
class DirectPlanningTest extends JdbcTestSupport {
  private static final String[] NUMBERS = {"id", "a", "b", "d"};
  private static final String[] TEXTS = {"c", "e"};
  /** Columns of types the direct planner leaves to Calcite in conditions. */
  private static final String[] OTHERS = {"n", "dt", "flag", "ch"};
  private static final String[] COMPARISONS = {"=", "<>", "!=", "<", "<=", ">", ">="};
  /** Literals for the NUMERIC(8,2) column n: integers, scales below, at and above the column's. */
  private static final String[] DECIMALS = {"1.5", "2.50", "3", "-0.5", "0.125", "4.555", "2"};

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void addRegistry() {
    Metrics.globalRegistry.add(registry);
  }

  @AfterEach
  void removeRegistry() {
    Metrics.globalRegistry.remove(registry);
  }

  private double directPlans() {
    var c = Search.in(registry).name("accel.plan.direct").tag("store", url.substring("jdbc:accel:".length()))
        .counter();
    return c == null ? 0 : c.count();
  }

  private Connection connect(boolean direct, int planCacheSize) throws SQLException {
    Properties p = new Properties();
    p.setProperty("directPlanning", String.valueOf(direct));
    p.setProperty("planCacheSize", String.valueOf(planCacheSize));
    return track(java.sql.DriverManager.getConnection(url, p));
  }

  private void createTable(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b SMALLINT, c VARCHAR(10), d BIGINT, e TEXT,"
          + " n NUMERIC(8,2), dt DATE, flag BOOLEAN, ch CHAR(3))");
      s.execute("CREATE INDEX t_a_b ON t (a, b)");
      s.execute("CREATE INDEX t_c ON t (c)");
      s.execute("CREATE INDEX t_d ON t (d DESC)");
      Random r = new Random(7);
      StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
      for (int i = 0; i < 300; i++) {
        insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
            .append(r.nextInt(8) == 0 ? "NULL" : String.valueOf(r.nextInt(12) - 2)).append(", ")
            .append(r.nextInt(8) == 0 ? "NULL" : String.valueOf(r.nextInt(7))).append(", ")
            .append(r.nextInt(8) == 0 ? "NULL" : "'c" + r.nextInt(12) + "'").append(", ")
            .append(r.nextInt(8) == 0 ? "NULL" : String.valueOf((r.nextInt(9) - 4) * 1_000_000_000L)).append(", ")
            .append(r.nextInt(8) == 0 ? "NULL" : "'" + (char) ('a' + r.nextInt(6)) + "é'").append(", ")
            .append(r.nextInt(5)).append(".5, DATE '2024-01-0").append(1 + r.nextInt(9)).append("', ")
            .append(r.nextBoolean()).append(", 'x").append(r.nextInt(3)).append("')");
      }
      s.execute(insert.toString());
      s.execute("ANALYZE t");
    }
  }

  @Test
  void randomStatementsAnswerAsTheGeneralPath() throws Exception {
    Connection general = connect(false, 0);
    createTable(general);
    Connection direct = connect(true, 0);
    Connection directCached = connect(true, 1000);
    Random random = new Random(42);
    double before = directPlans();
    int statements = 1500;
    for (int i = 0; i < statements; i++) {
      String sql = statement(random);
      Outcome expected = run(general, sql);
      assertThat(run(direct, sql)).as(sql).isEqualTo(expected);
      assertThat(run(directCached, sql)).as("%s (plan cache)", sql).isEqualTo(expected);
    }
    // most statements are in the shape: the comparison above was of direct plans, not of the general path twice
    assertThat(directPlans() - before).isGreaterThan(statements / 2.0);
  }

  private void createJoinedTables(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE u (id INTEGER PRIMARY KEY, t_id BIGINT, k SMALLINT, s VARCHAR(10))");
      s.execute("CREATE INDEX u_t ON u (t_id)");
      s.execute("CREATE TABLE w (code VARCHAR(10) PRIMARY KEY, label TEXT, n INTEGER)");
      Random r = new Random(11);
      StringBuilder insert = new StringBuilder("INSERT INTO u VALUES ");
      for (int i = 0; i < 600; i++) {
        insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
            .append(r.nextInt(10) == 0 ? "NULL" : String.valueOf(r.nextInt(330))).append(", ")
            .append(r.nextInt(10) == 0 ? "NULL" : String.valueOf(r.nextInt(5))).append(", ")
            .append(r.nextInt(10) == 0 ? "NULL" : "'c" + r.nextInt(14) + "'").append(')');
      }
      s.execute(insert.toString());
      insert = new StringBuilder("INSERT INTO w VALUES ");
      for (int i = 0; i < 13; i++) {
        insert.append(i == 0 ? "" : ", ").append("('c").append(i).append("', 'label").append(i % 4).append("', ")
            .append(i % 3 == 0 ? "NULL" : String.valueOf(i)).append(')');
      }
      s.execute(insert.toString());
      s.execute("ANALYZE u");
      s.execute("ANALYZE w");
    }
  }

  @Test
  void randomJoinsAnswerAsTheGeneralPath() throws Exception {
    Connection general = connect(false, 0);
    createTable(general);
    createJoinedTables(general);
    Connection direct = connect(true, 0);
    Random random = new Random(5);
    double before = directPlans();
    int statements = 600;
    for (int i = 0; i < statements; i++) {
      String sql = joinStatement(random);
      Outcome expected = run(general, sql);
      assertThat(run(direct, sql)).as(sql).isEqualTo(expected);
    }
    assertThat(directPlans() - before).isGreaterThan(statements / 2.0);
  }

  /** A random join of t with u (by id) and sometimes w (by text), in JOIN ... ON or comma form. */
  static String joinStatement(Random r) {
    boolean three = r.nextBoolean();
    boolean comma = r.nextInt(3) == 0;
    StringBuilder sql = new StringBuilder("SELECT ");
    int shape = r.nextInt(5);
    switch (shape) {
      case 0 -> sql.append("count(*)");
      case 1 -> sql.append("t.id, u.id AS uid, u.s").append(three ? ", w.label, n" : "").append(", a");
      case 2 -> sql.append(r.nextBoolean() ? "*" : "u.*");
      case 3 -> sql.append("u.k, count(*), sum(t.a), max(u.s)").append(three ? ", min(w.n)" : "");
      default -> sql.append("t.c, u.t_id");
    }
    String join = r.nextBoolean() ? "u.t_id = t.id" : "t.id = u.t_id";
    if (comma) {
      sql.append(" FROM t, u").append(three ? ", w" : "").append(" WHERE ").append(join)
          .append(three ? " AND w.code = " + (r.nextBoolean() ? "t.c" : "u.s") : "");
    } else {
      sql.append(" FROM t JOIN u ON ").append(join);
      if (r.nextInt(4) == 0) {
        sql.append(" AND ").append(uCondition(r));
      }
      if (three) {
        sql.append(" JOIN w ON w.code = ").append(r.nextBoolean() ? "t.c" : "u.s");
      }
      sql.append(" WHERE TRUE");
    }
    String where = switch (r.nextInt(6)) {
      case 0 -> "";
      case 1 -> " AND " + condition(r, "t.", 1);
      case 2 -> " AND " + uCondition(r) + " AND " + condition(r, "t.", 2);
      case 3 -> " AND t.a < u.k";
      case 4 -> " AND (t.b = 2 OR u.k = 2)";
      default -> " AND u.id " + pick(r, COMPARISONS) + " " + r.nextInt(600);
    };
    if (!comma) {
      // WHERE TRUE is not in the direct shape: drop it (the general path still sees a valid statement)
      int at = sql.indexOf(" WHERE TRUE");
      sql.replace(at, at + 11, where.isEmpty() ? "" : " WHERE" + where.substring(4));
    } else {
      sql.append(where);
    }
    if (shape == 3) {
      sql.append(" GROUP BY u.k");
      if (r.nextBoolean()) {
        sql.append(" ORDER BY u.k DESC LIMIT ").append(r.nextInt(4));
      }
    } else if (shape == 1 && r.nextBoolean()) {
      sql.append(" ORDER BY a DESC, t.id, uid LIMIT ").append(r.nextInt(30));
    }
    return sql.toString();
  }

  private static String uCondition(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> "u.k = " + r.nextInt(5);
      case 1 -> "u.s IN ('c1', 'c3', 'c12')";
      case 2 -> "u.t_id BETWEEN " + r.nextInt(100) + " AND " + (100 + r.nextInt(200));
      case 3 -> "u.k IS NULL";
      case 4 -> "NOT (u.s > 'c5' OR u.k < 2)";
      default -> "u.t_id <> " + r.nextInt(300);
    };
  }

  @Test
  void insertsWriteWhatTheGeneralPathWrites() throws Exception {
    Properties off = new Properties();
    off.setProperty("directPlanning", "false");
    Connection general = track(java.sql.DriverManager.getConnection(url + "_general", off));
    Connection direct = connect(true, 0);
    String create = "CREATE TABLE ins (id INTEGER PRIMARY KEY, a SMALLINT NOT NULL, b BIGINT, s VARCHAR(5),"
        + " t TEXT, f BOOLEAN, n NUMERIC(6,2), k INTEGER DEFAULT 7)";
    update(general, create);
    update(direct, create);
    Random r = new Random(3);
    String[] columns = {"id", "a", "b", "s", "t", "f", "n", "k"};
    double before = directPlans();
    int statements = 400;
    for (int i = 0; i < statements; i++) {
      StringBuilder sql = new StringBuilder("INSERT INTO ins");
      List<String> names = new ArrayList<>(List.of(columns));
      boolean listed = r.nextInt(4) != 0;
      if (listed) {
        java.util.Collections.shuffle(names, r);
        names = new ArrayList<>(names.subList(0, 1 + r.nextInt(names.size())));
        if (!names.contains("id")) {
          names.add(0, "id");
        }
        sql.append(" (").append(String.join(", ", names)).append(')');
      }
      sql.append(" VALUES ");
      for (int row = 0, rows = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0); row < rows; row++) {
        sql.append(row == 0 ? "" : ", ").append('(');
        for (int c = 0; c < names.size(); c++) {
          sql.append(c == 0 ? "" : ", ").append(insertValue(r, names.get(c)));
        }
        sql.append(')');
      }
      String s = sql.toString();
      assertThat(updateOutcome(direct, s)).as(s).isEqualTo(updateOutcome(general, s));
    }
    assertThat(run(direct, "SELECT * FROM ins ORDER BY id")).isEqualTo(run(general, "SELECT * FROM ins ORDER BY id"));
    assertThat(run(direct, "SELECT count(*) FROM ins").rows().get(0).get(0)).isNotEqualTo(0L);
    // (NUMERIC values, a left-out column with a DEFAULT and out-of-range integers go to Calcite)
    assertThat(directPlans() - before).isGreaterThan(statements / 8.0);
  }

  private static String insertValue(Random r, String column) {
    if (r.nextInt(10) == 0) {
      return "NULL";
    }
    return switch (column) {
      case "id" -> String.valueOf(r.nextInt(300));
      case "a" -> r.nextInt(20) == 0 ? "40000" : String.valueOf(r.nextInt(100) - 50);
      case "b" -> String.valueOf((long) r.nextInt(9) * 1_000_000_007L - 4);
      case "s" -> r.nextInt(8) == 0 ? "'toolong'" : "'s" + r.nextInt(100) + "'";
      case "t" -> r.nextInt(6) == 0 ? "'it''s é'" : "'t" + r.nextInt(10) + "'";
      case "f" -> r.nextBoolean() ? "TRUE" : "false";
      case "n" -> r.nextBoolean() ? "3" : "1.25";
      default -> String.valueOf(r.nextInt(10));
    };
  }

  /** The update count, or the SQLSTATE of the failure. */
  private static String updateOutcome(Connection c, String sql) {
    try (Statement s = c.createStatement()) {
      return "count " + s.executeUpdate(sql);
    } catch (SQLException e) {
      return "error " + e.getSQLState();
    }
  }

  @Test
  void parametersBindAsInTheGeneralPath() throws Exception {
    Connection general = connect(false, 0);
    createTable(general);
    Connection direct = connect(true, 100);
    double before = directPlans();
    String[] queries = {
        "SELECT id, c FROM t WHERE a = ? AND b > ? ORDER BY id",
        "SELECT count(*) FROM t WHERE c IN (?, ?, ?) OR d BETWEEN ? AND ?",
        "SELECT * FROM t WHERE e >= ? AND NOT (a <> ?) ORDER BY id DESC LIMIT 20",
        "SELECT a, sum(b), min(c), max(e) FROM t WHERE id < ? GROUP BY a ORDER BY a NULLS FIRST",
    };
    Object[][] values = {
        {3, 2}, {4, null}, {"c1", "c5", "c11", -1_000_000_000L, 2_000_000_000L}, {"c3", null, "cx", 0L, 1L},
        {"bé", 5}, {null, 5}, {150}, {0},
    };
    for (int q = 0; q < queries.length; q++) {
      for (int v = 2 * q; v < 2 * q + 2; v++) {
        assertThat(runPrepared(direct, queries[q], values[v]))
            .as("%s with %s", queries[q], java.util.Arrays.toString(values[v]))
            .isEqualTo(runPrepared(general, queries[q], values[v]));
      }
    }
    assertThat(directPlans() - before).isEqualTo(queries.length);
  }

  @Test
  void plansFollowTheCatalog() throws Exception {
    Connection c = connect(true, 0);
    createTable(c);
    double before = directPlans();
    try (Statement s = c.createStatement()) {
      // a view of the same name shape, a catalog relation, a dropped column: the general path answers
      s.execute("CREATE VIEW v AS SELECT id, a FROM t WHERE a > 3");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM v WHERE a < 8")) {
        rs.next();
        try (ResultSet check = c.createStatement().executeQuery(
            "SELECT count(*) FROM t WHERE a > 3 AND a < 8")) {
          check.next();
          assertThat(rs.getLong(1)).isEqualTo(check.getLong(1)).isPositive();
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT relname FROM pg_class WHERE relname = 't'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("t");
      }
      s.execute("ALTER TABLE t DROP COLUMN b");
      expectState("42703", () -> s.executeQuery("SELECT b FROM t WHERE id = 1").close());
      try (ResultSet rs = s.executeQuery("SELECT * FROM t WHERE id = 1")) {
        assertThat(rs.getMetaData().getColumnCount()).isEqualTo(9);
        assertThat(rs.getMetaData().getColumnName(3)).isEqualTo("c");
      }
    }
    // the view's query, the check's count and the * over t were planned directly; v, pg_class and b were not
    assertThat(directPlans() - before).isEqualTo(3);
  }

  @Test
  void explainShowsTheDirectPlanAndAnalyzeCountsIt() throws Exception {
    Connection c = connect(true, 0);
    createTable(c);
    String query = "SELECT b, count(*) FROM t WHERE a = 3 GROUP BY b ORDER BY 2 DESC, b LIMIT 2";
    List<String> plan = lines(c, "EXPLAIN " + query);
    assertThat(plan).hasSize(4);
    assertThat(plan.get(0)).isEqualTo("DirectLimit(fetch=[2])");
    assertThat(plan.get(1)).isEqualTo("  -> DirectSort(keys=[count DESC, b])");
    assertThat(plan.get(2)).isEqualTo("    -> DirectAggregate(group=[b], aggregates=[count(*)])");
    assertThat(plan.get(3)).startsWith("      -> AccelScan(table=[[public, t]], access=[index t_a_b], keys=[a = 3]");
    long groups;
    long matching;
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (SELECT b FROM t WHERE a = 3 GROUP BY b) g")) {
        rs.next();
        groups = rs.getLong(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE a = 3")) {
        rs.next();
        matching = rs.getLong(1);
      }
    }
    List<String> analyzed = lines(c, "EXPLAIN ANALYZE " + query);
    assertThat(analyzed.get(0)).contains("(actual rows=2 loops=1");
    // the sort gave the limit what it took (as in PostgreSQL); the aggregate gave the sort every group
    assertThat(analyzed.get(1)).contains("(actual rows=3 loops=1");
    assertThat(analyzed.get(2)).contains("(actual rows=" + groups + " loops=1");
    assertThat(analyzed.get(3)).contains("(actual rows=" + matching + " loops=1").contains("seeks=1 ");
    assertThat(analyzed).contains("Rows returned: 2");
  }

  @Test
  void explainShowsTheJoinOrderAndMethods() throws Exception {
    Connection c = connect(true, 0);
    createTable(c);
    createJoinedTables(c);
    // t filtered to a few rows first, then u by its t_id index per row, then w (13 rows) by either method
    List<String> plan = lines(c, "EXPLAIN SELECT count(*) FROM w JOIN u ON u.s = w.code JOIN t ON t.id = u.t_id"
        + " WHERE t.a = 3 AND t.b = 2");
    assertThat(plan).hasSize(6);
    assertThat(plan.get(0)).isEqualTo("DirectAggregate(aggregates=[count(*)])");
    assertThat(plan.get(1)).matches("  -> Direct(Hash|Lookup)Join\\(table=\\[w], key=\\[w.code = u.s]\\)");
    assertThat(plan.get(2)).isEqualTo("    -> DirectLookupJoin(table=[u], key=[u.t_id = t.id])");
    assertThat(plan.get(3)).startsWith("      -> AccelScan(table=[[public, t]], access=[index t_a_b], keys=[a = 3, b = 2]");
    assertThat(plan.get(4)).startsWith("      -> AccelScan(table=[[public, u]], access=[index u_t], keys=[t_id = t.id]");
    assertThat(plan.get(5)).startsWith("    -> AccelScan(table=[[public, w]]");
    List<String> analyzed = lines(c, "EXPLAIN ANALYZE SELECT count(*) FROM w JOIN u ON u.s = w.code"
        + " JOIN t ON t.id = u.t_id WHERE t.a = 3 AND t.b = 2");
    long matches = run(c, "SELECT count(*) FROM w JOIN u ON u.s = w.code JOIN t ON t.id = u.t_id"
        + " WHERE t.a = 3 AND t.b = 2").rows().get(0).get(0) instanceof Long n ? n : -1;
    assertThat(analyzed.get(1)).contains("(actual rows=" + matches + " loops=1");
    assertThat(analyzed.get(4)).contains("seeks=");
  }

  @Test
  void joinsUnderALimitStopEarlyAndCountTheirLookups() throws Exception {
    Connection c = connect(true, 0);
    createTable(c);
    createJoinedTables(c);
    var lookups = Search.in(registry).name("accel.join.lookups").tag("store", url.substring("jdbc:accel:".length()));
    double before = lookups.counter() == null ? 0 : lookups.counter().count();
    // under the LIMIT the outer rows stream into lookups instead of a hash join reading a whole table first
    List<String> analyzed = lines(c, "EXPLAIN ANALYZE SELECT u.id, t.a FROM u JOIN t ON t.id = u.t_id LIMIT 3");
    assertThat(analyzed.get(1)).startsWith("  -> DirectLookupJoin(");
    assertThat(analyzed.get(2)).startsWith("    -> AccelScan(");
    // the first batch of outer rows (16), not all 600, and one lookup for each of its distinct keys
    java.util.regex.Matcher returned = java.util.regex.Pattern.compile("rows returned=(\\d+)").matcher(analyzed.get(2));
    assertThat(returned.find()).as(analyzed.get(2)).isTrue();
    assertThat(Long.parseLong(returned.group(1))).isBetween(3L, 16L);
    assertThat(analyzed).contains("Rows returned: 3");
    assertThat(lookups.counter().count() - before).isBetween(1.0, 16.0);
  }

  private static List<String> lines(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /** Rows (sorted unless the statement orders them), metadata, or the failure's SQLSTATE. */
  private record Outcome(List<String> columns, List<List<Object>> rows, String state) {
  }

  private static Outcome run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return outcome(rs, sql);
    } catch (SQLException e) {
      return new Outcome(List.of(), List.of(), e.getSQLState());
    }
  }

  private static Outcome runPrepared(Connection c, String sql, Object[] values) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      List<String> parameters = new ArrayList<>();
      for (int i = 1; i <= ps.getParameterMetaData().getParameterCount(); i++) {
        parameters.add(ps.getParameterMetaData().getParameterTypeName(i) + "/"
            + ps.getParameterMetaData().getParameterType(i) + "/" + ps.getParameterMetaData().getParameterClassName(i));
      }
      for (int i = 0; i < values.length; i++) {
        ps.setObject(i + 1, values[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        Outcome o = outcome(rs, sql);
        List<String> columns = new ArrayList<>(o.columns());
        columns.addAll(parameters);
        return new Outcome(columns, o.rows(), null);
      }
    }
  }

  private static Outcome outcome(ResultSet rs, String sql) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    List<String> columns = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      columns.add(md.getColumnLabel(i) + "/" + md.getColumnName(i) + "/" + md.getColumnTypeName(i) + "/"
          + md.getColumnType(i) + "/" + md.getColumnClassName(i) + "/" + md.isNullable(i) + "/"
          + md.getPrecision(i) + "/" + md.getScale(i) + "/" + md.getTableName(i) + "/" + md.getSchemaName(i));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        row.add(rs.getObject(i));
      }
      rows.add(row);
    }
    if (!sql.contains("ORDER BY")) {
      rows.sort((x, y) -> x.toString().compareTo(y.toString()));
    }
    return new Outcome(columns, rows, null);
  }

  /** A random one-table statement, mostly in the direct shape, sometimes just outside it. */
  static String statement(Random r) {
    boolean aliased = r.nextInt(4) == 0;
    String q = aliased ? "x." : r.nextInt(6) == 0 ? "t." : "";
    StringBuilder sql = new StringBuilder("SELECT ");
    int shape = r.nextInt(6);
    String groupColumn = r.nextBoolean() ? pick(r, NUMBERS) : pick(r, TEXTS);
    boolean grouped = shape == 3 || shape == 4;
    switch (shape) {
      case 0 -> sql.append(r.nextBoolean() ? "*" : aliased ? "x.*" : "t.*");
      case 1 -> sql.append("count(*)");
      case 2 -> {
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          sql.append(i == 0 ? "" : ", ").append(q).append(r.nextInt(5) == 0 ? pick(r, OTHERS) : anyColumn(r));
          if (r.nextInt(4) == 0) {
            sql.append(" AS l").append(i);
          }
        }
      }
      case 3 -> sql.append(q).append(groupColumn).append(", count(*), sum(").append(r.nextBoolean() ? "a" : "b")
          .append("), min(").append(anyColumn(r)).append(") AS lo, max(").append(anyColumn(r)).append(')');
      case 4 -> sql.append("count(").append(anyColumn(r)).append("), max(c), sum(b), min(n), max(dt)");
      default -> sql.append("id, ").append(q).append(anyColumn(r));
    }
    sql.append(" FROM t").append(aliased ? " x" : "");
    if (r.nextInt(8) != 0) {
      sql.append(" WHERE ").append(condition(r, q, 0));
    }
    if (shape == 3) {
      sql.append(" GROUP BY ").append(q).append(groupColumn);
      if (r.nextBoolean()) {
        sql.append(" ORDER BY ").append(r.nextBoolean() ? "1" : groupColumn).append(r.nextBoolean() ? " DESC" : "")
            .append(r.nextInt(3) == 0 ? " NULLS FIRST" : "");
        if (r.nextBoolean()) {
          sql.append(" LIMIT ").append(r.nextInt(5)).append(r.nextBoolean() ? " OFFSET " + r.nextInt(3) : "");
        }
      }
    } else if (!grouped && r.nextBoolean()) {
      sql.append(" ORDER BY ");
      if (r.nextBoolean()) {
        String col = r.nextInt(6) == 0 ? (r.nextBoolean() ? "n" : "dt") : anyColumn(r);
        sql.append(q).append(col).append(r.nextBoolean() ? " DESC" : "")
            .append(r.nextInt(3) == 0 ? (r.nextBoolean() ? " NULLS FIRST" : " NULLS LAST") : "").append(", ");
      }
      sql.append(q).append("id").append(r.nextBoolean() ? " DESC" : "");
      if (r.nextBoolean()) {
        sql.append(" LIMIT ").append(r.nextInt(20)).append(r.nextBoolean() ? " OFFSET " + r.nextInt(10) : "");
      }
    }
    return sql.toString();
  }

  private static String condition(Random r, String q, int depth) {
    if (r.nextInt(9) == 0) {
      String day = "DATE '2024-01-0" + (1 + r.nextInt(9)) + "'";
      return switch (r.nextInt(4)) {
        case 0 -> q + "dt " + pick(r, COMPARISONS) + " " + day;
        case 1 -> q + "dt BETWEEN " + day + " AND DATE '2024-01-07'";
        case 2 -> q + "dt IN (" + day + ", DATE '2024-01-03', DATE '2024-02-30')";
        default -> day + " > " + q + "dt";
      };
    }
    if (r.nextInt(7) == 0) {
      return switch (r.nextInt(5)) {
        case 0 -> q + "n " + pick(r, COMPARISONS) + " " + pick(r, DECIMALS);
        case 1 -> pick(r, DECIMALS) + " " + pick(r, COMPARISONS) + " " + q + "n";
        case 2 -> q + "n BETWEEN " + pick(r, DECIMALS) + " AND " + pick(r, DECIMALS);
        case 3 -> q + "n IN (" + pick(r, DECIMALS) + ", " + pick(r, DECIMALS) + ")";
        default -> q + "n NOT IN (1.5, 3)";
      };
    }
    boolean text = r.nextInt(3) == 0;
    String column = q + (r.nextInt(12) == 0 ? pick(r, OTHERS) : text ? pick(r, TEXTS) : pick(r, NUMBERS));
    switch (depth > 2 ? r.nextInt(5) : r.nextInt(8)) {
      case 0:
        return column + " " + pick(r, COMPARISONS) + " " + literal(r, text);
      case 1:
        return column + (r.nextInt(4) == 0 ? " NOT" : "") + " BETWEEN " + literal(r, text) + " AND "
            + literal(r, text);
      case 2: {
        StringBuilder in = new StringBuilder(column).append(r.nextInt(4) == 0 ? " NOT IN (" : " IN (");
        for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
          in.append(i == 0 ? "" : ", ").append(literal(r, text));
        }
        return in.append(')').toString();
      }
      case 3:
        return column + (r.nextBoolean() ? " IS NOT NULL" : " IS NULL");
      case 4:
        return literal(r, text) + " " + pick(r, COMPARISONS) + " " + column;
      case 5:
        return "NOT " + (r.nextBoolean() ? "(" + condition(r, q, depth + 1) + ")" : condition(r, q, depth + 1));
      case 6:
        return "(" + condition(r, q, depth + 1) + " AND " + condition(r, q, depth + 1) + ")";
      default:
        return r.nextInt(6) == 0 ? q + "a " + pick(r, COMPARISONS) + " " + q + "b"
            : "(" + condition(r, q, depth + 1) + " OR " + condition(r, q, depth + 1) + ")";
    }
  }

  private static String literal(Random r, boolean text) {
    if (text) {
      return switch (r.nextInt(6)) {
        case 0 -> "'bé'";
        case 1 -> "''";
        case 2 -> "'it''s'";
        default -> "'c" + r.nextInt(12) + "'";
      };
    }
    return switch (r.nextInt(8)) {
      case 0 -> "-" + r.nextInt(3);
      case 1 -> String.valueOf((r.nextInt(9) - 4) * 1_000_000_000L);
      case 2 -> "2.5";
      default -> String.valueOf(r.nextInt(12));
    };
  }

  private static String anyColumn(Random r) {
    return r.nextBoolean() ? pick(r, NUMBERS) : pick(r, TEXTS);
  }

  private static String pick(Random r, String[] options) {
    return options[r.nextInt(options.length)];
  }
}
