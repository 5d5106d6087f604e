package io.accel.plan;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * INSERT, UPDATE or DELETE of an Accel table in the Enumerable convention: Calcite computes the rows to
 * write (for UPDATE, each old row followed by its new column values); {@link TableModification} writes
 * them through the statement's transaction and returns the row count.
 */
public final class AccelTableModify extends TableModify implements EnumerableRel {
  private static final Method EXECUTE = Types.lookupMethod(TableModification.class, "execute",
      TableModification.class, DataContext.class, Enumerable.class);

  AccelTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
      RelNode input, Operation operation, @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList, boolean flattened) {
    super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new AccelTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs), getOperation(),
        getUpdateColumnList(), getSourceExpressionList(), isFlattened());
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder builder = new BlockBuilder();
    Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    Expression childExp = builder.append("child", child.block);
    PhysType childType = child.physType;
    ParameterExpression row = Expressions.parameter(childType.getJavaRowType(), "row");
    List<Expression> fields = new ArrayList<>();
    for (int i = 0; i < childType.getRowType().getFieldCount(); i++) {
      fields.add(Expressions.box(childType.fieldReference(row, i)));
    }
    Expression rows = builder.append("rows", Expressions.call(childExp, BuiltInMethod.SELECT.method,
        Expressions.lambda(Expressions.newArrayInit(Object.class, fields), row)));
    AccelTable accelTable = getTable().unwrapOrThrow(AccelTable.class);
    List<String> updateColumns = getUpdateColumnList() == null ? List.of() : getUpdateColumnList();
    TableModification modification = new TableModification(accelTable, getOperation(), updateColumns,
        org.apache.calcite.plan.RelOptUtil.findAllTables(getInput()).isEmpty());
    Expression plan = implementor.stash(modification, TableModification.class);
    Expression count = Expressions.call(EXECUTE, plan, DataContext.ROOT, rows);
    builder.add(Expressions.return_(null, Expressions.call(BuiltInMethod.SINGLETON_ENUMERABLE.method, count)));
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref == Prefer.ARRAY ? JavaRowFormat.ARRAY : JavaRowFormat.SCALAR);
    return implementor.result(physType, builder.toBlock());
  }
}
