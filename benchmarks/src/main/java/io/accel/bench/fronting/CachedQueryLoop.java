package io.accel.bench.fronting;

import io.accel.bench.workload.Employees;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * {@link ResultCacheBenchmark}'s comparison as a user measures it: a plain loop of a prepared statement with random
 * parameter sets (no JMH), E1 and S2 cached through {@code jdbc:accel:postgresql://} against pgJDBC straight to
 * PostgreSQL; the p50 of each and their ratio. Uses the schemas the benchmark loaded (loads them if missing).
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.fronting.CachedQueryLoop
 * </pre>
 */
public final class CachedQueryLoop {
  private CachedQueryLoop() {
  }

  public static void main(String[] args) throws Exception {
    AccelDriver.load();
    Upstream.useForWorkloads();
    for (String q : List.of("S2", "E1")) {
      Straddle straddle = new Straddle(10_000, 100_000);
      Employees employees = new Employees(20_000);
      boolean e1 = q.equals("E1");
      String schema = WorkloadData.postgresSchema(e1 ? employees : straddle);
      WorkloadData.ensurePostgres(e1 ? employees : straddle, schema, System.out);
      String sql = e1 ? Employees.E1 : Straddle.S2;
      List<Object[]> params = new ArrayList<>();
      if (e1) {
        params.add(new Object[0]);
      } else {
        for (int i = 0; i < 100; i++) {
          params.add(straddle.s2Params(i));
        }
      }
      int n = e1 ? 300 : 20_000;
      try (Connection accel = DriverManager.getConnection(Upstream.accelUrl(schema));
          Connection pg = Upstream.postgres(schema); Statement s = accel.createStatement()) {
        Upstream.awaitOnline(accel, e1 ? Set.of("employees", "salaries") : Set.of("users", "orders"));
        s.execute("DROP ALL CACHES");
        s.execute("CREATE CACHE FROM " + sql);
        double a = p50(accel, sql, params, n);
        double p = p50(pg, sql, params, n);
        System.out.printf(Locale.ROOT, "%s plain loop p50: Accel cached %.1f us, PostgreSQL %.1f us: %.1fx%n", q, a, p,
            p / a);
        s.execute("DROP ACCEL MIRROR");
      }
    }
  }

  private static double p50(Connection c, String sql, List<Object[]> params, int n) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      Random random = new Random(1);
      for (int i = 0; i < n / 3; i++) {
        run(ps, params.get(random.nextInt(params.size())));
      }
      long[] t = new long[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        run(ps, params.get(random.nextInt(params.size())));
        t[i] = System.nanoTime() - t0;
      }
      Arrays.sort(t);
      return t[n / 2] / 1000.0;
    }
  }

  private static void run(PreparedStatement ps, Object[] values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(i + 1, values[i]);
    }
    try (ResultSet rs = ps.executeQuery()) {
      int k = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int c = 1; c <= k; c++) {
          rs.getObject(c);
        }
      }
    }
  }
}
