package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * pgJDBC's array parameters through the server ({@code x = ANY(?)}, {@code x LIKE ANY(?)}), sent as PostgreSQL's
 * array text ({@code {1,3}}) or binary, and the jsonb key operator as pgJDBC escapes it ({@code ??}); array and
 * jsonb results as pgJDBC reads them from PostgreSQL (typed by their OIDs, in text or binary).
 */
class ArrayParameterServerTest {
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer();
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table arr(id int primary key, name text, doc jsonb)");
      s.execute("insert into arr values (1, 'foo', '{\"a\": 1}'), (2, 'bar', '[\"a\"]'), (3, 'Baz', '{\"b\": 2}'),"
          + " (4, 'q,\"x', null)");
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static List<Integer> ids(PreparedStatement ps) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }

  private static Connection connect(String mode) throws SQLException {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", mode.equals("binary") ? "-1" : "0");
    p.setProperty("binaryTransfer", String.valueOf(mode.equals("binary")));
    return server.connect(p);
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void equalsAnyTakesAnArray(String mode) throws SQLException {
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where id = any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("int4", new Object[] {1, 3, 9}));
      assertThat(ids(ps)).containsExactly(1, 3);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void typedJavaArraysArriveInPostgresBinaryArrayFormat(String mode) throws SQLException {
    // pgJDBC sends Long[], Integer[], Short[] and Double[] (not Object[]) in the binary array format
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where id = any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("int8", new Long[] {1L, 3L, 9L, null}));
      assertThat(ids(ps)).containsExactly(1, 3);
      ps.setArray(1, c.createArrayOf("int4", new Integer[] {2, 4}));
      assertThat(ids(ps)).containsExactly(2, 4);
      ps.setArray(1, c.createArrayOf("int2", new Short[] {(short) 4}));
      assertThat(ids(ps)).containsExactly(4);
      ps.setArray(1, c.createArrayOf("int8", new Long[0]));
      assertThat(ids(ps)).isEmpty();
    }
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where id * 1.5 = any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("float8", new Double[] {1.5, 4.5, 7.25}));
      assertThat(ids(ps)).containsExactly(1, 3);
    }
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where name = any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("varchar", new String[] {"Baz", "q,\"x"}));
      assertThat(ids(ps)).containsExactly(3, 4);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void textArraysKeepQuotedElements(String mode) throws SQLException {
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where name = any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("text", new Object[] {"bar", "q,\"x", null}));
      assertThat(ids(ps)).containsExactly(2, 4);
    }
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where name ilike any(?) order by id")) {
      ps.setArray(1, c.createArrayOf("text", new Object[] {"b%"}));
      assertThat(ids(ps)).containsExactly(2, 3);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void escapedKeyOperatorTakesAParameter(String mode) throws SQLException {
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where doc ?? ? order by id")) {
      ps.setString(1, "a");
      assertThat(ids(ps)).containsExactly(1, 2);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void arrayResultsAreTypedArrays(String mode) throws SQLException {
    try (Connection c = connect(mode); PreparedStatement ps = c.prepareStatement("select array[id, id * 10] as a,"
        + " array[name] as n, array[cast(null as int), id] as wn, array[1.5, 2.25] as d, array[]::int[] as e"
        + " from arr where id = 1")) {
      for (int run = 0; run < 3; run++) { // the first runs before pgJDBC asks for binary results, the next after
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("_int4");
          assertThat(rs.getMetaData().getColumnTypeName(4)).isEqualTo("_numeric");
          assertThat(rs.next()).isTrue();
          assertThat((Object[]) rs.getArray("a").getArray()).containsExactly(1, 10);
          assertThat((Object[]) rs.getArray("n").getArray()).containsExactly("foo");
          assertThat((Object[]) rs.getArray("wn").getArray()).containsExactly(null, 1);
          assertThat((Object[]) rs.getArray("d").getArray())
              .containsExactly(new java.math.BigDecimal("1.50"), new java.math.BigDecimal("2.25"));
          assertThat((Object[]) rs.getArray("e").getArray()).isEmpty();
          // pgJDBC prints a binary array with its elements quoted, as it does PostgreSQL's own
          assertThat(rs.getString("a")).isEqualTo(mode.equals("binary") ? "{\"1\",\"10\"}" : "{1,10}");
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void jsonbResultsAreJsonb(String mode) throws SQLException {
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select doc, doc -> 'a' as a from arr where id = ?")) {
      ps.setInt(1, 1);
      for (int run = 0; run < 3; run++) {
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("jsonb");
          assertThat(rs.next()).isTrue();
          assertThat(rs.getObject(1)).isInstanceOfSatisfying(org.postgresql.util.PGobject.class, o -> {
            assertThat(o.getType()).isEqualTo("jsonb");
            assertThat(o.getValue()).isEqualTo("{\"a\": 1}");
          });
          assertThat(rs.getString("a")).isEqualTo("1");
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void parameterCastToAnArrayType(String mode) throws SQLException {
    // node-postgres and Go's drivers send an array as its text, cast in the statement: id = ANY($1::int[])
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where id = any(?::int[]) order by id")) {
      ps.setString(1, "{1,3,9}");
      assertThat(ids(ps)).containsExactly(1, 3);
    }
    try (Connection c = connect(mode);
        PreparedStatement ps = c.prepareStatement("select id from arr where name = any(cast(? as text[])) order by id")) {
      ps.setString(1, "{bar,\"q,\\\"x\"}");
      assertThat(ids(ps)).containsExactly(2, 4);
    }
  }
}
