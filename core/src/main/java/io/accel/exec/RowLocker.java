package io.accel.exec;

import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.RowLocking;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import org.rocksdb.ColumnFamilyHandle;

/**
 * Locks the rows a scan of one table returns for SELECT ... FOR UPDATE / SHARE, with the semantics snapshot isolation
 * allows: the row key is read with {@code getForUpdate}, so the transaction's commit fails (40001) if another commits
 * a change of the row first; a row changed by a commit the snapshot does not see is 40001 at once, as PostgreSQL's
 * REPEATABLE READ reports it; and the lock is recorded in the store's {@link RowLocks}, where NOWAIT (55P03) and SKIP
 * LOCKED see the locks of other open transactions. Without either, a locked row is not waited for: both transactions
 * go on, and a conflicting write fails one of the commits.
 */
final class RowLocker {
  private final Database database;
  private final TxnContext ctx;
  private final TableDef table;
  private final RowLocking locking;
  private final ColumnFamilyHandle family;

  RowLocker(Database database, TxnContext ctx, TableDef table, RowLocking locking) {
    this.database = database;
    this.ctx = ctx;
    this.table = table;
    this.locking = locking;
    this.family = database.tableFamily(table);
  }

  /** Locks the row; false when SKIP LOCKED skips it. */
  boolean lock(byte[] rowKey) {
    ByteBuffer row = RowLocks.row(table.id(), rowKey);
    if (locking.waitPolicy() == RowLocking.Wait.PROCEED) {
      database.rowLocks().add(ctx, row, locking.strength());
    } else if (!database.rowLocks().acquire(ctx, row, locking.strength())) {
      if (locking.waitPolicy() == RowLocking.Wait.SKIP_LOCKED) {
        return false;
      }
      throw new AccelException(SqlState.LOCK_NOT_AVAILABLE, "could not obtain lock on row in relation \""
          + table.name() + "\"");
    }
    ctx.lockedRow(row);
    if (ctx.transactional()) {
      ctx.getForUpdate(family, rowKey);
      if (ctx.changedSinceSnapshot(family, rowKey)) {
        throw new AccelException(SqlState.SERIALIZATION_FAILURE, "could not serialize access due to concurrent"
            + " update");
      }
    }
    return true;
  }
}
