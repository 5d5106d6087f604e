package io.accel.bench.jmh;

import io.accel.bench.workload.Lineitem;
import io.accel.bench.workload.LineitemData;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The whole comparison suite: every workload of DATASETS.md on Accel and on PostgreSQL, each workload in one
 * JMH run with both engines, plus loading and S1 through a plain JDBC loop. Writes {@code summary.md}, the
 * figures as CSV and the charts ({@link Charts}) into {@code benchmarks/results/<size>/}; with
 * {@code --update-results}, also the summary at the top of {@code benchmarks/RESULTS.md}.
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.Compare --size small
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.Compare --size full --update-results
 * </pre>
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs every workload on Accel and PostgreSQL and writes the summary table and charts."})
public final class Compare implements Callable<Integer> {
  static final String SUMMARY_START = "<!-- summary:start (written by io.accel.bench.jmh.Compare) -->";
  static final String SUMMARY_END = "<!-- summary:end -->";

  @Option(names = "--size", paramLabel = "SIZE", description = "small (a few minutes) or full (RESULTS.md)")
  String size = "small";

  @Option(names = "--only", split = ",", paramLabel = "ROW",
      description = "run only these rows (S1, S2, Q1, Q19, SKIP, C1, E1, P1, ADHOC, JOIN10, LOAD, S1-LOOP, S1-PERCALL)")
  List<String> only = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", description = "output directory (default: benchmarks/results/<size>)")
  Path out;

  @Option(names = "--results-file", paramLabel = "FILE", description = "RESULTS.md to update (default: ${DEFAULT-VALUE})")
  Path resultsFile = Path.of("benchmarks/RESULTS.md");

  @Option(names = "--update-results", description = "rewrite the summary block at the top of RESULTS.md")
  boolean updateResults;

  private final PrintStream log = System.out;

  /** One row of the summary: a workload's operation, measured on both engines in one run. */
  record Row(String id, String what, double accelMicros, double postgresMicros, String unit, String before,
      double beforeSpeedup) {
    /** PostgreSQL's time over Accel's: above 1, Accel is faster. */
    double speedup() {
      return unit.equals("rows/s") ? accelMicros / postgresMicros : postgresMicros / accelMicros;
    }
  }

  /** A workload measured by a JMH benchmark method, the Accel and PostgreSQL modes of its {@code mode} parameter. */
  record JmhRow(String id, String what, Class<?> benchmark, String method, Map<String, String> params,
      String accelMode, String before, double beforeSpeedup) {
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new Compare());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  boolean full() {
    return size.equals("full");
  }

  List<JmhRow> jmhRows() {
    String straddle = full() ? "full" : "small";
    String sfSmall = full() ? "0.1" : "0.01";
    String sfQ1 = full() ? "1" : "0.01";
    String employees = full() ? "300024" : "30000";
    return List.of(
        new JmhRow("S1", "straddled join by email (lookup join)", StraddleBenchmark.class, "execute",
            Map.of("query", "S1", "size", straddle), "lookup", "Accel 5.5x faster (JMH); 1.2-1.5x in a plain loop", 5.5),
        new JmhRow("S2", "straddled join, few hundred outer rows", StraddleBenchmark.class, "execute",
            Map.of("query", "S2", "size", straddle), "lookup", "PostgreSQL 4x faster (14 vs 59 ms p50)", 14.0 / 59),
        new JmhRow("Q1", "lineitem half of Q19 (ICP), sf " + sfQ1, LineitemBenchmark.class, "execute",
            Map.of("query", "Q1", "sf", sfQ1), "icp", "about even (37 vs 42 us at sf 1)", 37.0 / 42),
        new JmhRow("Q19", "TPC-H Q19, sf " + sfSmall, LineitemBenchmark.class, "execute",
            Map.of("query", "Q19", "sf", sfSmall), "icp", "PostgreSQL 8x faster (4.7 vs 40 ms at sf 0.1)", 4.7 / 40),
        new JmhRow("SKIP", "skip scan over IN lists, sf " + sfSmall, LineitemBenchmark.class, "execute",
            Map.of("query", "SKIP", "sf", sfSmall), "icp", "", Double.NaN),
        new JmhRow("C1", "hot-city aggregate (row cache)", ClicksBenchmark.class, "execute",
            Map.of("cities", "hot", "size", straddle), "cache", "PostgreSQL 1.5x faster (9.3 vs 13.8 ms p50)", 9.3 / 13.8),
        new JmhRow("E1", "three-way join, " + employees + " employees", EmployeesBenchmark.class, "execute",
            Map.of("scale", employees), "accel", "PostgreSQL 5.8x to 6.9x faster", 1 / 6.3),
        new JmhRow("P1", "one kind's rows through a cursor", EventsBenchmark.class, "readKind",
            Map.of("size", straddle), "accel", "", Double.NaN),
        new JmhRow("ADHOC", "distinct ad-hoc statements (plain Statement)", PlanningBenchmark.class, "adHoc",
            Map.of("tables", "2"), "accel", "PostgreSQL 30x faster (0.38 vs 11.5 ms)", 0.38 / 11.5),
        new JmhRow("JOIN10", "10-table join planned and run (no plan cache)", PlanningBenchmark.class, "joinChain",
            Map.of("tables", "10"), "accel", "6 tables: seconds to plan, tens after other queries", Double.NaN));
  }

