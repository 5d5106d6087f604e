package io.accel.e2e.slt;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every sqllogictest script under src/test/resources/slt against Accel: one dynamic test per file,
 * each on a fresh in-memory store ({@code jdbc:accel:mem:slt_<file>_<nanotime>}) reached through the
 * JDBC driver, with one connection for the whole file. A file fails with the {@code file:line} of every
 * mismatching record. Records are matched against the engine name {@code accel} for skipif/onlyif.
 *
 * <p>Records Accel cannot pass yet are marked {@code skipif accel} (with a {@code # accel gap:} comment).
 * Run with {@code -Dslt.runGaps=true} to ignore those marks and see which gaps are still open: a marked
 * record that no longer shows up as a mismatch is fixed, and its mark should go.
 */
class SqlLogicTest {
  static final String ENGINE = "accel";
  static final Duration FILE_TIMEOUT = Duration.ofMinutes(5);
  static final boolean RUN_GAPS = Boolean.getBoolean("slt.runGaps");

  @TestFactory
  Stream<DynamicTest> sqlLogicTests() {
    List<Path> files = SltFiles.discover();
    assertFalse(files.isEmpty(), "no *.test files under " + SltFiles.root());
    return files.stream().map(f -> DynamicTest.dynamicTest(SltFiles.displayName(f), f.toUri(), () -> runFile(f)));
  }

  private static void runFile(Path file) throws Exception {
    SltScript script = SltFiles.load(file);
    String url = "jdbc:accel:mem:slt_" + SltFiles.identifier(file) + "_" + System.nanoTime();
    SltResult result;
    try (Connection connection = DriverManager.getConnection(url)) {
      result = assertTimeoutPreemptively(FILE_TIMEOUT,
          () -> new SltRunner(new JdbcSltConnection(connection, 60), ENGINE, RUN_GAPS).run(script),
          () -> script.name() + " did not finish within " + FILE_TIMEOUT);
    }
    System.out.println(result.report());
    if (!result.passed()) {
      fail(result.report());
    }
  }
}
