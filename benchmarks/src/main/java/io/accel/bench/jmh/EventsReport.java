package io.accel.bench.jmh;

import io.accel.bench.workload.Events;
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
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@link EventsBenchmark} (P1, paging) at one size through JMH's runner and prints Markdown: (a) one
 * kind's whole result through a cursor of fetch size 1,000, Accel against PostgreSQL (reads/s, rows/s, p50
 * and p99 in milliseconds, from a throughput and a sampled-time trial each); (b) a walk of consecutive
 * pages {@code LIMIT 1000 OFFSET k} in modes {@code accel}, {@code nocursorcache} and {@code postgres}
 * (walks/s and pages/s, and the median latency of the walk's first and last page from the forks, through a
 * file, with their ratio); then the ratios between the modes side by side.
 *
 * <p>The walks are slow without a cursor cache (every page skips all the rows before it: about 31 million
 * rows per walk of 249 pages at the full size), so they run as a second JMH pass with their own iteration
 * settings ({@code --walk-warmup}, default 1, {@code --walk-iterations}, default 3, {@code --walk-time},
 * default 5 s: each iteration takes at least one whole walk). The data are loaded (or found) before JMH
 * starts, so no fork pays for a load. The exit status is 1 when a configuration was not measured (its trial
 * failed, e.g. a mode returned other rows than the generator's).
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.EventsReport --size full
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.EventsReport --size small \
 *     --warmup 1 --time 1s --iterations 2 --walk-warmup 1 --walk-time 1s --walk-iterations 2
 * </pre>
 */
@Command(name = "events-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the events JMH benchmark (P1 in pages of 1,000 rows: one kind through a cursor, Accel "
        + "and PostgreSQL; a walk of LIMIT 1000 OFFSET k pages, Accel with and without its cursor cache and "
        + "PostgreSQL) and prints throughput, latency and the ratios side by side."})
public final class EventsReport implements Callable<Integer> {
  @Option(names = "--size", paramLabel = "SIZE",
      description = "full (1,000,000 rows), small (100,000) or a number of rows (default: ${DEFAULT-VALUE})")
  String size = "full";

  @Option(names = "--modes", split = ",", paramLabel = "MODE",
      description = "accel, nocursorcache, postgres (default: ${DEFAULT-VALUE}); the cursor read runs in accel and postgres")
  List<String> modes = new ArrayList<>(EventsBenchmark.MODES);

  @Option(names = "--parts", split = ",", paramLabel = "PART",
      description = "read (one kind through a cursor), walk (LIMIT/OFFSET pages) (default: ${DEFAULT-VALUE})")
  List<String> parts = new ArrayList<>(List.of("read", "walk"));

  @Option(names = "--pages", paramLabel = "N",
      description = "pages per walk, at most the full pages of the smallest kind (default: ${DEFAULT-VALUE})")
  int pages = 1_000;

  @Option(names = "--warmup", paramLabel = "N", description = "warmup iterations of the read (default: ${DEFAULT-VALUE})")
  int warmup = 3;

  @Option(names = "--iterations", paramLabel = "N",
      description = "measurement iterations of the read (default: ${DEFAULT-VALUE})")
  int iterations = 5;

  @Option(names = "--time", paramLabel = "TIME",
      description = "time per iteration of the read, e.g. 4s, 500ms (default: ${DEFAULT-VALUE})")
  String time = "4s";

  @Option(names = "--walk-warmup", paramLabel = "N", description = "warmup iterations of the walk (default: ${DEFAULT-VALUE})")
  int walkWarmup = 1;

  @Option(names = "--walk-iterations", paramLabel = "N",
      description = "measurement iterations of the walk (default: ${DEFAULT-VALUE})")
  int walkIterations = 3;

  @Option(names = "--walk-time", paramLabel = "TIME",
      description = "time per iteration of the walk; each takes at least one walk (default: ${DEFAULT-VALUE})")
  String walkTime = "5s";

