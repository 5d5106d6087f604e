package io.accel.plan;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;

/**
 * Keeps the NULL of {@code x IN (sub-query)} where Calcite's simplifier would lose it. Calcite counts an IN whose
 * left operands are NOT NULL as never NULL (it takes IN for a comparison of those operands), but the sub-query's
 * NULLs make it NULL: {@code (x IN (SELECT v ...)) IS NOT FALSE} became the IN itself cast to NOT NULL (false
 * where PostgreSQL says true), and so did the same IN under IS [NOT] TRUE / FALSE, IS [NOT] DISTINCT FROM and in a
 * boolean CASE. There, between SQL conversion and sub-query removal, the IN sits inside an opaque identity
 * function the simplifier does not see through; once the sub-query is rewritten into joins the function is
 * removed.
 */
final class InSubQueryValues {
  private InSubQueryValues() {}

  /** The identity on an IN sub-query's value, typed nullable. Never reaches execution. */
  static final SqlFunction KEEP_UNKNOWN = new SqlFunction("$IN_VALUE", SqlKind.OTHER_FUNCTION,
      ReturnTypes.BOOLEAN_FORCE_NULLABLE, null, OperandTypes.BOOLEAN, SqlFunctionCategory.SYSTEM);

  private static final Set<SqlKind> TRUTH_TESTS = EnumSet.of(SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE,
      SqlKind.IS_NOT_FALSE, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM);

  /** Whether the operands of calls of {@code call}'s kind may need wrapping (see {@link #convertlet}). */
  static boolean mayApply(SqlCall call) {
    return TRUTH_TESTS.contains(call.getKind()) || call.getKind() == SqlKind.CASE;
  }

  /**
   * {@code standard}, with the nullable IN sub-queries among the operands of a truth test or a boolean CASE
   * wrapped in {@link #KEEP_UNKNOWN}.
   */
  static SqlRexConvertlet convertlet(SqlRexConvertlet standard) {
    return (cx, call) -> {
      org.apache.calcite.rel.type.RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(call);
      boolean applies = TRUTH_TESTS.contains(call.getKind())
          || type != null && type.getSqlTypeName() == SqlTypeName.BOOLEAN;
      return standard.convertCall(applies ? wrapping(cx) : cx, call);
    };
  }

  private static SqlRexContext wrapping(SqlRexContext cx) {
    return (SqlRexContext) Proxy.newProxyInstance(InSubQueryValues.class.getClassLoader(),
        new Class<?>[] {SqlRexContext.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(cx, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("convertExpression") && args != null && args.length == 1
              && args[0] instanceof SqlNode && result instanceof RexNode value) {
            return wrap(cx.getRexBuilder(), value);
          }
          return result;
        });
  }

  /** {@code value} with a nullable IN sub-query, alone or under NOT ({@code x NOT IN (...)}), wrapped. */
  private static RexNode wrap(org.apache.calcite.rex.RexBuilder rexBuilder, RexNode value) {
    if (value instanceof RexSubQuery subQuery && subQuery.getKind() == SqlKind.IN && subQuery.getType().isNullable()) {
      return rexBuilder.makeCall(KEEP_UNKNOWN, subQuery);
    }
    if (value.getKind() == SqlKind.NOT && value instanceof RexCall not) {
      RexNode operand = wrap(rexBuilder, not.getOperands().get(0));
      return operand == not.getOperands().get(0) ? value : rexBuilder.makeCall(not.getOperator(), operand);
    }
    return value;
  }

  /** The plan without {@link #KEEP_UNKNOWN}: after sub-query removal (no sub-query is left to look into). */
  static RelNode unwrap(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      java.util.List<RelOptMaterialization> materializations, java.util.List<RelOptLattice> lattices) {
    RexShuttle unwrap = new RexShuttle() {
      @Override
      public RexNode visitCall(RexCall call) {
        if (call.getOperator() != KEEP_UNKNOWN) {
          // an AND or OR whose operand was a removed IN's AND or OR is flattened, as conditions must be
          RexNode visited = super.visitCall(call);
          return visited != call && (visited.getKind() == SqlKind.AND || visited.getKind() == SqlKind.OR)
              ? org.apache.calcite.rex.RexUtil.flatten(rel.getCluster().getRexBuilder(), visited) : visited;
        }
        RexNode value = call.getOperands().get(0).accept(this);
        return value.getType().equals(call.getType()) ? value
            : rel.getCluster().getRexBuilder().makeAbstractCast(call.getType(), value, false);
      }
    };
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return super.visit(other).accept(unwrap);
      }
    });
  }
}
