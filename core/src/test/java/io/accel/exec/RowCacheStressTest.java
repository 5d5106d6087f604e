package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.cache.RowCache;
import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.CommandParser;
import io.accel.sql.SqlState;
import io.accel.storage.RowCodec;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyHandle;

/**
 * The row cache under concurrent writers (updates, deletes, re-inserts of the same few hundred keys) and
 * readers holding snapshots of different ages: every row a reader gets through the cache equals what
 * RocksDB returns at that reader's snapshot. The cache is small, so entries are evicted all the time, and
 * the superseded versions of old snapshots are freed as the snapshots close.
 */
class RowCacheStressTest {
  private static final int KEYS = 300;
  private static final long CACHE_BYTES = 48 << 10;
  private static final long RUN_MILLIS = Long.getLong("rowcache.stress.millis", 6_000);
  /** Held shared by each writer transaction and reader round, exclusively by the bound check. */
  private static final java.util.concurrent.locks.ReentrantReadWriteLock PAUSE =
      new java.util.concurrent.locks.ReentrantReadWriteLock();

  @Test
  void readersAlwaysSeeWhatRocksDbHoldsAtTheirSnapshot() throws Exception {
    try (Database db = Database.open(Store.openInMemory("row-cache-stress", new StoreOptions(8 << 20, false,
        CACHE_BYTES)), new SimpleMeterRegistry())) {
      Session setup = new Session(db);
      new CommandExecutor(setup).execute(CommandParser.parse(
          "CREATE TABLE kv (k INTEGER PRIMARY KEY, v BIGINT NOT NULL, pad VARCHAR(100))").orElseThrow());
      setup.close();
      TableDef table = db.catalog().table("kv").orElseThrow();
      ColumnFamilyHandle family = db.tableFamily(table);
      List<DataType> types = ScanPlan.types(table);
      RowCache cache = db.rowCache();
      try (TxnContext ctx = db.begin()) {
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
          rows.add(new Object[] {k, 0L, "row " + k + " ".repeat(k % 40)});
        }
        new TableWriter(db, ctx, table).insert(rows);
        ctx.commit();
      }

      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong checks = new AtomicLong();
      AtomicLong commits = new AtomicLong();
      AtomicLong maxSuperseded = new AtomicLong();
      AtomicLong overBound = new AtomicLong(Long.MIN_VALUE);
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<?>> tasks = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        long seed = 1000 + w;
        tasks.add(pool.submit(() -> write(db, table, family, types, new Random(seed), stop, commits)));
      }
      for (int r = 0; r < 3; r++) {
        long seed = 2000 + r;
        tasks.add(pool.submit(() -> read(db, table, family, types, new Random(seed), stop, checks, failures)));
      }
      tasks.add(pool.submit(() -> {
        while (!stop.get()) {
          // Caffeine evicts right after a write unless another thread is evicting, and then soon after; with
          // the writers paused and maintenance run, the cache must be within its bound
          PAUSE.writeLock().lock();
          try {
            maxSuperseded.accumulateAndGet(cache.supersededVersions(), Math::max);
            cache.cleanUp();
            overBound.accumulateAndGet(cache.weightedBytes() - CACHE_BYTES, Math::max);
          } finally {
            PAUSE.writeLock().unlock();
          }
          Thread.sleep(20);
        }
        return null;
      }));
      Thread.sleep(RUN_MILLIS);
      stop.set(true);
      pool.shutdown();
      assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
      for (Future<?> f : tasks) {
        f.get();
      }

