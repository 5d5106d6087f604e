package io.accel.catalog;

/**
 * One key column of an index: the ordinal of the table column, and its direction; or, in an expression index
 * ({@code CREATE INDEX ON t (lower(email))}), {@code column} -1, the {@code expression} as SQL over the table's
 * columns and the {@code type} of its value.
 */
public record IndexColumn(int column, boolean descending, String expression, DataType type) {

  public IndexColumn(int column, boolean descending) {
    this(column, descending, null, null);
  }

  /** A key column computed from the row. */
  public static IndexColumn ofExpression(String expression, DataType type, boolean descending) {
    return new IndexColumn(-1, descending, expression, type);
  }

  public boolean isExpression() {
    return expression != null;
  }
}
