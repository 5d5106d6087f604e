package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Debian's psql against the server: authentication modes, TLS, statements, errors. */
class PsqlTest {
  @TempDir
  Path dir;

  private static String conninfo(TestServer s, String user, String extra) {
    return "host=127.0.0.1 port=" + s.port() + " dbname=test user=" + user + " " + extra;
  }

  @Test
  void trustRunsStatementsAndReportsErrors() throws Exception {
    try (TestServer s = new TestServer()) {
      String c = conninfo(s, "alice", "");
      Psql.Run r = Psql.psql(c, Map.of(), "-c", "create table t(id int primary key, name text)",
          "-c", "insert into t values (1, 'one'), (2, 'two')", "-c", "select name from t order by id");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).isEqualTo("CREATE TABLE\nINSERT 0 2\none\ntwo\n");

      // an error: psql shows PostgreSQL's SQLSTATE and exits 1 under ON_ERROR_STOP
      r = Psql.psql(c, Map.of(), "-v", "ON_ERROR_STOP=1", "-c", "select * from missing");
      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.err()).contains("ERROR:  42P01");

      // several statements in one message run in one implicit transaction: the failure undoes the insert
      r = Psql.psql(c, Map.of(), "-c", "insert into t values (3, 'three'); select 1/0");
      assertThat(r.err()).contains("22012");
      r = Psql.psql(c, Map.of(), "-c", "select count(*) from t");
      assertThat(r.out().strip()).isEqualTo("2");

