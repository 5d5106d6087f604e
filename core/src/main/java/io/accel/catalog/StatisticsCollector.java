package io.accel.catalog;

import io.accel.catalog.TableStatistics.ColumnStats;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyReader;
import io.accel.storage.KeyWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Computes a table's {@link TableStatistics} from one consistent snapshot: the caller feeds every row
 * with its storage key ({@link #row}), then every entry of each secondary index in key order
 * ({@link #indexEntry}), then calls {@link #finish}.
 *
 * <p>Distinct prefixes are counted exactly from the sorted keys without decoding them: the key encoding
 * is canonical (equal values, NULLs included, have equal bytes) and each field prefix-free, so the first
 * field where an entry's key differs from the previous entry's tells which prefixes start a new value.
 * This holds for both index entry forms (an entry of a UNIQUE index without NULLs has the index columns
 * alone as its key), since only the index column fields are compared.
 *
 * <p>Per column: NULLs are counted; the values of a column are counted in a map while it has at most
 * {@link #MCV_LIMIT} distinct values (the map is dropped once it grows past that); and a KMV sketch of
 * the {@link #SKETCH_SIZE} smallest 64-bit hashes of the values' key encodings estimates the number of
 * distinct values of columns no exact count covers.
 */
public final class StatisticsCollector {
  /** The most distinct values a column may have to keep its complete value list. */
  public static final int MCV_LIMIT = 64;
  /** The most values a column's most-common-values list holds (PostgreSQL's default statistics target). */
  public static final int FREQUENT_LIMIT = 100;
  /**
   * About this many rows of a large table feed its most-common-values summaries (PostgreSQL's ANALYZE samples
   * 30,000 rows): a value's share in a uniform sample of that size is within a few tenths of a percent.
   */
  public static final int FREQUENT_SAMPLE = 30_000;
  /** The number of hashes a KMV sketch keeps; distinct counts below it are exact (up to hash collisions). */
  public static final int SKETCH_SIZE = 2048;

  private final TableDef table;
  private final TableStatistics base;
  private final List<DataType> types;
  private final KeyWriter writer = new KeyWriter(32);
  private long rows;
  private final long[] nulls;
  private final boolean[] ranged;
  private final double[] mins;
  private final double[] maxs;
  private final ValueCounts[] valueCounts;
  private final Sketch[] sketches;
  private final FrequentValues[] frequent;
  /** Rows go to the most-common-values summaries with probability 1 / sampleEvery (see {@link #FREQUENT_SAMPLE}). */
  private final int sampleEvery;
  private long sampledRows;
  private long sampleSeed = 0x9E3779B97F4A7C15L;
  private final PrefixCounter primaryKey;
  private final Map<Long, PrefixCounter> indexes = new LinkedHashMap<>();

  /** Collects the statistics of the whole table. */
  public StatisticsCollector(TableDef table) {
    this(table, null, null, 0);
  }

  /**
   * Collects the statistics of the whole table, of about {@code expectedRows} rows (0: unknown): the
   * most-common-values lists are then found in a random sample of about {@value #FREQUENT_SAMPLE} rows.
   */
  public StatisticsCollector(TableDef table, long expectedRows) {
    this(table, null, null, expectedRows);
  }

  private StatisticsCollector(TableDef table, TableStatistics base, IndexDef onlyIndex, long expectedRows) {
    this.table = table;
    this.sampleEvery = (int) Math.max(1, Math.min(Integer.MAX_VALUE, expectedRows / FREQUENT_SAMPLE));
    this.base = base;
    this.types = TableStatistics.types(table);
    int n = types.size();
    this.nulls = new long[n];
    this.ranged = new boolean[n];
    this.mins = new double[n];
    this.maxs = new double[n];
    for (int i = 0; i < n; i++) {
      ranged[i] = switch (types.get(i).kind()) {
        case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> true;
        default -> false;
      };
      mins[i] = Double.NaN;
      maxs[i] = Double.NaN;
    }
    this.valueCounts = new ValueCounts[n];
    this.sketches = new Sketch[n];
    this.frequent = new FrequentValues[n];
    for (int i = 0; i < n; i++) {
      valueCounts[i] = new ValueCounts();
      sketches[i] = new Sketch();
      frequent[i] = new FrequentValues();
    }
    List<DataType> pkTypes = table.primaryKey().stream().map(types::get).toList();
    this.primaryKey = table.hasHiddenRowId() || base != null ? null
        : new PrefixCounter(pkTypes, new boolean[pkTypes.size()]);
    for (IndexDef index : table.plainIndexes()) {
      if (onlyIndex != null && index.id() != onlyIndex.id()) {
        continue;
      }
      List<DataType> t = index.columns().stream().map(ic -> types.get(ic.column())).toList();
      boolean[] desc = new boolean[t.size()];
      for (int i = 0; i < desc.length; i++) {
        desc[i] = index.columns().get(i).descending();
      }
      indexes.put(index.id(), new PrefixCounter(t, desc));
    }
  }

  /**
   * Collects only the prefix counts of {@code index} (just created), to be added to {@code base}, which
   * must describe the table's current rows exactly. Feed only that index's entries.
   */
  public static StatisticsCollector forIndex(TableStatistics base, TableDef table, IndexDef index) {
    return new StatisticsCollector(table, base, index, 0);
  }

  /** One row of the table, with its storage key; rows come in key order. */
  public void row(byte[] rowKey, Object[] row) {
    rows++;
    boolean sampled = sampleEvery == 1 || nextRandom() % sampleEvery == 0;
    if (sampled) {
      sampledRows++;
    }
    if (primaryKey != null) {
      primaryKey.add(rowKey);
    }
    for (int c = 0; c < types.size(); c++) {
      Object v = row[c];
      if (v == null) {
        nulls[c]++;
        continue;
      }
      double d = ranged[c] ? TableStatistics.rangeValue(v) : Double.NaN;
      if (!Double.isNaN(d)) {
        mins[c] = Double.isNaN(mins[c]) ? d : Math.min(mins[c], d);
        maxs[c] = Double.isNaN(maxs[c]) ? d : Math.max(maxs[c], d);
      }
      writer.reset();
      KeyCodec.write(writer, types.get(c), v, false);
      byte[] buffer = writer.buffer();
      int length = writer.length();
      if (sampled) {
        frequent[c].add(Arrays.copyOf(buffer, length));
      }
      long h = hash(buffer, length);
      ValueCounts counts = valueCounts[c];
      if (counts != null && !counts.add(h, buffer, length)) {
        // past MCV_LIMIT values: the sketch hears of each value counted so far (it keeps distinct hashes only)
        valueCounts[c] = null;
        counts.forEachHash(sketches[c]::add);
        counts = null;
      }
      if (counts == null) {
        sketches[c].add(h);
      }
    }
  }

  /** SplitMix64: a fixed sequence, so a table analyzed twice gets the same sample. */
  private int nextRandom() {
    long z = sampleSeed += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (int) ((z ^ (z >>> 31)) >>> 33);
  }

  /** One entry key of a secondary index; the entries of one index come in key order. */
  public void indexEntry(IndexDef index, byte[] entryKey) {
    PrefixCounter counter = indexes.get(index.id());
    if (counter == null) {
      throw new IllegalArgumentException("index " + index.name() + " is not one of table " + table.name());
    }
    counter.add(entryKey);
  }

  /**
   * Takes in what {@code later} collected from the rows that follow this collector's in key order (two parts of one
   * table read at once), before any index entry: the result is what one collector fed both parts in order would
   * hold, except that the most-common-values summaries and the samples are merged as summaries.
   */
  public void merge(StatisticsCollector later) {
    if (later.table != table || !indexes.values().stream().allMatch(PrefixCounter::empty)) {
      throw new IllegalArgumentException("collectors of different tables, or already fed index entries");
    }
    rows += later.rows;
    sampledRows += later.sampledRows;
    if (primaryKey != null) {
      primaryKey.merge(later.primaryKey);
    }
    for (int c = 0; c < types.size(); c++) {
      nulls[c] += later.nulls[c];
      if (!Double.isNaN(later.mins[c])) {
        mins[c] = Double.isNaN(mins[c]) ? later.mins[c] : Math.min(mins[c], later.mins[c]);
        maxs[c] = Double.isNaN(maxs[c]) ? later.maxs[c] : Math.max(maxs[c], later.maxs[c]);
      }
      frequent[c].merge(later.frequent[c]);
      sketches[c].merge(later.sketches[c]);
      ValueCounts mine = valueCounts[c];
      ValueCounts theirs = later.valueCounts[c];
      if (mine != null && theirs != null && mine.merge(theirs)) {
        continue;
      }
      // a list dropped on either side (or too long together): the sketch hears of every value the lists held
      valueCounts[c] = null;
      if (mine != null) {
        mine.forEachHash(sketches[c]::add);
      }
      if (theirs != null) {
        theirs.forEachHash(sketches[c]::add);
      }
    }
  }

  /** The statistics, stamped with {@code analyzedAt} (milliseconds since the epoch, non-zero). */
  public TableStatistics finish(long analyzedAt) {
    if (base != null) {
      TableStatistics result = base;
      for (Map.Entry<Long, PrefixCounter> e : indexes.entrySet()) {
        IndexDef index = table.plainIndexes().stream().filter(i -> i.id() == e.getKey()).findFirst().orElseThrow();
        result = result.withIndex(index, e.getValue().counts(), table);
      }
      return result;
    }
    Map<Long, double[]> indexDistinct = new LinkedHashMap<>();
    for (Map.Entry<Long, PrefixCounter> e : indexes.entrySet()) {
      indexDistinct.put(e.getKey(), e.getValue().counts());
    }
    double[] pk = primaryKey == null ? new double[0] : primaryKey.counts();
    List<ColumnStats> columns = new ArrayList<>(types.size());
    for (int c = 0; c < types.size(); c++) {
      Map<ByteBuffer, Long> counts = valueCounts[c] == null ? null : valueCounts[c].toMap();
      double distinct;
      boolean exact = true;
      if (counts != null) {
        distinct = counts.size();
      } else {
        distinct = exactDistinct(c, indexDistinct, pk);
        if (distinct < 0) {
          distinct = sketches[c].estimate();
          exact = sketches[c].exact();
        }
      }
      Map<ByteBuffer, Long> common = counts == null ? frequent[c].mostCommon(sampledRows, rows, nulls[c], distinct)
          : null;
      columns.add(new ColumnStats(nulls[c], distinct, exact, counts == null ? null : TableStatistics.ordered(counts),
          mins[c], maxs[c], common == null ? null : TableStatistics.ordered(common)));
    }
    return new TableStatistics(table.id(), table.schemaVersion(), types, table.primaryKey().size(), analyzedAt, rows,
        rows, pk, indexDistinct, TableStatistics.shapes(table), columns);
  }

  /** The exact distinct non-null count of a column leading an index or the primary key, or -1. */
  private double exactDistinct(int column, Map<Long, double[]> indexDistinct, double[] pk) {
    if (!table.primaryKey().isEmpty() && table.primaryKey().get(0) == column && pk.length > 0) {
      return pk.length == 1 ? rows : pk[0];
    }
    for (IndexDef index : table.plainIndexes()) {
      if (index.columns().get(0).column() == column) {
        double[] d = indexDistinct.get(index.id());
        if (d != null && d.length > 0) {
          return d[0] - (nulls[column] > 0 ? 1 : 0);
        }
      }
    }
    return -1;
  }

  /**
   * The values of one column that are frequent enough to list, found in one pass with Misra and Gries' summary of
   * {@value #FREQUENT_LIMIT} counters: when a value without a counter comes and all are taken, every counter drops
   * by one. A count is then at most rows / ({@value #FREQUENT_LIMIT} + 1) below the value's true count, so every
   * value holding more than about 1% of the rows keeps a counter.
   */
  private static final class FrequentValues {
    private final Map<ByteBuffer, long[]> counters = new HashMap<>();

    /** Misra and Gries' merge: counts added, then every counter lowered by the largest count past the limit. */
    void merge(FrequentValues other) {
      other.counters.forEach((k, v) -> counters.computeIfAbsent(k, x -> new long[1])[0] += v[0]);
      if (counters.size() > FREQUENT_LIMIT) {
        long[] sorted = counters.values().stream().mapToLong(c -> c[0]).sorted().toArray();
        long cut = sorted[sorted.length - 1 - FREQUENT_LIMIT];
        counters.values().removeIf(c -> (c[0] -= cut) <= 0);
      }
    }

    void add(byte[] key) {
      long[] counter = counters.get(ByteBuffer.wrap(key));
      if (counter != null) {
        counter[0]++;
      } else if (counters.size() < FREQUENT_LIMIT) {
        counters.put(ByteBuffer.wrap(key), new long[] {1});
      } else {
        counters.values().removeIf(c -> --c[0] == 0);
      }
    }

    /**
     * The listed values with their counts scaled from the {@code sampled} rows to all {@code rows}, or null when
     * none is worth listing: as PostgreSQL's ANALYZE, a value is listed when it is more common than the average
     * value (by a quarter), seen at least twice, and beyond the summary's error.
     */
    Map<ByteBuffer, Long> mostCommon(long sampled, long rows, long nulls, double distinct) {
      if (sampled == 0 || distinct < 1) {
        return null;
      }
      double scale = (double) rows / sampled;
      double average = (rows - nulls) / distinct;
      double error = (double) sampled / (FREQUENT_LIMIT + 1);
      Map<ByteBuffer, Long> common = new HashMap<>();
      for (Map.Entry<ByteBuffer, long[]> e : counters.entrySet()) {
        long count = e.getValue()[0];
        if (count >= 2 && count > error && count * scale > 1.25 * average) {
          common.put(e.getKey(), Math.round(count * scale));
        }
      }
      return common.isEmpty() ? null : common;
    }
  }

  /** Counts the distinct prefixes of sorted composite keys. */
  private static final class PrefixCounter {
    private final List<DataType> types;
    private final boolean[] descending;
    private final long[] counts;
    private int[] ends;
    private byte[] previous;
    private int[] previousEnds;

    PrefixCounter(List<DataType> types, boolean[] descending) {
      this.types = types;
      this.descending = descending;
      this.counts = new long[types.size()];
      this.ends = new int[types.size()];
      this.previousEnds = new int[types.size()];
    }

    /** The first key added, for {@link #merge}. */
    private byte[] first;

    boolean empty() {
      return previous == null;
    }

    /**
     * Adds the counts of {@code later}, fed the keys that follow this one's: a prefix that the last key here and the
     * first key there share was counted on both sides.
     */
    void merge(PrefixCounter later) {
      if (later.previous == null) {
        return;
      }
      for (int i = 0; i < counts.length; i++) {
        counts[i] += later.counts[i];
      }
      if (previous != null) {
        int[] firstEnds = new int[types.size()];
        KeyReader reader = new KeyReader(later.first);
        for (int i = 0; i < types.size(); i++) {
          KeyCodec.skip(reader, types.get(i), descending[i]);
          firstEnds[i] = reader.position();
        }
        int start = 0;
        for (int i = 0; i < counts.length && firstEnds[i] == previousEnds[i]
            && Arrays.equals(later.first, start, firstEnds[i], previous, start, firstEnds[i]); i++) {
          counts[i]--;
          start = firstEnds[i];
        }
      } else {
        first = later.first;
      }
      previous = later.previous;
      System.arraycopy(later.previousEnds, 0, previousEnds, 0, previousEnds.length);
    }

    void add(byte[] key) {
      if (first == null) {
        first = key;
      }
      KeyReader reader = new KeyReader(key);
      for (int i = 0; i < types.size(); i++) {
        KeyCodec.skip(reader, types.get(i), descending[i]);
        ends[i] = reader.position();
      }
      int first = 0;
      if (previous != null) {
        int start = 0;
        while (first < ends.length && ends[first] == previousEnds[first]
            && Arrays.equals(key, start, ends[first], previous, start, ends[first])) {
          start = ends[first];
          first++;
        }
      }
      for (int i = first; i < counts.length; i++) {
        counts[i]++;
      }
      previous = key;
      int[] swap = previousEnds;
      previousEnds = ends;
      ends = swap;
    }

    double[] counts() {
      double[] out = new double[counts.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = counts[i];
      }
      return out;
    }
  }

  /**
   * A column's values and their counts while it has at most {@link #MCV_LIMIT} of them: open addressing by the
   * values' 64-bit hashes (computed once per value for the sketch too), each slot's bytes compared on a hash match.
   */
  private static final class ValueCounts {
    private static final int SLOTS = 256;
    private final long[] hashes = new long[SLOTS];
    private final byte[][] keys = new byte[SLOTS][];
    private final long[] counts = new long[SLOTS];
    private int size;

    /** Counts a value; false, counting nothing, when it would be value number {@link #MCV_LIMIT} + 1. */
    boolean add(long hash, byte[] buffer, int length) {
      return add(hash, buffer, length, 1);
    }

    /** Adds {@code other}'s counts; false (this one then partly merged) when they are too many values together. */
    boolean merge(ValueCounts other) {
      for (int i = 0; i < SLOTS; i++) {
        if (other.keys[i] != null && !add(other.hashes[i], other.keys[i], other.keys[i].length, other.counts[i])) {
          return false;
        }
      }
      return true;
    }

    private boolean add(long hash, byte[] buffer, int length, long count) {
      int i = (int) (hash ^ (hash >>> 32)) & (SLOTS - 1);
      while (keys[i] != null) {
        if (hashes[i] == hash && Arrays.equals(keys[i], 0, keys[i].length, buffer, 0, length)) {
          counts[i] += count;
          return true;
        }
        i = (i + 1) & (SLOTS - 1);
      }
      if (size == MCV_LIMIT) {
        return false;
      }
      keys[i] = Arrays.copyOf(buffer, length);
      hashes[i] = hash;
      counts[i] = count;
      size++;
      return true;
    }

    void forEachHash(java.util.function.LongConsumer action) {
      for (int i = 0; i < SLOTS; i++) {
        if (keys[i] != null) {
          action.accept(hashes[i]);
        }
      }
    }

    Map<ByteBuffer, Long> toMap() {
      Map<ByteBuffer, Long> out = new HashMap<>();
      for (int i = 0; i < SLOTS; i++) {
        if (keys[i] != null) {
          out.put(ByteBuffer.wrap(keys[i]), counts[i]);
        }
      }
      return out;
    }
  }

  /** A KMV sketch: the smallest {@link #SKETCH_SIZE} distinct 63-bit hashes. */
  private static final class Sketch {
    private final TreeSet<Long> smallest = new TreeSet<>();
    private long threshold = Long.MAX_VALUE;
    /**
     * While fewer than {@link #SKETCH_SIZE} hashes are kept, they are also in this open-addressing set (0 marks a free
     * slot, a hash of 0 is kept as 1), so a repeated value costs a probe instead of a boxed tree lookup.
     */
    private long[] seen = new long[SKETCH_SIZE * 4];

    void add(long hash) {
      keep(hash >>> 1);
    }

    /** Every hash {@code other} keeps is offered to this sketch. */
    void merge(Sketch other) {
      for (long h : other.smallest) {
        keep(h);
      }
    }

    private void keep(long h) {
      if (seen != null) {
        long stored = h == 0 ? 1 : h;
        int mask = seen.length - 1;
        int i = (int) (stored ^ (stored >>> 32)) & mask;
        while (seen[i] != 0) {
          if (seen[i] == stored) {
            return;
          }
          i = (i + 1) & mask;
        }
        seen[i] = stored;
        smallest.add(h);
        if (smallest.size() == SKETCH_SIZE) {
          threshold = smallest.last();
          seen = null;
        }
      } else if (h < threshold && smallest.add(h)) {
        smallest.pollLast();
        threshold = smallest.last();
      }
    }

    boolean exact() {
      return smallest.size() < SKETCH_SIZE;
    }

    double estimate() {
      if (exact()) {
        return smallest.size();
      }
      // (k - 1) / (k-th smallest hash as a fraction of the hash space)
      return (SKETCH_SIZE - 1) / ((double) threshold / (double) Long.MAX_VALUE);
    }
  }

  /** FNV-1a over the bytes, finished with MurmurHash3's 64-bit mix. */
  static long hash(byte[] b) {
    return hash(b, b.length);
  }

  /** {@link #hash(byte[])} of the first {@code length} bytes. */
  static long hash(byte[] b, int length) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < length; i++) {
      h = (h ^ (b[i] & 0xFF)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93e2fd4ec53L;
    h ^= h >>> 33;
    return h;
  }
}
