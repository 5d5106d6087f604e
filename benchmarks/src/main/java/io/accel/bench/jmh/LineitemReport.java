package io.accel.bench.jmh;

import io.accel.bench.workload.Lineitem;
import io.accel.bench.workload.LineitemData;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@link LineitemBenchmark} once per (query, mode) at one scale factor through JMH's runner and
 * prints, as a Markdown table, the average time per query next to what the engine read per query, then
 * the ratios side by side: icp against noicp, fullscan and PostgreSQL; rows fetched against the rows
 * that satisfy the predicate.
 *
 * <pre>java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.LineitemReport --sf 0.1</pre>
 */
@Command(name = "lineitem-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the lineitem JMH benchmark (Index Condition Pushdown, TPC-H Q19) for each query and mode "
        + "at one scale factor and prints times, engine counters per query and their ratios."})
public final class LineitemReport implements Callable<Integer> {
  @Option(names = "--sf", paramLabel = "SF", description = "TPC-H scale factor (default: ${DEFAULT-VALUE})")
  String sf = "0.1";

  @Option(names = "--queries", split = ",", paramLabel = "Q",
      description = "queries: Q1, Q19, Q19J, SKIP (default: ${DEFAULT-VALUE})")
  List<String> queries = new ArrayList<>(List.of("Q1", "Q19", "Q19J", "SKIP"));

  @Option(names = "--modes", split = ",", paramLabel = "MODE",
      description = "modes: icp, noicp, fullscan, postgres (default: ${DEFAULT-VALUE})")
  List<String> modes = new ArrayList<>(List.of("icp", "noicp", "fullscan", "postgres"));

  @Option(names = "--warmup", paramLabel = "N", description = "warmup iterations (default: ${DEFAULT-VALUE})")
  int warmup = 2;

  @Option(names = "--iterations", paramLabel = "N", description = "measurement iterations (default: ${DEFAULT-VALUE})")
  int iterations = 3;

  @Option(names = "--time", paramLabel = "SECONDS", description = "seconds per iteration (default: ${DEFAULT-VALUE})")
  int seconds = 5;

  @Option(names = "--forks", paramLabel = "N", description = "JMH forks per configuration (default: ${DEFAULT-VALUE})")
  int forks = 1;

  @Option(names = "--preflight", paramLabel = "SECONDS",
      description = "a configuration whose first query takes longer is not measured (default: ${DEFAULT-VALUE})")
  int preflight = 30;

  private final PrintStream out;

  public LineitemReport() {
    this(System.out);
  }

  LineitemReport(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new LineitemReport());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Lineitem workload = new Lineitem(sf);
    for (String q : queries) {
      Lineitem.Query.of(q);
    }
    for (String m : modes) {
      if (!m.equals("postgres")) {
        LineitemBenchmark.accelProperties(m);
      }
    }
    // Load (or find) the data first, so that no benchmark fork pays for it and load times are printed once.
    List<String> loads = new ArrayList<>();
    loads.add(LineitemData.ensureAccel(workload, out).toString());
    if (modes.contains("postgres")) {
      boolean reachable;
      try (Connection probe = LineitemData.openPostgres("public")) {
        reachable = probe.isValid(5);
      } catch (SQLException e) {
        out.println("PostgreSQL at " + LineitemData.postgresUrl() + " is unreachable (" + e.getMessage()
            + "): mode postgres left out");
        reachable = false;
      }
      if (reachable) {
        loads.add(LineitemData.ensurePostgres(workload, out).toString());
      } else {
        modes.remove("postgres");
      }
    }

