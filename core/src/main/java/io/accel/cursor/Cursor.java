package io.accel.cursor;

import io.accel.exec.Cancellation;
import io.accel.exec.TxnContext;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of a running query, read in batches of any size: each step moves the query's enumerators (and
 * so its RocksDB iterators) one row, from the snapshot the query started on, and stops there until asked
 * for more. Rows are in the shape of the query's signature: an {@code Object[]} per row, or the value
 * itself when the query has one column (Calcite's cursor factories ARRAY and OBJECT).
 *
 * <p>A cursor of a transaction block is readable only while the block lasts: after COMMIT or ROLLBACK the
 * next read fails with 55000, as a closed JDBC result set does. After a step fails, every later step
 * fails with the same error: the query's enumerators stopped half way and must not be stepped again.
 * Safe for one reader at a time from any thread; steps are serialized.
 */
public final class Cursor implements Iterator<Object>, AutoCloseable {
  private final Enumerator<Object> rows;
  private TxnContext block;
  /** Rows evaluated ahead (at execute, so errors such as 1/0 surface from execute). */
  private final ArrayList<Object> head = new ArrayList<>();
  private int headPosition;
  private boolean peeked;
  private boolean has;
  private boolean closed;
  private RuntimeException failed;
  private long returned;

  private Cancellation cancellation;
  /** Run once when the rows are exhausted or the cursor closes, after the query's enumerators are closed. */
  private Runnable onEnd;
  private boolean enumeratorClosed;

  /**
   * @param block the transaction block the rows come from, or null for a statement's own snapshot
   * @param cancellation what stops the statement (null: nothing); each step checks it, closing finishes it
   */
  public Cursor(Enumerator<Object> rows, TxnContext block, Cancellation cancellation) {
    this.rows = rows;
    this.block = block;
    this.cancellation = cancellation;
  }

  /** How each row is presented (CHAR padding); null for as the query produced it. */
  private java.util.function.UnaryOperator<Object> mapper;

  /** Presents every row through {@code mapper} from now on (before {@link #prefetch}). */
  public synchronized void rowMapper(java.util.function.UnaryOperator<Object> mapper) {
    this.mapper = mapper;
  }

  /** Runs {@code action} once the rows are all read or the cursor is closed (releases the query's snapshot). */
  public synchronized void onEnd(Runnable action) {
    this.onEnd = action;
  }

  private void ended() {
    if (!enumeratorClosed) {
      enumeratorClosed = true;
      rows.close();
    }
    Runnable action = onEnd;
    onEnd = null;
    if (action != null) {
      action.run();
    }
  }

  /** What stops the statement reading this cursor now (a suspended cursor serves several statements). */
  public synchronized void cancellation(Cancellation c) {
    this.cancellation = c;
  }

  /** Evaluates up to {@code n} rows now (kept for the first reads). */
  public synchronized void prefetch(int n) {
    while (head.size() < n && step()) {
      head.add(take());
    }
  }

  private boolean step() {
    if (failed != null) {
      throw failed;
    }
    if (closed) {
      return false;
    }
    if (!peeked) {
      try {
        if (cancellation != null) {
          cancellation.check();
        }
        has = rows.moveNext();
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
      peeked = true;
      if (!has) {
        ended();
      }
    }
    return has;
  }

  private Object take() {
    peeked = false;
    Object row = rows.current();
    return mapper == null ? row : mapper.apply(row);
  }

  @Override
  public synchronized boolean hasNext() {
    if (block != null) {
      block.checkLive();
    }
    return headPosition < head.size() || step();
  }

  /** The next row; past the end is 24000, not a step of the query's enumerators. */
  @Override
  public synchronized Object next() {
    if (block != null) {
      block.checkLive();
    }
    if (headPosition < head.size()) {
      Object row = head.set(headPosition++, null);
      if (headPosition == head.size()) {
        head.clear();
        headPosition = 0;
      }
      returned++;
      return row;
    }
    if (!step()) {
      throw new AccelException(SqlState.INVALID_CURSOR_STATE, "the result set has no more rows");
    }
    returned++;
    return take();
  }

  /** Up to {@code max} further rows; fewer only at the end. */
  public synchronized List<Object> fetch(int max) {
    List<Object> batch = new ArrayList<>(Math.min(max, 1024));
    while (batch.size() < max && hasNext()) {
      batch.add(next());
    }
    return batch;
  }

  /** Whether the query has produced all its rows (some may still wait, evaluated ahead, to be returned). */
  public synchronized boolean evaluated() {
    return peeked && !has || enumeratorClosed;
  }

  /** Whether every row has been returned. */
  public synchronized boolean exhausted() {
    return !hasNext();
  }

  /** Rows returned so far. */
  public synchronized long position() {
    return returned;
  }

  /**
   * Reads the rest of the rows into memory and closes the query's enumerators, so the cursor stays readable
   * after its transaction block ends (a cursor WITH HOLD, JDBC's HOLD_CURSORS_OVER_COMMIT: PostgreSQL
   * materializes such cursors at COMMIT too).
   */
  public synchronized void materialize() {
    if (closed || failed != null) {
      return;
    }
    List<Object> rest = new ArrayList<>();
    while (step()) {
      rest.add(take());
    }
    if (headPosition > 0) {
      head.subList(0, headPosition).clear();
      headPosition = 0;
    }
    head.addAll(rest);
    block = null;
    peeked = true;
    has = false;
    ended();
  }

  /** Closes the query's enumerators (and iterators); idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    head.clear();
    if (cancellation != null) {
      cancellation.finish();
    }
    ended();
  }
}
