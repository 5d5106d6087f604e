package io.accel.plan;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil.Logic;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.tools.RelBuilder;

/**
 * Which of TRUE, FALSE and UNKNOWN a boolean sub-query must tell apart where it is used, for sub-query removal.
 * Calcite's {@code LogicVisitor} carries the logic of IS TRUE, IS FALSE or NOT into every operand below it, also
 * through calls that are not boolean connectives: in {@code (x IN (SELECT ...)) IS NOT DISTINCT FROM (y > 0)},
 * which Calcite writes {@code IS TRUE(IN = (y > 0))}, the IN then counted its UNKNOWN as FALSE, and FALSE = FALSE
 * made the row true. Here only AND, OR and NOT pass a logic on; any other call needs its operands' three values.
 */
final class SubQueryLogic {
  private SubQueryLogic() {}

  /** The logic {@code seek} needs at every place it occurs in {@code nodes}, evaluated under {@code root}. */
  static Logic find(Logic root, List<RexNode> nodes, RexNode seek) {
    Set<Logic> found = EnumSet.noneOf(Logic.class);
    for (RexNode node : nodes) {
      collect(node, root, seek, found);
    }
    // FALSE exists only while collecting (as in Calcite): a caller asks for UNKNOWN as TRUE
    if (found.remove(Logic.FALSE)) {
      found.add(Logic.UNKNOWN_AS_TRUE);
    }
    return found.size() == 1 ? found.iterator().next() : Logic.TRUE_FALSE_UNKNOWN;
  }

  private static void collect(RexNode node, Logic logic, RexNode seek, Set<Logic> found) {
    if (node.equals(seek)) {
      found.add(node instanceof RexSubQuery subQuery && !subQuery.getType().isNullable()
          && logic == Logic.TRUE_FALSE_UNKNOWN ? Logic.TRUE_FALSE : logic);
      return;
    }
    if (!(node instanceof RexCall call) || node instanceof RexSubQuery) {
      return;
    }
    Logic operands = switch (call.getKind()) {
      case IS_TRUE, IS_NOT_TRUE -> Logic.UNKNOWN_AS_FALSE;
      case IS_FALSE, IS_NOT_FALSE -> Logic.UNKNOWN_AS_TRUE;
      case NOT -> logic.negate2();
      // under TRUE (a condition) only AND keeps it, as in Calcite
      case AND -> logic;
      case OR -> logic == Logic.TRUE ? Logic.TRUE_FALSE_UNKNOWN : logic;
      default -> Logic.TRUE_FALSE_UNKNOWN;
    };
    for (RexNode operand : call.getOperands()) {
      collect(operand, operands, seek, found);
    }
  }

  /** The condition a rule in this thread is removing sub-queries of (a filter's or a join's: logic TRUE). */
  private static final ThreadLocal<RexNode> CONDITION = new ThreadLocal<>();

  /** Calcite's sub-query removal from a filter's condition, with this class's logic. */
  static final RelOptRule FILTER = new Rule(SubQueryRemoveRule.Config.FILTER,
      call -> ((Filter) call.rel(0)).getCondition());

  /** Calcite's sub-query removal from a join's condition, with this class's logic. */
  static final RelOptRule JOIN = new Rule(SubQueryRemoveRule.Config.JOIN,
      call -> ((Join) call.rel(0)).getCondition());

  /** Calcite's rule and handler; {@link #apply} recomputes the logic Calcite's handler found. */
  private static final class Rule extends SubQueryRemoveRule {
    Rule(Config config, java.util.function.Function<org.apache.calcite.plan.RelOptRuleCall, RexNode> condition) {
      super(config.withMatchHandler((rule, call) -> {
        CONDITION.set(condition.apply(call));
        try {
          config.matchHandler().accept(rule, call);
        } finally {
          CONDITION.remove();
        }
      }));
    }

    @Override
    protected RexNode apply(RexSubQuery e, Set<CorrelationId> variablesSet, Logic logic, RelBuilder builder,
        int inputCount, int offset, int subQueryIndex) {
      RexNode condition = CONDITION.get();
      Logic own = condition == null ? logic : find(Logic.TRUE, List.of(condition), e);
      return super.apply(e, variablesSet, own, builder, inputCount, offset, subQueryIndex);
    }
  }
}
