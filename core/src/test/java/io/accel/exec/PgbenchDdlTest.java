package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The statements {@code pgbench -i} sends besides COPY, with PostgreSQL's semantics and SQLSTATEs (each error checked
 * against PostgreSQL 15 running the same statements): CREATE TABLE ... WITH, TRUNCATE, VACUUM, ALTER TABLE ADD
 * PRIMARY KEY / UNIQUE.
 */
class PgbenchDdlTest extends EngineTestBase {
  private void load(String table, String data) {
    CopyIn in = s.copyIn("copy" + keys++, "copy " + table + " from stdin");
    in.write(data.getBytes(StandardCharsets.UTF_8));
    in.finish();
  }

  @Test
  void pgbenchInitStatementsRun() {
    run("drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
    run("create table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22))");
    run("create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=100)");
    run("create table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84))"
        + " with (fillfactor=100)");
    run("create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=100)");
    run("begin");
    run("truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
    load("pgbench_branches", "1\t0\t\n");
    load("pgbench_tellers", "1\t1\t0\t\n2\t1\t0\t\n");
    load("pgbench_accounts", "1\t1\t0\t\n2\t1\t0\t\n3\t1\t0\t\n");
    run("commit");
    run("vacuum analyze pgbench_branches");
    run("vacuum analyze pgbench_tellers");
    run("vacuum analyze pgbench_accounts");
    run("vacuum analyze pgbench_history");
    run("alter table pgbench_branches add primary key (bid)");
    run("alter table pgbench_tellers add primary key (tid)");
    run("alter table pgbench_accounts add primary key (aid)");
    run("UPDATE pgbench_accounts SET abalance = abalance + 5 WHERE aid = 2");
    assertThat(rows("SELECT abalance FROM pgbench_accounts WHERE aid = 2")).containsExactly(5);
    assertThat(rows("SELECT count(*) FROM pgbench_tellers")).containsExactly(2L);
  }

  @Test
  void storageParametersAreCheckedAsPostgresChecksThem() {
    run("create unlogged table u (a int) with (autovacuum_enabled = false, fillfactor = 90, toast.autovacuum_enabled)");
    run("insert into u values (1)");
    assertThat(rows("SELECT a FROM u")).containsExactly(1);
    AccelException unknown = failure(() -> run("create table x (a int) with (foo=1)"));
    assertThat(unknown.state().code()).isEqualTo("22023");
    assertThat(unknown.getMessage()).isEqualTo("unrecognized parameter \"foo\"");
    AccelException bounds = failure(() -> run("create table x (a int) with (fillfactor=5)"));
    assertThat(bounds.state().code()).isEqualTo("22023");
    assertThat(bounds.getMessage()).isEqualTo("value 5 out of bounds for option \"fillfactor\"");
    assertThat(bounds.detail()).isEqualTo("Valid values are between \"10\" and \"100\".");
  }

  @Test
  void truncateInARolledBackBlockBringsTheRowsBack() {
    run("create table t (a int primary key, b int)");
    run("create index t_b on t (b)");
    run("insert into t values (1, 10), (2, 20), (3, 30)");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(3L);
    run("BEGIN");
    run("TRUNCATE t");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);
    run("ROLLBACK");
    assertThat(rows("SELECT a FROM t WHERE b = 20")).containsExactly(2);
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(3L);
  }

  @Test
  void truncateEmptiesRowsIndexesAndCaches() {
    run("create table t (a int primary key, b int)");
    run("create unique index t_b on t (b)");
    run("insert into t values (1, 10), (2, 20), (3, 30)");
    // read through the scan cache, the row cache and a paged cursor before the truncate
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(3L);
    assertThat(rows("SELECT b FROM t WHERE a = 2")).containsExactly(20);
    assertThat(rows("SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 0")).containsExactly(1);
    run("TRUNCATE TABLE ONLY t RESTART IDENTITY CASCADE");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);
    assertThat(rows("SELECT b FROM t WHERE a = 2")).isEmpty();
    assertThat(rows("SELECT a FROM t WHERE b = 20")).isEmpty();
    assertThat(rows("SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 1")).isEmpty();
    run("insert into t values (2, 20)");
    assertThat(rows("SELECT a FROM t WHERE b = 20")).containsExactly(2);
    assertThat(db.statistics().of(db.catalog().table("t").orElseThrow()).rowCount()).isEqualTo(1);
    assertThat(failure(() -> run("TRUNCATE nosuch")).state().code()).isEqualTo("42P01");
  }

  @Test
  void vacuumCannotRunInABlockAndChecksItsTables() {
    run("create table t (a int)");
    run("vacuum");
    run("vacuum full freeze verbose analyze t");
    run("vacuum (verbose, analyze true, index_cleanup auto) t");
    assertThat(failure(() -> run("vacuum nosuch")).state().code()).isEqualTo("42P01");
    run("BEGIN");
    AccelException inBlock = failure(() -> run("vacuum t"));
    assertThat(inBlock.state().code()).isEqualTo("25001");
    assertThat(inBlock.getMessage()).isEqualTo("VACUUM cannot run inside a transaction block");
    run("ROLLBACK");
  }

