package io.accel.plan;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/**
 * Gives back a filter the correlation variable its sub-queries read of its row when SQL conversion left it
 * undeclared. The validator expands {@code COALESCE(x, y)} (and NULLIF, a simple CASE) into a CASE that repeats
 * {@code x}, and Calcite converts a repeated sub-query twice; the first copy's inner filter then reads
 * {@code $corN} of its row without declaring it, so sub-query removal joined instead of correlating and the plan
 * failed to compile ("Correlation variable $corN should be defined").
 */
final class CorrelationScopes {
  private CorrelationScopes() {}

  static RelNode declare(RelNode rel) {
    return declare(rel, Set.of());
  }

  private static RelNode declare(RelNode rel, Set<CorrelationId> definedAbove) {
    return rel.accept(new RelHomogeneousShuttle() {
      private final java.util.ArrayDeque<Set<CorrelationId>> scopes =
          new java.util.ArrayDeque<>(List.of(definedAbove));

      @Override
      public RelNode visit(RelNode other) {
        Set<CorrelationId> defined = new HashSet<>(scopes.peek());
        defined.addAll(other.getVariablesSet());
        RelNode node = other;
        if (other instanceof LogicalFilter filter) {
          node = withDeclared(filter, defined);
          defined.addAll(node.getVariablesSet());
        }
        node = node.accept(new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            RelNode inner = declare(subQuery.rel, defined);
            return inner == subQuery.rel ? subQuery : subQuery.clone(inner);
          }
        });
        scopes.push(defined);
        try {
          return super.visit(node);
        } finally {
          scopes.pop();
        }
      }
    });
  }

  /** The filter, declaring the variables of its row that its sub-queries read and nothing above defines. */
  private static RelNode withDeclared(LogicalFilter filter, Set<CorrelationId> defined) {
    Set<CorrelationId> free = new HashSet<>();
    filter.getCondition().accept(new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        free.addAll(RelOptUtil.getVariablesUsed(subQuery.rel));
        return subQuery;
      }
    });
    free.removeAll(defined);
    if (free.isEmpty()) {
      return filter;
    }
    Map<CorrelationId, RelDataType> types = ProjectSubQueryRule.correlationTypes(filter);
    RelDataType row = filter.getInput().getRowType();
    free.removeIf(v -> !sameFields(types.get(v), row));
    if (free.isEmpty()) {
      return filter;
    }
    // one variable for the row (conversion may also have given each reference its own)
    CorrelationId variable = free.stream().min(java.util.Comparator.comparingInt(CorrelationId::getId)).get();
    RexNode condition = filter.getCondition().accept(
        renaming(filter.getCluster().getRexBuilder(), free, variable, types.get(variable)));
    Set<CorrelationId> variables = new HashSet<>(filter.getVariablesSet());
    variables.add(variable);
    return LogicalFilter.create(filter.getInput(), condition, com.google.common.collect.ImmutableSet.copyOf(variables));
  }

  /** Replaces the variables {@code from}, at any depth, by {@code to} (of type {@code type}). */
  private static RexShuttle renaming(org.apache.calcite.rex.RexBuilder rexBuilder, Set<CorrelationId> from,
      CorrelationId to, RelDataType type) {
    return new RexShuttle() {
      @Override
      public RexNode visitCorrelVariable(org.apache.calcite.rex.RexCorrelVariable variable) {
        return from.contains(variable.id) && !variable.id.equals(to)
            ? rexBuilder.makeCorrel(type, to) : variable;
      }

      @Override
      public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
        RexNode reference = access.getReferenceExpr().accept(this);
        return reference == access.getReferenceExpr() ? access
            : rexBuilder.makeFieldAccess(reference, access.getField().getIndex());
      }

      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        RexShuttle self = this;
        RelNode rel = subQuery.rel.accept(new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(self);
          }
        });
        RexNode operandsDone = super.visitSubQuery(subQuery);
        return ((RexSubQuery) operandsDone).clone(rel);
      }
    };
  }

  private static boolean sameFields(RelDataType variable, RelDataType row) {
    return variable != null && variable.getFieldCount() == row.getFieldCount()
        && ProjectSubQueryRule.startsWith(row, variable);
  }
}
