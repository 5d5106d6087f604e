package io.accel.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A table as the catalog records it. {@code primaryKey} holds the ordinals of the primary key columns;
 * when it is empty the table has a hidden row id (a BIGINT) as its storage key. {@code id} names the
 * table's RocksDB column family; {@code schemaVersion} is written into every row and moves with every ALTER TABLE;
 * {@code layout} says which stored slot holds each column (rows are not rewritten by ADD or DROP COLUMN);
 * {@code pkConstraint} is the primary key's declared name, or null for PostgreSQL's {@code <table>_pkey}.
 */
public record TableDef(long id, String name, List<Column> columns, List<Integer> primaryKey,
    List<IndexDef> indexes, int schemaVersion, RowLayout layout, List<CheckDef> checks,
    List<ForeignKeyDef> foreignKeys, String pkConstraint) {

  public TableDef {
    columns = List.copyOf(columns);
    foreignKeys = List.copyOf(foreignKeys);
    primaryKey = List.copyOf(primaryKey);
    indexes = List.copyOf(indexes);
    checks = List.copyOf(checks);
    if (layout.columnSlots().size() != columns.size()) {
      throw new IllegalArgumentException("layout of " + layout.columnSlots().size() + " columns for table \"" + name
          + "\" of " + columns.size());
    }
  }

  /** A table whose primary key constraint (if any) has the name PostgreSQL generates, {@code <table>_pkey}. */
  public TableDef(long id, String name, List<Column> columns, List<Integer> primaryKey, List<IndexDef> indexes,
      int schemaVersion, RowLayout layout, List<CheckDef> checks, List<ForeignKeyDef> foreignKeys) {
    this(id, name, columns, primaryKey, indexes, schemaVersion, layout, checks, foreignKeys, null);
  }

  /** A table without FOREIGN KEY constraints. */
  public TableDef(long id, String name, List<Column> columns, List<Integer> primaryKey, List<IndexDef> indexes,
      int schemaVersion, RowLayout layout, List<CheckDef> checks) {
    this(id, name, columns, primaryKey, indexes, schemaVersion, layout, checks, List.of(), null);
  }

  /** A table without CHECK constraints. */
  public TableDef(long id, String name, List<Column> columns, List<Integer> primaryKey, List<IndexDef> indexes,
      int schemaVersion, RowLayout layout) {
    this(id, name, columns, primaryKey, indexes, schemaVersion, layout, List.of());
  }

  /** A table whose rows hold exactly its columns, in order (never altered, or rewritten), without CHECKs. */
  public TableDef(long id, String name, List<Column> columns, List<Integer> primaryKey, List<IndexDef> indexes,
      int schemaVersion) {
    this(id, name, columns, primaryKey, indexes, schemaVersion, RowLayout.plain(columns));
  }

  /** This table with {@code checks} as its CHECK constraints. */
  public TableDef withChecks(List<CheckDef> checks) {
    return new TableDef(id, name, columns, primaryKey, indexes, schemaVersion, layout, checks, foreignKeys,
        pkConstraint);
  }

  /** This table with {@code foreignKeys} as its FOREIGN KEY constraints. */
  public TableDef withForeignKeys(List<ForeignKeyDef> foreignKeys) {
    return new TableDef(id, name, columns, primaryKey, indexes, schemaVersion, layout, checks, foreignKeys,
        pkConstraint);
  }

  /** This table with the CHECK and FOREIGN KEY constraints of {@code other} (a rewrite of the same table). */
  public TableDef withConstraintsOf(TableDef other) {
    return new TableDef(id, name, columns, primaryKey, indexes, schemaVersion, layout, other.checks,
        other.foreignKeys, other.primaryKey.equals(primaryKey) ? other.pkConstraint : pkConstraint);
  }

  /** This table with its primary key constraint named {@code name} (null: {@code <table>_pkey}). */
  public TableDef withPkConstraint(String name) {
    return new TableDef(id, this.name, columns, primaryKey, indexes, schemaVersion, layout, checks, foreignKeys, name);
  }

  /** The name of the primary key constraint (and its index): as declared, else {@code <table>_pkey}. */
  public String primaryKeyName() {
    return pkConstraint != null ? pkConstraint : name + "_pkey";
  }

  public boolean hasHiddenRowId() {
    return primaryKey.isEmpty();
  }

  /** The ordinal of the named column, if the table has one. */
  public Optional<Integer> columnOrdinal(String columnName) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(columnName)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** The indexes query plans, statistics and foreign keys use: not partial, no expression columns. */
  public List<IndexDef> plainIndexes() {
    return indexes.stream().filter(IndexDef::plain).toList();
  }

  public Optional<IndexDef> index(String indexName) {
    return indexes.stream().filter(i -> i.name().equals(indexName)).findFirst();
  }

  public TableDef withIndex(IndexDef index) {
    List<IndexDef> list = new ArrayList<>(indexes);
    list.add(index);
    return new TableDef(id, name, columns, primaryKey, list, schemaVersion, layout, checks, foreignKeys,
        pkConstraint);
  }

  public TableDef withoutIndex(String indexName) {
    List<IndexDef> list = new ArrayList<>(indexes);
    list.removeIf(i -> i.name().equals(indexName));
    return new TableDef(id, name, columns, primaryKey, list, schemaVersion, layout, checks, foreignKeys,
        pkConstraint);
  }

  /** The stored form of a row of this table's columns (at its current schema version). */
  public byte[] encodeRow(Object[] row) {
    return layout.encode(schemaVersion, row);
  }

  /** A stored row as this table's columns, decoding those {@code wanted} marks (all when null). */
  public Object[] decodeRow(byte[] bytes, boolean[] wanted) {
    return layout.decode(bytes, wanted);
  }
}
