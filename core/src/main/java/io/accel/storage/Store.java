package io.accel.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.OptimisticTransactionDB;
import org.rocksdb.OptimisticTransactionOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksMemEnv;
import org.rocksdb.Transaction;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB instance: the system of record of a standalone Accel store. It owns every native RocksDB
 * object it creates (options, the block cache, column family handles, the in-memory environment) and
 * closes them all in {@link #close()}, as Kafka Streams' RocksDBStore does.
 *
 * <p>Layout: a {@code meta} column family for the catalog, and one column family per table and per
 * index, named by the catalog. Writes go through optimistic transactions: a transaction reads one
 * snapshot and its commit fails with {@code Busy} when another transaction committed a write to a key it
 * wrote or locked after that snapshot (first committer wins).
 */
public final class Store implements AutoCloseable {
  public static final String META_FAMILY = "meta";

  static {
    NativeLibrary.load();
  }

  private final String description;
  private final StoreOptions options;
  private final Env env;
  private final Cache blockCache;
  private final BloomFilter bloomFilter;
  /** RocksDB's row cache (point reads), a quarter of the block cache's size. */
  private final Cache pointCache;
  private final BlockBasedTableConfig tableConfig;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions familyOptions;
  private final WriteOptions writeOptions;
  private final OptimisticTransactionOptions transactionOptions;
  private final OptimisticTransactionDB db;
  private final Map<String, ColumnFamilyHandle> families = new ConcurrentHashMap<>();
  private final List<ColumnFamilyHandle> openHandles = new ArrayList<>();
  private volatile boolean closed;
  /** The directory of the store (in the in-memory environment for a memory store): where ingested files are written. */
  private final Path path;
  private final java.util.concurrent.atomic.AtomicLong ingestFiles = new java.util.concurrent.atomic.AtomicLong();

  private Store(String description, Path path, boolean inMemory, StoreOptions options) throws RocksDBException {
    this.description = description;
    this.path = path;
    this.options = options;
    this.env = inMemory ? new RocksMemEnv(Env.getDefault()) : null;
    // half the cache is kept for index and filter blocks (high priority), which data blocks cannot push out
    this.blockCache = new LRUCache(options.blockCacheBytes(), -1, false, 0.5);
    this.bloomFilter = new BloomFilter(10, false);
    this.pointCache = new LRUCache(Math.max(options.blockCacheBytes() / 4, 1L << 20));
    this.tableConfig = new BlockBasedTableConfig()
        .setBlockCache(blockCache)
        .setBlockSize(16 * 1024)
        .setFilterPolicy(bloomFilter)
        // Partitioned index and filters: a read loads the 4 KB partitions it needs, not a file's whole index and
        // filter. Whole, they are megabytes per large file (lineitem's index at sf 1: 1 MB of index and 3.75 MB
        // of filter per file), more than a cache shard holds, so each new iterator read them again: 1.3 ms a seek.
        .setIndexType(IndexType.kTwoLevelIndexSearch)
        .setPartitionFilters(true)
        .setMetadataBlockSize(4096)
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinTopLevelIndexAndFilter(true)
        // a point read then finds the index and filter of level-0 files without a block cache lookup each
        .setPinL0FilterAndIndexBlocksInCache(true);
    this.dbOptions = new DBOptions()
        .setCreateIfMissing(true)
        .setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2)
        // write-ahead log files are reused rather than created: a synced commit then overwrites blocks the file
        // already has, and fdatasync need not also journal the file's growth (TPC-B, one client: 771 -> 1014 tps)
        .setRecycleLogFileNum(4);
    // RocksDB's own cache of point reads (key -> value per table file, kept exact by RocksDB across writes and
    // snapshots): a unique index's entry or a row Accel's row cache does not hold skips the filter, index and data
    // block lookups of every file (S1 in a plain loop: 12.2 -> 10.4 us p50)
    dbOptions.setRowCache(pointCache);
    if (env != null) {
      dbOptions.setEnv(env);
    }
    this.familyOptions = new ColumnFamilyOptions()
        .setTableFormatConfig(tableConfig)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION);
    this.writeOptions = new WriteOptions().setSync(options.syncCommits() && !inMemory);
    this.transactionOptions = new OptimisticTransactionOptions().setSetSnapshot(true);

    if (!inMemory) {
      removeLeftoverFiles(path);
    }
    List<String> existing = new ArrayList<>();
    if (!inMemory && Files.exists(path.resolve("CURRENT"))) {
      try (Options listOptions = new Options()) {
        for (byte[] name : RocksDB.listColumnFamilies(listOptions, path.toString())) {
          existing.add(new String(name, StandardCharsets.UTF_8));
        }
      }
    }
    if (!existing.contains(new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8))) {
      existing.add(0, new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8));
    }
    if (!existing.contains(META_FAMILY)) {
      existing.add(META_FAMILY);
    }
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (String name : existing) {
      descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), familyOptions));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      this.db = OptimisticTransactionDB.open(dbOptions, path.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw e;
    }
    openHandles.addAll(handles);
    for (int i = 0; i < existing.size(); i++) {
      families.put(existing.get(i), handles.get(i));
    }
    if (!inMemory && options.syncCommits()) {
      try {
        primeWriteAheadLog();
      } catch (RocksDBException e) {
        close();
        throw e;
      }
    }
  }

  /** The bytes each of the two primed write-ahead log files holds (see {@link #primeWriteAheadLog}). */
  static final int PRIMED_LOG_BYTES = 16 << 20;

  /**
   * Makes the write-ahead log file commits go to one that already has its blocks, as PostgreSQL's WAL segments
   * are zero-filled before use: a synced commit that overwrites blocks costs one data write (106 us here), where
   * one that grows the file also commits the file system's journal (244 us). RocksDB reuses obsolete log files
   * ({@code recycle_log_file_num}) but has none after opening, so two logs are filled with a padding value and
   * switched away from by flushes; the log then in use is the first of them.
   */
  private void primeWriteAheadLog() throws RocksDBException {
    byte[] key = "wal-prime".getBytes(StandardCharsets.UTF_8);
    byte[] padding = new byte[1 << 20];
    ColumnFamilyHandle meta = families.get(META_FAMILY);
    try (WriteOptions unsynced = new WriteOptions(); FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      for (int log = 0; log < 2; log++) {
        for (int written = 0; written < PRIMED_LOG_BYTES; written += padding.length) {
          db.put(meta, unsynced, key, padding);
        }
        db.delete(meta, unsynced, key);
        db.flush(flush, List.copyOf(openHandles));
      }
    }
  }

  /** Table files written for an ingestion that a killed process left behind (never part of the store). */
  private static void removeLeftoverFiles(Path dir) {
    try (var files = Files.newDirectoryStream(dir, INGEST_PREFIX + "*.sst")) {
      for (Path f : files) {
        Files.deleteIfExists(f);
      }
    } catch (java.io.IOException ignored) {
      // an unreadable directory fails RocksDB's open just after, with its own message
    }
  }

  /** Opens (creating if needed) a durable store in a directory. */
  public static Store openFile(Path dir, StoreOptions options) throws RocksDBException {
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new RocksDBException("cannot create store directory " + dir + ": " + e.getMessage());
    }
    return new Store(dir.toString(), dir.toAbsolutePath(), false, options);
  }

  /** Opens a new store held in memory only; it is gone when closed. */
  public static Store openInMemory(String name, StoreOptions options) throws RocksDBException {
    return new Store("mem:" + name, Path.of("/accel-mem", name.replace('/', '_')), true, options);
  }

  public String description() {
    return description;
  }

  /** The settings the store was opened with. */
  public StoreOptions options() {
    return options;
  }

  public RocksDB db() {
    return db;
  }

  public ColumnFamilyHandle meta() {
    return families.get(META_FAMILY);
  }

  public Optional<ColumnFamilyHandle> family(String name) {
    return Optional.ofNullable(families.get(name));
  }

  public Set<String> familyNames() {
    return Set.copyOf(families.keySet());
  }

  /** Creates a column family, or returns the existing one of that name. */
  public synchronized ColumnFamilyHandle createFamily(String name) throws RocksDBException {
    ColumnFamilyHandle existing = families.get(name);
    if (existing != null) {
      return existing;
    }
    ColumnFamilyHandle handle = db.createColumnFamily(
        new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), familyOptions));
    openHandles.add(handle);
    families.put(name, handle);
    return handle;
  }

  /**
   * Drops a column family and all its data; a no-op when there is none of that name. The handle stays
   * open until the store closes, so a reader that still holds it never touches freed native memory.
   */
  public synchronized void dropFamily(String name) throws RocksDBException {
    ColumnFamilyHandle handle = families.remove(name);
    if (handle != null) {
      db.dropColumnFamily(handle);
    }
  }

  /**
   * Writes entries sorted by key (unsigned byte order, no key twice) straight into a family: they become a
   * table file (SstFileWriter) that RocksDB ingests whole, at the lowest level that has room, with no write-ahead
   * log, memtable or compaction on the way; the ingestion is synced before it returns. For a family nothing else
   * writes meanwhile (a new index while the schema lock is held): an ingested key would hide a concurrent write.
   */
  public void ingestSorted(ColumnFamilyHandle family, List<byte[][]> sorted) throws RocksDBException {
    if (sorted.size() < PARALLEL) {
      SortedFile file = writeSorted(sorted.iterator());
      if (file != null) {
        ingest(family, List.of(file));
      }
      return;
    }
    // two files of the two halves, written at once (compressing blocks and building filters is most of the work)
    int middle = sorted.size() / 2;
    java.util.concurrent.CompletableFuture<SortedFile> first = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return writeSorted(sorted.subList(0, middle).iterator());
      } catch (RocksDBException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    SortedFile second = null;
    SortedFile firstFile = null;
    try {
      second = writeSorted(sorted.subList(middle, sorted.size()).iterator());
      firstFile = first.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RocksDBException r) {
        throw r;
      }
      throw e;
    } finally {
      if (firstFile == null) {
        // the other half failed, or this one did: wait for it, so that no file is left behind
        try {
          SortedFile left = first.join();
          discard(List.of(left));
        } catch (RuntimeException ignored) {
          // it failed too (its file already removed)
        }
        if (second != null) {
          discard(List.of(second));
        }
      }
    }
    ingest(family, List.of(firstFile, second));
  }

  /** Entries from which {@link #sortByKey} sorts, and {@link #ingestSorted} writes, two halves at once. */
  static final int PARALLEL = 200_000;

  /**
   * A table file {@link #writeSorted} wrote, not part of the store until {@link #ingest}ed: its path, first and last
   * key and number of entries. Whoever holds one ingests or {@link #discard}s it.
   */
  public record SortedFile(String path, byte[] first, byte[] last, long entries) {
  }

  /** Whether files written by {@link #writeSorted} can be discarded (a directory store: not in memory). */
  public boolean bulkFiles() {
    return env == null;
  }

  /**
   * Sorts entries {key, value} by key in unsigned byte order, as a table file needs them. The first sixteen bytes of
   * each key are copied into two arrays of numbers and an array of positions is merge-sorted by them, so most
   * comparisons touch neither the entries nor their keys (scattered over the heap, each a cache miss); the two
   * halves of a large run are sorted at once.
   */
  public static void sortByKey(List<byte[][]> entries) {
    int n = entries.size();
    if (n < 2) {
      return;
    }
    byte[][] keys = new byte[n][];
    long[] high = new long[n];
    long[] low = new long[n];
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      byte[] key = entries.get(i)[0];
      keys[i] = key;
      high[i] = word(key, 0);
      low[i] = word(key, 8);
      order[i] = i;
    }
    KeyOrder sorter = new KeyOrder(keys, high, low);
    int[] work = order.clone();
    int[] result = order;
    if (n >= PARALLEL) {
      int middle = n / 2;
      java.util.concurrent.CompletableFuture<Void> left = java.util.concurrent.CompletableFuture.runAsync(
          () -> sorter.sort(work, order, 0, middle));
      sorter.sort(work, order, middle, n);
      left.join();
      sorter.merge(order, work, 0, middle, n);
      result = work;
    } else {
      sorter.sort(work, order, 0, n);
    }
    List<byte[][]> sorted = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      sorted.add(entries.get(result[i]));
    }
    for (int i = 0; i < n; i++) {
      entries.set(i, sorted.get(i));
    }
  }

  /** Eight bytes of a key from {@code offset} as an unsigned number, zero-padded past its end. */
  private static long word(byte[] key, int offset) {
    long w = 0;
    for (int i = offset; i < offset + 8; i++) {
      w = (w << 8) | (i < key.length ? key[i] & 0xFF : 0);
    }
    return w;
  }

  /** A top-down merge sort of positions by their keys (see {@link #sortByKey}). */
  private record KeyOrder(byte[][] keys, long[] high, long[] low) {
    int compare(int a, int b) {
      int c = Long.compareUnsigned(high[a], high[b]);
      if (c == 0) {
        c = Long.compareUnsigned(low[a], low[b]);
        if (c == 0) {
          c = java.util.Arrays.compareUnsigned(keys[a], keys[b]); // (zero padding makes "a" and "a\0" equal so far)
        }
      }
      return c;
    }

    /** Sorts {@code into[from, to)}, whose elements {@code from} holds too (their roles swap at each level). */
    void sort(int[] from, int[] into, int lo, int hi) {
      if (hi - lo < 16) {
        for (int i = lo + 1; i < hi; i++) {
          int x = into[i];
          int j = i - 1;
          while (j >= lo && compare(into[j], x) > 0) {
            into[j + 1] = into[j];
            j--;
          }
          into[j + 1] = x;
        }
        return;
      }
      int middle = (lo + hi) >>> 1;
      sort(into, from, lo, middle);
      sort(into, from, middle, hi);
      merge(from, into, lo, middle, hi);
    }

    /** Merges the sorted {@code from[lo, middle)} and {@code from[middle, hi)} into {@code into[lo, hi)}. */
    void merge(int[] from, int[] into, int lo, int middle, int hi) {
      if (compare(from[middle - 1], from[middle]) <= 0) {
        System.arraycopy(from, lo, into, lo, hi - lo);
        return;
      }
      int i = lo;
      int j = middle;
      for (int k = lo; k < hi; k++) {
        if (j >= hi || i < middle && compare(from[i], from[j]) <= 0) {
          into[k] = from[i++];
        } else {
          into[k] = from[j++];
        }
      }
    }
  }

  /** Writes entries sorted by key (unsigned byte order, no key twice) into a new table file; null for none. */
  public SortedFile writeSorted(java.util.Iterator<byte[][]> sorted) throws RocksDBException {
    if (!sorted.hasNext()) {
      return null;
    }
    String file = path.resolve(INGEST_PREFIX + System.nanoTime() + "-" + ingestFiles.incrementAndGet() + ".sst")
        .toString();
    byte[] first = null;
    byte[] last = null;
    long entries = 0;
    boolean done = false;
    try (org.rocksdb.EnvOptions envOptions = new org.rocksdb.EnvOptions();
        Options fileOptions = new Options(dbOptions, familyOptions);
        org.rocksdb.SstFileWriter writer = new org.rocksdb.SstFileWriter(envOptions, fileOptions)) {
      writer.open(file);
      while (sorted.hasNext()) {
        byte[][] entry = sorted.next();
        writer.put(entry[0], entry[1]);
        if (first == null) {
          first = entry[0];
        }
        last = entry[0];
        entries++;
      }
      writer.finish();
      done = true;
    } finally {
      if (!done) {
        deleteFile(file);
      }
    }
    return new SortedFile(file, first, last, entries);
  }

  /**
   * Ingests table files into a family in one step (their key ranges must not overlap), synced before it returns;
   * the files are moved into the store, and removed when the ingestion fails.
   */
  public void ingest(ColumnFamilyHandle family, List<SortedFile> files) throws RocksDBException {
    if (files.isEmpty()) {
      return;
    }
    try (org.rocksdb.IngestExternalFileOptions ingest = new org.rocksdb.IngestExternalFileOptions()
        .setMoveFiles(true)) {
      db.ingestExternalFile(family, files.stream().map(SortedFile::path).toList(), ingest);
    } finally {
      discard(files); // moved into the store when the ingestion succeeded
    }
  }

  /** Removes table files that were not ingested (a no-op for those that were, and in a memory store). */
  public void discard(List<SortedFile> files) {
    for (SortedFile f : files) {
      deleteFile(f.path());
    }
  }

  private void deleteFile(String file) {
    if (env == null) {
      try {
        Files.deleteIfExists(Path.of(file));
      } catch (java.io.IOException ignored) {
        // a leftover file is harmless: it is not part of the store, and the next open removes it
      }
    }
  }

  /**
   * Merges table files of overlapping key ranges into one sorted file, handing {@code duplicate} each key (and value)
   * found in more than one (it may throw to stop the merge; otherwise the first file's entry is kept); the inputs
   * are left for the caller to discard.
   */
  public SortedFile merge(List<SortedFile> files, java.util.function.BiConsumer<byte[], byte[]> duplicate)
      throws RocksDBException {
    List<org.rocksdb.SstFileReader> readers = new ArrayList<>();
    List<org.rocksdb.SstFileReaderIterator> iterators = new ArrayList<>();
    try (Options fileOptions = new Options(dbOptions, familyOptions);
        org.rocksdb.ReadOptions read = new org.rocksdb.ReadOptions().setFillCache(false)) {
      java.util.PriorityQueue<Cursor> heads = new java.util.PriorityQueue<>();
      for (SortedFile f : files) {
        org.rocksdb.SstFileReader reader = new org.rocksdb.SstFileReader(fileOptions);
        readers.add(reader);
        reader.open(f.path());
        org.rocksdb.SstFileReaderIterator it = reader.newIterator(read);
        iterators.add(it);
        it.seekToFirst();
        Cursor c = new Cursor(it, iterators.size());
        if (c.advance()) {
          heads.add(c);
        }
      }
      java.util.Iterator<byte[][]> merged = new java.util.Iterator<>() {
        private byte[] previous;
        private byte[][] upcoming = advance();

        /** The next entry whose key differs from the last one returned; a repeated one is reported and skipped. */
        private byte[][] advance() {
          while (!heads.isEmpty()) {
            Cursor c = heads.poll();
            byte[][] entry = {c.key, c.value};
            try {
              if (c.advance()) {
                heads.add(c);
              }
            } catch (RocksDBException e) {
              throw new IllegalStateException(e);
            }
            if (previous != null && java.util.Arrays.equals(previous, entry[0])) {
              duplicate.accept(entry[0], entry[1]);
              continue;
            }
            previous = entry[0];
            return entry;
          }
          return null;
        }

        @Override
        public boolean hasNext() {
          return upcoming != null;
        }

        @Override
        public byte[][] next() {
          byte[][] entry = upcoming;
          upcoming = advance();
          return entry;
        }
      };
      try {
        return writeSorted(merged);
      } catch (IllegalStateException e) {
        if (e.getCause() instanceof RocksDBException r) {
          throw r;
        }
        throw e;
      }
    } finally {
      for (org.rocksdb.SstFileReaderIterator it : iterators) {
        it.close();
      }
      for (org.rocksdb.SstFileReader r : readers) {
        r.close();
      }
    }
  }

  /** One input of {@link #merge}: its current entry; ties go to the earlier file. */
  private static final class Cursor implements Comparable<Cursor> {
    private final org.rocksdb.SstFileReaderIterator it;
    private final int order;
    private byte[] key;
    private byte[] value;
    private boolean started;

    Cursor(org.rocksdb.SstFileReaderIterator it, int order) {
      this.it = it;
      this.order = order;
    }

    boolean advance() throws RocksDBException {
      if (started) {
        it.next();
      }
      started = true;
      if (!it.isValid()) {
        it.status();
        return false;
      }
      key = it.key();
      value = it.value();
      return true;
    }

    @Override
    public int compareTo(Cursor o) {
      int c = java.util.Arrays.compareUnsigned(key, o.key);
      return c != 0 ? c : Integer.compare(order, o.order);
    }
  }

  /** The name table files written for ingestion start with; leftovers of a killed process go at the next open. */
  static final String INGEST_PREFIX = "ingest-";

  /** Begins an optimistic transaction reading a snapshot taken now. The caller owns and closes it. */
  public Transaction begin() {
    return db.beginTransaction(writeOptions, transactionOptions);
  }

  public WriteOptions writeOptions() {
    return writeOptions;
  }

  public boolean isClosed() {
    return closed;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (ColumnFamilyHandle handle : openHandles) {
      handle.close();
    }
    openHandles.clear();
    families.clear();
    try {
      db.syncWal();
    } catch (RocksDBException ignored) {
      // in-memory stores and read-only files have no WAL to sync
    }
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    transactionOptions.close();
    writeOptions.close();
    familyOptions.close();
    dbOptions.close();
    bloomFilter.close();
    pointCache.close();
    blockCache.close();
    if (env != null) {
      env.close();
    }
  }
}
