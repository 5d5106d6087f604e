package io.accel.exec;

import io.accel.catalog.IndexDef;
import io.accel.catalog.StatisticsCodec;
import io.accel.catalog.StatisticsCollector;
import io.accel.catalog.TableDef;
import io.accel.catalog.TableStatistics;
import io.accel.storage.Store;
import io.micrometer.core.instrument.Counter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The statistics of a {@link Database}'s tables, for the planner: what the last ANALYZE of each table
 * found (persisted in the {@code meta} column family, see {@link StatisticsCodec}), with the row count kept
 * current by counting the inserts and deletes of every committed transaction.
 *
 * <p>Each {@link TxnContext} counts what its statements wrote ({@link TxnContext#countChanges}); when it
 * commits, its counts are added to the tables' ({@link #commit}), a rolled-back one's are dropped. When the
 * rows changed (inserted, updated or deleted) since a table's last analysis exceed 10% of the rows it saw
 * plus 1,000 (PostgreSQL's autovacuum_analyze rule), the table is analyzed again on this database's one
 * background thread, no sooner than {@link #IDLE_FACTOR} times the previous automatic analysis's duration after
 * it ended. Analyses of one table never overlap; an analysis reads one snapshot, taken while no
 * commit is being counted, so the changes counted before it are exactly those the snapshot contains.
 *
 * <p>{@link #version()} increases whenever statistics change enough to change plans: an analysis whose row
 * count or any distinct count differs by more than 20% from the statistics of the table's last version
 * change (or a table's first analysis), and any DDL.
 *
 * <p>The changes counted since the last analysis are written when the store closes, so a clean reopen
 * keeps the row count; after a crash they are lost until the next analysis. Tables that have no
 * statistics at all when the store opens are analyzed in the background.
 */
public final class Statistics {
  private static final Logger LOG = LoggerFactory.getLogger(Statistics.class);
  /** Auto-analyze when changes exceed this fraction of the analyzed rows ... */
  static final double AUTO_ANALYZE_SCALE = 0.1;
  /** ... plus this many rows. */
  static final long AUTO_ANALYZE_THRESHOLD = 1000;
  /**
   * After an automatic analysis that took d, the next one of that table waits until d times this has passed:
   * on a table growing by bulk inserts the analyses (each reads the whole table) take at most a fifth of one
   * core from the writers, as PostgreSQL's autovacuum cost delay keeps its work in the background.
   */
  static final long IDLE_FACTOR = 4;
  /** Relative change of a count that changes {@link #version()}. */
  static final double SIGNIFICANT_CHANGE = 0.2;
  private static final int CANCEL_CHECK_ROWS = 1024;

  private final Database database;
  private final Store store;
  private final Map<Long, State> states = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();
  /** Held shared while a commit is counted, exclusively while an analysis takes its snapshot. */
  private final ReentrantReadWriteLock commitLock = new ReentrantReadWriteLock();
  private final ScheduledThreadPoolExecutor background;
  private final Counter manualRuns;
  private final Counter autoRuns;
  private volatile boolean closed;

  /** What is known of one table. Fields other than the locks are guarded by the State's monitor. */
  private static final class State {
    final ReentrantLock analysis = new ReentrantLock();
    final AtomicBoolean scheduled = new AtomicBoolean();
    /** The last analysis, or null when the table was never analyzed. */
    TableStatistics analyzed;
    /** Committed inserts minus deletes since the analysis. */
    long rowDelta;
    /** Committed inserted, updated and deleted rows since the analysis. */
    long changes;
    /** The statistics as of the last version change. */
    TableStatistics basis;
    /** No automatic analysis starts before this (System.nanoTime), see {@link #IDLE_FACTOR}. */
    long notBefore;
    /** Whether the counts differ from the stored record. */
    boolean dirty;
    /**
     * Whether {@link #analyzed} was computed by this process: only then do the counts cover every change since (a
     * crash loses the counts of the changes after the last clean close).
     */
    boolean fresh;
    TableStatistics view;

    synchronized long analyzedRows() {
      return analyzed == null ? 0 : analyzed.analyzedRowCount();
    }

    synchronized boolean due() {
      return changes > AUTO_ANALYZE_SCALE * analyzedRows() + AUTO_ANALYZE_THRESHOLD;
    }
  }

  Statistics(Database database) {
    this.database = database;
    this.store = database.store();
    this.background = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "accel-analyze " + store.description());
      t.setDaemon(true);
      return t;
    });
    background.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.manualRuns = counter("manual");
    this.autoRuns = counter("auto");
    load();
  }

  private Counter counter(String trigger) {
    return Counter.builder("accel.analyze.runs")
        .description("ANALYZE runs of one table")
        .tags(database.meterTags())
        .tag("trigger", trigger)
        .register(database.meters());
  }

  /** The current statistics of a table: as last analyzed, with the row count brought up to date. */
  public TableStatistics of(TableDef table) {
    State s = states.get(table.id());
    if (s == null) {
      return TableStatistics.empty(table);
    }
    synchronized (s) {
      if (s.analyzed == null) {
        return TableStatistics.empty(table).withRowCount(s.rowDelta);
      }
      long rows = Math.max(0, s.analyzed.analyzedRowCount() + s.rowDelta);
      if (s.analyzed.schemaVersion() != table.schemaVersion()) {
        // ALTER TABLE changed the columns since the analysis: only the row count still holds
        return TableStatistics.empty(table).withRowCount(rows);
      }
      if (s.view == null || s.view.rowCount() != rows) {
        s.view = s.analyzed.withRowCount(rows);
      }
      return s.view;
    }
  }

  /** The rows inserted, updated or deleted by transactions committed since the table's last analysis. */
  public long changesSinceAnalyze(TableDef table) {
    State s = states.get(table.id());
    if (s == null) {
      return 0;
    }
    synchronized (s) {
      return s.changes;
    }
  }

  /** Increases whenever statistics change enough to change plans (see the class comment), and on DDL. */
  public long version() {
    return version.get();
  }

  /** ANALYZE of one table: computes its statistics now from a fresh snapshot, waiting for a running analysis. */
  public void analyze(TableDef table) {
    State s = states.computeIfAbsent(table.id(), id -> new State());
    s.analysis.lock(); // after an analysis under way (an automatic one after a large load)
    try {
      boolean current;
      commitLock.writeLock().lock(); // no commit half counted
      try {
        synchronized (s) {
          current = s.fresh && s.analyzed != null && s.rowDelta == 0 && s.changes == 0
              && s.analyzed.schemaVersion() == table.schemaVersion();
        }
      } finally {
        commitLock.writeLock().unlock();
      }
      if (current) {
        // nothing changed since this process analyzed the table: the same rows would give the same statistics
        manualRuns.increment();
        return;
      }
    } finally {
      s.analysis.unlock();
    }
    run(table.id(), manualRuns, true);
  }

  // --- commits

  /** Commits a transaction and counts its changes ({@code tableId -> [rowDelta, changedRows]}). */
  void commit(Transaction txn, Map<Long, long[]> changes) throws RocksDBException {
    Map<Long, State> due = new java.util.HashMap<>();
    commitLock.readLock().lock();
    try {
      txn.commit();
      for (Map.Entry<Long, long[]> e : changes.entrySet()) {
        State s = states.computeIfAbsent(e.getKey(), id -> new State());
        synchronized (s) {
          s.rowDelta += e.getValue()[0];
          s.changes += e.getValue()[1];
          s.dirty = true;
        }
        if (s.due()) {
          due.put(e.getKey(), s);
        }
      }
    } finally {
      commitLock.readLock().unlock();
    }
    due.forEach((id, s) -> schedule(id, s, false));
  }

  /** Queues an automatic analysis unless one is queued; {@code force}: even if not due (never analyzed). */
  private void schedule(long tableId, State s, boolean force) {
    if (closed || !s.scheduled.compareAndSet(false, true)) {
      return;
    }
    long wait;
    synchronized (s) {
      wait = force ? 0 : Math.max(0, s.notBefore - System.nanoTime());
    }
    try {
      background.schedule(() -> {
        try {
          s.scheduled.set(false);
          if (force || s.due()) {
            long start = System.nanoTime();
            run(tableId, autoRuns, false);
            long end = System.nanoTime();
            synchronized (s) {
              s.notBefore = end + IDLE_FACTOR * (end - start);
            }
          }
        } catch (RuntimeException e) {
          if (!closed && !store.isClosed()) {
            LOG.warn("automatic ANALYZE of table {} of {} failed", tableId, store.description(), e);
          }
        }
      }, wait, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      s.scheduled.set(false);
    }
  }

  // --- analysis

  /** Signals that the store is closing. */
  private static final class Cancelled extends RuntimeException {
    Cancelled() {
      super("analysis cancelled: the store is closing", null, false, false);
    }
  }

  private void run(long tableId, Counter runs, boolean wait) {
    State s = states.computeIfAbsent(tableId, id -> new State());
    if (wait) {
      s.analysis.lock();
    } else if (!s.analysis.tryLock()) {
      return;
    }
    try {
      Optional<TableDef> def = currentTable(tableId);
      if (def.isEmpty()) {
        states.remove(tableId, s);
        return;
      }
      TableDef table = def.get();
      TxnContext ctx;
      long rowDelta;
      long changes;
      commitLock.writeLock().lock();
      try {
        ctx = database.begin();
        synchronized (s) {
          rowDelta = s.rowDelta;
          changes = s.changes;
        }
      } finally {
        commitLock.writeLock().unlock();
      }
      TableStatistics result;
      try (ctx) {
        result = collect(table, ctx);
      } catch (Cancelled e) {
        return;
      }
      publish(tableId, s, result, rowDelta, changes);
      runs.increment();
    } finally {
      s.analysis.unlock();
    }
  }

  /** Scans the table and walks each of its indexes, all in the context's snapshot. */
  private TableStatistics collect(TableDef table, TxnContext ctx) {
    long expected = of(table).rowCount();
    StatisticsCollector collector = new StatisticsCollector(table, expected);
    byte[] split = expected >= PARALLEL_ROWS ? database.splitKey(table) : null;
    if (split == null) {
      scan(table, ctx, collector, null, null);
    } else {
      // a large table is read in two key ranges at once, their collectors merged in key order
      StatisticsCollector later = new StatisticsCollector(table, expected);
      Database.inTwoParts(split, (from, to) -> scan(table, ctx, from == null ? collector : later, from, to));
      collector.merge(later);
    }
    for (IndexDef index : table.plainIndexes()) {
      walk(ctx, collector, index);
    }
    return collector.finish(System.currentTimeMillis());
  }

  /** Rows from which an analysis reads the table in two parts at once. */
  static final long PARALLEL_ROWS = 200_000;

  /** Feeds {@code collector} the rows whose keys are at least {@code from} and below {@code to} (null: unbounded). */
  private void scan(TableDef table, TxnContext ctx, StatisticsCollector collector, byte[] from, byte[] to) {
    TableReader reader = new TableReader(database, table);
    long n = 0;
    RocksIterator it = ctx.scanIterator(database.tableFamily(table));
    ctx.enter();
    try {
      for (Database.seek(it, from); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (Database.beyond(key, to)) {
          break;
        }
        collector.row(key, reader.decode(it.value()));
        if (++n % CANCEL_CHECK_ROWS == 0) {
          checkOpen();
        }
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
  }

  private void walk(TxnContext ctx, StatisticsCollector collector, IndexDef index) {
    ColumnFamilyHandle family = database.indexFamily(index.id());
    RocksIterator it = ctx.scanIterator(family);
    long n = 0;
    ctx.enter();
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        collector.indexEntry(index, it.key());
        if (++n % CANCEL_CHECK_ROWS == 0) {
          checkOpen();
        }
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
  }

  private void checkOpen() {
    if (closed || store.isClosed() || Thread.currentThread().isInterrupted()) {
      throw new Cancelled();
    }
  }

  /**
   * Makes an analysis current, unless its table was dropped meanwhile; statistics of indexes dropped
   * meanwhile are left out. {@code rowDelta} and {@code changes} are the counts its snapshot includes.
   */
  private synchronized void publish(long tableId, State s, TableStatistics result, long rowDelta, long changes) {
    Optional<TableDef> current = currentTable(tableId);
    if (current.isEmpty() || states.get(tableId) != s || closed) {
      return;
    }
    TableStatistics stats = result.forTable(current.get());
    StatisticsCodec.Entry entry;
    synchronized (s) {
      s.analyzed = stats;
      s.fresh = true;
      s.rowDelta -= rowDelta;
      s.changes -= changes;
      s.view = null;
      if (stats.differsSignificantly(s.basis, SIGNIFICANT_CHANGE)) {
        s.basis = stats;
        version.incrementAndGet();
      }
      entry = new StatisticsCodec.Entry(stats, s.rowDelta, s.changes);
      s.dirty = false;
    }
    persist(entry);
  }

  private void persist(StatisticsCodec.Entry entry) {
    try {
      store.db().put(store.meta(), store.writeOptions(), StatisticsCodec.key(entry.statistics().tableId()),
          StatisticsCodec.encode(entry));
    } catch (RocksDBException e) {
      throw TxnContext.storageFailure(e);
    }
  }

  private Optional<TableDef> currentTable(long tableId) {
    for (TableDef t : database.catalog().tables()) {
      if (t.id() == tableId) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  // --- DDL, called by CommandExecutor while it holds the schema lock exclusively

  void tableCreated(TableDef table) {
    version.incrementAndGet();
  }

  /** Forgets a dropped table's statistics. */
  synchronized void tableDropped(TableDef table) {
    states.remove(table.id());
    try {
      store.db().delete(store.meta(), store.writeOptions(), StatisticsCodec.key(table.id()));
    } catch (RocksDBException e) {
      throw TxnContext.storageFailure(e);
    }
    version.incrementAndGet();
  }

  /**
   * Computes the statistics of a new index ({@code table} is the table with it). When the table's
   * statistics describe its rows exactly (nothing changed since the analysis) only the new index is
   * walked (or {@code sortedEntries}, its entries in key order, read when the caller has them); otherwise the whole
   * table is analyzed. A failure leaves the index without statistics.
   */
  void indexCreated(TableDef table, IndexDef index, List<byte[][]> sortedEntries) {
    version.incrementAndGet();
    if (!index.plain()) {
      return; // no plan reads it: its entries say nothing the planner uses
    }
    try {
      State s = states.computeIfAbsent(table.id(), id -> new State());
      s.analysis.lock();
      try {
        TableStatistics base;
        synchronized (s) {
          base = s.analyzed != null && s.rowDelta == 0 && s.changes == 0
              && s.analyzed.schemaVersion() == table.schemaVersion() ? s.analyzed : null;
        }
        if (base != null) {
          StatisticsCollector collector = StatisticsCollector.forIndex(base, table, index);
          TableStatistics result;
          if (sortedEntries != null) {
            for (byte[][] entry : sortedEntries) {
              collector.indexEntry(index, entry[0]);
            }
          } else {
            try (TxnContext ctx = database.begin()) {
              walk(ctx, collector, index);
            }
          }
          result = collector.finish(base.analyzedAt());
          publish(table.id(), s, result, 0, 0);
          return;
        }
      } finally {
        s.analysis.unlock();
      }
      run(table.id(), autoRuns, true);
    } catch (Cancelled e) {
      // the store is closing
    } catch (RuntimeException e) {
      LOG.warn("statistics of the new index {} could not be computed", index.name(), e);
    }
  }

  /** Drops a dropped index's statistics ({@code table} is the table without it). */
  synchronized void indexDropped(TableDef table, IndexDef index) {
    version.incrementAndGet();
    State s = states.get(table.id());
    if (s == null) {
      return;
    }
    StatisticsCodec.Entry entry = null;
    synchronized (s) {
      if (s.analyzed != null) {
        s.analyzed = s.analyzed.forTable(table);
        s.basis = s.basis == null ? null : s.basis.forTable(table);
        s.view = null;
        entry = new StatisticsCodec.Entry(s.analyzed, s.rowDelta, s.changes);
        s.dirty = false;
      }
    }
    if (entry != null) {
      persist(entry);
    }
  }

  // --- open and close

  /** Loads the stored statistics; drops records of tables that no longer exist. */
  private void load() {
    byte[] prefix = StatisticsCodec.KEY_PREFIX.getBytes(StandardCharsets.UTF_8);
    Map<Long, TableDef> tables = new java.util.HashMap<>();
    for (TableDef t : database.catalog().tables()) {
      tables.put(t.id(), t);
    }
    List<byte[]> orphans = new ArrayList<>();
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(prefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), prefix); it.next()) {
        long id = StatisticsCodec.tableId(it.key());
        TableDef table = tables.get(id);
        if (table == null) {
          orphans.add(it.key());
          continue;
        }
        try {
          StatisticsCodec.Entry entry = StatisticsCodec.decode(it.value(), table);
          State s = new State();
          synchronized (s) {
            s.analyzed = entry.statistics().analyzed() ? entry.statistics() : null;
            s.basis = s.analyzed;
            s.rowDelta = entry.rowDelta();
            s.changes = entry.changes();
          }
          states.put(id, s);
        } catch (IllegalArgumentException e) {
          LOG.warn("ignoring unreadable statistics of table {} of {}", table.name(), store.description(), e);
        }
      }
    }
    for (byte[] key : orphans) {
      try {
        store.db().delete(store.meta(), store.writeOptions(), key);
      } catch (RocksDBException e) {
        LOG.warn("cannot delete the statistics of a dropped table", e);
      }
    }
    for (TableDef t : tables.values()) {
      State s = states.get(t.id());
      if (s == null) {
        schedule(t.id(), states.computeIfAbsent(t.id(), id -> new State()), true);
      } else if (s.due()) {
        schedule(t.id(), s, false);
      }
    }
  }


  /** Stops the background thread and writes the counts not yet stored; before the store closes. */
  void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    ExecutorService bg = background;
    bg.shutdownNow();
    try {
      if (!bg.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("the ANALYZE thread of {} did not stop", store.description());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (store.isClosed()) {
      return;
    }
    for (TableDef t : database.catalog().tables()) {
      State s = states.get(t.id());
      if (s == null) {
        continue;
      }
      StatisticsCodec.Entry entry;
      synchronized (s) {
        if (!s.dirty) {
          continue;
        }
        entry = new StatisticsCodec.Entry(s.analyzed == null ? TableStatistics.empty(t) : s.analyzed, s.rowDelta,
            s.changes);
        s.dirty = false;
      }
      try {
        persist(entry);
      } catch (RuntimeException e) {
        LOG.warn("cannot store the statistics of table {} of {}", t.name(), store.description(), e);
      }
    }
  }
}
