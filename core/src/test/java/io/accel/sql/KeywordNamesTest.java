package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeywordNamesTest {
  @Test
  void labelsAfterAsAreQuotedWhereCalciteReservesThem() {
    assertThat(KeywordNames.rewrite("SELECT id AS limit, v AS value, n AS next FROM t"))
        .isEqualTo("SELECT id AS \"limit\", v AS value, n AS \"next\" FROM t");
  }

  @Test
  void bareColumnNamesAreQuotedWhereTheyNameAColumn() {
    assertThat(KeywordNames.rewrite("SELECT date, t.time FROM t WHERE timestamp > ? ORDER BY date DESC"))
        .isEqualTo("SELECT \"date\", t.\"time\" FROM t WHERE \"timestamp\" > ? ORDER BY \"date\" DESC");
    assertThat(KeywordNames.rewrite("UPDATE t SET next = next + 1 WHERE uuid IS NULL"))
        .isEqualTo("UPDATE t SET \"next\" = \"next\" + 1 WHERE \"uuid\" IS NULL");
  }

  @Test
  void typesLiteralsFunctionsAndSequencesAreLeftAlone() {
    for (String sql : new String[] {
        "SELECT CAST(x AS date), CAST(y AS timestamp(3)) FROM t",
        "SELECT x::date, y::time, z::uuid FROM t",
        "SELECT DATE '2024-01-01', TIME '10:00:00', TIMESTAMP '2024-01-01 00:00:00', INTERVAL '1 day'",
        "SELECT date(x), date_trunc('day', x) FROM t",
        "SELECT CAST(x AS TIMESTAMP WITH TIME ZONE), x AT TIME ZONE 'UTC' FROM t",
        "SELECT NEXT VALUE FOR s",
        "SELECT x FROM t FETCH NEXT 5 ROWS ONLY",
        "WITH w AS (SELECT 1) SELECT * FROM w",
        "SELECT 'date', \"time\" FROM t"}) {
      assertThat(KeywordNames.rewrite(sql)).as(sql).isEqualTo(sql);
    }
  }
}
