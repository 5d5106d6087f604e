package io.accel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.accel.exec.RowKeys;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The collector's estimates and defaults, the scaling to a live row count, and the codec's round trip. */
class TableStatisticsTest {
  private static final TableDef T = new TableDef(7, "t",
      List.of(new Column("id", DataType.of(ColumnType.BIGINT), false, Optional.empty()),
          new Column("v", DataType.of(ColumnType.TEXT), true, Optional.empty())),
      List.of(0), List.of(new IndexDef(8, "t_v", List.of(new IndexColumn(1, false)), true)), 1);

  private static TableStatistics collect(int rows, int modulo) {
    StatisticsCollector c = new StatisticsCollector(T);
    for (long i = 0; i < rows; i++) {
      Object[] row = {i, i % 10 == 0 ? null : "v" + (i % modulo)};
      c.row(RowKeys.rowKey(T, row), row);
    }
    return c.finish(1234);
  }

  @Test
  void largeDistinctCountsAreEstimatedWithinAFewPercent() {
    TableStatistics s = collect(50_000, 1_000_000);
    // the index was not fed, so column v has only the sketch: 45,000 distinct values
    assertThat(s.distinctValuesExact(1)).isFalse();
    assertThat(s.distinctValues(1).getAsDouble()).isCloseTo(45_000, within(45_000 * 0.08));
    assertThat(s.distinctValues(0)).hasValue(50_000);
    assertThat(s.distinctValuesExact(0)).isTrue();
    assertThat(s.nullFraction(1)).isEqualTo(0.1);
  }

  @Test
  void aValueMuchMoreCommonThanTheRestIsListedWithItsShare() {
    // a tenth NULL, a tenth the current end date, the rest distinct values: the salaries table's to_date shape
    StatisticsCollector c = new StatisticsCollector(T);
    for (long i = 0; i < 50_000; i++) {
      Object[] row = {i, i % 10 == 0 ? null : i % 10 == 1 ? "9999-01-01" : "v" + i};
      c.row(RowKeys.rowKey(T, row), row);
    }
    TableStatistics s = c.finish(1234);
    assertThat(s.mostCommonValues(1)).isEmpty(); // no complete list: 40,001 distinct values
    assertThat(s.frequency(1, "9999-01-01").getAsDouble()).isCloseTo(0.1, within(0.01));
    // any other value: an equal share of the remaining 80% of the rows
    assertThat(s.frequency(1, "v5").getAsDouble()).isCloseTo(0.8 / 40_000, within(0.8 / 40_000 * 0.1));
    assertThat(s.frequency(1, "never").getAsDouble()).isCloseTo(0.8 / 40_000, within(0.8 / 40_000 * 0.1));

    TableStatistics back = StatisticsCodec.decode(StatisticsCodec.encode(new StatisticsCodec.Entry(s, 0, 0)), T)
        .statistics();
    assertThat(back.frequency(1, "9999-01-01")).isEqualTo(s.frequency(1, "9999-01-01"));
    assertThat(back.frequency(1, "v5")).isEqualTo(s.frequency(1, "v5"));
    // the uniformly distributed id column lists nothing
    assertThat(s.frequency(0, 5L)).isEmpty();
  }

  @Test
  void aLargeTablesMostCommonValuesComeFromASample() {
    int rows = 600_000;
    StatisticsCollector c = new StatisticsCollector(T, rows);
    for (long i = 0; i < rows; i++) {
      // 3% of the rows in one run at the end (a sample must not depend on where the value sits)
      Object[] row = {i, i % 10 == 0 ? null : i >= rows - rows * 3 / 100 ? "late" : i % 7 == 1 ? "often" : "v" + i};
      c.row(RowKeys.rowKey(T, row), row);
    }
    TableStatistics s = c.finish(1234);
    double often = (double) (rows - rows * 3 / 100) / 7 * 0.9 / rows;
    assertThat(s.frequency(1, "often").getAsDouble()).isCloseTo(often, within(0.01));
    assertThat(s.frequency(1, "late").getAsDouble()).isCloseTo(0.027, within(0.006));
    assertThat(s.frequency(1, "v2").getAsDouble()).isLessThan(0.0001);
  }

  @Test
  void scalingToTheLiveRowCount() {
    TableStatistics s = collect(1000, 30);
    // v0, v10 and v20 never occur: their rows are the NULLs
    assertThat(s.distinctValues(1)).hasValue(27);
    TableStatistics grown = s.withRowCount(2000);
    assertThat(grown.rowCount()).isEqualTo(2000);
    assertThat(grown.distinctValues(0)).hasValue(2000);
    assertThat(grown.distinctPrimaryKeyPrefix(1)).isEqualTo(2000);
    assertThat(grown.distinctValues(1)).hasValue(27);
    assertThat(grown.frequency(1, "v3")).isEqualTo(s.frequency(1, "v3"));
    TableStatistics shrunk = s.withRowCount(10);
    assertThat(shrunk.distinctValues(1)).hasValue(10);
    assertThat(s.withRowCount(-5).rowCount()).isZero();
    // the index was not fed: it has no entries
    assertThat(s.distinctPrefix(8, 1)).isEqualTo(0);
  }

