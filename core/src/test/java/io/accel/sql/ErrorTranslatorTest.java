package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorTranslatorTest {
  @Test
  void arithmeticFailuresAreTheirSqlStates() {
    assertThat(ErrorTranslator.translate(new ArithmeticException("/ by zero")).state())
        .isEqualTo(SqlState.DIVISION_BY_ZERO);
    assertThat(ErrorTranslator.translate(new ArithmeticException("integer overflow")).state())
        .isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
    // hot compiled code throws the JVM's preallocated division-by-zero exception, without a message: a division
    // by zero then read as "numeric value out of range" (22003), once the JIT had compiled the division
    AccelException fast = ErrorTranslator.translate(new RuntimeException(new ArithmeticException()));
    assertThat(fast.state()).isEqualTo(SqlState.DIVISION_BY_ZERO);
    assertThat(fast.getMessage()).isEqualTo("division by zero");
  }
}
