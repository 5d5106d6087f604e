package io.accel.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The planner rules an {@link AccelScan} registers, as Calcite's adapters register theirs: a Filter, a
 * Project or a Sort directly over a logical scan is pushed into it, and each push offers the planner one
 * scan per access path (the table and every index), which Volcano then chooses among by cost. A last
 * rule makes the chosen scan Enumerable.
 */
final class AccelScanRules {
  private AccelScanRules() {
  }

  static final RelOptRule FILTER = new FilterIntoScan();
  static final RelOptRule PROJECT = new ProjectIntoScan();
  static final RelOptRule SORT = new SortIntoScan();
  static final RelOptRule AGGREGATE = new AggregateIntoScan();
  static final RelOptRule ENUMERABLE = new ToEnumerable(ConverterRule.Config.INSTANCE
      .withConversion(AccelScan.class, Convention.NONE, EnumerableConvention.INSTANCE, "AccelScanToEnumerable")
      .withRuleFactory(ToEnumerable::new));

  static void register(RelOptPlanner planner) {
    planner.addRule(FILTER);
    planner.addRule(PROJECT);
    planner.addRule(SORT);
    planner.addRule(AGGREGATE);
    planner.addRule(ENUMERABLE);
    planner.addRule(LookupJoinRule.INSTANCE);
    planner.addRule(LookupJoinRule.DISTINCT_INNER);
    planner.addRule(LookupJoinRule.PROJECTED_DISTINCT_INNER);
    planner.addRule(LookupJoinRule.PROJECTED_INNER);
  }

