package io.accel.exec;

import io.accel.sql.RowLocking.Strength;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The row locks SELECT ... FOR UPDATE / SHARE took in open transactions, per store: what NOWAIT and SKIP LOCKED
 * consult. RocksDB's optimistic transactions hold no locks of their own (a conflict surfaces at commit), so this
 * table is the only place a transaction can see another one's claim on a row before either commits. Rows another
 * transaction wrote without locking them are not in it.
 */
final class RowLocks {
  private final Map<ByteBuffer, Map<Object, Strength>> held = new HashMap<>();

  /**
   * Records {@code holder}'s lock on a row (table id and row key) unless another holder's conflicts with it: then
   * nothing is recorded and false is returned.
   */
  synchronized boolean acquire(Object holder, ByteBuffer row, Strength strength) {
    Map<Object, Strength> holders = held.computeIfAbsent(row, r -> new HashMap<>(2));
    for (Map.Entry<Object, Strength> e : holders.entrySet()) {
      if (e.getKey() != holder && e.getValue().conflictsWith(strength)) {
        return false;
      }
    }
    holders.merge(holder, strength, (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
    return true;
  }

  /** Records {@code holder}'s lock whatever others hold (a locking read that does not wait and does not skip). */
  synchronized void add(Object holder, ByteBuffer row, Strength strength) {
    held.computeIfAbsent(row, r -> new HashMap<>(2)).merge(holder, strength,
        (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
  }

  /** Releases the locks of a transaction that ended. */
  synchronized void release(Object holder, List<ByteBuffer> rows) {
    for (ByteBuffer row : rows) {
      Map<Object, Strength> holders = held.get(row);
      if (holders != null) {
        holders.remove(holder);
        if (holders.isEmpty()) {
          held.remove(row);
        }
      }
    }
  }

  static ByteBuffer row(long tableId, byte[] rowKey) {
    return ByteBuffer.allocate(8 + rowKey.length).putLong(tableId).put(rowKey).flip();
  }
}
