package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/** The DEFAULT expressions of a table's columns, turned into Calcite expressions when an INSERT omits them. */
final class ColumnDefaults extends NullInitializerExpressionFactory {
  private static final SqlParser.Config PARSER = io.accel.sql.ViewReferences.PARSER;

  private final TableDef table;

  ColumnDefaults(TableDef table) {
    this.table = table;
  }

  @Override
  public ColumnStrategy generationStrategy(RelOptTable relTable, int iColumn) {
    Column c = table.columns().get(iColumn);
    if (c.defaultSql().isPresent()) { // (a generated column's placeholder too, below)
      return ColumnStrategy.DEFAULT;
    }
    return c.nullable() ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
  }

  @Override
  public RexNode newColumnDefaultValue(RelOptTable relTable, int iColumn, InitializerContext context) {
    Column c = table.columns().get(iColumn);
    RelDataType type = relTable.getRowType().getFieldList().get(iColumn).getType();
    if (c.generated()) {
      // a placeholder the table writer replaces with the computed value (a NOT NULL column's cannot be NULL here)
      return type.isNullable() ? context.getRexBuilder().makeNullLiteral(type)
          : context.getRexBuilder().makeZeroLiteral(type);
    }
    if (c.insertDefault().isEmpty()) {
      return context.getRexBuilder().makeNullLiteral(type);
    }
    // PostgreSQL's syntax as statements get it rewritten: nextval('s'::regclass) of SERIAL and identity columns
    SqlNode parsed = context.parseExpression(PARSER, StatementPlanner.planningSyntax(c.insertDefault().get()));
    SqlNode validated = context.validateExpression(relTable.getRowType(), parsed);
    RexNode value = context.convertExpression(validated);
    return context.getRexBuilder().makeCast(type, value, true, false);
  }
}