  /** A reference to the table column behind each output field of the scan. */
  private static RexNode toTableColumns(RexNode node, AccelScan scan) {
    RelDataType tableType = scan.getTable().getRowType();
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    return node.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int column = scan.tableColumn(ref.getIndex());
        return rexBuilder.makeInputRef(tableType.getFieldList().get(column).getType(), column);
      }
    });
  }

  /** Filter over scan: the scan takes the condition; one alternative per access path. */
  private static final class FilterIntoScan extends RelOptRule {
    FilterIntoScan() {
      super(operand(LogicalFilter.class, operandJ(AccelScan.class, null,
          s -> s.isLogical() && s.order().isEmpty(), none())), "AccelFilterIntoScan");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalFilter filter = call.rel(0);
      AccelScan scan = call.rel(1);
      if (RexUtil.SubQueryFinder.find(filter.getCondition()) != null) {
        return;
      }
      RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
      RexNode pushed = toTableColumns(filter.getCondition(), scan);
      RexNode condition = scan.condition() == null ? pushed
          : RexUtil.composeConjunction(rexBuilder, List.of(scan.condition(), pushed));
      AccessPathPlanner planner = scan.accelTable().planner(rexBuilder);
      for (AccessPath path : planner.paths(condition, scan.projection(), List.of(), -1)) {
        call.transformTo(scan.with(condition, scan.projection(), List.of(), path));
      }
    }
  }

  /**
   * Project over scan: the scan returns only the columns the projection uses (which may let an index
   * entry cover the query); expressions stay in a Project above.
   */
  private static final class ProjectIntoScan extends RelOptRule {
    ProjectIntoScan() {
      super(operand(LogicalProject.class, operandJ(AccelScan.class, null, AccelScan::isLogical, none())),
          "AccelProjectIntoScan");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalProject project = call.rel(0);
      AccelScan scan = call.rel(1);
      if (RexUtil.SubQueryFinder.find(project.getProjects()) != null) {
        return;
      }
      boolean allRefs = project.getProjects().stream().allMatch(e -> e instanceof RexInputRef);
      int[] projection;
      RelNode replacement;
      if (allRefs) {
        projection = new int[project.getProjects().size()];
        for (int i = 0; i < projection.length; i++) {
          projection[i] = scan.tableColumn(((RexInputRef) project.getProjects().get(i)).getIndex());
        }
        if (identity(projection, scan)) {
          return;
        }
        replacement = null;
      } else {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
        if (used.cardinality() >= scan.getRowType().getFieldCount()) {
          return;
        }
        List<Integer> fields = used.asList();
        projection = new int[fields.size()];
        for (int i = 0; i < projection.length; i++) {
          projection[i] = scan.tableColumn(fields.get(i));
        }
        replacement = project;
      }
      AccessPathPlanner planner = scan.accelTable().planner(scan.getCluster().getRexBuilder());
      for (AccessPath path : planner.paths(scan.condition(), projection, scan.order(), scan.path().limit())) {
        AccelScan narrowed = scan.with(scan.condition(), projection, scan.order(), path);
        if (replacement == null) {
          call.transformTo(narrowed);
        } else {
          List<Integer> fields = RelOptUtil.InputFinder.bits(project.getProjects(), null).asList();
          List<RexNode> exprs = new ArrayList<>();
          for (RexNode e : project.getProjects()) {
            exprs.add(e.accept(new RexShuttle() {
              @Override
              public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(fields.indexOf(ref.getIndex()), ref.getType());
              }
            }));
          }
          call.transformTo(LogicalProject.create(narrowed, project.getHints(), exprs, project.getRowType(),
              project.getVariablesSet()));
        }
      }
    }

    private static boolean identity(int[] projection, AccelScan scan) {
      if (projection.length != scan.getTable().getRowType().getFieldCount() || scan.projection() != null) {
        return false;
      }
      for (int i = 0; i < projection.length; i++) {
        if (projection[i] != i) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Sort over scan: where a path's key order gives the ORDER BY (reading backwards if need be), the sort
   * goes away and a LIMIT stops the scan early.
   */
  private static final class SortIntoScan extends RelOptRule {
    SortIntoScan() {
      super(operandJ(LogicalSort.class, null, s -> !s.getCollation().getFieldCollations().isEmpty(),
          operandJ(AccelScan.class, null, s -> s.isLogical() && s.order().isEmpty(), none())), "AccelSortIntoScan");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Sort sort = call.rel(0);
      AccelScan scan = call.rel(1);
      List<RelFieldCollation> order = new ArrayList<>();
      for (RelFieldCollation fc : sort.getCollation().getFieldCollations()) {
        order.add(fc.withFieldIndex(scan.tableColumn(fc.getFieldIndex())));
      }
      double limit = -1;
      if (sort.fetch != null) {
        limit = count(sort.fetch) + (sort.offset == null ? 0 : count(sort.offset));
      }
      AccessPathPlanner planner = scan.accelTable().planner(scan.getCluster().getRexBuilder());
      for (AccessPath path : planner.paths(scan.condition(), scan.projection(), order, limit)) {
        RelNode ordered = scan.with(scan.condition(), scan.projection(), order, path);
        if (sort.fetch == null && sort.offset == null) {
          call.transformTo(ordered);
        } else {
          call.transformTo(LogicalSort.create(ordered, sort.getCollation(), sort.offset, sort.fetch));
        }
      }
    }

    /** A LIMIT or OFFSET count; a parameter counts as 100 rows for costing. */
    private static double count(RexNode n) {
      if (n instanceof RexLiteral lit) {
        Number v = lit.getValueAs(Number.class);
        return v == null ? 100 : v.doubleValue();
      }
      return n instanceof RexDynamicParam ? 100 : -1;
    }
  }

  /**
   * Aggregate over scan: the scan returns only the columns the aggregate reads, so an index whose entries
   * hold them answers it without fetching rows ({@code COUNT(*)} reads one primary-key column).
   */
  private static final class AggregateIntoScan extends RelOptRule {
    AggregateIntoScan() {
      super(operand(LogicalAggregate.class, operandJ(AccelScan.class, null, AccelScan::isLogical, none())),
          "AccelAggregateIntoScan");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalAggregate aggregate = call.rel(0);
      AccelScan scan = call.rel(1);
      int n = scan.getRowType().getFieldCount();
      ImmutableBitSet used = ImmutableBitSet.of(RelOptUtil.getAllFields(aggregate));
      if (used.cardinality() >= n) {
        return;
      }
      List<Integer> fields = new ArrayList<>(used.asList());
      if (fields.isEmpty()) {
        fields.add(cheapestField(scan));
      }
      int[] projection = new int[fields.size()];
      java.util.Map<Integer, Integer> targets = new java.util.HashMap<>();
      for (int i = 0; i < projection.length; i++) {
        projection[i] = scan.tableColumn(fields.get(i));
        targets.put(fields.get(i), i);
      }
      Mappings.TargetMapping mapping = Mappings.target(targets, n, fields.size());
      ImmutableBitSet groupSet = remap(aggregate.getGroupSet(), targets);
      List<ImmutableBitSet> groupSets = new ArrayList<>();
      for (ImmutableBitSet g : aggregate.getGroupSets()) {
        groupSets.add(remap(g, targets));
      }
      List<AggregateCall> calls = new ArrayList<>();
      for (AggregateCall c : aggregate.getAggCallList()) {
        calls.add(c.transform(mapping));
      }
      AccessPathPlanner planner = scan.accelTable().planner(scan.getCluster().getRexBuilder());
      for (AccessPath path : planner.paths(scan.condition(), projection, scan.order(), scan.path().limit())) {
        AccelScan narrowed = scan.with(scan.condition(), projection, scan.order(), path);
        call.transformTo(aggregate.copy(aggregate.getTraitSet(), narrowed, groupSet, groupSets, calls));
      }
    }

    private static ImmutableBitSet remap(ImmutableBitSet bits, java.util.Map<Integer, Integer> targets) {
      ImmutableBitSet.Builder b = ImmutableBitSet.builder();
      for (int i : bits) {
        b.set(targets.get(i));
      }
      return b.build();
    }

    /** For an aggregate that reads no column: a primary-key column (every index entry holds it), else the first. */
    private static int cheapestField(AccelScan scan) {
      List<Integer> pk = scan.accelTable().definition().primaryKey();
      for (int i = 0; i < scan.getRowType().getFieldCount(); i++) {
        if (!pk.isEmpty() && scan.tableColumn(i) == pk.get(0)) {
          return i;
        }
      }
      return 0;
    }
  }

  private static final class ToEnumerable extends ConverterRule {
    ToEnumerable(Config config) {
      super(config);
    }

    @Override
    public @Nullable RelNode convert(RelNode rel) {
      return ((AccelScan) rel).toEnumerable();
    }
  }
}
