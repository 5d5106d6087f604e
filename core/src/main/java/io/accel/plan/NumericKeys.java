package io.accel.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A planning phase: unconstrained NUMERIC values that differ only in trailing zeros (1.5 and 1.50, which such a
 * column keeps as written) are one value where rows are grouped or joined by them, as PostgreSQL's numeric equality
 * makes them; so are quotients, whose scale PostgreSQL's division picks per value. Calcite groups and hash-joins by
 * {@code BigDecimal.equals}, which tells them apart. A GROUP BY or
 * DISTINCT key of that type is grouped by {@code accel_numeric_key} (the value without trailing zeros) and shows the
 * group's first value ({@code MIN}, which keeps the first of equal values: 2.00 stays 2.00); a COUNT(DISTINCT) counts
 * the keys; an equality of two such values in a join condition compares the keys (pushed below the join by
 * JOIN_PUSH_EXPRESSIONS, so the join still hashes). UNION / INTERSECT / EXCEPT keep Calcite's comparison.
 */
public final class NumericKeys {
  private NumericKeys() {
  }

  static final SqlUserDefinedFunction KEY = FloatKeys.keyFunction("accel_numeric_key", SqlTypeFamily.NUMERIC,
      SqlTypeName.DECIMAL, NumericKeys.class, "numericKey");

  /** The value without trailing zeros (0 for any zero); NULL for NULL. Called by generated code. */
  public static @Nullable BigDecimal numericKey(@Nullable BigDecimal x) {
    if (x == null) {
      return null;
    }
    return x.signum() == 0 ? BigDecimal.ZERO : x.stripTrailingZeros();
  }

