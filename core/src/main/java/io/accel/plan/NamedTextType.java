package io.accel.plan;

import java.nio.charset.Charset;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.type.BasicSqlType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Util;

/**
 * A PostgreSQL text type Calcite has no name for (json, jsonb, name): a VARCHAR of unbounded length with the default
 * character set, whose subclass gives it a digest of its own (so Calcite's type cache keeps it apart from VARCHAR)
 * and keeps its class through {@link #createWithNullability}.
 */
abstract class NamedTextType extends BasicSqlType {
  NamedTextType(RelDataTypeSystem typeSystem, boolean nullable) {
    super(typeSystem, SqlTypeName.VARCHAR, nullable);
  }

  @Override
  public Charset getCharset() {
    return Util.getDefaultCharset();
  }

  @Override
  public SqlCollation getCollation() {
    return SqlCollation.IMPLICIT;
  }

  @Override
  public int getPrecision() {
    return RelDataType.PRECISION_NOT_SPECIFIED;
  }
}
