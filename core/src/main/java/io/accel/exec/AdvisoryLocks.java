package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * PostgreSQL's advisory locks of one store ({@code pg_advisory_lock} and friends, exclusive, 64-bit keys): a key is
 * held by one session at a time, re-entrantly, at session level (until unlocked as often as locked, or the session
 * ends) or at transaction level (until the transaction ends). Migration tools take one to keep two runs apart.
 */
public final class AdvisoryLocks {
  private static final class Holder {
    final Session owner;
    int sessionCount;
    int transactionCount;

    Holder(Session owner) {
      this.owner = owner;
    }
  }

  private final Map<Long, Holder> held = new HashMap<>();
  /** Whether any key is held: every statement's end asks, and almost always none is (no store-wide lock then). */
  private volatile boolean anyHeld;

  /** Takes {@code key} for {@code session} if no other session holds it. */
  public synchronized boolean tryLock(Session session, long key, boolean transaction) {
    Holder h = held.computeIfAbsent(key, k -> new Holder(session));
    if (h.owner != session) {
      return false;
    }
    if (transaction) {
      h.transactionCount++;
    } else {
      h.sessionCount++;
    }
    anyHeld = true;
    return true;
  }

  /** Waits until {@code key} is free, then takes it; the statement's cancel or timeout stops the wait (57014). */
  public synchronized void lock(Session session, long key, boolean transaction, Cancellation cancellation) {
    while (!tryLock(session, key, transaction)) {
      cancellation.check();
      try {
        wait(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AccelException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
      }
    }
  }

  /** Releases one session-level hold of {@code key}; false (as PostgreSQL) when the session holds none. */
  public synchronized boolean unlock(Session session, long key) {
    Holder h = held.get(key);
    if (h == null || h.owner != session || h.sessionCount == 0) {
      return false;
    }
    h.sessionCount--;
    releaseIfFree(key, h);
    return true;
  }

  /** Releases the session-level holds of {@code session} ({@code pg_advisory_unlock_all}). */
  public synchronized void unlockAll(Session session) {
    release(session, true, false);
  }

  /** The session's transaction ended: its transaction-level holds go. */
  void endTransaction(Session session) {
    if (anyHeld) {
      synchronized (this) {
        release(session, false, true);
      }
    }
  }

  /** The session closed: every hold it had goes. */
  void endSession(Session session) {
    if (anyHeld) {
      synchronized (this) {
        release(session, true, true);
      }
    }
  }

  private void release(Session session, boolean sessionLevel, boolean transactionLevel) {
    boolean freed = false;
    for (Iterator<Holder> it = held.values().iterator(); it.hasNext(); ) {
      Holder h = it.next();
      if (h.owner == session) {
        if (sessionLevel) {
          h.sessionCount = 0;
        }
        if (transactionLevel) {
          h.transactionCount = 0;
        }
        if (h.sessionCount == 0 && h.transactionCount == 0) {
          it.remove();
          freed = true;
        }
      }
    }
    if (freed) {
      anyHeld = !held.isEmpty();
      notifyAll();
    }
  }

  private void releaseIfFree(long key, Holder h) {
    if (h.sessionCount == 0 && h.transactionCount == 0) {
      held.remove(key);
      anyHeld = !held.isEmpty();
      notifyAll();
    }
  }
}
