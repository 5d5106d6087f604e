package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A COPY of more than one batch into an empty table of a directory store loads it as table files (BulkLoad): what a
 * user sees must be what the row-by-row path gives, the same rows, indexes, errors and atomicity.
 */
class BulkCopyTest extends EngineTestBase {
  @TempDir
  Path dir;

  private long runBytes;

  @BeforeEach
  @Override
  protected void openSession() throws Exception {
    runBytes = BulkLoad.runBytes;
    db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)), new SimpleMeterRegistry());
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
  }

  @AfterEach
  void restoreRunBytes() {
    BulkLoad.runBytes = runBytes;
  }

  private long copyIn(Session session, String sql, String data) {
    CopyIn in = session.copyIn("copy" + keys++, sql);
    byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i += 8192) {
      in.write(bytes, i, Math.min(8192, bytes.length - i));
    }
    return in.finish();
  }

  private long copyIn(String sql, String data) {
    return copyIn(s, sql, data);
  }

  private double bulkRows() {
    var c = db.meters().find("accel.copy.bulk.rows").tags(db.meterTags()).counter();
    return c == null ? 0 : c.count();
  }

  /** Rows {@code id, id % 97, 'name-' || id} for the ids in a shuffled order. */
  private static String rowsText(List<Integer> ids) {
    StringBuilder b = new StringBuilder();
    for (int id : ids) {
      b.append(id).append('\t').append(id % 97).append('\t').append("name-").append(id).append('\n');
    }
    return b.toString();
  }

  private static List<Integer> shuffled(int n, long seed) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      ids.add(i);
    }
    Collections.shuffle(ids, new Random(seed));
    return ids;
  }

  private List<Path> leftoverFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().startsWith("ingest-")).toList();
    }
  }

  @Test
  void aLargeCopyIntoAnEmptyTableMatchesTheSameRowsInsertedRowByRow() throws Exception {
    BulkLoad.runBytes = 64 << 10; // many runs, overlapping: the merge is exercised
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    run("CREATE INDEX b_k ON b (k)");
    run("CREATE INDEX b_upper ON b (upper(name)) WHERE k < 10");
    run("CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    List<Integer> ids = shuffled(30_000, 7);
    assertThat(copyIn("COPY b FROM STDIN", rowsText(ids))).isEqualTo(30_000);
    assertThat(bulkRows()).isEqualTo(30_000);
    run("INSERT INTO r SELECT x, x % 97, 'name-' || x FROM generate_series(1, 30000) AS g(x)");
    assertThat(rows("SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM r) d")).containsExactly(0L);
    assertThat(rows("SELECT count(*), sum(id), count(DISTINCT k) FROM b")).containsExactly("[30000, 450015000, 97]");
    assertThat(rows("SELECT id FROM b WHERE k = 5 ORDER BY id LIMIT 3")).containsExactly(5, 102, 199);
    assertThat(rows("SELECT id FROM b WHERE upper(name) = 'NAME-200' AND k < 10")).containsExactly(200);
    assertThat(rows("SELECT name FROM b WHERE id = 29999")).containsExactly("name-29999");
    assertThat(rows("SELECT id, name FROM b ORDER BY id LIMIT 2")).containsExactly("[1, name-1]", "[2, name-2]");
    assertThat(leftoverFiles()).isEmpty();
    // the table now has rows: the next COPY writes row by row and meets the primary key
    assertThatThrownBy(() -> copyIn("COPY b FROM STDIN", rowsText(List.of(30_001, 5))))
        .isInstanceOf(AccelException.class).hasMessageContaining("duplicate key value violates unique constraint \"b_pkey\"");
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(30_000L);
    run("UPDATE b SET name = 'changed' WHERE id = 7");
    run("DELETE FROM b WHERE id = 8");
    assertThat(rows("SELECT id, name FROM b WHERE id IN (7, 8)")).containsExactly("[7, changed]");
  }

  @Test
  void theRowsSurviveReopeningTheStore() throws Exception {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    run("CREATE INDEX b_k ON b (k)");
    copyIn("COPY b FROM STDIN", rowsText(shuffled(12_000, 3)));
    assertThat(bulkRows()).isEqualTo(12_000);
    s.close();
    db.close();
    db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
    assertThat(rows("SELECT count(*), sum(k) FROM b")).containsExactly("[12000, 575103]");
    assertThat(rows("SELECT count(*) FROM b WHERE k = 96")).containsExactly(123L);
  }

  @Test
  void aPrimaryKeyLoadedTwiceFailsTheWholeCopyAndLeavesNothing() throws Exception {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    List<Integer> ids = shuffled(20_000, 11);
    ids.add(17, 12_345); // within one run
    assertThatThrownBy(() -> copyIn("COPY b FROM STDIN", rowsText(ids)))
        .isInstanceOf(AccelException.class)
        .hasMessageContaining("duplicate key value violates unique constraint \"b_pkey\"")
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("23505"))
        .satisfies(e -> assertThat(((AccelException) e).detail()).isEqualTo("Key (id)=(12345) already exists."));
    BulkLoad.runBytes = 32 << 10; // in different runs: found by the merge
    List<Integer> apart = shuffled(20_000, 12);
    apart.add(3);
    assertThatThrownBy(() -> copyIn("COPY b FROM STDIN", rowsText(apart)))
        .isInstanceOf(AccelException.class).hasMessageContaining("Key (id)=(3) already exists.");
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(0L);
    assertThat(leftoverFiles()).isEmpty();
    assertThat(copyIn("COPY b FROM STDIN", rowsText(shuffled(20_000, 13)))).isEqualTo(20_000);
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(20_000L);
    assertThat(bulkRows()).as("only the COPY that succeeded loaded rows").isEqualTo(20_000);
  }

  @Test
  void aBadValueOrAFailedCheckLateInTheCopyLeavesNothing() throws Exception {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL CHECK (k >= 0), name TEXT)");
    String good = rowsText(shuffled(15_000, 5));
    assertThatThrownBy(() -> copyIn("COPY b FROM STDIN", good + "15001\tx\tname\n"))
        .isInstanceOf(AccelException.class)
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("22P02"));
    assertThatThrownBy(() -> copyIn("COPY b FROM STDIN", good + "15001\t-1\tname\n"))
        .isInstanceOf(AccelException.class)
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("23514"));
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(0L);
    assertThat(leftoverFiles()).isEmpty();
  }

  @Test
  void aTableWithoutPrimaryKeyKeepsEveryRowEvenRepeated() {
    run("CREATE TABLE h (k INT, name TEXT)");
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 11_000; i++) {
      b.append(i % 10).append("\tsame\n");
    }
    assertThat(copyIn("COPY h FROM STDIN", b.toString())).isEqualTo(11_000);
    assertThat(rows("SELECT k, count(*) FROM h GROUP BY k ORDER BY k LIMIT 2")).containsExactly("[0, 1100]", "[1, 1100]");
    run("INSERT INTO h VALUES (99, 'after')");
    assertThat(rows("SELECT count(*) FROM h")).containsExactly(11_001L);
  }

  @Test
  void insideATransactionBlockTheCopiedRowsAreVisibleToTheBlocksNextStatement() {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    run("BEGIN");
    copyIn("COPY b FROM STDIN", rowsText(shuffled(12_000, 9)));
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(12_000L);
    run("ROLLBACK");
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(0L);
    assertThat(bulkRows()).isZero();
  }

  @Test
  void aTransactionThatWroteTheTableBeforeTheCopyCannotCommitOverIt() {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    try (Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()))) {
      other.execute("o1", "BEGIN");
      other.execute("o2", "INSERT INTO b VALUES (5, 0, 'other')");
      copyIn("COPY b FROM STDIN", rowsText(shuffled(12_000, 1)));
      assertThatThrownBy(() -> other.execute("o3", "COMMIT"))
          .isInstanceOf(AccelException.class)
          .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("40001"));
    }
    assertThat(rows("SELECT name FROM b WHERE id = 5")).containsExactly("name-5");
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(12_000L);
  }

  @Test
  void rowsCommittedWhileTheCopyReadsFailTheCopyInsteadOfBeingHidden() {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    CopyIn in = s.copyIn("copy" + keys++, "COPY b FROM STDIN");
    in.write(rowsText(shuffled(12_000, 2)).getBytes(StandardCharsets.UTF_8));
    try (Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()))) {
      other.execute("o1", "INSERT INTO b VALUES (50000, 0, 'other')");
    }
    assertThatThrownBy(in::finish)
        .isInstanceOf(AccelException.class)
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("40001"));
    assertThat(rows("SELECT id, name FROM b")).containsExactly("[50000, other]");
  }

  @Test
  void aCancelledCopyLeavesNoFilesAndTheTableEmpty() throws Exception {
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    CopyIn in = s.copyIn("copy" + keys++, "COPY b FROM STDIN");
    in.write(rowsText(shuffled(25_000, 4)).getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> in.fail("client gave up"))
        .isInstanceOf(AccelException.class).hasMessageContaining("COPY from stdin failed: client gave up");
    assertThat(leftoverFiles()).isEmpty();
    assertThat(rows("SELECT count(*) FROM b")).containsExactly(0L);
  }

  @Test
  void anIndexBuiltOverATableLoadedAsSeveralFilesHoldsEveryRow() {
    BulkLoad.runBytes = 64 << 10; // ids in order: several files that do not overlap, kept as they are
    run("CREATE TABLE b (id INT PRIMARY KEY, k INT NOT NULL, name TEXT)");
    List<Integer> ids = new ArrayList<>();
    for (int i = 1; i <= 40_000; i++) {
      ids.add(i);
    }
    copyIn("COPY b FROM STDIN", rowsText(ids));
    run("CREATE INDEX b_k ON b (k, name)"); // the build reads the table in two key ranges at once
    run("CREATE UNIQUE INDEX b_name ON b (name)");
    assertThat(rows("EXPLAIN SELECT id FROM b WHERE k = 5")).anySatisfy(line -> assertThat(line.toString())
        .contains("b_k"));
    assertThat(rows("SELECT count(*), min(id), max(id) FROM b WHERE k = 5")).containsExactly("[413, 5, 39969]");
    assertThat(rows("SELECT count(*) FROM b WHERE k = 96 AND name >= 'name-3'")).containsExactly(184L);
    assertThat(rows("SELECT id FROM b WHERE name = 'name-39999'")).containsExactly(39_999);
    assertThatThrownBy(() -> run("INSERT INTO b VALUES (40001, 1, 'name-7')")).isInstanceOf(AccelException.class)
        .hasMessageContaining("b_name");
  }

  @Test
  void aLargeTableOfSeveralFilesIsAnalyzedInTwoPartsWithTheWholeTablesCounts() throws Exception {
    BulkLoad.runBytes = 512 << 10;
    run("CREATE TABLE big (g INT, n INT, few TEXT, PRIMARY KEY (g, n))");
    StringBuilder b = new StringBuilder();
    int rows = 210_000;
    for (int i = 0; i < rows; i++) {
      b.append(i / 7).append('\t').append(i % 7).append('\t').append(i % 11 == 0 ? "\\N" : "f" + (i % 40)).append('\n');
    }
    copyIn("COPY big FROM STDIN", b.toString());
    s.close();
    db.close(); // reopened: the first ANALYZE of a process reads the table
    db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)), new SimpleMeterRegistry());
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
    io.accel.catalog.TableDef table = db.catalog().table("big").orElseThrow();
    assertThat(db.splitKey(table)).as("the table is stored in several files").isNotNull();
    run("ANALYZE big");
    io.accel.catalog.TableStatistics st = db.statistics().of(table);
    assertThat(st.analyzedRowCount()).isEqualTo(rows);
    assertThat(st.distinctPrimaryKeyPrefix(1)).isEqualTo(30_000);
    assertThat(st.distinctPrimaryKeyPrefix(2)).isEqualTo(rows);
    assertThat(st.distinctValues(2).getAsDouble()).isEqualTo(40);
    assertThat(st.nullFraction(2)).isCloseTo(1.0 / 11, org.assertj.core.api.Assertions.within(0.001));
  }
}
