package io.accel.e2e.slt;

import java.sql.SQLException;
import java.util.List;

/** What the runner needs from a database; {@link JdbcSltConnection} over JDBC, or a fake in unit tests. */
public interface SltConnection {

  /** Runs a statement; any result it has is ignored. */
  void execute(String sql) throws SQLException;

  /** Runs a query and returns all its rows. */
  QueryResult query(String sql) throws SQLException;

  /** The rows of a query: each row a list of {@code columnCount} values (Java objects, null for NULL). */
  record QueryResult(int columnCount, List<List<Object>> rows) {
  }
}
