package io.accel.jdbc;

import io.accel.sql.AccelException;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Gives every JDBC object of an Accel connection PostgreSQL error behaviour: each failure surfaces as a
 * {@link SQLException} whose SQLSTATE and message come from {@link ErrorTranslator}, never a wrapped
 * internal stack trace. Implemented as one dynamic proxy per JDBC object around Calcite's (Avatica's)
 * objects; the proxies also convert java.time and UUID values that Avatica does not handle itself.
 */
final class JdbcErrors {
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
    String message = t.getMessage() == null ? "" : t.getMessage();
    AccelException translated = ErrorTranslator.translate(t);
    if (translated.state() == SqlState.INTERNAL_ERROR && t instanceof SQLException) {
      if (message.endsWith("Connection closed") || message.contains("connection is closed")) {
        return new SQLException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
      }
      if (message.endsWith("closed")) {
        return new SQLException(message.toLowerCase(java.util.Locale.ROOT), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
      }
      if (t instanceof java.sql.SQLFeatureNotSupportedException) {
        return new java.sql.SQLFeatureNotSupportedException("feature not supported by Accel",
            SqlState.FEATURE_NOT_SUPPORTED.code());
      }
      if (t.getCause() == null) {
        return new SQLException(message, SqlState.INTERNAL_ERROR.code());
      }
    }
    return toSqlException(translated);
  }

  static Connection wrap(Connection connection) {
    return new Handler(connection, null).proxy(Connection.class);
  }

  private static final class Handler implements InvocationHandler {
    private final Object delegate;
    private final Handler connection;
    private final Map<Object, Object> statementProxies;
    private Object proxy;

    Handler(Object delegate, Handler connection) {
      this.delegate = delegate;
      this.connection = connection == null ? this : connection;
      this.statementProxies = connection == null ? Collections.synchronizedMap(new WeakHashMap<>()) : null;
    }

    <T> T proxy(Class<T> iface) {
      T p = iface.cast(Proxy.newProxyInstance(JdbcErrors.class.getClassLoader(), new Class<?>[] {iface}, this));
      this.proxy = p;
      return p;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      switch (name) {
        case "equals":
          return self == args[0];
        case "hashCode":
          return System.identityHashCode(self);
        case "toString":
          return "Accel " + method.getDeclaringClass().getSimpleName() + "@" + Integer.toHexString(
              System.identityHashCode(self));
        case "unwrap": {
          Class<?> c = (Class<?>) args[0];
          return c.isInstance(self) ? self : call(method, args);
        }
        case "isWrapperFor": {
          Class<?> c = (Class<?>) args[0];
          return c.isInstance(self) || (Boolean) call(method, args);
        }
        case "getConnection":
          if (delegate instanceof Statement || delegate instanceof DatabaseMetaData) {
            call(method, args);
            return connection.proxy;
          }
          break;
        case "getStatement":
          if (delegate instanceof ResultSet) {
            Object statement = call(method, args);
            return statement == null ? null : connection.statementProxies.getOrDefault(statement, statement);
          }
          break;
        case "getObject":
          if (delegate instanceof ResultSet && args != null && args.length == 2 && args[1] instanceof Class<?> type) {
            return JdbcValues.getObject((ResultSet) delegate, args[0], type);
          }
          break;
        case "setObject":
          if (delegate instanceof PreparedStatement ps && args != null && args.length >= 2) {
            if (JdbcValues.setObject(ps, (Integer) args[0], args[1])) {
              return null;
            }
          }
          break;
        default:
          break;
      }
      Object result = call(method, args);
      return wrapResult(method, result);
    }

    private Object call(Method method, Object[] args) throws SQLException {
      try {
        return method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        throw translate(e.getCause());
      } catch (IllegalAccessException e) {
        throw new SQLException("internal error: " + e.getMessage(), SqlState.INTERNAL_ERROR.code());
      }
    }

    private Object wrapResult(Method method, Object result) {
      if (result == null) {
        return null;
      }
      Class<?> type = method.getReturnType();
      if (type == Statement.class || type == PreparedStatement.class || type == CallableStatement.class) {
        Object p = new Handler(result, connection).proxy(type);
        connection.statementProxies.put(result, p);
        return p;
      }
      if (type == ResultSet.class || type == DatabaseMetaData.class) {
        return new Handler(result, connection).proxy(type);
      }
      return result;
    }
  }
}
