package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.RowLocking.Strength;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The row locks of open transactions, per store: those SELECT ... FOR UPDATE / SHARE took and those UPDATE and
 * DELETE took on the rows they change. RocksDB's optimistic transactions hold no locks of their own (a conflict
 * surfaces at commit), so this table is where a writer waits for another transaction's claim on a row to end, as
 * PostgreSQL's writers wait on a row's xmax, and where NOWAIT and SKIP LOCKED see those claims.
 *
 * <p>A transaction waits for at most one row at a time; before it waits, the waits-for graph is searched from the
 * holders it would wait for, and a path back to it is a deadlock (40P01) reported to the transaction closing the
 * cycle. A release wakes the waiters of the rows it releases, and waiters poll their statement's cancellation.
 */
final class RowLocks {
  /** How often a waiter looks at its statement's cancellation (statement_timeout, a cancel request). */
  private static final long POLL_MILLIS = 50;

  private final Map<ByteBuffer, Map<Object, Strength>> held = new HashMap<>();
  /** What each waiting holder waits for. */
  private final Map<Object, Wanted> waiting = new HashMap<>();
  /** Guards both maps; each waiter waits on its own condition, so a release wakes only the waiters of its rows. */
  private final ReentrantLock guard = new ReentrantLock();

  /** A waiter's row and strength; {@code wake} is null in the search for cycles. */
  private record Wanted(ByteBuffer row, Strength strength, Condition wake) {
  }

  /**
   * Records {@code holder}'s lock on a row (table id and row key) unless another holder's conflicts with it: then
   * nothing is recorded and false is returned.
   */
  boolean acquire(Object holder, ByteBuffer row, Strength strength) {
    guard.lock();
    try {
      if (conflicting(holder, row, strength)) {
        return false;
      }
      record(holder, row, strength);
      return true;
    } finally {
      guard.unlock();
    }
  }

  /**
   * Records {@code holder}'s lock, waiting while other holders hold conflicting ones. {@code check} runs between
   * waits and may throw (the statement was cancelled or timed out); a wait that would close a cycle of waiting
   * transactions fails with 40P01 instead. Returns whether it waited.
   */
  boolean acquireWaiting(Object holder, ByteBuffer row, Strength strength, Runnable check) {
    guard.lock();
    try {
      boolean waited = false;
      Condition wake = null;
      while (conflicting(holder, row, strength)) {
        if (closesCycle(holder, row, strength)) {
          throw new AccelException(SqlState.DEADLOCK_DETECTED, "deadlock detected")
              .withDetail("The transaction waited for a row lock held by a transaction that waits for one of its"
                  + " own.")
              .withHint("See server log for query details.");
        }
        if (wake == null) {
          wake = guard.newCondition();
        }
        waiting.put(holder, new Wanted(row, strength, wake));
        try {
          wake.await(POLL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AccelException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        } finally {
          waiting.remove(holder);
        }
        waited = true;
        check.run();
      }
      record(holder, row, strength);
      return waited;
    } finally {
      guard.unlock();
    }
  }

  private void record(Object holder, ByteBuffer row, Strength strength) {
    held.computeIfAbsent(row, r -> new HashMap<>(2)).merge(holder, strength,
        (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
  }

  private boolean conflicting(Object holder, ByteBuffer row, Strength strength) {
    Map<Object, Strength> holders = held.get(row);
    if (holders != null) {
      for (Map.Entry<Object, Strength> e : holders.entrySet()) {
        if (e.getKey() != holder && e.getValue().conflictsWith(strength)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a holder of a lock {@code holder} would wait for waits, directly or not, for {@code holder}. */
  private boolean closesCycle(Object holder, ByteBuffer row, Strength strength) {
    Set<Object> seen = new HashSet<>();
    java.util.ArrayDeque<Map.Entry<Object, Wanted>> todo = new java.util.ArrayDeque<>();
    todo.add(Map.entry(holder, new Wanted(row, strength, null)));
    while (!todo.isEmpty()) {
      Map.Entry<Object, Wanted> next = todo.poll();
      Map<Object, Strength> holders = held.get(next.getValue().row());
      if (holders == null) {
        continue;
      }
      for (Map.Entry<Object, Strength> e : holders.entrySet()) {
        Object other = e.getKey();
        if (other == next.getKey() || !e.getValue().conflictsWith(next.getValue().strength())) {
          continue;
        }
        if (other == holder) {
          return true;
        }
        Wanted wanted = waiting.get(other);
        if (wanted != null && seen.add(other)) {
          todo.add(Map.entry(other, wanted));
        }
      }
    }
    return false;
  }

  /** Releases the locks of a transaction that ended, and wakes the transactions waiting for rows. */
  void release(Object holder, List<ByteBuffer> rows) {
    guard.lock();
    try {
      for (ByteBuffer row : rows) {
        Map<Object, Strength> holders = held.get(row);
        if (holders != null) {
          holders.remove(holder);
          if (holders.isEmpty()) {
            held.remove(row);
          }
        }
      }
      if (!waiting.isEmpty()) {
        Set<ByteBuffer> released = rows.size() > 8 ? new HashSet<>(rows) : null;
        for (Wanted w : waiting.values()) {
          if (released != null ? released.contains(w.row()) : rows.contains(w.row())) {
            w.wake().signal();
          }
        }
      }
    } finally {
      guard.unlock();
    }
  }

  static ByteBuffer row(long tableId, byte[] rowKey) {
    return ByteBuffer.allocate(8 + rowKey.length).putLong(tableId).put(rowKey).flip();
  }
}
