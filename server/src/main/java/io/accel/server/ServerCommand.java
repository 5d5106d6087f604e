package io.accel.server;

import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar accel-server.jar}: flags, each also an ACCEL_... environment variable. */
@Command(name = "accel-server", mixinStandardHelpOptions = true, version = "Accel server 0.1.0",
    description = "Serves an Accel store over the PostgreSQL protocol: psql -h 127.0.0.1 -p 5433",
    subcommands = ServerCommand.HashPassword.class)
public final class ServerCommand implements Callable<Integer> {
  @Option(names = "--port", defaultValue = "${env:ACCEL_PORT:-5433}", description = "PostgreSQL protocol port (ACCEL_PORT; default ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--listen", defaultValue = "${env:ACCEL_LISTEN:-127.0.0.1}", description = "address to listen on (ACCEL_LISTEN; default ${DEFAULT-VALUE})")
  String listen;

  @Option(names = "--store", defaultValue = "${env:ACCEL_STORE:-file:accel-data}", description = "mem:NAME or file:PATH (ACCEL_STORE; default ${DEFAULT-VALUE})")
  String store;

  @Option(names = "--http-port", defaultValue = "${env:ACCEL_HTTP_PORT:-0}", description = "port for /metrics and /health, 0 for none (ACCEL_HTTP_PORT; default ${DEFAULT-VALUE})")
  int httpPort;

  @Option(names = "--auth", defaultValue = "${env:ACCEL_AUTH:-trust}", description = "trust, password or scram-sha-256 (ACCEL_AUTH; default ${DEFAULT-VALUE})")
  String auth;

  @Option(names = "--users", defaultValue = "${env:ACCEL_USERS}", description = "file of name:SCRAM-SHA-256$... lines, made by the hash-password command (ACCEL_USERS)")
  Path users;

  @Option(names = "--user", defaultValue = "${env:ACCEL_USER}", description = "a user to accept, with --password (ACCEL_USER)")
  String user;

  @Option(names = "--password", defaultValue = "${env:ACCEL_PASSWORD}", description = "that user's password; kept only as a SCRAM verifier (ACCEL_PASSWORD)")
  String password;

  @Option(names = "--tls", defaultValue = "${env:ACCEL_TLS:-off}", description = "off, optional or required (ACCEL_TLS; default ${DEFAULT-VALUE})")
  String tls;

  @Option(names = "--tls-cert", defaultValue = "${env:ACCEL_TLS_CERT}", description = "PEM certificate chain (ACCEL_TLS_CERT)")
  Path tlsCert;

  @Option(names = "--tls-key", defaultValue = "${env:ACCEL_TLS_KEY}", description = "PEM PKCS#8 private key (ACCEL_TLS_KEY)")
  Path tlsKey;

  @Option(names = "--max-connections", defaultValue = "${env:ACCEL_MAX_CONNECTIONS:-100}", description = "most client connections at once; more get 53300 (ACCEL_MAX_CONNECTIONS; default ${DEFAULT-VALUE})")
  int maxConnections;

  @Option(names = "--max-message-size", defaultValue = "${env:ACCEL_MAX_MESSAGE_SIZE:-67108864}", description = "largest protocol message in bytes (ACCEL_MAX_MESSAGE_SIZE; default ${DEFAULT-VALUE})")
  int maxMessageSize;

  @Option(names = "--idle-session-timeout", defaultValue = "${env:ACCEL_IDLE_SESSION_TIMEOUT:-0}", description = "seconds an idle session outside a transaction may stay, 0 for ever (ACCEL_IDLE_SESSION_TIMEOUT; default ${DEFAULT-VALUE})")
  long idleSessionTimeout;

  @Option(names = "--shutdown-timeout", defaultValue = "${env:ACCEL_SHUTDOWN_TIMEOUT:-30}", description = "seconds running statements get to finish on SIGTERM (ACCEL_SHUTDOWN_TIMEOUT; default ${DEFAULT-VALUE})")
  long shutdownTimeout;

  @Option(names = "--sync-commits", defaultValue = "${env:ACCEL_SYNC_COMMITS:-true}", description = "a commit waits for the write-ahead log to reach the disk (ACCEL_SYNC_COMMITS; default ${DEFAULT-VALUE})")
  boolean syncCommits;

  @Option(names = "--block-cache-size", defaultValue = "${env:ACCEL_BLOCK_CACHE_SIZE:-}", description = "RocksDB's block cache (ACCEL_BLOCK_CACHE_SIZE; default an eighth of the machine's memory, 128MB to 512MB)")
  String blockCacheSize;

  @Option(names = "--row-cache-size", defaultValue = "${env:ACCEL_ROW_CACHE_SIZE}", description = "the cache of decoded rows, 0 for none (ACCEL_ROW_CACHE_SIZE; default 256MB but at most a quarter of the heap)")
  String rowCacheSize;

