package io.accel.e2e.slt;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs sqllogictest records through a JDBC connection, one {@link Statement} per record, as a user would.
 * Values are read with {@code getObject}; a column the driver reports as a timestamp with time zone is
 * read as an {@link OffsetDateTime} (or converted from the {@link java.sql.Timestamp}'s instant), so it
 * renders the same whatever the JVM's time zone.
 */
public final class JdbcSltConnection implements SltConnection {
  private final Connection connection;
  private final int queryTimeoutSeconds;

  public JdbcSltConnection(Connection connection, int queryTimeoutSeconds) {
    this.connection = connection;
    this.queryTimeoutSeconds = queryTimeoutSeconds;
  }

  public Connection connection() {
    return connection;
  }

  private Statement newStatement() throws SQLException {
    Statement st = connection.createStatement();
    if (queryTimeoutSeconds > 0) {
      try {
        st.setQueryTimeout(queryTimeoutSeconds);
      } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
        // the runner's overall timeout still applies
      }
    }
    return st;
  }

  @Override
  public void execute(String sql) throws SQLException {
    try (Statement st = newStatement()) {
      st.execute(sql);
    }
  }

  @Override
  public QueryResult query(String sql) throws SQLException {
    try (Statement st = newStatement()) {
      boolean hasResultSet = st.execute(sql);
      if (!hasResultSet) {
        throw new SQLException("the query returned no result set (update count " + st.getUpdateCount() + ")");
      }
      try (ResultSet rs = st.getResultSet()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        Class<?>[] javaTime = new Class<?>[n + 1];
        for (int c = 1; c <= n; c++) {
          if (isTimestampWithTimeZone(md, c)) {
            javaTime[c] = OffsetDateTime.class;
          } else if (md.getColumnType(c) == Types.TIME) {
            javaTime[c] = LocalTime.class; // java.sql.Time would drop the fraction of a second
          } else if (md.getColumnType(c) == Types.TIMESTAMP) {
            javaTime[c] = LocalDateTime.class;
          }
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
          List<Object> row = new ArrayList<>(n);
          for (int c = 1; c <= n; c++) {
            row.add(javaTime[c] == null ? rs.getObject(c) : readJavaTime(rs, c, javaTime[c]));
          }
          rows.add(row);
        }
        return new QueryResult(n, rows);
      }
    }
  }

  private static boolean isTimestampWithTimeZone(ResultSetMetaData md, int c) throws SQLException {
    int type = md.getColumnType(c);
    if (type == Types.TIMESTAMP_WITH_TIMEZONE) {
      return true;
    }
    String name = md.getColumnTypeName(c);
    if (name == null) {
      return false;
    }
    name = name.toLowerCase(Locale.ROOT);
    return name.equals("timestamptz") || name.contains("timestamp with time zone")
        || name.contains("timestamp_with_time_zone") || name.contains("timestamp_with_local_time_zone")
        || name.contains("timestamp with local time zone");
  }

  /**
   * Reads a date-time value as the given java.time class when the driver supports it, else converts what
   * {@code getObject} returns.
   */
  private static Object readJavaTime(ResultSet rs, int c, Class<?> type) throws SQLException {
    try {
      return rs.getObject(c, type);
    } catch (SQLException | RuntimeException | AbstractMethodError e) {
      Object o = rs.getObject(c);
      if (type == OffsetDateTime.class && o instanceof java.sql.Timestamp ts) {
        return ts.toInstant().atOffset(ZoneOffset.UTC);
      }
      if (o instanceof java.sql.Time t) {
        int millis = (int) Math.floorMod(t.getTime(), 1000L);
        return t.toLocalTime().withNano(millis * 1_000_000);
      }
      return o;
    }
  }
}
