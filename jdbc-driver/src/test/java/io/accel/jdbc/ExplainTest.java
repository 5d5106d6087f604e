package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PostgreSQL's EXPLAIN and EXPLAIN ANALYZE: the plan as rows of one QUERY PLAN column. */
class ExplainTest extends JdbcTestSupport {

  private static List<String> lines(Connection c, String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
      assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("QUERY PLAN");
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return lines;
  }

  private Connection withData() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE o (id INTEGER PRIMARY KEY, customer INTEGER, status TEXT, total NUMERIC(10,2))");
    update(c, "CREATE INDEX o_customer_status ON o (customer, status)");
    StringBuilder insert = new StringBuilder("INSERT INTO o VALUES ");
    for (int i = 1; i <= 400; i++) {
      insert.append(i > 1 ? ", " : "").append('(').append(i).append(", ").append(i % 40).append(", '")
          .append(i % 4 == 0 ? "SHIPPED" : "OPEN").append("', ").append(i).append(".50)");
    }
    update(c, insert.toString());
    update(c, "ANALYZE o");
    return c;
  }

  @Test
  void explainShowsTheAccessPathWithoutRunningTheStatement() throws SQLException {
    Connection c = withData();
    List<String> plan = lines(c, "EXPLAIN SELECT id, total FROM o WHERE customer = 7 AND status = 'SHIPPED'");
    assertThat(plan).hasSize(1);
    assertThat(plan.get(0)).contains("access=[index o_customer_status]")
        .contains("keys=[customer = 7, status = 'SHIPPED']").contains("est. rows=[").doesNotContain("actual");

    lines(c, "EXPLAIN DELETE FROM o WHERE customer = 7");
    assertThat(count(c, "o")).as("EXPLAIN without ANALYZE runs nothing").isEqualTo(400);
  }

  @Test
  void explainAnalyzeRunsItAndReportsWhatEachOperatorDid() throws SQLException {
    Connection c = withData();
    // Customer 8: ids 8, 48, ..., 368 (10 rows, totals 8.50 ... 368.50); total > 100 leaves 128.50 ... 368.50: 7.
    List<String> plan = lines(c, "EXPLAIN ANALYZE SELECT sum(total) FROM o WHERE customer = 8 AND total > 100");
    String text = String.join("\n", plan);
    assertThat(plan.get(0)).contains("(actual rows=1 loops=1");
    assertThat(text).contains("access=[index o_customer_status]").contains("keys=[customer = 8]")
        .contains("index entries read=10").contains("rows fetched=10").contains("(actual rows=7 loops=1")
        .contains("Rows returned: 1").containsPattern("Execution time: [0-9.]+ ms");

    lines(c, "EXPLAIN (ANALYZE, VERBOSE) DELETE FROM o WHERE customer = 8");
    assertThat(count(c, "o")).as("EXPLAIN ANALYZE of DML takes effect, as in PostgreSQL").isEqualTo(390);
  }

  @Test
  void aPreparedExplainAnalyzeBindsTheStatementsParameters() throws SQLException {
    Connection c = withData();
    try (java.sql.PreparedStatement ps = c.prepareStatement(
        "EXPLAIN ANALYZE SELECT sum(total) FROM o WHERE customer = ? AND total > ?")) {
      assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(2);
      ps.setInt(1, 8);
      ps.setBigDecimal(2, new java.math.BigDecimal("100"));
      List<String> plan = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          plan.add(rs.getString(1));
        }
      }
      // as the statement with the values written in: 10 entries of customer 8, 7 above 100
      assertThat(String.join("\n", plan)).contains("index entries read=10").contains("(actual rows=7 loops=1")
          .contains("Rows returned: 1");
    }
    try (java.sql.PreparedStatement ps = c.prepareStatement("EXPLAIN DELETE FROM o WHERE customer = ?")) {
      ps.setInt(1, 8);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
    assertThat(count(c, "o")).isEqualTo(400);
  }

  @Test
  void skipScanSeeksEachValueOfAnUnboundedLeadingColumn() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE s (id INTEGER PRIMARY KEY, g INTEGER, b INTEGER)");
    try (var insert = c.prepareStatement("INSERT INTO s VALUES (?, ?, ?)")) {
      for (int i = 0; i < 4000; i++) {
        insert.setInt(1, i);
        insert.setInt(2, i % 4);
        insert.setInt(3, i % 500);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    update(c, "CREATE INDEX s_gb ON s (g, b)");
    update(c, "ANALYZE s");
    // b = 7: ids 7, 507, ..., 3507 (8 rows), under each of the 4 values of g.
    String text = String.join("\n", lines(c, "EXPLAIN ANALYZE SELECT id FROM s WHERE b = 7"));
    assertThat(text).contains("keys=[g skipped (each value), b = 7]").contains("(actual rows=8 loops=1")
        .contains("index entries read=8 ");
    assertThat(rows(c, "SELECT id FROM s WHERE b = 7 ORDER BY id")).hasSize(8)
        .isEqualTo(rows(c, "SELECT id FROM s WHERE b + 0 = 7 ORDER BY id"));
  }

  @Test
  void explainErrors() throws SQLException {
    Connection c = withData();
    expectState("42601", c, "EXPLAIN");
    expectState("42601", c, "EXPLAIN (NOSUCH) SELECT 1");
    expectState("42703", c, "EXPLAIN SELECT nosuch FROM o");
    expectState("42P01", c, "EXPLAIN ANALYZE SELECT * FROM nosuch");
    assertUsable(c);
    try (var prepared = c.prepareStatement("EXPLAIN SELECT * FROM o WHERE id = 3");
        ResultSet rs = prepared.executeQuery()) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).contains("access=[primary key]").contains("keys=[id = 3]");
    }
    assertThat(lines(c, "EXPLAIN SELECT * FROM o WHERE id = ?").get(0)).contains("keys=[id = ?0]");
    assertThat(rows(c, "EXPLAIN PLAN FOR SELECT * FROM o WHERE id = 3").get(0).get(0).toString())
        .as("Calcite's own EXPLAIN PLAN FOR still works").contains("access=[primary key]");
  }
}
