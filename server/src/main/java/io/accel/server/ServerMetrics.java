package io.accel.server;

import io.accel.exec.Prepared;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The server's meters ({@code accel.server.*}): connections, statements by kind, bytes, rows, errors, buffers. */
final class ServerMetrics {
  private final MeterRegistry registry;
  private final AtomicInteger open = new AtomicInteger();
  private final Counter accepted;
  private final Counter authenticated;
  private final Counter bytesIn;
  private final Counter bytesOut;
  private final Counter rows;
  private final Counter suspended;
  private final Map<Prepared.Kind, Counter> statements = new EnumMap<>(Prepared.Kind.class);

  ServerMetrics(MeterRegistry registry, AccelServer server) {
    this.registry = registry;
    Gauge.builder("accel.server.connections", open, AtomicInteger::get)
        .description("client connections open now").register(registry);
    Gauge.builder("accel.server.sessions", server, AccelServer::sessionCount)
        .description("authenticated sessions open now").register(registry);
    Gauge.builder("accel.server.snapshots", server, AccelServer::snapshotsHeld)
        .description("snapshots the server's sessions hold now").register(registry);
    accepted = Counter.builder("accel.server.connections.accepted").register(registry);
    authenticated = Counter.builder("accel.server.connections.authenticated").register(registry);
    bytesIn = Counter.builder("accel.server.bytes").tag("direction", "in").baseUnit("bytes").register(registry);
    bytesOut = Counter.builder("accel.server.bytes").tag("direction", "out").baseUnit("bytes").register(registry);
    rows = Counter.builder("accel.server.rows").description("data rows sent").register(registry);
    suspended = Counter.builder("accel.server.portal.suspended")
        .description("Executes that stopped at their row limit (PortalSuspended)").register(registry);
    for (Prepared.Kind kind : Prepared.Kind.values()) {
      statements.put(kind, Counter.builder("accel.server.statements").tag("kind", kind.name().toLowerCase())
          .register(registry));
    }
    PooledByteBufAllocatorMetric netty = PooledByteBufAllocator.DEFAULT.metric();
    Gauge.builder("accel.server.netty.memory.used", netty, PooledByteBufAllocatorMetric::usedDirectMemory)
        .tag("area", "direct").baseUnit("bytes").register(registry);
    Gauge.builder("accel.server.netty.memory.used", netty, PooledByteBufAllocatorMetric::usedHeapMemory)
        .tag("area", "heap").baseUnit("bytes").register(registry);
  }

  void connectionOpened() {
    open.incrementAndGet();
    accepted.increment();
  }

  void connectionClosed() {
    open.decrementAndGet();
  }

  void authenticated() {
    authenticated.increment();
  }

  void bytesIn(long n) {
    if (n > 0) {
      bytesIn.increment(n);
    }
  }

  void bytesOut(long n) {
    if (n > 0) {
      bytesOut.increment(n);
    }
  }

  void rows(long n) {
    if (n > 0) {
      rows.increment(n);
    }
  }

  void portalSuspended() {
    suspended.increment();
  }

  void statements(Prepared.Kind kind, long n) {
    if (n > 0) {
      statements.get(kind).increment(n);
    }
  }

  void error(String sqlState) {
    registry.counter("accel.server.errors", "sqlstate", sqlState).increment();
  }
}
