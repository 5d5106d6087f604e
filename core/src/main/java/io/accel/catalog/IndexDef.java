package io.accel.catalog;

import java.util.List;

/**
 * A secondary index. {@code id} names its RocksDB column family; {@code columns} are its key columns in
 * order; a UNIQUE index rejects two rows whose key columns are all non-null and equal.
 */
public record IndexDef(long id, String name, List<IndexColumn> columns, boolean unique) {

  public IndexDef {
    columns = List.copyOf(columns);
  }
}
