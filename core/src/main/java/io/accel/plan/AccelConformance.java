package io.accel.plan;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * Calcite's Babel conformance (PostgreSQL's LIMIT/OFFSET, {@code ::} casts, ...) plus PostgreSQL's checked
 * arithmetic: integer overflow is an error (22003), not a silent wrap-around. Calcite has no PostgreSQL
 * conformance of its own.
 */
public final class AccelConformance extends SqlDelegatingConformance {
  public static final AccelConformance INSTANCE = new AccelConformance();

  private AccelConformance() {
    super(SqlConformanceEnum.BABEL);
  }

  @Override
  public boolean checkedArithmetic() {
    return true;
  }
}
