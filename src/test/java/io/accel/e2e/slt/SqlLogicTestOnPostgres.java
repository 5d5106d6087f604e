package io.accel.e2e.slt;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.accel.e2e.Services;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the same sqllogictest scripts against PostgreSQL, the oracle: proves that every expected result
 * in the files is what PostgreSQL itself returns. Each file runs in a fresh schema ({@code CREATE SCHEMA
 * slt_<file>_<n>; SET search_path TO it}, dropped with CASCADE afterwards) with {@code TimeZone=UTC}.
 * skipif/onlyif lines are matched against the engine name {@code postgresql}, so records written
 * {@code onlyif accel} (Accel's own behaviour) are skipped here. Skips outside CI when PostgreSQL is down
 * (see {@link Services}).
 */
class SqlLogicTestOnPostgres {
  static final String ENGINE = "postgresql";

  @TestFactory
  Stream<DynamicTest> sqlLogicTestsOnPostgres() {
    List<Path> files = SltFiles.discover();
    assertFalse(files.isEmpty(), "no *.test files under " + SltFiles.root());
    return files.stream().map(f -> DynamicTest.dynamicTest(SltFiles.displayName(f), f.toUri(), () -> runFile(f)));
  }

  private static void runFile(Path file) throws Exception {
    SltScript script = SltFiles.load(file);
    SltResult result;
    try (Connection connection = Services.postgres()) {
      String schema = openSchema(connection, file);
      try {
        result = new SltRunner(new JdbcSltConnection(connection, 60), ENGINE).run(script);
      } finally {
        dropSchema(connection, schema);
      }
    }
    System.out.println(result.report());
    if (!result.passed()) {
      fail(result.report());
    }
  }

  /** Creates a fresh schema for the file and makes it the only one searched; returns its name. */
  static String openSchema(Connection connection, Path file) throws SQLException {
    String schema = "slt_" + SltFiles.identifier(file) + "_" + Long.toHexString(System.nanoTime() & 0xffffffL);
    try (Statement st = connection.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      st.execute("CREATE SCHEMA " + schema);
      st.execute("SET search_path TO " + schema);
      st.execute("SET TIME ZONE 'UTC'");
    }
    return schema;
  }

  static void dropSchema(Connection connection, String schema) throws SQLException {
    try (Statement st = connection.createStatement()) {
      try {
        st.execute("ROLLBACK"); // a script may end inside a transaction block
      } catch (SQLException ignored) {
        // not in a transaction
      }
      st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
