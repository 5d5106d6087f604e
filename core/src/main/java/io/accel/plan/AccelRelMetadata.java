package io.accel.plan;

import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.catalog.TableStatistics;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The planner's estimates that Calcite's defaults get wrong for Accel, chained before them: distinct values
 * of an Accel scan's columns from the table's statistics, and the rows of an equi-join as
 * {@code |L| x |R| / max(ndv(L.key), ndv(R.key))} (the textbook estimate PostgreSQL also starts from) where
 * Calcite multiplies the cross product by a fixed 0.15. Without it every hash join looks thousands of times
 * larger than its result, and the cost-based choice between hash join and index lookup join means nothing.
 */
public final class AccelRelMetadata {
  private AccelRelMetadata() {
  }

  public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
      ReflectiveRelMetadataProvider.reflectiveSource(new JoinRows(), BuiltInMetadata.RowCount.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new ScanDistinct(),
          BuiltInMetadata.DistinctRowCount.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new JoinCost(),
          BuiltInMetadata.NonCumulativeCost.Handler.class),
      DefaultRelMetadataProvider.INSTANCE));

  /** Join row counts from the distinct values of the join keys. */
  public static final class JoinRows implements MetadataHandler<BuiltInMetadata.RowCount> {
    @Override
    public MetadataDef<BuiltInMetadata.RowCount> getDef() {
      return BuiltInMetadata.RowCount.DEF;
    }

    public Double getRowCount(Join join, RelMetadataQuery mq) {
      JoinRelType type = join.getJoinType();
      JoinInfo info = join.analyzeCondition();
      Double fallback = RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
      if (info.leftKeys.isEmpty() || type == JoinRelType.ASOF || type == JoinRelType.LEFT_ASOF
          || type == JoinRelType.LEFT_MARK) {
        return fallback;
      }
      Double left = mq.getRowCount(join.getLeft());
      Double right = mq.getRowCount(join.getRight());
      Double ndvLeft = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(info.leftKeys), null);
      Double ndvRight = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(info.rightKeys), null);
      if (left == null || right == null || ndvLeft == null || ndvRight == null) {
        return fallback;
      }
      double l = Math.max(1, left);
      double r = Math.max(1, right);
      double nl = Math.max(1, Math.min(ndvLeft, l));
      double nr = Math.max(1, Math.min(ndvRight, r));
      double rest = 1;
      if (!info.nonEquiConditions.isEmpty()) {
        RexNode c = RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions);
        rest = RelMdUtil.guessSelectivity(c);
      }
      double inner = l * r / Math.max(nl, nr) * rest;
      // the share of left keys that find a match, assuming the smaller key set is contained in the larger
      double leftMatched = Math.min(1, nr / nl) * rest;
      double rightMatched = Math.min(1, nl / nr) * rest;
      return switch (type) {
        case INNER -> inner;
        case LEFT -> Math.max(inner, l);
        case RIGHT -> Math.max(inner, r);
        case FULL -> Math.max(inner, Math.max(l, r));
        case SEMI -> Math.max(1, l * leftMatched);
        case ANTI -> Math.max(1, l * (1 - Math.min(0.9, leftMatched)));
        default -> fallback;
      };
    }
  }

  /**
   * The hash and merge joins' own work in the units of Accel's scan costs (a row read by a table scan is 1): for a
   * hash join each row of the build (right) side hashed and stored, each probe (left) row hashed, each result row
   * emitted. Calcite's own formula charges output rows plus n log n of the left side, many times the real work of
   * an in-memory hash table next to reading the rows from storage, which kept hash joins from winning
   * where they should.
   */
  public static final class JoinCost implements MetadataHandler<BuiltInMetadata.NonCumulativeCost> {
    static final double BUILD = 0.3;
    static final double PROBE = 0.1;
    static final double MERGE = 0.1;

    @Override
    public MetadataDef<BuiltInMetadata.NonCumulativeCost> getDef() {
      return BuiltInMetadata.NonCumulativeCost.DEF;
    }

    public RelOptCost getNonCumulativeCost(EnumerableHashJoin join, RelMetadataQuery mq) {
      Double left = mq.getRowCount(join.getLeft());
      Double right = mq.getRowCount(join.getRight());
      Double out = mq.getRowCount(join);
      if (left == null || right == null || out == null) {
        return join.computeSelfCost(join.getCluster().getPlanner(), mq);
      }
      double cost = right * BUILD + left * PROBE + out * AccessPathPlanner.EVAL;
      return join.getCluster().getPlanner().getCostFactory().makeCost(cost, cost, 0);
    }

    /**
     * A merge join of inputs already in key order (a sort below it has its own cost): each input row read once
     * and compared, nothing stored beyond a run of equal keys, each result row emitted.
     */
    public RelOptCost getNonCumulativeCost(org.apache.calcite.adapter.enumerable.EnumerableMergeJoin join,
        RelMetadataQuery mq) {
      Double left = mq.getRowCount(join.getLeft());
      Double right = mq.getRowCount(join.getRight());
      Double out = mq.getRowCount(join);
      if (left == null || right == null || out == null) {
        return join.computeSelfCost(join.getCluster().getPlanner(), mq);
      }
      double cost = (left + right) * MERGE + out * AccessPathPlanner.EVAL;
      return join.getCluster().getPlanner().getCostFactory().makeCost(cost, cost, 0);
    }

    public RelOptCost getNonCumulativeCost(RelNode rel, RelMetadataQuery mq) {
      return rel.computeSelfCost(rel.getCluster().getPlanner(), mq);
    }
  }

  /** Distinct values of an Accel scan's columns, from the table's statistics. */
  public static final class ScanDistinct implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
    @Override
    public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
      return BuiltInMetadata.DistinctRowCount.DEF;
    }

    public Double getDistinctRowCount(AccelScan scan, RelMetadataQuery mq, ImmutableBitSet groupKey,
        RexNode predicate) {
      double rows = Math.max(1, scan.estimateRowCount(mq));
      if (predicate != null && !predicate.isAlwaysTrue()) {
        rows = Math.max(1, rows * RelMdUtil.guessSelectivity(predicate));
      }
      if (groupKey.isEmpty()) {
        return 1.0;
      }
      Set<Integer> columns = new HashSet<>();
      for (int f : groupKey) {
        columns.add(scan.tableColumn(f));
      }
      double inTable = distinctInTable(scan.accelTable().definition(), scan.accelTable().statistics(), columns);
      double tableRows = Math.max(1, scan.accelTable().statistics().rowCount());
      if (rows >= tableRows) {
        return Math.min(rows, inTable);
      }
      // of N rows with d values evenly, a sample of n rows holds d * (1 - (1 - n/N)^(N/d)) of them
      double perValue = Math.max(1, tableRows / Math.max(1, inTable));
      double seen = inTable * (1 - Math.pow(1 - rows / tableRows, perValue));
      return Math.max(1, Math.min(rows, seen));
    }

    /** EXPLAIN ANALYZE's probes pass their input's distinct values through. */
    public Double getDistinctRowCount(AccelProbe probe, RelMetadataQuery mq, ImmutableBitSet groupKey,
        RexNode predicate) {
      return mq.getDistinctRowCount(probe.getInput(), groupKey, predicate);
    }

    static double distinctInTable(TableDef table, TableStatistics stats, Set<Integer> columns) {
      double rows = Math.max(1, stats.rowCount());
      if (!table.hasHiddenRowId() && columns.containsAll(table.primaryKey())) {
        return rows;
      }
      Double best = null;
      for (IndexDef index : table.plainIndexes()) {
        List<IndexColumn> ics = index.columns();
        Set<Integer> prefix = new HashSet<>();
        for (int n = 1; n <= ics.size(); n++) {
          prefix.add(ics.get(n - 1).column());
          if (prefix.equals(columns)) {
            double d = stats.distinctPrefix(index.id(), n);
            best = best == null ? d : Math.min(best, d);
          }
        }
      }
      if (!table.hasHiddenRowId()) {
        Set<Integer> prefix = new HashSet<>();
        for (int n = 1; n <= table.primaryKey().size(); n++) {
          prefix.add(table.primaryKey().get(n - 1));
          if (prefix.equals(columns)) {
            double d = stats.distinctPrimaryKeyPrefix(n);
            best = best == null ? d : Math.min(best, d);
          }
        }
      }
      if (best != null) {
        return Math.max(1, Math.min(rows, best));
      }
      double product = 1;
      for (int c : columns) {
        OptionalDouble d = stats.distinctValues(c);
        double one = d.isPresent() ? d.getAsDouble() : Math.min(rows, 200);
        if (!d.isPresent()) {
          for (IndexDef index : table.plainIndexes()) {
            if (index.columns().get(0).column() == c) {
              one = stats.distinctPrefix(index.id(), 1);
              break;
            }
          }
        }
        product *= Math.max(1, one);
      }
      return Math.max(1, Math.min(rows, product));
    }
  }
}
