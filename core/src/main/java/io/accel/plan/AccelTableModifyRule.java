package io.accel.plan;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Turns a logical INSERT/UPDATE/DELETE of an Accel table into an {@link AccelTableModify}. */
public final class AccelTableModifyRule extends ConverterRule {
  public static final AccelTableModifyRule INSTANCE = new AccelTableModifyRule(Config.INSTANCE
      .withConversion(LogicalTableModify.class, Convention.NONE, EnumerableConvention.INSTANCE,
          "AccelTableModifyRule")
      .withRuleFactory(AccelTableModifyRule::new));

  private AccelTableModifyRule(Config config) {
    super(config);
  }

  @Override
  public @Nullable RelNode convert(RelNode rel) {
    LogicalTableModify modify = (LogicalTableModify) rel;
    if (modify.getTable().unwrap(AccelTable.class) == null) {
      return null;
    }
    RelTraitSet traits = modify.getTraitSet().replace(EnumerableConvention.INSTANCE);
    return new AccelTableModify(modify.getCluster(), traits, modify.getTable(), modify.getCatalogReader(),
        convert(modify.getInput(), traits), modify.getOperation(), modify.getUpdateColumnList(),
        modify.getSourceExpressionList(), modify.isFlattened());
  }
}
