package io.accel.plan;

import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.linq4j.function.Functions;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Sorts on one key without Calcite's slow comparison of numbers. Calcite 1.42 sorts on a single key with
 * {@code Functions.nullsComparator}, which compares any two numbers by converting both to
 * {@link java.math.BigDecimal} on every comparison: exact for mixed types, but {@code new BigDecimal(double)}
 * costs about a microsecond, and C1 ({@code ORDER BY ctr DESC LIMIT 100} over 50,000 groups) spent most of
 * its time there. After planning, {@link #replaceSorts} replaces Calcite's {@code EnumerableSort} and
 * {@code EnumerableLimitSort} by these subclasses, and a limit over a full sort by one bounded sort, whose generated code calls {@link #nullsComparator}
 * instead: two values of the same class compare directly ({@link #compareFloats} for floats: NaN above every number, -0 equal to 0,
 * as in PostgreSQL), anything else as Calcite does. EXPLAIN shows the same operator names.
 */
public final class AccelSort {
  private AccelSort() {
  }

  private static final Method CALCITE_NULLS_COMPARATOR = BuiltInMethod.NULLS_COMPARATOR.method;
  private static final Method NULLS_COMPARATOR = method("nullsComparator", boolean.class, boolean.class);

  /** The last planning phase: Calcite's one-key sorts become Accel's. */
  public static RelNode replaceSorts(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        if (other instanceof org.apache.calcite.adapter.enumerable.EnumerableMergeUnion union) {
          // an input Volcano chose for the merge's sorted subset without that order (a FULL JOIN with an empty
          // side reduced to a Calc over a scan; copying the union then failed, XX000): sorted here
          RelCollation collation = union.getTraitSet().getCollation();
          List<RelNode> inputs = new java.util.ArrayList<>();
          for (RelNode input : union.getInputs()) {
            RelNode visitedInput = input.accept(this);
            RelCollation order = visitedInput.getTraitSet().getCollation();
            inputs.add(collation == null || order != null && order.satisfies(collation) ? visitedInput
                : new Sort(visitedInput.getCluster(), visitedInput.getTraitSet().replace(collation), visitedInput,
                    collation, null, null));
          }
          return union.copy(union.getTraitSet(), inputs);
        }
        RelNode visited = super.visit(other);
        if (visited instanceof EnumerableLimit limit && limit.getInput() instanceof Sort sort
            && sort.offset == null && sort.fetch == null) {
          // ORDER BY ... LIMIT n that Volcano left as a full sort then a cut (the input is not ordered): one
          // bounded sort keeping the best n rows, a worse row dropped after one comparison. Done here, not by
          // Calcite's EnumerableLimitSortRule in Volcano, which also replaced limits over ordered index scans.
          return new LimitSort(sort.getCluster(), limit.getTraitSet(), sort.getInput(), sort.getCollation(),
              limit.offset, limit.fetch);
        }
        if (visited.getClass() == EnumerableSort.class) {
          EnumerableSort s = (EnumerableSort) visited;
          return new Sort(s.getCluster(), s.getTraitSet(), s.getInput(), s.getCollation(), s.offset, s.fetch);
        }
        if (visited.getClass() == EnumerableLimitSort.class) {
          EnumerableLimitSort s = (EnumerableLimitSort) visited;
          return new LimitSort(s.getCluster(), s.getTraitSet(), s.getInput(), s.getCollation(), s.offset, s.fetch);
        }
        return visited;
      }
    });
  }

  /** The generated code with Accel's comparator wherever Calcite's one-key comparator was. */
  static BlockStatement withFastComparators(BlockStatement block) {
    return (BlockStatement) block.accept(new Shuttle() {
      @Override
      public Expression visit(MethodCallExpression call, @Nullable Expression target, List<Expression> args) {
        if (call.method.equals(CALCITE_NULLS_COMPARATOR)) {
          return Expressions.call(NULLS_COMPARATOR, args);
        }
        Method values = VALUE_COMPARISONS.get(call.method.getName());
        if (call.method.getDeclaringClass() == org.apache.calcite.runtime.Utilities.class && values != null
            && args.size() == 2) {
          // a key of a multi-key sort: a float with -0 equal to 0; an array (a List) is no Comparable, which
          // Calcite's call cast it to
          Class<?> key = call.method.getParameterTypes()[0];
          if (key == double.class || key == float.class) {
            return Expressions.call(COMPARE_FLOATS, args);
          }
          if (key == Comparable.class) {
            return Expressions.call(values, args.stream().map(AccelSort::uncastComparable).toList());
          }
        }
        return super.visit(call, target, args);
      }
    });
  }

  /**
   * Calcite's Utilities.compare, compareNullsFirst and compareNullsLast of Comparables, and Accel's for values
   * ({@link #compareValues} puts a NULL last).
   */
  private static final java.util.Map<String, Method> VALUE_COMPARISONS = java.util.Map.of(
      "compare", method("compareValues", Object.class, Object.class),
      "compareNullsLast", method("compareValues", Object.class, Object.class),
      "compareNullsFirst", method("compareNullsFirstValues", Object.class, Object.class));

  private static Method method(String name, Class<?>... parameters) {
    try {
      return AccelSort.class.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final Method COMPARE_FLOATS = method("compareFloats", double.class, double.class);

  private static Expression uncastComparable(Expression e) {
    return e instanceof org.apache.calcite.linq4j.tree.UnaryExpression u
        && u.getNodeType() == org.apache.calcite.linq4j.tree.ExpressionType.Convert && u.getType() == Comparable.class
        ? u.expression : e;
  }

  /**
   * Two values, a NULL after any other; arrays element by element, then by length; floats by
   * {@link #compareFloats}; the rest by their compareTo.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compareValues(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null || b == null) {
      return a == null ? 1 : -1;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        int c = compareValues(x.get(i), y.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.size(), y.size());
    }
    if ((a instanceof Double || a instanceof Float) && (b instanceof Double || b instanceof Float)) {
      return compareFloats(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    return ((Comparable) a).compareTo(b);
  }

  /** Floats as PostgreSQL orders them: -0 and 0 equal ({@code Double.compare} put -0 first), NaN above all. */
  public static int compareFloats(double a, double b) {
    return a == b ? 0 : Double.compare(a, b);
  }

  public static int compareNullsFirstValues(Object a, Object b) {
    return a == null || b == null ? (a == b ? 0 : a == null ? -1 : 1) : compareValues(a, b);
  }

  /** {@code EnumerableSort} with {@link #nullsComparator}. */
  static final class Sort extends EnumerableSort {
    Sort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation, @Nullable RexNode offset,
        @Nullable RexNode fetch) {
      super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public EnumerableSort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation,
        @Nullable RexNode offset, @Nullable RexNode fetch) {
      return new Sort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      Result r = super.implement(implementor, pref);
      return new Result(withFastComparators(r.block), r.physType, r.format);
    }

    @Override
    public String getRelTypeName() {
      return "EnumerableSort";
    }
  }

  /** {@code EnumerableLimitSort} (ORDER BY with LIMIT: a bounded sort) with {@link #nullsComparator}. */
  static final class LimitSort extends EnumerableLimitSort {
    LimitSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation,
        @Nullable RexNode offset, @Nullable RexNode fetch) {
      super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public EnumerableLimitSort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation,
        @Nullable RexNode offset, @Nullable RexNode fetch) {
      return new LimitSort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      Result r = super.implement(implementor, pref);
      return new Result(withFastComparators(r.block), r.physType, r.format);
    }

    @Override
    public String getRelTypeName() {
      return "EnumerableLimitSort";
    }
  }

  private static final Comparator<Object> NULLS_LAST = new FastComparator(false, false);
  private static final Comparator<Object> NULLS_LAST_REVERSE = new FastComparator(false, true);
  private static final Comparator<Object> NULLS_FIRST = new FastComparator(true, false);
  private static final Comparator<Object> NULLS_FIRST_REVERSE = new FastComparator(true, true);

  /** What generated sort code calls instead of {@code Functions.nullsComparator}; the same contract. */
  @SuppressWarnings("unchecked")
  public static <T> Comparator<T> nullsComparator(boolean nullsFirst, boolean reverse) {
    return (Comparator<T>) (nullsFirst ? (reverse ? NULLS_FIRST_REVERSE : NULLS_FIRST)
        : (reverse ? NULLS_LAST_REVERSE : NULLS_LAST));
  }

  /** Same-class numbers by their own compareTo; everything else (and nulls) by Calcite's comparator. */
  private static final class FastComparator implements Comparator<Object> {
    @SuppressWarnings("rawtypes")
    private final Comparator calcite;
    private final boolean reverse;

    @SuppressWarnings("rawtypes")
    FastComparator(boolean nullsFirst, boolean reverse) {
      this.calcite = Functions.<Comparable>nullsComparator(nullsFirst, reverse);
      this.reverse = reverse;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compare(Object a, Object b) {
      if (a instanceof Number && b != null && a.getClass() == b.getClass()) {
        int r = compareValues(a, b);
        return reverse ? -r : r;
      }
      return calcite.compare(a, b);
    }
  }
}