  @Test
  void defaultsOfATableNeverAnalyzed() {
    TableStatistics e = TableStatistics.empty(T).withRowCount(5000);
    assertThat(e.analyzed()).isFalse();
    assertThat(e.rowCount()).isEqualTo(5000);
    assertThat(e.hasIndex(8)).isFalse();
    assertThat(e.distinctPrefix(8, 1)).isEqualTo(5000);
    assertThat(e.distinctPrefix(99, 1)).isEqualTo(200);
    assertThat(e.distinctPrimaryKeyPrefix(1)).isEqualTo(5000);
    assertThat(e.distinctValues(1)).isEmpty();
    assertThat(e.frequency(1, "x")).isEmpty();
    assertThat(e.nullFraction(1)).isZero();
    assertThatThrownBy(() -> e.distinctPrefix(8, 2)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void codecRoundTrip() {
    TableStatistics s = collect(500, 7);
    byte[] bytes = StatisticsCodec.encode(new StatisticsCodec.Entry(s, 12, 34));
    StatisticsCodec.Entry back = StatisticsCodec.decode(bytes, T);
    assertThat(back.rowDelta()).isEqualTo(12);
    assertThat(back.changes()).isEqualTo(34);
    TableStatistics r = back.statistics();
    assertThat(r.analyzedAt()).isEqualTo(1234);
    assertThat(r.rowCount()).isEqualTo(500);
    assertThat(r.distinctValues(1)).isEqualTo(s.distinctValues(1));
    assertThat(r.mostCommonValues(1)).isEqualTo(s.mostCommonValues(1));
    assertThat(r.frequency(1, "v3")).isEqualTo(s.frequency(1, "v3"));
    // ids 0..499: the range of a numeric column; none for text
    assertThat(s.valueRange(0)).hasValueSatisfying(range -> assertThat(range).containsExactly(0.0, 499.0));
    assertThat(r.valueRange(0)).hasValueSatisfying(range -> assertThat(range).containsExactly(0.0, 499.0));
    assertThat(r.valueRange(1)).isEmpty();
    assertThat(StatisticsCodec.tableId(StatisticsCodec.key(7))).isEqualTo(7);
    // a changed table keeps the counts but not the column statistics
    TableDef changed = new TableDef(7, "t", T.columns(), T.primaryKey(), List.of(), 2);
    TableStatistics c = StatisticsCodec.decode(bytes, changed).statistics();
    assertThat(c.rowCount()).isEqualTo(500);
    assertThat(c.distinctValues(1)).isEmpty();
    assertThatThrownBy(() -> StatisticsCodec.decode(new byte[] {9}, T)).isInstanceOf(IllegalArgumentException.class);
  }

  /** A table keyed (g, n): g repeats, so the primary key's first column has fewer values than rows. */
  private static final TableDef PAIRS = new TableDef(9, "p",
      List.of(new Column("g", DataType.of(ColumnType.INTEGER), false, Optional.empty()),
          new Column("n", DataType.of(ColumnType.INTEGER), false, Optional.empty()),
          new Column("few", DataType.of(ColumnType.TEXT), true, Optional.empty()),
          new Column("many", DataType.of(ColumnType.BIGINT), true, Optional.empty())),
      List.of(0, 1), List.of(), 1);

  private static void feed(StatisticsCollector c, int from, int to) {
    for (int i = from; i < to; i++) {
      Object[] row = {i / 7, i % 7, i % 13 == 0 ? null : "f" + (i % 40), i % 5 == 0 ? null : (long) i * 31 % 90_001};
      c.row(RowKeys.rowKey(PAIRS, row), row);
    }
  }

  /**
   * A table read in two key ranges at once: the merged collectors give one collector's exact counts (rows, NULLs,
   * extremes, value lists, primary-key prefixes, even where a key prefix spans the two ranges) and its estimates.
   */
  @Test
  void twoCollectorsOfAdjacentKeyRangesMergeIntoOnesStatistics() {
    int rows = 70_000;
    int split = 34_998; // inside a run of one g (i / 7): the prefix (g) is counted on both sides
    StatisticsCollector whole = new StatisticsCollector(PAIRS, rows);
    feed(whole, 0, rows);
    StatisticsCollector low = new StatisticsCollector(PAIRS, rows);
    StatisticsCollector high = new StatisticsCollector(PAIRS, rows);
    feed(low, 0, split);
    feed(high, split, rows);
    low.merge(high);
    TableStatistics a = whole.finish(1);
    TableStatistics b = low.finish(1);
    assertThat(b.rowCount()).isEqualTo(a.rowCount()).isEqualTo(rows);
    assertThat(b.distinctPrimaryKeyPrefix(1)).isEqualTo(a.distinctPrimaryKeyPrefix(1)).isEqualTo(10_000);
    assertThat(b.distinctPrimaryKeyPrefix(2)).isEqualTo(a.distinctPrimaryKeyPrefix(2)).isEqualTo(rows);
    for (int c = 0; c < 4; c++) {
      assertThat(b.nullFraction(c)).as("column %d", c).isEqualTo(a.nullFraction(c));
      assertThat(b.distinctValues(c).getAsDouble()).as("column %d", c)
          .isCloseTo(a.distinctValues(c).getAsDouble(), within(a.distinctValues(c).getAsDouble() * 0.03));
    }
    assertThat(b.distinctValuesExact(2)).isTrue();
    assertThat(b.frequency(2, "f7")).isEqualTo(a.frequency(2, "f7"));
    assertThat(b.mostCommonValues(2)).isEqualTo(a.mostCommonValues(2));
  }
}
