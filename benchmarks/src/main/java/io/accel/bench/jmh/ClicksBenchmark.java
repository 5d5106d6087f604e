package io.accel.bench.jmh;

import io.accel.bench.workload.Clicks;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * The {@code clicks} workload (DATASETS.md, Rockset's example of fetching many rows after an index
 * lookup): C1, a city's 100 products of the highest click-through rate, a prepared statement executed once
 * per invocation with the next city of the set (cycled), every row read. C1 reads all of the city's rows
 * (through the index {@code clicks_city}, then the table) and aggregates them, so it measures how fast the
 * engine fetches thousands to hundreds of thousands of rows: what the MVCC row cache is for.
 *
 * <p>Parameters: {@code cities} {@code hot} (the 4 most frequent cities, ranks 1..4: 35% of the rows, about
 * 177,000 rows per query at the full size) or {@code cold} (ranks 101..200: 2,340 rows per query on
 * average); {@code size} {@code full} (2,000,000 rows), {@code small} (200,000) or a number of rows;
 * {@code mode}, every Accel mode with a 2 GB RocksDB block cache ({@code blockCacheSize=2GB}, larger than
 * the whole store, so the warmup leaves every block in memory):
 * <ul>
 *   <li>{@code cache}: Accel with a row cache of 1 GB ({@code rowCacheSize=1GB}), which holds the working
 *       set of either city set;
 *   <li>{@code nocache}: Accel without a row cache ({@code rowCacheSize=0}): every row decoded from
 *       RocksDB's blocks;
 *   <li>{@code tiny}: Accel with a row cache of 4 MB ({@code rowCacheSize=4MB}), far smaller than the
 *       working set, so it (almost) never hits: the cost of the cache where it does not help;
 *   <li>{@code postgres}: PostgreSQL over loopback (pgJDBC) on the same data and index.
 * </ul>
 * Until the engine knows {@code rowCacheSize} it ignores it, and the three Accel modes are the same engine.
 *
 * <p>Two benchmark modes, each its own trial: {@code thrpt} (operations per millisecond) and
 * {@code sample} (every sampled operation's time; JMH prints p0.50, p0.99 etc.). {@link ClicksReport} runs
 * both and prints ops/s, p50, p99 and the ratios side by side.
 *
 * <p>The first connection to an Accel store in a JVM fixes the store's options (its caches) for every
 * later one, so the trial opens the measured mode's connection before any other, and checks the data
 * through it. Micrometer's registry is installed before that, and after the trial the setup prints the row
 * cache's hits, misses and bytes during the measurement iterations ({@code row cache meters not present}
 * on an engine without them); with system property {@value #ROW_CACHE_STATS_PROPERTY} naming a file it
 * also appends them there, for the report.
 *
 * <p>Data: {@link WorkloadData} loads each size once into {@code target/bench-data/clicks-<rows>} and
 * PostgreSQL schema {@code clicks_<rows>} (missing data is loaded by the trial's setup, which takes minutes
 * at the full size; {@link BenchData} or the report load it ahead). Before measuring, the setup prints the
 * plan of C1 for the set's first and last city and runs C1 for every city of the set (at most system
 * property {@value #VERIFY_PROPERTY} of them), failing the trial unless each result is C1 as evaluated on
 * the generator ({@link Clicks#c1Mismatch}: the same rates, within a relative 1e-9, and the same products
 * up to ties at the cut). Every mode is checked against the same truth, so all modes return the same rows.
 *
 * <p>Run from the shaded jar (from {@code /work/main}, where {@code target/bench-data} is):
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Clicks -p size=full
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Clicks -p size=small -wi 1 -w 1s -i 2 -r 1s
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main Clicks -p cities=hot -p mode=cache,nocache -bm sample
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx8g")
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
public class ClicksBenchmark {
  public static final String VERIFY_PROPERTY = "accel.bench.verifyCities";
  /** A file each Accel trial appends its row cache line to: cities, mode, benchmark mode, hits, misses, bytes. */
  public static final String ROW_CACHE_STATS_PROPERTY = "accel.bench.rowCacheStats";
  public static final List<String> MODES = List.of("cache", "nocache", "tiny", "postgres");
  public static final List<String> CITY_SETS = List.of("hot", "cold");
  /** The store option of every Accel mode. */
  public static final String BLOCK_CACHE = "blockCacheSize=2GB";
  /** The index C1 should read a city through. */
  public static final String INDEX = "clicks_city";

  @Param({"hot", "cold"})
  public String cities;

  @Param({"cache", "nocache", "tiny", "postgres"})
  public String mode;

  @Param("full")
  public String size;

  private Connection connection;
  private PreparedStatement statement;
  private String[] cityList;
  private int next;
  private long executions;
  private RowCacheMeters rowCache;
  private RowCacheMeters.Snapshot atMeasurement;
  private String benchmarkMode;

  /** The workload of a {@code size}: {@code full}, {@code small} or a number of rows. */
  public static Clicks workload(String size) {
    switch (size.toLowerCase(Locale.ROOT)) {
      case "full":
        return new Clicks();
      case "small":
        return new Clicks(Clicks.SMALL_ROWS);
      default:
        try {
          return new Clicks(Long.parseLong(size.replace("_", "")));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("unknown size \"" + size + "\"; expected full, small or a number of rows");
        }
    }
  }

  /** The cities of a set, in the order the benchmark cycles through them: {@code hot} or {@code cold}. */
  public static List<String> cities(String set) {
    switch (set.toLowerCase(Locale.ROOT)) {
      case "hot":
        return Clicks.cities(1, 4);
      case "cold":
        return Clicks.cities(101, 200);
      default:
        throw new IllegalArgumentException("unknown cities \"" + set + "\"; expected hot or cold");
    }
  }

  /** The ranks of a set's cities, for display: {@code 1..4}. */
  public static String ranks(String set) {
    return set.equalsIgnoreCase("hot") ? "1..4" : "101..200";
  }

  /** The connection URL suffix of an Accel mode. */
  public static String accelProperties(String mode) {
    switch (mode) {
      case "cache":
        return "?" + BLOCK_CACHE + "&rowCacheSize=1GB";
      case "nocache":
        return "?" + BLOCK_CACHE + "&rowCacheSize=0";
      case "tiny":
        return "?" + BLOCK_CACHE + "&rowCacheSize=4MB";
      default:
        throw new IllegalArgumentException("unknown mode \"" + mode + "\"; expected cache, nocache, tiny or postgres");
    }
  }

  /** C1 as {@code mode} spells it. */
  public static String sql(String mode) {
    return mode.equals("postgres") ? Clicks.C1_POSTGRES : Clicks.C1;
  }

  static Connection open(Clicks w, String mode) throws SQLException {
    if (mode.equals("postgres")) {
      return WorkloadData.openPostgres(WorkloadData.postgresSchema(w));
    }
    return DriverManager.getConnection(WorkloadData.accelUrl(w) + accelProperties(mode));
  }

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws SQLException {
    Clicks w = workload(size);
    List<String> list = cities(cities);
    cityList = list.toArray(new String[0]);
    benchmarkMode = params.getMode().shortLabel();
    String sql = sql(mode);
    if (mode.equals("postgres")) {
      WorkloadData.ensurePostgres(w, System.out);
      connection = open(w, mode);
    } else {
      accelProperties(mode);
      rowCache = RowCacheMeters.install(WorkloadData.accelDir(w).toString());
      connection = open(w, mode);
      if (WorkloadData.isComplete(connection, w)) {
        System.out.println(WorkloadData.accelUrl(w) + ": complete " + w + "; opened first with " + accelProperties(mode));
      } else {
        connection.close();
        WorkloadData.ensureAccel(w, System.out);
        System.out.println("NOTE: the data was loaded in this fork, whose store was opened by the load first: "
            + "the row cache meters may describe that store's cache; run again for the row cache figures");
        connection = open(w, mode);
      }
      printPlans(connection, sql, List.of(list.get(0), list.get(list.size() - 1)));
    }
    statement = connection.prepareStatement(sql);
    verify(statement, w, list, Integer.getInteger(VERIFY_PROPERTY, list.size()));
  }

  /** Prints the plan of C1 for each of {@code sample}, and whether it reads the city through {@link #INDEX}. */
  private void printPlans(Connection c, String sql, List<String> sample) {
    for (String city : sample) {
      try {
        String plan = StraddleBenchmark.explain(c, sql, new Object[] {city});
        System.out.printf("C1 %s plan for %s (%s %s):%n%s%n", mode, city, INDEX,
            plan.contains(INDEX) ? "used" : "NOT used", plan);
      } catch (SQLException e) {
        System.out.println("C1 " + mode + " " + city + ": EXPLAIN failed: " + e.getMessage());
      }
    }
  }

  /**
   * Runs C1 through {@code c1} for the first {@code limit} of {@code cities} and throws unless each result
   * is C1 evaluated on the generator (up to ties at the cut, rates within a relative 1e-9).
   */
  static void verify(PreparedStatement c1, Clicks w, List<String> cities, int limit) throws SQLException {
    List<String> checked = cities.subList(0, Math.max(0, Math.min(limit, cities.size())));
    if (checked.isEmpty()) {
      System.out.println("not verified (" + VERIFY_PROPERTY + "=0)");
      return;
    }
    long start = System.nanoTime();
    Map<String, Map<Integer, Double>> truth = w.ctrByProduct(checked);
    double truthSeconds = (System.nanoTime() - start) / 1e9;
    long slowest = 0;
    String slowestCity = null;
    long queries = 0;
    for (String city : checked) {
      long t0 = System.nanoTime();
      List<Clicks.CtrRow> rows = rows(c1, city);
      long nanos = System.nanoTime() - t0;
      queries += nanos;
      if (nanos > slowest) {
        slowest = nanos;
        slowestCity = city;
      }
      Optional<String> wrong = Clicks.c1Mismatch(rows, truth.get(city));
      if (wrong.isPresent()) {
        throw new IllegalStateException("C1 for " + city + " is wrong: " + wrong.get() + "; first rows returned "
            + head(rows) + ", expected " + head(Clicks.c1(truth.get(city))) + "; not measured");
      }
    }
    System.out.printf(Locale.ROOT, "verified: C1 returns the generator's result for %s%s (%d cities; generator "
            + "%.1f s; first executions %.2f s in all, slowest %s %.3f s)%n", checked.get(0),
        checked.size() > 1 ? " .. " + checked.get(checked.size() - 1) : "", checked.size(), truthSeconds,
        queries / 1e9, slowestCity, slowest / 1e9);
  }

  private static List<Clicks.CtrRow> head(List<Clicks.CtrRow> rows) {
    return rows.size() <= 5 ? rows : rows.subList(0, 5);
  }

  /** The rows of one execution of C1 for {@code city}, in the order returned. */
  static List<Clicks.CtrRow> rows(PreparedStatement c1, String city) throws SQLException {
    c1.setString(1, city);
    List<Clicks.CtrRow> rows = new ArrayList<>();
    try (ResultSet rs = c1.executeQuery()) {
      while (rs.next()) {
        rows.add(new Clicks.CtrRow(rs.getInt(1), rs.getDouble(2)));
      }
    }
    return rows;
  }

  /** Notes the row cache meters when the first measurement iteration starts. */
  @Setup(Level.Iteration)
  public void iteration(IterationParams params) {
    if (rowCache != null && atMeasurement == null && params.getType() == IterationType.MEASUREMENT) {
      atMeasurement = rowCache.read();
      executions = 0;
    }
  }

  /** One execution of C1 for the next city; every column of every row goes to the blackhole. */
  @Benchmark
  public int execute(Blackhole bh) throws SQLException {
    int city = next;
    next = city + 1 == cityList.length ? 0 : city + 1;
    executions++;
    statement.setString(1, cityList[city]);
    int rows = 0;
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        bh.consume(rs.getInt(1));
        bh.consume(rs.getDouble(2));
        rows++;
      }
    }
    return rows;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException, IOException {
    try {
      if (rowCache != null && atMeasurement != null) {
        RowCacheMeters.Snapshot during = rowCache.read().since(atMeasurement);
        System.out.printf(Locale.ROOT, "%nC1 %s %s, measurement (%,d executions): %s%s%n", cities, mode, executions,
            during, mode.equals("nocache") && !during.present() ? " (the cache is off)" : "");
        String file = System.getProperty(ROW_CACHE_STATS_PROPERTY);
        if (file != null) {
          String line = String.join("\t", cities, mode, benchmarkMode, Boolean.toString(during.present()),
              Double.toString(during.hits()), Double.toString(during.misses()), Double.toString(during.bytes()),
              Long.toString(executions)) + System.lineSeparator();
          Files.writeString(Path.of(file), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        }
      }
    } finally {
      if (statement != null) {
        statement.close();
      }
      if (connection != null) {
        connection.close();
      }
    }
  }
}
