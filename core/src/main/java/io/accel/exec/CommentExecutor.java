package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.SequenceDef;
import io.accel.catalog.TableDef;
import io.accel.catalog.ViewDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.Optional;
import org.rocksdb.RocksDBException;

/**
 * COMMENT ON: finds the object as PostgreSQL does (the same errors for a missing or mismatched one) and records the
 * text under the object's comment key in the catalog, where pg_description, obj_description and col_description
 * read it.
 */
final class CommentExecutor {
  private final Session session;
  private final Catalog catalog;

  CommentExecutor(Session session) {
    this.session = session;
    this.catalog = session.database().catalog();
  }

  void comment(Command.Comment c) throws RocksDBException {
    catalog.comment(key(c), c.text());
  }

  private String key(Command.Comment c) {
    String name = c.name();
    return switch (c.kind()) {
      case "table" -> catalog.table(name).map(t -> Catalog.relationComment(t.id()))
          .orElseGet(() -> notA(name, "a table"));
      case "view" -> catalog.view(name).map(v -> Catalog.relationComment(v.id()))
          .orElseGet(() -> notA(name, "a view"));
      case "sequence" -> session.database().sequences().sequence(name).map(q -> Catalog.relationComment(q.id()))
          .orElseGet(() -> notA(name, "a sequence"));
      case "index" -> indexKey(name);
      case "column" -> columnKey(c.table(), name);
      case "constraint" -> constraintKey(c.table(), name);
      case "schema" -> {
        if (!name.equals("public")) {
          throw new AccelException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + name + "\" does not exist");
        }
        yield Catalog.schemaComment(name);
      }
      case "database" -> {
        String current = session.settings().get("accel.database");
        if (!name.equals(current == null || current.isEmpty() ? "accel" : current)) {
          throw new AccelException(SqlState.INVALID_CATALOG_NAME, "database \"" + name + "\" does not exist");
        }
        yield Catalog.DATABASE_COMMENT;
      }
      default -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "COMMENT ON " + c.kind()
          + " is not supported by Accel");
    };
  }

  /** 42809 when {@code name} is a relation of another kind, else 42P01. */
  private String notA(String name, String kind) {
    if (catalog.table(name).isPresent() || catalog.view(name).isPresent() || catalog.tableOfIndex(name).isPresent()
        || session.database().sequences().sequence(name).isPresent() || primaryKeyOf(name).isPresent()) {
      throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not " + kind);
    }
    throw new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
  }

  /** The table whose primary key index is named {@code name} ({@code <table>_pkey}). */
  private Optional<TableDef> primaryKeyOf(String name) {
    return catalog.tables().stream().filter(t -> !t.hasHiddenRowId() && name.equals(t.primaryKeyName()))
        .findFirst();
  }

  private String indexKey(String name) {
    Optional<TableDef> owner = catalog.tableOfIndex(name);
    if (owner.isPresent()) {
      return Catalog.indexComment(owner.get().id(), owner.get().index(name).get().id());
    }
    return primaryKeyOf(name).map(t -> Catalog.primaryKeyComment(t.id())).orElseGet(() -> notA(name, "an index"));
  }

  private String columnKey(String relation, String column) {
    Optional<TableDef> table = catalog.table(relation);
    if (table.isPresent()) {
      int ordinal = table.get().columnOrdinal(column).orElseThrow(() -> noColumn(relation, column));
      return Catalog.columnComment(table.get().id(), table.get().layout().columnSlots().get(ordinal));
    }
    Optional<ViewDef> view = catalog.view(relation);
    if (view.isPresent()) {
      int ordinal = view.get().columns().indexOf(column);
      if (ordinal < 0) {
        throw noColumn(relation, column);
      }
      return Catalog.columnComment(view.get().id(), ordinal);
    }
    Optional<SequenceDef> sequence = session.database().sequences().sequence(relation);
    if (sequence.isPresent() || catalog.tableOfIndex(relation).isPresent()) {
      throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "cannot set comment on relation \"" + relation + "\"");
    }
    throw new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + relation + "\" does not exist");
  }

  private static AccelException noColumn(String relation, String column) {
    return new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \"" + relation
        + "\" does not exist");
  }

  private String constraintKey(String relation, String name) {
    TableDef t = catalog.table(relation).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_TABLE,
        "relation \"" + relation + "\" does not exist"));
    boolean found = !t.hasHiddenRowId() && name.equals(t.primaryKeyName())
        || t.indexes().stream().anyMatch(i -> i.constraint() && i.name().equals(name))
        || t.checks().stream().anyMatch(k -> k.name().equals(name))
        || t.foreignKeys().stream().anyMatch(f -> f.name().equals(name));
    if (!found) {
      throw new AccelException(SqlState.UNDEFINED_OBJECT, "constraint \"" + name + "\" for table \"" + relation
          + "\" does not exist");
    }
    return !t.hasHiddenRowId() && name.equals(t.primaryKeyName()) ? Catalog.primaryKeyConstraintComment(t.id())
        : Catalog.constraintComment(t.id(), name);
  }
}
