package io.accel.plan;

import io.accel.exec.LookupJoin;
import io.accel.plan.AccessPath.KeyBound;
import io.accel.plan.AccessPath.PlanInterval;
import io.accel.plan.AccessPath.PlanValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Plans a join with an Accel table on one side as an {@link IndexLookupJoin}: the other side (the outer) is
 * read first, and for each of its distinct join keys the table is read through an access path whose key
 * bounds take the key values. Each conjunct of the join condition that compares an inner column with an
 * expression of the outer row ({@code o.user_id = u.id}, {@code s1.from_date > s2.to_date}) is pushed into
 * the inner scan's condition with the outer expression as a per-lookup value, next to the inner side's own
 * predicates ({@code o.status = 'SHIPPED'}); {@link AccessPathPlanner} then finds the composite bound (join
 * key followed by the columns the inner side fixes by equality, and a range on the next column), the Index
 * Condition Pushdown predicate and the residual, exactly as for a scan. The cheapest path whose bounds use
 * the key wins; pushed conjuncts it would only evaluate after fetching the row go back to the join's own
 * condition, so lookups are shared by every outer row with the same values of the rest.
 *
 * <p>Inner, left, semi and anti joins read the table on the right; an inner join also with the table on the
 * left, and a right join with the table on the left as a left join with the sides swapped. Volcano weighs the
 * result against the hash and merge joins of both sides read independently.
 */
final class LookupJoinRule extends RelOptRule {
  static final LookupJoinRule INSTANCE = new LookupJoinRule(0);
  /**
   * A left join with a distinct projection of the table ({@code Aggregate} grouping the inner columns, with
   * only {@code LITERAL_AGG(true)} indicators): what Calcite makes of NOT EXISTS and NOT IN (then filtered
   * on the indicator being NULL) and of some IN sub-queries. Every group column equated with an outer
   * expression, at most one group matches an outer row, so the lookup's first match gives the group.
   */
  static final LookupJoinRule DISTINCT_INNER = new LookupJoinRule(1);
  /** The same with a Project of the group columns and TRUE over the Aggregate (Calcite's NOT EXISTS). */
  static final LookupJoinRule PROJECTED_DISTINCT_INNER = new LookupJoinRule(2);
  /**
   * A join with a Project of the table's columns, some cast to a wider type (Calcite's join keys of different
   * types: {@code CAST(i.id AS DECIMAL(12,2)) = n.v}): the lookup reads the table, the casts are applied to
   * the rows it returns.
   */
  static final LookupJoinRule PROJECTED_INNER = new LookupJoinRule(3);

  private final int distinctInner;

  private LookupJoinRule(int distinctInner) {
    super(distinctInner == 3
        ? operand(LogicalJoin.class, unordered(operand(LogicalProject.class, operandJ(AccelScan.class, null,
            s -> s.isLogical() && s.order().isEmpty(), none()))))
        : distinctInner == 2
        ? operand(LogicalJoin.class, unordered(operand(LogicalProject.class, operand(LogicalAggregate.class,
            operandJ(AccelScan.class, null, s -> s.isLogical() && s.order().isEmpty(), none())))))
        : distinctInner == 1
        ? operand(LogicalJoin.class, unordered(operand(LogicalAggregate.class, operandJ(AccelScan.class, null,
            s -> s.isLogical() && s.order().isEmpty(), none()))))
        : operand(LogicalJoin.class, unordered(operandJ(AccelScan.class, null,
            s -> s.isLogical() && s.order().isEmpty(), none()))),
        distinctInner == 3 ? "AccelLookupJoinProjected" : distinctInner == 2 ? "AccelLookupJoinProjectedDistinct"
            : distinctInner == 1 ? "AccelLookupJoinDistinct" : "AccelLookupJoin");
    this.distinctInner = distinctInner;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    if (distinctInner == 3) {
      matchProjected(call);
      return;
    }
    if (distinctInner > 0) {
      matchDistinct(call);
      return;
    }
    LogicalJoin join = call.rel(0);
    AccelScan scan = call.rel(1);
    if (!scan.accelTable().session().lookupJoins()) {
      return;
    }
    if (RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
      return;
    }
    if (holds(join.getRight(), scan)) {
      LookupJoin.Kind kind = kindWithTableOnRight(join.getJoinType());
      if (kind != null) {
        plan(call, join, join.getLeft(), scan, kind, false, join.getCondition(), null, null);
      }
    }
    if (holds(join.getLeft(), scan)) {
      LookupJoin.Kind kind = kindWithTableOnLeft(join.getJoinType());
      if (kind != null) {
        plan(call, join, join.getRight(), scan, kind, true, join.getCondition(), null, null);
      }
    }
  }