  @Test
  void addPrimaryKeyMakesLookupsPrimaryKeyGets() {
    run("create table t (aid int not null, bid int, filler char(10))");
    run("create index t_bid on t (bid)");
    run("insert into t values (3, 30, 'c'), (1, 10, 'a'), (2, 20, 'b')");
    String before = String.join("\n", rows("EXPLAIN SELECT filler FROM t WHERE aid = 2").stream()
        .map(Object::toString).toList());
    run("alter table t add primary key (aid)");
    String after = String.join("\n", rows("EXPLAIN SELECT filler FROM t WHERE aid = 2").stream()
        .map(Object::toString).toList());
    assertThat(before).contains("access=[full scan]");
    assertThat(after).contains("access=[primary key], keys=[aid = 2]");
    assertThat(rows("SELECT aid, bid FROM t")).as("rows in primary key order").containsExactly("[1, 10]", "[2, 20]",
        "[3, 30]");
    assertThat(rows("SELECT aid FROM t WHERE bid = 20")).as("the rebuilt index").containsExactly(2);
    assertThat(db.catalog().table("t").orElseThrow().primaryKey()).containsExactly(0);
    AccelException dup = failure(() -> run("insert into t values (2, 99, 'x')"));
    assertThat(dup.state().code()).isEqualTo("23505");
    AccelException second = failure(() -> run("alter table t add primary key (bid)"));
    assertThat(second.state().code()).isEqualTo("42P16");
    assertThat(second.getMessage()).isEqualTo("multiple primary keys for table \"t\" are not allowed");
  }

  @Test
  void addPrimaryKeyFailuresLeaveTheTableAsItWas() {
    run("create table t (a int, b int)");
    run("insert into t values (1, null), (1, 2), (2, 3)");
    AccelException nulls = failure(() -> run("alter table t add primary key (b)"));
    assertThat(nulls.state().code()).isEqualTo("23502");
    assertThat(nulls.getMessage()).isEqualTo("column \"b\" of relation \"t\" contains null values");
    AccelException dups = failure(() -> run("alter table t add primary key (a)"));
    assertThat(dups.state().code()).isEqualTo("23505");
    assertThat(dups.getMessage()).startsWith("could not create unique index \"t_pkey\"");
    assertThat(dups.detail()).isEqualTo("Key (a)=(1) is duplicated.");
    AccelException unknown = failure(() -> run("alter table t add primary key (nosuch)"));
    assertThat(unknown.state().code()).isEqualTo("42703");
    assertThat(unknown.getMessage()).isEqualTo("column \"nosuch\" of relation \"t\" does not exist");
    assertThat(db.catalog().table("t").orElseThrow().primaryKey()).isEmpty();
    assertThat(db.catalog().table("t").orElseThrow().columns().get(1).nullable()).isTrue();
    assertThat(rows("SELECT a, b FROM t ORDER BY a, b")).containsExactly("[1, 2]", "[1, null]", "[2, 3]");
    run("alter table if exists nosuch add primary key (a)");
    run("alter table t add constraint t_ab unique (a, b)");
    assertThat(failure(() -> run("insert into t values (1, 2)")).state().code()).isEqualTo("23505");
    AccelException uniqueDup = failure(() -> run("alter table only t add unique (a)"));
    assertThat(uniqueDup.state().code()).isEqualTo("23505");
  }

  @Test
  void addPrimaryKeyRewritesManyRowsInRunsAndFindsDuplicatesAcrossThem() {
    run("create table big (aid int not null, bid int, filler char(84))");
    int n = 300_000;
    StringBuilder data = new StringBuilder();
    for (int i = n; i >= 1; i--) {
      data.append(i).append('\t').append(i % 10).append("\t\n");
    }
    data.append("300000\t0\t\n"); // a duplicate of the first row read, in the second run
    load("big", data.toString());
    long start = System.nanoTime();
    AccelException dup = failure(() -> run("alter table big add primary key (aid)"));
    System.out.printf("ADD PRIMARY KEY over %d rows failed in %.2f s%n", n + 1, (System.nanoTime() - start) / 1e9);
    assertThat(dup.state().code()).isEqualTo("23505");
    assertThat(dup.detail()).isEqualTo("Key (aid)=(300000) is duplicated.");
    run("delete from big where aid = 300000");
    start = System.nanoTime();
    run("alter table big add primary key (aid)");
    System.out.printf("ADD PRIMARY KEY over %d rows: %.2f s%n", n - 1, (System.nanoTime() - start) / 1e9);
    assertThat(rows("SELECT count(*), min(aid), max(aid) FROM big")).containsExactly("[299999, 1, 299999]");
    assertThat(rows("SELECT bid FROM big WHERE aid = 123456")).containsExactly(6);
  }
}
