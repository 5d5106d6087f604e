package io.accel.plan;

import io.accel.exec.AccessCounters.ScanStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Pair;

/**
 * EXPLAIN and EXPLAIN ANALYZE. {@link #program} is the planner program to prepare the statement with: the
 * standard one, then (for ANALYZE) an {@link AccelProbe} above every operator and per-scan counters; it
 * keeps the final plan so {@link #render} can print it, one operator per line, indented by depth, with
 * the planner's estimated rows and, after a run, the actual rows, loops and time of each operator and
 * what each scan read.
 */
public final class PlanExplainer {
  private final boolean analyze;
  private RelNode plan;

  public PlanExplainer(boolean analyze) {
    this.analyze = analyze;
  }

  /** The program that plans the statement and keeps (and for ANALYZE, instruments) the result. */
  public Program program() {
    Program standard = AccelPrepare.program();
    return (planner, rel, requiredOutputTraits, materializations, lattices) -> {
      RelNode optimized = standard.run(planner, rel, requiredOutputTraits, materializations, lattices);
      plan = analyze ? instrument(optimized) : optimized;
      return plan;
    };
  }

  public boolean planned() {
    return plan != null;
  }

  private RelNode instrument(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode probed = instrument(input);
      inputs.add(probed);
      changed |= probed != input;
    }
    RelNode copy = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (copy instanceof AccelScan scan) {
      scan.analyzeInto(new ScanStats());
    }
    if (copy instanceof IndexLookupJoin join) {
      join.analyzeInto(new ScanStats());
    }
    if (!(copy instanceof EnumerableRel)) {
      return copy;
    }
    return new AccelProbe(copy, new AccelProbe.OperatorStats());
  }

  /** The plan as text lines; with ANALYZE, call after the run. */
  public List<String> render() {
    List<String> lines = new ArrayList<>();
    if (plan != null) {
      render(plan, 0, null, lines);
    }
    return lines;
  }

  private void render(RelNode rel, int depth, AccelProbe.OperatorStats stats, List<String> lines) {
    if (rel instanceof AccelProbe probe) {
      render(probe.getInput(), depth, probe.stats(), lines);
      return;
    }
    StringBuilder line = new StringBuilder();
    line.append("  ".repeat(depth)).append(depth == 0 ? "" : "-> ").append(rel.getRelTypeName());
    Terms terms = new Terms();
    rel.explain(terms);
    line.append('(').append(String.join(", ", terms.items)).append(')');
    RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
    Double rows = mq.getRowCount(rel);
    if (!(rel instanceof AccelScan)) {
      line.append("  (est. rows=").append(rows == null ? "?" : Math.round(rows)).append(')');
    }
    if (stats != null) {
      line.append(String.format(Locale.ROOT, "  (actual rows=%d loops=%d time=%.3f ms)", stats.rows(), stats.loops(),
          stats.nanos() / 1e6));
    }
    if (rel instanceof AccelScan scan && scan.analyzeStats != null) {
      ScanStats s = scan.analyzeStats;
      line.append(String.format(Locale.ROOT, "  (seeks=%d index entries read=%d icp attempts=%d icp matches=%d"
          + " rows fetched=%d)", s.seeks(), s.entriesRead(), s.icpAttempts(), s.icpMatches(), s.rowsFetched()));
    }
    if (rel instanceof IndexLookupJoin join && join.analyzeStats != null) {
      ScanStats s = join.analyzeStats;
      line.append(String.format(Locale.ROOT, "  (lookups=%d seeks=%d index entries read=%d icp attempts=%d"
          + " icp matches=%d rows fetched=%d)", s.lookups(), s.seeks(), s.entriesRead(), s.icpAttempts(),
          s.icpMatches(), s.rowsFetched()));
    }
    lines.add(line.toString());
    for (RelNode input : rel.getInputs()) {
      render(input, depth + 1, null, lines);
    }
  }

  /** Sums the scan counters of the plan (for the summary lines of EXPLAIN ANALYZE). */
  public ScanStats scanTotals() {
    ScanStats total = new ScanStats();
    if (plan != null) {
      collect(plan, total);
    }
    return total;
  }

  private static void collect(RelNode rel, ScanStats total) {
    if (rel instanceof AccelScan scan && scan.analyzeStats != null) {
      total.addAll(scan.analyzeStats);
    }
    if (rel instanceof IndexLookupJoin join && join.analyzeStats != null) {
      total.addAll(join.analyzeStats);
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, total);
    }
  }

  /** Collects an operator's explain terms, leaving out its inputs (printed as nested lines). */
  private static final class Terms implements RelWriter {
    final List<String> items = new ArrayList<>();

    @Override
    public void explain(RelNode rel, List<Pair<String, Object>> valueList) {
      for (Pair<String, Object> p : valueList) {
        item(p.left, p.right);
      }
    }

    @Override
    public SqlExplainLevel getDetailLevel() {
      return SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    }

    @Override
    public RelWriter item(String term, Object value) {
      if (!(value instanceof RelNode)) {
        items.add(term + "=[" + value + "]");
      }
      return this;
    }

    @Override
    public RelWriter done(RelNode node) {
      return this;
    }

    @Override
    public boolean nest() {
      return false;
    }
  }

}