  /** The lookup join kind of a join whose right input is the table, or null when it has none. */
  private static LookupJoin.Kind kindWithTableOnRight(JoinRelType type) {
    return switch (type) {
      case INNER -> LookupJoin.Kind.INNER;
      case LEFT -> LookupJoin.Kind.LEFT;
      case SEMI -> LookupJoin.Kind.SEMI;
      case ANTI -> LookupJoin.Kind.ANTI;
      default -> null;
    };
  }

  /** The same with the table on the left: inner, and right as a left join with the output swapped. */
  private static LookupJoin.Kind kindWithTableOnLeft(JoinRelType type) {
    return switch (type) {
      case INNER -> LookupJoin.Kind.INNER;
      case RIGHT -> LookupJoin.Kind.LEFT;
      default -> null;
    };
  }

  private static boolean holds(RelNode input, RelNode rel) {
    return input == rel || input instanceof RelSubset subset && subset.getRelList().contains(rel);
  }

  private void matchProjected(RelOptRuleCall call) {
    LogicalJoin join = call.rel(0);
    LogicalProject project = call.rel(1);
    AccelScan scan = call.rel(2);
    if (!scan.accelTable().session().lookupJoins() || RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
      return;
    }
    boolean cast = false;
    for (RexNode e : project.getProjects()) {
      if (AccessPathPlanner.losslessColumnRef(e) < 0) {
        return;
      }
      cast |= !(e instanceof RexInputRef);
    }
    if (!cast) {
      return; // a projection of plain columns is pushed into the scan, which the plain rule sees
    }
    List<RexNode> exprs = project.getProjects();
    if (holds(join.getRight(), project)) {
      LookupJoin.Kind kind = kindWithTableOnRight(join.getJoinType());
      int outerWidth = join.getLeft().getRowType().getFieldCount();
      if (kind != null) {
        plan(call, join, join.getLeft(), scan, kind, false, toScanFields(join.getCondition(), exprs, false,
            outerWidth, project.getRowType().getFieldCount()), null, exprs);
      }
    }
    if (holds(join.getLeft(), project)) {
      LookupJoin.Kind kind = kindWithTableOnLeft(join.getJoinType());
      int outerWidth = join.getRight().getRowType().getFieldCount();
      if (kind != null) {
        plan(call, join, join.getRight(), scan, kind, true, toScanFields(join.getCondition(), exprs, true,
            outerWidth, project.getRowType().getFieldCount()), null, exprs);
      }
    }
  }

