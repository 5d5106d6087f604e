package io.accel.bench.fronting;

import io.accel.bench.jmh.ClicksBenchmark;
import io.accel.bench.workload.Clicks;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.Workload;
import io.accel.bench.workload.WorkloadData;
import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * Accel in front of PostgreSQL against PostgreSQL alone, on the same data in the same PostgreSQL: S1 and S2 (the
 * straddle workload), C1 (clicks, the hot cities), each a prepared statement with the next parameter set per
 * operation and every row read, through {@code jdbc:accel:postgresql://} ({@code target=accel}) or pgJDBC straight
 * to PostgreSQL ({@code target=postgres}); and {@code RYW}: an UPDATE of one user's name followed by reading it back
 * (through Accel the read waits for the mirror to hold the write, then runs on it).
 *
 * <p>The setup loads the workload into a schema of the fronted PostgreSQL if missing ({@link Upstream}), opens (or
 * resumes) the schema's mirror (dropped again, with its slot, at the end of the trial), checks that the first parameter sets give PostgreSQL's rows and that Accel ran
 * them on the mirror, and fails the trial otherwise. Sample mode: JMH prints p0.50, p0.99.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main FrontingBenchmark -p size=small
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FrontingBenchmark {
  @Param({"S1", "S2", "C1", "RYW"})
  public String query;

  @Param({"accel", "postgres"})
  public String target;

  @Param({"small"})
  public String size;

  private Connection connection;
  private PreparedStatement statement;
  private PreparedStatement update;
  private final List<Object[]> params = new ArrayList<>();
  private int next;
  private long sequence;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    AccelDriver.load();
    Upstream.useForWorkloads();
    Workload w;
    String sql;
    Set<String> tables;
    if (query.equals("C1")) {
      Clicks clicks = ClicksBenchmark.workload(size);
      w = clicks;
      sql = Clicks.C1_POSTGRES;
      for (String city : ClicksBenchmark.cities("hot")) {
        params.add(new Object[] {city});
      }
      tables = Set.of("product_clicks");
    } else {
      Straddle straddle = size.equals("full") ? new Straddle() : new Straddle(10_000, 100_000);
      w = straddle;
      sql = switch (query) {
        case "S1" -> Straddle.S1;
        case "S2" -> Straddle.S2;
        case "RYW" -> "SELECT name FROM users WHERE id = ?";
        default -> throw new IllegalArgumentException("unknown query " + query + "; expected S1, S2, C1 or RYW");
      };
      for (int i = 0; i < 1000; i++) {
        params.add(switch (query) {
          case "S1" -> straddle.s1Params(i);
          case "S2" -> straddle.s2Params(i);
          default -> new Object[] {1L + (i * 7919L) % straddle.users()};
        });
      }
      tables = Set.of("users", "orders");
    }
    String schema = WorkloadData.postgresSchema(w);
    WorkloadData.ensurePostgres(w, schema, System.out);
    if (target.equals("accel")) {
      long t0 = System.nanoTime();
      connection = java.sql.DriverManager.getConnection(Upstream.accelUrl(schema));
      Upstream.awaitOnline(connection, tables);
      System.out.printf(Locale.ROOT, "mirror of %s online in %.1f s%n", schema, (System.nanoTime() - t0) / 1e9);
    } else if (target.equals("postgres")) {
      connection = Upstream.postgres(schema);
    } else {
      throw new IllegalArgumentException("unknown target " + target + "; expected accel or postgres");
    }
    statement = connection.prepareStatement(sql);
    if (query.equals("RYW")) {
      update = connection.prepareStatement("UPDATE users SET name = ? WHERE id = ?");
    }
    verify(schema, sql);
  }

  /** The first parameter sets give PostgreSQL's rows, and through Accel they ran on the mirror. */
  private void verify(String schema, String sql) throws Exception {
    try (Connection pg = Upstream.postgres(schema); PreparedStatement direct = pg.prepareStatement(sql)) {
      for (int i = 0; i < Math.min(5, params.size()); i++) {
        List<String> expected = comparable(rows(direct, params.get(i)));
        List<String> actual = comparable(rows(statement, params.get(i)));
        if (!sorted(expected).equals(sorted(actual))) {
          throw new IllegalStateException(query + " with " + java.util.Arrays.toString(params.get(i))
              + " returned " + actual + " where PostgreSQL returns " + expected + "; not measured");
        }
        if (target.equals("accel") && !Upstream.lastRoute(connection).equals("accel")) {
          throw new IllegalStateException(query + " ran " + Upstream.lastRoute(connection) + "; not measured");
        }
      }
    }
    System.out.println("verified: " + query + " returns PostgreSQL's rows" + (target.equals("accel")
        ? ", run on the mirror" : ""));
  }

  /** C1 leaves which of several tied products make its LIMIT open: its rates are compared, not its products. */
  private List<String> comparable(List<String> rows) {
    if (!query.equals("C1")) {
      return rows;
    }
    return rows.stream().map(r -> r.substring(r.indexOf('|') + 1)).toList();
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  /** Drops the connection's mirror: a stopped mirror's slot makes PostgreSQL keep WAL, so each trial takes its own. */
  static void dropMirror(Connection accel) throws SQLException {
    try (java.sql.Statement s = accel.createStatement()) {
      s.execute("DROP ACCEL MIRROR");
    }
  }

  /** Every row of an execution, each value in one comparable form (numbers as plain decimals). */
  static List<String> rows(PreparedStatement ps, Object[] values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(i + 1, values[i]);
    }
    List<String> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int c = 1; c <= n; c++) {
          Object v = rs.getObject(c);
          b.append(v instanceof Number num ? new java.math.BigDecimal(num.toString()).stripTrailingZeros()
              .toPlainString() : String.valueOf(v)).append('|');
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  @Benchmark
  public void run(Blackhole bh) throws SQLException {
    Object[] values = params.get(next);
    next = (next + 1) % params.size();
    if (update != null) {
      update.setString(1, "ryw-" + sequence++);
      update.setLong(2, (Long) values[0]);
      bh.consume(update.executeUpdate());
    }
    readAll(statement, values, bh);
  }

  /** Runs {@code statement} with {@code values} and reads every value of every row. */
  static void readAll(PreparedStatement statement, Object[] values, Blackhole bh) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      statement.setObject(i + 1, values[i]);
    }
    try (ResultSet rs = statement.executeQuery()) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int c = 1; c <= n; c++) {
          bh.consume(rs.getObject(c));
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (connection != null) {
      if (target.equals("accel")) {
        try (java.sql.Statement s = connection.createStatement();
            ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
          while (rs.next()) {
            if (rs.getString(1).startsWith("statements")) {
              System.out.println(rs.getString(1) + ": " + rs.getString(2));
            }
          }
        }
        dropMirror(connection);
      }
      connection.close();
    }
  }
}
