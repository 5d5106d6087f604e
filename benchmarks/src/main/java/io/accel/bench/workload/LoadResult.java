package io.accel.bench.workload;

import java.util.ArrayList;
import java.util.List;

/** What a load did: rows and elapsed time per table, in load order. */
public record LoadResult(List<TableLoad> tables) {

  public LoadResult {
    tables = List.copyOf(tables);
  }

  /** One table's load. */
  public record TableLoad(String table, long rows, long nanos) {
    public double rowsPerSecond() {
      return nanos == 0 ? 0 : rows * 1e9 / nanos;
    }
  }

  public long rows() {
    return tables.stream().mapToLong(TableLoad::rows).sum();
  }

  public long nanos() {
    return tables.stream().mapToLong(TableLoad::nanos).sum();
  }

  public double rowsPerSecond() {
    long nanos = nanos();
    return nanos == 0 ? 0 : rows() * 1e9 / nanos;
  }

  public long rows(String table) {
    return tables.stream().filter(t -> t.table().equals(table)).mapToLong(TableLoad::rows).sum();
  }

  /** A result for several loads one after the other. */
  public static LoadResult of(TableLoad... loads) {
    return new LoadResult(new ArrayList<>(List.of(loads)));
  }
}
