package io.accel.exec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * What partial and expression indexes key a row by: per index, one plan of its predicate and expression columns
 * over a row ({@link CheckConstraints#compileExpressions}), made once per definition and run on every row written
 * or indexed. Plain indexes need none of it: {@link #of} answers {@link #PLAIN} for them without evaluating.
 */
public final class IndexKeys {
  /** The computed values of a plain index: none, its key columns are the row's. */
  public static final Object[] PLAIN = new Object[0];

  private final Database database;
  // bounded: a dropped index's plan ages out; one evicted while in use is planned again
  private final Cache<Long, Compiled> compiled = Caffeine.newBuilder().maximumSize(1_000).build();

  private record Compiled(TableDef table, CalcitePrepare.CalciteSignature<Object> signature) {
  }

  IndexKeys(Database database) {
    this.database = database;
  }

  /**
   * The values the index keys {@code row} (as stored) by: {@link #PLAIN} for a plain index; null when the row has no
   * entry (a partial index whose predicate is not true for it); otherwise one value per index column, the
   * expression's value at an expression column's position (see {@link RowKeys#indexKey}).
   */
  public Object[] of(TableDef table, IndexDef index, Object[] row, TxnContext ctx) {
    if (index.plain()) {
      return PLAIN;
    }
    Compiled c = compiled.getIfPresent(index.id());
    if (c == null || c.table() != table) {
      c = new Compiled(table, compile(table, index));
      compiled.put(index.id(), c);
    }
    List<IndexColumn> columns = index.columns();
    Object[] values = database.checkConstraints().evaluate(c.signature(), row, ctx, 1 + columns.size());
    if (!Boolean.TRUE.equals(values[0])) {
      return null;
    }
    Object[] computed = new Object[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      computed[i] = columns.get(i).isExpression() ? values[1 + i] : row[columns.get(i).column()];
    }
    return computed;
  }

  /**
   * For a bulk load outside any transaction (a mirror's snapshot): evaluates {@link #of} in one read-only
   * transaction, closed with the batch.
   */
  public Batch batch() {
    return new Batch(database.beginReadOnly());
  }

  /** See {@link #batch}. */
  public final class Batch implements AutoCloseable {
    private final TxnContext ctx;

    private Batch(TxnContext ctx) {
      this.ctx = ctx;
    }

    public Object[] of(TableDef table, IndexDef index, Object[] row) {
      return IndexKeys.this.of(table, index, row, ctx);
    }

    @Override
    public void close() {
      ctx.close();
    }
  }

  /**
   * Plans the predicate (TRUE without one) and every key column (the column itself, or its expression) over a row
   * of the table: the statement that defines the index fails here when an expression does not validate.
   */
  public CalcitePrepare.CalciteSignature<Object> compile(TableDef table, IndexDef index) {
    List<String> expressions = new ArrayList<>();
    expressions.add(index.predicate() == null ? "TRUE" : "CAST((" + index.predicate() + ") AS BOOLEAN)");
    for (IndexColumn ic : index.columns()) {
      expressions.add(ic.isExpression() ? "(" + ic.expression() + ")"
          : '"' + table.columns().get(ic.column()).name().replace("\"", "\"\"") + '"');
    }
    return database.checkConstraints().compileExpressions(table, expressions);
  }
}
