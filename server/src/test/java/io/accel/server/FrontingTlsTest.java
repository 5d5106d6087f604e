package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server in front of a PostgreSQL that takes TLS (the logical cluster, whose CA .ci/pg-logical copies next to
 * its data directory, and whose role accel_tls may connect over TLS only): the mirror's own connections and every
 * client's upstream link negotiate TLS as sslmode says, and a refused or unverifiable upstream is a clear 08001.
 */
class FrontingTlsTest {
  private static final String HOST_PORT = System.getenv().getOrDefault("ACCEL_PG_LOGICAL", "127.0.0.1:5434");
  private static final String HOST = HOST_PORT.substring(0, HOST_PORT.lastIndexOf(':'));
  private static final int PORT = Integer.parseInt(HOST_PORT.substring(HOST_PORT.lastIndexOf(':') + 1));
  private static final Path CA = Path.of(System.getenv().getOrDefault("ACCEL_PG_LOGICAL_CA",
      "/var/lib/postgresql/accel-logical-root.crt"));
  private static final String DATABASE = "server_tls";
  private static TestServer server;
  private static Path mirrorDir;

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS items");
      s.execute("CREATE TABLE items (id int PRIMARY KEY, label text)");
      s.execute("INSERT INTO items SELECT g, 'item' || g FROM generate_series(1, 100) g");
      // the mirror connects as accel_tls (TLS only): its publication needs the table's ownership
      s.execute("ALTER TABLE items OWNER TO accel_tls");
      s.execute("GRANT CREATE ON DATABASE " + DATABASE + " TO accel_tls");
    }
    mirrorDir = Files.createTempDirectory("accel-front-tls");
    server = new TestServer(fronting(mirrorDir, "accel_tls", "verify-full&sslrootcert=" + CA, "accel_server_tls"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
        s.execute("DROP ACCEL MIRROR"); // the slot and publication go with it
      }
      server.close();
    }
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS items");
      s.execute("REVOKE CREATE ON DATABASE " + DATABASE + " FROM accel_tls");
    }
  }

  private static ServerConfig fronting(Path dir, String user, String sslmode, String slot) {
    return ServerConfig.forTests("file:" + dir).withUpstream("file:" + dir, "postgresql://" + user + "@" + HOST_PORT
        + "/" + DATABASE + "?slotName=" + slot + "&sslmode=" + sslmode);
  }

  /**
   * A direct connection to the upstream's test database (created when missing); skipped outside CI without the
   * cluster, its CA or its TLS-only role (all three made by .ci/pg-logical).
   */
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
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name LIKE"
          + " 'accel_server_tls%' AND NOT active");
      try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = 'accel_tls'")) {
        if (!rs.next() || !Files.isReadable(CA)) {
          throw new SQLException("no role accel_tls or no CA certificate at " + CA);
        }
      }
    } catch (SQLException e) {
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw e;
      }
      Assumptions.abort("PostgreSQL with wal_level=logical and TLS at " + HOST_PORT + " is unavailable ("
          + e.getMessage() + "); start one with .ci/pg-logical");
    }
    return DriverManager.getConnection("jdbc:postgresql://" + HOST_PORT + "/" + DATABASE, p);
  }

  private static Connection connect(String user) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + DATABASE, p);
  }

  private static String conninfo(TestServer s, String user) {
    return "host=127.0.0.1 port=" + s.port() + " dbname=" + DATABASE + " user=" + user + " sslmode=disable";
  }

  @Test
  void theTlsOnlyRoleIsRefusedPlainTcpAndTakenOverTls() throws Exception {
    Psql.Run plain = Psql.psql("host=" + HOST + " port=" + PORT + " dbname=" + DATABASE
        + " user=accel_tls sslmode=disable", Map.of(), "-c", "SELECT 1");
    assertThat(plain.err()).contains("no encryption");
    Psql.Run tls = Psql.psql("host=" + HOST + " port=" + PORT + " dbname=" + DATABASE
        + " user=accel_tls sslmode=verify-full sslrootcert=" + CA, Map.of(), "-c", "SELECT 1");
    assertThat(tls.err()).isEmpty();
    assertThat(tls.out().trim()).isEqualTo("1");
  }

  /** verify-full: the mirror (as the TLS-only role) answers reads; writes and the rest go upstream over TLS. */
  @Test
  void psqlThroughAVerifyFullUpstreamReadsLocallyAndWritesUpstream() throws Exception {
    for (String user : new String[] {"postgres", "accel_tls"}) {
      int id = user.equals("postgres") ? 1001 : 1002;
      Psql.Run run = Psql.psql(conninfo(server, user), Map.of(),
          "-c", "SELECT label FROM items WHERE id = 7",
          "-c", "EXPLAIN LAST STATEMENT",
          "-c", "INSERT INTO items VALUES (" + id + ", 'new')",
          "-c", "SELECT label FROM items WHERE id = " + id,
          "-c", "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
          "-c", "EXPLAIN LAST STATEMENT");
      assertThat(run.err()).isEmpty();
      assertThat(run.out().lines().toList()).as(user).hasSize(6).startsWith(
          "item7",
          "accel|mirrored tables items",
          "INSERT 0 1",
          "new",
          "t|TLSv1.3");
      assertThat(run.out().lines().toList().get(5)).startsWith("upstream|");
    }
  }

  /** An idle client that listens gets a notification as it is sent, as from PostgreSQL, not with its next reply. */
  @Test
  void anIdleListenerGetsNotificationsAtOnce() throws Exception {
    try (Connection listener = connect("accel_tls"); Statement s = listener.createStatement();
        Connection notifier = upstream(); Statement n = notifier.createStatement()) {
      s.execute("LISTEN accel_tls_channel");
      org.postgresql.PGConnection pg = listener.unwrap(org.postgresql.PGConnection.class);
      for (int i = 0; i < 3; i++) {
        long start = System.nanoTime();
        CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
          try {
            Thread.sleep(300); // the listener waits, idle, before it comes
            n.execute("NOTIFY accel_tls_channel, 'payload " + start + "'");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        org.postgresql.PGNotification[] got = pg.getNotifications(10_000);
        send.get();
        assertThat(got).isNotNull().hasSize(1);
        assertThat(got[0].getName()).isEqualTo("accel_tls_channel");
        assertThat(got[0].getParameter()).isEqualTo("payload " + start);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        // the connection goes on, locally and upstream
        try (ResultSet rs = s.executeQuery("SELECT label FROM items WHERE id = 3")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("item3");
        }
        try (ResultSet rs = s.executeQuery("SELECT pg_listening_channels()")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("accel_tls_channel");
        }
      }
      // a notification that came while the client was busy upstream arrives with that statement's replies
      n.execute("NOTIFY accel_tls_channel, 'late'");
      Thread.sleep(200);
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertThat(rs.next()).isTrue();
      }
      org.postgresql.PGNotification[] late = pg.getNotifications(10_000);
      assertThat(late).isNotNull().hasSize(1);
      assertThat(late[0].getParameter()).isEqualTo("late");
    }
  }

  /** A client's cancel reaches a statement of a TLS link (sent over TLS too). */
  @Test
  void cancelReachesATlsUpstream() throws Exception {
    try (Connection c = connect("accel_tls"); Statement s = c.createStatement()) {
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
    }
  }

  /** require: TLS without checking the certificate, for the mirror's connections and the clients' alike. */
  @Test
  void requireMirrorsAndRelaysOverTlsForTheTlsOnlyRole() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-tls-require");
    try (TestServer require = new TestServer(fronting(dir, "accel_tls", "require", "accel_server_tls_require"))) {
      try {
        Psql.Run run = Psql.psql(conninfo(require, "accel_tls"), Map.of(),
            "-c", "SELECT count(*) FROM items WHERE id <= 100",
            "-c", "EXPLAIN LAST STATEMENT",
            "-c", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
        assertThat(run.err()).isEmpty();
        assertThat(run.out().lines().toList()).containsExactly("100", "accel|mirrored tables items", "t");
      } finally {
        Psql.Run drop = Psql.psql(conninfo(require, "accel_tls"), Map.of(), "-c", "DROP ACCEL MIRROR");
        assertThat(drop.err()).isEmpty();
      }
    }
  }

  /**
   * SCRAM over TLS on both sides: the client cannot bind to the upstream's channel, and announcing that it could
   * is a downgrade to the upstream; with channel_binding=disable it authenticates.
   */
  @Test
  void scramFromATlsClientToATlsUpstreamNeedsChannelBindingDisabled() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-tls-scram");
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
        key.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=localhost").redirectErrorStream(true)
        .start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    try (Connection c = upstream(); Statement s = c.createStatement()) {
      s.execute("SET password_encryption = 'scram-sha-256'");
      s.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'accel_scram') THEN"
          + " CREATE ROLE accel_scram LOGIN PASSWORD 'scram secret'; END IF; END$$");
      s.execute("ALTER ROLE accel_scram PASSWORD 'scram secret'");
    }
    Path store = dir.resolve("store");
    ServerConfig config = fronting(store, "accel_tls", "verify-full&sslrootcert=" + CA, "accel_server_tls_scram")
        .withTls(ServerConfig.Tls.OPTIONAL, cert, key);
    try (TestServer tlsServer = new TestServer(config)) {
      try {
        String info = "host=127.0.0.1 port=" + tlsServer.port() + " dbname=" + DATABASE + " user=accel_scram";
        Map<String, String> password = Map.of("PGPASSWORD", "scram secret");
        Psql.Run plain = Psql.psql(info + " sslmode=disable", password, "-c", "SELECT 1");
        assertThat(plain.err()).isEmpty();
        Psql.Run binding = Psql.psql(info + " sslmode=require", password, "-c", "SELECT 1");
        assertThat(binding.err()).contains("channel binding");
        Psql.Run disabled = Psql.psql(info + " sslmode=require channel_binding=disable", password, "-c",
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
        assertThat(disabled.err()).isEmpty();
        assertThat(disabled.out().trim()).isEqualTo("t");
      } finally {
        Psql.Run drop = Psql.psql("host=127.0.0.1 port=" + tlsServer.port() + " dbname=" + DATABASE
            + " user=postgres sslmode=disable", Map.of(), "-c", "DROP ACCEL MIRROR");
        assertThat(drop.err()).isEmpty();
      }
    }
  }

  /** allow: plain TCP first, and TLS when pg_hba.conf refuses the plain connection (the TLS-only role). */
  @Test
  void allowTriesPlainThenTls() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-tls-allow");
    try (TestServer allow = new TestServer(fronting(dir, "postgres", "allow", "accel_server_tls_allow"))) {
      try {
        for (String[] expected : new String[][] {{"postgres", "f"}, {"accel_tls", "t"}}) {
          Psql.Run run = Psql.psql(conninfo(allow, expected[0]), Map.of(),
              "-c", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
          assertThat(run.err()).isEmpty();
          assertThat(run.out().trim()).as(expected[0]).isEqualTo(expected[1]);
        }
      } finally {
        Psql.Run drop = Psql.psql(conninfo(allow, "postgres"), Map.of(), "-c", "DROP ACCEL MIRROR");
        assertThat(drop.err()).isEmpty();
      }
    }
  }

  /** verify-ca with a CA that did not sign the upstream's certificate: the server does not start, and says why. */
  @Test
  void aWrongCaFailsVerificationWithAClearError() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-tls-wrong");
    Path wrong = dir.resolve("wrong-root.crt");
    Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=not the upstream's CA", "-keyout", dir.resolve("wrong-root.key").toString(), "-out",
        wrong.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertThatThrownBy(() -> new TestServer(fronting(dir, "accel_tls", "verify-ca&sslrootcert=" + wrong,
        "accel_server_tls_wrong")))
        .hasMessageContaining(HOST_PORT)
        .hasMessageContaining("SSL")
        .satisfies(e -> assertThat(((io.accel.sql.AccelException) e).state().code()).isEqualTo("08001"));
    // a client's own link checks the certificate the same way (the server maps the failure to 08001)
    UpstreamTls tls = UpstreamTls.of(properties("verify-ca", wrong));
    assertThatThrownBy(() -> UpstreamLink.connect(HOST, PORT, tls, false))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot connect to the upstream PostgreSQL at " + HOST_PORT + ": SSL error");
    try (UpstreamLink link = UpstreamLink.connect(HOST, PORT, UpstreamTls.of(properties("verify-full", CA)), false)) {
      assertThat(link.encrypted()).isTrue();
    }
    try (Connection c = upstream(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name ="
            + " 'accel_server_tls_wrong'")) {
      rs.next();
      assertThat(rs.getLong(1)).isZero();
    }
  }

  /** A client whose own upstream connection fails verification gets FATAL 08001 saying why, at once. */
  @Test
  void aClientsLinkFailingVerificationIs08001() throws Exception {
    Path dir = Files.createTempDirectory("accel-front-tls-client");
    Path wrong = dir.resolve("wrong-root.crt");
    Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=not the upstream's CA", "-keyout", dir.resolve("wrong-root.key").toString(), "-out",
        wrong.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    // the running server's links (not its mirror, which verified at startup) now trust another CA
    java.lang.reflect.Field field = AccelServer.class.getDeclaredField("upstreamTls");
    field.setAccessible(true);
    Object before = field.get(server.server);
    field.set(server.server, UpstreamTls.of(properties("verify-ca", wrong)));
    try {
      long start = System.nanoTime();
      Psql.Run run = Psql.psql(conninfo(server, "postgres"), Map.of(), "-c", "SELECT 1");
      assertThat(run.exit()).isNotZero();
      assertThat(run.err()).contains("FATAL:").contains("cannot connect to the upstream PostgreSQL at " + HOST_PORT
          + ": SSL error");
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
      assertThatThrownBy(() -> connect("postgres"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    } finally {
      field.set(server.server, before);
    }
    try (Connection c = connect("postgres"); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items WHERE id <= 100")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(100);
    }
  }

  /** An upstream answering SSLRequest with N: require fails at once, prefer goes on in plain TCP. */
  @Test
  void anUpstreamRefusingTlsFailsWhenTlsIsRequired() throws Exception {
    try (ServerSocket fake = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> answers = CompletableFuture.runAsync(() -> {
        for (int i = 0; i < 2; i++) {
          try (Socket s = fake.accept()) {
            InputStream in = s.getInputStream();
            in.readNBytes(8);
            s.getOutputStream().write('N');
            s.getOutputStream().flush();
            in.read(); // until the link closes
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      assertThatThrownBy(() -> UpstreamLink.connect("127.0.0.1", fake.getLocalPort(),
          UpstreamTls.of(properties("require", null)), false))
          .hasMessageContaining("server does not support SSL, but SSL was required");
      try (UpstreamLink link = UpstreamLink.connect("127.0.0.1", fake.getLocalPort(),
          UpstreamTls.of(properties("prefer", null)), false)) {
        assertThat(link.encrypted()).isFalse();
      }
      answers.get(10, TimeUnit.SECONDS);
    }
  }

  /** An upstream that never answers SSLRequest: an error after the connect timeout, not a hang. */
  @Test
  void anUpstreamSilentAfterSslRequestDoesNotHang() throws Exception {
    try (ServerSocket fake = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> UpstreamLink.connect("127.0.0.1", fake.getLocalPort(),
          UpstreamTls.of(properties("require", null)), false))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("cannot connect to the upstream PostgreSQL");
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(30);
    }
  }

  @Test
  void sslModesAreLibpqs() {
    assertThat(UpstreamTls.of(new Properties()).mode()).isEqualTo(UpstreamTls.Mode.PREFER);
    assertThat(UpstreamTls.of(properties("disable", null)).context()).isNull();
    Properties ssl = new Properties();
    ssl.setProperty("ssl", "true");
    ssl.setProperty("sslrootcert", CA.toString());
    assertThat(UpstreamTls.of(ssl).mode()).isEqualTo(UpstreamTls.Mode.VERIFY_FULL); // pgJDBC's ssl=true
    assertThatThrownBy(() -> UpstreamTls.of(properties("strict", null))).hasMessageContaining("invalid sslmode");
    assertThatThrownBy(() -> UpstreamTls.of(properties("verify-ca", Path.of("/nonexistent/root.crt"))))
        .hasMessageContaining("/nonexistent/root.crt");
  }

  private static Properties properties(String sslmode, Path root) {
    Properties p = new Properties();
    p.setProperty("sslmode", sslmode);
    if (root != null) {
      p.setProperty("sslrootcert", root.toString());
    }
    return p;
  }
}