  /**
   * A join condition over the join's inputs, one of which is a projection {@code exprs} of the scan, as a
   * condition over outer fields followed by the scan's fields.
   */
  private static RexNode toScanFields(RexNode condition, List<RexNode> exprs, boolean innerFirst, int outerWidth,
      int projectWidth) {
    return condition.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int i = ref.getIndex();
        int innerField = innerFirst ? (i < projectWidth ? i : -1) : (i >= outerWidth ? i - outerWidth : -1);
        if (innerField < 0) {
          return new RexInputRef(innerFirst ? i - projectWidth : i, ref.getType());
        }
        return RexUtil.shift(exprs.get(innerField), outerWidth);
      }
    });
  }

  private void matchDistinct(RelOptRuleCall call) {
    LogicalJoin join = call.rel(0);
    LogicalProject project = distinctInner == 2 ? call.rel(1) : null;
    LogicalAggregate aggregate = call.rel(distinctInner == 2 ? 2 : 1);
    AccelScan scan = call.rel(distinctInner == 2 ? 3 : 2);
    RelNode right = project != null ? project : aggregate;
    if (!scan.accelTable().session().lookupJoins() || join.getJoinType() != JoinRelType.LEFT
        || !holds(join.getRight(), right) || aggregate.getGroupType() != Aggregate.Group.SIMPLE
        || aggregate.getGroupCount() == 0 || RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
      return;
    }
    for (AggregateCall agg : aggregate.getAggCallList()) {
      if (agg.getAggregation().getKind() != SqlKind.LITERAL_AGG || agg.rexList.size() != 1
          || !agg.rexList.get(0).isAlwaysTrue()) {
        return;
      }
    }
    int groups = aggregate.getGroupCount();
    List<Integer> groupFields = aggregate.getGroupSet().asList();
    // what each field of the join's right input holds: a scan field, or -1 for TRUE
    int[] aggregateMark = new int[aggregate.getRowType().getFieldCount()];
    for (int j = 0; j < aggregateMark.length; j++) {
      aggregateMark[j] = j < groups ? groupFields.get(j) : -1;
    }
    int[] mark = aggregateMark;
    if (project != null) {
      mark = new int[project.getProjects().size()];
      for (int j = 0; j < mark.length; j++) {
        RexNode e = project.getProjects().get(j);
        if (e instanceof RexInputRef ref) {
          mark[j] = aggregateMark[ref.getIndex()];
        } else if (e.isAlwaysTrue() && e instanceof org.apache.calcite.rex.RexLiteral) {
          mark[j] = -1;
        } else {
          return;
        }
      }
    }
    int outerWidth = join.getLeft().getRowType().getFieldCount();
    int[] fieldMark = mark;
    boolean[] indicatorUsed = {false};
    RexNode condition = join.getCondition().accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int i = ref.getIndex();
        if (i < outerWidth) {
          return ref;
        }
        int field = fieldMark[i - outerWidth];
        if (field < 0) {
          indicatorUsed[0] = true;
          return ref;
        }
        return new RexInputRef(outerWidth + field, ref.getType());
      }
    });
    if (indicatorUsed[0]) {
      return;
    }
    // every group column equated with an outer expression: at most one group matches an outer row
    Set<Integer> equated = new HashSet<>();
    for (RexNode c : RelOptUtil.conjunctions(condition)) {
      Pushable p = pushable(c, outerWidth, scan.getRowType().getFieldCount());
      if (p != null && p.op() == SqlKind.EQUALS && p.innerSide() instanceof RexInputRef ref) {
        equated.add(ref.getIndex() - outerWidth);
      }
    }
    if (!equated.containsAll(groupFields)) {
      return;
    }
    plan(call, join, join.getLeft(), scan, LookupJoin.Kind.LEFT_FIRST, false, condition, mark, null);
  }

  /** A conjunct {@code inner OP outer} of the join condition, over the lookup layout (outer fields first). */
  private record Pushable(RexNode conjunct, SqlKind op, RexNode innerSide, RexNode outerSide) {
  }

  /**
   * Plans the lookup join of {@code outer} with {@code scan} under {@code joinCondition} (over the join's
   * inputs; for a distinct inner, already over outer fields and the scan's); {@code mark}, for
   * {@link LookupJoin.Kind#LEFT_FIRST}, says what each output field after the outer ones holds;
   * {@code innerProject}, when given, is the join's inner input as expressions of the scan's fields, and the
   * condition is already over outer fields followed by the scan's.
   */
  private void plan(RelOptRuleCall call, LogicalJoin join, RelNode outer, AccelScan scan, LookupJoin.Kind kind,
      boolean innerFirst, RexNode joinCondition, int[] mark, List<RexNode> innerProject) {
    RelOptCluster cluster = join.getCluster();
    RexBuilder rexBuilder = cluster.getRexBuilder();
    int outerWidth = outer.getRowType().getFieldCount();
    int innerWidth = scan.getRowType().getFieldCount();
    // The join condition over outer ++ inner.
    RexNode condition = joinCondition;
    if (innerFirst && innerProject == null) {
      condition = condition.accept(new RexShuttle() {
        @Override
        public RexNode visitInputRef(RexInputRef ref) {
          int i = ref.getIndex();
          return new RexInputRef(i < innerWidth ? outerWidth + i : i - innerWidth, ref.getType());
        }
      });
    }
    List<Pushable> pushable = new ArrayList<>();
    List<RexNode> rest = new ArrayList<>();
    // bounds an OR of branches implies on inner columns per outer row (BranchBounds): used by the lookup's key
    // bounds if they help, dropped otherwise (the OR itself stays)
    List<RexNode> derived = new ArrayList<>();
    ImmutableBitSet outerBits = ImmutableBitSet.range(0, outerWidth);
    ImmutableBitSet innerBits = ImmutableBitSet.range(outerWidth, outerWidth + innerWidth);
    List<RexNode> conjuncts = new ArrayList<>(RelOptUtil.conjunctions(condition));
    for (RexNode c : conjuncts) {
      if (c.getKind() == SqlKind.OR) {
        derived.addAll(BranchBounds.derive(rexBuilder, c, innerBits, outerBits));
      }
    }
    conjuncts.addAll(derived);
    for (RexNode c : conjuncts) {
      Pushable p = pushable(c, outerWidth, innerWidth);
      if (p == null) {
        if (!derived.contains(c)) {
          rest.add(c);
        }
      } else {
        pushable.add(p);
      }
    }
    if (pushable.isEmpty()) {
      return;
    }
    Candidate first = candidate(cluster, scan, pushable, outerWidth, null);
    if (first == null) {
      return;
    }
    // Pushed conjuncts the chosen path evaluates only on the fetched row are the join's condition instead.
    List<Pushable> kept = new ArrayList<>();
    for (int i = 0; i < pushable.size(); i++) {
      if (first.residualConjuncts.contains(first.pushed.get(i))) {
        if (!derived.contains(pushable.get(i).conjunct())) {
          rest.add(pushable.get(i).conjunct());
        }
      } else {
        kept.add(pushable.get(i));
      }
    }
    Candidate chosen = kept.size() == pushable.size() ? first
        : candidate(cluster, scan, kept, outerWidth, first.path.index() == null ? TABLE : first.path.index());
    if (chosen == null) {
      return;
    }
    RexNode remaining = rest.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, rest);
    RelNode convertedOuter = convert(outer, outer.getTraitSet().replace(EnumerableConvention.INSTANCE));
    IndexLookupJoin lookupJoin = new IndexLookupJoin(cluster,
        cluster.traitSetOf(EnumerableConvention.INSTANCE), convertedOuter, chosen.innerScan, kind, innerFirst,
        chosen.correlation, chosen.keys, remaining, join.getRowType(), mark, innerProject);
    call.transformTo(lookupJoin);
  }

  /** The inner scan of one choice of pushed conjuncts, and what it says about them. */
  private static final class Candidate {
    AccelScan innerScan;
    AccessPath path;
    CorrelationId correlation;
    List<RexNode> keys;
    List<RexNode> pushed;
    Set<RexNode> residualConjuncts;
  }

  /**
   * The cheapest access path of the inner scan with the conjuncts pushed whose bounds use a key value; when
   * {@code index} is given (an IndexDef, or null for the table itself, after a first choice), only that key
   * space. Null when no path looks up by key.
   */
  private static Candidate candidate(RelOptCluster cluster, AccelScan scan, List<Pushable> pushable, int outerWidth,
      Object index) {
    RexBuilder rexBuilder = cluster.getRexBuilder();
    RelDataTypeFactory typeFactory = cluster.getTypeFactory();
    List<RexNode> keys = new ArrayList<>();
    for (Pushable p : pushable) {
      if (!keys.contains(p.outerSide())) {
        keys.add(p.outerSide());
      }
    }
    RelDataTypeFactory.Builder keyType = typeFactory.builder();
    for (int i = 0; i < keys.size(); i++) {
      keyType.add("k" + i, keys.get(i).getType());
    }
    RelDataType rowType = keyType.build();
    CorrelationId id = cluster.createCorrel();
    RexNode cor = rexBuilder.makeCorrel(rowType, id);
    List<RexNode> pushed = new ArrayList<>();
    for (Pushable p : pushable) {
      RexNode innerSide = p.innerSide().accept(new RexShuttle() {
        @Override
        public RexNode visitInputRef(RexInputRef ref) {
          int column = scan.tableColumn(ref.getIndex() - outerWidth);
          return rexBuilder.makeInputRef(scan.getTable().getRowType().getFieldList().get(column).getType(), column);
        }
      });
      RexNode key = rexBuilder.makeFieldAccess(cor, keys.indexOf(p.outerSide()));
      pushed.add(rexBuilder.makeCall(RexUtil.op(p.op()), innerSide, key));
    }
    List<RexNode> all = new ArrayList<>();
    if (scan.condition() != null) {
      all.add(scan.condition());
    }
    all.addAll(pushed);
    RexNode innerCondition = RexUtil.composeConjunction(rexBuilder, all);
    AccessPathPlanner planner = scan.accelTable().planner(rexBuilder);
    AccessPath best = null;
    for (AccessPath path : planner.paths(innerCondition, scan.projection(), List.of(), -1)) {
      if (index != null && !sameKeySpace(path, index)) {
        continue;
      }
      if (!boundsUse(path, id)) {
        continue;
      }
      if (best == null || path.estimate().cost() < best.estimate().cost()) {
        best = path;
      }
    }
    if (best == null) {
      return null;
    }
    Candidate c = new Candidate();
    c.innerScan = scan.with(innerCondition, scan.projection(), List.of(), best);
    c.path = best;
    c.correlation = id;
    c.keys = keys;
    c.pushed = pushed;
    c.residualConjuncts = new HashSet<>(best.residual() == null ? List.of() : RelOptUtil.conjunctions(best.residual()));
    return c;
  }

  /** Marks the table's own key space where an index is expected. */
  private static final Object TABLE = new Object();

  /** {@code index} is an IndexDef or {@link #TABLE}. */
  private static boolean sameKeySpace(AccessPath path, Object index) {
    return index == TABLE ? path.index() == null : index.equals(path.index());
  }

  private static boolean boundsUse(AccessPath path, CorrelationId id) {
    for (KeyBound k : path.keys()) {
      for (PlanInterval i : k.intervals()) {
        if (uses(i.low(), id) || uses(i.high(), id)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean uses(PlanValue v, CorrelationId id) {
    if (v == null || v.isConstant()) {
      return false;
    }
    boolean[] found = {false};
    v.expr().accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCorrelVariable(RexCorrelVariable var) {
        if (var.id.equals(id)) {
          found[0] = true;
        }
        return null;
      }
    });
    return found[0];
  }

  /**
   * The conjunct as {@code inner OP outer} when it compares one inner column (or a cast of it that keeps every
   * value) with a deterministic expression of the outer row only; otherwise null.
   */
  private static Pushable pushable(RexNode c, int outerWidth, int innerWidth) {
    SqlKind kind = c.getKind();
    if (kind != SqlKind.EQUALS && kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL
        && kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
      return null;
    }
    RexCall call = (RexCall) c;
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    if (innerColumn(a, outerWidth) && outerOnly(b, outerWidth)) {
      return new Pushable(c, kind, a, b);
    }
    if (innerColumn(b, outerWidth) && outerOnly(a, outerWidth)) {
      return new Pushable(c, kind.reverse(), b, a);
    }
    return null;
  }

  private static boolean innerColumn(RexNode e, int outerWidth) {
    int ref = AccessPathPlanner.losslessColumnRef(e);
    return ref >= outerWidth;
  }

  private static boolean outerOnly(RexNode e, int outerWidth) {
    if (!RexUtil.isDeterministic(e) || RexUtil.SubQueryFinder.find(e) != null) {
      return false;
    }
    ImmutableBitSet refs = RelOptUtil.InputFinder.bits(e);
    return !refs.isEmpty() && refs.length() <= outerWidth;
  }
}
