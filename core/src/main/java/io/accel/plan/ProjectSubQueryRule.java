package io.accel.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;

/**
 * Calcite's rule turning a sub-query in a projection into a join or a correlate, except for the correlation
 * variables it binds: Calcite's bound every variable the sub-query reads to the projection's input, also those of
 * an enclosing query (in {@code SELECT (SELECT sum(o.total + (SELECT u.id)) FROM orders o ...) FROM users u},
 * {@code u.id} then read the orders row's first column). Here only the variables the projection itself defines are
 * bound; the others stay free, bound by the enclosing query's correlate.
 */
final class ProjectSubQueryRule extends SubQueryRemoveRule {
  static final ProjectSubQueryRule INSTANCE = new ProjectSubQueryRule();

  private ProjectSubQueryRule() {
    super(Config.PROJECT.withMatchHandler((rule, call) -> ((ProjectSubQueryRule) rule).matchProject(call)));
  }

  private void matchProject(RelOptRuleCall call) {
    Project project = call.rel(0);
    RelBuilder builder = call.builder();
    RexSubQuery e = java.util.Objects.requireNonNull(RexUtil.SubQueryFinder.find(project.getProjects()));
    RelOptUtil.Logic logic = SubQueryLogic.find(RelOptUtil.Logic.TRUE_FALSE_UNKNOWN, project.getProjects(), e);
    builder.push(project.getInput());
    int fieldCount = builder.peek().getRowType().getFieldCount();
    Set<CorrelationId> variables = RelOptUtil.getVariablesUsed(e.rel);
    if (!project.getVariablesSet().isEmpty()) {
      variables.retainAll(project.getVariablesSet());
    } else {
      // a projection rebuilt without its variables: those whose row its input's row begins with may be its own
      Map<CorrelationId, RelDataType> types = correlationTypes(e.rel);
      variables.removeIf(v -> !startsWith(project.getInput().getRowType(), types.get(v)));
    }
    RexNode target = apply(e, variables, logic, builder, 1, fieldCount, 0);
    RexShuttle replace = new RexShuttle() {
      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        return subQuery.equals(e) ? target : subQuery;
      }
    };
    List<RexNode> projects = replace.apply(project.getProjects());
    // the projection keeps defining its variables for the sub-queries still in it
    builder.project(projects, project.getRowType().getFieldNames(), false,
        RexUtil.SubQueryFinder.find(projects) == null ? List.of() : project.getVariablesSet());
    call.transformTo(builder.build());
  }

  /** Whether the fields of {@code row} begin with fields of the types of {@code prefix}'s. */
  static boolean startsWith(RelDataType row, RelDataType prefix) {
    if (prefix == null || prefix.getFieldCount() > row.getFieldCount()) {
      return false;
    }
    for (int i = 0; i < prefix.getFieldCount(); i++) {
      if (row.getFieldList().get(i).getType().getSqlTypeName()
          != prefix.getFieldList().get(i).getType().getSqlTypeName()) {
        return false;
      }
    }
    return true;
  }

  /** The row type of each correlation variable read anywhere in {@code rel}. */
  static Map<CorrelationId, RelDataType> correlationTypes(RelNode rel) {
    Map<CorrelationId, RelDataType> types = new HashMap<>();
    RexShuttle collect = new RexShuttle() {
      @Override
      public RexNode visitCorrelVariable(RexCorrelVariable variable) {
        types.putIfAbsent(variable.id, variable.getType());
        return variable;
      }

      @Override
      public RexNode visitSubQuery(RexSubQuery subQuery) {
        types.putAll(correlationTypes(subQuery.rel));
        return super.visitSubQuery(subQuery);
      }
    };
    rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        other.accept(collect);
        return super.visit(other);
      }
    });
    return types;
  }
}
