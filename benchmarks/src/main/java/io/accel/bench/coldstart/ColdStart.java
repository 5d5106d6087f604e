package io.accel.bench.coldstart;

import io.accel.bench.workload.LineitemData;
import io.accel.bench.workload.WorkloadData;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Cold start as a command-line tool, a test or a short-lived service meets it: fresh JVMs, each timing from its own
 * start to connect, CREATE TABLE, the first INSERT and the first SELECT's result, through Accel's embedded driver
 * ({@code jdbc:accel:mem:}) and through pgJDBC to PostgreSQL, alternating. Prints each phase's median.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.coldstart.ColdStart [runs]
 * </pre>
 */
public final class ColdStart {
  private static final String[] PHASES = {"jvm to main", "connect", "create", "insert", "select", "first result"};

  private ColdStart() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(args[1]);
      return;
    }
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    String pg = WorkloadData.postgresUrl();
    List<long[]> accel = new ArrayList<>();
    List<long[]> postgres = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      accel.add(spawn("jdbc:accel:mem:coldstart"));
      postgres.add(spawn(pg));
    }
    System.out.printf(Locale.ROOT, "%-14s %12s %12s%n", "median of " + runs, "Accel ms", "PostgreSQL ms");
    for (int p = 0; p < PHASES.length; p++) {
      System.out.printf(Locale.ROOT, "%-14s %12d %12d%n", PHASES[p], median(accel, p), median(postgres, p));
    }
  }

  private static long median(List<long[]> runs, int phase) {
    long[] v = runs.stream().mapToLong(r -> r[phase]).sorted().toArray();
    return v[v.length / 2];
  }

  /** Runs one fresh JVM on this class path; its phases in milliseconds. */
  private static long[] spawn(String url) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ColdStart.class.getName(), "--child", url).redirectErrorStream(true).start();
    String result = null;
    List<String> output = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        output.add(line);
        if (line.startsWith("phases ")) {
          result = line.substring("phases ".length());
        }
      }
    }
    if (process.waitFor() != 0 || result == null) {
      throw new IllegalStateException("cold start run on " + url + " failed:\n" + String.join("\n", output));
    }
    return Arrays.stream(result.split(" ")).mapToLong(Long::parseLong).toArray();
  }

  private static void child(String url) throws SQLException {
    long start = ManagementFactory.getRuntimeMXBean().getStartTime();
    long t0 = System.currentTimeMillis();
    String table = "coldstart_" + ProcessHandle.current().pid();
    Properties props = new Properties();
    if (url.startsWith("jdbc:postgresql:")) {
      props.setProperty("user", System.getProperty(LineitemData.POSTGRES_USER_PROPERTY,
          LineitemData.DEFAULT_POSTGRES_USER));
    }
    try (Connection c = DriverManager.getConnection(url, props)) {
      long t1 = System.currentTimeMillis();
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name VARCHAR(20))");
        long t2 = System.currentTimeMillis();
        s.execute("INSERT INTO " + table + " VALUES (1, 'a')");
        long t3 = System.currentTimeMillis();
        String name;
        try (ResultSet rs = s.executeQuery("SELECT name FROM " + table + " WHERE id = 1")) {
          rs.next();
          name = rs.getString(1);
        }
        long t4 = System.currentTimeMillis();
        s.execute("DROP TABLE " + table);
        if (!"a".equals(name)) {
          throw new IllegalStateException("read back " + name);
        }
        System.out.println("phases " + (t0 - start) + " " + (t1 - t0) + " " + (t2 - t1) + " " + (t3 - t2) + " "
            + (t4 - t3) + " " + (t4 - start));
      }
    }
  }
}
