package io.accel.server;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/** A server on a free port over a fresh in-memory store, closed by the test. */
final class TestServer implements AutoCloseable {
  private static final AtomicInteger STORES = new AtomicInteger();
  final AccelServer server;

  TestServer() throws IOException {
    this(ServerConfig.forTests(store()));
  }

  TestServer(ServerConfig config) throws IOException {
    server = new AccelServer(config);
  }

  /** PostgreSQL 15 at 127.0.0.1:5432 (database test, user postgres), or a skip (a failure where CI requires services). */
  static Connection postgres() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "5");
    try {
      return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", p);
    } catch (SQLException e) {
      if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
        throw e;
      }
      org.junit.jupiter.api.Assumptions.abort("PostgreSQL 15 at 127.0.0.1:5432 is unreachable: " + e.getMessage());
      return null;
    }
  }

  static String store() {
    return "mem:server-test-" + STORES.incrementAndGet();
  }

  int port() {
    return server.port();
  }

  String url() {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/test";
  }

  Connection connect() throws SQLException {
    return connect(new Properties());
  }

  Connection connect(Properties extra) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "tester");
    p.putAll(extra);
    return DriverManager.getConnection(url(), p);
  }

  /** The value of a meter in the server's registry (counters, gauges), 0 when absent. */
  double meter(String name, String... tags) {
    var search = server.prometheus().find(name).tags(tags);
    if (search.counter() != null) {
      return search.counter().count();
    }
    if (search.gauge() != null) {
      return search.gauge().value();
    }
    return 0;
  }

  @Override
  public void close() {
    server.close();
  }
}
