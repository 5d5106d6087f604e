package io.accel.upstream;

import io.accel.cache.ResultCache;
import io.accel.catalog.TableDef;
import io.accel.exec.Prepared;
import io.accel.exec.Session;
import io.accel.sql.AccelException;
import io.accel.sql.CacheCommands;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides, per execution, where one fronting connection's statement runs: locally on the mirror, or upstream
 * unchanged. Shared by every frontend (the JDBC driver, the server); the frontend executes the decision.
 *
 * <p>A statement runs locally when it is a query (not FOR UPDATE / SHARE, not SELECT INTO), outside a transaction
 * block, reads at least one table and only mirrored tables that are online, Accel plans it, the connection's user
 * may SELECT every table it reads, and the consistency rule allows it: with read-your-writes, after a write the
 * connection's next local read waits until the mirror has applied it (bounded; then it goes upstream); with
 * {@code maxStaleness}, reads go upstream while the mirror lags more. Everything else goes upstream.
 */
public final class Router {
  /**
   * Where a statement ran. CACHE: answered from a result the upstream returned earlier, kept by a shallow cache
   * (only for frontends that pass the execution's parameter values to {@link #route(Session, String, boolean, List)}).
   */
  public enum Destination { LOCAL, UPSTREAM, ACCEL, CACHE }

  /**
   * A decision: where, why, and for a local statement its prepared form; for Accel's own commands
   * ({@link Destination#ACCEL}) the local query that produces their result; for a query a shallow cache of upstream
   * results covers, that cache ({@code cache}: its result for CACHE, where to keep the upstream's for UPSTREAM).
   */
  public record Route(Destination destination, String reason, Prepared prepared, String localSql,
      UpstreamCache cache) {
    public Route(Destination destination, String reason, Prepared prepared, String localSql) {
      this(destination, reason, prepared, localSql, null);
    }

    public boolean local() {
      return destination != Destination.UPSTREAM;
    }
  }

  /**
   * One execution's place in a shallow cache of upstream results: the definition, the entry's key, when the
   * execution began, and the kept result (the frontend's own form of it) when there is one.
   */
  public record UpstreamCache(ResultCache.Definition definition, ResultCache.Key key, long readFromNanos,
      Object result) {
  }

  private static final Pattern FIRST_WORD = Pattern.compile("^[\\s(]*([A-Za-z]+)");
  private static final Pattern LOCKING = Pattern.compile(
      "(?i)\\bFOR\\s+(UPDATE|SHARE|NO\\s+KEY\\s+UPDATE|KEY\\s+SHARE)\\b");
  private static final Pattern EXPLAIN = Pattern.compile("(?i)EXPLAIN\\s+(ANALYZE\\s+)?(?=\\S)");
  private static final Pattern MISSING_RELATION = Pattern.compile("relation \"([^\"]+)\" does not exist");
  private static final Pattern ROLE = Pattern.compile(
      "(?is)^\\s*(SET|RESET)\\s+(SESSION\\s+|LOCAL\\s+)?(ROLE|SESSION\\s+AUTHORIZATION|ALL)\\b");
  private static final Pattern INTO = Pattern.compile("(?i)\\bINTO\\b");
  private static final Pattern MODIFYING_CTE = Pattern.compile("(?i)\\b(INSERT|UPDATE|DELETE|MERGE)\\b");
  private static final Pattern MIRROR_INDEX = Pattern.compile(
      "(?is)^\\s*(CREATE|DROP)\\s+MIRROR\\s+INDEX\\b(.*?);?\\s*$");
  private static final Pattern DROP_MIRROR = Pattern.compile("(?is)^\\s*DROP\\s+ACCEL\\s+MIRROR\\s*;?\\s*$");
  private static final Pattern ACCEL_COMMAND = Pattern.compile(
      "(?is)^\\s*(EXPLAIN\\s+LAST\\s+STATEMENT|SHOW\\s+PROXIED\\s+QUERIES|SHOW\\s+ACCEL\\s+STATUS|SHOW\\s+ACCEL\\s+TABLES)"
          + "\\s*;?\\s*$");

