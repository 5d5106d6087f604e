package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * json and jsonb columns through JDBC: values are their text both ways (pgJDBC's getObject returns a PGobject;
 * Accel's a String), jsonb as PostgreSQL prints it, and text that is not JSON refused with 22P02.
 */
class JsonColumnsTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void table() throws SQLException {
    c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE doc (id INT PRIMARY KEY, body jsonb, raw json)");
    }
  }

  @Test
  void getObjectReturnsTheTextAndJsonbIsNormalized() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc VALUES (?, ?, ?)")) {
      ps.setInt(1, 1);
      ps.setString(2, "{\"b\": 1,\"a\":[1, 2]}");
      ps.setString(3, "{\"b\": 1,\"a\":[1, 2]}");
      ps.executeUpdate();
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT body, raw, body->>'b' FROM doc")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1)).isEqualTo("{\"a\": [1, 2], \"b\": 1}");
      assertThat(rs.getString(2)).isEqualTo("{\"b\": 1,\"a\":[1, 2]}");
      assertThat(rs.getObject(3)).isEqualTo("1");
    }
  }

  @Test
  void textThatIsNotJsonIsRefused() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc (id, body) VALUES (?, ?)")) {
      ps.setInt(1, 2);
      ps.setString(2, "{\"a\":");
      expectState("22P02", ps::executeUpdate);
    }
  }

  @Test
  void aParameterIsAKey() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("INSERT INTO doc VALUES (3, '{\"name\": \"ann\"}', NULL)");
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM doc WHERE body->>? = ?")) {
      ps.setString(1, "name");
      ps.setString(2, "ann");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(3);
      }
    }
  }
}
