package io.accel.catalog;

import java.util.List;

/**
 * A secondary index (see {@link #plain} for partial and expression indexes). {@code id} names its RocksDB column family; {@code columns} are its key columns in
 * order; a UNIQUE index rejects two rows whose key columns are all non-null and equal. {@code include}
 * holds the ordinals of the INCLUDE columns: stored in each entry's value, not ordered, so a scan can
 * filter on them and return them without fetching the row.
 */
public record IndexDef(long id, String name, List<IndexColumn> columns, boolean unique, List<Integer> include,
    boolean constraint, String predicate) {

  public IndexDef {
    columns = List.copyOf(columns);
    include = List.copyOf(include);
  }

  public IndexDef(long id, String name, List<IndexColumn> columns, boolean unique, List<Integer> include,
      boolean constraint) {
    this(id, name, columns, unique, include, constraint, null);
  }

  /**
   * Whether every key column is a table column and every row has an entry: the indexes scans, joins and foreign
   * keys can use. A partial index ({@code predicate}, SQL over the table's columns: only rows for which it is true
   * have entries) or one with expression columns is kept by every write and enforces its uniqueness, but is read
   * by no query plan.
   */
  public boolean plain() {
    return predicate == null && columns.stream().noneMatch(IndexColumn::isExpression);
  }

  /** An index that is not a UNIQUE constraint's ({@code constraint}: declared as a constraint, listed as one). */
  public IndexDef(long id, String name, List<IndexColumn> columns, boolean unique, List<Integer> include) {
    this(id, name, columns, unique, include, false);
  }

  public IndexDef asConstraint() {
    return new IndexDef(id, name, columns, unique, include, true, predicate);
  }

  public IndexDef(long id, String name, List<IndexColumn> columns, boolean unique) {
    this(id, name, columns, unique, List.of(), false);
  }
}
