package io.accel.storage;

/**
 * Settings of a store, each with a default that suits most users.
 *
 * @param blockCacheBytes size of RocksDB's shared block cache (default 128 MB): uncompressed blocks kept
 *     in memory for all tables and indexes of the store
 * @param syncCommits whether a commit waits for the write-ahead log to reach the disk (default true):
 *     off, a commit survives a crash of the process but not of the machine
 */
public record StoreOptions(long blockCacheBytes, boolean syncCommits) {
  public static final StoreOptions DEFAULTS = new StoreOptions(128L << 20, true);
}
