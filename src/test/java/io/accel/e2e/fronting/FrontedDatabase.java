package io.accel.e2e.fronting;

import io.accel.e2e.Services;
import io.accel.jdbc.AccelDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test's own database on the logical-replication PostgreSQL: no mirror slot or publication before or after each
 * test, the test's tables made afresh by {@link #createTables}, and a mirror of it in the test's directory.
 */
abstract class FrontedDatabase {
  @TempDir
  Path dir;
  /** A plain connection to the upstream database. */
  Connection pg;

  abstract String database();

  /** Creates the test's tables upstream (dropping what an earlier run left). */
  abstract void createTables(Statement upstream) throws SQLException;

  @BeforeEach
  void upstream() throws SQLException {
    AccelDriver.load();
    pg = Services.logicalPostgres(database());
    try (Statement s = pg.createStatement()) {
      Services.dropMirrorObjects(s, database());
      createTables(s);
    }
  }

  @AfterEach
  void dropMirror() throws SQLException {
    if (pg != null) {
      try (Statement s = pg.createStatement()) {
        Services.dropMirrorObjects(s, database());
      }
      pg.close();
    }
  }

  /** A connection through Accel, with {@code options} ({@code &name=value...}) after the mirror's. */
  Connection accel(String options) throws SQLException {
    return DriverManager.getConnection("jdbc:accel:postgresql://" + Services.LOGICAL_HOST_PORT + "/" + database()
        + "?user=postgres&mirrorDir=" + dir + options);
  }
}
