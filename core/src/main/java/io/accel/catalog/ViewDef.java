package io.accel.catalog;

import java.util.List;

/**
 * A view: a named query the planner expands in place wherever the view is read, so the access paths of the tables
 * under it still apply. {@code sql} is the query as Calcite parses it (after Accel's PostgreSQL rewrites),
 * {@code definition} as the user wrote it; {@code columns}, {@code types} and {@code nullable} are the view's columns as they were
 * when it was created (the expanded query is cast to them).
 */
public record ViewDef(long id, String name, String sql, String definition, List<String> columns,
    List<DataType> types, List<Boolean> nullable) {

  public ViewDef {
    columns = List.copyOf(columns);
    types = List.copyOf(types);
    nullable = List.copyOf(nullable);
    if (columns.size() != types.size() || columns.size() != nullable.size()) {
      throw new IllegalArgumentException(columns.size() + " names for " + types.size() + " columns of view " + name);
    }
  }
}
