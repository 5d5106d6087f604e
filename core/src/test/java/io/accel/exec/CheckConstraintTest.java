package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CHECK constraints on the paths the e2e file check_constraints.test does not take: a reopened store, COPY, and the
 * rewrites of ALTER TABLE and ADD PRIMARY KEY, which must keep them.
 */
class CheckConstraintTest extends EngineTestBase {
  @TempDir
  Path dir;

  @Test
  void constraintsSurviveReopenAndStillReject() throws Exception {
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(db)) {
      session.execute(1, "CREATE TABLE t (a INTEGER CHECK (a > 0), b TEXT, CONSTRAINT b_short CHECK (length(b) < 4))");
      session.execute(2, "INSERT INTO t VALUES (1, 'x')");
    }
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(db)) {
      AccelException a = failure(() -> session.execute(3, "INSERT INTO t VALUES (0, 'y')"));
      assertThat(a.state().code()).isEqualTo("23514");
      assertThat(a.getMessage()).contains("violates check constraint \"t_a_check\"");
      assertThat(a.detail()).isEqualTo("Failing row contains (0, y).");
      AccelException b = failure(() -> session.execute(4, "INSERT INTO t VALUES (2, 'long')"));
      assertThat(b.getMessage()).contains("\"b_short\"");
      session.execute(5, "INSERT INTO t VALUES (2, 'ok')");
    }
  }

  @Test
  void notValidConstraintsStayNotValidAcrossReopenUntilValidated() throws Exception {
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(db)) {
      session.execute(1, "CREATE TABLE p (id INTEGER PRIMARY KEY)");
      session.execute(2, "CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER, q INTEGER)");
      session.execute(3, "INSERT INTO c VALUES (1, 5, -1)");
      session.execute(4, "ALTER TABLE c ADD CONSTRAINT c_q CHECK (q >= 0) NOT VALID");
      session.execute(5, "ALTER TABLE c ADD CONSTRAINT c_p FOREIGN KEY (p) REFERENCES p (id) NOT VALID");
    }
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(db)) {
      String sql = "SELECT conname, convalidated FROM pg_constraint WHERE conname IN ('c_q', 'c_p') ORDER BY 1";
      assertThat(rows(session, sql)).containsExactly("[c_p, false]", "[c_q, false]");
      assertThat(failure(() -> session.execute(6, "INSERT INTO c VALUES (2, NULL, -3)")).state().code())
          .isEqualTo("23514");
      assertThat(failure(() -> session.execute(7, "ALTER TABLE c VALIDATE CONSTRAINT c_p")).state().code())
          .isEqualTo("23503");
      session.execute(8, "INSERT INTO p VALUES (5)");
      session.execute(9, "ALTER TABLE c VALIDATE CONSTRAINT c_p");
      assertThat(rows(session, sql)).containsExactly("[c_p, true]", "[c_q, false]");
    }
  }

  @Test
  void copyChecksEveryRow() {
    run("CREATE TABLE t (a INTEGER CHECK (a <> 3))");
    CopyIn in = s.copyIn("copy", "COPY t FROM STDIN");
    in.write("1\n2\n3\n".getBytes(StandardCharsets.UTF_8));
    AccelException e = failure(in::finish);
    assertThat(e.state().code()).isEqualTo("23514");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);
  }

  @Test
  void rewritesKeepTheConstraints() {
    run("CREATE TABLE t (a NUMERIC(4,1) CHECK (a < 10), b INTEGER)");
    run("INSERT INTO t VALUES (1.5, 1)");
    run("ALTER TABLE t ALTER COLUMN a TYPE INTEGER");
    assertThat(failure(() -> run("INSERT INTO t VALUES (11, 2)")).state().code()).isEqualTo("23514");
    run("ALTER TABLE t ADD PRIMARY KEY (b)");
    assertThat(failure(() -> run("INSERT INTO t VALUES (12, 3)")).state().code()).isEqualTo("23514");
    run("ALTER TABLE t DROP CONSTRAINT t_pkey");
    assertThat(failure(() -> run("INSERT INTO t VALUES (13, 4)")).state().code()).isEqualTo("23514");
    run("INSERT INTO t VALUES (2, 1)");
    assertThat(rows("SELECT a, b FROM t ORDER BY a")).containsExactly("[2, 1]", "[2, 1]");
  }
}
