package io.accel.spring;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** Runs Accel's own statements ({@code SHOW ACCEL STATUS}, ...) through the application's DataSource. */
public final class AccelCommands {
  private final DataSource dataSource;

  public AccelCommands(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The rows of {@code command}, each a map of column label to text value, in the order Accel returns them. */
  public List<Map<String, String>> rows(String command) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return rows(c, command);
    }
  }

  static List<Map<String, String>> rows(Connection c, String command) throws SQLException {
    List<Map<String, String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(command)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** {@code SHOW ACCEL STATUS} as name to value. */
  static Map<String, String> status(Connection c) throws SQLException {
    Map<String, String> status = new LinkedHashMap<>();
    for (Map<String, String> row : rows(c, "SHOW ACCEL STATUS")) {
      status.put(row.get("name"), row.get("value"));
    }
    return status;
  }
}