  private final Mirror mirror;
  private final String user;
  /** The connection wrote upstream since its last local read: a sync point must be requested. */
  private boolean wroteSinceSync;
  /** The sync point requested after the connection's last write, until the mirror has applied it. */
  private java.util.concurrent.CompletableFuture<Long> pendingWrite;
  /** Why this connection's reads must go upstream for good (a setting or role Accel cannot follow), or null. */
  private String divergedBy;
  private volatile Route last;
  private volatile Session lastSession;
  /** A statement that may write was sent upstream and has not been followed by another routing yet. */
  private boolean writeUnderway;
  /** When ({@link System#nanoTime}) the connection's last upstream write had ended; MIN_VALUE before any. */
  private long wroteBeforeNanos = Long.MIN_VALUE;

  public Router(Mirror mirror, String user) {
    this.mirror = mirror;
    this.user = user;
  }

  public Mirror mirror() {
    return mirror;
  }

  /** The decision for the last statement routed ({@code EXPLAIN LAST STATEMENT}). */
  public Route last() {
    return last;
  }

  /**
   * Routes {@code sql} for one execution. {@code local} is the connection's session on the mirror (its plan
   * cache makes the second routing of a statement cheap); {@code inTransaction} whether the connection is in a
   * transaction block upstream.
   */
  public Route route(Session local, String sql, boolean inTransaction) {
    return route(local, sql, inTransaction, null);
  }

  /**
   * As {@link #route(Session, String, boolean)}, for a frontend that can answer a query from a kept upstream result
   * ({@link Destination#CACHE}) and keep the upstream's result ({@link #keepUpstream}): {@code values} are the
   * execution's parameter values (null when its result must not be cached).
   */
  public Route route(Session local, String sql, boolean inTransaction, List<Object> values) {
    if (writeUnderway) {
      // routing the next statement: the write sent before it has ended
      writeUnderway = false;
      wroteBeforeNanos = System.nanoTime();
    }
    Route r = decide(local, sql, inTransaction);
    if (r.destination() == Destination.UPSTREAM && values != null && !inTransaction) {
      r = upstreamCache(local, sql, values, r);
    }
    if (r.destination() != Destination.ACCEL) {
      last = r;
      lastSession = local;
    }
    if (r.destination() == Destination.UPSTREAM) {
      mirror.proxied().record(sql, r.reason());
      io.accel.cache.ResultCache cache = mirror.database().resultCache();
      if (cache != null && isQuery(sql)) {
        cache.noteQuery(io.accel.cache.ResultCache.shapeOf(sql), sql); // CREATE CACHE FROM its query id
      }
      mirror.countRoute(false);
    } else if (r.destination() == Destination.LOCAL || r.destination() == Destination.CACHE) {
      mirror.countRoute(true);
    }
    return r;
  }

  /**
   * A read routed upstream whose shape a shallow cache of upstream results covers: its kept result when there is one
   * the connection may see (read after its last write), else the upstream route with where to keep the result. Outside
   * transaction blocks only (the caller checks), for plain reads, and per user, time zone and search_path, since the
   * upstream's answer depends on them.
   */
  private Route upstreamCache(Session local, String sql, List<Object> values, Route upstream) {
    ResultCache cache = mirror.database().resultCache();
    if (cache == null || !cache.tracking() || divergedBy != null || !isPlainRead(sql)) {
      return upstream;
    }
    ResultCache.Definition d = cache.definition(ResultCache.shapeOf(sql));
    if (d == null || !d.upstream()) {
      return upstream;
    }
    ResultCache.Key key = new ResultCache.Key(d.id(), sql, values, local.timeZone().getID() + " search_path="
        + local.settings().get("search_path") + " user=" + user);
    ResultCache.Entry e = cache.getUpstream(key, d, wroteBeforeNanos);
    if (e != null) {
      return new Route(Destination.CACHE, "answered from shallow cache " + d.name() + ": a result the upstream returned"
          + " less than " + d.ttl().toSeconds() + " s ago (" + upstream.reason() + ")", null, null,
          new UpstreamCache(d, key, e.readFromNanos(), e.rows().get(0)));
    }
    return new Route(Destination.UPSTREAM, upstream.reason(), null, null,
        new UpstreamCache(d, key, System.nanoTime(), null));
  }

