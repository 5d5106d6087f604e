package io.accel.storage;

/**
 * Settings of a store, each with a default that suits most users.
 *
 * @param blockCacheBytes size of RocksDB's shared block cache (default 128 MB): uncompressed blocks kept
 *     in memory for all tables and indexes of the store
 * @param syncCommits whether a commit waits for the write-ahead log to reach the disk (default true):
 *     off, a commit survives a crash of the process but not of the machine
 * @param rowCacheBytes bound of the MVCC row cache above the block cache, in estimated heap bytes of
 *     decoded rows (default {@link #DEFAULT_ROW_CACHE_BYTES}); 0 turns it off
 */
public record StoreOptions(long blockCacheBytes, boolean syncCommits, long rowCacheBytes) {
  /** 256 MB, but at most a quarter of the JVM's maximum heap. */
  public static final long DEFAULT_ROW_CACHE_BYTES = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);

  public static final StoreOptions DEFAULTS = new StoreOptions(128L << 20, true, DEFAULT_ROW_CACHE_BYTES);

  public StoreOptions {
    if (blockCacheBytes <= 0) {
      throw new IllegalArgumentException("block cache size must be positive: " + blockCacheBytes);
    }
    if (rowCacheBytes < 0) {
      throw new IllegalArgumentException("row cache size must not be negative: " + rowCacheBytes);
    }
  }

  /** The defaults' row cache with these block cache and commit settings. */
  public StoreOptions(long blockCacheBytes, boolean syncCommits) {
    this(blockCacheBytes, syncCommits, DEFAULT_ROW_CACHE_BYTES);
  }
}
