package io.accel.server;

import io.accel.cursor.Cursor;
import io.accel.exec.ColumnOrigin;
import io.accel.exec.PgText;
import io.accel.exec.Prepared;
import io.accel.exec.Result;
import io.accel.exec.Session;
import io.accel.sql.AccelException;
import io.accel.sql.PositionalParameters;
import io.accel.sql.SqlState;
import io.accel.sql.Statements;
import io.accel.upstream.Router;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import io.netty.channel.ManualIoEventLoop;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection speaking protocol 3.0. The Netty event loop only frames bytes and answers the
 * startup-phase packets (SSLRequest, GSSENCRequest, CancelRequest); everything after the startup message
 * runs on the connection's own worker thread, in order, against one core {@link Session}, as a PostgreSQL
 * backend process would. Replies are gathered in a buffer and written when the client waits for them
 * (ReadyForQuery, Flush, a COPY response) or when 64 KB have accumulated; then the worker waits while the
 * channel is not writable, so a huge result streams in bounded memory. Incoming messages are queued for the
 * worker; past 1 MB queued the channel stops reading until the worker catches up.
 */
final class PgConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PgConnection.class);
  private static final int SSL_REQUEST = 80877103;
  private static final int GSSENC_REQUEST = 80877104;
  private static final int CANCEL_REQUEST = 80877102;
  private static final int PROTOCOL_3 = 196608;
  private static final int FLUSH_BYTES = 64 * 1024;
  private static final long QUEUE_HIGH = 1 << 20;
  private static final long QUEUE_LOW = 256 * 1024;
  private static final Object CLOSED = new Object();
  private static final long AUTHENTICATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
  /** Parameters PostgreSQL reports with ParameterStatus whenever they change. */
  private static final List<String> REPORTED = List.of("application_name", "client_encoding", "DateStyle",
      "integer_datetimes", "IntervalStyle", "is_superuser", "server_encoding", "server_version",
      "session_authorization", "standard_conforming_strings", "TimeZone");

  private final AccelServer server;
  private final PgFrameDecoder decoder;
  /** The connection's own event loop, driven by its thread: reads, writes and the session all run there. */
  private final ManualIoEventLoop loop;
  /** Decoded frames not yet handled (the loop's thread only). */
  private final java.util.ArrayDeque<Object> current = new java.util.ArrayDeque<>();
  private long queuedBytes;
  private int startupMinor = -1;
  private volatile boolean shutdownRequested;
  private volatile Channel channel;
  private boolean startupSeen;
  private volatile boolean closed;
  private boolean tls;

  // worker state
  private Map<String, String> startupParameters;
  private Session session;
  private AccelServer.BackendKey key;
  private ByteBuf out;
  private final Map<String, Statement> statements = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();
  private final Map<String, String> reported = new HashMap<>();
  private boolean skipUntilSync;
  /** ReadyForQuery was sent and no message has come since: notifications go out as they arrive. */
  private boolean awaitingCommand;
  /** A transaction the server opened for a pipeline of several Executes before one Sync. */
  private boolean implicitBlock;
  private final AtomicBoolean cancel = new AtomicBoolean();
  /** Meter increments gathered per connection and published every few hundred statements and at the end. */
  private long bytesIn;
  private long bytesOut;
  private long rowsSent;
  private final long[] statementsByKind = new long[Prepared.Kind.values().length];
  private int unpublished;

  // fronting (--upstream): null link when the server is the database itself
  private volatile UpstreamLink link;
  /** Decides per execution where a statement runs; null for a database the server does not mirror. */
  private Router router;
  /** The upstream's transaction status from its last ReadyForQuery. */
  private char upstreamStatus = 'I';
  /** A LISTEN went upstream: while idle, the link is watched and notifications are relayed as they come. */
  private boolean listening;
  private static final java.util.regex.Pattern LISTEN = java.util.regex.Pattern.compile("(?i)\\bLISTEN\\b");
  /**
   * The replies of a simple query a shallow cache of upstream results covers, as relayed (RowDescription, DataRows,
   * CommandComplete in wire form), while it runs upstream; null otherwise.
   */
  private java.io.ByteArrayOutputStream capture;
  /** A reply that a kept result cannot replay (an error, a notice, COPY, ...) came while capturing. */
  private boolean captureSpoiled;
  /**
   * The cache key's values of a simple query: it has no parameters, and its results are the wire's text form (the
   * JDBC driver's keys are lists of its setters; the two never share an entry).
   */
  private static final List<Object> SIMPLE_QUERY = List.of("simple query protocol");
  /** Replies past this size are not captured for a shallow cache. */
  private static final int CAPTURE_LIMIT = 64 << 20;
  /** What each message forwarded since then still owes the client, oldest first. */
  private final java.util.ArrayDeque<Owed> owed = new java.util.ArrayDeque<>();
  /** Something went upstream since its last ReadyForQuery: a Sync must go there too. */
  private boolean forwardedSinceReady;
  /** An Execute went upstream since its last ReadyForQuery: the pipeline is in the upstream's transaction. */
  private boolean executedUpstream;
  /** The client's prepared statements, by name, as the client wrote them (both destinations share them). */
  private final Map<String, Front> fronts = new HashMap<>();
  /** Portals bound locally; every other portal lives upstream. */
  private final java.util.Set<String> localPortals = new java.util.HashSet<>();
  /** The text of each portal bound upstream, and of the statements executed upstream before the next Sync. */
  private final Map<String, String> upstreamPortals = new HashMap<>();
  private final List<String> executedStatements = new ArrayList<>();

  /** A prepared statement: PostgreSQL's $n text, the engine's statement, the client's parameter types. */
  private static final class Statement {
    final String sql;
    /** Its first words, upper case: what the command tag and transaction handling look at. */
    final String leading;
    final Prepared prepared; // null for an empty query
    final PositionalParameters positions;
    final int[] parameterTypes; // per $n, 0 = infer
    /** The PostgreSQL type of each result column, for RowDescription and every DataRow. */
    final int[] columnTypes;
    /** For one of Accel's commands that ran when it was routed: the tag its execution reports. */
    String accelTag;
    /** Each column's table OID and column number for RowDescription: made once, or taken from the upstream's. */
    List<ColumnOrigin> origins;

    Statement(String sql, Prepared prepared, PositionalParameters positions, int[] parameterTypes) {
      this.sql = sql;
      this.leading = firstWords(sql, 3);
      this.columnTypes = prepared == null || !prepared.returnsRows() ? new int[0]
          : prepared.columns().stream().mapToInt(c -> PgTypes.oid(c.type)).toArray();
      this.prepared = prepared;
      this.positions = positions;
      this.parameterTypes = parameterTypes;
    }
  }

  /** A bound statement; its result, once executed, is read by one or several Executes. */
  private static final class Portal {
    final Statement statement;
    final List<TypedValue> parameters;
    final short[] resultFormats;
    Result result;
    long rowsSent;
    String completedTag;

    Portal(Statement statement, List<TypedValue> parameters, short[] resultFormats) {
      this.statement = statement;
      this.parameters = parameters;
      this.resultFormats = resultFormats;
    }
  }

  /** An error that ends the connection: FATAL, then close. */
  private static final class Fatal extends RuntimeException {
    final String sqlState;

    Fatal(String sqlState, String message) {
      super(message, null, false, false);
      this.sqlState = sqlState;
    }
  }

  /** A message body that does not parse: an ERROR (08P01), and the connection goes on. */
  private static final class BadMessage extends RuntimeException {
    BadMessage(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * A statement the client parsed while fronting: its text and the types it gave; parsed upstream at once unless
   * it may run locally, then only when an execution or a Describe first needs the upstream's copy.
   */
  private static final class Front {
    final String sql;
    final int[] types;
    final PositionalParameters positions;
    boolean upstreamParsed;
    /** The parameter and column types the upstream described, which local executions then answer in. */
    int[] upstreamParameters;
    int[] upstreamColumns;
    List<ColumnOrigin> upstreamOrigins;

    Front(String sql, int[] types, PositionalParameters positions, boolean upstreamParsed) {
      this.sql = sql;
      this.types = types;
      this.positions = positions;
      this.upstreamParsed = upstreamParsed;
    }
  }

  /**
   * The reply a forwarded message still owes: {@code kind} is its message type ({@code d} for Describe of a
   * portal); a silent Parse is one the client never sent as such (a lazily parsed statement), whose
   * ParseComplete is not relayed.
   */
  private record Owed(char kind, String statement, boolean silent) {
    boolean endedBy(char reply) {
      return switch (kind) {
        case 'P' -> reply == '1';
        case 'B' -> reply == '2';
        case 'D', 'd' -> reply == 'T' || reply == 'n';
        case 'E' -> reply == 'C' || reply == 's' || reply == 'I';
        case 'C' -> reply == '3';
        case 'F' -> reply == 'V';
        default -> false;
      };
    }
  }

  PgConnection(AccelServer server, PgFrameDecoder decoder, ManualIoEventLoop loop) {
    this.server = server;
    this.decoder = decoder;
    this.loop = loop;
  }

  // ---------------------------------------------------------------------------------------------------
  // event loop side

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    server.metrics().connectionOpened();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof PgFrameDecoder.Startup startup) {
      try {
        startup(ctx, startup.body());
      } finally {
        startup.body().release();
      }
    } else if (msg instanceof PgFrameDecoder.Frame frame) {
      bytesIn += frame.body().readableBytes() + 5;
      if (closed) {
        frame.body().release();
        return;
      }
      queuedBytes += frame.body().readableBytes();
      if (queuedBytes > QUEUE_HIGH) {
        ctx.channel().config().setAutoRead(false); // a client far ahead of the session waits
      }
      current.add(frame);
    } else if (msg instanceof PgFrameDecoder.Malformed bad) {
      if (startupSeen) {
        current.add(bad);
      } else {
        fatalNow(ctx, bad.sqlState(), bad.message());
      }
    }
  }

  private void startup(ChannelHandlerContext ctx, ByteBuf body) {
    int code = body.readInt();
    if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
      boolean accept = code == SSL_REQUEST && !tls && server.sslContext() != null;
      ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte(accept ? 'S' : 'N'));
      if (accept) {
        SslHandler ssl = server.sslContext().newHandler(ctx.alloc());
        ctx.pipeline().addFirst("tls", ssl);
        tls = true;
      }
      return;
    }
    if (code == CANCEL_REQUEST) {
      if (body.readableBytes() >= 8) {
        server.cancel(body.readInt(), body.readInt());
      }
      ctx.close();
      return;
    }
    if (code >> 16 != 3) {
      fatalNow(ctx, "0A000", "unsupported frontend protocol " + (code >> 16) + "." + (code & 0xffff)
          + ": server supports 3.0 to 3.0");
      return;
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    try {
      while (body.isReadable()) {
        String name = cstring(body);
        if (name.isEmpty()) {
          break;
        }
        parameters.put(name, cstring(body));
      }
    } catch (BadMessage e) {
      fatalNow(ctx, "08P01", "invalid startup packet layout: expected terminator as last byte");
      return;
    }
    if (server.tlsRequired() && !tls) {
      fatalNow(ctx, "28000", "no encryption: this server accepts TLS connections only (--tls required)");
      return;
    }
    if (!parameters.containsKey("user") || parameters.get("user").isEmpty()) {
      fatalNow(ctx, "28000", "no PostgreSQL user name specified in startup packet");
      return;
    }
    if (!server.admit()) {
      fatalNow(ctx, "53300", "sorry, too many clients already");
      return;
    }
    startupSeen = true;
    decoder.startupDone();
    startupParameters = parameters;
    startupMinor = code & 0xffff;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closed = true;
    server.metrics().connectionClosed();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }

  private void fatalNow(ChannelHandlerContext ctx, String sqlState, String message) {
    ByteBuf b = ctx.alloc().buffer();
    PgWriter.error(b, 'E', "FATAL", sqlState, message, null, null, 0);
    ctx.writeAndFlush(b).addListener(f -> ctx.close());
  }

  // ---------------------------------------------------------------------------------------------------
  // worker side

  /**
   * The connection's whole life on its thread: the loop runs until the startup message arrives (at most
   * --authentication-timeout), then the session serves messages until the client leaves.
   */
  void serve() {
    Thread.currentThread().setName("accel-conn-" + channel.remoteAddress());
    long deadline = System.nanoTime() + AUTHENTICATION_TIMEOUT_NANOS;
    while (startupMinor < 0 && !closed && channel.isActive()) {
      long wait = deadline - System.nanoTime();
      if (wait <= 0 || shutdownRequested) {
        channel.close();
        return;
      }
      loop.run(wait);
    }
    if (startupMinor >= 0) {
      run(startupMinor);
    }
  }

  private void run(int minorVersion) {
    out = newReplyBuffer();
    try {
      if (minorVersion > 0) {
        negotiateProtocol(minorVersion);
      }
      if (server.fronting()) {
        if (!frontStartup()) {
          return;
        }
      } else {
        if (!authenticate()) {
          return;
        }
        openSession();
      }
      while (true) {
        Object next = next();
        if (next == CLOSED) {
          break;
        }
        PgFrameDecoder.Frame frame = (PgFrameDecoder.Frame) next;
        try {
          if (!handle(frame)) {
            break;
          }
        } finally {
          frame.body().release();
        }
      }
    } catch (Fatal e) {
      sendFatal(e.sqlState, e.getMessage());
    } catch (Authenticator.Failure e) {
      sendFatal(e.sqlState, e.getMessage());
    } catch (RuntimeException | Error e) {
      LOG.warn("connection {} ended by an internal error", channel.remoteAddress(), e);
      sendFatal("XX000", "internal error: " + e);
    } finally {
      cleanUp();
    }
  }

  private void negotiateProtocol(int minor) {
    List<String> unsupported = new ArrayList<>();
    for (String name : startupParameters.keySet()) {
      if (name.startsWith("_pq_.")) {
        unsupported.add(name);
      }
    }
    int at = PgWriter.begin(out, 'v');
    out.writeInt(PROTOCOL_3);
    out.writeInt(unsupported.size());
    for (String name : unsupported) {
      PgWriter.cstring(out, name);
    }
    PgWriter.end(out, at);
  }

  /**
   * The next message ({@link #CLOSED} once the client left): runs the connection's loop (reading the socket)
   * until one is decoded. A frame that cannot be read, an idle session past --idle-session-timeout and server
   * shutdown end the connection (Fatal).
   */
  private Object next() {
    long idle = server.config().idleSessionTimeoutMillis();
    boolean inBlock = link != null ? upstreamStatus != 'I' : session != null && session.inTransactionBlock();
    long deadline = idle > 0 && session != null && !inBlock ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(idle) : 0;
    while (true) {
      Object next = current.poll();
      if (next instanceof PgFrameDecoder.Malformed bad) {
        throw new Fatal(bad.sqlState(), bad.message());
      }
      if (next != null) {
        awaitingCommand = false;
        if (next instanceof PgFrameDecoder.Frame f) {
          queuedBytes -= f.body().readableBytes();
          if (queuedBytes < QUEUE_LOW && !channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
          }
        }
        return next;
      }
      if (shutdownRequested) {
        throw new Fatal("57P01", "terminating connection due to administrator command");
      }
      if (closed || !channel.isActive()) {
        return CLOSED;
      }
      if (awaitingCommand && link == null && session != null) {
        writeNotifications(); // an idle connection gets them at once
        if (out.readableBytes() > 0) {
          flush();
        }
      }
      if (awaitingCommand && link != null && listening && !relayIdle()) {
        return CLOSED;
      }
      long wait = TimeUnit.SECONDS.toNanos(1);
      if (deadline != 0) {
        wait = deadline - System.nanoTime();
        if (wait <= 0) {
          throw new Fatal("57P05", "terminating connection due to idle-session timeout");
        }
      }
      loop.run(wait);
    }
  }

  private boolean authenticate() {
    String user = startupParameters.get("user");
    Authenticator auth = new Authenticator(server.config().auth(), server.users(), user, new Authenticator.Output() {
      @Override
      public void cleartextRequest() {
        PgWriter.authenticationCleartext(out);
      }

      @Override
      public void saslRequest(String mechanism) {
        PgWriter.authenticationSasl(out, mechanism);
      }

      @Override
      public void saslContinue(int code, String data) {
        PgWriter.authenticationSaslContinue(out, code, data);
      }
    });
    boolean done = auth.start();
    while (!done) {
      flush();
      Object next = next();
      if (next == CLOSED) {
        return false;
      }
      PgFrameDecoder.Frame frame = (PgFrameDecoder.Frame) next;
      try {
        if (frame.type() != 'p') {
          throw new Fatal("08P01", "expected password response, got message type " + (int) frame.type());
        }
        done = auth.respond(frame.body());
      } catch (BadMessage | IndexOutOfBoundsException e) {
        throw new Fatal("08P01", "invalid password packet");
      } finally {
        frame.body().release();
      }
    }
    server.metrics().authenticated();
    return true;
  }

  private void openSession() {
    String user = startupParameters.get("user");
    session = server.newSession(user);
    // current_database() answers the name the client connected to (one store serves every name)
    session.setParameter("accel.database", startupParameters.getOrDefault("database", user));
    for (Map.Entry<String, String> e : startupParameters.entrySet()) {
      String name = e.getKey();
      if (name.equals("user") || name.equals("database") || name.equals("replication") || name.startsWith("_pq_.")) {
        continue;
      }
      if (name.equals("options")) {
        applyOptions(e.getValue());
        continue;
      }
      setStartupParameter(name, e.getValue());
    }
    key = server.register(this);
    session.setProcessId(key.pid());
    session.frontendStatementNames(name -> !name.isEmpty() && statements.containsKey(name));
    // a notification for an idle connection wakes its loop, which sends it (next())
    session.onNotification(() -> {
      try {
        loop.execute(() -> { });
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        // the connection is ending: nothing to wake
      }
    });
    PgWriter.authenticationOk(out);
    reportChangedSettings(); // nothing reported yet: every parameter
    PgWriter.backendKeyData(out, key.pid(), key.secret());
    readyForQuery();
  }

  /** {@code options=-c name=value -c ...} (and {@code --name=value}), as libpq's PGOPTIONS sends them. */
  private void applyOptions(String options) {
    String[] words = options.trim().split("\\s+");
    for (int i = 0; i < words.length; i++) {
      String w = words[i];
      String assignment = null;
      if (w.equals("-c") && i + 1 < words.length) {
        assignment = words[++i];
      } else if (w.startsWith("-c")) {
        assignment = w.substring(2);
      } else if (w.startsWith("--")) {
        assignment = w.substring(2);
      }
      if (assignment != null && assignment.indexOf('=') > 0) {
        int eq = assignment.indexOf('=');
        setStartupParameter(assignment.substring(0, eq).replace('-', '_'), assignment.substring(eq + 1));
      }
    }
  }

  private void setStartupParameter(String name, String value) {
    if (name.equalsIgnoreCase("client_encoding") && value.equalsIgnoreCase("SQL_ASCII")) {
      return; // psql in the C locale asks for it; UTF-8 bytes pass through a SQL_ASCII client unchanged
    }
    try {
      session.setParameter(name, value);
    } catch (AccelException e) {
      throw new Fatal(e.state().code(), e.getMessage());
    }
  }

  private String setting(String name) {
    try {
      return session.settings().get(name);
    } catch (AccelException e) {
      return "";
    }
  }

  /** Handles one message; false to end the connection (Terminate). */
  private boolean handle(PgFrameDecoder.Frame frame) {
    char type = frame.type();
    ByteBuf body = frame.body();
    if (link != null) {
      Boolean fronted = fronted(type, body);
      if (fronted != null) {
        return fronted;
      }
    }
    if (type == 'X') {
      return false;
    }
    if (type == 'S') {
      sync();
      return true;
    }
    if (type == 'H') {
      flush();
      return true;
    }
    if (type == 'Q') {
      skipUntilSync = false;
      try {
        simpleQuery(cstring(body));
      } catch (BadMessage e) {
        sendError("08P01", e.getMessage(), null, null, 0);
        readyForQuery();
      }
      return true;
    }
    if (type == 'd' || type == 'c' || type == 'f') {
      return true; // COPY messages outside COPY are ignored, as PostgreSQL does
    }
    if (skipUntilSync) {
      return true;
    }
    try {
      switch (type) {
        case 'P' -> parse(body);
        case 'B' -> bind(body);
        case 'D' -> describe(body);
        case 'E' -> execute(body);
        case 'C' -> close(body);
        case 'F' -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "the function call message is not supported");
        default -> throw new Fatal("08P01", "invalid frontend message type " + (int) type);
      }
    } catch (AccelException e) {
      extendedError(e);
    } catch (BadMessage | IndexOutOfBoundsException e) {
      sendError("08P01", e instanceof BadMessage ? e.getMessage() : "invalid message format", null, null, 0);
      abortExtended();
    } catch (Fatal e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.warn("statement failed with an internal error", e);
      sendError("XX000", "internal error: " + e, null, null, 0);
      abortExtended();
    }
    return true;
  }

  private void extendedError(AccelException e) {
    sendError(e);
    abortExtended();
  }

  /** After an error in extended mode: skip to Sync; a transaction the server opened is rolled back. */
  private void abortExtended() {
    skipUntilSync = true;
    if (implicitBlock) {
      implicitBlock = false;
      session.rollback();
    }
  }

  // --- fronting: the client's own upstream connection, and the mirror for the reads it can answer

  /**
   * Startup in front of PostgreSQL: the client's startup parameters open its own upstream connection and the
   * client authenticates against the upstream through this server (every authentication message relayed), so Accel
   * stores no passwords. Then the upstream's ParameterStatus messages, this server's BackendKeyData (a cancel reaches
   * both) and the upstream's ReadyForQuery. False when the upstream refused (its error already relayed).
   */
  private boolean frontStartup() {
    UpstreamTls tls = server.upstreamTls();
    boolean plain = tls.mode() == UpstreamTls.Mode.ALLOW; // allow: plain first, TLS if the upstream refuses it
    try {
      link = UpstreamLink.connect(server.upstream().host(), server.upstream().port(), tls, plain);
    } catch (IOException e) {
      throw new Fatal("08001", e.getMessage());
    }
    try {
      link.startup(startupParameters);
      boolean first = true;
      while (true) {
        UpstreamLink.Message m = link.read();
        if (m.type() == 'R' && m.body().length >= 4 && readInt(m.body(), 0) == 0) {
          break;
        }
        if (first && plain && m.type() == 'E' && "28000".equals(errorCode(m.body()))) {
          link.close(); // pg_hba.conf refused the plain connection: allow tries again over TLS, as libpq does
          try {
            link = UpstreamLink.connect(server.upstream().host(), server.upstream().port(), tls, false);
          } catch (IOException e) {
            throw new Fatal("08001", e.getMessage());
          }
          link.startup(startupParameters);
          first = false;
          continue;
        }
        first = false;
        if (m.type() == 'R' && m.body().length >= 4 && readInt(m.body(), 0) == 10) {
          m = withoutChannelBinding(m);
        }
        relay(m);
        if (m.type() == 'E') {
          flush();
          return false;
        }
        if (m.type() == 'R') {
          flush();
          int code = readInt(m.body(), 0);
          if (code == 3 || code == 5 || code == 10 || code == 11) {
            Object next = next();
            if (next == CLOSED) {
              return false;
            }
            PgFrameDecoder.Frame frame = (PgFrameDecoder.Frame) next;
            try {
              if (frame.type() != 'p') {
                throw new Fatal("08P01", "expected password response, got message type " + (int) frame.type());
              }
              link.send('p', frame.body());
            } finally {
              frame.body().release();
            }
          }
        } else if (m.type() != 'N') {
          throw new Fatal("08P01", "unexpected message " + m.type() + " from the upstream during authentication");
        }
      }
      server.metrics().authenticated();
      List<UpstreamLink.Message> status = new ArrayList<>();
      while (true) {
        UpstreamLink.Message m = link.read();
        if (m.type() == 'Z') {
          upstreamStatus = (char) m.body()[0];
          break;
        }
        if (m.type() == 'E') {
          relay(m);
          flush();
          return false;
        }
        if (m.type() != 'K') {
          status.add(m);
        }
      }
      String user = startupParameters.get("user");
      String database = startupParameters.getOrDefault("database", user);
      session = server.newSession(user);
      session.setParameter("accel.database", database);
      for (Map.Entry<String, String> e : startupParameters.entrySet()) {
        try {
          if (e.getKey().equals("options")) {
            applyOptions(e.getValue());
          } else if (!e.getKey().equals("user") && !e.getKey().equals("database")) {
            setStartupParameter(e.getKey(), e.getValue());
          }
        } catch (Fatal | AccelException ignored) {
          // the upstream accepted it; a setting the local session cannot follow keeps reads upstream (Router)
        }
      }
      router = server.routerFor(database, user);
      key = server.register(this);
      PgWriter.authenticationOk(out);
      for (UpstreamLink.Message m : status) {
        relay(m);
      }
      PgWriter.backendKeyData(out, key.pid(), key.secret());
      PgWriter.readyForQuery(out, upstreamStatus);
      flush();
      return true;
    } catch (IOException e) {
      throw new Fatal("08006", "lost the upstream PostgreSQL: " + e.getMessage());
    }
  }

  /**
   * One client message while fronting: forwarded upstream, or answered here (null: the local handling below runs,
   * after every reply owed by earlier forwarded messages has been relayed, so replies keep the client's order).
   */
  private Boolean fronted(char type, ByteBuf body) {
    try {
      switch (type) {
        case 'X' -> {
          return false;
        }
        case 'Q' -> {
          skipUntilSync = false;
          frontQuery(body);
          return true;
        }
        case 'S' -> {
          sync();
          return true;
        }
        case 'H' -> {
          drain();
          flush();
          return true;
        }
        case 'd', 'c', 'f' -> {
          return true; // COPY data outside COPY: ignored, as PostgreSQL does
        }
        default -> {
        }
      }
      if (skipUntilSync) {
        return true;
      }
      body.markReaderIndex();
      try {
        return switch (type) {
          case 'P' -> frontParse(body);
          case 'B' -> frontBind(body);
          case 'D' -> frontDescribe(body);
          case 'E' -> frontExecute(body);
          case 'C' -> frontClose(body);
          case 'F' -> {
            body.resetReaderIndex();
            forward('F', body, new Owed('F', null, false));
            yield true;
          }
          default -> null;
        };
      } finally {
        body.resetReaderIndex();
      }
    } catch (AccelException e) {
      extendedError(e);
      return true;
    } catch (BadMessage | IndexOutOfBoundsException e) {
      sendError("08P01", e instanceof BadMessage ? e.getMessage() : "invalid message format", null, null, 0);
      abortExtended();
      return true;
    } catch (IOException e) {
      throw new Fatal("08006", "lost the upstream PostgreSQL: " + e.getMessage());
    }
  }

  /**
   * A simple query: one statement the mirror may answer runs locally (a local failure before any row was sent runs
   * it again upstream); everything else goes upstream whole, and its replies come back as PostgreSQL sent them.
   */
  private void frontQuery(ByteBuf body) throws IOException {
    body.markReaderIndex();
    String sql = cstring(body);
    body.resetReaderIndex();
    List<String> texts = Statements.split(sql);
    boolean routed = false;
    if (router != null && texts.size() == 1 && !forwardedSinceReady) {
      Router.Route r;
      try {
        r = router.route(session, texts.get(0), upstreamStatus != 'I',
            router.cachesUpstreamResults() ? SIMPLE_QUERY : null);
      } catch (AccelException e) {
        sendError(e);
        readyForQuery();
        return;
      }
      if (r.destination() == Router.Destination.ACCEL) {
        accelCommand(texts.get(0), r);
        return;
      }
      if (r.destination() == Router.Destination.CACHE) {
        // the kept replies of the upstream: the upstream is not asked
        out.writeBytes((byte[]) r.cache().result());
        readyForQuery();
        return;
      }
      if (r.destination() == Router.Destination.LOCAL && localQuery(texts.get(0), r.prepared())) {
        return;
      }
      if (r.cache() != null) {
        forward('Q', body, null);
        capture = new java.io.ByteArrayOutputStream();
        captureSpoiled = false;
        try {
          relayUntilReady();
          byte[] kept = captureSpoiled ? null : capture.toByteArray();
          router.keepUpstream(r, kept, kept == null ? 0 : kept.length);
        } finally {
          capture = null;
        }
        followUpstream(texts.get(0));
        return;
      }
      routed = true;
    }
    if (router != null && !routed) {
      for (String text : texts) {
        router.route(session, text, upstreamStatus != 'I' || texts.size() > 1);
      }
    }
    forward('Q', body, null);
    relayUntilReady();
    for (String text : texts) {
      followUpstream(text);
    }
  }

  /** A read the mirror answers: false, with nothing sent, when it failed before its first row (then it goes upstream). */
  private boolean localQuery(String text, Prepared prepared) {
    long flushed = bytesOut;
    int mark = out.writerIndex();
    Portal portal = new Portal(new Statement(text, prepared, PositionalParameters.of(""), new int[0]), List.of(),
        new short[0]);
    try {
      run(portal, "", 0, true);
    } catch (AccelException e) {
      if (bytesOut != flushed) {
        sendError(e);
      } else {
        out.writerIndex(mark);
        server.retriedUpstream();
        return false;
      }
    } finally {
      closePortal(portal, "");
    }
    readyForQuery();
    return true;
  }

  /** Accel's own commands (EXPLAIN LAST STATEMENT, SHOW ACCEL STATUS, mirror-only indexes, ...). */
  private void accelCommand(String text, Router.Route r) {
    try {
      if (r.localSql() != null) {
        Statement statement = new Statement(text, session.prepare(r.localSql()), PositionalParameters.of(""),
            new int[0]);
        Portal portal = new Portal(statement, List.of(), new short[0]);
        try {
          run(portal, "", 0, true);
        } finally {
          closePortal(portal, "");
        }
      } else {
        PgWriter.commandComplete(out, firstWords(text, 3));
      }
    } catch (AccelException e) {
      sendError(e);
    }
    readyForQuery();
  }

  /** After statements ran upstream: the local session follows settings, the mirror checks DDL, statements dropped. */
  private void followUpstream(String text) {
    if (router != null) {
      router.afterUpstream(session, text);
    }
    if (!listening && LISTEN.matcher(text).find()) {
      listening = true;
    }
    String[] words = firstWords(text, 3).split(" ");
    if (words[0].equals("DISCARD") && words.length > 1 && words[1].equals("ALL")
        || words[0].equals("DEALLOCATE") && words[words.length - 1].equals("ALL")) {
      fronts.clear();
      statements.clear();
    } else if (words[0].equals("DEALLOCATE")) {
      String name = text.trim().replaceAll(";\\s*$", "").replaceAll("(?is)^\\s*DEALLOCATE\\s+(PREPARE\\s+)?", "");
      name = name.startsWith("\"") && name.endsWith("\"") && name.length() > 1
          ? name.substring(1, name.length() - 1) : name.toLowerCase(Locale.ROOT);
      fronts.remove(name);
      statements.remove(name);
    }
  }

  /**
   * Parse: a statement that may run locally is parsed upstream only when first needed there (its ParseComplete
   * answered here); any other goes upstream now.
   */
  private Boolean frontParse(ByteBuf body) throws IOException {
    ParseMessage parse = ParseMessage.read(body);
    String name = parse.name();
    String sql = parse.sql();
    int[] types = parse.types();
    if (!name.isEmpty() && fronts.containsKey(name)) {
      throw new AccelException(SqlState.DUPLICATE_PREPARED_STATEMENT, "prepared statement \"" + name
          + "\" already exists");
    }
    statements.remove(name);
    List<String> texts = Statements.split(sql);
    boolean mayRunLocally = router != null && texts.size() == 1
        && (Router.isQuery(texts.get(0)) || Router.isLocalCommand(texts.get(0)));
    Front front = new Front(sql, types, router != null && texts.size() == 1 ? PositionalParameters.of(texts.get(0))
        : null, !mayRunLocally);
    fronts.put(name, front);
    if (!mayRunLocally) {
      body.resetReaderIndex();
      forward('P', body, new Owed('P', name, false));
      return true;
    }
    drain();
    if (!skipUntilSync) {
      PgWriter.simple(out, '1');
    }
    return true;
  }

  /** Parses a lazily parsed statement upstream (its ParseComplete is not the client's). */
  private void parseUpstream(String name, Front front) throws IOException {
    if (front.upstreamParsed) {
      return;
    }
    ByteBuf b = Unpooled.buffer();
    try {
      PgWriter.cstring(b, name);
      PgWriter.cstring(b, front.sql);
      b.writeShort(front.types.length);
      for (int t : front.types) {
        b.writeInt(t);
      }
      forward('P', b, new Owed('P', name, true));
    } finally {
      b.release();
    }
    front.upstreamParsed = true;
  }

  /** Bind decides where this execution runs (the Router, per execution). */
  private Boolean frontBind(ByteBuf body) throws IOException {
    String portalName = cstring(body);
    String statementName = cstring(body);
    Front front = fronts.get(statementName);
    Router.Route r = null;
    if (front != null && front.positions != null) {
      r = router.route(session, front.positions.sql(), upstreamStatus != 'I' || executedUpstream);
      if (r.destination() == Router.Destination.ACCEL) {
        if (r.localSql() == null) {
          // a command that has done its work (mirror-only indexes, DROP ACCEL MIRROR): only its tag is left
          drain();
          Statement done = new Statement(front.sql, null, front.positions, front.types);
          done.accelTag = firstWords(front.sql, 3);
          statements.put(statementName, done);
          localPortals.add(portalName);
          return skipUntilSync ? Boolean.TRUE : null;
        }
        r = new Router.Route(Router.Destination.LOCAL, r.reason(), session.prepare(r.localSql()), null);
      }
    }
    Portal old = portals.remove(portalName);
    if (old != null) {
      closePortal(old, portalName);
    }
    if (r != null && r.destination() == Router.Destination.LOCAL) {
      drain();
      if (skipUntilSync) {
        return true;
      }
      Statement local = statements.get(statementName);
      if (local == null || local.prepared != r.prepared()) {
        local = localStatement(front.sql, front.positions, r.prepared(), front.types, front.upstreamParameters);
        if (front.upstreamColumns != null && front.upstreamColumns.length == local.columnTypes.length) {
          System.arraycopy(front.upstreamColumns, 0, local.columnTypes, 0, local.columnTypes.length);
          local.origins = front.upstreamOrigins;
        }
        statements.put(statementName, local);
      }
      localPortals.add(portalName);
      return null;
    }
    if (front != null) {
      parseUpstream(statementName, front);
    }
    localPortals.remove(portalName);
    if (front != null) {
      upstreamPortals.put(portalName, front.sql);
    }
    body.resetReaderIndex();
    forward('B', body, new Owed('B', null, false));
    return true;
  }

  private Boolean frontDescribe(ByteBuf body) throws IOException {
    byte kind = body.readByte();
    String name = cstring(body);
    if (kind == 'P' && localPortals.contains(name)) {
      drain();
      return skipUntilSync ? Boolean.TRUE : null;
    }
    if (kind == 'S') {
      Front front = fronts.get(name);
      if (front != null) {
        parseUpstream(name, front);
      }
    }
    body.resetReaderIndex();
    forward('D', body, new Owed(kind == 'S' ? 'D' : 'd', name, false));
    return true;
  }

  private Boolean frontExecute(ByteBuf body) throws IOException {
    String name = cstring(body);
    if (localPortals.contains(name)) {
      drain();
      return skipUntilSync ? Boolean.TRUE : null;
    }
    String text = upstreamPortals.get(name);
    if (text != null && router != null) {
      executedStatements.add(text);
    }
    body.resetReaderIndex();
    forward('E', body, new Owed('E', null, false));
    executedUpstream = true;
    return true;
  }

  private Boolean frontClose(ByteBuf body) throws IOException {
    byte kind = body.readByte();
    String name = cstring(body);
    if (kind == 'S') {
      Front front = fronts.remove(name);
      if (front != null && !front.upstreamParsed) {
        drain();
        return skipUntilSync ? Boolean.TRUE : null; // known here only: closed here
      }
      statements.remove(name);
    } else if (kind == 'P' && localPortals.remove(name)) {
      drain();
      return skipUntilSync ? Boolean.TRUE : null;
    }
    body.resetReaderIndex();
    forward('C', body, new Owed('C', null, false));
    return true;
  }

  /** Sends a message upstream (what it owes the client noted), relaying whatever replies have arrived meanwhile. */
  private void forward(char type, ByteBuf body, Owed owes) throws IOException {
    link.send(type, body);
    forwardedSinceReady = true;
    if (owes != null) {
      owed.add(owes);
    }
    while (link.ready()) {
      relayOne();
    }
  }

  /** Relays the upstream's replies until every forwarded message has had its own (a Flush makes it send them). */
  private void drain() throws IOException {
    if (owed.isEmpty()) {
      return;
    }
    link.send('H', Unpooled.EMPTY_BUFFER);
    while (!owed.isEmpty()) {
      relayOne();
    }
  }

  /**
   * An idle fronted connection that listens: what the upstream sent meanwhile (notifications, notices, parameter
   * changes) goes to the client at once, as PostgreSQL sends it; then the link is watched again. False when the
   * upstream ended the connection (its FATAL error relayed).
   */
  private boolean relayIdle() {
    try {
      if (link.arrived()) {
        do {
          UpstreamLink.Message m = link.read();
          relay(m);
          if (m.type() == 'E') {
            flush();
            return false;
          }
        } while (link.ready());
        flush();
      }
      link.watch(() -> loop.execute(() -> { }));
      return true;
    } catch (IOException e) {
      throw new Fatal("08006", "lost the upstream PostgreSQL: " + e.getMessage());
    }
  }

  /**
   * AuthenticationSASL without SCRAM-SHA-256-PLUS: channel binding would bind the client to Accel's TLS session,
   * not the upstream's (and libpq refuses the mechanism on a plain connection), so the client does plain SCRAM.
   */
  private static UpstreamLink.Message withoutChannelBinding(UpstreamLink.Message m) {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    b.write(m.body(), 0, 4);
    int at = 4;
    while (at < m.body().length && m.body()[at] != 0) {
      int end = at;
      while (end < m.body().length && m.body()[end] != 0) {
        end++;
      }
      String mechanism = new String(m.body(), at, end - at, java.nio.charset.StandardCharsets.UTF_8);
      if (!mechanism.endsWith("-PLUS")) {
        b.write(m.body(), at, end - at + 1);
      }
      at = end + 1;
    }
    b.write(0);
    return new UpstreamLink.Message('R', b.toByteArray());
  }

  /** Relays the upstream's replies up to and including its ReadyForQuery, then flushes. */
  private void relayUntilReady() throws IOException {
    while (!relayOne()) {
      // next reply
    }
    flush();
  }

  /** Relays one upstream reply, keeping account of what is owed; true for ReadyForQuery. */
  private boolean relayOne() throws IOException {
    UpstreamLink.Message m = link.read();
    char type = m.type();
    Owed head = owed.peek();
    switch (type) {
      case 'Z' -> {
        upstreamStatus = (char) m.body()[0];
        awaitingCommand = true; // the upstream's ReadyForQuery is the client's
        skipUntilSync = false;
        owed.clear();
        forwardedSinceReady = false;
        executedUpstream = false;
        relay(m);
        return true;
      }
      case 'E' -> {
        server.metrics().error(errorCode(m.body()));
        relay(m);
        if (head != null) {
          owed.clear(); // the upstream skips the rest until Sync, and so does this connection
          skipUntilSync = true;
        }
        return false;
      }
      case 'G', 'W' -> {
        relay(m);
        flush();
        pumpCopyIn();
        return false;
      }
      case 't' -> {
        if (head != null && head.kind() == 'D' && fronts.get(head.statement()) != null) {
          fronts.get(head.statement()).upstreamParameters = types(m.body(), 2, 4);
        }
      }
      case 'T' -> {
        if (head != null && head.kind() == 'D' && fronts.get(head.statement()) != null) {
          fronts.get(head.statement()).upstreamColumns = columnTypes(m.body());
          fronts.get(head.statement()).upstreamOrigins = columnOrigins(m.body());
        }
      }
      default -> {
      }
    }
    if (head != null && head.endedBy(type)) {
      owed.poll();
      if (head.silent()) {
        return false;
      }
    }
    relay(m);
    return false;
  }

  /** COPY FROM STDIN upstream: the client's COPY messages go upstream until CopyDone or CopyFail. */
  private void pumpCopyIn() throws IOException {
    while (true) {
      Object next = next();
      if (next == CLOSED) {
        throw new Fatal("08006", "connection closed during COPY");
      }
      PgFrameDecoder.Frame frame = (PgFrameDecoder.Frame) next;
      try {
        link.send(frame.type(), frame.body());
        if (frame.type() == 'c' || frame.type() == 'f') {
          link.flush();
          return;
        }
      } finally {
        frame.body().release();
      }
    }
  }

  private void relay(UpstreamLink.Message m) {
    if (capture != null && m.type() != 'Z' && !captureSpoiled) {
      if ((m.type() == 'T' || m.type() == 'D' || m.type() == 'C') && capture.size() < CAPTURE_LIMIT) {
        int length = m.body().length + 4;
        capture.write(m.type());
        capture.writeBytes(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
            (byte) length});
        capture.writeBytes(m.body());
      } else {
        captureSpoiled = true; // not replayable, or larger than a result cache keeps anyway
        capture.reset();
      }
    }
    int at = PgWriter.begin(out, m.type());
    out.writeBytes(m.body());
    PgWriter.end(out, at);
    if (out.readableBytes() >= FLUSH_BYTES) {
      flush();
    }
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
  }

  /** ParameterDescription's types: a count at 0, then 4-byte OIDs. */
  private static int[] types(byte[] b, int countBytes, int stride) {
    int n = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    int[] types = new int[n];
    for (int i = 0; i < n; i++) {
      types[i] = readInt(b, countBytes + i * stride);
    }
    return types;
  }

  /** RowDescription's table OIDs and column numbers. */
  private static List<ColumnOrigin> columnOrigins(byte[] b) {
    int n = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    List<ColumnOrigin> origins = new ArrayList<>(n);
    int at = 2;
    for (int i = 0; i < n; i++) {
      while (b[at] != 0) {
        at++;
      }
      at++;
      origins.add(new ColumnOrigin(readInt(b, at), (short) (((b[at + 4] & 0xff) << 8) | (b[at + 5] & 0xff))));
      at += 4 + 2 + 4 + 2 + 4 + 2; // table OID, column number, type OID, size, modifier, format
    }
    return origins;
  }

  /** RowDescription's column types. */
  private static int[] columnTypes(byte[] b) {
    int n = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    int[] types = new int[n];
    int at = 2;
    for (int i = 0; i < n; i++) {
      while (b[at] != 0) {
        at++;
      }
      at += 1 + 4 + 2; // name's NUL, table OID, column number
      types[i] = readInt(b, at);
      at += 4 + 2 + 4 + 2; // type OID, size, modifier, format
    }
    return types;
  }

  /** The SQLSTATE of an ErrorResponse body. */
  private static String errorCode(byte[] b) {
    for (int at = 0; at < b.length && b[at] != 0; ) {
      char field = (char) b[at++];
      int end = at;
      while (end < b.length && b[end] != 0) {
        end++;
      }
      if (field == 'C') {
        return new String(b, at, end - at, StandardCharsets.UTF_8);
      }
      at = end + 1;
    }
    return "XX000";
  }

  // --- simple query

  private void simpleQuery(String sql) {
    List<String> texts = Statements.split(sql);
    if (texts.isEmpty()) {
      PgWriter.simple(out, 'I');
      readyForQuery();
      return;
    }
    boolean implicit = texts.size() > 1 && !session.inTransactionBlock() && !Statements.controlTransactions(texts);
    try {
      if (implicit) {
        session.begin();
        implicitBlock = true;
      }
      for (String text : texts) {
        if (isSessionCommand(firstWords(text, 1))) {
          sessionCommand(text);
          continue;
        }
        Statement statement = new Statement(text, session.prepare(text), PositionalParameters.of(""), new int[0]);
        if (statement.prepared.parameters().size() > 0) {
          throw new AccelException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $1");
        }
        Portal portal = new Portal(statement, List.of(), new short[0]);
        try {
          run(portal, "", 0, true);
        } finally {
          closePortal(portal, "");
        }
      }
      if (implicitBlock) {
        implicitBlock = false;
        session.commit();
      }
    } catch (AccelException e) {
      if (implicitBlock) {
        implicitBlock = false;
        session.rollback();
      }
      sendError(e);
    }
    readyForQuery();
  }

  // --- extended query

  /** A Parse message: the statement's name, its text and the parameter types the client gave (0: infer). */
  private record ParseMessage(String name, String sql, int[] types) {
    static ParseMessage read(ByteBuf body) {
      String name = cstring(body);
      String sql = cstring(body);
      int count = body.readShort();
      if (count < 0) {
        throw new BadMessage("invalid number of parameter types");
      }
      int[] types = new int[count];
      for (int i = 0; i < count; i++) {
        types[i] = body.readInt();
      }
      return new ParseMessage(name, sql, types);
    }
  }

  private void parse(ByteBuf body) {
    ParseMessage parse = ParseMessage.read(body);
    String name = parse.name();
    String sql = parse.sql();
    int[] types = parse.types();
    if (!name.isEmpty() && (statements.containsKey(name) || session.hasSqlPreparedStatement(name))) {
      throw new AccelException(SqlState.DUPLICATE_PREPARED_STATEMENT, "prepared statement \"" + name + "\" already exists");
    }
    List<String> texts = Statements.split(sql);
    if (texts.size() > 1) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "cannot insert multiple commands into a prepared statement");
    }
    Statement statement;
    if (texts.isEmpty() || isSessionCommand(firstWords(texts.get(0), 1))) {
      statement = new Statement(sql, null, PositionalParameters.of(""), types);
    } else {
      PositionalParameters positions = PositionalParameters.of(texts.get(0));
      statement = localStatement(sql, positions, session.prepare(positions.sql()), types, null);
    }
    statements.put(name, statement); // an unnamed statement replaced: its portals keep their own reference
    PgWriter.simple(out, '1');
  }

  /**
   * The engine's statement for {@code sql}: parameter types as the client gave them, else as {@code described}
   * (the upstream's, when fronting) gives them, else as the engine inferred them.
   */
  private static Statement localStatement(String sql, PositionalParameters positions, Prepared prepared, int[] types,
      int[] described) {
    int count = types.length;
    int parameters = Math.max(positions.count(), count); // $1 used twice is one parameter
    if (positions.count() == 0 && prepared.parameters().size() > 0) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"?\"");
    }
    int[] all = new int[positions.count() == 0 ? count : parameters];
    System.arraycopy(types, 0, all, 0, Math.min(count, all.length));
    for (int n = 0; n < all.length; n++) {
      if (all[n] == 0) {
        all[n] = described != null && n < described.length ? described[n] : inferredType(prepared, positions, n + 1);
      }
    }
    return new Statement(sql, prepared, positions, all);
  }

  /** The type the engine inferred for parameter $n: that of its first occurrence. */
  private static int inferredType(Prepared prepared, PositionalParameters positions, int n) {
    int[] order = positions.order();
    for (int i = 0; i < order.length; i++) {
      if (order[i] == n && i < prepared.parameters().size()) {
        AvaticaParameter p = prepared.parameters().get(i);
        return PgTypes.oid(ColumnMetaData.scalar(p.parameterType, p.typeName, ColumnMetaData.Rep.OBJECT));
      }
    }
    return PgTypes.UNKNOWN;
  }

  private void bind(ByteBuf body) {
    String portalName = cstring(body);
    String statementName = cstring(body);
    int formatCount = body.readShort();
    short[] formats = new short[Math.max(formatCount, 0)];
    for (int i = 0; i < formats.length; i++) {
      formats[i] = body.readShort();
    }
    int valueCount = body.readShort();
    if (formatCount < 0 || valueCount < 0) {
      throw new BadMessage("invalid bind message");
    }
    Statement statement = statement(statementName);
    if (valueCount != statement.parameterTypes.length) {
      throw new AccelException(SqlState.PROTOCOL_VIOLATION, "bind message supplies " + valueCount
          + " parameters, but prepared statement \"" + statementName + "\" requires " + statement.parameterTypes.length);
    }
    if (formatCount > 1 && formatCount != valueCount) {
      throw new AccelException(SqlState.PROTOCOL_VIOLATION, "bind message has " + formatCount
          + " parameter formats but " + valueCount + " parameters");
    }
    TypedValue[] values = new TypedValue[valueCount];
    for (int i = 0; i < valueCount; i++) {
      int length = body.readInt();
      if (length == -1) {
        values[i] = TypedValue.ofLocal(ColumnMetaData.Rep.OBJECT, null);
        continue;
      }
      if (length < 0 || length > body.readableBytes()) {
        throw new BadMessage("insufficient data left in message");
      }
      short format = formatCount == 0 ? 0 : formats[formatCount == 1 ? 0 : i];
      ByteBuf value = body.readSlice(length);
      if (format == 1) {
        try {
          values[i] = PgTypes.readBinary(value, statement.parameterTypes[i]);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
          throw new AccelException(SqlState.INVALID_BINARY_REPRESENTATION,
              "incorrect binary data format in bind parameter " + (i + 1));
        }
        if (value.isReadable()) {
          throw new AccelException(SqlState.INVALID_BINARY_REPRESENTATION,
              "incorrect binary data format in bind parameter " + (i + 1));
        }
      } else {
        values[i] = TypedValue.ofLocal(ColumnMetaData.Rep.STRING, value.toString(StandardCharsets.UTF_8));
      }
    }
    int resultCount = body.readShort();
    short[] resultFormats = new short[Math.max(resultCount, 0)];
    for (int i = 0; i < resultFormats.length; i++) {
      resultFormats[i] = body.readShort();
    }
    if (!portalName.isEmpty() && portals.containsKey(portalName)) {
      throw new AccelException(SqlState.DUPLICATE_CURSOR, "portal \"" + portalName + "\" already exists");
    }
    if (session.failedTransaction() && statement.prepared != null && !endsTransaction(statement.leading)
        && !rollsBackToSavepoint(statement.leading)) {
      throw new AccelException(SqlState.IN_FAILED_SQL_TRANSACTION,
          "current transaction is aborted, commands ignored until end of transaction block");
    }
    List<TypedValue> parameters = new ArrayList<>(statement.positions.order().length);
    for (int n : statement.positions.order()) {
      parameters.add(values[n - 1]);
    }
    Portal old = portals.remove(portalName);
    if (old != null) {
      closePortal(old, portalName);
    }
    portals.put(portalName, new Portal(statement, parameters, resultFormats));
    PgWriter.simple(out, '2');
  }

  private Statement statement(String name) {
    Statement statement = statements.get(name);
    if (statement == null) {
      throw new AccelException(SqlState.INVALID_SQL_STATEMENT_NAME, name.isEmpty()
          ? "unnamed prepared statement does not exist" : "prepared statement \"" + name + "\" does not exist");
    }
    return statement;
  }

  private Portal portal(String name) {
    Portal portal = portals.get(name);
    if (portal == null) {
      throw new AccelException(SqlState.INVALID_CURSOR_NAME, "portal \"" + name + "\" does not exist");
    }
    return portal;
  }

  /** Whether a statement, by its leading words, starts a transaction block. */
  private static boolean startsTransaction(String leading) {
    return leading.startsWith("BEGIN") || leading.startsWith("START");
  }

  /** Whether a statement, by its leading words, ends a transaction (ROLLBACK TO SAVEPOINT does not). */
  private static boolean endsTransaction(String leading) {
    String first = leading.contains(" ") ? leading.substring(0, leading.indexOf(' ')) : leading;
    return first.equals("COMMIT") || first.equals("END") || first.equals("ROLLBACK") && !rollsBackToSavepoint(leading)
        || first.equals("ABORT");
  }

  /** Whether a statement, by its leading words, is ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name. */
  private static boolean rollsBackToSavepoint(String leading) {
    String[] w = leading.split(" ");
    return w[0].equals("ROLLBACK") && w.length > 1 && (w[1].equals("TO")
        || (w[1].equals("WORK") || w[1].equals("TRANSACTION")) && w.length > 2 && w[2].equals("TO"));
  }

  /**
   * SAVEPOINT, RELEASE and ROLLBACK TO in the implicit transaction of several statements sent together: not a
   * transaction block, so PostgreSQL refuses them (25P01), as the session does outside any block.
   */
  private static void checkSavepointInImplicitBlock(String leading, Prepared prepared) {
    if (prepared.kind() != Prepared.Kind.COMMAND) {
      return;
    }
    String command = leading.startsWith("SAVEPOINT") ? "SAVEPOINT" : leading.startsWith("RELEASE") ? "RELEASE SAVEPOINT"
        : rollsBackToSavepoint(leading) ? "ROLLBACK TO SAVEPOINT" : null;
    if (command != null) {
      throw new AccelException(SqlState.NO_ACTIVE_SQL_TRANSACTION, command + " can only be used in transaction blocks");
    }
  }

  private void describe(ByteBuf body) {
    byte kind = body.readByte();
    String name = cstring(body);
    if (kind == 'S') {
      Statement statement = statement(name);
      int at = PgWriter.begin(out, 't');
      out.writeShort(statement.parameterTypes.length);
      for (int t : statement.parameterTypes) {
        out.writeInt(t);
      }
      PgWriter.end(out, at);
      rowDescription(statement, new short[0]);
    } else if (kind == 'P') {
      Portal portal = portal(name);
      rowDescription(portal.statement, portal.resultFormats);
    } else {
      throw new BadMessage("invalid DESCRIBE message subtype " + kind);
    }
  }

  private void execute(ByteBuf body) {
    String name = cstring(body);
    int maxRows = body.readInt();
    Portal portal = portal(name);
    if (portal.result == null && portal.completedTag == null && !session.inTransactionBlock()
        && portal.statement.prepared != null && portal.statement.prepared.kind() != Prepared.Kind.COMMAND
        && moreExecutesBeforeSync()) {
      // several statements before one Sync share one transaction, as PostgreSQL's implicit one
      session.begin();
      implicitBlock = true;
    }
    run(portal, name, Math.max(maxRows, 0), false);
  }

  /** Whether the client has queued another Execute before its next Sync (or no Sync yet). */
  private boolean moreExecutesBeforeSync() {
    for (Object m : current) {
      if (m instanceof PgFrameDecoder.Frame f) {
        if (f.type() == 'S') {
          return false;
        }
        if (f.type() == 'E') {
          return true;
        }
      }
    }
    return true;
  }

  private void close(ByteBuf body) {
    byte kind = body.readByte();
    String name = cstring(body);
    if (kind == 'S') {
      statements.remove(name);
    } else if (kind == 'P') {
      Portal portal = portals.remove(name);
      if (portal != null) {
        closePortal(portal, name);
      }
    } else {
      throw new BadMessage("invalid CLOSE message subtype " + kind);
    }
    PgWriter.simple(out, '3');
  }

  private void sync() {
    skipUntilSync = false;
    if (implicitBlock) {
      implicitBlock = false;
      try {
        session.commit();
      } catch (AccelException e) {
        sendError(e);
      }
    }
    if (!session.inTransactionBlock()) {
      closeAllPortals(); // portals live until the end of their transaction; outside a block that is now
    }
    if (link != null && forwardedSinceReady) {
      try {
        forward('S', Unpooled.EMPTY_BUFFER, null);
        relayUntilReady();
      } catch (IOException e) {
        throw new Fatal("08006", "lost the upstream PostgreSQL: " + e.getMessage());
      }
      for (String text : executedStatements) {
        followUpstream(text);
      }
      executedStatements.clear();
      return;
    }
    readyForQuery();
  }

  // --- running a portal

  /**
   * Runs a portal, or resumes it: sends up to {@code maxRows} rows (0 = all), then PortalSuspended if rows
   * remain, else CommandComplete. In simple-query mode a RowDescription comes first.
   */
  private void run(Portal portal, String name, int maxRows, boolean simple) {
    Statement statement = portal.statement;
    if (statement.prepared == null) {
      if (statement.accelTag != null) {
        complete(portal, statement.accelTag);
      } else if (isSessionCommand(firstWords(statement.sql, 1))) {
        sessionCommand(statement.sql);
        portal.completedTag = "";
      } else {
        PgWriter.simple(out, 'I');
      }
      return;
    }
    if (portal.completedTag != null) {
      // executing a completed portal again returns nothing more
      PgWriter.commandComplete(out, portal.completedTag.startsWith("SELECT") ? "SELECT 0" : portal.completedTag);
      return;
    }
    if (portal.result == null) {
      Prepared prepared = statement.prepared;
      String leading = statement.leading;
      if (startsTransaction(leading)) {
        if (implicitBlock) {
          implicitBlock = false; // BEGIN turns the implicit transaction into an explicit block
          complete(portal, "BEGIN");
          return;
        }
        if (session.inTransactionBlock() && !session.failedTransaction()) {
          notice("WARNING", "25001", "there is already a transaction in progress");
          complete(portal, "BEGIN");
          return;
        }
      }
      boolean commits = leading.startsWith("COMMIT") || leading.startsWith("END");
      if (endsTransaction(leading) && !session.inTransactionBlock()) {
        notice("WARNING", "25P01", "there is no transaction in progress");
        complete(portal, commits ? "COMMIT" : "ROLLBACK");
        return;
      }
      boolean failedCommit = commits && session.failedTransaction();
      if (implicitBlock && endsTransaction(leading)) {
        implicitBlock = false;
      }
      if (implicitBlock) {
        checkSavepointInImplicitBlock(leading, prepared);
      }
      cancel.set(false);
      statementsByKind[prepared.kind().ordinal()]++;
      unpublished++;
      if (prepared.copy().isPresent()) {
        Object key = name.isEmpty() ? portal : name;
        complete(portal, "COPY " + (prepared.copy().get().from() ? copyIn(key, prepared) : copyOut(key, prepared)));
        return;
      }
      Result result = session.execute(name.isEmpty() ? portal : name, prepared, portal.parameters, cancel, 0);
      if (!result.hasRows()) {
        String tag = tag(leading, prepared, result.updateCount(), failedCommit);
        result.close();
        complete(portal, tag);
        reportSettingsIfChanged();
        return;
      }
      portal.result = result;
      if (simple) {
        rowDescription(statement, portal.resultFormats);
      }
    }
    Cursor cursor = portal.result.cursor();
    List<ColumnMetaData> columns = statement.prepared.columns();
    int[] oids = statement.columnTypes;
    boolean[] binary = new boolean[oids.length];
    for (int i = 0; i < oids.length; i++) {
      binary[i] = format(portal.resultFormats, i) == 1;
    }
    ZoneId zone = session.timeZone().toZoneId();
    long sent = 0;
    while ((maxRows == 0 || sent < maxRows) && cursor.hasNext()) {
      Object row = cursor.next();
      dataRow(row, columns, oids, binary, zone);
      sent++;
      if (out.readableBytes() >= FLUSH_BYTES) {
        flush();
      }
    }
    portal.rowsSent += sent;
    rowsSent += sent;
    if (maxRows > 0 && sent == maxRows && cursor.hasNext()) {
      PgWriter.simple(out, 's');
      server.metrics().portalSuspended();
      return;
    }
    String tag = tag(statement.leading, statement.prepared, portal.rowsSent, false);
    portal.result.close();
    portal.result = null;
    complete(portal, tag);
    reportSettingsIfChanged();
  }

  /**
   * COPY ... FROM STDIN: CopyInResponse, then the client's CopyData fed to core until CopyDone (or CopyFail).
   * Flush and Sync are ignored meanwhile, as PostgreSQL does; after a failure the rest of the client's CopyData
   * is ignored (the connection loop drops it).
   */
  private long copyIn(Object key, Prepared prepared) {
    io.accel.exec.CopyIn copy = session.copyIn(key, prepared);
    PgWriter.copyResponse(out, 'G', !copy.textFormat(), copy.columnCount());
    flush();
    if (!copy.textFormat()) {
      try (BinaryCopy.Reader binary = new BinaryCopy.Reader(copy.columnTypes())) {
        return pumpCopyData(copy, binary);
      }
    }
    return pumpCopyData(copy, null);
  }

  /** CopyData until CopyDone or CopyFail; {@code binary} decodes the binary format's tuples (null: text). */
  private long pumpCopyData(io.accel.exec.CopyIn copy, BinaryCopy.Reader binary) {
    while (true) {
      Object next;
      try {
        next = next();
      } catch (Fatal e) {
        failQuietly(copy, e.getMessage());
        throw e;
      }
      if (next == CLOSED) {
        failQuietly(copy, "connection closed");
        throw new Fatal("08006", "connection closed during COPY");
      }
      PgFrameDecoder.Frame frame = (PgFrameDecoder.Frame) next;
      try {
        switch (frame.type()) {
          case 'd' -> {
            ByteBuf data = frame.body();
            if (binary == null) {
              copy.write(data.nioBuffer());
            } else {
              try {
                binary.write(data, copy::writeRow);
              } catch (AccelException e) {
                failQuietly(copy, e.getMessage());
                throw e;
              }
            }
          }
          case 'c' -> {
            if (binary != null) {
              try {
                binary.finish();
              } catch (AccelException e) {
                failQuietly(copy, e.getMessage());
                throw e;
              }
            }
            return copy.finish();
          }
          case 'f' -> copy.fail(cstring(frame.body()));
          case 'H', 'S' -> {
          }
          default -> {
            failQuietly(copy, "unexpected message");
            throw new AccelException(SqlState.PROTOCOL_VIOLATION,
                "unexpected message type 0x" + Integer.toHexString(frame.type()) + " during COPY from stdin");
          }
        }
      } finally {
        frame.body().release();
      }
    }
  }

  private static void failQuietly(io.accel.exec.CopyIn copy, String message) {
    try {
      copy.fail(message);
    } catch (AccelException expected) {
      // fail() always throws: the COPY is undone
    }
  }

  /** COPY ... TO STDOUT: CopyOutResponse, a CopyData per row (streamed under back-pressure), CopyDone. */
  private long copyOut(Object key, Prepared prepared) {
    try (io.accel.exec.CopyOut copy = session.copyOut(key, prepared)) {
      PgWriter.copyResponse(out, 'H', !copy.textFormat(), copy.columnCount());
      if (!copy.textFormat()) {
        return binaryCopyOut(copy);
      }
      for (byte[] row; (row = copy.next()) != null; ) {
        int at = PgWriter.begin(out, 'd');
        out.writeBytes(row);
        PgWriter.end(out, at);
        if (out.readableBytes() >= FLUSH_BYTES) {
          flush();
        }
      }
      PgWriter.simple(out, 'c');
      rowsSent += copy.rows();
      return copy.rows();
    }
  }

  /** COPY ... TO STDOUT (FORMAT binary): the header, a CopyData per tuple, the trailer. */
  private long binaryCopyOut(io.accel.exec.CopyOut copy) {
    int[] oids = copy.columns().stream().mapToInt(c -> PgTypes.oid(c.type)).toArray();
    int at = PgWriter.begin(out, 'd');
    BinaryCopy.writeHeader(out);
    PgWriter.end(out, at);
    for (Object[] row; (row = copy.nextRow()) != null; ) {
      at = PgWriter.begin(out, 'd');
      BinaryCopy.writeTuple(out, row, oids);
      PgWriter.end(out, at);
      if (out.readableBytes() >= FLUSH_BYTES) {
        flush();
      }
    }
    at = PgWriter.begin(out, 'd');
    BinaryCopy.writeTrailer(out);
    PgWriter.end(out, at);
    PgWriter.simple(out, 'c');
    rowsSent += copy.rows();
    return copy.rows();
  }

  /** Statements about the connection's own protocol state, which the server runs itself. */
  private static boolean isSessionCommand(String first) {
    return first.equals("DEALLOCATE") || first.equals("DISCARD");
  }

  /**
   * {@code DEALLOCATE [PREPARE] name | ALL} drops prepared statements; {@code DISCARD ALL} (what connection
   * pools send between clients) also closes portals and resets the session's settings; {@code DISCARD PLANS |
   * SEQUENCES | TEMP} have nothing to drop.
   */
  private void sessionCommand(String sql) {
    String[] words = sql.trim().replaceAll(";\\s*$", "").split("\\s+");
    String first = words[0].toUpperCase(Locale.ROOT);
    int at = words.length > 1 && words[1].equalsIgnoreCase("prepare") ? 2 : 1;
    if (first.equals("DEALLOCATE")) {
      if (words.length != at + 1) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error: DEALLOCATE [PREPARE] name | ALL");
      }
      String name = words[at];
      // the protocol's named statements are the connection's, PREPARE's are the session's: one name space
      if (name.equalsIgnoreCase("all")) {
        statements.clear();
        session.execute(new Object(), "DEALLOCATE ALL");
        PgWriter.commandComplete(out, "DEALLOCATE ALL");
        return;
      }
      name = name.startsWith("\"") && name.endsWith("\"") && name.length() > 1
          ? name.substring(1, name.length() - 1) : name.toLowerCase(Locale.ROOT);
      if (statements.remove(name) == null) {
        session.execute(new Object(), sql); // 26000 when PREPARE did not name it either
      }
      PgWriter.commandComplete(out, "DEALLOCATE");
      return;
    }
    String what = words.length == 2 ? words[1].toUpperCase(Locale.ROOT) : "";
    switch (what) {
      case "ALL" -> {
        if (session.inTransactionBlock()) {
          throw new AccelException(SqlState.ACTIVE_SQL_TRANSACTION, "DISCARD ALL cannot run inside a transaction block");
        }
        statements.clear();
        closeAllPortals();
        session.execute(new Object(), "DEALLOCATE ALL");
        session.execute(new Object(), "RESET ALL");
        reportChangedSettings();
      }
      case "PLANS", "SEQUENCES", "TEMP", "TEMPORARY" -> {
      }
      default -> throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error: DISCARD ALL | PLANS | SEQUENCES | TEMP");
    }
    PgWriter.commandComplete(out, "DISCARD " + (what.equals("TEMPORARY") ? "TEMP" : what));
  }

  private void complete(Portal portal, String tag) {
    portal.completedTag = tag;
    PgWriter.commandComplete(out, tag);
  }

  private void dataRow(Object row, List<ColumnMetaData> columns, int[] oids, boolean[] binary, ZoneId zone) {
    int n = columns.size();
    int at = PgWriter.begin(out, 'D');
    out.writeShort(n);
    for (int i = 0; i < n; i++) {
      Object v = n == 1 && !(row instanceof Object[]) ? row : ((Object[]) row)[i];
      if (v == null) {
        out.writeInt(-1);
      } else if (binary[i]) {
        PgTypes.writeBinary(out, oids[i], v);
      } else if (oids[i] == PgTypes.INT4 || oids[i] == PgTypes.INT8 || oids[i] == PgTypes.INT2) {
        writeDecimal(((Number) v).longValue());
      } else {
        writeText(PgText.format(v, columns.get(i), zone));
      }
    }
    PgWriter.end(out, at);
  }

  /*
   * A row's values are written straight into the reply's heap array after one capacity check per value: each
   * ByteBuf call checks bounds and the reference count, which cost more than the digits and characters.
   */

  /** An integer's text form with its length, written as ASCII digits without a String (the common column). */
  private void writeDecimal(long v) {
    if (v == Long.MIN_VALUE) {
      writeText(Long.toString(v));
      return;
    }
    int digits = 1;
    long magnitude = Math.abs(v);
    for (long p = 10; magnitude >= p && digits < 19; p *= 10) {
      digits++;
    }
    int length = digits + (v < 0 ? 1 : 0);
    out.ensureWritable(4 + length);
    byte[] a = out.array();
    int start = out.arrayOffset() + out.writerIndex();
    putInt(a, start, length);
    int p = start + 4;
    if (v < 0) {
      a[p] = '-';
    }
    for (int i = p + length - 1; i >= p + length - digits; i--) {
      a[i] = (byte) ('0' + magnitude % 10);
      magnitude /= 10;
    }
    out.writerIndex(out.writerIndex() + 4 + length);
  }

  /** A text value with its length in UTF-8; ASCII is copied char by char, anything else is encoded by Netty. */
  private void writeText(String s) {
    int n = s.length();
    out.ensureWritable(4 + n);
    byte[] a = out.array();
    int start = out.arrayOffset() + out.writerIndex();
    int p = start + 4;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        out.setInt(lengthAt, out.writeCharSequence(s, StandardCharsets.UTF_8));
        return;
      }
      a[p++] = (byte) c;
    }
    putInt(a, start, n);
    out.writerIndex(out.writerIndex() + 4 + n);
  }

  private static void putInt(byte[] a, int at, int v) {
    a[at] = (byte) (v >>> 24);
    a[at + 1] = (byte) (v >>> 16);
    a[at + 2] = (byte) (v >>> 8);
    a[at + 3] = (byte) v;
  }

  private static short format(short[] formats, int column) {
    return formats.length == 0 ? 0 : formats[formats.length == 1 ? 0 : column];
  }

  private void rowDescription(Statement statement, short[] formats) {
    Prepared prepared = statement.prepared;
    if (prepared == null || !prepared.returnsRows()) {
      PgWriter.simple(out, 'n');
      return;
    }
    List<ColumnMetaData> columns = prepared.columns();
    if (statement.origins == null || statement.origins.size() != columns.size()) {
      // in front of PostgreSQL the columns are named by the upstream's OIDs, not the mirror's
      statement.origins = link != null && router != null ? router.mirror().upstreamOrigins(columns)
          : session.columnOrigins(prepared);
    }
    int at = PgWriter.begin(out, 'T');
    out.writeShort(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      ColumnMetaData c = columns.get(i);
      int oid = statement.columnTypes[i];
      PgWriter.cstring(out, c.label != null ? c.label : c.columnName);
      out.writeInt(statement.origins.get(i).tableOid());
      out.writeShort(statement.origins.get(i).columnNumber());
      out.writeInt(oid);
      out.writeShort(PgTypes.size(oid));
      out.writeInt(PgTypes.typmod(oid, c.precision, c.scale));
      out.writeShort(format(formats, i));
    }
    PgWriter.end(out, at);
  }

  private void closeAllPortals() {
    for (Map.Entry<String, Portal> e : portals.entrySet()) {
      closePortal(e.getValue(), e.getKey());
    }
    portals.clear();
    localPortals.clear();
  }

  private void closePortal(Portal portal, String name) {
    if (portal.result != null) {
      portal.result.close();
      portal.result = null;
    }
    session.releaseStatement(name.isEmpty() ? portal : name);
  }

  /** PostgreSQL's command tag for a statement that ran, from its leading words. */
  static String tag(String words, Prepared prepared, long count, boolean failedCommit) {
    if (prepared.executed().isPresent()) {
      // EXECUTE reports the tag of the statement it ran, as PostgreSQL does
      return tag(firstWords(prepared.executed().get().sql(), 3), prepared.executed().get(), count, failedCommit);
    }
    String first = words.contains(" ") ? words.substring(0, words.indexOf(' ')) : words;
    if (prepared.kind() == Prepared.Kind.QUERY || prepared.kind() == Prepared.Kind.EXPLAIN) {
      return switch (first) {
        case "SHOW" -> "SHOW";
        case "EXPLAIN" -> "EXPLAIN";
        default -> "SELECT " + count;
      };
    }
    if (prepared.kind() == Prepared.Kind.DML) {
      Meta.StatementType type = prepared.signature().statementType;
      String verb = type == Meta.StatementType.INSERT ? "INSERT" : type == Meta.StatementType.UPDATE ? "UPDATE"
          : type == Meta.StatementType.DELETE ? "DELETE" : first;
      return verb.equals("INSERT") ? "INSERT 0 " + count : verb + " " + count;
    }
    if (prepared.createsTableFromQuery()) {
      return "SELECT " + count; // as PostgreSQL tags CREATE TABLE ... AS
    }
    String[] w = words.split(" ");
    return switch (first) {
      case "BEGIN" -> "BEGIN";
      case "START" -> "START TRANSACTION";
      case "COMMIT", "END" -> failedCommit ? "ROLLBACK" : "COMMIT";
      case "ROLLBACK", "ABORT" -> "ROLLBACK";
      case "CREATE", "DROP", "ALTER" -> first + " " + objectWord(w);
      case "TRUNCATE" -> "TRUNCATE TABLE";
      case "SET" -> w.length > 1 && w[1].equals("CONSTRAINTS") ? "SET CONSTRAINTS" : "SET";
      default -> first;
    };
  }

  /** The object kind after CREATE/DROP/ALTER, past modifiers (UNIQUE, UNLOGGED, TEMP, OR REPLACE). */
  private static String objectWord(String[] words) {
    for (int i = 1; i < words.length; i++) {
      switch (words[i]) {
        case "UNIQUE", "UNLOGGED", "TEMP", "TEMPORARY", "OR", "REPLACE", "GLOBAL", "LOCAL" -> {
        }
        default -> {
          return words[i];
        }
      }
    }
    return words.length > 1 ? words[1] : "";
  }

  /** The first {@code n} words of a statement, upper case, past comments and leading parentheses. */
  static String firstWords(String sql, int n) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    int len = sql.length();
    int words = 0;
    while (i < len) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (c == '-' && i + 1 < len && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? len : end + 1;
      } else if (c == '/' && i + 1 < len && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? len : end + 2;
      } else if (Character.isLetter(c)) {
        int start = i;
        while (i < len && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        if (b.length() > 0) {
          b.append(' ');
        }
        b.append(sql.substring(start, i).toUpperCase(Locale.ROOT));
        if (++words == n) {
          break;
        }
      } else {
        break;
      }
    }
    return b.toString();
  }

  /** ParameterStatus for what a statement changed (SET, RESET, set_config(), a ROLLBACK undoing a SET). */
  private void reportSettingsIfChanged() {
    if (link == null && session.settings().version() != reportedVersion) {
      reportChangedSettings();
    }
  }

  /** The settings version last reported with ParameterStatus. */
  private int reportedVersion = -1;

  private void reportChangedSettings() {
    reportedVersion = session.settings().version();
    for (String name : REPORTED) {
      String value = setting(name);
      if (!value.equals(reported.get(name))) {
        reported.put(name, value);
        PgWriter.parameterStatus(out, name, value);
      }
    }
  }

  // --- output

  private void publishMetrics() {
    ServerMetrics m = server.metrics();
    m.bytesIn(bytesIn);
    m.bytesOut(bytesOut);
    m.rows(rowsSent);
    for (Prepared.Kind kind : Prepared.Kind.values()) {
      m.statements(kind, statementsByKind[kind.ordinal()]);
      statementsByKind[kind.ordinal()] = 0;
    }
    bytesIn = 0;
    bytesOut = 0;
    rowsSent = 0;
    unpublished = 0;
  }

  private void readyForQuery() {
    if (unpublished >= 256) {
      publishMetrics();
    }
    if (link == null) {
      writeNotifications(); // what the statement's commit sent, before ReadyForQuery as PostgreSQL does
    }
    awaitingCommand = true;
    char status = link != null ? upstreamStatus
        : session == null || !session.inTransactionBlock() ? 'I' : session.failedTransaction() ? 'E' : 'T';
    PgWriter.readyForQuery(out, status);
    flush();
  }

  /**
   * NotificationResponse for each notification the session has received (standalone; fronting relays them), unless
   * the session is in a transaction block.
   */
  private void writeNotifications() {
    if (session == null || session.inTransactionBlock()) {
      return; // a listener in a transaction gets them once it ends, as in PostgreSQL
    }
    for (var n = session.pollNotification(); n.isPresent(); n = session.pollNotification()) {
      int at = PgWriter.begin(out, 'A');
      out.writeInt(n.get().processId());
      PgWriter.cstring(out, n.get().channel());
      PgWriter.cstring(out, n.get().payload());
      PgWriter.end(out, at);
    }
  }

  private void sendError(AccelException e) {
    if (e.state() == SqlState.INTERNAL_ERROR) {
      LOG.warn("internal error", e);
    }
    // the engine's message carries its detail in parentheses for embedded callers, who see only the message; a
    // PostgreSQL client shows the DETAIL field itself
    String message = e.messageWithoutPosition();
    String inline = e.detail() == null ? null : " (" + e.detail() + ")";
    if (inline != null && message.endsWith(inline)) {
      message = message.substring(0, message.length() - inline.length());
    }
    sendError(e.state().code(), message, e.detail(), e.hint(), e.position(), e.context());
  }

  private void sendError(String code, String message, String detail, String hint, int position) {
    sendError(code, message, detail, hint, position, null);
  }

  private void sendError(String code, String message, String detail, String hint, int position, String context) {
    server.metrics().error(code);
    if (session != null && !implicitBlock) {
      session.failTransaction(); // any error in a block aborts it, as in PostgreSQL
    }
    PgWriter.error(out, 'E', "ERROR", code, message, detail, hint, position, context);
  }

  private void notice(String severity, String code, String message) {
    PgWriter.error(out, 'N', severity, code, message, null, null, 0);
  }

  private void sendFatal(String code, String message) {
    if (closed || channel == null) {
      return;
    }
    PgWriter.error(out, 'E', "FATAL", code, message, null, null, 0);
    try {
      flush();
    } catch (Fatal closedMeanwhile) {
      // the client is gone: nothing to tell it
    }
  }

  /** Writes what is gathered; waits while the channel cannot take more (back-pressure). */
  private void flush() {
    if (out.readableBytes() == 0) {
      return;
    }
    bytesOut += out.readableBytes();
    // written on this thread: when the socket took it all, Netty has released its reference and the buffer
    // is used again; otherwise the rest waits in the channel and a new buffer takes the next replies
    out.retain();
    channel.writeAndFlush(out, channel.voidPromise());
    if (out.refCnt() == 1) {
      out.clear();
    } else {
      out.release();
      out = newReplyBuffer();
    }
    // the loop writes what the socket takes and reads meanwhile; rows are produced again once it drains
    while (!channel.isWritable() && channel.isActive() && !shutdownRequested) {
      loop.run(TimeUnit.MILLISECONDS.toNanos(100));
    }
    if (!channel.isActive()) {
      throw new Fatal("08006", "connection closed by the client");
    }
  }

  /**
   * The buffer replies are gathered in: on the heap, where a row's many small writes (digits, text) are array
   * stores; in a pooled direct buffer each went through a fresh NIO view. The transport copies it to a direct
   * buffer once per flush.
   */
  private ByteBuf newReplyBuffer() {
    return channel.alloc().heapBuffer(8192);
  }

  private void cleanUp() {
    publishMetrics();
    if (link != null) {
      link.close();
    }
    try {
      closeAllPortals();
    } catch (RuntimeException ignored) {
      // the session is closing anyway
    }
    portals.clear();
    statements.clear();
    if (session != null) {
      try {
        session.close();
      } catch (RuntimeException e) {
        LOG.warn("closing a session failed", e);
      }
      if (key != null) {
        server.unregister(key);
      }
    }
    server.release();
    if (out != null) {
      out.release();
      out = null;
    }
    closed = true;
    for (Object m; (m = current.poll()) != null; ) {
      if (m instanceof PgFrameDecoder.Frame f) {
        f.body().release();
      }
    }
    channel.close();
  }

  /** Ends the session after the message it handles now (server shutdown). */
  void shutdown() {
    loop.execute(() -> shutdownRequested = true); // wakes the loop if it waits for the client
  }

  int snapshotsHeld() {
    Session s = session;
    return s == null ? 0 : s.snapshotsHeld();
  }

  /** Stops the statement running now, if any (a CancelRequest with this connection's key). */
  void cancelRunning() {
    cancel.set(true);
    Session s = session;
    if (s != null) {
      s.cancel();
    }
    UpstreamLink l = link;
    if (l != null) {
      Thread t = new Thread(l::cancel, "accel-cancel-upstream");
      t.setDaemon(true);
      t.start();
    }
  }

  /** A NUL-terminated UTF-8 string from a message body. */
  static String cstring(ByteBuf body) {
    int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
    if (end < 0) {
      throw new BadMessage("invalid string in message");
    }
    String s = body.toString(body.readerIndex(), end - body.readerIndex(), StandardCharsets.UTF_8);
    body.readerIndex(end + 1);
    return s;
  }
}
