package io.accel.e2e.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A query's memory is bounded by what it holds at once, not by its result: a SELECT of 10,000,000 rows is
 * read through one result set in a JVM of 256 MB. The rows come from a cross join of two 3,163-row tables
 * (no sort, no aggregate: they stream), so the test does not spend minutes loading 10 million rows; each
 * row carries a 40-character string, so the whole result would need well over a gigabyte at once.
 */
class LargeResultMemoryTest {
  static final int SIDE = 3_163;
  static final long ROWS = (long) SIDE * SIDE;

  @Test
  void tenMillionRowsStreamThroughA256MbHeap() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-ea", "-cp", System.getProperty("java.class.path"),
        LargeResultMemoryTest.class.getName());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(output).as(output).contains("rows=" + ROWS + " ok");
    assertThat(p.exitValue()).as(output).isZero();
  }

  /** The child JVM: loads the two sides, reads the cross join to its end, prints the count and a checksum. */
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:accel:mem:large-result")) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE side (id INTEGER PRIMARY KEY, pad VARCHAR(40) NOT NULL)");
      }
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO side VALUES (?, ?)")) {
        for (int i = 0; i < SIDE; i++) {
          ins.setInt(1, i);
          ins.setString(2, String.format("%040d", i));
          ins.addBatch();
        }
        ins.executeBatch();
      }
      long rows = 0;
      long sum = 0;
      try (Statement s = c.createStatement()) {
        s.setFetchSize(1000);
        try (ResultSet rs = s.executeQuery("SELECT a.id, b.id, b.pad FROM side a CROSS JOIN side b")) {
          while (rs.next()) {
            rows++;
            sum += rs.getInt(1) + rs.getInt(2) + rs.getString(3).length();
          }
        }
      }
      long expected = 2L * SIDE * ((long) SIDE * (SIDE - 1) / 2) + ROWS * 40;
      System.out.println("rows=" + rows + (sum == expected ? " ok" : " wrong checksum " + sum + " != " + expected));
    }
  }
}
