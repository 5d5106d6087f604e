package io.accel.server;

import io.accel.storage.StoreOptions;
import java.nio.file.Path;

/**
 * What a server runs with; {@link ServerCommand} fills it from flags and ACCEL_... environment variables.
 *
 * @param store {@code mem:NAME} or {@code file:PATH}
 * @param httpPort 0 for no HTTP endpoint, -1 for any free port
 * @param tlsCert PEM certificate chain; with {@code tlsKey} (PEM PKCS#8) when tls is not OFF
 * @param upstream {@code postgresql://user@host:port/db?options} to front, null to be the database itself
 */
record ServerConfig(String listen, int port, String store, int httpPort, Authenticator.Mode auth, Path usersFile,
    String user, String password, Tls tls, Path tlsCert, Path tlsKey, int maxConnections, int maxMessageSize,
    long idleSessionTimeoutMillis, long shutdownTimeoutMillis, StoreOptions storeOptions, String upstream) {

  enum Tls { OFF, OPTIONAL, REQUIRED }

  /** An in-memory server on any free port with trust authentication, for tests. */
  static ServerConfig forTests(String store) {
    return new ServerConfig("127.0.0.1", 0, store, -1, Authenticator.Mode.TRUST, null, null, null, Tls.OFF, null,
        null, 100, 64 << 20, 0, 10_000,
        new StoreOptions(StoreOptions.DEFAULTS.blockCacheBytes(), false, StoreOptions.DEFAULTS.rowCacheBytes()), null);
  }

  ServerConfig withAuth(Authenticator.Mode mode, String user, String password) {
    return new ServerConfig(listen, port, store, httpPort, mode, usersFile, user, password, tls, tlsCert, tlsKey,
        maxConnections, maxMessageSize, idleSessionTimeoutMillis, shutdownTimeoutMillis, storeOptions, upstream);
  }

  ServerConfig withTls(Tls mode, Path cert, Path key) {
    return new ServerConfig(listen, port, store, httpPort, auth, usersFile, user, password, mode, cert, key,
        maxConnections, maxMessageSize, idleSessionTimeoutMillis, shutdownTimeoutMillis, storeOptions, upstream);
  }

  /** Fronting {@code upstream}, the mirror in {@code store}'s directory. */
  ServerConfig withUpstream(String store, String upstream) {
    return new ServerConfig(listen, port, store, httpPort, auth, usersFile, user, password, tls, tlsCert, tlsKey,
        maxConnections, maxMessageSize, idleSessionTimeoutMillis, shutdownTimeoutMillis, storeOptions, upstream);
  }

  ServerConfig withLimits(int maxConnections, int maxMessageSize, long idleSessionTimeoutMillis) {
    return new ServerConfig(listen, port, store, httpPort, auth, usersFile, user, password, tls, tlsCert, tlsKey,
        maxConnections, maxMessageSize, idleSessionTimeoutMillis, shutdownTimeoutMillis, storeOptions, upstream);
  }
}
