package io.accel.bench.jmh;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * What an engine says it read, as running totals: {@link #NAMES} in this order. Values the engine does
 * not report are NaN.
 *
 * <ul>
 *   <li>Accel: its Micrometer counters with tag {@code store} = the store's description (the directory of
 *       a file store, {@code mem:NAME} of a memory store), recorded by a {@link SimpleMeterRegistry} added to
 *       {@link Metrics#globalRegistry} ({@link #installRegistry()}, before the store opens).
 *   <li>PostgreSQL: {@code pg_stat_user_tables} (rows fetched = {@code seq_tup_read + idx_tup_fetch} of
 *       lineitem and part) and {@code pg_stat_user_indexes} (index entries read = {@code idx_tup_read}) of
 *       the schema; no ICP counters. The benchmark connection is made to flush its statistics first.
 * </ul>
 */
public abstract class EngineCounters implements AutoCloseable {
  public static final List<String> NAMES = List.of(
      "accel.table.rows.fetched", "accel.index.entries.read", "accel.icp.attempts", "accel.icp.matches");

  private static SimpleMeterRegistry registry;

  /** Adds (once per JVM) a registry that records the meters of Micrometer's global registry. */
  public static synchronized MeterRegistry installRegistry() {
    if (registry == null) {
      registry = new SimpleMeterRegistry();
      Metrics.addRegistry(registry);
    }
    return registry;
  }

  /** The current totals, one per {@link #NAMES}. */
  public abstract double[] read();

  @Override
  public void close() {
  }

  /** {@code end - start}, element by element (NaN stays NaN). */
  public static double[] minus(double[] end, double[] start) {
    double[] d = new double[end.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - start[i];
    }
    return d;
  }

  /** Accel's counters of the store described as {@code store}. */
  public static EngineCounters accel(String store) {
    MeterRegistry meters = installRegistry();
    return new EngineCounters() {
      @Override
      public double[] read() {
        double[] v = new double[NAMES.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = total(meters, NAMES.get(i), store);
        }
        return v;
      }
    };
  }

  /** The sum of the counts of meters {@code name} tagged {@code store}; NaN when there is none. */
  static double total(MeterRegistry meters, String name, String store) {
    Collection<Meter> found = meters.find(name).tag("store", store).meters();
    if (found.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (Meter m : found) {
      for (Measurement measurement : m.measure()) {
        if (measurement.getStatistic() == Statistic.COUNT) {
          sum += measurement.getValue();
        }
      }
    }
    return sum;
  }

  /**
   * PostgreSQL's statistics of {@code schema}, read on {@code stats} after asking {@code benchmark} (the
   * connection that runs the queries) to flush its pending statistics.
   */
  public static EngineCounters postgres(Connection benchmark, Connection stats, String schema) {
    return new EngineCounters() {
      @Override
      public double[] read() {
        double[] v = new double[NAMES.size()];
        Arrays.fill(v, Double.NaN);
        try {
          try (Statement s = benchmark.createStatement()) {
            // PostgreSQL 15+: the backend flushes its counters when next idle rather than within 1..10 s.
            s.execute("SELECT pg_stat_force_next_flush()");
          } catch (SQLException e) {
            // older server: counters lag by up to a second
          }
          Thread.sleep(300);
          try (Statement s = stats.createStatement()) {
            s.execute("SELECT pg_stat_clear_snapshot()");
          }
          try (PreparedStatement ps = stats.prepareStatement(
              "SELECT COALESCE(SUM(seq_tup_read + COALESCE(idx_tup_fetch, 0)), 0) FROM pg_stat_user_tables "
                  + "WHERE schemaname = ? AND relname IN ('lineitem', 'part')")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              v[0] = rs.getDouble(1);
            }
          }
          try (PreparedStatement ps = stats.prepareStatement(
              "SELECT COALESCE(SUM(idx_tup_read), 0) FROM pg_stat_user_indexes "
                  + "WHERE schemaname = ? AND relname IN ('lineitem', 'part')")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              v[1] = rs.getDouble(1);
            }
          }
        } catch (SQLException e) {
          Arrays.fill(v, Double.NaN);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          Arrays.fill(v, Double.NaN);
        }
        return v;
      }

      @Override
      public void close() {
        try {
          stats.close();
        } catch (SQLException e) {
          // nothing to do
        }
      }
    };
  }
}
