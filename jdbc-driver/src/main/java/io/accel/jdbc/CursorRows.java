package io.accel.jdbc;

import io.accel.cursor.Cursor;
import java.util.Iterator;

/**
 * A local query's rows as Avatica iterates them, remembering the one it is on, so that the driver's getters can
 * read a value as the row holds it instead of through Avatica's accessors. Closing it closes the cursor (Avatica
 * closes its iterator when the result set closes).
 */
final class CursorRows implements Iterable<Object>, Iterator<Object>, AutoCloseable {
  private final Cursor cursor;
  /** The row last returned; null before the first, after the last and once closed. */
  private Object[] current;
  /** Whether the cursor's rows are the values of a single column themselves (not arrays). */
  private boolean single;

  CursorRows(Cursor cursor) {
    this.cursor = cursor;
  }

  @Override
  public Iterator<Object> iterator() {
    return this;
  }

  @Override
  public boolean hasNext() {
    boolean more = cursor.hasNext();
    if (!more) {
      current = null;
    }
    return more;
  }

  @Override
  public Object next() {
    Object row = cursor.next();
    current = single ? new Object[] {row} : row instanceof Object[] a ? a : null;
    return row;
  }

  /** Marks the rows as values of one column, before they are read. */
  CursorRows singleColumn() {
    single = true;
    return this;
  }

  Object[] current() {
    return current;
  }

  @Override
  public void close() {
    current = null;
    cursor.close();
  }
}
