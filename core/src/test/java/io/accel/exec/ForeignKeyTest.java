package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FOREIGN KEY constraints where foreign_keys.test cannot go: two sessions racing a referencing insert against the
 * removal of its key, a reopened file store, COPY, and the DDL around referenced tables.
 */
class ForeignKeyTest extends EngineTestBase {
  @TempDir
  Path dir;

  private void schema(Session session) {
    session.execute("a", "CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT UNIQUE)");
    session.execute("b", "CREATE TABLE o (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES u)");
    session.execute("c", "INSERT INTO u VALUES (1, 'a'), (2, 'b')");
  }

  @Test
  void missingKeyIsRejectedWithPostgresMessage() {
    schema(s);
    AccelException e = failure(() -> run("INSERT INTO o VALUES (1, 5)"));
    assertThat(e.state().code()).isEqualTo("23503");
    assertThat(e.getMessage()).isEqualTo("insert or update on table \"o\" violates foreign key constraint"
        + " \"o_user_id_fkey\"");
    assertThat(e.detail()).isEqualTo("Key (user_id)=(5) is not present in table \"u\".");
    run("INSERT INTO o VALUES (1, 1), (2, NULL)");
    AccelException d = failure(() -> run("DELETE FROM u WHERE id = 1"));
    assertThat(d.state().code()).isEqualTo("23503");
    assertThat(d.getMessage()).isEqualTo("update or delete on table \"u\" violates foreign key constraint"
        + " \"o_user_id_fkey\" on table \"o\"");
    assertThat(d.detail()).isEqualTo("Key (id)=(1) is still referenced from table \"o\".");
    assertThat(rows("SELECT count(*) FROM u")).containsExactly(2L);
  }

  @Test
  void childInsertCommittedFirstFailsTheConcurrentParentDelete() {
    schema(s);
    try (Session other = new Session(db)) {
      run("BEGIN");
      other.execute("1", "BEGIN");
      rows("SELECT count(*) FROM o");
      other.execute("2", "SELECT count(*) FROM u").close();
      run("INSERT INTO o VALUES (1, 1)");
      other.execute("3", "DELETE FROM u WHERE id = 1");
      run("COMMIT");
      AccelException e = failure(() -> other.execute("4", "COMMIT"));
      assertThat(e.state().code()).isEqualTo("40001");
    }
    assertThat(rows("SELECT id, user_id FROM o")).containsExactly("[1, 1]");
    assertThat(rows("SELECT id FROM u ORDER BY id")).containsExactly(1, 2);
  }

  @Test
  void parentDeleteCommittedFirstFailsTheConcurrentChildInsert() {
    schema(s);
    try (Session other = new Session(db)) {
      run("BEGIN");
      other.execute("1", "BEGIN");
      rows("SELECT count(*) FROM o");
      other.execute("2", "SELECT count(*) FROM u").close();
      run("INSERT INTO o VALUES (1, 1)");
      other.execute("3", "DELETE FROM u WHERE id = 1");
      other.execute("4", "COMMIT");
      AccelException e = failure(() -> run("COMMIT"));
      assertThat(e.state().code()).isEqualTo("40001");
    }
    assertThat(rows("SELECT count(*) FROM o")).containsExactly(0L);
  }

  @Test
  void concurrentChildrenOfOneParentBothCommit() {
    schema(s);
    try (Session other = new Session(db)) {
      run("BEGIN");
      other.execute("1", "BEGIN");
      run("INSERT INTO o VALUES (1, 1)");
      other.execute("2", "INSERT INTO o VALUES (2, 1)");
      run("COMMIT");
      other.execute("3", "COMMIT");
    }
    assertThat(rows("SELECT count(*) FROM o")).containsExactly(2L);
  }

