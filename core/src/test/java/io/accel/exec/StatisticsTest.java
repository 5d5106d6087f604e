package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.accel.catalog.IndexDef;
import io.accel.catalog.StatisticsCodec;
import io.accel.catalog.TableDef;
import io.accel.catalog.TableStatistics;
import io.accel.sql.AccelException;
import io.accel.sql.CommandParser;
import io.accel.sql.SqlState;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statistics computed by ANALYZE match the data; row counts follow commits; they persist and go with DROP. */
class StatisticsTest {
  private static final AtomicInteger STORES = new AtomicInteger();

  @TempDir
  Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private SimpleMeterRegistry registry;

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private Database memory() throws Exception {
    registry = new SimpleMeterRegistry();
    Database db = Database.open(Store.openInMemory("stats-" + STORES.incrementAndGet(),
        new StoreOptions(8 << 20, false)), registry);
    open.add(db);
    return db;
  }

  private Database file() throws Exception {
    registry = new SimpleMeterRegistry();
    return Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)), registry);
  }

  private Session session(Database db) {
    Session s = new Session(db);
    open.add(s);
    return s;
  }

  private static void run(Session session, String sql) {
    new CommandExecutor(session).execute(CommandParser.parse(sql).orElseThrow());
  }

  private static TableDef table(Database db, String name) {
    return db.catalog().table(name).orElseThrow();
  }

  private static IndexDef index(Database db, String table, String index) {
    return table(db, table).index(index).orElseThrow();
  }

  /** Runs one statement writing through a TableWriter, as the JDBC layer does. */
  private static void statement(Session s, String table, java.util.function.Consumer<TableWriter> body) {
    Object key = new Object();
    TxnContext ctx = s.beginStatement(key);
    try {
      body.accept(new TableWriter(s.database(), ctx, table(s.database(), table)));
    } catch (RuntimeException e) {
      s.statementFailed(key);
      s.releaseStatement(key);
      throw e;
    }
    s.statementSucceeded(key);
    s.releaseStatement(key);
  }

  private static void insert(Session s, String table, List<Object[]> rows) {
    statement(s, table, w -> w.insert(rows));
  }

  private static List<Object[]> rows(Database db, String table) {
    List<Object[]> out = new ArrayList<>();
    try (TxnContext ctx = db.begin()) {
      new TableReader(db, table(db, table)).forEach(ctx, (k, r) -> out.add(r));
    }
    return out;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static long distinct(List<Object[]> rows, int... columns) {
    Set<List<Object>> seen = new HashSet<>();
    for (Object[] r : rows) {
      List<Object> key = new ArrayList<>();
      for (int c : columns) {
        key.add(r[c] instanceof BigDecimal d ? d.stripTrailingZeros() : r[c]);
      }
      seen.add(key);
    }
    return seen.size();
  }

  private static long nonNullDistinct(List<Object[]> rows, int column) {
    return rows.stream().map(r -> r[column]).filter(Objects::nonNull)
        .map(v -> v instanceof BigDecimal d ? d.stripTrailingZeros() : v).distinct().count();
  }

  private static long nulls(List<Object[]> rows, int column) {
    return rows.stream().filter(r -> r[column] == null).count();
  }

  private static <T> Map<T, Long> counts(List<Object[]> rows, int column, Function<Object, T> key) {
    Map<T, Long> counts = new HashMap<>();
    for (Object[] r : rows) {
      if (r[column] != null) {
        counts.merge(key.apply(r[column]), 1L, Long::sum);
      }
    }
    return counts;
  }

  @Test
  void analyzeFindsTheTrueValues() throws Exception {
    Database db = memory();
    Session s = session(db);
    run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b VARCHAR(10), c NUMERIC(10,2), d BIGINT,"
        + " u INTEGER, g CHAR(4), dt DATE, e NUMERIC)");
    run(s, "CREATE INDEX t_ab ON t (a, b)");
    run(s, "CREATE INDEX t_cd ON t (c DESC, d)");
    run(s, "CREATE UNIQUE INDEX t_u ON t (u)");
    Random random = new Random(42);
    List<Object[]> data = new ArrayList<>();
    String[] gs = {"x", "yy", "zzz "};
    BigDecimal[] es = {new BigDecimal("1.5"), new BigDecimal("2"), new BigDecimal("2.5"), new BigDecimal("2.50")};
    int n = 3000;
    for (int i = 0; i < n; i++) {
      data.add(new Object[] {
          i,
          random.nextInt(10) == 0 ? null : random.nextInt(20),
          random.nextInt(20) == 0 ? null : "s" + random.nextInt(50),
          random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(300), 2),
          (long) random.nextInt(1500),
          random.nextInt(5) == 0 ? null : i * 7,
          gs[random.nextInt(gs.length)],
          19_000 + random.nextInt(5),
          random.nextInt(8) == 0 ? null : es[random.nextInt(es.length)]});
    }
    insert(s, "t", data);
    run(s, "ANALYZE t");
    List<Object[]> stored = rows(db, "t");
    assertThat(stored).hasSize(n);

    TableStatistics st = db.statistics().of(table(db, "t"));
    assertThat(st.analyzed()).isTrue();
    assertThat(st.rowCount()).isEqualTo(n);
    long ab = index(db, "t", "t_ab").id();
    long cd = index(db, "t", "t_cd").id();
    long u = index(db, "t", "t_u").id();
    assertThat(st.distinctPrefix(ab, 1)).isEqualTo(distinct(stored, 1));
    assertThat(st.distinctPrefix(ab, 2)).isEqualTo(distinct(stored, 1, 2));
    assertThat(st.distinctPrefix(cd, 1)).isEqualTo(distinct(stored, 3));
    assertThat(st.distinctPrefix(cd, 2)).isEqualTo(distinct(stored, 3, 4));
    // NULLs of the UNIQUE index count as one value, so the full prefix never exceeds the row count
    assertThat(st.distinctPrefix(u, 1)).isEqualTo(nonNullDistinct(stored, 5) + 1).isLessThanOrEqualTo(n);
    assertThat(st.distinctPrimaryKeyPrefix(1)).isEqualTo(n);

    for (int c = 0; c < 9; c++) {
      assertThat(st.nullFraction(c)).as("null fraction of column %d", c).isEqualTo((double) nulls(stored, c) / n);
    }
    assertThat(st.distinctValues(0)).hasValue(n);
    assertThat(st.distinctValues(1)).hasValue(nonNullDistinct(stored, 1));
    assertThat(st.distinctValues(2)).hasValue(nonNullDistinct(stored, 2));
    assertThat(st.distinctValues(3)).hasValue(nonNullDistinct(stored, 3));
    assertThat(st.distinctValuesExact(3)).isTrue();
    assertThat(st.distinctValues(4)).hasValue(nonNullDistinct(stored, 4)); // KMV, exact below 2048 values
    assertThat(st.distinctValues(5)).hasValue(nonNullDistinct(stored, 5));
    assertThat(st.distinctValues(8)).hasValue(3); // 2.5 and 2.50 are one value

    // most common values: every value of a low-cardinality column, whatever the Java class of the lookup
    Map<Object, Long> as = counts(stored, 1, v -> v);
    for (Map.Entry<Object, Long> e : as.entrySet()) {
      double expected = (double) e.getValue() / n;
      int v = (Integer) e.getKey();
      assertThat(st.frequency(1, v)).hasValue(expected);
      assertThat(st.frequency(1, (long) v)).hasValue(expected);
      assertThat(st.frequency(1, BigDecimal.valueOf(v * 100L, 2))).hasValue(expected);
      assertThat(st.frequency(1, (double) v)).hasValue(expected);
    }
    assertThat(st.frequency(1, 99)).hasValue(0);
    assertThat(st.frequency(1, 5.5)).hasValue(0);
    assertThat(st.frequency(1, 1L << 40)).hasValue(0);
    assertThat(st.frequency(1, null)).hasValue(0);
    assertThat(st.frequency(1, "five")).isEmpty();
    assertThat(st.frequency(4, 1L)).isEmpty(); // more than 64 distinct values: no list
    assertThat(st.mostCommonValues(4)).isEmpty();
    assertThat(st.mostCommonValues(1).orElseThrow()).hasSize(as.size());
    assertThat(st.mostCommonValues(1).orElseThrow().stream().mapToDouble(TableStatistics.ValueFrequency::frequency)
        .sum()).isCloseTo(1 - st.nullFraction(1), within(1e-9));

    Map<String, Long> bs = counts(stored, 2, Object::toString);
    for (Map.Entry<String, Long> e : bs.entrySet()) {
      assertThat(st.frequency(2, e.getKey())).hasValue((double) e.getValue() / n);
    }
    Map<String, Long> g = counts(stored, 6, v -> v.toString().stripTrailing());
    assertThat(st.frequency(6, "yy  ")).hasValue((double) g.get("yy") / n);
    assertThat(st.frequency(6, "zzz")).hasValue((double) g.get("zzz") / n);
    Map<Object, Long> dts = counts(stored, 7, v -> v);
    assertThat(st.frequency(7, 19_001)).hasValue((double) dts.get(19_001) / n);
    assertThat(st.frequency(7, LocalDate.ofEpochDay(19_001))).hasValue((double) dts.get(19_001) / n);
    Map<BigDecimal, Long> e = counts(stored, 8, v -> ((BigDecimal) v).stripTrailingZeros());
    double twoAndAHalf = (double) e.get(new BigDecimal("2.5")) / n;
    assertThat(st.frequency(8, new BigDecimal("2.500"))).hasValue(twoAndAHalf);
    assertThat(st.frequency(8, 2.5d)).hasValue(twoAndAHalf);
    assertThat(st.frequency(8, 2)).hasValue((double) e.get(new BigDecimal("2")) / n);
  }

  @Test
  void rowCountFollowsCommittedWritesOnly() throws Exception {
    Database db = memory();
    Session s = session(db);
    run(s, "CREATE TABLE r (id INTEGER PRIMARY KEY, k INTEGER)");
    run(s, "CREATE INDEX r_k ON r (k)");
    List<Object[]> first = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      first.add(new Object[] {i, i % 10});
    }
    insert(s, "r", first);
    run(s, "ANALYZE r");
    Statistics stats = db.statistics();
    long k = index(db, "r", "r_k").id();
    TableStatistics st = stats.of(table(db, "r"));
    assertThat(st.rowCount()).isEqualTo(100);
    assertThat(st.distinctPrefix(k, 1)).isEqualTo(10);
    assertThat(stats.changesSinceAnalyze(table(db, "r"))).isZero();

    List<Object[]> more = new ArrayList<>();
    for (int i = 100; i < 150; i++) {
      more.add(new Object[] {i, i % 10});
    }
    insert(s, "r", more);
    st = stats.of(table(db, "r"));
    assertThat(st.rowCount()).isEqualTo(150);
    assertThat(st.analyzedRowCount()).isEqualTo(100);
    assertThat(st.distinctValues(0)).hasValue(150); // unique: grows with the rows
    assertThat(st.distinctPrimaryKeyPrefix(1)).isEqualTo(150);
    assertThat(st.distinctPrefix(k, 1)).isEqualTo(10); // not unique: keeps its value

    statement(s, "r", w -> w.delete(first.subList(0, 30)));
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(120);
    assertThat(stats.changesSinceAnalyze(table(db, "r"))).isEqualTo(80);

    // a rolled-back block counts nothing, a committed one counts when it commits
    s.begin();
    insert(s, "r", List.of(new Object[] {1000, 1}, new Object[] {1001, 1}));
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(120);
    s.rollback();
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(120);
    s.begin();
    insert(s, "r", List.of(new Object[] {1000, 1}, new Object[] {1001, 1}));
    s.commit();
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(122);

    // a failed statement counts nothing, nor does a block a failure aborted
    assertThatThrownBy(() -> insert(s, "r", List.of(new Object[] {2000, 1}, new Object[] {50, 1})))
        .isInstanceOf(AccelException.class);
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(122);
    s.begin();
    insert(s, "r", List.<Object[]>of(new Object[] {3000, 1}));
    assertThatThrownBy(() -> insert(s, "r", List.<Object[]>of(new Object[] {50, 1}))).isInstanceOf(AccelException.class);
    s.commit();
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(122);

    // updates change no count of rows but count as changes
    long changes = stats.changesSinceAnalyze(table(db, "r"));
    statement(s, "r", w -> w.update(List.<Object[]>of(new Object[] {60, 0}), List.<Object[]>of(new Object[] {60, 5})));
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(122);
    assertThat(stats.changesSinceAnalyze(table(db, "r"))).isEqualTo(changes + 1);

    run(s, "ANALYZE r");
    assertThat(stats.of(table(db, "r")).rowCount()).isEqualTo(rows(db, "r").size()).isEqualTo(122);
    assertThat(stats.of(table(db, "r")).analyzedRowCount()).isEqualTo(122);
    assertThat(stats.changesSinceAnalyze(table(db, "r"))).isZero();
  }

  @Test
  void autoAnalyzeRunsAfterEnoughChanges() throws Exception {
    Database db = memory();
    Session s = session(db);
    run(s, "CREATE TABLE big (id INTEGER PRIMARY KEY, k INTEGER)");
    run(s, "CREATE INDEX big_k ON big (k)");
    long k = index(db, "big", "big_k").id();
    long version = db.statistics().version();
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      rows.add(new Object[] {i, i % 37});
    }
    insert(s, "big", rows);
    await("the first automatic analysis", () -> db.statistics().of(table(db, "big")).analyzedRowCount() == 1200);
    TableStatistics st = db.statistics().of(table(db, "big"));
    assertThat(st.distinctPrefix(k, 1)).isEqualTo(37);
    assertThat(st.rowCount()).isEqualTo(1200);
    assertThat(db.statistics().version()).isGreaterThan(version);
    assertThat(registry.get("accel.analyze.runs").tag("trigger", "auto").counter().count()).isGreaterThanOrEqualTo(1);
    assertThat(registry.get("accel.analyze.runs").tag("trigger", "manual").counter().count()).isZero();

    // below 10% + 1,000 changes: no new analysis; above: one
    List<Object[]> few = new ArrayList<>();
    for (int i = 1200; i < 1300; i++) {
      few.add(new Object[] {i, 100 + i % 50});
    }
    insert(s, "big", few);
    assertThat(db.statistics().of(table(db, "big")).analyzedRowCount()).isEqualTo(1200);
    List<Object[]> many = new ArrayList<>();
    for (int i = 1300; i < 2400; i++) {
      many.add(new Object[] {i, 100 + i % 50});
    }
    insert(s, "big", many);
    await("the second automatic analysis", () -> db.statistics().of(table(db, "big")).analyzedRowCount() == 2400);
    assertThat(db.statistics().of(table(db, "big")).distinctPrefix(k, 1)).isEqualTo(37 + 50);
  }

  @Test
  void versionChangesWithSignificantAnalysesAndDdl() throws Exception {
    Database db = memory();
    Session s = session(db);
    Statistics stats = db.statistics();
    long v0 = stats.version();
    run(s, "CREATE TABLE v (id INTEGER PRIMARY KEY, k INTEGER)");
    long v1 = stats.version();
    assertThat(v1).isGreaterThan(v0);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(new Object[] {i, i % 10});
    }
    insert(s, "v", rows);
    assertThat(stats.version()).isEqualTo(v1);
    run(s, "ANALYZE v");
    long v2 = stats.version();
    assertThat(v2).as("first analysis").isGreaterThan(v1);
    run(s, "ANALYZE v");
    assertThat(stats.version()).as("nothing changed").isEqualTo(v2);
    insert(s, "v", List.of(rows.stream().limit(10).map(r -> new Object[] {(Integer) r[0] + 100, r[1]})
        .toArray(Object[][]::new)));
    run(s, "ANALYZE v");
    assertThat(stats.version()).as("10% more rows").isEqualTo(v2);
    List<Object[]> more = new ArrayList<>();
    for (int i = 200; i < 300; i++) {
      more.add(new Object[] {i, i % 10});
    }
    insert(s, "v", more);
    run(s, "ANALYZE v");
    long v3 = stats.version();
    assertThat(v3).as("twice the rows of the statistics plans were made with").isGreaterThan(v2);
    run(s, "CREATE INDEX v_k ON v (k)");
    long v4 = stats.version();
    assertThat(v4).isGreaterThan(v3);
    assertThat(stats.of(table(db, "v")).hasIndex(index(db, "v", "v_k").id())).isTrue();
    assertThat(stats.of(table(db, "v")).distinctPrefix(index(db, "v", "v_k").id(), 1)).isEqualTo(10);
    run(s, "DROP INDEX v_k");
    assertThat(stats.version()).isGreaterThan(v4);
  }

  @Test
  void createIndexComputesItsStatistics() throws Exception {
    Database db = memory();
    Session s = session(db);
    run(s, "CREATE TABLE c (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)");
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      rows.add(new Object[] {i, i % 7, i % 11});
    }
    insert(s, "c", rows);
    // never analyzed: the new index makes the whole table analyzed
    run(s, "CREATE INDEX c_a ON c (a, b)");
    TableStatistics st = db.statistics().of(table(db, "c"));
    assertThat(st.analyzedRowCount()).isEqualTo(500);
    assertThat(st.distinctPrefix(index(db, "c", "c_a").id(), 1)).isEqualTo(7);
    assertThat(st.distinctPrefix(index(db, "c", "c_a").id(), 2)).isEqualTo(77);
    // nothing changed since: only the new index is walked
    long analyzedAt = st.analyzedAt();
    run(s, "CREATE INDEX c_b ON c (b DESC)");
    st = db.statistics().of(table(db, "c"));
    assertThat(st.analyzedAt()).isEqualTo(analyzedAt);
    assertThat(st.distinctPrefix(index(db, "c", "c_b").id(), 1)).isEqualTo(11);
    assertThat(st.distinctValues(2)).hasValue(11);
    assertThat(st.distinctPrefix(index(db, "c", "c_a").id(), 2)).isEqualTo(77);
  }

  @Test
  void statisticsSurviveReopenAndGoWithDrop() throws Exception {
    TableStatistics before;
    long goneId;
    try (Database db = file(); Session s = new Session(db)) {
      run(s, "CREATE TABLE f (id INTEGER PRIMARY KEY, k INTEGER, s TEXT)");
      run(s, "CREATE INDEX f_k ON f (k, s)");
      run(s, "CREATE TABLE gone (id INTEGER)");
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        rows.add(new Object[] {i, i % 9, i % 4 == 0 ? null : "v" + (i % 3)});
      }
      insert(s, "f", rows);
      insert(s, "gone", List.of(new Object[] {1}, new Object[] {2}));
      run(s, "ANALYZE");
      goneId = table(db, "gone").id();
      assertThat(db.store().db().get(db.store().meta(), StatisticsCodec.key(goneId))).isNotNull();
      run(s, "DROP TABLE gone");
      assertThat(db.store().db().get(db.store().meta(), StatisticsCodec.key(goneId))).isNull();
      assertThat(db.statistics().of(new TableDef(goneId, "gone", List.of(), List.of(), List.of(), 1)).analyzed())
          .isFalse();
      insert(s, "f", List.of(new Object[] {1000, 1, "x"}, new Object[] {1001, 2, "y"}));
      before = db.statistics().of(table(db, "f"));
      assertThat(before.rowCount()).isEqualTo(202);
    }
    long k;
    try (Database db = file(); Session s = new Session(db)) {
      TableStatistics after = db.statistics().of(table(db, "f"));
      k = index(db, "f", "f_k").id();
      assertThat(after.analyzedAt()).isEqualTo(before.analyzedAt());
      assertThat(after.rowCount()).isEqualTo(202);
      assertThat(after.analyzedRowCount()).isEqualTo(200);
      assertThat(db.statistics().changesSinceAnalyze(table(db, "f"))).isEqualTo(2);
      assertThat(after.distinctPrefix(k, 1)).isEqualTo(before.distinctPrefix(k, 1)).isEqualTo(9);
      assertThat(after.distinctPrefix(k, 2)).isEqualTo(before.distinctPrefix(k, 2));
      for (int c = 0; c < 3; c++) {
        assertThat(after.nullFraction(c)).isEqualTo(before.nullFraction(c));
        assertThat(after.distinctValues(c)).isEqualTo(before.distinctValues(c));
      }
      assertThat(after.nullFraction(2)).isEqualTo(50 / 200.0);
      assertThat(after.frequency(2, "v1")).isEqualTo(before.frequency(2, "v1"));
      assertThat(after.mostCommonValues(2)).isEqualTo(before.mostCommonValues(2));
      assertThat(db.store().db().get(db.store().meta(), StatisticsCodec.key(goneId))).isNull();
      run(s, "DROP INDEX f_k");
      assertThat(db.statistics().of(table(db, "f")).hasIndex(k)).isFalse();
    }
    try (Database db = file(); Session s = new Session(db)) {
      TableDef f = table(db, "f");
      assertThat(db.statistics().of(f).hasIndex(k)).isFalse();
      assertThat(db.statistics().of(f).analyzedRowCount()).isEqualTo(200);
      run(s, "DROP TABLE f");
      assertThat(db.store().db().get(db.store().meta(), StatisticsCodec.key(f.id()))).isNull();
    }
  }

  @Test
  void analyzeCommand() throws Exception {
    Database db = memory();
    Session s = session(db);
    run(s, "CREATE TABLE a1 (id INTEGER PRIMARY KEY)");
    run(s, "CREATE TABLE a2 (x TEXT)");
    insert(s, "a2", List.of(new Object[] {"p"}, new Object[] {null}));
    assertThatThrownBy(() -> run(s, "ANALYZE a1, nope"))
        .isInstanceOfSatisfying(AccelException.class, e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
    assertThat(db.statistics().of(table(db, "a1")).analyzed()).isFalse();
    run(s, "ANALYZE");
    assertThat(db.statistics().of(table(db, "a1")).analyzed()).isTrue();
    assertThat(db.statistics().of(table(db, "a2")).nullFraction(0)).isEqualTo(0.5);
    // hidden row id: no primary key statistics, but a row count
    assertThat(db.statistics().of(table(db, "a2")).rowCount()).isEqualTo(2);
    s.begin();
    run(s, "ANALYZE VERBOSE a2");
    s.commit();
    assertThat(registry.get("accel.analyze.runs").tag("trigger", "manual").counter().count()).isEqualTo(3);
    assertThat(registry.get("accel.analyze.runs").counters()).hasSize(2);
  }
}
