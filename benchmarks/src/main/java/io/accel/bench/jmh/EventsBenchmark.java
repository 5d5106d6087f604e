package io.accel.bench.jmh;

import io.accel.bench.workload.Events;
import io.accel.bench.workload.WorkloadData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The {@code events} workload (DATASETS.md, paging): P1, one kind's events in id order, read in pages of
 * 1,000 rows, the kind the next of the four on every invocation (cycled). Two benchmarks:
 * <ul>
 *   <li>{@link #readKind}: P1's whole result for one kind (about 250,000 rows at the full size) through one
 *       cursor with {@code Statement.setFetchSize(1000)}; PostgreSQL's connection has auto-commit off, so
 *       pgJDBC fetches through a portal 1,000 rows at a time (with auto-commit on it reads the whole result
 *       at once). Throughput and sampled time per read, in milliseconds.
 *   <li>{@link #walk}: a walk of consecutive pages {@code LIMIT 1000 OFFSET k}, k = 0, 1000, 2000, ...
 *       ({@link Events#P1_PAGE}, one prepared statement re-executed, every page read and closed before the
 *       next), {@code pages} of them (default 1,000) but no more than every kind has in full
 *       ({@link Events#fullPagesPerKind()}: 249 at the full size, whose kinds hold about 250,000 rows each).
 *       Throughput in walks per second (pages per second: times the walk's pages). Each walk also times its
 *       first and last page; the trial prints their medians over the measured walks and, with system
 *       property {@value #PAGE_TIMES_PROPERTY} naming a file, appends every measured walk's times there,
 *       for {@link EventsReport}.
 * </ul>
 *
 * <p>Parameters: {@code size} {@code full} (1,000,000 rows), {@code small} (100,000) or a number of rows;
 * {@code pages} the walk's length; {@code mode}:
 * <ul>
 *   <li>{@code accel}: Accel with its defaults (its cursor cache, once the engine has one, can resume page k
 *       + 1 where page k stopped);
 *   <li>{@code nocursorcache}: Accel with {@code ?cursorCacheSize=0}: every page skips its OFFSET rows
 *       afresh. Until the engine knows {@code cursorCacheSize} it ignores it, and this mode is the same
 *       engine as {@code accel};
 *   <li>{@code postgres}: PostgreSQL over loopback (pgJDBC, the same data and index).
 * </ul>
 * {@link EventsReport} runs {@code readKind} in modes {@code accel} and {@code postgres} and {@code walk}
 * in all three.
 *
 * <p>Data: {@link WorkloadData} loads each size once into {@code target/bench-data/events-<rows>} and
 * PostgreSQL schema {@code events_<rows>} (the trial's setup loads what is missing; the report loads it
 * ahead). The first connection to an Accel store in a JVM fixes the store's options for every later one,
 * so the trial opens the measured mode's connection first. Before measuring, the setup prints Accel's plans
 * of both statements and checks every mode (PostgreSQL left out, with a note, when it is unreachable and
 * not measured) against P1 evaluated on the generator, failing the trial on any difference: pages 1, 2 and
 * the walk's last page of the first kind through {@code LIMIT 1000 OFFSET k}, and that kind's whole result
 * through the cursor with fetch size 1,000 (its rows and a SHA-256 of them, {@link Events.Digest}). Every
 * mode is checked against the same truth, so all modes return the same rows.
 *
 * <p>Run from the shaded jar (from {@code /work/main}, where {@code target/bench-data} is):
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Events -p size=full
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main EventsBenchmark.walk -p size=small -wi 1 -w 1s -i 2 -r 1s
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main EventsBenchmark.readKind -p mode=accel,postgres -bm sample
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
public class EventsBenchmark {
  /** A file each walk trial appends its measured walks to: mode, pages, first page, last page and walk nanoseconds. */
  public static final String PAGE_TIMES_PROPERTY = "accel.bench.pageTimes";
  public static final List<String> MODES = List.of("accel", "nocursorcache", "postgres");
  /** The modes of {@link #readKind} in {@link EventsReport}: the cursor cache plays no part in one read. */
  public static final List<String> READ_MODES = List.of("accel", "postgres");
  /** The index P1 should read a kind through. */
  public static final String INDEX = "events_kind";

  @Param({"accel", "nocursorcache", "postgres"})
  public String mode;

  @Param("full")
  public String size;

  @Param("1000")
  public int pages;

  private Connection connection;
  private PreparedStatement statement;
  private boolean commitEachRead;
  private int walkPages;
  private int next;
  private boolean measuring;
  private final List<long[]> walkTimes = new ArrayList<>();

  /** The workload of a {@code size}: {@code full}, {@code small} or a number of rows. */
  public static Events workload(String size) {
    switch (size.toLowerCase(Locale.ROOT)) {
      case "full":
        return new Events();
      case "small":
        return new Events(Events.SMALL_ROWS);
      default:
        try {
          return new Events(Long.parseLong(size.replace("_", "")));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("unknown size \"" + size + "\"; expected full, small or a number of rows");
        }
    }
  }

  /** The connection URL suffix of an Accel mode. */
  public static String accelProperties(String mode) {
    switch (mode) {
      case "accel":
        return "";
      case "nocursorcache":
        return "?cursorCacheSize=0";
      default:
        throw new IllegalArgumentException("unknown mode \"" + mode + "\"; expected accel, nocursorcache or postgres");
    }
  }

  /** The pages a walk reads: {@code requested}, but no more than every kind of {@code w} has in full. */
  public static int walkPages(Events w, int requested) {
    if (requested < 1) {
      throw new IllegalArgumentException("a walk needs at least 1 page: " + requested);
    }
    int pages = (int) Math.min(requested, w.fullPagesPerKind());
    if (pages < 1) {
      throw new IllegalArgumentException(w + " has a kind with fewer than " + Events.PAGE_SIZE + " rows: no full page");
    }
    return pages;
  }

  static Connection open(Events w, String mode) throws SQLException {
    if (mode.equals("postgres")) {
      return WorkloadData.openPostgres(WorkloadData.postgresSchema(w));
    }
    return DriverManager.getConnection(WorkloadData.accelUrl(w) + accelProperties(mode));
  }

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws SQLException {
    Events w = workload(size);
    boolean read = params.getBenchmark().endsWith(".readKind");
    if (!mode.equals("postgres")) {
      accelProperties(mode);
    }
    walkPages = walkPages(w, pages);
    if (!read && walkPages < pages) {
      System.out.printf(Locale.ROOT, "NOTE: a walk reads %d pages, not %d: the smallest kind of %s has %d full pages%n",
          walkPages, pages, w, walkPages);
    }
    Map<String, Connection> all = new LinkedHashMap<>();
    try {
      // The measured mode first: its connection opens the store, with its options.
      if (mode.equals("postgres")) {
        WorkloadData.ensurePostgres(w, System.out);
        all.put(mode, open(w, mode));
      } else {
        Connection first = open(w, mode);
        if (WorkloadData.isComplete(first, w)) {
          System.out.println(WorkloadData.accelUrl(w) + ": complete " + w + "; opened first with mode " + mode);
        } else {
          first.close();
          WorkloadData.ensureAccel(w, System.out);
          System.out.println("NOTE: the data was loaded in this fork, whose store was opened by the load first "
              + "(with its default options)");
          first = open(w, mode);
        }
        all.put(mode, first);
      }
      for (String m : MODES) {
        if (m.equals(mode)) {
          continue;
        }
        if (m.equals("postgres")) {
          if (!WorkloadData.postgresReachable(System.out)) {
            System.out.println("NOTE: PostgreSQL left out of the check of the rows");
            continue;
          }
          WorkloadData.ensurePostgres(w, System.out);
        }
        all.put(m, open(w, m));
      }
      printPlans(all, walkPages);
      verify(all, w, walkPages);
      connection = all.remove(mode);
    } finally {
      for (Connection c : all.values()) {
        c.close();
      }
    }
    if (read) {
      statement = connection.prepareStatement(Events.P1);
      statement.setFetchSize(Events.PAGE_SIZE);
      commitEachRead = mode.equals("postgres");
      connection.setAutoCommit(!commitEachRead);
    } else {
      statement = connection.prepareStatement(Events.P1_PAGE);
    }
  }

  /** Prints the first Accel mode's plans of P1 and of its last walked page, and whether they read through {@link #INDEX}. */
  private static void printPlans(Map<String, Connection> all, int lastPage) {
    String kind = Events.KINDS.get(0);
    all.entrySet().stream().filter(e -> !e.getKey().equals("postgres")).findFirst().ifPresent(e -> {
      printPlan(e.getKey(), e.getValue(), "P1", Events.P1, kind);
      printPlan(e.getKey(), e.getValue(), "P1 page " + lastPage, Events.P1_PAGE, kind, Events.offset(lastPage));
    });
  }

  private static void printPlan(String mode, Connection c, String label, String sql, Object... params) {
    try {
      String plan = StraddleBenchmark.explain(c, sql, params);
      System.out.printf("%s %s plan (%s %s):%n%s%n", label, mode, INDEX, plan.contains(INDEX) ? "used" : "NOT used", plan);
    } catch (SQLException e) {
      System.out.println(label + " " + mode + ": EXPLAIN failed: " + e.getMessage());
    }
  }

  /**
   * Throws unless every connection returns P1 as the generator evaluates it, for the first kind: pages 1, 2
   * and {@code lastPage} through {@link Events#P1_PAGE}, and the whole result through a cursor of fetch
   * size 1,000 (compared by {@link Events.Digest}).
   */
  static void verify(Map<String, Connection> all, Events w, int lastPage) throws SQLException {
    String kind = Events.KINDS.get(0);
    long start = System.nanoTime();
    Map<Integer, List<Events.Event>> expected = new LinkedHashMap<>();
    for (int page : new TreeSet<>(List.of(1, Math.min(2, lastPage), lastPage))) {
      expected.put(page, w.p1(kind, Events.offset(page), Events.PAGE_SIZE));
    }
    Events.Digest whole = w.p1Digest(kind);
    double truthSeconds = (System.nanoTime() - start) / 1e9;
    for (Map.Entry<String, Connection> e : all.entrySet()) {
      for (Map.Entry<Integer, List<Events.Event>> page : expected.entrySet()) {
        List<Events.Event> actual = page(e.getValue(), kind, page.getKey());
        if (!actual.equals(page.getValue())) {
          throw new IllegalStateException(String.format(Locale.ROOT, "%s: page %d of %s (OFFSET %d) returns %s, "
                  + "expected %s; %s; not measured", e.getKey(), page.getKey(), kind, Events.offset(page.getKey()),
              digest(actual), digest(page.getValue()), firstDifference(actual, page.getValue())));
        }
      }
      Events.Digest read = readKind(e.getValue(), kind, e.getKey().equals("postgres"));
      if (!read.equals(whole)) {
        throw new IllegalStateException(e.getKey() + ": P1 for " + kind + " with fetch size " + Events.PAGE_SIZE
            + " returns " + read + ", expected " + whole + "; not measured");
      }
    }
    System.out.printf(Locale.ROOT, "verified: %s return the generator's pages %s of %s and its whole result "
            + "(%s) with fetch size %d (generator %.1f s)%n", String.join(", ", all.keySet()), expected.keySet(),
        kind, whole, Events.PAGE_SIZE, truthSeconds);
  }

  private static Events.Digest digest(List<Events.Event> rows) {
    Events.Digester d = new Events.Digester();
    rows.forEach(d::add);
    return d.digest();
  }

  private static String firstDifference(List<Events.Event> actual, List<Events.Event> expected) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      if (!actual.get(i).equals(expected.get(i))) {
        return "row " + (i + 1) + " is " + actual.get(i) + ", expected " + expected.get(i);
      }
    }
    return actual.size() + " rows, expected " + expected.size();
  }

  /** Page {@code page} of P1 for {@code kind}, through {@link Events#P1_PAGE}. */
  static List<Events.Event> page(Connection c, String kind, int page) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(Events.P1_PAGE)) {
      ps.setString(1, kind);
      ps.setLong(2, Events.offset(page));
      List<Events.Event> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(Events.read(rs));
        }
      }
      return rows;
    }
  }

  /**
   * The digest of P1's whole result for {@code kind} read through a cursor with fetch size 1,000; on
   * PostgreSQL inside a transaction, as pgJDBC's cursor fetching requires (auto-commit restored after).
   */
  static Events.Digest readKind(Connection c, String kind, boolean postgres) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    if (postgres) {
      c.setAutoCommit(false);
    }
    try (PreparedStatement ps = c.prepareStatement(Events.P1)) {
      ps.setFetchSize(Events.PAGE_SIZE);
      ps.setString(1, kind);
      Events.Digester digester = new Events.Digester();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          digester.add(Events.read(rs));
        }
      }
      return digester.digest();
    } finally {
      if (postgres) {
        c.commit();
        c.setAutoCommit(autoCommit);
      }
    }
  }

  /** Starts recording walks with the first measurement iteration. */
  @Setup(Level.Iteration)
  public void iteration(IterationParams params) {
    measuring = params.getType() == IterationType.MEASUREMENT;
  }

  private String nextKind() {
    String kind = Events.KINDS.get(next);
    next = next + 1 == Events.KINDS.size() ? 0 : next + 1;
    return kind;
  }

  /** Every column of every row of {@code rs} to the blackhole; the rows read. */
  private static int consume(ResultSet rs, Blackhole bh) throws SQLException {
    int rows = 0;
    while (rs.next()) {
      bh.consume(rs.getLong(1));
      bh.consume(rs.getObject(2, LocalDateTime.class));
      bh.consume(rs.getString(3));
      bh.consume(rs.getString(4));
      rows++;
    }
    return rows;
  }

  /** (a) P1's whole result for the next kind through one cursor, fetch size 1,000. */
  @Benchmark
  public int readKind(Blackhole bh) throws SQLException {
    statement.setString(1, nextKind());
    int rows;
    try (ResultSet rs = statement.executeQuery()) {
      rows = consume(rs, bh);
    }
    if (commitEachRead) {
      connection.commit();
    }
    return rows;
  }

  /** (b) Pages 1 .. walkPages of the next kind through {@code LIMIT 1000 OFFSET k}; every page must be full. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Warmup(iterations = 1, time = 5)
  @Measurement(iterations = 3, time = 5)
  public long walk(Blackhole bh) throws SQLException {
    String kind = nextKind();
    statement.setString(1, kind);
    long start = System.nanoTime();
    long first = 0;
    long last = 0;
    for (int page = 1; page <= walkPages; page++) {
      long pageStart = System.nanoTime();
      statement.setLong(2, Events.offset(page));
      int rows;
      try (ResultSet rs = statement.executeQuery()) {
        rows = consume(rs, bh);
      }
      long nanos = System.nanoTime() - pageStart;
      if (rows != Events.PAGE_SIZE) {
        throw new IllegalStateException(mode + ": page " + page + " of " + kind + " has " + rows + " rows, expected "
            + Events.PAGE_SIZE);
      }
      if (page == 1) {
        first = nanos;
      }
      last = nanos;
    }
    long walk = System.nanoTime() - start;
    if (measuring) {
      walkTimes.add(new long[] {first, last, walk});
    }
    return walk;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException, IOException {
    try {
      if (!walkTimes.isEmpty()) {
        System.out.printf(Locale.ROOT, "%nwalk %s, %d pages, %d walks measured: page 1 median %.3f ms, page %d median "
                + "%.3f ms (page %d / page 1: %.2f), walk median %.3f s%n", mode, walkPages, walkTimes.size(),
            median(0) / 1e6, walkPages, median(1) / 1e6, walkPages, median(1) / median(0), median(2) / 1e9);
        String file = System.getProperty(PAGE_TIMES_PROPERTY);
        if (file != null) {
          StringBuilder lines = new StringBuilder();
          for (long[] t : walkTimes) {
            lines.append(String.join("\t", mode, Integer.toString(walkPages), Long.toString(t[0]),
                Long.toString(t[1]), Long.toString(t[2]))).append(System.lineSeparator());
          }
          Files.writeString(Path.of(file), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        }
      }
    } finally {
      if (statement != null) {
        statement.close();
      }
      if (connection != null) {
        if (commitEachRead) {
          connection.rollback();
        }
        connection.close();
      }
    }
  }

  private double median(int column) {
    return median(walkTimes.stream().mapToLong(t -> t[column]).toArray());
  }

  /** The median of {@code values} (the mean of the middle two of an even count); NaN when empty. */
  static double median(long[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  }
}
