package io.accel.cursor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The cache's own rules: taking, staleness, and each eviction reason with its counter. */
class CursorCacheTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private static final class FakeEntry implements CursorCache.Entry {
    final AtomicInteger permits;
    boolean valid = true;
    boolean closed;

    FakeEntry(AtomicInteger permits) {
      this.permits = permits;
    }

    @Override
    public boolean valid() {
      return valid;
    }

    @Override
    public void close() {
      closed = true;
    }

    @Override
    public AtomicInteger permits() {
      return permits;
    }
  }

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  private static CursorCache.Key key(long position) {
    return new CursorCache.Key("SELECT 1", List.of(), position);
  }

  @Test
  void aSuspendedCursorIsTakenOnceAndAStaleOneIsDropped() {
    CursorCache cache = new CursorCache(Duration.ofMinutes(1), 1 << 30, registry, Tags.empty());
    AtomicInteger permits = new AtomicInteger();
    FakeEntry e = new FakeEntry(permits);
    cache.suspend(key(10), e, 5);
    assertThat(permits.get()).isEqualTo(1);
    assertThat(cache.take(key(20))).isNull();
    assertThat(cache.take(key(10))).isSameAs(e);
    assertThat(cache.take(key(10))).isNull();
    assertThat(permits.get()).isZero();
    assertThat(e.closed).isFalse();
    FakeEntry stale = new FakeEntry(permits);
    stale.valid = false;
    cache.suspend(key(30), stale, 5);
    assertThat(cache.take(key(30))).isNull();
    assertThat(stale.closed).isTrue();
    assertThat(count("accel.cursor.lookups")).isEqualTo(4);
    assertThat(count("accel.cursor.misses")).isEqualTo(3);
    assertThat(count("accel.cursor.drops")).isEqualTo(1);
    cache.close();
  }

  @Test
  void evictionsByPermitMemoryAndTime() throws Exception {
    CursorCache cache = new CursorCache(Duration.ofMillis(300), 2 * CursorCache.ENTRY_BYTES, registry, Tags.empty());
    AtomicInteger session = new AtomicInteger();
    FakeEntry a = new FakeEntry(session);
    FakeEntry b = new FakeEntry(session);
    FakeEntry c = new FakeEntry(session);
    cache.suspend(key(1), a, 2);
    cache.suspend(key(2), b, 2);
    cache.suspend(key(3), c, 2);
    assertThat(c.closed).as("a third cursor of a session allowed two is closed").isTrue();
    assertThat(count("accel.cursor.evictions", "reason", "permit")).isEqualTo(1);
    AtomicInteger other = new AtomicInteger();
    FakeEntry d = new FakeEntry(other);
    cache.suspend(key(4), d, 2);
    cache.cleanUp();
    assertThat(count("accel.cursor.evictions", "reason", "memory")).isEqualTo(1);
    assertThat(List.of(a, b, d).stream().filter(x -> x.closed).count()).isEqualTo(1);
    Thread.sleep(600);
    cache.cleanUp();
    assertThat(count("accel.cursor.evictions", "reason", "time")).isEqualTo(2);
    assertThat(a.closed && b.closed && d.closed).isTrue();
    assertThat(session.get() + other.get()).isZero();
    assertThat(registry.get("accel.cursor.population").gauge().value()).isZero();
    cache.close();
  }
}
