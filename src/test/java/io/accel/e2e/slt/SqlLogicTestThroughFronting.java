package io.accel.e2e.slt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.accel.e2e.Services;
import io.accel.jdbc.AccelDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The sqllogictest scripts through {@code jdbc:accel:postgresql://}: writes and DDL go to the upstream PostgreSQL,
 * reads of mirrored tables run on the mirror once it has the connection's writes, and every result must be the one
 * PostgreSQL gives. A statement may run on either engine, so only the records both engines agree on run (a
 * record marked {@code skipif accel} is a known gap of the local engine, which a local read would show). Each file
 * starts from an empty upstream database and a new mirror.
 */
class SqlLogicTestThroughFronting {
  private static final String DB = "accel_slt";
  private static final AtomicLong LOCAL = new AtomicLong();

  @TestFactory
  Stream<DynamicTest> sqlLogicTestsThroughFronting() {
    List<Path> files = SltFiles.discover();
    return files.stream().map(f -> DynamicTest.dynamicTest(SltFiles.displayName(f), f.toUri(), () -> runFile(f)));
  }

  @AfterAll
  static void someReadsRanLocally() {
    if (LOCAL.get() >= 0) {
      assertThat(LOCAL.get()).as("statements the mirror answered across the scripts").isGreaterThan(50);
    }
  }

  private static void runFile(Path file) throws Exception {
    AccelDriver.load();
    SltScript script = SltFiles.load(file);
    Services.resetLogicalDatabase(DB);
    Path mirror = Files.createTempDirectory("accel-slt-mirror");
    SltResult result;
    String url = "jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + DB + "?user=postgres&mirrorDir="
        + mirror;
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement st = c.createStatement()) {
        st.execute("SET TIME ZONE 'UTC'");
      }
      result = new SltRunner(new JdbcSltConnection(c, 60), "accel+" + SqlLogicTestOnPostgres.ENGINE).run(script);
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW ACCEL STATUS")) {
        while (rs.next()) {
          if (rs.getString(1).equals("statements run locally")) {
            LOCAL.addAndGet(Long.parseLong(rs.getString(2)));
          }
        }
      }
      try (Statement st = c.createStatement()) {
        st.execute("ROLLBACK"); // a script may end inside a transaction block
        // the slot would make PostgreSQL keep WAL for this mirror from run to run
        st.execute("DROP ACCEL MIRROR");
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    System.out.println(result.report());
    if (!result.passed()) {
      fail(result.report());
    }
  }
}