      // a script with its own transaction, an error inside it, and the session going on
      r = Psql.run(Map.of(), "begin;\ninsert into t values (4, 'four');\nselect nope;\nselect 1;\nrollback;\nselect count(*) from t;\n",
          "psql", "-X", "-A", "-t", "-d", c);
      assertThat(r.err()).contains("current transaction is aborted");
      assertThat(r.out()).endsWith("2\n");
    }
  }

  @Test
  void showAccelStatusAndTablesOnAStandaloneStore() throws Exception {
    String store = TestServer.store();
    try (TestServer s = new TestServer(ServerConfig.forTests(store))) {
      String c = conninfo(s, "alice", "");
      Psql.Run r = Psql.psql(c, Map.of(), "-c", "create table t(id int primary key, name text)",
          "-c", "insert into t values (1, 'one'), (2, 'two')", "-c", "SHOW ACCEL TABLES", "-c", "show accel status;");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).startsWith("CREATE TABLE\nINSERT 0 2\nt|online|about 2 rows\nmode|standalone\nstore|" + store
          + "\ntables|1\n").contains("\nuptime (s)|").contains("\nstore memtables (bytes)|");
      // pgJDBC's extended protocol: the same columns, described before execution, in text and by name
      try (Connection jdbc = s.connect(); var ps = jdbc.prepareStatement("SHOW ACCEL STATUS")) {
        assertThat(ps.getMetaData().getColumnName(1)).isEqualTo("name");
        Map<String, String> status = new java.util.LinkedHashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            status.put(rs.getString("name"), rs.getString("value"));
          }
        }
        assertThat(status).containsEntry("mode", "standalone").containsEntry("store", store)
            .containsEntry("tables", "1").containsKeys("result caches", "row cache size (bytes)");
        try (ResultSet rs = jdbc.createStatement().executeQuery("SHOW ACCEL TABLES")) {
          assertThat(rs.getMetaData().getColumnName(3)).isEqualTo("description");
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString("table") + " " + rs.getString("status")).isEqualTo("t online");
        }
      }
    }
  }

  @Test
  void passwordAndScramAuthentication() throws Exception {
    for (Authenticator.Mode mode : new Authenticator.Mode[] {Authenticator.Mode.PASSWORD, Authenticator.Mode.SCRAM_SHA_256}) {
      try (TestServer s = new TestServer(ServerConfig.forTests(TestServer.store()).withAuth(mode, "bob", "s3cret é"))) {
        Psql.Run ok = Psql.psql(conninfo(s, "bob", ""), Map.of("PGPASSWORD", "s3cret é"), "-c", "select current_user");
        assertThat(ok.exit()).as(mode + ": " + ok.err()).isZero();
        Psql.Run wrong = Psql.psql(conninfo(s, "bob", ""), Map.of("PGPASSWORD", "nope"), "-c", "select 1");
        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.err()).contains("password authentication failed for user \"bob\"");
        Psql.Run unknown = Psql.psql(conninfo(s, "mallory", ""), Map.of("PGPASSWORD", "s3cret é"), "-c", "select 1");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("password authentication failed for user \"mallory\"");
        // pgJDBC negotiates the same mechanisms
        Properties p = new Properties();
        p.setProperty("user", "bob");
        p.setProperty("password", "s3cret é");
        try (Connection c = java.sql.DriverManager.getConnection(s.url(), p); ResultSet rs = c.createStatement().executeQuery("select 1")) {
          assertThat(rs.next()).isTrue();
        }
      }
    }
  }

  @Test
  void usersFileHoldsVerifiersOnly() throws Exception {
    Path users = dir.resolve("users");
    Files.writeString(users, "# made by hash-password\ncarol:" + ScramVerifier.of("pw1") + "\n");
    assertThat(Files.readString(users)).doesNotContain("pw1\n").contains("SCRAM-SHA-256$4096:");
    ServerConfig base = ServerConfig.forTests(TestServer.store()).withAuth(Authenticator.Mode.SCRAM_SHA_256, null, null);
    ServerConfig config = new ServerConfig(base.listen(), 0, base.store(), -1, base.auth(), users, null, null,
        ServerConfig.Tls.OFF, null, null, 100, 1 << 20, 0, 5000, base.storeOptions(), null);
    try (TestServer s = new TestServer(config)) {
      assertThat(Psql.psql(conninfo(s, "carol", ""), Map.of("PGPASSWORD", "pw1"), "-c", "select 1").exit()).isZero();
      assertThat(Psql.psql(conninfo(s, "carol", ""), Map.of("PGPASSWORD", "pw2"), "-c", "select 1").exit()).isEqualTo(2);
    }
    Files.writeString(users, "dave:plaintext\n");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AccelServer(config))
        .hasMessageContaining("plain passwords are not accepted");
  }

  @Test
  void tlsRequiredAcceptsTlsOnly() throws Exception {
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
        key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost").redirectErrorStream(true).start();
    openssl.getInputStream().readAllBytes();
    assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(openssl.exitValue()).isZero();
    ServerConfig config = ServerConfig.forTests(TestServer.store()).withTls(ServerConfig.Tls.REQUIRED, cert, key);
    try (TestServer s = new TestServer(config)) {
      Psql.Run tls = Psql.psql(conninfo(s, "erin", "sslmode=require"), Map.of(), "-c", "select 42");
      assertThat(tls.exit()).as(tls.err()).isZero();
      assertThat(tls.out().strip()).isEqualTo("42");
      Psql.Run plain = Psql.psql(conninfo(s, "erin", "sslmode=disable"), Map.of(), "-c", "select 42");
      assertThat(plain.exit()).isEqualTo(2);
      assertThat(plain.err()).contains("TLS");
      Properties p = new Properties();
      p.setProperty("user", "erin");
      p.setProperty("sslmode", "require");
      try (Connection c = java.sql.DriverManager.getConnection(s.url(), p); ResultSet rs = c.createStatement().executeQuery("select 7")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(7);
      }
    }
    ServerConfig optional = ServerConfig.forTests(TestServer.store()).withTls(ServerConfig.Tls.OPTIONAL, cert, key);
    try (TestServer s = new TestServer(optional)) {
      assertThat(Psql.psql(conninfo(s, "erin", "sslmode=require"), Map.of(), "-c", "select 1").exit()).isZero();
      assertThat(Psql.psql(conninfo(s, "erin", "sslmode=disable"), Map.of(), "-c", "select 1").exit()).isZero();
    }
  }

  @Test
  void aServerWithoutTlsAnswersSslRequestWithN() throws Exception {
    try (TestServer s = new TestServer()) {
      // sslmode=prefer (libpq's default) falls back to a plain connection; require fails
      assertThat(Psql.psql(conninfo(s, "f", "sslmode=prefer"), Map.of(), "-c", "select 1").exit()).isZero();
      Psql.Run r = Psql.psql(conninfo(s, "f", "sslmode=require"), Map.of(), "-c", "select 1");
      assertThat(r.exit()).isEqualTo(2);
      assertThat(r.err()).contains("server does not support SSL");
    }
  }

  @Test
  void describeCommandsShowTheCatalog() throws Exception {
    try (TestServer s = new TestServer()) {
      String c = conninfo(s, "gina", "");
      Psql.Run r = Psql.psql(c, Map.of(), "-c", "create table orders(id bigint primary key, customer varchar(40) not null, total numeric(10,2) check (total >= 0))",
          "-c", "create index orders_customer on orders(customer)");
      assertThat(r.exit()).as(r.err()).isZero();
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\dt", "-c", "\\d orders", "-c", "\\di");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).contains(" public | orders | table |")
          .contains("Table \"public.orders\"")
          .contains(" id       | bigint                |           | not null |")
          .contains(" customer | character varying(40) |           | not null |")
          .contains(" total    | numeric(10,2)         |           |          |")
          .contains("\"orders_pkey\" PRIMARY KEY, btree (id)")
          .contains("\"orders_customer\" btree (customer)")
          .contains("Check constraints:")
          .contains("\"orders_total_check\" CHECK (total >= 0)")
          .contains(" public | orders_customer | index |");
      r = Psql.psql(c, Map.of(), "-c", "select current_database(), current_user, version() like 'PostgreSQL 15%Accel%'");
      assertThat(r.out().strip()).isEqualTo("test|gina|t");
      // foreign keys, both ways, as PostgreSQL's psql prints them (its trigger list stays empty: Accel has none)
      r = Psql.psql(c, Map.of(), "-c", "create table line(id int primary key, order_id bigint references orders(id)"
          + " on delete cascade)", "-c", "alter table line add constraint line_self foreign key (id) references line(id)"
          + " not valid");
      assertThat(r.exit()).as(r.err()).isZero();
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\d line", "-c", "\\d orders");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(r.out()).contains("Foreign-key constraints:\n"
              + "    \"line_order_id_fkey\" FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE\n"
              + "    \"line_self\" FOREIGN KEY (id) REFERENCES line(id) NOT VALID\n"
              + "Referenced by:\n"
              + "    TABLE \"line\" CONSTRAINT \"line_self\" FOREIGN KEY (id) REFERENCES line(id) NOT VALID")
          .contains("Referenced by:\n"
              + "    TABLE \"line\" CONSTRAINT \"line_order_id_fkey\" FOREIGN KEY (order_id) REFERENCES orders(id)"
              + " ON DELETE CASCADE");
      // tablespaces, collations, languages: PostgreSQL's built-in ones as its psql lists them
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\db", "-c", "\\dO", "-c", "\\dL");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(r.out()).contains(" pg_default | gina  | ").contains("List of collations").contains("List of languages");
      // a view's definition, as written (PostgreSQL prints its own deparsed form)
      r = Psql.psql(c, Map.of(), "-c", "create view big_orders as select id, total from orders where total > 100");
      assertThat(r.exit()).as(r.err()).isZero();
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\d+ big_orders", "-c", "\\sv big_orders");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).contains("View definition:\n select id, total from orders where total > 100;")
          .contains("CREATE OR REPLACE VIEW public.big_orders AS\n select id, total from orders where total > 100");
      // comments, where psql's \d+, \dt+ and \dd show them
      r = Psql.psql(c, Map.of(), "-c", "comment on table orders is 'What customers bought'",
          "-c", "comment on column orders.customer is 'Who bought it'",
          "-c", "comment on constraint orders_total_check on orders is 'never negative'");
      assertThat(r.exit()).as(r.err()).isZero();
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\d+ orders", "-c", "\\dt+ orders", "-c", "\\dd");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(r.out()).containsPattern(" customer +\\| character varying\\(40\\) .*\\| Who bought it\n")
          .containsPattern(" public \\| orders \\| table .*\\| What customers bought\n")
          .containsPattern(" public \\| orders_total_check \\| table constraint \\| never negative\n");
      // an index described, functions with their details, and the catalogs of what Accel has none of
      r = Psql.run(Map.of(), null, "psql", "-X", "-d", c, "-c", "\\d orders_pkey", "-c", "\\df+", "-c", "\\drds",
          "-c", "\\ddp", "-c", "\\dc", "-c", "\\dF", "-c", "\\dRs", "-c", "\\des", "-c", "\\det");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).doesNotContain("ERROR").contains("Did not find any settings.");
      assertThat(r.out()).contains("Index \"public.orders_pkey\"")
          .containsPattern(" id +\\| bigint +\\| yes +\\| id\n")
          .contains("primary key, btree, for table \"public.orders\"")
          .contains("List of text search configurations");
    }
  }

  @Test
  void metricsAndHealthOverHttp() throws Exception {
    try (TestServer s = new TestServer()) {
      Psql.psql(conninfo(s, "hal", ""), Map.of(), "-c", "select 1");
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + s.server.httpPort();
      var health = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/health")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      var metrics = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/metrics")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("accel_server_connections_accepted_total")
          .contains("accel_server_statements_total{kind=\"query\"}")
          .contains("accel_server_bytes_total{direction=\"in\"}")
          .contains("accel_server_netty_memory_used_bytes")
          .contains("jvm_memory_used_bytes");
      assertThat(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/nope")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
  }

  /** What pools, drivers, ORMs and dump or migration tools send before their own statements. */
  @Test
  void housekeepingStatementsOfClientsAndPools() throws Exception {
    try (TestServer s = new TestServer()) {
      Psql.Run r = Psql.psql(conninfo(s, "pool", ""), Map.of(),
          "-c", "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
          "-c", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
          "-c", "SET client_min_messages = warning",
          "-c", "SET lock_timeout = 0",
          "-c", "SET standard_conforming_strings = on",
          "-c", "SELECT pg_catalog.set_config('search_path', '', false)",
          "-c", "SET search_path = public",
          "-c", "SHOW client_min_messages",
          "-c", "DEALLOCATE ALL",
          "-c", "DISCARD ALL",
          "-c", "SHOW client_min_messages");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).isEqualTo("SET\nSET\nSET\nSET\nSET\n\nSET\nwarning\nDEALLOCATE ALL\nDISCARD ALL\nnotice\n");
      r = Psql.psql(conninfo(s, "pool", ""), Map.of(), "-c", "DEALLOCATE nope");
      assertThat(r.err()).contains("26000");
      r = Psql.psql(conninfo(s, "pool", ""), Map.of(), "-c", "SET standard_conforming_strings = off");
      assertThat(r.err()).contains("0A000");
    }
  }
}
