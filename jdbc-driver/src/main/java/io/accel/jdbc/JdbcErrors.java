package io.accel.jdbc;

import io.accel.sql.AccelException;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.BatchUpdateException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives every JDBC object of an Accel connection PostgreSQL error behaviour: each failure surfaces as a
 * {@link SQLException} whose SQLSTATE and message come from {@link ErrorTranslator}, never a wrapped
 * internal stack trace. Implemented as one dynamic proxy per JDBC object around Avatica's objects; the
 * proxies also serialize the calls on one connection, close statements the application forgot, and fill the
 * gaps of Avatica's JDBC behaviour: java.time and UUID values, TIMESTAMP WITH TIME ZONE instants, byte[] for
 * BYTEA, maxRows of prepared statements, BatchUpdateException, closing a connection's statements with it and
 * checks for parameters that were never set. (Parameter values are converted to their declared types by
 * core, {@code io.accel.exec.ParameterConversions}.)
 */
final class JdbcErrors {
  /** pgjdbc's SQLSTATE for a query run through executeUpdate. */
  static final String RESULT_WHEN_NONE_EXPECTED = "0100E";
  /** pgjdbc's SQLSTATE for an executeQuery that produced no result set. */
  static final String NO_RESULT = "02000";
  /** Reading a column while the cursor is not on a row. */
  static final String INVALID_CURSOR_STATE = "24000";

  private static final Pattern PARAMETER_ORDINAL = Pattern.compile("parameter ordinal (-?\\d+) out of range");
  private static final Pattern COLUMN_ORDINAL = Pattern.compile("invalid column ordinal: (-?\\d+)");
  private static final Pattern COLUMN_LABEL = Pattern.compile("column '(.*)' not found");

  private JdbcErrors() {
  }

  static SQLException toSqlException(AccelException e) {
    return new SQLException(e.getMessage(), e.state().code(), e.getCause());
  }

