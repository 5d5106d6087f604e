package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import io.accel.plan.StatementPlanner;
import io.accel.sql.AccelException;
import io.accel.sql.ErrorTranslator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Evaluates columns' DEFAULT expressions outside an INSERT: the values ON DELETE / ON UPDATE SET DEFAULT gives the
 * referencing columns. Planned as one query ({@code SELECT CAST((default) AS type), ...}) by a session of the
 * database's own, as {@link CheckConstraints} plans CHECKs, and run in the writing transaction.
 */
final class DefaultValues implements AutoCloseable {
  private final Database database;
  private Session session;

  DefaultValues(Database database) {
    this.database = database;
  }

  /** The defaults of {@code columns} of {@code table} (NULL where a column has none), coerced to their types. */
  synchronized Object[] of(TableDef table, int[] columns, TxnContext ctx) {
    if (session == null) {
      session = new Session(database);
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.length; i++) {
      Column c = table.columns().get(columns[i]);
      sql.append(i == 0 ? "" : ", ").append("CAST((").append(c.insertDefault().orElse("NULL")).append(") AS ")
          .append(AlterTableExecutor.castName(c.type())).append(")");
    }
    StatementPlanner planner = session.planner();
    Object result;
    try {
      Enumerator<Object> rows = planner.execute(planner.prepare(sql.toString(), -1).signature(), List.of(), ctx,
          new AtomicBoolean(), 0).enumerator();
      try {
        rows.moveNext();
        result = rows.current();
      } finally {
        rows.close();
      }
    } catch (AccelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    }
    Object[] values = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      Object v = result instanceof Object[] a ? a[i] : result;
      values[i] = v == null ? null : Values.coerce(table.columns().get(columns[i]).type(), v);
    }
    return values;
  }

  @Override
  public synchronized void close() {
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
