package io.accel.storage;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.Locale;

/**
 * Settings of a store, each with a default that suits most users.
 *
 * @param blockCacheBytes size of RocksDB's shared block cache (default {@link #DEFAULT_BLOCK_CACHE_BYTES}): uncompressed blocks kept
 *     in memory for all tables and indexes of the store
 * @param syncCommits whether a commit waits for the write-ahead log to reach the disk (default true):
 *     off, a commit survives a crash of the process but not of the machine
 * @param rowCacheBytes bound of the MVCC row cache above the block cache, in estimated heap bytes of
 *     decoded rows (default {@link #DEFAULT_ROW_CACHE_BYTES}); 0 turns it off
 * @param resultCacheBytes bound of the result cache (CREATE CACHE, autoCache) in estimated heap bytes of the
 *     cached rows (default {@link #DEFAULT_RESULT_CACHE_BYTES}); 0 turns it off
 * @param autoCache whether every query the result cache can keep exact is cached on its second execution
 *     (default false: only queries named by CREATE CACHE)
 */
public record StoreOptions(long blockCacheBytes, boolean syncCommits, long rowCacheBytes, long resultCacheBytes,
    boolean autoCache) {
  /** 256 MB, but at most a quarter of the JVM's maximum heap. */
  public static final long DEFAULT_ROW_CACHE_BYTES = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);

  /** 64 MB, but at most an eighth of the JVM's maximum heap. */
  public static final long DEFAULT_RESULT_CACHE_BYTES = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);

  /**
   * An eighth of the machine's (or container's) memory, at least 128 MB and at most 512 MB: a table scanned whole
   * is read from uncompressed cached blocks instead of being decompressed from the OS cache on every scan (P1's
   * 1M-row scan: 474 ms at 128 MB, 359 ms at 512 MB). Native memory, taken only as blocks are read.
   */
  public static final long DEFAULT_BLOCK_CACHE_BYTES = defaultBlockCache();

  public static final StoreOptions DEFAULTS = new StoreOptions(DEFAULT_BLOCK_CACHE_BYTES, true,
      DEFAULT_ROW_CACHE_BYTES);

  private static long defaultBlockCache() {
    long physical = 0;
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      physical = os.getTotalMemorySize();
    }
    return Math.max(128L << 20, Math.min(512L << 20, physical / 8));
  }

  public StoreOptions {
    if (blockCacheBytes <= 0) {
      throw new IllegalArgumentException("block cache size must be positive: " + blockCacheBytes);
    }
    if (rowCacheBytes < 0) {
      throw new IllegalArgumentException("row cache size must not be negative: " + rowCacheBytes);
    }
    if (resultCacheBytes < 0) {
      throw new IllegalArgumentException("result cache size must not be negative: " + resultCacheBytes);
    }
  }

  /** The default result cache (no autoCache) with these settings. */
  public StoreOptions(long blockCacheBytes, boolean syncCommits, long rowCacheBytes) {
    this(blockCacheBytes, syncCommits, rowCacheBytes, DEFAULT_RESULT_CACHE_BYTES, false);
  }

  /** These options with the result cache's bound and autoCache replaced. */
  public StoreOptions withResultCache(long bytes, boolean auto) {
    return new StoreOptions(blockCacheBytes, syncCommits, rowCacheBytes, bytes, auto);
  }

  /**
   * What a connection asked for that the open store does not have: store-wide settings are fixed by the
   * connection that opens the store, so each setting {@code given} explicitly that differs from this
   * store's yields one message (for an SQLWarning).
   *
   * @param given the names of the settings the connection set ({@code blockCacheSize}, {@code syncCommits},
   *     {@code rowCacheSize})
   */
  public java.util.List<String> conflicts(StoreOptions asked, java.util.Set<String> given) {
    java.util.List<String> messages = new java.util.ArrayList<>();
    if (given.contains("blockCacheSize") && asked.blockCacheBytes != blockCacheBytes) {
      messages.add(conflict("blockCacheSize", asked.blockCacheBytes, blockCacheBytes));
    }
    if (given.contains("rowCacheSize") && asked.rowCacheBytes != rowCacheBytes) {
      messages.add(conflict("rowCacheSize", asked.rowCacheBytes, rowCacheBytes));
    }
    if (given.contains("resultCacheSize") && asked.resultCacheBytes != resultCacheBytes) {
      messages.add(conflict("resultCacheSize", asked.resultCacheBytes, resultCacheBytes));
    }
    if (given.contains("autoCache") && asked.autoCache != autoCache) {
      messages.add(conflict("autoCache", asked.autoCache, autoCache));
    }
    if (given.contains("syncCommits") && asked.syncCommits != syncCommits) {
      messages.add(conflict("syncCommits", asked.syncCommits, syncCommits));
    }
    return messages;
  }

  private static String conflict(String name, Object asked, Object actual) {
    return name + "=" + asked + " was ignored: the store is already open with " + name + "=" + actual
        + " (store-wide settings are fixed by the first connection; close every connection to change them)";
  }

  /** The defaults' row cache with these block cache and commit settings. */
  public StoreOptions(long blockCacheBytes, boolean syncCommits) {
    this(blockCacheBytes, syncCommits, DEFAULT_ROW_CACHE_BYTES);
  }

  /** A size such as 268435456, 256MB or 1GB (22023 otherwise); 0 only where it turns the cache off. */
  public static long parseBytes(String name, String text, long defaultValue, boolean zeroTurnsOff) {
    if (text == null || text.isBlank()) {
      return defaultValue;
    }
    String t = text.trim().toUpperCase(Locale.ROOT).replace(" ", "");
    long unit = 1;
    if (t.endsWith("KB") || t.endsWith("K")) {
      unit = 1L << 10;
    } else if (t.endsWith("MB") || t.endsWith("M")) {
      unit = 1L << 20;
    } else if (t.endsWith("GB") || t.endsWith("G")) {
      unit = 1L << 30;
    }
    String digits = t.replaceAll("[KMGB]+$", "");
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(digits), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      value = -1;
    }
    if (value < 0 || value == 0 && !zeroTurnsOff) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid " + name + " \"" + text
          + "\": expected a size in bytes such as 268435456, 256MB or 1GB" + (zeroTurnsOff ? ", or 0 for none" : ""));
    }
    return value;
  }
}
