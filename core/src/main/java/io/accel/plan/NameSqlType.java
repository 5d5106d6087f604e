package io.accel.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.BasicSqlType;

/**
 * PostgreSQL's {@code name}, the type of the system catalogs' identifiers ({@code relname}, {@code attname}, ...): a
 * VARCHAR to Calcite that keeps its own digest ({@code NAME}), so a result column, and an array aggregated from one,
 * reaches clients as {@code name} and {@code name[]}, as PostgreSQL's does (node-postgres parses a text[] into an
 * array and leaves a name[] as its text, which Sequelize's index listing reads).
 */
public final class NameSqlType extends NamedTextType {
  NameSqlType(RelDataTypeSystem typeSystem, boolean nullable) {
    super(typeSystem, nullable);
    computeDigest();
  }

  /** The type {@code name}, nullable. */
  public static RelDataType of(RelDataTypeFactory factory) {
    return factory.createTypeWithNullability(new NameSqlType(factory.getTypeSystem(), true), true);
  }

  public static boolean is(RelDataType type) {
    return type instanceof NameSqlType;
  }

  @Override
  public BasicSqlType createWithNullability(boolean nullable) {
    return nullable == isNullable ? this : new NameSqlType(typeSystem, nullable);
  }

  @Override
  protected void generateTypeString(StringBuilder sb, boolean withDetail) {
    sb.append("NAME");
  }
}
