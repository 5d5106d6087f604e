package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COMMENT ON as applications and tools see it: across a reopen, in DatabaseMetaData, and its errors. */
class CommentTest extends JdbcTestSupport {
  @TempDir
  Path dir;

  @Test
  void commentsAreDurableAndShownAsRemarks() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("db");
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      update(c, "CREATE TABLE account (id BIGINT PRIMARY KEY, email TEXT NOT NULL, balance NUMERIC(12,2))");
      update(c, "COMMENT ON TABLE public.account IS 'Customer accounts'");
      update(c, "COMMENT ON COLUMN public.account.email IS 'Login e-mail'");
      update(c, "COMMENT ON COLUMN account.balance IS 'In cents'");
      update(c, "COMMENT ON COLUMN account.balance IS 'In euros'");
      update(c, "COMMENT ON SCHEMA public IS 'the application'");
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(rows(c, "SELECT obj_description('account'::regclass, 'pg_class'),"
          + " col_description('account'::regclass, 2), col_description('account'::regclass, 3),"
          + " obj_description(n.oid, 'pg_namespace') FROM pg_namespace n WHERE nspname = 'public'"))
          .containsExactly(List.of("Customer accounts", "Login e-mail", "In euros", "the application"));
      DatabaseMetaData md = c.getMetaData();
      try (ResultSet rs = md.getTables(null, "public", "account", null)) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("REMARKS")).isEqualTo("Customer accounts");
      }
      List<String> remarks = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "public", "account", "%")) {
        while (rs.next()) {
          remarks.add(rs.getString("COLUMN_NAME") + "=" + rs.getString("REMARKS"));
        }
      }
      assertThat(remarks).containsExactly("id=null", "email=Login e-mail", "balance=In euros");
      // a table dropped and created again under the same name starts without comments
      update(c, "DROP TABLE account");
      update(c, "CREATE TABLE account (id BIGINT PRIMARY KEY, email TEXT)");
      assertThat(rows(c, "SELECT obj_description('account'::regclass, 'pg_class'),"
          + " col_description('account'::regclass, 2)")).containsExactly(java.util.Arrays.asList(null, null));
    }
  }

  @Test
  void unsupportedAndMissingObjectsAreClearErrors() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE t (id INT PRIMARY KEY)");
    expectState("0A000", c, "COMMENT ON FUNCTION f() IS 'x'");
    expectState("0A000", c, "COMMENT ON TYPE mood IS 'x'");
    expectState("3F000", c, "COMMENT ON SCHEMA app IS 'x'");
    expectState("42P01", c, "COMMENT ON COLUMN nothing.id IS 'x'");
    expectState("42601", c, "COMMENT ON COLUMN id IS 'x'");
    expectState("42601", c, "COMMENT ON TABLE t IS 42");
    // a failed COMMENT inside a block aborts it as any failed statement does; the session goes on after ROLLBACK
    c.setAutoCommit(false);
    expectState("42P01", c, "COMMENT ON TABLE nothing IS 'x'");
    expectState("25P02", c, "COMMENT ON TABLE t IS 'x'");
    c.rollback();
    update(c, "COMMENT ON TABLE t IS 'kept'");
    c.commit();
    assertThat(scalar(c, "SELECT obj_description('t'::regclass, 'pg_class')")).isEqualTo("kept");
  }
}
