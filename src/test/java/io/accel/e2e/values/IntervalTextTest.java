package io.accel.e2e.values;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An interval read with getString is PostgreSQL's text of it, as pgJDBC returns it from PostgreSQL. */
class IntervalTextTest {
  private static final String QUERY = "SELECT TIMESTAMP '2024-01-15 10:00:00' - TIMESTAMP '2024-01-10 08:30:00',"
      + " TIMESTAMP '2024-01-10 08:30:00' - TIMESTAMP '2024-01-15 10:00:00',"
      + " TIMESTAMPTZ '2024-01-16 12:00:00.5+00' - TIMESTAMPTZ '2024-01-15 10:00:00+00',"
      + " TIMESTAMP '2024-01-01 00:00:00' - TIMESTAMP '2024-01-01 00:00:00',"
      + " INTERVAL '14' MONTH, INTERVAL '-3' DAY";

  private static List<String> strings(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
      rs.next();
      List<String> values = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        values.add(rs.getString(i));
      }
      return values;
    }
  }

  @Test
  void getStringOfAnIntervalIsPostgresText() throws SQLException {
    List<String> expected;
    try (Connection pg = Services.postgres()) {
      expected = strings(pg);
    }
    try (Connection accel = DriverManager.getConnection("jdbc:accel:mem:intervaltext")) {
      assertThat(strings(accel)).isEqualTo(expected);
    }
  }
}
