package io.accel.bench.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Accel server against PostgreSQL with the clients users measure with: pgbench (-S in simple and prepared
 * mode at several client counts, then the TPC-B-like default script) and a 1-million-row SELECT streamed
 * through psql and through pgJDBC, with the server's heap sampled from its /metrics meanwhile. The server runs
 * as its own process from {@code server/target/accel-server.jar} on a fresh file store, PostgreSQL is the one
 * given; the same data is loaded into both by {@code pgbench -i}. Each comparison runs Accel and PostgreSQL one
 * after the other, never together, and prints the ratio (Accel / PostgreSQL, above 1 = Accel faster).
 */
@Command(name = "pgbench-comparison", mixinStandardHelpOptions = true)
public final class PgbenchComparison implements Callable<Integer> {
  @Option(names = "--server-jar", defaultValue = "server/target/accel-server.jar")
  Path serverJar;

  @Option(names = "--store", defaultValue = "target/pgbench-comparison-store")
  Path store;

  @Option(names = "--heap", defaultValue = "2g", description = "the server's -Xmx")
  String heap;

  @Option(names = "--server-args", defaultValue = "", description = "extra server flags, e.g. --row-cache-size=0")
  String serverArgs;

  @Option(names = "--postgres", defaultValue = "127.0.0.1:5432", description = "host:port of PostgreSQL (user postgres, database test)")
  String postgres;

  @Option(names = "--front", description = "host:port of a PostgreSQL with wal_level=logical: the server fronts its"
      + " database bench_front (--upstream), loaded there by pgbench -i, and both columns measure that one database")
  String front;

  @Option(names = "--cache-scripts", description = "instead of -S, TPC-B and the 1M-row SELECT: custom scripts whose"
      + " queries Accel answers from result caches (CREATE CACHE), against PostgreSQL")
  boolean cacheScripts;

  @Option(names = "--scale", defaultValue = "10")
  int scale;

  @Option(names = "--seconds", defaultValue = "30")
  int seconds;

  @Option(names = "--clients", defaultValue = "1,8,32", split = ",")
  List<Integer> clients;

  @Option(names = "--modes", defaultValue = "simple,prepared", split = ",")
  List<String> modes;

  @Option(names = "--pgbench", defaultValue = "/usr/lib/postgresql/15/bin/pgbench")
  String pgbench;

  @Option(names = "--psql", defaultValue = "/usr/bin/psql")
  String psql;

