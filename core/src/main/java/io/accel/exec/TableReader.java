package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.storage.RowCodec;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksIterator;

/** Reads a table's rows, in row key order, from one transaction's snapshot. */
public final class TableReader {
  private final Database database;
  private final TableDef table;
  private final List<DataType> types;

  public TableReader(Database database, TableDef table) {
    this.database = database;
    this.table = table;
    this.types = table.columns().stream().map(Column::type).toList();
  }

  public Object[] decode(byte[] value) {
    return RowCodec.decode(types, value);
  }

  /** A full scan; each enumerator holds one RocksDB iterator, released on close. */
  public Enumerable<Object[]> scan(TxnContext ctx) {
    ColumnFamilyHandle family = database.tableFamily(table);
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new RowEnumerator(ctx, family);
      }
    };
  }

  /** Visits every row with its storage key. */
  public void forEach(TxnContext ctx, RowVisitor visitor) {
    RocksIterator it = ctx.iterator(database.tableFamily(table));
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        visitor.visit(it.key(), decode(it.value()));
      }
    } finally {
      ctx.release(it);
    }
  }

  /** Receives rows with their storage keys. */
  @FunctionalInterface
  public interface RowVisitor {
    void visit(byte[] key, Object[] row);
  }

  private final class RowEnumerator implements Enumerator<Object[]> {
    private final TxnContext ctx;
    private final ColumnFamilyHandle family;
    private RocksIterator it;
    private boolean started;
    private Object[] current;

    RowEnumerator(TxnContext ctx, ColumnFamilyHandle family) {
      this.ctx = ctx;
      this.family = family;
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      if (it == null) {
        it = ctx.iterator(family);
      }
      if (!started) {
        it.seekToFirst();
        started = true;
      } else if (it.isValid()) {
        it.next();
      }
      if (!it.isValid()) {
        current = null;
        return false;
      }
      current = decode(it.value());
      return true;
    }

    @Override
    public void reset() {
      started = false;
      current = null;
    }

    @Override
    public void close() {
      if (it != null) {
        ctx.release(it);
        it = null;
      }
    }
  }
}
