package io.accel.catalog;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A column type with its modifiers: length for CHAR/VARCHAR, precision and scale for NUMERIC.
 * {@code precision} and {@code scale} are -1 where the declaration gave none.
 */
public record DataType(ColumnType kind, int precision, int scale) {

  public static DataType of(ColumnType kind) {
    return new DataType(kind, -1, -1);
  }

  public static DataType of(ColumnType kind, int precision) {
    return new DataType(kind, precision, -1);
  }

  /** The Calcite type for this declaration. */
  public RelDataType toRelDataType(RelDataTypeFactory factory, boolean nullable) {
    RelDataType t = switch (kind) {
      case NUMERIC -> precision < 0
          ? factory.createSqlType(kind.sqlTypeName(), factory.getTypeSystem().getMaxPrecision(kind.sqlTypeName()),
              factory.getTypeSystem().getMaxScale(kind.sqlTypeName()) / 2)
          : factory.createSqlType(kind.sqlTypeName(), precision, Math.max(scale, 0));
      // CHAR(n) values are stored without their padding and shown to Calcite as VARCHAR, so comparisons,
      // length() and || behave as PostgreSQL's bpchar does (trailing spaces are insignificant).
      case CHAR -> factory.createSqlType(SqlTypeName.VARCHAR);
      // VARCHAR(n) is unbounded to Calcite, whose implicit casts would silently truncate; the table
      // writer enforces the length with PostgreSQL's error (22001) instead.
      case VARCHAR -> factory.createSqlType(kind.sqlTypeName());
      case TIME, TIMESTAMP, TIMESTAMPTZ -> factory.createSqlType(kind.sqlTypeName(), 3);
      case JSON, JSONB -> io.accel.plan.JsonSqlType.of(factory, kind == ColumnType.JSONB);
      default -> factory.createSqlType(kind.sqlTypeName());
    };
    return factory.createTypeWithNullability(t, nullable);
  }

  /** The declaration as PostgreSQL would print it. */
  public String sqlName() {
    return switch (kind) {
      case NUMERIC -> precision < 0 ? "NUMERIC" : "NUMERIC(" + precision + "," + Math.max(scale, 0) + ")";
      case CHAR -> "CHAR(" + (precision < 0 ? 1 : precision) + ")";
      case VARCHAR -> precision < 0 ? "VARCHAR" : "VARCHAR(" + precision + ")";
      case DOUBLE -> "DOUBLE PRECISION";
      case TIMESTAMPTZ -> "TIMESTAMP WITH TIME ZONE";
      default -> kind.name();
    };
  }
}
