package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.remote.TypedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LIMIT/OFFSET pages through the cursor cache: the same rows as re-execution, with far fewer entries read. */
class PagingTest {
  private static final String PAGE = "SELECT id, payload FROM ev WHERE kind = ? ORDER BY id LIMIT ? OFFSET ?";
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private Database db;
  private Session cached;
  private Session plain;
  private int keys;

  @BeforeEach
  void open() throws Exception {
    db = Database.open(Store.openInMemory("paging-" + System.nanoTime(), new StoreOptions(8 << 20, false)), registry);
    cached = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), null, 10));
    plain = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), null, 0));
    cached.execute("c", "CREATE TABLE ev (id BIGINT PRIMARY KEY, kind VARCHAR(8) NOT NULL, payload VARCHAR(20))");
    cached.execute("c", "CREATE INDEX ev_kind ON ev (kind, id) INCLUDE (payload)");
    StringBuilder insert = new StringBuilder("INSERT INTO ev VALUES ");
    for (int i = 0; i < 400; i++) {
      insert.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'k").append(i % 4).append("', 'p")
          .append(i).append("')");
    }
    cached.execute("c", insert.toString());
    cached.execute("c", "ANALYZE ev");
  }

  @AfterEach
  void close() {
    cached.close();
    plain.close();
    db.close();
  }

  private List<Object> page(Session s, String kind, int limit, int offset) {
    Prepared p = s.prepare(PAGE);
    Result r = s.execute("p" + keys++, p, List.of(TypedValue.ofLocal(Rep.STRING, kind),
        TypedValue.ofLocal(Rep.INTEGER, limit), TypedValue.ofLocal(Rep.INTEGER, offset)), new AtomicBoolean(), 0);
    List<Object> rows = new ArrayList<>();
    while (r.cursor().hasNext()) {
      Object[] row = (Object[]) r.cursor().next();
      rows.add(row[0] + ":" + row[1]);
    }
    r.close();
    return rows;
  }

  private double counter(String name) {
    return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  @Test
  void pagesResumeTheCursorAndEqualReExecution() {
    List<Object> walked = new ArrayList<>();
    double entriesBefore = counter("accel.index.entries.read");
    for (int offset = 0; offset < 100; offset += 7) {
      List<Object> cachedPage = page(cached, "k1", 7, offset);
      walked.addAll(cachedPage);
      assertThat(registry.get("accel.cursor.population").gauge().value())
          .as("suspended until the last page has been read").isEqualTo(offset + 7 < 100 ? 1 : 0);
    }
    double cachedEntries = counter("accel.index.entries.read") - entriesBefore;
    assertThat(walked).hasSize(100);
    assertThat(walked.get(0)).isEqualTo("1:p1");
    assertThat(walked.get(99)).isEqualTo("397:p397");
    assertThat(counter("accel.cursor.lookups")).isEqualTo(15);
    assertThat(counter("accel.cursor.misses")).as("only the first page executes").isEqualTo(1);
    double plainBefore = counter("accel.index.entries.read");
    List<Object> reExecuted = new ArrayList<>();
    for (int offset = 0; offset < 100; offset += 7) {
      reExecuted.addAll(page(plain, "k1", 7, offset));
    }
    double plainEntries = counter("accel.index.entries.read") - plainBefore;
    assertThat(walked).isEqualTo(reExecuted);
    assertThat(cachedEntries).as("the walk reads each entry about once").isLessThanOrEqualTo(100 + 15);
    assertThat(plainEntries).as("re-execution reads the skipped rows again").isGreaterThan(600);
  }

  @Test
  void aCommitToTheTableDropsTheCursorAndThePageSeesIt() {
    assertThat(page(cached, "k2", 5, 0)).containsExactly("2:p2", "6:p6", "10:p10", "14:p14", "18:p18");
    plain.execute("w", "DELETE FROM ev WHERE id = 22");
    List<Object> next = page(cached, "k2", 5, 5);
    assertThat(next).isEqualTo(page(plain, "k2", 5, 5)).containsExactly("26:p26", "30:p30", "34:p34", "38:p38",
        "42:p42");
    assertThat(counter("accel.cursor.drops")).isEqualTo(1);
    // a commit to another table leaves the cursor valid
    plain.execute("w", "CREATE TABLE other (x INTEGER)");
    page(cached, "k2", 5, 10);
    plain.execute("w", "INSERT INTO other VALUES (1)");
    double misses = counter("accel.cursor.misses");
    assertThat(page(cached, "k2", 5, 15)).isEqualTo(page(plain, "k2", 5, 15));
    assertThat(counter("accel.cursor.misses")).isEqualTo(misses);
  }

  @Test
  void notUsedInsideABlockOrWhenThePlanSorts() {
    cached.execute("b", "BEGIN");
    page(cached, "k1", 5, 0);
    page(cached, "k1", 5, 5);
    cached.execute("b", "COMMIT");
    assertThat(counter("accel.cursor.lookups")).isZero();
    Result r = cached.execute("s", "SELECT id FROM ev ORDER BY payload LIMIT 5 OFFSET 5");
    assertThat(r.cursor().fetch(10)).hasSize(5);
    assertThat(counter("accel.cursor.lookups")).isZero();
  }

  @Test
  void literalPagesThroughStatementTextShareTheCursor() {
    List<Object> first = cached.execute("t", "SELECT id FROM ev WHERE kind = 'k3' ORDER BY id LIMIT 3 OFFSET 0")
        .cursor().fetch(10);
    List<Object> second = cached.execute("t", "SELECT id FROM ev WHERE kind = 'k3' ORDER BY id LIMIT 3 OFFSET 3")
        .cursor().fetch(10);
    assertThat(first).containsExactly(3L, 7L, 11L);
    assertThat(second).containsExactly(15L, 19L, 23L);
    assertThat(counter("accel.cursor.misses")).isEqualTo(1);
    assertThat(counter("accel.cursor.lookups")).isEqualTo(2);
  }
}
