package io.accel.e2e.slt;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every sqllogictest file again, on a store with {@code autoCache=true}: each file's queries run twice in a row
 * (the second execution defines the query's cache and the third would be a hit, so each is run three times), and
 * every answer must still be the expected one, which PostgreSQL's run of the same files proves. A cached result that
 * a write or DDL between two queries should have dropped shows up as a mismatch.
 */
class SqlLogicTestAutoCache {
  @TestFactory
  Stream<DynamicTest> sqlLogicTestsWithAutoCache() {
    List<Path> files = SltFiles.discover();
    assertFalse(files.isEmpty(), "no *.test files under " + SltFiles.root());
    return files.stream().map(f -> DynamicTest.dynamicTest(SltFiles.displayName(f), f.toUri(), () -> runFile(f)));
  }

  private static void runFile(Path file) throws Exception {
    SltScript script = SltFiles.load(file);
    String url = "jdbc:accel:mem:sltcache_" + SltFiles.identifier(file) + "_" + System.nanoTime() + "?autoCache=true";
    SltResult result;
    long hits = 0;
    RepeatingConnection repeating;
    try (Connection connection = DriverManager.getConnection(url)) {
      repeating = new RepeatingConnection(new JdbcSltConnection(connection, 60));
      result = assertTimeoutPreemptively(SqlLogicTest.FILE_TIMEOUT,
          () -> new SltRunner(repeating, SqlLogicTest.ENGINE, false).run(script),
          () -> script.name() + " did not finish within " + SqlLogicTest.FILE_TIMEOUT);
      try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW CACHES")) {
        while (rs.next()) {
          hits += rs.getLong("count");
        }
      }
    }
    if (!result.passed()) {
      fail(result.report());
    }
    // the answers checked were cached ones: a file of many repeated queries without a hit tested nothing
    if (repeating.repeated() >= 20 && hits == 0) {
      fail(script.name() + ": " + repeating.repeated() + " queries ran three times and none was answered from a cache");
    }
  }
}
