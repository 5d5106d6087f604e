package io.accel.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code clicks} workload of DATASETS.md (Rockset's example: fetching many rows after an index
 * lookup): {@code product_clicks}, one row per (city, product) observation, and the query C1 (a city's 100
 * products of the highest click-through rate), which reads every row of one city through the index
 * {@code clicks_city} and aggregates them.
 *
 * <p>Rows are numbered from 1 and each is a pure function of (seed, row number): {@link #click(long)}
 * regenerates any row without loading anything, which is what the loader inserts, and
 * {@link #ctrByProduct(Collection)} evaluates C1's aggregate on the generator, which the benchmark and the
 * tests check every engine against.
 * <ul>
 *   <li>id 1..rows;
 *   <li>city: one of {@value #CITY_COUNT} cities, Zipf-skewed with exponent 1: the city of rank r (1 = the
 *       most frequent) with probability proportional to 1 / r, named {@code city-001} .. {@code city-200}
 *       by rank ({@link #city(int)}). Rank 1 holds 17% of the rows (340,000 at the full size), rank 200
 *       0.085% (1,700);
 *   <li>product_id uniform over 1..{@value #PRODUCT_COUNT};
 *   <li>clicks uniform over 0..{@value #MAX_CLICKS}; impressions uniform over clicks ..
 *       clicks + {@value #MAX_EXTRA_IMPRESSIONS};
 *   <li>payload {@value #MIN_PAYLOAD} to {@value #MAX_PAYLOAD} characters (uniform) of letters, digits,
 *       space and {@code .}: the bulk a row fetched from the table carries and C1 does not read.
 * </ul>
 */
public final class Clicks extends OneTableWorkload {
  public static final String NAME = "clicks";
  public static final long DEFAULT_SEED = OneTableWorkload.DEFAULT_SEED;
  /** The DATASETS.md size. */
  public static final long DEFAULT_ROWS = 2_000_000;
  /** The quick size of the benchmarks. */
  public static final long SMALL_ROWS = 200_000;
  public static final int CITY_COUNT = 200;
  public static final int PRODUCT_COUNT = 50_000;
  public static final int MAX_CLICKS = 50;
  public static final int MAX_EXTRA_IMPRESSIONS = 500;
  public static final int MIN_PAYLOAD = 100;
  public static final int MAX_PAYLOAD = 200;
  /** C1's LIMIT. */
  public static final int C1_LIMIT = 100;

  /** Bumped whenever the generated rows change (the golden values of ClicksTest change with it). */
  static final int DATA_VERSION = 1;

  private static final int STREAM_CLICKS = 1;
  private static final String PAYLOAD_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .";
  /**
   * The Zipf weights in integers, so the draw is exact and portable: rank r weighs floor(2^40 / r), off
   * 1 / r by less than 2^-32 relatively. {@code CUMULATIVE[i]} is the sum of the weights of ranks 1..i+1.
   */
  private static final long[] CUMULATIVE = new long[CITY_COUNT];
  private static final List<String> CITIES;

  static {
    long sum = 0;
    List<String> names = new ArrayList<>();
    for (int rank = 1; rank <= CITY_COUNT; rank++) {
      sum += (1L << 40) / rank;
      CUMULATIVE[rank - 1] = sum;
      names.add(String.format(Locale.ROOT, "city-%03d", rank));
    }
    CITIES = List.copyOf(names);
  }

  public static final String CREATE_PRODUCT_CLICKS = "CREATE TABLE product_clicks ("
      + "id BIGINT PRIMARY KEY, city VARCHAR(32) NOT NULL, product_id INTEGER NOT NULL, "
      + "clicks INTEGER NOT NULL, impressions INTEGER NOT NULL, payload VARCHAR(200))";
  public static final List<String> INDEXES = List.of("CREATE INDEX clicks_city ON product_clicks (city)");

  public static final String INSERT_CLICK = "INSERT INTO product_clicks "
      + "(id, city, product_id, clicks, impressions, payload) VALUES (?, ?, ?, ?, ?, ?)";

  /** C1 of DATASETS.md: one parameter, a city (VARCHAR). */
  public static final String C1 = "SELECT product_id, SUM(CAST(clicks AS DOUBLE)) / "
      + "(SUM(CAST(impressions AS DOUBLE)) + 1.0) AS ctr FROM product_clicks WHERE city = ? "
      + "GROUP BY product_id ORDER BY ctr DESC LIMIT 100";
  /** C1 in PostgreSQL's spelling of the type ({@code DOUBLE PRECISION}); the same query otherwise. */
  public static final String C1_POSTGRES = C1.replace("AS DOUBLE)", "AS DOUBLE PRECISION)");

  /** A product_clicks row. */
  public record Click(long id, String city, int productId, int clicks, int impressions, String payload) {
  }

  /** A row of C1's result. */
  public record CtrRow(int productId, double ctr) {
  }

  /** The DATASETS.md size: 2,000,000 rows, seed 42. */
  public Clicks() {
    this(DEFAULT_ROWS);
  }

  public Clicks(long rows) {
    this(rows, DEFAULT_SEED, BatchLoader.DEFAULT_BATCH_SIZE);
  }

  public Clicks(long rows, long seed, int batchSize) {
    super(NAME, DATA_VERSION, "product_clicks", CREATE_PRODUCT_CLICKS, INDEXES, rows, seed, batchSize);
  }

  /** The name of the city of {@code rank}, 1 (the most frequent) .. {@value #CITY_COUNT}: {@code city-007}. */
  public static String city(int rank) {
    if (rank < 1 || rank > CITY_COUNT) {
      throw new IllegalArgumentException("city rank out of range 1.." + CITY_COUNT + ": " + rank);
    }
    return CITIES.get(rank - 1);
  }

  /** The cities of ranks {@code from} .. {@code to}, in rank order. */
  public static List<String> cities(int from, int to) {
    if (from < 1 || to > CITY_COUNT || from > to) {
      throw new IllegalArgumentException("city ranks out of range 1.." + CITY_COUNT + ": " + from + ".." + to);
    }
    return CITIES.subList(from - 1, to);
  }

  /** The probability of the city of {@code rank} (the share of rows it is drawn for). */
  public static double cityShare(int rank) {
    long weight = CUMULATIVE[rank - 1] - (rank == 1 ? 0 : CUMULATIVE[rank - 2]);
    return (double) weight / CUMULATIVE[CITY_COUNT - 1];
  }

  /** Row {@code id}, 1 &lt;= id &lt;= rows. */
  public Click click(long id) {
    checkRange(id);
    RowRandom r = new RowRandom(seed, STREAM_CLICKS, id);
    int rank = cityRank(r);
    int productId = 1 + r.nextInt(PRODUCT_COUNT);
    int clicks = r.nextInt(MAX_CLICKS + 1);
    int impressions = clicks + r.nextInt(MAX_EXTRA_IMPRESSIONS + 1);
    int length = MIN_PAYLOAD + r.nextInt(MAX_PAYLOAD - MIN_PAYLOAD + 1);
    char[] payload = new char[length];
    long bits = 0;
    for (int i = 0; i < length; i++) {
      if (i % 10 == 0) {
        bits = r.nextLong();
      }
      payload[i] = PAYLOAD_ALPHABET.charAt((int) (bits & 63));
      bits >>>= 6;
    }
    return new Click(id, city(rank), productId, clicks, impressions, new String(payload));
  }

  private static int cityRank(RowRandom r) {
    long draw = r.nextLong(CUMULATIVE[CITY_COUNT - 1]);
    int low = 0;
    int high = CITY_COUNT - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (draw < CUMULATIVE[mid]) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low + 1;
  }

  /**
   * C1's aggregate evaluated on the generator for each of {@code cities}: every product of the city and
   * its click-through rate {@code SUM(clicks) / (SUM(impressions) + 1.0)}. The sums are exact (integers
   * far below 2^53), so this is, to the bit, what an engine summing the doubles in any order computes.
   * One pass over all rows (payloads are not generated).
   */
  public Map<String, Map<Integer, Double>> ctrByProduct(Collection<String> cities) {
    Map<String, Integer> wanted = new HashMap<>();
    for (String city : cities) {
      wanted.putIfAbsent(city, wanted.size());
    }
    List<Map<Integer, long[]>> sums = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      sums.add(new HashMap<>());
    }
    for (long id = 1; id <= rows; id++) {
      RowRandom r = new RowRandom(seed, STREAM_CLICKS, id);
      Integer slot = wanted.get(CITIES.get(cityRank(r) - 1));
      if (slot == null) {
        continue;
      }
      int productId = 1 + r.nextInt(PRODUCT_COUNT);
      int clicks = r.nextInt(MAX_CLICKS + 1);
      int impressions = clicks + r.nextInt(MAX_EXTRA_IMPRESSIONS + 1);
      long[] s = sums.get(slot).computeIfAbsent(productId, p -> new long[2]);
      s[0] += clicks;
      s[1] += impressions;
    }
    Map<String, Map<Integer, Double>> all = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> city : wanted.entrySet()) {
      Map<Integer, Double> ctr = new HashMap<>();
      sums.get(city.getValue()).forEach((p, s) -> ctr.put(p, (double) s[0] / ((double) s[1] + 1.0)));
      all.put(city.getKey(), ctr);
    }
    return all;
  }

  /**
   * C1's result from {@link #ctrByProduct} of one city: the {@value #C1_LIMIT} highest rates, ties broken
   * by product id (C1 itself leaves the order of ties, and which tied products make the cut, open).
   */
  public static List<CtrRow> c1(Map<Integer, Double> ctrByProduct) {
    return ctrByProduct.entrySet().stream()
        .map(e -> new CtrRow(e.getKey(), e.getValue()))
        .sorted(Comparator.comparingDouble(CtrRow::ctr).reversed().thenComparingInt(CtrRow::productId))
        .limit(C1_LIMIT)
        .toList();
  }

  /**
   * What is wrong with {@code actual} as C1's result for a city whose products have the rates
   * {@code ctrByProduct}, or empty when it is a correct result: as many rows as expected; the i-th rate
   * equal to the i-th highest rate; each row's rate the rate of its product; no product twice. Rates are
   * compared with a relative tolerance of {@code 1e-9}, and any of several products tied at the cut may
   * be returned, in any order among the ties.
   */
  public static Optional<String> c1Mismatch(List<CtrRow> actual, Map<Integer, Double> ctrByProduct) {
    List<CtrRow> expected = c1(ctrByProduct);
    if (actual.size() != expected.size()) {
      return Optional.of(actual.size() + " rows, expected " + expected.size());
    }
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < actual.size(); i++) {
      CtrRow row = actual.get(i);
      if (!close(row.ctr(), expected.get(i).ctr())) {
        return Optional.of("row " + (i + 1) + " has ctr " + row.ctr() + ", expected " + expected.get(i).ctr()
            + " (" + expected.get(i) + ")");
      }
      Double truth = ctrByProduct.get(row.productId());
      if (truth == null) {
        return Optional.of("row " + (i + 1) + " " + row + ": the city has no such product");
      }
      if (!close(row.ctr(), truth)) {
        return Optional.of("row " + (i + 1) + " " + row + ": the product's ctr is " + truth);
      }
      if (!seen.add(row.productId())) {
        return Optional.of("row " + (i + 1) + " " + row + ": product returned twice");
      }
    }
    return Optional.empty();
  }

  /** Equal within a relative tolerance of 1e-9 (exactly equal for zero). */
  public static boolean close(double a, double b) {
    return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }

  @Override
  public LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException {
    BatchLoader loader = new BatchLoader(batchSize);
    return LoadResult.of(loader.insert(connection, "product_clicks", INSERT_CLICK, rows, (ps, row) -> {
      Click c = click(row + 1);
      ps.setLong(1, c.id());
      ps.setString(2, c.city());
      ps.setInt(3, c.productId());
      ps.setInt(4, c.clicks());
      ps.setInt(5, c.impressions());
      ps.setString(6, c.payload());
    }, listener));
  }

  private void checkRange(long id) {
    if (id < 1 || id > rows) {
      throw new IllegalArgumentException("row id out of range 1.." + rows + ": " + id);
    }
  }

  @Override
  public String toString() {
    return NAME + "(rows=" + rows + ", seed=" + seed + ")";
  }
}
