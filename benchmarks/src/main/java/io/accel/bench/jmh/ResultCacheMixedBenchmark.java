package io.accel.bench.jmh;

import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import io.accel.cache.ResultCache;
import io.accel.exec.Database;
import io.accel.exec.StoreRegistry;
import io.accel.storage.StoreOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
 * tables and, when the order is SHIPPED, in results the cache holds. Commits are not synced one by one. Throughput in operations per second; at the end of a trial the hit ratio
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
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class ResultCacheMixedBenchmark {
  static final int HOT_USERS = 1000;

  @Param({"on", "off"})
  public String cache;

  Straddle straddle;
  String url;
  private Connection holder;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    straddle = new Straddle(10_000, 100_000);
    WorkloadData.ensureAccel(straddle, System.out);
    // commits not synced one by one: an fsync per write would dominate both variants alike
    url = WorkloadData.accelUrl(straddle) + "?syncCommits=false" + (cache.equals("off") ? "&resultCacheSize=0" : "");
    holder = DriverManager.getConnection(url); // keeps the store (and its counters) open until report()
    try (Statement s = holder.createStatement()) {
      if (cache.equals("on")) {
        s.execute("DROP ALL CACHES");
        s.execute("CREATE CACHE s1 FROM " + Straddle.S1);
      }
    }
  }

  @TearDown(Level.Trial)
  public void report() {
    if (cache.equals("on")) {
      // the store the connections share (open while they are: JMH closes the thread states after this)
      String location = url.substring("jdbc:accel:".length(), url.indexOf('?'));
      Database db = StoreRegistry.acquire(location, StoreOptions.DEFAULTS);
      try {
        ResultCache c = db.resultCache();
        long hits = c.hitCount();
        long misses = c.missCount();
        System.out.printf(Locale.ROOT, "%nhit ratio %.3f (%d hits, %d misses); invalidations: %d by key, %d by"
            + " table; %d results cached%n", hits / (double) Math.max(1, hits + misses), hits, misses,
            c.keyInvalidations(), c.tableInvalidations(), c.entryCount());
      } finally {
        StoreRegistry.release(db);
      }
    }
    try {
      holder.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
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
      // one of a hot user's orders, found through the index (that read is not cached: its shape has no cache);
      // S1 reads only the user's SHIPPED orders, so writes to the others must leave its result cached
      c.ordersOf.setLong(1, straddle.s1UserId(i));
      List<Long> orders = new ArrayList<>();
      try (ResultSet rs = c.ordersOf.executeQuery()) {
        while (rs.next()) {
          orders.add(rs.getLong(1));
        }
      }
      long order = orders.isEmpty() ? -1 : orders.get(random.nextInt(orders.size()));
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