  @Option(names = "--forks", paramLabel = "N", description = "JMH forks per configuration (default: ${DEFAULT-VALUE})")
  int forks = 1;

  private final PrintStream out;

  public EventsReport() {
    this(System.out);
  }

  EventsReport(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new EventsReport());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  /** The measured walks of one mode: how many, and the medians of their first and last page's time. */
  record WalkTimes(int walks, double firstPageNanos, double lastPageNanos) {
  }

  @Override
  public Integer call() throws Exception {
    Events workload = EventsBenchmark.workload(size);
    for (String m : modes) {
      if (!m.equals("postgres")) {
        EventsBenchmark.accelProperties(m);
      }
    }
    for (String part : parts) {
      if (!part.equals("read") && !part.equals("walk")) {
        throw new IllegalArgumentException("unknown part \"" + part + "\"; expected read or walk");
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
    Map<String, Long> kinds = workload.kindCounts();
    int walkPages = EventsBenchmark.walkPages(workload, pages);
    List<String> plans = plans(workload, walkPages);

    List<String> readModes = modes.stream().filter(EventsBenchmark.READ_MODES::contains).toList();
    StraddleReport.Pass readPass = new StraddleReport.Pass(readModes, warmup, TimeValue.fromString(time), iterations,
        TimeValue.fromString(time));
    StraddleReport.Pass walkPass = new StraddleReport.Pass(modes, walkWarmup, TimeValue.fromString(walkTime),
        walkIterations, TimeValue.fromString(walkTime));
    boolean read = parts.contains("read") && !readModes.isEmpty();
    boolean walk = parts.contains("walk") && !modes.isEmpty();
    Map<String, StraddleReport.Measured> reads = Map.of();
    Map<String, StraddleReport.Measured> walks = Map.of();
    Map<String, WalkTimes> pageTimes = Map.of();
    if (read) {
      ChainedOptionsBuilder options = new OptionsBuilder()
          .include(EventsBenchmark.class.getName() + ".readKind")
          .param("size", size)
          .param("pages", Integer.toString(pages))
          .param("mode", readModes.toArray(new String[0]));
      reads = StraddleReport.measured(StraddleReport.run(options, readPass, forks, StraddleReport.jvmArgs()), "size");
    }
    if (walk) {
      Path times = Files.createTempFile("events-page-times", ".tsv");
      try {
        ChainedOptionsBuilder options = new OptionsBuilder()
            .include(EventsBenchmark.class.getName() + ".walk")
            .param("size", size)
            .param("pages", Integer.toString(pages))
            .param("mode", modes.toArray(new String[0]));
        walks = StraddleReport.measured(StraddleReport.run(options, walkPass, forks,
            StraddleReport.jvmArgs("-D" + EventsBenchmark.PAGE_TIMES_PROPERTY + "=" + times)), "size");
        pageTimes = walkTimes(times);
      } finally {
        Files.deleteIfExists(times);
      }
    }

    out.println();
    out.printf(Locale.ROOT, "## events: P1 in pages of %,d rows, %,d rows, %d kinds%n", Events.PAGE_SIZE,
        workload.rows(), Events.KIND_COUNT);
    for (String load : loads) {
      out.println("- " + load);
    }
    out.println("- kinds: " + String.join(", ", kinds.entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "%s %,d rows", e.getKey(), e.getValue())).toList()));
    out.println("- " + StraddleReport.machine());
    if (read) {
      out.printf(Locale.ROOT, "- JMH, read (%s): %d fork(s), %d warmup iteration(s) and %d measurement iteration(s) "
              + "of %s; throughput and sampled time per read are separate trials%n", String.join(", ", readModes),
          forks, readPass.warmup(), readPass.iterations(), readPass.time());
    }
    if (walk) {
      out.printf(Locale.ROOT, "- JMH, walk (%s): %d fork(s), %d warmup iteration(s) and %d measurement iteration(s) "
              + "of %s (at least one walk each); throughput%n", String.join(", ", modes), forks, walkPass.warmup(),
          walkPass.iterations(), walkPass.time());
    }
    List<String> urls = new ArrayList<>();
    for (String m : modes) {
      urls.add(m + (m.equals("postgres") ? " (PostgreSQL, pgJDBC)" : m.equals("accel") ? " (Accel's defaults)"
          : " `" + EventsBenchmark.accelProperties(m) + "`"));
    }
    out.println("- modes: " + String.join(", ", urls) + "; `nocursorcache` equals `accel` on an engine "
        + "build that does not know `cursorCacheSize` (it ignores unknown properties)");
    for (String plan : plans) {
      out.println("- " + plan);
    }
    List<String> missing = new ArrayList<>();
    if (read) {
      double rowsPerRead = (double) workload.rows() / Events.KIND_COUNT;
      out.println();
      out.printf(Locale.ROOT, "### (a) one kind's whole result through a cursor, fetch size %,d (about %,.0f rows a read)%n",
          Events.PAGE_SIZE, rowsPerRead);
      out.println();
      out.println("`" + Events.P1 + "`; Accel: `Statement.setFetchSize(1000)`; PostgreSQL: the same, auto-commit off "
          + "(a portal fetched 1,000 rows at a time).");
      out.println();
      out.println("| mode | reads/s | rows/s | p50 ms | p99 ms | mean ms (sampled) | samples |");
      out.println("|---|---:|---:|---:|---:|---:|---:|");
      for (String m : readModes) {
        StraddleReport.Measured r = reads.get(size + " " + m);
        if (r == null) {
          missing.add("read " + m);
          out.printf("| %s | not measured | | | | | |%n", m);
          continue;
        }
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %,d |%n", m,
            StraddleReport.withError(r.opsPerSecond(), r.opsError()),
            StraddleReport.number(r.opsPerSecond() * rowsPerRead), millis(r.p50Micros()), millis(r.p99Micros()),
            millis(r.meanMicros()), r.samples());
      }
      out.println();
      out.println("| accel reads/s ÷ postgres reads/s | postgres p50 ÷ accel p50 |");
      out.println("|---:|---:|");
      out.printf("| %s | %s |%n", LineitemReport.ratio(ops(reads, "accel"), ops(reads, "postgres")),
          LineitemReport.ratio(p50(reads, "postgres"), p50(reads, "accel")));
    }
    if (walk) {
      out.println();
      out.printf(Locale.ROOT, "### (b) a walk of pages 1..%d, `LIMIT %d OFFSET k` for k = 0, %,d, ..., %,d%n", walkPages,
          Events.PAGE_SIZE, Events.PAGE_SIZE, Events.offset(walkPages));
      out.println();
      out.println("`" + Events.P1_PAGE + "`, one prepared statement re-executed, one kind per walk (cycled)"
          + (walkPages < pages ? String.format(Locale.ROOT, "; %d pages, not %d: the smallest kind has %d full pages",
          walkPages, pages, walkPages) : "") + ".");
      out.println();
      out.printf(Locale.ROOT, "| mode | walks/s | pages/s | s per walk | page 1 ms (median) | page %d ms (median) "
          + "| page %d ÷ page 1 | walks timed |%n", walkPages, walkPages);
      out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (String m : modes) {
        StraddleReport.Measured r = walks.get(size + " " + m);
        WalkTimes t = pageTimes.get(m);
        String timed = t == null ? "not reported | | | " : String.format(Locale.ROOT, "%s | %s | %s | %,d",
            StraddleReport.number(t.firstPageNanos() / 1e6), StraddleReport.number(t.lastPageNanos() / 1e6),
            LineitemReport.ratio(t.lastPageNanos(), t.firstPageNanos()), t.walks());
        if (r == null) {
          missing.add("walk " + m);
          out.printf("| %s | not measured | | | %s |%n", m, timed);
          continue;
        }
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", m,
            StraddleReport.withError(r.opsPerSecond(), r.opsError()),
            StraddleReport.withError(r.opsPerSecond() * walkPages, r.opsError() * walkPages),
            StraddleReport.number(1 / r.opsPerSecond()), timed);
      }
      out.println();
      out.printf(Locale.ROOT, "| accel ÷ nocursorcache pages/s | accel ÷ postgres pages/s | nocursorcache page %d "
          + "÷ accel page %d | postgres page %d ÷ accel page %d |%n", walkPages, walkPages, walkPages, walkPages);
      out.println("|---:|---:|---:|---:|");
      out.printf("| %s | %s | %s | %s |%n",
          LineitemReport.ratio(ops(walks, "accel"), ops(walks, "nocursorcache")),
          LineitemReport.ratio(ops(walks, "accel"), ops(walks, "postgres")),
          LineitemReport.ratio(lastPage(pageTimes, "nocursorcache"), lastPage(pageTimes, "accel")),
          LineitemReport.ratio(lastPage(pageTimes, "postgres"), lastPage(pageTimes, "accel")));
    }
    if (!missing.isEmpty()) {
      out.println();
      out.println("Not measured (the trial failed; see the JMH output above): " + String.join(", ", missing));
    }
    return missing.isEmpty() ? 0 : 1;
  }

  /** Whether Accel's plans of P1 and of the walk's last page read through the index (EXPLAIN). */
  private List<String> plans(Events workload, int lastPage) throws SQLException {
    List<String> plans = new ArrayList<>();
    String accelMode = modes.stream().filter(m -> !m.equals("postgres")).findFirst().orElse(null);
    if (accelMode == null) {
      return plans;
    }
    String kind = Events.KINDS.get(0);
    // Closed before JMH starts: the forks need the store's lock.
    try (Connection c = EventsBenchmark.open(workload, accelMode)) {
      String p1 = StraddleBenchmark.explain(c, Events.P1, new Object[] {kind});
      String page = StraddleBenchmark.explain(c, Events.P1_PAGE, new Object[] {kind, Events.offset(lastPage)});
      out.println("P1 plan for " + kind + ":");
      out.println(p1);
      out.println("P1 page " + lastPage + " plan for " + kind + ":");
      out.println(page);
      plans.add("plans (Accel): P1 " + usesIndex(p1) + "; page " + lastPage + " " + usesIndex(page));
    }
    return plans;
  }

  private static String usesIndex(String plan) {
    return (plan.contains(EventsBenchmark.INDEX) ? "uses " : "does NOT use ") + EventsBenchmark.INDEX;
  }

  /** The forks' measured walks per mode: their count and the medians of their first and last page's time. */
  private static Map<String, WalkTimes> walkTimes(Path file) throws IOException {
    Map<String, List<long[]>> byMode = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] f = line.split("\t");
      if (f.length < 5) {
        continue;
      }
      byMode.computeIfAbsent(f[0], m -> new ArrayList<>())
          .add(new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
    }
    Map<String, WalkTimes> times = new LinkedHashMap<>();
    byMode.forEach((mode, walks) -> times.put(mode, new WalkTimes(walks.size(),
        EventsBenchmark.median(walks.stream().mapToLong(w -> w[0]).toArray()),
        EventsBenchmark.median(walks.stream().mapToLong(w -> w[1]).toArray()))));
    return times;
  }

  private double ops(Map<String, StraddleReport.Measured> m, String mode) {
    StraddleReport.Measured r = m.get(size + " " + mode);
    return r == null ? Double.NaN : r.opsPerSecond();
  }

  private double p50(Map<String, StraddleReport.Measured> m, String mode) {
    StraddleReport.Measured r = m.get(size + " " + mode);
    return r == null ? Double.NaN : r.p50Micros();
  }

  private static double lastPage(Map<String, WalkTimes> times, String mode) {
    WalkTimes t = times.get(mode);
    return t == null ? Double.NaN : t.lastPageNanos();
  }

  private static String millis(double micros) {
    return StraddleReport.number(micros / 1e3);
  }
}
