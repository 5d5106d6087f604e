package io.accel.catalog;

/**
 * A CHECK constraint: a row may be stored only if {@code expression} (SQL over the table's columns, as written) is
 * not false. Named as PostgreSQL names it when the statement gave no name ({@code t_col_check}, {@code t_check}).
 */
public record CheckDef(String name, String expression) {
}
