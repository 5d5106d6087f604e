package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Malformed, truncated, oversized and random messages, and the limits: none crashes or hangs the server or
 * disturbs another session, and nothing leaks (sessions, snapshots, Netty buffers: the leak detector runs
 * at PARANOID and reports to this test).
 */
class HostileInputTest {
  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void detectLeaks() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
      @Override
      public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
        return new ResourceLeakDetector<>(resource, samplingInterval) {
          @Override
          protected void reportTracedLeak(String type, String records) {
            LEAKS.add(type + records);
          }

          @Override
          protected void reportUntracedLeak(String type) {
            LEAKS.add(type);
          }
        };
      }
    });
  }

  @AfterAll
  static void restore() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
  }

  @Test
  void fuzzedMessagesLeaveTheServerWorking() throws Exception {
    try (TestServer s = new TestServer(ServerConfig.forTests(TestServer.store()).withLimits(100, 1 << 20, 0))) {
      try (Connection c = s.connect(); Statement st = c.createStatement()) {
        st.execute("create table steady(id int primary key, v int)");
        st.execute("insert into steady values (1, 0)");
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger steadyRounds = new AtomicInteger();
      List<Throwable> steadyFailures = new CopyOnWriteArrayList<>();
      Thread steady = new Thread(() -> {
        try (Connection c = s.connect(); Statement st = c.createStatement()) {
          while (!stop.get()) {
            st.executeUpdate("update steady set v = v + 1 where id = 1");
            try (ResultSet rs = st.executeQuery("select v from steady where id = 1")) {
              rs.next();
              steadyRounds.incrementAndGet();
            }
          }
        } catch (SQLException e) {
          steadyFailures.add(e);
        }
      });
      steady.start();
      Random random = new Random(42);
      List<byte[]> valid = validMessages();
      long end = System.currentTimeMillis() + 8_000;
      int connections = 0;
      while (System.currentTimeMillis() < end) {
        connections++;
        try (RawClient raw = new RawClient(s.port())) {
          raw.socket.setSoTimeout(3000);
          boolean login = random.nextInt(5) != 0;
          if (login) {
            raw.login("fuzz");
          }
          for (int i = 0; i < 20; i++) {
            raw.send(fuzzed(random, valid, login));
          }
          raw.send(RawClient.message('S', new byte[0]));
          readSome(raw);
        } catch (SocketException | java.net.SocketTimeoutException | java.io.EOFException e) {
          // the server may close a connection whose stream it can no longer frame
        }
      }
      stop.set(true);
      steady.join(30_000);
      assertThat(steadyFailures).isEmpty();
      assertThat(steadyRounds.get()).isGreaterThan(10);
      assertThat(connections).isGreaterThan(20);
      // every fuzzed session ends and gives back its snapshots
      long deadline = System.currentTimeMillis() + 10_000;
      while (s.meter("accel.server.sessions") > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(s.meter("accel.server.sessions")).isZero();
      assertThat(s.meter("accel.server.snapshots")).isZero();
      try (Connection c = s.connect(); ResultSet rs = c.createStatement().executeQuery("select v from steady")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(steadyRounds.get());
      }
    }
    for (int i = 0; i < 5; i++) {
      System.gc();
      ByteBufAllocator.DEFAULT.buffer(64).release(); // the detector reports what the GC found on allocation
      Thread.sleep(50);
    }
    assertThat(LEAKS).isEmpty();
  }

  private static void readSome(RawClient raw) throws IOException {
    for (int i = 0; i < 200; i++) {
      RawClient.Message m = raw.read();
      if (m.type() == 'Z') {
        return;
      }
    }
  }

  private static List<byte[]> validMessages() {
    List<byte[]> all = new ArrayList<>();
    all.add(RawClient.query("select 1"));
    all.add(RawClient.query("select * from steady"));
    ByteArrayOutputStream parse = new ByteArrayOutputStream();
    RawClient.cstring(parse, "s1");
    RawClient.cstring(parse, "select v from steady where id = $1");
    parse.write(0);
    parse.write(1);
    RawClient.writeInt(parse, 23);
    all.add(RawClient.message('P', parse.toByteArray()));
    ByteArrayOutputStream bind = new ByteArrayOutputStream();
    RawClient.cstring(bind, "");
    RawClient.cstring(bind, "s1");
    bind.writeBytes(new byte[] {0, 1, 0, 1, 0, 1});
    RawClient.writeInt(bind, 4);
    RawClient.writeInt(bind, 1);
    bind.writeBytes(new byte[] {0, 0});
    all.add(RawClient.message('B', bind.toByteArray()));
    ByteArrayOutputStream exec = new ByteArrayOutputStream();
    RawClient.cstring(exec, "");
    RawClient.writeInt(exec, 1);
    all.add(RawClient.message('E', exec.toByteArray()));
    all.add(RawClient.message('D', new byte[] {'S', 's', '1', 0}));
    all.add(RawClient.message('C', new byte[] {'P', 0}));
    all.add(RawClient.message('H', new byte[0]));
    return all;
  }

  /** A valid message, a mutated one (bytes flipped, truncated, length lies), or random bytes. */
  private static byte[] fuzzed(Random random, List<byte[]> valid, boolean login) {
    byte[] base = valid.get(random.nextInt(valid.size())).clone();
    switch (random.nextInt(login ? 6 : 3)) {
      case 0 -> {
        byte[] junk = new byte[random.nextInt(64)];
        random.nextBytes(junk);
        return junk;
      }
      case 1 -> {
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
          int at = base.length > 5 ? 5 + random.nextInt(base.length - 5) : random.nextInt(base.length);
          base[at] ^= (byte) (1 << random.nextInt(8));
        }
        return base;
      }
      case 2 -> {
        int len = random.nextInt(2) == 0 ? random.nextInt(1 << 30) : -random.nextInt(100);
        base[1] = (byte) (len >>> 24);
        base[2] = (byte) (len >>> 16);
        base[3] = (byte) (len >>> 8);
        base[4] = (byte) len;
        return base;
      }
      case 3 -> {
        byte[] cut = new byte[Math.max(5, random.nextInt(base.length))];
        System.arraycopy(base, 0, cut, 0, cut.length);
        int len = cut.length - 1;
        cut[1] = (byte) (len >>> 24);
        cut[2] = (byte) (len >>> 16);
        cut[3] = (byte) (len >>> 8);
        cut[4] = (byte) len;
        return cut;
      }
      default -> {
        return base;
      }
    }
  }

  @Test
  void oversizedMessageIsAnErrorThenTheConnectionCloses() throws Exception {
    try (TestServer s = new TestServer(ServerConfig.forTests(TestServer.store()).withLimits(100, 4096, 0));
         RawClient raw = new RawClient(s.port())) {
      raw.login("big");
      raw.send(RawClient.query("select '" + "x".repeat(10_000) + "'"));
      List<RawClient.Message> reply = raw.readUntilReady();
      assertThat(reply).anySatisfy(m -> {
        assertThat(m.type()).isEqualTo('E');
        assertThat(m.field('C')).isEqualTo("54000");
        assertThat(m.field('S')).isEqualTo("FATAL");
      });
      assertThat(raw.socket.getInputStream().read()).isEqualTo(-1);
      try (Connection c = s.connect(); ResultSet rs = c.createStatement().executeQuery("select 1")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void tooManyConnectionsIs53300() throws Exception {
    try (TestServer s = new TestServer(ServerConfig.forTests(TestServer.store()).withLimits(2, 1 << 20, 0));
         Connection a = s.connect(); Connection b = s.connect()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(s::connect)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53300"));
      a.close();
      long deadline = System.currentTimeMillis() + 5000;
      Connection c = null;
      while (c == null) {
        try {
          c = s.connect();
        } catch (SQLException e) {
          if (System.currentTimeMillis() > deadline) {
            throw e;
          }
          Thread.sleep(20);
        }
      }
      c.close();
      assertThat(b.isValid(2)).isTrue();
    }
  }

  @Test
  void idleSessionTimeoutIs57P05() throws Exception {
    try (TestServer s = new TestServer(ServerConfig.forTests(TestServer.store()).withLimits(10, 1 << 20, 300));
         RawClient raw = new RawClient(s.port())) {
      raw.login("idle");
      RawClient.Message m = raw.read();
      assertThat(m.type()).isEqualTo('E');
      assertThat(m.field('C')).isEqualTo("57P05");
      assertThat(raw.socket.getInputStream().read()).isEqualTo(-1);
    }
  }

  @Test
  void extendedErrorsSkipToSync() throws Exception {
    try (TestServer s = new TestServer(); RawClient raw = new RawClient(s.port())) {
      raw.login("ext");
      ByteArrayOutputStream bind = new ByteArrayOutputStream();
      RawClient.cstring(bind, "");
      RawClient.cstring(bind, "nope");
      bind.writeBytes(new byte[] {0, 0, 0, 0, 0, 0});
      ByteArrayOutputStream exec = new ByteArrayOutputStream();
      RawClient.cstring(exec, "");
      RawClient.writeInt(exec, 0);
      raw.send(RawClient.message('B', bind.toByteArray()));
      raw.send(RawClient.message('E', exec.toByteArray())); // skipped: an error came before it
      raw.send(RawClient.message('S', new byte[0]));
      List<RawClient.Message> reply = raw.readUntilReady();
      assertThat(reply).extracting(RawClient.Message::type).containsExactly('E', 'Z');
      assertThat(reply.get(0).field('C')).isEqualTo("26000");
      assertThat(reply.get(1).text()).isEqualTo("I");
      raw.send(RawClient.query(""));
      assertThat(raw.readUntilReady()).extracting(RawClient.Message::type).containsExactly('I', 'Z');
      raw.send(RawClient.query("begin; select 1/0"));
      List<RawClient.Message> failed = raw.readUntilReady();
      assertThat(failed.get(failed.size() - 1).text()).isEqualTo("E");
      raw.send(RawClient.query("rollback"));
      List<RawClient.Message> rolledBack = raw.readUntilReady();
      assertThat(rolledBack.get(0).text()).startsWith("ROLLBACK");
      assertThat(rolledBack.get(rolledBack.size() - 1).text()).isEqualTo("I");
    }
  }

  /** {@code $1} written twice is one parameter, as in PostgreSQL: one value binds both places. */
  @Test
  void aRepeatedParameterIsOneParameter() throws Exception {
    try (TestServer s = new TestServer(); RawClient raw = new RawClient(s.port())) {
      raw.login("rep");
      ByteArrayOutputStream parse = new ByteArrayOutputStream();
      RawClient.cstring(parse, "");
      RawClient.cstring(parse, "select cast($1 as int) + cast($1 as int) as twice");
      parse.writeBytes(new byte[] {0, 0});
      ByteArrayOutputStream describe = new ByteArrayOutputStream();
      describe.write('S');
      RawClient.cstring(describe, "");
      ByteArrayOutputStream bind = new ByteArrayOutputStream();
      RawClient.cstring(bind, "");
      RawClient.cstring(bind, "");
      bind.writeBytes(new byte[] {0, 0, 0, 1});
      RawClient.writeInt(bind, 2);
      bind.writeBytes("21".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      bind.writeBytes(new byte[] {0, 0});
      ByteArrayOutputStream exec = new ByteArrayOutputStream();
      RawClient.cstring(exec, "");
      RawClient.writeInt(exec, 0);
      raw.send(RawClient.message('P', parse.toByteArray()));
      raw.send(RawClient.message('D', describe.toByteArray()));
      raw.send(RawClient.message('B', bind.toByteArray()));
      raw.send(RawClient.message('E', exec.toByteArray()));
      raw.send(RawClient.message('S', new byte[0]));
      List<RawClient.Message> reply = raw.readUntilReady();
      assertThat(reply).extracting(RawClient.Message::type).containsExactly('1', 't', 'T', '2', 'D', 'C', 'Z');
      assertThat(reply.get(1).body()[1]).isEqualTo((byte) 1); // ParameterDescription: one parameter
      byte[] row = reply.get(4).body();
      assertThat(new String(row, 6, row.length - 6, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("42");
    }
  }
}