  private boolean wanted(String id) {
    return only.isEmpty() || only.stream().anyMatch(o -> o.equalsIgnoreCase(id));
  }

  @Override
  public Integer call() throws Exception {
    if (!size.equals("small") && !size.equals("full")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--size is small or full: " + size);
    }
    if (!WorkloadData.postgresReachable(log)) {
      log.println("PostgreSQL is not reachable (" + LineitemData.postgresUrl() + "): nothing to compare against");
      return 2;
    }
    Path dir = out != null ? out : Path.of("benchmarks", "results", size);
    Files.createDirectories(dir);
    List<Row> rows = new ArrayList<>();
    for (JmhRow r : jmhRows()) {
      if (wanted(r.id())) {
        rows.add(runJmh(r));
        writeAll(dir, rows);
      }
    }
    if (wanted("S1-LOOP")) {
      rows.add(plainLoopS1(false));
      writeAll(dir, rows);
    }
    if (wanted("S1-PERCALL")) {
      rows.add(plainLoopS1(true));
      writeAll(dir, rows);
    }
    if (wanted("LOAD")) {
      rows.add(loading());
      writeAll(dir, rows);
    }
    String summary = summary(rows, "results/" + size + "/");
    log.println(summary);
    if (updateResults) {
      updateResults(summary);
    }
    return 0;
  }

  private Row runJmh(JmhRow r) throws Exception {
    boolean fullSize = full();
    ChainedOptionsBuilder o = new OptionsBuilder()
        .include(Pattern.quote(r.benchmark().getName()) + "\\." + r.method() + "$")
        .mode(Mode.AverageTime)
        .timeUnit(TimeUnit.MICROSECONDS)
        .forks(1)
        .warmupIterations(fullSize ? 2 : 1)
        .warmupTime(TimeValue.seconds(fullSize ? 5 : 2))
        .measurementIterations(fullSize ? 5 : 3)
        .measurementTime(TimeValue.seconds(fullSize ? 5 : 2))
        .shouldFailOnError(true)
        .param("mode", r.accelMode(), "postgres");
    for (Map.Entry<String, String> p : r.params().entrySet()) {
      o.param(p.getKey(), p.getValue());
    }
    Collection<RunResult> results = new Runner(o.build()).run();
    double accel = Double.NaN;
    double postgres = Double.NaN;
    for (RunResult result : results) {
      double score = result.getPrimaryResult().getScore();
      if (result.getParams().getParam("mode").equals("postgres")) {
        postgres = score;
      } else {
        accel = score;
      }
    }
    return new Row(r.id(), r.what(), accel, postgres, "us", r.before(), r.beforeSpeedup());
  }

  /**
   * S1 as a user measures it: a prepared statement, a random email each time, one thread, no JMH; the median
   * of each engine's executions (rows read to the end). {@code perCall}: the statement prepared and closed for
   * each execution, as JdbcTemplate, Spring Data and ORMs do.
   */
  private Row plainLoopS1(boolean perCall) throws SQLException {
    Straddle w = StraddleBenchmark.workload(full() ? "full" : "small");
    WorkloadData.ensureAccel(w, log);
    WorkloadData.ensurePostgres(w, log);
    int warmup = 20_000;
    int measured = full() ? 50_000 : 20_000;
    double accel;
    double postgres;
    try (Connection a = StraddleBenchmark.open(w, "lookup"); Connection p = StraddleBenchmark.open(w, "postgres")) {
      accel = loopMedian(a, w, warmup, measured, perCall);
      postgres = loopMedian(p, w, warmup, measured, perCall);
    }
    return perCall
        ? new Row("S1-PERCALL", "S1 prepared per call in a plain loop (p50)", accel, postgres, "us", "", Double.NaN)
        : new Row("S1-LOOP", "S1 through a plain JDBC loop (p50)", accel, postgres, "us",
            "PostgreSQL 55-62 us vs Accel 38-51 us p50 (1.2-1.5x)", 58.0 / 44);
  }