  private static final int ACCEL_PORT = 5493;
  private static final int ACCEL_HTTP = 5492;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PgbenchComparison()).execute(args));
  }

  /** The database both targets use: test, or bench_front when fronting. */
  private static String database = "test";

  @Override
  public Integer call() throws Exception {
    String[] pg = (front != null ? front : postgres).split(":");
    deleteTree(store);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "-jar", serverJar.toString(), "--store", "file:" + store.toAbsolutePath(), "--port",
        Integer.toString(ACCEL_PORT), "--http-port", Integer.toString(ACCEL_HTTP)));
    if (front != null) {
      database = "bench_front";
      Target admin = new Target("PostgreSQL", pg[0], Integer.parseInt(pg[1]), null);
      String dropSlots = "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
          + " WHERE database = 'bench_front'";
      run(admin, "postgres", List.of(psql, "-X", "-c", dropSlots, "-c", "DROP DATABASE IF EXISTS bench_front",
          "-c", "CREATE DATABASE bench_front"));
      Run init = run(admin, database, List.of(pgbench, "-i", "-q", "-s", Integer.toString(scale)));
      System.out.printf("PostgreSQL: pgbench -i -s %d: %s%n", scale, lastLine(init.err));
      command.addAll(List.of("--upstream", "postgresql://postgres@" + front + "/bench_front"));
    }
    if (!serverArgs.isBlank()) {
      command.addAll(List.of(serverArgs.trim().split("\\s+")));
    }
    Path log = Files.createTempFile("accel-server", ".log");
    Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      waitFor(log, "listening on");
      System.out.println("server: " + String.join(" ", command));
      Target accel = new Target("Accel", "127.0.0.1", ACCEL_PORT, null);
      // the server is stopped (SIGSTOP) while PostgreSQL is measured: its JVM and RocksDB's background work
      // would otherwise take CPU from PostgreSQL on this 2-core machine
      Target postgresql = new Target("PostgreSQL", pg[0], Integer.parseInt(pg[1]), server.pid());
      if (front == null) {
        for (Target t : List.of(accel, postgresql)) {
          Run init = run(t, List.of(pgbench, "-i", "-q", "-s", Integer.toString(scale)));
          System.out.printf("%s: pgbench -i -s %d: %s%n", t.name, scale, lastLine(init.err));
        }
      } else {
        // the mirror took its snapshot at start; reads are local once every table is online
        String tables = "";
        for (int i = 0; i < 600 && !onlineCount(tables).equals("4"); i++) {
          Thread.sleep(500);
          tables = run(accel, List.of(psql, "-X", "-A", "-t", "-c", "SHOW ACCEL TABLES")).out;
        }
        System.out.println("mirror: " + tables.strip().replace('\n', ';'));
      }
      if (cacheScripts) {
        cachedScripts(accel, postgresql);
        if (front != null) {
          run(accel, List.of(psql, "-X", "-c", "DROP ACCEL MIRROR"));
        }
        return 0;
      }
      // the server's JIT warms up before anything is measured (PostgreSQL needs none)
      for (String mode : modes) {
        run(accel, List.of(pgbench, "-S", "-M", mode, "-c", "4", "-j", "2", "-T", "10"));
      }
      System.out.printf("%n| pgbench -S | clients | Accel tps | PostgreSQL tps | ratio |%n|---|---|---|---|---|%n");
      for (String mode : modes) {
        for (int c : clients) {
          double a = tps(run(accel, select(mode, c)));
          double p = tps(run(postgresql, select(mode, c)));
          System.out.printf("| -M %s | %d | %.0f | %.0f | %.2fx |%n", mode, c, a, p, a / p);
        }
      }
      System.out.printf("%n| TPC-B (default script, --max-tries=0) | clients | Accel tps | PostgreSQL tps | ratio | Accel retried |%n|---|---|---|---|---|---|%n");
      for (String mode : List.of("prepared", "simple")) {
        for (int c : List.of(1, 8)) {
          Run a = run(accel, tpcb(mode, c));
          Run p = run(postgresql, tpcb(mode, c));
          System.out.printf("| TPC-B -M %s | %d | %.0f | %.0f | %.2fx | %s |%n", mode, c, tps(a), tps(p),
              tps(a) / tps(p), find(a.out, "number of transactions retried: ([^\\n]+)"));
        }
      }
      System.out.printf("%n| 1M-row SELECT (pgbench_accounts) | Accel s | PostgreSQL s | ratio | Accel server heap peak MB |%n|---|---|---|---|---|%n");
      String all = "select * from pgbench_accounts";
      HeapSampler heapSampler = new HeapSampler();
      double aPsql = timed(() -> run(accel, List.of(psql, "-X", "-A", "-t", "-o", "/dev/null", "-c", all)));
      double pPsql = timed(() -> run(postgresql, List.of(psql, "-X", "-A", "-t", "-o", "/dev/null", "-c", all)));
      long peakPsql = heapSampler.takePeak();
      System.out.printf("| psql | %.2f | %.2f | %.2fx | %d |%n", aPsql, pPsql, pPsql / aPsql, peakPsql >> 20);
      // one untimed pass each first: the first pass through pgJDBC in this JVM also compiles the client's code
      jdbcStream(accel, all);
      jdbcStream(postgresql, all);
      double aJdbc = timed(() -> jdbcStream(accel, all));
      double pJdbc = timed(() -> jdbcStream(postgresql, all));
      long peakJdbc = heapSampler.takePeak();
      heapSampler.stop();
      System.out.printf("| pgJDBC, fetch size 1000 in a transaction | %.2f | %.2f | %.2fx | %d |%n", aJdbc, pJdbc,
          pJdbc / aJdbc, peakJdbc >> 20);
      if (front != null) {
        run(accel, List.of(psql, "-X", "-c", "DROP ACCEL MIRROR")); // its slot would keep WAL upstream
      }
      return 0;
    } finally {
      server.destroy();
      server.waitFor(60, TimeUnit.SECONDS);
    }
  }

  /**
   * Three custom scripts, each query cached in Accel by CREATE CACHE: a point read of 1,000 hot accounts, a branch's
   * account count and balance (a scan of a tenth of the accounts in PostgreSQL: bid has no index), and a join of
   * branches, tellers and accounts. Each is run once per value first, so Accel's measured executions are hits.
   */
  private void cachedScripts(Target accel, Target postgresql) throws Exception {
    Map<String, String> scripts = new java.util.LinkedHashMap<>();
    scripts.put("point read (1,000 hot accounts)", "\\set aid random(1, 1000)\n"
        + "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n");
    scripts.put("branch aggregate (scan of 1/scale of the accounts)", "\\set bid random(1, " + scale + ")\n"
        + "SELECT count(*), sum(abalance) FROM pgbench_accounts WHERE bid = :bid;\n");
    scripts.put("join: a branch's tellers and their balances", "\\set bid random(1, " + scale + ")\n"
        + "SELECT t.tid, t.tbalance, b.bbalance FROM pgbench_tellers t JOIN pgbench_branches b ON b.bid = t.bid"
        + " WHERE b.bid = :bid ORDER BY t.tid;\n");
    System.out.printf("%n| custom script (-M prepared) | clients | Accel tps (cached) | PostgreSQL tps | ratio |%n"
        + "|---|---|---|---|---|%n");
    for (Map.Entry<String, String> e : scripts.entrySet()) {
      String query = e.getValue().substring(e.getValue().indexOf('\n') + 1).strip();
      String cached = query.replaceAll(":aid|:bid", "\\$1").replaceAll(";$", "");
      run(accel, List.of(psql, "-X", "-v", "ON_ERROR_STOP=1", "-c", "CREATE CACHE FROM " + cached));
      Path file = Files.createTempFile("cache-script", ".sql");
      Files.writeString(file, e.getValue());
      // every value once (and the JIT warm) before measuring
      run(accel, List.of(pgbench, "-n", "-M", "prepared", "-f", file.toString(), "-c", "2", "-j", "2", "-t", "3000"));
      for (int c : clients) {
        List<String> cmd = List.of(pgbench, "-n", "-M", "prepared", "-f", file.toString(), "-c", Integer.toString(c),
            "-j", "2", "-T", Integer.toString(seconds));
        double a = tps(run(accel, cmd));
        double p = tps(run(postgresql, cmd));
        System.out.printf("| %s | %d | %.0f | %.0f | %.1fx |%n", e.getKey(), c, a, p, a / p);
      }
      Files.delete(file);
    }
    System.out.println(run(accel, List.of(psql, "-X", "-c", "SHOW CACHES")).out);
  }

  /** Where a client connects; {@code pause}, when set, is a process stopped while this target is measured. */
  private record Target(String name, String host, int port, Long pause) {
  }

  private static void signal(Long pid, String signal) throws IOException, InterruptedException {
    if (pid != null) {
      new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
    }
  }

  private record Run(String out, String err) {
  }

  private List<String> select(String mode, int c) {
    return List.of(pgbench, "-S", "-M", mode, "-c", Integer.toString(c), "-j", "2", "-T", Integer.toString(seconds));
  }

  private List<String> tpcb(String mode, int c) {
    return List.of(pgbench, "-M", mode, "-c", Integer.toString(c), "-j", "2", "-T", Integer.toString(seconds),
        "--max-tries=0");
  }

  private static String onlineCount(String tables) {
    return Long.toString(tables.lines().filter(l -> l.matches("pgbench_\\w+\\|online\\|.*")).count());
  }

  private static Run run(Target t, List<String> command) throws IOException, InterruptedException {
    return run(t, database, command);
  }

  private static Run run(Target t, String db, List<String> command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(Map.of("PGHOST", t.host, "PGPORT", Integer.toString(t.port), "PGUSER", "postgres",
        "PGDATABASE", db));
    Path out = Files.createTempFile("bench-out", ".txt");
    Path err = Files.createTempFile("bench-err", ".txt");
    signal(t.pause, "STOP");
    Process p;
    boolean done;
    try {
      p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      done = p.waitFor(30, TimeUnit.MINUTES);
    } finally {
      signal(t.pause, "CONT");
    }
    if (!done || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(t.name + ": " + command + " failed: " + Files.readString(err));
    }
    Run r = new Run(Files.readString(out), Files.readString(err));
    Files.delete(out);
    Files.delete(err);
    return r;
  }

  private static double tps(Run r) {
    return Double.parseDouble(find(r.out, "tps = ([0-9.]+)"));
  }

  private static String find(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("no " + regex + " in: " + text);
    }
    return m.group(1);
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines[lines.length - 1];
  }

  private interface Work {
    Object run() throws Exception;
  }

  private static double timed(Work w) throws Exception {
    long start = System.nanoTime();
    w.run();
    return (System.nanoTime() - start) / 1e9;
  }

  /** Reads every row through pgJDBC in pieces of 1000 (a cursor: autocommit off), as an application streams. */
  private static long jdbcStream(Target t, String sql) throws Exception {
    signal(t.pause, "STOP");
    try {
      return jdbcRead(t, sql);
    } finally {
      signal(t.pause, "CONT");
    }
  }

  private static long jdbcRead(Target t, String sql) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + t.host + ":" + t.port + "/" + database, p)) {
      c.setAutoCommit(false);
      long rows = 0;
      try (Statement s = c.createStatement()) {
        s.setFetchSize(1000);
        try (ResultSet rs = s.executeQuery(sql)) {
          while (rs.next()) {
            rows += rs.getInt(1);
          }
        }
      }
      c.commit();
      return rows;
    }
  }

  /** The server's used heap from /metrics every 100 ms; the peak since the last take. */
  private static final class HeapSampler {
    private final AtomicLong peak = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    HeapSampler() {
      HttpClient http = HttpClient.newHttpClient();
      Pattern used = Pattern.compile("^jvm_memory_used_bytes\\{area=\"heap\"[^}]*\\} ([0-9.E+]+)", Pattern.MULTILINE);
      thread = new Thread(() -> {
        while (!stop.get()) {
          try {
            String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ACCEL_HTTP + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
            Matcher m = used.matcher(body);
            long sum = 0;
            while (m.find()) {
              sum += (long) Double.parseDouble(m.group(1));
            }
            peak.accumulateAndGet(sum, Math::max);
            Thread.sleep(100);
          } catch (IOException e) {
            // the next sample
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      thread.setDaemon(true);
      thread.start();
    }

    long takePeak() {
      return peak.getAndSet(0);
    }

    void stop() {
      stop.set(true);
    }
  }

  private static void waitFor(Path log, String text) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!Files.readString(log).contains(text)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the server did not start: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (Files.exists(p)) {
      try (var walk = Files.walk(p)) {
        for (Path x : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(x);
        }
      }
    }
  }
}
