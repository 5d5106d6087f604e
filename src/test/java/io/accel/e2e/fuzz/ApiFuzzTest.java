package io.accel.e2e.fuzz;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * Random sequences of public JDBC calls against one store, from several threads at once, never crash the JVM, never
 * let anything but an SQLException with a real SQLSTATE reach the caller, and never make uncommitted rows visible:
 * connections opened, closed (twice), dropped without close; statements and prepared statements executed, closed and
 * dropped; result sets over full scans, index ranges, point gets and joins left half read and read later, after
 * commit(), rollback(), setAutoCommit(...), BEGIN/COMMIT/ROLLBACK, statement and connection close; DML; DROP TABLE
 * and CREATE/DROP INDEX under open scans; two threads on one connection; Statement.cancel() from another thread;
 * System.gc().
 *
 * <p>Each seed runs for a few seconds in a JVM of its own ({@link ApiFuzzRun}, launched with {@code -ea} so that
 * RocksJava's assertions catch a use of a closed iterator or snapshot before it reads freed memory). The seed fails
 * when that JVM dies (SIGSEGV, abort: an {@code hs_err} file), hangs, or reports violations: a failure that is not an
 * SQLException with a five-character SQLSTATE, an internal error ({@code XX000}; only with {@code -Dfuzz.strict=true},
 * otherwise listed in the output), a write or read through the
 * writing connection that disagrees with the model of committed rows plus the transaction's own writes, rows at the
 * end other than those committed, or a row of a never-committed transaction read by another connection. Interleavings
 * of threads are not reproducible; the seed fixes each thread's sequence of calls, and each thread's calls are logged
 * in {@code target/fuzz/seed-<n>/ops-t<k>.log}.
 *
 * <p>Seeds 1 to 3 run in every build (about 40 s); {@code -Dfuzz.seeds=1..50} (or {@code 4,9,12}) picks others,
 * {@code -Dfuzz.seconds=N} the time per seed (default 8), {@code -Dfuzz.threads=N} the workers (default 4),
 * {@code -Dfuzz.strict=true} also fails on internal errors, {@code -Dfuzz.run=false} skips the test. Even seeds use a file store, odd seeds an in-memory one.
 */
@DisabledIfSystemProperty(named = "fuzz.run", matches = "false", disabledReason = "-Dfuzz.run=false")
class ApiFuzzTest {
  private static final int SIGABRT_EXIT = 134;
  private static final int SIGSEGV_EXIT = 139;

  static List<Long> seeds() {
    String spec = System.getProperty("fuzz.seeds", "1..3").trim();
    List<Long> out = new ArrayList<>();
    for (String part : spec.split(",")) {
      part = part.trim();
      int range = part.indexOf("..");
      if (range >= 0) {
        long from = Long.parseLong(part.substring(0, range).trim());
        long to = Long.parseLong(part.substring(range + 2).trim());
        for (long s = from; s <= to; s++) {
          out.add(s);
        }
      } else if (!part.isEmpty()) {
        out.add(Long.parseLong(part));
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> randomJdbcCallSequencesNeitherCrashNorLeakInternalErrorsNorExposeUncommittedRows() {
    int seconds = Integer.getInteger("fuzz.seconds", 8);
    int threads = Integer.getInteger("fuzz.threads", 4);
    return seeds().stream().map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> runSeed(seed, seconds, threads)));
  }

  private static void runSeed(long seed, int seconds, int threads) throws Exception {
    Path dir = Path.of("target", "fuzz", "seed-" + seed).toAbsolutePath();
    deleteRecursively(dir);
    Files.createDirectories(dir);
    // a worker's connections write the same rows: one waiting for a row its own other connection holds would wait
    // forever, as with PostgreSQL, so waits end after lock_timeout (55P03), well before the hang watchdog
    String url = (seed % 2 == 0 ? "jdbc:accel:file:" + dir.resolve("store") + "?syncCommits=false&"
        : "jdbc:accel:mem:fuzz" + seed + "?") + "options=-c%20lock_timeout=3s";
    String java = ProcessHandle.current().info().command().orElse(
        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Path output = dir.resolve("child.out");
    // C1 only: a few seconds of fuzzing make three times as many calls as with C2 compiling Calcite meanwhile
    ProcessBuilder pb = new ProcessBuilder(java, "-ea", "-Dfuzz.strict=" + Boolean.getBoolean("fuzz.strict"), "-Xmx768m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"), "-XX:-CreateCoredumpOnCrash",
        "-cp", System.getProperty("java.class.path"), ApiFuzzRun.class.getName(),
        Long.toString(seed), Integer.toString(seconds), Integer.toString(threads), url, dir.toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(output.toFile());
    long t0 = System.nanoTime();
    Process p = pb.start();
    long limit = seconds + 4 * ApiFuzzRun.STALL_SECONDS + 60;
    boolean exited = p.waitFor(limit, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    String rerun = String.format("seed %d (rerun: -Dfuzz.seeds=%d -Dfuzz.seconds=%d -Dfuzz.threads=%d; logs in %s)",
        seed, seed, seconds, threads, dir);
    String out = read(output);
    System.out.printf("api fuzz %s: %s in %.1fs%n", rerun, exited ? "exit code " + p.exitValue() : "killed",
        (System.nanoTime() - t0) / 1e9);
    List<Path> crashes;
    try (Stream<Path> files = Files.list(dir)) {
      crashes = files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList();
    }
    if (!exited) {
      fail("%s: the fuzzing JVM did not exit within %ds and was killed (a hang the watchdog missed).%n%s%n%s", rerun,
          limit, tail(out, 150), callTails(dir));
    }
    int code = p.exitValue();
    if (!crashes.isEmpty() || code == SIGABRT_EXIT || code == SIGSEGV_EXIT) {
      fail("%s: the JVM crashed (exit code %d).%n%s%nchild output (tail):%n%s%n%s", rerun, code,
          crashes.isEmpty() ? "(no hs_err file)" : crashSummary(crashes.get(0)), tail(out, 60), callTails(dir));
    }
    if (code == ApiFuzzRun.EXIT_HANG) {
      fail("%s: a call hung.%n%s", rerun, tail(out, 400));
    }
    if (code != 0 || !out.contains("FUZZ RESULT: clean")) {
      fail("%s: exit code %d.%n%s", rerun, code, head(out, 600));
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + f + ": " + e + ")";
    }
  }

  private static String head(String s, int lines) {
    List<String> all = s.lines().toList();
    return all.size() <= lines ? s
        : String.join("\n", all.subList(0, lines)) + "\n... " + (all.size() - lines) + " more lines";
  }

  private static String tail(String s, int lines) {
    List<String> all = s.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** The last calls of each worker, from the logs written call by call. */
  private static String callTails(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder("last calls of each worker:\n");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("ops-")).sorted().toList()) {
        sb.append(f.getFileName()).append(":\n").append(tail(read(f), 12)).append('\n');
      }
    }
    return sb.toString();
  }

  /** The header of an hs_err file (signal, problematic frame) and its native and Java stacks. */
  private static String crashSummary(Path hsErr) {
    List<String> lines = read(hsErr).lines().toList();
    StringBuilder sb = new StringBuilder("crash report " + hsErr + ":\n");
    lines.stream().filter(l -> l.startsWith("#")).limit(25).forEach(l -> sb.append(l).append('\n'));
    boolean inStack = false;
    int taken = 0;
    for (String l : lines) {
      if (l.startsWith("Native frames:") || l.startsWith("Java frames:")) {
        inStack = true;
      } else if (inStack && l.isBlank()) {
        inStack = false;
      }
      if (inStack && taken++ < 60) {
        sb.append(l).append('\n');
      }
    }
    return sb.toString();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
