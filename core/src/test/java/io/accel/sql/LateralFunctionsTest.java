package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LateralFunctionsTest {
  @Test
  void aFunctionAfterACommaOrJoinIsALateralTable() {
    assertThat(LateralFunctions.rewrite("SELECT * FROM t, jsonb_each(t.doc) AS e"))
        .isEqualTo("SELECT * FROM t, LATERAL TABLE(jsonb_each(t.doc)) AS e");
    assertThat(LateralFunctions.rewrite("SELECT * FROM t LEFT JOIN LATERAL jsonb_array_elements(t.doc) e ON true"))
        .isEqualTo("SELECT * FROM t LEFT JOIN LATERAL TABLE(jsonb_array_elements(t.doc)) e ON true");
  }

  @Test
  void anAliasNamesTheOneColumnOfAPlainFunction() {
    assertThat(LateralFunctions.rewrite("SELECT k FROM t CROSS JOIN LATERAL jsonb_object_keys(t.doc) AS k"))
        .isEqualTo("SELECT k FROM t CROSS JOIN LATERAL TABLE(jsonb_object_keys(t.doc)) AS k(k)");
    assertThat(LateralFunctions.rewrite("SELECT s FROM t, generate_series(1, t.n) s(n) WHERE s.n > 1"))
        .isEqualTo("SELECT s FROM t, LATERAL TABLE(generate_series(1, t.n)) s(n) WHERE s.n > 1");
  }

  @Test
  void theFirstFromItemAndOtherClausesAreLeftAlone() {
    String first = "SELECT * FROM jsonb_each('{}') e";
    assertThat(LateralFunctions.rewrite(first)).isEqualTo(first);
    String selectList = "SELECT a, jsonb_object_keys(b) FROM t WHERE c IN (1, jsonb_array_length(d))";
    assertThat(LateralFunctions.rewrite(selectList)).isEqualTo(selectList);
  }
}
