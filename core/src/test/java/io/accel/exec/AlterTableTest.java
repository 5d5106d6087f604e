package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TABLE where restarts, other transactions and prepared statements matter (the SQL-visible behaviour is in
 * the e2e file alter_table.test, checked against PostgreSQL).
 */
class AlterTableTest extends EngineTestBase {
  @TempDir
  Path dir;

  private Database openFile() throws Exception {
    return Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
  }

  @Test
  void rowsStoredUnderEverySchemaVersionReadRightAfterReopen() throws Exception {
    try (Database db = openFile(); Session s = new Session(db)) {
      s.execute(1, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER)");
      s.execute(2, "INSERT INTO t VALUES (1, 'one', 10)");
      s.execute(3, "ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 7 NOT NULL");
      s.execute(4, "INSERT INTO t VALUES (2, 'two', 20, 8)");
      s.execute(5, "ALTER TABLE t DROP COLUMN b");
      s.execute(6, "INSERT INTO t VALUES (3, 'three', 9)");
      s.execute(7, "ALTER TABLE t ADD COLUMN d TEXT DEFAULT 'dflt'");
      s.execute(8, "CREATE INDEX t_d ON t (d)");
      s.execute(9, "INSERT INTO t VALUES (4, 'four', 10, 'own')");
      s.execute(10, "ALTER TABLE t RENAME COLUMN a TO name");
    }
    try (Database db = openFile(); Session s = new Session(db)) {
      assertThat(rows(s, "SELECT id, name, c, d FROM t ORDER BY id")).containsExactly(
          "[1, one, 7, dflt]", "[2, two, 8, dflt]", "[3, three, 9, dflt]", "[4, four, 10, own]");
      // the index added after the column holds the default of the rows stored before it
      assertThat(rows(s, "SELECT id FROM t WHERE d = 'dflt' ORDER BY id")).containsExactly(1, 2, 3);
      assertThat(rows(s, "SELECT id FROM t WHERE d = 'own'")).containsExactly(4);
      s.execute(11, "UPDATE t SET c = c + 1 WHERE id = 1");
      assertThat(rows(s, "SELECT c FROM t WHERE id = 1")).containsExactly(8);
    }
  }

  @Test
  void typeChangeAndDroppedKeySurviveReopen() throws Exception {
    try (Database db = openFile(); Session s = new Session(db)) {
      s.execute(1, "CREATE TABLE t (id INTEGER PRIMARY KEY, v NUMERIC(5,2))");
      s.execute(2, "INSERT INTO t VALUES (1, 1.25), (2, 2.75)");
      s.execute(3, "ALTER TABLE t ALTER COLUMN v TYPE BIGINT");
      s.execute(4, "ALTER TABLE t DROP COLUMN id");
      s.execute(5, "INSERT INTO t VALUES (5)");
    }
    try (Database db = openFile(); Session s = new Session(db)) {
      assertThat(rows(s, "SELECT v FROM t ORDER BY v")).containsExactly(1L, 3L, 5L);
      s.execute(6, "INSERT INTO t VALUES (6)");
      assertThat(rows(s, "SELECT count(*) FROM t")).containsExactly(4L);
    }
  }