  @Test
  void childInsertCommitsBesideAnUpdateOfTheParentsOtherColumns() {
    // PostgreSQL's FOR KEY SHARE on the referenced row does not conflict with an update leaving its key alone
    schema(s);
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("INSERT INTO o VALUES (1, 1)");
      other.execute("1", "UPDATE u SET email = 'changed' WHERE id = 1");
      run("COMMIT");
      other.execute("2", "BEGIN");
      other.execute("3", "UPDATE u SET email = 'again' WHERE id = 2");
      run("INSERT INTO o VALUES (2, 2)");
      other.execute("4", "COMMIT");
    }
    assertThat(rows("SELECT o.id, u.email FROM o JOIN u ON o.user_id = u.id ORDER BY o.id"))
        .containsExactly("[1, changed]", "[2, again]");
  }

  @Test
  void parentKeyChangeCommittedFirstFailsTheConcurrentChildInsert() {
    schema(s);
    try (Session other = new Session(db)) {
      run("BEGIN");
      run("INSERT INTO o VALUES (1, 1)");
      other.execute("1", "UPDATE u SET id = 10 WHERE id = 1");
      AccelException e = failure(() -> run("COMMIT"));
      assertThat(e.state().code()).isEqualTo("40001");
    }
    assertThat(rows("SELECT count(*) FROM o")).containsExactly(0L);
    assertThat(rows("SELECT id FROM u ORDER BY id")).containsExactly(2, 10);
  }

  @Test
  void childrenOfFewParentsCommitFromManyThreadsWhileTheParentsChange() throws Exception {
    schema(s);
    int threads = 4;
    int each = 150;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads + 1);
    try {
      java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t * each;
        done.add(pool.submit(() -> {
          try (Session session = new Session(db)) {
            for (int i = 0; i < each; i++) {
              session.execute("b", "BEGIN");
              session.execute("i", "INSERT INTO o VALUES (" + (first + i) + ", " + (1 + i % 2) + ")");
              session.execute("c", "COMMIT");
            }
          }
          return null;
        }));
      }
      done.add(pool.submit(() -> {
        try (Session session = new Session(db)) {
          for (int i = 0; i < 100; i++) {
            session.execute("u", "UPDATE u SET email = 'e" + i + "_' || id WHERE id = " + (1 + i % 2));
          }
        }
        return null;
      }));
      for (java.util.concurrent.Future<?> f : done) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(rows("SELECT count(*), count(DISTINCT id) FROM o")).containsExactly("[600, 600]");
    assertThat(rows("SELECT email FROM u ORDER BY id")).containsExactly("e98_1", "e99_2");
  }

  @Test
  void constraintsSurviveReopen() throws Exception {
    try (Database fileDb = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(fileDb)) {
      schema(session);
      session.execute("d", "CREATE TABLE r (x INTEGER, y TEXT, CONSTRAINT r_fk FOREIGN KEY (y) REFERENCES u (email)"
          + " ON DELETE CASCADE ON UPDATE CASCADE)");
      session.execute("e", "INSERT INTO r VALUES (1, 'a')");
      session.execute("e2", "CREATE TABLE d (x INTEGER REFERENCES u DEFERRABLE INITIALLY DEFERRED)");
    }
    try (Database fileDb = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session session = new Session(fileDb)) {
      // the deferral is kept: in a block, a row whose parent comes later passes
      session.execute("f1", "BEGIN");
      session.execute("f2", "INSERT INTO d VALUES (77)");
      session.execute("f3", "INSERT INTO u (id, email) VALUES (77, 'later')");
      session.execute("f4", "COMMIT");
      AccelException e = failure(() -> session.execute("f", "INSERT INTO o VALUES (1, 7)"));
      assertThat(e.state().code()).isEqualTo("23503");
      assertThat(failure(() -> session.execute("g", "INSERT INTO r VALUES (2, 'zz')")).getMessage())
          .contains("\"r_fk\"");
      session.execute("h", "UPDATE u SET email = 'aa' WHERE id = 1");
      try (Result r = session.execute("i", "SELECT y FROM r")) {
        assertThat(r.cursor().next()).isEqualTo("aa");
      }
      AccelException drop = failure(() -> session.execute("j", "DROP TABLE u"));
      assertThat(drop.state().code()).isEqualTo("2BP01");
      session.execute("k", "DROP TABLE u CASCADE");
      session.execute("k2", "INSERT INTO d VALUES (78)"); // its constraint went with u
      session.execute("l", "INSERT INTO o VALUES (1, 7)");
    }
  }

  @Test
  void copyChecksTheRowsItLoads() {
    schema(s);
    CopyIn in = s.copyIn("copy", "COPY o FROM STDIN");
    in.write("1\t1\n2\t9\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(failure(in::finish).state().code()).isEqualTo("23503");
    assertThat(rows("SELECT count(*) FROM o")).containsExactly(0L);
  }

  @Test
  void referencingIndexIsUsedAndRewritesKeepTheConstraint() {
    schema(s);
    run("CREATE INDEX o_user ON o (user_id)");
    run("INSERT INTO o VALUES (1, 1), (2, 2), (3, NULL)");
    assertThat(failure(() -> run("DELETE FROM u WHERE id = 2")).state().code()).isEqualTo("23503");
    run("ALTER TABLE o ALTER COLUMN user_id TYPE BIGINT");
    run("ALTER TABLE u RENAME TO users");
    run("ALTER TABLE users RENAME COLUMN id TO uid");
    assertThat(failure(() -> run("INSERT INTO o VALUES (4, 9)")).detail())
        .isEqualTo("Key (user_id)=(9) is not present in table \"users\".");
    run("ALTER TABLE o DROP CONSTRAINT o_user_id_fkey");
    run("INSERT INTO o VALUES (4, 9)");
    AccelException add = failure(() -> run("ALTER TABLE o ADD FOREIGN KEY (user_id) REFERENCES users"));
    assertThat(add.state().code()).isEqualTo("23503");
    run("DELETE FROM o WHERE id = 4");
    run("ALTER TABLE o ADD FOREIGN KEY (user_id) REFERENCES users ON DELETE SET NULL");
    run("DELETE FROM users WHERE uid = 2");
    assertThat(rows("SELECT id, user_id FROM o ORDER BY id")).containsExactly("[1, 1]", "[2, null]", "[3, null]");
  }
}
