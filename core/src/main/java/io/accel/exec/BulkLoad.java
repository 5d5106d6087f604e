package io.accel.exec;

import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Transaction;

/**
 * A large COPY into an empty table, written as table files instead of through its transaction (PostgreSQL's
 * COPY into a new table skips its WAL the same way): each row's key and value and its index entries are gathered
 * into sorted runs written as table files (SstFileWriter) while the COPY reads; at the end, runs of a family whose
 * key ranges overlap are merged into one (a primary key seen twice is 23505 there), and the transaction's commit
 * ingests every family's files (RocksDB moves them into the tree, synced: no write-ahead log, memtable or
 * compaction). Until that commit nothing is visible, and a failure or rollback removes the files.
 *
 * <p>Used only where nothing else can be affected ({@link #usable}): a COPY in its own transaction (not inside a
 * block, whose later statements must see its rows), into a directory store, a table with no rows, no unique index
 * besides its primary key and no FOREIGN KEY either way. The commit holds the schema lock exclusively, so no other
 * commit runs beside the ingestion: a table that received rows meanwhile fails the COPY (40001), and a transaction
 * that wrote the table from an older snapshot fails its commit ({@link io.accel.catalog.Catalog#bulkLoadedAt}).
 */
final class BulkLoad implements AutoCloseable {
  /**
   * Bytes of entries a family gathers before they are sorted and written as one file: a sixteenth of the heap, at
   * least 64 MB (tests make it smaller).
   */
  static long runBytes = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 16);
  /** The meta key each ingestion rewrites, so that the commit advances the store's sequence (see {@link #ingest}). */
  private static final byte[] MARKER = "bulk-load".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final Database database;
  private final TableDef table;
  private final Family rows;
  private final List<Family> indexes = new ArrayList<>();
  private final IndexKeys.Batch keys;
  private long count;

  private BulkLoad(Database database, TableDef table) {
    this.database = database;
    this.table = table;
    this.rows = new Family(database.tableFamily(table), null, !table.hasHiddenRowId());
    for (IndexDef index : table.indexes()) {
      indexes.add(new Family(database.indexFamily(index.id()), index, false));
    }
    this.keys = table.indexes().stream().allMatch(IndexDef::plain) ? null : database.indexKeys().batch();
  }

  /** Whether a COPY into {@code table} may take this path (see the class comment); the table's rows are not read. */
  static boolean usable(Database database, TableDef table, boolean inBlock) {
    return !inBlock && database.store().bulkFiles() && table.indexes().stream().noneMatch(IndexDef::unique)
        && !new ReferentialChecks(database, null, table).active();
  }

  /** A bulk load of {@code table} when it has no rows now; null otherwise (the COPY then writes as usual). */
  static BulkLoad start(Database database, TableDef table) {
    if (!empty(database, database.tableFamily(table))) {
      return null;
    }
    return new BulkLoad(database, table);
  }

  private static boolean empty(Database database, ColumnFamilyHandle family) {
    try (RocksIterator it = database.store().db().newIterator(family)) {
      it.seekToFirst();
      return !it.isValid();
    }
  }

  /** Rows loaded so far. */
  long count() {
    return count;
  }

  /** Takes a row as it will be stored (normalized, its constraints checked). */
  void add(Object[] row) {
    byte[] key = table.hasHiddenRowId() ? RowKeys.rowIdKey(database.nextRowId(table)) : RowKeys.rowKey(table, row);
    rows.add(key, table.encodeRow(row));
    for (Family f : indexes) {
      Object[] computed = f.index.plain() ? IndexKeys.PLAIN : keys.of(table, f.index, row);
      if (computed != null) {
        f.add(RowKeys.indexKey(table, f.index, row, computed, key), RowKeys.indexValue(table, f.index, row, key));
      }
    }
    count++;
  }

  /** After the last row: the last runs are written and each family's files made non-overlapping. */
  void seal() {
    rows.seal();
    for (Family f : indexes) {
      f.seal();
    }
  }

  /**
   * Ingests every family's files; the caller (the COPY transaction's commit) holds the schema lock exclusively
   * and commits {@code txn} right after. 40001 when the table received rows since the COPY began.
   */
  void ingest(Transaction txn) throws RocksDBException {
    List<Family> all = new ArrayList<>(indexes);
    all.add(rows); // the rows last: a reader finding a row finds its index entries
    for (Family f : all) {
      if (!empty(database, f.handle)) {
        throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access: rows were written to"
            + " table \"" + table.name() + "\" while COPY loaded it; retry the COPY");
      }
    }
    Store store = database.store();
    List<Family> done = new ArrayList<>();
    try {
      for (Family f : all) {
        store.ingest(f.handle, f.files);
        f.files.clear();
        done.add(f);
      }
    } catch (RocksDBException | RuntimeException e) {
      // the families were empty: what was ingested before the failure goes again
      for (Family f : done) {
        store.db().deleteRange(f.handle, new byte[0], f.end);
      }
      throw e;
    }
    // the commit then writes, so the store's sequence moves past the ingestion even when RocksDB gave the files
    // sequence 0: caches that compare sequences (Database.unchangedSince) see the table changed
    txn.putUntracked(store.meta(), MARKER, java.nio.ByteBuffer.allocate(16).putLong(table.id()).putLong(count).array());
    database.bulkLoaded(count);
  }

  /** Removes the files not ingested (a failed or rolled back COPY). */
  @Override
  public void close() {
    rows.discard();
    for (Family f : indexes) {
      f.discard();
    }
    if (keys != null) {
      keys.close();
    }
  }

  /** The runs of one column family. */
  private final class Family {
    private final ColumnFamilyHandle handle;
    private final IndexDef index;
    /** Whether a key seen twice is a duplicate primary key (the row family of a table with one). */
    private final boolean unique;
    private final List<byte[][]> pending = new ArrayList<>();
    private long pendingBytes;
    private final List<Store.SortedFile> files = new ArrayList<>();
    /** Past the last key of every file: where a range deletion of everything ingested ends. */
    private byte[] end = new byte[0];

    Family(ColumnFamilyHandle handle, IndexDef index, boolean unique) {
      this.handle = handle;
      this.index = index;
      this.unique = unique;
    }

    void add(byte[] key, byte[] value) {
      pending.add(new byte[][] {key, value});
      pendingBytes += key.length + value.length + 96;
      if (pendingBytes >= runBytes) {
        write();
      }
    }

    private void write() {
      if (pending.isEmpty()) {
        return;
      }
      Store.sortByKey(pending);
      if (unique) {
        for (int i = 1; i < pending.size(); i++) {
          if (Arrays.equals(pending.get(i - 1)[0], pending.get(i)[0])) {
            throw duplicate(pending.get(i)[1]);
          }
        }
      }
      try {
        files.add(database.store().writeSorted(pending.iterator()));
      } catch (RocksDBException e) {
        throw TxnContext.storageFailure(e);
      }
      pending.clear();
      pendingBytes = 0;
    }

    void seal() {
      write();
      files.sort(Comparator.comparing(Store.SortedFile::first, Arrays::compareUnsigned));
      boolean overlap = false;
      for (int i = 1; i < files.size(); i++) {
        overlap |= Arrays.compareUnsigned(files.get(i).first(), files.get(i - 1).last()) <= 0;
      }
      if (overlap) {
        List<Store.SortedFile> runs = List.copyOf(files);
        try {
          Store.SortedFile merged = database.store().merge(runs, (key, value) -> {
            if (unique) {
              throw duplicate(value);
            }
          });
          files.clear();
          files.add(merged);
        } catch (RocksDBException e) {
          throw TxnContext.storageFailure(e);
        } finally {
          database.store().discard(runs);
        }
      }
      for (Store.SortedFile f : files) {
        if (Arrays.compareUnsigned(f.last(), end) >= 0) {
          end = Arrays.copyOf(f.last(), f.last().length + 1);
        }
      }
    }

    void discard() {
      pending.clear();
      database.store().discard(files);
      files.clear();
    }

    /** 23505 for a primary key loaded twice: {@code value} is one of the rows. */
    private AccelException duplicate(byte[] value) {
      Object[] row = table.decodeRow(value, null);
      return TableWriter.duplicate(table, table.primaryKeyName(), table.primaryKey(), row);
    }
  }
}
