package io.accel.jdbc;

import io.accel.cache.ResultCache;
import java.lang.reflect.Field;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.core.BaseStatement;
import org.postgresql.core.Tuple;
import org.postgresql.jdbc.PgResultSet;

/**
 * A result pgJDBC read from the upstream, kept by a shallow cache of upstream results: its column descriptions and
 * rows exactly as they came off the wire (text or binary per column), so a result set made from it again is pgJDBC's
 * own and answers every getter, and its metadata, as the upstream's did.
 *
 * <p>pgJDBC makes such result sets ({@link BaseStatement#createDriverResultSet}) but keeps a result's fields and rows
 * protected; they are read by reflection. Should a pgJDBC version rename them, results are simply not kept.
 */
record UpstreamResult(org.postgresql.core.Field[] fields, List<Tuple> rows, long bytes) {
  private static final Field FIELDS = field("fields");
  private static final Field ROWS = field("rows");
  private static final Field CURSOR = field("cursor");

  private static Field field(String name) {
    try {
      Field f = PgResultSet.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The whole of {@code rs} (not yet read by the application), or null when it cannot be kept: not pgJDBC's, read
   * through a cursor (only part of its rows are here), or more rows than a result cache keeps.
   */
  @SuppressWarnings("unchecked")
  static UpstreamResult of(ResultSet rs) {
    if (FIELDS == null || ROWS == null || CURSOR == null) {
      return null;
    }
    try {
      PgResultSet pg = rs.unwrap(PgResultSet.class);
      if (pg.getConcurrency() != ResultSet.CONCUR_READ_ONLY || CURSOR.get(pg) != null) {
        return null;
      }
      org.postgresql.core.Field[] fields = (org.postgresql.core.Field[]) FIELDS.get(pg);
      List<Tuple> rows = (List<Tuple>) ROWS.get(pg);
      if (fields == null || rows == null || rows.size() > ResultCache.MAX_ROWS) {
        return null;
      }
      long bytes = 64L * fields.length;
      for (Tuple t : rows) {
        bytes += 24 + 16L * t.fieldCount();
        for (int i = 0; i < t.fieldCount(); i++) {
          byte[] v = t.get(i);
          bytes += v == null ? 0 : v.length;
        }
      }
      return new UpstreamResult(fields.clone(), List.copyOf(rows), bytes);
    } catch (SQLException | ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** A new pgJDBC result set of these rows, as {@code statement} (the upstream's) would have returned them. */
  ResultSet open(Statement statement) throws SQLException {
    return statement.unwrap(BaseStatement.class).createDriverResultSet(fields, new ArrayList<>(rows));
  }
}
