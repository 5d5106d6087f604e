package io.accel.catalog;

import io.accel.storage.Store;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The sequences of a store, persisted in the {@code meta} column family under {@code sequence/<id>} (beside the
 * tables' entries, with ids from the same counter, so sequences and tables share PostgreSQL's relation namespace
 * and oids) and held in memory as an immutable map replaced on every change. Callers serialise DDL.
 */
public final class SequenceCatalog {
  private static final String PREFIX = "sequence/";
  private static final int FORMAT = 1;

  private final Store store;
  private final AtomicLong version = new AtomicLong();
  private volatile Map<String, SequenceDef> sequences;

  private SequenceCatalog(Store store, Map<String, SequenceDef> sequences) {
    this.store = store;
    this.sequences = sequences;
  }

  public static SequenceCatalog load(Store store) {
    Map<String, SequenceDef> found = new LinkedHashMap<>();
    byte[] prefix = PREFIX.getBytes(StandardCharsets.UTF_8);
    try (RocksIterator it = store.db().newIterator(store.meta())) {
      for (it.seek(prefix); it.isValid() && io.accel.storage.KeyCodec.startsWith(it.key(), prefix); it.next()) {
        SequenceDef s = decode(it.value());
        found.put(s.name(), s);
      }
    }
    return new SequenceCatalog(store, Map.copyOf(found));
  }

  public Optional<SequenceDef> sequence(String name) {
    return Optional.ofNullable(sequences.get(name));
  }

  public Optional<SequenceDef> byId(long id) {
    return sequences.values().stream().filter(s -> s.id() == id).findFirst();
  }

  public Collection<SequenceDef> sequences() {
    return sequences.values();
  }

  /** The sequences owned by a column of the table. */
  public java.util.List<SequenceDef> ownedBy(long tableId) {
    return sequences.values().stream().filter(s -> s.owner().filter(o -> o.tableId() == tableId).isPresent())
        .toList();
  }

  /** Increases whenever a sequence is created, changed or dropped. */
  public long version() {
    return version.get();
  }

  /** Records a new or changed sequence durably, then publishes it. */
  public synchronized void put(SequenceDef s) throws RocksDBException {
    store.db().put(store.meta(), store.writeOptions(), key(s.id()), encode(s));
    Map<String, SequenceDef> copy = new LinkedHashMap<>(sequences);
    copy.values().removeIf(x -> x.id() == s.id());
    copy.put(s.name(), s);
    sequences = Map.copyOf(copy);
    version.incrementAndGet();
  }

  /** Removes a sequence and its stored value durably. */
  public synchronized void remove(SequenceDef s, byte[] valueKey) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.delete(store.meta(), key(s.id()));
      batch.delete(store.meta(), valueKey);
      store.db().write(store.writeOptions(), batch);
    }
    Map<String, SequenceDef> copy = new LinkedHashMap<>(sequences);
    copy.remove(s.name());
    sequences = Map.copyOf(copy);
    version.incrementAndGet();
  }

  private static byte[] key(long id) {
    return (PREFIX + String.format("%019d", id)).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] encode(SequenceDef s) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeLong(s.id());
      out.writeUTF(s.name());
      out.writeUTF(s.type().name());
      out.writeLong(s.start());
      out.writeLong(s.increment());
      out.writeLong(s.min());
      out.writeLong(s.max());
      out.writeLong(s.cache());
      out.writeBoolean(s.cycle());
      out.writeBoolean(s.owner().isPresent());
      if (s.owner().isPresent()) {
        out.writeLong(s.owner().get().tableId());
        out.writeUTF(s.owner().get().column());
        out.writeUTF(s.owner().get().identity().name());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static SequenceDef decode(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException("unknown sequence format " + format);
      }
      long id = in.readLong();
      String name = in.readUTF();
      ColumnType type = ColumnType.valueOf(in.readUTF());
      long start = in.readLong();
      long increment = in.readLong();
      long min = in.readLong();
      long max = in.readLong();
      long cache = in.readLong();
      boolean cycle = in.readBoolean();
      Optional<SequenceDef.Owner> owner = in.readBoolean()
          ? Optional.of(new SequenceDef.Owner(in.readLong(), in.readUTF(), SequenceDef.Identity.valueOf(in.readUTF())))
          : Optional.empty();
      return new SequenceDef(id, name, type, start, increment, min, max, cache, cycle, owner);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
