package io.accel.bench.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The Spring Boot demo's S1 endpoint under load, its data source straight on PostgreSQL and through Accel in front
 * of the same database: requests per second, p50 and p99 per client count, and the ratios. Runs the demo's
 * executable jar twice (profile {@code direct}, and the default {@code jdbc:accel:postgresql:} one) against a
 * database of its own on the logical-replication PostgreSQL; the application not being measured is stopped
 * (SIGSTOP), so each has the machine's two cores to itself. Each client is a thread with its own keep-alive HTTP
 * connection sending {@code GET /users/user<random>@example.com/orders?status=SHIPPED}; the responses of both
 * applications are checked equal first.
 * <pre>
 * mvn -q install -DskipTests   # the demo's jar: examples/spring-boot-demo/target/accel-spring-boot-demo-*.jar
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.demo.EndpointComparison [--users 20000]
 *     [--clients 1,8] [--requests 20000] [--upstream 127.0.0.1:5434]
 * </pre>
 */
public final class EndpointComparison {
  private static final String DATABASE = "spring_demo_bench";

  private final String upstream;
  private final int users;
  private final int requests;
  private final List<Integer> clients = new ArrayList<>();
  private final Path jar;

  private EndpointComparison(String[] args) throws IOException {
    String up = "127.0.0.1:5434";
    int u = 20_000;
    int r = 20_000;
    String c = "1,8";
    Path j = null;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--upstream" -> up = args[i + 1];
        case "--users" -> u = Integer.parseInt(args[i + 1]);
        case "--requests" -> r = Integer.parseInt(args[i + 1]);
        case "--clients" -> c = args[i + 1];
        case "--jar" -> j = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    upstream = up;
    users = u;
    requests = r;
    for (String n : c.split(",")) {
      clients.add(Integer.parseInt(n.trim()));
    }
    jar = j != null ? j : demoJar();
  }

  public static void main(String[] args) throws Exception {
    new EndpointComparison(args).run();
  }

  private static Path demoJar() throws IOException {
    try (var files = Files.list(Path.of("examples/spring-boot-demo/target"))) {
      return files.filter(p -> p.getFileName().toString().matches("accel-spring-boot-demo-.*\\.jar"))
          .findFirst().orElseThrow(() -> new IllegalStateException(
              "no demo jar in examples/spring-boot-demo/target: run mvn -q install -DskipTests first"));
    }
  }

  private void run() throws Exception {
    freshDatabase();
    Path mirror = Files.createTempDirectory("demo-bench-mirror");
    App accel = App.start(jar, 18081, "default", "jdbc:accel:postgresql://" + upstream + "/" + DATABASE, users,
        List.of("--accel.mirror-dir=" + mirror, "--accel.slot-name=" + DATABASE));
    App direct = null;
    try {
      accel.awaitHealthy(Duration.ofMinutes(10));
      accel.awaitMirrorOnline(Duration.ofMinutes(10));
      direct = App.start(jar, 18082, "direct", "jdbc:postgresql://" + upstream + "/" + DATABASE, users, List.of());
      direct.awaitHealthy(Duration.ofMinutes(2));
      sameAnswers(accel, direct);
      System.out.printf(Locale.ROOT, "S1 endpoint, %,d users and %,d orders, %,d requests per line after as many of"
          + " warm-up%n", users, users * 10L, requests);
      System.out.println("| clients | straight to PostgreSQL: req/s, p50, p99 | through Accel: req/s, p50, p99"
          + " | Accel/PostgreSQL req/s | p50 ratio |");
      System.out.println("|---|---|---|---|---|");
      for (int c : clients) {
        accel.pause();
        Result pg = direct.load(c, requests, users);
        accel.resume();
        direct.pause();
        double localBefore = accel.localQueries();
        Result ac = accel.load(c, requests, users);
        double localAfter = accel.localQueries();
        direct.resume();
        System.out.printf(Locale.ROOT, "| %d | %,.0f, %.2f ms, %.2f ms | %,.0f, %.2f ms, %.2f ms | %.2fx | %.2fx |%n",
            c, pg.rps, pg.p50, pg.p99, ac.rps, ac.p50, ac.p99, ac.rps / pg.rps, pg.p50 / ac.p50);
        if (localAfter - localBefore < requests) {
          System.out.printf(Locale.ROOT, "  (only %.0f of the %d reads through Accel ran on the mirror)%n",
              localAfter - localBefore, requests);
        }
      }
    } finally {
      accel.stop();
      if (direct != null) {
        direct.stop();
      }
      dropMirror();
    }
  }

  /** The first users' SHIPPED orders, as each application answers them. */
  private void sameAnswers(App accel, App direct) throws Exception {
    for (int u = 1; u <= 50; u++) {
      String path = "/users/user" + u + "@example.com/orders?status=SHIPPED";
      String a = accel.get(path);
      String d = direct.get(path);
      if (!a.equals(d)) {
        throw new IllegalStateException("answers differ for " + path + ":\n accel:  " + a + "\n direct: " + d);
      }
    }
  }

