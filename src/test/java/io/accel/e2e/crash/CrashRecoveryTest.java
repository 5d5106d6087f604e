package io.accel.e2e.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of the file store: {@link CrashWriter} runs in its own JVM and is killed with SIGKILL after some
 * hundreds of commits, three times at different points; after each kill the store is reopened here and checked: every
 * transaction reported COMMITTED is fully there, no transaction is partly there, the account index agrees with the
 * table, and the store takes new writes.
 */
class CrashRecoveryTest {
  /** Commits to wait for before each kill (the kill then lands after a random extra delay). */
  private static final int[] KILL_AFTER = {150, 420, 260};
  private static final Pattern NOTE = Pattern.compile("t=(\\d+) n=(\\d+) k=(\\d+)( done)?");

  record Row(long id, int account, long amount, String note) {
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void committedTransactionsSurviveSigkill(@TempDir Path tmp) throws Exception {
    Path store = tmp.resolve("store");
    Random rnd = new Random(Long.getLong("seed", 7));
    long nextTxn = 1;
    long nextId = 1;
    long totalStart = System.nanoTime();
    for (int cycle = 0; cycle < KILL_AFTER.length; cycle++) {
      long t0 = System.nanoTime();
      Run run = runAndKill(store, tmp.resolve("writer-" + cycle + ".err"), cycle == 0, nextTxn, nextId,
          KILL_AFTER[cycle], rnd.nextInt(40), rnd.nextLong());
      long killed = System.nanoTime();
      Verified v = verify(store, run, nextTxn);
      System.out.printf("crash cycle %d: %d commits reported (last txn %d), %d transactions present, %d rows;"
              + " writer %.1fs, reopen+verify %.1fs%n", cycle, run.commits, run.lastTxn.get(), v.maxTxn,
          v.rows, (killed - t0) / 1e9, (System.nanoTime() - killed) / 1e9);
      nextTxn = v.maxTxn + 1 + 1; // the verification wrote one more transaction
      nextId = v.nextId;
    }
    System.out.printf("crash test total %.1fs%n", (System.nanoTime() - totalStart) / 1e9);
  }

  private static final class Run {
    int commits;
    final AtomicLong lastTxn = new AtomicLong(-1);
    final AtomicLong lastId = new AtomicLong(-1);
    final TreeMap<Long, Long> reported = new TreeMap<>(); // txn -> last id
  }

