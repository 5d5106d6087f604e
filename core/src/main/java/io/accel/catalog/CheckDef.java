package io.accel.catalog;

/**
 * A CHECK constraint: a row may be stored only if {@code expression} (SQL over the table's columns, as written) is
 * not false. Named as PostgreSQL names it when the statement gave no name ({@code t_col_check}, {@code t_check}).
 * Not {@code validated}: added NOT VALID, so rows stored before it were not checked (until VALIDATE CONSTRAINT).
 */
public record CheckDef(String name, String expression, boolean validated) {
  public CheckDef(String name, String expression) {
    this(name, expression, true);
  }

  /** This constraint, added NOT VALID ({@code validated} false) or validated. */
  public CheckDef withValidated(boolean isValidated) {
    return new CheckDef(name, expression, isValidated);
  }
}
