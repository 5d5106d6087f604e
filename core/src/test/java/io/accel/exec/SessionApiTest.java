package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.cursor.Cursor;
import io.accel.sql.AccelException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Core's engine API as a frontend uses it: prepare, execute, cursors, transactions, settings, cancel. */
class SessionApiTest extends EngineTestBase {
  @BeforeEach
  void createItems() {
    run("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, code CHAR(3), price NUMERIC(10,2))");
    run("INSERT INTO item VALUES (1, 'one', 'a', 1.50), (2, 'two', 'b', 2.00), (3, 'three', NULL, NULL),"
        + " (4, 'four', 'd', 4.25), (5, 'five', 'e', 5.00)");
  }

  private List<Object> all(Result r) {
    List<Object> rows = new ArrayList<>();
    while (r.cursor().hasNext()) {
      rows.add(r.cursor().next());
    }
    return rows;
  }

  @Test
  void aStatementMayEndWithASemicolon() {
    assertThat(run("UPDATE item SET name = 'uno' WHERE id = 1;").updateCount()).isEqualTo(1);
    assertThat(all(run("SELECT name FROM item WHERE id = 1 ; "))).containsExactly("uno");
    assertThat(failure(() -> run("SELECT 1; SELECT 2")).state()).isEqualTo(io.accel.sql.SqlState.SYNTAX_ERROR);
  }

  @Test
  void prepareDescribesParametersAndColumns() {
    Prepared p = s.prepare("SELECT id, name, code, price FROM item WHERE id > ? AND name <> ?");
    assertThat(p.kind()).isEqualTo(Prepared.Kind.QUERY);
    assertThat(p.parameters()).extracting(a -> a.parameterType).containsExactly(Types.INTEGER, Types.VARCHAR);
    List<ColumnMetaData> columns = p.columns();
    assertThat(columns).extracting(c -> c.label).containsExactly("id", "name", "code", "price");
    assertThat(columns.get(0).type.id).isEqualTo(Types.INTEGER);
    assertThat(columns.get(1).type.id).isEqualTo(Types.VARCHAR);
    assertThat(columns.get(1).precision).isEqualTo(20);
    assertThat(columns.get(2).type.id).isEqualTo(Types.CHAR);
    assertThat(columns.get(2).precision).isEqualTo(3);
    assertThat(columns.get(3).type.id).isEqualTo(Types.DECIMAL);
    assertThat(columns.get(3).precision).isEqualTo(10);
    assertThat(columns.get(3).scale).isEqualTo(2);
    assertThat(columns.get(0).nullable).isEqualTo(0);
    assertThat(all(run("SELECT code, name FROM item WHERE id = 1")).get(0)).as("CHAR(3) padded as PostgreSQL's bpchar")
        .isEqualTo(new Object[] {"a  ", "one"});
    assertThat(s.prepare("UPDATE item SET name = 'x' WHERE id = ?").kind()).isEqualTo(Prepared.Kind.DML);
    assertThat(s.prepare("CREATE TABLE z (a INTEGER)").kind()).isEqualTo(Prepared.Kind.COMMAND);
    assertThat(s.prepare("EXPLAIN SELECT * FROM item").kind()).isEqualTo(Prepared.Kind.EXPLAIN);
  }

  @Test
  void aCursorReturnsRowsInBatchesOfAnySize() {
    Prepared p = s.prepare("SELECT id FROM item WHERE id >= ? ORDER BY id");
    Result r = s.execute("q", p, List.of(TypedValue.ofLocal(ColumnMetaData.Rep.INTEGER, 2)), new AtomicBoolean(), 0);
    Cursor c = r.cursor();
    assertThat(r.updateCount()).isEqualTo(-1);
    assertThat(c.fetch(2)).containsExactly(2, 3);
    assertThat(c.position()).isEqualTo(2);
    assertThat(c.exhausted()).isFalse();
    assertThat(c.fetch(1)).containsExactly(4);
    assertThat(c.fetch(10)).containsExactly(5);
    assertThat(c.exhausted()).isTrue();
    assertThat(c.fetch(10)).isEmpty();
    assertThatThrownBy(c::next).isInstanceOf(AccelException.class)
        .satisfies(e -> assertThat(((AccelException) e).state().code()).isEqualTo("24000"));
    r.close();
  }

