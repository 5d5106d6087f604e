package io.accel.exec;

import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.RowLocking;
import io.accel.sql.SqlState;
import org.rocksdb.ColumnFamilyHandle;

/**
 * Locks the rows a scan of one table returns for SELECT ... FOR UPDATE / SHARE in the store's {@link RowLocks}: a
 * row another open transaction holds a conflicting lock on is waited for (or, with NOWAIT, 55P03; with SKIP LOCKED,
 * left out). The row key is then read with {@code getForUpdate}, so the commit fails (40001) if another transaction
 * commits a change of it first, and a row changed by a commit the statement's snapshot does not see restarts a READ
 * COMMITTED statement on a new snapshot and is 40001 at REPEATABLE READ, as in PostgreSQL.
 */
final class RowLocker {
  private final TxnContext ctx;
  private final TableDef table;
  private final RowLocking locking;
  private final ColumnFamilyHandle family;

  RowLocker(Database database, TxnContext ctx, TableDef table, RowLocking locking) {
    this.ctx = ctx;
    this.table = table;
    this.locking = locking;
    this.family = database.tableFamily(table);
  }

  /** Locks the row; false when SKIP LOCKED skips it. */
  boolean lock(byte[] rowKey) {
    if (!ctx.lockRow(table.id(), family, rowKey, locking.strength(),
        locking.waitPolicy() == RowLocking.Wait.WAIT)) {
      if (locking.waitPolicy() == RowLocking.Wait.SKIP_LOCKED) {
        return false;
      }
      throw new AccelException(SqlState.LOCK_NOT_AVAILABLE, "could not obtain lock on row in relation \""
          + table.name() + "\"");
    }
    if (ctx.transactional()) {
      ctx.getForUpdate(family, rowKey);
    }
    return true;
  }
}
