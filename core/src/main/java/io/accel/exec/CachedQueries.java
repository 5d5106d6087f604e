package io.accel.exec;

import io.accel.cache.ReadSet;
import io.accel.cache.ResultCache;
import io.accel.cursor.Cursor;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * A session's use of the store's {@link ResultCache}: queries outside a transaction block whose shape is cached
 * are answered from their entry, or run with their reads recorded and their rows kept; and the cache statements
 * (CREATE CACHE, DROP CACHE, DROP ALL CACHES, SHOW CACHES, EXPLAIN CREATE CACHE).
 */
final class CachedQueries {
  private final Session session;
  private final ResultCache cache;

  CachedQueries(Session session, ResultCache cache) {
    this.session = session;
    this.cache = cache;
  }

  /**
   * The result of {@code prepared} from the cache, or by an execution that fills it; null when the query is not
   * cached (the caller runs it as usual).
   */
  Result execute(Object statementKey, Prepared prepared, List<TypedValue> parameters, AtomicBoolean cancel,
      long timeoutMillis) {
    if (!cache.tracking()) {
      prepared.noteQuery(cache);
      return null;
    }
    String shape = prepared.cacheShape(cache);
    ResultCache.Definition d = cache.definition(shape);
    if (d == null) {
      if (!cache.autoCache() || prepared.plan().facts().notCacheable() != null || !cache.secondExecution(shape)) {
        return null;
      }
      d = cache.define(null, prepared.sql(), shape, ResultCache.Mode.DEEP, null, false);
    }
    if (d.upstream()) {
      return null; // it keeps upstream results only (the fronting router's); a local execution is not one
    }
    if (d.mode() == ResultCache.Mode.DEEP && prepared.plan().facts().notCacheable() != null) {
      return null; // the definition's text planned differently here (another search_path): not kept exact
    }
    List<Object> values = session.parameterValues(prepared, parameters);
    ResultCache.Key key = new ResultCache.Key(d.id(), prepared.sql(), values, session.timeZone().getID());
    long version = session.database().catalog().version();
    ResultCache.Entry hit = cache.get(key, d, version);
    if (hit != null) {
      session.cacheNote("answered from cache " + d.name());
      session.releaseStatement(statementKey);
      session.checkNotAbortedForCache();
      return Result.rows(prepared.signature(), new Cursor(Linq4j.enumerator(hit.rows()), null, null));
    }
    ResultCache.Definition definition = d;
    Cancellation cancellation = new Cancellation(cancel, session.statementTimeout(timeoutMillis));
    session.running(cancel);
    return session.inStatement(statementKey, true, prepared, () -> {
      TxnContext ctx = session.currentContext(statementKey);
      ctx.cancellation(cancellation);
      ReadSet reads = definition.mode() == ResultCache.Mode.DEEP ? new ReadSet() : null;
      ctx.recordReads(reads);
      long snapshot = ctx.snapshotSequence();
      Cursor cursor = null;
      try {
        Enumerator<Object> rows = session.planner().execute(prepared.plan().signature(), values, ctx, cancel, 0,
            new java.util.HashMap<>()).enumerator();
        cursor = session.openCursor(statementKey, ctx, rows, cancellation);
        cursor.rowMapper(prepared.charPadding());
        cursor.prefetch(ResultCache.MAX_ROWS + 1);
        ctx.recordReads(null);
        if (!cursor.evaluated()) {
          session.cacheNote("run; its result is too large to keep in cache " + definition.name());
          return Result.rows(prepared.signature(), cursor); // read as usual
        }
        List<Object> all = cursor.fetch(ResultCache.MAX_ROWS + 1);
        cursor.close();
        boolean kept = cache.put(key, definition, all, reads, prepared.tablesRead(), snapshot, version);
        session.cacheNote(kept ? "run, and its result kept in cache " + definition.name()
            : "run; its result was not kept in cache " + definition.name() + " (a write touched what it read,"
                + " or it is too large)");
        return Result.rows(prepared.signature(), new Cursor(Linq4j.enumerator(all), null, null));
      } catch (RuntimeException | Error e) {
        ctx.recordReads(null);
        if (cursor != null) {
          cursor.close();
        }
        cancellation.finish();
        throw e;
      }
    });
  }

  /** Runs a cache statement; rows for SHOW CACHES and EXPLAIN CREATE CACHE, a count of 0 otherwise. */
  Result command(Prepared prepared, Command c) {
    if (c instanceof Command.CreateCache create) {
      create(create);
      return Result.count(prepared.signature(), 0);
    }
    if (c instanceof Command.DropCache drop) {
      if (!cache.drop(drop.name())) {
        throw new AccelException(SqlState.UNDEFINED_OBJECT, "cache \"" + drop.name() + "\" does not exist");
      }
      return Result.count(prepared.signature(), 0);
    }
    if (c instanceof Command.DropAllCaches) {
      cache.dropAll();
      return Result.count(prepared.signature(), 0);
    }
    if (c instanceof Command.ShowCaches) {
      List<Object> rows = new ArrayList<>();
      for (ResultCache.Definition d : cache.definitions()) {
        rows.add(new Object[] {d.id(), d.name(), d.query(), properties(d), d.hits()});
      }
      rows.sort((a, b) -> ((String) ((Object[]) a)[1]).compareTo((String) ((Object[]) b)[1]));
      return Result.rows(prepared.signature(), new Cursor(Linq4j.enumerator(rows), null, null));
    }
    Command.ExplainCreateCache explain = (Command.ExplainCreateCache) c;
    String shape = ResultCache.shapeOf(explain.query());
    String supported;
    String how;
    try {
      Prepared query = cacheable(explain.query());
      String why = query.plan().facts().notCacheable();
      supported = why == null ? "yes" : "shallow only";
      how = why == null ? invalidation(query) : "not kept exact, because " + why
          + ": CREATE SHALLOW CACHE keeps its results for a TTL";
    } catch (AccelException e) {
      supported = "no";
      how = e.getMessage();
    }
    Object[] row = {ResultCache.queryId(shape), shape, supported, how};
    return Result.rows(prepared.signature(), new Cursor(Linq4j.enumerator(List.of((Object) row)), null, null));
  }

