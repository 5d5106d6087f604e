package io.accel.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.exec.Session;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The labels of result columns as a frontend sees them ({@code Session.prepare(...).columns()}): PostgreSQL's
 * (FigureColname), not Calcite's EXPR$n. Every expected label was read from PostgreSQL 15 (psql's headers and
 * \gdesc) for the same statement over the same tables.
 */
class ColumnLabelsTest extends io.accel.exec.EngineTestBase {
  @BeforeEach
  void createTables() {
    s.execute("k1", "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER, name VARCHAR(20))");
    s.execute("k2", "CREATE TABLE u (id INTEGER PRIMARY KEY, x INTEGER)");
    s.execute("k3", "INSERT INTO t VALUES (1, 10, 'a'), (5, 50, 'b')");
    s.execute("k4", "INSERT INTO u VALUES (1, 7)");
  }

  private List<String> labels(String sql) {
    return s.prepare(sql).columns().stream().map(c -> c.label).toList();
  }

  @Test
  void aggregatesAndFunctionsAreNamedByTheFunction() {
    assertThat(labels("select count(*) from t")).containsExactly("count");
    assertThat(labels("select count(*), sum(x), max(x), min(id), avg(x) from t"))
        .containsExactly("count", "sum", "max", "min", "avg");
    assertThat(labels("select lower(name), upper(name), length(name), abs(x) from t"))
        .containsExactly("lower", "upper", "length", "abs");
    assertThat(labels("select version(), pg_catalog.version(), now()")).containsExactly("version", "version", "now");
    assertThat(labels("select coalesce(x, 0), nullif(x, 1), greatest(x, 1), least(x, 2) from t"))
        .containsExactly("coalesce", "nullif", "greatest", "least");
    assertThat(labels("select current_timestamp, current_user, current_date, localtimestamp, session_user"))
        .containsExactly("current_timestamp", "current_user", "current_date", "localtimestamp", "session_user");
    assertThat(labels("select mode() within group (order by x), percentile_cont(0.5) within group (order by x),"
        + " percentile_disc(0.5) within group (order by x desc) from t"))
        .containsExactly("mode", "percentile_cont", "percentile_disc");
    assertThat(labels("select count(*) filter (where x > 1), sum(x) over (), count(*) + 1 from t group by x"))
        .containsExactly("count", "sum", "?column?");
    assertThat(labels("select trim(name), trim(leading 'a' from name), substring(name from 1 for 1),"
        + " position('a' in name), extract(year from current_date) from t"))
        .containsExactly("btrim", "ltrim", "substring", "position", "extract");
    assertThat(labels("select current_database()")).containsExactly("current_database");
  }

  @Test
  void columnsCastsAndLiterals() {
    assertThat(labels("select x, t.name, id as k, x foo from t")).containsExactly("x", "name", "k", "foo");
    assertThat(labels("select 1 + 2, 'a', 1, null, true, -x, x is null, not true from t"))
        .containsExactly("?column?", "?column?", "?column?", "?column?", "?column?", "?column?", "?column?",
            "?column?");
    assertThat(labels("select 1::int, '1'::text, x::text, cast(x as bigint), cast(1 as integer), 1::bigint,"
        + " 1::smallint, 1.5::float8, 1.5::real, 'a'::varchar(3), 'a'::char(2), 1::numeric(3,1),"
        + " 't'::boolean, '1'::int::text, count(*)::int, (x)::text, (1 + 2)::text from t group by x"))
        .containsExactly("int4", "text", "x", "x", "int4", "int8", "int2", "float8", "float4", "varchar",
            "bpchar", "numeric", "bool", "text", "count", "x", "text");
    assertThat(labels("select date '2024-01-01', timestamp '2024-01-01 10:00:00', interval '1 day',"
        + " '45 minutes'::interval, '2024-01-01'::date, now()::timestamp, x::double precision from t"))
        .containsExactly("date", "timestamp", "interval", "interval", "date", "now", "x");
  }

  @Test
  void caseSubSelectsRowsArraysExists() {
    assertThat(labels("select case when x > 1 then 'y' end, case when x > 1 then 1 end::text from t"))
        .containsExactly("case", "text");
    assertThat(labels("select (select count(*) from u), (select x from u limit 1), (select 1),"
        + " exists (select 1 from u), x in (select x from u) from t"))
        .containsExactly("count", "x", "?column?", "exists", "?column?");
    assertThat(labels("select array[1, 2], x from t")).containsExactly("array", "x");
  }

  @Test
  void duplicatesAndStars() {
    assertThat(labels("select count(*), count(*) from t")).containsExactly("count", "count");
    assertThat(labels("select x, x::text, 1 + 1, 2 + 2 from t"))
        .containsExactly("x", "x", "?column?", "?column?");
    assertThat(labels("select * from t join u on t.id = u.id")).containsExactly("id", "x", "name", "id", "x");
    assertThat(labels("select u.*, t.*, t.x + 1 from t join u on t.id = u.id"))
        .containsExactly("id", "x", "id", "x", "name", "?column?");
    assertThat(labels("select t.x, u.x from t, u")).containsExactly("x", "x");
  }

  @Test
  void setOperationsValuesAndWith() {
    assertThat(labels("select count(*) from t union all select 1")).containsExactly("count");
    assertThat(labels("(select 1) union select x from t")).containsExactly("?column?");
    assertThat(labels("values (1, 'a'), (2, 'b')")).containsExactly("column1", "column2");
    assertThat(labels("with c as (select x from t) select max(x), 1 from c")).containsExactly("max", "?column?");
    assertThat(labels("select count(*) from t order by 1")).containsExactly("count");
  }

  @Test
  void normalisedStatementsKeepTheirLabelsAndShareThePlan() {
    assertThat(labels("select count(*) from t where id = 5")).containsExactly("count");
    assertThat(labels("select count(*) from t where id = 1")).containsExactly("count");
    assertThat(labels("select 1 + 2 from t where id = 5")).containsExactly("?column?");
    assertThat(labels("select x, x + 1 from t where id = 5 limit 3")).containsExactly("x", "?column?");
    // the same labels when the plan comes from the cache
    for (int i = 0; i < 3; i++) {
      List<ColumnMetaData> columns = s.prepare("select count(*), 1 + 2, max(x)::text from t where id = " + i)
          .columns();
      assertThat(columns).extracting(c -> c.label).containsExactly("count", "?column?", "max");
      assertThat(columns).extracting(c -> c.columnName).containsExactly("count", "?column?", "max");
    }
  }
}
