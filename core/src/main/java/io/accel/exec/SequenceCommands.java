package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.ColumnType;
import io.accel.catalog.SequenceCatalog;
import io.accel.catalog.SequenceDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.rocksdb.RocksDBException;

/**
 * CREATE, ALTER and DROP SEQUENCE, the sequences of SERIAL and identity columns, and dropping a table's owned
 * sequences with it; checked as PostgreSQL's {@code init_params} checks the options. Runs under the schema lock
 * {@link CommandExecutor} holds; like Accel's other DDL, it takes effect at once.
 */
final class SequenceCommands {
  private final Database database;
  private final Catalog catalog;
  private final SequenceCatalog sequences;

  SequenceCommands(Database database) {
    this.database = database;
    this.catalog = database.catalog();
    this.sequences = database.sequences();
  }

  void create(Command.CreateSequence c, Predicate<String> relationExists) throws RocksDBException {
    if (relationExists.test(c.name())) {
      if (c.ifNotExists()) {
        return;
      }
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists");
    }
    SequenceDef defined = define(catalog.allocateId(), c.name(), c.options(), null);
    sequences.put(defined.withOwner(owner(c.options(), Optional.empty())));
  }

  void alter(Command.AlterSequence a) throws RocksDBException {
    Optional<SequenceDef> found = sequences.sequence(a.name());
    if (found.isEmpty()) {
      if (a.ifExists()) {
        return;
      }
      throw new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + a.name() + "\" does not exist");
    }
    SequenceDef base = found.get();
    SequenceDef changed = define(base.id(), base.name(), a.options(), base)
        .withOwner(owner(a.options(), base.owner()));
    Long restart = a.options().restart() != null ? a.options().restart()
        : a.options().restartDefault() ? changed.start() : null;
    if (restart != null) {
      if (restart < changed.min()) {
        throw invalid("RESTART value (" + restart + ") cannot be less than MINVALUE (" + changed.min() + ")");
      }
      if (restart > changed.max()) {
        throw invalid("RESTART value (" + restart + ") cannot be greater than MAXVALUE (" + changed.max() + ")");
      }
    }
    sequences.put(changed);
    if (restart != null) {
      database.sequenceValues().set(changed, restart, false);
    }
  }

  void drop(Command.DropSequence d) throws RocksDBException {
    List<SequenceDef> victims = new ArrayList<>();
    for (String name : d.names()) {
      Optional<SequenceDef> s = sequences.sequence(name);
      if (s.isEmpty()) {
        if (d.ifExists()) {
          continue;
        }
        throw new AccelException(SqlState.UNDEFINED_TABLE, "sequence \"" + name + "\" does not exist");
      }
      Optional<SequenceDef.Owner> identity = s.get().owner().filter(o -> o.identity() != SequenceDef.Identity.NONE);
      if (identity.isPresent()) {
        String table = catalog.tables().stream().filter(t -> t.id() == identity.get().tableId()).map(TableDef::name)
            .findFirst().orElse("?");
        throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop sequence " + name
            + " because column " + identity.get().column() + " of table " + table + " requires it")
            .withHint("You can drop column " + identity.get().column() + " of table " + table + " instead.");
      }
      Optional<String> user = defaultUsing(s.get());
      if (user.isPresent()) {
        throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop sequence " + name
            + " because other objects depend on it").withDetail(user.get())
            .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
      }
      victims.add(s.get());
    }
    for (SequenceDef s : victims) {
      remove(s);
    }
  }

  /** CREATE TABLE with SERIAL or identity columns: the table, then one owned sequence per such column. */
  void createTable(Command.CreateTableWithSequences c, Predicate<String> relationExists,
      java.util.function.Consumer<Command.CreateTable> createTable) throws RocksDBException {
    Command.CreateTable t = c.table();
    if (relationExists.test(t.name()) && t.ifNotExists()) {
      return;
    }
    List<String> names = new ArrayList<>();
    for (Command.ColumnSequence cs : c.sequences()) {
      String base = t.name() + "_" + cs.column() + "_seq";
      String name = base;
      for (int n = 1; relationExists.test(name) || names.contains(name) || name.equals(t.name()); n++) {
        name = base + n;
      }
      names.add(name);
    }
    List<Command.ColumnSpec> columns = new ArrayList<>();
    for (Command.ColumnSpec spec : t.columns()) {
      int at = -1;
      for (int i = 0; i < c.sequences().size(); i++) {
        if (c.sequences().get(i).column().equals(spec.name())) {
          at = i;
        }
      }
      columns.add(at < 0 ? spec : new Command.ColumnSpec(spec.name(), spec.type(), spec.notNull(),
          Optional.of(nextvalDefault(names.get(at)))));
    }
    createTable.accept(new Command.CreateTable(t.name(), t.ifNotExists(), columns, t.primaryKey(), t.uniqueKeys(),
        t.checks(), t.foreignKeys(), t.primaryKeyName(), t.uniqueNames()));
    TableDef table = catalog.table(t.name()).orElseThrow();
    for (int i = 0; i < c.sequences().size(); i++) {
      Command.ColumnSequence cs = c.sequences().get(i);
      SequenceDef s = define(catalog.allocateId(), names.get(i), cs.options(), null);
      sequences.put(s.withOwner(Optional.of(new SequenceDef.Owner(table.id(), cs.column(), cs.identity()))));
    }
  }

  /** DROP TABLE: the sequences its columns own go with it. */
  void dropOwned(TableDef table) throws RocksDBException {
    for (SequenceDef s : sequences.ownedBy(table.id())) {
      remove(s);
    }
  }

  /** A column's DEFAULT drawing from the sequence, as PostgreSQL shows it. */
  static String nextvalDefault(String sequence) {
    String name = sequence.matches("[a-z_][a-z0-9_$]*") ? sequence : "\"" + sequence.replace("\"", "\"\"") + "\"";
    return "nextval('" + name.replace("'", "''") + "'::regclass)";
  }

  private void remove(SequenceDef s) throws RocksDBException {
    sequences.remove(s, SequenceValues.key(s.id()));
    database.sequenceValues().forget(s.id());
  }

  /** A column whose DEFAULT draws from the sequence (PostgreSQL's dependency), described as in its DETAIL. */
  private Optional<String> defaultUsing(SequenceDef s) {
    String text = nextvalDefault(s.name());
    for (TableDef t : catalog.tables()) {
      for (io.accel.catalog.Column c : t.columns()) {
        if (c.defaultSql().filter(d -> d.contains(text) || d.contains("nextval('" + s.name() + "')")).isPresent()) {
          return Optional.of("default value for column " + c.name() + " of table " + t.name()
              + " depends on sequence " + s.name());
        }
      }
    }
    return Optional.empty();
  }

  private Optional<SequenceDef.Owner> owner(Command.SequenceOptions o, Optional<SequenceDef.Owner> before) {
    if (o.ownedBy() == null) {
      return before;
    }
    if (o.ownedBy().isEmpty()) {
      return Optional.empty();
    }
    int dot = o.ownedBy().indexOf('.');
    String table = o.ownedBy().substring(0, dot);
    String column = o.ownedBy().substring(dot + 1);
    TableDef t = catalog.table(table).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_TABLE,
        "relation \"" + table + "\" does not exist"));
    if (t.columnOrdinal(column).isEmpty()) {
      throw new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \"" + table
          + "\" does not exist");
    }
    return Optional.of(new SequenceDef.Owner(t.id(), column, SequenceDef.Identity.NONE));
  }

  /** The definition the options give, over {@code base} (ALTER) or PostgreSQL's defaults (CREATE). */
  static SequenceDef define(long id, String name, Command.SequenceOptions o, SequenceDef base) {
    ColumnType type = o.type() != null ? o.type() : base != null ? base.type() : ColumnType.BIGINT;
    long increment = o.increment() != null ? o.increment() : base != null ? base.increment() : 1;
    if (increment == 0) {
      throw invalid("INCREMENT must not be zero");
    }
    boolean typeChanged = base != null && o.type() != null && o.type() != base.type();
    long max;
    if (o.max() != null) {
      max = o.max();
    } else if (o.noMax() || base == null || o.increment() != null && base.max() == defaultMax(base.type(),
        base.increment()) || typeChanged && base.max() == defaultMax(base.type(), base.increment())) {
      max = defaultMax(type, increment);
    } else {
      max = base.max();
    }
    long min;
    if (o.min() != null) {
      min = o.min();
    } else if (o.noMin() || base == null || o.increment() != null && base.min() == defaultMin(base.type(),
        base.increment()) || typeChanged && base.min() == defaultMin(base.type(), base.increment())) {
      min = defaultMin(type, increment);
    } else {
      min = base.min();
    }
    String typeName = SequenceDef.typeName(type);
    if (max < SequenceDef.typeMin(type) || max > SequenceDef.typeMax(type)) {
      throw invalid("MAXVALUE (" + max + ") is out of range for sequence data type " + typeName);
    }
    if (min < SequenceDef.typeMin(type) || min > SequenceDef.typeMax(type)) {
      throw invalid("MINVALUE (" + min + ") is out of range for sequence data type " + typeName);
    }
    if (min >= max) {
      throw invalid("MINVALUE (" + min + ") must be less than MAXVALUE (" + max + ")");
    }
    long start = o.start() != null ? o.start() : base != null ? base.start() : increment > 0 ? min : max;
    if (start < min) {
      throw invalid("START value (" + start + ") cannot be less than MINVALUE (" + min + ")");
    }
    if (start > max) {
      throw invalid("START value (" + start + ") cannot be greater than MAXVALUE (" + max + ")");
    }
    long cache = o.cache() != null ? o.cache() : base != null ? base.cache() : 1;
    if (cache <= 0) {
      throw invalid("CACHE (" + cache + ") must be greater than zero");
    }
    boolean cycle = o.cycle() != null ? o.cycle() : base != null && base.cycle();
    return new SequenceDef(id, name, type, start, increment, min, max, cache, cycle,
        base == null ? Optional.empty() : base.owner());
  }

  private static long defaultMax(ColumnType type, long increment) {
    return increment > 0 ? SequenceDef.typeMax(type) : -1;
  }

  private static long defaultMin(ColumnType type, long increment) {
    return increment > 0 ? 1 : SequenceDef.typeMin(type);
  }

  private static AccelException invalid(String message) {
    return new AccelException(SqlState.INVALID_PARAMETER_VALUE, message);
  }

}
