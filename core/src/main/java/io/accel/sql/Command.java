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

  /**
   * {@code SET [SESSION | LOCAL] name {TO | =} value | DEFAULT} and {@code SET TIME ZONE value}: {@code value}
   * null means DEFAULT; a list ({@code search_path}) is kept as written, comma separated.
   */
  record Set(String name, String value, boolean local) implements Command {
  }

  /** {@code SHOW name}, {@code SHOW ALL} (name "all"). */
  record Show(String name) implements Command {
  }

  /** {@code RESET name}, {@code RESET ALL} (name "all"). */
  record Reset(String name) implements Command {
  }

  record Begin() implements Command {
  }

  record Commit() implements Command {
  }

  record Rollback() implements Command {
  }
}
