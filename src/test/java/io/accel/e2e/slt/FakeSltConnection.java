package io.accel.e2e.slt;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A scripted stand-in for a database: answers given SQL texts with given rows or errors. */
final class FakeSltConnection implements SltConnection {
  private final Map<String, Object> answers = new HashMap<>();
  final List<String> executed = new ArrayList<>();

  /** {@code sql} returns these rows (each an Object[] of {@code columns} values). */
  FakeSltConnection rows(String sql, int columns, Object[]... rows) {
    List<List<Object>> list = new ArrayList<>();
    for (Object[] r : rows) {
      list.add(Arrays.asList(r));
    }
    answers.put(sql, new QueryResult(columns, list));
    return this;
  }

  /** {@code sql} fails with this SQLSTATE and message. */
  FakeSltConnection error(String sql, String sqlState, String message) {
    answers.put(sql, new SQLException(message, sqlState));
    return this;
  }

  @Override
  public void execute(String sql) throws SQLException {
    executed.add(sql);
    Object a = answers.get(sql);
    if (a instanceof SQLException e) {
      throw e;
    }
  }

  @Override
  public QueryResult query(String sql) throws SQLException {
    executed.add(sql);
    Object a = answers.get(sql);
    if (a instanceof SQLException e) {
      throw e;
    }
    if (a == null) {
      throw new SQLException("fake: no answer for " + sql, "XX000");
    }
    return (QueryResult) a;
  }
}
