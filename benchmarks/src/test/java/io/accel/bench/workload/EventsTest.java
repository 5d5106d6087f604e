package io.accel.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The events generator as a user sees it: loaded through the Accel driver at a small size, P1 paged on it. */
class EventsTest {
  private static final long ROWS = 20_000;

  private static Events events;
  private static Connection db;
  private static LoadResult loaded;

  @BeforeAll
  static void load() throws SQLException {
    events = new Events(ROWS);
    db = DriverManager.getConnection("jdbc:accel:mem:events-test");
    loaded = events.load(db);
  }

  @AfterAll
  static void close() throws SQLException {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void loadsTheRequestedRowsWithTheSchemaOfDatasetsMd() throws SQLException {
    assertThat(count(db, "SELECT COUNT(*) FROM events")).isEqualTo(ROWS);
    assertThat(loaded.rows("events")).isEqualTo(ROWS);
    assertThat(db.getAutoCommit()).as("auto-commit restored after the load").isTrue();
    assertThat(events.createTables()).containsExactly("CREATE TABLE events (id BIGINT PRIMARY KEY, "
        + "ts TIMESTAMP NOT NULL, kind VARCHAR(16) NOT NULL, payload VARCHAR(200) NOT NULL)");
    assertThat(events.createIndexes()).containsExactly("CREATE INDEX events_kind ON events (kind, id)");
    assertThat(Events.P1).isEqualTo("SELECT * FROM events WHERE kind = ? ORDER BY id");
    assertThat(Events.P1_PAGE).isEqualTo("SELECT * FROM events WHERE kind = ? ORDER BY id LIMIT 1000 OFFSET ?");
  }

  @Test
  void storedRowsAreTheGeneratedRows() throws SQLException {
    List<Events.Event> stored = new ArrayList<>();
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM events ORDER BY id")) {
      while (rs.next()) {
        stored.add(Events.read(rs));
      }
    }
    assertThat(stored).containsExactlyElementsOf(generated(events));
  }

