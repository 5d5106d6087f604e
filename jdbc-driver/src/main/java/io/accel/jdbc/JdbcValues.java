package io.accel.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/** The JDBC 4.2 value conversions (java.time, UUID) that Avatica's accessors and parameters lack. */
final class JdbcValues {
  private JdbcValues() {
  }

  static Object getObject(ResultSet rs, Object column, Class<?> type) throws SQLException {
    if (type == LocalDate.class) {
      java.sql.Date d = column instanceof Integer i ? rs.getDate(i) : rs.getDate((String) column);
      return d == null ? null : d.toLocalDate();
    }
    if (type == LocalTime.class) {
      Time t = column instanceof Integer i ? rs.getTime(i) : rs.getTime((String) column);
      return t == null ? null : t.toLocalTime();
    }
    if (type == LocalDateTime.class) {
      Timestamp t = column instanceof Integer i ? rs.getTimestamp(i) : rs.getTimestamp((String) column);
      return t == null ? null : t.toLocalDateTime();
    }
    if (type == Instant.class || type == OffsetDateTime.class) {
      Timestamp t = column instanceof Integer i ? rs.getTimestamp(i) : rs.getTimestamp((String) column);
      if (t == null) {
        return null;
      }
      return type == Instant.class ? t.toInstant() : t.toInstant().atOffset(ZoneOffset.UTC);
    }
    if (type == UUID.class) {
      Object o = column instanceof Integer i ? rs.getObject(i) : rs.getObject((String) column);
      return o == null ? null : o instanceof UUID u ? u : UUID.fromString(o.toString());
    }
    return column instanceof Integer i ? rs.getObject(i, type) : rs.getObject((String) column, type);
  }

  /** Sets a java.time or UUID parameter; false when the value is of a type Avatica handles itself. */
  static boolean setObject(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value instanceof LocalDate d) {
      ps.setDate(index, java.sql.Date.valueOf(d));
    } else if (value instanceof LocalTime t) {
      ps.setTime(index, Time.valueOf(t));
    } else if (value instanceof LocalDateTime t) {
      ps.setTimestamp(index, Timestamp.valueOf(t));
    } else if (value instanceof Instant i) {
      ps.setTimestamp(index, Timestamp.from(i));
    } else if (value instanceof OffsetDateTime o) {
      ps.setTimestamp(index, Timestamp.from(o.toInstant()));
    } else if (value instanceof UUID u) {
      ps.setString(index, u.toString());
    } else {
      return false;
    }
    return true;
  }
}
