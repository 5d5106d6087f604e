package io.accel.bench.jmh;

import io.accel.bench.workload.Clicks;
import io.accel.bench.workload.WorkloadData;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@link ClicksBenchmark} (C1) for each (cities, mode) at one size in one JMH run, in both of its
 * benchmark modes (throughput, and sampled time per operation), and prints Markdown: per city set a table
 * of ops/s, p50 and p99 in milliseconds and the row cache's hits, misses and bytes during the measurement
 * (from the forks, through a file); then the ratios of each mode to {@code nocache}: {@code cache} (what
 * the row cache gains) and {@code tiny} (what a cache that never hits costs; about 1.0 when it costs
 * nothing), and PostgreSQL.
 *
 * <p>The data are loaded (or found) before JMH starts, so no fork pays for a load, and the plans of C1
 * for the hottest and coldest cities of each set are printed (whether they read through
 * {@value ClicksBenchmark#INDEX}). At the defaults (3 warmup and 5 measurement iterations of 4 s, 16
 * trials with PostgreSQL) the full size takes about 13 minutes besides the load. The exit status is 1 when
 * a configuration was not measured (its trial failed, e.g. a result differed from the generator's).
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.ClicksReport --size full
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.ClicksReport --size small \
 *     --warmup 1 --time 1s --iterations 2
 * </pre>
 */
@Command(name = "clicks-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the clicks JMH benchmark (C1 on hot and cold cities; Accel with a row cache, without "
        + "one and with a tiny one, and PostgreSQL) and prints throughput, p50 and p99 latency, the row cache's "
        + "hit ratio and the ratios side by side."})
public final class ClicksReport implements Callable<Integer> {
  @Option(names = "--size", paramLabel = "SIZE",
      description = "full (2,000,000 rows), small (200,000) or a number of rows (default: ${DEFAULT-VALUE})")
  String size = "full";

  @Option(names = "--cities", split = ",", paramLabel = "SET", description = "hot, cold (default: ${DEFAULT-VALUE})")
  List<String> citySets = new ArrayList<>(ClicksBenchmark.CITY_SETS);

  @Option(names = "--modes", split = ",", paramLabel = "MODE",
      description = "cache, nocache, tiny, postgres (default: ${DEFAULT-VALUE})")
  List<String> modes = new ArrayList<>(ClicksBenchmark.MODES);

  @Option(names = "--warmup", paramLabel = "N", description = "warmup iterations (default: ${DEFAULT-VALUE})")
  int warmup = 3;

  @Option(names = "--iterations", paramLabel = "N", description = "measurement iterations (default: ${DEFAULT-VALUE})")
  int iterations = 5;

  @Option(names = "--time", paramLabel = "TIME", description = "time per iteration, e.g. 4s, 500ms (default: ${DEFAULT-VALUE})")
  String time = "4s";

  @Option(names = "--forks", paramLabel = "N", description = "JMH forks per configuration (default: ${DEFAULT-VALUE})")
  int forks = 1;

  @Option(names = "--verify-cities", paramLabel = "N",
      description = "cities of the set each trial checks against the generator before measuring; 0 for none "
          + "(default: all)")
  Integer verifyCities;

  @Option(names = "--heap", paramLabel = "SIZE", description = "-Xmx of the forks (default: ${DEFAULT-VALUE})")
  String heap = "8g";

  private final PrintStream out;

  public ClicksReport() {
    this(System.out);
  }

  ClicksReport(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new ClicksReport());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  /** The row cache during one (cities, mode)'s measurements, summed over its trials. */
  record CacheSeen(boolean present, double hits, double misses, double bytes, long executions) {
    CacheSeen plus(CacheSeen o) {
      return new CacheSeen(present && o.present, hits + o.hits, misses + o.misses, Math.max(bytes, o.bytes),
          executions + o.executions);
    }
  }

  @Override
  public Integer call() throws Exception {
    Clicks workload = ClicksBenchmark.workload(size);
    for (String set : citySets) {
      ClicksBenchmark.cities(set);
    }
    for (String m : modes) {
      if (!m.equals("postgres")) {
        ClicksBenchmark.accelProperties(m);
      }
    }
    List<String> loads = new ArrayList<>();
    loads.add(WorkloadData.ensureAccel(workload, out).toString());
    if (modes.contains("postgres")) {
      if (WorkloadData.postgresReachable(out)) {
        loads.add(WorkloadData.ensurePostgres(workload, out).toString());
      } else {
        modes.remove("postgres");
        out.println("mode postgres left out");
      }
    }
    List<String> plans = plans(workload);

    Path stats = Files.createTempFile("clicks-row-cache", ".tsv");
    Map<String, StraddleReport.Measured> measured;
    Map<String, CacheSeen> cache;
    StraddleReport.Pass pass = new StraddleReport.Pass(modes, warmup, TimeValue.fromString(time), iterations,
        TimeValue.fromString(time));
    try {
      List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap,
          "-D" + ClicksBenchmark.ROW_CACHE_STATS_PROPERTY + "=" + stats));
      if (verifyCities != null) {
        jvm.add("-D" + ClicksBenchmark.VERIFY_PROPERTY + "=" + verifyCities);
      }
      ChainedOptionsBuilder options = new OptionsBuilder()
          .include(ClicksBenchmark.class.getName() + ".execute")
          .param("size", size)
          .param("cities", citySets.toArray(new String[0]))
          .param("mode", modes.toArray(new String[0]));
      List<RunResult> results = new ArrayList<>(
          StraddleReport.run(options, pass, forks, StraddleReport.jvmArgs(jvm.toArray(new String[0]))));
      measured = StraddleReport.measured(results, "cities");
      cache = cacheSeen(stats);
    } finally {
      Files.deleteIfExists(stats);
    }

    out.println();
    out.printf(Locale.ROOT, "## clicks: C1, %,d rows, %d cities (Zipf, exponent 1), %,d products%n", workload.rows(),
        Clicks.CITY_COUNT, Clicks.PRODUCT_COUNT);
    for (String load : loads) {
      out.println("- " + load);
    }
    out.println("- " + StraddleReport.machine());
    out.printf(Locale.ROOT, "- JMH: %d fork(s) with -Xmx%s, %d warmup iteration(s) and %d measurement iteration(s) of %s; "
            + "throughput and sampled time per operation are separate trials%n", forks, heap, pass.warmup(),
        pass.iterations(), pass.time());
    List<String> urls = new ArrayList<>();
    for (String m : modes) {
      urls.add(m + " `" + (m.equals("postgres") ? "PostgreSQL, pgJDBC" : ClicksBenchmark.accelProperties(m)) + "`");
    }
    out.println("- modes: " + String.join(", ", urls));
    for (String plan : plans) {
      out.println("- " + plan);
    }
    List<String> missing = new ArrayList<>();
    for (String set : citySets) {
      List<String> cities = ClicksBenchmark.cities(set);
      out.println();
      out.printf(Locale.ROOT, "### %s cities: ranks %s (%s .. %s), %.1f%% of the rows, about %,.0f rows per C1%n", set,
          ClicksBenchmark.ranks(set), cities.get(0), cities.get(cities.size() - 1), 100 * share(set),
          workload.rows() * share(set) / cities.size());
      out.println();
      out.println("| mode | ops/s | p50 ms | p99 ms | mean ms (sampled) | samples | row cache hits / misses (hit ratio) | row cache bytes |");
      out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (String m : modes) {
        StraddleReport.Measured r = measured.get(set + " " + m);
        String seen = cacheColumns(cache.get(set + " " + m), m);
        if (r == null) {
          missing.add(set + " " + m);
          out.printf("| %s | not measured | | | | | %s |%n", m, seen);
          continue;
        }
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %,d | %s |%n", m,
            StraddleReport.withError(r.opsPerSecond(), r.opsError()), millis(r.p50Micros()), millis(r.p99Micros()),
            millis(r.meanMicros()), r.samples(), seen);
      }
    }
    if (!missing.isEmpty()) {
      out.println();
      out.println("Not measured (the trial failed; see the JMH output above): " + String.join(", ", missing));
    }
    out.println();
    out.println("Ratios to `nocache` (ops/s: above 1 is faster; p50: below 1 is faster):");
    out.println();
    out.println("| cities | cache / nocache ops/s | cache / nocache p50 | tiny / nocache ops/s | tiny / nocache p50 "
        + "| postgres / nocache p50 | postgres p50 / cache p50 |");
    out.println("|---|---:|---:|---:|---:|---:|---:|");
    for (String set : citySets) {
      out.printf("| %s | %s | %s | %s | %s | %s | %s |%n", set,
          LineitemReport.ratio(ops(measured, set, "cache"), ops(measured, set, "nocache")),
          LineitemReport.ratio(p50(measured, set, "cache"), p50(measured, set, "nocache")),
          LineitemReport.ratio(ops(measured, set, "tiny"), ops(measured, set, "nocache")),
          LineitemReport.ratio(p50(measured, set, "tiny"), p50(measured, set, "nocache")),
          LineitemReport.ratio(p50(measured, set, "postgres"), p50(measured, set, "nocache")),
          LineitemReport.ratio(p50(measured, set, "postgres"), p50(measured, set, "cache")));
    }
    return missing.isEmpty() ? 0 : 1;
  }

  /** The share of all rows in the cities of {@code set}. */
  private static double share(String set) {
    double share = 0;
    for (String city : ClicksBenchmark.cities(set)) {
      share += Clicks.cityShare(Integer.parseInt(city.substring(city.indexOf('-') + 1)));
    }
    return share;
  }

  /** For the hottest and coldest city of each set, whether C1's plan reads through the index (EXPLAIN). */
  private List<String> plans(Clicks workload) throws SQLException {
    List<String> plans = new ArrayList<>();
    String accelMode = modes.stream().filter(m -> !m.equals("postgres")).findFirst().orElse(null);
    if (accelMode == null) {
      return plans;
    }
    // Closed before JMH starts: the forks need the store's lock.
    try (Connection c = ClicksBenchmark.open(workload, accelMode)) {
      List<String> uses = new ArrayList<>();
      for (String set : citySets) {
        List<String> cities = ClicksBenchmark.cities(set);
        for (String city : List.of(cities.get(0), cities.get(cities.size() - 1))) {
          String plan = StraddleBenchmark.explain(c, Clicks.C1, new Object[] {city});
          uses.add(city + (plan.contains(ClicksBenchmark.INDEX) ? " uses " : " does NOT use ") + ClicksBenchmark.INDEX);
          out.println("C1 plan for " + city + ":");
          out.println(plan);
        }
      }
      plans.add("plan of C1 (Accel): " + String.join("; ", uses));
    }
    return plans;
  }

  /** The forks' row cache lines, summed per {@code <cities> <mode>} over both benchmark modes. */
  private static Map<String, CacheSeen> cacheSeen(Path stats) throws IOException {
    Map<String, CacheSeen> seen = new LinkedHashMap<>();
    for (String line : Files.readAllLines(stats, StandardCharsets.UTF_8)) {
      String[] f = line.split("\t");
      if (f.length < 8) {
        continue;
      }
      CacheSeen s = new CacheSeen(Boolean.parseBoolean(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
          Double.parseDouble(f[6]), Long.parseLong(f[7]));
      seen.merge(f[0] + " " + f[1], s, CacheSeen::plus);
    }
    return seen;
  }

  private static String cacheColumns(CacheSeen s, String mode) {
    if (mode.equals("postgres")) {
      return "n/a | n/a";
    }
    if (s == null) {
      return "not reported | ";
    }
    if (!s.present()) {
      return (mode.equals("nocache") ? "off (no meters)" : "meters not present") + " | ";
    }
    double ratio = s.hits() / (s.hits() + s.misses());
    return String.format(Locale.ROOT, "%,.0f / %,.0f (%s) | %s", s.hits(), s.misses(),
        Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * ratio),
        Double.isNaN(s.bytes()) ? "n/a" : String.format(Locale.ROOT, "%,.0f", s.bytes()));
  }

  private static double ops(Map<String, StraddleReport.Measured> m, String set, String mode) {
    StraddleReport.Measured r = m.get(set + " " + mode);
    return r == null ? Double.NaN : r.opsPerSecond();
  }

  private static double p50(Map<String, StraddleReport.Measured> m, String set, String mode) {
    StraddleReport.Measured r = m.get(set + " " + mode);
    return r == null ? Double.NaN : r.p50Micros();
  }

  private static String millis(double micros) {
    return StraddleReport.number(micros / 1e3);
  }
}
