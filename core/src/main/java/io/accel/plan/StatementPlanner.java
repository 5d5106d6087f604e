package io.accel.plan;

import io.accel.exec.Session;
import io.accel.exec.TxnContext;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelRunner;
import org.apache.calcite.util.Holder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Prepares and runs statements through Calcite for one {@link Session}, without Calcite's JDBC connection:
 * the one place where core stands in for what {@code CalciteConnectionImpl} gives Calcite's preparation
 * (a {@link CalcitePrepare.Context}: type factory, root schema, configuration) and generated code (a
 * {@link DataContext}: parameters, the query's start time, the cancel flag). The DataContext of an
 * execution also carries the statement's transaction, which {@link Session#contextFor} hands to scans.
 */
public final class StatementPlanner {
  private final JavaTypeFactory typeFactory = new JavaTypeFactoryImpl(AccelTypeSystem.INSTANCE) {
    @Override
    public org.apache.calcite.rel.type.RelDataType createTypeWithCharsetAndCollation(
        org.apache.calcite.rel.type.RelDataType type, java.nio.charset.Charset charset,
        org.apache.calcite.sql.SqlCollation collation) {
      // json, jsonb and name have the default character set; Calcite's copy would make them VARCHAR
      return type instanceof NamedTextType ? type : super.createTypeWithCharsetAndCollation(type, charset, collation);
    }
  };
  /** Immutable; Calcite's connection derived it again for every execution. */
  private final org.apache.calcite.rel.type.TimeFrameSet timeFrames =
      typeFactory.getTypeSystem().deriveTimeFrameSet(org.apache.calcite.rel.type.TimeFrames.CORE);
  private final CalciteSchema rootSchema = CalciteSchema.createRootSchema(false, false);
  private final CalciteConnectionConfig config;
  private volatile TimeZone timeZone;
  /** Calcite's schema paths and the search_path they were derived from (see {@link #schemaPaths}). */
  private volatile SchemaPaths schemaPaths;
  private final String user;
  private final PgCatalogSchema pgCatalog;
  private final DirectPlanner directPlanner = new DirectPlanner(this);
  /** What {@link io.accel.sql.PgCatalogSyntax} needs of this session: its catalog token and names' oids. */
  private final io.accel.sql.PgCatalogSyntax.Resolver catalogNames = new io.accel.sql.PgCatalogSyntax.Resolver() {
    @Override
    public int token() {
      return pgCatalog.token();
    }

    @Override
    public Integer relationOid(String name) {
      return pgCatalog.relationOid(name);
    }

    @Override
    public Integer typeOid(String name) {
      return PgCatalogSchema.typeOid(name);
    }
  };

  /**
   * @param timeZone the session's time zone (CURRENT_TIMESTAMP, LOCALTIMESTAMP, conversions of
   *     TIMESTAMP WITH TIME ZONE)
   * @param user the session's user name (CURRENT_USER)
   */
  public StatementPlanner(Session session, TimeZone timeZone, String user) {
    this.timeZone = timeZone;
    this.user = user == null ? "accel" : user;
    SchemaPlus root = rootSchema.plus();
    root.add(AccelSchema.NAME, new AccelSchema(session));
    AccelSchema.TYPE_ALIASES.forEach(root::add);
    // PostgreSQL's system catalog and the standard's information schema, derived from Accel's catalog
    this.pgCatalog = new PgCatalogSchema(session, this.user);
    root.add(PgCatalogSchema.NAME, pgCatalog);
    root.add(InformationSchema.NAME, new InformationSchema(pgCatalog));
    root.add(ReturnedRows.NAME, new ReturnedRows(session, ReturnedRows.ROWS));
    root.add(ReturnedRows.EXCLUDED_NAME, new ReturnedRows(session, ReturnedRows.EXCLUDED));
    root.add("oid", PgCatalogSchema.TYPE_ALIASES.get("oid"));
    root.add("name", PgCatalogSchema.TYPE_ALIASES.get("name"));
    Properties props = new Properties();
    props.setProperty("parserFactory", "org.apache.calcite.sql.parser.babel.SqlBabelParserImpl#FACTORY");
    props.setProperty("conformance", "BABEL");
    props.setProperty("fun", "standard,postgresql");
    props.setProperty("unquotedCasing", "TO_LOWER");
    props.setProperty("quotedCasing", "UNCHANGED");
    props.setProperty("caseSensitive", "false");
    props.setProperty("defaultNullCollation", "HIGH");
    props.setProperty("typeSystem", AccelTypeSystem.class.getName() + "#INSTANCE");
    props.setProperty("timeZone", timeZone.getID());
    this.config = memoizing(new CalciteConnectionConfigImpl(props));
  }

  public TimeZone timeZone() {
    return timeZone;
  }

  /** SET TimeZone: the zone of the current time and of TIMESTAMP WITH TIME ZONE conversions from now on. */
  public void timeZone(TimeZone zone) {
    this.timeZone = zone;
  }

  private record SchemaPaths(String searchPath, List<List<String>> paths) {
  }

  /**
   * The schemas unqualified tables and functions are looked up in, in order, as PostgreSQL searches them: the
   * existing schemas of search_path with pg_catalog first unless search_path names it (current_schemas(true)),
   * then the root (qualified names). Derived again only when search_path changes (plans are dropped then).
   */
  List<List<String>> schemaPaths() {
    String searchPath = pgCatalog.session().settings().get("search_path");
    SchemaPaths known = schemaPaths;
    if (known == null || !known.searchPath().equals(searchPath)) {
      List<List<String>> paths = new java.util.ArrayList<>();
      for (String schema : pgCatalog.searchPath(true)) {
        paths.add(List.of(schema));
      }
      paths.add(List.of());
      known = new SchemaPaths(searchPath, List.copyOf(paths));
      schemaPaths = known;
    }
    return known.paths();
  }

  public JavaTypeFactory typeFactory() {
    return typeFactory;
  }

  /**
   * What a plan shows about itself: whether its rows stream in scan order (no sort), the stored tables it reads,
   * why its results cannot be kept exact by invalidation (null when they can): it reads a relation that is not
   * a stored table (pg_catalog, information_schema) or calls a function whose value changes between executions;
   * and the parameters compared for equality with a column whose statistics list its common values, for which
   * a listed value deserves a plan of its own (see {@link SkewedParameter}).
   */
  public record PlanFacts(boolean streaming, java.util.Set<Long> tables, String notCacheable,
      java.util.List<SkewedParameter> skewed) {
    static final PlanFacts UNKNOWN = new PlanFacts(false, java.util.Set.of(), "its plan is unknown",
        java.util.List.of());

    /** Whether some parameter's value is one whose share of its column differs from the average one's. */
    public boolean skewedBy(java.util.List<Object> values) {
      for (SkewedParameter p : skewed) {
        if (p.parameter() < values.size() && p.statistics().skewedValue(p.column(), values.get(p.parameter()))) {
          return true;
        }
      }
      return false;
    }

    static PlanFacts of(org.apache.calcite.rel.RelNode rel) {
      boolean[] sorts = {false};
      java.util.Set<Long> tables = new java.util.TreeSet<>();
      java.util.List<SkewedParameter> skewed = new java.util.ArrayList<>();
      String[] why = {null};
      org.apache.calcite.rex.RexVisitor<Void> calls = new org.apache.calcite.rex.RexVisitorImpl<>(true) {
        @Override
        public Void visitCall(org.apache.calcite.rex.RexCall call) {
          org.apache.calcite.sql.SqlOperator op = call.getOperator();
          String name = op.getName().toLowerCase(java.util.Locale.ROOT);
          if (why[0] == null && (!op.isDeterministic() || op.isDynamicFunction())) {
            why[0] = "it calls " + name + "(), whose value changes between executions";
          } else if (why[0] == null && name.startsWith("accel_")) {
            why[0] = "it calls " + name.substring("accel_".length()) + "(), whose value depends on the session";
          }
          return super.visitCall(call);
        }
      };
      new org.apache.calcite.rel.RelVisitor() {
        @Override
        public void visit(org.apache.calcite.rel.RelNode node, int ordinal, org.apache.calcite.rel.RelNode parent) {
          if (node instanceof org.apache.calcite.rel.core.Sort sort && !sort.getCollation().getFieldCollations()
              .isEmpty() || node instanceof org.apache.calcite.rel.core.Window) {
            sorts[0] = true;
          }
          if (node instanceof AccelScan scan) {
            tables.add(scan.accelTable().definition().id());
            if (scan.condition() != null) {
              scan.condition().accept(calls);
              SkewedParameter.collect(scan, skewed);
            }
          } else if (node instanceof org.apache.calcite.rel.core.TableScan scan && why[0] == null) {
            why[0] = "it reads " + String.join(".", scan.getTable().getQualifiedName())
                + ", which is not a stored table";
          }
          if (node instanceof IndexLookupJoin join) {
            tables.add(join.innerScan().accelTable().definition().id());
            join.expressions().forEach(e -> e.accept(calls));
            if (join.innerScan().condition() != null) {
              join.innerScan().condition().accept(calls);
              SkewedParameter.collect(join.innerScan(), skewed);
            }
          }
          if (why[0] == null) {
            node.accept(new org.apache.calcite.rex.RexShuttle() {
              @Override
              public org.apache.calcite.rex.RexNode visitCall(org.apache.calcite.rex.RexCall call) {
                call.accept(calls);
                return call;
              }
            });
          }
          super.visit(node, ordinal, parent);
        }
      }.go(rel);
      if (why[0] == null && tables.isEmpty()) {
        why[0] = "it reads no table";
      }
      return new PlanFacts(!sorts[0], java.util.Set.copyOf(tables), why[0], java.util.List.copyOf(skewed));
    }
  }

  /**
   * A parameter a scan compares for equality with a column whose statistics list common values: the plan was
   * costed with the average value's share of the rows, so a listed value far from it (the current salaries'
   * '9999-01-01', a tenth of the table) is planned on its own, as PostgreSQL plans a statement with a custom
   * plan where the parameter's value changes the estimate.
   */
  public record SkewedParameter(int parameter, io.accel.catalog.TableStatistics statistics, int column) {
    static void collect(AccelScan scan, java.util.List<SkewedParameter> out) {
      collect(scan.condition(), scan.accelTable().statistics(), out);
    }

    /** The parameters {@code condition}'s conjuncts compare for equality with a listed column of the table. */
    static void collect(org.apache.calcite.rex.RexNode condition, io.accel.catalog.TableStatistics stats,
        java.util.List<SkewedParameter> out) {
      for (org.apache.calcite.rex.RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(condition)) {
        if (c.getKind() != org.apache.calcite.sql.SqlKind.EQUALS) {
          continue;
        }
        java.util.List<org.apache.calcite.rex.RexNode> operands = ((org.apache.calcite.rex.RexCall) c).getOperands();
        org.apache.calcite.rex.RexNode a = org.apache.calcite.rex.RexUtil.removeCast(operands.get(0));
        org.apache.calcite.rex.RexNode b = org.apache.calcite.rex.RexUtil.removeCast(operands.get(1));
        if (b instanceof org.apache.calcite.rex.RexInputRef) {
          org.apache.calcite.rex.RexNode t = a;
          a = b;
          b = t;
        }
        if (a instanceof org.apache.calcite.rex.RexInputRef ref
            && b instanceof org.apache.calcite.rex.RexDynamicParam param && stats.listsValues(ref.getIndex())) {
          out.add(new SkewedParameter(param.getIndex(), stats, ref.getIndex()));
        }
      }
    }
  }

  /** Planning stopped by the statement's cancel flag (reported as 57014 by {@link #cancellable}). */
  public static final class PlanningCancelled extends RuntimeException {
    PlanningCancelled() {
      super("statement planning was cancelled", null, false, false);
    }
  }

  /** A compiled statement and the facts of its plan; {@code direct} when {@link DirectPlanner} planned it, else null. */
  public record Planned(CalcitePrepare.CalciteSignature<Object> signature, PlanFacts facts, DirectPlan direct) {
  }

  /** The direct plan of {@code sql} (for EXPLAIN), or null when it is planned by Calcite. */
  public Planned planDirectly(String sql) {
    return pgCatalog.session().directPlanning() ? directPlanner.plan(sql, -1, rootSchema) : null;
  }

  /**
   * Plans {@code sql}: a query of one table in {@link io.accel.sql.SimpleSelect}'s shape directly
   * ({@link DirectPlanner}), anything else by parsing, validating, optimising and compiling it through Calcite;
   * {@code maxRowCount} &lt; 0 for no limit.
   */
  public Planned prepare(String sql, long maxRowCount) {
    if (pgCatalog.session().directPlanning()) {
      Planned direct = directPlanner.plan(sql, maxRowCount, rootSchema);
      if (direct != null) {
        return direct;
      }
    }
    PlanFacts[] facts = {PlanFacts.UNKNOWN};
    try (Hook.Closeable hook = Hook.PLAN_BEFORE_IMPLEMENTATION.addThread(
        (org.apache.calcite.rel.RelRoot root) -> facts[0] = PlanFacts.of(root.rel))) {
      CalcitePrepare.CalciteSignature<Object> signature = prepare(sql, maxRowCount, null);
      AtomicBoolean cancel = PLANNING_CANCEL.get();
      if (cancel != null && cancel.get()) {
        // Volcano stopped early: what it found is not the plan to keep
        throw new PlanningCancelled();
      }
      return new Planned(signature, facts[0], null);
    }
  }

  private static final ThreadLocal<TimeZone> PLANNING_ZONE = new ThreadLocal<>();
  /** The catalog names of the session whose statement this thread is planning (for DEFAULT expressions). */
  private static final ThreadLocal<io.accel.sql.PgCatalogSyntax.Resolver> PLANNING_NAMES = new ThreadLocal<>();

  /**
   * An expression of the session whose statement this thread is planning (a column's DEFAULT) in the form Calcite
   * plans: PostgreSQL's syntax rewritten as for statements ({@code nextval('s'::regclass)}, {@code now()}).
   */
  static String planningSyntax(String expression) {
    io.accel.sql.PgCatalogSyntax.Resolver names = PLANNING_NAMES.get();
    return names == null ? expression : io.accel.sql.PgCatalogSyntax.rewrite(expression, names);
  }
  private static final ThreadLocal<AtomicBoolean> PLANNING_CANCEL = new ThreadLocal<>();

  /**
   * The cancel flag of the statement this thread is planning, for Calcite's planner (its rule loop checks it
   * and stops); a fresh flag outside {@link #cancellable}.
   */
  static AtomicBoolean planningCancel() {
    AtomicBoolean flag = PLANNING_CANCEL.get();
    return flag == null ? new AtomicBoolean() : flag;
  }

  /**
   * Runs {@code body} (planning) so that setting {@code flag} stops it: Volcano stops exploring, and the
   * planning then fails with 57014 instead of returning (or caching) what it had found so far.
   */
  public static <T> T cancellable(AtomicBoolean flag, java.util.function.Supplier<T> body,
      java.util.function.Supplier<RuntimeException> cancelled) {
    AtomicBoolean outer = PLANNING_CANCEL.get();
    PLANNING_CANCEL.set(flag);
    try {
      T result = body.get();
      if (flag.get()) {
        throw cancelled.get();
      }
      return result;
    } catch (RuntimeException | Error e) {
      if (flag.get()) {
        throw cancelled.get();
      }
      throw e;
    } finally {
      if (outer == null) {
        PLANNING_CANCEL.remove();
      } else {
        PLANNING_CANCEL.set(outer);
      }
    }
  }

  /**
   * The time zone of the session whose statement this thread is planning (the JVM's outside planning):
   * conversions planned into a statement read text in it, as PostgreSQL reads it in the session's TimeZone.
   */
  static java.time.ZoneId planningZone() {
    TimeZone zone = PLANNING_ZONE.get();
    return (zone == null ? TimeZone.getDefault() : zone).toZoneId();
  }

  /**
   * A query as Calcite parses it, after the rewrites {@link #prepare} applies (PostgreSQL's catalog syntax,
   * literals and {@code ::} precedence): the text a view stores, which the planner expands without rewriting.
   */
  public String calciteText(String sql) {
    return AccelPrepare.calciteSyntax(io.accel.sql.PgCatalogSyntax.rewrite(sql, catalogNames));
  }

  /** As {@link #prepare(String, long)}, planned with {@code program} instead of Accel's (EXPLAIN). */
  public CalcitePrepare.CalciteSignature<Object> prepare(String sql, long maxRowCount, @Nullable Program program) {
    Context context = new Context();
    TimeZone outer = PLANNING_ZONE.get();
    io.accel.sql.PgCatalogSyntax.Resolver outerNames = PLANNING_NAMES.get();
    PLANNING_ZONE.set(timeZone);
    PLANNING_NAMES.set(catalogNames);
    CalcitePrepare.Dummy.push(context);
    try (Hook.Closeable hook = program == null ? Hook.Closeable.EMPTY
        : Hook.PROGRAM.addThread((Holder<Program> holder) -> holder.set(program))) {
      @SuppressWarnings("unchecked")
      // the catalog queries' PostgreSQL syntax (OPERATOR(pg_catalog.~), ::regclass, current_database(), ...)
      String text = io.accel.sql.PgCatalogSyntax.rewrite(sql, catalogNames);
      AccelPrepare prepare = new AccelPrepare(schemaPaths());
      CalcitePrepare.CalciteSignature<Object> signature = (CalcitePrepare.CalciteSignature<Object>) (Object)
          prepare.prepareSql(context, CalcitePrepare.Query.of(text), Object[].class, maxRowCount);
      // PostgreSQL's column labels (count, ?column?, int4) in place of Calcite's (EXPR$0), from the text as
      // written: before the rewrites above (now() is CURRENT_TIMESTAMP to Calcite)
      return ColumnLabels.relabel(signature, sql, prepare.starColumns());
    } finally {
      CalcitePrepare.Dummy.pop(context);
      if (outer == null) {
        PLANNING_ZONE.remove();
      } else {
        PLANNING_ZONE.set(outer);
      }
      if (outerNames == null) {
        PLANNING_NAMES.remove();
      } else {
        PLANNING_NAMES.set(outerNames);
      }
    }
  }

  /**
   * Runs a prepared statement: its rows (for DML, one row holding the count), read through {@code txn}.
   *
   * @param parameters the values of {@code ?0, ?1, ...} in the representation generated code reads
   * @param cancel set by another thread to stop the statement (57014)
   * @param timeoutMillis 0 for none
   */
  public Enumerable<Object> execute(CalcitePrepare.CalciteSignature<Object> signature, List<Object> parameters,
      TxnContext txn, AtomicBoolean cancel, long timeoutMillis) {
    return execute(signature, parameters, txn, cancel, timeoutMillis, Map.of());
  }

  /** As {@link #execute(CalcitePrepare.CalciteSignature, List, TxnContext, AtomicBoolean, long)}, with {@code
   * variables} also in the execution's DataContext (the rows a DML statement's RETURNING clause reads). */
  public Enumerable<Object> execute(CalcitePrepare.CalciteSignature<Object> signature, List<Object> parameters,
      TxnContext txn, AtomicBoolean cancel, long timeoutMillis, Map<String, Object> variables) {
    Map<String, Object> values = new java.util.HashMap<>(signature.internalParameters.size() + parameters.size() + 16);
    for (int i = 0; i < parameters.size(); i++) {
      values.put("?" + i, parameters.get(i));
    }
    values.putAll(signature.internalParameters);
    values.putAll(variables);
    values.put(DataContext.Variable.CANCEL_FLAG.camelName, cancel);
    if (timeoutMillis > 0) {
      values.put(DataContext.Variable.TIMEOUT.camelName, timeoutMillis);
    }
    return signature.enumerable(new ExecutionContext(values, txn));
  }

  /**
   * What generated code reads while a statement runs: parameters and variables by name, the root schema,
   * and the statement's transaction.
   */
  public final class ExecutionContext implements DataContext {
    /** The variable holding the statement's start (milliseconds since the epoch), for statement_timestamp(). */
    public static final String STATEMENT_TIMESTAMP = "accelStatementTimestamp";

    private final Map<String, Object> values;
    /** {@code ?0, ?1, ...}: generated code asks for its parameters by name for every row it evaluates. */
    private final Object[] numbered;
    private final @Nullable TxnContext txn;

    ExecutionContext(Map<String, Object> values, @Nullable TxnContext txn) {
      // the transaction's start time: CURRENT_TIMESTAMP and now() are the same throughout a transaction, as in
      // PostgreSQL; statement_timestamp() is this statement's
      long statementStart = System.currentTimeMillis();
      long now = txn == null ? statementStart : txn.startedAt();
      values.put(STATEMENT_TIMESTAMP, statementStart);
      TimeZone timeZone = StatementPlanner.this.timeZone;
      long offset = timeZone.getOffset(now);
      values.put(Variable.UTC_TIMESTAMP.camelName, now);
      values.put(Variable.CURRENT_TIMESTAMP.camelName, now + offset);
      values.put(Variable.LOCAL_TIMESTAMP.camelName, now + offset);
      values.put(Variable.SYS_TIMESTAMP.camelName, now + TimeZone.getDefault().getOffset(now));
      values.put(Variable.TIME_ZONE.camelName, timeZone);
      values.put(Variable.TIME_FRAME_SET.camelName, timeFrames);
      values.put(Variable.USER.camelName, user);
      values.put(Variable.SYSTEM_USER.camelName, user);
      values.put(Variable.LOCALE.camelName, java.util.Locale.ROOT);
      this.values = values;
      this.txn = txn;
      int n = 0;
      while (values.containsKey("?" + n)) {
        n++;
      }
      this.numbered = new Object[n];
      for (int i = 0; i < n; i++) {
        numbered[i] = values.get("?" + i);
      }
    }

    /** The transaction the statement reads and writes through; null while planning (constant folding). */
    public @Nullable TxnContext txn() {
      return txn;
    }

    @Override
    public SchemaPlus getRootSchema() {
      return rootSchema.plus();
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
      return typeFactory;
    }

    @Override
    public @Nullable QueryProvider getQueryProvider() {
      return null;
    }

    @Override
    public @Nullable Object get(String name) {
      // a filter over a 100,000-row scan asked the hash map 200,000 times an execution (S2: 57% of its time)
      if (name.length() > 1 && name.charAt(0) == '?') {
        int i = ordinal(name);
        if (i >= 0 && i < numbered.length) {
          return numbered[i];
        }
      }
      return values.get(name);
    }

    /** N of a name {@code ?N}; -1 for any other name. */
    private static int ordinal(String name) {
      int n = 0;
      for (int k = 1; k < name.length(); k++) {
        char c = name.charAt(k);
        if (c < '0' || c > '9' || n > 1_000_000) {
          return -1;
        }
        n = n * 10 + (c - '0');
      }
      return n;
    }
  }

  /** Calcite's preparation context over this planner's schema, type factory and configuration. */
  private final class Context implements CalcitePrepare.Context {
    @Override
    public JavaTypeFactory getTypeFactory() {
      return typeFactory;
    }

    @Override
    public CalciteSchema getRootSchema() {
      return rootSchema;
    }

    @Override
    public CalciteSchema getMutableRootSchema() {
      return rootSchema;
    }

    @Override
    public List<String> getDefaultSchemaPath() {
      return schemaPaths().contains(List.of(AccelSchema.NAME)) ? List.of(AccelSchema.NAME) : List.of();
    }

    @Override
    public CalciteConnectionConfig config() {
      return config;
    }

    @Override
    public CalcitePrepare.SparkHandler spark() {
      return CalcitePrepare.Dummy.getSparkHandler(false);
    }

    @Override
    public DataContext getDataContext() {
      return new ExecutionContext(new java.util.HashMap<>(), null);
    }

    @Override
    public @Nullable List<String> getObjectPath() {
      return null;
    }

    @Override
    public RelRunner getRelRunner() {
      throw new UnsupportedOperationException("Accel does not run relational expressions outside SQL");
    }
  }

  /**
   * Calcite's configuration with its answers kept, and Accel's conformance ({@link AccelConformance}; the
   * configuration can only name a built-in one). Calcite's own re-parses the properties on every getter,
   * which several calls per execution made cost a quarter of a primary-key lookup.
   */
  private static CalciteConnectionConfig memoizing(CalciteConnectionConfig target) {
    Map<Method, Optional<Object>> answers = new ConcurrentHashMap<>();
    return (CalciteConnectionConfig) Proxy.newProxyInstance(StatementPlanner.class.getClassLoader(),
        new Class<?>[] {CalciteConnectionConfig.class}, (proxy, method, args) -> {
          if (args != null && args.length > 0) {
            return invoke(method, target, args);
          }
          if (method.getName().equals("conformance")) {
            return AccelConformance.INSTANCE;
          }
          Optional<Object> known = answers.get(method);
          if (known == null) {
            known = Optional.ofNullable(invoke(method, target, null));
            answers.put(method, known);
          }
          return known.orElse(null);
        });
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