  private Run runAndKill(Path store, Path errFile, boolean create, long txn, long id, int killAfter,
      int extraDelayMs, long seed) throws Exception {
    String java = ProcessHandle.current().info().command().orElse(
        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        CrashWriter.class.getName(), store.toString(), Boolean.toString(create), Long.toString(txn),
        Long.toString(id), Long.toString(seed));
    pb.redirectError(errFile.toFile());
    Process p = pb.start();
    Run run = new Run();
    Object lock = new Object();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.startsWith("COMMITTED ")) {
            String[] parts = line.split(" ");
            synchronized (lock) {
              run.reported.put(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
              run.commits++;
              run.lastTxn.set(Long.parseLong(parts[1]));
              run.lastId.set(Long.parseLong(parts[2]));
              lock.notifyAll();
            }
          }
        }
      } catch (IOException e) {
        // stream closed by the kill
      }
    }, "crash-writer-stdout");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    try {
      synchronized (lock) {
        while (run.commits < killAfter) {
          if (!p.isAlive()) {
            fail("CrashWriter exited (code " + p.exitValue() + ") after " + run.commits + " commits:\n"
                + stderr(errFile));
          }
          if (System.nanoTime() > deadline) {
            fail("CrashWriter reached only " + run.commits + " commits in 40s:\n" + stderr(errFile));
          }
          lock.wait(100);
        }
      }
      Thread.sleep(extraDelayMs);
    } finally {
      p.destroyForcibly(); // SIGKILL on Linux
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("writer died").isTrue();
      reader.join(5000);
    }
    synchronized (lock) {
      Run copy = new Run();
      copy.commits = run.commits;
      copy.lastTxn.set(run.lastTxn.get());
      copy.lastId.set(run.lastId.get());
      copy.reported.putAll(run.reported);
      return copy;
    }
  }

  private static String stderr(Path f) {
    try {
      String s = Files.readString(f);
      return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
    } catch (IOException e) {
      return "(no stderr: " + e + ")";
    }
  }

  record Verified(long maxTxn, long nextId, int rows) {
  }

  private Verified verify(Path store, Run run, long firstTxnOfRun) throws SQLException {
    try (Connection c = DriverManager.getConnection(CrashWriter.url(store.toString()))) {
      List<Row> rows = new ArrayList<>();
      try (Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT id, account, amount, note FROM ledger")) {
        while (rs.next()) {
          rows.add(new Row(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4)));
        }
      }
      // group rows by transaction
      Map<Long, List<Row>> byTxn = new TreeMap<>();
      Set<Long> ids = new HashSet<>();
      for (Row r : rows) {
        assertThat(ids.add(r.id())).as("duplicate id %d", r.id()).isTrue();
        Matcher m = NOTE.matcher(r.note() == null ? "" : r.note());
        assertThat(m.matches()).as("note of row %s", r).isTrue();
        byTxn.computeIfAbsent(Long.parseLong(m.group(1)), k -> new ArrayList<>()).add(r);
      }
      long maxTxn = 0;
      long maxId = 0;
      long total = 0;
      for (Map.Entry<Long, List<Row>> e : byTxn.entrySet()) {
        long txn = e.getKey();
        List<Row> tr = e.getValue();
        tr.sort((a, b) -> Long.compare(a.id(), b.id()));
        Matcher first = NOTE.matcher(tr.get(0).note());
        assertThat(first.matches()).isTrue();
        int n = Integer.parseInt(first.group(2));
        assertThat(tr).as("rows of transaction %d (partially present?)", txn).hasSize(n);
        long sum = 0;
        for (int k = 0; k < n; k++) {
          Row r = tr.get(k);
          assertThat(r.id()).as("ids of transaction %d are consecutive", txn).isEqualTo(tr.get(0).id() + k);
          String expected = CrashWriter.note(txn, n, k) + (k == 0 ? " done" : "");
          assertThat(r.note()).as("row %d of transaction %d (its UPDATE must be there too)", k, txn)
              .isEqualTo(expected);
          sum += r.amount();
        }
        assertThat(sum).as("amounts of transaction %d sum to zero after its UPDATE", txn).isZero();
        total += sum;
        maxTxn = Math.max(maxTxn, txn);
        maxId = Math.max(maxId, tr.get(n - 1).id());
      }
      assertThat(total).as("sum of all amounts").isZero();
      // transactions form a prefix: 1..maxTxn, no holes
      assertThat(byTxn.keySet()).as("transactions present (no holes)").hasSize((int) maxTxn);
      // every reported commit is there, with the reported last id
      for (Map.Entry<Long, Long> e : run.reported.entrySet()) {
        List<Row> tr = byTxn.get(e.getKey());
        assertThat(tr).as("transaction %d was reported COMMITTED but is missing", e.getKey()).isNotNull();
        assertThat(tr.get(tr.size() - 1).id()).as("last id of transaction %d", e.getKey()).isEqualTo(e.getValue());
      }
      assertThat(maxTxn).as("last transaction present >= last reported").isGreaterThanOrEqualTo(run.lastTxn.get());
      assertThat(maxTxn).as("transactions of this run").isGreaterThanOrEqualTo(firstTxnOfRun - 1);

      // count(*) and the account index agree with the full scan
      try (Statement st = c.createStatement()) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM ledger")) {
          rs.next();
          assertThat(rs.getLong(1)).as("count(*)").isEqualTo(rows.size());
        }
        for (int account = 0; account < CrashWriter.ACCOUNTS; account++) {
          Set<Row> viaIndex = new HashSet<>();
          try (ResultSet rs = st.executeQuery("SELECT id, account, amount, note FROM ledger WHERE account = "
              + account)) {
            while (rs.next()) {
              assertThat(viaIndex.add(new Row(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4))))
                  .as("duplicate row through the account index").isTrue();
            }
          }
          final int acct = account;
          Set<Row> scanned = rows.stream().filter(r -> r.account() == acct).collect(Collectors.toSet());
          assertThat(viaIndex).as("rows with account = %d through the index vs the full scan", account)
              .isEqualTo(scanned);
        }
      }

      // the store accepts new writes: one more transaction, committed and read back
      c.setAutoCommit(false);
      long newTxn = maxTxn + 1;
      long last;
      try (CrashWriter.Ledger ledger = new CrashWriter.Ledger(c)) {
        last = ledger.writeTransaction(new Random(newTxn), newTxn, maxId + 1);
      }
      c.commit();
      c.setAutoCommit(true);
      long readBack = 0;
      long amounts = 0;
      try (Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT id, amount FROM ledger WHERE id BETWEEN " + (maxId + 1) + " AND "
               + last)) {
        while (rs.next()) {
          readBack++;
          amounts += rs.getLong(2);
        }
      }
      assertThat(readBack).as("rows of the transaction written after reopening").isEqualTo(last - maxId);
      assertThat(amounts).as("their amounts").isZero();
      return new Verified(maxTxn, last + 1, rows.size());
    }
  }
}
