package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The access-path choices users rely on, as EXPLAIN PLAN FOR shows them, and the storage counters
 * ({@code accel.index.entries.read}, {@code accel.icp.attempts}, {@code accel.icp.matches},
 * {@code accel.table.rows.fetched}, tagged {@code store=mem:NAME}) of known queries on known data. Expected
 * results and counts are computed here from the generating formulas, not from the engine.
 *
 * <p>The table {@code item} has 1,000 rows, {@code id} 1..1000: {@code cat = id % 10} (100 rows per value),
 * {@code kind = id % 200} (5 rows per value), {@code common} 2 for every 20th row and 1 otherwise,
 * {@code price = id * 37 % 1000} (a permutation of 0..999), {@code flag} 1 for every third row, {@code note}
 * 'n' || id. Indexes: {@code item_kind (kind)}, {@code item_cat (cat, price, flag)}, {@code item_common
 * (common)}, {@code item_price (price DESC)}.
 */
class AccessPathExplainTest extends JdbcTestSupport {
  private static final int ROWS = 1000;

  private SimpleMeterRegistry meters;
  private Connection c;

  static int cat(int id) {
    return id % 10;
  }

  static int kind(int id) {
    return id % 200;
  }

  static int common(int id) {
    return id % 20 == 0 ? 2 : 1;
  }

  static int price(int id) {
    return id * 37 % 1000;
  }

  static int flag(int id) {
    return id % 3 == 0 ? 1 : 0;
  }