  @Test
  void valuesAreInTheirDocumentedRanges() {
    LocalDateTime previous = LocalDateTime.MIN;
    for (Events.Event e : generated(events)) {
      LocalDateTime slot = Events.EPOCH.plusSeconds((e.id() - 1) * Events.SECONDS_PER_EVENT);
      assertThat(e.ts()).isAfterOrEqualTo(slot).isBefore(slot.plusSeconds(Events.SECONDS_PER_EVENT))
          .isAfter(previous);
      assertThat(e.ts().getNano()).isZero();
      previous = e.ts();
      assertThat(Events.KINDS).contains(e.kind());
      assertThat(e.kind()).isEqualTo(events.kind(e.id()));
      assertThat(e.payload()).hasSizeBetween(Events.MIN_PAYLOAD, Events.MAX_PAYLOAD).matches("[A-Za-z0-9 .]+");
    }
    assertThat(Events.KINDS).hasSize(Events.KIND_COUNT).doesNotHaveDuplicates()
        .allSatisfy(k -> assertThat(k.length()).isLessThanOrEqualTo(16));
    assertThat(Events.offset(1)).isZero();
    assertThat(Events.offset(1000)).isEqualTo(999_000);
    assertThatThrownBy(() -> Events.offset(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void kindsAreUniformAndCountedAsStored() throws SQLException {
    Map<String, Long> stored = new HashMap<>();
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT kind, COUNT(*) FROM events GROUP BY kind")) {
      while (rs.next()) {
        stored.put(rs.getString(1), rs.getLong(2));
      }
    }
    Map<String, Long> counts = events.kindCounts();
    assertThat(counts.keySet()).containsExactlyElementsOf(Events.KINDS);
    assertThat(stored).isEqualTo(counts);
    assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ROWS);
    double expected = ROWS / (double) Events.KIND_COUNT;
    // Within 5 standard deviations of the binomial count (5 * 61 rows).
    counts.forEach((kind, n) -> assertThat((double) n).as(kind)
        .isCloseTo(expected, within(5 * Math.sqrt(expected * 0.75))));
    long smallest = counts.values().stream().mapToLong(Long::longValue).min().orElseThrow();
    assertThat(events.fullPagesPerKind()).isEqualTo(smallest / Events.PAGE_SIZE).isEqualTo(4);
  }

  @Test
  void pagesOnAccelAreP1EvaluatedOnTheGenerator() throws SQLException {
    String kind = "view";
    List<Events.Event> whole = new ArrayList<>();
    for (Events.Event e : generated(events)) {
      if (e.kind().equals(kind)) {
        whole.add(e);
      }
    }
    // 5,039 rows of "view" at this size: five full pages, a sixth of 39 rows, and an empty seventh.
    assertThat(whole).hasSize(5_039);
    Map<Long, Integer> pageSizes = new HashMap<>();
    try (PreparedStatement page = db.prepareStatement(Events.P1_PAGE)) {
      page.setString(1, kind);
      for (long p = 1; p <= 7; p++) {
        int from = (int) Math.min(Events.offset(p), whole.size());
        List<Events.Event> expected = whole.subList(from, Math.min(from + Events.PAGE_SIZE, whole.size()));
        assertThat(events.p1(kind, Events.offset(p), Events.PAGE_SIZE)).as("generator page " + p).isEqualTo(expected);
        page.setLong(2, Events.offset(p));
        List<Events.Event> rows = rows(page);
        assertThat(rows).as("page " + p).isEqualTo(expected);
        pageSizes.put(p, rows.size());
      }
    }
    assertThat(pageSizes).containsEntry(1L, 1_000).containsEntry(5L, 1_000).containsEntry(6L, 39).containsEntry(7L, 0);
  }

  @Test
  void theWholeResultThroughACursorOfOnePageAFetchIsP1EvaluatedOnTheGenerator() throws SQLException {
    try (PreparedStatement p1 = db.prepareStatement(Events.P1)) {
      p1.setFetchSize(Events.PAGE_SIZE);
      for (String kind : Events.KINDS) {
        p1.setString(1, kind);
        Events.Digester read = new Events.Digester();
        try (ResultSet rs = p1.executeQuery()) {
          while (rs.next()) {
            read.add(Events.read(rs));
          }
        }
        Events.Digest expected = events.p1Digest(kind);
        assertThat(read.digest()).as(kind).isEqualTo(expected);
        assertThat(expected.rows()).isEqualTo(events.kindCounts().get(kind));
      }
    }
  }

  @Test
  void theDigestDependsOnEveryRowAndTheirOrder() {
    List<Events.Event> page = events.p1("click", 0, 3);
    Events.Digest digest = digest(page);
    assertThat(digest).isEqualTo(digest(events.p1("click", 0, 3)));
    assertThat(digest.rows()).isEqualTo(3);
    assertThat(digest(List.of(page.get(1), page.get(0), page.get(2)))).isNotEqualTo(digest);
    Events.Event first = page.get(0);
    List<Events.Event> changed = new ArrayList<>(page);
    changed.set(0, new Events.Event(first.id(), first.ts(), first.kind(), first.payload() + "."));
    assertThat(digest(changed)).isNotEqualTo(digest);
    assertThat(digest(page.subList(0, 2))).isNotEqualTo(digest);
  }

  @Test
  void pagesOnPostgresqlAreP1EvaluatedOnTheGenerator() throws SQLException {
    Events small = new Events(5_000);
    String schema = "events_test";
    try (Connection pg = PostgresService.connect(schema)) {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        s.execute("CREATE SCHEMA " + schema);
      }
      small.load(pg);
      try (PreparedStatement page = pg.prepareStatement(Events.P1_PAGE)) {
        page.setString(1, "search");
        page.setLong(2, Events.offset(1));
        assertThat(rows(page)).hasSize(Events.PAGE_SIZE).isEqualTo(small.p1("search", 0, Events.PAGE_SIZE));
      }
      // A cursor with fetch size: pgJDBC fetches through a portal only inside a transaction.
      pg.setAutoCommit(false);
      try (PreparedStatement p1 = pg.prepareStatement(Events.P1)) {
        p1.setFetchSize(Events.PAGE_SIZE);
        p1.setString(1, "search");
        assertThat(digest(rows(p1))).isEqualTo(small.p1Digest("search"));
      }
      pg.commit();
      pg.setAutoCommit(true);
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameRowsAndADifferentSeedDifferentRows() {
    Events again = new Events(ROWS);
    assertThat(generated(again)).isEqualTo(generated(events));
    assertThat(again.kindCounts()).isEqualTo(events.kindCounts());
    assertThat(again.p1Digest("purchase")).isEqualTo(events.p1Digest("purchase"));
    // Row k is a function of (seed, k) only: not of the size nor of the batch size.
    Events bigger = new Events(ROWS * 2, Events.DEFAULT_SEED, 7);
    for (long id = 1; id <= ROWS; id += 97) {
      assertThat(bigger.event(id)).isEqualTo(events.event(id));
    }
    Events other = new Events(ROWS, 43, BatchLoader.DEFAULT_BATCH_SIZE);
    assertThat(other.event(1)).isNotEqualTo(events.event(1));
    assertThat(other.p1Digest("purchase")).isNotEqualTo(events.p1Digest("purchase"));
  }

  @Test
  void generatedValuesArePinned() {
    // Golden values: if these change, every stored benchmark result was made on other data.
    Events full = new Events();
    Events.Event first = full.event(1);
    assertThat(first.ts()).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 28));
    assertThat(first.kind()).isEqualTo("purchase");
    assertThat(first.payload()).hasSize(122).startsWith(".K1n2k5HTCZu4moDiq0W");
    Events.Event last = full.event(1_000_000);
    assertThat(last.ts()).isEqualTo(LocalDateTime.of(2024, 12, 13, 5, 19, 42));
    assertThat(last.kind()).isEqualTo("search");
    assertThat(last.payload()).hasSize(195).startsWith("UuYZdJ BOYc9.Kf.q l.");
    assertThat(full.kindCounts()).containsExactly(Map.entry("click", 250_514L), Map.entry("view", 249_832L),
        Map.entry("search", 249_562L), Map.entry("purchase", 250_092L));
    assertThat(full.fullPagesPerKind()).isEqualTo(249);
  }

