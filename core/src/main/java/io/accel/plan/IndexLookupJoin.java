package io.accel.plan;

import io.accel.catalog.TableDef;
import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.LookupJoin;
import io.accel.exec.ScanPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator.InputGetter;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator.InputGetterImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Predicate2;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Pair;

/**
 * An index lookup join (Readyset's straddled-join plan): the outer input is read in batches and each
 * distinct join key of a batch is looked up once in the inner table, through the access path of
 * {@code innerScan}, whose key bounds read the key values through the correlation variable
 * {@code correlation} (field i is {@code keys[i]}, an expression of the outer row). The inner side's own
 * predicates are part of that scan: the composite bound, Index Condition Pushdown on the index entry, the
 * residual after the fetch. {@code condition} is what remains of the join condition, evaluated on each
 * (outer, inner) pair over outer fields followed by the inner scan's fields. Executed by {@link LookupJoin}.
 */
public final class IndexLookupJoin extends SingleRel implements EnumerableRel {
  private final AccelScan innerScan;
  private final LookupJoin.Kind kind;
  private final boolean innerFirst;
  private final CorrelationId correlation;
  private final List<RexNode> keys;
  private final RexNode condition;
  private final RelDataType joinRowType;
  /** For LEFT_FIRST: per output field after the outer ones, the inner field it takes, or -1 for TRUE. */
  private final int[] mark;
  /** The inner rows as the join sees them (expressions of the scan's fields), or null: the scan's rows. */
  private final List<RexNode> innerProject;
  ScanStats analyzeStats;

  /** The scan of the inner table each lookup runs. */
  AccelScan innerScan() {
    return innerScan;
  }

  IndexLookupJoin(RelOptCluster cluster, RelTraitSet traits, RelNode outer, AccelScan innerScan, LookupJoin.Kind kind,
      boolean innerFirst, CorrelationId correlation, List<RexNode> keys, RexNode condition, RelDataType joinRowType,
      int[] mark, List<RexNode> innerProject) {
    super(cluster, traits, outer);
    this.innerScan = innerScan;
    this.kind = kind;
    this.innerFirst = innerFirst;
    this.correlation = correlation;
    this.keys = List.copyOf(keys);
    this.condition = condition;
    this.joinRowType = joinRowType;
    this.mark = mark;
    this.innerProject = innerProject == null ? null : List.copyOf(innerProject);
  }

  /** Collects the counts of the lookups while EXPLAIN ANALYZE runs the plan. */
  void analyzeInto(ScanStats stats) {
    this.analyzeStats = stats;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    IndexLookupJoin copy = new IndexLookupJoin(getCluster(), traitSet, sole(inputs), innerScan, kind, innerFirst,
        correlation, keys, condition, joinRowType, mark, innerProject);
    copy.analyzeStats = analyzeStats;
    return copy;
  }

  @Override
  protected RelDataType deriveRowType() {
    return joinRowType;
  }

  private AccessPath path() {
    return innerScan.path();
  }

  /** Rows each lookup returns, before the join's remaining condition. */
  private double rowsPerLookup() {
    return path().estimate().rows();
  }

  /** The outer rows the planner expects now (Volcano re-costs this join as its input's best plan improves). */
  private double outerRows(RelMetadataQuery mq) {
    Double rows = mq.getRowCount(getInput());
    return rows == null ? 1 : Math.max(1, rows);
  }

  /**
   * Lookups: each batch looks up its distinct keys once. Of d distinct keys spread evenly, a batch of b rows
   * holds d * (1 - (1 - 1/d)^b).
   */
  private double lookups(RelMetadataQuery mq) {
    double outerRows = outerRows(mq);
    ImmutableBitSet.Builder fields = ImmutableBitSet.builder();
    for (RexNode k : keys) {
      if (!(k instanceof RexInputRef ref)) {
        return outerRows;
      }
      fields.set(ref.getIndex());
    }
    Double distinct = mq.getDistinctRowCount(getInput(), fields.build(), null);
    if (distinct == null || distinct <= 0 || distinct >= outerRows) {
      return outerRows;
    }
    double batch = Math.min(outerRows, LookupJoin.MAX_BATCH);
    double perBatch = distinct * (1 - Math.pow(1 - 1 / distinct, batch));
    return Math.min(outerRows, Math.max(distinct, outerRows / batch * perBatch));
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    double outerRows = outerRows(mq);
    double perOuter = rowsPerLookup() * (condition == null ? 1 : RelMdUtil.guessSelectivity(condition));
    return switch (kind) {
      case INNER -> Math.max(1, outerRows * perOuter);
      case LEFT -> Math.max(1, outerRows * Math.max(1, perOuter));
      case LEFT_FIRST -> outerRows;
      case SEMI -> Math.max(1, outerRows * Math.min(1, perOuter));
      case ANTI -> Math.max(1, outerRows * Math.max(0.1, 1 - Math.min(1, perOuter)));
    };
  }

