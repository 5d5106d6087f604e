package io.accel.sql;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The statements Accel executes itself instead of handing them to Calcite: DDL and transaction control. */
public sealed interface Command {

  /** A column as declared in CREATE TABLE. */
  record ColumnSpec(String name, DataType type, boolean notNull, Optional<String> defaultSql) {
  }

  /** One key column of CREATE INDEX. */
  /** An index key: a column, or ({@code expression} not null) an expression as written, named {@code column}. */
  record IndexKeySpec(String column, boolean descending, String expression) {
    public IndexKeySpec(String column, boolean descending) {
      this(column, descending, null);
    }
  }

  /**
   * CREATE [UNLOGGED] TABLE; storage parameters ({@code WITH (fillfactor = 100)}) are checked and ignored.
   * {@code uniqueNames}: the declared names of UNIQUE constraints, by their position in {@code uniqueKeys}.
   */
  record CreateTable(String name, boolean ifNotExists, List<ColumnSpec> columns, List<String> primaryKey,
      List<List<String>> uniqueKeys, List<CheckSpec> checks, List<ForeignKeySpec> foreignKeys,
      Optional<String> primaryKeyName, Map<Integer, String> uniqueNames) implements Command {
    /** Constraints named as PostgreSQL names them ({@code <table>_pkey}, {@code <table>_<columns>_key}). */
    public CreateTable(String name, boolean ifNotExists, List<ColumnSpec> columns, List<String> primaryKey,
        List<List<String>> uniqueKeys, List<CheckSpec> checks, List<ForeignKeySpec> foreignKeys) {
      this(name, ifNotExists, columns, primaryKey, uniqueKeys, checks, foreignKeys, Optional.empty(), Map.of());
    }

    public CreateTable(String name, boolean ifNotExists, List<ColumnSpec> columns, List<String> primaryKey,
        List<List<String>> uniqueKeys, List<CheckSpec> checks) {
      this(name, ifNotExists, columns, primaryKey, uniqueKeys, checks, List.of());
    }

    public CreateTable(String name, boolean ifNotExists, List<ColumnSpec> columns, List<String> primaryKey,
        List<List<String>> uniqueKeys) {
      this(name, ifNotExists, columns, primaryKey, uniqueKeys, List.of());
    }
  }

  /**
   * A FOREIGN KEY constraint as declared (column {@code REFERENCES} or table {@code FOREIGN KEY}): {@code refColumns}
   * empty means the referenced table's primary key.
   */
  record ForeignKeySpec(Optional<String> name, List<String> columns, String refTable, List<String> refColumns,
      io.accel.catalog.ForeignKeyDef.Action onUpdate, io.accel.catalog.ForeignKeyDef.Action onDelete,
      io.accel.catalog.ForeignKeyDef.Deferral deferral) {
    public ForeignKeySpec {
      columns = List.copyOf(columns);
      refColumns = List.copyOf(refColumns);
    }
  }

  /**
   * A CHECK constraint as declared: its name if given, the column it was declared with (a column constraint), and
   * its expression as written.
   */
  record CheckSpec(Optional<String> name, Optional<String> column, String expression) {
  }

  /** {@code concurrently}: CREATE INDEX CONCURRENTLY, which PostgreSQL does not allow in a transaction block. */
  record CreateIndex(Optional<String> name, String table, List<IndexKeySpec> keys, boolean unique,
      boolean ifNotExists, List<String> include, boolean concurrently, String predicate) implements Command {
    public CreateIndex(Optional<String> name, String table, List<IndexKeySpec> keys, boolean unique,
        boolean ifNotExists) {
      this(name, table, keys, unique, ifNotExists, List.of(), false, null);
    }

    public CreateIndex(Optional<String> name, String table, List<IndexKeySpec> keys, boolean unique,
        boolean ifNotExists, List<String> include, boolean concurrently) {
      this(name, table, keys, unique, ifNotExists, include, concurrently, null);
    }
  }

  /** {@code DROP TABLE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}: CASCADE drops the views on the tables too. */
  record DropTable(List<String> names, boolean ifExists, boolean cascade) implements Command {
    public DropTable(List<String> names, boolean ifExists) {
      this(names, ifExists, false);
    }
  }

  /** {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}. */
  /** {@code CREATE TABLE name [(columns)] AS query [WITH [NO] DATA]}: a table of the query's columns, and its rows. */
  record CreateTableAs(String name, boolean ifNotExists, List<String> columns, String query, boolean withData)
      implements Command {
    public CreateTableAs {
      columns = List.copyOf(columns);
    }
  }

  record CreateView(String name, boolean orReplace, List<String> columns, String query) implements Command {
    public CreateView {
      columns = List.copyOf(columns);
    }
  }

