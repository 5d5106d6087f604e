package io.accel.e2e.params;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Array parameters, as applications bind them with pgJDBC: {@code x = ANY(?)}, {@code x <> ALL(?)} and
 * {@code x LIKE ANY(?)} with {@code createArrayOf} (PostgreSQL's type names) or {@code setObject} of a Java array,
 * and jsonb's key operator written as pgJDBC escapes it ({@code doc ?? ?}), each result compared with PostgreSQL's
 * for the same statement and values.
 */
class ArrayParametersTest {
  private static final String COLUMNS = "(id INTEGER PRIMARY KEY, name TEXT, doc JSONB)";
  private static final String ROWS = "INSERT INTO arr_params VALUES (1, 'foo', '{\"a\": 1}'), (2, 'bar', '[\"a\", \"b\"]'),"
      + " (3, 'Baz', '{\"b\": 2}'), (4, NULL, NULL)";

  private interface Binder {
    void bind(Connection c, PreparedStatement ps) throws SQLException;
  }

  private static List<Integer> ids(Connection c, String sql, Binder binder) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(c, ps);
      List<Integer> ids = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getInt(1));
        }
      }
      return ids;
    }
  }

  private static void sameAsPostgres(String sql, Binder binder) throws SQLException {
    List<Integer> expected;
    try (Connection pg = Services.postgres(); Statement s = pg.createStatement()) {
      pg.setAutoCommit(false);
      s.execute("CREATE TEMPORARY TABLE arr_params " + COLUMNS);
      s.execute(ROWS);
      expected = ids(pg, sql, binder);
      pg.rollback();
    }
    try (Connection accel = DriverManager.getConnection("jdbc:accel:mem:arrayparams" + System.nanoTime());
        Statement s = accel.createStatement()) {
      s.execute("CREATE TABLE arr_params " + COLUMNS);
      s.execute(ROWS);
      assertThat(ids(accel, sql, binder)).as(sql).isEqualTo(expected);
    }
  }

  @Test
  void equalsAnyTakesAnIntegerArrayFromCreateArrayOf() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE id = ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("int4", new Object[] {1, 3, 9})));
  }

  @Test
  void equalsAnyTakesATextArrayFromSetObject() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE name = ANY(?) ORDER BY id",
        (c, ps) -> ps.setObject(1, new String[] {"bar", "Baz", "qux"}));
  }

  @Test
  void notEqualAllExcludesEveryElement() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE id <> ALL(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("integer", new Object[] {1, 2})));
  }

  @Test
  void likeAnyAndIlikeAnyTakeAPatternArray() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE name LIKE ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("text", new Object[] {"f%", "%z"})));
    sameAsPostgres("SELECT id FROM arr_params WHERE name ILIKE ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("varchar", new Object[] {"B%"})));
  }

  @Test
  void theEscapedKeyOperatorTakesAParameterAsTheKey() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE doc ?? ? ORDER BY id", (c, ps) -> ps.setString(1, "a"));
    sameAsPostgres("SELECT id FROM arr_params WHERE doc ?? 'b' AND id > ? ORDER BY id", (c, ps) -> ps.setInt(1, 1));
  }

  @Test
  void elementsAreConvertedToTheComparedType() throws SQLException {
    // ids bound as Long[] (the type applications keep them in) against an INTEGER column, doubles against a
    // NUMERIC expression, strings against an INTEGER column
    sameAsPostgres("SELECT id FROM arr_params WHERE id = ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("int8", new Long[] {1L, 3L, 9L, null})));
    sameAsPostgres("SELECT id FROM arr_params WHERE id = ANY(?) ORDER BY id",
        (c, ps) -> ps.setObject(1, new Long[] {2L, 4L}));
    sameAsPostgres("SELECT id FROM arr_params WHERE id * 1.5 = ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("float8", new Double[] {1.5, 4.5, 7.25})));
    sameAsPostgres("SELECT id FROM arr_params WHERE id <> ALL(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("int2", new Short[] {(short) 2})));
  }

  @Test
  void anEmptyArrayMatchesNothing() throws SQLException {
    sameAsPostgres("SELECT id FROM arr_params WHERE id = ANY(?) ORDER BY id",
        (c, ps) -> ps.setArray(1, c.createArrayOf("int4", new Object[0])));
  }
}
