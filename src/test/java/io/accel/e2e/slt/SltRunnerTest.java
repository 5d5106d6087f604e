package io.accel.e2e.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class SltRunnerTest {

  private static SltResult run(FakeSltConnection db, String engine, String text) {
    return new SltRunner(db, engine).run(SltParser.parse("f.test", text));
  }

  private static SltResult run(FakeSltConnection db, String text) {
    return run(db, "accel", text);
  }

  @Test
  void matchingScriptPasses() {
    FakeSltConnection db = new FakeSltConnection()
        .rows("SELECT a, b FROM t", 2, new Object[] {2, "y"}, new Object[] {1, "x"})
        .rows("SELECT avg(a) FROM t", 1, new Object[] {new BigDecimal("1.5000000000000000")});
    SltResult r = run(db, """
        statement ok
        CREATE TABLE t (a INTEGER, b TEXT)

        query IT rowsort
        SELECT a, b FROM t
        ----
        1 x
        2 y

        query IT rowsort
        SELECT a, b FROM t
        ----
        1
        x
        2
        y

        query R
        SELECT avg(a) FROM t
        ----
        1.500
        """);
    assertThat(r.mismatches()).isEmpty();
    assertThat(r.passed()).isTrue();
    assertThat(r.recordsRun()).isEqualTo(4);
    assertThat(db.executed).first().isEqualTo("CREATE TABLE t (a INTEGER, b TEXT)");
  }

  @Test
  void nosortComparesInResultOrder() {
    FakeSltConnection db = new FakeSltConnection().rows("SELECT a FROM t", 1, new Object[] {2}, new Object[] {1});
    SltResult r = run(db, "query I\nSELECT a FROM t\n----\n1\n2\n");
    assertThat(r.mismatches()).hasSize(1);
    SltMismatch m = r.mismatches().get(0);
    assertThat(m.position()).isEqualTo("f.test:1");
    assertThat(m.sql()).isEqualTo("SELECT a FROM t");
    assertThat(m.expected()).isEqualTo("1\n2");
    assertThat(m.actual()).isEqualTo("2\n1");
    assertThat(m.problem()).contains("value 1");
  }

  @Test
  void valuesortSortsEveryValue() {
    FakeSltConnection db = new FakeSltConnection().rows("SELECT a, b FROM t", 2, new Object[] {3, 1}, new Object[] {2, 4});
    assertThat(run(db, "query II valuesort\nSELECT a, b FROM t\n----\n1\n2\n3\n4\n").passed()).isTrue();
    assertThat(run(db, "query II valuesort\nSELECT a, b FROM t\n----\n1 2\n3 4\n").passed()).isTrue();
    assertThat(run(db, "query II rowsort\nSELECT a, b FROM t\n----\n2 4\n3 1\n").passed()).isTrue();
    assertThat(run(db, "query II rowsort\nSELECT a, b FROM t\n----\n3 1\n2 4\n").passed()).isFalse();
  }

  @Test
  void rowLinesMayBeAlignedUnlessValuesHoldSpaces() {
    FakeSltConnection db = new FakeSltConnection()
        .rows("SELECT 1", 2, new Object[] {1, "ab"})
        .rows("SELECT 2", 2, new Object[] {1, "a b"});
    assertThat(run(db, "query IT\nSELECT 1\n----\n1    ab\n").passed()).isTrue();
    assertThat(run(db, "query IT\nSELECT 1\n----\n1\tab\n").passed()).isTrue();
    assertThat(run(db, "query IT\nSELECT 2\n----\n1 a b\n").passed()).isTrue();
    assertThat(run(db, "query IT\nSELECT 2\n----\n1 a  b\n").passed()).isFalse();
    assertThat(run(db, "query IT\nSELECT 2\n----\n1\na b\n").passed()).isTrue();
  }

  @Test
  void wrongRowCountAndColumnCountAreReported() {
    FakeSltConnection db = new FakeSltConnection().rows("SELECT a FROM t", 1, new Object[] {1});
    SltResult extra = run(db, "query I\nSELECT a FROM t\n----\n1\n2\n3\n");
    assertThat(extra.mismatches().get(0).problem()).contains("expected 3 line(s)").contains("1 row(s)");
    SltResult none = run(db, "query I\nSELECT a FROM t\n----\n");
    assertThat(none.passed()).isFalse();
    assertThat(none.mismatches().get(0).expected()).isEqualTo("(no rows)");
    SltResult columns = run(db, "query II\nSELECT a FROM t\n----\n1\n");
    assertThat(columns.mismatches().get(0).problem()).contains("1 column(s)").contains("'II'");
  }

  @Test
  void hashThreshold() {
    FakeSltConnection db = new FakeSltConnection()
        .rows("SELECT a FROM t", 1, new Object[] {3}, new Object[] {1}, new Object[] {2});
    String hash = "3 values hashing to c0710d6b4f15dfa88f600b0e6b624077";
    assertThat(run(db, "hash-threshold 2\n\nquery I rowsort\nSELECT a FROM t\n----\n" + hash + "\n").passed()).isTrue();
    // over the threshold the values must be written as the hash
    SltResult listed = run(db, "hash-threshold 2\n\nquery I rowsort\nSELECT a FROM t\n----\n1\n2\n3\n");
    assertThat(listed.mismatches().get(0).problem()).contains(hash);
    assertThat(listed.mismatches().get(0).actual()).isEqualTo(hash);
    // at or under the threshold values are listed; a hash line is still accepted
    assertThat(run(db, "hash-threshold 3\n\nquery I rowsort\nSELECT a FROM t\n----\n1\n2\n3\n").passed()).isTrue();
    assertThat(run(db, "query I rowsort\nSELECT a FROM t\n----\n" + hash + "\n").passed()).isTrue();
    // the hash is over the sorted values
    assertThat(run(db, "query I\nSELECT a FROM t\n----\n" + hash + "\n").passed()).isFalse();
    assertThat(run(db, "query I rowsort\nSELECT a FROM t\n----\n3 values hashing to 00000000000000000000000000000000\n")
        .mismatches().get(0).problem()).isEqualTo("result hash differs");
  }

  @Test
  void labelsMustAgree() {
    FakeSltConnection db = new FakeSltConnection()
        .rows("SELECT 1", 1, new Object[] {1})
        .rows("SELECT 2", 1, new Object[] {2});
    assertThat(run(db, "query I nosort l1\nSELECT 1\n----\n1\n\nquery I nosort l1\nSELECT 1\n----\n1\n").passed()).isTrue();
    SltResult r = run(db, "query I nosort l1\nSELECT 1\n----\n1\n\nquery I nosort l1\nSELECT 2\n----\n2\n");
    assertThat(r.mismatches()).hasSize(1);
    assertThat(r.mismatches().get(0).problem()).contains("same label 'l1' at line 1");
  }

  @Test
  void statementErrors() {
    FakeSltConnection db = new FakeSltConnection()
        .error("INSERT dup", "23505", "duplicate key value violates unique constraint \"t_pkey\"")
        .error("SELECT 1/0", "22012", "division by zero");
    assertThat(run(db, "statement error 23505\nINSERT dup\n").passed()).isTrue();
    assertThat(run(db, "statement error\nINSERT dup\n").passed()).isTrue();
    assertThat(run(db, "statement error duplicate KEY.*t_pkey\nINSERT dup\n").passed()).isTrue();
    assertThat(run(db, "statement error division by zero\nSELECT 1/0\n").passed()).isTrue();

    SltMismatch state = run(db, "statement error 23502\nINSERT dup\n").mismatches().get(0);
    assertThat(state.problem()).contains("another SQLSTATE");
    assertThat(state.expected()).contains("23502");
    assertThat(state.actual()).contains("23505").contains("duplicate key");

    SltMismatch message = run(db, "statement error not null\nINSERT dup\n").mismatches().get(0);
    assertThat(message.problem()).contains("another message");

    SltMismatch succeeded = run(db, "statement error 23505\nINSERT ok\n").mismatches().get(0);
    assertThat(succeeded.problem()).isEqualTo("statement succeeded but should have failed");
    assertThat(succeeded.actual()).isEqualTo("ok");

    SltMismatch failed = run(db, "statement ok\nINSERT dup\n").mismatches().get(0);
    assertThat(failed.problem()).isEqualTo("statement failed");
    assertThat(failed.actual()).contains("SQLSTATE 23505");

    SltMismatch query = run(db, "query I\nSELECT 1/0\n----\n1\n").mismatches().get(0);
    assertThat(query.problem()).isEqualTo("query failed");
    assertThat(query.actual()).contains("22012");
  }

  @Test
  void collectsEveryMismatchWithItsLine() {
    FakeSltConnection db = new FakeSltConnection()
        .rows("SELECT 1", 1, new Object[] {1})
        .error("bad", "42601", "syntax error");
    SltResult r = run(db, """
        statement ok
        bad

        query I
        SELECT 1
        ----
        2

        query I
        SELECT 1
        ----
        1

        statement ok
        bad
        """);
    assertThat(r.mismatches()).extracting(SltMismatch::position).containsExactly("f.test:1", "f.test:4", "f.test:14");
    assertThat(r.report()).startsWith("f.test: 3 mismatch(es) in 4 records run (0 skipped); first at f.test:1")
        .contains("f.test:4: result differs at value 1").contains("  SQL:      SELECT 1");
  }

  @Test
  void skipifOnlyifAndHalt() {
    FakeSltConnection db = new FakeSltConnection().rows("SELECT 1", 1, new Object[] {1});
    String script = """
        skipif accel
        statement ok
        accel cannot do this

        onlyif postgresql
        statement ok
        postgres only

        onlyif accel
        query I
        SELECT 1
        ----
        1

        onlyif postgresql
        halt

        statement ok
        after halt for postgresql

        halt

        statement ok
        never run
        """;
    SltResult accel = run(db, "accel", script);
    assertThat(db.executed).containsExactly("SELECT 1", "after halt for postgresql");
    assertThat(accel.recordsRun()).isEqualTo(2);
    assertThat(accel.halted()).isTrue();
    assertThat(accel.recordsSkipped()).isEqualTo(4);

    FakeSltConnection pg = new FakeSltConnection();
    SltResult postgres = run(pg, "postgresql", script);
    assertThat(pg.executed).containsExactly("accel cannot do this", "postgres only");
    assertThat(postgres.halted()).isTrue();
  }

  @Test
  void skipifCanBeIgnoredToRecheckKnownGaps() {
    String script = "# accel gap: not yet\nskipif accel\nstatement ok\ngap\n\nonlyif postgresql\nstatement ok\npg\n";
    FakeSltConnection db = new FakeSltConnection();
    new SltRunner(db, "accel", true).run(SltParser.parse("f.test", script));
    assertThat(db.executed).containsExactly("gap");
  }

  @Test
  void actualLinesAreWrittenOneRowPerLine() {
    SltRecord.Query q = (SltRecord.Query) SltParser.parse("f", "query IT rowsort\nSELECT\n").records().get(0);
    SltConnection.QueryResult result = new SltConnection.QueryResult(2,
        List.of(List.of(2, "b"), java.util.Arrays.asList(1, null)));
    assertThat(SltRunner.actualLines(result, q, 0)).containsExactly("1 NULL", "2 b");
    assertThat(SltRunner.actualLines(result, q, 3)).containsExactly("4 values hashing to "
        + SltRenderer.md5(List.of("1", "NULL", "2", "b")));
  }
}