  private void create(Command.CreateCache create) {
    String text = create.query();
    if (create.byId()) {
      text = cache.knownQuery(text).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_OBJECT,
          "query id " + create.query() + " is not known: run the query first, or CREATE CACHE FROM its text"));
    }
    Prepared query = cacheable(text);
    String why = query.plan().facts().notCacheable();
    ResultCache.Mode mode = create.shallow() ? ResultCache.Mode.SHALLOW : ResultCache.Mode.DEEP;
    if (mode == ResultCache.Mode.DEEP && why != null) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "the query cannot be cached exactly, because " + why)
          .withHint("CREATE SHALLOW CACHE [POLICY TTL n SECONDS] caches its results for a time instead.");
    }
    cache.define(create.name().orElse(null), text, ResultCache.shapeOf(text), mode,
        mode == ResultCache.Mode.SHALLOW ? create.ttl().orElse(ResultCache.DEFAULT_TTL) : null, true);
  }

  /** {@code text} prepared as a query, or the reason it cannot be cached at all (0A000, or its own error). */
  private Prepared cacheable(String text) {
    Prepared query = session.prepare(io.accel.sql.PositionalParameters.of(text).sql()); // $n as the server binds it
    if (query.kind() != Prepared.Kind.QUERY || query.plan() == null) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "only a SELECT can be cached");
    }
    if (query.rowLocking() != null) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "a locking read (FOR UPDATE / SHARE) cannot be cached");
    }
    return query;
  }

  private String invalidation(Prepared query) {
    List<String> names = new ArrayList<>();
    for (io.accel.catalog.TableDef t : session.database().catalog().tables()) {
      if (query.tablesRead().contains(t.id())) {
        names.add(t.name());
      }
    }
    return "exact: a write to a key or index range a result read (tables " + String.join(", ", names)
        + ") drops it; a result that read more than " + ReadSet.MAX_TRACKED + " keys and ranges is dropped by any"
        + " write to those tables";
  }

  private String properties(ResultCache.Definition d) {
    StringBuilder p = new StringBuilder(d.mode() == ResultCache.Mode.DEEP ? "deep" : "shallow, ttl "
        + d.ttl().toSeconds() + " s");
    p.append(d.upstream() ? ", upstream results" : "");
    p.append(d.persistent() ? "" : ", auto");
    Map<ResultCache.Invalidation, Integer> modes = cache.entryModes(d);
    int total = modes.values().stream().mapToInt(Integer::intValue).sum();
    p.append(", ").append(total).append(total == 1 ? " result" : " results");
    if (total > 0 && d.mode() == ResultCache.Mode.DEEP) {
      List<String> parts = new ArrayList<>();
      modes.forEach((m, n) -> parts.add(n + switch (m) {
        case KEY -> " by key";
        case TABLE -> " by table";
        case TTL -> " by time";
      }));
      p.append(" (tracked ").append(String.join(", ", parts)).append(')');
    }
    return p.toString();
  }

  /** The columns SHOW CACHES and EXPLAIN CREATE CACHE return (Readyset's names). */
  static Meta.Signature signature(String sql, Command c) {
    List<ColumnMetaData> columns;
    if (c instanceof Command.ExplainLast) {
      columns = List.of(MetaImpl.columnMetaData("Query_destination", 0, String.class, false),
          MetaImpl.columnMetaData("Reason", 1, String.class, false));
    } else if (c instanceof Command.ShowCaches) {
      columns = List.of(MetaImpl.columnMetaData("query id", 0, String.class, false),
          MetaImpl.columnMetaData("cache name", 1, String.class, false),
          MetaImpl.columnMetaData("query text", 2, String.class, false),
          MetaImpl.columnMetaData("properties", 3, String.class, false),
          MetaImpl.columnMetaData("count", 4, Long.class, false));
    } else {
      columns = List.of(MetaImpl.columnMetaData("query id", 0, String.class, false),
          MetaImpl.columnMetaData("query text", 1, String.class, false),
          MetaImpl.columnMetaData("supported", 2, String.class, false),
          MetaImpl.columnMetaData("invalidation", 3, String.class, false));
    }
    return Meta.Signature.create(columns, sql, List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.SELECT);
  }

  static boolean returnsRows(Command c) {
    return c instanceof Command.ShowCaches || c instanceof Command.ExplainCreateCache;
  }

  static boolean isCacheCommand(Command c) {
    return c instanceof Command.CreateCache || c instanceof Command.DropCache || c instanceof Command.DropAllCaches
        || returnsRows(c);
  }
}
