package io.accel.plan;

import io.accel.exec.AccessCounters.ScanStats;
import java.util.List;

/** A statement {@link DirectPlanner} planned, as EXPLAIN [ANALYZE] shows it. */
public interface DirectPlan {
  /** Counts what the plan's scan reads in the runs from now on (EXPLAIN ANALYZE plans afresh for its run). */
  void analyze();

  /** The operators, one per line, indented by depth as for the general planner's plans; with counts after a run. */
  List<String> explain();

  /** What the scan read in the analysed runs. */
  ScanStats scanTotals();
}