  @Test
  void sizesAndNamesFollowTheWorkload() {
    assertThat(Workloads.names()).contains("events");
    Workload w = Workloads.byName("Events");
    assertThat(w).isInstanceOf(Events.class);
    assertThat(((Events) w).rows()).isEqualTo(1_000_000);
    assertThat(w.seed()).isEqualTo(42);
    assertThat(w.sizeLabel()).isEqualTo("1000000");
    assertThat(new Events(10, 7, 5).sizeLabel()).isEqualTo("10_s7");
    assertThat(WorkloadData.accelDir(w).toString()).endsWith("bench-data/events-1000000");
    assertThat(WorkloadData.postgresSchema(w)).isEqualTo("events_1000000");
    assertThat(w.fingerprint()).startsWith("events(rows=1000000, seed=42) schema=").endsWith(" v1");
    assertThat(w.dropTables()).containsExactly("DROP TABLE IF EXISTS events");
  }

  private static List<Events.Event> generated(Events w) {
    List<Events.Event> all = new ArrayList<>();
    for (long id = 1; id <= w.rows(); id++) {
      all.add(w.event(id));
    }
    return all;
  }

  private static List<Events.Event> rows(PreparedStatement ps) throws SQLException {
    List<Events.Event> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rows.add(Events.read(rs));
      }
    }
    return rows;
  }

  private static Events.Digest digest(List<Events.Event> rows) {
    Events.Digester d = new Events.Digester();
    rows.forEach(d::add);
    return d.digest();
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
