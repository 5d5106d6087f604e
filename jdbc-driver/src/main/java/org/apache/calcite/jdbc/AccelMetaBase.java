package org.apache.calcite.jdbc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.sql.LiteralNormalizer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.lang.reflect.Field;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Lets Accel's Meta extend Calcite's (CalciteMetaImpl's constructor takes the package-private
 * CalciteConnectionImpl, which only code in this package can name), and keeps the connection's plan
 * cache. Also lists tables and columns in the order JDBC prescribes (Calcite lists them in its schema's
 * hash order).
 *
 * <p>The plan cache (Caffeine, {@code planCacheSize} entries, 0 disables it) holds Calcite's prepared
 * signatures (parsed, validated, optimised, compiled) keyed by SQL text and maxRowCount, so a statement
 * run again skips all of that. Literals are normalised to parameters first ({@link LiteralNormalizer}):
 * {@code WHERE id = 7} and {@code WHERE id = 8} share the plan of {@code WHERE id = ?}, and each execution
 * gets a copy of the signature that has no parameters and binds the literal values itself (through the
 * signature's internal parameters, which Calcite puts into the query's DataContext under the names the
 * parameters are read by), so Statement.execute, prepared statements, DML and batches all run it
 * unchanged. The shared plan is used only when every literal converts to the type the planner inferred
 * for its parameter without changing value ({@link #bindLiterals}); otherwise, or when the normalised text
 * does not prepare, the exact text is planned (and cached) as before. The cache is emptied whenever
 * {@link #planVersion()} changes; a plan whose execution failed is dropped.
 */
public abstract class AccelMetaBase extends CalciteMetaImpl {
  /** {@code normalized}: the text has literals replaced by parameters that each execution binds. */
  private record PlanKey(String sql, long maxRowCount, boolean normalized) {
  }

  /** A cached plan; a null signature records that the normalised text does not prepare. */
  private record CachedPlan(CalcitePrepare.CalciteSignature<Object> signature) {
  }

  private static final CachedPlan NOT_NORMALIZABLE = new CachedPlan(null);

  /** The signature to run and the cache entry to drop if running it fails (null: not cached). */
  private record Prepared(CalcitePrepare.CalciteSignature<Object> signature, PlanKey key) {
  }

  /** The connection's plan cache, or null when planCacheSize is 0. */
  private final Cache<PlanKey, CachedPlan> plans;
  private long plansAtVersion = Long.MIN_VALUE;
  private final Counter hits;
  private final Counter misses;
  private final Counter fallbacks;
  private final CacheSizes sizes;

  /**
   * @param planCacheSize the most plans the connection keeps (0: none, every statement is planned afresh)
   * @param meters where the plan cache's counters go ({@code accel.plan.cache.hits}, {@code .misses},
   *     {@code .fallbacks}, and the gauge {@code accel.plan.cache.size}), with {@code tags}
   */
  protected AccelMetaBase(AvaticaConnection connection, int planCacheSize, MeterRegistry meters,
      Iterable<Tag> tags) {
    super((CalciteConnectionImpl) connection, CalciteMetaTableFactoryImpl.INSTANCE,
        CalciteMetaColumnFactoryImpl.INSTANCE);
    if (planCacheSize < 0) {
      throw new IllegalArgumentException("planCacheSize must not be negative: " + planCacheSize);
    }
    // evictions run on the calling thread: the bound holds as soon as a statement returns
    this.plans = planCacheSize == 0 ? null
        : Caffeine.newBuilder().maximumSize(planCacheSize).executor(Runnable::run).build();
    this.hits = Counter.builder("accel.plan.cache.hits").tags(tags)
        .description("statements that reused a cached plan").register(meters);
    this.misses = Counter.builder("accel.plan.cache.misses").tags(tags)
        .description("statements that were parsed, validated, optimised and compiled").register(meters);
    this.fallbacks = Counter.builder("accel.plan.cache.fallbacks").tags(tags)
        .description("statements whose literals could not share the normalised plan; planned by exact text")
        .register(meters);
    this.sizes = plans == null ? null : CacheSizes.register(meters, Tags.of(tags), plans);
  }

  /**
   * Changes whenever a plan made before may no longer be valid or good: DDL (the catalog's version) and,
   * once plans depend on them, table statistics. Plans are dropped when it changes.
   */
  protected abstract long planVersion();

  /**
   * The values to bind for the normalised literals of a statement, one per parameter and in the
   * representation Calcite's generated code reads ({@code Integer} for INTEGER, {@code BigDecimal} for
   * DECIMAL, ...), or empty when a literal does not convert to its parameter's type without changing
   * value, in which case the exact text is planned instead.
   */
  protected abstract Optional<List<Object>> bindLiterals(List<AvaticaParameter> parameters,
      List<LiteralNormalizer.Literal> literals);

  private CalcitePrepare.CalciteSignature<Object> parse(CalciteServerStatement statement, String sql,
      long maxRowCount) {
    CalcitePrepare.Context context = statement.createPrepareContext();
    return getConnection().parseQuery(CalcitePrepare.Query.of(sql), context, maxRowCount);
  }

  private Prepared plan(CalciteServerStatement statement, String sql, long maxRowCount) {
    if (plans == null) {
      misses.increment();
      return new Prepared(parse(statement, sql, maxRowCount), null);
    }
    synchronized (plans) {
      long version = planVersion();
      if (version != plansAtVersion) {
        plans.invalidateAll();
        plansAtVersion = version;
      }
    }
    boolean[] planned = {false};
    Optional<LiteralNormalizer.Normalized> normalized = LiteralNormalizer.normalize(sql);
    if (normalized.isPresent() && normalized.get().hasLiterals()) {
      LiteralNormalizer.Normalized n = normalized.get();
      PlanKey key = new PlanKey(n.sql(), maxRowCount, true);
      CachedPlan cached = plans.get(key, k -> {
        planned[0] = true;
        try {
          return new CachedPlan(parse(statement, n.sql(), maxRowCount));
        } catch (RuntimeException | AssertionError | LinkageError | StackOverflowError e) {
          // Calcite cannot infer a parameter's type (? = ?), a planner rule trips over a parameter, or the
          // statement fails anyway: the exact text decides
          return NOT_NORMALIZABLE;
        }
      });
      if (cached.signature() != null) {
        Optional<List<Object>> values = bindLiterals(cached.signature().parameters, n.literals());
        if (values.isPresent()) {
          (planned[0] ? misses : hits).increment();
          return new Prepared(bound(cached.signature(), values.get(), sql), key);
        }
      }
      fallbacks.increment();
    }
    PlanKey key = new PlanKey(sql, maxRowCount, false);
    CachedPlan cached = plans.get(key, k -> {
      planned[0] = true;
      return new CachedPlan(parse(statement, sql, maxRowCount));
    });
    (planned[0] ? misses : hits).increment();
    return new Prepared(cached.signature(), key);
  }

  /**
   * A copy of a normalised plan's signature for one execution: no parameters (Avatica asks for none), and
   * the literal values as internal parameters named {@code ?0}, {@code ?1}, ..., where the generated code
   * reads its parameters.
   */
  private static CalcitePrepare.CalciteSignature<Object> bound(CalcitePrepare.CalciteSignature<Object> plan,
      List<Object> values, String sql) {
    Map<String, Object> internal = new LinkedHashMap<>(plan.internalParameters);
    for (int i = 0; i < values.size(); i++) {
      internal.put("?" + i, values.get(i));
    }
    return new CalcitePrepare.CalciteSignature<>(sql, List.of(), internal, plan.rowType, plan.columns,
        plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, plan::enumerable, plan.statementType);
  }

  /** Drops a plan whose execution failed (a failing constant such as 1/0 may be folded into its code). */
  private void forget(Prepared prepared) {
    if (plans != null && prepared.key() != null) {
      plans.invalidate(prepared.key());
    }
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    super.closeConnection(ch);
    if (sizes != null) {
      sizes.remove(plans);
      plans.invalidateAll();
    }
  }

  /**
   * The gauge {@code accel.plan.cache.size}: the plans cached by all open connections to one store (one
   * registry and set of tags). Registered when the first connection opens, removed with the last.
   */
  private static final class CacheSizes {
    private static final Map<List<Object>, CacheSizes> ALL = new HashMap<>();

    private final List<Object> id;
    private final MeterRegistry registry;
    private final Set<Cache<?, ?>> caches = ConcurrentHashMap.newKeySet();
    private Gauge gauge;

    private CacheSizes(List<Object> id, MeterRegistry registry) {
      this.id = id;
      this.registry = registry;
    }

    static CacheSizes register(MeterRegistry registry, Tags tags, Cache<?, ?> cache) {
      synchronized (ALL) {
        List<Object> id = List.of(registry, tags);
        CacheSizes sizes = ALL.computeIfAbsent(id, k -> new CacheSizes(k, registry));
        if (sizes.gauge == null) {
          sizes.gauge = Gauge.builder("accel.plan.cache.size", sizes, CacheSizes::size).tags(tags)
              .description("plans cached by the open connections").strongReference(true).register(registry);
        }
        sizes.caches.add(cache);
        return sizes;
      }
    }

    private double size() {
      long n = 0;
      for (Cache<?, ?> c : caches) {
        n += c.estimatedSize();
      }
      return n;
    }

    void remove(Cache<?, ?> cache) {
      synchronized (ALL) {
        caches.remove(cache);
        if (caches.isEmpty()) {
          ALL.remove(id);
          if (gauge != null) {
            registry.remove(gauge);
            gauge = null;
          }
        }
      }
    }
  }

  /**
   * Evaluates the first rows of a query as it executes, so errors such as division by zero surface from
   * {@code execute}, as PostgreSQL reports them, rather than from a later {@code next()}; the rest of
   * the rows stream on demand.
   */
  @Override
  public Iterable<Object> createIterable(StatementHandle handle, org.apache.calcite.avatica.QueryState state,
      Signature signature, List<org.apache.calcite.avatica.remote.TypedValue> parameterValues, Frame firstFrame) {
    Iterable<Object> rows = super.createIterable(handle, state, signature, parameterValues, firstFrame);
    java.util.Iterator<Object> source = rows instanceof org.apache.calcite.linq4j.Enumerable<?> e
        ? new Stepper(e.enumerator()) : rows.iterator();
    java.util.ArrayList<Object> head = new java.util.ArrayList<>();
    while (head.size() < PREFETCH_ROWS && source.hasNext()) {
      head.add(source.next());
    }
    java.util.Iterator<Object> all = new PrefetchedIterator(head.iterator(), source);
    return () -> all;
  }

  /**
   * A query's enumerator as an iterator that steps only when asked for the next row (linq4j's own iterator steps
   * one row ahead, so a failure in the row after the last one read surfaced one row early, losing a row).
   */
  private static final class Stepper implements java.util.Iterator<Object>, AutoCloseable {
    private final org.apache.calcite.linq4j.Enumerator<?> enumerator;
    private boolean peeked;
    private boolean has;

    Stepper(org.apache.calcite.linq4j.Enumerator<?> enumerator) {
      this.enumerator = enumerator;
    }

    @Override
    public boolean hasNext() {
      if (!peeked) {
        has = enumerator.moveNext();
        peeked = true;
      }
      return has;
    }

    @Override
    public Object next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      peeked = false;
      return enumerator.current();
    }

    @Override
    public void close() {
      enumerator.close();
    }
  }

  /** The prefetched rows, then the rest; closing it closes the query's own iterator. */
  private static final class PrefetchedIterator implements java.util.Iterator<Object>, AutoCloseable {
    private final java.util.Iterator<Object> head;
    private final java.util.Iterator<Object> rest;

    PrefetchedIterator(java.util.Iterator<Object> head, java.util.Iterator<Object> rest) {
      this.head = head;
      this.rest = rest;
    }

    /** What a step of the query threw: the enumerators stopped half way, so every later step throws it again. */
    private RuntimeException failed;

    @Override
    public synchronized boolean hasNext() {
      if (failed != null) {
        throw failed;
      }
      try {
        return head.hasNext() || rest.hasNext();
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
    }

    /** Past the end is an error, not a step of the query's enumerators (which then read beyond their lists). */
    @Override
    public synchronized Object next() {
      if (failed != null) {
        throw failed;
      }
      if (head.hasNext()) {
        return head.next();
      }
      try {
        if (!rest.hasNext()) {
          throw new io.accel.sql.AccelException(io.accel.sql.SqlState.INVALID_CURSOR_STATE,
              "the result set has no more rows");
        }
        return rest.next();
      } catch (io.accel.sql.AccelException e) {
        if (e.state() != io.accel.sql.SqlState.INVALID_CURSOR_STATE) {
          failed = e;
        }
        throw e;
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
    }

    @Override
    public void close() throws Exception {
      if (rest instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  private static final int PREFETCH_ROWS = 100;

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    StatementHandle h = createStatement(ch);
    CalciteServerStatement statement;
    try {
      statement = getConnection().server.getStatement(h);
    } catch (NoSuchStatementException e) {
      throw new AssertionError("missing statement", e);
    }
    try {
      h.signature = plan(statement, sql, maxRowCount).signature();
    } catch (RuntimeException | LinkageError e) {
      closeStatement(h);
      throw e;
    }
    statement.setSignature(h.signature);
    return h;
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    CalcitePrepare.CalciteSignature<Object> signature;
    try {
      int updateCount;
      Prepared prepared;
      synchronized (callback.getMonitor()) {
        callback.clear();
        CalciteServerStatement statement = getConnection().server.getStatement(h);
        prepared = plan(statement, sql, maxRowCount);
        signature = prepared.signature();
        statement.setSignature(signature);
        updateCount = switch (signature.statementType) {
          case CREATE, DROP, ALTER, OTHER_DDL -> 0;
          default -> -1;
        };
        callback.assign(signature, null, updateCount);
      }
      try {
        callback.execute();
      } catch (SQLException | RuntimeException | LinkageError e) {
        // A plan whose constants failed to evaluate (1/0 folded into a static initializer) stays broken.
        forget(prepared);
        throw e;
      }
      MetaResultSet metaResultSet = MetaResultSet.create(h.connectionId, h.id, false, signature, null, updateCount);
      return new ExecuteResult(List.of(metaResultSet));
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());

  /** DatabaseMetaData.getTables: ordered by TABLE_TYPE, TABLE_CAT, TABLE_SCHEM and TABLE_NAME. */
  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      List<String> typeList) {
    refreshSchemaCaches();
    List<MetaTable> tables = new ArrayList<>(schemas(catalog, new LikePattern(schemaPattern.s))
        .selectMany(schema -> tables(schema, new LikePattern(tableNamePattern.s)))
        .where(t -> typeList == null || typeList.contains(t.tableType))
        .toList());
    tables.sort(Comparator.comparing((MetaTable t) -> t.tableType, NULLS_FIRST)
        .thenComparing(t -> t.tableCat, NULLS_FIRST)
        .thenComparing(t -> t.tableSchem, NULLS_FIRST)
        .thenComparing(t -> t.tableName, NULLS_FIRST));
    return records(CalciteMetaTableFactoryImpl.INSTANCE.getMetaTableClass(), tables,
        CalciteMetaTableFactoryImpl.INSTANCE.getColumnNames());
  }

  /** DatabaseMetaData.getColumns: ordered by TABLE_CAT, TABLE_SCHEM, TABLE_NAME and ORDINAL_POSITION. */
  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      Pat columnNamePattern) {
    return records(CalciteMetaColumnFactoryImpl.INSTANCE.getMetaColumnClass(),
        calciteColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern),
        CalciteMetaColumnFactoryImpl.INSTANCE.getColumnNames());
  }

  /** The columns as Calcite describes them (from the row types of its tables), in JDBC's order. */
  protected List<MetaColumn> calciteColumns(String catalog, Pat schemaPattern, Pat tableNamePattern,
      Pat columnNamePattern) {
    refreshSchemaCaches();
    List<MetaTable> tables = new ArrayList<>(schemas(catalog, new LikePattern(schemaPattern.s))
        .selectMany(schema -> tables(schema, new LikePattern(tableNamePattern.s)))
        .toList());
    tables.sort(Comparator.comparing((MetaTable t) -> t.tableCat, NULLS_FIRST)
        .thenComparing(t -> t.tableSchem, NULLS_FIRST)
        .thenComparing(t -> t.tableName, NULLS_FIRST));
    List<MetaColumn> columns = new ArrayList<>();
    var matcher = namedMatcher(columnNamePattern);
    for (MetaTable table : tables) {
      for (MetaColumn column : columns(table)) {
        if (matcher.apply(column)) {
          columns.add(column);
        }
      }
    }
    return columns;
  }

  /** The column names of DatabaseMetaData.getColumns. */
  protected static List<String> columnColumns() {
    return COLUMN_COLUMNS;
  }

  /**
   * Drops the table names the connection's schemas have cached, so metadata lists the tables as they are
   * now (queries see DDL through a fresh snapshot of the schemas; metadata reads the schemas themselves).
   */
  private void refreshSchemaCaches() {
    CalciteSchema root = getConnection().rootSchema;
    for (CalciteSchema schema : root.getSubSchemaMap().values()) {
      if (schema.isCacheEnabled()) {
        schema.setCache(false);
        schema.setCache(true);
      }
    }
  }

  /**
   * EXPLAIN [ANALYZE] of one query or DML statement, as a result set of text lines ({@code QUERY PLAN},
   * as PostgreSQL names the column). The statement is planned afresh (never from the plan cache); with
   * ANALYZE it runs to completion inside the caller's statement transaction, so DML takes effect, as in
   * PostgreSQL.
   */
  protected MetaResultSet explain(StatementHandle h, String statementSql, boolean analyze) {
    io.accel.plan.PlanExplainer explainer = new io.accel.plan.PlanExplainer(analyze);
    CalciteServerStatement statement;
    try {
      statement = getConnection().server.getStatement(h);
    } catch (NoSuchStatementException e) {
      throw new IllegalStateException("missing statement", e);
    }
    CalcitePrepare.CalciteSignature<Object> signature;
    try (org.apache.calcite.runtime.Hook.Closeable hook = org.apache.calcite.runtime.Hook.PROGRAM.addThread(
        (org.apache.calcite.util.Holder<org.apache.calcite.tools.Program> holder) -> holder.set(explainer.program()))) {
      signature = getConnection().parseQuery(CalcitePrepare.Query.of(statementSql), statement.createPrepareContext(), -1);
    }
    if (!explainer.planned()) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.FEATURE_NOT_SUPPORTED,
          "EXPLAIN is supported for queries and INSERT, UPDATE and DELETE");
    }
    List<String> lines = new ArrayList<>();
    if (analyze) {
      long start = System.nanoTime();
      long rows = 0;
      try {
        org.apache.calcite.linq4j.Enumerator<Object> e = getConnection().enumerable(h, signature, List.of()).enumerator();
        try {
          while (e.moveNext()) {
            rows++;
          }
        } finally {
          e.close();
        }
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
      double millis = (System.nanoTime() - start) / 1e6;
      lines.addAll(explainer.render());
      io.accel.exec.AccessCounters.ScanStats t = explainer.scanTotals();
      lines.add(String.format(java.util.Locale.ROOT,
          "Index entries read: %d, ICP attempts: %d, ICP matches: %d, rows fetched from tables: %d",
          t.entriesRead(), t.icpAttempts(), t.icpMatches(), t.rowsFetched()));
      lines.add("Rows returned: " + rows);
      lines.add(String.format(java.util.Locale.ROOT, "Execution time: %.3f ms", millis));
    } else {
      lines.addAll(explainer.render());
    }
    List<PlanLine> items = new ArrayList<>();
    for (String line : lines) {
      items.add(new PlanLine(line));
    }
    try {
      return createResultSet(Collections.emptyMap(),
          List.of(MetaImpl.columnMetaData("QUERY PLAN", 0, String.class, false)),
          CursorFactory.record(PlanLine.class, List.of(PlanLine.class.getField("line")), List.of("line")),
          new Frame(0, true, Collections.unmodifiableList(new ArrayList<Object>(items))));
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One line of EXPLAIN output. */
  public static final class PlanLine {
    public final String line;

    PlanLine(String line) {
      this.line = line;
    }
  }

  /** A metadata result set whose rows are the public fields of {@code items}, named as in {@code names}. */
  protected <E> MetaResultSet records(Class<?> clazz, List<E> items, List<String> names) {
    List<ColumnMetaData> columns = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    List<String> fieldNames = new ArrayList<>();
    for (String name : names) {
      String fieldName = AvaticaUtils.toCamelCase(name);
      Field field;
      try {
        field = clazz.getField(fieldName);
      } catch (NoSuchFieldException e) {
        try {
          field = clazz.getDeclaredField(fieldName);
        } catch (NoSuchFieldException e2) {
          throw new IllegalStateException(e2);
        }
      }
      columns.add(MetaImpl.columnMetaData(name, columns.size(), field.getType(), false));
      fields.add(field);
      fieldNames.add(fieldName);
    }
    @SuppressWarnings("unchecked")
    Iterable<Object> iterable = (Iterable<Object>) (Iterable<?>) items;
    return createResultSet(Collections.emptyMap(), columns, CursorFactory.record(clazz, fields, fieldNames),
        new Frame(0, true, iterable));
  }
}
