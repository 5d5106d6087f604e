package org.apache.calcite.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.config.CalciteConnectionConfig;

/**
 * Calcite's JDBC 4.1 object factory, with connections whose configuration is read once. Calcite builds a
 * new configuration object on every {@code config()} call and re-parses all connection properties on
 * every getter ({@code timeZone()}, {@code locale()}, ...); the execution of each statement makes
 * several such calls, which cost a quarter of a primary-key lookup. The properties of an Accel
 * connection do not change after it opens, so the getters' answers are kept.
 */
public class AccelJdbcFactory extends CalciteFactory {
  private final CalciteJdbc41Factory calcite = new CalciteJdbc41Factory();

  public AccelJdbcFactory() {
    super(4, 1);
  }

  @Override
  public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
      Properties info, CalciteSchema rootSchema, JavaTypeFactory typeFactory) {
    return new AccelConnection((Driver) driver, factory, url, info, rootSchema, typeFactory);
  }

  @Override
  public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return calcite.newStatement(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
      Meta.Signature signature, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    return calcite.newPreparedStatement(connection, h, signature, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override
  public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return calcite.newResultSet(statement, state, signature, timeZone, firstFrame);
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return calcite.newDatabaseMetaData(connection);
  }

  @Override
  public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature)
      throws SQLException {
    return calcite.newResultSetMetaData(statement, signature);
  }

  /** A Calcite connection with a memoised configuration. */
  static final class AccelConnection extends CalciteConnectionImpl {
    private volatile CalciteConnectionConfig config;

    AccelConnection(Driver driver, AvaticaFactory factory, String url, Properties info, CalciteSchema rootSchema,
        JavaTypeFactory typeFactory) {
      super(driver, factory, url, info, rootSchema, typeFactory);
    }

    @Override
    public CalciteConnectionConfig config() {
      CalciteConnectionConfig c = config;
      if (c == null) {
        c = memoizing(new org.apache.calcite.config.CalciteConnectionConfigImpl(info));
        config = c;
      }
      return c;
    }

    private static CalciteConnectionConfig memoizing(CalciteConnectionConfig target) {
      Map<Method, Optional<Object>> answers = new ConcurrentHashMap<>();
      return (CalciteConnectionConfig) Proxy.newProxyInstance(AccelJdbcFactory.class.getClassLoader(),
          new Class<?>[] {CalciteConnectionConfig.class}, (proxy, method, args) -> {
            if (args != null && args.length > 0) {
              return invoke(method, target, args);
            }
            Optional<Object> known = answers.get(method);
            if (known == null) {
              known = Optional.ofNullable(invoke(method, target, null));
              answers.put(method, known);
            }
            return known.orElse(null);
          });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
      try {
        return method.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
