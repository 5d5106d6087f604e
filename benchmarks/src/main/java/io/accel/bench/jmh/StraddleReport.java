package io.accel.bench.jmh;

import io.accel.bench.workload.LineitemData;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@link StraddleBenchmark} for each (query, mode) at one size through JMH's runner, in both of its
 * benchmark modes (throughput, and sampled time per operation), and prints one Markdown table: ops/s,
 * p50 and p99 in microseconds; then the ratios (lookup / hash throughput on S1 and S2, PostgreSQL's p50 /
 * lookup's p50, and lookup against nocache, i.e. with and without the row cache) and whether the issue's
 * targets for S1 are met: at least 500x the throughput of hash, a p50 at least 5x lower than PostgreSQL's,
 * and a p50 under 20 µs.
 *
 * <p>Mode {@code hash} costs hundreds of milliseconds to over a second per execution at the full size, so
 * it runs as a second JMH pass with its own iteration settings ({@code --hash-warmup}, default 1,
 * {@code --hash-iterations}, default 3, {@code --hash-time}, default 5 s: a few executions per iteration);
 * the other modes run in the first pass; both passes belong to the one report and table. The data are
 * loaded (or found) before JMH starts, so no fork pays for a load. The exit status is 1 when a
 * configuration was not measured (its trial failed, e.g. the modes returned different rows).
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.StraddleReport --size full
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.StraddleReport --size small \
 *     --warmup 1 --time 1s --iterations 2 --hash-warmup 1 --hash-time 1s --hash-iterations 2
 * </pre>
 */
@Command(name = "straddle-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the straddle JMH benchmark (S1, S2; lookup join with and without the row cache, hash "
        + "join, PostgreSQL) and prints "
        + "throughput, p50 and p99 latency side by side, their ratios and the issue's targets."})
public final class StraddleReport implements Callable<Integer> {
  /** Target (a): lookup's S1 throughput at least this many times hash's. */
  public static final double TARGET_VS_HASH = 500;
  /** Target (a): PostgreSQL's S1 p50 at least this many times lookup's. */
  public static final double TARGET_VS_POSTGRES = 5;
  /** Target (a): lookup's S1 p50 below this many microseconds. */
  public static final double TARGET_P50_MICROS = 20;

  @Option(names = "--size", paramLabel = "SIZE",
      description = "full (100,000 users, 1,000,000 orders), small (10,000 / 100,000) or USERS_ORDERS (default: ${DEFAULT-VALUE})")
  String size = "full";

  @Option(names = "--queries", split = ",", paramLabel = "Q", description = "S1, S2 (default: ${DEFAULT-VALUE})")
  List<String> queries = new ArrayList<>(List.of("S1", "S2"));

  @Option(names = "--modes", split = ",", paramLabel = "MODE",
      description = "lookup, hash, nocache, postgres (default: ${DEFAULT-VALUE})")
  List<String> modes = new ArrayList<>(StraddleBenchmark.MODES);

  @Option(names = "--warmup", paramLabel = "N", description = "warmup iterations (default: ${DEFAULT-VALUE})")
  int warmup = 3;

  @Option(names = "--iterations", paramLabel = "N", description = "measurement iterations (default: ${DEFAULT-VALUE})")
  int iterations = 5;

  @Option(names = "--time", paramLabel = "TIME", description = "time per iteration, e.g. 2s, 500ms (default: ${DEFAULT-VALUE})")
  String time = "2s";

  @Option(names = "--hash-warmup", paramLabel = "N", description = "warmup iterations of mode hash (default: ${DEFAULT-VALUE})")
  int hashWarmup = 1;

  @Option(names = "--hash-iterations", paramLabel = "N",
      description = "measurement iterations of mode hash (default: ${DEFAULT-VALUE})")
  int hashIterations = 3;

  @Option(names = "--hash-time", paramLabel = "TIME", description = "time per iteration of mode hash (default: ${DEFAULT-VALUE})")
  String hashTime = "5s";

