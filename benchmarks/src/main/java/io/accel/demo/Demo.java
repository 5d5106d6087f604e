package io.accel.demo;

import io.accel.bench.workload.LoadResult;
import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.Workload;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The Accel demo: loads the {@code straddle} workload (shared/DATASETS.md) into a store through the JDBC
 * driver, then runs S1, S2 and a few other queries, printing for each its SQL, its plan, its first rows,
 * its row count and measured timings. Every number it prints is measured in this run.
 */
@Command(name = "accel-demo", mixinStandardHelpOptions = true, version = "Accel demo 0.1.0",
    sortOptions = false,
    description = {
        "Loads the straddle workload (users and orders, shared/DATASETS.md) into an Accel store through the "
            + "JDBC driver, then runs queries S1 and S2 and a few others, printing each one's SQL, plan, "
            + "first rows, row count and timings."})
public final class Demo implements Callable<Integer> {
  static final int SHOWN_ROWS = 10;
  static final int S1_EMAILS = 3;

  @Option(names = "--users", paramLabel = "N", description = "users to generate (default: ${DEFAULT-VALUE})")
  long users = 20_000;

  @Option(names = "--orders", paramLabel = "N", description = "orders to generate (default: ${DEFAULT-VALUE})")
  long orders = 200_000;

  @Option(names = "--store", paramLabel = "URL",
      description = "JDBC URL of the Accel store: jdbc:accel:mem:NAME or jdbc:accel:file:PATH (default: ${DEFAULT-VALUE})")
  String store = "jdbc:accel:mem:demo";

  @Option(names = "--repeat", paramLabel = "N",
      description = "timed executions of each prepared query after the first (default: ${DEFAULT-VALUE})")
  int repeat = 20;

  @Option(names = "--seed", paramLabel = "N", description = "generator seed (default: ${DEFAULT-VALUE})")
  long seed = Straddle.DEFAULT_SEED;

  @Option(names = "--postgres", paramLabel = "URL", defaultValue = "${env:ACCEL_DEMO_POSTGRES}",
      description = "a PostgreSQL with wal_level=logical, as postgresql://user@host:port/db (or ACCEL_DEMO_POSTGRES):"
          + " the workload is loaded there (its users and orders tables are replaced), fronted through"
          + " jdbc:accel:postgresql://, and each query runs through Accel and straight on PostgreSQL, side by side")
  String postgres;

  @Option(names = "--replace",
      description = "drop the users and orders tables first if the store already has them (for a file: store)")
  boolean replace;

  @Spec
  CommandSpec spec;

  private final PrintStream out;

  public Demo() {
    this(System.out);
  }

