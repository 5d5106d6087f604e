package io.accel.plan;

import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Join order for statements joining many tables, chosen before cost-based planning, as PostgreSQL switches
 * to a cheaper search past {@code join_collapse_limit}: Volcano's exhaustive reordering (commuting and
 * associating every join, then merging the projections that creates) grows exponentially with the tables,
 * and took 1.4 s to plan a chain of 10 ten-row tables. Past {@value #EXHAUSTIVE_TABLES} tables in one
 * tree of inner joins, the joins are collected into a {@link MultiJoin} and ordered greedily by Calcite's
 * {@code LoptOptimizeJoinRule} from Accel's row estimates (left-deep, the smallest intermediate results
 * first); Volcano then only chooses how each join runs (hash, merge, index lookup), not the order.
 */
final class JoinOrder {
  /** Up to this many tables in one join tree, Volcano searches every order (S2, E1 and most queries). */
  static final int EXHAUSTIVE_TABLES = 3;

  private JoinOrder() {
  }

  /** The program phase: the plan with its large join trees ordered, and Volcano's reordering rules off. */
  static RelNode heuristic(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (largestInnerJoinTree(rel) <= EXHAUSTIVE_TABLES) {
      return rel;
    }
    HepProgram collect = new HepProgramBuilder()
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
        .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
        .addRuleInstance(CoreRules.PROJECT_MULTI_JOIN_MERGE)
        .addRuleInstance(CoreRules.FILTER_MULTI_JOIN_MERGE)
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
        .build();
    HepPlanner hep = new HepPlanner(collect, planner.getContext(), true, null,
        org.apache.calcite.plan.RelOptCostImpl.FACTORY);
    hep.setRoot(rel);
    RelNode ordered = hep.findBestExp();
    if (containsMultiJoin(ordered)) {
      return rel; // a MultiJoin the optimizer could not expand (outer joins inside): leave it to Volcano
    }
    for (RelOptRule rule : List.copyOf(planner.getRules())) {
      if (rule instanceof JoinCommuteRule || rule instanceof JoinAssociateRule
          || rule instanceof JoinPushThroughJoinRule) {
        planner.removeRule(rule);
      }
    }
    return ordered;
  }

  /** The most tables under one tree of inner joins in the plan. */
  static int largestInnerJoinTree(RelNode rel) {
    int[] largest = {1};
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (isInner(node) && !isInner(parent)) {
          largest[0] = Math.max(largest[0], leaves(node));
        }
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return largest[0];
  }

  private static boolean isInner(@Nullable RelNode node) {
    return node instanceof Join join && join.getJoinType() == JoinRelType.INNER;
  }

  /** The inputs of a tree of inner joins that are not themselves inner joins. */
  private static int leaves(RelNode node) {
    if (!isInner(node)) {
      return 1;
    }
    return leaves(node.getInput(0)) + leaves(node.getInput(1));
  }

  private static boolean containsMultiJoin(RelNode rel) {
    boolean[] found = {false};
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        found[0] |= node instanceof MultiJoin;
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return found[0];
  }
}
