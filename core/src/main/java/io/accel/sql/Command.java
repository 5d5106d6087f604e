package io.accel.sql;

import io.accel.catalog.DataType;
import java.util.List;
import java.util.Optional;

/** The statements Accel executes itself instead of handing them to Calcite: DDL and transaction control. */
public sealed interface Command {

  /** A column as declared in CREATE TABLE. */
  record ColumnSpec(String name, DataType type, boolean notNull, Optional<String> defaultSql) {
  }

  /** One key column of CREATE INDEX. */
  record IndexKeySpec(String column, boolean descending) {
  }

  record CreateTable(String name, boolean ifNotExists, List<ColumnSpec> columns, List<String> primaryKey,
      List<List<String>> uniqueKeys) implements Command {
  }

  record CreateIndex(Optional<String> name, String table, List<IndexKeySpec> keys, boolean unique,
      boolean ifNotExists, List<String> include) implements Command {
    public CreateIndex(Optional<String> name, String table, List<IndexKeySpec> keys, boolean unique,
        boolean ifNotExists) {
      this(name, table, keys, unique, ifNotExists, List.of());
    }
  }

  record DropTable(List<String> names, boolean ifExists) implements Command {
  }

  record DropIndex(List<String> names, boolean ifExists) implements Command {
  }

  /** ANALYZE: {@code tables} empty means every table; VERBOSE is accepted and ignored. */
  record Analyze(List<String> tables, boolean verbose) implements Command {
    public Analyze {
      tables = List.copyOf(tables);
    }
  }

  /** {@code EXPLAIN [ANALYZE] statement}: the statement's plan, and with ANALYZE its execution's figures. */
  record Explain(String statement, boolean analyze, boolean verbose) implements Command {
  }

  record Begin() implements Command {
  }

  record Commit() implements Command {
  }

  record Rollback() implements Command {
  }
}
