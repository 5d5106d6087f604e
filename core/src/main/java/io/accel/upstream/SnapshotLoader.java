package io.accel.upstream;

import io.accel.catalog.Column;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.exec.Database;
import io.accel.exec.RowKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.postgresql.PGConnection;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

/**
 * Copies one upstream table into its (empty) mirror table at an exported snapshot: COPY in text form, each row
 * decoded once, its key and value and every index entry gathered into sorted runs that RocksDB ingests as whole
 * table files (SstFileWriter), never row-by-row writes. Runs are at most {@link #RUN} rows; a large table is
 * copied in key-range parts at once ({@link #parts}); several runs are compacted into one sorted run at the end.
 */
final class SnapshotLoader {
  static final int RUN = 500_000;

  private final Database database;
  private final TableDef table;
  private final UpstreamTable upstream;
  final AtomicLong rowsDone = new AtomicLong();
  /** Files ingested per family (row family first, then each index), by every part of the table. */
  private final java.util.concurrent.atomic.AtomicIntegerArray files;

  SnapshotLoader(Database database, TableDef table, UpstreamTable upstream) {
    this.database = database;
    this.table = table;
    this.upstream = upstream;
    this.files = new java.util.concurrent.atomic.AtomicIntegerArray(1 + table.indexes().size());
  }

  /**
   * Copies the table (or the part of it {@code where} selects, a condition on upstream columns, or null) through
   * {@code c}, a connection whose transaction already imported the snapshot. Parts may run at once; {@link #finish}
   * runs after all of them.
   */
  void load(Connection c, String where) throws SQLException, IOException, RocksDBException {
    List<DataType> types = table.columns().stream().map(Column::type).toList();
    int n = types.size();
    String columns = String.join(", ", upstream.columns().stream().map(col -> UpstreamTable.quote(col.name()))
        .toList());
    String copy = "COPY (SELECT " + columns + " FROM " + upstream.qualifiedName()
        + (where == null ? "" : " WHERE " + where) + ") TO STDOUT";
    // COPY streams into a pipe that this thread decodes while pgJDBC's copier thread fills it
    PipedInputStream in = new PipedInputStream(1 << 20);
    PipedOutputStream out = new PipedOutputStream(in);
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread copier = new Thread(() -> {
      try (out) {
        c.unwrap(PGConnection.class).getCopyAPI().copyOut(copy, out);
      } catch (Exception e) {
        failure.set(e);
      }
    }, "accel-snapshot-copy-" + table.name());
    copier.setDaemon(true);
    copier.start();
    ColumnFamilyHandle rowFamily = database.tableFamily(table);
    List<IndexDef> indexes = table.indexes();
    Run rows = new Run(rowFamily, 0);
    List<Run> entries = new ArrayList<>();
    for (int i = 0; i < indexes.size(); i++) {
      entries.add(new Run(database.indexFamily(indexes.get(i).id()), i + 1));
    }
    // partial and expression indexes (made through Accel on the mirror) evaluate each row's keys
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        io.accel.exec.IndexKeys.Batch keys = indexes.stream().allMatch(IndexDef::plain) ? null
            : database.indexKeys().batch()) {
      String line;
      while ((line = reader.readLine()) != null) {
        String[] fields = UpstreamValues.splitCopyLine(line, n);
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
          row[i] = fields[i] == null ? null : UpstreamValues.fromText(types.get(i), fields[i]);
        }
        byte[] key = table.hasHiddenRowId() ? RowKeys.rowIdKey(database.nextRowId(table)) : RowKeys.rowKey(table, row);
        rows.add(key, table.encodeRow(row));
        for (int i = 0; i < indexes.size(); i++) {
          IndexDef index = indexes.get(i);
          Object[] computed = index.plain() ? io.accel.exec.IndexKeys.PLAIN : keys.of(table, index, row);
          if (computed != null) {
            entries.get(i).add(RowKeys.indexKey(table, index, row, computed, key),
                RowKeys.indexValue(table, index, row, key));
          }
        }
        rowsDone.incrementAndGet();
      }
    } finally {
      try {
        copier.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (failure.get() instanceof SQLException e) {
      throw e;
    } else if (failure.get() != null) {
      throw new IOException(failure.get());
    }
    rows.flush();
    for (Run r : entries) {
      r.flush();
    }
  }

  /** After every part: a family that received several files is compacted into one sorted run. */
  void finish() throws RocksDBException {
    for (int i = 0; i < files.length(); i++) {
      if (files.get(i) > 1) {
        database.store().db().compactRange(i == 0 ? database.tableFamily(table)
            : database.indexFamily(table.indexes().get(i - 1).id()));
      }
    }
  }

  /**
   * Key ranges splitting a large table for parallel copies: conditions on its first primary-key column (when it is
   * an integer) cutting its values into {@code parts} equal spans, read at the snapshot; one null part otherwise.
   */
  List<String> parts(Connection c, int parts) throws SQLException {
    if (parts < 2 || table.primaryKey().isEmpty()) {
      return java.util.Collections.singletonList(null);
    }
    var first = table.columns().get(table.primaryKey().get(0));
    var kind = first.type().kind();
    if (kind != io.accel.catalog.ColumnType.INTEGER && kind != io.accel.catalog.ColumnType.BIGINT
        && kind != io.accel.catalog.ColumnType.SMALLINT) {
      return java.util.Collections.singletonList(null);
    }
    String column = UpstreamTable.quote(first.name());
    try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
        "SELECT min(" + column + "), max(" + column + ") FROM " + upstream.qualifiedName())) {
      rs.next();
      long min = rs.getLong(1);
      long max = rs.getLong(2);
      if (rs.wasNull() || max - min < parts) {
        return java.util.Collections.singletonList(null);
      }
      List<String> out = new ArrayList<>();
      long step = (max - min) / parts + 1;
      for (int i = 0; i < parts; i++) {
        long from = min + i * step;
        out.add(i == parts - 1 ? column + " >= " + from : column + " >= " + from + " AND " + column + " < " + (from + step));
      }
      return out;
    }
  }

  /** Entries of one family gathered into sorted runs of at most {@link #RUN}, each ingested as one file. */
  private final class Run {
    private final ColumnFamilyHandle family;
    private final int slot;
    private final List<byte[][]> pending = new ArrayList<>();

    Run(ColumnFamilyHandle family, int slot) {
      this.family = family;
      this.slot = slot;
    }

    void add(byte[] key, byte[] value) throws RocksDBException {
      pending.add(new byte[][] {key, value});
      if (pending.size() >= RUN) {
        flush();
      }
    }

    void flush() throws RocksDBException {
      if (pending.isEmpty()) {
        return;
      }
      io.accel.storage.Store.sortByKey(pending);
      database.store().ingestSorted(family, pending);
      pending.clear();
      files.incrementAndGet(slot);
    }
  }

  /** Starts a transaction on {@code c} that reads the exported snapshot {@code name}. */
  static void importSnapshot(Connection c, String name) throws SQLException {
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      s.execute("SET TRANSACTION SNAPSHOT '" + name.replace("'", "''") + "'");
      s.execute("SET LOCAL DateStyle = ISO");
      s.execute("SET LOCAL TimeZone = 'UTC'");
      s.execute("SET LOCAL extra_float_digits = 3");
      s.execute("SET LOCAL bytea_output = hex");
    }
  }
}
