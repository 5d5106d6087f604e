package io.accel.bench.jmh;

import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The plan cache: a point query on a small in-memory table, its literal different on every call, run
 * (a) by a connection with {@code planCacheSize=0}, which parses, validates, optimises and compiles every
 * statement, and (b) by a connection with the default cache, where the literal is normalised to a
 * parameter and the statement reuses one plan; and (c) the prepare step alone
 * ({@code Connection.prepareStatement} of the same varying text, closed without executing) on each.
 *
 * <p>Run from the shaded jar: {@code java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main
 * PlanCache -f 1 -wi 3 -w 2s -i 5 -r 2s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PlanCacheBenchmark {
  private static final int ROWS = 1_000;
  private static final String URL = "jdbc:accel:mem:plan_cache_benchmark";

  private Connection cold;
  private Connection cached;
  private Statement coldStatement;
  private Statement cachedStatement;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    AccelDriver.load();
    Properties noCache = new Properties();
    noCache.setProperty("planCacheSize", "0");
    cold = DriverManager.getConnection(URL, noCache);
    cached = DriverManager.getConnection(URL);
    try (Statement s = cold.createStatement()) {
      s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER)");
      StringBuilder insert = new StringBuilder("INSERT INTO item VALUES ");
      for (int i = 0; i < ROWS; i++) {
        insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'item ").append(i).append("', ")
            .append(i % 97).append(')');
      }
      s.executeUpdate(insert.toString());
    }
    coldStatement = cold.createStatement();
    cachedStatement = cached.createStatement();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    coldStatement.close();
    cachedStatement.close();
    cached.close();
    cold.close();
  }

  private String nextQuery() {
    next = (next + 7919) % ROWS;
    return "SELECT name, qty FROM item WHERE id = " + next;
  }

  private static int read(ResultSet rs) throws SQLException {
    int qty = -1;
    while (rs.next()) {
      qty = rs.getInt(2);
    }
    return qty;
  }

  /** (a) Statement.executeQuery, every statement planned afresh (planCacheSize=0). */
  @Benchmark
  public int executeCold() throws SQLException {
    try (ResultSet rs = coldStatement.executeQuery(nextQuery())) {
      return read(rs);
    }
  }

  /** (b) Statement.executeQuery with the plan cache: each literal runs in the one normalised plan. */
  @Benchmark
  public int executeHit() throws SQLException {
    try (ResultSet rs = cachedStatement.executeQuery(nextQuery())) {
      return read(rs);
    }
  }

  /** (c) The prepare step alone, planned afresh. */
  @Benchmark
  public boolean prepareCold() throws SQLException {
    try (PreparedStatement ps = cold.prepareStatement(nextQuery())) {
      return ps.isClosed();
    }
  }

  /** (c) The prepare step alone, from the plan cache. */
  @Benchmark
  public boolean prepareHit() throws SQLException {
    try (PreparedStatement ps = cached.prepareStatement(nextQuery())) {
      return ps.isClosed();
    }
  }
}
