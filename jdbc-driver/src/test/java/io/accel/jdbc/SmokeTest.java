package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void smoke() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:accel:mem:smoke"); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, score NUMERIC(6,2), d DATE DEFAULT DATE '2020-01-02')");
      System.out.println("insert: " + s.executeUpdate("INSERT INTO t (id, name, score) VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, 'c', 2.25)"));
      try (ResultSet rs = s.executeQuery("SELECT id, name, score, d FROM t ORDER BY id DESC")) {
        while (rs.next()) {
          System.out.println(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getBigDecimal(3) + " " + rs.getString(4));
        }
      }
      System.out.println("update: " + s.executeUpdate("UPDATE t SET score = score * 2 WHERE id < 3"));
      System.out.println("delete: " + s.executeUpdate("DELETE FROM t WHERE id = 3"));
      s.execute("CREATE INDEX t_name ON t (name DESC)");
      try (ResultSet rs = s.executeQuery("SELECT count(*), sum(score), avg(id) FROM t")) {
        rs.next();
        System.out.println(rs.getLong(1) + " " + rs.getBigDecimal(2) + " " + rs.getString(3));
      }
      for (String bad : new String[] {"SELECT * FROM nope", "SELECT nope FROM t", "SELEC 1", "INSERT INTO t VALUES (1, 'x', 1, NULL)",
          "INSERT INTO t (id) VALUES (9)", "SELECT 1/0", "SELECT CAST('abc' AS INTEGER)"}) {
        try {
          s.executeQuery(bad);
          System.out.println("NO ERROR for " + bad);
        } catch (SQLException e) {
          System.out.println(e.getSQLState() + " " + e.getMessage());
        }
      }
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO t (id, name) VALUES (10, 'z')");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
        rs.next();
        System.out.println("in txn " + rs.getLong(1));
      }
      c.rollback();
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
        rs.next();
        System.out.println("after rollback " + rs.getLong(1));
        assertThat(rs.getLong(1)).isEqualTo(2);
      }
    }
  }
}
