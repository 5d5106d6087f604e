package io.accel.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Prepares a filter over an inner join whose condition is an OR of conjunctions (TPC-H Q19's shape): pulls
 * the conjuncts every branch shares out of the OR ({@code (a AND b) OR (a AND c)} becomes {@code a AND
 * (b OR c)}), so a shared join key becomes an equi-join condition; and, as PostgreSQL does, derives for
 * each input the OR of what each branch requires of that input alone, added as a filter on that input
 * (implied by the condition, which stays). Those filters can then use the inputs' indexes.
 */
final class OrRestrictionRule extends RelOptRule {
  static final OrRestrictionRule INSTANCE = new OrRestrictionRule();

  private OrRestrictionRule() {
    super(operand(LogicalFilter.class, operandJ(LogicalJoin.class, null,
        j -> j.getJoinType() == JoinRelType.INNER, any())), "AccelOrRestrictionRule");
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalFilter filter = call.rel(0);
    LogicalJoin join = call.rel(1);
    RexNode condition = filter.getCondition();
    if (RexUtil.SubQueryFinder.find(condition) != null || RexUtil.containsCorrelation(condition)) {
      return;
    }
    RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
    RexNode pulled = RexUtil.pullFactors(rexBuilder, condition);
    int leftCount = join.getLeft().getRowType().getFieldCount();
    int total = join.getRowType().getFieldCount();
    ImmutableBitSet leftBits = ImmutableBitSet.range(0, leftCount);
    ImmutableBitSet rightBits = ImmutableBitSet.range(leftCount, total);
    List<RexNode> leftDerived = new ArrayList<>();
    List<RexNode> rightDerived = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(pulled)) {
      if (c.getKind() != SqlKind.OR) {
        continue;
      }
      RexNode l = restriction(rexBuilder, c, leftBits);
      if (l != null) {
        leftDerived.add(l);
      }
      RexNode r = restriction(rexBuilder, c, rightBits);
      if (r != null) {
        rightDerived.add(RexUtil.shift(r, -leftCount));
      }
    }
    RelNode left = withFilter(join.getLeft(), leftDerived, rexBuilder);
    RelNode right = withFilter(join.getRight(), rightDerived, rexBuilder);
    if (left == join.getLeft() && right == join.getRight() && pulled.equals(condition)) {
      return;
    }
    RelNode newJoin = join.copy(join.getTraitSet(), join.getCondition(), left, right, join.getJoinType(),
        join.isSemiJoinDone());
    call.transformTo(filter.copy(filter.getTraitSet(), newJoin, pulled));
  }

  /** The OR over the branches of what each requires of the columns in {@code side}, or null if a branch requires nothing. */
  private static RexNode restriction(RexBuilder rexBuilder, RexNode or, ImmutableBitSet side) {
    List<RexNode> branches = new ArrayList<>();
    for (RexNode branch : RelOptUtil.disjunctions(or)) {
      List<RexNode> own = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(branch)) {
        ImmutableBitSet refs = RelOptUtil.InputFinder.bits(c);
        if (!refs.isEmpty() && side.contains(refs) && RexUtil.isDeterministic(c)) {
          own.add(c);
        }
      }
      if (own.isEmpty()) {
        return null;
      }
      branches.add(RexUtil.composeConjunction(rexBuilder, own));
    }
    return RexUtil.composeDisjunction(rexBuilder, branches);
  }

  /** The input under a filter of the derived conditions it does not already have; the input itself if none. */
  private static RelNode withFilter(RelNode input, List<RexNode> derived, RexBuilder rexBuilder) {
    RelNode current = input instanceof HepRelVertex v ? v.getCurrentRel() : input;
    List<RexNode> existing = current instanceof LogicalFilter f ? RelOptUtil.conjunctions(f.getCondition()) : List.of();
    List<RexNode> missing = new ArrayList<>();
    for (RexNode d : derived) {
      if (!existing.contains(d)) {
        missing.add(d);
      }
    }
    if (missing.isEmpty()) {
      return input;
    }
    return LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, missing));
  }
}
