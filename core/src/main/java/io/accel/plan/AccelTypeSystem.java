package io.accel.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

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
      case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, 38, argumentType.getScale());
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

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}