  @Test
  void parametersAreConvertedToTheirDeclaredTypes() {
    Prepared p = s.prepare("SELECT name FROM item WHERE id = ?");
    Result r = s.execute("q", p, List.of(TypedValue.ofLocal(ColumnMetaData.Rep.STRING, " 4 ")), new AtomicBoolean(), 0);
    assertThat(all(r)).containsExactly("four");
    AccelException bad = failure(() -> s.execute("q", p, List.of(TypedValue.ofLocal(ColumnMetaData.Rep.STRING, "x4")),
        new AtomicBoolean(), 0));
    assertThat(bad.state().code()).isEqualTo("22P02");
    AccelException missing = failure(() -> s.execute("q", p, List.of(), new AtomicBoolean(), 0));
    assertThat(missing.state().code()).isEqualTo("22023");
  }

  @Test
  void dmlReturnsItsCountAndCommitsOutsideABlock() {
    Result r = run("UPDATE item SET price = price + 1 WHERE id <= 2");
    assertThat(r.hasRows()).isFalse();
    assertThat(r.updateCount()).isEqualTo(2);
    try (Session other = new Session(db)) {
      assertThat(all(other.execute("o", "SELECT price FROM item WHERE id = 1")).get(0).toString()).isEqualTo("2.50");
    }
  }

  @Test
  void aBlockIsInvisibleToOthersUntilCommitAndAFailureAbortsIt() {
    run("BEGIN");
    run("INSERT INTO item VALUES (6, 'six', 'f', 6)");
    try (Session other = new Session(db)) {
      assertThat(all(other.execute("o", "SELECT count(*) FROM item"))).containsExactly(5L);
      AccelException duplicate = failure(() -> run("INSERT INTO item VALUES (6, 'dup', 'x', 1)"));
      assertThat(duplicate.state().code()).isEqualTo("23505");
      assertThat(duplicate.detail()).isEqualTo("Key (id)=(6) already exists.");
      assertThat(failure(() -> run("SELECT 1")).state().code()).isEqualTo("25P02");
      run("ROLLBACK");
      assertThat(all(other.execute("o", "SELECT count(*) FROM item"))).containsExactly(5L);
      run("BEGIN");
      run("INSERT INTO item VALUES (6, 'six', 'f', 6)");
      run("COMMIT");
      assertThat(all(other.execute("o", "SELECT count(*) FROM item"))).containsExactly(6L);
    }
  }

  @Test
  void aBlocksCursorIsClosedByCommit() {
    run("BEGIN");
    Result r = s.execute("q", s.prepare("SELECT id FROM item ORDER BY id"), List.of(), new AtomicBoolean(), 0);
    assertThat(r.cursor().next()).isEqualTo(1);
    run("COMMIT");
    assertThat(failure(() -> r.cursor().next()).state().code()).isEqualTo("55000");
  }

  @Test
  void cancelFromAnotherThreadStopsAStatement() throws Exception {
    run("CREATE TABLE big (id INTEGER PRIMARY KEY)");
    StringBuilder values = new StringBuilder("INSERT INTO big VALUES (0)");
    for (int i = 1; i < 2000; i++) {
      values.append(", (").append(i).append(')');
    }
    run(values.toString());
    AtomicBoolean flag = new AtomicBoolean();
    Prepared p = s.prepare("SELECT count(*) FROM big a, big b, big c WHERE a.id + b.id + c.id = -1");
    CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> s.execute("q", p, List.of(), flag, 0));
    Thread.sleep(300);
    s.cancel();
    assertThatThrownBy(() -> running.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(AccelException.class)
        .satisfies(e -> {
          AccelException a = (AccelException) e.getCause();
          assertThat(a.state().code()).isEqualTo("57014");
          assertThat(a.getMessage()).isEqualTo("canceling statement due to user request");
        });
    // the session goes on working
    assertThat(all(run("SELECT count(*) FROM item"))).containsExactly(5L);
  }

  @Test
  void statementTimeoutStopsALongStatement() {
    run("CREATE TABLE big (id INTEGER PRIMARY KEY)");
    StringBuilder values = new StringBuilder("INSERT INTO big VALUES (0)");
    for (int i = 1; i < 2000; i++) {
      values.append(", (").append(i).append(')');
    }
    run(values.toString());
    run("SET statement_timeout = 200");
    assertThat(all(run("SHOW statement_timeout"))).containsExactly("200");
    AccelException e = failure(() -> run("SELECT count(*) FROM big a, big b, big c WHERE a.id + b.id + c.id = -1"));
    assertThat(e.state().code()).isEqualTo("57014");
    assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
    run("RESET statement_timeout");
    assertThat(all(run("SHOW statement_timeout"))).containsExactly("0");
  }

