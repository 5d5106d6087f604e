package io.accel.exec;

import io.accel.cache.ColumnarRows;
import io.accel.cache.ScanCache;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.TableDef;
import io.accel.exec.AccessCounters.ScanStats;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Predicate1;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksIterator;

/**
 * Executes a {@link ScanPlan} against one transaction's snapshot: seeks each key range in order (or in
 * reverse order), decodes each index entry, evaluates the Index Condition Pushdown predicate on it,
 * fetches the row by primary key only for entries that pass (unless the entry covers the query),
 * evaluates the residual predicate on the row, and returns the projected columns. Lazy: a LIMIT above
 * stops it after the rows it needs. Every row is an {@code Object[]} of the projected columns.
 */
public final class IndexScan {
  private IndexScan() {
  }

  /**
   * The rows of one execution. {@code icp} is evaluated on a table-wide array holding the entry's
   * columns, {@code residual} on the fetched row; either may be null. {@code operatorStats}, when not
   * null, also receives this execution's counts (EXPLAIN ANALYZE).
   */
  public static Enumerable<Object[]> rows(Database database, TxnContext ctx, ScanPlan plan, Object[] slots,
      Predicate1<Object[]> icp, Predicate1<Object[]> residual, ScanStats operatorStats) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        ColumnarRows cached = cachedRows(database, ctx, plan);
        if (cached != null && ctx.reads() != null) {
          ctx.reads().range(database.tableFamily(plan.table()), new byte[0], null);
        }
        if (cached != null) {
          return new CachedScan(database, ctx, plan, cached, residual, operatorStats);
        }
        ScanEnumerator scan = new ScanEnumerator(database, ctx, plan, slots, icp, residual, operatorStats);
        return plan.usesIndex() && !plan.covering() ? new BatchedFetch(scan) : scan;
      }
    };
  }

  /**
   * An index scan that fetches its rows in batches: it reads entries ahead and reads their rows with one MultiGet
   * (through the row cache), 1, 2, 4, ... up to {@value #MAX_FETCH_BATCH} at a time, so a scan that stops early
   * reads few entries ahead, and a long one pays one native call per batch instead of one per row.
   */
  static final int MAX_FETCH_BATCH = 256;

  private static final class BatchedFetch implements Enumerator<Object[]> {
    private final ScanEnumerator scan;
    private final java.util.ArrayDeque<Object[]> ready = new java.util.ArrayDeque<>();
    private final List<byte[]> keys = new ArrayList<>();
    private int batch = 1;
    private Object[] current;

    BatchedFetch(ScanEnumerator scan) {
      this.scan = scan;
      scan.deferFetches();
    }

    @Override
    public synchronized Object[] current() {
      return current;
    }

    @Override
    public synchronized boolean moveNext() {
      while (ready.isEmpty()) {
        keys.clear();
        while (keys.size() < batch && scan.moveNext()) {
          keys.add(scan.pendingRowKey());
        }
        if (keys.isEmpty()) {
          current = null;
          return false;
        }
        List<Object[]> rows = scan.fetchRows(keys);
        for (int i = 0; i < rows.size(); i++) {
          Object[] out = scan.fetched(rows.get(i), keys.get(i));
          if (out != null) {
            ready.add(out);
          }
        }
        batch = Math.min(batch * 2, MAX_FETCH_BATCH);
      }
      current = ready.poll();
      return true;
    }

    @Override
    public synchronized void reset() {
      scan.reset();
      ready.clear();
      batch = 1;
      current = null;
    }

    @Override
    public synchronized void close() {
      ready.clear();
      scan.close();
    }
  }

  /** Whether the scan reads the whole table in key order at a snapshot: what the scan cache can serve. */
  private static boolean cacheable(Database database, TxnContext ctx, ScanPlan plan) {
    return database.scanCache() != null && !plan.usesIndex() && plan.keyColumns().isEmpty()
        && plan.skipColumn() < 0 && ctx.readsSnapshotOnly() && ctx.rowLocking() == null;
  }

  /**
   * The rows of the table a full scan reads, from the store's {@link ScanCache} when the reader's snapshot
   * sees exactly the cached rows, else decoded now and cached if the table is small; null when the scan is
   * not a full scan, the table is large and not cached, or the reader has written in its transaction.
   */
  private static ColumnarRows cachedRows(Database database, TxnContext ctx, ScanPlan plan) {
    if (!cacheable(database, ctx, plan)) {
      return null;
    }
    ScanCache cache = database.scanCache();
    TableDef table = plan.table();
    long reader = ctx.snapshotSequence();
    ScanCache.Entry entry = cache.get(table.id());
    if (entry != null && entry.table().equals(table) && database.unchangedSince(table.id(), entry.sequence(), reader)) {
      cache.hit();
      return entry.rows();
    }
    cache.miss();
    long estimate = database.statistics().of(table).rowCount();
    if (estimate > ScanCache.SMALL_ROWS || !cache.mayFit(table.id(), estimate, table.columns().size())) {
      return null; // cached, if it fits, by a scan of RocksDB that reads to the end (ScanEnumerator)
    }
    // decoded at the reader's snapshot: the rows as of that sequence, whoever reads them later
    ColumnarRows.Builder rows = new ColumnarRows.Builder(ScanPlan.types(table), (int) estimate);
    RocksIterator it = ctx.iterator(database.tableFamily(table));
    ctx.enter();
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        rows.add(table.decodeRow(it.value(), null));
        if (rows.bytes() > cache.maxBytes()) {
          cache.tooLarge(table.id(), rows.size(), rows.bytes());
          return null; // the statistics were behind: scanned from RocksDB, as a large table is
        }
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
    ColumnarRows all = rows.build();
    cache.put(table.id(), new ScanCache.Entry(table, reader, all));
    return all;
  }

  /** A full scan over cached rows: the residual predicate, then the projection, on each. */
  private static final class CachedScan implements Enumerator<Object[]> {
    private final Database database;
    private final TxnContext ctx;
    private final ScanPlan plan;
    private final ColumnarRows rows;
    private final Predicate1<Object[]> residual;
    private final ScanStats operatorStats;
    private final ScanStats stats = new ScanStats();
    /** The columns the residual reads (null: all), filled into {@link #scratch} before it is evaluated. */
    private final int[] residualColumns;
    private final Object[] scratch;
    private int next;
    private Object[] current;

    CachedScan(Database database, TxnContext ctx, ScanPlan plan, ColumnarRows rows, Predicate1<Object[]> residual,
        ScanStats operatorStats) {
      this.database = database;
      this.ctx = ctx;
      this.plan = plan;
      this.rows = rows;
      this.residual = residual;
      this.operatorStats = operatorStats;
      int width = plan.table().columns().size();
      int[] read = plan.residualColumns();
      this.residualColumns = read == null || java.util.Arrays.stream(read).anyMatch(c -> c >= width) ? null : read;
      this.scratch = new Object[width];
      this.next = plan.reverse() ? rows.size() - 1 : 0;
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      int step = plan.reverse() ? -1 : 1;
      for (; next >= 0 && next < rows.size(); next += step) {
        if ((stats.rowsFetched++ & 255) == 0) {
          // as a scan of RocksDB does at each step: cancel, statement_timeout, a context that has ended
          ctx.enter();
          ctx.exit();
        }
        if (residual != null) {
          // only the residual's columns first: most rows a residual rejects are never boxed whole
          if (residualColumns == null) {
            rows.fill(next, scratch, null);
          } else {
            for (int c : residualColumns) {
              scratch[c] = rows.get(c, next);
            }
          }
          if (!residual.apply(scratch)) {
            continue;
          }
        }
        current = project(next);
        next += step;
        stats.rowsReturned++;
        return true;
      }
      current = null;
      return false;
    }

    /** A new array of the projected columns of row {@code row}. */
    private Object[] project(int row) {
      int[] projection = plan.projection();
      if (projection == null) {
        Object[] out = new Object[scratch.length];
        rows.fill(row, out, null);
        return out;
      }
      Object[] out = new Object[projection.length];
      for (int i = 0; i < projection.length; i++) {
        out[i] = rows.get(projection[i], row);
      }
      return out;
    }

    @Override
    public void reset() {
      next = plan.reverse() ? rows.size() - 1 : 0;
      current = null;
    }

    @Override
    public void close() {
      if (stats.rowsFetched > 0) {
        database.accessCounters().add(stats);
        if (operatorStats != null) {
          operatorStats.addAll(stats);
        }
        stats.rowsFetched = 0;
        stats.rowsReturned = 0;
      }
    }
  }

  /**
   * Reads one scan plan; {@link #rebind} points it at other slot values (the lookups of an index lookup join),
   * and then one RocksDB iterator serves every lookup until {@link #close()}.
   */
  static final class ScanEnumerator implements Enumerator<Object[]> {
    /** What {@link #visit} returns for an entry whose columns nobody reads (its row is fetched, or deferred). */
    private static final Object[] NO_ENTRY = new Object[0];
    private final Database database;
    private final TxnContext ctx;
    private final ScanPlan plan;
    private final TableDef table;
    private List<byte[][]> ranges;
    private final Predicate1<Object[]> icp;
    private final Predicate1<Object[]> residual;
    private final ScanStats operatorStats;
    private final ColumnFamilyHandle family;
    private final ColumnFamilyHandle tableFamily;
    private final List<DataType> types;
    private final boolean decodePrimaryKey;
    /** Whether an index entry's columns are read (for ICP, or because the scan is covering). */
    private final boolean decodeEntry;
    /** See {@link #residualFirstColumns}. */
    private final boolean[] residualFirst;
    /** The columns of a row read from the table that anything reads (null: all): the projection and the residual's. */
    private final boolean[] wanted;
    private final ScanStats stats = new ScanStats();
    private Object[] slots;
    private boolean reusable;
    private final int skipColumn;
    private RocksIterator it;
    private int range = -1;
    private byte[][] currentRange;
    private boolean positioned;
    // skip scan state: the prefixes before the skipped column, the one being read, the skipped column's
    // current value (as the key prefix through it) and the ranges under it
    private List<byte[]> skipPrefixes;
    private int skipPrefix = -1;
    private byte[] skipValue;
    private List<byte[][]> underValue;
    private int underIndex;
    private Object[] current;
    private boolean done;
    /** Every key the plan reads is a whole key (a full primary key, or a full UNIQUE index key). */
    private final boolean wholeKeys;
    /** This execution's ranges are single whole keys, read by point gets (adjacent keys merge into one range). */
    private boolean pointGets;
    /** The value of the entry a point get found; null when visiting the iterator's entry. */
    private byte[] pointValue;
    /** The decoded row a point get of a primary key found (through the row cache). */
    private Object[] pointRow;
    /** Deferred fetches (lookup joins fetch a batch's rows with one MultiGet): the row key of the entry. */
    private boolean deferFetch;
    private byte[] pendingRowKey;
    /** Locks the rows returned (SELECT ... FOR UPDATE / SHARE of this table), or null. */
    private final RowLocker locker;
    /** The row key of the entry {@link #visit} is visiting. */
    private byte[] visitedRowKey;
    /** A full scan of a large table collecting its rows for the scan cache (null: not, or given up). */
    private ColumnarRows.Builder collecting;
    private long collectingAt;

    ScanEnumerator(Database database, TxnContext ctx, ScanPlan plan, Object[] slots, Predicate1<Object[]> icp,
        Predicate1<Object[]> residual, ScanStats operatorStats) {
      this.database = database;
      this.ctx = ctx;
      this.plan = plan;
      this.table = plan.table();
      this.slots = slots;
      this.skipColumn = plan.skipColumn();
      if (skipColumn >= 0) {
        this.ranges = null;
        this.skipPrefixes = plan.prefixesBeforeSkip(slots);
      } else {
        this.ranges = plan.ranges(slots);
      }
      this.icp = icp;
      this.residual = residual;
      this.operatorStats = operatorStats;
      this.tableFamily = database.tableFamily(table);
      this.family = plan.usesIndex() ? database.indexFamily(plan.index().id()) : tableFamily;
      this.types = ScanPlan.types(table);
      this.decodePrimaryKey = plan.usesIndex() && !table.hasHiddenRowId();
      this.decodeEntry = icp != null || plan.covering();
      this.wanted = wantedColumns(plan, residual);
      this.residualFirst = residualFirstColumns(plan, residual, wanted);
      this.wholeKeys = wholeKeyPoints(plan);
      this.pointGets = wholeKeys && singleKeys(ranges);
      io.accel.sql.RowLocking locking = ctx.rowLocking();
      this.locker = locking != null && locking.covers(table.name()) ? new RowLocker(database, ctx, table, locking)
          : null;
    }

    /**
     * The residual's columns alone, which a full scan decodes first so that a row the residual rejects is not decoded
     * whole (P1 keeps a quarter of the table: its 200-character payloads were decoded for every row); null when the
     * rows' other wanted columns are none, or the residual's columns are not known.
     */
    static boolean[] residualFirstColumns(ScanPlan plan, Predicate1<Object[]> residual, boolean[] wanted) {
      if (residual == null || plan.usesIndex() || plan.residualColumns() == null) {
        return null;
      }
      int n = plan.table().columns().size();
      boolean[] first = new boolean[n];
      for (int c : plan.residualColumns()) {
        if (c >= n) {
          return null;
        }
        first[c] = true;
      }
      for (int c = 0; c < n; c++) {
        if (!first[c] && (wanted == null || wanted[c])) {
          return first;
        }
      }
      return null;
    }

    static boolean[] wantedColumns(ScanPlan plan, Predicate1<Object[]> residual) {
      if (residual != null && plan.residualColumns() == null || plan.projection() == null) {
        return null;
      }
      boolean[] wanted = new boolean[plan.table().columns().size()];
      for (int c : plan.projection()) {
        wanted[c] = true;
      }
      if (residual != null) {
        for (int c : plan.residualColumns()) {
          if (c >= wanted.length) {
            return null; // a lookup's residual reading its key's fields as well: decode the whole row
          }
          wanted[c] = true;
        }
      }
      return wanted;
    }

    /** Whether each range holds exactly one key (its end is the key's successor). */
    static boolean singleKeys(List<byte[][]> ranges) {
      if (ranges == null) {
        return false;
      }
      for (byte[][] r : ranges) {
        if (r[0].length == 0 || r[1] == null || !Arrays.equals(r[1], KeyCodec.prefixSuccessor(r[0]))) {
          return false;
        }
      }
      return true;
    }

    /** Whether every key the plan reads is one whole RocksDB key: all key columns bound to non-null points. */
    private static boolean wholeKeyPoints(ScanPlan plan) {
      if (plan.skipColumn() >= 0) {
        return false;
      }
      int keyColumns = plan.usesIndex() ? plan.index().columns().size() : plan.table().primaryKey().size();
      if (keyColumns == 0 || plan.keyColumns().size() != keyColumns || plan.usesIndex() && !plan.index().unique()) {
        return false;
      }
      for (ScanPlan.KeyColumn kc : plan.keyColumns()) {
        for (ScanPlan.Interval i : kc.intervals()) {
          if (!i.isPoint() || i.nullPoint()) {
            return false;
          }
        }
      }
      return true;
    }

    /**
     * Makes the scan return index entries without fetching their rows: after each {@link #moveNext},
     * {@link #pendingRowKey} is the row to fetch and {@link #fetched} completes the row from its value.
     */
    void deferFetches() {
      deferFetch = plan.usesIndex() && !plan.covering();
    }

    boolean defersFetches() {
      return deferFetch;
    }

    byte[] pendingRowKey() {
      return pendingRowKey;
    }

    ColumnFamilyHandle tableFamily() {
      return tableFamily;
    }

    /** The key space the plan reads (the index, or the table). */
    ColumnFamilyHandle family() {
      return family;
    }

    /** Whether every key the plan reads is a whole key, which a get can read (see {@link #visitPoint}). */
    boolean wholeKeys() {
      return wholeKeys;
    }

    /**
     * What {@link #moveNext} would return for a whole key that a caller read itself (a lookup join reads a
     * batch's keys with one MultiGet): null when the key is absent or a predicate rejects the entry. An
     * index's entry comes as its {@code value}; a table's row (the plan reads no index) as the decoded
     * {@code row}.
     */
    Object[] visitPoint(byte[] key, byte[] value, Object[] row) {
      stats.seeks++;
      if (value == null && row == null) {
        return null;
      }
      pointValue = value;
      pointRow = row;
      try {
        Object[] out = visit(key);
        if (out != null && pendingRowKey == null) {
          stats.rowsReturned++;
        }
        return out;
      } finally {
        pointValue = null;
        pointRow = null;
      }
    }

    /** The table's decoded rows of whole primary keys, through the row cache (see {@link #visitPoint}). */
    List<Object[]> fetchRows(List<byte[]> rowKeys) {
      return ctx.fetchRows(table, tableFamily, rowKeys, wanted);
    }

    /**
     * The output row of a deferred entry whose row (under {@code rowKey}) was fetched (null: gone, the residual
     * rejects it, or SKIP LOCKED skips it).
     */
    Object[] fetched(Object[] row, byte[] rowKey) {
      stats.rowsFetched++;
      if (row == null) {
        return null;
      }
      if (residual != null && !residual.apply(row)) {
        return null;
      }
      if (locker != null && !locker.lock(rowKey)) {
        return null;
      }
      stats.rowsReturned++;
      return project(row);
    }

    /**
     * Restarts the scan for other slot values, whose key ranges the caller may have computed already
     * ({@code ranges} null: computed here); the iterator stays open across restarts.
     */
    synchronized void rebind(Object[] newSlots, List<byte[][]> newRanges) {
      reusable = true;
      slots = newSlots;
      if (skipColumn >= 0) {
        ranges = null;
        skipPrefixes = plan.prefixesBeforeSkip(newSlots);
      } else {
        ranges = newRanges != null ? newRanges : plan.ranges(newSlots);
        pointGets = wholeKeys && singleKeys(ranges);
      }
      range = -1;
      currentRange = null;
      skipPrefix = -1;
      skipValue = null;
      underValue = null;
      positioned = false;
      current = null;
      done = false;
    }

    /** Counts one lookup of an index lookup join (EXPLAIN ANALYZE, {@code accel.join.lookups}). */
    void countLookup() {
      stats.lookups++;
    }

    @Override
    public Object[] current() {
      return current;
    }

    // Entry points are synchronized: two threads reading one JDBC result set share this enumerator, and one
    // thread's finish() freed the iterator the other was stepping through (SIGSEGV in RocksIterator.next0Jni).
    @Override
    public synchronized boolean moveNext() {
      if (done) {
        return false;
      }
      // one use of the context for the whole step: it cannot end (and free the iterator) in between
      ctx.enter();
      try {
        return step();
      } finally {
        ctx.exit();
      }
    }

    private boolean step() {
      ctx.checkIterator(it);
      if (pointGets) {
        return nextPoint();
      }
      if (it == null) {
        if (ranges != null ? ranges.isEmpty() : skipPrefixes.isEmpty()) {
          finish();
          return false;
        }
        it = ctx.iterator(family);
        collecting = collector();
      }
      while (true) {
        if (!positioned) {
          currentRange = nextRange();
          if (currentRange == null) {
            finish();
            return false;
          }
          seek(currentRange);
          positioned = true;
          stats.seeks++;
          io.accel.cache.ReadSet reads = ctx.reads();
          if (reads != null && ranges != null) {
            reads.range(family, currentRange[0], currentRange[1]);
          }
        }
        byte[][] r = currentRange;
        if (!it.isValid()) {
          positioned = false;
          continue;
        }
        // a scan of a whole table needs neither the key for the range check nor to decode the row
        byte[] key = locker == null && !plan.usesIndex() && r[0].length == 0 && r[1] == null ? null : it.key();
        if (key != null && !inRange(key, r)) {
          positioned = false;
          continue;
        }
        Object[] row = visit(key);
        if (plan.reverse()) {
          it.prev();
        } else {
          it.next();
        }
        if (row != null) {
          current = row;
          if (pendingRowKey == null) {
            stats.rowsReturned++;
          }
          return true;
        }
      }
    }

    /** Point gets: each range is one key, read with a get instead of an iterator seek. */
    private boolean nextPoint() {
      while (++range < ranges.size()) {
        byte[] key = ranges.get(plan.reverse() ? ranges.size() - 1 - range : range)[0];
        if (plan.usesIndex()) {
          pointValue = ctx.get(family, key);
        } else {
          pointRow = ctx.fetchRow(table, tableFamily, key, wanted);
        }
        stats.seeks++;
        if (pointValue == null && pointRow == null) {
          continue;
        }
        Object[] row = visit(key);
        pointValue = null;
        pointRow = null;
        if (row != null) {
          current = row;
          if (pendingRowKey == null) {
            stats.rowsReturned++;
          }
          return true;
        }
      }
      finish();
      return false;
    }

    private byte[] value() {
      return pointValue != null ? pointValue : it.value();
    }

    /** The next key range to read, or null when there is none. */
    private byte[][] nextRange() {
      if (ranges != null) {
        range++;
        return range < ranges.size() ? ranges.get(plan.reverse() ? ranges.size() - 1 - range : range) : null;
      }
      while (true) {
        if (underValue != null && ++underIndex < underValue.size()) {
          return underValue.get(underIndex);
        }
        underValue = null;
        byte[] seekTo;
        if (skipValue == null) {
          if (++skipPrefix >= skipPrefixes.size()) {
            return null;
          }
          seekTo = skipPrefixes.get(skipPrefix);
          io.accel.cache.ReadSet reads = ctx.reads();
          if (reads != null) {
            // a skip scan reads whatever lies under its prefix: the distinct values it skips through too
            reads.range(family, seekTo, seekTo.length == 0 ? null : KeyCodec.prefixSuccessor(seekTo));
          }
        } else {
          seekTo = KeyCodec.prefixSuccessor(skipValue);
          skipValue = null;
          if (seekTo == null) {
            continue;
          }
        }
        byte[] prefix = skipPrefixes.get(skipPrefix);
        if (seekTo.length == 0) {
          it.seekToFirst();
        } else {
          it.seek(seekTo);
        }
        stats.seeks++;
        if (!it.isValid() || !KeyCodec.startsWith(it.key(), prefix)) {
          continue;
        }
        byte[] key = it.key();
        KeyReader reader = new KeyReader(key, prefix.length);
        ScanPlan.KeyColumn skipped = plan.keyColumns().get(skipColumn);
        KeyCodec.skip(reader, skipped.type(), skipped.descending());
        skipValue = Arrays.copyOf(key, reader.position());
        underValue = plan.rangesAfter(skipValue, skipColumn + 1, slots);
        underIndex = -1;
      }
    }


    private void seek(byte[][] r) {
      if (!plan.reverse()) {
        if (r[0].length == 0) {
          it.seekToFirst();
        } else {
          it.seek(r[0]);
        }
        return;
      }
      if (r[1] == null) {
        it.seekToLast();
        return;
      }
      it.seekForPrev(r[1]);
      if (it.isValid() && Arrays.equals(it.key(), r[1])) {
        it.prev();
      }
    }

    private static boolean inRange(byte[] key, byte[][] r) {
      return Arrays.compareUnsigned(key, r[0]) >= 0 && (r[1] == null || Arrays.compareUnsigned(key, r[1]) < 0);
    }

    /** The output row for the entry under the iterator, or null when a predicate rejects it. */
    private Object[] visit(byte[] key) {
      Object[] row;
      boolean checked = false; // the residual already accepted the row
      pendingRowKey = null;
      visitedRowKey = key;
      if (!plan.usesIndex()) {
        stats.rowsFetched++;
        if (collecting != null) {
          row = table.decodeRow(value(), null);
          collecting.add(row);
          if (collecting.bytes() > database.scanCache().maxBytes()) {
            database.scanCache().tooLarge(table.id(), collecting.size(), collecting.bytes());
            collecting = null;
          }
        } else if (residualFirst != null && pointRow == null) {
          byte[] v = value();
          if (!residual.apply(table.decodeRow(v, residualFirst))) {
            return null;
          }
          row = table.decodeRow(v, wanted);
          checked = true;
        } else {
          row = pointRow != null ? pointRow : table.decodeRow(value(), wanted);
        }
      } else {
        stats.entriesRead++;
        // the entry's columns matter only to ICP and to a covering scan; otherwise only its row key does
        row = decodeEntry ? new Object[types.size()] : NO_ENTRY;
        KeyReader reader = new KeyReader(key);
        for (IndexColumn ic : plan.index().columns()) {
          if (ic.isExpression()) {
            // an expression's value has no place in the row: the residual evaluates the expression again
            KeyCodec.skip(reader, ic.type(), ic.descending());
            continue;
          }
          DataType type = types.get(ic.column());
          if (decodeEntry) {
            row[ic.column()] = ScanPlan.fromKey(type, KeyCodec.read(reader, type, ic.descending()));
          } else {
            KeyCodec.skip(reader, type, ic.descending());
          }
        }
        byte[] rowKey;
        byte[] value = null;
        int includeAt = 0;
        if (reader.hasRemaining()) {
          rowKey = Arrays.copyOfRange(key, reader.position(), key.length);
        } else {
          value = value();
          if (plan.index().include().isEmpty()) {
            rowKey = value;
          } else {
            includeAt = RowKeys.rowKeyLength(table, value);
            rowKey = Arrays.copyOf(value, includeAt);
          }
        }
        if (decodeEntry && !plan.index().include().isEmpty()) {
          KeyReader included = new KeyReader(value == null ? value() : value, includeAt);
          for (int c : plan.index().include()) {
            DataType type = types.get(c);
            row[c] = ScanPlan.fromKey(type, KeyCodec.read(included, type, false));
          }
        }
        if (decodeEntry && decodePrimaryKey) {
          KeyReader pk = new KeyReader(rowKey);
          for (int c : table.primaryKey()) {
            DataType type = types.get(c);
            row[c] = ScanPlan.fromKey(type, KeyCodec.read(pk, type, false));
          }
        }
        if (icp != null) {
          stats.icpAttempts++;
          if (!icp.apply(row)) {
            return null;
          }
          stats.icpMatches++;
        }
        if (deferFetch) {
          pendingRowKey = rowKey;
          return row;
        }
        visitedRowKey = rowKey;
        if (!plan.covering()) {
          row = ctx.fetchRow(table, tableFamily, rowKey, wanted);
          stats.rowsFetched++;
          if (row == null) {
            return null;
          }
        }
      }
      if (residual != null && !checked && !residual.apply(row)) {
        return null;
      }
      if (locker != null && !locker.lock(visitedRowKey)) {
        return null;
      }
      return project(row);
    }

    private Object[] project(Object[] row) {
      int[] projection = plan.projection();
      if (projection == null) {
        return row;
      }
      Object[] out = new Object[projection.length];
      for (int i = 0; i < projection.length; i++) {
        out[i] = row[projection[i]];
      }
      return out;
    }

    @Override
    public synchronized void reset() {
      close();
      range = -1;
      currentRange = null;
      skipPrefix = -1;
      skipValue = null;
      underValue = null;
      positioned = false;
      current = null;
      done = false;
    }

    /**
     * A builder for the scan cache when this is a forward scan of a whole large table at a snapshot whose rows
     * (by the statistics) could fit the cache, and no usable entry exists (see {@link #cachedRows}).
     */
    private ColumnarRows.Builder collector() {
      if (!cacheable(database, ctx, plan) || plan.reverse() || ranges == null || ranges.size() != 1
          || ranges.get(0)[0].length != 0 || ranges.get(0)[1] != null) {
        return null;
      }
      long estimate = database.statistics().of(table).rowCount();
      if (estimate <= ScanCache.SMALL_ROWS || !database.scanCache().mayFit(table.id(), estimate, types.size())) {
        return null;
      }
      collectingAt = ctx.snapshotSequence();
      return new ColumnarRows.Builder(types, (int) Math.min(estimate, 1 << 16));
    }

    private void finish() {
      done = true;
      current = null;
      if (collecting != null) {
        database.scanCache().put(table.id(), new ScanCache.Entry(table, collectingAt, collecting.build()));
        collecting = null;
      }
      if (!reusable) {
        close();
      }
    }

    @Override
    public synchronized void close() {
      collecting = null;
      if (it != null) {
        ctx.release(it);
        it = null;
      }
      if (stats.seeks > 0 || stats.rowsReturned > 0 || stats.lookups > 0) {
        database.accessCounters().add(stats);
        if (operatorStats != null) {
          operatorStats.addAll(stats);
        }
        stats.seeks = 0;
        stats.entriesRead = 0;
        stats.icpAttempts = 0;
        stats.icpMatches = 0;
        stats.rowsFetched = 0;
        stats.rowsReturned = 0;
        stats.lookups = 0;
      }
    }
  }
}
