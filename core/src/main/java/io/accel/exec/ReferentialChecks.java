package io.accel.exec;

import io.accel.catalog.ForeignKeyDef;
import io.accel.catalog.ForeignKeyDef.Action;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyReader;
import io.accel.storage.KeyWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksIterator;

/**
 * The FOREIGN KEY work of one statement's writes to one table, done once the statement's rows are all written, as
 * PostgreSQL runs its NO ACTION checks at the end of the statement (so a multi-row statement that is consistent at
 * its end succeeds). As the referencing table: each new or changed key must be present in the referenced table (a read:
 * {@link ReferenceClaims} fails one of two commits that rely on and remove the same key). As the referenced table:
 * each key removed or changed is checked against the referencing rows, found through an index whose leading columns
 * are the referencing columns when there is one (else a scan), and the constraint's action runs: NO ACTION (an
 * error unless another row holds the key by now), RESTRICT (an error), CASCADE, SET NULL, SET DEFAULT. The actions
 * write through {@link TableWriter}s of the referencing tables, whose own checks run in turn.
 */
final class ReferentialChecks {
  private final Database database;
  private final TxnContext ctx;
  private final TableDef table;
  /** The constraints (of any table, this one included) that reference this table. */
  private final List<Referencing> referencing = new ArrayList<>();
  /** Rows written whose referencing columns must find their referenced row. */
  private final List<Object[]> toCheck = new ArrayList<>();
  /** Keys removed from this table: {old row, new row or null for a delete}. */
  private final List<Object[][]> removed = new ArrayList<>();

  private record Referencing(TableDef child, ForeignKeyDef fk) {
  }

  ReferentialChecks(Database database, TxnContext ctx, TableDef table) {
    this.database = database;
    this.ctx = ctx;
    this.table = table;
    for (TableDef t : database.catalog().tables()) {
      for (ForeignKeyDef fk : t.foreignKeys()) {
        if (fk.refTable().equals(table.name())) {
          referencing.add(new Referencing(t.id() == table.id() ? table : t, fk));
        }
      }
    }
  }

  /** Whether the table references or is referenced by any constraint. */
  boolean active() {
    return !table.foreignKeys().isEmpty() || !referencing.isEmpty();
  }

  void inserted(Object[] row) {
    if (!table.foreignKeys().isEmpty()) {
      toCheck.add(row);
    }
  }

  void deleted(Object[] old) {
    if (!referencing.isEmpty()) {
      removed.add(new Object[][] {old, null});
    }
  }

  void updated(Object[] old, Object[] row) {
    if (!table.foreignKeys().isEmpty()) {
      // as PostgreSQL: a row whose referencing columns kept their values is not checked again
      boolean changed = false;
      for (ForeignKeyDef fk : table.foreignKeys()) {
        changed |= !sameValues(table, ordinals(table, fk.columns()), old, row);
      }
      if (changed) {
        toCheck.add(row);
      }
    }
    if (!referencing.isEmpty()) {
      removed.add(new Object[][] {old, row});
    }
  }

