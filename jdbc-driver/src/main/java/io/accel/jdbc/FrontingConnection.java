package io.accel.jdbc;

import io.accel.sql.AccelException;
import io.accel.upstream.Mirror;
import io.accel.upstream.Mirrors;
import io.accel.upstream.Router;
import io.accel.upstream.UpstreamConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * A {@code jdbc:accel:postgresql://} connection: a pgJDBC connection to the upstream, which is the system of
 * record, and a connection to the upstream's mirror; core's {@link Router} chooses per execution where each
 * statement runs. Statements that run upstream are pgJDBC's own, so the application sees exactly what PostgreSQL
 * returns (results, errors, warnings, update counts, generated keys). Implemented as dynamic proxies: every JDBC
 * method goes to the upstream object except the executions a route sends to the mirror, and the settings those
 * need (fetch size, max rows, timeouts), which are replayed on the local statement.
 */
final class FrontingConnection implements InvocationHandler {
  private final Connection upstream;
  private final AccelDriver.Local local;
  private final Mirror mirror;
  private final Router router;
  private final Counter retried;
  private final Timer localTimer;
  private final Timer upstreamTimer;
  private boolean closed;

  private FrontingConnection(Connection upstream, AccelDriver.Local local, Mirror mirror, String user) {
    this.upstream = upstream;
    this.local = local;
    this.mirror = mirror;
    this.router = new Router(mirror, user);
    var meters = mirror.database().meters();
    var tags = mirror.database().meterTags();
    this.retried = Counter.builder("accel.route.retried").tags(tags)
        .description("local executions that failed internally and were retried upstream").register(meters);
    this.localTimer = Timer.builder("accel.query").tags(tags.and("destination", "local")).register(meters);
    this.upstreamTimer = Timer.builder("accel.query").tags(tags.and("destination", "upstream")).register(meters);
  }

  static Connection open(AccelDriver driver, String url, String location, Properties props) throws SQLException {
    UpstreamConfig config = UpstreamConfig.parse(location, props);
    Connection upstream = config.connect(new Properties());
    Mirror mirror = null;
    AccelDriver.Local local = null;
    try {
      String user;
      try (Statement s = upstream.createStatement(); ResultSet rs = s.executeQuery("SELECT current_user")) {
        rs.next();
        user = rs.getString(1);
      }
      mirror = Mirrors.acquire(config, AccelDriver.storeOptions(props));
      Properties localProps = new Properties();
      for (String name : List.of("planCacheSize", "cursorCacheSize", "indexScans", "icp", "lookupJoins", "directPlanning",
          "timeZone")) {
        if (props.getProperty(name) != null) {
          localProps.setProperty(name, props.getProperty(name));
        }
      }
      local = driver.openLocal(url, "file:" + config.mirrorDir(), localProps);
      FrontingConnection handler = new FrontingConnection(upstream, local, mirror, user);
      return (Connection) Proxy.newProxyInstance(FrontingConnection.class.getClassLoader(),
          new Class<?>[] {Connection.class}, handler);
    } catch (SQLException | RuntimeException e) {
      try {
        upstream.close();
      } catch (SQLException ignored) {
        // reporting the first failure
      }
      if (local != null) {
        local.connection().close();
      }
      if (mirror != null) {
        Mirrors.release(mirror);
      }
      if (e instanceof AccelException a) {
        throw JdbcErrors.toSqlException(a);
      }
      throw e;
    }
  }

  /** Whether the upstream connection is inside a transaction block (autocommit off, or after BEGIN). */
  private boolean inTransaction() throws SQLException {
    if (!upstream.getAutoCommit()) {
      return true;
    }
    TransactionState state = upstream.unwrap(BaseConnection.class).getTransactionState();
    return state != TransactionState.IDLE;
  }

  private Router.Route route(String sql) throws SQLException {
    return route(sql, null);
  }

  /** {@code values}: the execution's parameter values when its result may come from a cache, else null. */
  private Router.Route route(String sql, List<Object> values) throws SQLException {
    try {
      return router.route(local.session(), sql, inTransaction(), values);
    } catch (AccelException e) {
      throw JdbcErrors.toSqlException(e);
    }
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    switch (name) {
      case "close" -> {
        close();
        return null;
      }
      case "isClosed" -> {
        return closed || upstream.isClosed();
      }
      case "createStatement" -> {
        Statement up = (Statement) call(upstream, method, args);
        return proxy(Statement.class, new RoutedStatement((Connection) proxy, up, null));
      }
      case "prepareStatement" -> {
        PreparedStatement up = (PreparedStatement) call(upstream, method, args);
        // only the plain form can run locally: generated keys and column lists need the upstream
        String sql = args.length == 1 || args.length == 3 || args.length == 4 ? (String) args[0] : null;
        return proxy(PreparedStatement.class, new RoutedStatement((Connection) proxy, up, sql));
      }
      case "prepareCall" -> {
        return call(upstream, method, args);
      }
      case "commit", "rollback", "setAutoCommit" -> {
        Object result = call(upstream, method, args);
        router.upstreamWrote();
        return result;
      }
      case "unwrap" -> {
        Class<?> type = (Class<?>) args[0];
        return type.isInstance(proxy) ? proxy : upstream.unwrap(type);
      }
      case "isWrapperFor" -> {
        Class<?> type = (Class<?>) args[0];
        return type.isInstance(proxy) || upstream.isWrapperFor(type);
      }
      case "toString" -> {
        return "Accel connection in front of " + mirror.config().describe();
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "equals" -> {
        return proxy == args[0];
      }
      default -> {
        return call(upstream, method, args);
      }
    }
  }

  private synchronized void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      upstream.close();
    } finally {
      try {
        local.connection().close();
      } finally {
        Mirrors.release(mirror);
      }
    }
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(FrontingConnection.class.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /**
   * A statement (or prepared statement, when {@code sql} is set) of the fronting connection: upstream pgJDBC's,
   * with a local twin made on the first execution routed to the mirror.
   */
  private final class RoutedStatement implements InvocationHandler {
    private final Connection connection;
    private final Statement upstreamStatement;
    private final String preparedSql;
    private Statement localStatement;
    /** The statement whose results the getters return: the one that ran last. */
    private Statement current;
    /** The result of the last execution when a kept upstream result answered it (then {@code current} is null). */
    private ResultSet answered;
    /** Settings replayed on the local statement: method name to arguments. */
    private final Map<Method, Object[]> settings = new HashMap<>();
    /** The prepared statement's parameter setters, per index, replayed on the local one. */
    private final Map<Integer, Object[]> parameters = new HashMap<>();
    private final Map<Integer, Method> parameterSetters = new HashMap<>();

    RoutedStatement(Connection connection, Statement upstreamStatement, String preparedSql) {
      this.connection = connection;
      this.upstreamStatement = upstreamStatement;
      this.preparedSql = preparedSql;
      this.current = upstreamStatement;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      switch (name) {
        case "executeQuery", "execute" -> {
          String sql = args == null || args.length == 0 ? preparedSql : args.length == 1 ? (String) args[0] : null;
          boolean prepared = args == null || args.length == 0;
          if (sql == null || prepared && preparedSql == null) {
            return runUpstream(method, args);
          }
          Router.Route route = route(sql, router.cachesUpstreamResults() ? cacheValues(prepared) : null);
          if (route.destination() == Router.Destination.CACHE) {
            return answerFromCache(method, route);
          }
          if (!route.local()) {
            return route.cache() != null ? runUpstreamAndKeep(method, args, sql, route)
                : runUpstream(method, args, sql);
          }
          return runLocal(method, args, route, sql, prepared);
        }
        case "executeUpdate", "executeLargeUpdate" -> {
          String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql;
          if (sql != null && Router.isLocalCommand(sql)) {
            Router.Route r = route(sql);
            if (r.localSql() != null) {
              try (Statement st = local.connection().createStatement()) {
                st.execute(r.localSql());
              }
            }
            current = upstreamStatement;
            return name.equals("executeUpdate") ? (Object) 0 : (Object) 0L;
          }
          return runUpstream(method, args, sql);
        }
        case "executeBatch", "executeLargeBatch" -> {
          return runUpstream(method, args, args != null && args.length > 0 && args[0] instanceof String s ? s : preparedSql);
        }
        case "getResultSet", "getUpdateCount", "getLargeUpdateCount", "getMoreResults", "getWarnings",
            "clearWarnings" -> {
          if (current == null) {
            return answeredGetter(name);
          }
          return call(current, method, args);
        }
        case "getConnection" -> {
          return connection;
        }
        case "cancel" -> {
          if (localStatement != null) {
            localStatement.cancel();
          }
          return call(upstreamStatement, method, args);
        }
        case "close" -> {
          try {
            closeAnswered();
            if (localStatement != null) {
              localStatement.close();
            }
          } finally {
            upstreamStatement.close();
          }
          return null;
        }
        case "setFetchSize", "setMaxRows", "setLargeMaxRows", "setQueryTimeout", "setFetchDirection",
            "setEscapeProcessing", "setPoolable", "closeOnCompletion" -> {
          Object result = call(upstreamStatement, method, args);
          settings.put(method, args);
          if (localStatement != null) {
            replaySetting(method, args);
          }
          return result;
        }
        case "clearParameters" -> {
          parameters.clear();
          parameterSetters.clear();
          if (localStatement != null) {
            localStatement.unwrap(PreparedStatement.class).clearParameters();
          }
          return call(upstreamStatement, method, args);
        }
        case "unwrap" -> {
          Class<?> type = (Class<?>) args[0];
          return type.isInstance(proxy) ? proxy : upstreamStatement.unwrap(type);
        }
        case "isWrapperFor" -> {
          Class<?> type = (Class<?>) args[0];
          return type.isInstance(proxy) || upstreamStatement.isWrapperFor(type);
        }
        case "toString" -> {
          return preparedSql == null ? "Accel statement" : preparedSql;
        }
        case "hashCode" -> {
          return System.identityHashCode(proxy);
        }
        case "equals" -> {
          return proxy == args[0];
        }
        default -> {
          if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index
              && method.getDeclaringClass() != Statement.class) {
            Object result = call(upstreamStatement, method, args);
            parameters.put(index, args);
            parameterSetters.put(index, method);
            return result;
          }
          return call(upstreamStatement, method, args);
        }
      }
    }

    private Object runUpstream(Method method, Object[] args) throws Throwable {
      return runUpstream(method, args, null);
    }

    private Object runUpstream(Method method, Object[] args, String sql) throws Throwable {
      closeAnswered();
      current = upstreamStatement;
      long t0 = System.nanoTime();
      try {
        Object result = call(upstreamStatement, method, args);
        if (sql != null) {
          router.afterUpstream(local.session(), sql);
        }
        return result;
      } finally {
        upstreamTimer.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
        if (!method.getName().startsWith("executeQuery")) {
          // updates, batches and statements that may write: later local reads wait for them
          if (sql == null || !Router.isQuery(sql)) {
            router.upstreamWrote();
          }
        }
      }
    }

    /**
     * The execution's parameter values as a cache key (each the setter's name and arguments, bytes as hex), or null
     * when its result must not come from a cache: a row limit, an updatable result, a stream or LOB parameter.
     */
    private List<Object> cacheValues(boolean prepared) throws SQLException {
      if (upstreamStatement.getMaxRows() != 0
          || upstreamStatement.getResultSetConcurrency() != ResultSet.CONCUR_READ_ONLY) {
        return null;
      }
      List<Object> values = new java.util.ArrayList<>();
      if (!prepared) {
        return values;
      }
      for (Map.Entry<Integer, Object[]> p : new java.util.TreeMap<>(parameters).entrySet()) {
        Object[] args = p.getValue();
        List<Object> value = new java.util.ArrayList<>();
        value.add(p.getKey());
        value.add(parameterSetters.get(p.getKey()).getName());
        for (int i = 1; i < args.length; i++) {
          Object v = args[i];
          if (v instanceof java.io.InputStream || v instanceof java.io.Reader || v instanceof java.sql.Blob
              || v instanceof java.sql.Clob || v instanceof java.sql.SQLXML || v instanceof java.sql.Array) {
            return null;
          }
          value.add(v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b)
              : v instanceof java.util.Date d ? d.getClass().getName() + ":" + d.getTime()
                  + (d instanceof java.sql.Timestamp t ? "." + t.getNanos() : "") : v);
        }
        values.add(value);
      }
      return values;
    }

    /** A kept upstream result answers the execution: a new pgJDBC result set of its rows; the upstream is not asked. */
    private Object answerFromCache(Method method, Router.Route route) throws SQLException {
      closeAnswered();
      long t0 = System.nanoTime();
      answered = ((UpstreamResult) route.cache().result()).open(upstreamStatement);
      current = null;
      localTimer.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
      return method.getName().equals("executeQuery") ? answered : (Object) Boolean.TRUE;
    }

    /** Runs upstream a read a shallow cache covers, and keeps its result for the cache's TTL. */
    private Object runUpstreamAndKeep(Method method, Object[] args, String sql, Router.Route route) throws Throwable {
      Object result = runUpstream(method, args, sql);
      ResultSet rs = result instanceof ResultSet r ? r : Boolean.TRUE.equals(result) ? upstreamStatement.getResultSet()
          : null;
      UpstreamResult kept = rs == null ? null : UpstreamResult.of(rs);
      router.keepUpstream(route, kept, kept == null ? 0 : kept.bytes());
      return result;
    }

    /** getResultSet and the other result getters after a cached answer: one result set, no update count. */
    private Object answeredGetter(String name) throws SQLException {
      return switch (name) {
        case "getResultSet" -> answered;
        case "getUpdateCount" -> -1;
        case "getLargeUpdateCount" -> -1L;
        case "getMoreResults" -> {
          closeAnswered();
          yield false;
        }
        default -> null; // getWarnings: none; clearWarnings
      };
    }

    private void closeAnswered() throws SQLException {
      if (answered != null) {
        ResultSet rs = answered;
        answered = null;
        rs.close();
      }
    }

    private Object runLocal(Method method, Object[] args, Router.Route route, String sql, boolean prepared)
        throws Throwable {
      boolean command = route.destination() == Router.Destination.ACCEL;
      if (command && route.localSql() == null) {
        // done by the route itself (a mirror-only index): no result set, as for PostgreSQL's DDL
        current = upstreamStatement;
        if (method.getName().equals("executeQuery")) {
          throw new SQLException("No results were returned by the query.", "02000");
        }
        return false;
      }
      Statement target;
      if (command) {
        target = local.connection().createStatement();
      } else {
        target = localStatement(prepared);
      }
      long t0 = System.nanoTime();
      try {
        Object result;
        if (command) {
          result = method.getName().equals("executeQuery") ? target.executeQuery(route.localSql())
              : (Object) target.execute(route.localSql());
          target.closeOnCompletion();
        } else if (prepared) {
          PreparedStatement ps = (PreparedStatement) target;
          for (Map.Entry<Integer, Object[]> p : parameters.entrySet()) {
            parameterSetters.get(p.getKey()).invoke(ps, p.getValue());
          }
          result = method.getName().equals("executeQuery") ? ps.executeQuery() : (Object) ps.execute();
        } else {
          result = call(target, method, args);
        }
        closeAnswered();
        current = target;
        localTimer.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
        return result;
      } catch (InvocationTargetException e) {
        if (command) {
          throw e.getCause(); // Accel's own statement: PostgreSQL has nothing to say about it
        }
        return retryUpstream(method, args, sql, e.getCause());
      } catch (SQLException e) {
        if (command) {
          throw e;
        }
        return retryUpstream(method, args, sql, e);
      }
    }

    /**
     * A local execution that failed: it is a read, so it runs again upstream (and is counted), and the application
     * gets PostgreSQL's own result or error: an internal error of Accel's, a table copied again meanwhile, or an
     * error whose words and SQLSTATE PostgreSQL's would differ from.
     */
    private Object retryUpstream(Method method, Object[] args, String sql, Throwable failure) throws Throwable {
      if (failure instanceof SQLException) {
        retried.increment();
        return runUpstream(method, args, sql);
      }
      throw failure;
    }

    private Statement localStatement(boolean prepared) throws SQLException {
      if (localStatement == null) {
        localStatement = prepared ? local.connection().prepareStatement(preparedSql)
            : local.connection().createStatement();
        for (Map.Entry<Method, Object[]> s : settings.entrySet()) {
          replaySetting(s.getKey(), s.getValue());
        }
      }
      return localStatement;
    }

    private void replaySetting(Method method, Object[] args) throws SQLException {
      try {
        method.invoke(localStatement, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof SQLException s) {
          throw s;
        }
        throw new SQLException(e.getCause());
      } catch (IllegalAccessException e) {
        throw new SQLException(e);
      }
    }
  }
}
