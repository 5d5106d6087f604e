package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One connection's view of a {@link Database}: autocommit or a transaction block, and the transaction
 * each running statement reads and writes.
 *
 * <p>Outside a transaction block every statement gets its own transaction, committed when a writing
 * statement succeeds and kept (read-only) while the statement's results may still be read, so a lazily
 * read result set keeps seeing its snapshot. Inside a block (BEGIN, or autocommit off) all statements
 * share one transaction at snapshot isolation; as in PostgreSQL, a failing statement aborts the block:
 * later statements fail with 25P02 until COMMIT (which then rolls back) or ROLLBACK.
 *
 * <p>Execution code finds its transaction through the query's DataContext (see {@link #contextFor}),
 * so scans started late, as correlated subqueries are, still read the statement's snapshot.
 */
public final class Session implements AutoCloseable {
  private final Database database;
  private final Map<Object, TxnContext> statementContexts = new HashMap<>();
  private final Map<Object, TxnContext> byDataContext = Collections.synchronizedMap(new WeakHashMap<>());
  private boolean autoCommit = true;
  private TxnContext block;
  private boolean explicitBlock;
  private boolean aborted;
  private TxnContext current;
  private boolean closed;
  private volatile boolean indexScans = true;
  private volatile boolean indexConditionPushdown = true;
  private volatile boolean lookupJoins = true;

  public Session(Database database) {
    this.database = database;
  }

  /** Whether the planner may read through indexes (connection property {@code indexScans}, default true). */
  public boolean indexScans() {
    return indexScans;
  }

  public void setIndexScans(boolean on) {
    indexScans = on;
  }

  /**
   * Whether index scans evaluate the conditions on index columns before fetching the row (connection
   * property {@code icp}, default true); off, they fetch every entry's row and filter it afterwards.
   */
  public boolean indexConditionPushdown() {
    return indexConditionPushdown;
  }

  public void setIndexConditionPushdown(boolean on) {
    indexConditionPushdown = on;
  }

  /**
   * Whether the planner may join through batched index lookups into the inner table (connection property
   * {@code lookupJoins}, default true); off, joins read both sides independently and hash- or merge-join them.
   */
  public boolean lookupJoins() {
    return lookupJoins;
  }

  public void setLookupJoins(boolean on) {
    lookupJoins = on;
  }

  public Database database() {
    return database;
  }

  public synchronized boolean autoCommit() {
    return autoCommit;
  }

  /** JDBC setAutoCommit: turning it on commits an open transaction, as JDBC requires. */
  public synchronized void setAutoCommit(boolean on) {
    if (on && !autoCommit) {
      commit();
    }
    autoCommit = on;
  }

  public synchronized boolean inTransactionBlock() {
    return block != null || explicitBlock || !autoCommit;
  }

  /** SQL BEGIN / START TRANSACTION. */
  public synchronized void begin() {
    if (explicitBlock) {
      throw new AccelException(SqlState.ACTIVE_SQL_TRANSACTION, "there is already a transaction in progress");
    }
    explicitBlock = true;
  }

  /** SQL COMMIT or JDBC commit(): ends the block; a write conflict is a serialization failure (40001). */
  public synchronized void commit() {
    if (aborted) {
      rollback();
      return;
    }
    explicitBlock = false;
    TxnContext ctx = block;
    block = null;
    if (ctx != null) {
      try {
        ctx.commit();
      } finally {
        ctx.close();
      }
    }
  }

  /** SQL ROLLBACK or JDBC rollback(). */
  public synchronized void rollback() {
    explicitBlock = false;
    aborted = false;
    TxnContext ctx = block;
    block = null;
    if (ctx != null) {
      try {
        ctx.rollback();
      } finally {
        ctx.close();
      }
    }
  }

  /**
   * Prepares the transaction a statement runs in and makes it current. {@code statementKey} identifies
   * the JDBC statement; re-executing it releases its previous snapshot.
   */
  public synchronized TxnContext beginStatement(Object statementKey) {
    return beginStatement(statementKey, false);
  }

  /**
   * Begins a statement; {@code readOnly} (a query) outside a transaction block reads a plain snapshot
   * instead of a transaction's.
   */
  public synchronized TxnContext beginStatement(Object statementKey, boolean readOnly) {
    checkOpen();
    releaseStatement(statementKey);
    TxnContext ctx;
    if (inTransactionBlock()) {
      if (aborted) {
        throw new AccelException(SqlState.IN_FAILED_SQL_TRANSACTION,
            "current transaction is aborted, commands ignored until end of transaction block");
      }
      if (block == null) {
        block = database.begin();
      }
      ctx = block;
    } else {
      ctx = readOnly ? database.beginReadOnly() : database.begin();
      statementContexts.put(statementKey, ctx);
    }
    current = ctx;
    return ctx;
  }

  /**
   * Ends a statement that ran without error: outside a block a writing statement commits now; a reading
   * one keeps its snapshot until the statement is closed or run again.
   */
  public synchronized void statementSucceeded(Object statementKey) {
    TxnContext ctx = statementContexts.get(statementKey);
    if (ctx != null && ctx.wrote()) {
      statementContexts.remove(statementKey);
      try {
        ctx.commit();
      } finally {
        ctx.close();
      }
    }
  }

  /** Ends a statement that failed: none of its changes remain. */
  public synchronized void statementFailed(Object statementKey) {
    TxnContext ctx = statementContexts.remove(statementKey);
    if (ctx != null) {
      try {
        ctx.rollback();
      } finally {
        ctx.close();
      }
    } else if (inTransactionBlock()) {
      aborted = true;
    }
  }

  /** Releases what a statement holds (its snapshot, when it ran outside a block). */
  public synchronized void releaseStatement(Object statementKey) {
    TxnContext ctx = statementContexts.remove(statementKey);
    if (ctx != null) {
      if (current == ctx) {
        current = null;
      }
      ctx.close();
    }
  }

  /**
   * The transaction block's transaction, or null outside a block: its end (COMMIT, ROLLBACK) closes the
   * result sets read from it.
   */
  public synchronized TxnContext blockContext() {
    return block;
  }

  /** The transaction of the statement whose execution uses {@code dataContext}. */
  public TxnContext contextFor(Object dataContext) {
    TxnContext ctx = byDataContext.get(dataContext);
    if (ctx != null) {
      return ctx;
    }
    synchronized (this) {
      checkOpen();
      if (current == null) {
        throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
            "no statement is running on this connection");
      }
      byDataContext.put(dataContext, current);
      return current;
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new AccelException(SqlState.CONNECTION_DOES_NOT_EXIST, "connection is closed");
    }
  }

  /** Closes the session; an open transaction block is rolled back, as PostgreSQL does on disconnect. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    for (TxnContext ctx : statementContexts.values()) {
      ctx.close();
    }
    statementContexts.clear();
    if (block != null) {
      try {
        block.rollback();
      } catch (AccelException ignored) {
        // the transaction is discarded either way
      }
      block.close();
      block = null;
    }
    byDataContext.clear();
    current = null;
    closed = true;
  }
}
