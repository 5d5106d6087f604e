package io.accel.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The MVCC rules of the row cache, driven by a hand-moved sequence number standing in for RocksDB's: which
 * snapshot may use which version, which installs are refused, and when superseded versions are freed.
 */
class RowCacheTest {
  private final AtomicLong sequence = new AtomicLong(100);
  private final RowCache cache = new RowCache(1 << 20, sequence::get);

  private static byte[] key(int k) {
    return ("k" + k).getBytes(StandardCharsets.UTF_8);
  }

  /** A stored row value (the cache does not look inside). */
  private static byte[] row(Object... values) {
    return java.util.Arrays.toString(values).getBytes(StandardCharsets.UTF_8);
  }

  /** Simulates a committed write to {@code keys}: marks, supersedes, moves the sequence, ends the commit. */
  private void commit(int... keys) {
    List<RowCache.Key> written = java.util.Arrays.stream(keys).mapToObj(k -> RowCache.key(1, key(k))).toList();
    RowCache.Commit c = cache.beginCommit(written);
    sequence.addAndGet(keys.length);
    c.end(true);
  }

  @Test
  void aRowInstalledAtASnapshotServesThatSnapshotAndLaterOnesNotEarlierOnes() {
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), 100, row(1L, "a"));
      assertThat(cache.get(1, key(1), 100)).isEqualTo(row(1L, "a"));
      assertThat(cache.get(1, key(1), 150)).isEqualTo(row(1L, "a"));
      assertThat(cache.get(1, key(1), 99)).isNull();
      assertThat(cache.get(2, key(1), 100)).as("another table's key").isNull();
      assertThat(cache.get(1, key(2), 100)).isNull();
    }
    assertThat(cache.stats().hitCount()).isEqualTo(2);
    assertThat(cache.stats().missCount()).isEqualTo(3);
  }

  @Test
  void aWriteSupersedesTheCachedVersionOlderSnapshotsKeepSeeingIt() {
    RowCache.Registration old = cache.register();
    cache.install(1, key(1), 100, row("v1"));
    commit(1); // commits at 101
    long after = sequence.get();
    assertThat(cache.get(1, key(1), 100)).as("the snapshot before the write").isEqualTo(row("v1"));
    assertThat(cache.get(1, key(1), after)).as("a snapshot after the write").isNull();

    // a reader at the old snapshot read the old row from RocksDB: it must not become current
    cache.install(1, key(1), 100, row("v1"));
    assertThat(cache.get(1, key(1), after)).isNull();
    // a reader after the write installs the new row
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), after, row("v2"));
      assertThat(cache.get(1, key(1), after)).isEqualTo(row("v2"));
      assertThat(cache.get(1, key(1), 100)).isEqualTo(row("v1"));
    }
    assertThat(cache.supersededVersions()).isEqualTo(1);
    old.close();
    cache.cleanUp();
    assertThat(cache.supersededVersions()).as("freed once the old snapshot closed").isZero();
    assertThat(cache.writeMarks()).isZero();
    assertThat(cache.get(1, key(1), after)).isEqualTo(row("v2"));
  }

  @Test
  void noInstallWhileAWriteIsPendingOrFromASnapshotBeforeItsCommit() {
    RowCache.Registration reader = cache.register(); // at 100
    RowCache.Commit c = cache.beginCommit(List.of(RowCache.key(1, key(7))));
    cache.install(1, key(7), 100, row("old"));
    assertThat(cache.get(1, key(7), 100)).as("pending write").isNull();
    sequence.incrementAndGet();
    c.end(true);
    cache.install(1, key(7), 100, row("old"));
    assertThat(cache.get(1, key(7), 100)).as("read before the commit").isNull();
    assertThat(cache.get(1, key(7), 101)).isNull();
    assertThat(cache.installs()).isZero();
    reader.close();
    cache.cleanUp();
    assertThat(cache.writeMarks()).isZero();
  }

  @Test
  void aFailedCommitLeavesNoMarkBehind() {
    cache.install(1, key(3), 100, row("same"));
    RowCache.Commit c = cache.beginCommit(List.of(RowCache.key(1, key(3))));
    c.end(false);
    cache.cleanUp();
    assertThat(cache.writeMarks()).isZero();
    cache.install(1, key(3), 100, row("same"));
    assertThat(cache.get(1, key(3), 100)).isEqualTo(row("same"));
  }

  @Test
  void anOlderReadNeverReplacesTheCurrentVersion() {
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), 100, row("v1"));
      commit(1);
      long s = sequence.get();
      cache.install(1, key(1), s, row("v2"));
      cache.install(1, key(1), 100, row("v1"));
      assertThat(cache.get(1, key(1), s)).isEqualTo(row("v2"));
      assertThat(cache.get(1, key(1), s + 10)).isEqualTo(row("v2"));
    }
  }

  @Test
  void concurrentFillsOfOneKeyInstallOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    try (RowCache.Registration r = cache.register()) {
      for (int t = 0; t < 8; t++) {
        long snapshot = 100 + t;
        pool.submit(() -> {
          start.await();
          cache.install(1, key(42), snapshot, row("x"));
          return null;
        });
      }
      start.countDown();
      pool.shutdown();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(cache.installs()).isEqualTo(1);
      assertThat(cache.get(1, key(42), 100)).as("valid from the oldest reader's snapshot").isEqualTo(row("x"));
    }
  }

  @Test
  void tooManyWriteMarksForAnOldSnapshotBecomeOneFloor() {
    RowCache capped = new RowCache(1 << 20, sequence::get, 10);
    RowCache.Registration old = capped.register(); // at 100, never closed while the writes go on
    for (int k = 0; k < 25; k++) {
      RowCache.Commit c = capped.beginCommit(List.of(RowCache.key(1, key(k))));
      sequence.incrementAndGet();
      c.end(true);
    }
    assertThat(capped.writeMarks()).isLessThanOrEqualTo(10);
    // a row read at the old snapshot may be stale (key 3 was written since): refused, mark or no mark
    capped.install(1, key(3), 100, row("stale"));
    assertThat(capped.get(1, key(3), sequence.get())).isNull();
    try (RowCache.Registration now = capped.register()) {
      capped.install(1, key(3), sequence.get(), row("fresh"));
      assertThat(capped.get(1, key(3), sequence.get())).isEqualTo(row("fresh"));
    }
    old.close();
  }

  @Test
  void aRowIsInstalledOnItsSecondMissOnly() {
    try (RowCache.Registration r = cache.register()) {
      cache.offer(1, key(1), 100, row("v"));
      assertThat(cache.get(1, key(1), 100)).as("first miss: marked only").isNull();
      cache.offer(1, key(1), 100, row("v"));
      assertThat(cache.get(1, key(1), 100)).isEqualTo(row("v"));
      assertThat(cache.installs()).isEqualTo(1);
    }
  }

  @Test
  void rowsReadOnceInAScanLargerThanTheCacheAreNeverInstalled() {
    RowCache small = new RowCache(64 << 10, sequence::get);
    try (RowCache.Registration r = small.register()) {
      for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < 20_000; i++) {
          small.offer(1, key(i), 100, row((long) i));
        }
      }
      // the doorkeeper forgets a key before the scan comes back to it; only hash collisions (at most an eighth
      // of the bits are set) get through
      assertThat(small.installs()).isLessThan(3 * 20_000 / 8);
    }
  }

  @Test
  void theCacheStaysWithinItsByteBound() {
    RowCache small = new RowCache(64 << 10, sequence::get);
    try (RowCache.Registration r = small.register()) {
      String payload = "p".repeat(200);
      for (int i = 0; i < 5_000; i++) {
        small.install(1, key(i), 100, row((long) i, payload));
      }
      small.cleanUp();
      assertThat(small.weightedBytes()).isPositive().isLessThanOrEqualTo(64 << 10);
      assertThat(small.entries()).isLessThan(5_000);
      assertThat(small.stats().evictionCount()).isPositive();
    }
  }

  @Test
  void aRowsWeightGrowsWithItsValues() {
    assertThat(RowCache.weigh(row(1L, "x".repeat(1000)))).isGreaterThan(1000);
    assertThat(RowCache.weigh(new byte[10])).isLessThan(RowCache.weigh(new byte[11]));
  }

  @Test
  void droppingATableForgetsItsRows() {
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), 100, row("t1"));
      cache.install(2, key(1), 100, row("t2"));
      cache.invalidateTable(1);
      assertThat(cache.get(1, key(1), 100)).isNull();
      assertThat(cache.get(2, key(1), 100)).isEqualTo(row("t2"));
    }
  }

  @Test
  void sizeAndHitRatioAreMeters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    cache.bindTo(registry, Tags.of("store", "mem:t"));
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), 100, row("v"));
      cache.get(1, key(1), 100);
      cache.get(1, key(1), 100);
      cache.get(1, key(2), 100);
    }
    cache.cleanUp();
    assertThat(registry.get("cache.gets").tags("cache", "accel.row", "result", "hit").functionCounter().count())
        .isEqualTo(2);
    assertThat(registry.get("cache.gets").tags("cache", "accel.row", "result", "miss").functionCounter().count())
        .isEqualTo(1);
    assertThat(registry.get("cache.puts").tags("cache", "accel.row").functionCounter().count()).isEqualTo(1);
    assertThat(registry.get("accel.row.cache.bytes").gauge().value()).isPositive();
    assertThat(registry.get("accel.row.cache.hit.ratio").gauge().value()).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aFailedCommitLeavesNoSupersededVersionBehind() {
    cache.install(1, key(1), 100, row("v1"));
    RowCache.Commit c = cache.beginCommit(List.of(RowCache.key(1, key(1))));
    // RocksDB refused the commit (a conflict): the sequence did not move, and nothing else commits after it
    c.end(false);
    cache.cleanUp();
    assertThat(cache.supersededVersions()).as("before, the version superseded at 101 stayed forever").isZero();
    assertThat(cache.writeMarks()).isZero();
    try (RowCache.Registration r = cache.register()) {
      cache.install(1, key(1), 100, row("v1"));
      assertThat(cache.get(1, key(1), 100)).as("the row is still current and can be cached again").isEqualTo(row("v1"));
    }
  }
}
