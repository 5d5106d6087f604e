package io.accel.bench.jmh;

import io.accel.bench.workload.Lineitem;
import io.accel.bench.workload.LineitemData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The {@code lineitem} workload (DATASETS.md): Index Condition Pushdown after MySQL 5.6 / MariaDB 5.5 and
 * TPC-H Q19, on the index {@code i_l_partkey (l_partkey, l_quantity, l_shipmode, l_shipinstruct)}.
 *
 * <p>Parameters: {@code sf} the TPC-H scale factor; {@code query} one of {@link Lineitem.Query} (Q1, the
 * lineitem half of Q19; Q19 as published; Q19J, Q19 with its join condition written as JOIN ... ON; SKIP,
 * a skip scan over IN lists); {@code mode}:
 * <ul>
 *   <li>{@code icp}: Accel with its defaults (index access paths, conditions on index columns evaluated
 *       on the index entries before rows are fetched);
 *   <li>{@code noicp}: connection property {@code icp=false}: the same index, every entry in the range
 *       fetches its row before the remaining conditions are evaluated;
 *   <li>{@code fullscan}: connection property {@code indexScans=false}: no index access paths;
 *   <li>{@code postgres}: PostgreSQL over loopback (pgJDBC) on the same data and index.
 * </ul>
 *
 * <p>Each invocation executes the prepared query once with the next of {@link Lineitem#PARAMETER_SETS}
 * parameter sets (values that exist in the data), cycled. Over the measurement iterations the benchmark
 * also counts what the engine read, per query: Accel's Micrometer counters {@code accel.table.rows.fetched},
 * {@code accel.index.entries.read}, {@code accel.icp.attempts}, {@code accel.icp.matches} (tag
 * {@code store} = the store's directory; NaN where the engine does not register them), PostgreSQL's
 * {@code pg_stat_user_tables} / {@code pg_stat_user_indexes} (rows fetched by scans, index entries
 * returned), and, from the generator, the rows satisfying the whole predicate and those satisfying its
 * conditions on l_partkey and l_quantity. They are printed at the end of the trial as a line starting
 * {@value #COUNTERS_PREFIX} and, when the system property {@value #COUNTERS_FILE_PROPERTY} names a file,
 * appended to it ({@link LineitemCounters}), which is how {@link LineitemReport} reads them.
 *
 * <p>Before measuring, the first parameter set runs once and must finish within
 * {@value #DEFAULT_PREFLIGHT_SECONDS} s (system property {@value #PREFLIGHT_PROPERTY}), or the trial fails
 * instead of running for hours: Q19 as published is a filtered cross product for a planner that does not
 * pull {@code p_partkey = l_partkey} out of the OR (Accel's did not before 2026-11-21).
 *
 * <p>Run from the shaded jar: {@code java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main
 * Lineitem -p sf=0.1 -p query=Q1 -p mode=icp,noicp}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class LineitemBenchmark {
  public static final String COUNTERS_PREFIX = "lineitem-counters";
  public static final String COUNTERS_FILE_PROPERTY = "accel.bench.lineitem.counters";
  public static final String PREFLIGHT_PROPERTY = "accel.bench.preflightSeconds";
  public static final int DEFAULT_PREFLIGHT_SECONDS = 60;

  @Param("0.1")
  public String sf;

  @Param({"Q1", "Q19", "Q19J", "SKIP"})
  public String query;

  @Param({"icp", "noicp", "fullscan", "postgres"})
  public String mode;

  private Lineitem workload;
  private Lineitem.Query q;
  private Connection connection;
  private PreparedStatement statement;
  private Object[][] parameters;
  private long[] matching;
  private long[] candidates;
  private int next;
  private EngineCounters counters;
  private boolean hung;

  private boolean measuring;
  private double[] iterationStart;
  private long iterationQueries;
  private long iterationMatching;
  private long iterationCandidates;
  private final LineitemCounters totals = new LineitemCounters();

  /** The connection URL suffix of an Accel mode. */
  public static String accelProperties(String mode) {
    switch (mode) {
      case "icp":
        return "";
      case "noicp":
        return "?icp=false";
      case "fullscan":
        return "?indexScans=false";
      case "calcite":
        // (not in the default modes) every statement planned by Calcite: the direct planner's comparison
        return "?directPlanning=false";
      default:
        throw new IllegalArgumentException("unknown mode \"" + mode
            + "\"; expected icp, noicp, fullscan, calcite or postgres");
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    // Before the store opens, so its counters are recorded.
    EngineCounters.installRegistry();
    workload = new Lineitem(sf);
    q = Lineitem.Query.of(query);
    if (mode.equals("postgres")) {
      LineitemData.ensurePostgres(workload, System.out);
      String schema = LineitemData.postgresSchema(workload);
      connection = LineitemData.openPostgres(schema);
      counters = EngineCounters.postgres(connection, LineitemData.openPostgres(schema), schema);
    } else {
      String properties = accelProperties(mode);
      LineitemData.ensureAccel(workload, System.out);
      Path dir = LineitemData.accelDir(workload);
      connection = DriverManager.getConnection(LineitemData.accelUrl(dir) + properties);
      counters = EngineCounters.accel(dir.toString());
    }
    int sets = workload.parameterSets(q);
    parameters = new Object[sets][];
    for (int i = 0; i < sets; i++) {
      parameters[i] = workload.parameters(q, i);
    }
    Lineitem.Selectivity selectivity = workload.selectivity(q, sets);
    matching = selectivity.matching();
    candidates = selectivity.candidates();
    statement = connection.prepareStatement(q.sql());
    preflight();
    totals.sf = workload.scaleFactor();
    totals.query = q.name();
    totals.mode = mode;
  }

  /** Runs the first parameter set once, giving up (and failing the trial) after the preflight limit. */
  private void preflight() throws Exception {
    int limit = Integer.getInteger(PREFLIGHT_PROPERTY, DEFAULT_PREFLIGHT_SECONDS);
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "lineitem-preflight");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    Future<Object> first = executor.submit(() -> run(0));
    try {
      Object result = first.get(limit, TimeUnit.SECONDS);
      System.out.printf(Locale.ROOT, "%s %s on %s: first execution %.1f ms, result %s%n", q, mode, sf,
          (System.nanoTime() - start) / 1e6, result);
    } catch (TimeoutException e) {
      hung = true;
      throw new IllegalStateException(q + " (" + mode + ", sf " + sf + ") did not finish within " + limit
          + " s (-D" + PREFLIGHT_PROPERTY + "); not measured."
          + (q == Lineitem.Query.Q19 ? " Q19 as published needs the planner to pull p_partkey = l_partkey out of"
              + " its three OR branches; without that it is a filtered cross product of part and lineitem."
              + " Q19J states the join condition as JOIN ... ON." : ""));
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    } finally {
      executor.shutdown();
    }
  }

  private Object run(int set) throws SQLException {
    Lineitem.bind(statement, parameters[set]);
    try (ResultSet rs = statement.executeQuery()) {
      return rs.next() ? rs.getObject(1) : null;
    }
  }

  @Setup(Level.Iteration)
  public void startIteration(IterationParams iteration) {
    measuring = iteration.getType() == IterationType.MEASUREMENT;
    iterationQueries = 0;
    iterationMatching = 0;
    iterationCandidates = 0;
    if (measuring) {
      iterationStart = counters.read();
    }
  }

  @Benchmark
  public Object execute() throws SQLException {
    int set = next;
    next = set + 1 == parameters.length ? 0 : set + 1;
    Object result = run(set);
    iterationQueries++;
    iterationMatching += matching[set];
    iterationCandidates += candidates[set];
    return result;
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    if (!measuring) {
      return;
    }
    double[] end = counters.read();
    totals.add(iterationQueries, iterationMatching, iterationCandidates, EngineCounters.minus(end, iterationStart));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    try {
      if (totals.queries > 0) {
        String line = totals.toLine();
        System.out.println();
        System.out.println(line);
        System.out.println(totals.describe());
        String file = System.getProperty(COUNTERS_FILE_PROPERTY);
        if (file != null && !file.isBlank()) {
          try {
            Files.writeString(Path.of(file), line + System.lineSeparator(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    } finally {
      if (!hung) {
        // A query still running in the preflight thread keeps its store open: never close under it.
        if (statement != null) {
          statement.close();
        }
        if (connection != null) {
          connection.close();
        }
      }
      if (counters != null) {
        counters.close();
      }
    }
  }
}