  private static double loopMedian(Connection c, Straddle w, int warmup, int measured, boolean perCall)
      throws SQLException {
    Random random = new Random(7);
    long[] times = new long[measured];
    String sql = StraddleBenchmark.sql("S1");
    PreparedStatement kept = perCall ? null : c.prepareStatement(sql);
    try {
      for (int i = 0; i < warmup + measured; i++) {
        long start = System.nanoTime();
        PreparedStatement ps = perCall ? c.prepareStatement(sql) : kept;
        StraddleBenchmark.bind(ps, StraddleBenchmark.parameters(w, "S1", random.nextInt(StraddleBenchmark.PARAMETER_SETS)));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getLong(1);
            rs.getString(2);
            rs.getLong(3);
            rs.getBigDecimal(4);
          }
        }
        if (perCall) {
          ps.close();
        }
        if (i >= warmup) {
          times[i - warmup] = System.nanoTime() - start;
        }
      }
    } finally {
      if (kept != null) {
        kept.close();
      }
    }
    Arrays.sort(times);
    return times[measured / 2] / 1e3;
  }

  /** Loading lineitem (rows/s): Accel through JDBC batches into a new store, PostgreSQL through COPY. */
  private Row loading() throws SQLException, IOException {
    Lineitem w = new Lineitem(full() ? "1" : "0.01");
    Path store = Files.createTempDirectory("accel-compare-load");
    String schema = "accel_compare_load";
    try {
      LineitemData.Outcome accel = LineitemData.ensureAccel(w, LineitemData.accelUrl(store), log);
      LineitemData.Outcome postgres = LineitemData.ensurePostgres(w, schema, log);
      return new Row("LOAD", "loading lineitem sf " + w.scaleFactor() + " with its index (rows/s)",
          accel.rowsPerSecond(), postgres.rowsPerSecond(), "rows/s",
          "Accel 10,000-20,000 rows/s vs COPY 175,000 rows/s", 15_000.0 / 175_000);
    } finally {
      try (Connection c = LineitemData.openPostgres("public"); Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
      deleteTree(store);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void writeAll(Path dir, List<Row> rows) throws IOException {
    StringBuilder csv = new StringBuilder("id,what,accel,postgres,unit,speedup\n");
    for (Row r : rows) {
      csv.append(String.format(Locale.ROOT, "%s,\"%s\",%.3f,%.3f,%s,%.3f%n", r.id(), r.what(), r.accelMicros(),
          r.postgresMicros(), r.unit(), r.speedup()));
    }
    Files.writeString(dir.resolve("results.csv"), csv, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("summary.md"), summary(rows, ""), StandardCharsets.UTF_8);
    Charts.write(dir, size, rows);
  }

  /** The summary table; {@code links} is where the charts are, relative to the file it goes in. */
  String summary(List<Row> rows, String links) {
    StringBuilder b = new StringBuilder();
    b.append("Measured ").append(LocalDate.now()).append(", size ").append(size).append(": `java -cp ")
        .append("benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.Compare --size ").append(size)
        .append("`. Charts, written by that command (not kept in git): [latency](").append(links)
        .append("latency.png), [speed-up](").append(links).append("speedup.png).\n\n");
    b.append("| workload | what | Accel | PostgreSQL | ratio | before issue 14 |\n|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      b.append("| ").append(r.id()).append(" | ").append(r.what()).append(" | ")
          .append(format(r.accelMicros(), r.unit())).append(" | ").append(format(r.postgresMicros(), r.unit()))
          .append(" | ").append(ratio(r)).append(" | ").append(r.before()).append(" |\n");
    }
    return b.toString();
  }

  static String ratio(Row r) {
    double s = r.speedup();
    if (Double.isNaN(s)) {
      return "n/a";
    }
    return s >= 1 ? String.format(Locale.ROOT, "**Accel %.1fx faster**", s)
        : String.format(Locale.ROOT, "PostgreSQL %.1fx faster", 1 / s);
  }

  static String format(double v, String unit) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (unit.equals("rows/s")) {
      return String.format(Locale.ROOT, "%,.0f rows/s", v);
    }
    if (v >= 1_000) {
      return String.format(Locale.ROOT, "%,.2f ms", v / 1e3);
    }
    return String.format(Locale.ROOT, "%,.1f us", v);
  }

  void updateResults(String summary) throws IOException {
    String text = Files.readString(resultsFile, StandardCharsets.UTF_8);
    String block = SUMMARY_START + "\n" + summary + SUMMARY_END;
    int start = text.indexOf(SUMMARY_START);
    int end = text.indexOf(SUMMARY_END);
    if (start >= 0 && end > start) {
      text = text.substring(0, start) + block + text.substring(end + SUMMARY_END.length());
    } else {
      int firstSection = text.indexOf("\n## ");
      int at = firstSection < 0 ? text.length() : firstSection + 1;
      text = text.substring(0, at) + "## Summary\n\n" + block + "\n\n" + text.substring(at);
    }
    Files.writeString(resultsFile, text, StandardCharsets.UTF_8);
    log.println("updated " + resultsFile);
  }
}
