package io.accel.bench.jmh;

import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The result cache under a mixed load on the straddle store (10,000 users, 100,000 orders), two threads: 90% of
 * operations are S1 for one of 1,000 users, cached ({@code cache=on}: CREATE CACHE) or not ({@code cache=off}:
 * {@code resultCacheSize=0}); 10% update the total of a random order of those users, so writes land in the same
 * tables and in results the cache holds. Throughput in operations per second; at the end of a trial the hit ratio
 * and how many invalidations were by key and by table are printed.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main ResultCacheMixedBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(2)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 4, time = 3)
public class ResultCacheMixedBenchmark {
  static final int HOT_USERS = 1000;

  @Param({"on", "off"})
  public String cache;

  Straddle straddle;
  String url;
  private SimpleMeterRegistry meters;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    meters = new SimpleMeterRegistry();
    Metrics.addRegistry(meters);
    straddle = new Straddle(10_000, 100_000);
    WorkloadData.ensureAccel(straddle, System.out);
    url = WorkloadData.accelUrl(straddle) + (cache.equals("off") ? "?resultCacheSize=0" : "");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      if (cache.equals("on")) {
        s.execute("DROP ALL CACHES");
        s.execute("CREATE CACHE s1 FROM " + Straddle.S1);
      }
    }
  }

  @TearDown(Level.Trial)
  public void report() {
    if (cache.equals("on")) {
      double hits = count("accel.result.cache.hits", null);
      double misses = count("accel.result.cache.misses", null);
      System.out.printf(Locale.ROOT, "%nhit ratio %.3f (%.0f hits, %.0f misses); invalidations: %.0f by key, %.0f by"
          + " table; fills rejected after a concurrent write: %.0f%n", hits / Math.max(1, hits + misses), hits, misses,
          count("accel.result.cache.invalidations", "key"), count("accel.result.cache.invalidations", "table"),
          count("accel.result.cache.rejected.fills", null));
    }
    Metrics.removeRegistry(meters);
  }

  private double count(String name, String kind) {
    Search s = meters.find(name);
    if (kind != null) {
      s = s.tag("kind", kind);
    }
    return s.functionCounters().stream().mapToDouble(c -> c.count()).sum();
  }

  /** One thread's connection and statements. */
  @State(Scope.Thread)
  public static class Client {
    Connection connection;
    PreparedStatement read;
    PreparedStatement write;
    PreparedStatement ordersOf;

    @Setup(Level.Trial)
    public void open(ResultCacheMixedBenchmark b) throws SQLException {
      connection = DriverManager.getConnection(b.url);
      read = connection.prepareStatement(Straddle.S1);
      write = connection.prepareStatement("UPDATE orders SET total = total + 1 WHERE order_id = ?");
      ordersOf = connection.prepareStatement("SELECT order_id FROM orders WHERE user_id = ?");
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      connection.close();
    }
  }

  @Benchmark
  public void mixed(Client c, Blackhole bh) throws SQLException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int i = random.nextInt(HOT_USERS);
    if (random.nextInt(10) == 0) {
      // an order of a hot user, found through the index (that read is not cached: its shape has no cache)
      c.ordersOf.setLong(1, straddle.s1UserId(i));
      long order = -1;
      try (ResultSet rs = c.ordersOf.executeQuery()) {
        if (rs.next()) {
          order = rs.getLong(1);
        }
      }
      c.write.setLong(1, order);
      try {
        bh.consume(c.write.executeUpdate());
      } catch (SQLException e) {
        if (!"40001".equals(e.getSQLState())) {
          throw e;
        }
      }
      return;
    }
    Object[] p = straddle.s1Params(i);
    c.read.setObject(1, p[0]);
    try (ResultSet rs = c.read.executeQuery()) {
      while (rs.next()) {
        bh.consume(rs.getObject(4));
      }
    }
  }
}
