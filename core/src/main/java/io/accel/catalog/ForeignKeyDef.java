package io.accel.catalog;

import java.util.List;

/**
 * A FOREIGN KEY constraint of the table that holds it: its {@code columns} must match a row of {@code refTable}
 * in {@code refColumns} (a primary key or UNIQUE index of that table) unless one of them is NULL (MATCH SIMPLE).
 * Columns and the referenced table are held by name, so rewrites under a new table id keep them.
 */
public record ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns,
    Action onUpdate, Action onDelete, Deferral deferral, boolean validated) {

  public ForeignKeyDef {
    columns = List.copyOf(columns);
    refColumns = List.copyOf(refColumns);
  }

  /** A constraint whose table's rows were all checked when it was added (not NOT VALID). */
  public ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns, Action onUpdate,
      Action onDelete, Deferral deferral) {
    this(name, columns, refTable, refColumns, onUpdate, onDelete, deferral, true);
  }

  /** A constraint that is not deferrable. */
  public ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns, Action onUpdate,
      Action onDelete) {
    this(name, columns, refTable, refColumns, onUpdate, onDelete, Deferral.NOT_DEFERRABLE);
  }

  /**
   * When the constraint's NO ACTION checks run in a transaction block: at the end of each statement, or (INITIALLY
   * DEFERRED, or SET CONSTRAINTS ... DEFERRED of a DEFERRABLE one) at COMMIT. Outside a block the statement is the
   * transaction.
   */
  public enum Deferral {
    NOT_DEFERRABLE, DEFERRABLE, INITIALLY_DEFERRED;

    public boolean deferrable() {
      return this != NOT_DEFERRABLE;
    }
  }

  /** A referential action, with the letter PostgreSQL stores in {@code pg_constraint.confupdtype / confdeltype}. */
  public enum Action {
    NO_ACTION('a', "NO ACTION"), RESTRICT('r', "RESTRICT"), CASCADE('c', "CASCADE"), SET_NULL('n', "SET NULL"),
    SET_DEFAULT('d', "SET DEFAULT");

    public final char code;
    public final String sql;

    Action(char code, String sql) {
      this.code = code;
      this.sql = sql;
    }
  }

  public ForeignKeyDef withName(String newName) {
    return new ForeignKeyDef(newName, columns, refTable, refColumns, onUpdate, onDelete, deferral, validated);
  }

  /** This constraint with a referenced or referencing column renamed, or the referenced table renamed. */
  public ForeignKeyDef renamed(String table, String self, String from, String to) {
    List<String> cols = table.equals(self) ? columns.stream().map(c -> c.equals(from) ? to : c).toList() : columns;
    List<String> refs = table.equals(refTable) ? refColumns.stream().map(c -> c.equals(from) ? to : c).toList()
        : refColumns;
    return new ForeignKeyDef(name, cols, refTable, refs, onUpdate, onDelete, deferral, validated);
  }

  public ForeignKeyDef withRefTable(String newRefTable) {
    return new ForeignKeyDef(name, columns, newRefTable, refColumns, onUpdate, onDelete, deferral, validated);
  }

  /** This constraint, added NOT VALID ({@code validated} false) or validated. */
  public ForeignKeyDef withValidated(boolean isValidated) {
    return new ForeignKeyDef(name, columns, refTable, refColumns, onUpdate, onDelete, deferral, isValidated);
  }

  /** The SQL PostgreSQL's {@code pg_get_constraintdef} prints. */
  public String definition() {
    StringBuilder b = new StringBuilder("FOREIGN KEY (").append(String.join(", ", columns)).append(") REFERENCES ")
        .append(refTable).append('(').append(String.join(", ", refColumns)).append(')');
    if (onUpdate != Action.NO_ACTION) {
      b.append(" ON UPDATE ").append(onUpdate.sql);
    }
    if (onDelete != Action.NO_ACTION) {
      b.append(" ON DELETE ").append(onDelete.sql);
    }
    if (deferral == Deferral.DEFERRABLE) {
      b.append(" DEFERRABLE");
    } else if (deferral == Deferral.INITIALLY_DEFERRED) {
      b.append(" DEFERRABLE INITIALLY DEFERRED");
    }
    if (!validated) {
      b.append(" NOT VALID");
    }
    return b.toString();
  }
}
