package io.accel.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

class StoreTest {
  @TempDir
  Path dir;

  /**
   * A durable store commits into a write-ahead log file that already has its blocks (a synced commit then does not
   * also grow the file), and the padding that prepared it is neither visible nor in the way of the data.
   */
  @Test
  void durableStoreCommitsIntoAPreparedLogAndKeepsItsData() throws RocksDBException, IOException {
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    try (Store store = Store.openFile(dir, new StoreOptions(8 << 20, true));
        WriteOptions sync = new WriteOptions().setSync(true)) {
      assertThat(largestLog()).isGreaterThanOrEqualTo(Store.PRIMED_LOG_BYTES);
      store.db().put(store.meta(), sync, key, "v".getBytes(StandardCharsets.UTF_8));
      assertThat(store.db().get(store.meta(), "wal-prime".getBytes(StandardCharsets.UTF_8))).isNull();
    }
    try (Store store = Store.openFile(dir, new StoreOptions(8 << 20, true))) {
      assertThat(store.db().get(store.meta(), key)).containsExactly('v');
      assertThat(store.db().get(store.meta(), "wal-prime".getBytes(StandardCharsets.UTF_8))).isNull();
    }
  }

  /** Without synced commits nothing is prepared: the store's directory stays small. */
  @Test
  void storeWithoutSyncedCommitsIsNotPrepared() throws RocksDBException, IOException {
    try (Store store = Store.openFile(dir, new StoreOptions(8 << 20, false))) {
      assertThat(largestLog()).isLessThan(1 << 20);
    }
  }

  private long largestLog() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).max().orElse(0);
    }
  }
}
