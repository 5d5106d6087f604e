package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statements with many literals: multi-row INSERT ... VALUES and IN lists of up to 100,000 elements. A
 * 5,000-row INSERT failed with XX000 "Code grows beyond 64 KB" (Calcite wrote every literal into one
 * generated method) and one of 100,000 rows did not finish within 5 minutes (each row a projection of a
 * union, once the literals were normalised to parameters).
 */
class LargeStatementTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
  }

  private static String valuesInsert(String table, int rows) {
    StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
    for (int i = 0; i < rows; i++) {
      sql.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'name ").append(i).append("', ")
          .append(i % 7 - 3).append(".25)");
    }
    return sql.toString();
  }

  @Test
  void insertOfFiveThousandRowsInOneStatement() throws SQLException {
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, v NUMERIC(6,2))");
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate(valuesInsert("t", 5_000))).isEqualTo(5_000);
    }
    assertThat(count(c, "t")).isEqualTo(5_000);
    try (ResultSet rs = c.createStatement().executeQuery("SELECT name, v FROM t WHERE id = 4321")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("name 4321");
      assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("-1.25"); // 4321 % 7 - 3 = -1
    }
  }

  @Test
  void insertOfOneHundredThousandRowsAndAnInListOfOneHundredThousandLiterals() throws SQLException {
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, v NUMERIC(6,2))");
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate(valuesInsert("t", 100_000))).isEqualTo(100_000);
    }
    StringBuilder in = new StringBuilder("SELECT count(*), sum(id) FROM t WHERE id IN (");
    for (int i = 0; i < 100_000; i++) {
      in.append(i == 0 ? "" : ", ").append(i * 2L); // half of them exist
    }
    in.append(')');
    try (ResultSet rs = c.createStatement().executeQuery(in.toString())) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(50_000);
      assertThat(rs.getLong(2)).isEqualTo(2L * (49_999L * 50_000L / 2));
    }
  }

  @Test
  void aFailingRowOfALargeInsertLeavesNothingWritten() throws SQLException {
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, v NUMERIC(6,2))");
    String sql = valuesInsert("t", 1_000) + ", (17, 'duplicate', 0)";
    SQLException e = sqlError(() -> c.createStatement().executeUpdate(sql));
    assertThat(e.getSQLState()).isEqualTo("23505");
    assertThat(count(c, "t")).isZero();
  }

  /** Every type a large VALUES relation carries reads back as the same row inserted on its own. */
  @Test
  void largeValuesKeepEveryTypeAsSingleRowInsertsDo() throws SQLException {
    String columns = "(id INTEGER PRIMARY KEY, s SMALLINT, b BIGINT, n NUMERIC(10,3), r REAL, d DOUBLE PRECISION,"
        + " ok BOOLEAN, name VARCHAR(30), code CHAR(4), day DATE, at TIMESTAMP, t TIME)";
    update(c, "CREATE TABLE bulk " + columns);
    update(c, "CREATE TABLE single " + columns);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add("(" + i + ", " + (i % 2 == 0 ? "NULL" : String.valueOf(i - 100)) + ", " + (i * 1_000_000_007L)
          + ", " + (i - 50) + "." + (i % 1000) + ", " + (i / 4.0) + ", " + (i * 1.5e10) + ", "
          + (i % 3 == 0 ? "TRUE" : i % 3 == 1 ? "FALSE" : "NULL") + ", 'n''" + i + "', 'c" + (i % 10) + "', DATE '2024-0"
          + (1 + i % 9) + "-1" + (i % 10) + "', TIMESTAMP '2023-12-31 23:59:" + (10 + i % 50) + ".125', TIME '12:"
          + (10 + i % 50) + ":00')");
    }
    update(c, "INSERT INTO bulk VALUES " + String.join(", ", rows));
    for (String row : rows) {
      update(c, "INSERT INTO single VALUES " + row);
    }
    assertThat(count(c, "bulk")).isEqualTo(200);
    assertThat(scalar(c, "SELECT count(*) FROM (SELECT * FROM bulk EXCEPT SELECT * FROM single) x"))
        .isEqualTo(0L);
    assertThat(scalar(c, "SELECT count(*) FROM (SELECT * FROM single EXCEPT SELECT * FROM bulk) x"))
        .isEqualTo(0L);
    assertThat(scalar(c, "SELECT code FROM bulk WHERE id = 13")).isEqualTo("c3  ");
  }
}
