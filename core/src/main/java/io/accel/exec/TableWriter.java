package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.RowLocking.Strength;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.rocksdb.ColumnFamilyHandle;

/**
 * Writes rows of one table, and all their index entries, into a transaction, enforcing NOT NULL, the
 * primary key, UNIQUE indexes and the declared lengths and scales of the columns. Callers run each
 * statement inside a savepoint (or its own transaction) so a violation leaves nothing behind.
 *
 * <p>UPDATE, DELETE and ON CONFLICT lock the rows they change first ({@link TxnContext#lockForWrite}): a concurrent
 * writer of the same row waits for this transaction to end, as in PostgreSQL. Statements writing at most
 * {@link #LOCKED_NEW_KEYS} rows also lock the primary keys and unique index entries they create, so a concurrent
 * insert of the same key waits, then fails with 23505 if the other committed (PostgreSQL's unique check); bulk
 * writes (COPY, large INSERT ... SELECT) leave that to the commit's conflict check (40001).
 *
 * <p>UPDATE removes every old version before writing any new one, so uniqueness is checked against the
 * statement's end state ({@code UPDATE t SET id = id + 1} succeeds whatever order rows come in).
 */
public final class TableWriter {
  private final Database database;
  private final TxnContext ctx;
  private final TableDef table;
  private final ColumnFamilyHandle rows;
  /** Where the rows written are collected as stored (RETURNING), or null. */
  private List<Object[]> written;
  /** The FOREIGN KEY work of the rows written, or null when no constraint involves the table. */
  private final ReferentialChecks references;
  /** How deep in this writer's public operations the current call is: the outermost finishes the FK work. */
  private int depth;
  /** Statements writing at most this many rows lock the unique keys they create (see the class comment). */
  static final int LOCKED_NEW_KEYS = 100;
  /** Whether the table has generated columns, which every row written computes. */
  private final boolean generatedColumns;

  public TableWriter(Database database, TxnContext ctx, TableDef table) {
    this.database = database;
    this.ctx = ctx;
    this.table = table;
    this.generatedColumns = table.columns().stream().anyMatch(Column::generated);
    this.rows = database.tableFamily(table);
    ReferentialChecks refs = new ReferentialChecks(database, ctx, table);
    this.references = refs.active() ? refs : null;
  }

  /** Runs one operation; when it is the outermost, the FOREIGN KEY checks and actions of its rows follow. */
  private long operation(java.util.function.LongSupplier body) {
    depth++;
    try {
      long n = body.getAsLong();
      if (depth == 1 && references != null) {
        references.finish();
      }
      return n;
    } finally {
      depth--;
    }
  }

  /**
   * Collects into {@code sink} each row this writer writes, as stored: the inserted rows and the new versions of
   * updated rows after coercion, the deleted rows as given (for RETURNING).
   */
  public TableWriter collect(List<Object[]> sink) {
    this.written = sink;
    return this;
  }

  public long insert(List<Object[]> input) {
    return operation(() -> insertRows(input));
  }

  private long insertRows(List<Object[]> input) {
    List<Object[]> normalized = new ArrayList<>(input.size());
    List<byte[]> keys = new ArrayList<>(input.size());
    for (Object[] raw : input) {
      Object[] row = normalize(raw);
      if (!table.checks().isEmpty()) {
        database.checkConstraints().verify(table, row, ctx);
      }
      normalized.add(row);
      keys.add(table.hasHiddenRowId() ? RowKeys.rowIdKey(database.nextRowId(table)) : RowKeys.rowKey(table, row));
    }
    boolean lockNewKeys = normalized.size() <= LOCKED_NEW_KEYS;
    if (lockNewKeys && !table.hasHiddenRowId()) {
      for (int i = 0; i < keys.size(); i++) {
        if (ctx.lockNewKey(table.id(), rows, keys.get(i))) {
          throw duplicate(table.primaryKeyName(), table.primaryKey(), normalized.get(i));
        }
      }
    }
    // the primary keys are looked up (and locked) with one MultiGet; rows are then checked in statement order
    List<byte[]> existing = table.hasHiddenRowId() ? null : ctx.multiGetForUpdate(rows, keys);
    Set<ByteBuffer> inserted = table.hasHiddenRowId() || keys.size() < 2 ? null : new HashSet<>(keys.size() * 2);
    for (int i = 0; i < normalized.size(); i++) {
      Object[] row = normalized.get(i);
      byte[] key = keys.get(i);
      if (existing != null && (existing.get(i) != null || (inserted != null && !inserted.add(ByteBuffer.wrap(key))))) {
        throw duplicate(table.primaryKeyName(), table.primaryKey(), row);
      }
      writeRow(key, row, true, lockNewKeys);
      if (references != null) {
        references.inserted(row);
      }
    }
    if (written != null) {
      written.addAll(normalized);
    }
    ctx.countChanges(table.id(), normalized.size(), normalized.size());
    return normalized.size();
  }

