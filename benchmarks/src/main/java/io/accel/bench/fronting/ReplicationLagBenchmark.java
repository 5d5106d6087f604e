package io.accel.bench.fronting;

import io.accel.storage.StoreOptions;
import io.accel.upstream.Mirror;
import io.accel.upstream.Mirrors;
import io.accel.upstream.UpstreamConfig;
import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Replication lag under load: pgbench's TPC-B ({@code clients} clients, as fast as they go) writes to the fronted
 * PostgreSQL while each operation asks the mirror for a position after every commit so far and waits until it has
 * applied them: the time from "committed upstream" to "readable locally", plus one round trip. Sample mode gives
 * p0.50 and p0.99. Setup: {@code pgbench -i -s 10} into database {@code accel_pgbench} (once), its mirror under
 * {@code target/bench-data/mirror-pgbench}; the pgbench run is started before the warmup and stopped at the end.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main ReplicationLagBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 4)
public class ReplicationLagBenchmark {
  static final String DATABASE = "accel_pgbench";

  @Param({"1", "4"})
  public int clients;

  private Mirror mirror;
  private Process pgbench;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String hostPort = Upstream.hostPortDb().substring(0, Upstream.hostPortDb().indexOf('/'));
    String host = hostPort.substring(0, hostPort.indexOf(':'));
    String port = hostPort.substring(hostPort.indexOf(':') + 1);
    String bin = pgbenchBinary();
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + hostPort + "/postgres?user=postgres");
        Statement s = c.createStatement()) {
      boolean exists;
      try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
        exists = rs.next();
      }
      if (!exists) {
        s.execute("CREATE DATABASE " + DATABASE);
        run(new ProcessBuilder(bin, "-h", host, "-p", port, "-U", "postgres", "-i", "-s", "10", "-q", DATABASE));
      }
    }
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("mirrorDir", Upstream.mirrorDir("pgbench").toString());
    long t0 = System.nanoTime();
    mirror = Mirrors.acquire(UpstreamConfig.parse("postgresql://" + hostPort + "/" + DATABASE, p),
        StoreOptions.DEFAULTS);
    System.out.printf("mirror of %s ready in %.1f s: %s%n", DATABASE, (System.nanoTime() - t0) / 1e9,
        mirror.tableStatuses());
    pgbench = new ProcessBuilder(bin, "-h", host, "-p", port, "-U", "postgres", "-c", Integer.toString(clients),
        "-j", "2", "-T", "90", "-n", DATABASE).redirectErrorStream(true)
        .redirectOutput(new File(System.getProperty("java.io.tmpdir"), "accel-pgbench.log")).start();
    Process started = pgbench;
    Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
    Thread.sleep(1000);
    if (!pgbench.isAlive()) {
      throw new IllegalStateException("pgbench stopped at once; see accel-pgbench.log in " + System.getProperty(
          "java.io.tmpdir"));
    }
  }

  private static String pgbenchBinary() {
    for (String dir : new String[] {"/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/bin"}) {
      if (new File(dir, "pgbench").canExecute()) {
        return Path.of(dir, "pgbench").toString();
      }
    }
    return "pgbench";
  }

  private static void run(ProcessBuilder pb) throws Exception {
    Process p = pb.inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("failed: " + pb.command());
    }
  }

  @Benchmark
  public long lag() {
    long point = mirror.syncPoint();
    if (!mirror.awaitPosition(point, 120_000)) {
      throw new IllegalStateException("the mirror did not catch up within 120 s");
    }
    return point;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (pgbench != null) {
      pgbench.destroyForcibly();
      pgbench.waitFor(10, TimeUnit.SECONDS);
    }
    if (mirror != null) {
      System.out.println("mirror status: " + mirror.statusValues());
      mirror.drop(); // its slot would make PostgreSQL keep WAL
      Mirrors.release(mirror);
    }
  }
}
