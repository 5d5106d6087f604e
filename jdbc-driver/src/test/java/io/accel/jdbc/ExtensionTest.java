package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE EXTENSION as migrations write it: the extensions Accel provides are recorded durably and listed in
 * pg_extension; uuid-ossp's functions (not installed on the PostgreSQL the slt records are checked on; the
 * expected UUIDs are RFC 4122's name-based ones, as Python's uuid module computes them).
 */
class ExtensionTest extends JdbcTestSupport {
  @TempDir
  Path dir;

  @Test
  void uuidOsspAsMigrationsUseIt() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("db");
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      update(c, "CREATE EXTENSION IF NOT EXISTS \"uuid-ossp\"");
      update(c, "CREATE TABLE account (id UUID PRIMARY KEY DEFAULT uuid_generate_v4(), name TEXT)");
      update(c, "INSERT INTO account (name) VALUES ('a'), ('b'), ('c')");
      assertThat(rows(c, "SELECT count(DISTINCT id), count(*) FROM account")).containsExactly(List.of(3L, 3L));
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(rows(c, "SELECT extname, extversion FROM pg_extension ORDER BY extname"))
          .containsExactly(List.of("uuid-ossp", "1.1"));
      assertThat(rows(c, "SELECT uuid_generate_v3(uuid_ns_dns(), 'www.example.com')::text,"
          + " uuid_generate_v5(uuid_ns_url(), 'http://www.postgresql.org')::text, uuid_nil()::text"))
          .containsExactly(List.of("5df41881-3aed-3515-88a7-2f4a814cf09e", "e1ee1ad4-cd4e-5889-962a-4f605a68d94e",
              "00000000-0000-0000-0000-000000000000"));
      assertThat(rows(c, "SELECT substr(uuid_generate_v1()::text, 15, 1), substr(uuid_generate_v4()::text, 15, 1),"
          + " uuid_generate_v4() <> uuid_generate_v4()")).containsExactly(List.of("1", "4", true));
      assertThatThrownBy(() -> update(c, "CREATE EXTENSION \"uuid-ossp\""))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42710"));
      assertThatThrownBy(() -> update(c, "CREATE EXTENSION postgis"))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("0A000");
            assertThat(e.getMessage()).contains("extension \"postgis\" is not available");
          });
      update(c, "DROP EXTENSION \"uuid-ossp\"");
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(rows(c, "SELECT count(*) FROM pg_extension")).containsExactly(List.of(0L));
    }
  }
}