  static SQLException translate(Throwable t) {
    if (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().length() == 5
        && !(s.getCause() instanceof RuntimeException)) {
      return s;
    }
    SQLException avatica = avaticaFailure(t);
    if (avatica != null) {
      return avatica;
    }
    String message = t.getMessage() == null ? "" : t.getMessage();
    AccelException translated = ErrorTranslator.translate(t);
    for (Throwable c = t; c != null && translated.state() == SqlState.INTERNAL_ERROR; c = c.getCause() == c ? null
        : c.getCause()) {
      if (c instanceof SQLException && "Statement canceled".equals(c.getMessage())) {
        // Avatica's word for a statement or result set that Statement.cancel() stopped
        return new SQLException("canceling statement due to user request", SqlState.QUERY_CANCELED.code());
      }
    }
    if (translated.state() == SqlState.INTERNAL_ERROR && t instanceof SQLException) {
      if (message.endsWith("Connection closed") || message.contains("connection is closed")) {
        return new SQLException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
      }
      if (message.endsWith("closed")) {
        return new SQLException(message.toLowerCase(Locale.ROOT), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
      }
      if (t instanceof SQLFeatureNotSupportedException) {
        return new SQLFeatureNotSupportedException("feature not supported by Accel",
            SqlState.FEATURE_NOT_SUPPORTED.code());
      }
      if (t.getCause() == null) {
        return new SQLException(message, SqlState.INTERNAL_ERROR.code());
      }
    }
    return toSqlException(translated);
  }

  /** Translates a failure unless it already is one of the driver's SQLExceptions (it has a SQLSTATE). */
  static SQLException translateOnce(Throwable t) {
    if (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().length() == 5) {
      return s;
    }
    return translate(t);
  }

  /**
   * Avatica's own client-side failures (they carry no SQLSTATE), in pgjdbc's codes and words; and the
   * failures of generated code whose static initializer (where Calcite puts constant expressions) threw.
   */
  private static SQLException avaticaFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof AccelException) {
        return null;
      }
      if (c instanceof ExceptionInInitializerError || c instanceof NoClassDefFoundError) {
        RuntimeException original = initializerFailure(c);
        if (original != null) {
          return toSqlException(ErrorTranslator.translate(original));
        }
      }
      if (c instanceof NoSuchElementException && String.valueOf(c.getMessage()).contains("cursor position")) {
        return new SQLException("the result set is not positioned on a row; call next() first",
            INVALID_CURSOR_STATE);
      }
    }
    if (!(t instanceof SQLException) || ((SQLException) t).getSQLState() != null) {
      return null;
    }
    String m = t.getMessage() == null ? "" : t.getMessage();
    Matcher x;
    if ((x = PARAMETER_ORDINAL.matcher(m)).find()) {
      return new SQLException("the parameter index " + x.group(1) + " is out of range",
          SqlState.INVALID_PARAMETER_VALUE.code());
    }
    if ((x = COLUMN_ORDINAL.matcher(m)).find()) {
      return new SQLException("the column index " + x.group(1) + " is out of range",
          SqlState.INVALID_PARAMETER_VALUE.code());
    }
    if ((x = COLUMN_LABEL.matcher(m)).find()) {
      return new SQLException("the column name \"" + x.group(1) + "\" was not found in this result set",
          SqlState.UNDEFINED_COLUMN.code());
    }
    if (m.startsWith("timeout is less than 0")) {
      return new SQLException("invalid timeout: it must not be negative", SqlState.INVALID_PARAMETER_VALUE.code());
    }
    if (m.startsWith("illegal maxRows value")) {
      return new SQLException(m, SqlState.INVALID_PARAMETER_VALUE.code());
    }
    if (m.startsWith("Statement did not return a result set")) {
      return new SQLException("no results were returned by the query", NO_RESULT);
    }
    return null;
  }

  private static final Pattern INITIALIZER_FAILURE = Pattern.compile("Exception ([\\w.$]+)(?:: (.*?))?(?: \\[in thread .*)?$");

  /**
   * The exception a static initializer threw. The first use of the class reports it as the cause of an
   * ExceptionInInitializerError; later uses (the class is cached with the plan) only as the message of
   * the ExceptionInInitializerError recorded as cause of a NoClassDefFoundError.
   */
  private static RuntimeException initializerFailure(Throwable error) {
    for (Throwable c = error; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof RuntimeException r) {
        return r;
      }
      if (c instanceof ExceptionInInitializerError && c.getMessage() != null) {
        Matcher m = INITIALIZER_FAILURE.matcher(c.getMessage().trim());
        if (m.matches()) {
          String message = m.group(2);
          return switch (m.group(1)) {
            case "java.lang.ArithmeticException" -> new ArithmeticException(message);
            case "java.lang.NumberFormatException" -> new NumberFormatException(message);
            default -> new RuntimeException(message);
          };
        }
      }
    }
    return null;
  }

  /**
   * The methods every proxy answers the same way: identity equality and hash, and unwrap/isWrapperFor
   * that see the proxy first, then what it wraps. {@link #NOT_HANDLED} for any other method.
   */
  private static Object identityMethod(Object self, String name, Object[] args, java.sql.Wrapper delegate)
      throws SQLException {
    try {
      switch (name) {
        case "equals":
          return self == args[0];
        case "hashCode":
          return System.identityHashCode(self);
        case "unwrap": {
          Class<?> c = (Class<?>) args[0];
          return c.isInstance(self) ? self : delegate.unwrap(c);
        }
        case "isWrapperFor": {
          Class<?> c = (Class<?>) args[0];
          return c.isInstance(self) || delegate.isWrapperFor(c);
        }
        default:
          return NOT_HANDLED;
      }
    } catch (SQLException | RuntimeException e) {
      throw translate(e);
    }
  }

  /** The connection's proxy; {@code warnings} (may be null) are what its getWarnings reports until cleared. */
  static Connection wrap(Connection connection, java.sql.SQLWarning warnings) {
    Handler handler = new Handler(connection, null);
    handler.warnings = warnings;
    return handler.proxy(Connection.class);
  }

  /** Calls {@code method} on {@code target}, turning what it throws into a translated SQLException. */
  private static Object invokeOn(Object target, Method method, Object[] args) throws SQLException {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw translate(e.getCause());
    } catch (IllegalAccessException e) {
      throw new SQLException("internal error: " + e.getMessage(), SqlState.INTERNAL_ERROR.code());
    }
  }

  static final class Handler implements InvocationHandler {
    private final Object delegate;
    private final Handler connection;
    /** A connection's statements: what Avatica holds, to the application's proxy (weakly: see CLEANER). */
    private final Map<Object, java.lang.ref.WeakReference<Object>> statementProxies;
    /** For a result set: its statement's proxy, kept reachable while the result set is. */
    private Object owner;
    /** For a result set: the most rows it may return (its statement's maxRows when it ran), 0 for all. */
    private long rowLimit;
    private long rowsRead;
    /** For a result set: next() has returned false. */
    private boolean exhausted;
    private Object proxy;
    /** A connection's own warnings (the store settings it asked for and did not get). */
    private volatile java.sql.SQLWarning warnings;

    Handler(Object delegate, Handler connection) {
      this.delegate = delegate;
      this.connection = connection == null ? this : connection;
      this.statementProxies = connection == null ? Collections.synchronizedMap(new WeakHashMap<>()) : null;
      this.lock = connection == null ? new java.util.concurrent.locks.ReentrantLock() : null;
    }

    <T> T proxy(Class<T> iface) {
      T p = iface.cast(Proxy.newProxyInstance(JdbcErrors.class.getClassLoader(), new Class<?>[] {iface}, this));
      this.proxy = p;
      return p;
    }

    /** A connection's lock: calls on it and on its statements and result sets run one at a time. */
    private final java.util.concurrent.locks.ReentrantLock lock;

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      if (name.equals("cancel") || name.equals("isClosed") || name.equals("abort") || name.equals("hashCode")
          || name.equals("equals") || name.equals("toString")) {
        // cancel comes from another thread while the statement runs (holding the lock)
        return invokeUnlocked(self, method, args, name);
      }
      java.util.concurrent.locks.ReentrantLock l = connection.lock;
      l.lock();
      try {
        if (name.startsWith("execute") && delegate instanceof AccelJdbcFactory.Cancellable s) {
          s.clearCancel();
        }
        return invokeUnlocked(self, method, args, name);
      } finally {
        l.unlock();
      }
    }

    /** ResultSet.next under the connection's lock, for {@link DriverResultSet}. */
    boolean nextLocked(ResultSet rs) throws SQLException {
      java.util.concurrent.locks.ReentrantLock l = connection.lock;
      l.lock();
      try {
        return next(rs);
      } catch (SQLException | RuntimeException e) {
        throw translateOnce(e);
      } finally {
        l.unlock();
      }
    }

    private Object invokeUnlocked(Object self, Method method, Object[] args, String name) throws Throwable {
      int argc = args == null ? 0 : args.length;
      Object identity = identityMethod(self, name, args, (java.sql.Wrapper) delegate);
      if (identity != NOT_HANDLED) {
        return identity;
      }
      switch (name) {
        case "toString":
          return "Accel " + method.getDeclaringClass().getSimpleName() + "@" + Integer.toHexString(
              System.identityHashCode(self));
        case "getConnection":
          if (delegate instanceof Statement || delegate instanceof DatabaseMetaData) {
            call(method, args);
            return connection.proxy;
          }
          break;
        case "getStatement":
          if (delegate instanceof ResultSet) {
            Object statement = call(method, args);
            java.lang.ref.WeakReference<Object> p = statement == null ? null : connection.statementProxies.get(statement);
            Object statementProxy = p == null ? null : p.get();
            return statementProxy != null ? statementProxy : statement;
          }
          break;
        default:
          break;
      }
      if (delegate instanceof Connection c) {
        return invokeConnection(c, method, args);
      }
      if (delegate instanceof PreparedStatement ps) {
        Object result = invokePrepared(ps, method, args);
        if (result != NOT_HANDLED) {
          return result;
        }
      }
      if (delegate instanceof Statement s) {
        return invokeStatement(s, method, args);
      }
      if (delegate instanceof ResultSet rs) {
        return invokeResultSet(rs, method, args, argc);
      }
      return wrapResult(method, call(method, args));
    }

    private Object invokeConnection(Connection c, Method method, Object[] args) throws SQLException {
      switch (method.getName()) {
        case "getWarnings":
          if (c.isClosed()) {
            throw new SQLException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
          }
          return warnings;
        case "clearWarnings":
          warnings = null;
          return null;
        case "close":
          closeStatements();
          return call(method, args);
        case "prepareStatement":
          if (args.length == 2 && args[1] != null && !(args[1] instanceof Integer i
              && i != Statement.RETURN_GENERATED_KEYS)) {
            // generated keys: core adds the RETURNING clause; the statement's executions keep its rows as the keys
            AccelMeta meta = ((AccelJdbcFactory.AccelConnection) c).accelMeta();
            String sql;
            try {
              sql = meta.keysSql((String) args[0], args[1]);
            } catch (RuntimeException e) {
              throw translate(e);
            }
            PreparedStatement ps = (PreparedStatement) invokeOn(c, PREPARE, new Object[] {sql});
            meta.wantKeys(((org.apache.calcite.avatica.AvaticaStatement) ps).handle, true);
            return wrapResult(PREPARE, ps);
          }
          if (args.length == 2 && args[1] instanceof Integer) {
            return wrapResult(PREPARE, invokeOn(c, PREPARE, new Object[] {args[0]}));
          }
          break;
        case "prepareCall": {
          CallableStatements.Call call = CallableStatements.translate((String) args[0]);
          Connection self = (Connection) connection.proxy;
          PreparedStatement ps = args.length >= 4
              ? self.prepareStatement(call.sql(), (Integer) args[1], (Integer) args[2], (Integer) args[3])
              : args.length == 3 ? self.prepareStatement(call.sql(), (Integer) args[1], (Integer) args[2])
              : self.prepareStatement(call.sql());
          return CallableStatements.wrap(ps, call);
        }
        case "setSavepoint":
          return savepoints().set(c, args == null || args.length == 0 ? null : (String) args[0]);
        case "releaseSavepoint":
          savepoints().release(c, (java.sql.Savepoint) args[0]);
          return null;
        case "rollback":
          if (args != null && args.length == 1) {
            savepoints().rollback(c, (java.sql.Savepoint) args[0]);
            return null;
          }
          break;
        case "isValid":
          if ((Integer) args[0] < 0) {
            throw new SQLException("invalid timeout: it must not be negative", SqlState.INVALID_PARAMETER_VALUE.code());
          }
          return !c.isClosed();
        default:
          break;
      }
      return wrapResult(method, call(method, args));
    }

    /** A connection's savepoints (JDBC Savepoint objects over SQL SAVEPOINT), made at the first use. */
    private JdbcSavepoints savepoints;

    private JdbcSavepoints savepoints() {
      if (savepoints == null) {
        savepoints = new JdbcSavepoints();
      }
      return savepoints;
    }

    /** Closes the connection's statements (and so their result sets), as JDBC asks of Connection.close. */
    private void closeStatements() {
      List<Object> statements;
      synchronized (statementProxies) {
        statements = new ArrayList<>(statementProxies.keySet());
      }
      for (Object s : statements) {
        try {
          ((Statement) s).close();
        } catch (SQLException | RuntimeException ignored) {
          // the connection closes regardless
        }
      }
    }

    private Object invokePrepared(PreparedStatement ps, Method method, Object[] args) throws SQLException {
      String name = method.getName();
      int argc = args == null ? 0 : args.length;
      try {
        if (name.equals("setObject") && argc >= 2) {
          Integer target = argc >= 3 ? JdbcValues.targetType(args[2]) : null;
          if (JdbcValues.setObject(ps, (Integer) args[0], args[1], target)) {
            return null;
          }
        } else if ((name.equals("setTimestamp") || name.equals("setString")) && argc >= 2) {
          if (JdbcValues.setTyped(ps, (Integer) args[0], args[1])) {
            return null;
          }
        } else if (argc == 0 && (name.equals("execute") || name.equals("executeQuery") || name.equals("executeUpdate")
            || name.equals("executeLargeUpdate") || name.equals("addBatch"))) {
          if (!ps.isClosed()) {
            int unset = ps instanceof AccelJdbcFactory.AccelPreparedStatement a ? a.firstUnset() : 0;
            if (unset > 0) {
              throw new SQLException("no value specified for parameter " + unset,
                  SqlState.INVALID_PARAMETER_VALUE.code());
            }
          }
        }
      } catch (SQLException | RuntimeException e) {
        throw translateOnce(e);
      }
      return NOT_HANDLED;
    }

    private Object invokeStatement(Statement s, Method method, Object[] args) throws SQLException {
      String name = method.getName();
      int argc = args == null ? 0 : args.length;
      if (s.isClosed()) {
        if (name.equals("getGeneratedKeys") || argc == 2 && args[0] instanceof String) {
          throw new SQLException("statement closed", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        return invokeStatementCall(s, method, args);
      }
      if (name.equals("getGeneratedKeys")) {
        try {
          return wrapResult(method, meta(s).generatedKeys((org.apache.calcite.avatica.AvaticaStatement) s));
        } catch (SQLException | RuntimeException e) {
          throw translateOnce(e);
        }
      }
      if (!(s instanceof PreparedStatement) && argc >= 1 && args[0] instanceof String sql
          && (name.equals("execute") || name.equals("executeUpdate") || name.equals("executeLargeUpdate"))) {
        // Statement.execute[Update](sql[, autoGeneratedKeys | columnIndexes | columnNames])
        boolean keys = argc == 2 && args[1] != null && !(args[1] instanceof Integer i
            && i != Statement.RETURN_GENERATED_KEYS);
        AccelMeta meta = meta(s);
        String text;
        try {
          text = keys ? meta.keysSql(sql, args[1]) : sql;
        } catch (RuntimeException e) {
          throw translate(e);
        }
        meta.wantKeys(((org.apache.calcite.avatica.AvaticaStatement) s).handle, keys);
        if (argc == 2) {
          Method single = name.equals("execute") ? EXECUTE : name.equals("executeUpdate") ? EXECUTE_UPDATE
              : EXECUTE_LARGE_UPDATE;
          return invokeStatementCall(s, single, new Object[] {text});
        }
      }
      return invokeStatementCall(s, method, args);
    }

    private Object invokeStatementCall(Statement s, Method method, Object[] args) throws SQLException {
      String name = method.getName();
      switch (name) {
        case "executeUpdate":
        case "executeLargeUpdate": {
          Object result = call(method, args);
          if (((Number) result).longValue() == -1L) {
            ResultSet rs = s.getResultSet();
            if (rs != null) {
              rs.close();
            }
            throw new SQLException("a result was returned when none was expected", RESULT_WHEN_NONE_EXPECTED);
          }
          return result;
        }
        case "executeBatch":
        case "executeLargeBatch":
          try {
            return method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw batchFailure(e.getCause());
          } catch (IllegalAccessException e) {
            throw new SQLException("internal error: " + e.getMessage(), SqlState.INTERNAL_ERROR.code());
          }
        case "close": {
          Object result = call(method, args);
          connection.statementProxies.remove(delegate);
          return result;
        }
        default:
          return wrapResult(method, call(method, args));
      }
    }

    private Object invokeResultSet(ResultSet rs, Method method, Object[] args, int argc) throws SQLException {
      String name = method.getName();
      try {
        switch (name) {
          case "next":
            return next(rs);
          case "getObject":
            if (argc == 2 && args[1] instanceof Class<?> type) {
              Object value = JdbcValues.getObject(rs, args[0], type);
              return value;
            }
            if (argc == 1) {
              return JdbcValues.getObject(rs, args[0]);
            }
            break;
          case "getByte", "getShort", "getInt", "getLong", "getFloat", "getDouble", "getBigDecimal":
            if (argc == 1 && JdbcValues.isText(rs, args[0])) {
              return JdbcValues.numberFromText(rs, args[0], method.getReturnType());
            }
            break;
          case "getString":
            if (argc == 1 && JdbcValues.isInterval(rs, args[0])) {
              return JdbcValues.intervalText(rs, args[0]);
            }
            break;
          case "getTimestamp":
            if (argc >= 1 && JdbcValues.TIMESTAMPTZ.equals(JdbcValues.columnTypeName(rs, args[0]))) {
              java.time.Instant i = JdbcValues.instant(rs, args[0]);
              return i == null ? null : java.sql.Timestamp.from(i);
            }
            break;
          default:
            break;
        }
      } catch (SQLException | RuntimeException e) {
        throw translateOnce(e);
      }
      return wrapResult(method, call(method, args));
    }

    /** ResultSet.next within the statement's maxRows; past the end stays past the end. */
    private boolean next(ResultSet rs) throws SQLException {
      if (rowLimit > 0 && rowsRead >= rowLimit) {
        if (rs.isClosed()) {
          return rs.next(); // the closed result set's own error
        }
        return false;
      }
      if (exhausted && !rs.isClosed()) {
        // the query's iterators are not stepped again
        return false;
      }
      boolean more = rs.next();
      if (more) {
        rowsRead++;
      } else {
        exhausted = true;
      }
      return more;
    }

    private Object call(Method method, Object[] args) throws SQLException {
      return invokeOn(delegate, method, args);
    }

    private Object wrapResult(Method method, Object result) throws SQLException {
      if (result == null) {
        return null;
      }
      Class<?> type = method.getReturnType();
      if (type == Statement.class || type == PreparedStatement.class || type == CallableStatement.class) {
        Object p = new Handler(result, connection).proxy(type);
        connection.statementProxies.put(result, new java.lang.ref.WeakReference<>(p));
        Statement statement = (Statement) result;
        java.util.concurrent.locks.ReentrantLock lock = connection.lock;
        CLEANER.register(p, () -> closeForgotten(statement, lock));
        return p;
      }
      if (type == ResultSet.class) {
        Handler h = new Handler(result, connection);
        if (delegate instanceof Statement s) {
          h.rowLimit = s.getLargeMaxRows();
          h.owner = proxy;
        }
        return new DriverResultSet(h, (ResultSet) result, h.proxy(ResultSet.class));
      }
      if (type == DatabaseMetaData.class || type == ResultSetMetaData.class) {
        return new Handler(result, connection).proxy(type);
      }
      return result;
    }
  }

  private static final Object NOT_HANDLED = new Object();

  private static final Method PREPARE = method(Connection.class, "prepareStatement", String.class);
  private static final Method EXECUTE = method(Statement.class, "execute", String.class);
  private static final Method EXECUTE_UPDATE = method(Statement.class, "executeUpdate", String.class);
  private static final Method EXECUTE_LARGE_UPDATE = method(Statement.class, "executeLargeUpdate", String.class);

  private static Method method(Class<?> type, String name, Class<?>... parameters) {
    try {
      return type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  private static AccelMeta meta(Statement s) throws SQLException {
    return ((AccelJdbcFactory.AccelConnection) ((org.apache.calcite.avatica.AvaticaStatement) s).getConnection())
        .accelMeta();
  }

  /**
   * Closes statements the application dropped without closing, once their proxies (and result sets) are
   * unreachable, so a forgotten statement does not hold its snapshot and resources for the connection's
   * lifetime. Avatica keeps its own statements in the connection, so only the proxies can tell.
   */
  private static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create();

  private static void closeForgotten(Statement statement, java.util.concurrent.locks.ReentrantLock lock) {
    lock.lock();
    try {
      if (!statement.isClosed()) {
        statement.close();
      }
    } catch (SQLException | RuntimeException ignored) {
      // the connection may be closing; nothing is left to release then
    } finally {
      lock.unlock();
    }
  }

  /** A failed executeBatch as JDBC reports it: a BatchUpdateException with the counts of what ran. */
  private static BatchUpdateException batchFailure(Throwable failure) {
    long[] counts = new long[0];
    for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof AccelMeta.BatchFailure b) {
        counts = b.updateCounts();
        break;
      }
    }
    SQLException e = translate(failure);
    return new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), counts, e);
  }
}
