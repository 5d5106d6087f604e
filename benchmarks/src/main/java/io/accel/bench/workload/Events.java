package io.accel.bench.workload;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code events} workload of DATASETS.md (paging): {@code events}, an append-only log of events of
 * {@value #KIND_COUNT} kinds, and the query P1 (one kind's events in id order), read in pages of
 * {@value #PAGE_SIZE} rows, by a cursor ({@link #P1} with a fetch size) or by {@code LIMIT 1000 OFFSET k}
 * ({@link #P1_PAGE}).
 *
 * <p>Rows are numbered from 1 and each is a pure function of (seed, row number): {@link #event(long)}
 * regenerates any row without loading anything, which is what the loader inserts, and {@link #p1(String,
 * long, int)} and {@link #p1Digest(String)} evaluate P1 on the generator, which the benchmark and the tests
 * check every engine against.
 * <ul>
 *   <li>id 1..rows;
 *   <li>ts increases with id: row id lies in the {@value #SECONDS_PER_EVENT}-second slot that starts
 *       (id - 1) * {@value #SECONDS_PER_EVENT} s after {@link #EPOCH}, uniform to the second within it
 *       (1,000,000 rows span 347 days);
 *   <li>kind uniform over {@link #KINDS}: about 250,000 rows (250 pages) per kind at the full size;
 *   <li>payload {@value #MIN_PAYLOAD} to {@value #MAX_PAYLOAD} characters (uniform) of letters, digits,
 *       space and {@code .}.
 * </ul>
 */
public final class Events extends OneTableWorkload {
  public static final String NAME = "events";
  public static final long DEFAULT_SEED = OneTableWorkload.DEFAULT_SEED;
  /** The DATASETS.md size. */
  public static final long DEFAULT_ROWS = 1_000_000;
  /** The quick size of the benchmarks. */
  public static final long SMALL_ROWS = 100_000;
  /** The kinds, uniformly drawn. */
  public static final List<String> KINDS = List.of("click", "view", "search", "purchase");
  public static final int KIND_COUNT = 4;
  /** The rows of a page: P1_PAGE's LIMIT, and the fetch size of P1's cursor. */
  public static final int PAGE_SIZE = 1_000;
  public static final int MIN_PAYLOAD = 100;
  public static final int MAX_PAYLOAD = 200;
  public static final int SECONDS_PER_EVENT = 30;
  /** The slot of row 1 starts here. */
  public static final LocalDateTime EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);

  /** Bumped whenever the generated rows change (the golden values of EventsTest change with it). */
  static final int DATA_VERSION = 1;

  private static final int STREAM_EVENTS = 1;
  private static final long EPOCH_SECOND = EPOCH.toEpochSecond(ZoneOffset.UTC);
  private static final String PAYLOAD_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .";

  public static final String CREATE_EVENTS = "CREATE TABLE events ("
      + "id BIGINT PRIMARY KEY, ts TIMESTAMP NOT NULL, kind VARCHAR(16) NOT NULL, payload VARCHAR(200) NOT NULL)";
  public static final List<String> INDEXES = List.of("CREATE INDEX events_kind ON events (kind, id)");

  public static final String INSERT_EVENT = "INSERT INTO events (id, ts, kind, payload) VALUES (?, ?, ?, ?)";

  /** P1 of DATASETS.md: one parameter, a kind (VARCHAR); read through a cursor of {@value #PAGE_SIZE} rows a fetch. */
  public static final String P1 = "SELECT * FROM events WHERE kind = ? ORDER BY id";
  /** P1 one page at a time: a kind, and the page's offset ({@link #offset(long)}). */
  public static final String P1_PAGE = "SELECT * FROM events WHERE kind = ? ORDER BY id LIMIT 1000 OFFSET ?";

  /** An events row, as {@code SELECT *} returns it. */
  public record Event(long id, LocalDateTime ts, String kind, String payload) {
  }

  /** The rows of a result and a SHA-256 of their text in order: what the benchmark compares across engines. */
  public record Digest(long rows, String sha256) {
    @Override
    public String toString() {
      return rows + " rows, sha256 " + sha256.substring(0, 16);
    }
  }

  /** Accumulates the {@link Digest} of events in the order they are added. */
  public static final class Digester {
    private final MessageDigest sha;
    private long rows;

    public Digester() {
      try {
        sha = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JDK has SHA-256", e);
      }
    }

    public Digester add(Event e) {
      String text = e.id() + "|" + e.ts() + "|" + e.kind() + "|" + e.payload() + "\n";
      sha.update(text.getBytes(StandardCharsets.UTF_8));
      rows++;
      return this;
    }

    public Digest digest() {
      return new Digest(rows, HexFormat.of().formatHex(sha.digest()));
    }
  }

  /** The DATASETS.md size: 1,000,000 rows, seed 42. */
  public Events() {
    this(DEFAULT_ROWS);
  }

  public Events(long rows) {
    this(rows, DEFAULT_SEED, BatchLoader.DEFAULT_BATCH_SIZE);
  }

  public Events(long rows, long seed, int batchSize) {
    super(NAME, DATA_VERSION, "events", CREATE_EVENTS, INDEXES, rows, seed, batchSize);
  }

  /** The OFFSET of page {@code page} of P1, numbered from 1: {@code (page - 1) * 1000}. */
  public static long offset(long page) {
    if (page < 1) {
      throw new IllegalArgumentException("pages are numbered from 1: " + page);
    }
    return (page - 1) * PAGE_SIZE;
  }

  /** Row {@code id}, 1 &lt;= id &lt;= rows. */
  public Event event(long id) {
    checkRange(id);
    RowRandom r = new RowRandom(seed, STREAM_EVENTS, id);
    String kind = KINDS.get(r.nextInt(KIND_COUNT));
    LocalDateTime ts = LocalDateTime.ofEpochSecond(
        EPOCH_SECOND + (id - 1) * SECONDS_PER_EVENT + r.nextInt(SECONDS_PER_EVENT), 0, ZoneOffset.UTC);
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
    return new Event(id, ts, kind, new String(payload));
  }

  /** The kind of row {@code id} alone (the first draw of the row, so the payload is not generated). */
  public String kind(long id) {
    checkRange(id);
    return KINDS.get(new RowRandom(seed, STREAM_EVENTS, id).nextInt(KIND_COUNT));
  }

  /** The rows of each kind, in {@link #KINDS} order. */
  public Map<String, Long> kindCounts() {
    Map<String, Long> counts = new LinkedHashMap<>();
    KINDS.forEach(k -> counts.put(k, 0L));
    for (long id = 1; id <= rows; id++) {
      counts.merge(kind(id), 1L, Long::sum);
    }
    return counts;
  }

  /** The full pages ({@value #PAGE_SIZE} rows) that every kind has: the smallest kind's rows / 1000. */
  public long fullPagesPerKind() {
    return kindCounts().values().stream().mapToLong(Long::longValue).min().orElse(0) / PAGE_SIZE;
  }

  /** P1 for {@code kind} with {@code LIMIT limit OFFSET offset}, evaluated on the generator. */
  public List<Event> p1(String kind, long offset, int limit) {
    checkKind(kind);
    List<Event> page = new ArrayList<>();
    long seen = 0;
    for (long id = 1; id <= rows && page.size() < limit; id++) {
      if (kind(id).equals(kind) && seen++ >= offset) {
        page.add(event(id));
      }
    }
    return page;
  }

  /** The digest of P1's whole result for {@code kind}, evaluated on the generator. */
  public Digest p1Digest(String kind) {
    checkKind(kind);
    Digester digester = new Digester();
    for (long id = 1; id <= rows; id++) {
      if (kind(id).equals(kind)) {
        digester.add(event(id));
      }
    }
    return digester.digest();
  }

  /** The current row of a {@code SELECT *} of events (id, ts, kind, payload). */
  public static Event read(ResultSet rs) throws SQLException {
    return new Event(rs.getLong(1), rs.getObject(2, LocalDateTime.class), rs.getString(3), rs.getString(4));
  }

  @Override
  public LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException {
    BatchLoader loader = new BatchLoader(batchSize);
    return LoadResult.of(loader.insert(connection, "events", INSERT_EVENT, rows, (ps, row) -> {
      Event e = event(row + 1);
      ps.setLong(1, e.id());
      ps.setObject(2, e.ts());
      ps.setString(3, e.kind());
      ps.setString(4, e.payload());
    }, listener));
  }

  private static void checkKind(String kind) {
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException("unknown kind \"" + kind + "\"; known: " + KINDS);
    }
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
