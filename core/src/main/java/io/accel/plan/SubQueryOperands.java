package io.accel.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * A planning phase before sub-query removal: the left operand of an {@code IN} / {@code ANY} / {@code ALL} sub-query
 * that holds a sub-query itself ({@code (SELECT max(d) FROM u WHERE u.k = t.k) IN (SELECT ...)}, {@code CASE WHEN
 * i NOT IN (SELECT ...) THEN s END IN (SELECT ...)}) is computed first, in a projection below the filter or
 * projection that tests it, and the test reads it as a column. Calcite's sub-query removal rewrote the outer
 * sub-query with the inner one still in its condition: duplicated rows, wrong rows, or "$cor0 must not be used by
 * left input to correlation".
 */
final class SubQueryOperands {
  private SubQueryOperands() {
  }

  static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return rewrite(rel);
  }

  private static RelNode rewrite(RelNode rel) {
    RexShuttle inner = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
        RelNode rewritten = rewrite(visited.rel);
        return rewritten == visited.rel ? visited : visited.clone(rewritten);
      }
    };
    return PgExpressions.bottomUp(rel, visited -> {
      RelNode node = visited.accept(inner); // the sub-queries' own plans first
      if (node instanceof LogicalFilter filter && hasNestedOperand(List.of(filter.getCondition()))) {
        Hoisted h = hoist(filter.getInput(), List.of(filter.getCondition()), filter.getVariablesSet());
        RelNode tested = LogicalFilter.create(h.input, h.exprs.get(0),
            com.google.common.collect.ImmutableSet.copyOf(filter.getVariablesSet()));
        return restore(tested, filter.getRowType().getFieldCount());
      }
      if (node instanceof LogicalProject project && hasNestedOperand(project.getProjects())) {
        Hoisted h = hoist(project.getInput(), project.getProjects(), project.getVariablesSet());
        return LogicalProject.create(h.input, project.getHints(), h.exprs, project.getRowType().getFieldNames(),
            project.getVariablesSet());
      }
      return node;
    });
  }

  private static boolean hasNestedOperand(List<RexNode> exprs) {
    boolean[] found = {false};
    RexShuttle finder = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        if (tested(subQuery) && subQuery.getOperands().stream().anyMatch(o -> RexUtil.SubQueryFinder.find(o) != null)) {
          found[0] = true;
        }
        return super.visitSubQuery(subQuery);
      }
    };
    exprs.forEach(e -> e.accept(finder));
    return found[0];
  }

  private static boolean tested(RexSubQuery subQuery) {
    return subQuery.getKind() == SqlKind.IN || subQuery.getKind() == SqlKind.SOME
        || subQuery.getKind() == SqlKind.ALL || subQuery.getKind() == SqlKind.NOT_IN;
  }

  private record Hoisted(RelNode input, List<RexNode> exprs) {
  }

  /**
   * {@code exprs} over {@code input} with the sub-query-holding operands of their tested sub-queries moved into a
   * projection of {@code input} (appended columns; the projection gets correlation variables of its own for the
   * sub-queries it now holds).
   */
  private static Hoisted hoist(RelNode input, List<RexNode> exprs, Set<CorrelationId> variables) {
    RexBuilder rexBuilder = input.getCluster().getRexBuilder();
    List<RexNode> columns = new ArrayList<>();
    for (RelDataTypeField field : input.getRowType().getFieldList()) {
      columns.add(rexBuilder.makeInputRef(field.getType(), field.getIndex()));
    }
    int width = columns.size();
    // the operands are evaluated over the same rows, correlated through a variable of the projection
    CorrelationId own = variables.isEmpty() ? null : input.getCluster().createCorrel();
    RexShuttle hoister = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        if (!tested(subQuery)) {
          return subQuery;
        }
        List<RexNode> operands = new ArrayList<>();
        for (RexNode operand : subQuery.getOperands()) {
          if (RexUtil.SubQueryFinder.find(operand) == null) {
            operands.add(operand);
            continue;
          }
          RexNode moved = own == null ? operand : renamed(operand, variables, own, rexBuilder, input);
          operands.add(rexBuilder.makeInputRef(moved.getType(), columns.size()));
          columns.add(moved);
        }
        return subQuery.clone(subQuery.getType(), operands);
      }
    };
    List<RexNode> rewritten = new ArrayList<>();
    for (RexNode e : exprs) {
      rewritten.add(e.accept(hoister));
    }
    List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
    for (int i = width; i < columns.size(); i++) {
      names.add("accel_operand" + i);
    }
    RelNode projected = LogicalProject.create(input, List.of(), columns, names,
        own == null ? Set.of() : Set.of(own));
    return new Hoisted(projected, rewritten);
  }

  /** The filter's rows without the hoisted columns. */
  private static RelNode restore(RelNode rel, int width) {
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    List<RexNode> refs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      refs.add(rexBuilder.makeInputRef(rel, i));
      names.add(rel.getRowType().getFieldNames().get(i));
    }
    return LogicalProject.create(rel, List.of(), refs, names, Set.of());
  }

  /** {@code e} with its references to {@code from}'s variables (at any depth of its sub-queries) made to {@code to}. */
  private static RexNode renamed(RexNode e, Set<CorrelationId> from, CorrelationId to, RexBuilder rexBuilder,
      RelNode input) {
    RexNode variable = rexBuilder.makeCorrel(input.getRowType(), to);
    RexShuttle rename = new RexShuttle() {
      @Override
      public RexNode visitCorrelVariable(RexCorrelVariable v) {
        return from.contains(v.id) ? variable : v;
      }

      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
        RexShuttle self = this;
        RelNode rel = visited.rel.accept(new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(self);
          }
        });
        return visited.clone(rel);
      }
    };
    return e.accept(rename);
  }
}
