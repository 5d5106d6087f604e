package io.accel.exec;

import io.accel.catalog.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a batch of INSERT ... VALUES executions (JDBC executeBatch), written to each table with one
 * {@link TableWriter#insert} when the batch ends: one primary-key MultiGet and one pass over the indexes instead
 * of a statement, a snapshot and a commit per row.
 */
public final class InsertBatch {
  /** Each table's definition, as its executions checked it, and its rows in statement order. */
  private record TableRows(TableDef table, List<Object[]> rows) {
  }

  private final Map<Long, TableRows> tables = new LinkedHashMap<>();

  /** Thrown by an execution whose rows cannot wait for the batch's end (it reads a table, or is no INSERT). */
  public static final class NotDeferrable extends RuntimeException {
    public NotDeferrable() {
      super("statement cannot be deferred to the end of its batch", null, false, false);
    }
  }

  /** Adds the rows one execution inserts into {@code table} (its definition as that execution checked it). */
  public void add(TableDef table, List<Object[]> inserted) {
    TableRows known = tables.computeIfAbsent(table.id(), id -> new TableRows(table, new ArrayList<>()));
    if (known.table().schemaVersion() != table.schemaVersion()) {
      throw new NotDeferrable();
    }
    known.rows().addAll(inserted);
  }

  /** Writes every table's rows into {@code ctx}, in statement order; a violation fails the whole batch. */
  void write(Database database, TxnContext ctx) {
    for (TableRows t : tables.values()) {
      new TableWriter(database, ctx, t.table()).insert(t.rows());
    }
  }
}
