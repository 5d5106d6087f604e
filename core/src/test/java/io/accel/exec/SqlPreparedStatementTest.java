package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PREPARE, EXECUTE, DEALLOCATE and pg_prepared_statements; expected values and SQLSTATEs from PostgreSQL 15. */
class SqlPreparedStatementTest extends EngineTestBase {

  @Test
  void executeRunsTheNamedStatementWithItsArguments() {
    run("PREPARE p(int) AS SELECT $1 + 1 AS x");
    assertThat(rows("EXECUTE p(41)")).containsExactly(42);
    assertThat(rows("EXECUTE p('5')")).containsExactly(6);
    assertThat(rows("EXECUTE p(1.5)")).containsExactly(3); // numeric to integer rounds
    assertThat(rows("EXECUTE p(40 + 1)")).containsExactly(42);
    run("PREPARE r(int, text) AS SELECT $2 || CAST($1 AS TEXT) AS y");
    assertThat(rows("EXECUTE r(3, 'a')")).containsExactly("a3");
    assertThat(rows("EXECUTE r(3, 'it''s ')")).containsExactly("it's 3");
    // the declared type is the parameter's, even where the statement alone would take text
    assertThat(failure(() -> run("EXECUTE r('abc', 'a')")).state().code()).isEqualTo("22P02");
    run("PREPARE q AS SELECT $1"); // an untyped parameter is text
    assertThat(rows("EXECUTE q('z')")).containsExactly("z");
    assertThat(s.prepare("EXECUTE p(1)").columns().get(0).label).isEqualTo("x");
  }

  @Test
  void executeOfDmlReportsItsCountAndWrites() {
    run("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)");
    run("PREPARE ins(int, text) AS INSERT INTO t VALUES ($1, $2)");
    assertThat(run("EXECUTE ins(1, 'a')").updateCount()).isEqualTo(1);
    assertThat(run("EXECUTE ins(2, NULL)").updateCount()).isEqualTo(1);
    run("PREPARE upd AS UPDATE t SET b = 'z'");
    assertThat(run("EXECUTE upd").updateCount()).isEqualTo(2);
    run("PREPARE get(int) AS SELECT b FROM t WHERE a = $1");
    assertThat(rows("EXECUTE get(2)")).containsExactly("z");
    run("BEGIN");
    run("EXECUTE ins(3, 'c')");
    run("ROLLBACK");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(2L);
  }

  @Test
  void errorsAreThoseOfPostgres() {
    run("PREPARE p(int) AS SELECT $1 + 1 AS x");
    AccelException dup = failure(() -> run("PREPARE p(int) AS SELECT $1"));
    assertThat(dup.state().code()).isEqualTo("42P05");
    assertThat(dup.getMessage()).isEqualTo("prepared statement \"p\" already exists");
    AccelException count = failure(() -> run("EXECUTE p(1, 2)"));
    assertThat(count.state().code()).isEqualTo("42601");
    assertThat(count.getMessage()).isEqualTo("wrong number of parameters for prepared statement \"p\"");
    assertThat(count.detail()).isEqualTo("Expected 1 parameters but got 2.");
    assertThat(failure(() -> run("EXECUTE p")).detail()).isEqualTo("Expected 1 parameters but got 0.");
    assertThat(failure(() -> run("EXECUTE p('abc')")).state().code()).isEqualTo("22P02");
    AccelException coerce = failure(() -> run("EXECUTE p(CAST('x' AS TEXT))"));
    assertThat(coerce.state().code()).isEqualTo("42804");
    assertThat(coerce.getMessage()).isEqualTo("parameter $1 of type text cannot be coerced to the expected type integer");
    AccelException missing = failure(() -> run("EXECUTE nosuch(1)"));
    assertThat(missing.state().code()).isEqualTo("26000");
    assertThat(missing.getMessage()).isEqualTo("prepared statement \"nosuch\" does not exist");
    assertThat(failure(() -> run("DEALLOCATE nosuch")).state().code()).isEqualTo("26000");
    assertThat(failure(() -> run("PREPARE q2(nosuchtype) AS SELECT $1")).state().code()).isEqualTo("42704");
    assertThat(failure(() -> run("PREPARE q3 AS BEGIN")).state().code()).isEqualTo("42601");
    assertThat(failure(() -> run("PREPARE q4 AS SELECT * FROM nosuchtable")).state().code()).isEqualTo("42P01");
  }

  @Test
  void deallocateDropsOneOrAll() {
    run("PREPARE a AS SELECT 1");
    run("PREPARE b AS SELECT 2");
    run("DEALLOCATE PREPARE a");
    assertThat(failure(() -> run("EXECUTE a")).state().code()).isEqualTo("26000");
    assertThat(rows("EXECUTE b")).containsExactly(2);
    run("DEALLOCATE ALL");
    assertThat(failure(() -> run("EXECUTE b")).state().code()).isEqualTo("26000");
    run("PREPARE b AS SELECT 3"); // the name is free again
    assertThat(rows("EXECUTE b")).containsExactly(3);
  }

  @Test
  void pgPreparedStatementsListsThemWithTheirTypes() {
    run("PREPARE p(int) AS SELECT $1 + 1 AS x");
    run("PREPARE r(int,text) AS SELECT $2 || CAST($1 AS TEXT) AS y");
    run("EXECUTE r(3, 'a')");
    List<Object> listed = rows("SELECT name || ' ' || statement || ' ' || parameter_types || ' ' || from_sql"
        + " || ' ' || custom_plans FROM pg_prepared_statements ORDER BY name");
    assertThat(listed).containsExactly("p PREPARE p(int) AS SELECT $1 + 1 AS x {integer} true 0",
        "r PREPARE r(int,text) AS SELECT $2 || CAST($1 AS TEXT) AS y {integer,text} true 1");
  }

  @Test
  void aStatementIsReplannedAfterDdl() {
    run("CREATE TABLE t (a INTEGER)");
    run("INSERT INTO t VALUES (1)");
    run("PREPARE all_rows AS SELECT * FROM t");
    assertThat(rows("EXECUTE all_rows")).containsExactly(1);
    run("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'");
    assertThat(s.prepare("EXECUTE all_rows").columns()).hasSize(2);
  }

  @Test
  void anAbortedBlockRefusesExecute() {
    run("PREPARE p AS SELECT 1");
    run("BEGIN");
    failure(() -> run("SELECT 1/0"));
    assertThat(failure(() -> run("EXECUTE p")).state().code()).isEqualTo("25P02");
    run("ROLLBACK");
    assertThat(rows("EXECUTE p")).containsExactly(1);
  }

  @Test
  void executeTakesAFrontendsParametersAsArguments() {
    run("PREPARE r(int, text) AS SELECT $2 || CAST($1 AS TEXT) AS y");
    Prepared p = s.prepare("EXECUTE r(?, 'x')");
    assertThat(p.parameters()).hasSize(1);
    assertThat(p.parameters().get(0).parameterType).isEqualTo(java.sql.Types.INTEGER);
    try (Result r = s.execute("k", p, List.of(org.apache.calcite.avatica.remote.TypedValue.ofLocal(
        org.apache.calcite.avatica.ColumnMetaData.Rep.STRING, "7")), new java.util.concurrent.atomic.AtomicBoolean(),
        0)) {
      assertThat(r.cursor().next()).isEqualTo("x7");
    }
    // PostgreSQL's PREPARE knows only $n: a ? there is a syntax error
    assertThat(failure(() -> run("PREPARE q AS SELECT * FROM (VALUES (1)) AS t(a) WHERE a = ?")).state().code())
        .isEqualTo("42601");
  }
}
