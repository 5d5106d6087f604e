package io.accel.exec;

import io.accel.catalog.Catalog;
import io.accel.catalog.Column;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs DDL and transaction-control {@link Command}s for a session. DDL takes the store's schema lock
 * exclusively, so no statement reads or writes rows while a table or index changes, and takes effect at
 * once, outside any transaction block (as in MySQL; PostgreSQL's DDL is transactional, Accel's is not).
 */
public final class CommandExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(CommandExecutor.class);

  private final Session session;
  private final Database database;
  private final Catalog catalog;

  public CommandExecutor(Session session) {
    this.session = session;
    this.database = session.database();
    this.catalog = database.catalog();
  }

  public void execute(Command command) {
    if (command instanceof Command.Begin b) {
      session.begin(b.isolation());
    } else if (command instanceof Command.Commit) {
      session.commit();
    } else if (command instanceof Command.Rollback) {
      session.rollback();
    } else if (command instanceof Command.Savepoint sp) {
      session.savepoint(sp.name());
    } else if (command instanceof Command.ReleaseSavepoint sp) {
      session.releaseSavepoint(sp.name());
    } else if (command instanceof Command.RollbackToSavepoint sp) {
      session.rollbackToSavepoint(sp.name());
    } else if (command instanceof Command.CreateTable c) {
      ddl(() -> createTable(c));
    } else if (command instanceof Command.CreateIndex c) {
      notInBlock(c.concurrently(), "CREATE INDEX CONCURRENTLY");
      ddl(() -> createIndex(c));
    } else if (command instanceof Command.DropTable d) {
      ddl(() -> dropTables(d));
    } else if (command instanceof Command.DropIndex d) {
      notInBlock(d.concurrently(), "DROP INDEX CONCURRENTLY");
      ddl(() -> dropIndexes(d));
    } else if (command instanceof Command.Analyze a) {
      analyze(a);
    } else if (command instanceof Command.Vacuum v) {
      vacuum(v);
    } else if (command instanceof Command.AddKey k) {
      ddl(() -> addKey(k));
    } else if (command instanceof Command.AlterTable a) {
      new AlterTableExecutor(session, this).execute(a);
    } else if (command instanceof Command.CreateView v) {
      new ViewExecutor(session, this).create(v);
    } else if (command instanceof Command.DropView v) {
      new ViewExecutor(session, this).drop(v);
    } else if (command instanceof Command.Comment c) {
      ddl(() -> new CommentExecutor(session).comment(c));
    } else if (command instanceof Command.AlterOwner o) {
      alterOwner(o);
    } else if (command instanceof Command.Grant g) {
      grant(g);
    } else if (command instanceof Command.CreateExtension c) {
      ddl(() -> createExtension(c));
    } else if (command instanceof Command.DropExtension d) {
      ddl(() -> dropExtension(d));
    } else if (command instanceof Command.CreateSequence c) {
      ddl(() -> new SequenceCommands(database).create(c, this::relationExists));
    } else if (command instanceof Command.AlterSequence a) {
      ddl(() -> new SequenceCommands(database).alter(a));
    } else if (command instanceof Command.DropSequence d) {
      ddl(() -> new SequenceCommands(database).drop(d));
    } else if (command instanceof Command.CreateTableWithSequences c) {
      ddl(() -> new SequenceCommands(database).createTable(c, this::relationExists, t -> {
        try {
          createTable(t);
        } catch (RocksDBException e) {
          throw TxnContext.storageFailure(e);
        }
      }));
    }
  }

  /**
   * OWNER TO: Accel has one role per session, the owner of everything in the store, so the object must exist and the
   * role be that user (or CURRENT_USER, SESSION_USER, CURRENT_ROLE); nothing changes. Any other role does not exist
   * (42704), as in a PostgreSQL without it.
   */
  private void alterOwner(Command.AlterOwner o) {
    boolean exists = switch (o.kind()) {
      case "schema" -> o.name().equals("public");
      case "index" -> relationExists(o.name()) || catalog.tables().stream()
          .anyMatch(t -> !t.primaryKey().isEmpty() && t.primaryKeyName().equals(o.name()));
      case "sequence" -> database.sequences().sequence(o.name()).isPresent();
      case "view" -> catalog.view(o.name()).isPresent();
      default -> relationExists(o.name());
    };
    if (!exists) {
      if (o.ifExists()) {
        return;
      }
      throw o.kind().equals("schema")
          ? new AccelException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + o.name() + "\" does not exist")
          : new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + o.name() + "\" does not exist");
    }
    requireRole(o.role());
  }

  /** The session's user (by name or as CURRENT_USER, SESSION_USER, CURRENT_ROLE): the one role a store has. */
  private void requireRole(String role) {
    if (!Set.of("current_user", "session_user", "current_role").contains(role) && !role.equals(session.user())) {
      throw new AccelException(SqlState.UNDEFINED_OBJECT, "role \"" + role + "\" does not exist");
    }
  }

  /**
   * GRANT to PUBLIC or the session's user: what it grants is held already (in standalone mode every user of a store may
   * read and write all of it), so once the objects and grantees are found to exist nothing changes.
   */
  private void grant(Command.Grant g) {
    for (String name : g.names()) {
      boolean exists = switch (g.kind()) {
        case "schema", "all tables", "all sequences", "all functions", "all routines", "all procedures" ->
            name.equals("public");
        case "database" -> true;
        case "sequence" -> database.sequences().sequence(name).isPresent();
        default -> relationExists(name);
      };
      if (!exists) {
        throw g.kind().equals("table") || g.kind().equals("sequence")
            ? new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist")
            : new AccelException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + name + "\" does not exist");
      }
    }
    for (String role : g.grantees()) {
      if (!role.equals("public")) {
        requireRole(role);
      }
    }
  }

  private void createExtension(Command.CreateExtension c) throws RocksDBException {
    String version = Catalog.PROVIDED_EXTENSIONS.get(c.name());
    if (version == null) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "extension \"" + c.name() + "\" is not available")
          .withDetail("Accel provides the extensions " + String.join(", ", new java.util.TreeSet<>(Catalog.PROVIDED_EXTENSIONS.keySet()))
              + ".");
    }
    if (catalog.extensions().containsKey(c.name())) {
      if (c.ifNotExists()) {
        return;
      }
      throw new AccelException(SqlState.DUPLICATE_OBJECT, "extension \"" + c.name() + "\" already exists");
    }
    catalog.extension(c.name(), version);
  }

  private void dropExtension(Command.DropExtension d) throws RocksDBException {
    for (String name : d.names()) {
      if (!catalog.extensions().containsKey(name) && !d.ifExists()) {
        throw new AccelException(SqlState.UNDEFINED_OBJECT, "extension \"" + name + "\" does not exist");
      }
    }
    for (String name : d.names()) {
      if (catalog.extensions().containsKey(name)) {
        catalog.extension(name, null);
      }
    }
  }

  interface Ddl {
    void run() throws RocksDBException;
  }

  void ddl(Ddl ddl) {
    Lock lock = database.schemaLock().writeLock();
    lock.lock();
    try {
      ddl.run();
    } catch (RocksDBException e) {
      throw TxnContext.storageFailure(e);
    } finally {
      lock.unlock();
    }
  }

  private void createTable(Command.CreateTable c) throws RocksDBException {
    if (relationExists(c.name())) {
      if (c.ifNotExists()) {
        return;
      }
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists");
    }
    List<Column> columns = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Command.ColumnSpec spec : c.columns()) {
      if (!names.add(spec.name())) {
        throw new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + spec.name() + "\" specified more than once");
      }
      boolean nullable = !spec.notNull() && !c.primaryKey().contains(spec.name());
      columns.add(new Column(spec.name(), spec.type(), nullable, spec.defaultSql()));
    }
    TableDef shape = new TableDef(0, c.name(), columns, List.of(), List.of(), 1);
    List<Integer> pk = ordinals(shape, c.primaryKey());
    if (new HashSet<>(pk).size() != pk.size()) {
      throw new AccelException(SqlState.DUPLICATE_COLUMN, "column appears twice in primary key constraint");
    }
    List<List<Integer>> uniques = new ArrayList<>();
    for (List<String> u : c.uniqueKeys()) {
      uniques.add(ordinals(shape, u));
    }
    List<io.accel.catalog.CheckDef> checks = nameChecks(shape, c.checks(), List.of());
    if (!checks.isEmpty()) {
      // planned now: an expression that does not validate fails the CREATE TABLE with its SQLSTATE
      database.checkConstraints().compile(shape, checks);
    }
    if (columns.stream().anyMatch(Column::generated)) {
      database.checkConstraints().compileGenerated(shape); // likewise for generation expressions
    }
    long id = catalog.allocateId();
    database.store().createFamily(Catalog.tableFamily(id));
    List<IndexDef> indexes = new ArrayList<>();
    Set<String> indexNames = new HashSet<>();
    String pkName = c.primaryKeyName().orElse(null);
    if (pkName != null && relationExists(pkName)) {
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + pkName + "\" already exists");
    }
    for (int k = 0; k < uniques.size(); k++) {
      List<Integer> u = uniques.get(k);
      if (u.equals(pk)) {
        continue;
      }
      String declared = c.uniqueNames().get(k);
      java.util.function.Predicate<String> taken = x -> indexNames.contains(x) || relationExists(x)
          || x.equals(pkName);
      String name;
      if (declared != null) {
        // the constraint's name is its index's, as in PostgreSQL
        if (taken.test(declared)) {
          throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + declared + "\" already exists");
        }
        name = declared;
      } else {
        String base = c.name() + "_" + u.stream().map(i -> columns.get(i).name()).collect(Collectors.joining("_"))
            + "_key";
        name = base;
        for (int n = 1; taken.test(name); n++) {
          name = base + n;
        }
      }
      indexNames.add(name);
      long indexId = catalog.allocateId();
      database.store().createFamily(Catalog.indexFamily(indexId));
      indexes.add(new IndexDef(indexId, name, u.stream().map(i -> new IndexColumn(i, false)).toList(), true)
          .asConstraint());
    }
    TableDef created = new TableDef(id, c.name(), columns, pk, indexes, 1).withChecks(checks)
        .withPkConstraint(pk.isEmpty() ? null : pkName);
    if (!c.foreignKeys().isEmpty()) {
      try {
        Set<String> taken = ForeignKeyDefinitions.constraintNames(created);
        created = created.withForeignKeys(ForeignKeyDefinitions.define(catalog, created, c.foreignKeys(), taken,
            this::relationExists));
      } catch (RuntimeException e) {
        database.store().dropFamily(Catalog.tableFamily(id));
        for (IndexDef index : indexes) {
          database.store().dropFamily(Catalog.indexFamily(index.id()));
        }
        throw e;
      }
    }
    catalog.put(created);
    TxnContext block = session.blockContext();
    if (block != null) {
      // the open block may use the table it created (its snapshot is older than the table)
      List<ColumnFamilyHandle> families = new ArrayList<>();
      families.add(database.tableFamily(created));
      for (IndexDef index : indexes) {
        families.add(database.indexFamily(index.id()));
      }
      block.adoptSchema(id, catalog.changedAt(id), families);
    }
    database.statistics().tableCreated(created);
  }

  private void createIndex(Command.CreateIndex c) throws RocksDBException {
    createIndex(c, false);
  }

  /** CREATE INDEX, or with {@code constraint} the index of a UNIQUE constraint. */
  private void createIndex(Command.CreateIndex c, boolean constraint) throws RocksDBException {
    TableDef table = catalog.table(c.table()).orElseThrow(() -> undefinedTable(c.table()));
    // an expression key has no column ordinal (-1)
    List<Integer> ordinals = new ArrayList<>();
    for (Command.IndexKeySpec key : c.keys()) {
      ordinals.add(key.expression() != null ? -1 : ordinals(table, List.of(key.column())).get(0));
    }
    String name = c.name().orElseGet(() -> {
      String base = table.name() + "_" + c.keys().stream().map(Command.IndexKeySpec::column)
          .collect(Collectors.joining("_")) + "_idx";
      String candidate = base;
      for (int n = 1; relationExists(candidate); n++) {
        candidate = base + n;
      }
      return candidate;
    });
    if (relationExists(name)) {
      if (c.ifNotExists()) {
        return;
      }
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
    }
    List<IndexColumn> columns = new ArrayList<>();
    for (int i = 0; i < ordinals.size(); i++) {
      Command.IndexKeySpec key = c.keys().get(i);
      columns.add(key.expression() != null
          ? IndexColumn.ofExpression(io.accel.sql.ViewReferences.unqualified(key.expression(), table.name()), null,
              key.descending())
          : new IndexColumn(ordinals.get(i), key.descending()));
    }
    String predicate = c.predicate() == null ? null
        : io.accel.sql.ViewReferences.unqualified(c.predicate(), table.name());
    if (predicate != null || columns.stream().anyMatch(IndexColumn::isExpression)) {
      columns = computedColumns(table, new IndexDef(0, name, columns, c.unique(), List.of(), false, predicate));
    }
    List<Integer> include = new ArrayList<>();
    for (int ordinal : ordinals(table, c.include())) {
      if (ordinals.contains(ordinal) || include.contains(ordinal)) {
        throw new AccelException(SqlState.INVALID_COLUMN_REFERENCE, "included column \""
            + table.columns().get(ordinal).name() + "\" is already a key column or included twice");
      }
      include.add(ordinal);
    }
    IndexDef index = new IndexDef(catalog.allocateId(), name, columns, c.unique(), include, constraint, predicate);
    ColumnFamilyHandle family = database.store().createFamily(Catalog.indexFamily(index.id()));
    // a table with no committed rows is indexed within the open block, whose rows (if any) are all there is
    TxnContext block = session.blockContext();
    TxnContext own = block != null && block.schemaCurrent(table.id()) && committedEmpty(table) ? block : null;
    List<byte[][]> entries;
    try {
      entries = backfill(table, index, family, own);
    } catch (RuntimeException | RocksDBException e) {
      database.store().dropFamily(Catalog.indexFamily(index.id()));
      throw e;
    }
    catalog.put(table.withIndex(index));
    if (own != null) {
      own.adoptSchema(table.id(), catalog.changedAt(table.id()), List.of(family));
    }
    database.statistics().indexCreated(table.withIndex(index), index, entries);
  }

  /**
   * A partial or expression index's key columns with each expression's type, found by planning the predicate and
   * keys over the table (an unknown column or function fails here with its SQLSTATE, as in PostgreSQL).
   */
  private List<IndexColumn> computedColumns(TableDef table, IndexDef index) {
    // (sub-queries, aggregates and mutable functions were refused by the parser)
    org.apache.calcite.rel.type.RelDataType row = database.indexKeys().compile(table, index).rowType;
    if (index.predicate() != null) {
      org.apache.calcite.rel.type.RelDataType p = database.checkConstraints().compileExpressions(table,
          List.of("(" + index.predicate() + ")")).rowType.getFieldList().get(0).getType();
      if (p.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
        throw new AccelException(SqlState.DATATYPE_MISMATCH, "argument of WHERE must be type boolean, not type "
            + p.getSqlTypeName().getName().toLowerCase(java.util.Locale.ROOT));
      }
    }
    List<IndexColumn> typed = new ArrayList<>();
    for (int i = 0; i < index.columns().size(); i++) {
      IndexColumn ic = index.columns().get(i);
      if (!ic.isExpression()) {
        typed.add(ic);
        continue;
      }
      org.apache.calcite.rel.type.RelDataType t = row.getFieldList().get(1 + i).getType();
      io.accel.catalog.DataType type = switch (t.getSqlTypeName()) {
        case SMALLINT -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.SMALLINT);
        case INTEGER -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.INTEGER);
        case BIGINT -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.BIGINT);
        case DECIMAL -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.NUMERIC);
        case CHAR, VARCHAR -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.TEXT);
        case BOOLEAN -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.BOOLEAN);
        case DATE -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.DATE);
        case TIMESTAMP -> io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.TIMESTAMP);
        default -> throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "an index expression of type "
            + t.getSqlTypeName().getName().toLowerCase(java.util.Locale.ROOT) + " is not supported by Accel ("
            + ic.expression() + ")");
      };
      typed.add(IndexColumn.ofExpression(ic.expression(), type, ic.descending()));
    }
    return typed;
  }

  /**
   * Writes the entries of every existing row; no writer runs meanwhile (the schema lock is held). With {@code own},
   * the rows are those that transaction sees and the entries are its writes; otherwise every committed row. Returns
   * the entries in key order when they were written as one run (the index's statistics read them), else null.
   */
  List<byte[][]> backfill(TableDef table, IndexDef index, ColumnFamilyHandle family, TxnContext own)
      throws RocksDBException {
    if (own != null) {
      List<byte[][]> entries = new ArrayList<>();
      walkEntries(own, false, table, index, (entry, value) -> entries.add(new byte[][] {entry, value}));
      for (byte[][] e : entries) {
        own.putUntracked(family, e[0], e[1]);
      }
      return null;
    }
    // sorted runs of at most backfillRunBytes(), each ingested as one table file (they overlap only when the
    // table has more rows than a run: RocksDB then places the later runs above the earlier ones)
    try (TxnContext ctx = database.begin()) {
      List<byte[][]> run = new ArrayList<>();
      int[] runs = {0};
      long[] bytes = {0};
      long budget = backfillRunBytes();
      byte[] split = index.plain() && !index.unique()
          && database.statistics().of(table).rowCount() * (ENTRY_OVERHEAD + 64) < budget
          ? database.splitKey(table) : null;
      if (split != null) {
        // entries that fit one run, of rows read in two key ranges at once (no unique check spans the two)
        List<byte[][]> high = new ArrayList<>();
        Database.inTwoParts(split, (from, to) -> {
          List<byte[][]> sink = from == null ? run : high;
          walkEntries(ctx, true, table, index, from, to, (e, v) -> sink.add(new byte[][] {e, v}));
        });
        run.addAll(high);
        ingest(family, run);
        return run;
      }
      walkEntries(ctx, true, table, index, (entry, value) -> {
        run.add(new byte[][] {entry, value});
        bytes[0] += entry.length + value.length + ENTRY_OVERHEAD;
        if (bytes[0] >= budget) {
          ingest(family, run);
          run.clear();
          runs[0]++;
          bytes[0] = 0;
        }
      });
      ingest(family, run);
      if (runs[0] > 0) {
        // overlapping runs sit on as many levels, each consulted by every seek: merge them into one now
        database.store().db().compactRange(family);
        return null;
      }
      return run;
    }
  }

  /** Heap bytes an entry of a run takes besides its key and value (two arrays, the list slot, the sort's copies). */
  private static final int ENTRY_OVERHEAD = 96;

  /**
   * How many bytes of entries an index build sorts at once: a quarter of the heap, at least 64 MB. A table whose
   * entries fit is written as one sorted run; larger ones as several, merged by a compaction afterwards.
   */
  static long backfillRunBytes() {
    return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);
  }

  /** Sorts a run of entries and ingests it as table files into {@code family}. */
  private void ingest(ColumnFamilyHandle family, List<byte[][]> run) {
    Store.sortByKey(run);
    try {
      database.store().ingestSorted(family, run);
    } catch (RocksDBException e) {
      throw TxnContext.storageFailure(e);
    }
  }

  /**
   * Hands {@code sink} the index entry (key, value) of every row {@code ctx} sees ({@code committed}: a context that
   * wrote nothing, read by one pass outside the block cache); a duplicate unique key is 23505.
   */
  private void walkEntries(TxnContext ctx, boolean committed, TableDef table, IndexDef index,
      java.util.function.BiConsumer<byte[], byte[]> sink) {
    walkEntries(ctx, committed, table, index, null, null, sink);
  }

  /** As above, over the rows whose keys are at least {@code from} and below {@code to} (null: unbounded). */
  private void walkEntries(TxnContext ctx, boolean committed, TableDef table, IndexDef index, byte[] from, byte[] to,
      java.util.function.BiConsumer<byte[], byte[]> sink) {
    TableReader reader = new TableReader(database, table);
    Set<ByteBuffer> seen = new HashSet<>();
    // only the indexed and included columns are decoded: the entry holds the row's storage key, not its columns
    // (a partial or expression index evaluates over the whole row)
    boolean[] wanted = index.plain() ? new boolean[table.columns().size()] : null;
    if (wanted != null) {
      index.columns().forEach(c -> wanted[c.column()] = true);
      index.include().forEach(c -> wanted[c] = true);
    }
    IndexKeys keys = database.indexKeys();
    // (a block's own rows, for an index it makes, are only in its transaction's iterator)
    RocksIterator it = committed ? ctx.scanIterator(database.tableFamily(table))
        : ctx.iterator(database.tableFamily(table));
    try {
      for (Database.seek(it, from); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (Database.beyond(key, to)) {
          break;
        }
        Object[] row = reader.decode(it.value(), wanted);
        Object[] computed = keys.of(table, index, row, ctx);
        if (computed == null) {
          continue; // outside a partial index
        }
        byte[] entry = RowKeys.indexKey(table, index, row, computed, key);
        boolean unique = RowKeys.uniqueForm(index, row, computed);
        if (unique && !seen.add(ByteBuffer.wrap(entry))) {
          throw duplicate(table, index, row, computed);
        }
        sink.accept(entry, RowKeys.indexValue(table, index, row, unique ? key : null));
      }
    } finally {
      ctx.release(it);
    }
  }

  /** Whether no committed row of the table exists (no writer commits meanwhile: the schema lock is held). */
  private boolean committedEmpty(TableDef table) {
    try (TxnContext ctx = database.beginReadOnly()) {
      RocksIterator it = ctx.iterator(database.tableFamily(table));
      try {
        it.seekToFirst();
        return !it.isValid();
      } finally {
        ctx.release(it);
      }
    }
  }

  private static AccelException duplicate(TableDef table, IndexDef index, Object[] row, Object[] computed) {
    return new AccelException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + index.name()
        + "\" (Key " + RowKeys.keyText(table, index, row, computed) + " is duplicated.)");
  }

  private void dropTables(Command.DropTable d) throws RocksDBException {
    List<TableDef> victims = new ArrayList<>();
    for (String name : d.names()) {
      Optional<TableDef> t = catalog.table(name);
      if (t.isEmpty()) {
        if (catalog.view(name).isPresent()) {
          throw new AccelException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table")
              .withHint("Use DROP VIEW to remove a view.");
        }
        if (d.ifExists()) {
          continue;
        }
        throw undefinedTable(name);
      }
      victims.add(t.get());
    }
    // views on the tables: 2BP01, or dropped with them (CASCADE)
    ViewExecutor views = new ViewExecutor(session, this);
    Set<String> dropped = new HashSet<>();
    victims.forEach(t -> dropped.add(t.name()));
    List<io.accel.catalog.ViewDef> dependents = new ArrayList<>();
    for (TableDef t : victims) {
      dependents.addAll(views.dependents(t.name(), "table", dropped, d.cascade()));
    }
    views.removeViews(dependents);
    // FOREIGN KEYs of other tables referencing them: 2BP01, or dropped (CASCADE)
    for (TableDef t : victims) {
      List<String> referencing = ForeignKeyDefinitions.referencingFrom(catalog, t.name(), dropped);
      if (!referencing.isEmpty() && !d.cascade()) {
        throw new AccelException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop table " + t.name()
            + " because other objects depend on it")
            .withDetail(referencing.get(0) + " depends on table " + t.name())
            .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
      }
    }
    for (TableDef t : victims) {
      for (TableDef other : List.copyOf(catalog.tables())) {
        if (!dropped.contains(other.name())
            && other.foreignKeys().stream().anyMatch(f -> f.refTable().equals(t.name()))) {
          TableDef now = catalog.table(other.name()).orElseThrow();
          catalog.put(now.withForeignKeys(now.foreignKeys().stream().filter(f -> !f.refTable().equals(t.name()))
              .toList()));
        }
      }
    }
    for (TableDef t : victims) {
      catalog.remove(t);
      database.store().dropFamily(Catalog.tableFamily(t.id()));
      for (IndexDef index : t.indexes()) {
        database.store().dropFamily(Catalog.indexFamily(index.id()));
      }
      database.forgetRowIds(t.id());
      database.statistics().tableDropped(t);
      if (database.rowCache() != null) {
        database.rowCache().invalidateTable(t.id());
      }
      new SequenceCommands(database).dropOwned(t);
    }
  }

  private void dropIndexes(Command.DropIndex d) throws RocksDBException {
    for (String name : d.names()) {
      Optional<TableDef> t = catalog.tableOfIndex(name);
      if (t.isEmpty()) {
        if (d.ifExists()) {
          continue;
        }
        throw new AccelException(SqlState.UNDEFINED_OBJECT, "index \"" + name + "\" does not exist");
      }
      IndexDef index = t.get().index(name).orElseThrow();
      catalog.put(t.get().withoutIndex(name));
      database.store().dropFamily(Catalog.indexFamily(index.id()));
      database.statistics().indexDropped(t.get().withoutIndex(name), index);
    }
  }

  /**
   * ANALYZE: computes the statistics of the named tables (all tables when none is named) from a fresh
   * snapshot each. Holds the schema lock shared, as statements do, so no DDL changes the tables meanwhile;
   * allowed in a transaction block, as in PostgreSQL (the statistics reflect committed rows only).
   */
  private void analyze(Command.Analyze a) {
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      List<TableDef> tables = new ArrayList<>();
      if (a.tables().isEmpty()) {
        tables.addAll(catalog.tables());
      } else {
        for (String name : a.tables()) {
          TableDef t = catalog.table(name).orElseThrow(() -> undefinedTable(name));
          if (tables.stream().noneMatch(x -> x.id() == t.id())) {
            tables.add(t);
          }
        }
      }
      for (TableDef t : tables) {
        database.statistics().analyze(t);
      }
    } finally {
      lock.unlock();
    }
  }

  /** 25001 for a statement PostgreSQL runs only outside a transaction block, when {@code applies}. */
  private void notInBlock(boolean applies, String statement) {
    if (applies && session.inTransactionBlock()) {
      throw new AccelException(SqlState.ACTIVE_SQL_TRANSACTION, statement + " cannot run inside a transaction block");
    }
  }

  /**
   * VACUUM: RocksDB reclaims space by compaction on its own, so only the ANALYZE option does work; the tables must
   * exist, and as in PostgreSQL it cannot run inside a transaction block (25001).
   */
  private void vacuum(Command.Vacuum v) {
    notInBlock(true, "VACUUM");
    List<TableDef> tables = new ArrayList<>();
    for (String name : v.tables()) {
      tables.add(catalog.table(name).orElseThrow(() -> undefinedTable(name)));
    }
    if (v.full()) {
      // PostgreSQL's VACUUM FULL rewrites a table: here each family is compacted into one sorted run, so scans merge
      // no overlapping files and deleted rows' space is given back. The schema lock, shared as statements hold it,
      // keeps DDL from dropping a family meanwhile.
      Lock lock = database.schemaLock().readLock();
      lock.lock();
      try (org.rocksdb.CompactRangeOptions rewrite = new org.rocksdb.CompactRangeOptions()
          .setBottommostLevelCompaction(org.rocksdb.CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
        for (TableDef t : tables.isEmpty() ? List.copyOf(catalog.tables()) : tables) {
          database.store().db().compactRange(database.tableFamily(t), null, null, rewrite);
          for (IndexDef index : t.indexes()) {
            database.store().db().compactRange(database.indexFamily(index.id()), null, null, rewrite);
          }
        }
      } catch (RocksDBException e) {
        throw TxnContext.storageFailure(e);
      } finally {
        lock.unlock();
      }
    }
    if (v.analyze()) {
      analyze(new Command.Analyze(v.tables(), false));
    }
  }

  /**
   * TRUNCATE within the statement's transaction {@code ctx}: every row and index entry is deleted as DELETE would,
   * so ROLLBACK brings them back, the commit moves the tables' commit sequences (scan and cursor caches go stale),
   * the row cache supersedes the rows, and the row counts drop when it commits.
   */
  void truncate(Command.Truncate t, TxnContext ctx) {
    List<TableDef> tables = new ArrayList<>();
    for (String name : t.tables()) {
      TableDef table = catalog.table(name).orElseThrow(() -> undefinedTable(name));
      if (tables.stream().noneMatch(x -> x.id() == table.id())) {
        tables.add(table);
      }
    }
    // a table referenced by a FOREIGN KEY goes with the referencing tables (CASCADE), or not at all
    for (int i = 0; i < tables.size(); i++) {
      TableDef referenced = tables.get(i);
      for (TableDef other : catalog.tables()) {
        if (tables.stream().anyMatch(x -> x.id() == other.id())
            || other.foreignKeys().stream().noneMatch(f -> f.refTable().equals(referenced.name()))) {
          continue;
        }
        if (!t.cascade()) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot truncate a table referenced in a foreign"
              + " key constraint")
              .withDetail("Table \"" + other.name() + "\" references \"" + referenced.name() + "\".")
              .withHint("Truncate table \"" + other.name() + "\" at the same time, or use TRUNCATE ... CASCADE.");
        }
        tables.add(other);
      }
    }
    for (TableDef table : tables) {
      ctx.checkSchema(table);
      ColumnFamilyHandle rows = database.tableFamily(table);
      List<byte[]> keys = keys(ctx, rows);
      for (byte[] key : keys) {
        ctx.deleteRow(table, rows, key);
      }
      for (IndexDef index : table.indexes()) {
        ColumnFamilyHandle family = database.indexFamily(index.id());
        for (byte[] entry : keys(ctx, family)) {
          // a unique entry's key is the indexed values alone: a concurrent insert of the same value must conflict
          if (index.unique()) {
            ctx.delete(family, entry);
          } else {
            ctx.deleteUntracked(family, entry);
          }
        }
      }
      ctx.countChanges(table.id(), -keys.size(), keys.size());
    }
  }

  /** The keys of a family as {@code ctx} sees it (read first: deleting while iterating a transaction is unsafe). */
  private static List<byte[]> keys(TxnContext ctx, ColumnFamilyHandle family) {
    List<byte[]> keys = new ArrayList<>();
    RocksIterator it = ctx.iterator(family);
    ctx.enter();
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        keys.add(it.key());
      }
    } finally {
      ctx.exit();
      ctx.release(it);
    }
    return keys;
  }

  /** Rows keyed and sorted together by an ADD PRIMARY KEY rewrite (about 40 MB for pgbench_accounts' rows). */
  private static final int REWRITE_RUN = 250_000;

  /**
   * ALTER TABLE ADD PRIMARY KEY / UNIQUE. UNIQUE is a unique index named as PostgreSQL names the constraint. A
   * primary key rewrites the table under a new id, each row stored under its key columns (so lookups by it are
   * primary-key gets, as for a table declared with it) with its stored value unchanged, in sorted runs ingested
   * whole; the indexes are rebuilt (their entries hold the row key). Only when every check passed does the catalog
   * switch to the rewrite; a failure drops the new families and leaves the table as it was.
   */
  void addKey(Command.AddKey k) throws RocksDBException {
    Optional<TableDef> found = catalog.table(k.table());
    if (found.isEmpty()) {
      if (k.ifExists()) {
        return;
      }
      throw undefinedTable(k.table());
    }
    TableDef table = found.get();
    List<Integer> ordinals = new ArrayList<>();
    for (String column : k.columns()) {
      int ordinal = table.columnOrdinal(column).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
          "column \"" + column + "\" of relation \"" + table.name() + "\" does not exist"));
      if (ordinals.contains(ordinal)) {
        throw new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + column + "\" appears twice in "
            + (k.primary() ? "primary key" : "unique") + " constraint");
      }
      ordinals.add(ordinal);
    }
    if (!k.primary()) {
      String name = k.constraint().orElseGet(() -> {
        String base = table.name() + "_" + String.join("_", k.columns()) + "_key";
        String candidate = base;
        for (int n = 1; relationExists(candidate); n++) {
          candidate = base + n;
        }
        return candidate;
      });
      createIndex(new Command.CreateIndex(Optional.of(name), table.name(),
          k.columns().stream().map(c -> new Command.IndexKeySpec(c, false)).toList(), true, false), true);
      return;
    }
    if (!table.primaryKey().isEmpty()) {
      throw new AccelException(SqlState.INVALID_TABLE_DEFINITION,
          "multiple primary keys for table \"" + table.name() + "\" are not allowed");
    }
    String pkName = k.constraint().orElse(table.primaryKeyName());
    if (relationExists(pkName)) {
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + pkName + "\" already exists");
    }
    List<Column> columns = new ArrayList<>(table.columns());
    for (int o : ordinals) {
      Column c = columns.get(o);
      columns.set(o, new Column(c.name(), c.type(), false, c.defaultSql()));
    }
    TxnContext own = ownRows(table);
    List<String> created = new ArrayList<>();
    try {
      long id = catalog.allocateId();
      ColumnFamilyHandle family = database.store().createFamily(Catalog.tableFamily(id));
      created.add(Catalog.tableFamily(id));
      List<IndexDef> indexes = newIndexFamilies(table.indexes(), created);
      TableDef rewritten = new TableDef(id, table.name(), columns, ordinals, indexes, table.schemaVersion(),
          table.layout(), table.checks(), table.foreignKeys(), k.constraint().orElse(null));
      if (own == null) {
        rekey(table, rewritten, family, pkName);
      } else {
        rekeyOwn(own, table, rewritten, family, pkName);
      }
      for (IndexDef index : indexes) {
        backfill(rewritten, index, database.indexFamily(index.id()), own);
      }
      catalog.replace(table, rewritten);
      created.clear();
      retireReplaced(table, rewritten, own);
      if (own != null) {
        List<ColumnFamilyHandle> families = new ArrayList<>();
        families.add(family);
        for (IndexDef index : indexes) {
          families.add(database.indexFamily(index.id()));
        }
        own.adoptSchema(id, catalog.changedAt(id), families);
        own.abandonTable(table.id());
      }
    } finally {
      for (String family : created) {
        database.store().dropFamily(family);
      }
    }
  }

  /**
   * ADD PRIMARY KEY stores the committed rows again under a new table id. When the session's open block wrote rows to
   * the table and no committed row exists (a table created in the block, as Flyway's baseline does: CREATE TABLE,
   * INSERT, ADD PRIMARY KEY in one transaction), the block's rows are all there is: they are stored again within the
   * block (returned here), and its writes under the old table's id are left to a family that is dropped. Rows the
   * block wrote beside committed ones would not follow (they were lost, or the commit failed): that is refused before
   * anything changes.
   */
  private TxnContext ownRows(TableDef table) {
    TxnContext block = session.blockContext();
    if (block == null || !block.wroteTable(table.id())) {
      return null;
    }
    if (block.schemaCurrent(table.id()) && committedEmpty(table)) {
      return block;
    }
    throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "ALTER TABLE ADD PRIMARY KEY of a table with committed"
        + " rows that this transaction also wrote rows to is not supported; commit the rows first");
  }

  /** As {@link #rekey}, for the rows {@code own} sees (its own writes): written into it, untracked. */
  private void rekeyOwn(TxnContext own, TableDef table, TableDef rewritten, ColumnFamilyHandle family, String pkName) {
    TableReader reader = new TableReader(database, table);
    List<byte[][]> rows = new ArrayList<>();
    RocksIterator it = own.iterator(database.tableFamily(table));
    try {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] value = it.value();
        rows.add(new byte[][] {newKey(table, rewritten, reader.decode(value)), value});
      }
    } finally {
      own.release(it);
    }
    sortUnique(rewritten, rows, pkName);
    for (byte[][] row : rows) {
      own.putUntracked(family, row[0], row[1]);
    }
    own.countChanges(rewritten.id(), rows.size(), rows.size());
  }

  /** {@code row}'s key under {@code rewritten}'s primary key; 23502 when a key column is NULL. */
  private static byte[] newKey(TableDef table, TableDef rewritten, Object[] row) {
    for (int o : rewritten.primaryKey()) {
      if (row[o] == null) {
        throw new AccelException(SqlState.NOT_NULL_VIOLATION, "column \"" + table.columns().get(o).name()
            + "\" of relation \"" + table.name() + "\" contains null values");
      }
    }
    return RowKeys.rowKey(rewritten, row);
  }

  /** Sorts (key, value) pairs by key; a key twice is 23505. */
  private void sortUnique(TableDef rewritten, List<byte[][]> run, String pkName) {
    io.accel.storage.Store.sortByKey(run);
    for (int i = 1; i < run.size(); i++) {
      if (java.util.Arrays.equals(run.get(i - 1)[0], run.get(i)[0])) {
        throw duplicateKey(rewritten, run.get(i)[1], pkName);
      }
    }
  }

  /**
   * Writes the committed rows of {@code table} into {@code family} keyed by {@code rewritten}'s primary key: a NULL in
   * a key column is 23502, two rows with one key 23505 (within a run when sorted, across runs by a MultiGet of each
   * run's keys against those ingested before it).
   */
  private void rekey(TableDef table, TableDef rewritten, ColumnFamilyHandle family, String pkName)
      throws RocksDBException {
    boolean[] wanted = new boolean[table.columns().size()];
    rewritten.primaryKey().forEach(o -> wanted[o] = true);
    TableReader reader = new TableReader(database, table);
    List<byte[][]> run = new ArrayList<>();
    int runs = 0;
    try (TxnContext ctx = database.begin()) {
      RocksIterator it = ctx.iterator(database.tableFamily(table));
      try {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] value = it.value();
          run.add(new byte[][] {newKey(table, rewritten, reader.decode(value, wanted)), value});
          if (run.size() >= REWRITE_RUN) {
            ingestRun(rewritten, family, run, runs++ > 0, pkName);
          }
        }
      } finally {
        ctx.release(it);
      }
    }
    ingestRun(rewritten, family, run, runs++ > 0, pkName);
    if (runs > 1) {
      database.store().db().compactRange(family);
    }
  }

  void ingestRun(TableDef rewritten, ColumnFamilyHandle family, List<byte[][]> run, boolean checkIngested,
      String pkName) throws RocksDBException {
    if (run.isEmpty()) {
      return;
    }
    sortUnique(rewritten, run, pkName);
    if (checkIngested) {
      for (int from = 0; from < run.size(); from += 10_000) {
        List<byte[]> keys = new ArrayList<>();
        for (int i = from; i < Math.min(run.size(), from + 10_000); i++) {
          keys.add(run.get(i)[0]);
        }
        List<byte[]> found = database.store().db().multiGetAsList(
            java.util.Collections.nCopies(keys.size(), family), keys);
        for (int i = 0; i < found.size(); i++) {
          if (found.get(i) != null) {
            throw duplicateKey(rewritten, run.get(from + i)[1], pkName);
          }
        }
      }
    }
    database.store().ingestSorted(family, run);
    run.clear();
  }

  private AccelException duplicateKey(TableDef rewritten, byte[] value, String pkName) {
    Object[] row = new TableReader(database, rewritten).decode(value);
    String cols = rewritten.primaryKey().stream().map(o -> rewritten.columns().get(o).name())
        .collect(Collectors.joining(", "));
    String vals = rewritten.primaryKey().stream().map(o -> Values.toText(rewritten.columns().get(o).type(), row[o]))
        .collect(Collectors.joining(", "));
    String detail = "Key (" + cols + ")=(" + vals + ") is duplicated.";
    return new AccelException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + pkName + "\"")
        .withDetail(detail);
  }

  /**
   * Names CHECK constraints as PostgreSQL does when the statement gave none: {@code <table>_<column>_check} when the
   * expression names one column of the table, else {@code <table>_check}, numbered past the names taken; a name given
   * twice is 42710.
   */
  static List<io.accel.catalog.CheckDef> nameChecks(TableDef table, List<Command.CheckSpec> specs,
      List<io.accel.catalog.CheckDef> existing) {
    Set<String> taken = new HashSet<>();
    existing.forEach(c -> taken.add(c.name()));
    List<io.accel.catalog.CheckDef> named = new ArrayList<>();
    for (Command.CheckSpec spec : specs) {
      String name;
      if (spec.name().isPresent()) {
        name = spec.name().get();
        if (taken.contains(name)) {
          throw new AccelException(SqlState.DUPLICATE_OBJECT, "constraint \"" + name + "\" for relation \""
              + table.name() + "\" already exists");
        }
      } else {
        Set<String> used = new java.util.LinkedHashSet<>(io.accel.sql.ViewReferences.expressionNames(spec.expression()));
        used.retainAll(table.columns().stream().map(Column::name).toList());
        String base = table.name() + (used.size() == 1 ? "_" + used.iterator().next() : "") + "_check";
        name = base;
        for (int n = 1; taken.contains(name); n++) {
          name = base + n;
        }
      }
      taken.add(name);
      named.add(new io.accel.catalog.CheckDef(name,
          io.accel.sql.ViewReferences.unqualified(spec.expression(), table.name())));
    }
    return named;
  }

  /**
   * The indexes of a rewritten table: each of {@code indexes} under a new id with a new, empty family, whose name is
   * added to {@code created} (dropped by the caller if the rewrite fails).
   */
  List<IndexDef> newIndexFamilies(List<IndexDef> indexes, List<String> created) throws RocksDBException {
    List<IndexDef> renewed = new ArrayList<>();
    for (IndexDef index : indexes) {
      long indexId = catalog.allocateId();
      database.store().createFamily(Catalog.indexFamily(indexId));
      created.add(Catalog.indexFamily(indexId));
      renewed.add(new IndexDef(indexId, index.name(), index.columns(), index.unique(), index.include(),
          index.constraint(), index.predicate()));
    }
    return renewed;
  }

  /**
   * After {@code rewritten} replaced {@code table} in the catalog: drops the old table's families, its row ids, its
   * cached rows and statistics, and computes the new table's.
   */
  void retireReplaced(TableDef table, TableDef rewritten) throws RocksDBException {
    retireReplaced(table, rewritten, null);
  }

  /**
   * As {@link #retireReplaced(TableDef, TableDef)}; with {@code writer}, a transaction that wrote to the old table's
   * families, they are dropped once it ends (RocksDB's commit check of the keys it wrote needs them).
   */
  void retireReplaced(TableDef table, TableDef rewritten, TxnContext writer) throws RocksDBException {
    List<String> families = new ArrayList<>();
    families.add(Catalog.tableFamily(table.id()));
    for (IndexDef index : table.indexes()) {
      families.add(Catalog.indexFamily(index.id()));
    }
    Store store = database.store();
    if (writer == null) {
      for (String family : families) {
        store.dropFamily(family);
      }
    } else {
      writer.whenEnded(() -> families.forEach(family -> {
        try {
          if (!store.isClosed()) {
            store.dropFamily(family);
          }
        } catch (RocksDBException e) {
          LOG.warn("could not drop the column family {} of a replaced table: {}", family, e.getMessage());
        }
      }));
    }
    database.forgetRowIds(table.id());
    database.statistics().tableDropped(table);
    if (database.rowCache() != null) {
      database.rowCache().invalidateTable(table.id());
    }
    database.statistics().tableCreated(rewritten);
    database.statistics().analyze(rewritten);
  }

  boolean relationExists(String name) {
    return catalog.table(name).isPresent() || catalog.tableOfIndex(name).isPresent() || catalog.view(name).isPresent()
        || database.sequences().sequence(name).isPresent()
        || catalog.tables().stream().anyMatch(t -> !t.hasHiddenRowId() && t.primaryKeyName().equals(name));
  }

  private static List<Integer> ordinals(TableDef table, List<String> columnNames) {
    List<Integer> result = new ArrayList<>();
    for (String column : columnNames) {
      result.add(table.columnOrdinal(column).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
          "column \"" + column + "\" does not exist")));
    }
    return result;
  }

  static AccelException undefinedTable(String name) {
    return new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
  }
}
