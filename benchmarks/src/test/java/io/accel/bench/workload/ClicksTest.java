package io.accel.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The clicks generator as a user sees it: loaded through the Accel driver at a small size, C1 run on it. */
class ClicksTest {
  private static final long ROWS = 20_000;

  private static Clicks clicks;
  private static Connection db;
  private static LoadResult loaded;

  @BeforeAll
  static void load() throws SQLException {
    clicks = new Clicks(ROWS);
    db = DriverManager.getConnection("jdbc:accel:mem:clicks-test");
    loaded = clicks.load(db);
  }

  @AfterAll
  static void close() throws SQLException {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void loadsTheRequestedRowsWithTheIndexOfDatasetsMd() throws SQLException {
    assertThat(count(db, "SELECT COUNT(*) FROM product_clicks")).isEqualTo(ROWS);
    assertThat(loaded.rows("product_clicks")).isEqualTo(ROWS);
    assertThat(db.getAutoCommit()).as("auto-commit restored after the load").isTrue();
    assertThat(clicks.createIndexes()).containsExactly("CREATE INDEX clicks_city ON product_clicks (city)");
    assertThat(clicks.createTables()).containsExactly("CREATE TABLE product_clicks (id BIGINT PRIMARY KEY, "
        + "city VARCHAR(32) NOT NULL, product_id INTEGER NOT NULL, clicks INTEGER NOT NULL, "
        + "impressions INTEGER NOT NULL, payload VARCHAR(200))");
  }

  @Test
  void storedRowsAreTheGeneratedRows() throws SQLException {
    List<Clicks.Click> stored = new ArrayList<>();
    try (Statement s = db.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, city, product_id, clicks, impressions, payload FROM product_clicks ORDER BY id")) {
      while (rs.next()) {
        stored.add(new Clicks.Click(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
            rs.getString(6)));
      }
    }
    List<Clicks.Click> generated = new ArrayList<>();
    for (long id = 1; id <= ROWS; id++) {
      generated.add(clicks.click(id));
    }
    assertThat(stored).containsExactlyElementsOf(generated);
  }

  @Test
  void valuesAreInTheirDocumentedRanges() {
    for (long id = 1; id <= ROWS; id++) {
      Clicks.Click c = clicks.click(id);
      assertThat(c.city()).matches("city-[0-9]{3}");
      assertThat(c.productId()).isBetween(1, Clicks.PRODUCT_COUNT);
      assertThat(c.clicks()).isBetween(0, Clicks.MAX_CLICKS);
      assertThat(c.impressions()).isBetween(c.clicks(), c.clicks() + Clicks.MAX_EXTRA_IMPRESSIONS);
      assertThat(c.payload()).hasSizeBetween(Clicks.MIN_PAYLOAD, Clicks.MAX_PAYLOAD).matches("[A-Za-z0-9 .]+");
    }
    assertThat(Clicks.city(1)).isEqualTo("city-001");
    assertThat(Clicks.city(200)).isEqualTo("city-200");
    assertThat(Clicks.cities(1, 4)).containsExactly("city-001", "city-002", "city-003", "city-004");
    assertThat(Clicks.cities(101, 200)).hasSize(100).startsWith("city-101").endsWith("city-200");
  }

  @Test
  void citiesAreZipfSkewedWithExponentOne() {
    double total = 0;
    for (int rank = 1; rank <= Clicks.CITY_COUNT; rank++) {
      total += Clicks.cityShare(rank);
      assertThat(Clicks.cityShare(rank) * rank).as("share of rank " + rank + " times its rank")
          .isCloseTo(Clicks.cityShare(1), within(1e-9));
    }
    assertThat(total).isCloseTo(1.0, within(1e-12));
    // 1 / H(200) = 1 / 5.878
    assertThat(Clicks.cityShare(1)).isCloseTo(0.1701, within(0.0001));
    Clicks big = new Clicks(400_000);
    Map<String, Integer> byCity = new HashMap<>();
    for (long id = 1; id <= big.rows(); id++) {
      byCity.merge(big.click(id).city(), 1, Integer::sum);
    }
    assertThat(byCity).hasSize(Clicks.CITY_COUNT);
    for (int rank : new int[] {1, 2, 4, 50, 150, 200}) {
      double expected = Clicks.cityShare(rank) * big.rows();
      // Within 5 standard deviations of the binomial count.
      assertThat((double) byCity.get(Clicks.city(rank))).as(Clicks.city(rank))
          .isCloseTo(expected, within(5 * Math.sqrt(expected)));
    }
  }

  @Test
  void c1OnAccelIsC1EvaluatedOnTheGenerator() throws SQLException {
    List<String> cities = List.of(Clicks.city(1), Clicks.city(4), Clicks.city(101), Clicks.city(200));
    Map<String, Map<Integer, Double>> truth = clicks.ctrByProduct(cities);
    try (PreparedStatement c1 = db.prepareStatement(Clicks.C1)) {
      for (String city : cities) {
        List<Clicks.CtrRow> rows = c1(c1, city);
        assertThat(Clicks.c1Mismatch(rows, truth.get(city))).as("C1 for " + city + ": " + rows).isEmpty();
        int products = truth.get(city).size();
        assertThat(rows).hasSize(Math.min(products, Clicks.C1_LIMIT));
      }
    }
    // city-001 has ~3,400 rows, city-200 ~17: one city with more products than the limit, one with fewer.
    assertThat(truth.get(Clicks.city(1)).size()).isGreaterThan(Clicks.C1_LIMIT);
    assertThat(truth.get(Clicks.city(200)).size()).isLessThan(Clicks.C1_LIMIT);
  }

  @Test
  void c1OnPostgresqlIsC1EvaluatedOnTheGenerator() throws SQLException {
    Clicks small = new Clicks(5_000);
    String schema = "clicks_test";
    try (Connection pg = PostgresService.connect(schema)) {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        s.execute("CREATE SCHEMA " + schema);
      }
      small.load(pg);
      List<String> cities = List.of(Clicks.city(1), Clicks.city(120));
      Map<String, Map<Integer, Double>> truth = small.ctrByProduct(cities);
      try (PreparedStatement c1 = pg.prepareStatement(Clicks.C1_POSTGRES)) {
        for (String city : cities) {
          List<Clicks.CtrRow> rows = c1(c1, city);
          assertThat(Clicks.c1Mismatch(rows, truth.get(city))).as("C1 for " + city + ": " + rows).isEmpty();
        }
      }
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  @Test
  void theCheckOfC1AllowsAnyProductTiedAtTheCutAndNothingElse() {
    Map<Integer, Double> rates = new HashMap<>();
    for (int p = 1; p <= 98; p++) {
      rates.put(p, 1.0 - p / 1000.0);
    }
    // Products 99, 100 and 101 tie for the last two places; 102 comes after them.
    rates.put(99, 0.5);
    rates.put(100, 0.5);
    rates.put(101, 0.5);
    rates.put(102, 0.25);
    List<Clicks.CtrRow> expected = Clicks.c1(rates);
    assertThat(expected).hasSize(100).endsWith(new Clicks.CtrRow(99, 0.5), new Clicks.CtrRow(100, 0.5));
    assertThat(Clicks.c1Mismatch(expected, rates)).isEmpty();

    List<Clicks.CtrRow> otherTie = new ArrayList<>(expected.subList(0, 98));
    otherTie.add(new Clicks.CtrRow(101, 0.5));
    otherTie.add(new Clicks.CtrRow(99, 0.5 * (1 + 1e-12)));
    assertThat(Clicks.c1Mismatch(otherTie, rates)).as("another of the tied products, a last-bit difference").isEmpty();

    List<Clicks.CtrRow> beyondTheCut = new ArrayList<>(expected.subList(0, 99));
    beyondTheCut.add(new Clicks.CtrRow(102, 0.5));
    assertThat(Clicks.c1Mismatch(beyondTheCut, rates)).get().asString().contains("the product's ctr is 0.25");

    List<Clicks.CtrRow> twice = new ArrayList<>(expected.subList(0, 99));
    twice.add(new Clicks.CtrRow(99, 0.5));
    assertThat(Clicks.c1Mismatch(twice, rates)).get().asString().contains("twice");

    List<Clicks.CtrRow> unordered = new ArrayList<>(expected);
    unordered.set(0, expected.get(1));
    unordered.set(1, expected.get(0));
    assertThat(Clicks.c1Mismatch(unordered, rates)).get().asString().startsWith("row 1 has ctr");

    assertThat(Clicks.c1Mismatch(expected.subList(0, 99), rates)).get().asString().isEqualTo("99 rows, expected 100");
  }

  @Test
  void generatedValuesArePinned() {
    // Golden values: if these change, every stored benchmark result was made on other data.
    Clicks full = new Clicks();
    Clicks.Click first = full.click(1);
    assertThat(first.city()).isEqualTo("city-004");
    assertThat(first.productId()).isEqualTo(10149);
    assertThat(first.clicks()).isEqualTo(43);
    assertThat(first.impressions()).isEqualTo(482);
    assertThat(first.payload()).hasSize(176).startsWith("w73PMSk5jJ2yclP6NGTF");
    Clicks.Click last = full.click(2_000_000);
    assertThat(last.city()).isEqualTo("city-001");
    assertThat(last.productId()).isEqualTo(39375);
    assertThat(last.clicks()).isEqualTo(34);
    assertThat(last.impressions()).isEqualTo(317);
    assertThat(clicks.click(7)).isEqualTo(new Clicks(ROWS + 1).click(7));
  }

  @Test
  void sizesAndNamesFollowTheWorkload() {
    assertThat(Workloads.names()).contains("clicks");
    Workload w = Workloads.byName("Clicks");
    assertThat(w).isInstanceOf(Clicks.class);
    assertThat(((Clicks) w).rows()).isEqualTo(2_000_000);
    assertThat(w.seed()).isEqualTo(42);
    assertThat(w.sizeLabel()).isEqualTo("2000000");
    assertThat(new Clicks(10, 7, 5).sizeLabel()).isEqualTo("10_s7");
    assertThat(WorkloadData.accelDir(w).toString()).endsWith("bench-data/clicks-2000000");
    assertThat(WorkloadData.postgresSchema(w)).isEqualTo("clicks_2000000");
    assertThat(w.fingerprint()).startsWith("clicks(rows=2000000, seed=42) schema=").endsWith(" v1");
    assertThat(Clicks.C1_POSTGRES).contains("CAST(clicks AS DOUBLE PRECISION)")
        .contains("CAST(impressions AS DOUBLE PRECISION)");
  }

  private static List<Clicks.CtrRow> c1(PreparedStatement c1, String city) throws SQLException {
    c1.setString(1, city);
    List<Clicks.CtrRow> rows = new ArrayList<>();
    try (ResultSet rs = c1.executeQuery()) {
      while (rs.next()) {
        rows.add(new Clicks.CtrRow(rs.getInt(1), rs.getDouble(2)));
      }
    }
    return rows;
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