  @Test
  void aTransactionOlderThanTheChangeFailsWithSerializationFailure() {
    run("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
    run("INSERT INTO t VALUES (1, 1)");
    try (Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "other"))) {
      other.execute(1, "BEGIN");
      other.execute(2, "SELECT count(*) FROM t").close();
      run("ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 3");
      AccelException e = failure(() -> other.execute(3, "INSERT INTO t VALUES (2, 2)"));
      assertThat(e.state().code()).isEqualTo("40001");
      other.execute(4, "ROLLBACK");
      other.execute(5, "INSERT INTO t VALUES (2, 2)");
      assertThat(rows(other, "SELECT id, a, b FROM t ORDER BY id")).containsExactly("[1, 1, 3]", "[2, 2, 3]");
    }
  }

  @Test
  void aBlockKeepsUsingATableItAlteredWithoutRewrite() {
    run("BEGIN");
    run("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    run("INSERT INTO t VALUES (1, 'x')");
    run("ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 5");
    run("INSERT INTO t VALUES (2, 'y', 6)");
    run("ALTER TABLE t ALTER COLUMN a SET NOT NULL");
    AccelException nulls = failure(() -> run("ALTER TABLE t ADD COLUMN c INTEGER NOT NULL"));
    assertThat(nulls.state().code()).isEqualTo("23502");
    run("ROLLBACK");
    run("BEGIN");
    run("CREATE TABLE u (id INTEGER PRIMARY KEY, a TEXT)");
    run("INSERT INTO u VALUES (1, NULL)");
    // the block's own row has a NULL: SET NOT NULL sees it
    AccelException own = failure(() -> run("ALTER TABLE u ALTER COLUMN a SET NOT NULL"));
    assertThat(own.state().code()).isEqualTo("23502");
    run("ROLLBACK");
    run("BEGIN");
    run("CREATE TABLE v (id INTEGER PRIMARY KEY, a TEXT)");
    run("INSERT INTO v VALUES (1, 'x')");
    run("ALTER TABLE v ADD COLUMN b INTEGER DEFAULT 5");
    run("ALTER TABLE v RENAME COLUMN a TO name");
    run("INSERT INTO v VALUES (2, 'y', 6)");
    run("COMMIT");
    assertThat(rows("SELECT id, name, b FROM v ORDER BY id")).containsExactly("[1, x, 5]", "[2, y, 6]");
  }

  @Test
  void aStatementPreparedBeforeTheColumnsChangedFailsAsPostgresDoes() {
    run("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    run("INSERT INTO t VALUES (1, 'x')");
    Prepared select = s.prepare("SELECT * FROM t");
    run("ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 5");
    run("INSERT INTO t VALUES (2, 'y', 6)");
    AccelException e = failure(() -> s.execute("p", select, List.of(), new java.util.concurrent.atomic.AtomicBoolean(),
        0).cursor().hasNext());
    assertThat(e.state().code()).isEqualTo("0A000");
    assertThat(e.getMessage()).contains("cached plan must not change result type");
    assertThat(rows("SELECT * FROM t ORDER BY id")).containsExactly("[1, x, 5]", "[2, y, 6]");
  }

  @Test
  void aVolatileDefaultIsEvaluatedForEachExistingRow() {
    run("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    run("INSERT INTO t VALUES (1), (2), (3), (4)");
    run("ALTER TABLE t ADD COLUMN r DOUBLE PRECISION DEFAULT random()");
    assertThat(rows("SELECT count(DISTINCT r) FROM t")).containsExactly(4L);
    run("ALTER TABLE t ADD COLUMN c DOUBLE PRECISION DEFAULT 0.5");
    assertThat(rows("SELECT count(DISTINCT c) FROM t")).containsExactly(1L);
  }

  /**
   * Flyway creates its history table with a baseline row so: CREATE TABLE, INSERT, ADD PRIMARY KEY and an index in one
   * transaction. The block's rows follow the table into its new key, are visible to the block, reach other sessions
   * at COMMIT, and the key is enforced at once (also on the rows already there).
   */
  @Test
  void addPrimaryKeyInTheBlockThatCreatedAndFilledTheTable() {
    run("BEGIN");
    run("CREATE TABLE history (installed_rank INT NOT NULL, version VARCHAR(50), success BOOLEAN)");
    run("INSERT INTO history VALUES (2, '2', TRUE), (1, '1', TRUE)");
    run("UPDATE history SET success = FALSE WHERE installed_rank = 2");
    run("ALTER TABLE history ADD CONSTRAINT history_pk PRIMARY KEY (installed_rank)");
    run("CREATE INDEX history_s_idx ON history (success)");
    assertThat(failure(() -> run("INSERT INTO history VALUES (1, 'x', TRUE)")).state().code()).isEqualTo("23505");
    run("ROLLBACK");
    // DDL is not transactional: the table and its key stay, its rows went with the block
    assertThat(rows("SELECT count(*) FROM history")).containsExactly(0L);

    run("BEGIN");
    run("INSERT INTO history VALUES (2, '2', TRUE), (1, '1', TRUE)");
    run("COMMIT");
    run("CREATE TABLE fresh (installed_rank INT NOT NULL, version VARCHAR(50), success BOOLEAN)");
    run("BEGIN");
    run("INSERT INTO fresh VALUES (2, '2', TRUE), (1, '1', TRUE), (3, NULL, FALSE)");
    run("DELETE FROM fresh WHERE installed_rank = 3");
    run("ALTER TABLE fresh ADD PRIMARY KEY (installed_rank)");
    run("CREATE INDEX fresh_s_idx ON fresh (success)");
    run("INSERT INTO fresh VALUES (3, '3', FALSE)");
    assertThat(rows("SELECT installed_rank, version FROM fresh WHERE installed_rank = 2")).containsExactly("[2, 2]");
    try (Session other = new Session(db)) {
      assertThat(count(other, "SELECT count(*) FROM fresh")).isZero();
      run("COMMIT");
      assertThat(count(other, "SELECT count(*) FROM fresh")).isEqualTo(3L);
      assertThat(count(other, "SELECT count(*) FROM fresh WHERE success")).isEqualTo(2L);
    }
    assertThat(rows("SELECT installed_rank, version FROM fresh ORDER BY 1")).containsExactly("[1, 1]", "[2, 2]",
        "[3, 3]");
    assertThat(failure(() -> run("INSERT INTO fresh VALUES (2, 'x', TRUE)")).state().code()).isEqualTo("23505");
  }

  /** A duplicate or NULL key among the block's rows fails the ALTER (and so the block), as in PostgreSQL. */
  @Test
  void addPrimaryKeyOverTheBlocksDuplicateRowsFails() {
    run("CREATE TABLE dup (k INT, v TEXT)");
    run("BEGIN");
    run("INSERT INTO dup VALUES (1, 'a'), (1, 'b')");
    AccelException e = failure(() -> run("ALTER TABLE dup ADD PRIMARY KEY (k)"));
    assertThat(e.state().code()).isEqualTo("23505");
    assertThat(e.getMessage()).isEqualTo("could not create unique index \"dup_pkey\"");
    run("ROLLBACK");
    run("BEGIN");
    run("INSERT INTO dup VALUES (NULL, 'a')");
    assertThat(failure(() -> run("ALTER TABLE dup ADD PRIMARY KEY (k)")).state().code()).isEqualTo("23502");
    run("ROLLBACK");
  }

  /** Rows the block wrote beside committed ones would not follow the rewrite: refused, nothing changes. */
  @Test
  void addPrimaryKeyOverCommittedAndBlockRowsIsRefused() {
    run("CREATE TABLE mixed (k INT, v TEXT)");
    run("INSERT INTO mixed VALUES (1, 'committed')");
    run("BEGIN");
    run("INSERT INTO mixed VALUES (2, 'block')");
    assertThat(failure(() -> run("ALTER TABLE mixed ADD PRIMARY KEY (k)")).state().code()).isEqualTo("0A000");
    run("ROLLBACK");
    run("ALTER TABLE mixed ADD PRIMARY KEY (k)");
    assertThat(rows("SELECT k, v FROM mixed")).containsExactly("[1, committed]");
  }

  private static long count(Session session, String sql) {
    try (Result r = session.execute(new Object(), sql)) {
      return ((Number) r.cursor().next()).longValue();
    }
  }
}
