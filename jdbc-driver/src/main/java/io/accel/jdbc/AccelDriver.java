package io.accel.jdbc;

import io.accel.exec.Database;
import io.accel.exec.Session;
import io.accel.exec.Settings;
import io.accel.exec.StoreRegistry;
import io.accel.sql.AccelException;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import io.accel.storage.StoreOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * The {@code jdbc:accel:} driver. {@code jdbc:accel:mem:NAME} is a store in memory that lives while a
 * connection to it is open; {@code jdbc:accel:file:PATH} is a durable store in a directory. Properties
 * may follow the location after {@code ?} or {@code ;} ({@code jdbc:accel:file:/data/db?syncCommits=false})
 * or come in the {@link Properties}.
 *
 * <p>A thin adapter over core's engine API: each connection is a core {@link Session}, which prepares and
 * runs every statement; Avatica supplies the JDBC objects ({@link AccelJdbcFactory}) over {@link AccelMeta},
 * and {@link JdbcErrors} gives every failure a PostgreSQL SQLSTATE. A fronting connection
 * ({@code jdbc:accel:postgresql://...}) is a {@link FrontingConnection}: pgJDBC to the upstream and a connection
 * to the mirror's store, with core's router choosing per execution.
 */
public final class AccelDriver extends UnregisteredDriver {
  public static final String PREFIX = "jdbc:accel:";
  private static final ThreadLocal<Session> CONNECTING = new ThreadLocal<>();

  static {
    new AccelDriver().register();
  }

  public AccelDriver() {
  }

  @Override
  protected String getFactoryClassName(UnregisteredDriver.JdbcVersion jdbcVersion) {
    return AccelJdbcFactory.class.getName();
  }

  @Override
  protected String getConnectStringPrefix() {
    return PREFIX;
  }

  /**
   * The product is reported as PostgreSQL (with the version {@code SHOW server_version} gives), as CockroachDB and
   * YugabyteDB do: tools that pick their SQL by product name (Flyway, Hibernate, Spring) then speak PostgreSQL to
   * it, which is the dialect Accel answers. The driver's own name stays Accel's.
   */
  @Override
  protected DriverVersion createDriverVersion() {
    return new DriverVersion("Accel JDBC Driver", "0.1.0", "PostgreSQL", Settings.SERVER_VERSION, true, 0, 1,
        Settings.SERVER_MAJOR_VERSION, Settings.SERVER_MINOR_VERSION);
  }

  @Override
  public Meta createMeta(AvaticaConnection connection) {
    Session session = CONNECTING.get();
    if (session == null) {
      throw new IllegalStateException("Accel connections are opened through AccelDriver.connect");
    }
    return new AccelMeta(connection, session);
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (url == null || !url.startsWith(PREFIX)) {
      return null;
    }
    try {
      return open(url, info == null ? new Properties() : info);
    } catch (AccelException e) {
      throw JdbcErrors.toSqlException(e);
    } catch (RuntimeException e) {
      throw JdbcErrors.toSqlException(ErrorTranslator.translate(e));
    }
  }

  /**
   * pgJDBC's {@code options} property, PostgreSQL's command-line options of a session: {@code -c name=value} (or
   * {@code --name=value}) pairs, each a SET of the new session (42704 for an unknown name, 22023 for a bad value).
   */
  static void applyOptions(Session session, String options) {
    if (options == null || options.isBlank()) {
      return;
    }
    String[] words = options.trim().split("\\s+");
    for (int i = 0; i < words.length; i++) {
      String setting;
      if (words[i].equals("-c") && i + 1 < words.length) {
        setting = words[++i];
      } else if (words[i].startsWith("-c") && words[i].length() > 2) {
        setting = words[i].substring(2);
      } else if (words[i].startsWith("--")) {
        setting = words[i].substring(2);
      } else {
        throw new AccelException(SqlState.CONNECTION_FAILURE, "invalid options \"" + options
            + "\": expected -c name=value");
      }
      int eq = setting.indexOf('=');
      if (eq <= 0) {
        throw new AccelException(SqlState.CONNECTION_FAILURE, "invalid options \"" + options
            + "\": expected -c name=value");
      }
      session.setConfig(setting.substring(0, eq).replace('-', '_'), setting.substring(eq + 1), false);
    }
  }

  private Connection open(String url, Properties info) throws SQLException {
    String rest = url.substring(PREFIX.length());
    Properties props = new Properties();
    props.putAll(info);
    int cut = indexOfAny(rest, '?', ';');
    String location = cut < 0 ? rest : rest.substring(0, cut);
    if (cut >= 0) {
      for (String pair : rest.substring(cut + 1).split("[&;]")) {
        if (pair.isBlank()) {
          continue;
        }
        int eq = pair.indexOf('=');
        if (eq < 0) {
          throw new AccelException(SqlState.CONNECTION_FAILURE, "malformed property \"" + pair + "\" in " + url);
        }
        // values are percent-decoded, as pgJDBC decodes its URL's (options=-c%20lock_timeout=2s); '+' stays '+'
        props.setProperty(pair.substring(0, eq), java.net.URLDecoder.decode(
            pair.substring(eq + 1).replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    if (location.startsWith("mysql:") || location.startsWith("mariadb:")) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "fronting MySQL or MariaDB (" + location
          + ") is not available in this version; front PostgreSQL (jdbc:accel:postgresql://host:port/db) or use"
          + " jdbc:accel:mem:NAME or jdbc:accel:file:PATH");
    }
    if (location.startsWith("postgresql:")) {
      return FrontingConnection.open(this, url, location, props);
    }
    return openLocal(url, location, props).connection();
  }

  /** A connection to a local store, with its core session. */
  record Local(Connection connection, Session session) {
  }

  /** The store options the properties ask for. */
  static StoreOptions storeOptions(Properties props) {
    return new StoreOptions(
        StoreOptions.parseBytes("blockCacheSize", props.getProperty("blockCacheSize"), StoreOptions.DEFAULTS.blockCacheBytes(), false),
        Boolean.parseBoolean(props.getProperty("syncCommits", String.valueOf(StoreOptions.DEFAULTS.syncCommits()))),
        StoreOptions.parseBytes("rowCacheSize", props.getProperty("rowCacheSize"), StoreOptions.DEFAULTS.rowCacheBytes(), true))
        .withResultCache(StoreOptions.parseBytes("resultCacheSize", props.getProperty("resultCacheSize"),
            StoreOptions.DEFAULTS.resultCacheBytes(), true), booleanProperty(props, "autoCache", false));
  }

  /** Opens a connection to the store at {@code location} ({@code mem:NAME} or {@code file:PATH}). */
  Local openLocal(String url, String location, Properties props) throws SQLException {
    StoreOptions options = storeOptions(props);
    boolean indexScans = booleanProperty(props, "indexScans", true);
    boolean icp = booleanProperty(props, "icp", true);
    boolean lookupJoins = booleanProperty(props, "lookupJoins", true);
    boolean directPlanning = booleanProperty(props, "directPlanning", true);
    Database database = StoreRegistry.acquire(location, options);
    List<String> ignored = database.store().options().conflicts(options, props.stringPropertyNames());
    java.util.TimeZone timeZone = null;
    String zone = props.getProperty("timeZone");
    if (zone != null && !zone.isBlank()) {
      timeZone = java.util.TimeZone.getTimeZone(zone.trim());
      if (!timeZone.getID().equals(zone.trim()) && timeZone.getID().equals("GMT") && !zone.trim().equals("GMT")) {
        StoreRegistry.release(database);
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid timeZone \"" + zone + "\"");
      }
    }
    Session session;
    try {
      session = new Session(database, new Session.Options(planCacheSize(props.getProperty("planCacheSize")),
          timeZone, props.getProperty("user"), cursorCacheSize(props.getProperty("cursorCacheSize"))));
    } catch (RuntimeException e) {
      StoreRegistry.release(database);
      throw e;
    }
    session.setIndexScans(indexScans);
    session.setIndexConditionPushdown(icp);
    session.setLookupJoins(lookupJoins);
    session.setDirectPlanning(directPlanning);
    try {
      applyOptions(session, props.getProperty("options"));
    } catch (RuntimeException e) {
      session.close();
      StoreRegistry.release(database);
      throw e;
    }
    Properties avatica = new Properties();
    if (timeZone != null) {
      avatica.setProperty("timeZone", timeZone.getID());
    }
    if (props.getProperty("user") != null) {
      avatica.setProperty("user", props.getProperty("user"));
    }
    AvaticaConnection connection;
    CONNECTING.set(session);
    try {
      connection = factory.newConnection(this, factory, url, avatica);
      handler.onConnectionInit(connection);
    } catch (SQLException | RuntimeException e) {
      session.close();
      StoreRegistry.release(database);
      throw e;
    } finally {
      CONNECTING.remove();
    }
    SQLWarning warnings = null;
    for (String message : ignored) {
      SQLWarning w = new SQLWarning(message, SqlState.INVALID_PARAMETER_VALUE.code());
      if (warnings == null) {
        warnings = w;
      } else {
        warnings.setNextWarning(w);
      }
    }
    return new Local(JdbcErrors.wrap(connection, warnings), session);
  }

  private static boolean booleanProperty(Properties props, String name, boolean defaultValue) {
    String v = props.getProperty(name);
    if (v == null || v.isBlank()) {
      return defaultValue;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true", "on", "yes", "1" -> true;
      case "false", "off", "no", "0" -> false;
      default -> throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
          "invalid value for boolean property " + name + ": \"" + v + "\"");
    };
  }

  private static int indexOfAny(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    if (i < 0) {
      return j;
    }
    return j < 0 ? i : Math.min(i, j);
  }

  /** The {@code planCacheSize} property: how many plans a connection keeps; 0 plans every statement afresh. */
  static int planCacheSize(String text) {
    return count("planCacheSize", text, Session.Options.DEFAULTS.planCacheSize(), "plans");
  }

  /** The {@code cursorCacheSize} property: how many paged cursors a connection keeps suspended; 0 for none. */
  static int cursorCacheSize(String text) {
    return count("cursorCacheSize", text, Session.Options.DEFAULTS.cursorCacheSize(), "cursors");
  }

  /** A count property {@code name}: 0 or more {@code what}; {@code defaultValue} when absent. */
  private static int count(String name, String text, int defaultValue, String what) {
    if (text == null || text.isBlank()) {
      return defaultValue;
    }
    try {
      int size = Integer.parseInt(text.trim());
      if (size >= 0) {
        return size;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
        "invalid " + name + " \"" + text + "\": expected a number of " + what + ", 0 or more");
  }

  /** Registers the driver with DriverManager (done when the class loads). */
  public static void load() {
    try {
      DriverManager.getDriver(PREFIX + "mem:probe");
    } catch (SQLException e) {
      new AccelDriver().register();
    }
  }
}
