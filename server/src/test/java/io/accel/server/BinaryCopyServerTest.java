package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * COPY (FORMAT binary) FROM STDIN and TO STDOUT through pgJDBC's CopyManager: Accel's bytes must equal those
 * PostgreSQL 15 (127.0.0.1:5432, database test) writes for the same rows, and PostgreSQL's bytes load into Accel.
 */
class BinaryCopyServerTest {
  private static final String TABLE = "CREATE TABLE bincopy16 (id int PRIMARY KEY, small smallint, big bigint,"
      + " name text, code varchar(10), price numeric(10,2), ok boolean, ratio float8, day date, at timestamp,"
      + " raw bytea, tag uuid)";
  private static final String ROWS = "INSERT INTO bincopy16 VALUES"
      + " (1, 7, 9000000000, 'one', 'a1', 12.50, true, 0.25, DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789',"
      + " NULL, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),"
      + " (2, -3, -1, 'twee ''quoted''', '', -0.01, false, -1.5, DATE '1999-12-31', TIMESTAMP '1970-01-01 00:00:00',"
      + " NULL, '00000000-0000-0000-0000-000000000000'),"
      + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";
  private static final String OUT = "COPY (SELECT * FROM bincopy16 ORDER BY id) TO STDOUT (FORMAT binary)";

  /** The bytea values, bound as bytes (an INSERT's bytea literal is not what this test is about). */
  private static void bytes(Connection c) throws SQLException {
    try (var ps = c.prepareStatement("UPDATE bincopy16 SET raw = ? WHERE id = ?")) {
      ps.setBytes(1, new byte[] {0, (byte) 0xff, 0x10});
      ps.setInt(2, 1);
      ps.executeUpdate();
      ps.setBytes(1, new byte[0]);
      ps.setInt(2, 2);
      ps.executeUpdate();
    }
  }

  private static byte[] copyOut(Connection c, String sql) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new CopyManager(c.unwrap(org.postgresql.core.BaseConnection.class)).copyOut(sql, bytes);
    return bytes.toByteArray();
  }

  private static long copyIn(Connection c, String sql, byte[] data) throws Exception {
    return new CopyManager(c.unwrap(org.postgresql.core.BaseConnection.class)).copyIn(sql,
        new ByteArrayInputStream(data), 7); // small chunks: tuples split across CopyData messages
  }

  @Test
  void copyToStdoutWritesPostgresBytesAndCopyFromStdinReadsThem() throws Exception {
    byte[] expected;
    try (Connection pg = TestServer.postgres(); Statement s = pg.createStatement()) {
      s.execute("DROP TABLE IF EXISTS bincopy16");
      s.execute(TABLE);
      s.execute(ROWS);
      bytes(pg);
      expected = copyOut(pg, OUT);
      s.execute("DROP TABLE bincopy16");
    }
    try (TestServer server = new TestServer(); Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute(TABLE);
      s.execute(ROWS);
      bytes(c);
      assertThat(HexFormat.of().formatHex(copyOut(c, OUT))).isEqualTo(HexFormat.of().formatHex(expected));
      s.execute("DELETE FROM bincopy16");
      assertThat(copyIn(c, "COPY bincopy16 FROM STDIN (FORMAT binary)", expected)).isEqualTo(3);
      assertThat(HexFormat.of().formatHex(copyOut(c, OUT))).isEqualTo(HexFormat.of().formatHex(expected));
      // old syntax, and a column list
      s.execute("CREATE TABLE two (a int, b text)");
      byte[] pair = copyOut(c, "COPY (SELECT id, name FROM bincopy16 ORDER BY id) TO STDOUT BINARY");
      assertThat(copyIn(c, "COPY two (a, b) FROM STDIN WITH BINARY", pair)).isEqualTo(3);
      assertThat(HexFormat.of().formatHex(copyOut(c, "COPY two TO STDOUT (FORMAT binary)")))
          .isEqualTo(HexFormat.of().formatHex(pair));
    }
  }

  @Test
  void malformedBinaryDataFailsAsOnPostgresAndLeavesNothing() throws Exception {
    try (TestServer server = new TestServer(); Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE two (a int, b text)");
      SQLException signature = catchThrowableOfType(SQLException.class,
          () -> copyIn(c, "COPY two FROM STDIN (FORMAT binary)", "not binary at all".getBytes()));
      assertThat(signature.getSQLState()).isEqualTo("22P04");
      assertThat(signature.getMessage()).contains("COPY file signature not recognized");
      byte[] good = copyOut(c, "COPY (SELECT 1 AS a, 'x' AS b) TO STDOUT (FORMAT binary)");
      byte[] truncated = java.util.Arrays.copyOf(good, good.length - 4); // inside the last field, no trailer
      SQLException eof = catchThrowableOfType(SQLException.class,
          () -> copyIn(c, "COPY two FROM STDIN (FORMAT binary)", truncated));
      assertThat(eof.getSQLState()).isEqualTo("22P04");
      assertThat(eof.getMessage()).contains("unexpected EOF in COPY data");
      byte[] three = copyOut(c, "COPY (SELECT 1, 'x', 2) TO STDOUT (FORMAT binary)");
      SQLException count = catchThrowableOfType(SQLException.class,
          () -> copyIn(c, "COPY two FROM STDIN (FORMAT binary)", three));
      assertThat(count.getSQLState()).isEqualTo("22P04");
      assertThat(count.getMessage()).contains("row field count is 3, expected 2");
      try (var rs = s.executeQuery("SELECT count(*) FROM two")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
      assertThat(c.unwrap(PGConnection.class)).isNotNull();
    }
  }
}
