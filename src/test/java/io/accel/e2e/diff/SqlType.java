package io.accel.e2e.diff;

/**
 * The column types the differential generator uses, with the PostgreSQL typing rules the generator needs to
 * stay inside what PostgreSQL accepts (numeric promotion, overflow limits).
 */
enum SqlType {
  SMALLINT("SMALLINT", Family.NUM, 0, 30_000),
  INTEGER("INTEGER", Family.NUM, 1, 2.0e9),
  BIGINT("BIGINT", Family.NUM, 2, 9.0e18),
  NUMERIC("NUMERIC(10,2)", Family.NUM, 3, 1.0e11),
  DOUBLE("DOUBLE PRECISION", Family.NUM, 4, 1.0e15),
  VARCHAR("VARCHAR(20)", Family.STR, -1, 0),
  TEXT("TEXT", Family.STR, -1, 0),
  BOOLEAN("BOOLEAN", Family.BOOL, -1, 0),
  DATE("DATE", Family.DATE, -1, 0);

  enum Family { NUM, STR, BOOL, DATE }

  final String ddl;
  final Family family;
  /** Numeric promotion rank (PostgreSQL: smallint < integer < bigint < numeric < double precision). */
  final int rank;
  /**
   * The largest magnitude an expression of this type may reach without risking an overflow error in
   * PostgreSQL (for NUMERIC: kept well inside a DECIMAL(19) so precision is not the issue being tested).
   */
  final double limit;

  SqlType(String ddl, Family family, int rank, double limit) {
    this.ddl = ddl;
    this.family = family;
    this.rank = rank;
    this.limit = limit;
  }

  boolean isIntegral() {
    return this == SMALLINT || this == INTEGER || this == BIGINT;
  }

  boolean isNum() {
    return family == Family.NUM;
  }

  /** The result type of {@code a op b} for + - * in PostgreSQL. */
  static SqlType promote(SqlType a, SqlType b) {
    return a.rank >= b.rank ? a : b;
  }

  /** PostgreSQL's result type of sum(x). */
  SqlType sumType() {
    return switch (this) {
      case SMALLINT, INTEGER -> BIGINT;
      case BIGINT, NUMERIC -> NUMERIC;
      default -> DOUBLE;
    };
  }

  /** PostgreSQL's result type of avg(x). */
  SqlType avgType() {
    return this == DOUBLE ? DOUBLE : NUMERIC;
  }
}
