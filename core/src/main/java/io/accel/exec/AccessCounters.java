package io.accel.exec;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The store's counters of storage access by queries, after MySQL's handler statistics:
 * {@code accel.index.entries.read} (Handler_read_next: index entries a scan visited),
 * {@code accel.icp.attempts} and {@code accel.icp.matches} (Handler_icp_attempts / _match: entries an
 * Index Condition Pushdown predicate was evaluated on, and those it accepted),
 * {@code accel.table.rows.fetched} (rows read from a table, by primary-key fetch or by scanning it), and
 * {@code accel.join.lookups} (distinct keys index lookup joins looked up).
 * Scans count locally and add their totals here when they close.
 */
public final class AccessCounters {
  private final Counter entriesRead;
  private final Counter icpAttempts;
  private final Counter icpMatches;
  private final Counter rowsFetched;
  private final Counter lookups;

  AccessCounters(MeterRegistry registry, Tags tags) {
    entriesRead = Counter.builder("accel.index.entries.read").tags(tags)
        .description("index entries read by scans").register(registry);
    icpAttempts = Counter.builder("accel.icp.attempts").tags(tags)
        .description("index entries an Index Condition Pushdown predicate was evaluated on").register(registry);
    icpMatches = Counter.builder("accel.icp.matches").tags(tags)
        .description("index entries that satisfied their Index Condition Pushdown predicate").register(registry);
    rowsFetched = Counter.builder("accel.table.rows.fetched").tags(tags)
        .description("table rows read, by primary-key fetch or table scan").register(registry);
    lookups = Counter.builder("accel.join.lookups").tags(tags)
        .description("distinct join keys index lookup joins looked up in their inner table").register(registry);
  }

  void add(ScanStats stats) {
    if (stats.entriesRead > 0) {
      entriesRead.increment(stats.entriesRead);
    }
    if (stats.icpAttempts > 0) {
      icpAttempts.increment(stats.icpAttempts);
    }
    if (stats.icpMatches > 0) {
      icpMatches.increment(stats.icpMatches);
    }
    if (stats.rowsFetched > 0) {
      rowsFetched.increment(stats.rowsFetched);
    }
    if (stats.lookups > 0) {
      lookups.increment(stats.lookups);
    }
  }

  /** What one scan (or, summed, every execution of one plan operator) read. */
  public static final class ScanStats {
    long seeks;
    long entriesRead;
    long icpAttempts;
    long icpMatches;
    long rowsFetched;
    long rowsReturned;
    long lookups;

    public synchronized void addAll(ScanStats other) {
      lookups += other.lookups;
      seeks += other.seeks;
      entriesRead += other.entriesRead;
      icpAttempts += other.icpAttempts;
      icpMatches += other.icpMatches;
      rowsFetched += other.rowsFetched;
      rowsReturned += other.rowsReturned;
    }

    public synchronized long seeks() {
      return seeks;
    }

    public synchronized long entriesRead() {
      return entriesRead;
    }

    public synchronized long icpAttempts() {
      return icpAttempts;
    }

    public synchronized long icpMatches() {
      return icpMatches;
    }

    public synchronized long rowsFetched() {
      return rowsFetched;
    }

    public synchronized long rowsReturned() {
      return rowsReturned;
    }

    /** Distinct keys an index lookup join looked up. */
    public synchronized long lookups() {
      return lookups;
    }
  }
}
