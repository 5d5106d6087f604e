package io.accel.exec;

import io.accel.catalog.CheckDef;
import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import io.accel.plan.StatementPlanner;
import io.accel.sql.AccelException;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Evaluates the CHECK constraints of rows about to be stored. A table's constraints are planned once per definition
 * as one query over a row of parameters ({@code SELECT (c1), (c2) FROM (VALUES (CAST(? AS type), ...)) AS t(cols)}),
 * compiled as any query is, and run on each row; a constraint that is false (not NULL) is 23514. Planned by a
 * session of the database's own, closed with the database, so the writer's session state plays no part.
 */
public final class CheckConstraints implements AutoCloseable {
  private final Database database;
  private final Map<Long, Compiled> compiled = new ConcurrentHashMap<>();
  private Session session;

  private record Compiled(TableDef table, CalcitePrepare.CalciteSignature<Object> signature) {
  }

  CheckConstraints(Database database) {
    this.database = database;
  }

  private synchronized StatementPlanner planner() {
    if (session == null) {
      session = new Session(database);
    }
    return session.planner();
  }

  /** Fails with 23514 when a CHECK constraint of {@code table} is false for {@code row} (as stored). */
  public void verify(TableDef table, Object[] row, TxnContext ctx) {
    if (table.checks().isEmpty()) {
      return;
    }
    int failed = firstFalse(table, row, ctx);
    if (failed >= 0) {
      throw new AccelException(SqlState.CHECK_VIOLATION, "new row for relation \"" + table.name()
          + "\" violates check constraint \"" + table.checks().get(failed).name() + "\"")
          .withDetail("Failing row contains (" + rowText(table, row) + ").");
    }
  }

  private final Map<Long, Compiled> generated = new ConcurrentHashMap<>();

  /**
   * {@code row} (as stored, before its NOT NULL checks) with each generated column set to its expression's value over
   * the row's other columns, converted to the column's type. The row itself when the table has none.
   */
  public Object[] computeGenerated(TableDef table, Object[] row, TxnContext ctx) {
    if (table.columns().stream().noneMatch(Column::generated)) {
      return row;
    }
    Compiled c = generated.get(table.id());
    if (c == null || c.table() != table) {
      c = new Compiled(table, compileGenerated(table));
      generated.put(table.id(), c);
    }
    List<Integer> targets = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      if (table.columns().get(i).generated()) {
        targets.add(i);
      }
    }
    Object[] inputs = row.clone();
    for (int i : targets) {
      inputs[i] = null; // a generated column never reads another's (or its own old) value
    }
    Object[] values = evaluate(c.signature(), inputs, ctx, targets.size());
    Object[] out = row.clone();
    for (int k = 0; k < targets.size(); k++) {
      out[targets.get(k)] = values[k];
    }
    return out;
  }

  /** Plans a table's generation expressions, each cast to its column's type; unknown names fail with their SQLSTATE. */
  CalcitePrepare.CalciteSignature<Object> compileGenerated(TableDef table) {
    List<String> expressions = new ArrayList<>();
    for (Column col : table.columns()) {
      if (col.generated()) {
        expressions.add("CAST((" + col.generationExpression().get() + ") AS "
            + AlterTableExecutor.castName(col.type()) + ")");
      }
    }
    return compileExpressions(table, expressions);
  }

  /** The index of the first of the table's constraints that is false for the row, or -1. */
  int firstFalse(TableDef table, Object[] row, TxnContext ctx) {
    Compiled c = compiled.get(table.id());
    if (c == null || c.table() != table) {
      c = new Compiled(table, compile(table, table.checks()));
      compiled.put(table.id(), c);
    }
    Object[] result = evaluate(c.signature(), row, ctx, table.checks().size());
    for (int i = 0; i < table.checks().size(); i++) {
      if (Boolean.FALSE.equals(result[i])) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Plans the constraints' query; an expression that does not validate (an unknown column, a non-boolean) fails
   * here with its SQLSTATE, which is how CREATE TABLE and ALTER TABLE check a new constraint.
   */
  synchronized CalcitePrepare.CalciteSignature<Object> compile(TableDef table, List<CheckDef> checks) {
    return compileExpressions(table, checks.stream().map(c -> "CAST((" + c.expression() + ") AS BOOLEAN)").toList());
  }

  /**
   * Plans {@code SELECT e1, e2, ... FROM (VALUES (CAST(? AS type), ...)) AS t(cols)}: the expressions (SQL over the
   * table's columns) over one row given as parameters. Errors (unknown names, wrong types) keep their SQLSTATE.
   */
  synchronized CalcitePrepare.CalciteSignature<Object> compileExpressions(TableDef table, List<String> expressions) {
    StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", expressions));
    sql.append(" FROM (VALUES (");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      Column col = table.columns().get(i);
      sql.append(i == 0 ? "" : ", ").append("CAST(? AS ").append(AlterTableExecutor.castName(col.type())).append(")");
      names.add('"' + col.name().replace("\"", "\"\"") + '"');
    }
    sql.append(")) AS \"").append(table.name().replace("\"", "\"\"")).append("\"(").append(String.join(", ", names))
        .append(")");
    StatementPlanner planner = planner();
    try {
      return planner.prepare(sql.toString(), -1).signature();
    } catch (AccelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    }
  }

  /** The {@code count} values a plan of {@link #compileExpressions} gives for {@code row} (as stored). */
  Object[] evaluate(CalcitePrepare.CalciteSignature<Object> signature, Object[] row, TxnContext ctx, int count) {
    Object result;
    Enumerator<Object> rows = planner().execute(signature, Arrays.asList(row), ctx, new AtomicBoolean(), 0)
        .enumerator();
    try {
      rows.moveNext();
      result = rows.current();
    } catch (AccelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    } finally {
      rows.close();
    }
    return count == 1 && !(result instanceof Object[]) ? new Object[] {result} : (Object[]) result;
  }

  private String rowText(TableDef table, Object[] row) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < row.length; i++) {
      values.add(row[i] == null ? "null"
          : ColumnConversion.text(table.columns().get(i).type(), row[i], java.time.ZoneOffset.UTC));
    }
    return String.join(", ", values);
  }

  @Override
  public synchronized void close() {
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
