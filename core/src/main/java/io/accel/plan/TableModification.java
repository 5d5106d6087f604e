package io.accel.plan;

import io.accel.catalog.TableDef;
import io.accel.exec.InsertBatch;
import io.accel.exec.Session;
import io.accel.exec.TableWriter;
import io.accel.exec.TxnContext;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.core.TableModify;

/**
 * What a compiled INSERT/UPDATE/DELETE does at run time: it reads all its input rows first (so a
 * statement never sees its own writes, e.g. {@code INSERT INTO t SELECT * FROM t}), then writes them
 * with a {@link TableWriter} into the statement's transaction. The table's definition is re-read from
 * the catalog, so a prepared statement writes the indexes created since it was planned.
 */
public final class TableModification {
  private final AccelTable table;
  private final TableModify.Operation operation;
  private final List<String> updateColumns;

  /** Whether the rows to write are computed without reading a table (INSERT ... VALUES). */
  private final boolean readsNoTable;

  TableModification(AccelTable table, TableModify.Operation operation, List<String> updateColumns,
      boolean readsNoTable) {
    this.table = table;
    this.operation = operation;
    this.updateColumns = List.copyOf(updateColumns);
    this.readsNoTable = readsNoTable;
  }

  /** Called from generated code; returns the number of rows written. */
  public static long execute(TableModification m, DataContext root, Enumerable<Object[]> input) {
    return m.run(root, input);
  }

  private long run(DataContext root, Enumerable<Object[]> input) {
    Session session = table.session();
    TxnContext ctx = session.contextFor(root);
    TableDef planned = table.definition();
    TableDef current = session.database().catalog().table(planned.name())
        .filter(t -> t.id() == planned.id())
        .orElseThrow(() -> new AccelException(SqlState.UNDEFINED_TABLE,
            "relation \"" + planned.name() + "\" does not exist"));
    if (current.schemaVersion() != planned.schemaVersion()) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cached plan must not change result type");
    }
    ctx.checkSchema(current);
    List<Object[]> rows = input.toList();
    @SuppressWarnings("unchecked")
    List<Object[]> returned = (List<Object[]>) root.get(ReturnedRows.ROWS);
    io.accel.exec.Upsert.Request upsert = operation == TableModify.Operation.INSERT
        ? (io.accel.exec.Upsert.Request) root.get(io.accel.exec.Upsert.VARIABLE) : null;
    InsertBatch batch = returned != null || upsert != null ? null : ctx.insertBatch();
    if (batch != null) {
      // a batch defers its rows to one write; what reads a table must see the rows before it, so it cannot
      if (operation != TableModify.Operation.INSERT || !readsNoTable) {
        throw new InsertBatch.NotDeferrable();
      }
      batch.add(current, rows);
      return rows.size();
    }
    TableWriter writer = new TableWriter(session.database(), ctx, current).collect(returned);
    int width = current.columns().size();
    return switch (operation) {
      case INSERT -> upsert != null ? writer.upsert(rows, upsert.on(current)) : writer.insert(rows);
      case DELETE -> writer.delete(rows.stream().map(r -> Arrays.copyOf(r, width)).toList());
      case UPDATE -> {
        List<Object[]> olds = new ArrayList<>(rows.size());
        List<Object[]> news = new ArrayList<>(rows.size());
        int[] targets = updateColumns.stream().mapToInt(c -> current.columnOrdinal(c).orElseThrow(() ->
            new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" does not exist"))).toArray();
        // UPDATE ... FROM joins a target row with every matching row of its list: as in PostgreSQL, the row is
        // updated once, from the first (a table without a primary key cannot tell such rows from equal ones)
        java.util.Set<List<Object>> seen = rows.size() > 1 && !current.primaryKey().isEmpty()
            ? new java.util.HashSet<>() : null;
        for (Object[] r : rows) {
          if (seen != null) {
            Object[] key = new Object[current.primaryKey().size()];
            for (int k = 0; k < key.length; k++) {
              key[k] = r[current.primaryKey().get(k)];
            }
            if (!seen.add(Arrays.asList(key))) {
              continue;
            }
          }
          Object[] old = Arrays.copyOf(r, width);
          Object[] updated = old.clone();
          for (int i = 0; i < targets.length; i++) {
            updated[targets[i]] = r[width + i];
          }
          olds.add(old);
          news.add(updated);
        }
        yield writer.update(olds, news);
      }
      default -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, operation + " is not supported");
    };
  }
}
