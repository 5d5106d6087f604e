package io.accel.exec;

import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.plan.IndexExpressions;
import io.accel.sql.AccelException;
import io.accel.sql.OnConflict;
import io.accel.sql.SqlState;
import io.accel.sql.ViewReferences;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one execution of {@code INSERT ... ON CONFLICT} does with a proposed row that conflicts: the arbiters (the
 * primary key and/or UNIQUE indexes whose conflicts it handles, resolved against the table's current definition),
 * and for DO UPDATE the columns set and the evaluation of the SET values and WHERE condition. Handed to
 * {@link TableWriter#upsert} through the execution's DataContext.
 */
public final class Upsert {
  /** The DataContext variable holding the execution's Upsert. */
  public static final String VARIABLE = "accel.upsert";

  /** An execution's ON CONFLICT clause and its evaluation, resolved against the table when the rows are written. */
  public record Request(OnConflict spec, Evaluator evaluator) {
    public Upsert on(TableDef table) {
      return Upsert.of(table, spec, evaluator);
    }
  }

  /** Computes the SET values followed by the WHERE condition from the conflicting and the proposed row. */
  public interface Evaluator {
    Object[] evaluate(Object[] existing, Object[] proposed);
  }

  final boolean primaryKey;
  final List<IndexDef> indexes;
  /** Ordinals of the columns DO UPDATE sets; null for DO NOTHING. */
  final int[] setOrdinals;
  final Evaluator evaluator;

  private Upsert(boolean primaryKey, List<IndexDef> indexes, int[] setOrdinals, Evaluator evaluator) {
    this.primaryKey = primaryKey;
    this.indexes = indexes;
    this.setOrdinals = setOrdinals;
    this.evaluator = evaluator;
  }

  /**
   * The arbiters of {@code spec} on {@code table}: the index whose columns are the target's (the primary key
   * first), the named constraint, or every unique index and the primary key when there is no target (DO NOTHING).
   */
  public static Upsert of(TableDef table, OnConflict spec, Evaluator evaluator) {
    boolean pk = false;
    List<IndexDef> arbiters = new ArrayList<>();
    if (spec.constraint() != null) {
      if (spec.constraint().equals(table.primaryKeyName()) && !table.primaryKey().isEmpty()) {
        pk = true;
      } else {
        IndexDef index = table.index(spec.constraint()).filter(IndexDef::unique).orElseThrow(() -> new AccelException(
            SqlState.UNDEFINED_OBJECT, "constraint \"" + spec.constraint() + "\" for table \"" + table.name()
                + "\" does not exist"));
        arbiters.add(index);
      }
    } else if (!spec.targetColumns().isEmpty() || !spec.targetExpressions().isEmpty()) {
      Set<Integer> target = new HashSet<>();
      for (String c : spec.targetColumns()) {
        target.add(table.columnOrdinal(c).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
            "column \"" + c + "\" does not exist")));
      }
      Set<String> expressions = new HashSet<>();
      for (String e : spec.targetExpressions()) {
        String canonical = IndexExpressions.canonical(ViewReferences.unqualified(e, table.name()));
        expressions.add(canonical == null ? e : canonical);
      }
      Set<String> where = spec.targetWhere() == null ? Set.of()
          : IndexExpressions.conjuncts(ViewReferences.unqualified(spec.targetWhere(), table.name()));
      if (expressions.isEmpty() && !table.primaryKey().isEmpty() && new HashSet<>(table.primaryKey()).equals(target)) {
        pk = true;
      }
      // PostgreSQL's inference: the unique indexes whose key is the target's columns and expressions, a partial one
      // only when the target's WHERE includes its predicate
      for (IndexDef index : table.indexes()) {
        if (!index.unique()) {
          continue;
        }
        // the index's expressions and predicate as the planner compares them, parsed once per definition
        IndexExpressions.Shape shape = IndexExpressions.shape(table, index);
        Set<Integer> columns = new HashSet<>();
        Set<String> keyExpressions = new HashSet<>();
        for (int k = 0; k < index.columns().size(); k++) {
          IndexColumn ic = index.columns().get(k);
          if (ic.isExpression()) {
            keyExpressions.add(shape.keys().get(k));
          } else {
            columns.add(ic.column());
          }
        }
        boolean covered = index.predicate() == null
            || shape.usable() && where != null && where.containsAll(shape.predicate());
        if (columns.equals(target) && keyExpressions.equals(expressions) && covered) {
          arbiters.add(index);
        }
      }
      if (!pk && arbiters.isEmpty()) {
        throw new AccelException(SqlState.INVALID_COLUMN_REFERENCE,
            "there is no unique or exclusion constraint matching the ON CONFLICT specification");
      }
    } else {
      pk = !table.primaryKey().isEmpty();
      table.indexes().stream().filter(IndexDef::unique).forEach(arbiters::add);
    }
    int[] set = null;
    if (spec.doUpdate()) {
      set = new int[spec.setColumns().size()];
      for (int i = 0; i < set.length; i++) {
        String c = spec.setColumns().get(i);
        set[i] = table.columnOrdinal(c).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
            "column \"" + c + "\" of relation \"" + table.name() + "\" does not exist"));
      }
    }
    return new Upsert(pk, List.copyOf(arbiters), set, evaluator);
  }
}