  @Option(names = "--forks", paramLabel = "N", description = "JMH forks per configuration (default: ${DEFAULT-VALUE})")
  int forks = 1;

  @Option(names = "--verify-sets", paramLabel = "N",
      description = "parameter sets each trial compares across modes before measuring (default: ${DEFAULT-VALUE})")
  int verifySets = StraddleBenchmark.DEFAULT_VERIFY_SETS;

  private final PrintStream out;

  public StraddleReport() {
    this(System.out);
  }

  StraddleReport(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new StraddleReport());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  /** One JMH pass: these modes with these iteration settings. */
  record Pass(List<String> modes, int warmup, TimeValue warmupTime, int iterations, TimeValue time) {
  }

  /** What one (query, mode) measured; NaN where a benchmark mode did not run. */
  record Measured(double opsPerSecond, double opsError, double p50Micros, double p99Micros, double meanMicros,
      double meanErrorMicros, long samples) {
  }

  @Override
  public Integer call() throws Exception {
    Straddle workload = StraddleBenchmark.workload(size);
    for (String q : queries) {
      StraddleBenchmark.sql(q);
    }
    for (String m : modes) {
      if (!m.equals("postgres")) {
        StraddleBenchmark.accelProperties(m);
      }
    }
    List<String> loads = new ArrayList<>();
    loads.add(WorkloadData.ensureAccel(workload, out).toString());
    if (WorkloadData.postgresReachable(out)) {
      loads.add(WorkloadData.ensurePostgres(workload, out).toString());
    } else if (modes.remove("postgres")) {
      out.println("mode postgres left out");
    }
    Map<String, String> plans = plans(workload);

    List<Pass> passes = new ArrayList<>();
    List<String> main = new ArrayList<>(modes);
    main.remove("hash");
    if (!main.isEmpty()) {
      passes.add(new Pass(main, warmup, TimeValue.fromString(time), iterations, TimeValue.fromString(time)));
    }
    if (modes.contains("hash")) {
      passes.add(new Pass(List.of("hash"), hashWarmup, TimeValue.fromString(hashTime), hashIterations,
          TimeValue.fromString(hashTime)));
    }
    List<RunResult> results = new ArrayList<>();
    for (Pass pass : passes) {
      ChainedOptionsBuilder options = new OptionsBuilder()
          .include(StraddleBenchmark.class.getName() + ".execute")
          .param("size", size)
          .param("query", queries.toArray(new String[0]))
          .param("mode", pass.modes().toArray(new String[0]));
      results.addAll(run(options, pass, forks, jvmArgs("-D" + StraddleBenchmark.VERIFY_PROPERTY + "=" + verifySets)));
    }
    Map<String, Measured> measured = measured(results, "query");

    out.println();
    out.printf(Locale.ROOT, "## straddle, %,d users, %,d orders%n", workload.users(), workload.orders());
    for (String load : loads) {
      out.println("- " + load);
    }
    out.println("- " + machine());
    for (Pass pass : passes) {
      out.printf(Locale.ROOT, "- JMH %s: %d fork(s), %d warmup iteration(s) of %s, %d measurement iteration(s) of %s; "
              + "throughput and sampled time per operation are separate trials%n", String.join(", ", pass.modes()),
          forks, pass.warmup(), pass.warmupTime(), pass.iterations(), pass.time());
    }
    for (Map.Entry<String, String> plan : plans.entrySet()) {
      out.println("- " + plan.getKey() + ": " + plan.getValue());
    }
    out.println();
    out.println("| query | mode | ops/s | p50 µs | p99 µs | mean µs (sampled) | samples |");
    out.println("|---|---|---:|---:|---:|---:|---:|");
    List<String> missing = new ArrayList<>();
    for (String q : queries) {
      for (String m : modes) {
        Measured r = measured.get(q + " " + m);
        if (r == null) {
          missing.add(q + " " + m);
          out.printf("| %s | %s | not measured | | | | |%n", q, m);
          continue;
        }
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %,d |%n", q, m,
            withError(r.opsPerSecond(), r.opsError()),
            number(r.p50Micros()), number(r.p99Micros()), number(r.meanMicros()), r.samples());
      }
    }
    if (!missing.isEmpty()) {
      out.println();
      out.println("Not measured (the trial failed; see the JMH output above): " + String.join(", ", missing));
    }
    out.println();
    out.println("| query | lookup ops/s / hash ops/s | postgres p50 / lookup p50 | lookup ops/s / nocache ops/s "
        + "| nocache p50 / lookup p50 | lookup p50 µs |");
    out.println("|---|---:|---:|---:|---:|---:|");
    for (String q : queries) {
      out.printf("| %s | %s | %s | %s | %s | %s |%n", q,
          LineitemReport.ratio(ops(measured, q, "lookup"), ops(measured, q, "hash")),
          LineitemReport.ratio(p50(measured, q, "postgres"), p50(measured, q, "lookup")),
          LineitemReport.ratio(ops(measured, q, "lookup"), ops(measured, q, "nocache")),
          LineitemReport.ratio(p50(measured, q, "nocache"), p50(measured, q, "lookup")),
          number(p50(measured, q, "lookup")));
    }
    double vsHash = ops(measured, "S1", "lookup") / ops(measured, "S1", "hash");
    double vsPostgres = p50(measured, "S1", "postgres") / p50(measured, "S1", "lookup");
    double p50 = p50(measured, "S1", "lookup");
    out.println();
    out.println("| target (S1) | measured | met |");
    out.println("|---|---:|---|");
    out.printf("| (a) throughput ≥ %sx hash's | %sx | %s |%n", number(TARGET_VS_HASH), LineitemReport.ratio(vsHash, 1),
        met(vsHash, vsHash >= TARGET_VS_HASH));
    out.printf("| (a) p50 ≥ %sx lower than PostgreSQL's | %sx | %s |%n", number(TARGET_VS_POSTGRES),
        LineitemReport.ratio(vsPostgres, 1), met(vsPostgres, vsPostgres >= TARGET_VS_POSTGRES));
    out.printf("| (a) p50 < %s µs | %s µs | %s |%n", number(TARGET_P50_MICROS), number(p50), met(p50, p50 < TARGET_P50_MICROS));
    return missing.isEmpty() ? 0 : 1;
  }

  /** For each query, whether the lookup and hash modes' plans use the lookup join (EXPLAIN). */
  private Map<String, String> plans(Straddle workload) throws SQLException {
    Map<String, String> plans = new LinkedHashMap<>();
    for (String m : modes) {
      if (m.equals("postgres")) {
        continue;
      }
      try (Connection c = StraddleBenchmark.open(workload, m)) {
        List<String> uses = new ArrayList<>();
        for (String q : queries) {
          String plan = StraddleBenchmark.explain(c, StraddleBenchmark.sql(q), StraddleBenchmark.parameters(workload, q, 0));
          uses.add(q + (StraddleBenchmark.usesLookupJoin(plan) ? " uses " : " does not use ")
              + StraddleBenchmark.LOOKUP_JOIN);
        }
        plans.put("plan of " + m, String.join("; ", uses));
      }
    }
    return plans;
  }

  // ---------------------------------------------------------------------------------------------------
  // Shared with EmployeesReport

  /** Runs one pass of {@code options} and returns its results (trials that failed are missing). */
  static Collection<RunResult> run(ChainedOptionsBuilder options, Pass pass, int forks, List<String> jvmArgs)
      throws RunnerException {
    options.warmupIterations(pass.warmup())
        .warmupTime(pass.warmupTime())
        .measurementIterations(pass.iterations())
        .measurementTime(pass.time())
        .forks(forks)
        .jvmArgsAppend(jvmArgs.toArray(new String[0]))
        .shouldFailOnError(false);
    return new Runner(options.build()).run();
  }

  /** The data and PostgreSQL system properties of this JVM, for the forks, and {@code extra}. */
  static List<String> jvmArgs(String... extra) {
    List<String> args = new ArrayList<>();
    for (String property : List.of(LineitemData.DATA_DIR_PROPERTY, LineitemData.POSTGRES_URL_PROPERTY,
        LineitemData.POSTGRES_USER_PROPERTY)) {
      if (System.getProperty(property) != null) {
        args.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    args.addAll(List.of(extra));
    return args;
  }

  static String machine() {
    return String.format(Locale.ROOT, "JVM %s (%s), %d processors", System.getProperty("java.vm.version"),
        System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
  }

  /**
   * Throughput and sampled times per {@code <param> <mode>} (e.g. {@code S1 lookup}), in ops/s and µs
   * whatever the unit JMH ran with.
   */
  static Map<String, Measured> measured(Collection<RunResult> results, String param) {
    Map<String, double[]> thrpt = new LinkedHashMap<>();
    Map<String, Object[]> sample = new LinkedHashMap<>();
    for (RunResult r : results) {
      String key = r.getParams().getParam(param) + " " + r.getParams().getParam("mode");
      TimeUnit unit = r.getParams().getTimeUnit();
      double microsPerUnit = unit.toNanos(1) / 1e3;
      Result<?> primary = r.getPrimaryResult();
      Mode mode = r.getParams().getMode();
      if (mode == Mode.Throughput) {
        double perSecond = 1e6 / microsPerUnit;
        thrpt.put(key, new double[] {primary.getScore() * perSecond, primary.getScoreError() * perSecond});
      } else if (mode == Mode.SampleTime || mode == Mode.AverageTime || mode == Mode.SingleShotTime) {
        Statistics s = primary.getStatistics();
        boolean sampled = mode == Mode.SampleTime;
        sample.put(key, new Object[] {
            sampled ? s.getPercentile(50) * microsPerUnit : Double.NaN,
            sampled ? s.getPercentile(99) * microsPerUnit : Double.NaN,
            primary.getScore() * microsPerUnit, s.getN(), primary.getScoreError() * microsPerUnit});
      }
    }
    Map<String, Measured> all = new LinkedHashMap<>();
    for (String key : union(thrpt.keySet(), sample.keySet())) {
      double[] t = thrpt.get(key);
      Object[] s = sample.get(key);
      all.put(key, new Measured(t == null ? Double.NaN : t[0], t == null ? Double.NaN : t[1],
          s == null ? Double.NaN : (double) s[0], s == null ? Double.NaN : (double) s[1],
          s == null ? Double.NaN : (double) s[2], s == null ? Double.NaN : (double) s[4], s == null ? 0 : (long) s[3]));
    }
    return all;
  }

  private static List<String> union(Collection<String> a, Collection<String> b) {
    List<String> all = new ArrayList<>(a);
    for (String k : b) {
      if (!all.contains(k)) {
        all.add(k);
      }
    }
    return all;
  }

  private static double ops(Map<String, Measured> m, String query, String mode) {
    Measured r = m.get(query + " " + mode);
    return r == null ? Double.NaN : r.opsPerSecond();
  }

  private static double p50(Map<String, Measured> m, String query, String mode) {
    Measured r = m.get(query + " " + mode);
    return r == null ? Double.NaN : r.p50Micros();
  }

  private static String met(double value, boolean met) {
    return Double.isNaN(value) ? "n/a (not measured)" : met ? "**yes**" : "no";
  }

  /** {@code value ± error}, or the value alone where JMH gives no error (fewer than 3 iterations). */
  static String withError(double value, double error) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return Double.isNaN(error) ? number(value) : number(value) + " ± " + number(error);
  }

  /** A number with thousands separators, 3 significant digits below 100. */
  static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    if (a >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