  /**
   * Each lookup costs what the inner scan's path costs for one key; every outer row is hashed into its
   * batch's key map, and every pair the lookups return is evaluated and emitted.
   */
  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double outerRows = outerRows(mq);
    double lookups = lookups(mq);
    double pairs = outerRows * rowsPerLookup();
    double cost = lookups * path().estimate().cost() + outerRows * AccessPathPlanner.EVAL * 2
        + pairs * AccessPathPlanner.EVAL * (condition == null ? 1 : 2);
    return planner.getCostFactory().makeCost(cost, cost, 0);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    AccessPath p = path();
    String access = p.index() != null ? "index " + p.index().name() : "primary key";
    return super.explainTerms(pw)
        .item("type", kind == LookupJoin.Kind.LEFT_FIRST ? "left, first match" : kind.name().toLowerCase(Locale.ROOT))
        .item("table", innerScan.getTable().getQualifiedName())
        .item("access", access)
        .item("lookup key", outerNames(innerScan.describeKeys()))
        .itemIf("icp", p.icp() == null ? "" : outerNames(innerScan.names(p.icp())), p.icp() != null)
        .itemIf("residual", p.residual() == null ? "" : outerNames(innerScan.names(p.residual())),
            p.residual() != null)
        .itemIf("join filter", condition == null ? "" : joinNames(condition), condition != null)
        .itemIf("covering", true, p.covering())
        .itemIf("columns", innerColumns(), innerScan.projection() != null)
        .itemIf("output", "inner columns first", innerFirst)
        .itemIf("match columns", mark == null ? "" : java.util.Arrays.toString(mark), mark != null)
        .itemIf("inner rows", innerProject == null ? "" : joinNames(RexUtil.shift(
            getCluster().getRexBuilder().makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.ROW, innerProject),
            getInput().getRowType().getFieldCount())), innerProject != null)
        // not in the digest: the outer side's estimate changes as Volcano finds better plans for it
        .itemIf("est. lookups", pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES ? 0
            : Math.round(lookups(getCluster().getMetadataQuery())), pw.getDetailLevel() != SqlExplainLevel.DIGEST_ATTRIBUTES)
        .item("est. rows per lookup", String.format(Locale.ROOT, "%.2f", rowsPerLookup()));
  }

  /** A rendering with each key field ($corN.kI) replaced by the outer expression it stands for. */
  private String outerNames(String text) {
    String out = text;
    for (int i = keys.size() - 1; i >= 0; i--) {
      out = out.replace("$" + correlation.getName().substring(1) + ".k" + i, outer(keys.get(i)));
      out = out.replace(correlation.getName() + ".k" + i, outer(keys.get(i)));
    }
    return out;
  }

  /** Every expression the join evaluates: its keys, its pushed condition, the inner projection. */
  List<RexNode> expressions() {
    List<RexNode> all = new ArrayList<>(keys);
    if (condition != null) {
      all.add(condition);
    }
    if (innerProject != null) {
      all.addAll(innerProject);
    }
    return all;
  }

  private String outer(RexNode e) {
    List<RelDataTypeField> fields = getInput().getRowType().getFieldList();
    return AccelScan.rename(e.toString(), i -> i < fields.size() ? fields.get(i).getName() : null);
  }

  private String joinNames(RexNode e) {
    List<RelDataTypeField> outerFields = getInput().getRowType().getFieldList();
    List<RelDataTypeField> innerFields = innerScan.getRowType().getFieldList();
    return AccelScan.rename(e.toString(), i -> i < outerFields.size() ? outerFields.get(i).getName()
        : i - outerFields.size() < innerFields.size() ? innerScan.getTable().getQualifiedName().get(
            innerScan.getTable().getQualifiedName().size() - 1) + "." + innerFields.get(i - outerFields.size()).getName()
        : null);
  }

  private String innerColumns() {
    TableDef t = innerScan.accelTable().definition();
    if (innerScan.projection() == null) {
      return "";
    }
    List<String> names = new ArrayList<>();
    for (int c : innerScan.projection()) {
      names.add(t.columns().get(c).name());
    }
    return String.join(", ", names);
  }

  // ---------------------------------------------------------------- code generation

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaTypeFactory typeFactory = implementor.getTypeFactory();
    BlockBuilder builder = new BlockBuilder();
    Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    Expression outer = builder.append(builder.newName("lookupOuter"), child.block);
    RelDataType outerType = getInput().getRowType();
    PhysType outerArray = PhysTypeImpl.of(typeFactory, outerType, JavaRowFormat.ARRAY, false);
    if (child.physType.getFormat() != JavaRowFormat.ARRAY) {
      ParameterExpression o = Expressions.parameter(child.physType.getJavaRowType(), builder.newName("lookupIn"));
      List<Expression> fields = new ArrayList<>();
      for (int i = 0; i < outerType.getFieldCount(); i++) {
        fields.add(Expressions.box(child.physType.fieldReference(o, i)));
      }
      outer = builder.append(builder.newName("lookupOuterRows"), Expressions.call(outer,
          BuiltInMethod.SELECT.method, Expressions.lambda(Function1.class,
              Expressions.newArrayInit(Object.class, fields), o)));
    }
    RelDataType tableType = innerScan.getTable().getRowType();
    PhysType tablePhysType = PhysTypeImpl.of(typeFactory, tableType, JavaRowFormat.ARRAY, false);
    RelDataType keyType = keyRowType();
    PhysType keyPhysType = PhysTypeImpl.of(typeFactory, keyType, JavaRowFormat.ARRAY, false);

    // keyOf: the outer row's key values
    ParameterExpression row = Expressions.parameter(Object[].class, builder.newName("lookupRow"));
    Expression keyOf = builder.append(builder.newName("lookupKeyOf"), Expressions.lambda(Function1.class,
        values(implementor, outerType, keys, new InputGetterImpl(row, outerArray), null, null), row));

    // slots: the inner scan's runtime bound values for a key
    List<RexNode> runtimeValues = new ArrayList<>();
    ScanPlan plan = AccelEnumerableScan.scanPlan(innerScan.accelTable().definition(), path(),
        innerScan.projection(), runtimeValues);
    ParameterExpression key = Expressions.parameter(Object[].class, builder.newName("lookupKey"));
    ParameterExpression unused = Expressions.parameter(Object[].class, builder.newName("lookupNoRow"));
    Expression slots = builder.append(builder.newName("lookupSlots"), Expressions.lambda(Function1.class,
        values(implementor, tableType, runtimeValues, new InputGetterImpl(unused, tablePhysType), key, keyPhysType),
        key));

    Expression icp = predicate(implementor, builder, path().icp(), tableType, tablePhysType, keyPhysType);
    Expression residual = predicate(implementor, builder, path().residual(), tableType, tablePhysType, keyPhysType);
    Expression joinCondition = joinPredicate(implementor, builder, outerArray);
    Expression stats = analyzeStats == null ? Expressions.constant(null, ScanStats.class)
        : implementor.stash(analyzeStats, ScanStats.class);
    LookupJoin.Spec spec = new LookupJoin.Spec(plan, kind, innerFirst,
        mark != null ? mark.length : innerProject != null ? innerProject.size()
            : innerScan.getRowType().getFieldCount(), mark);
    Expression reshape = Expressions.constant(null, Function1.class);
    if (innerProject != null) {
      RelDataType innerType = innerScan.getRowType();
      ParameterExpression innerRow = Expressions.parameter(Object[].class, builder.newName("lookupInner"));
      reshape = builder.append(builder.newName("lookupReshape"), Expressions.lambda(Function1.class,
          values(implementor, innerType, innerProject,
              new InputGetterImpl(innerRow, PhysTypeImpl.of(typeFactory, innerType, JavaRowFormat.ARRAY, false)),
              null, null), innerRow));
    }
    PhysType physType = PhysTypeImpl.of(typeFactory, getRowType(), JavaRowFormat.ARRAY);
    String method = physType.getFormat() == JavaRowFormat.SCALAR ? "lookupJoinScalars" : "lookupJoin";
    builder.add(Expressions.return_(null, Expressions.call(ScanRuntime.class, method, DataContext.ROOT, outer,
        implementor.stash(spec, LookupJoin.Spec.class), keyOf, slots, icp, residual, joinCondition, reshape,
        stats)));
    return implementor.result(physType, builder.toBlock());
  }

  private RelDataType keyRowType() {
    var b = getCluster().getTypeFactory().builder();
    for (int i = 0; i < keys.size(); i++) {
      b.add("k" + i, keys.get(i).getType());
    }
    return b.build();
  }

  /** A block returning an Object[] of the expressions' values; the key variable reads {@code key}. */
  private org.apache.calcite.linq4j.tree.BlockStatement values(EnumerableRelImplementor implementor,
      RelDataType inputType, List<RexNode> exprs, InputGetter input, ParameterExpression key, PhysType keyPhysType) {
    BlockBuilder body = new BlockBuilder();
    List<Expression> boxed = new ArrayList<>();
    if (!exprs.isEmpty()) {
      RexProgramBuilder pb = new RexProgramBuilder(inputType, getCluster().getRexBuilder());
      for (int i = 0; i < exprs.size(); i++) {
        pb.addProject(exprs.get(i), "v" + i);
      }
      RexProgram program = pb.getProgram(false);
      List<Expression> values = RexToLixTranslator.translateProjects(program, implementor.getTypeFactory(),
          implementor.getConformance(), body,
          PhysTypeImpl.of(implementor.getTypeFactory(), program.getOutputRowType(), JavaRowFormat.ARRAY),
          DataContext.ROOT, input, correlates(implementor, key, keyPhysType));
      for (Expression v : values) {
        boxed.add(Expressions.box(v));
      }
    }
    body.add(Expressions.return_(null, Expressions.newArrayInit(Object.class, boxed)));
    return body.toBlock();
  }

  private Function1<String, InputGetter> correlates(EnumerableRelImplementor implementor, ParameterExpression key,
      PhysType keyPhysType) {
    return name -> key != null && name.equals(correlation.getName()) ? new InputGetterImpl(key, keyPhysType)
        : implementor.getCorrelVariableGetter(name);
  }

  /** A Predicate2 (table row, key) for an ICP or residual predicate, or a null constant. */
  private Expression predicate(EnumerableRelImplementor implementor, BlockBuilder outer, RexNode predicate,
      RelDataType tableType, PhysType tablePhysType, PhysType keyPhysType) {
    if (predicate == null) {
      return Expressions.constant(null, Predicate2.class);
    }
    ParameterExpression row = Expressions.parameter(Object[].class, outer.newName("lookupEntry"));
    ParameterExpression key = Expressions.parameter(Object[].class, outer.newName("lookupKey"));
    return outer.append(outer.newName("lookupPredicate"), Expressions.lambda(Predicate2.class,
        AccelEnumerableScan.conditionBody(implementor, getCluster().getRexBuilder(), outer, predicate, tableType,
            new InputGetterImpl(row, tablePhysType), correlates(implementor, key, keyPhysType)), row, key));
  }

  /** A Predicate2 (outer row, inner row) for the join's remaining condition, or a null constant. */
  private Expression joinPredicate(EnumerableRelImplementor implementor, BlockBuilder outer, PhysType outerArray) {
    if (condition == null) {
      return Expressions.constant(null, Predicate2.class);
    }
    JavaTypeFactory typeFactory = implementor.getTypeFactory();
    RelDataType innerType = innerScan.getRowType();
    PhysType innerArray = PhysTypeImpl.of(typeFactory, innerType, JavaRowFormat.ARRAY, false);
    var b = typeFactory.builder();
    int n = 0;
    for (RelDataTypeField f : getInput().getRowType().getFieldList()) {
      b.add("f" + n++, f.getType());
    }
    for (RelDataTypeField f : innerType.getFieldList()) {
      b.add("f" + n++, f.getType());
    }
    ParameterExpression left = Expressions.parameter(Object[].class, outer.newName("lookupOuterRow"));
    ParameterExpression right = Expressions.parameter(Object[].class, outer.newName("lookupInnerRow"));
    return outer.append(outer.newName("lookupCondition"), Expressions.lambda(Predicate2.class,
        AccelEnumerableScan.conditionBody(implementor, getCluster().getRexBuilder(), outer, condition, b.build(),
            new InputGetterImpl(List.of(Pair.of(left, outerArray), Pair.of(right, innerArray))),
            implementor::getCorrelVariableGetter), left, right));
  }
}
