package io.accel.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.BasicSqlType;

/**
 * PostgreSQL's {@code json} and {@code jsonb} to Calcite: a VARCHAR (values are the JSON text, a String) that is a
 * type of its own, so casts to it validate (and for jsonb normalize) the text, and the JSON functions embed a json
 * argument as JSON rather than as a string. Its digest ({@code JSONB}) keeps it apart from VARCHAR in Calcite's type
 * cache; {@link #createWithNullability} and Accel's type factory keep it through Calcite's copies.
 */
public final class JsonSqlType extends NamedTextType {
  private final boolean binary;

  JsonSqlType(RelDataTypeSystem typeSystem, boolean binary, boolean nullable) {
    super(typeSystem, nullable);
    this.binary = binary;
    computeDigest();
  }

  /** The type {@code jsonb} (binary) or {@code json}, not null. */
  public static RelDataType of(RelDataTypeFactory factory, boolean binary) {
    return factory.createTypeWithNullability(new JsonSqlType(factory.getTypeSystem(), binary, true), false);
  }

  /** Whether {@code type} is json or jsonb. */
  public static boolean is(RelDataType type) {
    return type instanceof JsonSqlType;
  }

  /** Whether {@code type} is jsonb. */
  public static boolean isBinary(RelDataType type) {
    return type instanceof JsonSqlType j && j.binary;
  }

  public boolean binary() {
    return binary;
  }

  @Override
  public BasicSqlType createWithNullability(boolean nullable) {
    return nullable == isNullable ? this : new JsonSqlType(typeSystem, binary, nullable);
  }

  @Override
  protected void generateTypeString(StringBuilder sb, boolean withDetail) {
    sb.append(binary ? "JSONB" : "JSON");
  }
}