  @BeforeEach
  void load() throws SQLException {
    meters = new SimpleMeterRegistry();
    Metrics.globalRegistry.add(meters);
    c = connect();
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, cat INTEGER NOT NULL, kind INTEGER NOT NULL, "
        + "common INTEGER NOT NULL, price INTEGER NOT NULL, flag INTEGER NOT NULL, note TEXT)");
    update(c, "CREATE INDEX item_kind ON item (kind)");
    update(c, "CREATE INDEX item_cat ON item (cat, price, flag)");
    update(c, "CREATE INDEX item_common ON item (common)");
    update(c, "CREATE INDEX item_price ON item (price DESC)");
    for (int from = 1; from <= ROWS; from += 100) {
      List<String> values = new ArrayList<>();
      for (int id = from; id < from + 100; id++) {
        values.add("(" + id + ", " + cat(id) + ", " + kind(id) + ", " + common(id) + ", " + price(id) + ", "
            + flag(id) + ", 'n" + id + "')");
      }
      update(c, "INSERT INTO item VALUES " + String.join(", ", values));
    }
    update(c, "ANALYZE item");
  }

  @AfterEach
  void removeMeters() {
    Metrics.globalRegistry.remove(meters);
    meters.close();
  }

  // ------------------------------------------------------------------------------------------ plan choices

  @Test
  void aUuidKeyComparedWithTextIsAPointLookup() throws SQLException {
    update(c, "CREATE TABLE session (id UUID PRIMARY KEY, n INTEGER)");
    update(c, "INSERT INTO session VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1), "
        + "('00000000-0000-0000-0000-000000000000', 2)");
    List<String> values = new ArrayList<>();
    for (int i = 1; i <= 200; i++) {
      values.add(String.format("('%08x-0000-4000-8000-%012x', %d)", i * 7919, i, 100 + i));
    }
    update(c, "INSERT INTO session VALUES " + String.join(", ", values));
    update(c, "ANALYZE session");
    String byText = "SELECT n FROM session WHERE id = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'";
    assertThat(explain(c, byText)).contains("access=[primary key]", "keys=[id = a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11]")
        .doesNotContain("residual");
    assertThat(ids(c, byText)).containsExactly(1);
    assertThat(explain(c, "SELECT n FROM session WHERE id IN ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', "
        + "'00000000-0000-0000-0000-000000000000')")).contains("access=[primary key]").doesNotContain("full scan");
    try (PreparedStatement ps = c.prepareStatement("SELECT n FROM session WHERE id = ?")) {
      ps.setObject(1, java.util.UUID.fromString("00000000-0000-0000-0000-000000000000"));
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void theMoreSelectiveOfTwoIndexesAfterAnalyze() throws SQLException {
    // kind = 13: 5 rows; cat = 3: 100 rows
    String plan = explain(c, "SELECT id, note FROM item WHERE cat = 3 AND kind = 13");
    assertThat(plan).contains("access=[index item_kind]", "keys=[kind = 13]").contains("residual=[=(cat, 3)]");
    assertThat(ids(c, "SELECT id FROM item WHERE cat = 3 AND kind = 13"))
        .containsExactlyInAnyOrderElementsOf(expected(id -> cat(id) == 3 && kind(id) == 13));
    // kind > 5: 970 rows; cat = 3: 100 rows
    assertThat(explain(c, "SELECT id, note FROM item WHERE cat = 3 AND kind > 5"))
        .contains("access=[index item_cat]", "keys=[cat = 3]");
    // the value frequencies ANALYZE records: common = 2 holds 50 rows, common = 1 holds 950; cat = 0 holds 100
    assertThat(explain(c, "SELECT id, note FROM item WHERE common = 2 AND cat = 0"))
        .contains("access=[index item_common]", "keys=[common = 2]");
    assertThat(explain(c, "SELECT id, note FROM item WHERE common = 1 AND cat = 0"))
        .contains("access=[index item_cat]", "keys=[cat = 0]");
  }

  @Test
  void aFullScanWhenThePredicateMatchesMostOfTheTable() throws SQLException {
    assertThat(explain(c, "SELECT id, note FROM item WHERE common = 1"))
        .contains("access=[full scan]", "residual=[=(common, 1)]").doesNotContain("access=[index");
    assertThat(explain(c, "SELECT id, note FROM item WHERE common = 2"))
        .contains("access=[index item_common]", "keys=[common = 2]");
    assertThat(explain(c, "SELECT id, note FROM item WHERE kind <> 7"))
        .contains("access=[full scan]");
  }

  @Test
  void orderByLimitReadsTheIndexInOrderWithoutSorting() throws SQLException {
    // item_price is DESC: ascending order reads it backwards
    String asc = "SELECT id, price FROM item ORDER BY price LIMIT 5";
    assertThat(explain(c, asc)).contains("access=[index item_price]", "order=[backward]", "limit=[5]")
        .doesNotContain("Sort");
    assertThat(column(c, asc, 2)).containsExactly(0, 1, 2, 3, 4);
    String desc = "SELECT id, price FROM item ORDER BY price DESC LIMIT 5";
    assertThat(explain(c, desc)).contains("access=[index item_price]", "order=[forward]", "limit=[5]")
        .doesNotContain("Sort");
    assertThat(column(c, desc, 2)).containsExactly(999, 998, 997, 996, 995);
    // an ascending index column after an equality, read backwards for DESC
    String prefixed = "SELECT id, price FROM item WHERE cat = 7 ORDER BY price DESC LIMIT 3";
    assertThat(explain(c, prefixed)).contains("access=[index item_cat]", "keys=[cat = 7]", "order=[backward]",
        "limit=[3]").doesNotContain("Sort");
    assertThat(column(c, prefixed, 2)).containsExactlyElementsOf(IntStream.rangeClosed(1, ROWS)
        .filter(id -> cat(id) == 7).map(AccessPathExplainTest::price).boxed().sorted((x, y) -> y - x).limit(3)
        .toList());
  }

  @Test
  void aCoveringScanWhenTheEntryHoldsEveryColumnNeeded() throws SQLException {
    String covered = "SELECT id, price FROM item WHERE cat = 4 AND price < 100";
    assertThat(explain(c, covered)).contains("access=[index item_cat]", "keys=[cat = 4, price in (-inf..100)]",
        "covering=[true]");
    assertThat(ids(c, covered)).containsExactlyInAnyOrderElementsOf(expected(id -> cat(id) == 4 && price(id) < 100));
    assertThat(explain(c, "SELECT id, note FROM item WHERE cat = 4 AND price < 100"))
        .contains("access=[index item_cat]").doesNotContain("covering");
  }

  @Test
  void anInListBecomesSeveralSeeks() throws SQLException {
    String sql = "SELECT id, note FROM item WHERE kind IN (3, 7, 11)";
    assertThat(explain(c, sql)).contains("access=[index item_kind]", "keys=[kind in {3, 7, 11}]");
    assertThat(ids(c, sql)).containsExactlyInAnyOrderElementsOf(expected(id -> List.of(3, 7, 11).contains(kind(id))));
    assertThat(explain(c, "SELECT id, note FROM item WHERE kind = 3 OR kind = 11"))
        .contains("access=[index item_kind]", "keys=[kind in {3, 11}]");
  }

  @Test
  void aConditionOnALaterIndexColumnIsPushedDownUnlessIcpIsOff() throws SQLException {
    String sql = "SELECT id, note FROM item WHERE cat = 4 AND flag = 1";
    assertThat(explain(c, sql)).contains("access=[index item_cat]", "keys=[cat = 4]", "icp=[=(flag, 1)]")
        .doesNotContain("residual");
    Connection noIcp = connect(url + "?icp=false");
    assertThat(explain(noIcp, sql)).contains("access=[index item_cat]", "keys=[cat = 4]", "residual=[=(flag, 1)]")
        .doesNotContain("icp=");
    List<Integer> expected = expected(id -> cat(id) == 4 && flag(id) == 1);
    assertThat(ids(c, sql)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(ids(noIcp, sql)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void indexScansOffGivesFullScans() throws SQLException {
    Connection off = connect(url + "?indexScans=false");
    String sql = "SELECT id, note FROM item WHERE kind = 13";
    assertThat(explain(c, sql)).contains("access=[index item_kind]");
    assertThat(explain(off, sql)).contains("access=[full scan]").doesNotContain("access=[index");
    assertThat(explain(off, "SELECT id FROM item ORDER BY price LIMIT 5")).contains("access=[full scan]", "Sort");
    assertThat(ids(off, sql)).containsExactlyInAnyOrderElementsOf(expected(id -> kind(id) == 13));
  }

  @Test
  void aRowValueComparisonIsOneSeekForKeysetPagination() throws SQLException {
    String page = "SELECT id, cat, price FROM item WHERE (cat, price) > (3, 500) ORDER BY cat, price, flag, id LIMIT 5";
    String plan = explain(c, page);
    assertThat(plan).contains("index item_cat").contains("keys=[(cat, price) > (3, 500)]").doesNotContain("Sort");
    Reads r = reads(c, page);
    assertThat(r.rows).isEqualTo(5);
    assertThat(r.entries).as("one seek to (3, 500), then the page: not every entry of cat 3 before it")
        .isBetween(5L, 7L);
    Connection full = connect(url + "?indexScans=false");
    assertThat(rows(c, page)).isEqualTo(rows(full, page));
    String inclusive = "SELECT id FROM item WHERE (cat, price) >= (3, 500) ORDER BY cat, price, flag, id LIMIT 7";
    assertThat(explain(c, inclusive)).contains("keys=[(cat, price) >= (3, 500)]");
    assertThat(rows(c, inclusive)).isEqualTo(rows(full, inclusive));
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN SELECT id FROM item WHERE (cat, price) > (?, ?) ORDER BY cat, price")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).contains("keys=[(cat, price) > (?0, ?1)]");
    }
    String before = "SELECT id FROM item WHERE (cat, price) < (3, 500) ORDER BY cat DESC, price DESC LIMIT 4";
    assertThat(explain(c, before)).contains("keys=[(cat, price) < (3, 500)]");
    assertThat(rows(c, before)).hasSize(4).isEqualTo(rows(full, before));
  }

  // ------------------------------------------------------------------------------------------ counters

  @Test
  void countersOfAnIndexScanWithIndexConditionPushdown() throws SQLException {
    String sql = "SELECT id, note FROM item WHERE cat = 4 AND flag = 1";
    int entries = count(id -> cat(id) == 4);
    int matches = count(id -> cat(id) == 4 && flag(id) == 1);
    Reads r = reads(c, sql);
    assertThat(r.rows).isEqualTo(matches);
    assertThat(r).isEqualTo(new Reads(matches, entries, entries, matches, matches));

    // the same query without ICP fetches every row the key range holds and tests it afterwards
    Reads noIcp = reads(connect(url + "?icp=false"), sql);
    assertThat(noIcp).isEqualTo(new Reads(matches, entries, 0, 0, entries));

    // without index scans: every row of the table is read, no index entry
    Reads full = reads(connect(url + "?indexScans=false"), sql);
    assertThat(full).isEqualTo(new Reads(matches, 0, 0, 0, ROWS));
  }

  @Test
  void countersOfCoveringAndPrimaryKeyScans() throws SQLException {
    int covered = count(id -> cat(id) == 4 && price(id) < 100);
    assertThat(reads(c, "SELECT id, price FROM item WHERE cat = 4 AND price < 100"))
        .isEqualTo(new Reads(covered, covered, 0, 0, 0));
    // the same range needing a column the entry lacks: one fetch per entry
    assertThat(reads(c, "SELECT id, note FROM item WHERE cat = 4 AND price < 100"))
        .isEqualTo(new Reads(covered, covered, 0, 0, covered));
    // a primary-key range reads only its rows
    assertThat(reads(c, "SELECT note FROM item WHERE id BETWEEN 100 AND 149")).isEqualTo(new Reads(50, 0, 0, 0, 50));
    // equality on a non-unique index: its entries, and a fetch for each
    int kind13 = count(id -> kind(id) == 13);
    assertThat(reads(c, "SELECT id, note FROM item WHERE kind = 13")).isEqualTo(new Reads(kind13, kind13, 0, 0,
        kind13));
  }

  @Test
  void countersOfAnOrderedScanStoppedByLimit() throws SQLException {
    Reads r = reads(c, "SELECT id, note FROM item ORDER BY price DESC LIMIT 5");
    assertThat(r.rows).isEqualTo(5);
    // 5 entries and 5 fetches are needed; Calcite's LIMIT (Linq4j take) asks its input for one more row
    // before it stops, and rows are fetched in batches of 1, 2, 4, ... (one MultiGet each), so at most twice
    // that many are read ahead: never the whole index
    assertThat(r.entries).isBetween(5L, 12L);
    assertThat(r.fetched).isBetween(5L, 12L);
    assertThat(r.entries).isEqualTo(r.fetched);
    assertThat(r.icpAttempts).isZero();
  }

  @Test
  void countersOfAnInListWithoutThePlanCache() throws SQLException {
    // planCacheSize=0 plans the literals themselves: three seeks, five entries each
    Connection uncached = connect(url + "?planCacheSize=0");
    int n = count(id -> List.of(3, 7, 11).contains(kind(id)));
    assertThat(reads(uncached, "SELECT id, note FROM item WHERE kind IN (3, 7, 11)"))
        .isEqualTo(new Reads(n, n, 0, 0, n));
  }

  /**
   * With the plan cache (the default) the literals become parameters, and the IN list an OR of parameters
   * (kind = ?0 OR kind = ?1 OR kind = ?2), which must still be three seeks, not a walk of every entry of item_kind
   * with the OR pushed down (1000 entries read, as it once was).
   */
  @Test
  void countersOfAnInListThroughThePlanCache() throws SQLException {
    int n = count(id -> List.of(3, 7, 11).contains(kind(id)));
    assertThat(reads(c, "SELECT id, note FROM item WHERE kind IN (3, 7, 11)")).isEqualTo(new Reads(n, n, 0, 0, n));
    try (PreparedStatement ps = c.prepareStatement("EXPLAIN PLAN FOR SELECT id, note FROM item WHERE kind IN (?, ?, ?)")) {
      ps.setInt(1, 3);
      ps.setInt(2, 7);
      ps.setInt(3, 11);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).contains("keys=[kind in {");
      }
    }
  }

  @Test
  void aFullScanForARangeMatchingMostRows() throws SQLException {
    // price is a permutation of 0..999: ANALYZE records its range, so the planner sees that >= 10 is 99%.
    assertThat(explain(c, "SELECT id, note FROM item WHERE price >= 10")).contains("access=[full scan]");
    assertThat(explain(c, "SELECT id, note FROM item WHERE price >= 990")).contains("access=[index item_price]");
  }

  @Test
  void countStarOverAnIndexRangeFetchesNoRow() throws SQLException {
    int n = count(id -> cat(id) == 4);
    assertThat(reads(c, "SELECT count(*) FROM item WHERE cat = 4")).isEqualTo(new Reads(1, n, 0, 0, 0));
  }

  // ------------------------------------------------------------------------------------------ helpers

  /** Rows returned and the store's counter increments while one query ran (and its statement closed). */
  record Reads(long rows, long entries, long icpAttempts, long icpMatches, long fetched) {
  }

  private Reads reads(Connection conn, String sql) throws SQLException {
    double[] before = counters();
    long rows = 0;
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        rows++;
      }
    }
    double[] after = counters();
    return new Reads(rows, Math.round(after[0] - before[0]), Math.round(after[1] - before[1]),
        Math.round(after[2] - before[2]), Math.round(after[3] - before[3]));
  }

  private double[] counters() {
    String store = url.substring("jdbc:accel:".length());
    String[] names = {"accel.index.entries.read", "accel.icp.attempts", "accel.icp.matches",
        "accel.table.rows.fetched"};
    double[] out = new double[names.length];
    for (int i = 0; i < names.length; i++) {
      Counter counter = meters.find(names[i]).tag("store", store).counter();
      out[i] = counter == null ? 0 : counter.count();
    }
    return out;
  }

  static String explain(Connection conn, String sql) throws SQLException {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
      return plan.toString();
    }
  }

  static List<Integer> ids(Connection conn, String sql) throws SQLException {
    return column(conn, sql, 1);
  }

  static List<Integer> column(Connection conn, String sql, int column) throws SQLException {
    return rows(conn, sql).stream().map(r -> ((Number) r.get(column - 1)).intValue()).collect(Collectors.toList());
  }

  static List<Integer> expected(IntPredicate p) {
    return IntStream.rangeClosed(1, ROWS).filter(p).boxed().toList();
  }

  static int count(IntPredicate p) {
    return (int) IntStream.rangeClosed(1, ROWS).filter(p).count();
  }
}
