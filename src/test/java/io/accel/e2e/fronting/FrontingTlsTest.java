package io.accel.e2e.fronting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.e2e.Services;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code jdbc:accel:postgresql://...?sslmode=...} in front of a PostgreSQL whose role accel_tls may connect over TLS
 * only (.ci/pg-logical): pgJDBC's TLS properties reach every upstream connection the driver and its mirror open
 * (the connection's own, the snapshot's and catalog's, Debezium's replication connection).
 */
class FrontingTlsTest extends FrontedDatabase {
  private static final Path CA = Path.of(System.getenv().getOrDefault("ACCEL_PG_LOGICAL_CA",
      "/var/lib/postgresql/accel-logical-root.crt"));

  @Override
  String database() {
    return "accel_fronting_tls";
  }

  @Override
  void createTables(Statement upstream) throws SQLException {
    try (ResultSet rs = upstream.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = 'accel_tls'")) {
      if (!rs.next() || !Files.isReadable(CA)) {
        if (Services.servicesRequired()) {
          throw new SQLException("no role accel_tls or no CA certificate at " + CA + ": run .ci/pg-logical");
        }
        Assumptions.abort("no role accel_tls or no CA certificate at " + CA + "; run .ci/pg-logical");
      }
    }
    upstream.execute("DROP TABLE IF EXISTS items");
    upstream.execute("CREATE TABLE items (id int PRIMARY KEY, label text)");
    upstream.execute("INSERT INTO items SELECT g, 'item' || g FROM generate_series(1, 50) g");
    upstream.execute("ALTER TABLE items OWNER TO accel_tls"); // its publication needs the table's ownership
    upstream.execute("GRANT CREATE ON DATABASE " + database() + " TO accel_tls");
  }

  private Connection accelAs(String user, String ssl) throws SQLException {
    return DriverManager.getConnection("jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + database()
        + "?user=" + user + "&mirrorDir=" + dir + "&" + ssl);
  }

  @Test
  void verifyFullReachesEveryUpstreamConnection() throws SQLException {
    try (Connection c = accelAs("accel_tls", "sslmode=verify-full&sslrootcert=" + CA);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT label FROM items WHERE id = 7")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("item7");
      }
      assertThat(lastRoute(s)).isEqualTo("accel");
      assertThat(s.executeUpdate("INSERT INTO items VALUES (51, 'new')")).isEqualTo(1);
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(51);
      }
      // every connection of the TLS-only role is encrypted (pg_hba.conf admits no other), the walsender too
      try (ResultSet rs = pg.createStatement().executeQuery("SELECT count(*), bool_and(ssl.ssl),"
          + " count(*) FILTER (WHERE a.backend_type = 'walsender') FROM pg_stat_activity a JOIN pg_stat_ssl ssl"
          + " USING (pid) WHERE a.usename = 'accel_tls'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isGreaterThanOrEqualTo(2);
        assertThat(rs.getBoolean(2)).isTrue();
        assertThat(rs.getLong(3)).isEqualTo(1);
      }
      s.execute("DROP ACCEL MIRROR");
    }
  }

  @Test
  void requireWithoutACaConnectsOverTls() throws SQLException {
    try (Connection c = accelAs("accel_tls", "sslmode=require"); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(50);
      s.execute("DROP ACCEL MIRROR");
    }
  }

  @Test
  void plainTcpForTheTlsOnlyRoleIsPostgresqlsRefusal() {
    assertThatThrownBy(() -> accelAs("accel_tls", "sslmode=disable"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("no encryption")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28000"));
  }

  private static String lastRoute(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN LAST STATEMENT")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
