package io.accel.plan;

import io.accel.catalog.IndexDef;
import java.util.List;
import org.apache.calcite.rex.RexNode;

/**
 * One way to read a table for a scan, as the planner chose it: the key space (an index, or the table's
 * rows in primary-key order), the bounds on its leading key columns, the conditions evaluated on each
 * index entry before the row is fetched (Index Condition Pushdown) and on the fetched row (residual),
 * whether the entry covers every column the scan returns, the direction, and the estimates its cost
 * comes from. Conditions are over the table's full row type.
 *
 * @param index     the index read, or null for the table itself (primary key range or full scan)
 * @param keys      bounds on the leading key columns; empty for a full scan of the key space
 * @param icp       evaluated on the decoded index entry; null when none
 * @param residual  evaluated on the fetched row; null when none
 * @param covering  the entry holds every column needed: no row is fetched
 * @param reverse   read the key space backwards (ORDER BY in the opposite direction)
 * @param limit     rows the consumer takes before stopping (a LIMIT satisfied by the key order), or -1
 */
record AccessPath(IndexDef index, List<KeyBound> keys, RexNode icp, RexNode residual, boolean covering,
    boolean reverse, double limit, Estimate estimate) {

  AccessPath {
    keys = List.copyOf(keys);
  }

  AccessPath withOrder(boolean reverse, double limit, Estimate estimate) {
    return new AccessPath(index, keys, icp, residual, covering, reverse, limit, estimate);
  }

  /** A bound value: a constant in the engine's representation, or an expression evaluated per execution. */
  record PlanValue(Object constant, RexNode expr) {
    static PlanValue of(Object constant) {
      return new PlanValue(constant, null);
    }

    static PlanValue runtime(RexNode expr) {
      return new PlanValue(null, expr);
    }

    boolean isConstant() {
      return expr == null;
    }
  }

  /** An interval of a key column; a point has the same inclusive value at both ends. */
  record PlanInterval(PlanValue low, boolean lowInclusive, PlanValue high, boolean highInclusive,
      boolean nullPoint) {
    static PlanInterval point(PlanValue v) {
      return new PlanInterval(v, true, v, true, false);
    }

    static PlanInterval isNull() {
      return new PlanInterval(null, false, null, false, true);
    }

    boolean isPoint() {
      return nullPoint || low != null && low == high && lowInclusive && highInclusive;
    }
  }

  /**
   * The rest of a row-value bound, {@code (c1, c2, ...) > (v1, v2, ...)}: the values of the key columns after
   * the bound one (c2, ...), in key order; {@code inclusive} for {@code >=} and {@code <=}. The bound column's
   * own interval is {@code c1 >= v1} (or {@code <=}); the tail narrows where the scan starts (or stops) to the
   * whole tuple, so the scan is one seek. The comparison is still evaluated on each entry.
   */
  record Tail(List<Integer> columns, List<PlanValue> values, boolean inclusive) {
    Tail {
      columns = List.copyOf(columns);
      values = List.copyOf(values);
    }
  }

  /**
   * The values read from one key column (by table ordinal), in the column's key direction; with a row-value
   * bound, its tail on the low or high side (one interval only).
   */
  record KeyBound(int column, boolean descending, List<PlanInterval> intervals, Tail lowTail, Tail highTail) {
    KeyBound {
      intervals = List.copyOf(intervals);
    }

    KeyBound(int column, boolean descending, List<PlanInterval> intervals) {
      this(column, descending, intervals, null, null);
    }

    boolean allPoints() {
      return !skip() && intervals.stream().allMatch(PlanInterval::isPoint);
    }

    /** A skipped column (no intervals): the scan visits each of its values in the index. */
    boolean skip() {
      return intervals.isEmpty();
    }

    /** The column holds a single value in every row the scan reads. */
    boolean fixed() {
      return intervals.size() == 1 && intervals.get(0).isPoint();
    }
  }

  /**
   * The planner's estimates: seeks, index entries read, rows fetched from the table (for a table scan,
   * rows read), rows returned, and the cost in Volcano's units.
   */
  record Estimate(double seeks, double entries, double fetches, double rows, double cost) {
  }
}
