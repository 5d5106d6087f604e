package io.accel.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay between Accel and PostgreSQL that a test can stall or cut: {@link #stallReplication} holds back
 * the bytes of replication connections (their startup message asks for {@code replication}), so the mirror falls
 * behind while ordinary queries still pass; {@link #stop} closes every connection and refuses new ones, as a
 * stopped upstream does; {@link #start} listens again on the same port.
 */
final class UpstreamProxy implements AutoCloseable {
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket listener;
  private volatile boolean replicationStalled;
  private int port;

  UpstreamProxy(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    this.targetHost = hostPort.substring(0, colon);
    this.targetPort = Integer.parseInt(hostPort.substring(colon + 1));
  }

  /** Listens (on the port of the first start, when started again) and relays each connection. */
  synchronized UpstreamProxy start() throws IOException {
    ServerSocket server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    port = server.getLocalPort();
    listener = server;
    Thread accept = new Thread(() -> accept(server), "upstream-proxy-accept");
    accept.setDaemon(true);
    accept.start();
    return this;
  }

  int port() {
    return port;
  }

  void stallReplication(boolean stalled) {
    replicationStalled = stalled;
  }

  /** Closes the listener and every relayed connection. */
  synchronized void stop() throws IOException {
    ServerSocket server = listener;
    if (server != null) {
      server.close();
    }
    for (Socket s : sockets) {
      s.close();
    }
    sockets.clear();
  }

  @Override
  public void close() throws IOException {
    stop();
  }

  private void accept(ServerSocket server) {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(upstream);
        boolean[] replication = new boolean[1];
        pump(client, upstream, replication, true);
        pump(upstream, client, replication, false);
      } catch (IOException e) {
        return; // closed by stop()
      }
    }
  }

  private void pump(Socket from, Socket to, boolean[] replication, boolean fromClient) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16384];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        boolean startupSeen = false;
        while ((n = in.read(buffer)) > 0) {
          if (fromClient && !startupSeen) {
            // the startup message (after an optional SSLRequest) names its parameters in plain text
            String text = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
            startupSeen = text.contains("user");
            replication[0] |= text.contains("replication");
          }
          while (replication[0] && replicationStalled && !to.isClosed()) {
            Thread.sleep(20);
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // a side closed: close the other too
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "upstream-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
