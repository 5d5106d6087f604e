package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.catalog.ViewDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import io.accel.sql.ViewReferences;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.rocksdb.RocksDBException;

/**
 * CREATE [OR REPLACE] VIEW and DROP VIEW, and the dependencies of views on tables and other views that DROP TABLE,
 * DROP VIEW and ALTER TABLE check as PostgreSQL does (2BP01 unless CASCADE). A view is its query, stored as Calcite
 * parses it; the planner expands it wherever it is read.
 */
final class ViewExecutor {
  private final Session session;
  private final CommandExecutor ddl;
  private final Catalog catalog;

  ViewExecutor(Session session, CommandExecutor ddl) {
    this.session = session;
    this.ddl = ddl;
    this.catalog = session.database().catalog();
  }

  void create(Command.CreateView c) {
    // planned before the schema lock is taken: planning holds it shared
    Prepared prepared = session.prepare(c.query());
    if (prepared.kind() != Prepared.Kind.QUERY || prepared.command() != null || prepared.plan() == null) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "a view's query must be a SELECT, VALUES or TABLE query");
    }
    RelDataType rowType = prepared.plan().signature().rowType;
    List<String> names = new ArrayList<>();
    List<DataType> types = new ArrayList<>();
    List<Boolean> nullable = new ArrayList<>();
    List<RelDataTypeField> fields = rowType.getFieldList();
    if (c.columns().size() > fields.size()) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "CREATE VIEW specifies more column names than columns");
    }
    for (int i = 0; i < fields.size(); i++) {
      String name = i < c.columns().size() ? c.columns().get(i) : prepared.signature().columns.get(i).label;
      if (names.contains(name)) {
        throw new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + name + "\" specified more than once");
      }
      names.add(name);
      types.add(viewType(fields.get(i).getType(), name));
      nullable.add(fields.get(i).getType().isNullable());
    }
    // the columns selected by name around the query, so a * in it that would now read more columns (ADD COLUMN
    // later) gives the view the columns it was created with, as PostgreSQL's expansion of * at creation does
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < fields.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append('"').append(fields.get(i).getName().replace("\"", "\"\"")).append('"');
    }
    sql.append(" FROM (").append(session.calciteText(c.query())).append(") AS \"accel_view\"");
    ViewReferences.of(sql.toString());
    ddl.ddl(() -> {
      Optional<ViewDef> old = catalog.view(c.name());
      if (old.isEmpty() && ddl.relationExists(c.name())) {
        if (c.orReplace() && catalog.table(c.name()).isPresent()) {
          throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "\"" + c.name() + "\" is not a view");
        }
        throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists");
      }
      if (old.isPresent() && !c.orReplace()) {
        throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists");
      }
      if (old.isPresent()) {
        checkReplaceable(old.get(), names, types);
      }
      long id = old.isPresent() ? old.get().id() : catalog.allocateId();
      catalog.putView(new ViewDef(id, c.name(), sql.toString(), c.query(), names, types, nullable));
    });
  }

  /** PostgreSQL's rule for CREATE OR REPLACE VIEW: the old columns stay, same names and types; more may follow. */
  private static void checkReplaceable(ViewDef old, List<String> names, List<DataType> types) {
    if (names.size() < old.columns().size()) {
      throw new AccelException(SqlState.INVALID_TABLE_DEFINITION, "cannot drop columns from view");
    }
    for (int i = 0; i < old.columns().size(); i++) {
      if (!old.columns().get(i).equals(names.get(i))) {
        throw new AccelException(SqlState.INVALID_TABLE_DEFINITION, "cannot change name of view column \""
            + old.columns().get(i) + "\" to \"" + names.get(i) + "\"")
            .withHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
      }
      if (!old.types().get(i).equals(types.get(i))) {
        throw new AccelException(SqlState.INVALID_TABLE_DEFINITION, "cannot change data type of view column \""
            + old.columns().get(i) + "\" from " + ColumnConversion.pgName(old.types().get(i)) + " to "
            + ColumnConversion.pgName(types.get(i)));
      }
    }
  }

  /** The type a view column keeps: Calcite's, as one of the types Accel's catalog names. */
  private static DataType viewType(RelDataType type, String column) {
    return switch (type.getSqlTypeName()) {
      case SMALLINT, TINYINT -> DataType.of(ColumnType.SMALLINT);
      case INTEGER -> DataType.of(ColumnType.INTEGER);
      case BIGINT -> DataType.of(ColumnType.BIGINT);
      case DECIMAL -> new DataType(ColumnType.NUMERIC, type.getPrecision(), type.getScale());
      case REAL, FLOAT -> DataType.of(ColumnType.REAL);
      case DOUBLE -> DataType.of(ColumnType.DOUBLE);
      case BOOLEAN -> DataType.of(ColumnType.BOOLEAN);
      case CHAR, VARCHAR, NULL -> DataType.of(ColumnType.TEXT);
      case DATE -> DataType.of(ColumnType.DATE);
      case TIME -> DataType.of(ColumnType.TIME);
      case TIMESTAMP -> DataType.of(ColumnType.TIMESTAMP);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataType.of(ColumnType.TIMESTAMPTZ);
      case BINARY, VARBINARY -> DataType.of(ColumnType.BYTEA);
      case UUID -> DataType.of(ColumnType.UUID);
      default -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "view column \"" + column + "\" of type "
          + type.getSqlTypeName() + " is not supported by Accel");
    };
  }

  void drop(Command.DropView d) {
    ddl.ddl(() -> {
      List<ViewDef> victims = new ArrayList<>();
      for (String name : d.names()) {
        Optional<ViewDef> v = catalog.view(name);
        if (v.isPresent()) {
          victims.add(v.get());
        } else if (catalog.table(name).isPresent()) {
          throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a view")
              .withHint("Use DROP TABLE to remove a table.");
        } else if (!d.ifExists()) {
          throw new AccelException(SqlState.UNDEFINED_TABLE, "view \"" + name + "\" does not exist");
        }
      }
      Set<String> dropped = new HashSet<>();
      victims.forEach(v -> dropped.add(v.name()));
      List<ViewDef> all = new ArrayList<>(victims);
      for (ViewDef v : victims) {
        all.addAll(dependents(v.name(), "view", dropped, d.cascade()));
      }
      removeViews(all);
    });
  }

  /**
   * The views that depend on {@code relation} (transitively), except those already being dropped: with
   * {@code cascade} they are returned to be dropped too, otherwise their existence is 2BP01.
   */
  List<ViewDef> dependents(String relation, String kind, Set<String> dropped, boolean cascade) {
    List<ViewDef> found = new ArrayList<>();
    Set<String> queue = new LinkedHashSet<>(List.of(relation));
    while (!queue.isEmpty()) {
      String next = queue.iterator().next();
      queue.remove(next);
      for (ViewDef v : catalog.views()) {
        if (!dropped.contains(v.name()) && ViewReferences.of(v.sql()).relations().contains(next)) {
          if (!cascade) {
            throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop " + kind + " " + relation
                + " because other objects depend on it")
                .withDetail("view " + v.name() + " depends on " + (next.equals(relation) ? kind : "view") + " " + next)
                .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
          }
          dropped.add(v.name());
          found.add(v);
          queue.add(v.name());
        }
      }
    }
    return found;
  }

  /** The views that read {@code table} and may use {@code column} (they name it, or select *). */
  List<ViewDef> usersOfColumn(TableDef table, String column) {
    List<ViewDef> users = new ArrayList<>();
    for (ViewDef v : catalog.views()) {
      ViewReferences refs = ViewReferences.of(v.sql());
      if (refs.relations().contains(table.name()) && refs.mayUse(column)) {
        users.add(v);
      }
    }
    return users;
  }

  /** The views that read {@code relation} directly. */
  List<ViewDef> readersOf(String relation) {
    return catalog.views().stream().filter(v -> ViewReferences.of(v.sql()).relations().contains(relation)).toList();
  }

  void removeViews(List<ViewDef> views) throws RocksDBException {
    for (ViewDef v : views) {
      catalog.removeView(v);
    }
  }
}
