package io.accel.catalog;

import io.accel.storage.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The tables and indexes of a store, persisted in the {@code meta} column family and held in memory as
 * an immutable map replaced on every change. Each table lives in the column family {@code t<id>}, each
 * index in {@code i<id>}; column families that no catalog entry names (left by a DDL statement that a
 * crash interrupted) are dropped when the catalog loads.
 *
 * <p>Callers serialise DDL (see {@code Database}); readers take {@link #tables()} without locking.
 */
public final class Catalog {
  private static final String TABLE_PREFIX = "table/";
  private static final String VIEW_PREFIX = "view/";
  private static final String COMMENT_PREFIX = "comment/";
  private static final String EXTENSION_PREFIX = "extension/";
  /**
   * The extensions CREATE EXTENSION accepts, with the versions PostgreSQL 15 ships: their functions are built in
   * (pgcrypto's {@code gen_random_uuid} and {@code digest}, uuid-ossp's {@code uuid_generate_v4} and the rest);
   * plpgsql is accepted for the scripts that create it, though Accel runs no PL/pgSQL.
   */
  public static final Map<String, String> PROVIDED_EXTENSIONS = Map.of("plpgsql", "1.0", "pgcrypto", "1.3",
      "uuid-ossp", "1.1");
  private static final byte[] NEXT_ID_KEY = "next-id".getBytes(StandardCharsets.UTF_8);

  private final Store store;
  private final AtomicLong nextId;
  private final AtomicLong version = new AtomicLong();
  /** Per table id, the catalog version its last CREATE, ALTER, CREATE/DROP INDEX or DROP produced. */
  private final Map<Long, Long> changedAt = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Map<String, TableDef> tables;
  private volatile Map<String, ViewDef> views = Map.of();
  /** COMMENT ON texts by object key ({@link #relationComment} and the other key methods). */
  private volatile Map<String, String> comments = Map.of();
  /** The extensions created (CREATE EXTENSION), by name, with their versions, in name order. */
  private volatile Map<String, String> extensions = Map.of();

  private Catalog(Store store, Map<String, TableDef> tables, long nextId) {
    this.store = store;
    this.tables = tables;
    this.nextId = new AtomicLong(nextId);
  }

  public static String tableFamily(long tableId) {
    return "t" + tableId;
  }

  public static String indexFamily(long indexId) {
    return "i" + indexId;
  }

  /** Loads the catalog of a store, creates the column families it names, and drops orphaned ones. */
  public static Catalog load(Store store) throws RocksDBException {
    Map<String, TableDef> tables = new LinkedHashMap<>();
    byte[] prefix = TABLE_PREFIX.getBytes(StandardCharsets.UTF_8);
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(prefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), prefix); it.next()) {
        TableDef t = CatalogCodec.decode(it.value());
        tables.put(t.name(), t);
      }
    }
    byte[] next = store.db().get(store.meta(), NEXT_ID_KEY);
    long nextId = next == null ? 1 : ByteBuffer.wrap(next).getLong();
    Set<String> wanted = new HashSet<>();
    for (TableDef t : tables.values()) {
      wanted.add(tableFamily(t.id()));
      store.createFamily(tableFamily(t.id()));
      for (IndexDef index : t.indexes()) {
        wanted.add(indexFamily(index.id()));
        store.createFamily(indexFamily(index.id()));
      }
    }
    for (String family : store.familyNames()) {
      boolean ours = family.matches("[ti][0-9]+");
      if (ours && !wanted.contains(family)) {
        store.dropFamily(family);
      }
    }
    Catalog catalog = new Catalog(store, Map.copyOf(tables), nextId);
    Map<String, ViewDef> views = new LinkedHashMap<>();
    byte[] viewPrefix = VIEW_PREFIX.getBytes(StandardCharsets.UTF_8);
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(viewPrefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), viewPrefix); it.next()) {
        ViewDef v = CatalogCodec.decodeView(it.value());
        views.put(v.name(), v);
      }
    }
    catalog.views = Map.copyOf(views);
    Map<String, String> comments = new LinkedHashMap<>();
    byte[] commentPrefix = COMMENT_PREFIX.getBytes(StandardCharsets.UTF_8);
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(commentPrefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), commentPrefix);
          it.next()) {
        comments.put(new String(it.key(), StandardCharsets.UTF_8).substring(COMMENT_PREFIX.length()),
            new String(it.value(), StandardCharsets.UTF_8));
      }
    }
    catalog.comments = Map.copyOf(comments);
    Map<String, String> extensions = new java.util.TreeMap<>();
    byte[] extensionPrefix = EXTENSION_PREFIX.getBytes(StandardCharsets.UTF_8);
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(extensionPrefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), extensionPrefix);
          it.next()) {
        extensions.put(new String(it.key(), StandardCharsets.UTF_8).substring(EXTENSION_PREFIX.length()),
            new String(it.value(), StandardCharsets.UTF_8));
      }
    }
    catalog.extensions = java.util.Collections.unmodifiableMap(extensions);
    return catalog;
  }

  public Optional<ViewDef> view(String name) {
    return Optional.ofNullable(views.get(name));
  }

  public Collection<ViewDef> views() {
    return views.values();
  }

  /** Records a new or replaced view durably (by id: a view renamed keeps it), then publishes it. */
  public synchronized void putView(ViewDef view) throws RocksDBException {
    store.db().put(store.meta(), store.writeOptions(), viewKey(view.id()), CatalogCodec.encodeView(view));
    Map<String, ViewDef> copy = new LinkedHashMap<>(views);
    copy.values().removeIf(v -> v.id() == view.id());
    copy.put(view.name(), view);
    views = Map.copyOf(copy);
    version.incrementAndGet();
  }

  /** Removes a view durably. */
  public synchronized void removeView(ViewDef view) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.delete(store.meta(), viewKey(view.id()));
      Map<String, String> kept = new LinkedHashMap<>(comments);
      for (String k : tableCommentKeys(view.id())) {
        dropComment(batch, kept, k);
      }
      store.db().write(store.writeOptions(), batch);
      comments = Map.copyOf(kept);
    }
    Map<String, ViewDef> copy = new LinkedHashMap<>(views);
    copy.remove(view.name());
    views = Map.copyOf(copy);
    version.incrementAndGet();
  }

  private static byte[] viewKey(long viewId) {
    return (VIEW_PREFIX + String.format("%019d", viewId)).getBytes(StandardCharsets.UTF_8);
  }

  public Optional<TableDef> table(String name) {
    return Optional.ofNullable(tables.get(name));
  }

  public Collection<TableDef> tables() {
    return tables.values();
  }

  /** The table that owns the named index. */
  public Optional<TableDef> tableOfIndex(String indexName) {
    return tables.values().stream().filter(t -> t.index(indexName).isPresent()).findFirst();
  }

  /** Increases whenever a table or index is created, changed or dropped. */
  public long version() {
    return version.get();
  }

  /**
   * The catalog version at which the table with this id was last created, changed or dropped (0: not since the
   * store opened). A transaction whose snapshot is older than that must not read or write the table.
   */
  public long changedAt(long tableId) {
    return changedAt.getOrDefault(tableId, 0L);
  }

  private final Map<Long, Long> bulkLoads = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The store's sequence when table files were last ingested into the table (0: never since the store opened). The
   * ingested keys carry no write a transaction's commit-time conflict check would see, so a transaction that wrote
   * the table from an older snapshot must not commit.
   */
  public long bulkLoadedAt(long tableId) {
    return bulkLoads.getOrDefault(tableId, 0L);
  }

  /** Records an ingestion into a table (see {@link #bulkLoadedAt}) at the store's sequence {@code sequence}. */
  public void bulkLoaded(long tableId, long sequence) {
    bulkLoads.merge(tableId, sequence, Math::max);
  }

  /** Reserves a new id for a table or index, durably, so ids are never reused. */
  public long allocateId() throws RocksDBException {
    long id = nextId.getAndIncrement();
    store.db().put(store.meta(), store.writeOptions(), NEXT_ID_KEY,
        ByteBuffer.allocate(8).putLong(id + 1).array());
    return id;
  }

  /** Records a new or changed table durably, then publishes it to readers. */
  public synchronized void put(TableDef table) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(store.meta(), key(table.id()), CatalogCodec.encode(table));
      // comments of the columns, indexes and constraints this change dropped go with them
      Map<String, String> kept = new LinkedHashMap<>(comments);
      Set<String> valid = commentKeys(table);
      for (String k : tableCommentKeys(table.id())) {
        if (!valid.contains(k)) {
          dropComment(batch, kept, k);
        }
      }
      store.db().write(store.writeOptions(), batch);
      comments = Map.copyOf(kept);
    }
    Map<String, TableDef> copy = new LinkedHashMap<>(tables);
    copy.values().removeIf(t -> t.id() == table.id());
    copy.put(table.name(), table);
    tables = Map.copyOf(copy);
    changedAt.put(table.id(), version.incrementAndGet());
  }

  /**
   * Replaces a table by its rewrite under a new id (its rows in new column families) in one durable write, so a
   * crash leaves one or the other; the old families are dropped by the caller afterwards.
   */
  public synchronized void replace(TableDef old, TableDef rewritten) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.delete(store.meta(), key(old.id()));
      batch.put(store.meta(), key(rewritten.id()), CatalogCodec.encode(rewritten));
      Map<String, String> kept = new LinkedHashMap<>(comments);
      Map<String, String> moved = movedComments(old, rewritten);
      for (String k : tableCommentKeys(old.id())) {
        dropComment(batch, kept, k);
      }
      for (Map.Entry<String, String> e : moved.entrySet()) {
        batch.put(store.meta(), commentKey(e.getKey()), e.getValue().getBytes(StandardCharsets.UTF_8));
        kept.put(e.getKey(), e.getValue());
      }
      store.db().write(store.writeOptions(), batch);
      comments = Map.copyOf(kept);
    }
    Map<String, TableDef> copy = new LinkedHashMap<>(tables);
    copy.remove(old.name());
    copy.put(rewritten.name(), rewritten);
    tables = Map.copyOf(copy);
    long v = version.incrementAndGet();
    changedAt.put(old.id(), v);
    changedAt.put(rewritten.id(), v);
  }

  /** Removes a table's catalog entry durably; its column families are dropped by the caller afterwards. */
  public synchronized void remove(TableDef table) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.delete(store.meta(), key(table.id()));
      Map<String, String> kept = new LinkedHashMap<>(comments);
      for (String k : tableCommentKeys(table.id())) {
        dropComment(batch, kept, k);
      }
      store.db().write(store.writeOptions(), batch);
      comments = Map.copyOf(kept);
    }
    Map<String, TableDef> copy = new LinkedHashMap<>(tables);
    copy.remove(table.name());
    tables = Map.copyOf(copy);
    changedAt.put(table.id(), version.incrementAndGet());
  }

  /** COMMENT ON's text for the object {@code key} names (see the key methods below), if any. */
  public Optional<String> comment(String key) {
    return Optional.ofNullable(comments.get(key));
  }

  /** Every comment, by object key. */
  public Map<String, String> comments() {
    return comments;
  }

  /** Sets (or, with null or an empty text, removes) the comment of the object {@code key} names, durably. */
  public Map<String, String> extensions() {
    return extensions;
  }

  /** Records an extension as created ({@code version} non-null) or dropped (null), durably. */
  public synchronized void extension(String name, String version) throws RocksDBException {
    byte[] key = (EXTENSION_PREFIX + name).getBytes(StandardCharsets.UTF_8);
    Map<String, String> copy = new java.util.TreeMap<>(extensions);
    if (version == null) {
      store.db().delete(store.meta(), store.writeOptions(), key);
      copy.remove(name);
    } else {
      store.db().put(store.meta(), store.writeOptions(), key, version.getBytes(StandardCharsets.UTF_8));
      copy.put(name, version);
    }
    extensions = java.util.Collections.unmodifiableMap(copy);
    this.version.incrementAndGet();
  }

  public synchronized void comment(String key, String text) throws RocksDBException {
    Map<String, String> copy = new LinkedHashMap<>(comments);
    if (text == null || text.isEmpty()) {
      store.db().delete(store.meta(), store.writeOptions(), commentKey(key));
      copy.remove(key);
    } else {
      store.db().put(store.meta(), store.writeOptions(), commentKey(key), text.getBytes(StandardCharsets.UTF_8));
      copy.put(key, text);
    }
    comments = Map.copyOf(copy);
    version.incrementAndGet();
  }

  /** The comment key of a table, view or sequence (by id, so a rename keeps it). */
  public static String relationComment(long id) {
    return "rel/" + id;
  }

  /** The comment key of a table's column, by the stored slot that holds it (stable across renames). */
  public static String columnComment(long tableId, int slot) {
    return "col/" + tableId + "/" + slot;
  }

  /** The comment key of a table's secondary index. */
  public static String indexComment(long tableId, long indexId) {
    return "idx/" + tableId + "/" + indexId;
  }

  /** The comment key of a table's primary key index ({@code <table>_pkey}). */
  public static String primaryKeyComment(long tableId) {
    return "idx/" + tableId + "/pkey";
  }

  /** The comment key of a table's primary key constraint ({@code <table>_pkey}, renamed with the table). */
  public static String primaryKeyConstraintComment(long tableId) {
    return "pkc/" + tableId;
  }

  /** The comment key of a table's constraint, by name. */
  public static String constraintComment(long tableId, String name) {
    return "con/" + tableId + "/" + name;
  }

  /** The comment key of a schema. */
  public static String schemaComment(String name) {
    return "nsp/" + name;
  }

  /** The comment key of the database. */
  public static final String DATABASE_COMMENT = "db";

  private static byte[] commentKey(String key) {
    return (COMMENT_PREFIX + key).getBytes(StandardCharsets.UTF_8);
  }

  private void dropComment(WriteBatch batch, Map<String, String> kept, String key) throws RocksDBException {
    if (kept.remove(key) != null) {
      batch.delete(store.meta(), commentKey(key));
    }
  }

  /** The keys of the comments held on a table and its parts. */
  private java.util.List<String> tableCommentKeys(long tableId) {
    String rel = relationComment(tableId);
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (String k : comments.keySet()) {
      if (k.equals(rel) || k.equals(primaryKeyConstraintComment(tableId)) || k.startsWith("col/" + tableId + "/")
          || k.startsWith("idx/" + tableId + "/") || k.startsWith("con/" + tableId + "/")) {
        keys.add(k);
      }
    }
    return keys;
  }

  /** The keys a table's comments may have: itself, its columns, indexes and constraints. */
  private static Set<String> commentKeys(TableDef t) {
    Set<String> keys = new HashSet<>();
    keys.add(relationComment(t.id()));
    for (int slot : t.layout().columnSlots()) {
      keys.add(columnComment(t.id(), slot));
    }
    if (!t.hasHiddenRowId()) {
      keys.add(primaryKeyComment(t.id()));
      keys.add(primaryKeyConstraintComment(t.id()));
    }
    for (IndexDef i : t.indexes()) {
      keys.add(indexComment(t.id(), i.id()));
      keys.add(constraintComment(t.id(), i.name()));
    }
    t.checks().forEach(c -> keys.add(constraintComment(t.id(), c.name())));
    t.foreignKeys().forEach(f -> keys.add(constraintComment(t.id(), f.name())));
    return keys;
  }

  /** A table's comments under the keys of its rewrite (new id, slots and index ids), matched by name. */
  private Map<String, String> movedComments(TableDef old, TableDef rewritten) {
    Map<String, String> moved = new LinkedHashMap<>();
    Set<String> valid = commentKeys(rewritten);
    java.util.function.BiConsumer<String, String> move = (from, to) -> {
      String text = comments.get(from);
      if (text != null && valid.contains(to)) {
        moved.put(to, text);
      }
    };
    move.accept(relationComment(old.id()), relationComment(rewritten.id()));
    move.accept(primaryKeyComment(old.id()), primaryKeyComment(rewritten.id()));
    move.accept(primaryKeyConstraintComment(old.id()), primaryKeyConstraintComment(rewritten.id()));
    for (int i = 0; i < old.columns().size(); i++) {
      int ordinal = rewritten.columnOrdinal(old.columns().get(i).name()).orElse(-1);
      if (ordinal >= 0) {
        move.accept(columnComment(old.id(), old.layout().columnSlots().get(i)),
            columnComment(rewritten.id(), rewritten.layout().columnSlots().get(ordinal)));
      }
    }
    for (IndexDef i : old.indexes()) {
      rewritten.index(i.name()).ifPresent(n -> move.accept(indexComment(old.id(), i.id()),
          indexComment(rewritten.id(), n.id())));
    }
    String prefix = "con/" + old.id() + "/";
    for (String k : comments.keySet()) {
      if (k.startsWith(prefix)) {
        move.accept(k, constraintComment(rewritten.id(), k.substring(prefix.length())));
      }
    }
    return moved;
  }

  private static byte[] key(long tableId) {
    return (TABLE_PREFIX + String.format("%019d", tableId)).getBytes(StandardCharsets.UTF_8);
  }

}
