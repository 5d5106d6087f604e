package io.accel.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.InternalProperty;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;

/**
 * Avatica's JDBC objects for Accel connections: Avatica supplies the JDBC API (statements, result sets,
 * metadata, value conversions) over {@link AccelMeta}, which runs everything through core's session. The
 * subclasses exist to reach what Avatica keeps protected: a statement's cancel flag and a prepared
 * statement's parameter slots.
 */
public final class AccelJdbcFactory implements AvaticaFactory {
  @Override
  public int getJdbcMajorVersion() {
    return 4;
  }

  @Override
  public int getJdbcMinorVersion() {
    return 1;
  }

  @Override
  public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
      Properties info) {
    return new AccelConnection(driver, factory, url, info);
  }

  @Override
  public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) {
    return new AccelStatement(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
      Meta.Signature signature, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    return new AccelPreparedStatement(connection, h, signature, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override
  public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new LocalResultSet(statement, state, signature, newResultSetMetaData(statement, signature), timeZone,
        firstFrame);
  }

  /** Avatica's result set, which also knows the rows of its cursor (for {@link DriverResultSet}'s direct reads). */
  static final class LocalResultSet extends AvaticaResultSet {
    private CursorRows rows;

    LocalResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
      super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    @Override
    protected AvaticaResultSet execute() throws SQLException {
      AvaticaResultSet result = super.execute();
      if (statement.connection instanceof AccelConnection c) {
        CursorRows taken = c.accelMeta().takeRows(statement.handle);
        // a row of one column is the value itself (not an array) in other cursor styles
        rows = taken == null ? null : signature.cursorFactory.style == Meta.Style.ARRAY ? taken
            : signature.columns.size() == 1 && signature.cursorFactory.style == Meta.Style.OBJECT
                ? taken.singleColumn() : null;
      }
      return result;
    }

    /** The row the result set is on, as the cursor gave it, or null when that is not known (or no row). */
    Object[] currentRow() {
      CursorRows r = rows;
      return r == null ? null : r.current();
    }

    /** The session's time zone (SET TIME ZONE), in which PostgreSQL prints a timestamptz. */
    java.time.ZoneId sessionZone() {
      return statement.connection instanceof AccelConnection c ? c.accelMeta().session().timeZone().toZoneId()
          : getLocalCalendar().getTimeZone().toZoneId();
    }

    /** The type of a 1-based column, or null when out of range. */
    org.apache.calcite.avatica.ColumnMetaData.AvaticaType columnType(int column) {
      return column >= 1 && column <= columnMetaDataList.size() ? columnMetaDataList.get(column - 1).type : null;
    }
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new AccelDatabaseMetaData(connection);
  }

  @Override
  public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /** A result set over rows already in memory (generated keys), in Avatica's value conversions. */
  static java.sql.ResultSet rows(AvaticaStatement statement, Meta.Signature signature, java.util.List<Object> rows,
      TimeZone timeZone) throws SQLException {
    return new RowsResultSet(statement, signature, rows, timeZone).open();
  }

  private static final class RowsResultSet extends AvaticaResultSet {
    RowsResultSet(AvaticaStatement statement, Meta.Signature signature, java.util.List<Object> rows, TimeZone timeZone)
        throws SQLException {
      super(statement, new QueryState(), signature, new AvaticaResultSetMetaData(statement, null, signature), timeZone,
          new Meta.Frame(0, true, rows));
    }

    AvaticaResultSet open() throws SQLException {
      return execute();
    }
  }

  /** An Accel connection: Avatica's, with its Meta and statements reachable by the driver. */
  static final class AccelConnection extends AvaticaConnection implements AccelNotifications, AccelCopy {
    /** Signalled when a notification arrives for the session (by the notifier's thread). */
    private final Object arrived = new Object();
    private boolean wakeUpSet;
    private long arrivals;

    AccelConnection(UnregisteredDriver driver, AvaticaFactory factory, String url, Properties info) {
      super(driver, factory, url, info);
      // identifiers as PostgreSQL treats them, for DatabaseMetaData (matching is case-insensitive, see core)
      properties.put(InternalProperty.CASE_SENSITIVE, false);
      properties.put(InternalProperty.UNQUOTED_CASING, Casing.TO_LOWER);
      properties.put(InternalProperty.QUOTED_CASING, Casing.UNCHANGED);
      properties.put(InternalProperty.QUOTING, Quoting.DOUBLE_QUOTE);
    }

    AccelMeta accelMeta() {
      return (AccelMeta) meta;
    }

    /** PostgreSQL's element type names as pgJDBC takes them ({@code int4}, {@code text}), besides JDBC's. */
    @Override
    public java.sql.Array createArrayOf(String typeName, Object[] elements) throws java.sql.SQLException {
      String jdbc = switch (typeName.toLowerCase(java.util.Locale.ROOT)) {
        case "int2", "smallint" -> "SMALLINT";
        case "int", "int4", "integer", "serial" -> "INTEGER";
        case "int8", "bigint", "bigserial" -> "BIGINT";
        case "numeric", "decimal" -> "DECIMAL";
        case "float4", "real" -> "REAL";
        case "float8", "double precision", "double" -> "DOUBLE";
        case "bool", "boolean" -> "BOOLEAN";
        case "text", "varchar", "character varying", "bpchar", "char", "character", "name" -> "VARCHAR";
        case "date" -> "DATE";
        case "timestamp", "timestamp without time zone" -> "TIMESTAMP";
        default -> typeName;
      };
      return super.createArrayOf(jdbc, elements);
    }

    @Override
    public java.util.List<io.accel.exec.Notifications.Notification> getNotifications() throws SQLException {
      return getNotifications(-1);
    }

    @Override
    public java.util.List<io.accel.exec.Notifications.Notification> getNotifications(int timeoutMillis)
        throws SQLException {
      checkOpen();
      io.accel.exec.Session session = accelMeta().session();
      synchronized (arrived) {
        if (!wakeUpSet) {
          session.onNotification(() -> {
            synchronized (arrived) {
              arrivals++;
              arrived.notifyAll();
            }
          });
          wakeUpSet = true;
        }
      }
      long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
      java.util.List<io.accel.exec.Notifications.Notification> out = new java.util.ArrayList<>();
      while (true) {
        long seen;
        synchronized (arrived) {
          seen = arrivals;
        }
        // polled without holding the monitor: the notifier takes it while holding its own session's lock
        for (var n = session.pollNotification(); n.isPresent(); n = session.pollNotification()) {
          out.add(n.get());
        }
        if (!out.isEmpty() || timeoutMillis < 0) {
          return out;
        }
        synchronized (arrived) {
          while (arrivals == seen) {
            long wait = timeoutMillis == 0 ? 0 : (deadline - System.nanoTime()) / 1_000_000L;
            if (timeoutMillis > 0 && wait <= 0) {
              return out;
            }
            try {
              arrived.wait(wait);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new SQLException("interrupted while waiting for notifications", "57014", e);
            }
          }
        }
      }
    }

    @Override
    public long copyIn(String sql, java.io.InputStream from) throws SQLException, java.io.IOException {
      checkOpen();
      io.accel.exec.Session session = accelMeta().session();
      Object key = new Object();
      io.accel.exec.CopyIn copy;
      try {
        copy = session.copyIn(key, sql);
      } catch (RuntimeException e) {
        session.releaseStatement(key);
        throw JdbcErrors.translate(e);
      }
      try {
        if (!copy.textFormat()) {
          copy.fail("COPY FROM STDIN in binary format is not supported through AccelCopy");
          throw new SQLException("COPY FROM STDIN in binary format is not supported through AccelCopy; use text or "
              + "csv", "0A000");
        }
        byte[] buffer = new byte[64 << 10];
        for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
          copy.write(buffer, 0, n);
        }
        return copy.finish();
      } catch (java.io.IOException | RuntimeException e) {
        try {
          copy.fail(e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (RuntimeException ignored) {
          // the COPY already failed: its own error is the one to report
        }
        if (e instanceof java.io.IOException io) {
          throw io;
        }
        throw JdbcErrors.translate(e);
      } finally {
        session.releaseStatement(key);
      }
    }

    @Override
    public long copyIn(String sql, java.io.Reader from) throws SQLException, java.io.IOException {
      return copyIn(sql, new java.io.InputStream() {
        private final java.nio.charset.CharsetEncoder encoder = java.nio.charset.StandardCharsets.UTF_8.newEncoder();
        private final java.nio.CharBuffer chars = java.nio.CharBuffer.allocate(16 << 10).flip();
        private final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(64 << 10).flip();
        private boolean end;

        @Override
        public int read() throws java.io.IOException {
          byte[] one = new byte[1];
          return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
          while (!bytes.hasRemaining()) {
            if (end && !chars.hasRemaining()) {
              return -1;
            }
            chars.compact();
            int n = end ? -1 : from.read(chars);
            chars.flip();
            if (n < 0) {
              end = true;
            }
            bytes.clear();
            encoder.encode(chars, bytes, end);
            if (end && !chars.hasRemaining()) {
              encoder.flush(bytes);
            }
            bytes.flip();
          }
          int n = Math.min(len, bytes.remaining());
          bytes.get(b, off, n);
          return n;
        }
      });
    }

    @Override
    public long copyOut(String sql, java.io.OutputStream to) throws SQLException, java.io.IOException {
      checkOpen();
      io.accel.exec.Session session = accelMeta().session();
      Object key = new Object();
      try (io.accel.exec.CopyOut copy = session.copyOut(key, sql)) {
        for (byte[] line = copy.next(); line != null; line = copy.next()) {
          to.write(line);
        }
        return copy.rows();
      } catch (RuntimeException e) {
        throw JdbcErrors.translate(e);
      } finally {
        session.releaseStatement(key);
      }
    }

    @Override
    public long copyOut(String sql, java.io.Writer to) throws SQLException, java.io.IOException {
      java.io.OutputStream bytes = new java.io.OutputStream() {
        @Override
        public void write(int b) throws java.io.IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
          to.write(new String(b, off, len, java.nio.charset.StandardCharsets.UTF_8));
        }
      };
      return copyOut(sql, bytes);
    }

    /** The statement of handle {@code h}, or null when it is closed. */
    AvaticaStatement statement(Meta.StatementHandle h) {
      return statementMap.get(h.id);
    }
  }

  /** Clears a cancel request left from an earlier execution (Avatica never resets the flag). */
  interface Cancellable {
    void clearCancel();
  }

  static final class AccelStatement extends AvaticaStatement implements Cancellable {
    AccelStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
        int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public void clearCancel() {
      cancelFlag.set(false);
    }

    /** Accel does no JDBC escape processing ({fn ...}); Flyway turns it off, so both values are accepted. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
      checkOpen();
    }

    /** A hint (JDBC): statements are not pooled by the driver. */
    @Override
    public void setPoolable(boolean poolable) throws SQLException {
      checkOpen();
    }
  }

  /** A prepared statement whose parameter slots the driver can fill and inspect. */
  static final class AccelPreparedStatement extends AvaticaPreparedStatement implements Cancellable {
    AccelPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h, Meta.Signature signature,
        int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public void clearCancel() {
      cancelFlag.set(false);
    }

    /** Accel does no JDBC escape processing ({fn ...}); Flyway turns it off, so both values are accepted. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
      checkOpen();
    }

    /** A hint (JDBC): statements are not pooled by the driver. */
    @Override
    public void setPoolable(boolean poolable) throws SQLException {
      checkOpen();
    }

    /** The declared type name of parameter {@code index} (1-based), or null when unknown. */
    String parameterTypeName(int index) {
      var parameters = getSignature().parameters;
      return index < 1 || index > parameters.size() ? null : parameters.get(index - 1).typeName;
    }

    /** Binds a value given in the engine's own (local) representation. */
    void setLocal(int index, ColumnMetaData.Rep rep, Object value) throws SQLException {
      getSite(index); // checks that the statement is open and the index in range
      slots[index - 1] = value == null ? TypedValue.EXPLICIT_NULL : TypedValue.ofLocal(rep, value);
    }

    /** The 1-based index of the first parameter that has no value, or 0 when all have one. */
    int firstUnset() {
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] == null) {
          return i + 1;
        }
      }
      return 0;
    }
  }

  /** DatabaseMetaData with Accel's answers where Avatica's defaults are wrong for it. */
  static final class AccelDatabaseMetaData extends AvaticaDatabaseMetaData {
    AccelDatabaseMetaData(AvaticaConnection connection) {
      super(connection);
    }

    @Override
    public boolean isReadOnly() {
      return false;
    }

    /** As pgJDBC: result sets close at COMMIT unless the statement asks for HOLD_CURSORS_OVER_COMMIT. */
    @Override
    public int getResultSetHoldability() {
      return java.sql.ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
      return false;
    }

    @Override
    public boolean supportsTransactions() {
      return true;
    }

    /** SAVEPOINT, RELEASE and ROLLBACK TO SAVEPOINT (Spring's PROPAGATION_NESTED asks this first). */
    @Override
    public boolean supportsSavepoints() {
      return true;
    }

    @Override
    public int getDefaultTransactionIsolation() {
      return java.sql.Connection.TRANSACTION_READ_COMMITTED;
    }

    /** As PostgreSQL: READ UNCOMMITTED runs as READ COMMITTED, SERIALIZABLE as snapshot isolation. */
    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
      return level != java.sql.Connection.TRANSACTION_NONE;
    }
  }

}
