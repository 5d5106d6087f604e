package io.accel.exec;

import io.accel.cache.ReadSet;
import io.accel.cache.ResultCache;
import io.accel.cache.RowCache;
import io.accel.catalog.Catalog;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.Status;
import org.rocksdb.Transaction;

/**
 * One RocksDB transaction and the read options that pin its snapshot: everything a statement reads
 * comes from that one snapshot plus the transaction's own writes. It owns the transaction (or, for a
 * read-only statement, the snapshot), the read options and every iterator opened through it, and closes
 * them all in {@link #close()}.
 *
 * <p>Rows fetched by primary key ({@link #fetchRow}, {@link #fetchRows}) go through the store's
 * {@link RowCache} when it is on, except rows of tables this transaction wrote (its own writes are only in
 * the transaction). The context registers its snapshot with the cache before taking it, and tells the cache
 * which rows a commit writes around the RocksDB commit.
 *
 * <p>No native object is touched after it is freed: every read and write runs under the shared side of
 * {@link #guard} and fails with 55000 once the context has ended (commit, rollback or close), and ending it
 * takes the exclusive side, so it waits for a read in flight on another thread (a scan's step, a fetch)
 * instead of freeing the iterator or snapshot under it. Scans hold the shared side for a whole step
 * ({@link #enter}/{@link #exit}) so the per-entry iterator calls cost one lock acquisition together.
 */
public final class TxnContext implements AutoCloseable {
  private final Transaction txn;
  /** A read-only context (a query outside a transaction block) reads the database directly at a snapshot. */
  private final RocksDB db;
  private Snapshot snapshot;
  private final ReadOptions readOptions;
  private final List<RocksIterator> iterators = new ArrayList<>();
  /** Rows this transaction changed per table id: {inserted - deleted, inserted + updated + deleted}. */
  private final Map<Long, long[]> changes = new HashMap<>();
  private final Statistics statistics;
  /** The store's row cache, null when it is off; {@link #registration} registers this context's snapshot. */
  private final RowCache rowCache;
  private RowCache.Registration registration;
  private long snapshotSequence;
  /** The first snapshot's sequence: the transaction's referenced-key claims date from it. */
  private final long firstSequence;
  private long startedAt = System.currentTimeMillis();
  /** Rows this transaction wrote (for the row cache's commit protocol) and the tables they belong to. */
  private final Set<RowCache.Key> writtenRows = new LinkedHashSet<>();
  private final Set<Long> writtenTables = new HashSet<>();
  private boolean wrote;
  /** Whether keys were read for update: their commit check is the only thing a transaction without writes commits. */
  private boolean trackedReads;
  private boolean closed;
  private final ReentrantReadWriteLock guard = new ReentrantReadWriteLock();
  /** How the context ended (null while it is live): what a read attempted afterwards is told. */
  private volatile String ended;
  /** The catalog and its version before the snapshot was taken: DDL after that makes a table off limits. */
  private Catalog catalog;
  private Lock schemaLock;
  private long catalogVersion = Long.MAX_VALUE;
  /** Tables whose DDL this transaction's own session ran and this transaction sees whole, with its version. */
  /** The tables this transaction wrote rows of: its commit fails if DDL changed one of them meanwhile. */
  private final Set<Long> wroteTables = new HashSet<>();
  /** Families created after this snapshot that its own session's DDL gave it: RocksDB cannot track them. */
  private final Set<ColumnFamilyHandle> untracked = java.util.Collections.newSetFromMap(
      new java.util.IdentityHashMap<>());
  private final Map<Long, Long> adopted = new java.util.concurrent.ConcurrentHashMap<>();
  /** The store's registry of referenced keys, and this transaction's registration with it (null: read-only). */
  private ReferenceClaims claims;
  private Object claimToken;
  /** Referenced keys this transaction's referencing rows rely on, and referenced keys it removed. */
  private final Set<java.nio.ByteBuffer> referencedKeys = new LinkedHashSet<>();
  private final Set<java.nio.ByteBuffer> removedReferencedKeys = new LinkedHashSet<>();

  /**
   * A transaction, whose snapshot was taken after {@code registration} (null with the cache off);
   * {@code statistics}, when given, receives its row counts when it commits.
   */
  TxnContext(RocksDB db, Transaction txn, Statistics statistics, RowCache rowCache,
      RowCache.Registration registration) {
    this.txn = txn;
    // point reads of a transaction that has written nothing go to the database at its snapshot: the same values,
    // without the transaction's MultiGet, which looks keys up one by one (P1's 250,000 rows read in a block:
    // 1.4 to 1.9 s through the transaction, 0.9 to 1.4 s at the snapshot)
    this.db = db;
    this.snapshot = txn.getSnapshot();
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
    this.statistics = statistics;
    this.rowCache = rowCache;
    this.registration = registration;
    this.snapshotSequence = snapshot.getSequenceNumber();
    this.firstSequence = snapshotSequence;
  }

  /**
   * A read-only context: a snapshot of {@code db}, read without a transaction (no write batch to merge,
   * nothing to validate), which a single query outside a transaction block needs. It releases the snapshot
   * when closed. With a row cache, the snapshot is registered with it first.
   */
  TxnContext(RocksDB db, RowCache rowCache) {
    this.txn = null;
    this.db = db;
    this.rowCache = rowCache;
    this.registration = rowCache == null ? null : rowCache.register();
    this.snapshot = db.getSnapshot();
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
    this.statistics = null;
    this.snapshotSequence = snapshot.getSequenceNumber();
    this.firstSequence = snapshotSequence;
  }

  /** The store's row lock table and the rows this transaction locked (SELECT ... FOR UPDATE / SHARE). */
  private RowLocks rowLocks;
  private final List<java.nio.ByteBuffer> lockedRows = new ArrayList<>();
  /** The locking clause of the statement running in this context, or null. */
  private volatile io.accel.sql.RowLocking rowLocking;

