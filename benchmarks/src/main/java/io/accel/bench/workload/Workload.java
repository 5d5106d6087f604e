package io.accel.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark workload of {@code shared/DATASETS.md}: its schema and a deterministic loader that fills any
 * JDBC connection (Accel or PostgreSQL) with the same rows on every run.
 */
public interface Workload {

  /** The workload's name in DATASETS.md, e.g. {@code straddle}. */
  String name();

  /** The seed every generated value derives from. */
  long seed();

  /** The tables, in load order (parents first). */
  List<String> tables();

  /** CREATE TABLE statements, in {@link #tables()} order. */
  List<String> createTables();

  /** CREATE INDEX statements. */
  List<String> createIndexes();

  /** The whole schema: {@link #createTables()} then {@link #createIndexes()}. */
  default List<String> schema() {
    List<String> all = new ArrayList<>(createTables());
    all.addAll(createIndexes());
    return List.copyOf(all);
  }

  /**
   * What distinguishes this workload's data from other sizes of it, for file and schema names: letters,
   * digits and {@code _} only, e.g. {@code 100000_1000000} for straddle; {@link WorkloadData} stores the
   * data as {@code <name>-<sizeLabel>} (Accel) and {@code <name>_<sizeLabel>} (PostgreSQL).
   */
  default String sizeLabel() {
    throw new UnsupportedOperationException(name() + " has no size label");
  }

  /**
   * What identifies complete data: equal fingerprints mean equal rows and schema. The default is the
   * workload's {@code toString()} (name, sizes, seed) and a hash of the schema's text; a workload adds a
   * data version whenever its generated rows change in a way neither shows.
   */
  default String fingerprint() {
    return this + " schema=" + Integer.toHexString(String.join(";", schema()).hashCode());
  }

  /** DROP TABLE IF EXISTS statements, children first. */
  default List<String> dropTables() {
    List<String> drops = new ArrayList<>();
    List<String> tables = tables();
    for (int i = tables.size() - 1; i >= 0; i--) {
      drops.add("DROP TABLE IF EXISTS " + tables.get(i));
    }
    return List.copyOf(drops);
  }

  /** Inserts every row into tables that already exist. */
  LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException;

  /**
   * Creates the schema (tables and indexes) and loads every row, committing per batch; the connection's
   * auto-commit setting is restored afterwards.
   */
  default LoadResult load(Connection connection) throws SQLException {
    return load(connection, LoadListener.NONE);
  }

  /** {@link #load(Connection)} reporting progress to {@code listener}. */
  default LoadResult load(Connection connection, LoadListener listener) throws SQLException {
    execute(connection, schema());
    return loadRows(connection, listener);
  }

  /** Runs each statement with auto-commit as the connection has it (DDL commits on its own in Accel). */
  static void execute(Connection connection, List<String> statements) throws SQLException {
    try (Statement s = connection.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
    if (!connection.getAutoCommit()) {
      connection.commit();
    }
  }

  /** Progress of a load: called after each committed batch. */
  @FunctionalInterface
  interface LoadListener {
    LoadListener NONE = (table, loaded, total) -> { };

    void batchCommitted(String table, long rowsLoaded, long rowsTotal);
  }
}
