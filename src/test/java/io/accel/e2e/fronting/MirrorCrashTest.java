package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.e2e.Services;
import io.accel.jdbc.AccelDriver;
import java.io.BufferedReader;
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
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mirror under SIGKILL: a process holding it is killed during its snapshot and then while it streams, under a
 * concurrent upstream write load; the mirror reopened afterwards converges to exactly the upstream's rows (compared
 * by per-table checksums through Accel, which must run locally, and straight on PostgreSQL).
 */
class MirrorCrashTest {
  private static final String DB = "accel_crash";

  @TempDir
  Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aKilledMirrorResumesAndConverges() throws Exception {
    AccelDriver.load();
    freshUpstream(400_000);
    String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir="
        + dir.resolve("mirror");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong writes = new AtomicLong();
    Thread load = new Thread(() -> writeLoad(stop, writes), "upstream-load");
    load.start();
    try {
      // killed during the snapshot: the next start must not trust a half-loaded store
      kill(url, "connecting", 400);
      // killed while streaming under the load
      kill(url, "ready", 1500);
      kill(url, "ready", 700);
    } finally {
      stop.set(true);
      load.join();
    }
    assertThat(writes.get()).as("upstream transactions written meanwhile").isGreaterThan(50);
    try (Connection pg = Services.logicalPostgres(DB); Connection c = DriverManager.getConnection(url)) {
      for (String table : List.of("events", "accounts")) {
        String sum = table.equals("events")
            ? "SELECT count(*), sum(id), sum(account * amount), sum(length(note)) FROM events"
            : "SELECT count(*), sum(id * balance), sum(balance) FROM accounts";
        List<String> expected = row(pg, sum);
        long deadline = System.currentTimeMillis() + 30_000;
        List<String> actual = row(c, sum);
        while (!(actual.equals(expected) && local(c)) && System.currentTimeMillis() < deadline) {
          Thread.sleep(50);
          actual = row(c, sum);
        }
        assertThat(actual).as(table + " through the mirror").isEqualTo(expected);
        assertThat(local(c)).as(table + " read locally").isTrue();
      }
      try (Statement s = c.createStatement()) {
        // the slot would make PostgreSQL keep WAL for this test's mirror from run to run
        s.execute("DROP ACCEL MIRROR");
      }
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aSecondProcessOnTheSameMirrorDirectoryIsToldWhatToDo() throws Exception {
    AccelDriver.load();
    freshUpstream(0);
    String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir="
        + dir.resolve("shared");
    Process holder = start(url);
    try {
      awaitLine(holder, "ready");
      assertThatThrownBy(() -> DriverManager.getConnection(url))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08006"))
          .hasMessageContaining("in use by another process").hasMessageContaining("mirrorDir");
    } finally {
      holder.destroyForcibly();
      holder.waitFor(20, TimeUnit.SECONDS);
    }
    try (Connection pg = Services.logicalPostgres(DB); Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, DB);
    }
  }

  /** An application that returns from main with its connection open exits all the same, as with pgJDBC. */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aJvmWhoseApplicationEndedWithoutClosingExits() throws Exception {
    AccelDriver.load();
    freshUpstream(1_000);
    String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir="
        + dir.resolve("abandoned");
    Process p = start(url, "abandon");
    try {
      awaitLine(p, "abandoning 500");
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the JVM exited after main returned").isTrue();
      assertThat(p.exitValue()).isZero();
    } finally {
      p.destroyForcibly();
    }
    try (Connection pg = Services.logicalPostgres(DB); Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, DB);
    }
  }

  private Process start(String url, String... more) throws Exception {
    String java = ProcessHandle.current().info().command().orElse(
        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // the holder's stderr (Debezium's and Accel's log) is kept beside the test's mirror directory
    Path err = Files.createTempFile(dir, "holder", ".err");
    List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        MirrorHolder.class.getName(), url));
    command.addAll(List.of(more));
    return new ProcessBuilder(command).redirectError(err.toFile()).start();
  }

  private static void awaitLine(Process p, String wanted) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null && !line.equals(wanted)) {
      // wait
    }
    assertThat(line).isEqualTo(wanted);
  }

  /** No mirror slots, and tables events (with {@code events} rows) and accounts (500 at balance 0) upstream. */
  private static void freshUpstream(int events) throws SQLException {
    try (Connection pg = Services.logicalPostgres(DB); Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, DB);
      s.execute("DROP TABLE IF EXISTS events, accounts");
      s.execute("CREATE TABLE events (id bigint PRIMARY KEY, account int NOT NULL, amount int NOT NULL, note text)");
      s.execute("CREATE INDEX events_account ON events (account)");
      s.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)");
      s.execute("INSERT INTO events SELECT g, g % 500, g % 97, 'note ' || g FROM generate_series(1, " + events + ") g");
      s.execute("INSERT INTO accounts SELECT g, 0 FROM generate_series(0, 499) g");
    }
  }

  private static boolean local(Connection c) throws SQLException {
    return FrontingTest.lastRoute(c)[0].equals("accel");
  }


  private static List<String> row(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      List<String> out = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getString(i));
      }
      return out;
    }
  }

  /** Transactions of inserts, updates, deletes and transfers upstream until stopped. */
  private static void writeLoad(AtomicBoolean stop, AtomicLong writes) {
    Random rnd = new Random(11);
    long next = 1_000_000;
    try (Connection pg = Services.logicalPostgres(DB)) {
      pg.setAutoCommit(false);
      try (Statement s = pg.createStatement()) {
        while (!stop.get()) {
          int a = rnd.nextInt(500);
          int b = rnd.nextInt(500);
          int amount = 1 + rnd.nextInt(50);
          s.execute("UPDATE accounts SET balance = balance - " + amount + " WHERE id = " + a);
          s.execute("UPDATE accounts SET balance = balance + " + amount + " WHERE id = " + b);
          s.execute("INSERT INTO events VALUES (" + next++ + ", " + a + ", " + amount + ", 'transfer')");
          s.execute("UPDATE events SET amount = amount + 1 WHERE id = " + (1 + rnd.nextInt(400_000)));
          s.execute("DELETE FROM events WHERE id = " + (1 + rnd.nextInt(400_000)));
          if (rnd.nextInt(10) == 0) {
            pg.rollback();
          } else {
            pg.commit();
            writes.incrementAndGet();
          }
          Thread.sleep(2);
        }
      }
    } catch (SQLException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Starts a {@link MirrorHolder}, waits for its line {@code waitFor}, lets it run {@code afterMillis}, kills it. */
  private void kill(String url, String waitFor, long afterMillis) throws Exception {
    Process p = start(url);
    try {
      awaitLine(p, waitFor);
      Thread.sleep(afterMillis);
      assertThat(p.isAlive()).as("holder alive before the kill").isTrue();
    } finally {
      p.destroyForcibly();
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    }
  }

}
