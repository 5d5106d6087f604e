package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server in front of a real PostgreSQL (--upstream; the wal_level=logical cluster .ci/pg-logical starts):
 * psql, pgJDBC and pgbench connect to Accel, authenticate against the upstream, read from the mirror where it
 * can answer, and see everything else exactly as PostgreSQL answers it.
 */
class FrontingServerTest {
  private static final String HOST_PORT = System.getenv().getOrDefault("ACCEL_PG_LOGICAL", "127.0.0.1:5434");
  private static final String DATABASE = "server_front";
  private static TestServer server;
  private static Path mirrorDir;

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS users, orders, secrets, loaded");
      s.execute("DROP ROLE IF EXISTS accel_srv_reader");
      s.execute("DROP ROLE IF EXISTS accel_scram");
      s.execute("DROP ROLE IF EXISTS accel_clear");
      s.execute("CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, city text, score numeric(8,2))");
      s.execute("CREATE INDEX users_city ON users (city)");
      s.execute("CREATE TABLE orders (id bigint PRIMARY KEY, user_id int NOT NULL, amount int, placed date)");
      s.execute("CREATE TABLE secrets (id int PRIMARY KEY, code text)");
      s.execute("CREATE TABLE loaded (id int PRIMARY KEY, label text)");
      s.execute("INSERT INTO users SELECT g, 'user' || g, 'city' || (g % 20), g * 1.5 FROM generate_series(1, 2000) g");
      s.execute("INSERT INTO orders SELECT g, 1 + g % 2000, g % 97, date '2024-01-01' + g % 300"
          + " FROM generate_series(1, 10000) g");
      s.execute("INSERT INTO secrets VALUES (1, 'classified')");
      s.execute("CREATE ROLE accel_srv_reader LOGIN");
      s.execute("GRANT SELECT ON users TO accel_srv_reader");
      // .ci/pg-logical makes these two authenticate with a password (SCRAM and cleartext), everyone else by trust
      s.execute("SET password_encryption = 'scram-sha-256'");
      s.execute("CREATE ROLE accel_scram LOGIN PASSWORD 'scram secret'");
      s.execute("CREATE ROLE accel_clear LOGIN PASSWORD 'clear secret'");
      s.execute("GRANT SELECT ON users TO accel_scram, accel_clear");
    }
    mirrorDir = Files.createTempDirectory("accel-front");
    ServerConfig config = ServerConfig.forTests("file:" + mirrorDir).withUpstream("file:" + mirrorDir,
        "postgresql://postgres@" + HOST_PORT + "/" + DATABASE + "?slotName=accel_server_front");
    server = new TestServer(config);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      try (Connection c = connect(new Properties()); Statement s = c.createStatement()) {
        s.execute("DROP ACCEL MIRROR"); // the slot and publication go with it: an idle slot would keep WAL
      }
      server.close();
    }
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      // roles are the cluster's: other tests may drop them, which their grants here would prevent
      s.execute("DROP OWNED BY accel_srv_reader, accel_scram, accel_clear");
    }
  }

  /** A direct connection to the upstream's test database, created when missing; skipped outside CI without one. */
  static Connection upstream() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/postgres", p);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
        if (!rs.next()) {
          s.execute("CREATE DATABASE " + DATABASE);
        }
      }
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name ="
          + " 'accel_server_front' AND NOT active");
    } catch (SQLException e) {
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw e;
      }
      Assumptions.abort("PostgreSQL with wal_level=logical at " + HOST_PORT + " is unreachable (" + e.getMessage()
          + "); start one with .ci/pg-logical");
    }
    return DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/" + DATABASE, p);
  }

  private static String conninfo(String user) {
    return "host=127.0.0.1 port=" + server.port() + " dbname=" + DATABASE + " user=" + user;
  }

  private static Connection connect(Properties extra) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.putAll(extra);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + DATABASE, p);
  }

  private static String destination(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1) + ": " + rs.getString(2);
    }
  }

  @Test
  void psqlReadsLocallyWritesUpstreamAndReadsItsOwnWrite() throws Exception {
    Psql.Run run = Psql.psql(conninfo("postgres"), Map.of(),
        "-c", "SELECT name, city FROM users WHERE id = 7",
        "-c", "EXPLAIN LAST STATEMENT",
        "-c", "INSERT INTO users VALUES (9001, 'newcomer', 'city3', 1)",
        "-c", "SELECT count(*) FROM users WHERE city = 'city3'",
        "-c", "SELECT current_setting('server_version_num')::int >= 150000",
        "-c", "EXPLAIN LAST STATEMENT");
    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().toList()).containsExactly(
        "user7|city7",
        "accel|mirrored tables users",
        "INSERT 0 1",
        "101",
        "t",
        "upstream|reads no mirrored table");
  }

  @Test
  void errorsNoticesAndTransactionsAreThoseOfPostgres() throws Exception {
    Psql.Run run = Psql.psql(conninfo("postgres"), Map.of(),
        "-c", "SELECT 1/0",
        "-c", "SELECT * FROM no_such_table",
        "-c", "BEGIN",
        "-c", "UPDATE users SET city = 'moved' WHERE id = 11",
        "-c", "SELECT city FROM users WHERE id = 11",
        "-c", "EXPLAIN LAST STATEMENT",
        "-c", "ROLLBACK",
        "-c", "SELECT city FROM users WHERE id = 11; SELECT count(*) FROM users WHERE id = 11",
        "-c", "COMMIT");
    assertThat(run.err()).contains("ERROR:  22012: division by zero")
        .contains("ERROR:  42P01: relation \"no_such_table\" does not exist")
        .contains("WARNING:  25P01: there is no transaction in progress");
    assertThat(run.out().lines().toList()).containsExactly("BEGIN", "UPDATE 1", "moved",
        "upstream|in a transaction block: every statement of a transaction runs upstream", "ROLLBACK", "city11", "1",
        "COMMIT");
  }

  @Test
  void copyGoesUpstreamInBothDirections() throws Exception {
    StringBuilder data = new StringBuilder();
    for (int i = 1; i <= 500; i++) {
      data.append(i).append('\t').append("label ").append(i).append('\n');
    }
    Psql.Run in = Psql.run(Map.of(), data + "\\.\n", "psql", "-X", "-v", "ON_ERROR_STOP=1", "-d",
        conninfo("postgres"), "-c", "COPY loaded FROM STDIN");
    assertThat(in.err()).isEmpty();
    assertThat(in.out()).contains("COPY 500");
    try (Connection c = upstream(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), sum(id) FROM loaded")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(500);
      assertThat(rs.getLong(2)).isEqualTo(500L * 501 / 2);
    }
    Psql.Run out = Psql.psql(conninfo("postgres"), Map.of(), "-c", "COPY (SELECT id, name FROM users WHERE id <= 3"
        + " ORDER BY id) TO STDOUT WITH (FORMAT csv)");
    assertThat(out.out().lines().toList()).containsExactly("1,user1", "2,user2", "3,user3");
  }

  /** Random prepared reads, in text and binary transfer: each equal to PostgreSQL's own answer, most served locally. */
  @Test
  void preparedStatementsAnswerAsPostgresDoes() throws Exception {
    for (String binary : List.of("false", "true")) {
      Properties p = new Properties();
      p.setProperty("prepareThreshold", "1");
      p.setProperty("binaryTransfer", binary);
      String sql = "SELECT u.name, u.score, o.amount, o.placed FROM users u JOIN orders o ON o.user_id = u.id"
          + " WHERE u.id = ? ORDER BY o.id";
      try (Connection accel = connect(p); Connection pg = upstream();
          PreparedStatement a = accel.prepareStatement(sql); PreparedStatement d = pg.prepareStatement(sql);
          Statement s = accel.createStatement()) {
        Random random = new Random(42);
        for (int i = 0; i < 50; i++) {
          int id = 1 + random.nextInt(2000);
          a.setInt(1, id);
          d.setInt(1, id);
          assertThat(rows(a.executeQuery())).as("user %d, binary %s", id, binary).isEqualTo(rows(d.executeQuery()))
              .isNotEmpty();
        }
        assertThat(destination(s)).startsWith("accel: mirrored tables").contains("users").contains("orders");
        // the column origins are the upstream's (its OIDs, not the mirror's), as pgJDBC's metadata looks them up
        try (ResultSet rs = a.executeQuery()) {
          var md = rs.getMetaData().unwrap(org.postgresql.PGResultSetMetaData.class);
          var upstream = d.getMetaData().unwrap(org.postgresql.PGResultSetMetaData.class);
          for (int col = 1; col <= 4; col++) {
            assertThat(md.getBaseTableName(col)).isEqualTo(upstream.getBaseTableName(col)).isNotEmpty();
            assertThat(md.getBaseColumnName(col)).isEqualTo(upstream.getBaseColumnName(col));
          }
        }
      }
    }
  }

  @Test
  void jdbcWritesTransactionsAndGeneratedKeysGoUpstream() throws Exception {
    try (Connection c = connect(new Properties()); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS events (id serial PRIMARY KEY, kind text)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO events (kind) VALUES (?)",
          Statement.RETURN_GENERATED_KEYS)) {
        insert.setString(1, "first");
        insert.executeUpdate();
        try (ResultSet keys = insert.getGeneratedKeys()) {
          assertThat(keys.next()).isTrue();
          assertThat(keys.getInt("id")).isPositive();
        }
      }
      c.setAutoCommit(false);
      try (PreparedStatement batch = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, DATE '2025-01-01')")) {
        for (int i = 0; i < 20; i++) {
          batch.setLong(1, 100_000 + i);
          batch.setInt(2, 5);
          batch.setInt(3, 1000 + i);
          batch.addBatch();
        }
        assertThat(batch.executeBatch()).hasSize(20).containsOnly(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM orders WHERE user_id = 5 AND amount >= 1000")) {
        rs.next();
        assertThat(rs.getLong(1)).as("the transaction sees its own uncommitted rows").isEqualTo(20);
      }
      c.rollback();
      c.setAutoCommit(true);
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM orders WHERE user_id = 5 AND amount >= 1000")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO users VALUES (1, 'dup', 'x', 0)"))
          .isInstanceOf(SQLException.class).hasMessageContaining("users_pkey")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
    }
  }

  /** Read-your-writes: a connection that wrote never reads a mirror that does not have its write yet. */
  @Test
  void aConnectionAlwaysReadsItsOwnWrites() throws Exception {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", "1");
    try (Connection c = connect(p);
        PreparedStatement update = c.prepareStatement("UPDATE users SET score = ? WHERE id = 42");
        PreparedStatement read = c.prepareStatement("SELECT score FROM users WHERE id = ?")) {
      for (int i = 0; i < 200; i++) {
        update.setBigDecimal(1, new java.math.BigDecimal(i));
        assertThat(update.executeUpdate()).isEqualTo(1);
        read.setInt(1, 42);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getBigDecimal(1).intValueExact()).isEqualTo(i);
        }
      }
    }
  }

  /** Clients authenticate against the upstream: a user there with no privilege on a table gets PostgreSQL's 42501. */
  @Test
  void privilegesAreTheUpstreams() throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "accel_srv_reader");
    try (Connection c = connect(p); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT name FROM users WHERE id = 3")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("user3");
      }
      assertThatThrownBy(() -> s.executeQuery("SELECT code FROM secrets"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"))
          .hasMessageContaining("permission denied for table secrets");
      try (ResultSet rs = s.executeQuery("SELECT current_user")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("accel_srv_reader");
      }
    }
    Properties nobody = new Properties();
    nobody.setProperty("user", "no_such_role");
    assertThatThrownBy(() -> connect(nobody)).isInstanceOf(SQLException.class)
        .hasMessageContaining("role \"no_such_role\" does not exist");
  }

  /** A role change sends reads upstream (privileges are the role's); back to the connection's own role, they return. */
  @Test
  void readsReturnToTheMirrorWhenTheRoleComesBack() throws Exception {
    Psql.Run run = Psql.psql(conninfo("postgres"), Map.of(),
        "-c", "SET ROLE accel_srv_reader",
        "-c", "SELECT name FROM users WHERE id = 1",
        "-c", "EXPLAIN LAST STATEMENT",
        "-c", "SET ROLE 'postgres'",
        "-c", "SELECT name FROM users WHERE id = 1",
        "-c", "EXPLAIN LAST STATEMENT",
        "-c", "SET ROLE accel_srv_reader",
        "-c", "RESET ROLE",
        "-c", "SELECT name FROM users WHERE id = 1",
        "-c", "EXPLAIN LAST STATEMENT");
    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().toList()).containsExactly("SET", "user1",
        "upstream|the connection changed its role: privileges are checked upstream", "SET", "user1",
        "accel|mirrored tables users", "SET", "RESET", "user1", "accel|mirrored tables users");
  }

  /** Passwords are checked by the upstream: SCRAM and cleartext exchanges pass through Accel unchanged. */
  @Test
  void authenticationPassesThroughToTheUpstream() throws Exception {
    for (String[] role : new String[][] {{"accel_scram", "scram secret"}, {"accel_clear", "clear secret"}}) {
      Psql.Run ok = Psql.psql(conninfo(role[0]), Map.of("PGPASSWORD", role[1]),
          "-c", "SELECT current_user, name FROM users WHERE id = 5", "-c", "EXPLAIN LAST STATEMENT");
      assertThat(ok.err()).isEmpty();
      assertThat(ok.out().lines().toList()).containsExactly(role[0] + "|user5", "accel|mirrored tables users");
      Psql.Run wrong = Psql.psql(conninfo(role[0]), Map.of("PGPASSWORD", "wrong"), "-c", "SELECT 1");
      assertThat(wrong.exit()).isNotZero();
      assertThat(wrong.err()).contains("password authentication failed for user \"" + role[0] + "\"");
      Properties bad = new Properties();
      bad.setProperty("user", role[0]);
      bad.setProperty("password", "wrong");
      assertThatThrownBy(() -> connect(bad))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
      Properties p = new Properties();
      p.setProperty("user", role[0]);
      p.setProperty("password", role[1]);
      try (Connection c = connect(p); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM users")) {
        rs.next();
        assertThat(rs.getLong(1)).isGreaterThanOrEqualTo(2000);
      }
    }
  }

  /** A server whose upstream cannot be reached says so, naming it, and does not start. */
  @Test
  void anUnreachableUpstreamIsAClearError() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-down");
    ServerConfig config = ServerConfig.forTests("file:" + dir).withUpstream("file:" + dir,
        "postgresql://postgres@127.0.0.1:1/" + DATABASE);
    assertThatThrownBy(() -> new TestServer(config)).hasMessageContaining("127.0.0.1:1")
        .satisfies(e -> assertThat(e).isInstanceOf(io.accel.sql.AccelException.class))
        .satisfies(e -> assertThat(((io.accel.sql.AccelException) e).state().code()).isEqualTo("08001"));
  }

  /** An idle fronted listener gets a notification as the upstream sends it, not with its next statement's replies. */
  @Test
  void anIdleListenerGetsNotificationsAtOnce() throws Exception {
    try (Connection listener = connect(new Properties()); Statement s = listener.createStatement();
        Connection notifier = upstream(); Statement n = notifier.createStatement()) {
      s.execute("LISTEN accel_front_channel");
      org.postgresql.PGConnection pg = listener.unwrap(org.postgresql.PGConnection.class);
      long start = System.nanoTime();
      CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(300);
          n.execute("SELECT pg_notify('accel_front_channel', 'idle')");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      org.postgresql.PGNotification[] got = pg.getNotifications(10_000);
      send.get();
      assertThat(got).isNotNull().hasSize(1);
      assertThat(got[0].getParameter()).isEqualTo("idle");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
      try (ResultSet rs = s.executeQuery("SELECT name FROM users WHERE id = 5")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("user5");
      }
    }
  }

  /** A CancelRequest to Accel stops the statement running upstream. */
  @Test
  void cancelReachesTheUpstream() throws Exception {
    try (Connection c = connect(new Properties()); Statement s = c.createStatement()) {
      CompletableFuture<Void> cancel = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(500);
          s.cancel();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      long start = System.nanoTime();
      assertThatThrownBy(() -> s.execute("SELECT pg_sleep(30)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
      cancel.get();
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  /** pgbench through Accel: the select-only script reads the mirror, TPC-B's writes go upstream and stay consistent. */
  @Test
  void pgbenchRunsThroughAccel() throws Exception {
    Map<String, String> upstreamEnv = Map.of("PGHOST", HOST_PORT.split(":")[0], "PGPORT", HOST_PORT.split(":")[1],
        "PGUSER", "postgres", "PGDATABASE", DATABASE);
    Psql.Run init = Psql.run(upstreamEnv, null, "pgbench", "-i", "-s", "1", "-q");
    assertThat(init.exit()).as(init.err()).isZero();
    Map<String, String> env = Map.of("PGHOST", "127.0.0.1", "PGPORT", Integer.toString(server.port()),
        "PGUSER", "postgres", "PGDATABASE", DATABASE);
    for (String mode : List.of("simple", "extended", "prepared")) {
      Psql.Run select = Psql.run(env, null, "pgbench", "-n", "-S", "-M", mode, "-c", "2", "-T", "2");
      assertThat(select.exit()).as(select.err()).isZero();
      assertThat(select.out()).contains("number of failed transactions: 0");
    }
    Psql.Run tpcb = Psql.run(env, null, "pgbench", "-n", "-M", "prepared", "-c", "2", "-T", "2");
    assertThat(tpcb.exit()).as(tpcb.err()).isZero();
    try (Connection c = upstream(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(delta) FROM pgbench_history)")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(rs.getLong(2));
    }
  }

  /**
   * A cache made through the server answers repeated reads from the mirror, shows the connection its own write, and
   * drops the result once the mirror applies a write made straight to PostgreSQL.
   */
  @Test
  void cachedQueriesStayExactThroughTheMirror() throws Exception {
    try (Connection accel = connect(new Properties()); Statement s = accel.createStatement();
        Connection pg = upstream(); Statement direct = pg.createStatement();
        PreparedStatement q = accel.prepareStatement("SELECT city FROM users WHERE id = ?")) {
      s.execute("CREATE CACHE user_city FROM SELECT city FROM users WHERE id = $1");
      q.setInt(1, 1999);
      for (int i = 0; i < 3; i++) {
        assertThat(single(q)).isEqualTo("city19");
      }
      assertThat(destination(s)).isEqualTo("accel: mirrored tables users; answered from cache user_city");
      s.execute("UPDATE users SET city = 'moved here' WHERE id = 1999");
      assertThat(single(q)).isEqualTo("moved here");
      direct.execute("UPDATE users SET city = 'moved there' WHERE id = 1999");
      String seen = single(q);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!seen.equals("moved there") && System.nanoTime() < deadline) {
        Thread.sleep(20);
        seen = single(q);
      }
      assertThat(seen).isEqualTo("moved there");
      try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("cache name")).isEqualTo("user_city");
        assertThat(rs.getString("query text")).isEqualTo("SELECT city FROM users WHERE id = $1");
        assertThat(rs.getLong("count")).isGreaterThanOrEqualTo(2);
      }
      try (ResultSet rs = s.executeQuery("EXPLAIN CREATE CACHE FROM SELECT name FROM users WHERE city = 'x'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("supported")).isEqualTo("yes");
      }
      s.execute("DROP CACHE user_city");
      try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
        assertThat(rs.next()).isFalse();
      }
    }
  }

  /**
   * A shallow cache of a query only the upstream answers (a function Accel lacks): psql's simple queries are answered
   * from the upstream's kept replies until the TTL ends, on any connection; a DEEP cache of it is refused.
   */
  @Test
  void aShallowCacheKeepsWhatOnlyTheUpstreamAnswersForSimpleQueries() throws Exception {
    String query = "SELECT name, pg_column_size(name) > 0 FROM users WHERE id = 1234";
    try (Connection accel = connect(new Properties()); Statement s = accel.createStatement();
        Connection pg = upstream(); Statement direct = pg.createStatement()) {
      assertThatThrownBy(() -> s.execute("CREATE CACHE FROM " + query))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("only the upstream can answer it");
      s.execute("CREATE SHALLOW CACHE POLICY TTL 3 SECONDS name_size FROM " + query);
      try {
        Psql.Run r = Psql.psql(conninfo("postgres"), Map.of(), "-c", query, "-c", "EXPLAIN LAST STATEMENT");
        assertThat(r.out()).as(r.err()).startsWith("user1234|t\nupstream|not supported by Accel")
            .contains("kept in shallow cache name_size for 3 s");
        long filled = System.nanoTime();
        direct.execute("UPDATE users SET name = 'renamed' WHERE id = 1234");
        // another connection: the kept replies answer it, the upstream is not asked
        r = Psql.psql(conninfo("postgres"), Map.of(), "-c", query, "-c", "EXPLAIN LAST STATEMENT");
        assertThat(r.out()).as(r.err()).startsWith("user1234|t\naccel|answered from shallow cache name_size");
        String out;
        do {
          out = Psql.psql(conninfo("postgres"), Map.of(), "-c", query).out();
        } while (out.startsWith("user1234") && System.nanoTime() - filled < TimeUnit.SECONDS.toNanos(10));
        assertThat(out).isEqualTo("renamed|t\n");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - filled)).isGreaterThanOrEqualTo(2_900);
        try (ResultSet rs = s.executeQuery("SHOW CACHES")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString("cache name")).isEqualTo("name_size");
          assertThat(rs.getString("properties")).startsWith("shallow, ttl 3 s, upstream results");
          assertThat(rs.getLong("count")).isPositive();
        }
        Map<String, String> status = new java.util.HashMap<>();
        try (ResultSet rs = s.executeQuery("SHOW ACCEL STATUS")) {
          while (rs.next()) {
            status.put(rs.getString("name"), rs.getString("value"));
          }
        }
        assertThat(status).containsEntry("mode", "fronting").containsKey("store size on disk (bytes)");
        assertThat(Long.parseLong(status.get("result cache hits"))).isPositive();
      } finally {
        s.execute("DROP CACHE name_size");
        direct.execute("UPDATE users SET name = 'user1234' WHERE id = 1234");
      }
    }
  }

  private static String single(PreparedStatement q) throws SQLException {
    try (ResultSet rs = q.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  private static List<List<String>> rows(ResultSet rs) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (rs) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Savepoints through the fronting server: the block runs upstream, and psql sees PostgreSQL's answers. */
  @Test
  void savepointsRunUpstreamInTheTransaction() throws Exception {
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS sp_items");
      s.execute("CREATE TABLE sp_items (id int PRIMARY KEY)");
    }
    try {
      Psql.Run r = Psql.run(Map.of(), """
          savepoint a;
          begin;
          insert into sp_items values (1);
          savepoint a;
          insert into sp_items values (2);
          insert into sp_items values (1);
          rollback to a;
          insert into sp_items values (3);
          release savepoint a;
          commit;
          select id from sp_items order by id;
          """, "psql", "-X", "-A", "-t", "-d", conninfo("postgres"));
      assertThat(r.out()).as(r.err()).isEqualTo(
          "BEGIN\nINSERT 0 1\nSAVEPOINT\nINSERT 0 1\nROLLBACK\nINSERT 0 1\nRELEASE\nCOMMIT\n1\n3\n");
      assertThat(r.err()).contains("SAVEPOINT can only be used in transaction blocks")
          .contains("duplicate key value violates unique constraint \"sp_items_pkey\"");
    } finally {
      try (Connection c = upstream(); Statement s = c.createStatement()) {
        s.execute("DROP TABLE sp_items");
      }
    }
  }
}
