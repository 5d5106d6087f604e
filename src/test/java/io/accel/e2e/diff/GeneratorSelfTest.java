package io.accel.e2e.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generator against PostgreSQL alone, with every feature on: everything it produces must be SQL PostgreSQL
 * accepts (a rejected statement is a generator bug, not an engine bug). Needs no Accel driver.
 */
class GeneratorSelfTest {
  static List<Long> seeds() {
    return DiffSeeds.seeds(6);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void postgresAcceptsEverythingGenerated(long seed) throws Exception {
    try (Connection pg = Services.postgres()) {
      DiffRunner runner = new DiffRunner(seed, Features.all(), pg, null);
      try {
        if (runner.setup()) {
          runner.runQueries(Integer.getInteger("diff.queries", 300));
          runner.runDml(Integer.getInteger("diff.dml", 80));
          runner.runQueries(Integer.getInteger("diff.queries", 300) / 4);
        }
      } finally {
        runner.close();
      }
      System.out.println("generator self-test " + runner.summary() + "\n slowest:\n" + runner.slowestQueries());
      assertThat(runner.generatorBugs).as("statements PostgreSQL rejected").isEmpty();
      assertThat(runner.queriesSkipped).as("queries skipped as too large")
          .isLessThan(Integer.getInteger("diff.queries", 300) / 5);
    }
  }
}
