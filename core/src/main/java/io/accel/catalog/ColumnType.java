package io.accel.catalog;

import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The closed set of column types a table can declare, with the Calcite type each maps to.
 *
 * <p>Values travel through the engine in Calcite's internal Java representation:
 * SMALLINT {@code Short}, INTEGER {@code Integer}, BIGINT {@code Long}, NUMERIC {@code BigDecimal},
 * REAL {@code Float}, DOUBLE {@code Double}, BOOLEAN {@code Boolean}, CHAR/VARCHAR/TEXT {@code String},
 * DATE {@code Integer} (days since 1970-01-01), TIME {@code Integer} (milliseconds of the day),
 * TIMESTAMP {@code Long} (milliseconds since 1970-01-01 00:00, no zone), TIMESTAMPTZ {@code Long}
 * (milliseconds since the epoch, UTC), BYTEA {@code org.apache.calcite.avatica.util.ByteString},
 * UUID {@code java.util.UUID}, JSON and JSONB {@code String} (their text).
 */
public enum ColumnType {
  SMALLINT(SqlTypeName.SMALLINT, Short.class),
  INTEGER(SqlTypeName.INTEGER, Integer.class),
  BIGINT(SqlTypeName.BIGINT, Long.class),
  NUMERIC(SqlTypeName.DECIMAL, java.math.BigDecimal.class),
  REAL(SqlTypeName.REAL, Float.class),
  DOUBLE(SqlTypeName.DOUBLE, Double.class),
  BOOLEAN(SqlTypeName.BOOLEAN, Boolean.class),
  CHAR(SqlTypeName.CHAR, String.class),
  VARCHAR(SqlTypeName.VARCHAR, String.class),
  TEXT(SqlTypeName.VARCHAR, String.class),
  DATE(SqlTypeName.DATE, Integer.class),
  TIME(SqlTypeName.TIME, Integer.class),
  TIMESTAMP(SqlTypeName.TIMESTAMP, Long.class),
  TIMESTAMPTZ(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, Long.class),
  BYTEA(SqlTypeName.VARBINARY, org.apache.calcite.avatica.util.ByteString.class),
  UUID(SqlTypeName.UUID, java.util.UUID.class),
  /** The JSON text as written (validated). */
  JSON(SqlTypeName.VARCHAR, String.class),
  /** The JSON text as PostgreSQL prints a jsonb value (keys sorted, duplicates dropped, ", " and ": "). */
  JSONB(SqlTypeName.VARCHAR, String.class);

  private final SqlTypeName sqlTypeName;
  private final Class<?> javaClass;

  ColumnType(SqlTypeName sqlTypeName, Class<?> javaClass) {
    this.sqlTypeName = sqlTypeName;
    this.javaClass = javaClass;
  }

  public SqlTypeName sqlTypeName() {
    return sqlTypeName;
  }

  /** The Java class of this type's values inside the engine. */
  public Class<?> javaClass() {
    return javaClass;
  }
}
