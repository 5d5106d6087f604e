package io.accel.jdbc;

import io.accel.sql.SqlState;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code Connection.prepareCall}, as PostgreSQL's driver reads it: a statement that is no call escape runs as it
 * is (Liquibase prepares {@code select current_schema()} this way); {@code {call f(?)}} is
 * {@code SELECT * FROM f(?)}; {@code {? = call f(?)}} is {@code SELECT f(?)}, whose value is OUT parameter 1 and the
 * statement's parameters are numbered after it. The statement is a prepared one of Accel's behind the
 * CallableStatement interface; other OUT parameters and named parameters are not supported (0A000).
 */
final class CallableStatements {
  private CallableStatements() {
  }

  private static final Pattern ESCAPE = Pattern.compile(
      "(?is)\\s*\\{\\s*(\\?\\s*=\\s*)?call\\s+([\\w.\"]+)\\s*(\\((.*)\\))?\\s*}\\s*;?\\s*");

  /** The SQL to prepare for {@code sql}, and whether the call's value is OUT parameter 1. */
  record Call(String sql, boolean returnsValue) {
  }

  static Call translate(String sql) {
    Matcher m = ESCAPE.matcher(sql);
    if (!m.matches()) {
      return new Call(sql, false);
    }
    String arguments = m.group(4) == null ? "" : m.group(4);
    String function = m.group(2) + "(" + arguments + ")";
    return m.group(1) != null ? new Call("SELECT " + function, true)
        : new Call("SELECT * FROM " + function, false);
  }

  /** {@code prepared} (the connection's statement for {@code call.sql()}) as a CallableStatement. */
  static CallableStatement wrap(PreparedStatement prepared, Call call) {
    return (CallableStatement) Proxy.newProxyInstance(CallableStatements.class.getClassLoader(),
        new Class<?>[] {CallableStatement.class}, new Handler(prepared, call.returnsValue()));
  }

  private static final class Handler implements InvocationHandler {
    private final PreparedStatement prepared;
    private final boolean returnsValue;
    /** The result of the last execution of a {? = call ...}, on its row: the OUT parameter's getters read it. */
    private ResultSet row;

    Handler(PreparedStatement prepared, boolean returnsValue) {
      this.prepared = prepared;
      this.returnsValue = returnsValue;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      boolean callableOnly = method.getDeclaringClass() == CallableStatement.class;
      if (name.equals("registerOutParameter")) {
        outIndex(args[0]);
        return null;
      }
      if (callableOnly && (name.equals("wasNull") || name.startsWith("get"))) {
        if (name.startsWith("get")) {
          outIndex(args[0]);
        }
        if (row == null) {
          throw new SQLException("no value of the call to read: execute it first",
              SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        // the CallableStatement getter of the same signature on the result's row
        try {
          return ResultSet.class.getMethod(name, method.getParameterTypes()).invoke(row, args);
        } catch (NoSuchMethodException e) {
          throw new SQLFeatureNotSupportedException("CallableStatement." + name + " is not supported by Accel",
              SqlState.FEATURE_NOT_SUPPORTED.code());
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
      if (callableOnly) {
        throw new SQLFeatureNotSupportedException(
            "CallableStatement." + name + " is not supported by Accel: only {? = call f(...)} returns a value",
            SqlState.FEATURE_NOT_SUPPORTED.code());
      }
      if (returnsValue && name.startsWith("set") && args != null && args.length >= 2
          && args[0] instanceof Integer index && method.getDeclaringClass() == PreparedStatement.class) {
        if (index == 1) {
          throw new SQLException("parameter 1 of {? = call ...} is the call's value: register it, do not set it",
              SqlState.INVALID_PARAMETER_VALUE.code());
        }
        args = args.clone();
        args[0] = index - 1;
      }
      if (returnsValue && name.equals("execute") && (args == null || args.length == 0)) {
        closeRow();
        ResultSet rs = prepared.executeQuery();
        if (!rs.next()) {
          rs.close();
          throw new SQLException("the call returned no row", JdbcErrors.NO_RESULT);
        }
        row = rs;
        return Boolean.FALSE;
      }
      if (name.equals("close")) {
        closeRow();
      }
      try {
        return method.invoke(prepared, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }

    private void closeRow() throws SQLException {
      if (row != null) {
        row.close();
        row = null;
      }
    }

    private void outIndex(Object index) throws SQLException {
      if (!(index instanceof Integer i)) {
        throw new SQLFeatureNotSupportedException("named parameters of a call are not supported by Accel",
            SqlState.FEATURE_NOT_SUPPORTED.code());
      }
      if (!returnsValue || i != 1) {
        throw new SQLException("parameter " + index + " is not an OUT parameter: only the value of"
            + " {? = call f(...)} is", SqlState.INVALID_PARAMETER_VALUE.code());
      }
    }
  }
}