  static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return PgExpressions.bottomUp(rel, node -> {
      if (node instanceof LogicalAggregate aggregate && aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
        return aggregate(aggregate);
      }
      if (node instanceof org.apache.calcite.rel.core.SetOp setOp && !setOp.all && variableScaleColumns(setOp)) {
        // a UNION as the grouping of its UNION ALL, whose keys aggregate() compares (each row shows its value)
        if (setOp instanceof org.apache.calcite.rel.logical.LogicalUnion) {
          RelNode all = org.apache.calcite.rel.logical.LogicalUnion.create(setOp.getInputs(), true);
          return aggregate(LogicalAggregate.create(all, List.of(),
              ImmutableBitSet.range(all.getRowType().getFieldCount()), null, List.of()));
        }
      }
      if ((node instanceof org.apache.calcite.rel.core.Intersect || node instanceof org.apache.calcite.rel.core.Minus)
          && variableScaleColumns((org.apache.calcite.rel.core.SetOp) node)) {
        return keyedInputs((org.apache.calcite.rel.core.SetOp) node);
      }
      return node instanceof Join join ? keyedJoin(join) : node;
    });
  }

  private static boolean variableScaleColumns(org.apache.calcite.rel.core.SetOp setOp) {
    for (RelNode input : setOp.getInputs()) {
      for (RelDataTypeField field : input.getRowType().getFieldList()) {
        if (variableScale(field.getType())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * An INTERSECT or EXCEPT [ALL] comparing the keys of NUMERIC columns of variable scale: such a column shows its
   * value without trailing zeros (PostgreSQL shows the first input's value as written).
   */
  private static RelNode keyedInputs(org.apache.calcite.rel.core.SetOp setOp) {
    List<RelDataTypeField> outputs = setOp.getRowType().getFieldList();
    boolean[] keyed = new boolean[outputs.size()]; // the columns compared by key, the same in every input
    for (int i = 0; i < keyed.length; i++) {
      int column = i;
      keyed[i] = outputs.get(i).getType().getSqlTypeName() == SqlTypeName.DECIMAL && setOp.getInputs().stream()
          .anyMatch(in -> variableScale(in.getRowType().getFieldList().get(column).getType()));
    }
    List<RelNode> inputs = new ArrayList<>();
    for (RelNode input : setOp.getInputs()) {
      RexBuilder rexBuilder = input.getCluster().getRexBuilder();
      List<RexNode> projects = new ArrayList<>();
      for (int i = 0; i < keyed.length; i++) {
        RexNode ref = rexBuilder.makeInputRef(input, i);
        projects.add(keyed[i] ? rexBuilder.makeCall(ref.getType(), KEY, List.of(ref)) : ref);
      }
      inputs.add(LogicalProject.create(input, List.of(), projects, input.getRowType().getFieldNames(), Set.of()));
    }
    return setOp.copy(setOp.getTraitSet(), inputs, setOp.all);
  }

  /**
   * The joins compare keys as well, those removing sub-queries made ({@code x IN (SELECT avg(...) ...)}) included:
   * numeric keys, and float keys, -0 and 0 being one value ({@link FloatKeys}; {@code f * -1 IN (SELECT i ...)}
   * missed the row whose f is 0, as a hash join compares with {@code Double.equals}).
   */
  static RelNode rewriteJoins(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return PgExpressions.bottomUp(rel, node -> {
      if (node instanceof org.apache.calcite.rel.core.Filter filter && filter.getInput() instanceof Join) {
        // a WHERE over a comma join, whose equalities the planner moves into the join (avg(x) = n over a
        // comma join missed the rows whose quotient has more decimals than n)
        RexNode condition = keyed(filter.getCondition(), filter);
        return condition == filter.getCondition() ? filter
            : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
      }
      return node instanceof Join join ? keyedJoin(join) : node;
    });
  }

  /** {@code condition} of {@code rel} with its equalities of numeric or float values comparing keys. */
  private static RexNode keyed(RexNode condition, RelNode rel) {
    return condition.accept(new KeyedEquality(rel.getCluster().getRexBuilder()));
  }

  private static RelNode keyedJoin(Join join) {
    RexNode condition = keyed(join.getCondition(), join);
    return condition == join.getCondition() ? join : join.copy(join.getTraitSet(), condition, join.getLeft(),
        join.getRight(), join.getJoinType(), join.isSemiJoinDone());
  }

  private static boolean keyed(RexNode e) {
    return e instanceof RexCall call && call.getOperator() == KEY;
  }

  private static boolean variableScale(RelNode input, int field) {
    return variableScale(input.getRowType().getFieldList().get(field).getType());
  }

  /**
   * Whether values of this type may differ in trailing zeros: unconstrained NUMERIC, and the quotients (at least 16
   * decimals) whose scale PostgreSQL's division picks per value (avg(x) = 5.00000000000000000000 against 5 cast to
   * 16 decimals).
   */
  private static boolean variableScale(org.apache.calcite.rel.type.RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DECIMAL
        && (AccelTypeSystem.isUnconstrainedNumeric(type) || type.getScale() >= 16);
  }

  /** {@code aggregate} grouping and counting distinct unconstrained NUMERIC values by their keys, or itself. */
  private static RelNode aggregate(LogicalAggregate aggregate) {
    RelNode input = aggregate.getInput();
    List<Integer> groupKeys = aggregate.getGroupSet().asList();
    Map<Integer, Integer> keyed = new HashMap<>(); // input field -> the appended field holding its key
    for (int g : groupKeys) {
      if (variableScale(input, g)) {
        keyed.put(g, -1);
      }
    }
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.isDistinct()) {
        for (int arg : call.getArgList()) {
          if (variableScale(input, arg)) {
            keyed.put(arg, -1);
          }
        }
      }
    }
    if (keyed.isEmpty()) {
      return aggregate;
    }
    RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
    List<RelDataTypeField> fields = input.getRowType().getFieldList();
    List<RexNode> projects = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      projects.add(rexBuilder.makeInputRef(input, i));
      names.add(fields.get(i).getName());
    }
    for (int f : new java.util.TreeSet<>(keyed.keySet())) {
      keyed.put(f, projects.size());
      projects.add(rexBuilder.makeCall(fields.get(f).getType(), KEY, List.of(rexBuilder.makeInputRef(input, f))));
      names.add("accel_key" + f);
    }
    RelNode keyedInput = LogicalProject.create(input, List.of(), projects, names, Set.of());

    ImmutableBitSet.Builder groupSet = ImmutableBitSet.builder();
    for (int g : groupKeys) {
      groupSet.set(keyed.containsKey(g) ? keyed.get(g) : g);
    }
    ImmutableBitSet newGroup = groupSet.build();
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (!call.isDistinct()) {
        calls.add(call);
        continue;
      }
      List<Integer> args = call.getArgList().stream().map(a -> keyed.containsKey(a) ? keyed.get(a) : a).toList();
      calls.add(AggregateCall.create(call.getParserPosition(), call.getAggregation(), true, call.isApproximate(),
          call.ignoreNulls(), call.rexList, args, call.filterArg, call.distinctKeys, call.getCollation(),
          call.getType(), call.getName()));
    }
    // each keyed group key's shown value: the first of the group's equal values
    Map<Integer, Integer> shown = new HashMap<>(); // group key -> index of its MIN among the calls
    for (int g : groupKeys) {
      if (keyed.containsKey(g)) {
        shown.put(g, calls.size());
        calls.add(AggregateCall.create(SqlParserPos.ZERO, SqlStdOperatorTable.MIN, false, false, false, List.of(),
            List.of(g), -1, null, RelCollations.EMPTY, fields.get(g).getType(), "accel_shown" + g));
      }
    }
    LogicalAggregate grouped = LogicalAggregate.create(keyedInput, aggregate.getHints(), newGroup, null, calls);

    // the original layout: the group keys in their order, then the original calls
    List<Integer> newKeys = newGroup.asList();
    List<RexNode> outputs = new ArrayList<>();
    for (int g : groupKeys) {
      int position = keyed.containsKey(g) ? newKeys.size() + shown.get(g) : newKeys.indexOf(g);
      outputs.add(rexBuilder.makeInputRef(grouped, position));
    }
    for (int c = 0; c < aggregate.getAggCallList().size(); c++) {
      outputs.add(rexBuilder.makeInputRef(grouped, newKeys.size() + c));
    }
    return LogicalProject.create(grouped, List.of(), outputs, aggregate.getRowType().getFieldNames(), Set.of());
  }

  /** {@code a = b} of NUMERIC values, one of them of variable scale, as {@code key(a) = key(b)}. */
  private static final class KeyedEquality extends RexShuttle {
    private final RexBuilder rexBuilder;

    KeyedEquality(RexBuilder rexBuilder) {
      this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      if ((visited.getKind() == SqlKind.EQUALS || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
          && visited.getOperands().size() == 2 && visited.getOperands().stream().allMatch(FloatKeys::unkeyedFloat)) {
        return rexBuilder.makeCall(visited.getOperator(), FloatKeys.key(rexBuilder, visited.getOperands().get(0)),
            FloatKeys.key(rexBuilder, visited.getOperands().get(1)));
      }
      if (visited.getKind() == SqlKind.EQUALS && visited.getOperands().size() == 2
          && visited.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.DECIMAL
          && visited.getOperands().get(1).getType().getSqlTypeName() == SqlTypeName.DECIMAL
          && (variableScale(visited.getOperands().get(0).getType())
              || variableScale(visited.getOperands().get(1).getType()))
          && !keyed(visited.getOperands().get(0)) && !keyed(visited.getOperands().get(1))) {
        return rexBuilder.makeCall(visited.getOperator(),
            rexBuilder.makeCall(visited.getOperands().get(0).getType(), KEY, List.of(visited.getOperands().get(0))),
            rexBuilder.makeCall(visited.getOperands().get(1).getType(), KEY, List.of(visited.getOperands().get(1))));
      }
      return visited;
    }
  }
}
