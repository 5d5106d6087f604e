package io.accel.plan;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.checkerframework.checker.nullness.qual.Nullable;
import com.google.common.collect.ImmutableList;

/**
 * A constant relation of many rows whose values live beside the generated code instead of in it.
 * Calcite's EnumerableValues writes every literal into one generated method, which fails past the JVM's
 * 64 KB method limit (a multi-row INSERT of some thousands of rows, an IN list Calcite turned into a join
 * with a VALUES relation); here the rows are converted once, at plan time, to the representation the
 * generated code of the operators above reads, and handed to it through the implementor's stash.
 */
public final class AccelValues extends Values implements EnumerableRel {
  /** Relations of up to this many rows stay Calcite's EnumerableValues (inline constants compile fine). */
  static final int MIN_ROWS = 64;

  /** Converts large logical VALUES relations. */
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalValues.class, (LogicalValues v) -> v.getTuples().size() > MIN_ROWS
              && v.getRowType().getFieldCount() > 0,
          Convention.NONE, EnumerableConvention.INSTANCE, "AccelValuesRule")
      .withRuleFactory(Rule::new)
      .toRule(ConverterRule.class);

  private AccelValues(RelOptCluster cluster, RelDataType rowType,
      ImmutableList<ImmutableList<RexLiteral>> tuples, RelTraitSet traits) {
    super(cluster, List.of(), rowType, tuples, traits);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new AccelValues(getCluster(), getRowType(), getTuples(), traitSet);
  }

  @Override
  public org.apache.calcite.plan.@Nullable RelOptCost computeSelfCost(org.apache.calcite.plan.RelOptPlanner planner,
      org.apache.calcite.rel.metadata.RelMetadataQuery mq) {
    // a little cheaper than EnumerableValues, so Volcano takes this one for the relations it converts
    return super.computeSelfCost(planner, mq).multiplyBy(0.9);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaTypeFactory typeFactory = implementor.getTypeFactory();
    PhysType physType = PhysTypeImpl.of(typeFactory, getRowType(), JavaRowFormat.ARRAY);
    boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    List<RelDataType> types = getRowType().getFieldList().stream().map(f -> f.getType()).toList();
    List<Object> rows = new ArrayList<>(tuples.size());
    for (List<RexLiteral> tuple : tuples) {
      if (scalar) {
        rows.add(value(tuple.get(0), types.get(0), typeFactory));
      } else {
        Object[] row = new Object[tuple.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = value(tuple.get(i), types.get(i), typeFactory);
        }
        rows.add(row);
      }
    }
    BlockBuilder builder = new BlockBuilder();
    Expression stashed = implementor.stash(rows, List.class);
    builder.add(Expressions.return_(null, Expressions.call(Linq4j.class, "asEnumerable", stashed)));
    return implementor.result(physType, builder.toBlock());
  }

  /** A literal as the generated code represents it (as Calcite's {@code RexToLixTranslator.translateLiteral}). */
  static @Nullable Object value(RexLiteral literal, RelDataType type, JavaTypeFactory typeFactory) {
    if (literal.isNull()) {
      return null;
    }
    Type javaClass = typeFactory.getJavaClass(type);
    switch (literal.getType().getSqlTypeName()) {
      case DECIMAL: {
        BigDecimal bd = literal.getValueAs(BigDecimal.class);
        if (javaClass == float.class || javaClass == Float.class) {
          return bd.floatValue();
        }
        if (javaClass == double.class || javaClass == Double.class) {
          return bd.doubleValue();
        }
        return bd;
      }
      case DATE, TIME, TIME_TZ, TIME_WITH_LOCAL_TIME_ZONE, INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH:
        return literal.getValueAs(Integer.class);
      case TIMESTAMP, TIMESTAMP_TZ, TIMESTAMP_WITH_LOCAL_TIME_ZONE, INTERVAL_DAY, INTERVAL_DAY_HOUR,
          INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND,
          INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND, INTERVAL_SECOND:
        return literal.getValueAs(Long.class);
      case CHAR, VARCHAR:
        return literal.getValueAs(String.class);
      case UUID:
        return java.util.UUID.fromString(literal.getValueAs(String.class));
      case BINARY, VARBINARY:
        return new ByteString(literal.getValueAs(byte[].class));
      case SYMBOL:
        return literal.getValueAs(Enum.class);
      default: {
        Primitive primitive = Primitive.ofBoxOr(javaClass);
        Comparable<?> value = literal.getValueAs(Comparable.class);
        return primitive != null && value instanceof Number n ? primitive.number(n) : value;
      }
    }
  }

  /** The converter rule. */
  private static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      Values values = (Values) rel;
      return new AccelValues(values.getCluster(), values.getRowType(), values.getTuples(),
          values.getTraitSet().replace(EnumerableConvention.INSTANCE));
    }
  }
}
