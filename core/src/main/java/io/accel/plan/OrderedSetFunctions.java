package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

/**
 * The ordered-set aggregates {@code percentile_cont}, {@code percentile_disc} and {@code mode} as aggregates of the
 * ordered value (see {@link io.accel.sql.OrderedSetAggregates}): the values are collected, sorted, and the result
 * read as PostgreSQL defines it. NULL values are skipped; no value gives NULL. Called by generated code.
 */
public final class OrderedSetFunctions {
  private OrderedSetFunctions() {
  }

  static List<SqlOperator> operators() {
    SqlReturnTypeInference dbl = ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(
        org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE);
    return List.of(
        aggregate("accel_percentile_cont", dbl, List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC,
            SqlTypeFamily.BOOLEAN), List.of(SqlTypeName.DOUBLE, SqlTypeName.DOUBLE, SqlTypeName.BOOLEAN),
            PercentileCont.class),
        aggregate("accel_percentile_disc", dbl, List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC,
            SqlTypeFamily.BOOLEAN), List.of(SqlTypeName.DOUBLE, SqlTypeName.DOUBLE, SqlTypeName.BOOLEAN),
            PercentileDisc.class),
        aggregate("accel_mode", ReturnTypes.ARG0_FORCE_NULLABLE, List.of(SqlTypeFamily.ANY, SqlTypeFamily.BOOLEAN),
            null, Mode.class));
  }

  private static SqlUserDefinedAggFunction aggregate(String name, SqlReturnTypeInference returnType,
      List<SqlTypeFamily> families, List<SqlTypeName> types, Class<?> implementation) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        returnType, InferTypes.FIRST_KNOWN, OperandTypes.operandMetadata(families,
            f -> types == null ? List.of(f.createSqlType(SqlTypeName.ANY), f.createSqlType(SqlTypeName.BOOLEAN))
                : types.stream().map(f::createSqlType).toList(), i -> "arg" + i, i -> false),
        AggregateFunctionImpl.create(implementation), false, false, Optionality.FORBIDDEN);
  }

  /** The values collected for one group, with the direct argument and the order's direction. */
  public static final class Values {
    final List<Object> values = new ArrayList<>();
    Double fraction;
    boolean descending;

    void sort() {
      @SuppressWarnings({"unchecked", "rawtypes"})
      Comparator<Object> order = (a, b) -> ((Comparable) a).compareTo(b);
      values.sort(descending ? order.reversed() : order);
    }

    double fraction() {
      if (fraction == null || fraction < 0 || fraction > 1 || fraction.isNaN()) {
        throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "percentile value " + fraction
            + " is not between 0 and 1");
      }
      return fraction;
    }
  }

  /** percentile_cont: the value at the fraction's position, interpolated between its neighbours. */
  public static final class PercentileCont {
    public Values init() {
      return new Values();
    }

    // operands as the generated code has them (Integer, BigDecimal, Double, ...): read as doubles here
    public Values add(Values acc, Object value, Object fraction, Object descending) {
      acc.fraction = fraction == null ? null : ((Number) fraction).doubleValue();
      acc.descending = Boolean.TRUE.equals(descending);
      if (value != null) {
        acc.values.add(((Number) value).doubleValue());
      }
      return acc;
    }

    public Double result(Values acc) {
      if (acc.values.isEmpty()) {
        return null;
      }
      double f = acc.fraction();
      acc.sort();
      double position = f * (acc.values.size() - 1);
      int lo = (int) Math.floor(position);
      int hi = (int) Math.ceil(position);
      double low = (Double) acc.values.get(lo);
      double high = (Double) acc.values.get(hi);
      return low + (position - lo) * (high - low);
    }
  }

  /** percentile_disc: the first value whose position in the order reaches the fraction. */
  public static final class PercentileDisc {
    public Values init() {
      return new Values();
    }

    public Values add(Values acc, Object value, Object fraction, Object descending) {
      return new PercentileCont().add(acc, value, fraction, descending);
    }

    public Double result(Values acc) {
      if (acc.values.isEmpty()) {
        return null;
      }
      double f = acc.fraction();
      acc.sort();
      int index = Math.max(0, (int) Math.ceil(f * acc.values.size()) - 1);
      return (Double) acc.values.get(index);
    }
  }

  /** mode: the most frequent value, the first in the order among equally frequent ones. */
  public static final class Mode {
    public Values init() {
      return new Values();
    }

    public Values add(Values acc, Object value, Object descending) {
      acc.descending = Boolean.TRUE.equals(descending);
      if (value != null) {
        acc.values.add(value);
      }
      return acc;
    }

    public Object result(Values acc) {
      if (acc.values.isEmpty()) {
        return null;
      }
      acc.sort();
      Object best = null;
      int bestCount = 0;
      for (int i = 0; i < acc.values.size();) {
        int j = i;
        while (j < acc.values.size() && acc.values.get(j).equals(acc.values.get(i))) {
          j++;
        }
        if (j - i > bestCount) {
          best = acc.values.get(i);
          bestCount = j - i;
        }
        i = j;
      }
      return best;
    }
  }
}
