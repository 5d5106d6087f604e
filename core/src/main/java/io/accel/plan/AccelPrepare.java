package io.accel.plan;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Calcite's statement preparation with Accel's rules added to the planner. */
public class AccelPrepare extends CalcitePrepareImpl {
  @Override
  protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext, org.apache.calcite.plan.@Nullable Context externalContext,
      @Nullable RelOptCostFactory costFactory) {
    RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
    planner.addRule(AccelTableModifyRule.INSTANCE);
    return planner;
  }
}