  /** Runs the actions and checks of what was written so far. */
  void finish() {
    while (!removed.isEmpty()) {
      List<Object[][]> batch = new ArrayList<>(removed);
      removed.clear();
      for (Referencing r : referencing) {
        for (Object[][] change : batch) {
          removedKey(r, change[0], change[1]);
        }
      }
    }
    List<Object[]> rows = new ArrayList<>(toCheck);
    toCheck.clear();
    for (ForeignKeyDef fk : table.foreignKeys()) {
      int[] columns = ordinals(table, fk.columns());
      TableDef parent = fk.refTable().equals(table.name()) ? table : database.catalog().table(fk.refTable())
          .orElseThrow(() -> new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + fk.refTable()
              + "\" does not exist"));
      ReferencedKey key = ReferencedKey.of(parent, fk);
      ColumnFamilyHandle family = key.family(database);
      boolean deferred = ctx.deferred(fk);
      for (Object[] row : rows) {
        Object[] values = values(row, columns);
        if (values == null) {
          continue; // MATCH SIMPLE: a NULL in any referencing column means the row is not checked
        }
        if (deferred) {
          deferToCommit(fk, table.name(), checks -> checks.referenceAtCommit(fk.name(), values));
          continue;
        }
        byte[] k = key.key(values);
        if (k == null || ctx.get(family, k) == null) {
          throw notPresent(table, fk, text(table, columns, row), parent);
        }
        ctx.referencedKey(family, k);
      }
    }
  }

  /** The referenced key of {@code old} was deleted ({@code now} null) or changed: the constraint's action. */
  private void removedKey(Referencing r, Object[] old, Object[] now) {
    ForeignKeyDef fk = r.fk();
    int[] refColumns = ordinals(table, fk.refColumns());
    Object[] values = values(old, refColumns);
    if (values == null || now != null && sameValues(table, refColumns, old, now)) {
      return;
    }
    ReferencedKey key = ReferencedKey.of(table, fk);
    ColumnFamilyHandle family = key.family(database);
    byte[] k = key.key(values);
    ctx.removedReferencedKey(family, k);
    Action action = now == null ? fk.onDelete() : fk.onUpdate();
    if (action == Action.NO_ACTION && ctx.deferred(fk)) {
      String child = r.child().name();
      deferToCommit(fk, table.name(), checks -> checks.removedAtCommit(child, fk.name(), values));
      return;
    }
    if (action == Action.NO_ACTION && ctx.get(family, k) != null) {
      return; // another row holds the key at the end of the statement
    }
    TableDef child = r.child().id() == table.id() ? table : database.catalog().table(r.child().name())
        .orElse(r.child());
    int[] columns = ordinals(child, fk.columns());
    List<byte[]> keys = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    referencingRows(child, columns, values, keys, rows);
    if (rows.isEmpty()) {
      return;
    }
    switch (action) {
      case NO_ACTION, RESTRICT -> throw stillReferenced(table, fk, text(table, refColumns, old), child);
      case CASCADE -> {
        TableWriter writer = new TableWriter(database, ctx, child);
        if (now == null) {
          writer.delete(keys, rows);
        } else {
          writer.update(keys, rows, rows.stream().map(row -> {
            Object[] changed = row.clone();
            for (int i = 0; i < columns.length; i++) {
              changed[columns[i]] = now[refColumns[i]];
            }
            return changed;
          }).toList());
        }
      }
      case SET_NULL, SET_DEFAULT -> {
        Object[] defaults = action == Action.SET_NULL ? new Object[columns.length]
            : database.defaultValues().of(child, columns, ctx);
        new TableWriter(database, ctx, child).update(keys, rows, rows.stream().map(row -> {
          Object[] changed = row.clone();
          for (int i = 0; i < columns.length; i++) {
            changed[columns[i]] = defaults[i];
          }
          return changed;
        }).toList());
        // rows whose default is the removed key kept their values, so their writer did not check them (PostgreSQL's
        // ri_set looks the key up again for this case)
        Object[] defaulted = rows.get(0).clone();
        for (int i = 0; i < columns.length; i++) {
          defaulted[columns[i]] = defaults[i];
        }
        if (action == Action.SET_DEFAULT && values(defaulted, columns) != null
            && sameValues(child, columns, rows.get(0), defaulted) && ctx.get(family, k) == null) {
          throw notPresent(child, fk, text(child, columns, defaulted), table);
        }
      }
      default -> throw new IllegalStateException(action.name());
    }
  }

  /**
   * Defers {@code check} of {@code fk} to COMMIT, run on the checks of table {@code tableName} as the catalog has it
   * then (not at all when the table is gone).
   */
  private void deferToCommit(ForeignKeyDef fk, String tableName, java.util.function.Consumer<ReferentialChecks> check) {
    ctx.defer(fk.name(), () -> database.catalog().table(tableName)
        .ifPresent(t -> check.accept(new ReferentialChecks(database, ctx, t))));
  }

  private static ForeignKeyDef named(TableDef t, String constraint) {
    return t.foreignKeys().stream().filter(f -> f.name().equals(constraint)).findFirst().orElse(null);
  }

  /** 23503: a referencing row's key ({@code keyText}) has no row in {@code parent}. */
  private static AccelException notPresent(TableDef child, ForeignKeyDef fk, String keyText, TableDef parent) {
    return new AccelException(SqlState.FOREIGN_KEY_VIOLATION, "insert or update on table \"" + child.name()
        + "\" violates foreign key constraint \"" + fk.name() + "\"")
        .withDetail("Key (" + String.join(", ", fk.columns()) + ")=(" + keyText + ") is not present in table \""
            + parent.name() + "\".");
  }

  /** 23503: a removed key ({@code keyText}) of {@code parent} is still referenced from {@code child}. */
  private static AccelException stillReferenced(TableDef parent, ForeignKeyDef fk, String keyText, TableDef child) {
    return new AccelException(SqlState.FOREIGN_KEY_VIOLATION, "update or delete on table \"" + parent.name()
        + "\" violates foreign key constraint \"" + fk.name() + "\" on table \"" + child.name() + "\"")
        .withDetail("Key (" + String.join(", ", fk.refColumns()) + ")=(" + keyText
            + ") is still referenced from table \"" + child.name() + "\".");
  }

  /**
   * A deferred check of this (referencing) table at COMMIT: the referenced key of {@code values} (the referencing
   * columns' values of a row written) must exist, unless no row holds those values any more.
   */
  private void referenceAtCommit(String constraint, Object[] values) {
    ForeignKeyDef fk = named(table, constraint);
    TableDef parent = fk == null ? null : database.catalog().table(fk.refTable()).orElse(null);
    if (parent == null) {
      return; // the constraint or its table was dropped
    }
    ReferencedKey key = ReferencedKey.of(parent, fk);
    ColumnFamilyHandle family = key.family(database);
    byte[] k = key.key(values);
    if (k != null && ctx.get(family, k) != null) {
      ctx.referencedKey(family, k);
      return;
    }
    int[] columns = ordinals(table, fk.columns());
    List<byte[]> keys = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    referencingRows(table, columns, values, keys, rows);
    if (!rows.isEmpty()) {
      throw notPresent(table, fk, text(table, columns, rows.get(0)), parent);
    }
  }

  /**
   * A deferred NO ACTION check of this (referenced) table at COMMIT: a removed key of {@code values} must not be
   * referenced by a row of {@code childName}, unless a row holds the key again.
   */
  private void removedAtCommit(String childName, String constraint, Object[] values) {
    TableDef child = database.catalog().table(childName).orElse(null);
    ForeignKeyDef fk = child == null ? null : named(child, constraint);
    if (fk == null || !fk.refTable().equals(table.name())) {
      return;
    }
    ReferencedKey key = ReferencedKey.of(table, fk);
    byte[] k = key.key(values);
    if (k != null && ctx.get(key.family(database), k) != null) {
      return;
    }
    List<byte[]> keys = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    referencingRows(child, ordinals(child, fk.columns()), values, keys, rows);
    if (!rows.isEmpty()) {
      int[] refColumns = ordinals(table, fk.refColumns());
      String shown = java.util.stream.IntStream.range(0, refColumns.length)
          .mapToObj(i -> Values.toText(table.columns().get(refColumns[i]).type(), values[i]))
          .collect(Collectors.joining(", "));
      throw stillReferenced(table, fk, shown, child);
    }
  }

  /**
   * The rows of {@code child} whose {@code columns} hold {@code values} (the referenced values), with their storage
   * keys: through an index whose leading columns are exactly {@code columns} when the table has one, else a scan.
   */
  private void referencingRows(TableDef child, int[] columns, Object[] values, List<byte[]> keys,
      List<Object[]> rows) {
    Object[] wanted = new Object[child.columns().size()];
    for (int i = 0; i < columns.length; i++) {
      try {
        wanted[columns[i]] = Values.coerce(child.columns().get(columns[i]).type(), values[i]);
      } catch (AccelException e) {
        return; // no referencing value can equal it
      }
    }
    IndexDef index = leadingIndex(child, columns);
    if (index == null) {
      byte[] target = encoded(child, columns, wanted);
      new TableReader(database, child).forEach(ctx, (key, row) -> {
        if (values(row, columns) != null && Arrays.equals(encoded(child, columns, row), target)) {
          keys.add(key.clone());
          rows.add(row);
        }
      });
      return;
    }
    KeyWriter w = new KeyWriter(32);
    for (int j = 0; j < columns.length; j++) {
      IndexColumn ic = index.columns().get(j);
      KeyCodec.write(w, child.columns().get(ic.column()).type(), wanted[ic.column()], ic.descending());
    }
    byte[] prefix = w.toByteArray();
    RocksIterator it = ctx.iterator(database.indexFamily(index.id()));
    ctx.enter();
    try {
      for (it.seek(prefix); it.isValid() && KeyCodec.startsWith(it.key(), prefix); it.next()) {
        byte[] entry = it.key();
        KeyReader r = new KeyReader(entry);
        for (IndexColumn ic : index.columns()) {
          KeyCodec.skip(r, child.columns().get(ic.column()).type(), ic.descending());
        }
        if (r.position() < entry.length) {
          keys.add(Arrays.copyOfRange(entry, r.position(), entry.length));
        } else {
          byte[] value = it.value();
          keys.add(Arrays.copyOf(value, RowKeys.rowKeyLength(child, value)));
        }
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
    ColumnFamilyHandle family = database.tableFamily(child);
    for (byte[] key : keys) {
      rows.add(child.decodeRow(ctx.get(family, key), null));
    }
  }

  /** An index of {@code table} whose first columns are exactly {@code columns} (in any order), or null. */
  static IndexDef leadingIndex(TableDef table, int[] columns) {
    for (IndexDef index : table.plainIndexes()) {
      if (index.columns().size() < columns.length) {
        continue;
      }
      boolean matches = true;
      for (int j = 0; j < columns.length && matches; j++) {
        int c = index.columns().get(j).column();
        matches = Arrays.stream(columns).anyMatch(x -> x == c);
      }
      if (matches) {
        return index;
      }
    }
    return null;
  }

  private static byte[] encoded(TableDef t, int[] columns, Object[] row) {
    KeyWriter w = new KeyWriter(32);
    for (int c : columns) {
      KeyCodec.write(w, t.columns().get(c).type(), row[c], false);
    }
    return w.toByteArray();
  }

  private static boolean sameValues(TableDef t, int[] columns, Object[] a, Object[] b) {
    return Arrays.equals(encoded(t, columns, a), encoded(t, columns, b));
  }

  /** The row's values in {@code columns}, or null when one of them is NULL. */
  private static Object[] values(Object[] row, int[] columns) {
    Object[] v = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      v[i] = row[columns[i]];
      if (v[i] == null) {
        return null;
      }
    }
    return v;
  }

  static int[] ordinals(TableDef t, List<String> names) {
    return names.stream().mapToInt(n -> t.columnOrdinal(n).orElseThrow(() -> new AccelException(
        SqlState.UNDEFINED_COLUMN, "column \"" + n + "\" of relation \"" + t.name() + "\" does not exist"))).toArray();
  }

  private static String text(TableDef t, int[] columns, Object[] row) {
    return Arrays.stream(columns).mapToObj(c -> Values.toText(t.columns().get(c).type(), row[c]))
        .collect(Collectors.joining(", "));
  }

}