    Path countersFile = Files.createTempFile("lineitem-counters", ".tsv");
    List<String> jvmArgs = new ArrayList<>();
    jvmArgs.add("-D" + LineitemBenchmark.COUNTERS_FILE_PROPERTY + "=" + countersFile);
    jvmArgs.add("-D" + LineitemBenchmark.PREFLIGHT_PROPERTY + "=" + preflight);
    for (String property : List.of(LineitemData.DATA_DIR_PROPERTY, LineitemData.POSTGRES_URL_PROPERTY,
        LineitemData.POSTGRES_USER_PROPERTY)) {
      if (System.getProperty(property) != null) {
        jvmArgs.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(LineitemBenchmark.class.getName() + ".execute")
        .param("sf", workload.scaleFactor())
        .param("query", queries.toArray(new String[0]))
        .param("mode", modes.toArray(new String[0]))
        .warmupIterations(warmup)
        .warmupTime(TimeValue.seconds(seconds))
        .measurementIterations(iterations)
        .measurementTime(TimeValue.seconds(seconds))
        .forks(forks)
        .jvmArgsAppend(jvmArgs.toArray(new String[0]))
        .shouldFailOnError(false);
    Collection<RunResult> results = new Runner(options.build()).run();

    Map<String, double[]> times = new LinkedHashMap<>();
    for (RunResult r : results) {
      String key = r.getParams().getParam("query") + " " + r.getParams().getParam("mode");
      times.put(key, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError(),
          r.getPrimaryResult().getStatistics().getMin(), r.getPrimaryResult().getStatistics().getMax()});
    }
    Map<String, LineitemCounters> counters = new LinkedHashMap<>();
    for (String line : Files.readAllLines(countersFile, StandardCharsets.UTF_8)) {
      LineitemCounters c = LineitemCounters.parse(line);
      if (c != null) {
        counters.put(c.query + " " + c.mode, c);
      }
    }
    Files.deleteIfExists(countersFile);

    out.println();
    out.println("## lineitem, sf " + workload.scaleFactor());
    for (String load : loads) {
      out.println("- " + load);
    }
    out.printf(Locale.ROOT, "- JVM %s (%s), %d processors; JMH: %d fork(s), %d warmup and %d measurement "
            + "iterations of %d s; average time per query in microseconds (± 99.9%% interval; lowest and highest "
            + "iteration)%n", System.getProperty("java.vm.version"), System.getProperty("java.vm.name"),
        Runtime.getRuntime().availableProcessors(), forks, warmup, iterations, seconds);
    out.println("- per query (/q): engine counters over the measurement iterations divided by the queries run; "
        + "matching rows and range rows from the generator for the same parameter sets");
    out.println();
    out.println("| query | mode | µs/query | rows fetched/q | index entries read/q | ICP attempts/q | ICP matches/q "
        + "| matching rows/q | l_partkey+l_quantity range rows/q | fetched / matching | entries read / matching |");
    out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    List<String> missing = new ArrayList<>();
    for (String q : queries) {
      for (String m : modes) {
        String key = q + " " + m;
        double[] t = times.get(key);
        LineitemCounters c = counters.get(key);
        String time = t == null ? "not measured" : String.format(Locale.ROOT, "%,.1f ± %,.1f (%,.1f–%,.1f)",
            t[0], t[1], t[2], t[3]);
        if (t == null) {
          missing.add(key);
        }
        if (c == null) {
          out.printf("| %s | %s | %s | | | | | | | | |%n", q, m, time);
          continue;
        }
        out.printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", q, m, time,
            LineitemCounters.num(c.rowsFetchedPerQuery()), LineitemCounters.num(c.entriesReadPerQuery()),
            LineitemCounters.num(c.icpAttemptsPerQuery()), LineitemCounters.num(c.icpMatchesPerQuery()),
            LineitemCounters.num(c.matchingPerQuery()), LineitemCounters.num(c.candidatesPerQuery()),
            LineitemCounters.num(c.fetchedPerMatching()), LineitemCounters.num(c.entriesPerMatching()));
      }
    }
    if (!missing.isEmpty()) {
      out.println();
      out.println("Not measured (the benchmark failed, or its first query took longer than " + preflight
          + " s; see the JMH output above): " + String.join(", ", missing));
    }
    out.println();
    out.println("Ratios (time of the mode / time of icp; rows fetched by noicp / rows fetched by icp):");
    out.println();
    out.println("| query | icp µs | noicp / icp | fullscan / icp | postgres / icp | rows fetched noicp / icp |");
    out.println("|---|---:|---:|---:|---:|---:|");
    for (String q : queries) {
      double icp = time(times, q, "icp");
      LineitemCounters ci = counters.get(q + " icp");
      LineitemCounters cn = counters.get(q + " noicp");
      double fetched = ci == null || cn == null ? Double.NaN : cn.rowsFetched / cn.queries / (ci.rowsFetched / ci.queries);
      out.printf("| %s | %s | %s | %s | %s | %s |%n", q,
          Double.isNaN(icp) ? "n/a" : String.format(Locale.ROOT, "%,.1f", icp),
          ratio(time(times, q, "noicp"), icp), ratio(time(times, q, "fullscan"), icp),
          ratio(time(times, q, "postgres"), icp), ratio(fetched, 1));
    }
    return 0;
  }

  private static double time(Map<String, double[]> times, String query, String mode) {
    double[] t = times.get(query + " " + mode);
    return t == null ? Double.NaN : t[0];
  }

  static String ratio(double a, double b) {
    double r = a / b;
    if (Double.isNaN(r) || Double.isInfinite(r)) {
      return "n/a";
    }
    if (r >= 100) {
      return String.format(Locale.ROOT, "%,.0f", r);
    }
    if (r >= 1) {
      return String.format(Locale.ROOT, "%.2f", r);
    }
    return String.format(Locale.ROOT, "%.3g", r);
  }
}
