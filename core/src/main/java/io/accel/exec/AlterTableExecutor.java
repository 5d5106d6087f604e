package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.Column;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.RowLayout;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * ALTER TABLE's column actions. Most change only the catalog: ADD COLUMN appends a slot to the table's
 * {@link RowLayout} (rows stored before read the default as evaluated now, as PostgreSQL's {@code attmissingval}),
 * DROP COLUMN stops reading its slot, renames, defaults and NOT NULL change the definition. ALTER COLUMN TYPE (where
 * the stored form changes), ADD COLUMN with a volatile default and DROP COLUMN of a primary key column rewrite the
 * table under a new id, as ADD PRIMARY KEY does. Each action takes effect at once, as Accel's other DDL; a transaction
 * block that could use the table before keeps using it after a change that rewrites nothing.
 */
final class AlterTableExecutor {
  /** Rows keyed and sorted together by a rewrite. */
  private static final int REWRITE_RUN = 250_000;

  private final Session session;
  private final CommandExecutor ddl;
  private final Database database;
  private final Catalog catalog;

  AlterTableExecutor(Session session, CommandExecutor ddl) {
    this.session = session;
    this.ddl = ddl;
    this.database = session.database();
    this.catalog = database.catalog();
  }

  void execute(Command.AlterTable a) {
    String name = a.table();
    for (Command.AlterAction action : a.actions()) {
      if (catalog.table(name).isEmpty()) {
        if (a.ifExists()) {
          return;
        }
        throw CommandExecutor.undefinedTable(name);
      }
      if (action instanceof Command.AddKeyAction k) {
        ddl.ddl(() -> ddl.addKey(k.key()));
      } else if (action instanceof Command.AddColumn add) {
        addColumn(name, add);
      } else if (action instanceof Command.AddCheck check) {
        String table = name;
        ddl.ddl(() -> addChecks(table(table), List.of(check.check()), !check.notValid()));
      } else if (action instanceof Command.AddForeignKey fk) {
        String table = name;
        ddl.ddl(() -> addForeignKey(table(table), fk.foreignKey(), !fk.notValid()));
      } else if (action instanceof Command.RenameTable r) {
        String table = name;
        ddl.ddl(() -> renameTable(table, r.newName()));
        name = r.newName();
      } else {
        String table = name;
        ddl.ddl(() -> alter(table, action));
      }
    }
  }

  private TableDef table(String name) {
    return catalog.table(name).orElseThrow(() -> CommandExecutor.undefinedTable(name));
  }

  private void alter(String name, Command.AlterAction action) throws RocksDBException {
    TableDef t = table(name);
    if (action instanceof Command.DropColumn d) {
      dropColumn(t, d);
    } else if (action instanceof Command.RenameColumn r) {
      int ordinal = t.columnOrdinal(r.column()).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
          "column \"" + r.column() + "\" does not exist"));
      if (t.columnOrdinal(r.newName()).isPresent()) {
        throw columnExists(t, r.newName());
      }
      if (t.checks().stream().anyMatch(c -> io.accel.sql.ViewReferences.expressionNames(c.expression())
          .contains(r.column()))) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "renaming column \"" + r.column() + "\" is not"
            + " supported by Accel while a CHECK constraint names it; drop and add the constraint again");
      }
      if (t.indexes().stream().anyMatch(i -> namesInExpressions(i).contains(r.column()))) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "renaming column \"" + r.column() + "\" is not"
            + " supported by Accel while an index expression or predicate names it; drop and create the index again");
      }
      if (!views().usersOfColumn(t, r.column()).isEmpty()) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "renaming column \"" + r.column() + "\" is not"
            + " supported by Accel while a view uses it (views name their columns); drop and recreate the view");
      }
      Column c = t.columns().get(ordinal);
      TableDef renamed = withColumn(t, ordinal, new Column(r.newName(), c.type(), c.nullable(), c.defaultSql()), true);
      publish(t, renamed.withForeignKeys(renamed.foreignKeys().stream()
          .map(f -> f.renamed(t.name(), t.name(), r.column(), r.newName())).toList()));
      for (TableDef other : List.copyOf(catalog.tables())) {
        if (other.id() != t.id() && other.foreignKeys().stream().anyMatch(f -> f.refTable().equals(t.name()))) {
          catalog.put(other.withForeignKeys(other.foreignKeys().stream()
              .map(f -> f.renamed(t.name(), other.name(), r.column(), r.newName())).toList()));
        }
      }
    } else if (action instanceof Command.SetDefault s) {
      int ordinal = ordinal(t, s.column());
      Column c = t.columns().get(ordinal);
      publish(t, withColumn(t, ordinal, new Column(c.name(), c.type(), c.nullable(), s.defaultSql()), false));
    } else if (action instanceof Command.SetNotNull s) {
      int ordinal = ordinal(t, s.column());
      Column c = t.columns().get(ordinal);
      if (!s.notNull() && t.primaryKey().contains(ordinal)) {
        throw new AccelException(SqlState.INVALID_TABLE_DEFINITION, "column \"" + c.name() + "\" is in a primary key");
      }
      if (s.notNull() == !c.nullable()) {
        return;
      }
      if (s.notNull()) {
        checkNoNulls(t, ordinal);
      }
      publish(t, withColumn(t, ordinal, new Column(c.name(), c.type(), !s.notNull(), c.defaultSql()), false));
    } else if (action instanceof Command.AlterType at) {
      alterType(t, at);
    } else if (action instanceof Command.DropConstraint dc) {
      dropConstraint(t, dc);
    } else if (action instanceof Command.ValidateConstraint v) {
      validateConstraint(t, v.name());
    }
  }

  /**
   * VALIDATE CONSTRAINT: reads the rows a NOT VALID CHECK or FOREIGN KEY was added over (23514 / 23503, the constraint
   * staying not valid); nothing to do for one already valid; 42809 for a key, 42704 for an unknown name.
   */
  private void validateConstraint(TableDef t, String name) throws RocksDBException {
    for (int i = 0; i < t.checks().size(); i++) {
      io.accel.catalog.CheckDef check = t.checks().get(i);
      if (check.name().equals(name)) {
        if (!check.validated()) {
          verifyCheck(t, check);
          List<io.accel.catalog.CheckDef> all = new ArrayList<>(t.checks());
          all.set(i, check.withValidated(true));
          publish(t, t.withChecks(all));
        }
        return;
      }
    }
    for (int i = 0; i < t.foreignKeys().size(); i++) {
      io.accel.catalog.ForeignKeyDef fk = t.foreignKeys().get(i);
      if (fk.name().equals(name)) {
        if (!fk.validated()) {
          verifyForeignKey(t, fk);
          List<io.accel.catalog.ForeignKeyDef> all = new ArrayList<>(t.foreignKeys());
          all.set(i, fk.withValidated(true));
          publish(t, t.withForeignKeys(all));
        }
        return;
      }
    }
    if (t.index(name).filter(IndexDef::unique).isPresent()
        || !t.primaryKey().isEmpty() && name.equals(t.primaryKeyName())) {
      throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "constraint \"" + name + "\" of relation \"" + t.name()
          + "\" is not a foreign key or check constraint");
    }
    throw new AccelException(SqlState.UNDEFINED_OBJECT, "constraint \"" + name + "\" of relation \"" + t.name()
        + "\" does not exist");
  }

  // ---- ADD COLUMN

  private void addColumn(String name, Command.AddColumn add) {
    Command.ColumnSpec spec = add.column();
    TableDef before = table(name);
    if (before.columnOrdinal(spec.name()).isPresent()) {
      if (add.ifNotExists()) {
        return;
      }
      throw columnExists(before, spec.name());
    }
    boolean notNull = spec.notNull() || add.primaryKey();
    if (spec.defaultSql().isPresent() && spec.defaultSql().get().startsWith(Column.GENERATED)) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
          "ADD COLUMN ... GENERATED ALWAYS AS is not supported by Accel: create the table with it");
    }
    boolean perRow = spec.defaultSql().isPresent() && CopyIn.VOLATILE.matcher(spec.defaultSql().get()).find();
    // evaluated before the schema lock is taken: it runs as a query of this session
    Object missing = spec.defaultSql().isPresent() && !perRow ? evaluate(spec.defaultSql().get(), spec.type()) : null;
    ddl.ddl(() -> {
      TableDef t = table(name);
      if (t.columnOrdinal(spec.name()).isPresent()) {
        throw columnExists(t, spec.name());
      }
      Column column = new Column(spec.name(), spec.type(), !notNull, spec.defaultSql());
      List<Column> columns = new ArrayList<>(t.columns());
      columns.add(column);
      if (perRow) {
        TableDef shape = new TableDef(t.id(), t.name(), columns, t.primaryKey(), t.indexes(), t.schemaVersion() + 1)
            .withConstraintsOf(t);
        String sql = evaluationSql(spec.defaultSql().get(), spec.type());
        rewrite(t, shape, row -> {
          Object[] r = java.util.Arrays.copyOf(row, row.length + 1);
          r[row.length] = evaluate(sql, spec.type(), true);
          return r;
        });
      } else {
        if (missing == null && notNull && hasRows(t)) {
          throw containsNulls(t, spec.name());
        }
        int version = t.schemaVersion() + 1;
        publish(t, new TableDef(t.id(), t.name(), columns, t.primaryKey(), t.indexes(), version,
            t.layout().withColumnAdded(spec.type(), version, missing), t.checks(), t.foreignKeys(), t.pkConstraint()));
      }
      if (!add.checks().isEmpty()) {
        TableDef now = table(name);
        try {
          addChecks(now, add.checks(), true);
        } catch (RuntimeException e) {
          if (now.id() == t.id()) {
            catalog.put(t);
          }
          throw e;
        }
      }
      if (add.primaryKey() || add.unique()) {
        try {
          ddl.addKey(new Command.AddKey(name, false, Optional.empty(), List.of(spec.name()), add.primaryKey()));
        } catch (RuntimeException e) {
          // the column goes with its constraint, as PostgreSQL's statement fails whole; no row was written since
          TableDef now = table(name);
          if (now.id() == t.id()) {
            catalog.put(t);
          } else {
            throw e;
          }
          throw e;
        }
      }
    });
  }

  /** The default's value cast to the column's type, as an INSERT that omits the column would store it. */
  private Object evaluate(String expression, DataType type) {
    return evaluate(evaluationSql(expression, type), type, true);
  }

  private static String evaluationSql(String expression, DataType type) {
    // an unconstrained NUMERIC keeps the value's own scale: no cast
    String cast = type.kind() == ColumnType.NUMERIC && type.precision() < 0 ? null : castName(type);
    return "SELECT " + (cast == null ? "(" + expression + ")" : "CAST((" + expression + ") AS " + cast + ")");
  }

  /** The type Calcite casts a value to for a column of {@code type} (string lengths are the writer's to check). */
  static String castName(DataType type) {
    return switch (type.kind()) {
      case CHAR, VARCHAR, TEXT -> "VARCHAR";
      case NUMERIC -> type.precision() < 0 ? "DECIMAL(38, 19)"
          : "DECIMAL(" + type.precision() + ", " + Math.max(type.scale(), 0) + ")";
      case TIMESTAMPTZ -> "TIMESTAMP WITH LOCAL TIME ZONE";
      case BYTEA -> "VARBINARY";
      default -> type.sqlName();
    };
  }

  private Object evaluate(String sql, DataType type, boolean coerce) {
    Object key = new Object();
    try {
      Result r = session.execute(key, session.prepare(sql), List.of(), new AtomicBoolean(), 0);
      Object v = r.cursor().hasNext() ? r.cursor().next() : null;
      if (v instanceof Object[] row) {
        v = row[0];
      }
      r.cursor().close();
      return v == null || !coerce ? v : Values.coerce(type, v);
    } finally {
      session.releaseStatement(key);
    }
  }

  // ---- DROP COLUMN

  /** The names an index's expression columns and predicate use (empty for a plain index). */
  static java.util.Set<String> namesInExpressions(IndexDef index) {
    java.util.Set<String> names = new java.util.HashSet<>();
    index.columns().stream().filter(IndexColumn::isExpression)
        .forEach(ic -> names.addAll(io.accel.sql.ViewReferences.expressionNames(ic.expression())));
    if (index.predicate() != null) {
      names.addAll(io.accel.sql.ViewReferences.expressionNames(index.predicate()));
    }
    return names;
  }

  private void dropColumn(TableDef table, Command.DropColumn d) throws RocksDBException {
    TableDef t = table.withForeignKeys(table.foreignKeys().stream().filter(f -> !f.columns().contains(d.column())
        && !(f.refTable().equals(table.name()) && f.refColumns().contains(d.column()))).toList());
    Optional<Integer> found = t.columnOrdinal(d.column());
    if (found.isEmpty()) {
      if (d.ifExists()) {
        return;
      }
      throw new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + d.column() + "\" of relation \"" + t.name()
          + "\" does not exist");
    }
    int ordinal = found.get();
    List<io.accel.catalog.ViewDef> users = views().usersOfColumn(t, d.column());
    if (!users.isEmpty() && !d.cascade()) {
      throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column " + d.column()
          + " of table " + t.name() + " because other objects depend on it")
          .withDetail("view " + users.get(0).name() + " depends on column " + d.column() + " of table " + t.name())
          .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    if (!users.isEmpty()) {
      java.util.Set<String> dropped = new java.util.HashSet<>();
      List<io.accel.catalog.ViewDef> all = new ArrayList<>(users);
      users.forEach(v -> dropped.add(v.name()));
      for (io.accel.catalog.ViewDef v : users) {
        all.addAll(views().dependents(v.name(), "view", dropped, true));
      }
      views().removeViews(all);
    }
    if (t.columns().size() == 1) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "dropping the last column of a table is not supported"
          + " by Accel");
    }
    List<Column> columns = new ArrayList<>(t.columns());
    columns.remove(ordinal);
    // FOREIGN KEYs of other tables on the column depend on its key: 2BP01, or dropped (CASCADE); this table's own
    // FOREIGN KEYs on the column go with it, as in PostgreSQL
    List<TableDef> referencing = new ArrayList<>();
    for (TableDef other : catalog.tables()) {
      if (other.id() != t.id() && other.foreignKeys().stream().anyMatch(f -> f.refTable().equals(t.name())
          && f.refColumns().contains(d.column()))) {
        referencing.add(other);
      }
    }
    if (!referencing.isEmpty() && !d.cascade()) {
      io.accel.catalog.ForeignKeyDef fk = referencing.get(0).foreignKeys().stream()
          .filter(f -> f.refTable().equals(t.name()) && f.refColumns().contains(d.column())).findFirst().orElseThrow();
      throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column " + d.column()
          + " of table " + t.name() + " because other objects depend on it")
          .withDetail("constraint " + fk.name() + " on table " + referencing.get(0).name() + " depends on column "
              + d.column() + " of table " + t.name())
          .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    for (TableDef other : referencing) {
      catalog.put(other.withForeignKeys(other.foreignKeys().stream().filter(f -> !(f.refTable().equals(t.name())
          && f.refColumns().contains(d.column()))).toList()));
    }
    // CHECK constraints on the column go with it, as in PostgreSQL
    List<io.accel.catalog.CheckDef> checks = t.checks().stream()
        .filter(c -> !io.accel.sql.ViewReferences.expressionNames(c.expression()).contains(d.column())).toList();
    // indexes on the column go with it, as in PostgreSQL; the others are renumbered
    List<IndexDef> kept = new ArrayList<>();
    List<IndexDef> dropped = new ArrayList<>();
    for (IndexDef index : t.indexes()) {
      boolean uses = index.include().contains(ordinal)
          || index.columns().stream().anyMatch(ic -> ic.column() == ordinal)
          || namesInExpressions(index).contains(d.column());
      if (uses) {
        dropped.add(index);
      } else {
        kept.add(new IndexDef(index.id(), index.name(), index.columns().stream().map(ic -> ic.isExpression() ? ic
                : new IndexColumn(shift(ic.column(), ordinal), ic.descending())).toList(),
            index.unique(), index.include().stream().map(c -> shift(c, ordinal)).toList(), index.constraint(),
            index.predicate()));
      }
    }
    int version = t.schemaVersion() + 1;
    if (t.primaryKey().contains(ordinal)) {
      // the primary key goes too: the rows are stored again under hidden row ids
      TableDef shape = new TableDef(t.id(), t.name(), columns, List.of(), kept, version).withChecks(checks)
          .withForeignKeys(t.foreignKeys());
      rewrite(t, shape, row -> {
        Object[] r = new Object[row.length - 1];
        for (int i = 0, j = 0; i < row.length; i++) {
          if (i != ordinal) {
            r[j++] = row[i];
          }
        }
        return r;
      });
      return;
    }
    List<Integer> pk = t.primaryKey().stream().map(c -> shift(c, ordinal)).toList();
    publish(t, new TableDef(t.id(), t.name(), columns, pk, kept, version, t.layout().withColumnDropped(ordinal),
        checks, t.foreignKeys(), pk.isEmpty() ? null : t.pkConstraint()));
    for (IndexDef index : dropped) {
      database.store().dropFamily(Catalog.indexFamily(index.id()));
    }
  }

  private static int shift(int column, int dropped) {
    return column > dropped ? column - 1 : column;
  }

  // ---- RENAME TO

  private void renameTable(String name, String newName) throws RocksDBException {
    TableDef t = table(name);
    if (ddl.relationExists(newName)) {
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + newName + "\" already exists");
    }
    if (!views().readersOf(name).isEmpty()) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "renaming table \"" + name + "\" is not supported by"
          + " Accel while a view reads it (views name their tables); drop and recreate the view");
    }
    List<io.accel.catalog.ForeignKeyDef> own = t.foreignKeys().stream()
        .map(f -> f.refTable().equals(name) ? f.withRefTable(newName) : f).toList();
    publish(t, new TableDef(t.id(), newName, t.columns(), t.primaryKey(), t.indexes(), t.schemaVersion(), t.layout(),
        t.checks(), own, t.pkConstraint()));
    for (TableDef other : List.copyOf(catalog.tables())) {
      if (other.id() != t.id() && other.foreignKeys().stream().anyMatch(f -> f.refTable().equals(name))) {
        catalog.put(other.withForeignKeys(other.foreignKeys().stream()
            .map(f -> f.refTable().equals(name) ? f.withRefTable(newName) : f).toList()));
      }
    }
  }

  // ---- ALTER COLUMN TYPE

  private void alterType(TableDef t, Command.AlterType at) throws RocksDBException {
    int ordinal = t.columnOrdinal(at.column()).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
        "column \"" + at.column() + "\" of relation \"" + t.name() + "\" does not exist"));
    Column c = t.columns().get(ordinal);
    List<io.accel.catalog.ViewDef> users = views().usersOfColumn(t, c.name());
    if (!users.isEmpty()) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot alter type of a column used by a view or rule")
          .withDetail("rule _RETURN on view " + users.get(0).name() + " depends on column \"" + c.name() + "\"");
    }
    DataType from = c.type();
    DataType to = at.type();
    boolean explicit = false;
    if (at.using().isPresent()) {
      explicit = usingCastOf(at.using().get(), c.name());
    }
    if (!explicit && !ColumnConversion.assignable(from, to)) {
      throw new AccelException(SqlState.DATATYPE_MISMATCH, "column \"" + c.name() + "\" cannot be cast automatically"
          + " to type " + ColumnConversion.pgName(to))
          .withHint("You might need to specify \"USING " + c.name() + "::" + ColumnConversion.pgName(to) + "\".");
    }
    if (explicit && !ColumnConversion.castable(from, to)) {
      throw new AccelException(SqlState.CANNOT_COERCE, "cannot cast type " + ColumnConversion.pgName(from) + " to "
          + ColumnConversion.pgName(to));
    }
    if (t.indexes().stream().anyMatch(i -> namesInExpressions(i).contains(c.name()))) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "changing the type of column \"" + c.name()
          + "\" is not supported by Accel while an index expression or predicate names it; drop the index first");
    }
    Column changed = new Column(c.name(), to, c.nullable(), c.defaultSql());
    int version = t.schemaVersion() + 1;
    List<Column> columns = new ArrayList<>(t.columns());
    columns.set(ordinal, changed);
    if (ColumnConversion.sameStoredForm(from, to) && !t.primaryKey().contains(ordinal)
        && t.indexes().stream().noneMatch(i -> i.include().contains(ordinal)
            || i.columns().stream().anyMatch(ic -> ic.column() == ordinal))) {
      publish(t, new TableDef(t.id(), t.name(), columns, t.primaryKey(), t.indexes(), version,
          t.layout().withColumnType(ordinal, to), t.checks(), t.foreignKeys(), t.pkConstraint()));
      return;
    }
    java.time.ZoneId zone = session.timeZone().toZoneId();
    TableDef shape = new TableDef(t.id(), t.name(), columns, t.primaryKey(), t.indexes(), version)
        .withConstraintsOf(t);
    rewrite(t, shape, row -> {
      Object[] r = row.clone();
      r[ordinal] = r[ordinal] == null ? null : Values.coerce(to, ColumnConversion.convert(row[ordinal], from, to, zone));
      return r;
    });
  }

  /**
   * Whether USING is the column cast to a type ({@code c::type}, {@code CAST(c AS type)}) or the column alone; the
   * cast's type must then be the new one. Other expressions are not supported.
   */
  private static boolean usingCastOf(String using, String column) {
    String u = using.trim().toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
    String c = Pattern.quote(column);
    if (u.matches("\"?" + c + "\"?")) {
      return false;
    }
    if (u.matches("\\(?\"?" + c + "\"?\\)? ?:: ?.+") || u.matches("cast ?\\( ?\"?" + c + "\"? as .+\\)")) {
      return true;
    }
    throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER COLUMN TYPE ... USING an expression other than a"
        + " cast of the column is not supported by Accel");
  }

  // ---- constraints

  /**
   * Adds CHECK constraints after reading every row (committed, and the open block's) through them: a row they reject
   * is 23514, and the table is left as it was.
   */
  private void addChecks(TableDef t, List<Command.CheckSpec> specs, boolean validate) throws RocksDBException {
    List<io.accel.catalog.CheckDef> named = new ArrayList<>();
    for (io.accel.catalog.CheckDef check : CommandExecutor.nameChecks(t, specs, t.checks())) {
      if (validate) {
        verifyCheck(t, check);
      }
      named.add(check.withValidated(validate));
    }
    List<io.accel.catalog.CheckDef> all = new ArrayList<>(t.checks());
    all.addAll(named);
    publish(t, t.withChecks(all));
  }

  /** Reads every row (committed, and the open block's) through {@code check}: 23514 for a row it rejects. */
  private void verifyCheck(TableDef t, io.accel.catalog.CheckDef check) throws RocksDBException {
    CheckConstraints evaluator = database.checkConstraints();
    TableDef only = t.withChecks(List.of(check.withValidated(true)));
    evaluator.compile(only, only.checks());
    try (TxnContext ctx = database.beginReadOnly()) {
      forEachVisible(t, null, row -> {
        if (evaluator.firstFalse(only, row, ctx) >= 0) {
          throw new AccelException(SqlState.CHECK_VIOLATION, "check constraint \"" + check.name()
              + "\" of relation \"" + t.name() + "\" is violated by some row");
        }
      });
    }
  }

  /**
   * Adds a FOREIGN KEY after reading every row (committed, and the open block's) through it: a row whose key is not
   * present in the referenced table is 23503, and the table is left as it was.
   */
  private void addForeignKey(TableDef t, Command.ForeignKeySpec spec, boolean validate) throws RocksDBException {
    io.accel.catalog.ForeignKeyDef fk = ForeignKeyDefinitions.define(catalog, t, List.of(spec),
        ForeignKeyDefinitions.constraintNames(t), ddl::relationExists).get(0).withValidated(validate);
    if (validate) {
      verifyForeignKey(t, fk);
    }
    List<io.accel.catalog.ForeignKeyDef> all = new ArrayList<>(t.foreignKeys());
    all.add(fk);
    publish(t, t.withForeignKeys(all));
  }

  /** Reads every row (committed, and the open block's) through {@code fk}: 23503 for a key not in its table. */
  private void verifyForeignKey(TableDef t, io.accel.catalog.ForeignKeyDef fk) throws RocksDBException {
    TableDef parent = fk.refTable().equals(t.name()) ? t : table(fk.refTable());
    ReferencedKey key = ReferencedKey.of(parent, fk);
    ColumnFamilyHandle family = key.family(database);
    int[] columns = ReferentialChecks.ordinals(t, fk.columns());
    TxnContext block = session.blockContext();
    try (TxnContext committed = database.beginReadOnly()) {
      forEachVisible(t, null, row -> {
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
          values[i] = row[columns[i]];
          if (values[i] == null) {
            return;
          }
        }
        byte[] k = key.key(values);
        boolean present = k != null && (committed.get(family, k) != null
            || block != null && block.schemaCurrent(parent.id()) && block.get(family, k) != null);
        if (!present) {
          String text = java.util.stream.IntStream.range(0, columns.length)
              .mapToObj(i -> Values.toText(t.columns().get(columns[i]).type(), values[i]))
              .collect(java.util.stream.Collectors.joining(", "));
          throw new AccelException(SqlState.FOREIGN_KEY_VIOLATION, "insert or update on table \"" + t.name()
              + "\" violates foreign key constraint \"" + fk.name() + "\"")
              .withDetail("Key (" + String.join(", ", fk.columns()) + ")=(" + text + ") is not present in table \""
                  + parent.name() + "\".");
        }
      });
    }
  }

  /**
   * DROP CONSTRAINT: a FOREIGN KEY, a CHECK, a UNIQUE constraint (its index) or the primary key (the rows get hidden
   * row ids); a key a FOREIGN KEY references is 2BP01.
   */
  private void dropConstraint(TableDef t, Command.DropConstraint dc) throws RocksDBException {
    Optional<io.accel.catalog.CheckDef> check = t.checks().stream().filter(c -> c.name().equals(dc.name())).findFirst();
    if (check.isPresent()) {
      List<io.accel.catalog.CheckDef> rest = new ArrayList<>(t.checks());
      rest.remove(check.get());
      publish(t, t.withChecks(rest));
      return;
    }
    Optional<io.accel.catalog.ForeignKeyDef> fk = t.foreignKeys().stream().filter(f -> f.name().equals(dc.name()))
        .findFirst();
    if (fk.isPresent()) {
      List<io.accel.catalog.ForeignKeyDef> rest = new ArrayList<>(t.foreignKeys());
      rest.remove(fk.get());
      publish(t, t.withForeignKeys(rest));
      return;
    }
    Optional<IndexDef> index = t.index(dc.name()).filter(IndexDef::unique);
    if (index.isPresent() || !t.primaryKey().isEmpty() && dc.name().equals(t.primaryKeyName())) {
      // a FOREIGN KEY that references the key depends on it
      for (TableDef other : catalog.tables()) {
        for (io.accel.catalog.ForeignKeyDef f : other.foreignKeys()) {
          if (f.refTable().equals(t.name()) && ReferencedKey.of(t, f.refColumns())
              .filter(k -> k.index().map(IndexDef::name).orElse(t.primaryKeyName()).equals(dc.name())).isPresent()) {
            throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop constraint " + dc.name()
                + " on table " + t.name() + " because other objects depend on it")
                .withDetail("constraint " + f.name() + " on table " + other.name() + " depends on index "
                    + dc.name())
                .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
          }
        }
      }
    }
    if (index.isPresent()) {
      publish(t, t.withoutIndex(dc.name()));
      database.store().dropFamily(Catalog.indexFamily(index.get().id()));
      database.statistics().indexDropped(t.withoutIndex(dc.name()), index.get());
      return;
    }
    if (!t.primaryKey().isEmpty() && dc.name().equals(t.primaryKeyName())) {
      TableDef shape = new TableDef(t.id(), t.name(), t.columns(), List.of(), t.indexes(), t.schemaVersion() + 1)
          .withConstraintsOf(t);
      rewrite(t, shape, row -> row);
      return;
    }
    if (!dc.ifExists()) {
      throw new AccelException(SqlState.UNDEFINED_OBJECT, "constraint \"" + dc.name() + "\" of relation \""
          + t.name() + "\" does not exist");
    }
  }

  // ---- shared

  private ViewExecutor views() {
    return new ViewExecutor(session, ddl);
  }

  private int ordinal(TableDef t, String column) {
    return t.columnOrdinal(column).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
        "column \"" + column + "\" of relation \"" + t.name() + "\" does not exist"));
  }

  private static TableDef withColumn(TableDef t, int ordinal, Column column, boolean newVersion) {
    List<Column> columns = new ArrayList<>(t.columns());
    columns.set(ordinal, column);
    return new TableDef(t.id(), t.name(), columns, t.primaryKey(), t.indexes(),
        t.schemaVersion() + (newVersion ? 1 : 0), t.layout(), t.checks(), t.foreignKeys(), t.pkConstraint());
  }

  /**
   * Records a definition that reads the same stored rows; an open block that could use the table before still can
   * (its rows, written under the older version, read through the new layout).
   */
  private void publish(TableDef before, TableDef after) throws RocksDBException {
    TxnContext block = session.blockContext();
    boolean current = block != null && block.schemaCurrent(before.id());
    catalog.put(after);
    if (current) {
      block.adoptSchema(after.id(), catalog.changedAt(after.id()), List.of());
    }
    database.statistics().tableCreated(after);
  }

  /** Whether the table has a row: committed, or written by this session's open block. */
  private boolean hasRows(TableDef t) {
    boolean[] found = {false};
    forEachVisible(t, null, row -> found[0] = true);
    return found[0];
  }

  /** SET NOT NULL's check: no committed row, nor one of the open block's, has a null in the column. */
  private void checkNoNulls(TableDef t, int ordinal) {
    boolean[] wanted = new boolean[t.columns().size()];
    wanted[ordinal] = true;
    forEachVisible(t, wanted, row -> {
      if (row[ordinal] == null) {
        throw containsNulls(t, t.columns().get(ordinal).name());
      }
    });
  }

  private void forEachVisible(TableDef t, boolean[] wanted, java.util.function.Consumer<Object[]> visitor) {
    try (TxnContext committed = database.beginReadOnly()) {
      forEach(committed, t, wanted, visitor);
    }
    TxnContext block = session.blockContext();
    if (block != null && block.schemaCurrent(t.id())) {
      forEach(block, t, wanted, visitor);
    }
  }

  private void forEach(TxnContext ctx, TableDef t, boolean[] wanted, java.util.function.Consumer<Object[]> visitor) {
    RocksIterator it = ctx.iterator(database.tableFamily(t));
    ctx.enter();
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        visitor.accept(t.decodeRow(it.value(), wanted));
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
  }

  /**
   * Stores the committed rows of {@code table} again, each converted by {@code convert}, as {@code shape} describes
   * them (a plain layout) under a new table id, with its indexes rebuilt, then swaps the definitions in one catalog
   * write; any failure drops the new families and leaves the table as it was.
   */
  private void rewrite(TableDef table, TableDef shape, UnaryOperator<Object[]> convert) throws RocksDBException {
    List<String> created = new ArrayList<>();
    try {
      long id = catalog.allocateId();
      ColumnFamilyHandle family = database.store().createFamily(Catalog.tableFamily(id));
      created.add(Catalog.tableFamily(id));
      List<IndexDef> indexes = ddl.newIndexFamilies(shape.indexes(), created);
      TableDef rewritten = new TableDef(id, shape.name(), shape.columns(), shape.primaryKey(), indexes,
          shape.schemaVersion()).withConstraintsOf(shape);
      String pkName = table.primaryKeyName();
      List<byte[][]> run = new ArrayList<>();
      int runs = 0;
      long rowId = 0;
      try (TxnContext ctx = database.beginReadOnly()) {
        RocksIterator it = ctx.iterator(database.tableFamily(table));
        try {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            Object[] row = convert.apply(table.decodeRow(it.value(), null));
            for (int c = 0; c < row.length; c++) {
              if (row[c] == null && !rewritten.columns().get(c).nullable()) {
                throw containsNulls(rewritten, rewritten.columns().get(c).name());
              }
            }
            byte[] key = rewritten.hasHiddenRowId() ? RowKeys.rowIdKey(++rowId) : RowKeys.rowKey(rewritten, row);
            run.add(new byte[][] {key, rewritten.encodeRow(row)});
            if (run.size() >= REWRITE_RUN) {
              ddl.ingestRun(rewritten, family, run, runs++ > 0, pkName);
            }
          }
        } finally {
          ctx.release(it);
        }
      }
      ddl.ingestRun(rewritten, family, run, runs++ > 0, pkName);
      if (runs > 1) {
        database.store().db().compactRange(family);
      }
      for (IndexDef index : indexes) {
        ddl.backfill(rewritten, index, database.indexFamily(index.id()), null);
      }
      catalog.replace(table, rewritten);
      created.clear();
      ddl.retireReplaced(table, rewritten);
    } finally {
      for (String family : created) {
        database.store().dropFamily(family);
      }
    }
  }

  private static AccelException columnExists(TableDef t, String column) {
    return new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + column + "\" of relation \"" + t.name()
        + "\" already exists");
  }

  private static AccelException containsNulls(TableDef t, String column) {
    return new AccelException(SqlState.NOT_NULL_VIOLATION, "column \"" + column + "\" of relation \"" + t.name()
        + "\" contains null values");
  }

  static boolean isString(ColumnType kind) {
    return kind == ColumnType.CHAR || kind == ColumnType.VARCHAR || kind == ColumnType.TEXT;
  }
}