  @Test
  void setShowAndResetSettings() {
    run("SET application_name = 'billing'");
    assertThat(all(run("SHOW application_name"))).containsExactly("billing");
    assertThat(run("SHOW application_name").signature().columns.get(0).label).isEqualTo("application_name");
    run("SET TIME ZONE 'Europe/Paris'");
    Result tz = run("SHOW TimeZone");
    assertThat(tz.signature().columns.get(0).label).isEqualTo("TimeZone");
    assertThat(all(tz)).containsExactly("Europe/Paris");
    assertThat(s.timeZone().getID()).isEqualTo("Europe/Paris");
    run("RESET TimeZone");
    assertThat(all(run("SHOW timezone"))).containsExactly("UTC");
    assertThat(all(run("SHOW DateStyle"))).containsExactly("ISO, MDY");
    assertThat(all(run("SHOW server_version")).get(0).toString()).contains("Accel");
    assertThat(failure(() -> run("SET nosuch = 1")).state().code()).isEqualTo("42704");
    assertThat(failure(() -> run("SHOW nosuch")).state().code()).isEqualTo("42704");
    assertThat(failure(() -> run("SET TimeZone = 'Mars/Olympus'")).state().code()).isEqualTo("22023");
    assertThat(failure(() -> run("SET DateStyle = 'German'")).state().code()).isEqualTo("22023");
    assertThat(failure(() -> run("SET server_version = '1'")).state().code()).isEqualTo("55P02");
    assertThat(failure(() -> run("SET statement_timeout = 'soon'")).state().code()).isEqualTo("22023");
    run("SET myapp.tenant = 'acme'");
    assertThat(all(run("SHOW myapp.tenant"))).containsExactly("acme");
    assertThat(all(run("SHOW ALL"))).extracting(r -> ((Object[]) r)[0]).contains("TimeZone", "search_path",
        "myapp.tenant");
  }

  @Test
  void setRoleAcceptsTheSessionsOwnUserAndNoOther() {
    assertThat(all(run("SHOW role"))).containsExactly("none");
    run("SET ROLE 'tester'");
    assertThat(all(run("SHOW role"))).containsExactly("tester");
    run("SET ROLE NONE");
    assertThat(all(run("SHOW role"))).containsExactly("none");
    run("SET ROLE tester");
    run("RESET ROLE");
    assertThat(all(run("SHOW role"))).containsExactly("none");
    run("SET SESSION AUTHORIZATION DEFAULT");
    run("SET SESSION ROLE \"tester\"");
    AccelException other = failure(() -> run("SET ROLE admin"));
    assertThat(other.state().code()).isEqualTo("22023");
    assertThat(other.getMessage()).contains("role \"admin\" does not exist");
    assertThat(failure(() -> run("SET ROLE 'Tester'")).state().code()).isEqualTo("22023");
  }

  @Test
  void settingsOfABlockEndWithIt() {
    run("BEGIN");
    run("SET LOCAL application_name = 'inside'");
    run("SET statement_timeout = '5s'");
    assertThat(all(run("SHOW application_name"))).containsExactly("inside");
    run("COMMIT");
    assertThat(all(run("SHOW application_name"))).containsExactly("");
    assertThat(all(run("SHOW statement_timeout"))).containsExactly("5000");
    run("BEGIN");
    run("SET statement_timeout = 0");
    run("ROLLBACK");
    assertThat(all(run("SHOW statement_timeout"))).containsExactly("5000");
  }

  @Test
  void searchPathDecidesWhereUnqualifiedNamesAreFound() {
    assertThat(all(run("SELECT count(*) FROM item"))).containsExactly(5L);
    run("SET search_path = other");
    assertThat(failure(() -> run("SELECT count(*) FROM item")).state().code()).isEqualTo("42P01");
    assertThat(all(run("SELECT count(*) FROM public.item"))).containsExactly(5L);
    run("SET search_path TO \"$user\", public");
    assertThat(all(run("SELECT count(*) FROM item"))).containsExactly(5L);
  }

  @Test
  void explainReturnsThePlanAsRows() {
    Result r = run("EXPLAIN SELECT name FROM item WHERE id = 3");
    assertThat(r.signature().columns.get(0).label).isEqualTo("QUERY PLAN");
    assertThat(all(r).get(0).toString()).contains("keys=[id = 3]");
  }