  private Connection postgres(String database) throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + upstream + "/" + database + "?user=postgres");
  }

  private void freshDatabase() throws SQLException {
    try (Connection c = postgres("postgres"); Statement s = c.createStatement()) {
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" + DATABASE
          + "'");
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + DATABASE);
    }
  }

  private void dropMirror() throws SQLException {
    try (Connection c = postgres("postgres"); Statement s = c.createStatement()) {
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" + DATABASE
          + "'");
    }
  }

  private record Result(double rps, double p50, double p99) {
  }

  /** One run of the demo application. */
  private static final class App {
    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private App(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static App start(Path jar, int port, String profile, String url, int users, List<String> more)
        throws IOException {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-jar", jar.toString(), "--server.port=" + port, "--spring.profiles.active=" + profile,
          "--spring.datasource.url=" + url, "--spring.datasource.username=postgres", "--demo.users=" + users,
          "--logging.level.root=WARN"));
      command.addAll(more);
      Path log = Files.createTempFile("demo-" + profile, ".log");
      System.out.println("starting the demo (" + url + "), log in " + log);
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new App(p, port);
    }

    void awaitHealthy(Duration timeout) throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        if (!process.isAlive()) {
          throw new IllegalStateException("the demo on port " + port + " exited with " + process.exitValue());
        }
        try {
          if (health().endsWith("\"status\":\"UP\"}")) {
            return;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the demo on port " + port + " was not healthy in " + timeout);
        }
        Thread.sleep(500);
      }
    }

    /** Until the mirror's health is UP: both tables copied, replication streaming. */
    void awaitMirrorOnline(Duration timeout) throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!accelUp()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the mirror was not online in " + timeout);
        }
        Thread.sleep(500);
      }
    }

    /** The health report, whatever its status code (503 while not UP). */
    private String health() throws Exception {
      return http.send(request("/actuator/health"), HttpResponse.BodyHandlers.ofString()).body();
    }

    private boolean accelUp() throws Exception {
      String health = health();
      int accel = health.indexOf("\"accel\"");
      if (accel < 0) {
        return false;
      }
      int db = health.indexOf("\"db\"");
      String part = health.substring(accel, db > accel ? db : health.length());
      return part.contains("\"status\":\"UP\"") && part.contains("\"tables online\":\"2\"");
    }

    double localQueries() throws Exception {
      String body = get("/actuator/metrics/accel.query?tag=destination:local");
      int at = body.indexOf("\"COUNT\",\"value\":");
      String rest = body.substring(at + "\"COUNT\",\"value\":".length());
      return Double.parseDouble(rest.substring(0, rest.indexOf('}')));
    }

    String get(String path) throws Exception {
      HttpResponse<String> r = http.send(request(path), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
      }
      return r.body();
    }

    private HttpRequest request(String path) {
      return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
          .build();
    }

    /** {@code clients} threads, each with its own connection, sending {@code total} requests between them. */
    Result load(int clients, int total, int users) throws Exception {
      run(clients, total, users, 7); // warm-up: the JIT compiles the engine's paths
      long start = System.nanoTime();
      long[] latencies = run(clients, total, users, 11);
      double seconds = (System.nanoTime() - start) / 1e9;
      Arrays.sort(latencies);
      return new Result(total / seconds, latencies[latencies.length / 2] / 1e6,
          latencies[(int) (latencies.length * 0.99)] / 1e6);
    }

    private long[] run(int clients, int total, int users, long seed) throws Exception {
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      try {
        List<Future<long[]>> parts = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
          int n = total / clients;
          long clientSeed = seed * 31 + c;
          parts.add(pool.submit(() -> {
            HttpClient own = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            Random random = new Random(clientSeed);
            long[] times = new long[n];
            for (int i = 0; i < n; i++) {
              HttpRequest r = request("/users/user" + (1 + random.nextInt(users)) + "@example.com/orders?status=SHIPPED");
              long t0 = System.nanoTime();
              HttpResponse<byte[]> response = own.send(r, HttpResponse.BodyHandlers.ofByteArray());
              times[i] = System.nanoTime() - t0;
              if (response.statusCode() != 200) {
                throw new IllegalStateException("answered " + response.statusCode());
              }
            }
            return times;
          }));
        }
        long[] all = new long[0];
        for (Future<long[]> part : parts) {
          long[] p = part.get();
          long[] merged = Arrays.copyOf(all, all.length + p.length);
          System.arraycopy(p, 0, merged, all.length, p.length);
          all = merged;
        }
        return all;
      } finally {
        pool.shutdownNow();
      }
    }

    void pause() throws Exception {
      signal("STOP");
    }

    void resume() throws Exception {
      signal("CONT");
    }

    private void signal(String name) throws Exception {
      new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    void stop() throws Exception {
      signal("CONT");
      process.destroy();
      process.waitFor();
    }
  }
}
