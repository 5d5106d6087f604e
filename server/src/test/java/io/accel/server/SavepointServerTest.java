package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SAVEPOINT, RELEASE and ROLLBACK TO through psql and at the protocol level, as PostgreSQL 15 answers them. */
class SavepointServerTest {
  /** A psql script; {@link #PG_OUT} is what PostgreSQL 15 printed for it (psql -X -A -t -f). */
  static final String SCRIPT = """
      create table sp(id int primary key, v text);
      savepoint a;
      begin;
      insert into sp values (1, 'one');
      savepoint a;
      insert into sp values (2, 'two');
      insert into sp values (2, 'again');
      select 1;
      release a;
      rollback to savepoint a;
      insert into sp values (3, 'three');
      savepoint b;
      release savepoint b;
      rollback to b;
      rollback work to a;
      commit;
      select id, v from sp order by id;
      rollback to a;
      drop table sp;
      """;
  static final String PG_OUT = """
      CREATE TABLE
      BEGIN
      INSERT 0 1
      SAVEPOINT
      INSERT 0 1
      ROLLBACK
      INSERT 0 1
      SAVEPOINT
      RELEASE
      ROLLBACK
      COMMIT
      1|one
      DROP TABLE
      """;

  @Test
  void psqlScriptPrintsWhatPostgresPrints() throws Exception {
    try (TestServer s = new TestServer()) {
      String c = "host=127.0.0.1 port=" + s.port() + " dbname=test user=alice";
      Psql.Run r = Psql.run(Map.of(), SCRIPT, "psql", "-X", "-A", "-t", "-d", c);
      assertThat(r.out()).as(r.err()).isEqualTo(PG_OUT);
      List<String> errors = r.err().lines().filter(l -> l.contains("ERROR:")).toList();
      // the detail in its own field, not repeated in the message
      assertThat(r.err()).contains("DETAIL:  Key (id)=(2) already exists.");
      assertThat(errors).containsExactly(
          "ERROR:  SAVEPOINT can only be used in transaction blocks",
          "ERROR:  duplicate key value violates unique constraint \"sp_pkey\"",
          "ERROR:  current transaction is aborted, commands ignored until end of transaction block",
          "ERROR:  current transaction is aborted, commands ignored until end of transaction block",
          "ERROR:  savepoint \"b\" does not exist",
          "ERROR:  ROLLBACK TO SAVEPOINT can only be used in transaction blocks");

      // several statements in one message run in an implicit transaction, which is not a block
      r = Psql.psql(c, Map.of(), "-c", "select 1; savepoint c; select 2");
      assertThat(r.out()).isEqualTo("1\n");
      assertThat(r.err()).contains("25P01").contains("SAVEPOINT can only be used in transaction blocks");
    }
  }

  @Test
  void readyForQueryStatusFollowsTheBlock() throws Exception {
    try (TestServer s = new TestServer(); RawClient raw = new RawClient(s.port())) {
      raw.login("alice");
      assertThat(status(raw, "create table t(id int primary key)")).isEqualTo("I");
      assertThat(status(raw, "begin")).isEqualTo("T");
      assertThat(status(raw, "savepoint a")).isEqualTo("T");
      assertThat(status(raw, "insert into t values (1), (1)")).isEqualTo("E 23505");
      assertThat(status(raw, "savepoint b")).isEqualTo("E 25P02");
      assertThat(status(raw, "rollback to nosuch")).isEqualTo("E 3B001");
      assertThat(status(raw, "rollback to a")).isEqualTo("T");
      assertThat(status(raw, "insert into t values (2)")).isEqualTo("T");
      assertThat(status(raw, "release a")).isEqualTo("T");
      assertThat(status(raw, "release a")).isEqualTo("E 3B001");
      assertThat(status(raw, "commit")).isEqualTo("I"); // a failed block's COMMIT rolls back
      assertThat(status(raw, "begin; insert into t values (3); savepoint a; insert into t values (4);"
          + " rollback to a; commit")).isEqualTo("I");
      raw.send(RawClient.query("select id from t"));
      List<RawClient.Message> rows = raw.readUntilReady().stream().filter(m -> m.type() == 'D').toList();
      assertThat(rows).hasSize(1);
    }
  }

  /** Runs a simple query: the ReadyForQuery status, with the SQLSTATE of the error it reported if any. */
  private static String status(RawClient raw, String sql) throws Exception {
    raw.send(RawClient.query(sql));
    String error = null;
    String status = null;
    for (RawClient.Message m : raw.readUntilReady()) {
      if (m.type() == 'E') {
        error = m.field('C');
      } else if (m.type() == 'Z') {
        status = String.valueOf((char) m.body()[0]);
      }
    }
    return error == null ? status : status + " " + error;
  }

  /**
   * pgJDBC's JDBC savepoints and its {@code autosave} option, which wraps each statement of a transaction in
   * {@code SAVEPOINT PGJDBC_AUTOSAVE} and rolls back to it when the statement fails, so the transaction goes on.
   */
  @Test
  void pgJdbcSavepointsAndAutosave() throws Exception {
    try (TestServer s = new TestServer()) {
      try (java.sql.Connection c = s.connect(); java.sql.Statement st = c.createStatement()) {
        st.execute("create table t(id int primary key)");
        c.setAutoCommit(false);
        st.execute("insert into t values (1)");
        java.sql.Savepoint sp = c.setSavepoint();
        st.execute("insert into t values (2)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute("insert into t values (1)"))
            .isInstanceOfSatisfying(java.sql.SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"));
        c.rollback(sp);
        st.execute("insert into t values (3)");
        c.releaseSavepoint(sp);
        c.commit();
      }
      java.util.Properties autosave = new java.util.Properties();
      autosave.setProperty("autosave", "always");
      autosave.setProperty("cleanupSavepoints", "true");
      try (java.sql.Connection c = s.connect(autosave); java.sql.Statement st = c.createStatement()) {
        c.setAutoCommit(false);
        st.execute("insert into t values (4)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute("insert into t values (1)"))
            .isInstanceOfSatisfying(java.sql.SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"));
        st.execute("insert into t values (5)"); // the failed statement was rolled back to the autosave
        c.commit();
        c.setAutoCommit(true);
        List<Integer> ids = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = st.executeQuery("select id from t order by id")) {
          while (rs.next()) {
            ids.add(rs.getInt(1));
          }
        }
        assertThat(ids).containsExactly(1, 3, 4, 5);
      }
    }
  }
}