  Demo(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the demo with {@code args}; returns the process exit code (0 on success). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new Demo(out));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      out.flush();
      err.println();
      err.println("accel-demo: FAILED: " + describe(e));
      for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
        err.println("  caused by: " + describe(cause));
      }
      if (!(e instanceof SQLException s) || s.getSQLState() == null || s.getSQLState().startsWith("XX")) {
        // Not an error the store reported about the SQL: show where it came from.
        StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < Math.min(trace.length, 8); i++) {
          err.println("    at " + trace[i]);
        }
      }
      err.flush();
      return 1;
    });
    return cli.execute(args);
  }

  private static String describe(Throwable e) {
    String state = e instanceof SQLException s && s.getSQLState() != null ? " [SQLSTATE " + s.getSQLState() + "]" : "";
    return e.getClass().getSimpleName() + state + ": " + e.getMessage();
  }

  @Override
  public Integer call() throws Exception {
    if (users < 1 || orders < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--users must be >= 1 and --orders >= 0");
    }
    if (repeat < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be >= 1");
    }
    if (postgres != null && !postgres.isBlank()) {
      return new FrontingDemo(this, out).run(postgres.trim());
    }
    if (!store.startsWith("jdbc:accel:")) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--store must be an Accel URL (jdbc:accel:mem:NAME or jdbc:accel:file:PATH), not " + store);
    }
    long started = System.nanoTime();
    Straddle straddle = new Straddle(users, orders, seed, 5_000);
    out.println("Accel demo: the straddle workload of shared/DATASETS.md");
    out.printf(Locale.ROOT, "  %,d users, %,d orders, seed %d; store %s%n", users, orders, seed, store);
    out.printf(Locale.ROOT, "  Java %s on %d processor(s), max heap %,d MiB%n", System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);

    try (Connection connection = DriverManager.getConnection(store)) {
      load(connection, straddle);
      runQueries(connection, straddle);
    }
    out.println();
    out.printf(Locale.ROOT, "Demo finished in %.1f s.%n", (System.nanoTime() - started) / 1e9);
    out.flush();
    return 0;
  }

  // ---------------------------------------------------------------- load

  private void load(Connection connection, Straddle straddle) throws SQLException {
    section("Load");
    if (replace) {
      Workload.execute(connection, straddle.dropTables());
      out.println("  dropped any existing users and orders tables (--replace)");
    }
    long ddlStart = System.nanoTime();
    try {
      Workload.execute(connection, straddle.schema());
    } catch (SQLException e) {
      if ("42P07".equals(e.getSQLState())) {
        throw new SQLException("the store already has a table of the workload (" + e.getMessage()
            + "); run with --replace to drop and reload users and orders", e.getSQLState(), e);
      }
      throw e;
    }
    long ddlNanos = System.nanoTime() - ddlStart;
    out.printf(Locale.ROOT, "  schema: 2 tables and 3 indexes created in %s%n", millis(ddlNanos));
    for (String ddl : straddle.schema()) {
      out.println("    " + ddl + ";");
    }
    out.println("  loading in PreparedStatement batches of 5,000 rows, auto-commit off, one commit per batch ...");
    out.flush();
    long[] nextReport = {0};
    LoadResult result = straddle.loadRows(connection, (table, loaded, total) -> {
      if (loaded >= nextReport[0] || loaded == total) {
        out.printf(Locale.ROOT, "    %-6s %,11d / %,d rows%n", table, loaded, total);
        out.flush();
        nextReport[0] = loaded + Math.max(total / 4, 1);
      }
      if (loaded == total) {
        nextReport[0] = 0;
      }
    });
    out.println();
    TextTable table = new TextTable(List.of("table", "rows", "seconds", "rows/second"),
        new boolean[] {false, true, true, true});
    for (LoadResult.TableLoad t : result.tables()) {
      table.add(new String[] {t.table(), String.format(Locale.ROOT, "%,d", t.rows()),
          String.format(Locale.ROOT, "%.2f", t.nanos() / 1e9), String.format(Locale.ROOT, "%,.0f", t.rowsPerSecond())});
    }
    table.add(new String[] {"total", String.format(Locale.ROOT, "%,d", result.rows()),
        String.format(Locale.ROOT, "%.2f", result.nanos() / 1e9), String.format(Locale.ROOT, "%,.0f", result.rowsPerSecond())});
    out.print(table.render("  "));
    out.println("  (rows/second counts inserts and commits, with the 3 indexes maintained; the schema DDL is not included)");
  }

  // ---------------------------------------------------------------- queries

  /** A query of the demo: its SQL, the parameter sets whose results are shown, those of the timed runs. */
  record DemoQuery(String title, String about, String sql, List<Object[]> shown, LongFunction<Object[]> timed,
      String timedAbout) {
  }

  void runQueries(Connection connection, Straddle straddle) throws SQLException {
    for (DemoQuery q : queries(straddle)) {
      runQuery(connection, q, q.sql().equals(Straddle.S1) ? straddle : null);
    }
  }

  /** The demo's queries over {@code straddle}'s data. */
  List<DemoQuery> queries(Straddle straddle) {
    List<Object[]> emails = new ArrayList<>();
    for (int i = 0; i < S1_EMAILS; i++) {
      emails.add(straddle.s1Params(i));
    }
    Object[] s2 = straddle.s2Params(0);
    List<DemoQuery> queries = List.of(
        new DemoQuery("S1: one user's SHIPPED orders (the straddled join)",
            "a user picked by email, joined to their orders with status SHIPPED",
            Straddle.S1, emails, straddle::s1Params,
            "with the emails of S1's executions 0.." + (repeat - 1) + ", one per execution"),
        new DemoQuery("S2: PENDING orders of a country's recent users",
            "users of one country created since " + Straddle.S2_SINCE.toLocalDate() + ", joined to their PENDING orders",
            Straddle.S2, List.<Object[]>of(s2), i -> s2, "with the same parameters"),
        new DemoQuery("Q3: orders per status (GROUP BY)", "a full aggregate over orders",
            "SELECT status, COUNT(*) AS orders FROM orders GROUP BY status ORDER BY status",
            List.<Object[]>of(new Object[0]), i -> new Object[0], ""),
        new DemoQuery("Q4: top 10 users by order total (ORDER BY ... LIMIT)",
            "orders summed per user, the 10 largest sums (ties by user id), then joined to users for the names",
            "SELECT u.id, u.name, t.order_total, t.orders FROM (SELECT user_id, SUM(total) AS order_total, "
                + "COUNT(*) AS orders FROM orders GROUP BY user_id ORDER BY order_total DESC, user_id LIMIT 10) t "
                + "JOIN users u ON u.id = t.user_id ORDER BY t.order_total DESC, u.id",
            List.<Object[]>of(new Object[0]), i -> new Object[0], ""),
        new DemoQuery("Q5: cancelled orders per country (LEFT JOIN with an aggregate)",
            "every user with their CANCELLED orders if any, summed per country",
            "SELECT u.country, COUNT(o.order_id) AS cancelled_orders, COALESCE(SUM(o.total), 0) AS cancelled_total "
                + "FROM users u LEFT JOIN orders o ON o.user_id = u.id AND o.status = 'CANCELLED' "
                + "GROUP BY u.country ORDER BY u.country",
            List.<Object[]>of(new Object[0]), i -> new Object[0], ""));
    return queries;
  }

  private void runQuery(Connection connection, DemoQuery q, Straddle checkS1Against) throws SQLException {
    section(q.title());
    out.println("  " + q.about());
    out.println();
    out.println("  SQL:");
    out.println("    " + q.sql());
    out.println();
    Object[] first = q.shown().get(0);
    out.println("  Plan (EXPLAIN PLAN FOR, " + (first.length == 0 ? "no parameters" : "with " + SqlText.describe(first))
        + "):");
    for (String line : explain(connection, SqlText.inline(q.sql(), first))) {
      out.println("    " + line);
    }
    long[] expectedS1 = checkS1Against == null ? null : expectedS1Counts(checkS1Against, q.shown());

    long prepareStart = System.nanoTime();
    try (PreparedStatement ps = connection.prepareStatement(q.sql())) {
      long prepareNanos = System.nanoTime() - prepareStart;
      long firstNanos = 0;
      for (int s = 0; s < q.shown().size(); s++) {
        Object[] params = q.shown().get(s);
        Result r = execute(ps, params);
        if (s == 0) {
          firstNanos = prepareNanos + r.nanos();
        }
        out.println();
        out.print(params.length == 0 ? "  Result" : "  Result for " + SqlText.describe(params));
        out.printf(Locale.ROOT, " (%s):%n", r.rows() <= SHOWN_ROWS ? r.rows() + " row" + (r.rows() == 1 ? "" : "s")
            : "first " + SHOWN_ROWS + " of " + r.rows() + " rows");
        out.print(r.table().render("    "));
        out.printf(Locale.ROOT, "  row count: %,d", r.rows());
        if (expectedS1 != null) {
          boolean ok = expectedS1[s] == r.rows();
          out.printf(Locale.ROOT, "   (the generator's own data has %d SHIPPED orders for this user: %s)",
              expectedS1[s], ok ? "match" : "MISMATCH");
          if (!ok) {
            throw new IllegalStateException("S1 for " + SqlText.describe(params) + " returned " + r.rows()
                + " rows but the generated data has " + expectedS1[s] + " SHIPPED orders for that user");
          }
        }
        out.println();
      }
      long[] nanos = new long[repeat];
      for (int i = 0; i < repeat; i++) {
        nanos[i] = execute(ps, q.timed().apply(i)).nanos();
      }
      Arrays.sort(nanos);
      out.println();
      out.println("  Timing:");
      out.printf(Locale.ROOT, "    first execution: %s (prepare %s + execute and read all rows %s)%n",
          millis(firstNanos), millis(prepareNanos), millis(firstNanos - prepareNanos));
      out.printf(Locale.ROOT, "    median of %d executions of the prepared statement%s: %s (min %s, max %s)%n",
          repeat, q.timedAbout().isEmpty() ? "" : " " + q.timedAbout(), millis(median(nanos)), millis(nanos[0]),
          millis(nanos[repeat - 1]));
    }
    out.flush();
  }

  private List<String> explain(Connection connection, String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      while (rs.next()) {
        String text = rs.getString(1);
        if (text != null) {
          lines.addAll(text.stripTrailing().lines().toList());
        }
      }
    }
    return lines;
  }

  /** One execution's result: the first rows as a table, the row count, the time to execute and read all. */
  record Result(TextTable table, long rows, long nanos) {
  }

  static Result execute(PreparedStatement ps, Object[] params) throws SQLException {
    long start = System.nanoTime();
    for (int i = 0; i < params.length; i++) {
      ps.setObject(i + 1, params[i]);
    }
    try (ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      int n = md.getColumnCount();
      List<String> headers = new ArrayList<>();
      boolean[] numeric = new boolean[n];
      for (int c = 1; c <= n; c++) {
        headers.add(md.getColumnLabel(c));
        numeric[c - 1] = isNumeric(md.getColumnType(c));
      }
      TextTable table = new TextTable(headers, numeric);
      long rows = 0;
      while (rs.next()) {
        if (rows < SHOWN_ROWS) {
          String[] values = new String[n];
          for (int c = 1; c <= n; c++) {
            values[c - 1] = text(rs.getObject(c));
          }
          table.add(values);
        }
        rows++;
      }
      return new Result(table, rows, System.nanoTime() - start);
    }
  }

  private static boolean isNumeric(int type) {
    return switch (type) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.DECIMAL, Types.REAL,
          Types.FLOAT, Types.DOUBLE -> true;
      default -> false;
    };
  }

  private static String text(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime().toString().replace('T', ' ');
    }
    return value.toString();
  }

  /** For each shown S1 parameter set, the number of SHIPPED orders of that user in the generated data. */
  private static long[] expectedS1Counts(Straddle straddle, List<Object[]> shown) {
    long[] ids = new long[shown.size()];
    for (int s = 0; s < ids.length; s++) {
      String email = (String) shown.get(s)[0];
      ids[s] = Long.parseLong(email.substring("user".length(), email.indexOf('@')));
    }
    long[] counts = new long[ids.length];
    for (long id = 1; id <= straddle.orders(); id++) {
      Straddle.Order o = straddle.order(id);
      if (o.status().equals("SHIPPED")) {
        for (int s = 0; s < ids.length; s++) {
          if (ids[s] == o.userId()) {
            counts[s]++;
          }
        }
      }
    }
    return counts;
  }

  // ---------------------------------------------------------------- formatting

  void section(String title) {
    out.println();
    out.println("== " + title + " " + "=".repeat(Math.max(3, 96 - title.length())));
  }

  static long median(long[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static String millis(long nanos) {
    double ms = nanos / 1e6;
    return ms >= 100 ? String.format(Locale.ROOT, "%,.0f ms", ms) : String.format(Locale.ROOT, "%.2f ms", ms);
  }
}