  /** {@code DROP VIEW [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
  record DropView(List<String> names, boolean ifExists, boolean cascade) implements Command {
    public DropView {
      names = List.copyOf(names);
    }
  }

  record DropIndex(List<String> names, boolean ifExists, boolean concurrently) implements Command {
    public DropIndex(List<String> names, boolean ifExists) {
      this(names, ifExists, false);
    }
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

  /** {@code SET CONSTRAINTS {ALL | name [, ...]} {DEFERRED | IMMEDIATE}}: {@code names} null means ALL. */
  record SetConstraints(List<String> names, boolean deferred) implements Command {
  }

  /**
   * Readyset's {@code CREATE [DEEP | SHALLOW] CACHE [POLICY TTL n SECONDS] [name] FROM query}: {@code query} is the
   * query's text, or a query id ({@code q_...}) when {@code byId}.
   */
  record CreateCache(Optional<String> name, boolean shallow, Optional<java.time.Duration> ttl, String query,
      boolean byId) implements Command {
  }

  /** {@code DROP CACHE name} (a cache's name or query id). */
  record DropCache(String name) implements Command {
  }

  /** {@code DROP ALL CACHES}. */
  record DropAllCaches() implements Command {
  }

  /** {@code SHOW CACHES}: query id, cache name, query text, properties, count. */
  record ShowCaches() implements Command {
  }

  /** {@code SHOW ACCEL STATUS} ({@code tables} false) or {@code SHOW ACCEL TABLES}. */
  record ShowAccel(boolean tables) implements Command {
  }

  /** {@code EXPLAIN LAST STATEMENT} on a standalone store: where the connection's last statement ran, and why. */
  record ExplainLast() implements Command {
  }

  /** {@code EXPLAIN CREATE CACHE FROM query}: whether it can be cached, and how its results are invalidated. */
  record ExplainCreateCache(String query) implements Command {
  }

  /** {@code SHOW name}, {@code SHOW ALL} (name "all"). */
  record Show(String name) implements Command {
  }

  /** {@code RESET name}, {@code RESET ALL} (name "all"). */
  record Reset(String name) implements Command {
  }

  /**
   * {@code TRUNCATE [TABLE] [ONLY] name [, ...] [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]}: CASCADE truncates
   * the tables whose FOREIGN KEYs reference them too.
   */
  record Truncate(List<String> tables, boolean cascade) implements Command {
    public Truncate {
      tables = List.copyOf(tables);
    }

    public Truncate(List<String> tables) {
      this(tables, false);
    }
  }

  /**
   * {@code VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [name, ...]} and {@code VACUUM (option, ...) [name, ...]}:
   * {@code tables} empty means every table; only ANALYZE does anything (RocksDB compacts on its own).
   */
  /** {@code VACUUM [FULL] [ANALYZE] [tables]}: FULL rewrites the tables' storage (one sorted run per family). */
  record Vacuum(List<String> tables, boolean analyze, boolean full) implements Command {
    public Vacuum {
      tables = List.copyOf(tables);
    }

