package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.ForeignKeyDef;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rocksdb.ColumnFamilyHandle;

/**
 * The key a FOREIGN KEY's referenced columns are looked up by: the referenced table's primary key ({@code index}
 * empty: a row key) or one of its UNIQUE indexes (an entry in the unique form, whose key is the values alone). Both
 * are single RocksDB keys, so a child row's check is one read.
 */
record ReferencedKey(TableDef parent, List<Integer> columns, Optional<IndexDef> index) {

  /** The primary key or UNIQUE index whose columns are exactly {@code refColumns} (in any order), if any. */
  static Optional<ReferencedKey> of(TableDef parent, List<String> refColumns) {
    List<Integer> ordinals = refColumns.stream().map(c -> parent.columnOrdinal(c).orElse(-1)).toList();
    Set<Integer> wanted = new HashSet<>(ordinals);
    if (!parent.primaryKey().isEmpty() && wanted.equals(new HashSet<>(parent.primaryKey()))
        && parent.primaryKey().size() == ordinals.size()) {
      return Optional.of(new ReferencedKey(parent, ordinals, Optional.empty()));
    }
    for (IndexDef index : parent.plainIndexes()) {
      Set<Integer> columns = new HashSet<>(index.columns().stream().map(IndexColumn::column).toList());
      if (index.unique() && index.columns().size() == ordinals.size() && columns.equals(wanted)) {
        return Optional.of(new ReferencedKey(parent, ordinals, Optional.of(index)));
      }
    }
    return Optional.empty();
  }

  /** The referenced key of a constraint, which its definition guarantees exists; 42830 if it went missing. */
  static ReferencedKey of(TableDef parent, ForeignKeyDef fk) {
    return of(parent, fk.refColumns()).orElseThrow(() -> new AccelException(SqlState.INVALID_FOREIGN_KEY,
        "there is no unique constraint matching given keys for referenced table \"" + parent.name() + "\""));
  }

  ColumnFamilyHandle family(Database database) {
    return index.isPresent() ? database.indexFamily(index.get().id()) : database.tableFamily(parent);
  }

  /**
   * The RocksDB key of the referenced row holding {@code values} (in the referenced columns' order, not null), or
   * null when a value cannot be of the referenced column's type (no row can hold it).
   */
  byte[] key(Object[] values) {
    Object[] row = new Object[parent.columns().size()];
    for (int i = 0; i < columns.size(); i++) {
      Column c = parent.columns().get(columns.get(i));
      try {
        row[columns.get(i)] = Values.coerce(c.type(), values[i]);
      } catch (AccelException e) {
        return null;
      }
    }
    return index.isPresent() ? RowKeys.indexKey(parent, index.get(), row, new byte[0]) : RowKeys.rowKey(parent, row);
  }
}
