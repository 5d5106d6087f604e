package io.accel.exec;

import io.accel.catalog.SequenceDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.RocksDBException;

/**
 * The current values of a store's sequences, shared by its sessions. Values are handed out from memory; before one
 * past the last value recorded in the {@code meta} family is handed out, a range of at least 32 (or the sequence's
 * CACHE) values is recorded as used, outside any transaction, as PostgreSQL logs sequence values ahead. So nextval
 * never conflicts with a writer and costs one RocksDB write per range; a crash skips at most the rest of a range
 * (gaps, as in PostgreSQL), and a value is never handed out twice (a clean close records the exact value).
 * Values are not transactional: a rolled-back nextval stays used.
 */
public final class SequenceValues {
  private static final String PREFIX = "seqvalue/";
  /** Values recorded ahead at least (PostgreSQL's SEQ_LOG_VALS). */
  private static final long LOG_AHEAD = 32;

  private final Store store;
  private final Map<Long, State> states = new ConcurrentHashMap<>();

  SequenceValues(Store store) {
    this.store = store;
  }

  /** A sequence's value: {@code last} handed out (or to be handed out first when not {@code called}). */
  private static final class State {
    long last;
    boolean called;
    /** The value recorded in the store; values up to it may be handed out without writing. */
    long logged;
    boolean loggedValid;
  }

  static byte[] key(long sequenceId) {
    return (PREFIX + String.format("%019d", sequenceId)).getBytes(StandardCharsets.UTF_8);
  }

  private State state(SequenceDef s) {
    return states.computeIfAbsent(s.id(), id -> {
      State st = new State();
      byte[] stored;
      try {
        stored = store.db().get(store.meta(), key(id));
      } catch (RocksDBException e) {
        throw TxnContext.storageFailure(e);
      }
      if (stored == null) {
        st.last = s.start();
        st.called = false;
      } else {
        ByteBuffer b = ByteBuffer.wrap(stored);
        st.last = b.getLong();
        st.called = b.get() != 0;
        st.logged = st.last;
        st.loggedValid = st.called;
      }
      return st;
    });
  }

  private void record(long id, long value, boolean called) {
    try {
      store.db().put(store.meta(), store.writeOptions(), key(id),
          ByteBuffer.allocate(9).putLong(value).put((byte) (called ? 1 : 0)).array());
    } catch (RocksDBException e) {
      throw TxnContext.storageFailure(e);
    }
  }

  /** nextval: the next value, 2200H past the bounds of a sequence without CYCLE. */
  public long next(SequenceDef s) {
    State st = state(s);
    synchronized (st) {
      long next;
      if (!st.called) {
        next = st.last;
      } else {
        long inc = s.increment();
        boolean beyond;
        long sum = 0;
        try {
          sum = Math.addExact(st.last, inc);
          beyond = inc > 0 ? sum > s.max() : sum < s.min();
        } catch (ArithmeticException overflow) {
          beyond = true;
        }
        if (beyond) {
          if (!s.cycle()) {
            throw new AccelException(SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED, "nextval: reached "
                + (inc > 0 ? "maximum" : "minimum") + " value of sequence \"" + s.name() + "\" ("
                + (inc > 0 ? s.max() : s.min()) + ")");
          }
          next = inc > 0 ? s.min() : s.max();
          st.loggedValid = false;
        } else {
          next = sum;
        }
      }
      boolean ascending = s.increment() > 0;
      if (!st.loggedValid || (ascending ? next > st.logged : next < st.logged)) {
        long ahead = Math.max(LOG_AHEAD, s.cache()) - 1;
        long logged;
        try {
          logged = Math.addExact(next, Math.multiplyExact(s.increment(), ahead));
          logged = ascending ? Math.min(logged, s.max()) : Math.max(logged, s.min());
        } catch (ArithmeticException overflow) {
          logged = ascending ? s.max() : s.min();
        }
        record(s.id(), logged, true);
        st.logged = logged;
        st.loggedValid = true;
      }
      st.last = next;
      st.called = true;
      return next;
    }
  }

  /** setval(value, called) and ALTER SEQUENCE RESTART: 22003 outside the sequence's bounds; recorded at once. */
  public void set(SequenceDef s, long value, boolean called) {
    if (value < s.min() || value > s.max()) {
      throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "setval: value " + value
          + " is out of bounds for sequence \"" + s.name() + "\" (" + s.min() + ".." + s.max() + ")");
    }
    State st = state(s);
    synchronized (st) {
      st.last = value;
      st.called = called;
      record(s.id(), value, called);
      st.logged = value;
      st.loggedValid = called;
    }
  }

  /** The value the sequence would show as last_value, and whether nextval has been called since it was set. */
  public long last(SequenceDef s) {
    State st = state(s);
    synchronized (st) {
      return st.last;
    }
  }

  public boolean called(SequenceDef s) {
    State st = state(s);
    synchronized (st) {
      return st.called;
    }
  }

  /** Forgets a dropped sequence (its stored value is deleted with its catalog entry). */
  void forget(long sequenceId) {
    states.remove(sequenceId);
  }

  /** Records each sequence's exact value, so a clean reopen continues without a gap. */
  void close() {
    states.forEach((id, st) -> {
      synchronized (st) {
        if (st.loggedValid && st.logged != st.last) {
          record(id, st.last, st.called);
        }
      }
    });
  }
}
