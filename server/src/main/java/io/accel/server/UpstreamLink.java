package io.accel.server;

import io.netty.buffer.ByteBuf;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One client connection's own connection to the upstream PostgreSQL, spoken at the protocol level: the server
 * relays the client's messages to it byte for byte and its replies back, so what goes upstream behaves exactly
 * as PostgreSQL does (errors, notices, COPY, types, authentication). Blocking I/O on the connection's thread, as
 * a PostgreSQL backend would wait for its client.
 */
final class UpstreamLink implements AutoCloseable {
  /** The largest upstream message relayed; PostgreSQL's own limit for a field is 1 GB. */
  private static final int MAX_MESSAGE = (1 << 30) + 1024;
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  /** A message from the upstream: its type and its body (without the length word). */
  record Message(char type, byte[] body) {
  }

  private final String host;
  private final int port;
  private final UpstreamTls tls;
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  /** The upstream backend's BackendKeyData, for forwarding a client's CancelRequest. */
  private int pid;
  private int secret;
  /**
   * Watching an idle link (a client that listens): a thread of the link's own waits for the upstream's next byte
   * without consuming it (mark, read, reset) and wakes the connection, which relays what came at once.
   */
  private final Object watch = new Object();
  private Thread watcher;
  private boolean armed;
  private boolean watching;
  private volatile boolean arrived;
  private volatile boolean closed;

