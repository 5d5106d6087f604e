package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SetReturningSelectListTest {
  @Test
  void withoutFromTheSeriesBecomesTheFrom() {
    assertThat(SetReturningSelectList.rewrite("SELECT generate_series(1, 3), 'x'"))
        .isEqualTo("SELECT accel_series.generate_series, 'x' FROM generate_series(1, 3) AS accel_series(generate_series)");
  }

  @Test
  void besideAFromTheFunctionIsJoinedLaterally() {
    assertThat(SetReturningSelectList.rewrite("SELECT id, generate_series(1, n) FROM t WHERE id > 1 ORDER BY id"))
        .isEqualTo("SELECT id, accel_series.generate_series FROM t, LATERAL TABLE(generate_series(1, n))"
            + " AS accel_series(generate_series) WHERE id > 1 ORDER BY id");
    assertThat(SetReturningSelectList.rewrite("SELECT jsonb_array_elements_text(doc) FROM t JOIN u ON t.a = u.a"))
        .isEqualTo("SELECT accel_series.value FROM t JOIN u ON t.a = u.a, LATERAL TABLE(jsonb_array_elements_text(doc))"
            + " AS accel_series(value)");
  }

  @Test
  void groupingSelectsAndTwoCallsAreLeftAlone() {
    String aggregate = "SELECT count(*), generate_series(1, 2) FROM t";
    assertThat(SetReturningSelectList.rewrite(aggregate)).isEqualTo(aggregate);
    String grouped = "SELECT k, generate_series(1, 2) FROM t GROUP BY k";
    assertThat(SetReturningSelectList.rewrite(grouped)).isEqualTo(grouped);
    String two = "SELECT generate_series(1, 2), generate_series(1, 3) FROM t";
    assertThat(SetReturningSelectList.rewrite(two)).isEqualTo(two);
  }
}
