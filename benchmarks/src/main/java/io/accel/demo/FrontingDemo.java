package io.accel.demo;

import io.accel.bench.fronting.Upstream;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.Workload;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The demo in front of a PostgreSQL ({@code --postgres}): the straddle workload is loaded into PostgreSQL, Accel
 * mirrors it ({@code jdbc:accel:postgresql://}), and each query runs through Accel and straight on PostgreSQL with
 * the same parameters: row counts compared, where Accel ran it, and both timings side by side.
 */
final class FrontingDemo {
  private final Demo demo;
  private final PrintStream out;

  FrontingDemo(Demo demo, PrintStream out) {
    this.demo = demo;
    this.out = out;
  }

  int run(String upstream) throws Exception {
    String location = upstream.startsWith("jdbc:") ? upstream.substring(5) : upstream;
    if (!location.startsWith("postgresql://")) {
      throw new IllegalArgumentException("--postgres must look like postgresql://user@host:port/db, not " + upstream);
    }
    String rest = location.substring("postgresql://".length());
    String user = "postgres";
    int at = rest.indexOf('@');
    if (at >= 0) {
      user = rest.substring(0, at);
      rest = rest.substring(at + 1);
    }
    String pgUrl = "jdbc:postgresql://" + rest + (rest.contains("?") ? "&" : "?") + "user=" + user;
    String accelUrl = "jdbc:accel:postgresql://" + rest + (rest.contains("?") ? "&" : "?") + "user=" + user;
    long started = System.nanoTime();
    Straddle straddle = new Straddle(demo.users, demo.orders, demo.seed, 5_000);
    out.println("Accel demo in front of PostgreSQL: the straddle workload of shared/DATASETS.md");
    out.printf(Locale.ROOT, "  %,d users, %,d orders, seed %d; upstream %s%n", demo.users, demo.orders, demo.seed,
        pgUrl);
    try (Connection pg = DriverManager.getConnection(pgUrl)) {
      demo.section("Load into PostgreSQL");
      Workload.execute(pg, straddle.dropTables());
      Workload.execute(pg, straddle.schema());
      long t0 = System.nanoTime();
      straddle.loadRows(pg, (table, loaded, total) -> { });
      try (Statement s = pg.createStatement()) {
        s.execute("ANALYZE users");
        s.execute("ANALYZE orders");
      }
      out.printf(Locale.ROOT, "  %,d rows loaded into PostgreSQL in %.1f s (its users and orders tables replaced)%n",
          demo.users + demo.orders, (System.nanoTime() - t0) / 1e9);

      demo.section("Mirror");
      long m0 = System.nanoTime();
      try (Connection accel = DriverManager.getConnection(accelUrl)) {
        out.printf(Locale.ROOT, "  connected through %s in %.1f s (the mirror's snapshot, or its catch-up)%n",
            accelUrl, (System.nanoTime() - m0) / 1e9);
        // the mirror copies tables created while it was running on its own: wait until both are online
        Upstream.awaitOnline(accel, java.util.Set.of("users", "orders"));
        print(accel, "SHOW ACCEL TABLES");
        for (Demo.DemoQuery q : demo.queries(straddle)) {
          compare(accel, pg, q);
        }
        print(accel, "SHOW ACCEL STATUS");
      }
    }
    out.println();
    out.printf(Locale.ROOT, "Demo finished in %.1f s.%n", (System.nanoTime() - started) / 1e9);
    out.flush();
    return 0;
  }

  private void compare(Connection accel, Connection pg, Demo.DemoQuery q) throws SQLException {
    demo.section(q.title());
    out.println("  " + q.about());
    out.println("  SQL: " + q.sql());
    try (PreparedStatement a = accel.prepareStatement(q.sql()); PreparedStatement p = pg.prepareStatement(q.sql())) {
      Object[] first = q.shown().get(0);
      Demo.Result ra = Demo.execute(a, first);
      String route = Upstream.lastRoute(accel);
      String where = route.equals("accel") ? "on the mirror" : route;
      Demo.Result rp = Demo.execute(p, first);
      out.printf(Locale.ROOT, "  rows: Accel %,d, PostgreSQL %,d: %s; Accel ran it %s%n", ra.rows(), rp.rows(),
          ra.rows() == rp.rows() ? "same" : "DIFFERENT", where);
      if (ra.rows() != rp.rows()) {
        throw new IllegalStateException(q.title() + ": Accel returned " + ra.rows() + " rows, PostgreSQL " + rp.rows());
      }
      out.print(ra.table().render("    "));
      int repeat = demo.repeat;
      long[] accelNanos = new long[repeat];
      long[] pgNanos = new long[repeat];
      for (int i = 0; i < repeat; i++) {
        Object[] params = q.timed().apply(i);
        accelNanos[i] = Demo.execute(a, params).nanos();
        pgNanos[i] = Demo.execute(p, params).nanos();
      }
      Arrays.sort(accelNanos);
      Arrays.sort(pgNanos);
      long ma = Demo.median(accelNanos);
      long mp = Demo.median(pgNanos);
      TextTable t = new TextTable(List.of("", "median", "min", "max"), new boolean[] {false, true, true, true});
      t.add(new String[] {"through Accel", Demo.millis(ma), Demo.millis(accelNanos[0]),
          Demo.millis(accelNanos[repeat - 1])});
      t.add(new String[] {"PostgreSQL", Demo.millis(mp), Demo.millis(pgNanos[0]), Demo.millis(pgNanos[repeat - 1])});
      out.printf(Locale.ROOT, "  %d executions of each prepared statement, alternating:%n", repeat);
      out.print(t.render("    "));
      out.printf(Locale.ROOT, "  Accel/PostgreSQL: %s%n", ma <= mp
          ? String.format(Locale.ROOT, "Accel %.1fx faster", (double) mp / Math.max(1, ma))
          : String.format(Locale.ROOT, "PostgreSQL %.1fx faster", (double) ma / Math.max(1, mp)));
    }
  }

  private void print(Connection accel, String sql) throws SQLException {
    demo.section(sql);
    try (Statement s = accel.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      List<String> headers = new java.util.ArrayList<>();
      for (int i = 1; i <= n; i++) {
        headers.add(rs.getMetaData().getColumnLabel(i));
      }
      TextTable t = new TextTable(headers, new boolean[n]);
      while (rs.next()) {
        String[] row = new String[n];
        for (int i = 1; i <= n; i++) {
          row[i - 1] = rs.getString(i);
        }
        t.add(row);
      }
      out.print(t.render("  "));
    }
  }
}
