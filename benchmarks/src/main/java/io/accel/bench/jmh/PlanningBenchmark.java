package io.accel.bench.jmh;

import io.accel.bench.workload.WorkloadData;
import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Statements that are planned on every call, against PostgreSQL (which plans every simple-protocol
 * statement) on the same ten-row tables:
 * (a) {@link #joinChain}: {@code t0 JOIN t1 ON t0.ref = t1.id JOIN ...} over {@code tables} tables, its
 * literal different on every call, with Accel's plan cache off ({@code planCacheSize=0}): the planning
 * time of a join of that many tables;
 * (b) {@link #adHoc}: a stream of distinct single-table statements (WHERE clauses of random shape mixing
 * comparisons, BETWEEN, IN, AND and OR; count, columns, ORDER BY or GROUP BY), as dynamic filters and
 * reporting tools send them, through a plain {@code Statement} with Accel's default settings.
 *
 * <p>Run from the shaded jar: {@code java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main
 * Planning -f 1 -wi 3 -w 2s -i 5 -r 2s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PlanningBenchmark {
  static final int TABLES = 10;
  private static final String SCHEMA = "planning_bench";
  private static final String[] COLUMNS = {"id", "a", "b", "c", "d"};
  private static final String[] COMPARISONS = {"=", "<", ">", "<=", ">=", "<>"};

  @Param({"accel", "postgres"})
  public String mode;

  @Param({"2", "4", "6", "8", "10"})
  public int tables;

  private Connection connection;
  private Statement statement;
  private final Random random = new Random(42);
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    if (mode.equals("postgres")) {
      connection = WorkloadData.openPostgres("public");
      try (Statement s = connection.createStatement()) {
        s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        s.execute("SET search_path = " + SCHEMA);
        createTables(s, true);
      }
    } else {
      AccelDriver.load();
      Properties noCache = new Properties();
      noCache.setProperty("planCacheSize", "0");
      connection = DriverManager.getConnection("jdbc:accel:mem:planning_benchmark", noCache);
      try (Statement s = connection.createStatement()) {
        createTables(s, false);
      }
    }
    statement = connection.createStatement();
  }

  /** Tables t0..t9 of ten rows (id, ref, a, b, c, d), each with an index on (a, b). */
  static void createTables(Statement s, boolean dropFirst) throws SQLException {
    for (int t = 0; t < TABLES; t++) {
      if (dropFirst) {
        s.execute("DROP TABLE IF EXISTS t" + t);
      }
      s.execute("CREATE TABLE t" + t + " (id INTEGER PRIMARY KEY, ref INTEGER, a INTEGER, b INTEGER,"
          + " c VARCHAR(10), d INTEGER)");
      s.execute("CREATE INDEX t" + t + "_a_b ON t" + t + " (a, b)");
      StringBuilder insert = new StringBuilder("INSERT INTO t" + t + " VALUES ");
      for (int r = 0; r < 10; r++) {
        insert.append(r == 0 ? "" : ", ").append('(').append(r).append(", ").append((r + 1) % 10).append(", ")
            .append(r % 3).append(", ").append(r * 7 % 10).append(", 'c").append(r).append("', ").append(r % 5)
            .append(')');
      }
      s.execute(insert.toString());
      s.execute("ANALYZE t" + t);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    statement.close();
    connection.close();
  }

  /** (a) A chain of equality joins over {@code tables} tables, planned afresh on every call. */
  @Benchmark
  public long joinChain() throws SQLException {
    next = (next + 1) % 1_000_000;
    StringBuilder sql = new StringBuilder("SELECT count(*) FROM t0");
    for (int i = 1; i < tables; i++) {
      sql.append(" JOIN t").append(i).append(" ON t").append(i - 1).append(".ref = t").append(i).append(".id");
    }
    sql.append(" WHERE t0.id <> ").append(next);
    try (ResultSet rs = statement.executeQuery(sql.toString())) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** (b) One statement of a stream of distinct ad-hoc statements ({@code tables} plays no part). */
  @Benchmark
  public long adHoc() throws SQLException {
    long rows = 0;
    try (ResultSet rs = statement.executeQuery(adHocStatement(random))) {
      while (rs.next()) {
        rows++;
      }
    }
    return rows;
  }

  /** A single-table statement of random shape over one of t0..t2. */
  static String adHocStatement(Random random) {
    String table = "t" + random.nextInt(3);
    int shape = random.nextInt(4);
    String select = switch (shape) {
      case 0 -> "count(*)";
      case 1 -> "*";
      case 2 -> "id, c";
      default -> "a, sum(b)";
    };
    String tail = shape == 3 ? " GROUP BY a" : shape == 2 ? " ORDER BY id" : "";
    return "SELECT " + select + " FROM " + table + " WHERE " + predicate(random, 0) + tail;
  }

  private static String predicate(Random random, int depth) {
    String column = COLUMNS[random.nextInt(COLUMNS.length)];
    boolean text = column.equals("c");
    switch (depth > 2 ? random.nextInt(4) : random.nextInt(6)) {
      case 0:
        return column + " " + COMPARISONS[random.nextInt(COMPARISONS.length)] + " " + literal(random, text);
      case 1:
        return text ? "c BETWEEN 'c1' AND 'c" + (1 + random.nextInt(9)) + "'"
            : column + " BETWEEN " + random.nextInt(5) + " AND " + (5 + random.nextInt(5));
      case 2: {
        StringBuilder in = new StringBuilder(column).append(" IN (");
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          in.append(i == 0 ? "" : ", ").append(literal(random, text));
        }
        return in.append(')').toString();
      }
      case 3:
        return column + " IS NOT NULL";
      case 4:
        return "(" + predicate(random, depth + 1) + " AND " + predicate(random, depth + 1) + ")";
      default:
        return "(" + predicate(random, depth + 1) + " OR " + predicate(random, depth + 1) + ")";
    }
  }

  private static String literal(Random random, boolean text) {
    return text ? "'c" + random.nextInt(10) + "'" : Integer.toString(random.nextInt(10));
  }
}
