package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Makes a referencing row's insert and the concurrent removal of the key it references fail one of the two commits
 * (40001), which RocksDB's optimistic conflict check alone catches in one order only: a child's check reads the
 * referenced key with {@code getForUpdate}, so a removal committed first fails the child's commit; but a child
 * committed first wrote nothing the remover read. So commits that relied on a referenced key record it here with
 * (an upper bound of) their commit's sequence number, and a commit that removed a referenced key fails when a
 * transaction its snapshot did not see relied on that key. Only commits that rely on or remove referenced keys take
 * this registry's lock; a record is forgotten once every open write transaction's snapshot is past it.
 */
final class ReferenceClaims {
  /** Per open write transaction, a lower bound of its snapshot's sequence number. */
  private final Map<Object, Long> open = new ConcurrentHashMap<>();
  /** Per referenced key (column family id and key), an upper bound of the last commit that relied on it. */
  private final Map<ByteBuffer, Long> relied = new HashMap<>();

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
  synchronized void commit(RocksDB db, long snapshot, Set<ByteBuffer> referenced, Set<ByteBuffer> removed,
      Commit commit) throws RocksDBException {
    for (ByteBuffer key : removed) {
      Long at = relied.get(key);
      if (at != null && at > snapshot) {
        throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent"
            + " insert or update of a row referencing a deleted or updated key");
      }
    }
    commit.run();
    if (!referenced.isEmpty()) {
      long upper = db.getLatestSequenceNumber();
      for (ByteBuffer key : referenced) {
        relied.merge(key, upper, Math::max);
      }
    }
    long oldest = open.values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
    relied.values().removeIf(at -> at <= oldest);
  }

  static ByteBuffer key(int familyId, byte[] key) {
    return ByteBuffer.allocate(4 + key.length).putInt(familyId).put(key).flip();
  }
}
