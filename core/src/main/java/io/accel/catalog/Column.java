package io.accel.catalog;

import java.util.Optional;

/** A table column: name (as stored, already case-folded), type, nullability and optional DEFAULT expression text. */
public record Column(String name, DataType type, boolean nullable, Optional<String> defaultSql) {

  public Column {
    defaultSql = defaultSql == null ? Optional.empty() : defaultSql;
  }
}
