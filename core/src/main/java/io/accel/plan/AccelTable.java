package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import io.accel.exec.Session;
import io.accel.catalog.TableStatistics;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A stored table as Calcite sees it: its row type from the catalog, its statistics, an {@link AccelScan}
 * as its relational form (the rules of that scan choose how to read it), and the DEFAULT expressions of its columns for INSERT.
 */
public final class AccelTable extends AbstractTable implements TranslatableTable {
  private final Session session;
  private final TableDef table;

  AccelTable(Session session, TableDef table) {
    this.session = session;
    this.table = table;
  }

  public Session session() {
    return session;
  }

  public TableDef definition() {
    return table;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    RelDataTypeFactory.Builder b = typeFactory.builder();
    for (Column c : table.columns()) {
      b.add(c.name(), c.type().toRelDataType(typeFactory, c.nullable()));
    }
    return b.build();
  }

  /** The table's statistics as the planner sees them now. */
  public TableStatistics statistics() {
    return session.database().statistics().of(table);
  }

  @Override
  public Statistic getStatistic() {
    double rows = Math.max(1, statistics().rowCount());
    if (table.hasHiddenRowId()) {
      return Statistics.of(rows, List.of());
    }
    return Statistics.of(rows, List.of(ImmutableBitSet.of(table.primaryKey())), List.of(), List.of());
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return AccelScan.create(context.getCluster(), relOptTable, this);
  }

  /** Plans access paths over this table with the connection's settings. */
  AccessPathPlanner planner(RexBuilder rexBuilder) {
    return new AccessPathPlanner(table, statistics(), rexBuilder, session.indexScans(),
        session.indexConditionPushdown());
  }

  @Override
  public <C> @Nullable C unwrap(Class<C> aClass) {
    if (aClass == InitializerExpressionFactory.class) {
      return aClass.cast(new ColumnDefaults(table));
    }
    return super.unwrap(aClass);
  }
}
