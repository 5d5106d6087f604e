package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ANALYZE in PostgreSQL's forms (and MySQL's ANALYZE TABLE). */
class AnalyzeCommandParserTest {

  private static Command parse(String sql) {
    return CommandParser.parse(sql).orElseThrow();
  }

  private static void assertState(String sql, SqlState state) {
    assertThatThrownBy(() -> CommandParser.parse(sql))
        .isInstanceOfSatisfying(AccelException.class, e -> assertThat(e.state()).isEqualTo(state));
  }

  @Test
  void forms() {
    assertThat(parse("ANALYZE")).isEqualTo(new Command.Analyze(List.of(), false));
    assertThat(parse("analyze;")).isEqualTo(new Command.Analyze(List.of(), false));
    assertThat(parse("ANALYZE Orders")).isEqualTo(new Command.Analyze(List.of("orders"), false));
    assertThat(parse("ANALYZE TABLE a, public.b;")).isEqualTo(new Command.Analyze(List.of("a", "b"), false));
    assertThat(parse("ANALYZE VERBOSE t")).isEqualTo(new Command.Analyze(List.of("t"), true));
    assertThat(parse("ANALYZE VERBOSE")).isEqualTo(new Command.Analyze(List.of(), true));
    assertThat(parse("ANALYSE \"T\"")).isEqualTo(new Command.Analyze(List.of("T"), false));
    assertThat(parse("ANALYZE (VERBOSE, SKIP_LOCKED false) t")).isEqualTo(new Command.Analyze(List.of("t"), true));
    assertThat(parse("ANALYZE (verbose off) t")).isEqualTo(new Command.Analyze(List.of("t"), false));
  }

  @Test
  void errors() {
    assertState("ANALYZE (nope) t", SqlState.SYNTAX_ERROR);
    assertState("ANALYZE TABLE", SqlState.SYNTAX_ERROR);
    assertState("ANALYZE t u", SqlState.SYNTAX_ERROR);
    assertState("ANALYZE t,", SqlState.SYNTAX_ERROR);
    assertState("ANALYZE other.t", SqlState.UNDEFINED_OBJECT);
    assertState("ANALYZE t (a, b)", SqlState.FEATURE_NOT_SUPPORTED);
  }
}
