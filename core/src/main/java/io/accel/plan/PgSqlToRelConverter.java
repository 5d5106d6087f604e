package io.accel.plan;

import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;

/**
 * Calcite's SQL-to-relational conversion, except that join conditions stay in their join. Calcite moves an
 * expression of an ON condition ({@code a.k = b.i + 0}, or the cast that compares an INTEGER with a BIGINT)
 * into a projection below the join as it converts; the projection's extra column then shifted the fields that
 * a correlated sub-query of the SELECT list reads ({@code SELECT (SELECT count(*) FROM u WHERE u.v = a.v)
 * FROM a JOIN b ON b.big = a.int} failed with "type mismatch"). The planner moves those expressions itself,
 * once the sub-queries are converted ({@code JOIN_PUSH_EXPRESSIONS} in {@link AccelPrepare#program()}).
 */
final class PgSqlToRelConverter extends SqlToRelConverter {
  PgSqlToRelConverter(RelOptTable.ViewExpander viewExpander, SqlValidator validator,
      Prepare.CatalogReader catalogReader, RelOptCluster cluster, SqlRexConvertletTable convertlets, Config config) {
    super(viewExpander, validator, catalogReader, cluster, convertlets, config);
  }

  @Override
  protected RelNode createJoin(Blackboard bb, RelNode left, RelNode right, RexNode condition, JoinRelType joinType) {
    RelNode join = super.createJoin(bb, left, right, condition, joinType);
    if (join instanceof Project project && project.getInput() instanceof Join pushed
        && (pushed.getLeft() != left || pushed.getRight() != right)) {
      return LogicalJoin.create(left, right, List.of(), condition, Set.of(), joinType);
    }
    return join;
  }
}
