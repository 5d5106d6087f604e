package io.accel.plan;

import io.accel.sql.CastPrecedence;
import io.accel.sql.PgLiterals;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinToCorrelateRule;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.plan.RelOptPlanner;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableMergeUnionRule;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.sql.validate.SqlValidator;
import java.util.function.UnaryOperator;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.Holder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's statement preparation with Accel's rules added to the planner, and Accel's conformance
 * ({@link AccelConformance}) in place of the connection's, which Calcite only lets name a built-in one.
 */
public class AccelPrepare extends CalcitePrepareImpl {
  /** The schemas unqualified names are looked up in, in order (see {@link #getPreparingStmt}). */
  private final List<List<String>> schemaPaths;

  /** The validator of the statement (for {@link #starColumns}); an AccelPrepare prepares one statement. */
  private @Nullable PgSqlValidator validator;

  /** @param schemaPaths the schemas unqualified tables and functions are looked up in, in order */
  public AccelPrepare(List<List<String>> schemaPaths) {
    this.schemaPaths = schemaPaths;
  }

  /** {@link PgSqlValidator#starColumns} of the statement prepared last; null when there is none. */
  @Nullable List<@Nullable String> starColumns() {
    return validator == null ? null : validator.starColumns();
  }

  @Override
  public <T> CalciteSignature<T> prepareSql(CalcitePrepare.Context context, Query<T> query, Type elementType,
      long maxRowCount) {
    try (Hook.Closeable program = Hook.PROGRAM.addThread((Holder<Program> holder) -> {
      if (holder.get() == null) {
        holder.set(program());
      }
    })) {
      Query<T> pgQuery = query.sql == null ? query : Query.of(calciteSyntax(query.sql));
      return super.prepareSql(withConformance(context), pgQuery, elementType, maxRowCount);
    }
  }

  /**
   * PostgreSQL's keywords as names, frames of ranking functions, EXTRACT of fractional fields, set-returning and
   * lateral functions, AT TIME ZONE, json operators, LIKE ANY, DISTINCT ON, interval literals ('7 days') and
   * precedence for :: (which Calcite's Babel parser binds looser than comparisons), rewritten into what Calcite
   * reads: every statement's text, and a view's stored query.
   */
  static String calciteSyntax(String sql) {
    return CastPrecedence.parenthesize(PgLiterals.rewrite(io.accel.sql.ArrayLiterals.rewrite(io.accel.sql.DistinctOn.rewrite(
        io.accel.sql.QuantifiedLike.rewrite(io.accel.sql.JsonSyntax.rewrite(io.accel.sql.AtTimeZone.rewrite(
            io.accel.sql.SetReturningSelectList.rewrite(io.accel.sql.LateralFunctions.rewrite(
                io.accel.sql.FractionalExtract.rewrite(io.accel.sql.RankingFrames.rewrite(
                    io.accel.sql.OrderedSetAggregates.rewrite(io.accel.sql.SelectWithoutFrom.rewrite(
                        io.accel.sql.UpdateFrom.rewrite(io.accel.sql.KeywordNames.rewrite(sql)))))))))))))));
  }

  /**
   * The parser of a view's query when the planner expands it (Calcite's {@code expandView} takes this config, not
   * the connection's): the statements' own, Babel with PostgreSQL's lower-case folding.
   */
  @Override
  protected org.apache.calcite.sql.parser.SqlParser createParser(String sql) {
    return org.apache.calcite.sql.parser.SqlParser.create(sql, viewParserConfig());
  }

  private static org.apache.calcite.sql.parser.SqlParser.Config viewParserConfig() {
    return org.apache.calcite.sql.parser.SqlParser.config()
        .withParserFactory(org.apache.calcite.sql.parser.babel.SqlBabelParserImpl.FACTORY)
        .withConformance(AccelConformance.INSTANCE)
        .withUnquotedCasing(org.apache.calcite.avatica.util.Casing.TO_LOWER)
        .withQuotedCasing(org.apache.calcite.avatica.util.Casing.UNCHANGED)
        .withCaseSensitive(false);
  }

