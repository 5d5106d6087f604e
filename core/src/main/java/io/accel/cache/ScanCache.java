package io.accel.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.catalog.TableDef;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The decoded rows of small tables, for full scans: a full scan decodes every row through three JNI calls
 * each (about 0.3 µs a row on this machine, where PostgreSQL's sequential scan takes about 0.1 µs), and the
 * small tables that queries scan whole (TPC-H's {@code part} in Q19, dimension tables, lookup lists) are
 * read again and again. An entry holds a table's rows as of one snapshot (its RocksDB sequence number);
 * the caller decides, from the store's per-table commit record, whether a reader's snapshot sees exactly
 * those rows ({@code Database.scanCacheUsable}). Bounded by bytes (estimated from the encoded rows); the
 * entry of a table is replaced when a reader finds it stale.
 */
public final class ScanCache {
  /** Tables with more rows than this (by their statistics) are scanned from RocksDB. */
  public static final long MAX_ROWS = 100_000;

  /** A table's rows in primary-key order as of snapshot {@code sequence}, for the definition {@code table}. */
  public record Entry(TableDef table, long sequence, Object[][] rows, long bytes) {
  }

  private final Cache<Long, Entry> entries;
  private final Counter hits;
  private final Counter misses;
  private final Counter builds;

  public ScanCache(long maxBytes, MeterRegistry meters, Tags tags) {
    this.entries = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .weigher((Long table, Entry e) -> (int) Math.min(Integer.MAX_VALUE, e.bytes()))
        .build();
    this.hits = Counter.builder("accel.scan.cache.hits").description("full scans served from decoded rows")
        .tags(tags).register(meters);
    this.misses = Counter.builder("accel.scan.cache.misses")
        .description("full scans of small tables that found no usable entry").tags(tags).register(meters);
    this.builds = Counter.builder("accel.scan.cache.builds").description("tables whose rows were cached")
        .tags(tags).register(meters);
    Gauge.builder("accel.scan.cache.bytes", entries, c -> c.asMap().values().stream().mapToLong(Entry::bytes).sum())
        .description("estimated bytes of the cached rows").tags(tags).register(meters);
  }

  public Entry get(long tableId) {
    return entries.getIfPresent(tableId);
  }

  public void put(long tableId, Entry entry) {
    builds.increment();
    entries.put(tableId, entry);
  }

  public void hit() {
    hits.increment();
  }

  public void miss() {
    misses.increment();
  }

  /** Drops every entry (tests, and a store closing). */
  public void clear() {
    entries.invalidateAll();
  }
}
