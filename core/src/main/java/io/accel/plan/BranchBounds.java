package io.accel.plan;

import com.google.common.collect.Range;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Sarg;

/**
 * Bounds on a column of a lookup join's table that an OR of conjunctions in the join condition implies per outer row
 * (TPC-H Q19: {@code (p_container IN (SM ...) AND l_quantity BETWEEN 1 AND 11) OR (p_container IN (MED ...) AND
 * l_quantity BETWEEN 10 AND 20) OR ...}). When every branch bounds the column by constants, the column lies between
 * the least lower and the greatest upper bound of the branches whose conditions on the outer row hold:
 * {@code l_quantity >= CASE WHEN <SM> THEN 1 ... END}. The bounds are implied by the OR, which stays; the lookup
 * then reads per outer row only the ranges of the branches that row can satisfy, instead of their hull.
 *
 * <p>NULL semantics: a branch whose condition on the outer row is not TRUE, or whose bound is NULL, cannot be TRUE,
 * so it takes no part; when none takes part the bound is NULL and the lookup reads nothing, as the OR holds for none.
 */
final class BranchBounds {
  private BranchBounds() {
  }

  /** One branch's constant bounds on the column (null: none) and its condition on the outer row (null: none). */
  private record Branch(RexNode lower, RexNode upper, RexNode selector) {
  }

  /** Derived bounds ({@code column >= ...}, {@code column <= ...}) on columns of {@code side}; empty when none. */
  static List<RexNode> derive(RexBuilder rexBuilder, RexNode or, ImmutableBitSet side, ImmutableBitSet other) {
    List<RexNode> branches = RelOptUtil.disjunctions(or);
    List<RexNode> out = new ArrayList<>();
    if (branches.size() < 2 || !RexUtil.isDeterministic(or)) {
      return out;
    }
    for (RexInputRef ref : boundedColumns(branches.get(0), side)) {
      List<Branch> found = new ArrayList<>();
      boolean anySelector = false;
      for (RexNode branch : branches) {
        Branch b = branch(rexBuilder, branch, ref.getIndex(), other);
        if (b == null) {
          found = null;
          break;
        }
        anySelector |= b.selector() != null;
        found.add(b);
      }
      if (found == null || !anySelector) {
        continue; // a branch without bounds on the column, or nothing that varies per outer row
      }
      if (found.stream().allMatch(b -> b.lower() != null)) {
        out.add(rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, ref,
            extreme(rexBuilder, found, ref.getType(), true)));
      }
      if (found.stream().allMatch(b -> b.upper() != null)) {
        out.add(rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, ref,
            extreme(rexBuilder, found, ref.getType(), false)));
      }
    }
    return out;
  }

  /**
   * The least lower bound ({@code lower}) or greatest upper bound of the branches that can hold: for each branch in
   * turn, {@code m = CASE WHEN selector AND b IS NOT NULL THEN (CASE WHEN m IS NULL OR b < m THEN b ELSE m END)
   * ELSE m END}, starting from NULL.
   */
  private static RexNode extreme(RexBuilder rexBuilder, List<Branch> branches, RelDataType type, boolean lower) {
    RelDataType nullable = rexBuilder.getTypeFactory().createTypeWithNullability(type, true);
    RexNode m = rexBuilder.makeNullLiteral(nullable);
    for (Branch b : branches) {
      RexNode bound = rexBuilder.makeCast(nullable, lower ? b.lower() : b.upper(), true, false);
      RexNode applies = rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, bound);
      if (b.selector() != null) {
        applies = rexBuilder.makeCall(SqlStdOperatorTable.AND, b.selector(), applies);
      }
      RexNode better = rexBuilder.makeCall(lower ? SqlStdOperatorTable.LESS_THAN : SqlStdOperatorTable.GREATER_THAN,
          bound, m);
      RexNode pick = rexBuilder.makeCall(SqlStdOperatorTable.CASE,
          rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, m), better),
          bound, m);
      m = rexBuilder.makeCall(SqlStdOperatorTable.CASE, applies, pick, m);
    }
    return m;
  }

  /** The columns of {@code side} that a conjunct of the branch bounds by a constant. */
  private static List<RexInputRef> boundedColumns(RexNode branch, ImmutableBitSet side) {
    List<RexInputRef> out = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(branch)) {
      RexInputRef column = boundColumn(c);
      if (column != null && side.get(column.getIndex()) && out.stream().noneMatch(r -> r.getIndex() == column.getIndex())) {
        out.add(column);
      }
    }
    return out;
  }

  /** The input column a conjunct compares with a constant (or searches with literals), else null. */
  private static RexInputRef boundColumn(RexNode c) {
    if (c instanceof RexCall call && call.getOperands().size() == 2 && call.getOperands().get(0) instanceof RexInputRef r) {
      boolean comparison = switch (c.getKind()) {
        case GREATER_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, EQUALS -> true;
        default -> false;
      };
      RexNode value = call.getOperands().get(1);
      if (comparison && RelOptUtil.InputFinder.bits(value).isEmpty() && RexUtil.isDeterministic(value)
          || c.getKind() == SqlKind.SEARCH && value instanceof RexLiteral) {
        return r;
      }
    }
    return null;
  }

  /**
   * A branch's bounds on {@code column} (any one lower and one upper bound it has: each is implied) and the AND of its
   * deterministic conjuncts on the other input; null when it has no bound on the column.
   */
  private static Branch branch(RexBuilder rexBuilder, RexNode branch, int column, ImmutableBitSet other) {
    RexNode lower = null;
    RexNode upper = null;
    List<RexNode> selectors = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(branch)) {
      RexInputRef bound = boundColumn(c);
      if (bound != null && bound.getIndex() == column) {
        RexNode value = ((RexCall) c).getOperands().get(1);
        switch (c.getKind()) {
          case GREATER_THAN, GREATER_THAN_OR_EQUAL -> lower = lower == null ? value : lower;
          case LESS_THAN, LESS_THAN_OR_EQUAL -> upper = upper == null ? value : upper;
          case EQUALS -> {
            lower = lower == null ? value : lower;
            upper = upper == null ? value : upper;
          }
          default -> {
            RexNode[] span = span(rexBuilder, (RexLiteral) value, bound.getType());
            if (span == null) {
              return null; // a search that also matches NULL, or has no ranges: not a bound
            }
            lower = lower == null ? span[0] : lower;
            upper = upper == null ? span[1] : upper;
          }
        }
        continue;
      }
      ImmutableBitSet refs = RelOptUtil.InputFinder.bits(c);
      if (!refs.isEmpty() && other.contains(refs) && RexUtil.isDeterministic(c)) {
        selectors.add(c);
      }
    }
    if (lower == null && upper == null) {
      return null;
    }
    return new Branch(lower, upper, selectors.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, selectors));
  }

  /** The least and greatest values a search's ranges reach (null for an unbounded side), or null. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static RexNode[] span(RexBuilder rexBuilder, RexLiteral literal, RelDataType type) {
    Sarg sarg = literal.getValueAs(Sarg.class);
    if (sarg == null || sarg.rangeSet.isEmpty() || sarg.nullAs == RexUnknownAs.TRUE) {
      return null;
    }
    Range span = sarg.rangeSet.span();
    RexNode low = span.hasLowerBound() ? rexBuilder.makeLiteral(span.lowerEndpoint(), type, true, true) : null;
    RexNode high = span.hasUpperBound() ? rexBuilder.makeLiteral(span.upperEndpoint(), type, true, true) : null;
    if (low == null && high == null) {
      return null;
    }
    return new RexNode[] {low, high};
  }
}
