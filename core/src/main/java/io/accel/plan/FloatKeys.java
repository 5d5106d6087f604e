package io.accel.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * A planning phase: -0 and 0 are one value where floats are grouped, as PostgreSQL's float comparison makes them.
 * Calcite groups (DISTINCT, GROUP BY, UNION, INTERSECT, EXCEPT, COUNT(DISTINCT)) by {@code Double.equals}, which
 * tells them apart, so {@code SELECT DISTINCT x} over 0 and -0 gave two rows. The grouped float fields are read
 * through {@code accel_float_key}, which turns -0 into 0 (a group shows 0 where PostgreSQL may show -0); the float
 * keys of joins, which a hash join compares the same way, are keyed by {@link NumericKeys#rewriteJoins}. The phase
 * runs after sub-query removal, so the groups removal made are keyed too.
 */
public final class FloatKeys {
  private FloatKeys() {
  }

  static final SqlUserDefinedFunction DOUBLE_KEY = keyFunction("accel_float_key", SqlTypeFamily.APPROXIMATE_NUMERIC,
      SqlTypeName.DOUBLE, FloatKeys.class, "doubleKey");

  static final SqlUserDefinedFunction REAL_KEY = keyFunction("accel_real_key", SqlTypeFamily.APPROXIMATE_NUMERIC,
      SqlTypeName.REAL, FloatKeys.class, "realKey");

  /** A grouping key function of one value, of the value's type: {@code owner.method(x)}, called by generated code. */
  static SqlUserDefinedFunction keyFunction(String name, SqlTypeFamily family, SqlTypeName type, Class<?> owner,
      String method) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0, InferTypes.FIRST_KNOWN, OperandTypes.operandMetadata(List.of(family),
            f -> List.of(f.createSqlType(type)), i -> "x", i -> false), ScalarFunctionImpl.create(owner, method));
  }

  // boxed: a nullable field's NULL reaches the function (a primitive parameter made it a NullPointerException)
  public static Double doubleKey(Double x) {
    return x != null && x == 0 ? Double.valueOf(0.0d) : x;
  }

  public static Float realKey(Float x) {
    return x != null && x == 0 ? Float.valueOf(0.0f) : x;
  }

  static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return PgExpressions.bottomUp(rel, node -> {
      if (node instanceof Aggregate aggregate) {
        Set<Integer> keys = new TreeSet<>(aggregate.getGroupSet().asList());
        for (AggregateCall call : aggregate.getAggCallList()) {
          if (call.isDistinct()) {
            keys.addAll(call.getArgList());
          }
        }
        RelNode input = keyed(aggregate.getInput(), keys);
        return input == aggregate.getInput() ? node
            : aggregate.copy(aggregate.getTraitSet(), List.of(input));
      }
      if (node instanceof SetOp setOp && !setOp.all) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : setOp.getInputs()) {
          Set<Integer> all = new TreeSet<>();
          for (int i = 0; i < in.getRowType().getFieldCount(); i++) {
            all.add(i);
          }
          RelNode keyed = keyed(in, all);
          changed |= keyed != in;
          inputs.add(keyed);
        }
        return changed ? setOp.copy(setOp.getTraitSet(), inputs) : node;
      }
      return node;
    });
  }

  /** {@code e}, a float, read through its key function. */
  static RexNode key(RexBuilder rexBuilder, RexNode e) {
    return rexBuilder.makeCall(e.getType(),
        e.getType().getSqlTypeName() == SqlTypeName.DOUBLE ? DOUBLE_KEY : REAL_KEY, List.of(e));
  }

  /** Whether {@code e} is a float not already read through a key function. */
  static boolean unkeyedFloat(RexNode e) {
    SqlTypeName type = e.getType().getSqlTypeName();
    return (type == SqlTypeName.DOUBLE || type == SqlTypeName.REAL)
        && !(e instanceof org.apache.calcite.rex.RexCall call
            && (call.getOperator() == DOUBLE_KEY || call.getOperator() == REAL_KEY));
  }

  /** {@code input} with its float fields among {@code fields} read through the key functions, or itself. */
  private static RelNode keyed(RelNode input, Set<Integer> fields) {
    RexBuilder rexBuilder = input.getCluster().getRexBuilder();
    List<RelDataTypeField> rowFields = input.getRowType().getFieldList();
    List<RexNode> projects = new ArrayList<>();
    boolean any = false;
    for (int i = 0; i < rowFields.size(); i++) {
      RexNode ref = rexBuilder.makeInputRef(input, i);
      SqlTypeName type = rowFields.get(i).getType().getSqlTypeName();
      if (fields.contains(i) && (type == SqlTypeName.DOUBLE || type == SqlTypeName.REAL)) {
        projects.add(key(rexBuilder, ref));
        any = true;
      } else {
        projects.add(ref);
      }
    }
    return any ? LogicalProject.create(input, List.of(), projects, input.getRowType().getFieldNames(), Set.of())
        : input;
  }
}