  void rowLocks(RowLocks locks) {
    this.rowLocks = locks;
  }

  synchronized void lockedRow(java.nio.ByteBuffer row) {
    lockedRows.add(row);
  }

  private synchronized void releaseRowLocks() {
    if (rowLocks != null && !lockedRows.isEmpty()) {
      rowLocks.release(this, lockedRows);
      lockedRows.clear();
    }
  }

  /** Sets (or with null clears) the locking clause the scans of the running statement apply. */
  void rowLocking(io.accel.sql.RowLocking locking) {
    this.rowLocking = locking;
  }

  io.accel.sql.RowLocking rowLocking() {
    return rowLocking;
  }

  /** Whether this context is a transaction (not a read-only snapshot): it can write and track keys. */
  boolean transactional() {
    return txn != null;
  }

  /** Whether the latest committed value of a key differs from the one at this context's snapshot. */
  boolean changedSinceSnapshot(ColumnFamilyHandle family, byte[] key) {
    enter();
    try {
      return !java.util.Arrays.equals(db.get(family, readOptions, key), db.get(family, key));
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /**
   * READ COMMITTED: the statement about to run reads a new snapshot, so it sees every transaction committed by now,
   * and the keys it tracks conflict only with commits after it. The transaction's own writes stay visible. Iterators
   * already open keep the snapshot they were opened at.
   */
  void newSnapshot() {
    if (txn == null) {
      return;
    }
    ReentrantReadWriteLock.WriteLock lock = guard.writeLock();
    lock.lock(); // no read in flight while the read options change
    try {
      synchronized (this) {
        checkLive();
        RowCache.Registration fresh = rowCache == null ? null : rowCache.register();
        // the transaction's own snapshot, so keys tracked from now on date from exactly what the statement reads;
        // the transaction releases the one it replaces (open iterators keep only its sequence number)
        txn.setSnapshot();
        Snapshot next = txn.getSnapshot();
        readOptions.setSnapshot(next);
        snapshot = next;
        snapshotSequence = next.getSequenceNumber();
        if (registration != null) {
          registration.close();
        }
        registration = fresh;
      }
    } finally {
      lock.unlock();
    }
  }

  /** At most this many rows are write-locked per transaction; conflicts on more surface at commit (40001). */
  static final int MAX_WRITE_LOCKS = 50_000;
  private int writeLocks;
  /** Whether a concurrent update restarts the running statement (READ COMMITTED) instead of failing it. */
  private boolean restartable;

  void restartable(boolean on) {
    restartable = on;
  }

  /** lock_timeout of the statement running in this context (0: wait as long as it takes). */
  private long lockTimeoutMillis;

  void lockTimeout(long millis) {
    lockTimeoutMillis = millis;
  }

  /**
   * Locks a row this transaction is about to change (UPDATE, DELETE, ON CONFLICT DO UPDATE), waiting while another
   * open transaction holds a conflicting lock on it, as PostgreSQL's writers wait. A row whose latest committed
   * version is newer than the statement's snapshot then restarts the statement ({@link StatementRestart}) where
   * it can restart (READ COMMITTED), and fails with 40001 elsewhere (REPEATABLE READ), as in PostgreSQL.
   */
  void lockForWrite(TableDef table, ColumnFamilyHandle family, byte[] rowKey,
      io.accel.sql.RowLocking.Strength strength) {
    lockRow(table.id(), family, rowKey, strength, true);
  }

  /**
   * As {@link #lockForWrite(TableDef, ColumnFamilyHandle, byte[], io.accel.sql.RowLocking.Strength)}, for a key of
   * {@code family} locked in the name space {@code space} (a table's id; a unique index's entries use their own).
   * Without {@code wait} (NOWAIT, SKIP LOCKED) a conflicting holder's lock returns false at once, nothing locked.
   */
  boolean lockRow(long space, ColumnFamilyHandle family, byte[] key, io.accel.sql.RowLocking.Strength strength,
      boolean wait) {
    Boolean waited = takeRowLock(space, key, strength, wait);
    if (waited == null) {
      return false;
    }
    // after a wait the holder may have committed the same value (an update by 0), which the comparison misses but
    // RocksDB's commit check would not: any commit since the snapshot then counts as a change
    if (db.getLatestSequenceNumber() != snapshotSequence && (waited || changedSinceSnapshot(family, key))) {
      throw concurrentUpdate();
    }
    return true;
  }

  /**
   * Locks a key an INSERT is about to create (a primary key, a unique index entry) as {@link #lockRow} does, waiting
   * for a transaction that holds it; then looks at the key as committed now, as PostgreSQL's unique check does: true
   * when another transaction committed it since this statement's snapshot (a unique violation, 23505, at any
   * isolation level). A key this statement still sees that a commit since removed restarts it (40001 at REPEATABLE
   * READ); a key this transaction removed itself, or one whose holder rolled back, is free.
   */
  boolean lockNewKey(long space, ColumnFamilyHandle family, byte[] key) {
    boolean waited = takeRowLock(space, key, io.accel.sql.RowLocking.Strength.UPDATE, true);
    if (!waited && db.getLatestSequenceNumber() == snapshotSequence) {
      return false;
    }
    byte[] latest;
    byte[] atSnapshot;
    enter();
    try {
      latest = db.get(family, key);
      atSnapshot = db.get(family, readOptions, key);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
    if (latest != null && atSnapshot == null) {
      return true;
    }
    if (latest == null && atSnapshot != null && get(family, key) != null) {
      throw concurrentUpdate();
    }
    return false;
  }

  /**
   * Takes the lock of {@code key} in {@code space}, waiting for a conflicting holder when {@code wait}: whether it
   * waited, or null when it did not wait and another holds it (nothing taken). Past {@link #MAX_WRITE_LOCKS} nothing
   * is locked and conflicts surface at commit.
   */
  private Boolean takeRowLock(long space, byte[] key, io.accel.sql.RowLocking.Strength strength, boolean wait) {
    if (rowLocks == null || writeLocks >= MAX_WRITE_LOCKS) {
      return false;
    }
    java.nio.ByteBuffer row = RowLocks.row(space, key);
    boolean waited = false;
    if (!rowLocks.acquire(this, row, strength)) {
      if (!wait) {
        return null;
      }
      waited = true;
      waitFor(row, strength);
    }
    lockedRow(row);
    writeLocks++;
    return waited;
  }

  /**
   * Waits for a row lock without the schema lock's shared side: DDL queued for the exclusive side would otherwise
   * hold up the lock holder's next statement, which waits for the shared side behind it, while this waits for the
   * holder. DDL that ran meanwhile fails the statement (40001): its plan and tables may no longer exist.
   */
  private void waitFor(java.nio.ByteBuffer row, io.accel.sql.RowLocking.Strength strength) {
    long timeout = lockTimeoutMillis;
    long start = System.nanoTime();
    int holds = schemaLocks == null ? 0 : schemaLocks.getReadHoldCount();
    long version = catalog == null ? 0 : catalog.version();
    for (int i = 0; i < holds; i++) {
      schemaLock.unlock();
    }
    try {
      rowLocks.acquireWaiting(this, row, strength, () -> {
        checkWaiting();
        if (timeout > 0 && System.nanoTime() - start >= timeout * 1_000_000) {
          throw new AccelException(SqlState.LOCK_NOT_AVAILABLE, "canceling statement due to lock timeout");
        }
      });
    } finally {
      for (int i = 0; i < holds; i++) {
        schemaLock.lock();
      }
    }
    if (catalog != null && catalog.version() != version) {
      throw new AccelException(SqlState.SERIALIZATION_FAILURE,
          "could not serialize access: the schema changed while the statement waited for a row lock");
    }
  }

  /** A row changed since the statement's snapshot: a restart where the statement can restart, else 40001. */
  RuntimeException concurrentUpdate() {
    return restartable ? new StatementRestart()
        : new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent update");
  }

  /** Between a lock wait's polls: the statement's cancellation, and the context's end (its connection closed). */
  private void checkWaiting() {
    checkLive();
    Cancellation c = cancellation;
    if (c != null) {
      c.check();
    }
  }

  void claims(ReferenceClaims claims, Object token) {
    this.claims = claims;
    this.claimToken = token;
  }

  /** A referencing row written by this transaction relies on the referenced key {@code key} of {@code family}. */
  public synchronized void referencedKey(ColumnFamilyHandle family, byte[] key) {
    referencedKeys.add(ReferenceClaims.key(family.getID(), key));
  }

  /** This transaction removed (deleted or changed) the referenced key {@code key} of {@code family}. */
  public synchronized void removedReferencedKey(ColumnFamilyHandle family, byte[] key) {
    removedReferencedKeys.add(ReferenceClaims.key(family.getID(), key));
  }

  /** Counts rows a statement wrote into a table, for the table's statistics once this transaction commits. */
  synchronized void countChanges(long tableId, long rowDelta, long changedRows) {
    long[] c = changes.computeIfAbsent(tableId, id -> new long[2]);
    c[0] += rowDelta;
    c[1] += changedRows;
  }

  /** Binds the catalog whose version {@code version} was read before this context's snapshot was taken. */
  void schema(Catalog catalog, ReentrantReadWriteLock schemaLock, long version) {
    this.catalog = catalog;
    this.schemaLocks = schemaLock;
    this.schemaLock = schemaLock.readLock();
    this.catalogVersion = version;
  }

  /** The store's schema lock, whose shared side a statement holds while it runs (DDL takes the exclusive side). */
  private ReentrantReadWriteLock schemaLocks;

  /**
   * Records that DDL this transaction's session ran (at catalog version {@code version}) left the table whole for
   * this transaction: a table it created, or indexed within this transaction while no other rows existed.
   */
  public synchronized void adoptSchema(long tableId, long version, List<ColumnFamilyHandle> newFamilies) {
    adopted.put(tableId, version);
    untracked.addAll(newFamilies);
  }

  /**
   * Forgets the writes to a table this transaction's session replaced within it (ADD PRIMARY KEY over the
   * transaction's own rows, stored again under the new table): they go to a dropped family, and the replacement
   * does not fail the commit.
   */
  synchronized void abandonTable(long tableId) {
    wroteTables.remove(tableId);
    writtenTables.remove(tableId);
    changes.remove(tableId);
  }

  /** Whether this transaction may read and write {@code tableId}: no DDL but its own changed it since it began. */
  public boolean schemaCurrent(long tableId) {
    if (catalog == null) {
      return true;
    }
    long changed = catalog.changedAt(tableId);
    Long own = adopted.get(tableId);
    return changed <= catalogVersion || own != null && own == changed;
  }

  /**
   * Fails with 40001 when DDL (CREATE or DROP INDEX, DROP TABLE) changed {@code table} after this transaction's
   * snapshot: a new index holds no entries for what the snapshot sees, and writes made before the change miss it.
   * PostgreSQL makes such DDL wait for open transactions; Accel's DDL is immediate, so the transaction retries.
   */
  public void checkSchema(TableDef table) {
    checkSchema(table.id(), table.name());
  }

  private void checkSchema(long tableId, String name) {
    if (catalog == null) {
      return;
    }
    if (!schemaCurrent(tableId)) {
      throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access: "
          + (name == null ? "a table this transaction wrote" : "table \"" + name + "\"")
          + " was changed by DDL after this transaction began; retry the transaction");
    }
  }

  /**
   * When the transaction began (milliseconds since the epoch): CURRENT_TIMESTAMP and now() of its statements, the
   * same for every statement of a transaction block, as in PostgreSQL.
   */
  public long startedAt() {
    return startedAt;
  }

  /** A block's transaction began with its BEGIN, before the first statement created this context. */
  void startedAt(long millis) {
    this.startedAt = millis;
  }

  /** The sequence number of the snapshot this context reads. */
  public long snapshotSequence() {
    return snapshotSequence;
  }

  /** Whether fetches of {@code table}'s rows may use the row cache. */
  private boolean cached(TableDef table) {
    return rowCache != null && (writtenTables.isEmpty() || !writtenTables.contains(table.id()));
  }

  /**
   * The row stored under a primary key ({@code family} is the table's), with the columns {@code wanted} marks
   * decoded (all when null; the others null); null when there is none. Through the row cache when it is on.
   */
  public Object[] fetchRow(TableDef table, ColumnFamilyHandle family, byte[] rowKey, boolean[] wanted) {
    ReadSet r = reads;
    if (r != null) {
      r.point(family, rowKey);
    }
    byte[] value = null;
    boolean cached = cached(table);
    if (cached) {
      value = rowCache.get(table.id(), rowKey, snapshotSequence);
    }
    if (value == null) {
      value = read(family, rowKey);
      if (value == null) {
        return null;
      }
      if (cached) {
        rowCache.offer(table.id(), rowKey, snapshotSequence, value);
      }
    }
    return table.decodeRow(value, wanted);
  }

  /** {@link #fetchRow} for many keys: the misses are read with one MultiGet. Rows (or nulls) in key order. */
  public List<Object[]> fetchRows(TableDef table, ColumnFamilyHandle family, List<byte[]> rowKeys,
      boolean[] wanted) {
    ReadSet r = reads;
    if (r != null) {
      for (byte[] key : rowKeys) {
        r.point(family, key);
      }
    }
    boolean cached = cached(table);
    byte[][] values = new byte[rowKeys.size()][];
    List<byte[]> missing = rowKeys;
    int[] missingAt = null;
    if (cached) {
      missing = new ArrayList<>();
      missingAt = new int[rowKeys.size()];
      for (int i = 0; i < rowKeys.size(); i++) {
        values[i] = rowCache.get(table.id(), rowKeys.get(i), snapshotSequence);
        if (values[i] == null) {
          missingAt[missing.size()] = i;
          missing.add(rowKeys.get(i));
        }
      }
    }
    if (!missing.isEmpty()) {
      List<byte[]> read = multiGet(family, missing, false);
      for (int j = 0; j < read.size(); j++) {
        byte[] value = read.get(j);
        if (cached) {
          if (value != null) {
            values[missingAt[j]] = value;
            rowCache.offer(table.id(), missing.get(j), snapshotSequence, value);
          }
        } else {
          values[j] = value;
        }
      }
    }
    Object[][] rows = new Object[values.length][];
    for (int i = 0; i < values.length; i++) {
      rows[i] = values[i] == null ? null : table.decodeRow(values[i], wanted);
    }
    return Arrays.asList(rows);
  }

  public byte[] get(ColumnFamilyHandle family, byte[] key) {
    ReadSet r = reads;
    if (r != null) {
      r.point(family, key);
    }
    return read(family, key);
  }

  private byte[] read(ColumnFamilyHandle family, byte[] key) {
    enter();
    try {
      return txn == null || !wrote ? db.get(family, readOptions, key) : txn.get(readOptions, family, key);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /**
   * A MultiGet of one key costs more than a get; from two keys on it costs less per key (JMH
   * {@code RocksReadBenchmark} on the straddle store: 4.7 us for a get of an orders row, 9.9 us for a MultiGet
   * of three).
   */
  static final int MULTI_GET_MIN = 2;

  /** Reads many keys of one family (with one MultiGet from {@value #MULTI_GET_MIN} keys); values in key order. */
  public List<byte[]> multiGet(ColumnFamilyHandle family, List<byte[]> keys) {
    ReadSet r = reads;
    if (r != null) {
      for (byte[] key : keys) {
        r.point(family, key);
      }
    }
    return multiGet(family, keys, false);
  }

  /** {@link #getForUpdate} of many keys of one family, with one MultiGet as {@link #multiGet}. */
  public List<byte[]> multiGetForUpdate(ColumnFamilyHandle family, List<byte[]> keys) {
    return multiGet(family, keys, true);
  }

  private List<byte[]> multiGet(ColumnFamilyHandle family, List<byte[]> keys, boolean forUpdate) {
    if (keys.size() < MULTI_GET_MIN) {
      List<byte[]> values = new ArrayList<>(keys.size());
      for (byte[] key : keys) {
        values.add(forUpdate ? getForUpdate(family, key) : read(family, key));
      }
      return values;
    }
    if (forUpdate) {
      checkWritable();
    }
    List<ColumnFamilyHandle> families = java.util.Collections.nCopies(keys.size(), family);
    enter();
    try {
      if (txn == null || !forUpdate && !wrote) {
        return db.multiGetAsList(readOptions, families, keys);
      }
      trackedReads |= forUpdate;
      return forUpdate && !untracked.contains(family) ? txn.multiGetForUpdateAsList(readOptions, families, keys)
          : txn.multiGetAsList(readOptions, families, keys);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /** Reads a key and makes the commit fail if another transaction writes it after this snapshot. */
  public byte[] getForUpdate(ColumnFamilyHandle family, byte[] key) {
    checkWritable();
    trackedReads = true;
    enter();
    try {
      return untracked.contains(family) ? txn.get(readOptions, family, key)
          : txn.getForUpdate(readOptions, family, key, true);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  public void put(ColumnFamilyHandle family, byte[] key, byte[] value) {
    put(family, key, value, true);
  }

  /**
   * Writes without conflict tracking: for entries no other transaction can write (an index this transaction built
   * on a table whose rows are all its own; the family may be newer than its snapshot, which tracking rejects), and
   * for entries every writer of which also writes a tracked key that conflicts first (an index entry holding the
   * row's key: whoever writes it writes that row). Tracking costs a conflict check per key at commit.
   */
  public void putUntracked(ColumnFamilyHandle family, byte[] key, byte[] value) {
    put(family, key, value, false);
  }

  private void put(ColumnFamilyHandle family, byte[] key, byte[] value, boolean tracked) {
    checkWritable();
    enter();
    try {
      if (tracked && !untracked.contains(family)) {
        txn.put(family, key, value);
      } else {
        txn.putUntracked(family, key, value);
      }
      wrote = true;
      written(family, key);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /** Records a written key for the result cache's invalidation; past its bound the commit is table-level. */
  private void written(ColumnFamilyHandle family, byte[] key) {
    Map<ColumnFamilyHandle, List<byte[]>> keys = writtenKeys;
    if (keys != null) {
      if (++writtenKeyCount > MAX_WRITTEN_KEYS) {
        writtenKeys = null;
      } else {
        keys.computeIfAbsent(family, f -> new ArrayList<>()).add(key);
      }
    }
  }

  /** Keys a commit lists for the result cache; a larger one invalidates the tables it wrote. */
  static final int MAX_WRITTEN_KEYS = 10_000;

  /** Writes a row of {@code table} under its primary key (a put into the table's family). */
  public void putRow(TableDef table, ColumnFamilyHandle family, byte[] key, byte[] value) {
    put(family, key, value);
    rowWritten(table, key);
  }

  /**
   * Writes a row under a key no row ever had in this process (a hidden row id, allocated upwards): no other
   * transaction can write it, so it is not tracked for conflicts, and no reader can have cached a version of it, so
   * the row cache needs no write mark. A bulk load into a table without a primary key saves a hash entry and a
   * conflict check per row in RocksDB and a mark per row in the cache.
   */
  void putNewRow(TableDef table, ColumnFamilyHandle family, byte[] key, byte[] value) {
    put(family, key, value, false);
    wroteTables.add(table.id());
    if (rowCache != null) {
      writtenTables.add(table.id());
    }
  }

  /** Deletes a row of {@code table} by its primary key. */
  public void deleteRow(TableDef table, ColumnFamilyHandle family, byte[] key) {
    delete(family, key);
    rowWritten(table, key);
  }

  private void rowWritten(TableDef table, byte[] key) {
    wroteTables.add(table.id());
    if (rowCache != null) {
      writtenTables.add(table.id());
      writtenRows.add(RowCache.key(table.id(), key));
    }
  }

  public void delete(ColumnFamilyHandle family, byte[] key) {
    delete(family, key, true);
  }

  /** Deletes without conflict tracking (see {@link #putUntracked}). */
  public void deleteUntracked(ColumnFamilyHandle family, byte[] key) {
    delete(family, key, false);
  }

  private void delete(ColumnFamilyHandle family, byte[] key, boolean tracked) {
    checkWritable();
    enter();
    try {
      if (!tracked || untracked.contains(family)) {
        txn.deleteUntracked(family, key);
      } else {
        txn.delete(family, key);
      }
      wrote = true;
      written(family, key);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /**
   * An iterator over the snapshot merged with this transaction's writes; closed with this context. Its
   * caller uses it only between {@link #enter} and {@link #exit}: the context may end between two steps.
   */
  public RocksIterator iterator(ColumnFamilyHandle family) {
    enter();
    try {
      synchronized (this) {
        RocksIterator it = txn == null ? db.newIterator(family, readOptions) : txn.getIterator(readOptions, family);
        iterators.add(it);
        return it;
      }
    } finally {
      exit();
    }
  }

  /** Read options of {@link #scanIterator}, made on first use and closed with the context. */
  private ReadOptions scanOptions;

  /**
   * An iterator that reads a whole family once at this context's snapshot (ANALYZE, an index build), without this
   * transaction's own writes: blocks are read ahead and not kept in the block cache, so one pass over a large table
   * neither pays for caching what it will not read again nor pushes out what queries read (release it as any).
   */
  public RocksIterator scanIterator(ColumnFamilyHandle family) {
    enter();
    try {
      synchronized (this) {
        if (scanOptions == null) {
          scanOptions = new ReadOptions().setSnapshot(snapshot).setFillCache(false).setReadaheadSize(2 << 20);
        }
        RocksIterator it = db.newIterator(family, scanOptions);
        iterators.add(it);
        return it;
      }
    } finally {
      exit();
    }
  }

  /**
   * Begins a use of this context's native objects (its iterators, snapshot, transaction): it cannot end
   * until the matching {@link #exit}. Fails with 55000 once it has ended. Uses nest.
   */
  public void enter() {
    ReentrantReadWriteLock.ReadLock lock = guard.readLock();
    lock.lock();
    String how = ended;
    if (how != null) {
      lock.unlock();
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, how);
    }
    Cancellation c = cancellation;
    if (c != null) {
      try {
        c.check();
      } catch (AccelException e) {
        lock.unlock();
        throw e;
      }
    }
  }

  /** What stops the statement running in this context now (a block runs one statement at a time). */
  private volatile Cancellation cancellation;

  void cancellation(Cancellation c) {
    cancellation = c;
  }

  /** The batch whose INSERT rows wait for its end, while one runs in this context. */
  private InsertBatch insertBatch;

  public InsertBatch insertBatch() {
    return insertBatch;
  }

  void insertBatch(InsertBatch batch) {
    insertBatch = batch;
  }

  /**
   * RocksDB savepoints set and not rolled back: a named savepoint remembers its depth. RocksJava cannot pop a
   * savepoint, so one a statement set and did not need stays on the stack; depths count those too.
   */
  private int savePointDepth;

  /** Marks the writes so far, for {@link #rollbackToSavePoint}. */
  void setSavePoint() {
    checkWritable();
    onTransaction(Transaction::setSavePoint);
    savePointDepth++;
  }

  /** Undoes the writes since the last {@link #setSavePoint} (and removes that savepoint). */
  void rollbackToSavePoint() {
    onTransaction(Transaction::rollbackToSavePoint);
    savePointDepth--;
  }

  /**
   * A SQL savepoint's position in this transaction: its RocksDB savepoint's depth, and what the transaction held
   * then that its writes since change (row counts for statistics, referenced keys claimed and removed).
   */
  record Mark(int depth, Map<Long, long[]> changes, int referencedKeys, int removedReferencedKeys,
      int deferredChecks) {
  }

  /** Sets a savepoint for SQL SAVEPOINT and returns its mark. */
  Mark mark() {
    cancellation = null; // the last statement's: a cancelled one must not fail the savepoint
    setSavePoint(); // outside the monitor: end() takes the guard before it, and so must everyone
    synchronized (this) {
      Map<Long, long[]> counted = new HashMap<>();
      changes.forEach((table, c) -> counted.put(table, c.clone()));
      return new Mark(savePointDepth, counted, referencedKeys.size(), removedReferencedKeys.size(),
          deferredChecks == null ? 0 : deferredChecks.size());
    }
  }

  /**
   * ROLLBACK TO SAVEPOINT: undoes every write since {@code mark} (RocksDB savepoints set after it go too) and
   * sets its savepoint again, so the mark stays valid. The row cache and result cache keep counting the undone
   * rows as written (they invalidate more than needed, never too little); row locks are kept until the end.
   *
   * <p>RocksDB rebuilds the transaction's write batch index when it rolls back to a savepoint, which frees what
   * open iterators over the transaction point into: they are closed first (under the exclusive guard, so no read
   * is in flight), and a scan that reads one afterwards fails with 55000 ({@link #checkIterator}).
   */
  void rollbackTo(Mark mark) {
    checkWritable();
    ReentrantReadWriteLock.WriteLock lock = guard.writeLock();
    lock.lock(); // before the monitor, as end() takes them
    try {
      synchronized (this) {
        checkLive();
        cancellation = null;
        for (RocksIterator it : iterators) {
          it.close();
          rolledBackIterators.add(it);
        }
        iterators.clear();
        while (savePointDepth >= mark.depth()) {
          rollbackToSavePoint();
        }
        setSavePoint();
        changes.clear();
        mark.changes().forEach((table, c) -> changes.put(table, c.clone()));
        truncate(referencedKeys, mark.referencedKeys());
        truncate(removedReferencedKeys, mark.removedReferencedKeys());
        if (deferredChecks != null) {
          deferredChecks.subList(Math.min(mark.deferredChecks(), deferredChecks.size()), deferredChecks.size()).clear();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Iterators ROLLBACK TO SAVEPOINT closed under a scan that was still open. */
  private final Set<RocksIterator> rolledBackIterators = java.util.Collections.newSetFromMap(
      new java.util.IdentityHashMap<>());

  /** Fails with 55000 when ROLLBACK TO SAVEPOINT closed {@code it}; call between {@link #enter} and {@link #exit}. */
  public void checkIterator(RocksIterator it) {
    if (!rolledBackIterators.isEmpty() && it != null) {
      synchronized (this) {
        if (rolledBackIterators.contains(it)) {
          throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
              "the result set was closed: its transaction rolled back to a savepoint");
        }
      }
    }
  }

  /** Drops what an insertion-ordered set gained after it held {@code size} elements. */
  private static void truncate(Set<java.nio.ByteBuffer> set, int size) {
    int i = 0;
    for (java.util.Iterator<java.nio.ByteBuffer> it = set.iterator(); it.hasNext(); i++) {
      it.next();
      if (i >= size) {
        it.remove();
      }
    }
  }

  private interface TransactionCall {
    void run(Transaction txn) throws RocksDBException;
  }

  private void onTransaction(TransactionCall call) {
    enter();
    try {
      call.run(txn);
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      exit();
    }
  }

  /** Ends a use begun by {@link #enter}. */
  public void exit() {
    guard.readLock().unlock();
  }

  /** Whether the context has ended (committed, rolled back or closed): nothing can be read through it any more. */
  public boolean ended() {
    return ended != null;
  }

  /** Fails with 55000 if the context has ended: a cursor over it was closed by its transaction's end. */
  public void checkLive() {
    String how = ended;
    if (how != null) {
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, how);
    }
  }

  /** Ends the context for readers (under the exclusive guard: no read is in flight) and runs {@code body}. */
  private void end(String how, Runnable body) {
    ReentrantReadWriteLock.WriteLock lock = guard.writeLock();
    lock.lock();
    List<Runnable> actions;
    try {
      synchronized (this) {
        if (ended == null) {
          ended = how;
        }
        body.run();
      }
    } finally {
      lock.unlock();
      synchronized (this) {
        actions = endActions;
        endActions = null;
      }
    }
    if (actions != null) {
      actions.forEach(Runnable::run);
    }
  }

  // --- FOREIGN KEY checks deferred to COMMIT

  /** A FOREIGN KEY check deferred to COMMIT: the constraint's name, and the check. */
  private record DeferredCheck(String constraint, Runnable check) {
  }

  /** Whether this is a transaction block's context: only a block defers checks (a statement alone is its own). */
  private boolean block;
  /** The checks deferred so far, in order; null while none were. */
  private List<DeferredCheck> deferredChecks;
  /** SET CONSTRAINTS in this block: a constraint's name (or "" for ALL) -> deferred; null while none ran. */
  private Map<String, Boolean> constraintModes;

  /** Marks this context as a transaction block's. */
  void markBlock() {
    block = true;
  }

  /** Whether {@code fk}'s NO ACTION checks wait for COMMIT in this transaction. */
  synchronized boolean deferred(io.accel.catalog.ForeignKeyDef fk) {
    if (!block || !fk.deferral().deferrable()) {
      return false;
    }
    if (constraintModes != null) {
      Boolean mode = constraintModes.getOrDefault(fk.name(), constraintModes.get(""));
      if (mode != null) {
        return mode;
      }
    }
    return fk.deferral() == io.accel.catalog.ForeignKeyDef.Deferral.INITIALLY_DEFERRED;
  }

  /** Defers {@code check} of constraint {@code constraint} to COMMIT. */
  synchronized void defer(String constraint, Runnable check) {
    if (deferredChecks == null) {
      deferredChecks = new ArrayList<>();
    }
    deferredChecks.add(new DeferredCheck(constraint, check));
  }

  /**
   * SET CONSTRAINTS {@code names} (null: ALL) DEFERRED or IMMEDIATE for the rest of the block. IMMEDIATE also runs
   * the checks deferred so far of those constraints, now, as PostgreSQL does.
   */
  void setConstraints(java.util.Set<String> names, boolean deferred) {
    List<DeferredCheck> now = new ArrayList<>();
    synchronized (this) {
      if (constraintModes == null) {
        constraintModes = new HashMap<>();
      }
      if (names == null) {
        constraintModes.clear();
        constraintModes.put("", deferred);
      } else {
        names.forEach(n -> constraintModes.put(n, deferred));
      }
      if (!deferred && deferredChecks != null) {
        for (java.util.Iterator<DeferredCheck> it = deferredChecks.iterator(); it.hasNext();) {
          DeferredCheck c = it.next();
          if (names == null || names.contains(c.constraint())) {
            now.add(c);
            it.remove();
          }
        }
      }
    }
    now.forEach(c -> c.check().run());
  }

  /** Runs the checks deferred to COMMIT (call before {@link #commit}); a violation fails with its error. */
  void runDeferredChecks() {
    List<DeferredCheck> checks;
    synchronized (this) {
      checks = deferredChecks;
      deferredChecks = null;
    }
    if (checks != null) {
      checks.forEach(c -> c.check().run());
    }
  }

  /** Run once when the transaction ends (committed or not), after its end; null when none are left. */
  private List<Runnable> endActions;

  /** Runs {@code action} once this transaction has ended, whether it committed or not. */
  synchronized void whenEnded(Runnable action) {
    if (endActions == null) {
      endActions = new ArrayList<>(2);
    }
    endActions.add(action);
  }

  /** Closes an iterator early; the context forgets it. */
  public synchronized void release(RocksIterator it) {
    if (iterators.remove(it)) {
      it.close();
    } else {
      rolledBackIterators.remove(it);
    }
  }

  public boolean wrote() {
    return wrote;
  }

  /** Whether this transaction wrote (or deleted) a row of the table. */
  public synchronized boolean wroteTable(long tableId) {
    return wroteTables.contains(tableId);
  }

  /** The store's result cache (null when off) and the keys written so far, null when they are not listed. */
  private ResultCache resultCache;
  private Map<ColumnFamilyHandle, List<byte[]>> writtenKeys;
  private int writtenKeyCount;
  /** What a query filling a result cache entry reads, or null. */
  private volatile ReadSet reads;

  /** Commits of this transaction invalidate {@code cache}'s results; its written keys are listed when it tracks. */
  void resultCache(ResultCache cache) {
    resultCache = cache;
    writtenKeys = cache.tracking() ? new java.util.IdentityHashMap<>() : null;
  }

  /** Records what this context's reads touch into {@code r} (null stops). */
  public void recordReads(ReadSet r) {
    reads = r;
  }

  /** Where reads are recorded, or null. */
  public ReadSet reads() {
    return reads;
  }

  /** Table files of a bulk COPY that this transaction's commit ingests (see {@link BulkLoad}), or null. */
  private BulkLoad bulk;

  /** Makes {@code load}, of {@code table}, part of this transaction: its commit ingests the files, its end discards them. */
  synchronized void bulkLoad(TableDef table, BulkLoad load) {
    checkWritable();
    bulk = load;
    wrote = true;
    wroteTables.add(table.id());
    writtenKeys = null; // the result cache drops the table's results
  }

  /** Commits; a write conflict with a transaction that committed first is a serialization failure. */
  void commit() {
    end(COMMITTED, this::commitNow);
  }

  /** Told the tables a commit writes before it starts, and again, with its outcome, when it ended. */
  private java.util.function.Consumer<Set<Long>> beforeCommit;
  private java.util.function.BiConsumer<Set<Long>, Boolean> afterCommit;

  void onCommit(java.util.function.Consumer<Set<Long>> before, java.util.function.BiConsumer<Set<Long>, Boolean> after) {
    beforeCommit = before;
    afterCommit = after;
  }

  /** Whether this context reads exactly its snapshot: no transaction, or one that has written nothing. */
  public boolean readsSnapshotOnly() {
    return txn == null || !wrote && adopted.isEmpty();
  }

  private void commitNow() {
    if (closed) {
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "the transaction has already ended");
    }
    closeIterators();
    if (txn == null) {
      return;
    }
    Lock lock = schemaLock;
    if (bulk != null && schemaLocks != null) {
      // no commit runs beside an ingestion (see BulkLoad); the COPY's own calls hold no shared side by now
      if (schemaLocks.getReadHoldCount() > 0) {
        throw new AccelException(SqlState.INTERNAL_ERROR, "a bulk COPY was committed while its statement ran");
      }
      lock = schemaLocks.writeLock();
      lock.lock();
    } else if (lock != null && !wroteTables.isEmpty()) {
      // no DDL between the check and the commit: a change it made to a written table fails the commit instead
      lock.lock();
    } else {
      lock = null;
    }
    try {
      for (long tableId : wroteTables) {
        checkSchema(tableId, null);
        if (catalog != null && catalog.bulkLoadedAt(tableId) > firstSequence) {
          throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access: a table this"
              + " transaction wrote was loaded by COPY after this transaction began; retry the transaction");
        }
      }
      commitChecked();
    } finally {
      if (lock != null) {
        lock.unlock();
      }
    }
  }

  private void commitChecked() {
    RowCache.Commit cacheCommit = writtenRows.isEmpty() ? null : rowCache.beginCommit(List.copyOf(writtenRows));
    boolean committed = false;
    Set<Long> tables = beforeCommit == null || wroteTables.isEmpty() ? Set.of() : Set.copyOf(wroteTables);
    if (!tables.isEmpty()) {
      beforeCommit.accept(tables);
    }
    ResultCache.Writes resultWrites = resultCache == null || wroteTables.isEmpty() ? null
        : new ResultCache.Writes(Set.copyOf(wroteTables), writtenKeys);
    if (resultWrites != null) {
      resultCache.committing(resultWrites);
    }
    try {
      ReferenceClaims.Commit commit = () -> {
        if (bulk != null) {
          bulk.ingest(txn);
        }
        if (!wrote && !trackedReads) {
          // nothing to write or check: RocksDB would still write an empty batch to the log and sync it (a read-only
          // block's COMMIT cost 0.4 ms)
          txn.rollback();
        } else if (statistics != null && !changes.isEmpty()) {
          statistics.commit(txn, changes);
        } else {
          txn.commit();
        }
      };
      if (claims != null && (!referencedKeys.isEmpty() || !removedReferencedKeys.isEmpty())) {
        claims.commit(db, firstSequence, referencedKeys, removedReferencedKeys, commit);
      } else {
        commit.run();
      }
      committed = true;
      changes.clear();
      if (bulk != null && catalog != null) {
        for (long tableId : wroteTables) {
          catalog.bulkLoaded(tableId, db.getLatestSequenceNumber());
        }
      }
    } catch (RocksDBException e) {
      throw storageFailure(e);
    } finally {
      if (!tables.isEmpty()) {
        afterCommit.accept(tables, committed);
      }
      if (resultWrites != null) {
        resultCache.committed(resultWrites, committed, db.getLatestSequenceNumber());
      }

      if (cacheCommit != null) {
        cacheCommit.end(committed);
      }
      writtenRows.clear();
      writtenTables.clear();
      wroteTables.clear();
      referencedKeys.clear();
      removedReferencedKeys.clear();
      releaseRowLocks();
    }
  }

  void rollback() {
    end(ROLLED_BACK, this::rollbackNow);
  }

  private void rollbackNow() {
    if (closed) {
      return;
    }
    closeIterators();
    discardBulk();
    changes.clear();
    writtenRows.clear();
    writtenTables.clear();
    wroteTables.clear();
    referencedKeys.clear();
    removedReferencedKeys.clear();
    releaseRowLocks();
    if (txn == null) {
      return;
    }
    try {
      txn.rollback();
    } catch (RocksDBException e) {
      throw storageFailure(e);
    }
  }

  private void checkWritable() {
    if (txn == null) {
      throw new AccelException(SqlState.INTERNAL_ERROR, "a read-only statement tried to write");
    }
  }

  private void closeIterators() {
    for (RocksIterator it : iterators) {
      it.close();
    }
    iterators.clear();
  }

  /** What a read through a context that ended is told (pgJDBC's SQLSTATE for a closed result set, 55000). */
  static final String COMMITTED = "the result set was closed: its transaction was committed";
  static final String ROLLED_BACK = "the result set was closed: its transaction was rolled back";
  static final String CLOSED = "the result set was closed: its statement or connection was closed";

  @Override
  public void close() {
    end(CLOSED, this::closeNow);
  }

  private void closeNow() {
    if (closed) {
      return;
    }
    closed = true;
    closeIterators();
    discardBulk();
    readOptions.close();
    if (scanOptions != null) {
      scanOptions.close();
    }
    if (txn == null) {
      db.releaseSnapshot(snapshot);
    } else {
      txn.close();
    }
    if (registration != null) {
      registration.close();
    }
    if (claims != null) {
      claims.closed(claimToken);
    }
    releaseRowLocks();
  }

  /** Removes a bulk load's files that no commit ingested; after a commit, closes what is left of it. */
  private void discardBulk() {
    BulkLoad b = bulk;
    bulk = null;
    if (b != null) {
      b.close();
    }
  }

  static AccelException storageFailure(RocksDBException e) {
    Status status = e.getStatus();
    Status.Code code = status == null ? Status.Code.Undefined : status.getCode();
    return switch (code) {
      case Busy, TryAgain -> new AccelException(SqlState.SERIALIZATION_FAILURE,
          "could not serialize access due to concurrent update", e);
      case TimedOut -> new AccelException(SqlState.LOCK_NOT_AVAILABLE, "could not obtain lock: " + e.getMessage(), e);
      case IOError -> new AccelException(SqlState.IO_ERROR, "storage I/O error: " + e.getMessage(), e);
      default -> new AccelException(SqlState.INTERNAL_ERROR, "storage error: " + e.getMessage(), e);
    };
  }
}
