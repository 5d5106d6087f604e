package io.accel.catalog;

import java.util.List;

/**
 * A secondary index. {@code id} names its RocksDB column family; {@code columns} are its key columns in
 * order; a UNIQUE index rejects two rows whose key columns are all non-null and equal. {@code include}
 * holds the ordinals of the INCLUDE columns: stored in each entry's value, not ordered, so a scan can
 * filter on them and return them without fetching the row.
 */
public record IndexDef(long id, String name, List<IndexColumn> columns, boolean unique, List<Integer> include) {

  public IndexDef {
    columns = List.copyOf(columns);
    include = List.copyOf(include);
  }

  public IndexDef(long id, String name, List<IndexColumn> columns, boolean unique) {
    this(id, name, columns, unique, List.of());
  }
}
