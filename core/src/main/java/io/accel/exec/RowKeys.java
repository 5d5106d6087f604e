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
    return uniqueForm(index, row, IndexKeys.PLAIN);
  }

  /** As {@link #uniqueForm(IndexDef, Object[])}, with the index's computed values ({@link IndexKeys#of}). */
  public static boolean uniqueForm(IndexDef index, Object[] row, Object[] computed) {
    if (!index.unique()) {
      return false;
    }
    for (int i = 0; i < index.columns().size(); i++) {
      if (value(index, i, row, computed) == null) {
        return false;
      }
    }
    return true;
  }

  /** PostgreSQL's text of an entry's key in messages: {@code (a, lower(b))=(1, x)}. */
  static String keyText(TableDef table, IndexDef index, Object[] row, Object[] computed) {
    java.util.List<String> names = new java.util.ArrayList<>();
    java.util.List<String> values = new java.util.ArrayList<>();
    for (int i = 0; i < index.columns().size(); i++) {
      IndexColumn ic = index.columns().get(i);
      names.add(ic.isExpression() ? ic.expression() : table.columns().get(ic.column()).name());
      values.add(Values.toText(ic.isExpression() ? ic.type() : table.columns().get(ic.column()).type(),
          value(index, i, row, computed)));
    }
    return "(" + String.join(", ", names) + ")=(" + String.join(", ", values) + ")";
  }

  /** The value of the index's {@code i}-th key column for a row: the row's column, or the computed value. */
  static Object value(IndexDef index, int i, Object[] row, Object[] computed) {
    return computed.length == 0 ? row[index.columns().get(i).column()] : computed[i];
  }

  /** The entry key of a row in an index (see the class comment for the unique form). */
  public static byte[] indexKey(TableDef table, IndexDef index, Object[] row, byte[] rowKey) {
    return indexKey(table, index, row, IndexKeys.PLAIN, rowKey);
  }

  /** The entry key of a row in an index, with the index's computed values ({@link IndexKeys#of}, not null). */
  public static byte[] indexKey(TableDef table, IndexDef index, Object[] row, Object[] computed, byte[] rowKey) {
    KeyWriter w = new KeyWriter(32 + rowKey.length);
    for (int i = 0; i < index.columns().size(); i++) {
      IndexColumn ic = index.columns().get(i);
      DataType type = ic.isExpression() ? ic.type() : table.columns().get(ic.column()).type();
      KeyCodec.write(w, type, value(index, i, row, computed), ic.descending());
    }
    if (!uniqueForm(index, row, computed)) {
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
}