  @Option(names = "--result-cache-size", defaultValue = "${env:ACCEL_RESULT_CACHE_SIZE}", description = "the result cache of CREATE CACHE and --auto-cache, 0 for none (ACCEL_RESULT_CACHE_SIZE; default 64MB but at most an eighth of the heap)")
  String resultCacheSize;

  @Option(names = "--auto-cache", defaultValue = "${env:ACCEL_AUTO_CACHE:-false}", description = "cache every query Accel can keep exact on its second execution (ACCEL_AUTO_CACHE; default ${DEFAULT-VALUE})")
  boolean autoCache;

  @Option(names = "--upstream", defaultValue = "${env:ACCEL_UPSTREAM}", description = "front this PostgreSQL: postgresql://user[:password]@host:port/db[?tables=a,b&consistency=...]; the user (with REPLICATION) runs the mirror, clients authenticate against the upstream; the mirror lives in --store's directory (ACCEL_UPSTREAM)")
  String upstream;

  @Option(names = "--upstream-password", defaultValue = "${env:ACCEL_UPSTREAM_PASSWORD}", description = "password of --upstream's user, if not in the URL (ACCEL_UPSTREAM_PASSWORD)")
  String upstreamPassword;

  public static void main(String[] args) {
    int code = new CommandLine(new ServerCommand()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  ServerConfig config() {
    Authenticator.Mode mode = switch (auth.toLowerCase()) {
      case "trust" -> Authenticator.Mode.TRUST;
      case "password" -> Authenticator.Mode.PASSWORD;
      case "scram-sha-256", "scram" -> Authenticator.Mode.SCRAM_SHA_256;
      default -> throw new CommandLine.ParameterException(new CommandLine(this),
          "--auth must be trust, password or scram-sha-256, not " + auth);
    };
    ServerConfig.Tls tlsMode = switch (tls.toLowerCase()) {
      case "off" -> ServerConfig.Tls.OFF;
      case "optional" -> ServerConfig.Tls.OPTIONAL;
      case "required" -> ServerConfig.Tls.REQUIRED;
      default -> throw new CommandLine.ParameterException(new CommandLine(this),
          "--tls must be off, optional or required, not " + tls);
    };
    if (tlsMode != ServerConfig.Tls.OFF && (tlsCert == null || tlsKey == null)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--tls " + tls + " needs --tls-cert and --tls-key");
    }
    if ((user == null) != (password == null)) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--user and --password go together");
    }
    if (!store.startsWith("mem:") && !store.startsWith("file:")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--store is mem:NAME or file:PATH, not " + store);
    }
    if (upstream != null && mode != Authenticator.Mode.TRUST) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--auth does not apply with --upstream: "
          + "clients authenticate against the upstream PostgreSQL, and Accel stores no passwords");
    }
    if (upstream != null && !store.startsWith("file:")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--upstream keeps its mirror in a file store: "
          + "--store file:PATH, not " + store);
    }
    String front = upstream;
    if (front != null && upstreamPassword != null) {
      front += (front.contains("?") ? "&" : "?") + "password="
          + java.net.URLEncoder.encode(upstreamPassword, java.nio.charset.StandardCharsets.UTF_8);
    }
    StoreOptions storeOptions;
    try {
      storeOptions = new StoreOptions(
          StoreOptions.parseBytes("--block-cache-size", blockCacheSize, StoreOptions.DEFAULTS.blockCacheBytes(), false),
          syncCommits,
          StoreOptions.parseBytes("--row-cache-size", rowCacheSize, StoreOptions.DEFAULTS.rowCacheBytes(), true))
          .withResultCache(StoreOptions.parseBytes("--result-cache-size", resultCacheSize,
              StoreOptions.DEFAULTS.resultCacheBytes(), true), autoCache);
    } catch (io.accel.sql.AccelException e) {
      throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
    }
    return new ServerConfig(listen, port, store, httpPort, mode, users, user, password, tlsMode, tlsCert, tlsKey,
        maxConnections, maxMessageSize, idleSessionTimeout * 1000, shutdownTimeout * 1000, storeOptions, front);
  }

  @Override
  public Integer call() throws Exception {
    AccelServer server = new AccelServer(config());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "accel-shutdown"));
    stopped.await();
    return 0;
  }

  /** Prints the SCRAM verifier of a password, a line for --users. */
  @Command(name = "hash-password", mixinStandardHelpOptions = true,
      description = "Prints name:SCRAM-SHA-256$... for a --users file; the password is read from stdin")
  static final class HashPassword implements Callable<Integer> {
    @CommandLine.Parameters(index = "0", description = "the user name")
    String name;

    @Override
    public Integer call() throws Exception {
      String password = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
      if (password == null || password.isEmpty()) {
        System.err.println("no password on stdin");
        return 2;
      }
      System.out.println(name + ":" + ScramVerifier.of(password));
      return 0;
    }
  }
}
