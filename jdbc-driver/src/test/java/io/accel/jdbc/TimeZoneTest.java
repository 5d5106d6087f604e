package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Date and time values in a JVM whose default zone is not UTC: nothing may shift between what the
 * application binds, what SQL sees and what it reads back. The JVM zone is fixed at startup in real
 * applications, so each zone runs in a JVM of its own ({@link #main}).
 */
class TimeZoneTest {
  @ParameterizedTest
  @ValueSource(strings = {"America/Los_Angeles", "Asia/Kolkata", "UTC"})
  void valuesRoundTripInAJvmRunningIn(String zone) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx256m", "-Duser.timezone=" + zone,
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
        TimeZoneTest.class.getName())
        .redirectErrorStream(true)
        .start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      in.transferTo(out);
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String output = out.toString(StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).contains("ok in " + zone);
  }

  /** Runs the checks in this JVM's default zone; exits non-zero when one fails. */
  public static void main(String[] args) throws Exception {
    try {
      check();
      System.out.println("ok in " + TimeZone.getDefault().getID());
      System.exit(0);
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      System.exit(1);
    }
  }

  private static void check() throws SQLException {
    ZoneId zone = TimeZone.getDefault().toZoneId();
    Instant instant = Instant.parse("2024-07-01T03:00:00Z");
    String localOfInstant = LocalDateTime.ofInstant(instant, zone).format(DateTimeFormatter.ofPattern(
        "yyyy-MM-dd HH:mm:ss"));
    try (Connection c = DriverManager.getConnection("jdbc:accel:mem:tz")) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE tz (id INTEGER PRIMARY KEY, d DATE, t TIME, ts TIMESTAMP,"
            + " tstz TIMESTAMP WITH TIME ZONE)");
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO tz VALUES (?, ?, ?, ?, ?)")) {
        ps.setInt(1, 1);
        ps.setDate(2, Date.valueOf("2024-07-01"));
        ps.setTime(3, Time.valueOf("23:30:00"));
        ps.setTimestamp(4, Timestamp.valueOf("2024-07-01 23:30:00"));
        ps.setTimestamp(5, Timestamp.from(instant));
        ps.executeUpdate();
        ps.setInt(1, 2);
        ps.setObject(2, LocalDate.of(2024, 7, 1));
        ps.setObject(3, LocalTime.of(23, 30));
        ps.setObject(4, LocalDateTime.of(2024, 7, 1, 23, 30));
        ps.setObject(5, instant.atOffset(ZoneOffset.ofHours(-7)));
        ps.executeUpdate();
      }
      try (Statement s = c.createStatement()) {
        // a timestamp without zone becomes one with zone in the session's (the JVM's) zone, as in PostgreSQL
        s.executeUpdate("INSERT INTO tz VALUES (3, DATE '2024-07-01', TIME '23:30:00', TIMESTAMP '2024-07-01 23:30:00',"
            + " TIMESTAMP '" + localOfInstant + "')");
        try (ResultSet rs = s.executeQuery("SELECT * FROM tz ORDER BY id")) {
          for (int id = 1; id <= 3; id++) {
            assertThat(rs.next()).isTrue();
            String row = "row " + id + " in " + zone;
            assertThat(rs.getDate("d")).as(row).isEqualTo(Date.valueOf("2024-07-01"));
            assertThat(rs.getString("d")).as(row).isEqualTo("2024-07-01");
            assertThat(rs.getObject("d", LocalDate.class)).as(row).isEqualTo(LocalDate.of(2024, 7, 1));
            assertThat(rs.getTime("t")).as(row).isEqualTo(Time.valueOf("23:30:00"));
            assertThat(rs.getString("t")).as(row).startsWith("23:30:00");
            assertThat(rs.getObject("t", LocalTime.class)).as(row).isEqualTo(LocalTime.of(23, 30));
            assertThat(rs.getTimestamp("ts")).as(row).isEqualTo(Timestamp.valueOf("2024-07-01 23:30:00"));
            assertThat(rs.getString("ts")).as(row).startsWith("2024-07-01 23:30:00");
            assertThat(rs.getObject("ts", LocalDateTime.class)).as(row).isEqualTo(LocalDateTime.of(2024, 7, 1, 23, 30));
            assertThat(rs.getObject("tstz", Instant.class)).as(row).isEqualTo(instant);
            assertThat(rs.getTimestamp("tstz").toInstant()).as(row).isEqualTo(instant);
          }
        }
        // SQL sees the same values as the application bound
        try (ResultSet rs = s.executeQuery("SELECT id FROM tz WHERE d = DATE '2024-07-01' AND t = TIME '23:30:00'"
            + " AND ts = TIMESTAMP '2024-07-01 23:30:00' AND tstz = (SELECT tstz FROM tz WHERE id = 3) ORDER BY id")) {
          assertThat(TestRows.of(rs)).as("rows equal to the literals in " + zone).containsExactly(1, 2, 3);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM tz WHERE d = ? AND t = ? AND ts = ? AND tstz = ?"
          + " ORDER BY id")) {
        ps.setDate(1, Date.valueOf("2024-07-01"));
        ps.setTime(2, Time.valueOf("23:30:00"));
        ps.setTimestamp(3, Timestamp.valueOf("2024-07-01 23:30:00"));
        ps.setTimestamp(4, Timestamp.from(instant));
        assertThat(TestRows.of(ps.executeQuery())).as("rows matching parameters in " + zone).containsExactly(1, 2, 3);
      }
    }
  }

  /** The first column of every row, as ints. */
  private static final class TestRows {
    static List<Integer> of(ResultSet rs) throws SQLException {
      List<Integer> ids = new java.util.ArrayList<>();
      try (rs) {
        while (rs.next()) {
          ids.add(rs.getInt(1));
        }
      }
      return ids;
    }
  }
}
