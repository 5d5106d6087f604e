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
  private static final byte[] NEXT_ID_KEY = "next-id".getBytes(StandardCharsets.UTF_8);

  private final Store store;
  private final AtomicLong nextId;
  private final AtomicLong version = new AtomicLong();
  /** Per table id, the catalog version its last CREATE, ALTER, CREATE/DROP INDEX or DROP produced. */
  private final Map<Long, Long> changedAt = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Map<String, TableDef> tables;
  private volatile Map<String, ViewDef> views = Map.of();

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
    store.db().delete(store.meta(), store.writeOptions(), viewKey(view.id()));
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

  /** Reserves a new id for a table or index, durably, so ids are never reused. */
  public long allocateId() throws RocksDBException {
    long id = nextId.getAndIncrement();
    store.db().put(store.meta(), store.writeOptions(), NEXT_ID_KEY,
        ByteBuffer.allocate(8).putLong(id + 1).array());
    return id;
  }

  /** Records a new or changed table durably, then publishes it to readers. */
  public synchronized void put(TableDef table) throws RocksDBException {
    store.db().put(store.meta(), store.writeOptions(), key(table.id()), CatalogCodec.encode(table));
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
      store.db().write(store.writeOptions(), batch);
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
      store.db().write(store.writeOptions(), batch);
    }
    Map<String, TableDef> copy = new LinkedHashMap<>(tables);
    copy.remove(table.name());
    tables = Map.copyOf(copy);
    changedAt.put(table.id(), version.incrementAndGet());
  }

  private static byte[] key(long tableId) {
    return (TABLE_PREFIX + String.format("%019d", tableId)).getBytes(StandardCharsets.UTF_8);
  }

}
