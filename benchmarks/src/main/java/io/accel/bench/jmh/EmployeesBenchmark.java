package io.accel.bench.jmh;

import io.accel.bench.workload.Employees;
import io.accel.bench.workload.WorkloadData;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
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
 * The {@code employees} workload (DATASETS.md, the MySQL employees sample's shape): E1, a three-way join
 * of employees with two copies of salaries (the current salary against every earlier one), executed once
 * per invocation as a prepared statement without parameters, every row read.
 *
 * <p>Parameters: {@code scale} the number of employees ({@code 300024} as DATASETS.md, about 2,856,000
 * salaries; {@code 30000} for quick runs); {@code mode}:
 * <ul>
 *   <li>{@code accel}: Accel with its defaults (lookup joins where the planner picks them);
 *   <li>{@code hash}: Accel with {@code ?lookupJoins=false} (ignored until the engine knows it);
 *   <li>{@code postgres}: PostgreSQL over loopback (pgJDBC) on the same data and keys.
 * </ul>
 *
 * <p>Average time per execution, in milliseconds. Before measuring, the setup runs E1 once and fails the
 * trial unless the rows, the employees among them and the sum of both salary columns equal E1 evaluated on
 * the generator ({@link Employees#e1Summary()}): every mode is checked against the same truth, so all
 * modes return the same count. The setup also prints the plan of the Accel modes.
 *
 * <p>Data: {@link WorkloadData} loads each scale once into {@code target/bench-data/employees-<scale>} and
 * PostgreSQL schema {@code employees_<scale>} (about 4 minutes on Accel at the full scale).
 *
 * <p>Run from the shaded jar (from {@code /work/main}), or through {@link EmployeesReport}:
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Employees -p scale=300024
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Employees -p scale=30000 -wi 1 -w 1s -i 2 -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class EmployeesBenchmark {
  public static final List<String> MODES = List.of("accel", "hash", "postgres");

  @Param({"30000", "300024"})
  public int scale;

  @Param({"accel", "hash", "postgres"})
  public String mode;

  private Connection connection;
  private PreparedStatement statement;

  /** The connection URL suffix of an Accel mode. */
  public static String accelProperties(String mode) {
    switch (mode) {
      case "accel":
        return "";
      case "hash":
        return "?lookupJoins=false";
      default:
        throw new IllegalArgumentException("unknown mode \"" + mode + "\"; expected accel, hash or postgres");
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    Employees w = new Employees(scale);
    if (mode.equals("postgres")) {
      WorkloadData.ensurePostgres(w, System.out);
      connection = WorkloadData.openPostgres(WorkloadData.postgresSchema(w));
    } else {
      String properties = accelProperties(mode);
      WorkloadData.ensureAccel(w, System.out);
      connection = DriverManager.getConnection(WorkloadData.accelUrl(w) + properties);
      try {
        String plan = StraddleBenchmark.explain(connection, Employees.E1, new Object[0]);
        System.out.printf("E1 %s plan (%s %s):%n%s%n", mode, StraddleBenchmark.LOOKUP_JOIN,
            StraddleBenchmark.usesLookupJoin(plan) ? "used" : "not used", plan);
      } catch (SQLException e) {
        System.out.println("E1 " + mode + ": EXPLAIN failed: " + e.getMessage());
      }
    }
    statement = connection.prepareStatement(Employees.E1);
    Employees.E1Summary expected = w.e1Summary();
    long start = System.nanoTime();
    Employees.E1Summary actual = summary(statement);
    System.out.printf(Locale.ROOT, "E1 %s at %d employees: first execution %.1f ms, %d rows (%d employees)%n", mode,
        scale, (System.nanoTime() - start) / 1e6, actual.rows(), actual.employees());
    if (!actual.equals(expected)) {
      throw new IllegalStateException("E1 on " + mode + " returns " + actual + "; the generator says " + expected
          + "; not measured");
    }
    System.out.println("verified: E1 on " + mode + " returns what the generator says: " + expected);
  }

  /** Rows, distinct employees and the sum of both salary columns of one execution of E1. */
  static Employees.E1Summary summary(PreparedStatement e1) throws SQLException {
    long rows = 0;
    long sum = 0;
    Set<Integer> people = new HashSet<>();
    try (ResultSet rs = e1.executeQuery()) {
      while (rs.next()) {
        rows++;
        people.add(rs.getInt(1));
        sum += rs.getInt(4) + (long) rs.getInt(5);
      }
    }
    return new Employees.E1Summary(rows, people.size(), sum);
  }

  /** One execution of E1; every column of every row goes to the blackhole; returns the row count. */
  @Benchmark
  public long execute(Blackhole bh) throws SQLException {
    long rows = 0;
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        bh.consume(rs.getInt(1));
        bh.consume(rs.getString(2));
        bh.consume(rs.getString(3));
        bh.consume(rs.getInt(4));
        bh.consume(rs.getInt(5));
        rows++;
      }
    }
    return rows;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (statement != null) {
      statement.close();
    }
    if (connection != null) {
      connection.close();
    }
  }
}
