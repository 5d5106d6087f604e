package io.accel.exec;

import io.accel.catalog.TableDef;
import org.rocksdb.RocksIterator;

/**
 * Reads a table's rows, in row key order, from one transaction's snapshot, for the engine's own work
 * (index backfill, ANALYZE, locating rows without a primary key); queries read through {@link IndexScan}.
 */
public final class TableReader {
  private final Database database;
  private final TableDef table;

  public TableReader(Database database, TableDef table) {
    this.database = database;
    this.table = table;
  }

  public Object[] decode(byte[] value) {
    return table.decodeRow(value, null);
  }

  /** Decodes only the columns {@code wanted} marks; the others stay null. */
  public Object[] decode(byte[] value, boolean[] wanted) {
    return table.decodeRow(value, wanted);
  }

  /** Visits every row with its storage key. */
  public void forEach(TxnContext ctx, RowVisitor visitor) {
    RocksIterator it = ctx.iterator(database.tableFamily(table));
    ctx.enter();
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        visitor.visit(it.key(), decode(it.value()));
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
  }

  /** Receives rows with their storage keys. */
  @FunctionalInterface
  public interface RowVisitor {
    void visit(byte[] key, Object[] row);
  }
}
