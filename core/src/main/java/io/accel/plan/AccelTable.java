package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import io.accel.exec.Session;
import io.accel.exec.TableReader;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A stored table as Calcite sees it: its row type from the catalog, a full scan reading the snapshot of
 * the running statement, and the DEFAULT expressions of its columns for INSERT.
 */
public final class AccelTable extends AbstractTable implements ScannableTable {
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

  @Override
  public Statistic getStatistic() {
    if (table.hasHiddenRowId()) {
      return Statistics.UNKNOWN;
    }
    return Statistics.of(null, List.of(ImmutableBitSet.of(table.primaryKey())), List.of(), List.of());
  }

  @Override
  public Enumerable<@Nullable Object[]> scan(DataContext root) {
    return new TableReader(session.database(), table).scan(session.contextFor(root))
        .select(row -> (@Nullable Object[]) row);
  }

  @Override
  public <C> @Nullable C unwrap(Class<C> aClass) {
    if (aClass == InitializerExpressionFactory.class) {
      return aClass.cast(new ColumnDefaults(table));
    }
    return super.unwrap(aClass);
  }
}
