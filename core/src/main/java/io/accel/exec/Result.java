package io.accel.exec;

import io.accel.cursor.Cursor;
import org.apache.calcite.avatica.Meta;

/**
 * What an execution returned: rows through a {@link Cursor} (a query, EXPLAIN, SHOW), or the number of rows
 * a DML statement changed, or neither (a command). Closing it closes the cursor.
 */
public final class Result implements AutoCloseable {
  private final Meta.Signature signature;
  private final Cursor cursor;
  private final long updateCount;

  private Result(Meta.Signature signature, Cursor cursor, long updateCount) {
    this.signature = signature;
    this.cursor = cursor;
    this.updateCount = updateCount;
  }

  static Result rows(Meta.Signature signature, Cursor cursor) {
    return new Result(signature, cursor, -1);
  }

  /** The rows of a DML statement's RETURNING clause, with the statement's row count. */
  static Result returned(Meta.Signature signature, Cursor cursor, long count) {
    return new Result(signature, cursor, count);
  }

  static Result count(Meta.Signature signature, long count) {
    return new Result(signature, null, count);
  }

  /** The columns and shape of the rows (for a count or command, its statement type). */
  public Meta.Signature signature() {
    return signature;
  }

  public boolean hasRows() {
    return cursor != null;
  }

  /** The rows; null when the statement returns none. */
  public Cursor cursor() {
    return cursor;
  }

  /**
   * Rows inserted, updated or deleted (also when a RETURNING clause returns rows for them); 0 for a command; -1
   * when the statement is a query.
   */
  public long updateCount() {
    return updateCount;
  }

  @Override
  public void close() {
    if (cursor != null) {
      cursor.close();
    }
  }
}
