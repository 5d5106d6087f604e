package io.accel.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.BasicSqlType;

/**
 * A system catalog column whose PostgreSQL type Accel keeps as text: {@code name} (relname, attname, ...) and
 * {@code int2[]} (a constraint's conkey, held as its text {@code {1,2}}). A VARCHAR to Calcite with a digest of its
 * own ({@code NAME}, {@code _INT2}), so a result column reaches clients with PostgreSQL's type, and an array
 * aggregated from names as a {@code name[]}: node-postgres parses a text[] into an array and leaves a name[] as its
 * text, which Sequelize's index listing reads; psycopg2 parses an int2[] into a list, which SQLAlchemy's reflection
 * indexes.
 */
public final class NameSqlType extends NamedTextType {
  /** PostgreSQL's name. */
  public static final String NAME = "NAME";
  /** A smallint array, as its text. */
  public static final String INT2_ARRAY = "_INT2";

  private final String typeName;

  NameSqlType(RelDataTypeSystem typeSystem, String typeName, boolean nullable) {
    super(typeSystem, nullable);
    this.typeName = typeName;
    computeDigest();
  }

  /** The type {@code name}, nullable. */
  public static RelDataType of(RelDataTypeFactory factory) {
    return of(factory, NAME);
  }

  /** The type {@code typeName} ({@link #NAME} or {@link #INT2_ARRAY}), nullable. */
  public static RelDataType of(RelDataTypeFactory factory, String typeName) {
    return factory.createTypeWithNullability(new NameSqlType(factory.getTypeSystem(), typeName, true), true);
  }

  public static boolean is(RelDataType type) {
    return type instanceof NameSqlType n && n.typeName.equals(NAME);
  }

  /** The type's name as result metadata gives it ({@code NAME}, {@code _INT2}). */
  public String typeName() {
    return typeName;
  }

  @Override
  public BasicSqlType createWithNullability(boolean nullable) {
    return nullable == isNullable ? this : new NameSqlType(typeSystem, typeName, nullable);
  }

  @Override
  protected void generateTypeString(StringBuilder sb, boolean withDetail) {
    sb.append(typeName);
  }
}
