package io.accel.exec;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyReader;
import io.accel.storage.KeyWriter;

/**
 * The storage keys of a table's rows and index entries, built with the order-preserving {@link KeyCodec}.
 *
 * <p>Row key: the primary key columns, ascending (or the hidden BIGINT row id). Index entry key: the index
 * columns in their directions followed by the row key, value empty; except that an entry of a UNIQUE
 * index whose key columns are all non-null has the index columns alone as its key and the row key as its
 * value, so two rows with the same unique value collide on one RocksDB key and the optimistic transaction
 * sees the conflict.
 */
public final class RowKeys {
  private static final DataType ROW_ID = DataType.of(ColumnType.BIGINT);

  private RowKeys() {
  }

  public static byte[] rowKey(TableDef table, Object[] row) {
    KeyWriter w = new KeyWriter(32);
    for (int ordinal : table.primaryKey()) {
      KeyCodec.write(w, table.columns().get(ordinal).type(), row[ordinal], false);
    }
    return w.toByteArray();
  }

  public static byte[] rowIdKey(long rowId) {
    KeyWriter w = new KeyWriter(9);
    KeyCodec.write(w, ROW_ID, rowId, false);
    return w.toByteArray();
  }

  public static long decodeRowId(byte[] key) {
    return (Long) KeyCodec.read(new KeyReader(key), ROW_ID, false);
  }

  /** True when the entry of this row in a UNIQUE index takes the collision-detecting form. */
  public static boolean uniqueForm(IndexDef index, Object[] row) {
    if (!index.unique()) {
      return false;
    }
    for (IndexColumn ic : index.columns()) {
      if (row[ic.column()] == null) {
        return false;
      }
    }
    return true;
  }

  /** The entry key of a row in an index (see the class comment for the unique form). */
  public static byte[] indexKey(TableDef table, IndexDef index, Object[] row, byte[] rowKey) {
    KeyWriter w = new KeyWriter(32 + rowKey.length);
    writeIndexColumns(w, table, index, row);
    if (!uniqueForm(index, row)) {
      w.put(rowKey, 0, rowKey.length);
    }
    return w.toByteArray();
  }

  /**
   * The value of a row's entry in an index: the row key when the entry has the unique form (null
   * {@code rowKey} otherwise), then the INCLUDE columns in their key encoding (ascending).
   */
  public static byte[] indexValue(TableDef table, IndexDef index, Object[] row, byte[] rowKey) {
    if (index.include().isEmpty()) {
      return rowKey == null ? new byte[0] : rowKey;
    }
    KeyWriter w = new KeyWriter(32 + (rowKey == null ? 0 : rowKey.length));
    if (rowKey != null) {
      w.put(rowKey, 0, rowKey.length);
    }
    for (int c : index.include()) {
      KeyCodec.write(w, table.columns().get(c).type(), row[c], false);
    }
    return w.toByteArray();
  }

  /** The length of the row key at the start of a unique-form entry's value. */
  public static int rowKeyLength(TableDef table, byte[] value) {
    KeyReader r = new KeyReader(value);
    if (table.hasHiddenRowId()) {
      KeyCodec.skip(r, ROW_ID, false);
    } else {
      for (int c : table.primaryKey()) {
        KeyCodec.skip(r, table.columns().get(c).type(), false);
      }
    }
    return r.position();
  }

  private static void writeIndexColumns(KeyWriter w, TableDef table, IndexDef index, Object[] row) {
    for (IndexColumn ic : index.columns()) {
      KeyCodec.write(w, table.columns().get(ic.column()).type(), row[ic.column()], ic.descending());
    }
  }
}
