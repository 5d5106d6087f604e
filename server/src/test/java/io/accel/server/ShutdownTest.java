package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server as its own process, started as the README says and stopped by SIGTERM. */
class ShutdownTest {
  @TempDir
  Path dir;

  /** A server process on a file store; its output goes to a file. */
  private static final class ServerProcess {
    final Process process;
    final Path output;
    final int port;

    ServerProcess(Path store, Path output) throws IOException, InterruptedException {
      this.output = output;
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), ServerCommand.class.getName(), "--store", "file:" + store,
          "--port", "0", "--shutdown-timeout", "20"));
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
      Pattern listening = Pattern.compile("listening on [^:]+:(\\d+)");
      long deadline = System.currentTimeMillis() + 60_000;
      Integer found = null;
      while (found == null && System.currentTimeMillis() < deadline && process.isAlive()) {
        Matcher m = listening.matcher(Files.readString(output));
        if (m.find()) {
          found = Integer.parseInt(m.group(1));
        } else {
          Thread.sleep(50);
        }
      }
      if (found == null) {
        process.destroyForcibly();
        throw new IllegalStateException("the server did not start: " + Files.readString(output));
      }
      port = found;
    }

    String log() throws IOException {
      return Files.readString(output);
    }

    Connection connect() throws SQLException {
      return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/test", "ops", "");
    }
  }

  @Test
  void sigtermLetsTheRunningStatementFinishAndClosesTheStoreCleanly() throws Exception {
    Path store = dir.resolve("store");
    ServerProcess first = new ServerProcess(store, dir.resolve("first.log"));
    try (Connection c = first.connect(); Statement s = c.createStatement()) {
      s.execute("create table kept(id int primary key, v text)");
      s.execute("insert into kept select x, 'v' || x from (values (1), (2), (3)) as t(x)");
      s.execute("create table wide(id int primary key)");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        values.append(i > 0 ? "," : "").append('(').append(i).append(')');
      }
      s.execute("insert into wide values " + values);
      try (Connection running = first.connect(); Statement slow = running.createStatement()) {
        // about a second of work, under way when SIGTERM arrives
        CompletableFuture<Long> result = CompletableFuture.supplyAsync(() -> {
          try (ResultSet rs = slow.executeQuery("select count(*) from wide a, wide b, wide c where a.id + b.id = c.id")) {
            rs.next();
            return rs.getLong(1);
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
        Thread.sleep(300);
        first.process.destroy(); // SIGTERM
        assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(80_200L);
        assertThat(first.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      }
    }
    assertThat(first.process.exitValue()).isIn(0, 143);
    assertThat(first.log()).contains("Accel server stopped");
    // the store opens again (its lock was released) with everything committed before the stop
    ServerProcess second = new ServerProcess(store, dir.resolve("second.log"));
    try (Connection c = second.connect(); ResultSet rs = c.createStatement().executeQuery("select count(*), max(v) from kept")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(3);
      assertThat(rs.getString(2)).isEqualTo("v3");
    } finally {
      second.process.destroy();
      second.process.waitFor(60, TimeUnit.SECONDS);
    }
  }
}