  private UpstreamLink(String host, int port, UpstreamTls tls, Socket socket) throws IOException {
    this.host = host;
    this.port = port;
    this.tls = tls;
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 65536));
    this.out = new BufferedOutputStream(socket.getOutputStream(), 65536);
  }

  /**
   * Connects, negotiating TLS as {@code tls} says ({@code plain}: no SSLRequest, allow's first attempt); an
   * unreachable upstream, one refusing TLS that is required or a certificate failing verification is an
   * IOException naming host and port.
   */
  static UpstreamLink connect(String host, int port, UpstreamTls tls, boolean plain) throws IOException {
    return new UpstreamLink(host, port, tls, open(host, port, tls, plain));
  }

  /** Whether this link speaks TLS. */
  boolean encrypted() {
    return socket instanceof SSLSocket;
  }

  private static Socket open(String host, int port, UpstreamTls tls, boolean plain) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
      if (plain || tls.mode() == UpstreamTls.Mode.DISABLE) {
        return s;
      }
      // SSLRequest; the answer is one byte, and an upstream that never answers must not hang the client
      s.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
      OutputStream o = s.getOutputStream();
      o.write(new byte[] {0, 0, 0, 8, 0x04, (byte) 0xd2, 0x16, 0x2f});
      o.flush();
      int answer = s.getInputStream().read();
      if (answer == 'N') {
        if (tls.mode().required()) {
          throw new IOException("server does not support SSL, but SSL was required (sslmode "
              + tls.mode().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ")");
        }
        s.setSoTimeout(0);
        return s;
      }
      if (answer != 'S') {
        throw new IOException("received invalid response to SSL negotiation: " + answer);
      }
      SSLSocket ssl = (SSLSocket) tls.context().getSocketFactory().createSocket(s, host, port, true);
      if (tls.mode() == UpstreamTls.Mode.VERIFY_FULL) {
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host (or its IP)
        ssl.setSSLParameters(parameters);
      }
      try {
        ssl.startHandshake();
      } catch (SSLException e) {
        throw new IOException("SSL error: " + e.getMessage(), e);
      }
      ssl.setSoTimeout(0);
      return ssl;
    } catch (IOException e) {
      s.close();
      throw new IOException("cannot connect to the upstream PostgreSQL at " + host + ":" + port + ": "
          + e.getMessage(), e);
    }
  }

  /** The startup message (protocol 3.0) with the client's parameters. */
  void startup(Map<String, String> parameters) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      if (e.getKey().startsWith("_pq_.")) {
        continue; // protocol extensions: this server negotiated them with the client itself
      }
      b.writeBytes(e.getKey().getBytes(StandardCharsets.UTF_8));
      b.write(0);
      b.writeBytes(e.getValue().getBytes(StandardCharsets.UTF_8));
      b.write(0);
    }
    b.write(0);
    writeInt(8 + b.size());
    writeInt(196608);
    out.write(b.toByteArray());
    out.flush();
  }

  /** Sends one message: {@code type}, then {@code body}'s readable bytes (left unread). */
  void send(char type, ByteBuf body) throws IOException {
    int n = body.readableBytes();
    out.write(type);
    writeInt(n + 4);
    body.getBytes(body.readerIndex(), out, n);
  }

  void send(char type, byte[] body) throws IOException {
    out.write(type);
    writeInt(body.length + 4);
    out.write(body);
  }

  void flush() throws IOException {
    out.flush();
  }

  /** Whether a reply has (at least partly) arrived: reading it will not wait for the upstream to work. */
  boolean ready() throws IOException {
    synchronized (watch) {
      if (armed || watching) {
        return arrived; // the watcher holds the input until something comes
      }
    }
    return in.available() > 0;
  }

  /**
   * Starts watching the idle link: {@code wake} runs (on the watcher's thread) once the upstream sends something,
   * then {@link #arrived()} is true. Reading takes the link back.
   */
  void watch(Runnable wake) throws IOException {
    out.flush();
    synchronized (watch) {
      if (armed || watching) {
        return;
      }
      arrived = false;
      armed = true;
      if (watcher == null) {
        watcher = new Thread(() -> watchLoop(wake), "accel-upstream-watch-" + port);
        watcher.setDaemon(true);
        watcher.start();
      }
      watch.notifyAll();
    }
  }

  /** Whether the upstream sent something while watched. */
  boolean arrived() {
    return arrived;
  }

  private void watchLoop(Runnable wake) {
    while (true) {
      synchronized (watch) {
        while (!armed && !closed) {
          try {
            watch.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        watching = true;
      }
      try {
        in.mark(1);
        in.read();
        in.reset();
      } catch (IOException e) {
        // closed, or lost: the connection's own read reports it
      }
      synchronized (watch) {
        watching = false;
        armed = false;
        arrived = true;
        watch.notifyAll();
        if (closed) {
          return;
        }
      }
      try {
        wake.run();
      } catch (RuntimeException e) {
        return; // the connection's loop has ended: nobody to wake
      }
    }
  }

  /** Takes the input back from the watcher; it returns once the upstream sent something (what was sent is flushed). */
  private void unwatch() throws IOException {
    out.flush();
    synchronized (watch) {
      armed = false;
      while (watching) {
        try {
          watch.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for the upstream");
        }
      }
    }
  }

  /** The next message; waits for it. */
  Message read() throws IOException {
    unwatch();
    arrived = false;
    int type = in.read();
    if (type < 0) {
      throw new EOFException("the upstream PostgreSQL closed the connection");
    }
    int length = in.readInt();
    if (length < 4 || length > MAX_MESSAGE) {
      throw new IOException("invalid message length " + length + " from the upstream PostgreSQL");
    }
    byte[] body = new byte[length - 4];
    in.readFully(body);
    if (type == 'K' && body.length >= 8) {
      pid = ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8) | (body[3] & 0xff);
      secret = ((body[4] & 0xff) << 24) | ((body[5] & 0xff) << 16) | ((body[6] & 0xff) << 8) | (body[7] & 0xff);
    }
    return new Message((char) type, body);
  }

  /** Asks the upstream to cancel what this link's backend runs (a CancelRequest on a connection of its own). */
  void cancel() {
    if (pid == 0) {
      return;
    }
    // over TLS when this link is: an upstream that takes TLS only may refuse a plain CancelRequest
    try (Socket s = open(host, port, tls, !encrypted())) {
      java.io.DataOutputStream o = new java.io.DataOutputStream(s.getOutputStream());
      o.writeInt(16);
      o.writeInt(80877102);
      o.writeInt(pid);
      o.writeInt(secret);
      o.flush();
      s.getInputStream().read(); // the upstream closes the connection once it has the request
    } catch (IOException e) {
      // the statement runs on; the client may cancel again
    }
  }

  private void writeInt(int v) throws IOException {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }

  /** Terminate, then close. */
  @Override
  public void close() {
    synchronized (watch) {
      closed = true;
      watch.notifyAll();
    }
    try {
      out.write('X');
      writeInt(4);
      out.flush();
    } catch (IOException e) {
      // closing anyway
    }
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }
}
