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

  /** Keys of random lengths (0 to 24 bytes, many sharing prefixes, some ending in zero bytes) in a shuffled list. */
  private static java.util.List<byte[][]> randomEntries(int n, long seed) {
    java.util.Random r = new java.util.Random(seed);
    java.util.List<byte[][]> out = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] key = new byte[r.nextInt(25)];
      for (int j = 0; j < key.length; j++) {
        key[j] = (byte) (j < 6 ? r.nextInt(3) * 120 : r.nextInt(4) == 0 ? 0 : r.nextInt(256));
      }
      out.add(new byte[][] {key, new byte[] {(byte) i}});
    }
    return out;
  }

  @Test
  void sortByKeyOrdersAsUnsignedBytesWhateverTheLengthsAndSizes() {
    for (int n : new int[] {0, 1, 15, 1_000, 250_000}) {
      java.util.List<byte[][]> entries = randomEntries(n, n);
      java.util.List<byte[][]> expected = new java.util.ArrayList<>(entries);
      expected.sort((a, b) -> java.util.Arrays.compareUnsigned(a[0], b[0]));
      Store.sortByKey(entries);
      assertThat(entries).hasSize(n);
      for (int i = 0; i < n; i++) {
        assertThat(entries.get(i)[0]).as("position %d of %d", i, n).isEqualTo(expected.get(i)[0]);
      }
    }
  }

  @Test
  void overlappingSortedFilesMergeIntoOneAndRepeatedKeysAreReported() throws RocksDBException, IOException {
    try (Store store = Store.openFile(dir, new StoreOptions(8 << 20, false))) {
      java.util.List<Store.SortedFile> files = new java.util.ArrayList<>();
      java.util.TreeMap<String, String> all = new java.util.TreeMap<>();
      for (int f = 0; f < 3; f++) {
        java.util.List<byte[][]> run = new java.util.ArrayList<>();
        for (int i = f; i < 3_000; i += 3) {
          String k = String.format("k%05d", i == 1_500 ? 1_499 : i); // 1499 comes from two files
          run.add(new byte[][] {k.getBytes(StandardCharsets.UTF_8), ("v" + f).getBytes(StandardCharsets.UTF_8)});
          all.putIfAbsent(k, "v" + f);
        }
        files.add(store.writeSorted(run.iterator()));
      }
      java.util.List<String> repeated = new java.util.ArrayList<>();
      Store.SortedFile merged = store.merge(files, (k, v) -> repeated.add(new String(k, StandardCharsets.UTF_8)));
      store.discard(files);
      assertThat(repeated).containsExactly("k01499");
      assertThat(merged.entries()).isEqualTo(all.size()).isEqualTo(2_999);
      store.ingest(store.meta(), java.util.List.of(merged));
      try (org.rocksdb.RocksIterator it = store.db().newIterator(store.meta())) {
        java.util.List<String> seen = new java.util.ArrayList<>();
        for (it.seek("k".getBytes(StandardCharsets.UTF_8)); it.isValid() && it.key()[0] == 'k'; it.next()) {
          seen.add(new String(it.key(), StandardCharsets.UTF_8));
        }
        assertThat(seen).containsExactlyElementsOf(all.keySet());
      }
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left.filter(p -> p.getFileName().toString().startsWith("ingest-"))).isEmpty();
      }
    }
  }

  @Test
  void aLargeSortedRunIsIngestedAsTwoFilesWrittenAtOnce() throws RocksDBException {
    try (Store store = Store.openFile(dir, new StoreOptions(8 << 20, false))) {
      java.util.List<byte[][]> run = new java.util.ArrayList<>();
      for (int i = 0; i < Store.PARALLEL + 1_001; i++) {
        run.add(new byte[][] {String.format("k%07d", i).getBytes(StandardCharsets.UTF_8), new byte[] {(byte) i}});
      }
      store.ingestSorted(store.meta(), run);
      long n = 0;
      try (org.rocksdb.RocksIterator it = store.db().newIterator(store.meta())) {
        for (it.seek("k".getBytes(StandardCharsets.UTF_8)); it.isValid() && it.key()[0] == 'k'; it.next()) {
          assertThat(it.value()).containsExactly((byte) n);
          n++;
        }
      }
      assertThat(n).isEqualTo(run.size());
      long files = store.db().getLiveFilesMetaData().stream()
          .filter(f -> new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(Store.META_FAMILY)).count();
      assertThat(files).isGreaterThanOrEqualTo(2);
    }
  }
}