    public Vacuum(List<String> tables, boolean analyze) {
      this(tables, analyze, false);
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
   * {@code ALTER TABLE [IF EXISTS] [ONLY] name action [, ...]} for the actions that change columns or the table's
   * name; a statement that only adds a PRIMARY KEY or UNIQUE constraint is an {@link AddKey}. Actions run in order.
   */
  record AlterTable(String table, boolean ifExists, List<AlterAction> actions) implements Command {
    public AlterTable {
      actions = List.copyOf(actions);
    }
  }

  /** One action of ALTER TABLE. */
  sealed interface AlterAction {
  }

  /** {@code ADD [COLUMN] [IF NOT EXISTS] column}; {@code unique} / {@code primaryKey} from the column's constraints. */
  record AddColumn(ColumnSpec column, boolean ifNotExists, boolean unique, boolean primaryKey, List<CheckSpec> checks)
      implements AlterAction {
    public AddColumn {
      checks = List.copyOf(checks);
    }
  }

  /** {@code ADD [CONSTRAINT name] CHECK (expression) [NOT VALID]}: NOT VALID leaves the rows already stored unchecked. */
  record AddCheck(CheckSpec check, boolean notValid) implements AlterAction {
  }

  /** {@code ADD [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES table [(columns)] [actions] [NOT VALID]}. */
  record AddForeignKey(ForeignKeySpec foreignKey, boolean notValid) implements AlterAction {
    public AddForeignKey(ForeignKeySpec foreignKey) {
      this(foreignKey, false);
    }
  }

  /** {@code VALIDATE CONSTRAINT name}: checks the rows a NOT VALID constraint was added over. */
  record ValidateConstraint(String name) implements AlterAction {
  }

  /** {@code DROP CONSTRAINT [IF EXISTS] name [RESTRICT | CASCADE]}. */
  record DropConstraint(String name, boolean ifExists) implements AlterAction {
  }

  /** {@code DROP [COLUMN] [IF EXISTS] column [RESTRICT | CASCADE]}. */
  record DropColumn(String column, boolean ifExists, boolean cascade) implements AlterAction {
  }

  /** {@code RENAME [COLUMN] column TO name}. */
  record RenameColumn(String column, String newName) implements AlterAction {
  }

  /** {@code RENAME TO name}. */
  record RenameTable(String newName) implements AlterAction {
  }

  /** {@code ALTER [COLUMN] column SET DEFAULT expression} or, with no expression, {@code DROP DEFAULT}. */
  record SetDefault(String column, Optional<String> defaultSql) implements AlterAction {
  }

  /** {@code ALTER [COLUMN] column SET NOT NULL} ({@code notNull}) or {@code DROP NOT NULL}. */
  record SetNotNull(String column, boolean notNull) implements AlterAction {
  }

  /** {@code ALTER [COLUMN] column [SET DATA] TYPE type [USING expression]}. */
  record AlterType(String column, DataType type, Optional<String> using) implements AlterAction {
  }

  /** {@code ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns)} among other actions. */
  record AddKeyAction(AddKey key) implements AlterAction {
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
      boolean headerMatch, boolean freeze, boolean binary) {
    public CopyFormat(boolean csv, char delimiter, String nullString, char quote, char escape, boolean header,
        boolean headerMatch, boolean freeze) {
      this(csv, delimiter, nullString, quote, escape, header, headerMatch, freeze, false);
    }
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

  /**
   * {@code COMMENT ON kind object IS 'text' | NULL}: {@code kind} is TABLE, VIEW, INDEX, SEQUENCE, COLUMN,
   * CONSTRAINT, SCHEMA or DATABASE; {@code name} the object (for COLUMN the column, for CONSTRAINT the constraint),
   * {@code table} the relation of a COLUMN or CONSTRAINT; {@code text} null removes the comment.
   */
  record Comment(String kind, String name, String table, String text) implements Command {
  }

  /**
   * {@code ALTER TABLE | SEQUENCE | VIEW | INDEX | SCHEMA [IF EXISTS] name OWNER TO role} (pg_dump writes it for every
   * object): {@code kind} the word after ALTER.
   */
  record AlterOwner(String kind, String name, boolean ifExists, String role) implements Command {
  }

  /**
   * {@code GRANT privileges ON [TABLE | SEQUENCE | SCHEMA | DATABASE] name, ... | ALL TABLES | SEQUENCES IN SCHEMA s
   * TO grantee, ...}: {@code kind} table, sequence, schema, database, all tables or all sequences.
   */
  record Grant(String kind, List<String> names, List<String> grantees) implements Command {
  }

  /** {@code CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v] [CASCADE]}. */
  record CreateExtension(String name, boolean ifNotExists) implements Command {
  }

  /** {@code DROP EXTENSION [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
  record DropExtension(List<String> names, boolean ifExists) implements Command {
    public DropExtension {
      names = List.copyOf(names);
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

  /** BEGIN / START TRANSACTION; {@code isolation} is the ISOLATION LEVEL given (lower case), or null. */
  record Begin(String isolation) implements Command {
  }

  record Commit() implements Command {
  }

  record Rollback() implements Command {
  }

  /** {@code SAVEPOINT name}: names fold to lower case unless quoted, as identifiers do. */
  record Savepoint(String name) implements Command {
  }

  /** {@code RELEASE [SAVEPOINT] name}: releases the newest savepoint of that name and every later one. */
  record ReleaseSavepoint(String name) implements Command {
  }

  /** {@code ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name}: undoes what ran since it, keeping it. */
  record RollbackToSavepoint(String name) implements Command {
  }

  /** {@code PREPARE name [(type, ...)] AS statement}: {@code statement} as written, with its {@code $n}. */
  record PrepareStatement(String name, List<DataType> types, String statement) implements Command {
    public PrepareStatement {
      types = List.copyOf(types);
    }
  }

  /** {@code EXECUTE name [(argument, ...)]}: the text of each argument expression. */
  record ExecuteStatement(String name, List<String> arguments) implements Command {
    public ExecuteStatement {
      arguments = List.copyOf(arguments);
    }
  }

  /** {@code DEALLOCATE [PREPARE] name | ALL}: empty for ALL. */
  record Deallocate(Optional<String> name) implements Command {
  }

  /** {@code LISTEN channel}. */
  record Listen(String channel) implements Command {
  }

  /** {@code UNLISTEN channel | *}: empty for every channel. */
  record Unlisten(Optional<String> channel) implements Command {
  }

  /** {@code NOTIFY channel [, 'payload']}: the payload is empty when none is given, as in PostgreSQL. */
  record Notify(String channel, String payload) implements Command {
  }
}
