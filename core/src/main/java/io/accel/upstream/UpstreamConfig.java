package io.accel.upstream;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Where the upstream PostgreSQL is and how to mirror it: parsed from {@code postgresql://host[:port]/db?...}
 * (what follows {@code jdbc:accel:} or the server's {@code --upstream}) and connection properties. Accel's own
 * properties are taken out; every other one passes through to pgJDBC unchanged.
 */
public record UpstreamConfig(String host, int port, String database, Properties pgProperties, List<String> tables,
    Consistency consistency, Duration maxStaleness, Duration readYourWritesTimeout, Path mirrorDir, String slotName,
    String publicationName) {

  /** What a connection's local reads may lag behind. */
  public enum Consistency {
    /** A connection's reads see its own committed writes (the default). */
    READ_YOUR_WRITES,
    /** Reads may lag the upstream by the mirror's replication lag (bounded by maxStaleness when set). */
    EVENTUAL
  }

  /** Accel's own properties: never sent to pgJDBC. */
  public static final Set<String> ACCEL_PROPERTIES = Set.of("tables", "consistency", "maxStaleness",
      "readYourWritesTimeout", "mirrorDir", "slotName", "publicationName", "blockCacheSize", "rowCacheSize",
      "resultCacheSize", "autoCache", "syncCommits", "planCacheSize", "cursorCacheSize", "indexScans", "icp", "lookupJoins");

  /** The JDBC URL of the upstream for pgJDBC. */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/" + database;
  }

  /**
   * A pgJDBC connection to the upstream with these properties and {@code overrides}. PostgreSQL's own refusals
   * (authentication, an unknown database) come as PostgreSQL reported them; a server that cannot be reached is
   * 08001 naming host and port.
   */
  public java.sql.Connection connect(Properties overrides) throws java.sql.SQLException {
    Properties p = new Properties();
    p.putAll(pgProperties);
    p.putAll(overrides);
    try {
      return java.sql.DriverManager.getConnection(jdbcUrl(), p);
    } catch (java.sql.SQLException e) {
      String state = e.getSQLState();
      if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
        throw e;
      }
      throw new java.sql.SQLException("cannot connect to the upstream PostgreSQL at " + host + ":" + port
          + " (database " + database + "): " + e.getMessage(), SqlState.CONNECTION_FAILURE_SQLCLIENT.code(), e);
    }
  }

  /** The upstream as people write it: host:port/database. */
  public String describe() {
    return host + ":" + port + "/" + database;
  }

  /** The key of this upstream's mirror within a process: one mirror per upstream database (and mirror directory). */
  public String mirrorKey() {
    return describe() + " " + mirrorDir;
  }

  /**
   * Parses {@code postgresql://host[:port][/database]} (without {@code jdbc:accel:}); {@code props} holds the
   * properties given after {@code ?} and in the connection's {@code Properties}.
   */
  public static UpstreamConfig parse(String location, Properties props) {
    if (!location.startsWith("postgresql://")) {
      throw new AccelException(SqlState.CONNECTION_FAILURE, "unsupported upstream \"" + location
          + "\": expected postgresql://host:port/database");
    }
    String rest = location.substring("postgresql://".length());
    int slash = rest.indexOf('/');
    String hostPort = slash < 0 ? rest : rest.substring(0, slash);
    String database = slash < 0 ? "" : rest.substring(slash + 1);
    int at = hostPort.lastIndexOf('@');
    Properties pg = new Properties();
    if (at >= 0) {
      String userInfo = hostPort.substring(0, at);
      hostPort = hostPort.substring(at + 1);
      int colon = userInfo.indexOf(':');
      pg.setProperty("user", colon < 0 ? userInfo : userInfo.substring(0, colon));
      if (colon >= 0) {
        pg.setProperty("password", userInfo.substring(colon + 1));
      }
    }
    String host = hostPort;
    int port = 5432;
    int colon = hostPort.lastIndexOf(':');
    if (hostPort.startsWith("[")) {
      int close = hostPort.indexOf(']');
      host = hostPort.substring(1, close);
      colon = hostPort.indexOf(':', close);
    } else if (colon >= 0) {
      host = hostPort.substring(0, colon);
    }
    if (colon >= 0) {
      try {
        port = Integer.parseInt(hostPort.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new AccelException(SqlState.CONNECTION_FAILURE, "invalid port in upstream \"" + location + "\"");
      }
    }
    if (host.isEmpty()) {
      host = "localhost";
    }
    for (String name : props.stringPropertyNames()) {
      if (!ACCEL_PROPERTIES.contains(name)) {
        pg.setProperty(name, props.getProperty(name));
      }
    }
    if (database.isEmpty()) {
      database = pg.getProperty("user", System.getProperty("user.name"));
    }
    List<String> tables = new ArrayList<>();
    String list = props.getProperty("tables");
    if (list != null && !list.isBlank() && !list.trim().equals("*")) {
      for (String t : list.split(",")) {
        if (!t.isBlank()) {
          tables.add(t.trim().toLowerCase(Locale.ROOT));
        }
      }
    }
    Consistency consistency = switch (props.getProperty("consistency", "read-your-writes").trim()
        .toLowerCase(Locale.ROOT)) {
      case "read-your-writes", "read_your_writes" -> Consistency.READ_YOUR_WRITES;
      case "eventual" -> Consistency.EVENTUAL;
      default -> throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid consistency \""
          + props.getProperty("consistency") + "\": expected read-your-writes or eventual");
    };
    Duration maxStaleness = duration("maxStaleness", props.getProperty("maxStaleness"), null);
    Duration rywTimeout = duration("readYourWritesTimeout", props.getProperty("readYourWritesTimeout"),
        Duration.ZERO);
    String safe = (host + "-" + port + "-" + database).replaceAll("[^A-Za-z0-9_.-]", "_");
    Path dir = props.getProperty("mirrorDir") == null || props.getProperty("mirrorDir").isBlank()
        ? Path.of("accel-mirror", safe) : Path.of(props.getProperty("mirrorDir"));
    // slot names are unique in the whole upstream cluster: the default names the database and the mirror directory
    String dbPart = database.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    String slot = props.getProperty("slotName", "accel_" + dbPart.substring(0, Math.min(dbPart.length(), 40)) + "_"
        + String.format("%08x", dir.toAbsolutePath().normalize().toString().hashCode()));
    String publication = props.getProperty("publicationName", slot + "_pub");
    for (String[] name : new String[][] {{"slotName", slot}, {"publicationName", publication}}) {
      if (!name[1].matches("[a-z0-9_]{1,63}")) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid " + name[0] + " \"" + name[1]
            + "\": lower-case letters, digits and underscores, at most 63");
      }
    }
    return new UpstreamConfig(host, port, database, pg, List.copyOf(tables), consistency, maxStaleness, rywTimeout,
        dir.toAbsolutePath().normalize(), slot, publication);
  }

  /** A duration such as {@code 500ms}, {@code 2s}, {@code 1min} or a plain number of milliseconds. */
  static Duration duration(String name, String text, Duration defaultValue) {
    if (text == null || text.isBlank()) {
      return defaultValue;
    }
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("min")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 3)));
      }
      if (t.endsWith("s")) {
        return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
      }
      return Duration.ofMillis(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid " + name + " \"" + text
          + "\": expected a duration such as 500ms, 2s or 1min");
    }
  }
}
