package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Queries read partial and expression indexes as PostgreSQL's planner does: a comparison of the indexed expression
 * with a value bounds the index scan, and a partial index serves a query whose condition includes its predicate.
 */
class ExpressionIndexPlanTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void data() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT NOT NULL, deleted_at TIMESTAMP, score INTEGER)");
    update(c, "INSERT INTO account SELECT i, 'User' || i || '@X.org', CASE WHEN i % 10 = 0 THEN TIMESTAMP '2024-01-01'"
        + " END, i % 100 FROM generate_series(1, 3000) AS g(i)");
    update(c, "CREATE UNIQUE INDEX account_email_ci ON account (lower(email))");
    update(c, "CREATE INDEX account_live_score ON account (score) WHERE deleted_at IS NULL");
    update(c, "CREATE INDEX account_double_score ON account ((score * 2) DESC)");
    update(c, "ANALYZE account");
  }

  private String plan(String sql) throws SQLException {
    StringBuilder out = new StringBuilder();
    for (List<Object> row : rows(c, "EXPLAIN " + sql)) {
      out.append(row.get(0)).append('\n');
    }
    return out.toString();
  }

  @Test
  void aComparisonOfTheIndexedExpressionReadsTheIndex() throws SQLException {
    String sql = "SELECT id, email FROM account WHERE lower(email) = 'user42@x.org'";
    assertThat(plan(sql)).contains("access=[index account_email_ci]", "keys=[lower(email) = 'user42@x.org']");
    assertThat(rows(c, sql)).containsExactly(List.of(42, "User42@X.org"));
    assertThat(rows(c, "SELECT id FROM account WHERE lower(email) = 'User42@X.org'")).isEmpty();
    assertThat(plan("SELECT id FROM account WHERE lower(email) IN ('user1@x.org', 'user2@x.org')"))
        .contains("access=[index account_email_ci]");
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM account WHERE lower(email) = ?")) {
      for (int id : new int[] {7, 2999, 3001}) {
        ps.setString(1, "user" + id + "@x.org");
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rows(rs)).isEqualTo(id <= 3000 ? List.of(List.of(id)) : List.of());
        }
      }
    }
  }

  @Test
  void rangesOnADescendingExpressionKey() throws SQLException {
    String sql = "SELECT count(*) FROM account WHERE score * 2 BETWEEN 10 AND 13";
    assertThat(plan(sql)).contains("access=[index account_double_score]");
    assertThat(rows(c, sql)).containsExactly(List.of(60L));
    assertThat(rows(c, "SELECT min(id), max(id) FROM account WHERE score * 2 > 196"))
        .containsExactly(List.of(99, 2999));
  }

  @Test
  void aPartialIndexServesOnlyQueriesThatImplyItsPredicate() throws SQLException {
    String live = "SELECT count(*) FROM account WHERE score = 5 AND deleted_at IS NULL";
    assertThat(plan(live)).contains("access=[index account_live_score]");
    assertThat(rows(c, live)).containsExactly(List.of(30L));
    String all = "SELECT count(*) FROM account WHERE score = 10";
    assertThat(plan(all)).doesNotContain("account_live_score");
    assertThat(rows(c, all)).containsExactly(List.of(30L));
    assertThat(rows(c, "SELECT count(*) FROM account WHERE score = 10 AND deleted_at IS NULL"))
        .containsExactly(List.of(0L));
  }

  @Test
  void writesAfterThePlanWasCachedAreSeen() throws SQLException {
    String sql = "SELECT id FROM account WHERE lower(email) = 'new@x.org'";
    assertThat(rows(c, sql)).isEmpty();
    update(c, "INSERT INTO account VALUES (5000, 'NEW@x.org', NULL, 5)");
    assertThat(rows(c, sql)).containsExactly(List.of(5000));
    update(c, "UPDATE account SET email = 'other@x.org' WHERE id = 5000");
    assertThat(rows(c, sql)).isEmpty();
    assertThat(rows(c, "SELECT id FROM account WHERE lower(email) = 'other@x.org'")).containsExactly(List.of(5000));
  }
}
