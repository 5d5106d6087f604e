package io.accel.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Result types as PostgreSQL derives them: SUM of SMALLINT/INTEGER is BIGINT, so sums do not overflow
 * (SUM of BIGINT stays BIGINT, see below); AVG of an exact type is NUMERIC, not a truncated integer; NUMERIC
 * carries up to 38 digits.
 */
public final class AccelTypeSystem extends RelDataTypeSystemImpl {
  public static final AccelTypeSystem INSTANCE = new AccelTypeSystem();

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxPrecision(typeName);
  }

  @Override
  public int getMaxScale(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxScale(typeName);
  }

  /**
   * NUMERIC without a precision (a cast {@code x::numeric}, as in {@code round(avg(x)::numeric, 2)}) is the type
   * of an unconstrained NUMERIC column, NUMERIC(38,19), not Calcite's DECIMAL(19,0), which rounded 1.50::numeric
   * to 2.
   */
  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    return switch (typeName) {
      // x::timestamp, CAST(x AS time), CURRENT_TIMESTAMP: PostgreSQL keeps the fraction of a second where no
      // precision is given; Calcite's precision 0 cut '10:00:00.5'::time to 10:00:00
      case DECIMAL, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> getMaxPrecision(typeName);
      default -> super.getDefaultPrecision(typeName);
    };
  }

  @Override
  public int getDefaultScale(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? getMaxScale(typeName) / 2 : super.getDefaultScale(typeName);
  }

  /** The type of unconstrained NUMERIC (a column declared without precision, a cast {@code x::numeric}). */
  public static RelDataType unconstrainedNumeric(RelDataTypeFactory factory) {
    return factory.createSqlType(SqlTypeName.DECIMAL, INSTANCE.getMaxPrecision(SqlTypeName.DECIMAL),
        INSTANCE.getDefaultScale(SqlTypeName.DECIMAL));
  }

  /** Whether {@code type} is unconstrained NUMERIC's (whose values keep their own scales). */
  public static boolean isUnconstrainedNumeric(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DECIMAL && isUnconstrainedNumeric(type.getPrecision(), type.getScale());
  }

  /** Whether a NUMERIC of this precision and scale is unconstrained NUMERIC's type. */
  public static boolean isUnconstrainedNumeric(int precision, int scale) {
    return precision == INSTANCE.getMaxPrecision(SqlTypeName.DECIMAL)
        && scale == INSTANCE.getDefaultScale(SqlTypeName.DECIMAL);
  }

  /** Unconstrained NUMERIC, nullable when any of the operands {@code from} is. */
  static org.apache.calcite.sql.type.SqlReturnTypeInference unconstrainedNumeric(int... from) {
    return binding -> {
      boolean nullable = false;
      for (int i : from) {
        nullable |= binding.getOperandType(i).isNullable();
      }
      return binding.getTypeFactory().createTypeWithNullability(unconstrainedNumeric(binding.getTypeFactory()),
          nullable);
    };
  }

  /** PostgreSQL rounds half away from zero when a cast or an operation drops digits (2.5::int = 3). */
  @Override
  public java.math.RoundingMode roundingMode() {
    return java.math.RoundingMode.HALF_UP;
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
    RelDataType t = switch (argumentType.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER -> factory.createSqlType(SqlTypeName.BIGINT);
      // PostgreSQL sums BIGINT into NUMERIC; Calcite cannot add a long into a DECIMAL accumulator, so the
      // sum stays BIGINT and overflow is reported (22003) by checked arithmetic instead.
      case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
      // PostgreSQL's sum of NUMERIC is unconstrained; ten more integer digits than the argument is room for
      // ten billion rows of its largest value while leaving digits for the scale of whatever the sum feeds
      // (a sum at 38 digits left a quotient sum(n) / 2 no decimals beyond n's: 4.25 / 2 gave 2.13).
      case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL,
          Math.min(getMaxPrecision(SqlTypeName.DECIMAL), argumentType.getPrecision() + 10), argumentType.getScale());
      default -> super.deriveSumType(factory, argumentType);
    };
    return factory.createTypeWithNullability(t, argumentType.isNullable());
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
    RelDataType t = switch (argumentType.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, 38, 16);
      default -> super.deriveAvgAggType(factory, argumentType);
    };
    return factory.createTypeWithNullability(t, argumentType.isNullable());
  }

  /**
   * NUMERIC division keeps 16 decimals (more when an operand has more): PostgreSQL's scale for quotients of 1
   * and more (7.0 / 2 = 3.5000000000000000; below 1 it gives 20). The scale comes first and the integer digits
   * get what is left of 38, so a quotient of a wide dividend keeps its decimals (a quotient beyond 10^22 is an
   * overflow, 22003, rather than a silently rounded value). Calcite's default type kept 6 decimals when the
   * dividend is wide, as the NUMERIC(38,16) of an AVG is (AVG(i) / -6 gave -0.333333).
   */
  @Override
  public RelDataType deriveDecimalDivideType(RelDataTypeFactory factory, RelDataType type1, RelDataType type2) {
    if (!SqlTypeUtil.isExactNumeric(type1) || !SqlTypeUtil.isExactNumeric(type2)
        || !SqlTypeUtil.isDecimal(type1) && !SqlTypeUtil.isDecimal(type2)) {
      return super.deriveDecimalDivideType(factory, type1, type2);
    }
    int max = getMaxPrecision(SqlTypeName.DECIMAL);
    // an unconstrained NUMERIC's values keep their own scales, most often small: counted as 0, so 10::numeric / 4
    // keeps PostgreSQL's 16 decimals rather than the type's 19
    int s1 = isUnconstrainedNumeric(type1) ? 0 : Math.max(type1.getScale(), 0);
    int s2 = isUnconstrainedNumeric(type2) ? 0 : Math.max(type2.getScale(), 0);
    int scale = Math.min(max - 1, Math.max(16, Math.max(s1, s2)));
    int integerDigits = Math.min(max - scale, type1.getPrecision() - s1 + s2);
    RelDataType t = factory.createSqlType(SqlTypeName.DECIMAL, Math.max(1, Math.min(max, integerDigits + scale)),
        scale);
    return factory.createTypeWithNullability(t, type1.isNullable() || type2.isNullable());
  }

  /**
   * A product with an unconstrained NUMERIC operand is unconstrained NUMERIC, as in PostgreSQL (its value keeps the
   * operands' scales added, see PgExpressions); Calcite's sum of the scales made NUMERIC(38,38) of two of them.
   */
  @Override
  public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory factory, RelDataType type1, RelDataType type2) {
    if (SqlTypeUtil.isExactNumeric(type1) && SqlTypeUtil.isExactNumeric(type2)
        && (isUnconstrainedNumeric(type1) || isUnconstrainedNumeric(type2))) {
      return factory.createTypeWithNullability(unconstrainedNumeric(factory),
          type1.isNullable() || type2.isNullable());
    }
    return super.deriveDecimalMultiplyType(factory, type1, type2);
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}
