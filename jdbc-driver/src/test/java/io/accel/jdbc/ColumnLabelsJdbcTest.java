package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Result columns through the driver carry PostgreSQL's labels (expected values read from PostgreSQL 15), so
 * applications read them by label: {@code rs.getLong("count")}.
 */
class ColumnLabelsJdbcTest extends JdbcTestSupport {
  @Test
  void labelsAreNamesPostgresGives() throws SQLException {
    Connection c = connect();
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)");
      s.execute("INSERT INTO t VALUES (1, 10), (2, 20)");
      try (ResultSet rs = s.executeQuery("select count(*), max(x), 1 + 2, 1::int, x::text, now() from t group by x"
          + " order by x limit 1")) {
        assertThat(labels(rs)).containsExactly("count", "max", "?column?", "int4", "x", "now");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("count")).isEqualTo(1);
        assertThat(rs.getInt("max")).isEqualTo(10);
        assertThat(rs.getString("x")).isEqualTo("10");
      }
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select x * 2 doubled, id + 1 next_id, x - 1 \"Less\", x is null, x is not"
            + " null, x > 1, -x neg, (x + 1) p, x + 1 as q, x between 1 and 20 from t where id = 1")) {
      // a bare alias after an operator expression names it (it was ?column?)
      assertThat(labels(rs)).containsExactly("doubled", "next_id", "Less", "?column?", "?column?", "?column?", "neg",
          "p", "q", "?column?");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt("doubled")).isEqualTo(20);
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select case when id = 1 then 10 else x end, case when id = 1 then 'a' else"
            + " upper('b') end, case when true then 1 else 2 end, case when id = 1 then 1 else x + 1 end,"
            + " case when id = 1 then (case when true then x end) else t.id end, case when id > 0 then id end"
            + " from t where id = 1")) {
      // a CASE is named by its ELSE value when that has a name (as PostgreSQL's FigureColname does)
      assertThat(labels(rs)).containsExactly("x", "upper", "case", "case", "id", "case");
    }
    try (PreparedStatement ps = c.prepareStatement("select count(*), count(*) from t where id = ?")) {
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("count");
        assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo("count");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("count")).isEqualTo(1);
      }
    }
  }

  private static List<String> labels(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      labels.add(md.getColumnLabel(i));
    }
    return labels;
  }
}