  /** Whether some shallow cache keeps upstream results: only then need a frontend gather parameter values. */
  public boolean cachesUpstreamResults() {
    ResultCache cache = mirror.database().resultCache();
    return cache != null && cache.keepsUpstreamResults();
  }

  /**
   * After an execution routed UPSTREAM with a cache ran there: keeps its result ({@code result}, in the frontend's
   * own form, about {@code bytes}) for the cache's TTL; null {@code result}: it could not be kept (too large, not a
   * plain result). EXPLAIN LAST STATEMENT says which.
   */
  public void keepUpstream(Route r, Object result, long bytes) {
    ResultCache cache = mirror.database().resultCache();
    UpstreamCache c = r.cache();
    if (c == null || cache == null) {
      return;
    }
    boolean kept = result != null && cache.putUpstream(c.key(), c.definition(), result, bytes, c.readFromNanos());
    Route noted = new Route(r.destination(), r.reason() + (kept ? "; its result is kept in shallow cache "
        + c.definition().name() + " for " + c.definition().ttl().toSeconds() + " s"
        : "; its result was not kept in shallow cache " + c.definition().name()
            + " (too large, or not a plain result)"), null, null, c);
    if (last == r) {
      last = noted;
    }
  }

  private Route decide(Session local, String sql, boolean inTransaction) {
    Matcher command = ACCEL_COMMAND.matcher(sql);
    if (command.matches()) {
      return new Route(Destination.ACCEL, "an Accel command", null, commandQuery(command.group(1)));
    }
    if (io.accel.sql.CacheCommands.isCacheCommand(sql)) {
      Route upstreamOnly = upstreamOnlyCacheCommand(local, sql);
      // the result cache is the mirror's: its statements run on the local session
      return upstreamOnly != null ? upstreamOnly : new Route(Destination.ACCEL, "an Accel cache command", null, sql);
    }
    if (DROP_MIRROR.matcher(sql).matches()) {
      mirror.dropByCommand();
      return new Route(Destination.ACCEL, "the mirror was dropped", null, null);
    }
    Matcher mirrorIndex = MIRROR_INDEX.matcher(sql);
    if (mirrorIndex.matches()) {
      mirror.mirrorIndex(mirrorIndex.group(1).toUpperCase(Locale.ROOT) + " INDEX" + mirrorIndex.group(2));
      return new Route(Destination.ACCEL, "an index of the mirror only", null, null);
    }
    if (inTransaction) {
      // decided by the transaction alone: classifying would plan a query only to send it upstream
      noteUpstream(firstWord(sql));
      return upstream("in a transaction block: every statement of a transaction runs upstream");
    }
    Static st = classify(local, sql);
    if (st.upstream() != null) {
      noteUpstream(st.word());
      return st.upstream();
    }
    if (divergedBy != null) {
      return upstream(divergedBy);
    }
    if (!mirror.caughtUp()) {
      return upstream("the mirror is catching up with what the upstream committed while it was stopped");
    }
    for (String name : st.tables()) {
      Mirror.TableStatus s = mirror.status(name);
      if (s == null || s.state() != Mirror.TableState.ONLINE) {
        return upstream("table " + name + " is " + (s == null ? "not mirrored" : describe(s)));
      }
      if (!mirror.privileges().maySelect(user, name)) {
        return upstream("the user " + user + " may not SELECT every column of " + name + " (checked upstream)");
      }
    }
    UpstreamConfig config = mirror.config();
    if (config.maxStaleness() != null && mirror.lagMillis() > config.maxStaleness().toMillis()) {
      return upstream("the mirror lags " + mirror.lagMillis() + " ms, more than maxStaleness");
    }
    if (config.consistency() == UpstreamConfig.Consistency.READ_YOUR_WRITES && (pendingWrite != null || wroteSinceSync)) {
      requestSync();
      Route wait = awaitOwnWrites(config.readYourWritesTimeout().toMillis());
      if (wait != null) {
        return wait;
      }
    }
    return st.local() != null ? st.local() : upstream("reads a table the mirror does not hold yet");
  }

