package io.accel.cursor;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Suspended cursors of paged queries, ScyllaDB's querier cache for SQL: after {@code LIMIT n OFFSET k} has
 * returned its page, the cursor of the query it pages waits here under (query, parameters, k + n), so the
 * next page resumes it instead of reading and discarding k + n rows again. One per store, shared by its
 * sessions (a pooled application asks for page 2 on another connection than page 1).
 *
 * <p>An entry pins its snapshot, so entries are bounded three ways: by time (an abandoned cursor is closed
 * after {@code ttl}), by memory (a byte budget, each entry weighing an estimate of its iterators and
 * buffers) and by permits (each session keeps at most its {@code cursorCacheSize} cursors suspended; past
 * that a cursor is closed instead of suspended). Whether an entry may be used (no commit touched what it
 * reads) is the caller's decision ({@link Entry#valid}). Meters, named after ScyllaDB's:
 * {@code accel.cursor.lookups}, {@code .misses}, {@code .drops} (found but stale), {@code .evictions} with
 * {@code reason=time|memory|permit}, and the gauge {@code accel.cursor.population}.
 */
public final class CursorCache implements AutoCloseable {
  /** What a suspended cursor answers: a query text, its parameter values, and the rows already returned. */
  public record Key(String sql, List<Object> parameters, long position) {
  }

  /** A suspended cursor and what it needs to be closed and validated. */
  public interface Entry {
    /** Whether resuming it returns what re-executing the query now would. */
    boolean valid();

    /** Closes the cursor and releases its snapshot. */
    void close();

    /** The permits of the session that suspended it. */
    AtomicInteger permits();
  }

  /** Bytes one suspended cursor is taken to hold: RocksDB iterators with their blocks, rows read ahead. */
  static final long ENTRY_BYTES = 64 << 10;

  private final Cache<Key, Entry> cache;
  private final Counter lookups;
  private final Counter misses;
  private final Counter drops;
  private final Counter timeEvictions;
  private final Counter memoryEvictions;
  private final Counter permitEvictions;
  private final MeterRegistry registry;
  private final Gauge population;

  public CursorCache(Duration ttl, long maxBytes, MeterRegistry registry, Tags tags) {
    this.registry = registry;
    this.cache = Caffeine.newBuilder()
        .expireAfterWrite(ttl)
        .maximumWeight(maxBytes)
        .weigher((Key k, Entry e) -> (int) Math.min(Integer.MAX_VALUE, ENTRY_BYTES))
        .scheduler(Scheduler.systemScheduler())
        .executor(Runnable::run)
        .removalListener(this::removed)
        .build();
    this.lookups = Counter.builder("accel.cursor.lookups").tags(tags)
        .description("paged queries that looked for a suspended cursor").register(registry);
    this.misses = Counter.builder("accel.cursor.misses").tags(tags)
        .description("paged queries that found no suspended cursor and executed").register(registry);
    this.drops = Counter.builder("accel.cursor.drops").tags(tags)
        .description("suspended cursors found but not usable: a commit touched what they read").register(registry);
    this.timeEvictions = eviction(tags, "time");
    this.memoryEvictions = eviction(tags, "memory");
    this.permitEvictions = eviction(tags, "permit");
    this.population = Gauge.builder("accel.cursor.population", cache, Cache::estimatedSize).tags(tags)
        .description("suspended cursors").register(registry);
  }

  private Counter eviction(Tags tags, String reason) {
    return Counter.builder("accel.cursor.evictions").tags(tags).tag("reason", reason)
        .description("suspended cursors closed before they were resumed").register(registry);
  }

  private void removed(Key key, Entry entry, RemovalCause cause) {
    if (entry == null || cause == RemovalCause.EXPLICIT) {
      return; // taken by a session (which now owns it), or closed by close()
    }
    entry.permits().decrementAndGet();
    entry.close();
    if (cause == RemovalCause.EXPIRED) {
      timeEvictions.increment();
    } else if (cause == RemovalCause.SIZE) {
      memoryEvictions.increment();
    }
  }

  /**
   * Takes the cursor suspended under {@code key}, if any and still valid; the caller then owns it. A stale
   * one is closed (a drop). Counts the lookup and, when nothing usable was found, the miss.
   */
  public Entry take(Key key) {
    lookups.increment();
    Entry entry = cache.asMap().remove(key);
    if (entry != null) {
      entry.permits().decrementAndGet();
      if (entry.valid()) {
        return entry;
      }
      drops.increment();
      entry.close();
    }
    misses.increment();
    return null;
  }

  /**
   * Suspends {@code entry} under {@code key}; when its session already keeps {@code maxPerSession} cursors
   * it is closed instead (a permit eviction).
   */
  public void suspend(Key key, Entry entry, int maxPerSession) {
    if (entry.permits().incrementAndGet() > maxPerSession) {
      entry.permits().decrementAndGet();
      permitEvictions.increment();
      entry.close();
      return;
    }
    Entry previous = cache.asMap().put(key, entry);
    if (previous != null && previous != entry) {
      // another session suspended the same page of the same query: keep the newer cursor
      previous.permits().decrementAndGet();
      previous.close();
    }
  }

  /** Closes the suspended cursors of one session (it is closing), or all of them ({@code permits} null). */
  public void closeAll(AtomicInteger permits) {
    for (Key key : List.copyOf(cache.asMap().keySet())) {
      Entry e = cache.asMap().get(key);
      if (e != null && (permits == null || e.permits() == permits) && cache.asMap().remove(key, e)) {
        e.permits().decrementAndGet();
        e.close();
      }
    }
  }

  /** Runs pending expirations now (tests). */
  public void cleanUp() {
    cache.cleanUp();
  }

  @Override
  public void close() {
    closeAll(null);
    registry.remove(population);
  }
}
