package io.accel.server;

import io.accel.exec.Database;
import io.accel.exec.Session;
import io.accel.exec.StoreRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Accel server: one store, the PostgreSQL protocol on {@code --port}, metrics and health on
 * {@code --http-port}. Each authenticated connection has a worker thread running its session (a blocking
 * statement never holds up another connection or the event loop), bounded by {@code --max-connections}.
 */
public final class AccelServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AccelServer.class);

  private final ServerConfig config;
  private final Users users;
  private final SslContext sslContext;
  /** TLS towards the upstream (fronting only). */
  private final UpstreamTls upstreamTls;
  private final PrometheusMeterRegistry prometheus;
  private final ServerMetrics metrics;
  private final Database database;
  /** The mirror of the upstream this server fronts (--upstream), null when the server is the database. */
  private final io.accel.upstream.Mirror mirror;
  private final io.micrometer.core.instrument.Counter retried;
  private final EventLoopGroup loops;
  private final ExecutorService workers;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  /** BackendKeyData: what a CancelRequest names a session by. */
  record BackendKey(int pid, int secret) {
  }

  private record Registered(PgConnection connection, int secret) {
  }

  /** Authenticated sessions by process id. */
  private final Map<Integer, Registered> sessions = new ConcurrentHashMap<>();
  private final AtomicInteger admitted = new AtomicInteger();
  /** Connection threads running, admitted or still starting up. */
  private final AtomicInteger threads = new AtomicInteger();
  private final IoHandlerFactory ioHandlers;
  private final AtomicInteger nextPid = new AtomicInteger(1000);
  private final SecureRandom random = new SecureRandom();
  private final Channel serverChannel;
  private final HttpEndpoint http;
  private volatile boolean shuttingDown;
  private boolean closed;

  AccelServer(ServerConfig config) throws IOException {
    this.config = config;
    this.users = users(config);
    this.sslContext = config.tls() == ServerConfig.Tls.OFF ? null
        : SslContextBuilder.forServer(config.tlsCert().toFile(), config.tlsKey().toFile()).build();
    this.prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Metrics.addRegistry(prometheus); // core registers its accel.* meters in the global registry
    new JvmMemoryMetrics().bindTo(prometheus);
    new JvmGcMetrics().bindTo(prometheus);
    new JvmThreadMetrics().bindTo(prometheus);
    new ProcessorMetrics().bindTo(prometheus);
    if (config.upstream() != null) {
      io.accel.upstream.UpstreamConfig upstream = upstreamConfig(config);
      this.upstreamTls = UpstreamTls.of(upstream.pgProperties()); // a bad sslmode or CA file fails before the mirror
      this.mirror = io.accel.upstream.Mirrors.acquire(upstream, config.storeOptions());
      this.database = mirror.database();
      this.retried = io.micrometer.core.instrument.Counter.builder("accel.route.retried")
          .tags(database.meterTags())
          .description("local executions that failed internally and were retried upstream")
          .register(database.meters());
    } else {
      this.mirror = null;
      this.upstreamTls = null;
      this.database = StoreRegistry.acquire(config.store(), config.storeOptions());
      this.retried = null;
    }
    warmUp();
    this.metrics = new ServerMetrics(prometheus, this);
    // Netty's FastThreadLocalThreads: the pooled allocator gives each connection thread its own cache of buffers
    this.workers = Executors.newCachedThreadPool(new DefaultThreadFactory("accel-conn", true));
    boolean epoll = Epoll.isAvailable();
    this.ioHandlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    // one loop accepts connections and serves HTTP; each connection then runs on its own thread's loop
    this.loops = new MultiThreadIoEventLoopGroup(1, ioHandlers);
    Class<? extends ServerSocketChannel> channelClass = epoll ? EpollServerSocketChannel.class
        : NioServerSocketChannel.class;
    try {
      ServerSocketChannel listener = epoll ? new EpollServerSocketChannel() : new NioServerSocketChannel();
      listener.config().setOption(ChannelOption.SO_BACKLOG, 1024);
      listener.pipeline().addLast(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object accepted) {
          accept((Channel) accepted);
        }
      });
      loops.register(listener).sync();
      listener.bind(new InetSocketAddress(config.listen(), config.port())).sync();
      this.serverChannel = listener;
      this.http = config.httpPort() == 0 ? null : new HttpEndpoint(this, loops, channelClass, config.listen(),
          Math.max(config.httpPort(), 0));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      loops.shutdownGracefully();
      releaseStore();
      throw new IOException("interrupted while binding", e);
    } catch (RuntimeException e) {
      loops.shutdownGracefully();
      releaseStore();
      throw e;
    }
    LOG.info("Accel server listening on {}:{} ({}, auth {}, TLS {}{})", config.listen(), port(),
        mirror == null ? "store " + config.store() : "fronting " + mirror.config().describe() + ", mirror in "
            + mirror.config().mirrorDir(),
        mirror == null ? config.auth().name().toLowerCase().replace('_', '-') : "passed through to the upstream",
        config.tls().name().toLowerCase(),
        http == null ? "" : ", metrics and health on http://" + config.listen() + ":" + http.port());
  }

  /**
   * Plans and runs one query before the port opens: the planner's first use in a JVM initialises Calcite and
   * compiles generated code (seconds on a small machine), which the first client would otherwise wait for.
   */
  private void warmUp() {
    try (Session s = new Session(database, new Session.Options(16, null, "accel"));
        io.accel.exec.Result r = s.execute(new Object(), "SELECT c.relname, count(*) FROM pg_catalog.pg_class c"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' GROUP BY c.relname")) {
      if (r.hasRows()) {
        while (r.cursor().hasNext()) {
          r.cursor().next();
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("warming up the planner failed; the first statement will take longer", e);
    }
  }

  private void releaseStore() {
    if (mirror != null) {
      io.accel.upstream.Mirrors.release(mirror);
    } else {
      StoreRegistry.release(database);
    }
  }

  /**
   * {@code --upstream postgresql://user[:password]@host:port/db?name=value&...}: the properties after {@code ?}
   * (URL-encoded) are those of {@code jdbc:accel:postgresql://}; the mirror lives in the file store's directory
   * unless {@code mirrorDir} says otherwise.
   */
  static io.accel.upstream.UpstreamConfig upstreamConfig(ServerConfig config) {
    String url = config.upstream();
    int cut = url.indexOf('?');
    java.util.Properties props = new java.util.Properties();
    if (cut >= 0) {
      for (String pair : url.substring(cut + 1).split("&")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("malformed property \"" + pair + "\" in --upstream");
        }
        props.setProperty(java.net.URLDecoder.decode(pair.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8),
            java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    if (!props.containsKey("mirrorDir") && config.store().startsWith("file:")) {
      props.setProperty("mirrorDir", config.store().substring("file:".length()));
    }
    return io.accel.upstream.UpstreamConfig.parse(cut < 0 ? url : url.substring(0, cut), props);
  }

  /** Whether this server fronts an upstream PostgreSQL. */
  boolean fronting() {
    return mirror != null;
  }

  io.accel.upstream.UpstreamConfig upstream() {
    return mirror.config();
  }

  UpstreamTls upstreamTls() {
    return upstreamTls;
  }

  /** The router of a client connection to {@code database}: null for a database other than the mirrored one. */
  io.accel.upstream.Router routerFor(String database, String user) {
    return database.equals(mirror.config().database()) ? new io.accel.upstream.Router(mirror, user) : null;
  }

  void retriedUpstream() {
    retried.increment();
  }

  private static Users users(ServerConfig config) throws IOException {
    Users users = config.usersFile() != null ? Users.load(config.usersFile()) : new Users();
    if (config.user() != null && config.password() != null) {
      users.add(config.user(), ScramVerifier.of(config.password()));
    }
    if (config.auth() != Authenticator.Mode.TRUST && users.size() == 0) {
      throw new IllegalArgumentException("--auth " + config.auth().name().toLowerCase().replace('_', '-')
          + " needs users: --users FILE or --user and --password");
    }
    return users;
  }

  public int port() {
    return ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  int httpPort() {
    return http == null ? 0 : http.port();
  }

  ServerConfig config() {
    return config;
  }

  Users users() {
    return users;
  }

  SslContext sslContext() {
    return sslContext;
  }

  boolean tlsRequired() {
    return config.tls() == ServerConfig.Tls.REQUIRED;
  }

  ServerMetrics metrics() {
    return metrics;
  }

  PrometheusMeterRegistry prometheus() {
    return prometheus;
  }

  Database database() {
    return database;
  }

  boolean shuttingDown() {
    return shuttingDown;
  }

  boolean healthy() {
    return !shuttingDown && !closed;
  }

  /** Counts a connection past its startup message; false when --max-connections are in use. */
  boolean admit() {
    while (true) {
      int n = admitted.get();
      if (n >= config.maxConnections() || shuttingDown) {
        return false;
      }
      if (admitted.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  void release() {
    admitted.decrementAndGet();
  }

  /**
   * A new connection gets a thread that owns its event loop (Netty's ManualIoEventLoop): the socket is read,
   * the session runs and replies are written on that one thread, one wake-up per client message as a
   * PostgreSQL backend process has. Connections past twice --max-connections that have not yet started up
   * are closed at once.
   */
  private void accept(Channel child) {
    if (shuttingDown || threads.incrementAndGet() > 2 * config.maxConnections() + 10) {
      threads.decrementAndGet();
      child.unsafe().closeForcibly();
      return;
    }
    child.config().setOption(ChannelOption.TCP_NODELAY, true);
    // the allocator the metrics report (Netty 4.2's default is the adaptive one, shared by threads outside event loops)
    child.config().setAllocator(PooledByteBufAllocator.DEFAULT);
    child.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024));
    try {
      workers.execute(() -> serve(child));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      threads.decrementAndGet();
      child.unsafe().closeForcibly();
    }
  }

  private void serve(Channel child) {
    ManualIoEventLoop loop = new ManualIoEventLoop(Thread.currentThread(), ioHandlers);
    try {
      PgFrameDecoder decoder = new PgFrameDecoder(config.maxMessageSize());
      PgConnection connection = new PgConnection(this, decoder, loop);
      child.pipeline().addLast("frames", decoder).addLast("pg", connection);
      ChannelFuture registered = loop.register(child);
      while (!registered.isDone()) {
        loop.runNow();
      }
      if (registered.isSuccess()) {
        channels.add(child);
        connection.serve();
      } else {
        child.unsafe().closeForcibly();
      }
    } catch (RuntimeException | Error e) {
      LOG.warn("connection {} failed", child.remoteAddress(), e);
      child.close();
    } finally {
      loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      while (!loop.isTerminated()) {
        loop.run(TimeUnit.MILLISECONDS.toNanos(10));
      }
      threads.decrementAndGet();
    }
  }

  Session newSession(String user) {
    return new Session(database, new Session.Options(1000, null, user));
  }

  /** A process id and secret for BackendKeyData, by which a CancelRequest finds this connection. */
  BackendKey register(PgConnection connection) {
    BackendKey key = new BackendKey(nextPid.incrementAndGet(), random.nextInt());
    sessions.put(key.pid(), new Registered(connection, key.secret()));
    return key;
  }

  void unregister(BackendKey key) {
    sessions.remove(key.pid());
  }

  /** A CancelRequest: stops the running statement of the session with that key, and only that one. */
  void cancel(int pid, int secret) {
    Registered r = sessions.get(pid);
    if (r != null && r.secret() == secret) {
      r.connection().cancelRunning();
    }
  }

  int sessionCount() {
    return sessions.size();
  }

  int snapshotsHeld() {
    return sessions.values().stream().mapToInt(r -> r.connection().snapshotsHeld()).sum();
  }

  /**
   * Stops accepting, lets each session finish the statement it runs (up to --shutdown-timeout, then cancels
   * it), ends the sessions with 57P01, and closes the store once no session can touch it.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    shuttingDown = true;
    serverChannel.close().awaitUninterruptibly();
    if (http != null) {
      http.close();
    }
    for (Registered r : sessions.values()) {
      r.connection().shutdown();
    }
    long deadline = System.currentTimeMillis() + config.shutdownTimeoutMillis();
    while ((admitted.get() > 0 || threads.get() > 0) && System.currentTimeMillis() < deadline) {
      sleep(20);
    }
    if (admitted.get() > 0) {
      LOG.warn("{} sessions still running after {} ms: canceling their statements", admitted.get(),
          config.shutdownTimeoutMillis());
      for (Registered r : sessions.values()) {
        r.connection().cancelRunning();
      }
    }
    channels.close().awaitUninterruptibly();
    // the store is closed only when no worker can use it any more: a freed native handle is never touched
    long lastLog = System.currentTimeMillis();
    while (admitted.get() > 0 || threads.get() > 0) {
      sleep(20);
      if (System.currentTimeMillis() - lastLog > 5000) {
        LOG.warn("waiting for {} sessions to end before closing the store", admitted.get());
        lastLog = System.currentTimeMillis();
      }
    }
    workers.shutdown();
    loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    releaseStore();
    Metrics.removeRegistry(prometheus);
    prometheus.close();
    closed = true;
    LOG.info("Accel server stopped");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