  /**
   * Calcite's preparing statement with Accel's validator ({@link PgSqlValidator}: PostgreSQL's typing of
   * INSERT's VALUES rows) and type coercion ({@link PgTypeCoercion}: PostgreSQL's date arithmetic). Built as Calcite builds it (Accel plans to Enumerable, not Bindable).
   *
   * <p>The one place names are resolved from: the catalog reader made here searches {@link #schemaPaths}
   * (PostgreSQL's search path: pg_catalog first unless search_path names it, then the root for qualified
   * names), and the validator, its operator table (functions) and the SQL-to-rel converter all use it.
   * Calcite hands {@code createSqlValidator} the reader it made in {@code prepare_} from the context's single
   * default schema path; that one would not see pg_catalog, so it is not used.
   */
  @Override
  protected CalcitePreparingStmt getPreparingStmt(CalcitePrepare.Context context, Type elementType,
      CalciteCatalogReader calciteReader, RelOptPlanner planner) {
    JavaTypeFactory typeFactory = context.getTypeFactory();
    // (a subclass: the constructor that takes several paths is protected)
    CalciteCatalogReader accelReader = new CalciteCatalogReader(context.getRootSchema(),
        org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(context.config().caseSensitive()),
        schemaPaths, typeFactory, context.config()) {
    };
    EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
        : EnumerableRel.Prefer.CUSTOM;
    RelOptCluster cluster = createCluster(planner, new RexBuilder(typeFactory));
    SqlRexConvertletTable convertlets = createConvertletTable();
    return new CalcitePreparingStmt(this, context, accelReader, typeFactory, context.getRootSchema(), prefer,
        cluster, EnumerableConvention.INSTANCE, convertlets) {
      @Override
      protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator, Prepare.CatalogReader reader,
          SqlToRelConverter.Config config) {
        SqlToRelConverter calcite = super.getSqlToRelConverter(validator, reader, config);
        return new PgSqlToRelConverter(this, validator, reader, cluster, convertlets,
            calcite.config.addRelBuilderConfigTransform(b -> b.withBloat(-1)));
      }

      @Override
      protected org.apache.calcite.rel.RelRoot trimUnusedFields(org.apache.calcite.rel.RelRoot root) {
        try {
          return super.trimUnusedFields(root);
        } catch (AssertionError | RuntimeException e) {
          return root; // see AccelPrepare.trim
        }
      }

      @Override
      protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        // this statement's reader, not the one Calcite passes (see above); Calcite chains it after the
        // connection's operator table, so unqualified functions are found in the search path too
        SqlValidator calcite = super.createSqlValidator(accelReader,
            config -> configTransform.apply(config).withTypeCoercionFactory(PgTypeCoercion::new));
        PgSqlValidator pg = new PgSqlValidator(
            org.apache.calcite.sql.util.SqlOperatorTables.chain(PgFunctions.TABLE, calcite.getOperatorTable()),
            accelReader,
            (JavaTypeFactory) calcite.getTypeFactory(), calcite.config());
        if (validator == null) {
          validator = pg; // the statement's (Calcite makes others later, for sub-queries it expands)
        }
        return pg;
      }
    };
  }

  @Override
  protected SqlRexConvertletTable createConvertletTable() {
    return PgExpressions.convertlets(super.createConvertletTable());
  }

  /**
   * Calcite's standard program, after a heuristic phase of Accel's rewrites that must precede cost-based
   * planning ({@link OrRestrictionRule}).
   */
  public static Program program() {
    RelMetadataProvider metadata = AccelRelMetadata.PROVIDER;
    // Calcite's standard program (sub-query removal, decorrelation, measures, field trimming, Volcano,
    // Calc), with Accel's phases: PostgreSQL's expression semantics first (PgExpressions), OrRestrictionRule,
    // decorrelation skipped for statements mixing uncorrelated and correlated sub-queries, comparisons with
    // NULL folded, join-condition expressions pushed into projections (see PgSqlToRelConverter), the scalar
    // sub-queries back into nested loops (SCALAR_SUBQUERY_TO_CORRELATE), and at the end the divisions
    // planning created (PgExpressions) and Accel's one-key sorts (AccelSort: Calcite compares numbers
    // through BigDecimal).
    Program volcano = (planner, rel, requiredOutputTraits, materializations, lattices) -> {
      for (RelOptMaterialization materialization : materializations) {
        planner.addMaterialization(materialization);
      }
      for (RelOptLattice lattice : lattices) {
        planner.addLattice(lattice);
      }
      planner.setRoot(rel);
      RelNode root = rel.getTraitSet().equals(requiredOutputTraits) ? rel
          : planner.changeTraits(rel, requiredOutputTraits);
      planner.setRoot(root);
      return planner.chooseDelegate().findBestExp();
    };
    // whether the statement has both uncorrelated and correlated sub-queries (see mixesSubQueries)
    boolean[] mixedSubQueries = {false};
    return Programs.sequence(
        PgExpressions::rewrite,
        CharComparisons::rewrite,
        NumericKeys::rewrite,
        Programs.hep(List.of(OrRestrictionRule.INSTANCE), true, metadata),
        SubQueryOperands::rewrite,
        (planner, rel, traits, materializations, lattices) -> CorrelationScopes.declare(rel),
        (planner, rel, traits, materializations, lattices) -> {
          mixedSubQueries[0] = mixesSubQueries(rel) || hasNestedCorrelatedIn(rel) || readsOuterNullsafely(rel)
              || correlatedInBesideAnother(rel);
          return rel;
        },
        AccelPrepare::inOverConstants,
        // Calcite's Programs.subQuery, with the projection's rule binding only the projection's own variables and
        // SubQueryLogic's logic (one collection: removing a sub-query brings the sub-queries inside it into the plan)
        Programs.of(org.apache.calcite.plan.hep.HepProgram.builder().addRuleCollection(List.of(
            SubQueryLogic.FILTER, ProjectSubQueryRule.INSTANCE, SubQueryLogic.JOIN)).build(), true, metadata),
        InSubQueryValues::unwrap,
        (planner, rel, traits, materializations, lattices) -> mixedSubQueries[0] ? rel
            : decorrelate(planner, rel, traits, materializations, lattices),
        FloatKeys::rewrite,
        AccelPrepare::foldNullComparisons,
        JoinOrder::heuristic,
        NumericKeys::rewriteJoins,
        // the expressions of join conditions into projections below the joins (see PgSqlToRelConverter)
        Programs.hep(List.of(CoreRules.JOIN_PUSH_EXPRESSIONS), true, metadata),
        Programs.measure(metadata),
        AccelPrepare::trim,
        Programs.hep(List.of(SCALAR_SUBQUERY_TO_CORRELATE), true, metadata),
        volcano,
        Programs.calc(metadata),
        PgExpressions::rewriteDivisions,
        AccelSort::replaceSorts,
        AccelPrepare::scalarFunctionRows);
  }

  /**
   * A one-column table function's rows (generate_series, unnest) read through a projection. They are one-element
   * Object[]s, and Calcite's sort and collect above such a scan take them for the values themselves: ARRAY(SELECT g
   * FROM generate_series(1, 3) g) held the Object[]s as its elements, and with ORDER BY failed ("Cannot convert").
   * A projection's one-column rows are the values.
   */
  private static RelNode scalarFunctionRows(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return rel.accept(new org.apache.calcite.rel.RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        if (visited instanceof org.apache.calcite.adapter.enumerable.EnumerableTableFunctionScan scan
            && scan.getRowType().getFieldCount() == 1) {
          return org.apache.calcite.adapter.enumerable.EnumerableCalc.create(scan,
              org.apache.calcite.rex.RexProgram.createIdentity(scan.getRowType()));
        }
        return visited;
      }
    });
  }

  private static CalcitePrepare.Context withConformance(CalcitePrepare.Context context) {
    CalciteConnectionConfig config = context.config();
    CalciteConnectionConfig accelConfig = (CalciteConnectionConfig) Proxy.newProxyInstance(
        AccelPrepare.class.getClassLoader(), new Class<?>[] {CalciteConnectionConfig.class},
        (proxy, method, args) -> method.getName().equals("conformance") && (args == null || args.length == 0)
            ? AccelConformance.INSTANCE : invoke(method, config, args));
    return (CalcitePrepare.Context) Proxy.newProxyInstance(AccelPrepare.class.getClassLoader(),
        new Class<?>[] {CalcitePrepare.Context.class},
        (proxy, method, args) -> method.getName().equals("config") && (args == null || args.length == 0)
            ? accelConfig : invoke(method, context, args));
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static boolean semiJoinType(Join join) {
    return join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT;
  }

  static final RelOptRule PROJECT_TO_SEMI_JOIN = SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig
      .DEFAULT
      .withOperandSupplier(b -> b.operand(LogicalProject.class).oneInput(b2 -> b2.operand(LogicalJoin.class)
          .predicate(AccelPrepare::semiJoinType).inputs(
              b3 -> b3.operand(RelNode.class).anyInputs(),
              b4 -> b4.operand(LogicalAggregate.class).predicate(a -> !a.getGroupSet().isEmpty()).anyInputs())))
      .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class)
      .toRule();

  static final RelOptRule JOIN_TO_SEMI_JOIN = SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.DEFAULT
      .withOperandSupplier(b -> b.operand(LogicalJoin.class).predicate(AccelPrepare::semiJoinType).inputs(
          b2 -> b2.operand(RelNode.class).anyInputs(),
          b3 -> b3.operand(LogicalAggregate.class).predicate(a -> !a.getGroupSet().isEmpty()).anyInputs()))
      .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class)
      .toRule();

  /**
   * Whether a plan has both an uncorrelated and a correlated sub-query, at any depth. Calcite's decorrelator
   * loses uncorrelated sub-queries next to correlated ones: it replaced an uncorrelated IN, and an
   * uncorrelated EXISTS inside a CASE, by TRUE (rows PostgreSQL excludes were returned and updated; a CASE
   * took the wrong branch), and a per-table count of the scans cannot catch it once decorrelation reads the
   * outer table again. Such statements keep their correlated sub-queries as nested loops.
   */
  static boolean mixesSubQueries(RelNode rel) {
    boolean[] seen = new boolean[2]; // uncorrelated, correlated
    collectSubQueries(rel, seen);
    return seen[0] && seen[1];
  }

  private static void collectSubQueries(RelNode rel, boolean[] seen) {
    RexShuttle subQueries = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        seen[RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty() ? 0 : 1] = true;
        collectSubQueries(subQuery.rel, seen);
        return super.visitSubQuery(subQuery);
      }
    };
    acceptEverywhere(rel, subQueries);
  }

  /** Applies {@code shuttle} to the expressions of every node of {@code rel}. */
  private static void acceptEverywhere(RelNode rel, RexShuttle shuttle) {
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        node.accept(shuttle);
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
  }

  /**
   * Calcite's field trimming (after conversion from SQL and again before planning), or the plan as it was where the
   * trimmer fails (an EXISTS in a select list over a
   * grouped derived table ordered by both: an IndexOutOfBoundsException permuting the sort's fields). Trimming only
   * narrows rows.
   */
  private static RelNode trim(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    try {
      return Programs.trim().run(planner, rel, requiredOutputTraits, materializations, lattices);
    } catch (AssertionError | RuntimeException e) {
      return rel;
    }
  }

  /**
   * Whether a correlated {@code [NOT] IN} / {@code ANY} / {@code ALL} sub-query is used as a value (in a select
   * list, under OR, in a CASE) rather than as a condition of its own. Calcite decorrelates such a sub-query into a
   * count per correlation value joined back with {@code =}, so an outer row whose correlation value is NULL finds
   * no count: {@code NULL NOT IN (an empty set)} came out NULL instead of TRUE. Such statements stay correlated.
   */
  static boolean hasNestedCorrelatedIn(RelNode rel) {
    boolean[] found = {false};
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        Set<RexNode> conditions = new HashSet<>();
        if (node instanceof Filter filter) {
          for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            conditions.add(conjunct);
            if (conjunct.getKind() == SqlKind.NOT) {
              conditions.add(((RexCall) conjunct).getOperands().get(0));
            }
          }
        }
        node.accept(new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            if ((subQuery.getKind() == SqlKind.IN || subQuery.getKind() == SqlKind.SOME
                || subQuery.getKind() == SqlKind.ALL || subQuery.getKind() == SqlKind.NOT_IN)
                && !conditions.contains(subQuery) && !RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty()) {
              found[0] = true;
            }
            if (hasNestedCorrelatedIn(subQuery.rel)) {
              found[0] = true;
            }
            return subQuery;
          }
        });
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return found[0];
  }

  /**
   * Whether a correlated {@code [NOT] IN} / {@code ANY} / {@code ALL} sub-query sits beside another correlated
   * sub-query and they read a nullable outer column. Decorrelating both, Calcite joined the IN's counts back to the
   * outer rows with {@code =} where it alone uses IS NOT DISTINCT FROM: an outer row with a NULL correlation value
   * found no counts, and {@code NOT EXISTS (... u.k = t.k) AND t.v NOT IN (SELECT ... WHERE u.k = t.k)} lost the rows
   * whose t.k is NULL. Such statements stay correlated.
   */
  static boolean correlatedInBesideAnother(RelNode rel) {
    int[] correlated = {0};
    boolean[] in = {false};
    boolean[] nullable = {false};
    RexShuttle outerReads = new RexShuttle() {
      @Override
      public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof org.apache.calcite.rex.RexCorrelVariable
            && access.getType().isNullable()) {
          nullable[0] = true;
        }
        return super.visitFieldAccess(access);
      }
    };
    RexShuttle subQueries = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        if (!RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty()) {
          correlated[0]++;
          in[0] |= subQuery.getKind() == SqlKind.IN || subQuery.getKind() == SqlKind.SOME
              || subQuery.getKind() == SqlKind.ALL || subQuery.getKind() == SqlKind.NOT_IN;
          acceptEverywhere(subQuery.rel, outerReads);
        }
        return super.visitSubQuery(subQuery);
      }
    };
    acceptEverywhere(rel, subQueries);
    return correlated[0] > 1 && in[0] && nullable[0];
  }

  /**
   * Whether a correlated sub-query reads the outer row other than in a comparison that is a condition of its own
   * ({@code u.k = t.k}, {@code u.d > t.since}): under an OR, in a CASE, IS NULL, COALESCE or a select list. Calcite
   * decorrelates through the distinct outer values and joins the results back with {@code =}, so an outer row whose
   * value is NULL lost its sub-query's rows; that is right only where a NULL makes the reading condition fail
   * ({@code WHERE u.f = t.f AND (TRUE OR u.v <= t.v)}: a NULL t.v counted as no rows). Such statements stay correlated.
   */
  static boolean readsOuterNullsafely(RelNode rel) {
    boolean[] found = {false};
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        node.accept(new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            if (!RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty() && readsOuterLoosely(subQuery.rel)) {
              found[0] = true;
            }
            return super.visitSubQuery(subQuery);
          }
        });
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return found[0];
  }

  /** Whether {@code rel} (at any depth, sub-queries included) reads a correlation variable outside a strict condition. */
  private static boolean readsOuterLoosely(RelNode rel) {
    boolean[] found = {false};
    RexShuttle reads = new RexShuttle() {
      @Override
      public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof org.apache.calcite.rex.RexCorrelVariable) {
          found[0] = true;
        }
        return super.visitFieldAccess(access);
      }

      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        if (readsOuterLoosely(subQuery.rel)) {
          found[0] = true;
        }
        return super.visitSubQuery(subQuery);
      }
    };
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node instanceof Filter filter) {
          for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            if (!strictComparison(conjunct)) {
              conjunct.accept(reads);
            }
          }
        } else {
          node.accept(reads);
        }
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return found[0];
  }

  /** A comparison (=, <>, <, <=, >, >=) of expressions that are NULL when a column they read is NULL. */
  private static boolean strictComparison(RexNode e) {
    return e instanceof RexCall call && SqlKind.COMPARISON.contains(call.getKind())
        && call.getKind() != SqlKind.IS_DISTINCT_FROM && call.getKind() != SqlKind.IS_NOT_DISTINCT_FROM
        && call.getOperands().stream().allMatch(AccelPrepare::strict);
  }

  private static final java.util.EnumSet<SqlKind> NOT_STRICT = java.util.EnumSet.of(SqlKind.CASE, SqlKind.COALESCE,
      SqlKind.NULLIF, SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE,
      SqlKind.IS_NOT_FALSE, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.OR, SqlKind.AND,
      SqlKind.NOT, SqlKind.OTHER_FUNCTION, SqlKind.SCALAR_QUERY, SqlKind.EXISTS, SqlKind.IN, SqlKind.SOME, SqlKind.ALL);

  private static boolean strict(RexNode e) {
    if (e instanceof RexCall call) {
      return !NOT_STRICT.contains(call.getKind()) && !(call instanceof RexSubQuery)
          && call.getOperands().stream().allMatch(AccelPrepare::strict);
    }
    return true; // a column, a value, a parameter, a correlated column
  }

  /**
   * Calcite's decorrelation, or the plan as it was when decorrelation fails: on one of its own consistency
   * checks ("Decorrelation produced a relation with a different type", seen with DISTINCT over constants
   * and an IN sub-query), or inside it (an IndexOutOfBoundsException in {@code RelDecorrelator} for DISTINCT
   * over constants with an EXISTS sub-query). Decorrelation is an optimisation: the correlated sub-queries
   * then run as nested loops, slower but right.
   */
  private static RelNode decorrelate(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    RelNode decorrelated;
    try {
      decorrelated = Programs.decorrelate().run(planner, rel, requiredOutputTraits, materializations, lattices);
    } catch (AssertionError | RuntimeException e) {
      // the decorrelator's own failures (a set operation whose correlated branch it rewrote with an extra column:
      // "Cannot compute compatible row type"; a correlation variable it lost track of: NullPointerException): the
      // correlated plan runs as nested loops
      return rel;
    }
    // Calcite's decorrelator can also lose a relation: with an uncorrelated IN and a correlated EXISTS in one
    // WHERE, it replaced the IN's aggregate by a constant TRUE and the table it read vanished from the plan
    // (rows were returned, and updated, that PostgreSQL excludes). Rewriting correlation never needs to drop a
    // table, so a plan that reads fewer tables than the correlated one is not trusted.
    // Counted per table: the lost relation may read a table that another part of the query reads too
    // (SELECT EXISTS (SELECT 1 FROM t z WHERE ...) ... FROM t a WHERE EXISTS (correlated) lost z).
    Map<List<String>, Integer> before = tableScans(rel);
    Map<List<String>, Integer> after = tableScans(decorrelated);
    boolean lostOne = before.entrySet().stream().anyMatch(e -> after.getOrDefault(e.getKey(), 0) < e.getValue());
    return lostOne ? rel : decorrelated;
  }

  /**
   * Comparisons with a NULL constant ({@code x >= NULL}) folded to a NULL boolean. Sub-query removal can
   * leave one behind when it simplifies an operand to NULL but not the comparison around it ({@code 'a' >=
   * CASE DATE '2024-03-02' WHEN DATE '2024-03-03' THEN v END}), and Calcite's predicate metadata then fails
   * on it ("Comparison with NULL in pulledUpPredicates") while trimming fields or planning.
   */
  private static RelNode foldNullComparisons(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    RexShuttle fold = new RexShuttle() {
      @Override
      public RexNode visitCall(RexCall call) {
        RexCall visited = (RexCall) super.visitCall(call);
        if (visited.getKind().belongsTo(SqlKind.COMPARISON)
            && visited.getOperands().stream().anyMatch(operand -> RexUtil.isNullLiteral(operand, true))) {
          return rexBuilder.makeNullLiteral(visited.getType());
        }
        return visited;
      }
    };
    // A condition is simplified first, as the field trimmer's RelBuilder would simplify it, so that the
    // comparison such a simplification leaves is folded here.
    RexSimplify simplify = new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        if (visited instanceof Filter filter) {
          RexNode condition = simplify.simplifyUnknownAsFalse(filter.getCondition()).accept(fold);
          return condition.equals(filter.getCondition()) ? filter
              : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        return visited.accept(fold);
      }
    });
  }

  /**
   * {@code x IN (SELECT c FROM ... WHERE ...)} whose sub-query returns one constant column becomes
   * {@code CASE WHEN EXISTS (SELECT ...) THEN x = c ELSE FALSE END}, the same three-valued result. Calcite's
   * sub-query removal drops the constant from the correlated aggregate and then joins on the wrong columns: a
   * NULL {@code x} over an empty sub-query gave NULL instead of FALSE (a row too many under IS DISTINCT FROM,
   * differential seed 4), and in a select list the join compared the VARCHAR correlation column with the
   * INTEGER constant (an internal error).
   */
  private static RelNode inOverConstants(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    RelHomogeneousShuttle[] relShuttle = new RelHomogeneousShuttle[1];
    RexShuttle rewrite = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        RexSubQuery visited = subQuery.clone(subQuery.rel.accept(relShuttle[0]));
        visited = (RexSubQuery) super.visitSubQuery(visited);
        if (visited.getKind() != SqlKind.IN || visited.getOperands().size() != 1
            || !(visited.rel instanceof Project project) || project.getProjects().size() != 1
            || !RexUtil.isConstant(project.getProjects().get(0))) {
          return visited;
        }
        RexNode equals = rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
            visited.getOperands().get(0), project.getProjects().get(0));
        RexNode rewritten = rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.CASE,
            RexSubQuery.exists(visited.rel), equals, rexBuilder.makeLiteral(false));
        return rewritten.getType().equals(visited.getType()) ? rewritten
            : rexBuilder.makeAbstractCast(visited.getType(), rewritten, false);
      }
    };
    relShuttle[0] = new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return super.visit(other).accept(rewrite);
      }
    };
    return rel.accept(relShuttle[0]);
  }

  /**
   * How many times a plan reads each table (Accel's scans are not Calcite TableScans, so
   * RelOptUtil.findAllTables misses them).
   */
  private static Map<List<String>, Integer> tableScans(RelNode rel) {
    Map<List<String>, Integer> scans = new HashMap<>();
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node.getTable() != null) {
          scans.merge(node.getTable().getQualifiedName(), 1, Integer::sum);
        }
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return scans;
  }

  /**
   * A scalar sub-query (a left join with a SINGLE_VALUE aggregate, as decorrelation leaves it) runs as a
   * nested loop that evaluates it per outer row: as in PostgreSQL, a sub-query that returns several rows is
   * then an error only when some outer row needs its value.
   */
  static final RelOptRule SCALAR_SUBQUERY_TO_CORRELATE = JoinToCorrelateRule.Config.DEFAULT
      .withOperandSupplier(b -> b.operand(LogicalJoin.class)
          .predicate(join -> join.getJoinType() == JoinRelType.LEFT && scalarSubquery(join.getRight()))
          .anyInputs())
      .as(JoinToCorrelateRule.Config.class)
      .withDescription("AccelScalarSubqueryToCorrelate")
      .toRule();

  /** Whether a join input computes a scalar sub-query's single value (an Aggregate with SINGLE_VALUE). */
  private static boolean scalarSubquery(RelNode input) {
    RelNode rel = input instanceof HepRelVertex vertex ? vertex.getCurrentRel()
        : input instanceof RelSubset subset ? subset.getOriginal() : input;
    if (rel instanceof Aggregate aggregate) {
      return aggregate.getAggCallList().stream()
          .anyMatch(call -> call.getAggregation().getKind() == SqlKind.SINGLE_VALUE);
    }
    if (rel instanceof Project || rel instanceof Filter) {
      return scalarSubquery(rel.getInput(0));
    }
    return false;
  }

  /** Clusters estimate with {@link AccelRelMetadata} (Accel's statistics) ahead of Calcite's defaults. */
  @Override
  protected RelOptCluster createCluster(RelOptPlanner planner, RexBuilder rexBuilder) {
    RelOptCluster cluster = super.createCluster(planner, rexBuilder);
    cluster.setMetadataProvider(AccelRelMetadata.PROVIDER);
    return cluster;
  }

  private static final RelOptRule EXPAND_DISTINCT_GROUPED = AggregateExpandDistinctAggregatesRule.Config.DEFAULT
      .withOperandSupplier(b -> b.operand(LogicalAggregate.class)
          .predicate(a -> a.containsDistinctCall() && !a.getGroupSet().isEmpty()).anyInputs())
      .withDescription("AggregateExpandDistinctAggregatesRule:grouped")
      .as(AggregateExpandDistinctAggregatesRule.Config.class)
      .toRule();

  private static final RelOptRule EXPAND_DISTINCT_GLOBAL = AggregateExpandDistinctAggregatesRule.Config.JOIN
      .withOperandSupplier(b -> b.operand(LogicalAggregate.class)
          .predicate(a -> a.containsDistinctCall() && a.getGroupSet().isEmpty()).anyInputs())
      .withDescription("AggregateExpandDistinctAggregatesRule:global")
      .as(AggregateExpandDistinctAggregatesRule.Config.class)
      .toRule();

  private static final RelOptRule MERGE_UNION = new EnumerableMergeUnionRule(
      EnumerableMergeUnionRule.Config.DEFAULT_CONFIG.withDescription("AccelMergeUnionRule")
          .as(EnumerableMergeUnionRule.Config.class)) {
    @Override
    public boolean matches(RelOptRuleCall call) {
      Sort sort = call.rel(0);
      Union union = call.rel(1);
      return super.matches(call) && (union.all || sort.fetch == null && sort.offset == null);
    }
  };

  /**
   * Calcite's merge join, for inner joins only (see createPlanner): its outer joins over inputs sorted below
   * computed keys lost their inputs' collation after Volcano, failing the plan (LEFT JOIN on an integer = a numeric).
   */
  private static final RelOptRule MERGE_JOIN = new org.apache.calcite.rel.convert.ConverterRule(
      org.apache.calcite.rel.convert.ConverterRule.Config.INSTANCE.withConversion(LogicalJoin.class,
          (LogicalJoin j) -> j.getJoinType() == JoinRelType.INNER, org.apache.calcite.plan.Convention.NONE,
          EnumerableConvention.INSTANCE, "AccelMergeJoinRule")) {
    @Override
    public @Nullable RelNode convert(RelNode rel) {
      return ((org.apache.calcite.rel.convert.ConverterRule) EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE).convert(rel);
    }
  };

  /** Calcite's merge of nested EXCEPTs, only where both have the same ALL flag (see createPlanner). */
  private static final RelOptRule MINUS_MERGE = new org.apache.calcite.rel.rules.UnionMergeRule(
      CoreRules.MINUS_MERGE.config.withDescription("AccelMinusMergeRule")
          .as(org.apache.calcite.rel.rules.UnionMergeRule.Config.class)) {
    @Override
    public boolean matches(RelOptRuleCall call) {
      return super.matches(call) && call.rel(1) instanceof org.apache.calcite.rel.core.Minus bottom
          && bottom.all == ((org.apache.calcite.rel.core.Minus) call.rel(0)).all;
    }
  };

  @Override
  protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext, org.apache.calcite.plan.@Nullable Context externalContext,
      @Nullable RelOptCostFactory costFactory) {
    if (externalContext == null) {
      // the statement's cancel flag (see StatementPlanner.cancellable): Volcano's rule loop checks it
      externalContext = org.apache.calcite.plan.Contexts.of(prepareContext.config(),
          new org.apache.calcite.util.CancelFlag(StatementPlanner.planningCancel()));
    }
    RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
    planner.addRule(AccelTableModifyRule.INSTANCE);
    planner.addRule(AccelValues.RULE);
    // Calcite's semi-join rules turn a join with an Aggregate into a semi-join with the Aggregate's input
    // even when the Aggregate has no GROUP BY: a global aggregate returns one row over an empty input (COUNT
    // 0), so the semi-join with that empty input lost every row (SELECT DISTINCT v, CASE WHEN i IN (SELECT
    // ... WHERE false) ...). The same rules, for grouped aggregates only.
    planner.removeRule(CoreRules.PROJECT_TO_SEMI_JOIN);
    planner.removeRule(CoreRules.JOIN_TO_SEMI_JOIN);
    planner.addRule(PROJECT_TO_SEMI_JOIN);
    planner.addRule(JOIN_TO_SEMI_JOIN);
    // Calcite expands DISTINCT aggregates through GROUPING SETS ((v), ()), but its grouping-sets aggregate
    // emits no row for () over an empty input, so a COUNT(*) beside a COUNT(DISTINCT v) without GROUP BY
    // became NULL instead of 0. Aggregates without GROUP BY are expanded into joins of one-row aggregates.
    if (planner.getRules().contains(CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES)) {
      planner.removeRule(CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES);
      planner.addRule(EXPAND_DISTINCT_GROUPED);
      planner.addRule(EXPAND_DISTINCT_GLOBAL);
    }
    // Calcite's rewrite of COALESCE(SUM(x), 0) into SUM0(x) builds its aggregate through RelBuilder, which
    // re-derives SUM0's type as nullable for a nullable x (PostgreSQL's sum types, AccelTypeSystem): the NOT NULL
    // projection above it then failed to register (internal error on COALESCE(sum(c), 0) ... GROUP BY).
    planner.removeRule(CoreRules.PROJECT_AGGREGATE_MERGE);
    // A condition on the outer rows of a correlated sub-query is evaluated before the sub-query runs for them
    // (Calcite left it above the correlation: NOT IN (correlated ...) AND i BETWEEN 0 AND 1 ran the sub-query for
    // every row, as PostgreSQL evaluates the cheap condition first).
    planner.addRule(CoreRules.FILTER_CORRELATE);
    // Calcite merges (a EXCEPT ALL b) EXCEPT c into one EXCEPT of a, b and c, but a EXCEPT ALL b keeps the values a
    // holds more often than b, which a's distinct values EXCEPT b drops: only EXCEPTs of one kind are merged.
    if (planner.removeRule(CoreRules.MINUS_MERGE)) {
      planner.addRule(MINUS_MERGE);
    }
    // Merge joins, where scans return rows in key order (AccelScan.keyOrder), for inner joins only.
    if (planner.removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE)) {
      planner.addRule(MERGE_JOIN);
    }
    // Calcite's merge union pushes a LIMIT into each input of a UNION as well as UNION ALL, but a UNION's
    // inputs may hold duplicates that de-duplication then folds: ten rows of one input with three distinct
    // values gave three rows where PostgreSQL gave ten. For a UNION, only a sort without LIMIT is merged.
    if (planner.removeRule(EnumerableRules.ENUMERABLE_MERGE_UNION_RULE)) {
      planner.addRule(MERGE_UNION);
    }
    // Joins into an Accel table run as batched index lookup joins (LookupJoinRule, registered by AccelScan)
    // where Volcano finds them cheaper than the hash and merge joins.
    return planner;
  }
}
