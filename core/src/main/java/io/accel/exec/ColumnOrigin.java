package io.accel.exec;

/**
 * Where a result column comes from, as PostgreSQL's RowDescription says it: the oid of the table (pg_class) and
 * the column's number in it (pg_attribute.attnum); 0 and 0 for a computed column.
 */
public record ColumnOrigin(int tableOid, short columnNumber) {
  public static final ColumnOrigin COMPUTED = new ColumnOrigin(0, (short) 0);
}
