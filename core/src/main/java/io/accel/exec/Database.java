package io.accel.exec;

import io.accel.cache.RowCache;
import io.accel.catalog.Catalog;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A standalone store as the engine sees it: the RocksDB {@link Store}, its {@link Catalog}, the lock that
 * keeps DDL apart from DML, the hidden row id counters of tables without a primary key, and the store's
 * meters. Shared by every connection to the store.
 */
public final class Database implements AutoCloseable {
  private final Store store;
  private final Catalog catalog;
  private final ReentrantReadWriteLock schemaLock = new ReentrantReadWriteLock();
  private final Map<Long, AtomicLong> rowIds = new ConcurrentHashMap<>();
  private final MeterRegistry meters;
  private final Statistics statistics;
  private final RowCache rowCache;
  private volatile AccessCounters accessCounters;

  private Database(Store store, Catalog catalog, MeterRegistry meters) {
    this.store = store;
    this.catalog = catalog;
    this.meters = meters;
    this.statistics = new Statistics(this);
    this.sequences = io.accel.catalog.SequenceCatalog.load(store);
    this.sequenceValues = new SequenceValues(store);
    long rowCacheBytes = store.options().rowCacheBytes();
    if (rowCacheBytes > 0) {
      RocksDB db = store.db();
      this.rowCache = new RowCache(rowCacheBytes, db::getLatestSequenceNumber);
      rowCache.bindTo(meters, meterTags());
      this.scanCache = new io.accel.cache.ScanCache(rowCacheBytes / 4, meters, meterTags());
    } else {
      this.rowCache = null;
      this.scanCache = null;
    }
    long resultCacheBytes = store.options().resultCacheBytes();
    if (resultCacheBytes > 0) {
      this.resultCache = new io.accel.cache.ResultCache(resultCacheBytes, store.options().autoCache(),
          new MetaPersistence(store));
      resultCache.bindTo(meters, meterTags());
    } else {
      this.resultCache = null;
    }
  }

  private final io.accel.cache.ResultCache resultCache;

  /** The result cache (CREATE CACHE, autoCache); null when it is off ({@code resultCacheSize=0}). */
  public io.accel.cache.ResultCache resultCache() {
    return resultCache;
  }

  /** The result cache's definitions, in the store's meta family. */
  private record MetaPersistence(Store store) implements io.accel.cache.ResultCache.Persistence {
    @Override
    public void save(String key, byte[] value) {
      try {
        store.db().put(store.meta(), key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value);
      } catch (RocksDBException e) {
        throw TxnContext.storageFailure(e);
      }
    }

