package io.accel.sql;

import io.accel.catalog.ColumnType;
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

  /** CREATE [UNLOGGED] TABLE; storage parameters ({@code WITH (fillfactor = 100)}) are checked and ignored. */
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

  /** {@code TRUNCATE [TABLE] [ONLY] name [, ...] [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
  record Truncate(List<String> tables) implements Command {
    public Truncate {
      tables = List.copyOf(tables);
    }
  }

  /**
   * {@code VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [name, ...]} and {@code VACUUM (option, ...) [name, ...]}:
   * {@code tables} empty means every table; only ANALYZE does anything (RocksDB compacts on its own).
   */
  record Vacuum(List<String> tables, boolean analyze) implements Command {
    public Vacuum {
      tables = List.copyOf(tables);
    }
  }

  /**
   * {@code ALTER TABLE [IF EXISTS] [ONLY] table ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns)}.
   */
  record AddKey(String table, boolean ifExists, Optional<String> constraint, List<String> columns, boolean primary)
      implements Command {
    public AddKey {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code COPY table [(columns)] FROM STDIN | TO STDOUT [options]} or {@code COPY (query) TO STDOUT [options]}:
   * {@code query} is set for the latter (and {@code table} null); {@code columns} empty means all of them.
   */
  record Copy(String table, List<String> columns, String query, boolean from, CopyFormat format) implements Command {
    public Copy {
      columns = List.copyOf(columns);
    }
  }

  /**
   * How COPY data is written: text (tab and {@code \N} by default, backslash escapes) or CSV (comma, empty NULL,
   * double quotes); {@code header} skips (FROM) or writes (TO) a first line of column names, {@code headerMatch}
   * checks it names the columns.
   */
  record CopyFormat(boolean csv, char delimiter, String nullString, char quote, char escape, boolean header,
      boolean headerMatch, boolean freeze) {
  }

  /**
   * The options of CREATE / ALTER SEQUENCE and of an identity column; null (or false) where not given. {@code ownedBy}
   * is {@code table.column}, or empty for OWNED BY NONE; {@code restart} holds RESTART WITH's value, or the
   * sequence's start when {@code restartDefault}.
   */
  record SequenceOptions(ColumnType type, Long increment, Long min, boolean noMin, Long max, boolean noMax,
      Long start, Long cache, Boolean cycle, Long restart, boolean restartDefault, String ownedBy) {
    public static final SequenceOptions NONE = new SequenceOptions(null, null, null, false, null, false, null, null,
        null, null, false, null);

    public SequenceOptions withType(ColumnType t) {
      return new SequenceOptions(t, increment, min, noMin, max, noMax, start, cache, cycle, restart, restartDefault,
          ownedBy);
    }
  }

  /** {@code CREATE SEQUENCE [IF NOT EXISTS] name [options]}. */
  record CreateSequence(String name, boolean ifNotExists, SequenceOptions options) implements Command {
  }

  /** {@code ALTER SEQUENCE [IF EXISTS] name options}. */
  record AlterSequence(String name, boolean ifExists, SequenceOptions options) implements Command {
  }

  /** {@code DROP SEQUENCE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
  record DropSequence(List<String> names, boolean ifExists, boolean cascade) implements Command {
    public DropSequence {
      names = List.copyOf(names);
    }
  }

  /**
   * A SERIAL or identity column's sequence, created with its table: {@code identity} is NONE for SERIAL. The
   * column's DEFAULT is {@code nextval} of it.
   */
  record ColumnSequence(String column, io.accel.catalog.SequenceDef.Identity identity, SequenceOptions options) {
  }

  /** CREATE TABLE with SERIAL or identity columns: the table, then the sequence each such column owns. */
  record CreateTableWithSequences(CreateTable table, List<ColumnSequence> sequences) implements Command {
    public CreateTableWithSequences {
      sequences = List.copyOf(sequences);
    }
  }

  record Begin() implements Command {
  }

  record Commit() implements Command {
  }

  record Rollback() implements Command {
  }
}