  /**
   * CREATE CACHE and EXPLAIN CREATE CACHE of a plain read Accel cannot run (it reads a table the mirror does not
   * hold, or calls a function Accel lacks): only the upstream can answer it, so its results can be kept for a TTL (a
   * shallow cache the frontend fills with the upstream's results) but never exactly, since no change Accel sees tells
   * it when they change. Null for every other cache statement: the local session runs those.
   */
  private Route upstreamOnlyCacheCommand(Session local, String sql) {
    ResultCache cache = mirror.database().resultCache();
    if (cache == null) {
      return null; // the local session says the cache is off
    }
    java.util.Optional<Command.CreateCache> create = CacheCommands.createCache(sql);
    String query = create.isPresent()
        ? create.get().byId() ? cache.knownQuery(create.get().query()).orElse(null) : create.get().query()
        : CacheCommands.explainCreateCache(sql).orElse(null);
    String why = query == null || !isPlainRead(query) ? null : whyUpstreamOnly(local, query);
    if (why == null) {
      return null;
    }
    String shape = ResultCache.shapeOf(query);
    if (create.isEmpty()) {
      return new Route(Destination.ACCEL, "an Accel cache command", null, values(List.<String[]>of(new String[] {
          ResultCache.queryId(shape), shape, "shallow only", "not kept exact, because " + why
          + ": CREATE SHALLOW CACHE keeps the upstream's results for a TTL"}),
          "query id", "query text", "supported", "invalidation"));
    }
    Command.CreateCache c = create.get();
    if (!c.shallow()) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "the query cannot be cached exactly, because " + why
          + ": only the upstream can answer it, and no change the mirror applies tells when its result changes")
          .withHint("CREATE SHALLOW CACHE [POLICY TTL n SECONDS] keeps the upstream's results for a time instead.");
    }
    cache.define(c.name().orElse(null), query, shape, ResultCache.Mode.SHALLOW,
        c.ttl().orElse(ResultCache.DEFAULT_TTL), true, true);
    return new Route(Destination.ACCEL, "a shallow cache of a query only the upstream answers", null, null);
  }

  /** Whether {@code sql} is a plain read: SELECT, WITH, VALUES or TABLE that neither locks nor writes. */
  private static boolean isPlainRead(String sql) {
    String word = firstWord(sql);
    return (word.equals("select") || word.equals("with") || word.equals("values") || word.equals("table"))
        && isQuery(sql) && !LOCKING.matcher(sql).find();
  }

  /** Why Accel cannot run the read {@code query} (its planning error), or null when it can. */
  private static String whyUpstreamOnly(Session local, String query) {
    try {
      local.prepare(io.accel.sql.PositionalParameters.of(query).sql());
      return null;
    } catch (AccelException e) {
      return "Accel cannot run it (" + e.getMessage() + ")";
    }
  }

  /**
   * What a statement's text alone decides, kept per text while the mirror's catalog is unchanged: a prepared
   * statement's later executions only make the checks that can change (transaction, tables online, privileges,
   * staleness, the connection's writes). {@code upstream} is set when it always runs upstream; otherwise
   * {@code local} is the route and {@code tables} the mirrored tables it reads.
   */
  private record Static(String word, Route upstream, Route local, List<String> tables, long catalogVersion) {
  }

  private final Map<String, Static> statics = new java.util.LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Static> eldest) {
      return size() > 256;
    }
  };

  private Static classify(Session local, String sql) {
    long version = mirror.database().catalog().version();
    Static st = statics.get(sql);
    if (st == null || st.catalogVersion() != version) {
      st = classifyAfresh(local, sql, version);
      statics.put(sql, st);
    }
    return st;
  }

  private Static classifyAfresh(Session local, String sql, long version) {
    String word = firstWord(sql);
    Matcher explain = EXPLAIN.matcher(stripComments(sql));
    if (explain.lookingAt()) {
      // EXPLAIN of a query that runs locally shows Accel's plan; anything else is the upstream's to explain
      String inner = sql.substring(sql.length() - stripComments(sql).length() + explain.end());
      Static st = classifyAfresh(local, inner, version);
      if (st.upstream() != null) {
        return new Static(word, st.upstream(), null, List.of(), version);
      }
      if (st.local() == null) {
        return new Static(word, upstream("reads a table the mirror does not hold yet"), null, List.of(), -1);
      }
      try {
        return new Static(word, null, new Route(Destination.LOCAL, st.local().reason(), local.prepare(sql), null),
            st.tables(), version);
      } catch (AccelException e) {
        return new Static(word, upstream("not supported by Accel: " + e.getMessage()), null, List.of(), version);
      }
    }
    String why = null;
    if (!(word.equals("select") || word.equals("with") || word.equals("values") || word.equals("table"))) {
      why = word.isEmpty() ? "not a query" : "not a query (" + word.toUpperCase(Locale.ROOT) + ")";
    } else if (LOCKING.matcher(sql).find()) {
      why = "a locking read (FOR UPDATE / SHARE)";
    } else if (INTO.matcher(sql).find() || word.equals("with") && MODIFYING_CTE.matcher(sql).find()) {
      why = "a query that writes";
    }
    if (why != null) {
      return new Static(word, upstream(why), null, List.of(), version);
    }
    Prepared prepared;
    try {
      prepared = local.prepare(sql);
    } catch (AccelException e) {
      Matcher missing = MISSING_RELATION.matcher(e.getMessage());
      if (e.state() == SqlState.UNDEFINED_TABLE && missing.find() && mirror.status(missing.group(1)) != null) {
        // a table the mirror knows but does not hold: decided per execution (it may come online)
        return new Static(word, null, null, List.of(missing.group(1)), -1);
      }
      return new Static(word, upstream("not supported by Accel: " + e.getMessage()), null, List.of(), version);
    } catch (RuntimeException e) {
      return new Static(word, upstream("not supported by Accel: " + e), null, List.of(), version);
    }
    if (prepared.kind() != Prepared.Kind.QUERY) {
      return new Static(word, upstream("not a query"), null, List.of(), version);
    }
    Set<Long> ids = prepared.tablesRead();
    if (ids.isEmpty()) {
      return new Static(word, upstream("reads no mirrored table"), null, List.of(), version);
    }
    List<String> names = new ArrayList<>();
    for (TableDef t : mirror.database().catalog().tables()) {
      if (ids.contains(t.id())) {
        names.add(t.name());
      }
    }
    return new Static(word, null, new Route(Destination.LOCAL, "mirrored tables " + String.join(", ", names),
        prepared, null), List.copyOf(names), version);
  }

  /**
   * Read-your-writes: null when the mirror holds everything the connection wrote (the sync point requested after
   * its last write has been applied), else the upstream route; waits at most {@code timeoutMillis} for it.
   */
  private Route awaitOwnWrites(long timeoutMillis) {
    java.util.concurrent.CompletableFuture<Long> request = pendingWrite;
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    try {
      Long point = timeoutMillis <= 0 ? request.getNow(null)
          : request.get(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
      if (point != null) {
        long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
        if (mirror.position() >= point || left > 0 && mirror.awaitPosition(point, left)) {
          pendingWrite = null;
          return null;
        }
      }
    } catch (java.util.concurrent.TimeoutException e) {
      // not yet
    } catch (java.util.concurrent.ExecutionException e) {
      pendingWrite = null;
      wroteSinceSync = true;
      return upstream("the mirror cannot confirm it holds this connection's writes: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return upstream("the mirror does not hold this connection's last write yet");
  }

  private static String describe(Mirror.TableStatus s) {
    return s.state().name().toLowerCase(Locale.ROOT).replace('_', ' ') + (s.reason() == null ? "" : ": " + s.reason());
  }

  /**
   * Whether {@code sql} is one of Accel's own statements that are not queries: they change the mirror (mirror-only
   * indexes, DROP ACCEL MIRROR) or its result cache, and never go upstream.
   */
  public static boolean isLocalCommand(String sql) {
    return MIRROR_INDEX.matcher(sql).matches() || DROP_MIRROR.matcher(sql).matches()
        || io.accel.sql.CacheCommands.isCacheCommand(sql);
  }

  /** What running {@code word}'s statement upstream means for later local reads. */
  private void noteUpstream(String word) {
    switch (word) {
      case "select", "values", "table", "show", "explain" -> {
        // reads: nothing to wait for
      }
      case "grant", "revoke" -> {
        mirror.privileges().invalidate();
        wroteSinceSync = true;
      }
      case "set", "reset" -> {
        // handled after it ran (afterUpstream): the local session follows where it can
      }
      default -> {
        wroteSinceSync = true;
        writeUnderway = true;
      }
    }
  }

  /**
   * Tells the router that statements ran upstream outside {@link #route} (a commit, a rollback, a batch): later
   * reads must see their effects.
   */
  public void upstreamWrote() {
    wroteSinceSync = true;
    writeUnderway = false;
    wroteBeforeNanos = System.nanoTime();
    requestSync();
  }

  /** Asks the mirror, in the background, for a position after the connection's writes so far. */
  private void requestSync() {
    if (wroteSinceSync && mirror.config().consistency() == UpstreamConfig.Consistency.READ_YOUR_WRITES) {
      wroteSinceSync = false;
      pendingWrite = mirror.requestSyncPoint();
    }
  }

  /**
   * After a statement ran upstream: DDL makes the mirror check its tables; a session setting is made on the local
   * session too, so local reads answer as the upstream would (TimeZone, search_path, ...); a setting Accel does not
   * model, or a change of role, sends the connection's reads upstream from then on.
   */
  public void afterUpstream(Session local, String sql) {
    String word = firstWord(sql);
    if (word.equals("set") || word.equals("reset")) {
      if (ROLE.matcher(sql).find()) {
        // back to the connection's own role (Flyway sets it again when it is done): local reads may resume
        divergedBy = ownRole(sql) ? null : "the connection changed its role: privileges are checked upstream";
        return;
      }
      try (io.accel.exec.Result r = local.execute(this, sql)) {
        // the local session follows
      } catch (AccelException e) {
        divergedBy = "the connection changed a setting Accel does not model (" + sql.strip() + ")";
      }
      return;
    }
    if (word.equals("create") || word.equals("alter") || word.equals("drop") || word.equals("truncate")
        || word.equals("comment")) {
      mirror.checkSchema();
    }
  }

  /**
   * Whether a role statement leaves the connection as its own user: RESET ROLE, RESET ALL, SET ROLE NONE, SET ROLE or
   * SET SESSION AUTHORIZATION to the connection's user or DEFAULT.
   */
  private boolean ownRole(String sql) {
    Matcher m = OWN_ROLE.matcher(sql);
    if (!m.find()) {
      return false;
    }
    if (m.group(1) != null) {
      return true;
    }
    String name = m.group(3) != null ? m.group(3) : m.group(4) != null ? m.group(4) : m.group(5).toLowerCase(Locale.ROOT);
    return name.equals(user) || m.group(5) != null && (name.equals("none") || name.equals("default"));
  }

  private static final Pattern OWN_ROLE = Pattern.compile("(?is)^\\s*(?:(RESET\\s+(?:ROLE|ALL|SESSION\\s+AUTHORIZATION))"
      + "|SET\\s+(SESSION\\s+)?(?:ROLE|SESSION\\s+AUTHORIZATION)\\s+(?:'([^']*)'|\"([^\"]*)\"|([A-Za-z_][A-Za-z0-9_$]*)))"
      + "\\s*;?\\s*$");

  /** Whether {@code sql} only reads (by its first word; a WITH that modifies data is not). */
  public static boolean isQuery(String sql) {
    String word = firstWord(sql);
    return switch (word) {
      case "select" -> !INTO.matcher(sql).find();
      case "values", "table", "show", "explain" -> true;
      case "with" -> !MODIFYING_CTE.matcher(sql).find();
      default -> false;
    };
  }

  private static Route upstream(String reason) {
    return new Route(Destination.UPSTREAM, reason, null, null);
  }

  static String firstWord(String sql) {
    String s = stripComments(sql);
    Matcher m = FIRST_WORD.matcher(s);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
  }

  private static String stripComments(String sql) {
    String s = sql;
    while (true) {
      String t = s.stripLeading();
      if (t.startsWith("--")) {
        int nl = t.indexOf('\n');
        s = nl < 0 ? "" : t.substring(nl + 1);
      } else if (t.startsWith("/*")) {
        int end = t.indexOf("*/");
        s = end < 0 ? "" : t.substring(end + 2);
      } else {
        return t;
      }
    }
  }

  /** The local query that answers one of Accel's commands. */
  private String commandQuery(String command) {
    String c = command.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (c.equals("EXPLAIN LAST STATEMENT")) {
      Route r = last;
      String destination = r == null ? "none" : r.destination() == Destination.UPSTREAM ? "upstream" : "accel";
      String reason = r == null ? "no statement has run on this connection" : r.reason();
      Session s = lastSession;
      if (r != null && r.destination() == Destination.LOCAL && s != null && s.cacheNote() != null) {
        reason += "; " + s.cacheNote();
      }
      return "SELECT * FROM (VALUES (" + literal(destination) + ", " + literal(reason)
          + ")) AS t(\"Query_destination\", \"Reason\")";
    }
    if (c.equals("SHOW PROXIED QUERIES")) {
      List<String[]> rows = new ArrayList<>();
      for (ProxiedQueries.Entry e : mirror.proxied().entries()) {
        rows.add(new String[] {e.id(), e.text(), e.supported() ? "yes" : "no", e.reason(),
            Long.toString(e.count())});
      }
      return values(rows, "query id", "proxied query", "accel supported", "reason", "count");
    }
    return c; // SHOW ACCEL STATUS and TABLES: the local session answers them from the mirror (AccelStatus.Source)
  }

  private static String values(List<String[]> rows, String... columns) {
    StringBuilder names = new StringBuilder();
    for (int i = 0; i < columns.length; i++) {
      names.append(i == 0 ? "" : ", ").append('"').append(columns[i]).append('"');
    }
    if (rows.isEmpty()) {
      StringBuilder nulls = new StringBuilder();
      for (int i = 0; i < columns.length; i++) {
        nulls.append(i == 0 ? "" : ", ").append("CAST(NULL AS VARCHAR)");
      }
      return "SELECT * FROM (VALUES (" + nulls + ")) AS t(" + names + ") WHERE FALSE";
    }
    StringBuilder sql = new StringBuilder("SELECT * FROM (VALUES ");
    for (int r = 0; r < rows.size(); r++) {
      sql.append(r == 0 ? "" : ", ").append('(');
      for (int i = 0; i < columns.length; i++) {
        sql.append(i == 0 ? "" : ", ").append(literal(rows.get(r)[i]));
      }
      sql.append(')');
    }
    return sql.append(") AS t(").append(names).append(')').toString();
  }

  private static String literal(String s) {
    return "CAST('" + s.replace("'", "''") + "' AS VARCHAR)";
  }
}
