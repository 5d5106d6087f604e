package io.accel.plan;

import io.accel.catalog.TableDef;
import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.ScanPlan;
import io.accel.plan.AccessPath.KeyBound;
import io.accel.plan.AccessPath.PlanInterval;
import io.accel.plan.AccessPath.PlanValue;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;

/**
 * The {@link AccelScan} the planner chose, in the Enumerable convention: generates code that computes the
 * key values of each execution (parameters, correlation variables), compiles the ICP and residual
 * predicates, and hands them with the {@link ScanPlan} to {@link io.accel.exec.IndexScan}.
 */
public final class AccelEnumerableScan extends AccelScan implements EnumerableRel {
  AccelEnumerableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, AccelTable accelTable,
      RexNode condition, int[] projection, List<RelFieldCollation> order, AccessPath path) {
    super(cluster, traits, table, accelTable, condition, projection, order, path);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaTypeFactory typeFactory = implementor.getTypeFactory();
    RelDataType tableType = getTable().getRowType();
    PhysType tablePhysType = PhysTypeImpl.of(typeFactory, tableType, JavaRowFormat.ARRAY, false);
    BlockBuilder builder = new BlockBuilder();

    List<RexNode> runtimeValues = new ArrayList<>();
    ScanPlan plan = scanPlan(accelTable().definition(), path(), projection(), runtimeValues);
    Expression slots;
    if (runtimeValues.isEmpty()) {
      slots = Expressions.constant(null, Object[].class);
    } else {
      RexProgramBuilder pb = new RexProgramBuilder(tableType, getCluster().getRexBuilder());
      for (int i = 0; i < runtimeValues.size(); i++) {
        pb.addProject(runtimeValues.get(i), "k" + i);
      }
      RexProgram program = pb.getProgram(false);
      ParameterExpression unused = Expressions.parameter(Object[].class, builder.newName("accelNoRow"));
      List<Expression> values = RexToLixTranslator.translateProjects(program, typeFactory,
          implementor.getConformance(), builder,
          PhysTypeImpl.of(typeFactory, program.getOutputRowType(), JavaRowFormat.ARRAY), DataContext.ROOT,
          new RexToLixTranslator.InputGetterImpl(unused, tablePhysType), implementor::getCorrelVariableGetter);
      List<Expression> boxed = new ArrayList<>();
      for (Expression v : values) {
        boxed.add(Expressions.box(v));
      }
      slots = builder.append(builder.newName("accelKeys"), Expressions.newArrayInit(Object.class, boxed));
    }
    Expression icp = predicate(implementor, builder, path().icp(), tablePhysType);
    Expression residual = predicate(implementor, builder, path().residual(), tablePhysType);
    Expression stats = analyzeStats == null ? Expressions.constant(null, ScanStats.class)
        : implementor.stash(analyzeStats, ScanStats.class);
    PhysType physType = PhysTypeImpl.of(typeFactory, getRowType(), JavaRowFormat.ARRAY);
    // A single column is a scalar row in Enumerable code (the array format of one field is optimised away).
    String method = physType.getFormat() == JavaRowFormat.SCALAR ? "scalars" : "rows";
    builder.add(Expressions.return_(null, Expressions.call(ScanRuntime.class, method, DataContext.ROOT,
        implementor.stash(plan, ScanPlan.class), slots, icp, residual, stats)));
    return implementor.result(physType, builder.toBlock());
  }

  private Expression predicate(EnumerableRelImplementor implementor, BlockBuilder outer, RexNode condition,
      PhysType tablePhysType) {
    if (condition == null) {
      return Expressions.constant(null, Predicate1.class);
    }
    ParameterExpression row = Expressions.parameter(Object[].class, outer.newName("accelRow"));
    return outer.append(outer.newName("accelPredicate"), Expressions.lambda(Predicate1.class,
        conditionBody(implementor, getCluster().getRexBuilder(), outer, condition, getTable().getRowType(),
            new RexToLixTranslator.InputGetterImpl(row, tablePhysType), implementor::getCorrelVariableGetter), row));
  }

  /**
   * The body of a predicate Accel compiles itself (a scan's ICP and residual, a lookup join's predicates):
   * {@code condition} over {@code rowType}, read through {@code inputs}, returned as a primitive boolean. Casts that
   * only make a nullable value NOT NULL are removed first ({@link PgExpressions#nullSafeCasts}), and the test is
   * wrapped in {@code isTrue}: once its block is optimized, a condition can inline to {@code v == null ? false : v},
   * which linq4j types as Object, and the lambda became a Function1 that Janino refused as a predicate ({@code (i
   * IN (NULL, 1)) IS NOT NULL}).
   */
  static BlockStatement conditionBody(EnumerableRelImplementor implementor, RexBuilder rexBuilder, BlockBuilder outer,
      RexNode condition, RelDataType rowType, RexToLixTranslator.InputGetter inputs,
      Function1<String, RexToLixTranslator.InputGetter> correlates) {
    RexProgramBuilder pb = new RexProgramBuilder(rowType, rexBuilder);
    pb.addCondition(PgExpressions.nullSafeCasts(condition, rexBuilder));
    BlockBuilder body = new BlockBuilder();
    Expression test = RexToLixTranslator.translateCondition(pb.getProgram(false), implementor.getTypeFactory(), body,
        inputs, correlates, implementor.getConformance());
    body.add(Expressions.return_(null, Expressions.call(org.apache.calcite.runtime.SqlFunctions.class, "isTrue",
        Expressions.convert_(test, Boolean.class))));
    return PerExecutionValues.hoist(body.toBlock(), outer);
  }

  /** The runtime form of an access path; runtime bound values are added to {@code runtimeValues}. */
  static ScanPlan scanPlan(TableDef t, AccessPath path, int[] projection, List<RexNode> runtimeValues) {
    List<ScanPlan.KeyColumn> keys = new ArrayList<>();
    for (KeyBound k : path.keys()) {
      List<ScanPlan.Interval> intervals = new ArrayList<>();
      for (PlanInterval i : k.intervals()) {
        if (i.nullPoint()) {
          intervals.add(ScanPlan.Interval.isNull());
        } else if (i.isPoint()) {
          intervals.add(ScanPlan.Interval.point(keyValue(i.low(), runtimeValues)));
        } else {
          intervals.add(new ScanPlan.Interval(
              i.low() == null ? null : new ScanPlan.Bound(keyValue(i.low(), runtimeValues), i.lowInclusive()),
              i.high() == null ? null : new ScanPlan.Bound(keyValue(i.high(), runtimeValues), i.highInclusive()),
              false));
        }
      }
      keys.add(new ScanPlan.KeyColumn(k.column(), ScanPlan.keyType(t, path.index(), k.column()), k.descending(),
          intervals,
          tail(t, k.lowTail(), runtimeValues), tail(t, k.highTail(), runtimeValues)));
    }
    int[] residualColumns = path.residual() == null ? null
        : org.apache.calcite.plan.RelOptUtil.InputFinder.bits(path.residual()).toArray();
    return new ScanPlan(t, path.index(), keys, path.reverse(), projection, path.covering(), residualColumns);
  }

  private static ScanPlan.Tail tail(TableDef t, AccessPath.Tail tail, List<RexNode> runtimeValues) {
    if (tail == null) {
      return null;
    }
    List<io.accel.catalog.DataType> types = new ArrayList<>();
    List<ScanPlan.KeyValue> values = new ArrayList<>();
    for (int i = 0; i < tail.columns().size(); i++) {
      types.add(t.columns().get(tail.columns().get(i)).type());
      values.add(keyValue(tail.values().get(i), runtimeValues));
    }
    return new ScanPlan.Tail(types, values, tail.inclusive());
  }

  private static ScanPlan.KeyValue keyValue(PlanValue v, List<RexNode> runtimeValues) {
    if (v.isConstant()) {
      return ScanPlan.KeyValue.of(v.constant());
    }
    int slot = runtimeValues.indexOf(v.expr());
    if (slot < 0) {
      slot = runtimeValues.size();
      runtimeValues.add(v.expr());
    }
    return ScanPlan.KeyValue.slot(slot);
  }

}