  /**
   * INSERT ... ON CONFLICT: each row in statement order is inserted, unless an arbiter (the primary key or a UNIQUE
   * index of {@code upsert}) already holds its values: then DO NOTHING skips it and DO UPDATE updates the existing
   * row with the SET values (when the WHERE condition holds). The arbiter keys are read with getForUpdate, so a
   * concurrent writer of the same key fails one of the two commits (40001): no lost update. A row proposed twice
   * in one statement is 21000 for DO UPDATE, as in PostgreSQL. Returns the rows inserted or updated.
   */
  public long upsert(List<Object[]> input, Upsert upsert) {
    return operation(() -> upsertRows(input, upsert));
  }

  private long upsertRows(List<Object[]> input, Upsert upsert) {
    long count = 0;
    Set<ByteBuffer> inserted = new HashSet<>();
    Set<ByteBuffer> updated = new HashSet<>();
    TableReader reader = new TableReader(database, table);
    for (Object[] raw : input) {
      Object[] row = normalize(raw);
      byte[] key = table.hasHiddenRowId() ? null : RowKeys.rowKey(table, row);
      byte[] existing = null;
      List<ByteBuffer> arbiterKeys = new ArrayList<>();
      if (upsert.primaryKey && key != null) {
        arbiterKeys.add(ByteBuffer.wrap(key));
        // locked first: a concurrent upsert of the same key waits, then finds the row the other inserted
        ctx.lockForWrite(table, rows, key, Strength.UPDATE);
        if (ctx.getForUpdate(rows, key) != null) {
          existing = key;
        }
      }
      for (IndexDef index : upsert.indexes) {
        Object[] computed = database.indexKeys().of(table, index, row, ctx);
        if (computed == null || !RowKeys.uniqueForm(index, row, computed)) {
          continue; // NULLs never conflict, nor rows outside a partial index
        }
        byte[] entry = RowKeys.indexKey(table, index, row, computed, new byte[0]);
        arbiterKeys.add(ByteBuffer.wrap(entry));
        ctx.lockRow(-1 - index.id(), database.indexFamily(index.id()), entry, Strength.UPDATE, true);
        byte[] value = ctx.getForUpdate(database.indexFamily(index.id()), entry);
        if (value != null && existing == null) {
          existing = Arrays.copyOf(value, RowKeys.rowKeyLength(table, value));
        }
      }
      if (existing == null) {
        insert(List.<Object[]>of(row));
        inserted.addAll(arbiterKeys);
        count++;
        continue;
      }
      if (upsert.setOrdinals == null) {
        continue;
      }
      if (!updated.add(ByteBuffer.wrap(existing)) || arbiterKeys.stream().anyMatch(inserted::contains)) {
        throw new AccelException(SqlState.CARDINALITY_VIOLATION,
            "ON CONFLICT DO UPDATE command cannot affect row a second time")
            .withHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained"
                + " values.");
      }
      Object[] old = reader.decode(ctx.get(rows, existing));
      Object[] values = upsert.evaluator.evaluate(old, row);
      if (!Boolean.TRUE.equals(values[values.length - 1])) {
        continue;
      }
      Object[] changed = old.clone();
      for (int i = 0; i < upsert.setOrdinals.length; i++) {
        changed[upsert.setOrdinals[i]] = values[i];
      }
      update(List.of(existing), List.<Object[]>of(old), List.<Object[]>of(changed));
      count++;
    }
    return count;
  }

  public long delete(List<Object[]> victims) {
    return operation(() -> deleteRows(keysOf(victims), victims));
  }

  /** Deletes rows whose storage keys are known. */
  long delete(List<byte[]> keys, List<Object[]> victims) {
    return operation(() -> deleteRows(keys, victims));
  }

  private long deleteRows(List<byte[]> keys, List<Object[]> victims) {
    for (byte[] key : keys) {
      ctx.lockForWrite(table, rows, key, Strength.UPDATE);
    }
    for (int i = 0; i < victims.size(); i++) {
      Object[] row = victims.get(i);
      byte[] key = keys.get(i);
      ctx.deleteRow(table, rows, key);
      for (IndexDef index : table.indexes()) {
        deleteEntry(index, row, key);
      }
      if (references != null) {
        references.deleted(row);
      }
    }
    if (written != null) {
      written.addAll(victims);
    }
    ctx.countChanges(table.id(), -victims.size(), victims.size());
    return victims.size();
  }

  /** Replaces each {@code oldRows[i]} by {@code newRows[i]}. */
  public long update(List<Object[]> oldRows, List<Object[]> newRowsRaw) {
    return operation(() -> updateRows(keysOf(oldRows), oldRows, newRowsRaw));
  }

  /** As {@link #update(List, List)}, the old rows' storage keys known. */
  long update(List<byte[]> oldKeys, List<Object[]> oldRows, List<Object[]> newRowsRaw) {
    return operation(() -> updateRows(oldKeys, oldRows, newRowsRaw));
  }

  private long updateRows(List<byte[]> oldKeys, List<Object[]> oldRows, List<Object[]> newRowsRaw) {
    List<Object[]> newRows = new ArrayList<>(newRowsRaw.size());
    List<byte[]> newKeys = new ArrayList<>(newRowsRaw.size());
    for (int i = 0; i < oldRows.size(); i++) {
      Object[] row = normalize(newRowsRaw.get(i));
      if (!table.checks().isEmpty()) {
        database.checkConstraints().verify(table, row, ctx);
      }
      newRows.add(row);
      newKeys.add(table.hasHiddenRowId() ? oldKeys.get(i) : RowKeys.rowKey(table, row));
    }
    // every row is locked before any is written: a restart (a row changed by a concurrent commit) undoes less
    boolean lockNewKeys = oldRows.size() <= LOCKED_NEW_KEYS;
    for (int i = 0; i < oldRows.size(); i++) {
      byte[] oldKey = oldKeys.get(i);
      boolean sameKey = Arrays.equals(oldKey, newKeys.get(i));
      ctx.lockForWrite(table, rows, oldKey, sameKey ? Strength.NO_KEY_UPDATE : Strength.UPDATE);
      if (!sameKey && lockNewKeys) {
        ctx.lockForWrite(table, rows, newKeys.get(i), Strength.UPDATE);
      }
    }
    for (int i = 0; i < oldRows.size(); i++) {
      Object[] old = oldRows.get(i);
      byte[] oldKey = oldKeys.get(i);
      if (!Arrays.equals(oldKey, newKeys.get(i))) {
        ctx.deleteRow(table, rows, oldKey);
      }
      for (IndexDef index : table.indexes()) {
        deleteEntry(index, old, oldKey);
      }
    }
    for (int i = 0; i < newRows.size(); i++) {
      Object[] row = newRows.get(i);
      byte[] key = newKeys.get(i);
      if (!Arrays.equals(oldKeys.get(i), key) && ctx.getForUpdate(rows, key) != null) {
        throw duplicate(table.primaryKeyName(), table.primaryKey(), row);
      }
      writeRow(key, row, false, lockNewKeys);
      if (references != null) {
        references.updated(oldRows.get(i), row);
      }
    }
    if (written != null) {
      written.addAll(newRows);
    }
    ctx.countChanges(table.id(), 0, oldRows.size());
    return oldRows.size();
  }

  /** A unique entry is tracked (its key is the indexed values alone); any other holds the row's key. */
  private void deleteEntry(IndexDef index, Object[] row, byte[] rowKey) {
    Object[] computed = database.indexKeys().of(table, index, row, ctx);
    if (computed == null) {
      return; // a partial index without an entry for the row
    }
    ColumnFamilyHandle family = database.indexFamily(index.id());
    byte[] entry = RowKeys.indexKey(table, index, row, computed, rowKey);
    if (RowKeys.uniqueForm(index, row, computed)) {
      ctx.delete(family, entry);
    } else {
      ctx.deleteUntracked(family, entry);
    }
  }

  /**
   * Writes a row and its index entries. {@code inserting}: an INSERT, whose unique entries are checked as committed now
   * when {@code lockKeys} (see TxnContext.lockNewKey) and whose hidden row id is new (see TxnContext.putNewRow).
   */
  private void writeRow(byte[] key, Object[] row, boolean inserting, boolean lockKeys) {
    for (IndexDef index : table.indexes()) {
      Object[] computed = database.indexKeys().of(table, index, row, ctx);
      if (computed == null) {
        continue; // a partial index whose predicate the row does not meet
      }
      ColumnFamilyHandle family = database.indexFamily(index.id());
      byte[] entry = RowKeys.indexKey(table, index, row, computed, key);
      if (RowKeys.uniqueForm(index, row, computed)) {
        boolean committedElsewhere = false;
        if (lockKeys && inserting) {
          committedElsewhere = ctx.lockNewKey(-1 - index.id(), family, entry);
        } else if (lockKeys) {
          // (an UPDATE's entry may be its own row's, rewritten: the statement's end state decides, see above)
          ctx.lockRow(-1 - index.id(), family, entry, Strength.UPDATE, true);
        }
        if (committedElsewhere || ctx.getForUpdate(family, entry) != null) {
          throw duplicate(index, row, computed);
        }
        ctx.put(family, entry, RowKeys.indexValue(table, index, row, key));
      } else {
        // the entry's key holds the row's key, which this transaction writes (tracked) too
        ctx.putUntracked(family, entry, RowKeys.indexValue(table, index, row, null));
      }
    }
    if (inserting && table.hasHiddenRowId()) {
      ctx.putNewRow(table, rows, key, table.encodeRow(row));
    } else {
      ctx.putRow(table, rows, key, table.encodeRow(row));
    }
  }

  /** The storage keys of rows read from this table (for tables without a primary key, by matching values). */
  private List<byte[]> keysOf(List<Object[]> victims) {
    List<byte[]> keys = new ArrayList<>(victims.size());
    if (!table.hasHiddenRowId()) {
      for (Object[] row : victims) {
        keys.add(RowKeys.rowKey(table, row));
      }
      return keys;
    }
    Map<List<Object>, Deque<byte[]>> byValue = new HashMap<>();
    for (Object[] row : victims) {
      byValue.putIfAbsent(Arrays.asList(row), new ArrayDeque<>());
    }
    new TableReader(database, table).forEach(ctx, (key, row) -> {
      Deque<byte[]> slot = byValue.get(Arrays.asList(row));
      if (slot != null) {
        slot.add(key);
      }
    });
    for (Object[] row : victims) {
      byte[] key = byValue.get(Arrays.asList(row)).poll();
      if (key == null) {
        throw new AccelException(SqlState.SERIALIZATION_FAILURE,
            "could not serialize access due to concurrent update of table \"" + table.name() + "\"");
      }
      keys.add(key);
    }
    return keys;
  }

  /** Checks NOT NULL and the declared type modifiers, returning the row as it will be stored. */
  Object[] normalize(Object[] raw) {
    if (raw.length != table.columns().size()) {
      throw new AccelException(SqlState.INTERNAL_ERROR, "row of " + raw.length + " values for table \""
          + table.name() + "\" of " + table.columns().size() + " columns");
    }
    Object[] row = new Object[raw.length];
    Object[] given = generatedColumns ? database.checkConstraints().computeGenerated(table, raw, ctx) : raw;
    for (int i = 0; i < raw.length; i++) {
      Column column = table.columns().get(i);
      Object v = given[i];
      if (v == null) {
        if (!column.nullable()) {
          throw new AccelException(SqlState.NOT_NULL_VIOLATION, "null value in column \"" + column.name()
              + "\" of relation \"" + table.name() + "\" violates not-null constraint");
        }
        row[i] = null;
      } else {
        row[i] = Values.coerce(column.type(), v);
      }
    }
    return row;
  }

  /** 23505 for an index entry: its key columns (an expression as written) and the row's values of them. */
  private AccelException duplicate(IndexDef index, Object[] row, Object[] computed) {
    String detail = "Key " + RowKeys.keyText(table, index, row, computed) + " already exists.";
    return new AccelException(SqlState.UNIQUE_VIOLATION, "duplicate key value violates unique constraint \""
        + index.name() + "\" (" + detail + ")").withDetail(detail);
  }

  private AccelException duplicate(String constraint, List<Integer> columns, Object[] row) {
    return duplicate(table, constraint, columns, row);
  }

  /** 23505 for a key of {@code columns} that {@code row} repeats (the constraint's name, its columns and values). */
  static AccelException duplicate(TableDef table, String constraint, List<Integer> columns, Object[] row) {
    String names = columns.stream().map(c -> table.columns().get(c).name()).collect(Collectors.joining(", "));
    String values = columns.stream().map(c -> Values.toText(table.columns().get(c).type(), row[c]))
        .collect(Collectors.joining(", "));
    String detail = "Key (" + names + ")=(" + values + ") already exists.";
    return new AccelException(SqlState.UNIQUE_VIOLATION, "duplicate key value violates unique constraint \""
        + constraint + "\" (" + detail + ")").withDetail(detail);
  }
}
