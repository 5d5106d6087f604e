package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.ForeignKeyDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Turns FOREIGN KEY declarations into {@link ForeignKeyDef}s, checked as PostgreSQL checks them: the referenced table
 * and columns exist (its primary key when none are named), they are a primary key or UNIQUE constraint (42830), the
 * column types are comparable (42804); unnamed constraints are named {@code <table>_<columns>_fkey} as PostgreSQL
 * names them. Also the dependencies DROP TABLE and DROP CONSTRAINT must respect.
 */
final class ForeignKeyDefinitions {
  private ForeignKeyDefinitions() {
  }

  /**
   * The constraints {@code specs} declare on {@code child} ({@code child} itself may be referenced: a self-reference);
   * {@code taken} holds the constraint names the table has already and receives the new ones.
   */
  static List<ForeignKeyDef> define(Catalog catalog, TableDef child, List<Command.ForeignKeySpec> specs,
      Set<String> taken, Predicate<String> relationExists) {
    List<ForeignKeyDef> defined = new ArrayList<>();
    for (Command.ForeignKeySpec spec : specs) {
      TableDef parent = spec.refTable().equals(child.name()) ? child : catalog.table(spec.refTable())
          .orElseThrow(() -> catalog.view(spec.refTable()).isPresent()
              ? new AccelException(SqlState.WRONG_OBJECT_TYPE, "referenced relation \"" + spec.refTable()
                  + "\" is not a table")
              : new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + spec.refTable() + "\" does not exist"));
      for (String c : spec.columns()) {
        if (child.columnOrdinal(c).isEmpty()) {
          throw new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" referenced in foreign key"
              + " constraint does not exist");
        }
      }
      List<String> refColumns = spec.refColumns();
      if (refColumns.isEmpty()) {
        if (parent.primaryKey().isEmpty()) {
          throw new AccelException(SqlState.UNDEFINED_OBJECT, "there is no primary key for referenced table \""
              + parent.name() + "\"");
        }
        refColumns = parent.primaryKey().stream().map(o -> parent.columns().get(o).name()).toList();
      }
      for (String c : refColumns) {
        if (parent.columnOrdinal(c).isEmpty()) {
          throw new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" referenced in foreign key"
              + " constraint does not exist");
        }
      }
      if (refColumns.size() != spec.columns().size()) {
        throw new AccelException(SqlState.INVALID_FOREIGN_KEY, "number of referencing and referenced columns for"
            + " foreign key disagree");
      }
      if (ReferencedKey.of(parent, refColumns).isEmpty()) {
        throw new AccelException(SqlState.INVALID_FOREIGN_KEY, "there is no unique constraint matching given keys"
            + " for referenced table \"" + parent.name() + "\"");
      }
      String name = spec.name().orElse(null);
      if (name != null && taken.contains(name)) {
        throw new AccelException(SqlState.DUPLICATE_OBJECT, "constraint \"" + name + "\" for relation \""
            + child.name() + "\" already exists");
      }
      if (name == null) {
        String base = truncate(child.name() + "_" + String.join("_", spec.columns()) + "_fkey");
        name = base;
        for (int n = 1; taken.contains(name) || relationExists.test(name); n++) {
          name = base + n;
        }
      }
      for (int i = 0; i < refColumns.size(); i++) {
        DataType a = child.columns().get(child.columnOrdinal(spec.columns().get(i)).orElseThrow()).type();
        DataType b = parent.columns().get(parent.columnOrdinal(refColumns.get(i)).orElseThrow()).type();
        if (!comparable(a.kind(), b.kind())) {
          throw new AccelException(SqlState.DATATYPE_MISMATCH, "foreign key constraint \"" + name + "\" cannot be"
              + " implemented")
              .withDetail("Key columns \"" + spec.columns().get(i) + "\" and \"" + refColumns.get(i) + "\" are of"
                  + " incompatible types: " + ColumnConversion.pgName(a) + " and " + ColumnConversion.pgName(b) + ".");
        }
      }
      taken.add(name);
      defined.add(new ForeignKeyDef(name, spec.columns(), parent.name(), refColumns, spec.onUpdate(),
          spec.onDelete(), spec.deferral()));
    }
    return defined;
  }

  /** The names of a table's constraints (CHECK, FOREIGN KEY, primary key, UNIQUE), which a new one must not take. */
  static Set<String> constraintNames(TableDef t) {
    Set<String> names = new HashSet<>();
    t.checks().forEach(c -> names.add(c.name()));
    t.foreignKeys().forEach(f -> names.add(f.name()));
    t.indexes().forEach(i -> names.add(i.name()));
    if (!t.primaryKey().isEmpty()) {
      names.add(t.primaryKeyName());
    }
    return names;
  }

  /** The constraints of other tables that reference {@code table}, as "constraint c on table t". */
  static List<String> referencingFrom(Catalog catalog, String table, Set<String> ignoring) {
    List<String> found = new ArrayList<>();
    for (TableDef t : catalog.tables()) {
      if (ignoring.contains(t.name())) {
        continue;
      }
      for (ForeignKeyDef fk : t.foreignKeys()) {
        if (fk.refTable().equals(table)) {
          found.add("constraint " + fk.name() + " on table " + t.name());
        }
      }
    }
    return found;
  }

  private static boolean comparable(ColumnType a, ColumnType b) {
    return a == b || numeric(a) && numeric(b) || text(a) && text(b);
  }

  private static boolean numeric(ColumnType t) {
    return t == ColumnType.SMALLINT || t == ColumnType.INTEGER || t == ColumnType.BIGINT || t == ColumnType.NUMERIC
        || t == ColumnType.REAL || t == ColumnType.DOUBLE;
  }

  private static boolean text(ColumnType t) {
    return t == ColumnType.CHAR || t == ColumnType.VARCHAR || t == ColumnType.TEXT;
  }

  /** PostgreSQL's identifiers hold at most 63 bytes. */
  private static String truncate(String name) {
    return name.length() > 63 ? name.substring(0, 63) : name;
  }
}
