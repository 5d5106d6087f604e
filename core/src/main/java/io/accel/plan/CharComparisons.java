package io.accel.plan;

import io.accel.catalog.ColumnType;
import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * A planning phase: a CHAR column compared with text ignores the text's trailing blanks, as PostgreSQL's bpchar
 * comparison does. Accel stores CHAR values without their padding and shows them to Calcite as VARCHAR, so
 * {@code c = 'ab   '} compared 'ab' with 'ab   ' and found nothing. In a filter, a comparison (or IN list) of a
 * column that reads a CHAR column of a table with a literal has the literal's trailing blanks removed, with a
 * {@code ?} parameter (a normalised literal) the parameter's, at run time.
 */
final class CharComparisons {
  private CharComparisons() {
  }

  static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return PgExpressions.bottomUp(rel, node -> {
      if (node instanceof Filter filter) {
        RexNode condition = filter.getCondition().accept(new Trimmer(filter.getCluster().getRexBuilder(),
            filter.getInput()));
        if (condition != filter.getCondition()) {
          // a rewritten NOT IN is an AND inside the condition's AND, a NOT BETWEEN an OR inside an OR: filters
          // must stay flat at every level (RexUtil.flatten flattens only the call it is given)
          org.apache.calcite.rex.RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
          condition = condition.accept(new org.apache.calcite.rex.RexShuttle() {
            @Override
            public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
              return org.apache.calcite.rex.RexUtil.flatten(rexBuilder, super.visitCall(call));
            }
          });
          return filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
      }
      return node;
    });
  }

  /** Whether field {@code field} of {@code rel} reads a CHAR column of a table, as it is. */
  static boolean readsChar(RelNode rel, int field) {
    while (true) {
      if (rel instanceof HepRelVertex vertex) {
        rel = vertex.getCurrentRel();
      } else if (rel instanceof RelSubset subset) {
        rel = subset.getOriginal();
        if (rel == null) {
          return false;
        }
      } else if (rel instanceof AccelScan scan) {
        int column = scan.tableColumn(field);
        return scan.accelTable().definition().columns().get(column).type().kind() == ColumnType.CHAR;
      } else if (rel instanceof Project project) {
        if (!(project.getProjects().get(field) instanceof RexInputRef ref)) {
          return false;
        }
        field = ref.getIndex();
        rel = project.getInput();
      } else if (rel instanceof Filter || rel instanceof Sort) {
        rel = rel.getInput(0);
      } else {
        return false;
      }
    }
  }

  private static final class Trimmer extends RexShuttle {
    private final RexBuilder rexBuilder;
    private final RelNode input;

    Trimmer(RexBuilder rexBuilder, RelNode input) {
      this.rexBuilder = rexBuilder;
      this.input = input;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      if (call.getKind() == SqlKind.SEARCH && call.getOperands().get(0) instanceof RexInputRef ref
          && readsChar(input, ref.getIndex())) {
        // an IN list or range: as comparisons, each trimmed (Calcite folds them back)
        RexNode expanded = RexUtil.expandSearch(rexBuilder, null, call);
        return expanded == call ? call : expanded.accept(this);
      }
      RexCall visited = (RexCall) super.visitCall(call);
      if (!visited.getKind().belongsTo(SqlKind.COMPARISON) || visited.getOperands().size() != 2) {
        return visited;
      }
      List<RexNode> operands = visited.getOperands();
      for (int side = 0; side < 2; side++) {
        if (RexUtil.removeCast(operands.get(side)) instanceof RexInputRef ref && readsChar(input, ref.getIndex())) {
          RexNode other = operands.get(1 - side);
          RexNode trimmed = trimmed(other);
          if (trimmed != other) {
            return rexBuilder.makeCall(visited.getType(), visited.getOperator(),
                side == 0 ? List.of(operands.get(0), trimmed) : List.of(trimmed, operands.get(1)));
          }
        }
      }
      return visited;
    }

    /** Text without its trailing blanks: a literal now, a parameter when it is bound. */
    private RexNode trimmed(RexNode node) {
      SqlTypeName type = node.getType().getSqlTypeName();
      if (type != SqlTypeName.CHAR && type != SqlTypeName.VARCHAR) {
        return node;
      }
      if (node instanceof RexLiteral literal && literal.getValue() instanceof NlsString s) {
        String value = s.getValue();
        String stripped = value.replaceAll(" +$", "");
        return stripped.equals(value) ? node : rexBuilder.makeLiteral(stripped);
      }
      if (node instanceof RexDynamicParam) {
        return rexBuilder.makeCall(node.getType(), SqlStdOperatorTable.TRIM, List.of(
            rexBuilder.makeFlag(SqlTrimFunction.Flag.TRAILING), rexBuilder.makeLiteral(" "), node));
      }
      return node;
    }
  }
}
