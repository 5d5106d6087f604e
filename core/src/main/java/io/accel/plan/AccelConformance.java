package io.accel.plan;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * Calcite's Babel conformance (PostgreSQL's LIMIT/OFFSET, {@code ::} casts, ...) made to behave as
 * PostgreSQL where Babel is more lenient: checked arithmetic (integer overflow is 22003, not a silent
 * wrap-around), strict GROUP BY. Calcite has no PostgreSQL conformance of its own.
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

  /** A SELECT list may only use grouped columns (PostgreSQL's 42803), not any value of the group. */
  @Override
  public boolean isNonStrictGroupBy() {
    return false;
  }

  @Override
  public boolean isGroupByAlias() {
    return true;
  }

  @Override
  public boolean isGroupByOrdinal() {
    return true;
  }

  @Override
  public boolean isSortByOrdinal() {
    return true;
  }

  @Override
  public boolean isBangEqualAllowed() {
    return true;
  }

  @Override
  public boolean isPercentRemainderAllowed() {
    return true;
  }

  @Override
  public boolean allowNiladicParentheses() {
    return true;
  }
}
