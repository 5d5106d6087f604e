package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Result caches in front of PostgreSQL under concurrent writers: transfers between accounts committed straight to
 * PostgreSQL (the total stays 1,000), and a counter incremented through Accel by one connection. Readers through
 * Accel read the cached total and counter. A cached total is always 1,000 (an upstream transaction is applied and
 * invalidates as a whole), the writing connection always reads back exactly the counter it wrote (read-your-writes
 * through the cache), and no reader sees the counter go back.
 */
class FrontingCacheStressTest extends FrontedDatabase {
  private static final String DB = "accel_cache_stress";

  @Override
  String database() {
    return DB;
  }

  @Override
  void createTables(Statement s) throws SQLException {
    s.execute("DROP TABLE IF EXISTS acct, counter");
    s.execute("CREATE TABLE acct (id int PRIMARY KEY, v int NOT NULL)");
    s.execute("INSERT INTO acct SELECT g, 100 FROM generate_series(1, 10) g");
    s.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint NOT NULL)");
    s.execute("INSERT INTO counter VALUES (1, 0)");
  }

  private Connection accel() throws SQLException {
    return accel("&readYourWritesTimeout=2s");
  }

  @Test
  void cachedResultsStayExactUnderUpstreamAndOwnWrites() throws Exception {
    try (Connection admin = accel(); Statement s = admin.createStatement()) {
      long deadline = System.currentTimeMillis() + 60_000;
      while (!online(s) && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(online(s)).as("the mirror's tables came online").isTrue();
      s.execute("CREATE CACHE total FROM SELECT sum(v) FROM acct");
      s.execute("CREATE CACHE counter_of FROM SELECT n FROM counter WHERE id = $1");

      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong ownReads = new AtomicLong();
      List<Thread> threads = new ArrayList<>();
      threads.add(new Thread(() -> guard(failure, () -> {
        try (Connection direct = Services.logicalPostgres(DB)) {
          direct.setAutoCommit(false);
          try (PreparedStatement move = direct.prepareStatement("UPDATE acct SET v = v + ? WHERE id = ?")) {
            while (!stop.get()) {
              int from = 1 + ThreadLocalRandom.current().nextInt(10);
              int to = 1 + ThreadLocalRandom.current().nextInt(10);
              move.setInt(1, -3);
              move.setInt(2, from);
              move.executeUpdate();
              move.setInt(1, 3);
              move.setInt(2, to);
              move.executeUpdate();
              direct.commit();
            }
          }
        }
      })));
      threads.add(new Thread(() -> guard(failure, () -> {
        try (Connection own = accel(); Statement w = own.createStatement();
            PreparedStatement read = own.prepareStatement("SELECT n FROM counter WHERE id = ?")) {
          long n = 0;
          while (!stop.get()) {
            w.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = 1");
            n++;
            read.setInt(1, 1);
            try (ResultSet rs = read.executeQuery()) {
              assertThat(rs.next()).isTrue();
              assertThat(rs.getLong(1)).as("the writer reads its own write").isEqualTo(n);
            }
            ownReads.incrementAndGet();
          }
        }
      })));
      for (int r = 0; r < 2; r++) {
        threads.add(new Thread(() -> guard(failure, () -> {
          try (Connection reader = accel(); Statement q = reader.createStatement();
              PreparedStatement counter = reader.prepareStatement("SELECT n FROM counter WHERE id = ?")) {
            long seen = 0;
            while (!stop.get()) {
              try (ResultSet rs = q.executeQuery("SELECT sum(v) FROM acct")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("the total").isEqualTo(1000);
              }
              counter.setInt(1, 1);
              try (ResultSet rs = counter.executeQuery()) {
                assertThat(rs.next()).isTrue();
                long n = rs.getLong(1);
                assertThat(n).as("the counter never goes back").isGreaterThanOrEqualTo(seen);
                seen = n;
              }
            }
          }
        })));
      }
      threads.forEach(Thread::start);
      Thread.sleep(6000);
      stop.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      assertThat(ownReads.get()).isPositive();
      long hits = 0;
      try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
        while (rs.next()) {
          hits += rs.getLong("count");
        }
      }
      assertThat(hits).as("reads answered from the caches").isPositive();
      s.execute("DROP ACCEL MIRROR");
    }
  }

  private static boolean online(Statement s) throws SQLException {
    int online = 0;
    try (ResultSet rs = s.executeQuery("SHOW ACCEL TABLES")) {
      while (rs.next()) {
        if (rs.getString(2).equals("online")) {
          online++;
        }
      }
    }
    return online == 2;
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void guard(AtomicReference<Throwable> failure, Body body) {
    try {
      body.run();
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }
}