      assertThat(failures).as("rows read through the cache that differ from RocksDB at the snapshot").isEmpty();
      assertThat(checks.get()).isGreaterThan(10_000);
      assertThat(commits.get()).isGreaterThan(500);
      System.out.println("row cache stress: " + checks.get() + " checks, " + commits.get() + " commits, "
          + cache.stats() + ", most superseded versions held " + maxSuperseded.get() + ", most bytes over the bound "
          + Math.max(0, overBound.get()));
      assertThat(overBound.get()).as("bytes over the bound after maintenance").isLessThanOrEqualTo(0);
      cache.cleanUp();
      assertThat(cache.weightedBytes()).as("bytes once quiet").isLessThanOrEqualTo(CACHE_BYTES);
      assertThat(cache.stats().hitCount()).as("hits").isPositive();
      assertThat(cache.stats().evictionCount()).as("evictions").isPositive();
      assertThat(maxSuperseded.get()).as("superseded versions kept for old snapshots").isPositive();
      cache.cleanUp();
      assertThat(cache.openSnapshots()).isZero();
      assertThat(cache.supersededVersions()).as("superseded versions once every snapshot closed").isZero();
      assertThat(cache.writeMarks()).as("write marks once every snapshot closed").isZero();
    }
  }

  /** Updates, deletes and re-inserts random keys, one or three per transaction; conflicts and deadlocks roll back. */
  private static Void write(Database db, TableDef table, ColumnFamilyHandle family, List<DataType> types,
      Random random, AtomicBoolean stop, AtomicLong commits) {
    while (!stop.get()) {
      PAUSE.readLock().lock();
      try (TxnContext ctx = db.begin()) {
        try {
          TableWriter writer = new TableWriter(db, ctx, table);
          int n = random.nextBoolean() ? 1 : 3;
          for (int i = 0; i < n; i++) {
            int k = random.nextInt(KEYS);
            byte[] key = RowKeys.rowKey(table, new Object[] {k, null, null});
            byte[] value = ctx.getForUpdate(family, key);
            if (value == null) {
              writer.insert(List.<Object[]>of(new Object[] {k, random.nextLong(), "re-inserted " + k}));
            } else {
              Object[] old = RowCodec.decode(types, value);
              if (random.nextInt(4) == 0) {
                writer.delete(List.<Object[]>of(old));
              } else {
                writer.update(List.<Object[]>of(old), List.<Object[]>of(new Object[] {k, random.nextLong(),
                    "updated " + "x".repeat(random.nextInt(60))}));
              }
            }
          }
          ctx.commit();
          commits.incrementAndGet();
        } catch (AccelException e) {
          // two writers locking keys in different orders deadlock now and then, and a key the other re-inserted
          // since this one's snapshot is a duplicate (23505), as in PostgreSQL
          if (e.state() != SqlState.SERIALIZATION_FAILURE && e.state() != SqlState.DEADLOCK_DETECTED
              && e.state() != SqlState.UNIQUE_VIOLATION) {
            throw e;
          }
          ctx.rollback();
        }
      } finally {
        PAUSE.readLock().unlock();
      }
    }
    return null;
  }

  /**
   * Keeps up to four snapshots open at a time, of different ages (some plain snapshots, some read-only
   * transactions), and checks rows through the cache against RocksDB at the same snapshot, one at a time and
   * in batches.
   */
  private static Void read(Database db, TableDef table, ColumnFamilyHandle family, List<DataType> types,
      Random random, AtomicBoolean stop, AtomicLong checks, ConcurrentLinkedQueue<String> failures) {
    Deque<TxnContext> open = new ArrayDeque<>();
    try {
      while (!stop.get()) {
        PAUSE.readLock().lock();
        try {
          readRound(db, table, family, types, random, open, checks, failures);
        } finally {
          PAUSE.readLock().unlock();
        }
      }
    } finally {
      open.forEach(TxnContext::close);
    }
    return null;
  }

  private static void readRound(Database db, TableDef table, ColumnFamilyHandle family, List<DataType> types,
      Random random, Deque<TxnContext> open, AtomicLong checks, ConcurrentLinkedQueue<String> failures) {
    if (open.size() < 4 || random.nextInt(10) == 0) {
      open.add(random.nextInt(3) == 0 ? db.begin() : db.beginReadOnly());
    }
    if (open.size() > 4 || random.nextInt(20) == 0) {
      open.poll().close();
    }
    for (TxnContext ctx : open) {
      List<byte[]> keys = new ArrayList<>();
      boolean[] wanted = random.nextBoolean() ? null : new boolean[] {true, true, false};
      for (int i = 0; i < 8; i++) {
        byte[] key = RowKeys.rowKey(table, new Object[] {random.nextInt(KEYS), null, null});
        keys.add(key);
        compare(ctx.snapshotSequence(), ctx.fetchRow(table, family, key, null), ctx.get(family, key), types,
            null, failures);
      }
      List<Object[]> batch = ctx.fetchRows(table, family, keys, wanted);
      List<byte[]> raw = ctx.multiGet(family, keys);
      for (int i = 0; i < keys.size(); i++) {
        compare(ctx.snapshotSequence(), batch.get(i), raw.get(i), types, wanted, failures);
      }
      checks.addAndGet(16);
    }
  }

  private static void compare(long snapshot, Object[] cached, byte[] stored, List<DataType> types,
      boolean[] wanted, ConcurrentLinkedQueue<String> failures) {
    Object[] expected = stored == null ? null : RowCodec.decode(types, stored, wanted);
    if (!Arrays.equals(cached, expected) && failures.size() < 20) {
      failures.add("snapshot " + snapshot + ": cache " + Arrays.toString(cached) + ", RocksDB "
          + Arrays.toString(expected));
    }
  }
}
