package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.e2e.Services;
import io.accel.jdbc.AccelDriver;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accel in front of a real PostgreSQL ({@code jdbc:accel:postgresql://}): the mirror's snapshot and change stream,
 * routing, read-your-writes, authorization parity, schema changes and restarts. PostgreSQL is the oracle: what a
 * read through Accel returns is compared with the same read straight to PostgreSQL.
 */
class FrontingTest {
  private static final String DB = "accel_fronting";

  @TempDir
  Path dir;
  private Connection pg;

  @BeforeEach
  void upstream() throws SQLException {
    AccelDriver.load();
    // orders (20,000 rows) is copied in two key-range parts at once, as a table of millions would be
    System.setProperty("accel.snapshot.splitRows", "5000");
    pg = Services.logicalPostgres(DB);
    try (Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, DB);
      s.execute("DROP SCHEMA public CASCADE");
      s.execute("CREATE SCHEMA public");
      s.execute("GRANT ALL ON SCHEMA public TO public");
      s.execute("""
          CREATE TABLE users (id bigint PRIMARY KEY, name text NOT NULL, email varchar(100) UNIQUE, score int2,
            balance numeric(12,2), ratio float8, weight float4, active bool, born date, wakes time, seen timestamp,
            created timestamptz, avatar bytea, token uuid, code char(3))""");
      s.execute("CREATE TABLE orders (id bigint PRIMARY KEY, user_id bigint NOT NULL, status text NOT NULL, amount numeric(10,2))");
      s.execute("CREATE INDEX orders_user_status ON orders (user_id, status)");
      s.execute("CREATE TABLE docs (id int PRIMARY KEY, body jsonb)");
      s.execute("CREATE TABLE log (at timestamptz, message text)");
      s.execute("""
          INSERT INTO users SELECT g, 'user' || g, 'u' || g || '@example.com', (g % 100)::int2, g * 1.25, g / 7.0,
            g / 3.0, g % 2 = 0, DATE '2000-01-01' + g, TIME '06:30:00' + g * INTERVAL '1 second',
            TIMESTAMP '2026-01-01 00:00:00.123' + g * INTERVAL '1 minute',
            TIMESTAMPTZ '2026-01-01 00:00:00.5+00' + g * INTERVAL '1 hour', decode(lpad(to_hex(g), 8, '0'), 'hex'),
            md5(g::text)::uuid, CASE WHEN g % 5 = 0 THEN NULL ELSE 'c' || (g % 10) END
          FROM generate_series(1, 2000) g""");
      s.execute("INSERT INTO orders SELECT g, 1 + g % 2000, CASE WHEN g % 3 = 0 THEN 'SHIPPED' ELSE 'NEW' END, g % 1000"
          + " FROM generate_series(1, 20000) g");
      s.execute("INSERT INTO docs VALUES (1, '{\"a\": 1}')");
      s.execute("ANALYZE"); // row estimates: the mirror splits tables it estimates large
    }
  }

  @AfterEach
  void close() throws SQLException {
    if (pg != null) {
      // a stopped mirror's slot would make PostgreSQL keep WAL for it from run to run
      try (Statement s = pg.createStatement()) {
        Services.dropMirrorObjects(s, DB);
      }
      pg.close();
    }
  }

  private String url() {
    return "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir=" + dir;
  }

  private Connection accel() throws SQLException {
    return DriverManager.getConnection(url());
  }

  static String[] lastRoute(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
      assertThat(rs.next()).isTrue();
      return new String[] {rs.getString(1), rs.getString(2)};
    }
  }

  /** Every row of a query, each value in one comparable form (numbers as plain decimals, bytes as hex). */
  private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          if (v instanceof Number num && !(v instanceof BigDecimal)) {
            v = new BigDecimal(num.toString());
          }
          if (v instanceof BigDecimal d) {
            v = d.stripTrailingZeros().toPlainString();
          } else if (v instanceof byte[] b) {
            v = HexFormat.of().formatHex(b);
          } else if (v instanceof java.sql.Timestamp t) {
            v = t.toInstant().toString();
          } else if (v instanceof java.time.OffsetDateTime t) {
            v = t.toInstant().toString();
          } else if (v != null && !(v instanceof Boolean) && !(v instanceof String)) {
            v = v.toString();
          }
          row.add(v);
        }
        out.add(row);
      }
    }
    return out;
  }

  private static void eventually(Supplier<Boolean> condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 20_000;
    while (System.currentTimeMillis() < deadline) {
      if (condition.get()) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("not within 20 s: " + what);
  }

  private static Map<String, String> tableStates(Connection c) throws SQLException {
    Map<String, String> m = new TreeMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW ACCEL TABLES")) {
      while (rs.next()) {
        m.put(rs.getString(1), rs.getString(2) + (rs.getString(3).isEmpty() ? "" : ": " + rs.getString(3)));
      }
    }
    return m;
  }

  @Test
  void readsOfMirroredTablesRunLocallyAndMatchPostgres() throws Exception {
    try (Connection c = accel()) {
      Map<String, String> states = tableStates(c);
      assertThat(states.get("users")).isEqualTo("online");
      assertThat(states.get("orders")).isEqualTo("online");
      assertThat(states.get("docs")).startsWith("not mirrored: columns of types Accel does not have: body jsonb");
      assertThat(states.get("log")).startsWith("not mirrored: no primary key");

      for (String sql : List.of(
          "SELECT * FROM users ORDER BY id",
          "SELECT u.name, o.id, o.amount FROM users u JOIN orders o ON o.user_id = u.id"
              + " WHERE u.id BETWEEN 10 AND 20 AND o.status = 'SHIPPED' ORDER BY o.id",
          "SELECT status, count(*), sum(amount) FROM orders GROUP BY status ORDER BY status",
          "SELECT code, count(*) FROM users GROUP BY code ORDER BY code NULLS FIRST")) {
        assertThat(rows(c, sql)).as(sql).isEqualTo(rows(pg, sql));
        assertThat(lastRoute(c)[0]).as(sql).isEqualTo("accel");
      }
      assertThat(rows(c, "SELECT * FROM docs")).isEqualTo(rows(pg, "SELECT * FROM docs"));
      assertThat(lastRoute(c)).containsExactly("upstream", "table docs is not mirrored: columns of types Accel does"
          + " not have: body jsonb");
      assertThat(rows(c, "SELECT current_database()")).containsExactly(List.of(DB));
      assertThat(lastRoute(c)[0]).isEqualTo("upstream");
      try (ResultSet rs = c.createStatement().executeQuery("SHOW PROXIED QUERIES")) {
        List<String> texts = new ArrayList<>();
        while (rs.next()) {
          assertThat(rs.getString(1)).startsWith("q_");
          texts.add(rs.getString(2));
        }
        assertThat(texts).contains("SELECT * FROM docs", "SELECT current_database()");
      }
    }
  }

  @Test
  void upstreamChangesReachTheMirror() throws Exception {
    try (Connection c = accel()) {
      String big = "x".repeat(10_000) + "y";
      try (Statement s = pg.createStatement()) {
        s.execute("INSERT INTO users (id, name, email) VALUES (5001, '" + big + "', 'big@example.com')");
        s.execute("UPDATE users SET score = 7 WHERE id = 5001"); // the TOASTed name is not sent again
        s.execute("UPDATE orders SET status = 'CANCELLED' WHERE id BETWEEN 1 AND 50");
        s.execute("DELETE FROM orders WHERE id BETWEEN 100 AND 199");
        s.execute("UPDATE users SET id = 6001 WHERE id = 1"); // a primary key update
        s.execute("BEGIN; INSERT INTO orders VALUES (900001, 2, 'NEW', 1); INSERT INTO orders VALUES (900002, 2,"
            + " 'NEW', 2); COMMIT");
      }
      String users = "SELECT id, name, score FROM users WHERE id IN (1, 5001, 6001) ORDER BY id";
      String orders = "SELECT status, count(*), sum(amount) FROM orders GROUP BY status ORDER BY status";
      List<List<Object>> expectedUsers = rows(pg, users);
      List<List<Object>> expectedOrders = rows(pg, orders);
      eventually(() -> same(c, users, expectedUsers) && same(c, orders, expectedOrders), "the changes are mirrored");
      assertThat(lastRoute(c)[0]).isEqualTo("accel");
      assertThat(rows(c, "SELECT name FROM users WHERE id = 5001")).containsExactly(List.of(big));

      try (Statement s = pg.createStatement()) {
        s.execute("TRUNCATE orders");
      }
      eventually(() -> same(c, "SELECT count(*) FROM orders", List.of(List.of("0"))), "the truncate is mirrored");
    }
  }

  private static boolean same(Connection c, String sql, List<List<Object>> expected) {
    try {
      return rows(c, sql).equals(expected) && lastRoute(c)[0].equals("accel");
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aConnectionReadsItsOwnWritesWaitingForTheMirror() throws Exception {
    int local = readOwnWrites(url() + "&readYourWritesTimeout=2s", 0);
    assertThat(local).as("reads served by the mirror after waiting for it").isGreaterThan(250);
  }

  @Test
  void aConnectionReadsItsOwnWritesUpstreamUntilTheMirrorHasThem() throws Exception {
    // by default a read that comes before the mirror holds the connection's write goes upstream; one that comes a
    // little later runs on the mirror
    int local = readOwnWrites(url(), 20);
    assertThat(local).as("reads served by the mirror 20 ms after the write").isGreaterThan(100);
  }

  /** Writes and reads back 300 times; every read must see its write. Returns how many reads ran on the mirror. */
  private int readOwnWrites(String url, long pauseMillis) throws Exception {
    try (Connection c = DriverManager.getConnection(url); PreparedStatement insert = c.prepareStatement(
        "INSERT INTO orders (id, user_id, status, amount) VALUES (?, 77, 'NEW', 1)");
        PreparedStatement count = c.prepareStatement("SELECT count(*) FROM orders WHERE user_id = ?");
        Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM orders WHERE user_id = 77");
      int local = 0;
      count.setLong(1, 77);
      for (int i = 1; i <= 300; i++) {
        insert.setLong(1, 1_000_000 + i);
        assertThat(insert.executeUpdate()).isEqualTo(1);
        try (ResultSet rs = count.executeQuery()) {
          rs.next();
          assertThat(rs.getLong(1)).as("read right after write %d", i).isEqualTo(i);
        }
        if (pauseMillis > 0) {
          Thread.sleep(pauseMillis);
          try (ResultSet rs = count.executeQuery()) {
            rs.next();
            assertThat(rs.getLong(1)).as("read %d ms after write %d", pauseMillis, i).isEqualTo(i);
          }
        }
        if (lastRoute(c)[0].equals("accel")) {
          local++;
        }
      }
      return local;
    }
  }

  @Test
  void writesErrorsAndTransactionsAreThePostgresOnes() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO users (id, name) VALUES (1, 'dup')"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
          .hasMessageContaining("users_pkey");
      assertThatThrownBy(() -> s.executeQuery("SELECT nosuch FROM users"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42703"));
      assertThatThrownBy(() -> s.executeQuery("SELEC 1"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"));

      c.setAutoCommit(false);
      s.executeUpdate("UPDATE users SET name = 'in-transaction' WHERE id = 2");
      assertThat(rows(c, "SELECT name FROM users WHERE id = 2")).containsExactly(List.of("in-transaction"));
      assertThat(lastRoute(c)[0]).isEqualTo("upstream");
      c.rollback();
      c.setAutoCommit(true);
      assertThat(rows(c, "SELECT name FROM users WHERE id = 2")).containsExactly(List.of("user2"));
      eventually(() -> same(c, "SELECT name FROM users WHERE id = 2", List.of(List.of("user2"))),
          "reads return to the mirror once it has caught up with the rolled-back transaction's end");

      try (ResultSet rs = s.executeQuery("SELECT id FROM users WHERE id = 3 FOR UPDATE")) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(lastRoute(c)[0]).isEqualTo("upstream");
    }
  }

  @Test
  void aUserReadsLocallyOnlyWhatPostgresLetsItRead() throws Exception {
    try (Statement s = pg.createStatement()) {
      s.execute("DROP ROLE IF EXISTS accel_reader");
      s.execute("CREATE ROLE accel_reader LOGIN");
      s.execute("GRANT SELECT ON users TO accel_reader");
      s.execute("GRANT SELECT (id, user_id) ON orders TO accel_reader");
    }
    try (Connection owner = accel()) {
      assertThat(tableStates(owner).get("users")).isEqualTo("online");
      String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=accel_reader&mirrorDir="
          + dir;
      try (Connection c = DriverManager.getConnection(url)) {
        assertThat(rows(c, "SELECT count(*) FROM users")).containsExactly(List.of("2000"));
        assertThat(lastRoute(c)[0]).isEqualTo("accel");
        assertThatThrownBy(() -> rows(c, "SELECT count(*) FROM orders WHERE status = 'NEW'"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"));
        assertThat(rows(c, "SELECT count(*) FROM orders WHERE user_id = 5")).containsExactly(List.of("10"));
        assertThat(lastRoute(c)[0]).isEqualTo("upstream");
      }
    } finally {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP OWNED BY accel_reader");
        s.execute("DROP ROLE accel_reader");
      }
    }
  }

  @Test
  void aSchemaChangeTakesTheTableOfflineUntilItIsMirroredAgain() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      assertThat(rows(c, "SELECT count(*) FROM orders")).containsExactly(List.of("20000"));
      s.execute("ALTER TABLE orders ADD COLUMN note text DEFAULT 'n'");
      // never the old schema: the new column is there whether the read runs upstream or on the new snapshot
      assertThat(rows(c, "SELECT * FROM orders WHERE id = 5")).containsExactly(List.of("5", "6", "NEW", "5", "n"));
      eventually(() -> {
        try {
          return rows(c, "SELECT note FROM orders WHERE id = 5").equals(List.of(List.of("n")))
              && lastRoute(c)[0].equals("accel");
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      }, "orders is mirrored again with its new column");

      // a table created (and filled) upstream joins the mirror; one dropped leaves it; the others stay online
      s.execute("CREATE TABLE tags (id int PRIMARY KEY, label text)");
      s.executeUpdate("INSERT INTO tags SELECT g, 'tag' || g FROM generate_series(1, 100) g");
      eventually(() -> same(c, "SELECT count(*), max(label) FROM tags", List.of(List.of("100", "tag99"))),
          "a new table is mirrored");
      try (Statement direct = pg.createStatement()) {
        direct.execute("INSERT INTO tags VALUES (101, 'late')");
      }
      eventually(() -> same(c, "SELECT label FROM tags WHERE id = 101", List.of(List.of("late"))),
          "the new table's later changes are streamed");
      s.execute("DROP TABLE tags");
      eventually(() -> {
        try {
          return !tableStates(c).containsKey("tags");
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      }, "a dropped table leaves the mirror");
      assertThat(tableStates(c).get("users")).isEqualTo("online");
    }
  }

  @Test
  void theMirrorResumesAfterARestartAndRecoversFromALostSlot() throws Exception {
    try (Connection c = accel()) {
      assertThat(rows(c, "SELECT count(*) FROM orders")).containsExactly(List.of("20000"));
    }
    // the mirror closed with its last connection; the upstream moves on meanwhile
    try (Statement s = pg.createStatement()) {
      s.execute("INSERT INTO orders SELECT g, 1, 'NEW', 1 FROM generate_series(20001, 20100) g");
    }
    try (Connection c = accel()) {
      eventually(() -> same(c, "SELECT count(*) FROM orders", List.of(List.of("20100"))), "resumed");
      try (ResultSet rs = c.createStatement().executeQuery("SHOW ACCEL STATUS")) {
        Map<String, String> status = new TreeMap<>();
        while (rs.next()) {
          status.put(rs.getString(1), rs.getString(2));
        }
        assertThat(status.get("replication")).isEqualTo("streaming");
        assertThat(Long.parseLong(status.get("transactions applied"))).isPositive();
      }
    }
    try (Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, DB);
      s.execute("DELETE FROM orders WHERE id > 20000");
    }
    try (Connection c = accel()) {
      // a new snapshot: the rows deleted while no slot recorded changes are gone
      assertThat(rows(c, "SELECT count(*) FROM orders")).containsExactly(List.of("20000"));
      assertThat(lastRoute(c)[0]).isEqualTo("accel");
    }
  }

  @Test
  void mirrorOnlyIndexesAreAccelsAlone() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      s.execute("CREATE MIRROR INDEX orders_amount ON orders (amount)");
      try (ResultSet rs = pg.createStatement().executeQuery(
          "SELECT count(*) FROM pg_indexes WHERE indexname = 'orders_amount'")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
      String sql = "SELECT id FROM orders WHERE amount = 999 ORDER BY id";
      assertThat(rows(c, sql)).isEqualTo(rows(pg, sql));
      assertThat(rows(c, "EXPLAIN " + sql).toString()).contains("orders_amount");
      s.execute("DROP MIRROR INDEX orders_amount");
      assertThat(rows(c, "EXPLAIN " + sql).toString()).doesNotContain("orders_amount");
    }
  }

  @Test
  void readersNeverSeeUncommittedOrPartialUpstreamTransactions() throws Exception {
    try (Statement s = pg.createStatement()) {
      s.execute("CREATE TABLE batches (id bigint PRIMARY KEY, batch int NOT NULL, committed bool NOT NULL)");
      s.execute("CREATE INDEX batches_batch ON batches (batch)");
    }
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger lastBatch = new java.util.concurrent.atomic.AtomicInteger();
    try (Connection c = accel()) {
      Thread writer = new Thread(() -> {
        try (Connection w = Services.logicalPostgres(DB)) {
          w.setAutoCommit(false);
          java.util.Random rnd = new java.util.Random(3);
          long id = 1;
          for (int batch = 1; !stop.get() && batch <= 400; batch++) {
            boolean commit = rnd.nextInt(4) != 0;
            try (Statement ws = w.createStatement()) {
              // every committed batch holds exactly 5 rows; a rolled-back one must never be seen
              for (int i = 0; i < 5; i++) {
                ws.execute("INSERT INTO batches VALUES (" + id++ + ", " + batch + ", " + commit + ")");
              }
            }
            if (commit) {
              w.commit();
              lastBatch.set(batch);
            } else {
              w.rollback();
            }
          }
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      writer.start();
      int reads = 0;
      int local = 0;
      while (writer.isAlive()) {
        for (List<Object> row : rows(c, "SELECT batch, count(*), bool_and(committed) FROM batches GROUP BY batch")) {
          assertThat(row.get(1)).as("rows of batch %s", row.get(0)).isEqualTo("5");
          assertThat(row.get(2)).as("batch %s was committed", row.get(0)).isEqualTo(Boolean.TRUE);
        }
        reads++;
        if (lastRoute(c)[0].equals("accel")) {
          local++;
        }
      }
      writer.join();
      assertThat(local).as("reads served by the mirror of %d", reads).isGreaterThan(reads / 2);
      String sql = "SELECT count(*), sum(id), max(batch) FROM batches";
      List<List<Object>> expected = rows(pg, sql);
      eventually(() -> same(c, sql, expected), "the mirror converges");
    } finally {
      stop.set(true);
    }
  }

  @Test
  void readsGoUpstreamWhileTheMirrorLagsMoreThanMaxStaleness() throws Exception {
    try (Connection c = DriverManager.getConnection(url() + "&maxStaleness=300ms&consistency=eventual")) {
      assertThat(rows(c, "SELECT count(*) FROM orders")).containsExactly(List.of("20000"));
      assertThat(lastRoute(c)[0]).isEqualTo("accel");
      // the stream keeps failing (its walsender is terminated as soon as it reads the slot) and waits longer between
      // attempts each time: meanwhile the mirror lags
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      Thread breaker = new Thread(() -> {
        try (Connection admin = Services.logicalPostgres(DB); Statement s = admin.createStatement()) {
          while (!stop.get()) {
            s.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = '" + DB
                + "' AND active");
            Thread.sleep(20);
          }
        } catch (SQLException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      breaker.start();
      try {
        eventually(() -> {
          try {
            rows(c, "SELECT count(*) FROM orders");
            String[] route = lastRoute(c);
            return route[0].equals("upstream") && route[1].contains("maxStaleness");
          } catch (SQLException e) {
            throw new AssertionError(e);
          }
        }, "reads go upstream while the mirror lags");
      } finally {
        stop.set(true);
        breaker.join();
      }
      eventually(() -> same(c, "SELECT count(*) FROM orders", List.of(List.of("20000"))),
          "reads come back to the mirror once it has caught up");
    }
  }

  @Test
  void dropAccelMirrorRemovesTheSlotAndThePublication() throws Exception {
    try (Connection c = accel(); Statement s = c.createStatement()) {
      assertThat(rows(pg, "SELECT count(*) FROM pg_replication_slots WHERE database = '" + DB + "'"))
          .containsExactly(List.of("1"));
      assertThat(s.execute("DROP ACCEL MIRROR")).isFalse();
      assertThat(rows(pg, "SELECT count(*) FROM pg_replication_slots WHERE database = '" + DB + "'"))
          .containsExactly(List.of("0"));
      assertThat(rows(pg, "SELECT count(*) FROM pg_publication")).containsExactly(List.of("0"));
      assertThat(tableStates(c).get("orders")).isEqualTo("offline: the mirror was dropped");
      assertThat(rows(c, "SELECT count(*) FROM orders")).containsExactly(List.of("20000"));
      assertThat(lastRoute(c)[0]).isEqualTo("upstream");
    }
  }

  @Test
  void aTableWithoutAPrimaryKeyIsMirroredWithReplicaIdentityFullAndOneWithRowSecurityIsNot() throws Exception {
    try (Statement s = pg.createStatement()) {
      s.execute("ALTER TABLE log REPLICA IDENTITY FULL");
      s.execute("INSERT INTO log SELECT TIMESTAMPTZ '2026-01-01 00:00:00+00' + g * INTERVAL '1 minute', 'm' || (g % 3)"
          + " FROM generate_series(1, 30) g");
      s.execute("CREATE TABLE secrets (id int PRIMARY KEY, owner text)");
      s.execute("ALTER TABLE secrets ENABLE ROW LEVEL SECURITY");
    }
    try (Connection c = accel()) {
      Map<String, String> states = tableStates(c);
      assertThat(states.get("log")).isEqualTo("online");
      assertThat(states.get("secrets")).isEqualTo("not mirrored: row-level security is enabled: its reads go upstream");
      try (Statement s = pg.createStatement()) {
        // duplicate rows: an update and a delete of one of several equal rows must touch exactly one
        s.execute("INSERT INTO log VALUES (TIMESTAMPTZ '2026-01-01 00:01:00+00', 'm1')");
        s.execute("UPDATE log SET message = 'changed' WHERE message = 'm2'");
        s.execute("DELETE FROM log WHERE ctid = (SELECT min(ctid) FROM log WHERE message = 'm1')");
      }
      String sql = "SELECT message, count(*), min(at), max(at) FROM log GROUP BY message ORDER BY message";
      List<List<Object>> expected = rows(pg, sql);
      eventually(() -> same(c, sql, expected), "the table without a primary key converges");
      assertThat(rows(c, "SELECT count(*) FROM secrets")).containsExactly(List.of("0"));
      assertThat(lastRoute(c)[0]).isEqualTo("upstream");
    }
  }

  @Test
  void unusableUpstreamsAreClearErrors() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:accel:postgresql://127.0.0.1:1/test?user=postgres"
        + "&mirrorDir=" + dir + "&connectTimeout=2"))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
        .hasMessageContaining("127.0.0.1:1");
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT
        + "/" + DB + "?user=postgres&mirrorDir=" + dir + "&consistency=sometimes"))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"))
        .hasMessageContaining("consistency");
    // the machine's own PostgreSQL runs with wal_level=replica: it cannot be mirrored, and says so
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:accel:postgresql://127.0.0.1:5432/test?user=postgres"
        + "&mirrorDir=" + dir.resolve("replica")))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55000"))
        .hasMessageContaining("wal_level=logical");
  }
}
