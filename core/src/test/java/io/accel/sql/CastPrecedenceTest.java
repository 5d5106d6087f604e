package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CastPrecedenceTest {
  private static String p(String sql) {
    return CastPrecedence.parenthesize(sql);
  }

  @Test
  void statementsWithoutCastsAreUnchanged() {
    String sql = "SELECT a, 'x::y' FROM t WHERE b = 1 -- c::int";
    assertThat(p(sql)).isEqualTo(sql);
    String plain = "SELECT a FROM t WHERE b = 1";
    assertThat(p(plain)).isSameAs(plain);
    assertThat(p("SELECT 'a::b', \"c::d\" FROM t")).isEqualTo("SELECT 'a::b', \"c::d\" FROM t");
  }

  @Test
  void literalsParametersAndNames() {
    assertThat(p("SELECT i FROM t WHERE i = 2::INTEGER")).isEqualTo("SELECT i FROM t WHERE i = (2::INTEGER)");
    assertThat(p("WHERE s = '2'::int AND p = ?::bigint")).isEqualTo("WHERE s = ('2'::int) AND p = (?::bigint)");
    assertThat(p("WHERE t.a.b::text = x")).isEqualTo("WHERE (t.a.b::text) = x");
    assertThat(p("WHERE \"Col\"::int > 1")).isEqualTo("WHERE (\"Col\"::int) > 1");
    assertThat(p("SELECT -2::int")).isEqualTo("SELECT -(2::int)");
    assertThat(p("SELECT DATE '2024-01-02'::text")).isEqualTo("SELECT (DATE '2024-01-02'::text)");
  }

  @Test
  void parenthesizedExpressionsFunctionCallsAndCase() {
    assertThat(p("WHERE i = (n + 1)::int")).isEqualTo("WHERE i = ((n + 1)::int)");
    assertThat(p("WHERE upper(s)::varchar(3) = 'A'")).isEqualTo("WHERE (upper(s)::varchar(3)) = 'A'");
    assertThat(p("SELECT CAST(i AS text)::int")).isEqualTo("SELECT (CAST(i AS text)::int)");
    assertThat(p("WHERE x IN (1, 2)::int")).isEqualTo("WHERE x IN ((1, 2)::int)");
    assertThat(p("SELECT CASE WHEN a THEN 1 ELSE CASE WHEN b THEN 2 END END::text"))
        .isEqualTo("SELECT (CASE WHEN a THEN 1 ELSE CASE WHEN b THEN 2 END END::text)");
  }

  @Test
  void chainedAndNestedCasts() {
    assertThat(p("SELECT f::float8::int::text")).isEqualTo("SELECT (((f::float8)::int)::text)");
    assertThat(p("SELECT (x::int + 1)::text")).isEqualTo("SELECT (((x::int) + 1)::text)");
    assertThat(p("SELECT n::numeric(10,2)::text")).isEqualTo("SELECT ((n::numeric(10,2))::text)");
  }

  @Test
  void multiWordTypes() {
    assertThat(p("WHERE f::double precision > 0")).isEqualTo("WHERE (f::double precision) > 0");
    assertThat(p("SELECT s::character varying(5) || 'x'")).isEqualTo("SELECT (s::character varying(5)) || 'x'");
    assertThat(p("WHERE ts::timestamp with time zone < now()"))
        .isEqualTo("WHERE (ts::timestamp with time zone) < now()");
    assertThat(p("WHERE ts::timestamp(3) without time zone < x"))
        .isEqualTo("WHERE (ts::timestamp(3) without time zone) < x");
    assertThat(p("SELECT a::int[] FROM t")).isEqualTo("SELECT (a::int[]) FROM t");
  }

  @Test
  void malformedCastsAreLeftToTheParser() {
    assertThat(p("SELECT 1 ::")).isEqualTo("SELECT 1 ::");
    assertThat(p("SELECT ::int")).isEqualTo("SELECT ::int");
    assertThat(p("SELECT 'unterminated::int")).isEqualTo("SELECT 'unterminated::int");
  }
}
