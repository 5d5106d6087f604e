package io.accel.bench.fronting;

import io.accel.bench.workload.Employees;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.Workload;
import io.accel.bench.workload.WorkloadData;
import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * A cached query through {@code jdbc:accel:postgresql://} ({@code target=accel}: CREATE CACHE, then every parameter
 * set read once, so the measured executions are hits) against the same query on a warm PostgreSQL through pgJDBC
 * ({@code target=postgres}): E1 of the employees workload (no parameters; 20,000 employees) and S2 of straddle (the
 * 100 parameter sets cycled). Every row is read. Before measuring, the first results are checked against
 * PostgreSQL's and the cache's hit count is checked to grow.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main ResultCacheBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
public class ResultCacheBenchmark {
  @Param({"E1", "S2"})
  public String query;

  @Param({"accel", "postgres"})
  public String target;

  private Connection connection;
  private PreparedStatement statement;
  private final List<Object[]> params = new ArrayList<>();
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    AccelDriver.load();
    Upstream.useForWorkloads();
    Workload w;
    String sql;
    Set<String> tables;
    if (query.equals("E1")) {
      w = new Employees(20_000);
      sql = Employees.E1;
      params.add(new Object[0]);
      tables = Set.of("employees", "salaries");
    } else if (query.equals("S2")) {
      Straddle straddle = new Straddle(10_000, 100_000);
      w = straddle;
      sql = Straddle.S2;
      for (int i = 0; i < 100; i++) {
        params.add(straddle.s2Params(i));
      }
      tables = Set.of("users", "orders");
    } else {
      throw new IllegalArgumentException("unknown query " + query + "; expected E1 or S2");
    }
    String schema = WorkloadData.postgresSchema(w);
    WorkloadData.ensurePostgres(w, schema, System.out);
    if (target.equals("accel")) {
      connection = java.sql.DriverManager.getConnection(Upstream.accelUrl(schema));
      Upstream.awaitOnline(connection, tables);
      try (Statement s = connection.createStatement()) {
        s.execute("DROP ALL CACHES");
        s.execute("CREATE CACHE bench FROM " + sql);
      }
    } else if (target.equals("postgres")) {
      connection = Upstream.postgres(schema);
    } else {
      throw new IllegalArgumentException("unknown target " + target + "; expected accel or postgres");
    }
    statement = connection.prepareStatement(sql);
    try (Connection pg = Upstream.postgres(schema); PreparedStatement direct = pg.prepareStatement(sql)) {
      for (Object[] p : params) {
        List<String> expected = new ArrayList<>(FrontingBenchmark.rows(direct, p));
        List<String> actual = new ArrayList<>(FrontingBenchmark.rows(statement, p));
        expected.sort(null);
        actual.sort(null);
        if (!expected.equals(actual)) {
          throw new IllegalStateException(query + " returned " + actual.size() + " rows where PostgreSQL returns "
              + expected.size() + " (or other rows); not measured");
        }
      }
    }
    if (target.equals("accel")) {
      long before = hits();
      FrontingBenchmark.rows(statement, params.get(0));
      if (hits() != before + 1 || !Upstream.lastRoute(connection).equals("accel")) {
        throw new IllegalStateException(query + " was not answered from the cache; not measured");
      }
    }
  }

  private long hits() throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW CACHES")) {
      return rs.next() ? rs.getLong("count") : -1;
    }
  }

  @Benchmark
  public void run(Blackhole bh) throws SQLException {
    Object[] values = params.get(next);
    next = (next + 1) % params.size();
    FrontingBenchmark.readAll(statement, values, bh);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (connection != null) {
      if (target.equals("accel")) {
        FrontingBenchmark.dropMirror(connection);
      }
      connection.close();
    }
  }
}
