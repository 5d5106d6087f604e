package io.accel.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.catalog.TableDef;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The decoded rows of tables that queries scan whole, for full scans: a full scan reads every row through three
 * JNI calls each (about 0.3 µs a row on this machine, where PostgreSQL's sequential scan takes about 0.1 µs), and
 * the tables queries scan whole (TPC-H's {@code part} in Q19, dimension tables, the tables of reporting joins) are
 * read again and again. An entry holds a table's rows by column ({@link ColumnarRows}) as of one snapshot (its
 * RocksDB sequence number); the caller decides, from the store's per-table commit record, whether a reader's
 * snapshot sees exactly those rows ({@code Database.scanCacheUsable}). Small tables are cached by their first full
 * scan; larger ones by a full scan that reads to the end. Bounded by estimated heap bytes; a table whose rows would
 * take more than the whole bound is not cached; the entry of a table is replaced when a reader finds it stale.
 */
public final class ScanCache {
  /**
   * Tables of at most this many rows (by their statistics) are cached before their first full scan reads them;
   * larger ones while a full scan reads them to the end (a scan stopped by a LIMIT caches nothing).
   */
  public static final long SMALL_ROWS = 100_000;

  /** A table's rows in primary-key order as of snapshot {@code sequence}, for the definition {@code table}. */
  public record Entry(TableDef table, long sequence, ColumnarRows rows) {
    long bytes() {
      return rows.bytes();
    }
  }

  private final long maxBytes;
  /** Estimated bytes per row of the tables whose rows were found not to fit, so their scans stop trying. */
  private final Cache<Long, Double> rowBytes = Caffeine.newBuilder().maximumSize(10_000).build();

  private final Cache<Long, Entry> entries;
  private final Counter hits;
  private final Counter misses;
  private final Counter builds;

  public ScanCache(long maxBytes, MeterRegistry meters, Tags tags) {
    this.maxBytes = maxBytes;
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

  /** The bound on the cached rows' estimated bytes: no table's rows larger than this are cached. */
  public long maxBytes() {
    return maxBytes;
  }

  /** Whether {@code rows} rows of the table could fit, by what an earlier attempt found a row takes. */
  public boolean mayFit(long tableId, long rows, int columns) {
    Double perRow = rowBytes.getIfPresent(tableId);
    return rows * (perRow == null ? 4.0 * columns : perRow) <= maxBytes;
  }

  /** Records that collecting the table's rows gave up at {@code bytes} for {@code rows} rows. */
  public void tooLarge(long tableId, long rows, long bytes) {
    rowBytes.put(tableId, bytes / (double) Math.max(1, rows));
  }

  public Entry get(long tableId) {
    return entries.getIfPresent(tableId);
  }

  public void put(long tableId, Entry entry) {
    if (entry.bytes() > maxBytes) {
      return;
    }
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
