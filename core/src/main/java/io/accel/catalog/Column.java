package io.accel.catalog;

import java.util.Optional;

/**
 * A table column: name (as stored, already case-folded), type, nullability and optional DEFAULT expression text. A
 * generated column ({@code GENERATED ALWAYS AS (expr) STORED}) keeps its expression there behind {@link #GENERATED}.
 */
public record Column(String name, DataType type, boolean nullable, Optional<String> defaultSql) {
  /** The prefix of a generated column's expression in {@link #defaultSql}. */
  public static final String GENERATED = "\u0000generated\u0000";

  public Column {
    defaultSql = defaultSql == null ? Optional.empty() : defaultSql;
  }

  /** Whether the column is computed from the row's other columns on every write. */
  public boolean generated() {
    return defaultSql.isPresent() && defaultSql.get().startsWith(GENERATED);
  }

  /** The expression of a generated column. */
  public Optional<String> generationExpression() {
    return generated() ? Optional.of(defaultSql.get().substring(GENERATED.length())) : Optional.empty();
  }

  /** The DEFAULT expression an INSERT uses for an omitted value: none for a generated column (it is computed). */
  public Optional<String> insertDefault() {
    return generated() ? Optional.empty() : defaultSql;
  }
}
