package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.rocksdb.RocksDBException;

/**
 * The stores open in this JVM, shared by every connection to the same one and closed when the last
 * connection to it closes (an in-memory store's data goes with it). A file store is also locked by
 * RocksDB against other processes.
 */
public final class StoreRegistry {
  private static final Map<String, Entry> OPEN = new HashMap<>();

  private StoreRegistry() {
  }

  private static final class Entry {
    final Database database;
    int references;

    Entry(Database database) {
      this.database = database;
    }
  }

  /** Opens (or joins) the store named by {@code location}: {@code mem:NAME} or {@code file:PATH}. */
  public static synchronized Database acquire(String location, StoreOptions options) {
    String key = canonical(location);
    Entry e = OPEN.get(key);
    if (e == null) {
      e = new Entry(Database.open(openStore(location, options)));
      OPEN.put(key, e);
    }
    e.references++;
    return e.database;
  }

  public static synchronized void release(Database database) {
    var it = OPEN.entrySet().iterator();
    while (it.hasNext()) {
      Entry e = it.next().getValue();
      if (e.database == database) {
        if (--e.references == 0) {
          it.remove();
          database.close();
        }
        return;
      }
    }
  }

  private static String canonical(String location) {
    if (location.startsWith("file:")) {
      return "file:" + Path.of(location.substring(5)).toAbsolutePath().normalize();
    }
    return location;
  }

  private static Store openStore(String location, StoreOptions options) {
    try {
      if (location.startsWith("mem:")) {
        String name = location.substring(4);
        if (name.isEmpty()) {
          throw new AccelException(SqlState.CONNECTION_FAILURE, "jdbc:accel:mem: needs a store name, e.g. jdbc:accel:mem:demo");
        }
        return Store.openInMemory(name, options);
      }
      if (location.startsWith("file:")) {
        String path = location.substring(5);
        if (path.isEmpty()) {
          throw new AccelException(SqlState.CONNECTION_FAILURE, "jdbc:accel:file: needs a directory, e.g. jdbc:accel:file:/var/lib/accel/db");
        }
        return Store.openFile(Path.of(path), options);
      }
    } catch (RocksDBException e) {
      String m = e.getMessage() == null ? "" : e.getMessage();
      if (m.contains("lock")) {
        throw new AccelException(SqlState.CONNECTION_FAILURE, "the store " + location
            + " is in use by another process: " + m, e);
      }
      throw new AccelException(SqlState.CONNECTION_FAILURE, "cannot open the store " + location + ": " + m, e);
    }
    throw new AccelException(SqlState.CONNECTION_FAILURE, "unknown store location \"" + location
        + "\": expected mem:NAME or file:PATH");
  }
}
