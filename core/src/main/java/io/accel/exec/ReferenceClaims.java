package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Makes a referencing row's insert and the concurrent removal of the key it references fail one of the two commits
 * (40001), as PostgreSQL's FOR KEY SHARE lock on the referenced row does by making one wait for the other. A
 * child's check only reads the referenced row (an update of its other columns is no conflict, as in PostgreSQL),
 * so both orders are caught here: commits that relied on a referenced key record it with (an upper bound of) their
 * commit's sequence number, commits that removed one record that too, and a commit fails when a transaction its
 * snapshot did not see removed a key it relied on, or relied on a key it removed. Only commits that rely on or
 * remove referenced keys come here; they lock the keys' stripes, shared to rely and exclusive to remove, so
 * children of one parent commit side by side (and RocksDB groups their log syncs). A record is forgotten once every
 * open write transaction's snapshot is past it.
 */
final class ReferenceClaims {
  private static final int STRIPES = 64;
  /** Commits between two sweeps of the records no open transaction can conflict with. */
  private static final int SWEEP_EVERY = 1024;

  /** Per open write transaction, a lower bound of its snapshot's sequence number. */
  private final Map<Object, Long> open = new ConcurrentHashMap<>();
  /** Per referenced key (column family id and key), an upper bound of the last commit that relied on it. */
  private final Map<ByteBuffer, Long> relied = new ConcurrentHashMap<>();
  /** Per referenced key, an upper bound of the last commit that removed it. */
  private final Map<ByteBuffer, Long> removedAt = new ConcurrentHashMap<>();
  private final ReentrantReadWriteLock[] stripes = new ReentrantReadWriteLock[STRIPES];
  private final AtomicInteger commits = new AtomicInteger();

  ReferenceClaims() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantReadWriteLock();
    }
  }

  /** Registers a transaction about to take its snapshot; the token unregisters it. */
  Object opened(RocksDB db) {
    Object token = new Object();
    open.put(token, db.getLatestSequenceNumber());
    return token;
  }

  void closed(Object token) {
    open.remove(token);
  }

  interface Commit {
    void run() throws RocksDBException;
  }

  /**
   * Commits a transaction whose snapshot is at {@code snapshot} that relied on the keys {@code referenced} and removed
   * the referenced keys {@code removed}.
   */
  void commit(RocksDB db, long snapshot, Set<ByteBuffer> referenced, Set<ByteBuffer> removed, Commit commit)
      throws RocksDBException {
    // stripes in ascending order, so two commits never wait for each other's stripes in a cycle
    TreeMap<Integer, Boolean> exclusive = new TreeMap<>();
    for (ByteBuffer key : referenced) {
      exclusive.putIfAbsent(stripe(key), false);
    }
    for (ByteBuffer key : removed) {
      exclusive.put(stripe(key), true);
    }
    Lock[] held = new Lock[exclusive.size()];
    int n = 0;
    try {
      for (Map.Entry<Integer, Boolean> e : exclusive.entrySet()) {
        ReentrantReadWriteLock lock = stripes[e.getKey()];
        Lock l = e.getValue() ? lock.writeLock() : lock.readLock();
        l.lock();
        held[n++] = l;
      }
      for (ByteBuffer key : removed) {
        Long at = relied.get(key);
        if (at != null && at > snapshot) {
          throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent"
              + " insert or update of a row referencing a deleted or updated key");
        }
      }
      for (ByteBuffer key : referenced) {
        Long at = removedAt.get(key);
        if (at != null && at > snapshot && !removed.contains(key)) {
          throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent"
              + " delete or update of a referenced key");
        }
      }
      commit.run();
      long upper = db.getLatestSequenceNumber();
      for (ByteBuffer key : referenced) {
        relied.merge(key, upper, Math::max);
      }
      for (ByteBuffer key : removed) {
        removedAt.merge(key, upper, Math::max);
      }
    } finally {
      while (n > 0) {
        held[--n].unlock();
      }
    }
    if (commits.incrementAndGet() % SWEEP_EVERY == 0) {
      long oldest = open.values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
      relied.values().removeIf(at -> at <= oldest);
      removedAt.values().removeIf(at -> at <= oldest);
    }
  }

  private static int stripe(ByteBuffer key) {
    int h = key.hashCode();
    return (h ^ h >>> 16) & (STRIPES - 1);
  }

  static ByteBuffer key(int familyId, byte[] key) {
    return ByteBuffer.allocate(4 + key.length).putInt(familyId).put(key).flip();
  }
}
