package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuantifiedLikeTest {
  @Test
  void likeAnyBecomesACallWithItsFlags() {
    assertThat(QuantifiedLike.rewrite("SELECT id FROM t WHERE name LIKE ANY (ARRAY['a%', 'b%'])"))
        .isEqualTo("SELECT id FROM t WHERE accel_like_quantified(name, ARRAY['a%', 'b%'], false, false, false)");
    assertThat(QuantifiedLike.rewrite("SELECT x ILIKE ALL (?)"))
        .isEqualTo("SELECT accel_like_quantified(x, ?, true, false, true)");
  }

  @Test
  void notNegatesEachMatchAndStaysInside() {
    assertThat(QuantifiedLike.rewrite("SELECT t.a NOT LIKE SOME (p) AND b"))
        .isEqualTo("SELECT accel_like_quantified(t.a, p, false, true, false) AND b");
  }

  @Test
  void theLeftOperandTakesConcatenationAndCalls() {
    assertThat(QuantifiedLike.rewrite("SELECT 1 WHERE k = 1 AND a || upper(b) LIKE ANY (ARRAY['x'])"))
        .isEqualTo("SELECT 1 WHERE k = 1 AND accel_like_quantified(a || upper(b), ARRAY['x'], false, false, false)");
  }

  @Test
  void plainLikeAndStringsAreLeftAlone() {
    String sql = "SELECT 'x LIKE ANY (y)' FROM t WHERE a LIKE 'b%'";
    assertThat(QuantifiedLike.rewrite(sql)).isEqualTo(sql);
  }
}
