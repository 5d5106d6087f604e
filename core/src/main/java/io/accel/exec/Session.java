package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.cursor.Cursor;
import io.accel.plan.PlanCache;
import io.accel.plan.PlanExplainer;
import io.accel.plan.StatementPlanner;
import io.accel.sql.Command;
import io.accel.sql.CommandParser;
import io.accel.sql.ErrorTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerator;

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
  private final Map<Object, TxnContext> statementContexts = new java.util.concurrent.ConcurrentHashMap<>();
  private boolean autoCommit = true;
  private TxnContext block;
  private boolean explicitBlock;
  private boolean aborted;
  private boolean closed;
  private volatile boolean indexScans = true;
  private volatile boolean indexConditionPushdown = true;
  private volatile boolean directPlanning = true;
  private volatile boolean lookupJoins = true;

  /** A session with the default options. */
  public Session(Database database) {
    this(database, Options.DEFAULTS);
  }

  /** The session's user: the role that owns every object of the store. */
  public String user() {
    return options.user() == null ? "accel" : options.user();
  }

  public Session(Database database, Options options) {
    this.database = database;
    this.sequences = new SessionSequences(database);
    this.options = options;
    this.settings = new Settings(options.timeZone() == null ? TimeZone.getDefault() : options.timeZone(),
        options.user());
    this.cachedQueries = database.resultCache() == null ? null : new CachedQueries(this, database.resultCache());
  }

  /** This session's use of the store's result cache; null when it is off. */
  private final CachedQueries cachedQueries;
  /** What the result cache did for the last statement (EXPLAIN LAST STATEMENT), or null. */
  private volatile String cacheNote;

  /** What the result cache did for this session's last statement ("answered from cache c", ...), or null. */
  public String cacheNote() {
    return cacheNote;
  }

  void cacheNote(String note) {
    cacheNote = note;
  }

  private final Settings settings;
  /** Changes when a setting plans depend on changes (search_path). */
  private long settingsVersion;
  /** Settings changed in the open block, with their values before: undone at ROLLBACK (LOCAL ones at COMMIT too). */
  private final Map<String, String> blockSettings = new HashMap<>();
  private final java.util.Set<String> localSettings = new java.util.HashSet<>();

  private final SessionSequences sequences;

  /** nextval, currval, setval and lastval as this session calls them. */
  public SessionSequences sequences() {
    return sequences;
  }

  /** The session's run-time parameters (SET, SHOW, RESET). */
  public Settings settings() {
    return settings;
  }

  /**
   * What a session is opened with: the most plans it caches ({@code planCacheSize}, 0 for none), its time
   * zone (the JVM's by default) and user name.
   */
  public record Options(int planCacheSize, TimeZone timeZone, String user, int cursorCacheSize) {
    private static final int DEFAULT_CURSOR_CACHE_SIZE = 100;
    public static final Options DEFAULTS = new Options(1000, null, null, DEFAULT_CURSOR_CACHE_SIZE);

    public Options {
      if (planCacheSize < 0) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
            "invalid planCacheSize " + planCacheSize + ": expected a number of plans, 0 or more");
      }
      if (cursorCacheSize < 0) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
            "invalid cursorCacheSize " + cursorCacheSize + ": expected a number of cursors, 0 or more");
      }
    }

    public Options(int planCacheSize, TimeZone timeZone, String user) {
      this(planCacheSize, timeZone, user, DEFAULT_CURSOR_CACHE_SIZE);
    }
  }

  /** Cursors this session keeps suspended in the store's cursor cache. */
  private final java.util.concurrent.atomic.AtomicInteger suspended = new java.util.concurrent.atomic.AtomicInteger();

  private final Options options;
  private StatementPlanner planner;
  private PlanCache plans;
  /**
   * Queries prepared by exact text, reused while the plan version holds: JdbcTemplate, Spring Data and ORMs
   * prepare a new statement per call, and each would otherwise re-read its text (commands, RETURNING, literal
   * normalisation) before the plan cache answered. Like pgJDBC's per-connection statement cache.
   */
  private final Map<String, Prepared> preparedByText = new java.util.LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Prepared> eldest) {
      return size() > PREPARED_BY_TEXT;
    }
  };
  private static final int PREPARED_BY_TEXT = 256;
  private long preparedByTextVersion;
  /** The cancel flag of the statement running now, if any. */
  private volatile AtomicBoolean running;
  /** What stops the statement running now (its cancel flag and timeout), for waits inside it. */
  private volatile Cancellation runningCancellation;

  private Cancellation cancellation(AtomicBoolean cancel, long timeoutMillis) {
    Cancellation c = new Cancellation(cancel, timeoutMillis);
    runningCancellation = c;
    return c;
  }

  /** {@code pg_advisory_lock} and {@code pg_advisory_xact_lock}: waits for the key while the statement may run. */
  public void advisoryLock(long key, boolean transaction) {
    Cancellation c = runningCancellation;
    database.advisoryLocks().lock(this, key, transaction, c != null ? c : new Cancellation(new AtomicBoolean(), 0));
  }

  /** Transaction-level advisory locks end with the transaction: a block's, or outside one the statement's. */
  private void endTransactionLocks() {
    database.advisoryLocks().endTransaction(this);
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
  /**
   * Whether queries of one table in the simple shape are planned directly, without Calcite's full pipeline
   * (on by default; off plans every statement through Calcite, for comparison).
   */
  public boolean directPlanning() {
    return directPlanning;
  }

  public void setDirectPlanning(boolean on) {
    directPlanning = on;
  }

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

  /** True in a transaction block that a failed statement aborted (until ROLLBACK): PostgreSQL's 'E' state. */
  public synchronized boolean failedTransaction() {
    return aborted && inTransactionBlock();
  }

  /**
   * Marks the open block failed, as PostgreSQL does after any error in a block (a frontend's statement that
   * failed before it ran, such as one that did not parse): until ROLLBACK statements fail with 25P02.
   */
  public synchronized void failTransaction() {
    if (inTransactionBlock()) {
      aborted = true;
    }
  }

  /** Whether the open block's transaction has begun: a statement ran in it (its isolation level is then fixed). */
  public synchronized boolean transactionStarted() {
    return block != null;
  }

  /** When BEGIN ran: the start of the block's transaction (see {@link TxnContext#startedAt}). */
  private long blockStartedAt;

  /** SQL BEGIN / START TRANSACTION. */
  public synchronized void begin() {
    begin(null);
  }

  /** BEGIN with an ISOLATION LEVEL (null: default_transaction_isolation's). */
  public synchronized void begin(String isolation) {
    if (explicitBlock) {
      throw new AccelException(SqlState.ACTIVE_SQL_TRANSACTION, "there is already a transaction in progress");
    }
    explicitBlock = true;
    blockStartedAt = System.currentTimeMillis();
    if (isolation != null && block == null) {
      isolation(isolation);
    }
  }

  /**
   * The block's isolation level, fixed when its transaction begins (its first statement): {@code read committed}
   * (each statement reads a new snapshot; a row changed by a concurrent commit restarts the statement), or
   * {@code repeatable read} and {@code serializable} (one snapshot; such a row is 40001). Null outside a block.
   */
  private String blockIsolation;
  /** Savepoints the block's READ COMMITTED statements set to restart from; past a bound, they fail instead. */
  private int restartPoints;
  static final int MAX_RESTART_POINTS = 10_000;
  /** How many times a statement may restart after concurrent updates before it fails with 40001. */
  static final int MAX_RESTARTS = 100;

  private void isolation(String level) {
    blockIsolation = level;
    settings.transactionIsolation(level);
  }

  /** The block's transaction ended: the next one takes default_transaction_isolation unless told otherwise. */
  private void endIsolation() {
    blockIsolation = null;
    restartPoints = 0;
    pendingConstraintModes.clear();
    settings.transactionIsolation(null);
  }

  private boolean readCommitted() {
    return blockIsolation == null || blockIsolation.equals("read committed");
  }

  /**
   * A SAVEPOINT of the open block; {@code mark} is null while the block has no transaction yet (its first statement
   * has not run): it then marks the transaction's start.
   */
  private static final class NamedSavepoint {
    final String name;
    TxnContext.Mark mark;
    /** The settings the block had changed by then, with their values then, and which of them were LOCAL. */
    final Map<String, String> settings = new HashMap<>();
    final java.util.Set<String> local;
    /** DDL that depends on the block's rows ran since: rolling back to this savepoint is refused. */
    boolean beforeDdl;
    /** The block's NOTIFYs and LISTENs by then (null: none had been made). */
    SessionNotifications.Mark notifications;

    NamedSavepoint(String name, TxnContext.Mark mark, Map<String, String> settings, java.util.Set<String> local) {
      this.name = name;
      this.mark = mark;
      this.settings.putAll(settings);
      this.local = java.util.Set.copyOf(local);
    }
  }

  /** The open block's savepoints, oldest first; a name may repeat (the newest wins, as in PostgreSQL). */
  private final List<NamedSavepoint> savepoints = new ArrayList<>();

  /** SQL SAVEPOINT: 25P01 outside a transaction block, 25P02 in a failed one. */
  public synchronized void savepoint(String name) {
    checkOpen();
    requireBlock("SAVEPOINT");
    checkNotAborted();
    Map<String, String> changed = new HashMap<>();
    for (String key : blockSettings.keySet()) {
      changed.put(key, settings.find(key));
    }
    NamedSavepoint sp = new NamedSavepoint(name, block == null ? null : block.mark(), changed, localSettings);
    sp.notifications = notifications == null ? null : notifications.mark();
    savepoints.add(sp);
  }

  /** SQL RELEASE SAVEPOINT: forgets the newest savepoint named so and every later one; its writes stay. */
  public synchronized void releaseSavepoint(String name) {
    checkOpen();
    requireBlock("RELEASE SAVEPOINT");
    checkNotAborted();
    int i = savepointIndex(name);
    savepoints.subList(i, savepoints.size()).clear();
  }

  /**
   * SQL ROLLBACK TO SAVEPOINT: undoes every write since the newest savepoint named so, forgets the later ones and
   * keeps it; a failed block continues from there. Allowed in a failed block, as in PostgreSQL. Settings SET since
   * are undone; DDL is not (it is never transactional in Accel), nor are sequence values (nor in PostgreSQL).
   */
  public synchronized void rollbackToSavepoint(String name) {
    checkOpen();
    requireBlock("ROLLBACK TO SAVEPOINT");
    int i = savepointIndex(name);
    NamedSavepoint sp = savepoints.get(i);
    if (sp.beforeDdl) {
      aborted = true;
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot roll back to savepoint \"" + name
          + "\": DDL ran since in this transaction, which has written rows, and Accel's DDL is not transactional")
          .withHint("Roll back the whole transaction, or to a savepoint set after the DDL.");
    }
    savepoints.subList(i + 1, savepoints.size()).clear();
    if (sp.mark != null && block != null) {
      for (Cursor c : held) {
        // a WITH HOLD cursor keeps the rows it would have read before: the rollback closes its iterator
        c.materialize();
      }
      block.rollbackTo(sp.mark);
    }
    rollbackSettings(sp);
    rollbackNotifications(sp.notifications);
    aborted = false;
  }

  /** Settings SET after the savepoint get their values then back, as PostgreSQL's ROLLBACK TO does. */
  private void rollbackSettings(NamedSavepoint sp) {
    for (java.util.Iterator<Map.Entry<String, String>> it = blockSettings.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, String> e = it.next();
      if (sp.settings.containsKey(e.getKey())) {
        apply(e.getKey(), sp.settings.get(e.getKey()));
      } else {
        apply(e.getKey(), e.getValue()); // first changed after the savepoint: its value before the block
        it.remove();
      }
    }
    localSettings.retainAll(sp.local);
    localSettings.addAll(sp.local);
  }

  /**
   * Before DDL that reads or writes the block's rows (CREATE INDEX backfills them into the block, ALTER TABLE checks
   * them, ADD FOREIGN KEY in the referenced table too): when the block has written, its savepoints so far can no
   * longer be rolled back to. DDL is not undone, and undoing the rows under it would leave an index without their
   * entries or a constraint checked against rows that come back.
   */
  private synchronized void ddlOverBlockRows(Command command) {
    String table = command instanceof Command.CreateIndex c ? c.table() : command instanceof Command.AlterTable a
        ? a.table() : command instanceof Command.AddKey k ? k.table() : null;
    if (table == null || block == null || savepoints.isEmpty()) {
      return;
    }
    // any write counts, not only the table's: ADD FOREIGN KEY checks the referenced table's rows in the block too
    if (block.wrote()) {
      for (NamedSavepoint sp : savepoints) {
        sp.beforeDdl = true;
      }
    }
  }

  private void requireBlock(String command) {
    if (!inTransactionBlock()) {
      throw new AccelException(SqlState.NO_ACTIVE_SQL_TRANSACTION, command + " can only be used in transaction blocks");
    }
  }

  /** The newest savepoint named {@code name}; 3B001 (which aborts the block, as any error does) when none is. */
  private int savepointIndex(String name) {
    for (int i = savepoints.size() - 1; i >= 0; i--) {
      if (savepoints.get(i).name.equals(name)) {
        return i;
      }
    }
    aborted = true;
    throw new AccelException(SqlState.INVALID_SAVEPOINT_SPECIFICATION, "savepoint \"" + name + "\" does not exist");
  }

  /** Cursors of the open block that outlive it (see {@link #hold}). */
  private final List<Cursor> held = new ArrayList<>();

  /**
   * Keeps a cursor of the open transaction block readable after the block ends, as a cursor declared WITH
   * HOLD (JDBC's HOLD_CURSORS_OVER_COMMIT): COMMIT first reads the rest of its rows into memory, as
   * PostgreSQL does; ROLLBACK closes it. Outside a block a cursor reads its own snapshot and needs nothing.
   */
  public synchronized void hold(Cursor cursor) {
    if (block != null) {
      held.add(cursor);
    }
  }

  /** SQL COMMIT or JDBC commit(): ends the block; a write conflict is a serialization failure (40001). */
  public synchronized void commit() {
    if (aborted) {
      rollback();
      return;
    }
    for (Cursor c : held) {
      c.materialize();
    }
    held.clear();
    endBlockSettings(false);
    endIsolation();
    explicitBlock = false;
    savepoints.clear();
    TxnContext ctx = block;
    block = null;
    endTransactionLocks();
    if (ctx != null) {
      try {
        ctx.runDeferredChecks();
        ctx.commit();
      } catch (RuntimeException e) {
        if (notifications != null) {
          notifications.discard();
        }
        throw e;
      } finally {
        ctx.close();
      }
    }
    if (notifications != null) {
      notifications.commit(); // sent once the transaction is durable, never before
    }
  }

  /**
   * SET CONSTRAINTS: when the open block's deferrable FOREIGN KEY constraints are checked (IMMEDIATE runs the checks
   * deferred so far at once; a violation fails this statement and so the block). Outside a block it changes nothing,
   * as in PostgreSQL (which warns).
   */
  private synchronized void setConstraints(Command.SetConstraints command) {
    java.util.Set<String> names = null;
    if (command.names() != null) {
      names = new java.util.HashSet<>();
      for (String name : command.names()) {
        io.accel.catalog.ForeignKeyDef found = null;
        boolean other = false;
        for (io.accel.catalog.TableDef t : database.catalog().tables()) {
          for (io.accel.catalog.ForeignKeyDef fk : t.foreignKeys()) {
            found = fk.name().equals(name) ? fk : found;
          }
          other |= t.checks().stream().anyMatch(c -> c.name().equals(name))
              || t.indexes().stream().anyMatch(i -> i.name().equals(name)) || t.primaryKeyName().equals(name);
        }
        if (found == null && !other) {
          throw new AccelException(SqlState.UNDEFINED_OBJECT, "constraint \"" + name + "\" does not exist");
        }
        if (found == null || !found.deferral().deferrable()) {
          throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "constraint \"" + name + "\" is not deferrable");
        }
        names.add(name);
      }
    }
    if (block != null) {
      try {
        block.setConstraints(names, command.deferred());
      } catch (RuntimeException e) {
        aborted = true;
        throw e;
      }
    } else if (inTransactionBlock()) {
      // the block's transaction begins with its first statement: the modes wait for it (nothing is deferred yet)
      java.util.Set<String> given = names;
      pendingConstraintModes.add(ctx -> ctx.setConstraints(given, command.deferred()));
    }
  }

  /** SET CONSTRAINTS run in the open block before its transaction began, applied when it begins. */
  private final List<java.util.function.Consumer<TxnContext>> pendingConstraintModes = new ArrayList<>();

  /** SQL ROLLBACK or JDBC rollback(). */
  public synchronized void rollback() {
    for (Cursor c : held) {
      c.close();
    }
    held.clear();
    endBlockSettings(true);
    endIsolation();
    explicitBlock = false;
    aborted = false;
    savepoints.clear();
    if (notifications != null) {
      notifications.discard();
    }
    TxnContext ctx = block;
    block = null;
    endTransactionLocks();
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
      if (block != null && readCommitted()) {
        block.newSnapshot(); // READ COMMITTED: each statement sees what was committed before it began
      }
      if (block == null) {
        if (blockIsolation == null) {
          isolation(Settings.isolation("default_transaction_isolation",
              settings.get("default_transaction_isolation")));
        }
        block = database.begin();
        block.markBlock();
        pendingConstraintModes.forEach(mode -> mode.accept(block));
        pendingConstraintModes.clear();
        if (explicitBlock) {
          block.startedAt(blockStartedAt);
        }
        if (!savepoints.isEmpty()) {
          // savepoints set before the block's first statement mark the transaction's start
          TxnContext.Mark start = block.mark();
          for (NamedSavepoint sp : savepoints) {
            sp.mark = start;
          }
        }
      }
      ctx = block;
    } else {
      ctx = readOnly ? database.beginReadOnly() : database.begin();
      statementContexts.put(statementKey, ctx);
    }
    // every statement's row-lock waits end at lock_timeout (batches and COPY too, not only planned statements)
    ctx.lockTimeout(settings.lockTimeoutMillis());
    return ctx;
  }

  /**
   * Ends a statement that ran without error: outside a block a writing statement commits now; a reading
   * one keeps its snapshot until the statement is closed or run again.
   */
  public synchronized void statementSucceeded(Object statementKey) {
    if (!inTransactionBlock()) {
      endTransactionLocks();
    }
    TxnContext ctx = statementContexts.get(statementKey);
    if (ctx != null && ctx.wrote()) {
      statementContexts.remove(statementKey);
      try {
        ctx.commit();
      } catch (RuntimeException e) {
        if (notifications != null && !inTransactionBlock()) {
          notifications.discard();
        }
        throw e;
      } finally {
        ctx.close();
      }
    }
    if (notifications != null && !inTransactionBlock()) {
      notifications.commit(); // pg_notify() in an autocommitted statement
    }
  }

  /** Ends a statement that failed: none of its changes remain. */
  public synchronized void statementFailed(Object statementKey) {
    if (!inTransactionBlock()) {
      endTransactionLocks();
      if (notifications != null) {
        notifications.discard();
      }
    }
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
    if (dataContext instanceof StatementPlanner.ExecutionContext e && e.txn() != null) {
      return e.txn();
    }
    throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
        "the statement does not run in a transaction of this session");
  }


  // ---- statements: prepare, execute, cancel ----

  /** How many rows a query evaluates as it executes, so errors such as 1/0 surface from execute. */
  private static final int PREFETCH_ROWS = 100;

  synchronized StatementPlanner planner() {
    checkOpen();
    if (planner == null) {
      planner = new StatementPlanner(this, settings.timeZone(), options.user());
      plans = new PlanCache(planner, options.planCacheSize(), this::planVersion, database.meters(),
          database.meterTags());
    }
    return planner;
  }

  /**
   * The version plans are valid for: the catalog's (DDL) and the tables' statistics' (the planner's costs
   * change with them). Both only increase, so the combination changes whenever either does.
   */
  private long planVersion() {
    return (database.catalog().version() * 1_000_003L + database.statistics().version()) * 31 + settingsVersion;
  }

  /** A query as Calcite parses it (see {@link StatementPlanner#calciteText}), for the text a view stores. */
  String calciteText(String sql) {
    return planner().calciteText(sql);
  }

  /** The session's time zone. */
  public TimeZone timeZone() {
    return planner().timeZone();
  }

  /**
   * JDBC's generated keys: {@code sql} with a RETURNING clause of the columns named, or of those at the 1-based
   * {@code ordinals} of its target table, or of all columns when neither is given (as pgJDBC asks for
   * {@code RETURNING *}); unchanged when it is no INSERT, UPDATE or DELETE or already has a RETURNING clause.
   */
  public String withGeneratedKeys(String sql, List<String> names, int[] ordinals) {
    List<String> columns = new ArrayList<>(names);
    if (ordinals != null && ordinals.length > 0) {
      String table = io.accel.sql.Returning.targetTable(sql).orElse(null);
      io.accel.catalog.TableDef def = table == null ? null : database.catalog().table(table).orElseThrow(() ->
          new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + table + "\" does not exist"));
      for (int o : ordinals) {
        if (def == null) {
          break;
        }
        if (o < 1 || o > def.columns().size()) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "the column index " + o + " is out of range");
        }
        columns.add(def.columns().get(o - 1).name());
      }
    }
    return io.accel.sql.Returning.withKeys(sql, columns);
  }

  private static final java.util.concurrent.atomic.AtomicInteger PROCESS_IDS = new java.util.concurrent.atomic.AtomicInteger();
  /** The id notifications from this session carry (a server sets its BackendKeyData pid). */
  private volatile int processId = PROCESS_IDS.incrementAndGet();
  private SessionNotifications notifications;

  private SessionNotifications notifications() {
    if (notifications == null) {
      notifications = new SessionNotifications(database.notifications());
    }
    return notifications;
  }

  public int processId() {
    return processId;
  }

  public void setProcessId(int pid) {
    processId = pid;
  }

  /**
   * The next notification for a channel this session listens on, or empty; a frontend reads them after each
   * statement and, while idle, when {@link #onNotification} tells it some arrived.
   */
  public synchronized Optional<Notifications.Notification> pollNotification() {
    return notifications == null ? Optional.empty() : Optional.ofNullable(notifications.inbox().poll());
  }

  /** Runs {@code wakeUp} (on the notifier's thread) whenever a notification arrives for this session. */
  public synchronized void onNotification(Runnable wakeUp) {
    notifications().inbox().wakeUp(wakeUp);
  }

  /** {@code pg_notify(channel, payload)}: NOTIFY, sent when the statement's transaction commits. */
  public synchronized void pgNotify(String channel, String payload) {
    notifications().notify(processId, channel, payload, inTransactionBlock());
  }

  /** The SQL-level prepared statements (PREPARE ... AS), by name. */
  private final PreparedStatements preparedStatements = new PreparedStatements();

  /** A statement PREPARE named, as {@code pg_prepared_statements} lists it. */
  public record SqlPreparedStatement(String name, String statement, java.time.Instant prepareTime,
      List<String> parameterTypes, long executions) {
  }

  /** Whether PREPARE named a statement {@code name} (a frontend's Parse of that name is then 42P05). */
  public synchronized boolean hasSqlPreparedStatement(String name) {
    return preparedStatements.contains(name);
  }

  /**
   * The names of a frontend's own prepared statements (the wire protocol's named statements), which PREPARE may
   * not reuse (42P05): PostgreSQL has one name space for both.
   */
  public synchronized void frontendStatementNames(java.util.function.Predicate<String> names) {
    preparedStatements.frontendNames(names);
  }

  /** The statements PREPARE named in this session, oldest first. */
  public synchronized List<SqlPreparedStatement> sqlPreparedStatements() {
    return preparedStatements.all().stream().map(n -> new SqlPreparedStatement(n.name(), n.text(), n.prepareTime(),
        n.parameterTypes(), n.executions()[0])).toList();
  }

  /** Prepares one statement. */
  public Prepared prepare(String sql) {
    return prepare(sql, -1);
  }

  /**
   * Prepares one statement: parses it (DDL and transaction control in core's own parser, the rest through
   * Calcite), and for queries and DML plans and compiles it, or takes its plan from the plan cache.
   *
   * @param maxRowCount the most rows a query may return, -1 for all
   */
  public Prepared prepare(String sql, long maxRowCount) {
    if (maxRowCount < 0 && plans != null && options.planCacheSize() > 0) {
      Prepared known = preparedByText(sql);
      if (known != null) {
        checkNotAborted();
        plans.countReuse();
        return known;
      }
    }
    Prepared prepared = prepareWhole(sql, maxRowCount);
    if (maxRowCount < 0 && options.planCacheSize() > 0 && prepared.reusableByText()) {
      synchronized (preparedByText) {
        preparedByText.put(sql, prepared);
      }
    }
    return prepared;
  }

  private Prepared preparedByText(String sql) {
    long version = planVersion();
    synchronized (preparedByText) {
      if (version != preparedByTextVersion) {
        preparedByText.clear();
        preparedByTextVersion = version;
      }
      return preparedByText.get(sql);
    }
  }

  private Prepared prepareWhole(String sql, long maxRowCount) {
    if (sql.indexOf(';') >= 0) {
      // a statement may end with a semicolon, as PostgreSQL accepts it ("SELECT 1;")
      List<String> statements = io.accel.sql.Statements.split(sql);
      if (statements.size() == 1) {
        sql = statements.get(0);
      }
    }
    try {
      return prepareText(checkIdentityTargets(sql), maxRowCount);
    } catch (AccelException e) {
      throw e.locatedIn(sql);
    }
  }

  /** {@code INSERT INTO t AS alias}: the alias is Accel's (RETURNING, ON CONFLICT), not Calcite's. */
  private static final java.util.regex.Pattern INSERT_ALIAS = java.util.regex.Pattern.compile(
      "(?is)\\s*insert\\s+into\\s+\\S+\\s+as\\s");

  /** {@code TABLE name}, PostgreSQL's short form of {@code SELECT * FROM name} (Calcite cannot run it). */
  private static final java.util.regex.Pattern TABLE_STATEMENT = java.util.regex.Pattern.compile(
      "(?is)\\s*table\\s+((?:\"[^\"]+\"|[\\w$]+)(?:\\s*\\.\\s*(?:\"[^\"]+\"|[\\w$]+))?)\\s*");

  private Prepared prepareText(String text, long maxRowCount) {
    String sql = text;
    java.util.regex.Matcher tableStatement = TABLE_STATEMENT.matcher(sql);
    if (tableStatement.matches()) {
      sql = "SELECT * FROM " + tableStatement.group(1);
    }
    if (io.accel.sql.InsertDefaultValues.mayHave(sql)) {
      sql = io.accel.sql.InsertDefaultValues.rewrite(sql, name -> database.catalog().table(name)
          .map(t -> t.columns().get(0).name())).orElse(sql);
    }
    Optional<io.accel.sql.Returning> returning = io.accel.sql.Returning.mayHave(sql)
        ? io.accel.sql.Returning.of(sql) : Optional.empty();
    if (returning.isPresent()) {
      io.accel.sql.Returning r = returning.get();
      if (r.list().strip().equals("*") && io.accel.sql.UpdateFrom.joins(r.dml())) {
        // PostgreSQL returns the list's columns too; the rows returned here are the target's
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "RETURNING * of an UPDATE ... FROM or DELETE ..."
            + " USING is not supported by Accel: name the columns (target.*, target.column)");
      }
      Prepared dml = prepareText(r.dml(), -1);
      if (dml.kind() != Prepared.Kind.DML || dml.command() != null) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"RETURNING\"");
      }
      Prepared query = prepareText(r.query(io.accel.plan.ReturnedRows.NAME), maxRowCount);
      return Prepared.withReturning(sql, r, dml, query);
    }
    Optional<io.accel.sql.OnConflict> conflict = io.accel.sql.OnConflict.mayHave(sql)
        ? io.accel.sql.OnConflict.of(sql) : Optional.empty();
    if (conflict.isPresent()) {
      io.accel.sql.OnConflict c = conflict.get();
      Prepared insert = prepareText(c.insert(), -1);
      if (insert.kind() != Prepared.Kind.DML || insert.command() != null) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"ON\"");
      }
      // the conflict target is checked now (42P10, 42704), as PostgreSQL checks it before any row is computed
      database.catalog().table(c.table()).ifPresent(t -> Upsert.of(t, c, null));
      Prepared query = c.doUpdate()
          ? prepareText(c.query(io.accel.plan.ReturnedRows.NAME, io.accel.plan.ReturnedRows.EXCLUDED_NAME), -1) : null;
      return Prepared.withOnConflict(sql, c, insert, query);
    }
    if (io.accel.sql.RowLocking.mayHave(sql)) {
      Optional<io.accel.sql.RowLocking.Split> split = io.accel.sql.RowLocking.of(sql);
      if (split.isPresent()) {
        Prepared query = prepareText(split.get().query(), maxRowCount);
        if (query.kind() != Prepared.Kind.QUERY || query.command() != null) {
          throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"FOR\"");
        }
        return Prepared.withRowLocking(sql, split.get().locking(), query);
      }
    }
    if (INSERT_ALIAS.matcher(sql).lookingAt()) {
      sql = io.accel.sql.Returning.withoutInsertAlias(sql);
    }
    Optional<Command> command = parseCommand(sql);
    if (command.isPresent()) {
      if (command.get() instanceof Command.ExecuteStatement execute) {
        Prepared statement = preparedStatements.statementOf(this, execute);
        return Prepared.executing(sql, statement, execute, preparedStatements.parametersOf(execute, statement));
      }
      if (command.get() instanceof Command.Explain explain) {
        return new Prepared(sql, Prepared.Kind.EXPLAIN, explainSignature(sql, explainParameters(explain.statement())),
            null, command.get());
      }
      if (command.get() instanceof Command.Show show) {
        return new Prepared(sql, Prepared.Kind.QUERY, showSignature(sql, show.name()), null, command.get());
      }
      if (command.get() instanceof Command.ShowAccel show) {
        return new Prepared(sql, Prepared.Kind.QUERY, AccelStatus.signature(sql, show.tables()), null, command.get());
      }
      if (command.get() instanceof Command.ExplainLast) {
        return new Prepared(sql, Prepared.Kind.QUERY, CachedQueries.signature(sql, command.get()), null,
            command.get());
      }
      if (CachedQueries.returnsRows(command.get())) {
        return new Prepared(sql, Prepared.Kind.QUERY, CachedQueries.signature(sql, command.get()), null,
            command.get());
      }
      return new Prepared(sql, Prepared.Kind.COMMAND, commandSignature(sql), null, command.get());
    }
    checkNotAborted();
    planner();
    // planning reads the catalog: no DDL may change it meanwhile
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    AtomicBoolean cancel = new AtomicBoolean();
    running = cancel;
    Cancellation cancellation = cancellation(cancel, settings.statementTimeoutMillis());
    try {
      String planned = sql;
      PlanCache.Plan plan = StatementPlanner.cancellable(cancel, () -> plans.plan(planned, maxRowCount), () -> {
        try {
          cancellation.check();
        } catch (AccelException e) {
          return e;
        }
        return new AccelException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
      });
      CalcitePrepare.CalciteSignature<Object> signature = plan.signature();
      Prepared.Kind kind = signature.statementType != null && signature.statementType.canUpdate()
          ? Prepared.Kind.DML : Prepared.Kind.QUERY;
      return new Prepared(sql, kind, declared(signature), plan, null);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw ErrorTranslator.translate(e);
    } finally {
      cancellation.finish();
      lock.unlock();
    }
  }

  /**
   * PostgreSQL's rule for GENERATED ALWAYS identity columns: an INSERT may give them only DEFAULT unless it says
   * OVERRIDING SYSTEM VALUE (428C9), an UPDATE may set them only to DEFAULT. Returns the statement without its
   * OVERRIDING clause (Calcite's grammar has none).
   */
  private String checkIdentityTargets(String sql) {
    int start = 0;
    while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
      start++;
    }
    boolean insert = sql.regionMatches(true, start, "insert", 0, 6);
    if (!insert && !sql.regionMatches(true, start, "update", 0, 6)) {
      return sql;
    }
    boolean always = database.sequences().sequences().stream().anyMatch(q -> q.owner()
        .filter(o -> o.identity() == io.accel.catalog.SequenceDef.Identity.ALWAYS).isPresent())
        || database.catalog().tables().stream().anyMatch(t -> t.columns().stream()
            .anyMatch(io.accel.catalog.Column::generated));
    if (!always && !(insert && sql.toLowerCase(Locale.ROOT).contains("overriding"))) {
      return sql;
    }
    io.accel.sql.WriteTargets targets = io.accel.sql.WriteTargets.of(sql).orElse(null);
    if (targets == null) {
      return sql;
    }
    io.accel.catalog.TableDef table = database.catalog().table(targets.table()).orElse(null);
    for (int ordinal = 0; table != null && ordinal < table.columns().size(); ordinal++) {
      io.accel.catalog.Column column = table.columns().get(ordinal);
      if (column.generated() && targets.gives(ordinal, column.name())) {
        throw notDefault(targets, column.name()).withDetail("Column \"" + column.name() + "\" is a generated column.");
      }
    }
    if (table != null && !targets.overridingSystem()) {
      for (io.accel.catalog.SequenceDef q : database.sequences().ownedBy(table.id())) {
        io.accel.catalog.SequenceDef.Owner o = q.owner().get();
        if (o.identity() == io.accel.catalog.SequenceDef.Identity.ALWAYS
            && targets.gives(table.columnOrdinal(o.column()).orElse(-1), o.column())) {
          throw notDefault(targets, o.column())
              .withDetail("Column \"" + o.column() + "\" is an identity column defined as GENERATED ALWAYS.")
              .withHint(targets.operation().equals("insert") ? "Use OVERRIDING SYSTEM VALUE to override." : null);
        }
      }
    }
    return targets.text();
  }

  /** 428C9 for a value other than DEFAULT written into {@code column} by {@code targets}' INSERT or UPDATE. */
  private static AccelException notDefault(io.accel.sql.WriteTargets targets, String column) {
    return new AccelException(SqlState.GENERATED_ALWAYS, targets.operation().equals("insert")
        ? "cannot insert a non-DEFAULT value into column \"" + column + "\""
        : "column \"" + column + "\" can only be updated to DEFAULT");
  }

  /** Prepares and runs one statement without parameters, as {@code statementKey}. */
  public Result execute(Object statementKey, String sql) {
    return execute(statementKey, prepare(sql), List.of(), new AtomicBoolean(), 0);
  }

  /**
   * Runs a prepared statement as the session's statement {@code statementKey} (a frontend's statement or
   * portal). Running a key again releases what its previous run held (its snapshot, outside a block).
   * Outside a transaction block a writing statement commits when it succeeds, and a query keeps its
   * snapshot until the key is run again or released ({@link #releaseStatement}), so its cursor reads one
   * snapshot however slowly it is read. A statement that fails changes nothing (and aborts a block).
   *
   * @param parameters one value per parameter, in any representation Avatica's {@link TypedValue} has; each
   *     is converted to the parameter's type (22P02, 22003, 22007, 22008, 42804 when it cannot be)
   * @param cancel setting it stops the statement with 57014 ({@link #cancel} sets it too)
   * @param timeoutMillis 0 for none
   */
  public Result execute(Object statementKey, Prepared prepared, List<TypedValue> parameters, AtomicBoolean cancel,
      long timeoutMillis) {
    if (prepared.command() instanceof Command.ExplainLast) {
      releaseStatement(statementKey);
      String note = cacheNote;
      Object[] row = {"accel", note == null ? "a standalone store: every statement runs in Accel" : note};
      return Result.rows(prepared.signature(), new Cursor(
          org.apache.calcite.linq4j.Linq4j.enumerator(List.of((Object) row)), null, null));
    }
    cacheNote = null;
    if (prepared.execution() != null) {
      Prepared.Execution x = prepared.execution();
      List<TypedValue> arguments = preparedStatements.arguments(this, x.command(), x.statement(), parameters);
      return execute(statementKey, x.statement(), arguments, cancel, timeoutMillis);
    }
    if (prepared.command() instanceof Command.PrepareStatement prepare) {
      releaseStatement(statementKey);
      checkNotAborted();
      preparedStatements.prepare(this, prepared.sql(), prepare);
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.Listen
        || prepared.command() instanceof Command.Unlisten || prepared.command() instanceof Command.Notify) {
      releaseStatement(statementKey);
      checkNotAborted();
      synchronized (this) {
        boolean inBlock = inTransactionBlock();
        if (prepared.command() instanceof Command.Listen l) {
          notifications().listen(l.channel(), inBlock);
        } else if (prepared.command() instanceof Command.Unlisten u) {
          notifications().unlisten(u.channel(), inBlock);
        } else if (prepared.command() instanceof Command.Notify n) {
          notifications().notify(processId, n.channel(), n.payload(), inBlock);
        }
      }
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.Deallocate deallocate) {
      releaseStatement(statementKey);
      checkNotAborted();
      preparedStatements.deallocate(deallocate.name());
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.Explain explain) {
      // (a plan without ANALYZE shows the markers as they are: values are optional)
      List<Object> values = explain.analyze() ? parameterValues(prepared, parameters) : List.of();
      return inStatement(statementKey, false, prepared,
          () -> explain(prepared, explain, values, cancel, currentContext(statementKey)));
    }
    if (prepared.command() != null && CachedQueries.isCacheCommand(prepared.command())) {
      releaseStatement(statementKey);
      checkNotAborted();
      if (cachedQueries == null) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
            "the result cache is off in this store (resultCacheSize=0)");
      }
      return cachedQueries.command(prepared, prepared.command());
    }
    if (prepared.command() instanceof Command.ShowAccel show) {
      releaseStatement(statementKey);
      checkNotAborted();
      return Result.rows(prepared.signature(), new Cursor(
          org.apache.calcite.linq4j.Linq4j.enumerator(AccelStatus.rows(database, show.tables())), null, null));
    }
    if (prepared.command() instanceof Command.Show show) {
      releaseStatement(statementKey);
      checkNotAborted();
      return Result.rows(prepared.signature(), new Cursor(
          org.apache.calcite.linq4j.Linq4j.enumerator(showRows(show.name())), null, null));
    }
    if (prepared.command() instanceof Command.Set set) {
      releaseStatement(statementKey);
      checkNotAborted();
      set(set.name(), set.value(), set.local());
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.SetConstraints constraints) {
      releaseStatement(statementKey);
      checkNotAborted();
      setConstraints(constraints);
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.Reset reset) {
      releaseStatement(statementKey);
      checkNotAborted();
      if (reset.name().equals("all")) {
        for (String name : settings.all().keySet()) {
          if (!name.contains(".")) {
            try {
              set(name, null, false);
            } catch (AccelException readOnly) {
              // read-only parameters keep their value
            }
          }
        }
      } else {
        set(reset.name(), null, false);
      }
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.command() instanceof Command.Truncate truncate) {
      return inStatement(statementKey, false, prepared, () -> {
        new CommandExecutor(this).truncate(truncate, currentContext(statementKey));
        return Result.count(prepared.signature(), 0);
      });
    }
    if (prepared.command() instanceof Command.CreateTableAs createAs) {
      releaseStatement(statementKey);
      checkNotAborted();
      try {
        return Result.count(prepared.signature(), CreateTableAs.run(this, statementKey, createAs));
      } catch (RuntimeException e) {
        failTransaction();
        throw e;
      }
    }
    if (prepared.command() instanceof Command.Copy copy) {
      releaseStatement(statementKey);
      checkNotAborted();
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY " + (copy.from() ? "FROM STDIN" : "TO STDOUT")
          + " is only supported through the PostgreSQL protocol");
    }
    if (prepared.command() != null) {
      releaseStatement(statementKey);
      if (!(prepared.command() instanceof Command.Commit || prepared.command() instanceof Command.Rollback
          || prepared.command() instanceof Command.RollbackToSavepoint)) {
        checkNotAborted(); // a failed block runs nothing but its end (and ROLLBACK TO), as in PostgreSQL
      }
      ddlOverBlockRows(prepared.command());
      // (BEGIN inside a block is PostgreSQL's warning, which the frontends give: its 25001 leaves the block as it is)
      boolean ends = prepared.command() instanceof Command.Commit || prepared.command() instanceof Command.Rollback
          || prepared.command() instanceof Command.Begin;
      try {
        new CommandExecutor(this).execute(prepared.command());
      } catch (RuntimeException e) {
        if (!ends) {
          failTransaction(); // a command that failed aborts the block, as any statement does
        }
        throw e;
      }
      return Result.count(prepared.signature(), 0);
    }
    if (prepared.kind() == Prepared.Kind.QUERY && prepared.plan() != null && cachedQueries != null
        && prepared.rowLocking() == null && !inTransactionBlock()) {
      Result cached = cachedQueries.execute(statementKey, prepared, parameters, cancel, timeoutMillis);
      if (cached != null) {
        return cached;
      }
    }
    running = cancel;
    if (prepared.kind() == Prepared.Kind.QUERY && options.cursorCacheSize() > 0 && prepared.rowLocking() == null) {
      Result paged = executePage(statementKey, prepared, parameters, cancel, timeoutMillis);
      if (paged != null) {
        return paged;
      }
    }
    List<Object> values = parameterValues(prepared, parameters);
    Cancellation cancellation = cancellation(cancel, timeoutMillis(timeoutMillis));
    return inStatement(statementKey, prepared.kind() == Prepared.Kind.QUERY, prepared, () -> {
      TxnContext ctx = currentContext(statementKey);
      ctx.cancellation(cancellation);
      CalcitePrepare.CalciteSignature<Object> signature = prepared.plan().signature();
      Cursor cursor = null;
      try {
        List<Object[]> written = prepared.returning() == null ? null : new ArrayList<>();
        Map<String, Object> variables = new HashMap<>();
        List<Object> dmlValues = written == null ? values : values.subList(0, prepared.returning().parameters());
        if (written != null) {
          variables.put(io.accel.plan.ReturnedRows.ROWS, written);
        }
        if (prepared.onConflict() != null) {
          int n = prepared.onConflict().insertParameters();
          variables.put(Upsert.VARIABLE, new Upsert.Request(prepared.onConflict(),
              conflictEvaluator(prepared.conflictQuery(), dmlValues.subList(n, dmlValues.size()), ctx, cancel)));
          dmlValues = dmlValues.subList(0, n);
        }
        Enumerator<Object> rows;
        if (prepared.rowLocking() != null) {
          // the rows are read (and locked) now, while the clause is the context's: later statements of the block
          // must not lock through it
          ctx.rowLocking(prepared.rowLocking());
          List<Object> all = new ArrayList<>();
          try (Enumerator<Object> e = planner.execute(signature, dmlValues, ctx, cancel, 0, variables).enumerator()) {
            // past a LIMIT's last row the enumerators would read (and lock) one row more
            long limit = prepared.rowLocking().limit();
            while ((limit < 0 || all.size() < limit) && e.moveNext()) {
              all.add(e.current());
            }
          } finally {
            ctx.rowLocking(null);
          }
          rows = org.apache.calcite.linq4j.Linq4j.enumerator(all);
        } else {
          rows = planner.execute(signature, dmlValues, ctx, cancel, 0, variables).enumerator();
        }
        cursor = prepared.kind() == Prepared.Kind.QUERY ? openCursor(statementKey, ctx, rows, cancellation)
            : new Cursor(rows, blockContext(), cancellation);
        if (prepared.returning() != null) {
          return returning(prepared, values, ctx, cancel, cursor, written, cancellation);
        }
        if (prepared.kind() == Prepared.Kind.DML) {
          Object row = cursor.hasNext() ? cursor.next() : 0L;
          cursor.close();
          return Result.count(signature, updateCount(row));
        }
        cursor.rowMapper(prepared.charPadding());
        cursor.prefetch(PREFETCH_ROWS);
        return Result.rows(prepared.signature(), cursor);
      } catch (RuntimeException | Error e) {
        if (cursor != null) {
          cursor.close();
        }
        cancellation.finish();
        throw e;
      }
    });
  }

  /**
   * A query's cursor over {@code rows}; the statement's own snapshot (outside a block) is released as soon as its
   * rows are all read: a statement left open (or forgotten) after reading its result pins nothing.
   */
  Cursor openCursor(Object statementKey, TxnContext ctx, Enumerator<Object> rows, Cancellation cancellation) {
    Cursor cursor = new Cursor(rows, blockContext(), cancellation);
    TxnContext own = statementContexts.get(statementKey);
    if (own == ctx) {
      cursor.onEnd(() -> {
        if (statementContexts.remove(statementKey, own)) {
          own.close();
        }
      });
    }
    return cursor;
  }

  /**
   * The rest of a DML statement with RETURNING whose DML part {@code dml} is ready to run: it runs (collecting the
   * rows it writes), then the RETURNING list is evaluated over them; the rows are returned, all in memory, with the
   * DML's row count.
   */
  private Result returning(Prepared prepared, List<Object> values, TxnContext ctx, AtomicBoolean cancel, Cursor dml,
      List<Object[]> written, Cancellation cancellation) {
    Object count = dml.hasNext() ? dml.next() : 0L;
    dml.close();
    Prepared query = prepared.returningQuery();
    List<Object> rows = new ArrayList<>();
    Enumerator<Object> e = planner.execute(query.plan().signature(),
        values.subList(prepared.returning().parameters(), values.size()), ctx, cancel, 0,
        Map.of(io.accel.plan.ReturnedRows.ROWS, written)).enumerator();
    try {
      while (e.moveNext()) {
        rows.add(e.current());
      }
    } finally {
      e.close();
    }
    java.util.function.UnaryOperator<Object> pad = query.charPadding();
    if (pad != null) {
      rows.replaceAll(pad);
    }
    cancellation.finish();
    return Result.returned(prepared.signature(), new Cursor(org.apache.calcite.linq4j.Linq4j.enumerator(rows), null,
        null), updateCount(count));
  }

  /**
   * Evaluates ON CONFLICT DO UPDATE's SET values and WHERE condition for one conflict: the query over the conflicting
   * row and the proposed one ({@code excluded}), run in the statement's transaction. Null for DO NOTHING.
   */
  private Upsert.Evaluator conflictEvaluator(Prepared query, List<Object> values, TxnContext ctx, AtomicBoolean cancel) {
    if (query == null) {
      return null;
    }
    return (existing, proposed) -> {
      Enumerator<Object> e = planner.execute(query.plan().signature(), values, ctx, cancel, 0,
          Map.of(io.accel.plan.ReturnedRows.ROWS, List.<Object[]>of(existing), io.accel.plan.ReturnedRows.EXCLUDED,
              List.<Object[]>of(proposed))).enumerator();
      try {
        if (!e.moveNext()) {
          return new Object[] {false};
        }
        Object row = e.current();
        return row instanceof Object[] a ? a : new Object[] {row};
      } finally {
        e.close();
      }
    };
  }

  /** The row count a DML plan's single result row holds. */
  private static long updateCount(Object row) {
    return ((Number) (row instanceof Object[] a ? a[0] : row)).longValue();
  }

  /**
   * Runs a batch of parameter sets of one INSERT ... VALUES as one statement: each execution computes its rows,
   * and all of them are written together when the batch ends (one primary-key MultiGet, one statement, one
   * commit outside a block). Returns each execution's row count, or null when the batch must run execution by
   * execution instead: a statement of another kind, a source that reads a table, or any failure (nothing of the
   * batch then remains, and running it again one by one reports the failing execution with the counts of those
   * before it, as JDBC asks). Cancellation and statement timeout are errors, as for one statement.
   */
  public long[] executeBatch(Object statementKey, Prepared prepared, List<List<TypedValue>> parameterSets,
      AtomicBoolean cancel, long timeoutMillis) {
    if (prepared.kind() != Prepared.Kind.DML || prepared.command() != null || parameterSets.size() < 2
        || prepared.returning() != null || prepared.onConflict() != null
        || !prepared.sql().stripLeading().regionMatches(true, 0, "INSERT", 0, 6)) {
      return null;
    }
    synchronized (this) {
      if (aborted && inTransactionBlock()) {
        return null;
      }
    }
    running = cancel;
    Cancellation cancellation = cancellation(cancel, timeoutMillis(timeoutMillis));
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      TxnContext ctx = beginStatement(statementKey, false);
      boolean own = statementContexts.get(statementKey) == ctx;
      long[] counts = new long[parameterSets.size()];
      InsertBatch batch = new InsertBatch();
      // in a block, the batch's own savepoint: a failure undoes its rows, counts and key claims (and closes open
      // scans of the transaction, whose write index RocksDB rebuilds), then the rows run one by one
      TxnContext.Mark before = own ? null : ctx.mark();
      try {
        ctx.cancellation(cancellation);
        ctx.insertBatch(batch);
        CalcitePrepare.CalciteSignature<Object> signature = prepared.plan().signature();
        for (int i = 0; i < counts.length; i++) {
          List<Object> values = parameterValues(prepared, parameterSets.get(i));
          Enumerator<Object> result = planner.execute(signature, values, ctx, cancel, 0).enumerator();
          try {
            counts[i] = updateCount(result.moveNext() ? result.current() : 0L);
          } finally {
            result.close();
          }
        }
        ctx.insertBatch(null);
        batch.write(database, ctx);
        cancellation.finish();
      } catch (RuntimeException | LinkageError | StackOverflowError e) {
        ctx.insertBatch(null);
        cancellation.finish();
        if (own) {
          statementFailed(statementKey);
        } else {
          ctx.rollbackTo(before);
        }
        AccelException translated = ErrorTranslator.translate(e);
        if (translated.state() == SqlState.QUERY_CANCELED) {
          throw translated;
        }
        return null;
      }
      try {
        statementSucceeded(statementKey);
      } catch (RuntimeException e) {
        // the commit failed (a concurrent writer): nothing of the batch remains; one by one decides
        return null;
      }
      return counts;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A page {@code LIMIT n OFFSET k} of a query whose rows stream in scan order, served through the store's
   * cursor cache: the cursor the previous page suspended at k resumes; otherwise the query it pages runs and
   * skips k rows, exactly what the LIMIT plan would do. After the page the cursor is suspended at k + n.
   * Null when the statement cannot be paged so (inside a block, no plain LIMIT/OFFSET, a sort in the plan):
   * it then runs as usual.
   */
  private Result executePage(Object statementKey, Prepared prepared, List<TypedValue> parameters,
      AtomicBoolean cancel, long timeoutMillis) {
    Prepared inner = prepared.pagedQuery(this);
    if (inner == null || inTransactionBlock()) {
      return null;
    }
    io.accel.sql.Paging paging = prepared.paging();
    long offset = pagingBound(paging.offset(), prepared, parameters);
    long fetch = pagingBound(paging.fetch(), prepared, parameters);
    if (offset < 0 || fetch < 0 || parameters.size() < inner.parameters().size()) {
      return null;
    }
    List<Object> values = parameterValues(inner, parameters.subList(0, inner.parameters().size()));
    releaseStatement(statementKey);
    checkOpen();
    io.accel.cursor.CursorCache cache = database.cursorCache();
    Cancellation cancellation = cancellation(cancel, timeoutMillis(timeoutMillis));
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    PagedCursor paged = null;
    try {
      paged = (PagedCursor) cache.take(new io.accel.cursor.CursorCache.Key(paging.inner(), values, offset));
      if (paged == null) {
        paged = PagedCursor.open(this, inner, values, cancel);
        paged.cursor.cancellation(cancellation);
        paged.ctx.cancellation(cancellation);
        for (long skipped = 0; skipped < offset && paged.cursor.hasNext(); skipped++) {
          paged.cursor.next();
        }
      }
      paged.cursor.cancellation(cancellation);
      paged.ctx.cancellation(cancellation);
      List<Object> rows = paged.cursor.fetch((int) Math.min(fetch, Integer.MAX_VALUE));
      java.util.function.UnaryOperator<Object> pad = prepared.charPadding();
      if (pad != null) {
        rows.replaceAll(pad);
      }
      if (paged.cursor.exhausted()) {
        paged.close();
      } else {
        cache.suspend(new io.accel.cursor.CursorCache.Key(paging.inner(), values, offset + rows.size()), paged,
            options.cursorCacheSize());
      }
      paged = null;
      cancellation.finish();
      return Result.rows(prepared.signature(), new Cursor(org.apache.calcite.linq4j.Linq4j.enumerator(rows), null,
          null));
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      if (paged != null) {
        paged.close();
      }
      cancellation.finish();
      throw ErrorTranslator.translate(e);
    } finally {
      lock.unlock();
    }
  }

  private static long pagingBound(io.accel.sql.Paging.Bound bound, Prepared prepared, List<TypedValue> parameters) {
    if (!bound.isParameter()) {
      return bound.literal();
    }
    if (bound.parameter() >= parameters.size() || parameters.get(bound.parameter()) == null
        || parameters.get(bound.parameter()).value == null) {
      return -1;
    }
    Object v = ParameterConversions.convert(parameters.get(bound.parameter()),
        prepared.parameters().get(bound.parameter()), java.time.ZoneOffset.UTC).toLocal();
    return v instanceof Number n ? n.longValue() : -1;
  }

  /** A query's cursor with its own read-only snapshot, suspended in the cursor cache between pages. */
  private static final class PagedCursor implements io.accel.cursor.CursorCache.Entry {
    final Cursor cursor;
    final TxnContext ctx;
    private final Database database;
    private final long catalogVersion;
    private final long[] tables;
    private final long[] commits;
    private final java.util.concurrent.atomic.AtomicInteger permits;

    private PagedCursor(Cursor cursor, TxnContext ctx, Database database, long catalogVersion, long[] tables,
        long[] commits, java.util.concurrent.atomic.AtomicInteger permits) {
      this.cursor = cursor;
      this.ctx = ctx;
      this.database = database;
      this.catalogVersion = catalogVersion;
      this.tables = tables;
      this.commits = commits;
      this.permits = permits;
    }

    static PagedCursor open(Session session, Prepared inner, List<Object> values, AtomicBoolean cancel) {
      Database db = session.database;
      long[] tables = inner.plan().facts().tables().stream().mapToLong(Long::longValue).toArray();
      long[] commits = new long[tables.length];
      // read before the snapshot: a commit in between makes the entry look stale, never fresh
      long version = db.catalog().version();
      for (int i = 0; i < tables.length; i++) {
        commits[i] = db.lastCommit(tables[i]);
      }
      TxnContext ctx = db.beginReadOnly();
      try {
        Enumerator<Object> rows = session.planner.execute(inner.plan().signature(), values, ctx, cancel, 0)
            .enumerator();
        return new PagedCursor(new Cursor(rows, null, null), ctx, db, version, tables, commits, session.suspended);
      } catch (RuntimeException | Error e) {
        ctx.close();
        throw e;
      }
    }

    @Override
    public boolean valid() {
      if (database.catalog().version() != catalogVersion) {
        return false;
      }
      for (int i = 0; i < tables.length; i++) {
        if (database.lastCommit(tables[i]) != commits[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public void close() {
      try {
        cursor.close();
      } finally {
        ctx.close();
      }
    }

    @Override
    public java.util.concurrent.atomic.AtomicInteger permits() {
      return permits;
    }
  }

  /** Makes {@code flag} the one {@link #cancel} sets (a COPY's, between the calls that feed it). */
  void running(AtomicBoolean flag) {
    running = flag;
  }

  /**
   * Starts {@code COPY table [(columns)] FROM STDIN ...} as the statement {@code statementKey}: the frontend then
   * feeds the client's data to the returned {@link CopyIn} and ends it with {@code finish()} or {@code fail()}. The
   * rows go into the open block's transaction, or the COPY's own, committed by {@code finish()}.
   */
  public CopyIn copyIn(Object statementKey, String sql) {
    return copyIn(statementKey, prepare(sql));
  }

  public CopyIn copyIn(Object statementKey, Prepared prepared) {
    Command.Copy copy = prepared.copy().filter(Command.Copy::from).orElseThrow(() -> new AccelException(
        SqlState.PROTOCOL_VIOLATION, "not a COPY FROM STDIN statement: " + prepared.sql()));
    checkNotAborted();
    java.time.ZoneId zone = timeZone().toZoneId();
    io.accel.catalog.TableDef table;
    List<Integer> targets;
    Object[] defaults;
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      table = database.catalog().table(copy.table()).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_TABLE,
          "relation \"" + copy.table() + "\" does not exist"));
      targets = CopyIn.Target.ordinals(table, copy.columns());
    } finally {
      lock.unlock();
    }
    defaults = new Object[table.columns().size()];
    for (int i = 0; i < defaults.length; i++) {
      io.accel.catalog.Column column = table.columns().get(i);
      if (!targets.contains(i) && column.insertDefault().isPresent()
          && !CopyIn.VOLATILE.matcher(column.insertDefault().get()).find()) {
        // a constant default once per COPY; volatile ones (nextval, gen_random_uuid, ...) per row (CopyIn)
        Object key = new Object();
        try (Result r = execute(key, "SELECT " + column.insertDefault().get())) {
          Object v = r.cursor().next();
          defaults[i] = v instanceof Object[] a ? a[0] : v;
        } finally {
          releaseStatement(key);
        }
      }
    }
    Lock statementLock = database.schemaLock().readLock();
    statementLock.lock();
    try {
      TxnContext ctx = beginStatement(statementKey, false);
      try {
        ctx.checkSchema(table);
        return new CopyIn(this, statementKey, table, targets, defaults, copy.format(), zone, ctx);
      } catch (RuntimeException e) {
        statementFailed(statementKey);
        throw ErrorTranslator.translate(e);
      }
    } finally {
      statementLock.unlock();
    }
  }

  /**
   * Starts {@code COPY table [(columns)] | (query) TO STDOUT ...} as the statement {@code statementKey}: the returned
   * {@link CopyOut} encodes one row a call, read lazily at the statement's snapshot; close it when done.
   */
  public CopyOut copyOut(Object statementKey, String sql) {
    return copyOut(statementKey, prepare(sql));
  }

  public CopyOut copyOut(Object statementKey, Prepared prepared) {
    Command.Copy copy = prepared.copy().filter(c -> !c.from()).orElseThrow(() -> new AccelException(
        SqlState.PROTOCOL_VIOLATION, "not a COPY TO STDOUT statement: " + prepared.sql()));
    String query = copy.query();
    if (query == null) {
      io.accel.catalog.TableDef table = database.catalog().table(copy.table()).orElseThrow(() -> new AccelException(
          SqlState.UNDEFINED_TABLE, "relation \"" + copy.table() + "\" does not exist"));
      List<Integer> ordinals = CopyIn.Target.ordinals(table, copy.columns());
      StringBuilder select = new StringBuilder("SELECT ");
      for (int i = 0; i < ordinals.size(); i++) {
        select.append(i > 0 ? ", " : "").append(quote(table.columns().get(ordinals.get(i)).name()));
      }
      query = select.append(" FROM ").append(quote(table.name())).toString();
    }
    Prepared select = prepare(query);
    if (select.kind() != Prepared.Kind.QUERY || select.command() != null) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COPY (query) TO supports SELECT queries only");
    }
    Result result = execute(statementKey, select, List.of(), new AtomicBoolean(), 0);
    return new CopyOut(this, statementKey, result, select.columns(), copy.format(), timeZone().toZoneId());
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** Statements whose snapshot is still held (a query's result not yet read to its end, or not closed). */
  public int snapshotsHeld() {
    return statementContexts.size();
  }

  /**
   * Runs SQL text holding one or several statements, as PostgreSQL's simple query protocol does: in order,
   * each handed to {@code each} complete (its rows read into memory) before the next one runs. Outside a
   * transaction block the statements share one implicit transaction, committed after the last, and a failure
   * rolls all of them back (the failure is thrown after the results before it were handed over); when the
   * text itself controls transactions (BEGIN, COMMIT, ROLLBACK) each statement runs as it would alone.
   */
  public void executeScript(Object statementKey, String sql, java.util.function.Consumer<Result> each) {
    List<String> statements = io.accel.sql.Statements.split(sql);
    boolean implicit = statements.size() > 1 && !inTransactionBlock()
        && !io.accel.sql.Statements.controlTransactions(statements);
    AtomicBoolean cancel = new AtomicBoolean();
    if (implicit) {
      begin();
    }
    try {
      for (String statement : statements) {
        Result r = execute(statementKey, prepare(statement), List.of(), cancel, 0);
        if (r.hasRows()) {
          r.cursor().materialize();
        }
        each.accept(r);
      }
      if (implicit) {
        commit();
      }
    } catch (RuntimeException e) {
      if (implicit) {
        rollback();
      }
      throw e;
    }
  }

  /** The timeout of a statement: the frontend's and statement_timeout, whichever is set and shorter. */
  private long timeoutMillis(long frontend) {
    long limit = settings.statementTimeoutMillis();
    return frontend > 0 && limit > 0 ? Math.min(frontend, limit) : Math.max(frontend, limit);
  }

  /** Stops the statement running now, if any, with 57014 (from any thread). */
  public void cancel() {
    AtomicBoolean flag = running;
    if (flag != null) {
      flag.set(true);
    }
  }

  interface StatementBody {
    Result run();
  }

  /** Runs a statement holding the schema lock shared, in its transaction; a failure undoes what it wrote. */
  Result inStatement(Object statementKey, boolean query, Prepared prepared, StatementBody body) {
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      Result result;
      for (int attempt = 1;; attempt++) {
        TxnContext ctx = beginStatement(statementKey, query);
        RestartPoint restartPoint = restartPoint(statementKey, ctx, prepared);
        try {
          result = body.run();
          break;
        } catch (RuntimeException e) {
          boolean restarting = restarting(e);
          if (!restarting || attempt >= MAX_RESTARTS || !restart(statementKey, ctx, restartPoint)) {
            statementFailed(statementKey);
            throw restarting ? new AccelException(SqlState.SERIALIZATION_FAILURE,
                "could not serialize access due to concurrent update") : failed(prepared, e);
          }
          database.statementRestarted();
        } catch (LinkageError | StackOverflowError e) {
          // LinkageError: generated code whose constant folding failed (1/0) in a static initializer
          statementFailed(statementKey);
          throw failed(prepared, e);
        } finally {
          ctx.restartable(false);
        }
      }
      statementSucceeded(statementKey);
      return result;
    } finally {
      lock.unlock();
    }
  }

  /** A failed statement's error as the client sees it; a plan that failed leaves the plan caches. */
  private AccelException failed(Prepared prepared, Throwable e) {
    if (prepared.plan() != null) {
      plans.forget(prepared.plan());
      synchronized (preparedByText) {
        preparedByText.values().remove(prepared);
      }
    }
    return ErrorTranslator.translate(e);
  }

  /**
   * Where a statement restarts from when it meets a row a concurrent transaction committed after its snapshot: a
   * statement outside a block is its own transaction and starts over in a new one; one that writes or locks rows
   * in a READ COMMITTED block gets a savepoint. Other statements do not restart (REPEATABLE READ: 40001).
   */
  private synchronized RestartPoint restartPoint(Object statementKey, TxnContext ctx, Prepared prepared) {
    if (statementContexts.get(statementKey) == ctx) {
      ctx.restartable(true);
      return null;
    }
    if (ctx == block && readCommitted() && restartPoints < MAX_RESTART_POINTS
        && (prepared.kind() == Prepared.Kind.DML || prepared.rowLocking() != null)) {
      restartPoints++;
      RestartPoint point = new RestartPoint(ctx.mark(), notifications == null ? null : notifications.mark());
      ctx.restartable(true);
      return point;
    }
    return null;
  }

  /** Undoes the block's NOTIFYs and LISTENs since {@code mark} (null: the block had made none by then). */
  private void rollbackNotifications(SessionNotifications.Mark mark) {
    if (notifications != null) {
      notifications.rollbackTo(mark == null ? new SessionNotifications.Mark(0, 0) : mark);
    }
  }

  /** A block's state before a statement that may restart: its writes, and its NOTIFYs and LISTENs. */
  private record RestartPoint(TxnContext.Mark writes, SessionNotifications.Mark notifications) {
  }

  /**
   * Undoes what the statement did before it restarts: its own transaction as a failed statement's (its advisory
   * locks and notifications included), or the block's writes and notifications since its restart point.
   */
  private synchronized boolean restart(Object statementKey, TxnContext ctx, RestartPoint restartPoint) {
    if (statementContexts.get(statementKey) == ctx) {
      statementFailed(statementKey);
      return true;
    }
    if (restartPoint != null && ctx == block) {
      ctx.rollbackTo(restartPoint.writes());
      rollbackNotifications(restartPoint.notifications());
      return true;
    }
    return false;
  }

  private static boolean restarting(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatementRestart) {
        return true;
      }
    }
    return false;
  }

  void checkNotAbortedForCache() {
    checkNotAborted();
  }

  long statementTimeout(long frontend) {
    return timeoutMillis(frontend);
  }

  /** In a failed block only COMMIT and ROLLBACK are accepted, as in PostgreSQL (parsing included). */
  private synchronized void checkNotAborted() {
    if (aborted && inTransactionBlock()) {
      throw new AccelException(SqlState.IN_FAILED_SQL_TRANSACTION,
          "current transaction is aborted, commands ignored until end of transaction block");
    }
  }

  synchronized TxnContext currentContext(Object statementKey) {
    TxnContext ctx = statementContexts.get(statementKey);
    return ctx != null ? ctx : block;
  }

  /** The parameter values in the representation generated code reads, each converted to its parameter's type. */
  List<Object> parameterValues(Prepared prepared, List<TypedValue> parameters) {
    var declared = prepared.parameters();
    if (parameters.size() < declared.size()) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
          "no value specified for parameter " + (parameters.size() + 1));
    }
    List<Object> values = new ArrayList<>(declared.size());
    java.time.ZoneId zone = timeZone().toZoneId();
    for (int i = 0; i < declared.size(); i++) {
      TypedValue v = parameters.get(i);
      if (v == null) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "no value specified for parameter " + (i + 1));
      }
      values.add(v.value == null ? null : ParameterConversions.convert(v, declared.get(i), zone).toLocal());
    }
    return values;
  }

  /**
   * EXPLAIN [ANALYZE]: the plan lines. The statement is planned afresh (never from the plan cache); with
   * ANALYZE it runs to completion inside the caller's statement transaction, so DML takes effect, as in
   * PostgreSQL.
   */
  private Result explain(Prepared prepared, Command.Explain explain, List<Object> values, AtomicBoolean cancel,
      TxnContext ctx) {
    PlanExplainer explainer = new PlanExplainer(explain.analyze());
    StatementPlanner p = planner();
    // the plan the statement runs with: a direct one where the statement has that shape
    StatementPlanner.Planned direct = p.planDirectly(explain.statement());
    CalcitePrepare.CalciteSignature<Object> signature;
    java.util.function.Supplier<List<String>> render;
    java.util.function.Supplier<AccessCounters.ScanStats> totals;
    if (direct != null) {
      signature = direct.signature();
      if (explain.analyze()) {
        direct.direct().analyze();
      }
      render = direct.direct()::explain;
      totals = direct.direct()::scanTotals;
    } else {
      signature = p.prepare(explain.statement(), -1, explainer.program());
      if (!explainer.planned()) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
            "EXPLAIN is supported for queries and INSERT, UPDATE and DELETE");
      }
      render = explainer::render;
      totals = explainer::scanTotals;
    }
    List<Object> lines = new ArrayList<>();
    if (explain.analyze()) {
      long start = System.nanoTime();
      long rows = 0;
      Enumerator<Object> e = p.execute(signature, values, ctx, cancel, 0).enumerator();
      try {
        while (e.moveNext()) {
          rows++;
        }
      } finally {
        e.close();
      }
      double millis = (System.nanoTime() - start) / 1e6;
      lines.addAll(render.get());
      AccessCounters.ScanStats t = totals.get();
      lines.add(String.format(Locale.ROOT,
          "Index entries read: %d, ICP attempts: %d, ICP matches: %d, rows fetched from tables: %d",
          t.entriesRead(), t.icpAttempts(), t.icpMatches(), t.rowsFetched()));
      lines.add("Rows returned: " + rows);
      lines.add(String.format(Locale.ROOT, "Execution time: %.3f ms", millis));
    } else {
      lines.addAll(render.get());
    }
    Cursor cursor = new Cursor(org.apache.calcite.linq4j.Linq4j.enumerator(lines), null, null);
    return Result.rows(prepared.signature(), cursor);
  }

  /** For each column {@code prepared} returns: the table and column it reads straight from, else computed. */
  public List<ColumnOrigin> columnOrigins(Prepared prepared) {
    List<ColumnOrigin> origins = new ArrayList<>(prepared.columns().size());
    for (ColumnMetaData c : prepared.columns()) {
      ColumnOrigin origin = ColumnOrigin.COMPUTED;
      if (c.tableName != null && c.columnName != null && io.accel.plan.AccelSchema.NAME.equals(c.schemaName)) {
        io.accel.catalog.TableDef t = database.catalog().table(c.tableName).orElse(null);
        int ordinal = t == null ? -1 : t.columnOrdinal(c.columnName).orElse(-1);
        if (ordinal >= 0) {
          origin = new ColumnOrigin(io.accel.plan.PgCatalogSchema.tableOid(t), (short) (ordinal + 1));
        }
      }
      origins.add(origin);
    }
    return origins;
  }

  /**
   * The signature with CHAR(n) and VARCHAR(n) columns read straight from a table described as declared:
   * Calcite sees them as unbounded VARCHAR (the table writer enforces lengths itself).
   */
  private Meta.Signature declared(CalcitePrepare.CalciteSignature<Object> signature) {
    List<ColumnMetaData> columns = null;
    for (int i = 0; i < signature.columns.size(); i++) {
      ColumnMetaData c = signature.columns.get(i);
      if (c.type.id != java.sql.Types.VARCHAR || c.tableName == null || c.columnName == null
          || c.schemaName != null && !c.schemaName.equals(io.accel.plan.AccelSchema.NAME)
              && !c.schemaName.equals(io.accel.plan.ReturnedRows.NAME)) {
        continue;
      }
      io.accel.catalog.DataType type = database.catalog().table(c.tableName)
          .flatMap(t -> t.columnOrdinal(c.columnName).map(o -> t.columns().get(o).type())).orElse(null);
      if (type == null || type.kind() != io.accel.catalog.ColumnType.CHAR
          && (type.kind() != io.accel.catalog.ColumnType.VARCHAR || type.precision() < 0)) {
        continue;
      }
      boolean fixed = type.kind() == io.accel.catalog.ColumnType.CHAR;
      int length = fixed ? Math.max(type.precision(), 1) : type.precision();
      if (columns == null) {
        columns = new ArrayList<>(signature.columns);
      }
      columns.set(i, new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable, c.currency,
          c.nullable, c.signed, length, c.label, c.columnName, c.schemaName, length, c.scale, c.tableName,
          c.catalogName, ColumnMetaData.scalar(fixed ? java.sql.Types.CHAR : java.sql.Types.VARCHAR,
              fixed ? "CHAR" : "VARCHAR", ColumnMetaData.Rep.STRING), c.readOnly, c.writable,
          c.definitelyWritable, c.columnClassName));
    }
    if (columns == null) {
      return signature;
    }
    return Meta.Signature.create(columns, signature.sql, signature.parameters, signature.cursorFactory,
        signature.statementType);
  }

  /** SET name = value from a frontend (a startup parameter of the PostgreSQL protocol); null resets it. */
  public void setParameter(String name, String value) {
    set(name, value, false);
  }

  /**
   * {@code set_config(name, value, is_local)}: SET (LOCAL) name = value (null: DEFAULT); returns the value then in
   * effect. SET LOCAL outside a transaction block would last only for the statement, so it changes nothing.
   */
  public synchronized String setConfig(String name, String value, boolean local) {
    if (local && !inTransactionBlock()) {
      settings.get(name); // 42704 for an unknown name, as the SET would fail
      return value;
    }
    set(name, value, local);
    return settings.get(name);
  }

  /** SET name = value (null: DEFAULT), remembered for the block's end when one is open. */
  private synchronized void set(String name, String value, boolean local) {
    if (name.equals("transaction")) {
      return; // SET TRANSACTION READ WRITE, DEFERRABLE ...: no effect
    }
    if (name.equals("transaction_isolation")) {
      // SET TRANSACTION ISOLATION LEVEL: for the open block, before its first statement; outside a block PostgreSQL
      // warns and changes nothing
      if (inTransactionBlock() && value != null) {
        if (block != null) {
          throw new AccelException(SqlState.ACTIVE_SQL_TRANSACTION,
              "SET TRANSACTION ISOLATION LEVEL must be called before any query");
        }
        isolation(Settings.isolation(name, value));
      }
      return;
    }
    String key = name.toLowerCase(Locale.ROOT);
    String before = settings.find(key);
    apply(key, value);
    if (inTransactionBlock()) {
      blockSettings.putIfAbsent(key, before);
      if (local) {
        localSettings.add(key);
      }
    }
  }

  /** Sets a parameter and what depends on it: the planner's time zone and search path, the plans' version. */
  private void apply(String key, String value) {
    settings.set(key, value);
    if (key.equals("timezone")) {
      settingsVersion++; // plans read text as timestamps in the zone they were planned in
      if (planner != null) {
        planner.timeZone(settings.timeZone());
      }
    }
    if (key.equals("search_path")) {
      settingsVersion++; // plans resolved names through it (the planner reads it: StatementPlanner.schemaPaths)
    }
  }

  /** At COMMIT the LOCAL settings of the block end; at ROLLBACK all its settings are undone, as in PostgreSQL. */
  private void endBlockSettings(boolean rollback) {
    for (Map.Entry<String, String> e : blockSettings.entrySet()) {
      if (rollback || localSettings.contains(e.getKey())) {
        apply(e.getKey(), e.getValue());
      }
    }
    blockSettings.clear();
    localSettings.clear();
  }

  /** SHOW name: one row; SHOW ALL: name, setting, description. */
  private List<Object> showRows(String name) {
    if (name.equals("all")) {
      List<Object> rows = new ArrayList<>();
      settings.all().forEach((n, v) -> rows.add(new Object[] {n, v[0], v[1]}));
      return rows;
    }
    return List.of(settings.get(name));
  }

  private static Meta.Signature showSignature(String sql, String name) {
    if (name.equals("all")) {
      List<ColumnMetaData> columns = List.of(MetaImpl.columnMetaData("name", 0, String.class, false),
          MetaImpl.columnMetaData("setting", 1, String.class, false),
          MetaImpl.columnMetaData("description", 2, String.class, false));
      return Meta.Signature.create(columns, sql, List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.SELECT);
    }
    List<ColumnMetaData> columns = List.of(MetaImpl.columnMetaData(Settings.displayName(name), 0, String.class,
        false));
    return Meta.Signature.create(columns, sql, List.of(), Meta.CursorFactory.OBJECT, Meta.StatementType.SELECT);
  }

  private static Optional<Command> parseCommand(String sql) {
    try {
      return CommandParser.parse(sql);
    } catch (AccelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    }
  }

  private static Meta.Signature commandSignature(String sql) {
    return Meta.Signature.create(List.of(), sql, List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.OTHER_DDL);
  }

  /** One text column, {@code QUERY PLAN} as PostgreSQL names it. */
  private static Meta.Signature explainSignature(String sql, List<org.apache.calcite.avatica.AvaticaParameter> parameters) {
    List<ColumnMetaData> columns = List.of(MetaImpl.columnMetaData("QUERY PLAN", 0, String.class, false));
    return Meta.Signature.create(columns, sql, parameters, Meta.CursorFactory.OBJECT, Meta.StatementType.SELECT);
  }

  /**
   * The parameters of the statement an EXPLAIN plans, so a prepared {@code EXPLAIN ANALYZE ... WHERE id = ?} binds
   * them as the statement would (none without a marker: the statement is not planned twice).
   */
  private List<org.apache.calcite.avatica.AvaticaParameter> explainParameters(String statement) {
    if (statement.indexOf('?') < 0) {
      return List.of();
    }
    checkNotAborted();
    StatementPlanner p = planner();
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      return p.prepare(statement, -1).signature().parameters;
    } finally {
      lock.unlock();
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
    if (plans != null) {
      plans.close();
    }
    database.advisoryLocks().endSession(this);
    if (notifications != null) {
      notifications.close();
    }
    closed = true;
  }
}
