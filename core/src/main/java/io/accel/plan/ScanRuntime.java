package io.accel.plan;

import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.IndexScan;
import io.accel.exec.LookupJoin;
import io.accel.exec.ScanPlan;
import io.accel.exec.Session;
import io.accel.exec.TxnContext;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.linq4j.function.Predicate2;
import org.apache.calcite.schema.SchemaPlus;

/** What the code generated for an {@link AccelScan} calls: finds the statement's session and runs the scan. */
public final class ScanRuntime {
  private ScanRuntime() {
  }

  public static Enumerable<Object[]> rows(DataContext root, ScanPlan plan, Object[] slots, Predicate1<Object[]> icp,
      Predicate1<Object[]> residual, ScanStats stats) {
    Session session = session(root);
    TxnContext ctx = session.contextFor(root);
    ctx.checkSchema(plan.table());
    checkPlanned(session, plan.table());
    return IndexScan.rows(session.database(), ctx, plan, slots, icp, residual, stats);
  }

  /**
   * A plan made before ALTER TABLE changed the table's columns (a statement prepared earlier) would decode its rows
   * with the old layout: it fails as PostgreSQL's does when a cached plan's result type changes.
   */
  private static void checkPlanned(Session session, io.accel.catalog.TableDef planned) {
    io.accel.catalog.TableDef current = session.database().catalog().table(planned.name()).orElse(null);
    if (current != null && current != planned && current.id() == planned.id()
        && current.schemaVersion() != planned.schemaVersion()) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
          "cached plan must not change result type");
    }
  }

  /** The rows of a scan that returns one column, as that column's values. */
  public static Enumerable<Object> scalars(DataContext root, ScanPlan plan, Object[] slots, Predicate1<Object[]> icp,
      Predicate1<Object[]> residual, ScanStats stats) {
    return rows(root, plan, slots, icp, residual, stats).select(row -> row[0]);
  }

  /** The rows of an index lookup join ({@link IndexLookupJoin}). */
  public static Enumerable<Object[]> lookupJoin(DataContext root, Enumerable<Object[]> outer, LookupJoin.Spec spec,
      Function1<Object[], Object[]> keyOf, Function1<Object[], Object[]> slots, Predicate2<Object[], Object[]> icp,
      Predicate2<Object[], Object[]> residual, Predicate2<Object[], Object[]> condition,
      Function1<Object[], Object[]> reshape, ScanStats stats) {
    Session session = session(root);
    TxnContext ctx = session.contextFor(root);
    ctx.checkSchema(spec.inner().table());
    checkPlanned(session, spec.inner().table());
    return LookupJoin.rows(session.database(), ctx, outer, spec, keyOf, slots, icp, residual,
        condition, reshape, stats);
  }

  /** The rows of an index lookup join that returns one column, as that column's values. */
  public static Enumerable<Object> lookupJoinScalars(DataContext root, Enumerable<Object[]> outer,
      LookupJoin.Spec spec, Function1<Object[], Object[]> keyOf, Function1<Object[], Object[]> slots,
      Predicate2<Object[], Object[]> icp, Predicate2<Object[], Object[]> residual,
      Predicate2<Object[], Object[]> condition, Function1<Object[], Object[]> reshape, ScanStats stats) {
    return lookupJoin(root, outer, spec, keyOf, slots, icp, residual, condition, reshape, stats)
        .select(row -> row[0]);
  }

  static Session session(DataContext root) {
    SchemaPlus rootSchema = root.getRootSchema();
    SchemaPlus schema = rootSchema == null ? null : rootSchema.getSubSchema(AccelSchema.NAME);
    AccelSchema accel = schema == null ? null : schema.unwrap(AccelSchema.class);
    if (accel == null) {
      throw new AccelException(SqlState.INTERNAL_ERROR, "the statement runs outside an Accel connection");
    }
    return accel.session();
  }
}
