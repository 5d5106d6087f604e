package io.accel.jdbc;

import io.accel.sql.SqlState;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;

/**
 * Connection.setSavepoint, rollback(Savepoint) and releaseSavepoint of a standalone connection, run as the SQL
 * commands SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT (Avatica has none). Names and errors follow
 * pgJDBC: an unnamed savepoint is {@code JDBC_SAVEPOINT_<id>}, a named one is quoted, so its case is kept.
 */
final class JdbcSavepoints {
  private int nextId;

  /** A savepoint this connection set: an id (unnamed) or a name, and whether RELEASE has ended it. */
  static final class AccelSavepoint implements Savepoint {
    private final Object owner;
    private final int id;
    private final String name;
    private boolean released;

    AccelSavepoint(Object owner, int id, String name) {
      this.owner = owner;
      this.id = id;
      this.name = name;
    }

    @Override
    public int getSavepointId() throws SQLException {
      if (name != null) {
        throw new SQLException("Cannot retrieve the id of a named savepoint.", SqlState.WRONG_OBJECT_TYPE.code());
      }
      return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
      if (name == null) {
        throw new SQLException("Cannot retrieve the name of an unnamed savepoint.", SqlState.WRONG_OBJECT_TYPE.code());
      }
      return name;
    }

    /** The name the SQL commands use. */
    String sqlName() throws SQLException {
      if (released) {
        throw new SQLException("Cannot reference a savepoint after it has been released.",
            SqlState.INVALID_SAVEPOINT_SPECIFICATION.code());
      }
      return name == null ? "JDBC_SAVEPOINT_" + id : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String toString() {
      return name == null ? "JDBC_SAVEPOINT_" + id : name;
    }
  }

  /** setSavepoint() ({@code name} null) and setSavepoint(name): only in a transaction (autocommit off). */
  Savepoint set(Connection c, String name) throws SQLException {
    if (c.isClosed()) {
      throw new SQLException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
    }
    if (c.getAutoCommit()) {
      throw new SQLException("Cannot establish a savepoint in auto-commit mode.",
          SqlState.NO_ACTIVE_SQL_TRANSACTION.code());
    }
    AccelSavepoint sp = new AccelSavepoint(c, name == null ? nextId++ : 0, name);
    run(c, "SAVEPOINT " + sp.sqlName());
    return sp;
  }

  void rollback(Connection c, Savepoint savepoint) throws SQLException {
    run(c, "ROLLBACK TO SAVEPOINT " + own(c, savepoint).sqlName());
  }

  void release(Connection c, Savepoint savepoint) throws SQLException {
    AccelSavepoint sp = own(c, savepoint);
    run(c, "RELEASE SAVEPOINT " + sp.sqlName());
    sp.released = true;
  }

  private static AccelSavepoint own(Connection c, Savepoint savepoint) throws SQLException {
    if (!(savepoint instanceof AccelSavepoint sp) || sp.owner != c) {
      throw new SQLException("the savepoint was not set by this connection",
          SqlState.INVALID_SAVEPOINT_SPECIFICATION.code());
    }
    return sp;
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translate(e);
    }
  }
}