    @Override
    public void delete(String key) {
      try {
        store.db().delete(store.meta(), key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (RocksDBException e) {
        throw TxnContext.storageFailure(e);
      }
    }

    @Override
    public Map<String, byte[]> load(String prefix) {
      Map<String, byte[]> found = new java.util.LinkedHashMap<>();
      byte[] start = prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      try (RocksIterator it = store.db().newIterator(store.meta())) {
        for (it.seek(start); it.isValid(); it.next()) {
          String key = new String(it.key(), java.nio.charset.StandardCharsets.UTF_8);
          if (!key.startsWith(prefix)) {
            break;
          }
          found.put(key, it.value());
        }
      }
      return found;
    }
  }

  private final io.accel.cache.ScanCache scanCache;
  private final long openedAt = System.currentTimeMillis();
  private volatile AccelStatus.Source frontedBy;

  /** Seconds since the store was opened in this process. */
  public long uptimeSeconds() {
    return (System.currentTimeMillis() - openedAt) / 1000;
  }

  /** The fronting mirror that describes this store in SHOW ACCEL STATUS and TABLES, or null (standalone). */
  public AccelStatus.Source frontedBy() {
    return frontedBy;
  }

  /** Set by a mirror while it holds the store; null when it closes. */
  public void frontedBy(AccelStatus.Source source) {
    this.frontedBy = source;
  }

  /** The decoded rows of small tables for full scans; null when the row cache is off (it shares its budget). */
  public io.accel.cache.ScanCache scanCache() {
    return scanCache;
  }

  /** Opens with the store's meters in Micrometer's global registry (add your registry to it to see them). */
  public static Database open(Store store) {
    return open(store, Metrics.globalRegistry);
  }

  public static Database open(Store store, MeterRegistry meters) {
    try {
      return new Database(store, Catalog.load(store), meters);
    } catch (RocksDBException e) {
      store.close();
      throw TxnContext.storageFailure(e);
    }
  }

  public Store store() {
    return store;
  }

  public Catalog catalog() {
    return catalog;
  }

  private final io.accel.catalog.SequenceCatalog sequences;
  private final SequenceValues sequenceValues;

  /** The store's sequences (CREATE SEQUENCE, SERIAL and identity columns). */
  public io.accel.catalog.SequenceCatalog sequences() {
    return sequences;
  }

  private final AdvisoryLocks advisoryLocks = new AdvisoryLocks();
  private final Notifications notifications = new Notifications();

  /** The store's LISTEN / NOTIFY channels, shared by its sessions. */
  public Notifications notifications() {
    return notifications;
  }

  /** The store's advisory locks ({@code pg_advisory_lock}), shared by its sessions. */
  public AdvisoryLocks advisoryLocks() {
    return advisoryLocks;
  }

  /** The sequences' current values, shared by the store's sessions. */
  public SequenceValues sequenceValues() {
    return sequenceValues;
  }

  public MeterRegistry meters() {
    return meters;
  }

  /** The counters of index entries read, ICP attempts and matches, and rows fetched by queries. */
  public AccessCounters accessCounters() {
    AccessCounters c = accessCounters;
    if (c == null) {
      synchronized (this) {
        c = accessCounters;
        if (c == null) {
          c = new AccessCounters(meters, meterTags());
          accessCounters = c;
        }
      }
    }
    return c;
  }

  /**
   * A READ COMMITTED statement met a row committed after its snapshot and runs again ({@code accel.statement.restarts};
   * a high rate means hot rows).
   */
  void statementRestarted() {
    io.micrometer.core.instrument.Counter.builder("accel.statement.restarts").tags(meterTags())
        .description("statements run again on a new snapshot after a concurrent update of a row they change")
        .register(meters).increment();
  }

  /**
   * A key near the middle of a table's stored rows (the first key of the table file where half its bytes are
   * reached), or null when the table has fewer than two files: where an index build or an analysis splits its
   * read of the table in two.
   */
  public byte[] splitKey(TableDef table) {
    String name = Catalog.tableFamily(table.id());
    java.util.List<org.rocksdb.LiveFileMetaData> files = new java.util.ArrayList<>();
    for (org.rocksdb.LiveFileMetaData f : store.db().getLiveFilesMetaData()) {
      if (new String(f.columnFamilyName(), java.nio.charset.StandardCharsets.UTF_8).equals(name)) {
        files.add(f);
      }
    }
    if (files.size() < 2) {
      return null;
    }
    files.sort((a, b) -> java.util.Arrays.compareUnsigned(a.smallestKey(), b.smallestKey()));
    long total = files.stream().mapToLong(org.rocksdb.LiveFileMetaData::size).sum();
    long before = 0;
    for (int i = 0; i < files.size(); i++) {
      if (i > 0 && before * 2 >= total) {
        return files.get(i).smallestKey();
      }
      before += files.get(i).size();
    }
    return files.get(files.size() - 1).smallestKey();
  }

  /**
   * Runs {@code part} over the keys below {@code split} (on another thread) and from it (on this one) at once, as
   * {@code part.accept(from, to)} with null for an open end; a failure of either is thrown once both ended.
   */
  static void inTwoParts(byte[] split, java.util.function.BiConsumer<byte[], byte[]> part) {
    java.util.concurrent.CompletableFuture<Void> low = java.util.concurrent.CompletableFuture.runAsync(
        () -> part.accept(null, split));
    try {
      part.accept(split, null);
    } finally {
      try {
        low.join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
  }

  /** Positions {@code it} at the first key at least {@code from} (null: the first key). */
  static void seek(org.rocksdb.RocksIterator it, byte[] from) {
    if (from == null) {
      it.seekToFirst();
    } else {
      it.seek(from);
    }
  }

  /** Whether {@code key} is at or past {@code to}, the exclusive end of a key range (null: none). */
  static boolean beyond(byte[] key, byte[] to) {
    return to != null && java.util.Arrays.compareUnsigned(key, to) >= 0;
  }

  /** A COPY loaded {@code rows} rows as table files ({@code accel.copy.bulk.rows}; see BulkLoad). */
  void bulkLoaded(long rows) {
    io.micrometer.core.instrument.Counter.builder("accel.copy.bulk.rows").tags(meterTags())
        .description("rows COPY loaded into empty tables as ingested table files instead of row by row")
        .register(meters).increment(rows);
  }

  /** The tags every meter of this store carries: {@code store=<description>}, e.g. {@code mem:demo}. */
  public Tags meterTags() {
    return Tags.of("store", store.description());
  }

  /** The MVCC row cache of the store's primary-key fetches; null when it is off ({@code rowCacheSize=0}). */
  public RowCache rowCache() {
    return rowCache;
  }

  /** The tables' statistics, for the planner; ANALYZE and DDL update them. */
  public Statistics statistics() {
    return statistics;
  }

  /** Held shared by statements that read or write rows, exclusively by DDL. */
  public ReentrantReadWriteLock schemaLock() {
    return schemaLock;
  }

  public ColumnFamilyHandle tableFamily(TableDef table) {
    return store.family(Catalog.tableFamily(table.id())).orElseThrow(() -> new AccelException(
        SqlState.UNDEFINED_TABLE, "relation \"" + table.name() + "\" does not exist"));
  }

  public ColumnFamilyHandle indexFamily(long indexId) {
    return store.family(Catalog.indexFamily(indexId)).orElseThrow(() -> new AccelException(
        SqlState.UNDEFINED_OBJECT, "index " + indexId + " does not exist"));
  }

  /** The next hidden row id of a table without a primary key; starts after the largest one stored. */
  public long nextRowId(TableDef table) {
    return rowIds.computeIfAbsent(table.id(), id -> new AtomicLong(lastRowId(table))).incrementAndGet();
  }

  private long lastRowId(TableDef table) {
    try (RocksIterator it = store.db().newIterator(tableFamily(table))) {
      it.seekToLast();
      if (!it.isValid()) {
        return 0;
      }
      return RowKeys.decodeRowId(it.key());
    }
  }

  void forgetRowIds(long tableId) {
    rowIds.remove(tableId);
  }

  /** Referenced keys relied on by recent commits, so concurrent removals of them fail (FOREIGN KEY). */
  private final ReferenceClaims referenceClaims = new ReferenceClaims();

  /** The row locks of open transactions (writers' and SELECT ... FOR UPDATE / SHARE's). */
  private final RowLocks rowLocks = new RowLocks();

  /** Starts a transaction reading a snapshot taken now. */
  TxnContext begin() {
    if (store.isClosed()) {
      throw new AccelException(SqlState.CONNECTION_DOES_NOT_EXIST, "the store " + store.description() + " is closed");
    }
    RowCache.Registration registration = rowCache == null ? null : rowCache.register();
    long version = catalog.version();
    Object claim = referenceClaims.opened(store.db());
    try {
      TxnContext ctx = new TxnContext(store.db(), store.begin(), statistics, rowCache, registration);
      ctx.claims(referenceClaims, claim);
      ctx.rowLocks(rowLocks);
      ctx.schema(catalog, schemaLock, version);
      ctx.onCommit(this::committing, this::committed);
      if (resultCache != null) {
        ctx.resultCache(resultCache);
      }
      return ctx;
    } catch (RuntimeException e) {
      referenceClaims.closed(claim);
      if (registration != null) {
        registration.close();
      }
      throw e;
    }
  }

  /** A read-only context at a snapshot taken now, for a query outside a transaction block. */
  TxnContext beginReadOnly() {
    if (store.isClosed()) {
      throw new AccelException(SqlState.CONNECTION_DOES_NOT_EXIST, "the store " + store.description() + " is closed");
    }
    long version = catalog.version();
    TxnContext ctx = new TxnContext(store.db(), rowCache);
    ctx.rowLocks(rowLocks);
    ctx.schema(catalog, schemaLock, version);
    return ctx;
  }

  private final java.util.concurrent.ConcurrentHashMap<Long, Long> tableCommits =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong commitSequence = new java.util.concurrent.atomic.AtomicLong();

  /** Per table: commits under way (begun, not yet recorded) and the RocksDB sequence after its last commit. */
  private final java.util.concurrent.ConcurrentHashMap<Long, java.util.concurrent.atomic.AtomicInteger> committing =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.ConcurrentHashMap<Long, Long> tableCommitSequences =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Before RocksDB commits a transaction that wrote {@code tables}. */
  private void committing(java.util.Set<Long> tables) {
    for (long t : tables) {
      committing.computeIfAbsent(t, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
    }
  }

  /**
   * After the commit of a transaction that wrote {@code tables} ended: a successful one is recorded (the
   * store's latest sequence is at least the commit's own) before the table stops counting it as under way.
   */
  private void committed(java.util.Set<Long> tables, boolean succeeded) {
    if (succeeded) {
      long seq = commitSequence.incrementAndGet();
      long rocksSequence = store.db().getLatestSequenceNumber();
      for (long t : tables) {
        tableCommits.merge(t, seq, Math::max);
        tableCommitSequences.merge(t, rocksSequence, Math::max);
      }
    }
    for (long t : tables) {
      committing.get(t).decrementAndGet();
    }
  }

  /**
   * Whether a reader at snapshot {@code readerSequence} (taken before this call) sees table {@code tableId}
   * exactly as a snapshot at {@code entrySequence} did: no commit to the table is under way, and none was
   * recorded after {@code entrySequence}, which is not newer than the reader's. A commit visible to the
   * reader but not yet recorded is still counted as under way, so it cannot slip between the two checks.
   */
  public boolean unchangedSince(long tableId, long entrySequence, long readerSequence) {
    if (entrySequence > readerSequence) {
      return false;
    }
    java.util.concurrent.atomic.AtomicInteger underWay = committing.get(tableId);
    if (underWay != null && underWay.get() > 0) {
      return false;
    }
    return tableCommitSequences.getOrDefault(tableId, 0L) <= entrySequence;
  }

  /** The sequence number of the last commit that wrote table {@code tableId} (0: none since the store opened). */
  public long lastCommit(long tableId) {
    return tableCommits.getOrDefault(tableId, 0L);
  }

  private volatile io.accel.cursor.CursorCache cursorCache;

  /** The store's cache of suspended cursors (5 s to live, 64 MB), made on first use. */
  public io.accel.cursor.CursorCache cursorCache() {
    io.accel.cursor.CursorCache c = cursorCache;
    if (c == null) {
      synchronized (this) {
        c = cursorCache;
        if (c == null) {
          c = new io.accel.cursor.CursorCache(java.time.Duration.ofSeconds(5), 64L << 20, meters, meterTags());
          cursorCache = c;
        }
      }
    }
    return c;
  }

  /** The evaluator of CHECK constraints (made on first use). */
  public synchronized CheckConstraints checkConstraints() {
    if (checkConstraints == null) {
      checkConstraints = new CheckConstraints(this);
    }
    return checkConstraints;
  }

  private CheckConstraints checkConstraints;

  /**
   * The evaluator of partial and expression indexes' keys: every write of every index asks it, so it is a field
   * (it plans nothing until a partial or expression index needs it).
   */
  public IndexKeys indexKeys() {
    return indexKeys;
  }

  private final IndexKeys indexKeys = new IndexKeys(this);

  /** The evaluator of DEFAULT expressions for ON DELETE / UPDATE SET DEFAULT (made on first use). */
  synchronized DefaultValues defaultValues() {
    if (defaultValues == null) {
      defaultValues = new DefaultValues(this);
    }
    return defaultValues;
  }

  private DefaultValues defaultValues;

  @Override
  public void close() {
    synchronized (this) {
      if (checkConstraints != null) {
        checkConstraints.close();
      }
      if (defaultValues != null) {
        defaultValues.close();
      }
    }
    io.accel.cursor.CursorCache c = cursorCache;
    if (c != null) {
      c.close();
    }
    statistics.close();
    sequenceValues.close();
    if (rowCache != null) {
      rowCache.unbindFrom(meters, meterTags());
    }
    if (resultCache != null) {
      resultCache.unbind();
    }
    store.close();
  }
}
