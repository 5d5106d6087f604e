package io.accel.bench.workload;

import java.util.List;

/**
 * What the one-table workloads sized by a row count (events, clicks) share: the size, the seed and the
 * loader's batch size, checked once; the size label and fingerprint; the table, its DDL and its indexes.
 */
abstract class OneTableWorkload implements Workload {
  /** The seed of DATASETS.md's data. */
  static final long DEFAULT_SEED = 42;

  final long rows;
  final long seed;
  final int batchSize;
  private final String name;
  private final int dataVersion;
  private final String table;
  private final String createTable;
  private final List<String> indexes;

  OneTableWorkload(String name, int dataVersion, String table, String createTable, List<String> indexes, long rows,
      long seed, int batchSize) {
    if (rows < 0) {
      throw new IllegalArgumentException("rows must not be negative: " + rows);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
    this.name = name;
    this.dataVersion = dataVersion;
    this.table = table;
    this.createTable = createTable;
    this.indexes = List.copyOf(indexes);
    this.rows = rows;
    this.seed = seed;
    this.batchSize = batchSize;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long seed() {
    return seed;
  }

  public long rows() {
    return rows;
  }

  /** {@code <rows>}, and {@code _s<seed>} unless the seed is 42: {@code 1000000}. */
  @Override
  public String sizeLabel() {
    return rows + (seed == DEFAULT_SEED ? "" : "_s" + Long.toUnsignedString(seed));
  }

  @Override
  public String fingerprint() {
    return Workload.super.fingerprint() + " v" + dataVersion;
  }

  @Override
  public List<String> tables() {
    return List.of(table);
  }

  @Override
  public List<String> createTables() {
    return List.of(createTable);
  }

  @Override
  public List<String> createIndexes() {
    return indexes;
  }
}