  @Test
  void errorsCarryTheirSqlState() {
    assertThat(failure(() -> s.prepare("SELEC 1")).state().code()).isEqualTo("42601");
    AccelException missing = failure(() -> s.prepare("SELECT *\n  FROM nosuch"));
    assertThat(missing.position()).as("1-based, in characters, across lines").isEqualTo(17);
    AccelException column = failure(() -> s.prepare("SELECT name, nosuch FROM item"));
    assertThat(column.state().code()).isEqualTo("42703");
    assertThat(column.position()).isEqualTo(14);
    assertThat(failure(() -> s.prepare("SELECT * FROM nosuch")).state().code()).isEqualTo("42P01");
    assertThat(failure(() -> s.prepare("SELECT nosuch FROM item")).state().code()).isEqualTo("42703");
    assertThat(failure(() -> run("SELECT 1/0")).state().code()).isEqualTo("22012");
    assertThat(all(run("SELECT count(*) FROM item"))).containsExactly(5L);
  }

  @Test
  void theSessionTimeZoneReadsTimestampsWithoutAnOffset() {
    long utc = java.time.Instant.parse("2024-01-15T10:30:00Z").toEpochMilli();
    assertThat(all(run("SELECT '2024-01-15 10:30:00'::timestamptz"))).containsExactly(utc);
    run("SET TIME ZONE 'Asia/Tokyo'");
    long tokyo = utc - 9 * 3_600_000L;
    assertThat(all(run("SELECT '2024-01-15 10:30:00'::timestamptz"))).containsExactly(tokyo);
    assertThat(all(run("SELECT '2024-01-15 10:30:00+00'::timestamptz"))).containsExactly(utc);
    run("CREATE TABLE ev (id INTEGER PRIMARY KEY, at TIMESTAMPTZ)");
    Prepared insert = s.prepare("INSERT INTO ev VALUES (1, ?)");
    s.execute("i", insert, List.of(TypedValue.ofLocal(ColumnMetaData.Rep.STRING, "2024-01-15 10:30:00")),
        new AtomicBoolean(), 0);
    assertThat(all(run("SELECT at FROM ev"))).containsExactly(tokyo);
  }

  @Test
  void textWithSeveralStatementsRunsThemInOneImplicitTransaction() {
    List<Result> results = new ArrayList<>();
    s.executeScript("script", "INSERT INTO item VALUES (10, 'a;b', 'x', 1); -- a comment; with a semicolon\n"
        + "SELECT name FROM item WHERE id = 10; /* ; */ SELECT ';' || 'c;' AS t;;", results::add);
    assertThat(results).hasSize(3);
    assertThat(results.get(0).updateCount()).isEqualTo(1);
    assertThat(all(results.get(1))).containsExactly("a;b");
    assertThat(all(results.get(2))).containsExactly(";c;");
    // a failure rolls back the statements before it, as PostgreSQL's implicit transaction does
    List<Result> partial = new ArrayList<>();
    AccelException e = failure(() -> s.executeScript("script",
        "INSERT INTO item VALUES (11, 'eleven', 'x', 1); INSERT INTO item VALUES (1, 'dup', 'x', 1)", partial::add));
    assertThat(e.state().code()).isEqualTo("23505");
    assertThat(partial).hasSize(1);
    assertThat(all(run("SELECT count(*) FROM item WHERE id = 11"))).containsExactly(0L);
    assertThat(s.inTransactionBlock()).isFalse();
    // with its own transaction control, each statement runs as it would alone
    s.executeScript("script", "BEGIN; INSERT INTO item VALUES (12, 'twelve', 'x', 1); COMMIT", r -> { });
    assertThat(all(run("SELECT count(*) FROM item WHERE id = 12"))).containsExactly(1L);
  }

  @Test
  void statementTimeoutStopsPlanningToo() {
    int tables = 12;
    StringBuilder join = new StringBuilder("SELECT count(*) FROM j0");
    for (int t = 0; t < tables; t++) {
      run("CREATE TABLE j" + t + " (id INTEGER PRIMARY KEY, ref INTEGER)");
      run("INSERT INTO j" + t + " VALUES (1, 2), (2, 3), (3, 1)");
      if (t > 0) {
        join.append(" JOIN j").append(t).append(" ON j").append(t - 1).append(".ref = j").append(t).append(".id");
      }
    }
    // planned by Calcite (a direct plan of this chain takes well under a millisecond: nothing to stop)
    s.setDirectPlanning(false);
    run("SET statement_timeout = 30");
    AccelException e = failure(() -> s.prepare(join.toString()));
    assertThat(e.state().code()).isEqualTo("57014");
    assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
    run("RESET statement_timeout");
    assertThat(all(run(join.toString()))).as("planned in full now, not from a cut-short plan").containsExactly(3L);
  }
}
