package io.accel.plan;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * EXPLAIN ANALYZE's instrument: passes its input's rows through unchanged and counts them, the times
 * the input was opened (loops), and the time spent producing them (including the input's own inputs,
 * as PostgreSQL reports it). Inserted above every operator of a plan after optimisation.
 */
public final class AccelProbe extends SingleRel implements EnumerableRel {
  private final OperatorStats stats;

  AccelProbe(RelNode input, OperatorStats stats) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.stats = stats;
  }

  OperatorStats stats() {
    return stats;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new AccelProbe(sole(inputs), stats);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder builder = new BlockBuilder();
    Expression input = builder.append(builder.newName("probed"), child.block);
    builder.add(Expressions.return_(null, Expressions.call(AccelProbe.class, "wrap",
        implementor.stash(stats, OperatorStats.class), input)));
    return implementor.result(child.physType, builder.toBlock());
  }

  /** Counts what flows out of {@code input}. */
  public static <T> Enumerable<T> wrap(OperatorStats stats, Enumerable<T> input) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        long start = System.nanoTime();
        Enumerator<T> e = input.enumerator();
        stats.loops++;
        stats.nanos += System.nanoTime() - start;
        return new Enumerator<>() {
          @Override
          public T current() {
            return e.current();
          }

          @Override
          public boolean moveNext() {
            long t = System.nanoTime();
            boolean more = e.moveNext();
            stats.nanos += System.nanoTime() - t;
            if (more) {
              stats.rows++;
            }
            return more;
          }

          @Override
          public void reset() {
            e.reset();
          }

          @Override
          public void close() {
            long t = System.nanoTime();
            e.close();
            stats.nanos += System.nanoTime() - t;
          }
        };
      }
    };
  }

  /** Rows, loops and time of one operator in one EXPLAIN ANALYZE run (single-threaded, like the run). */
  public static final class OperatorStats {
    long rows;
    long loops;
    long nanos;

    public long rows() {
      return rows;
    }

    public long loops() {
      return loops;
    }

    public long nanos() {
      return nanos;
    }
  }
}
