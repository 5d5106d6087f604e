package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connection.setSavepoint, rollback(Savepoint) and releaseSavepoint, and SQL savepoints through JDBC. */
class SavepointJdbcTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20))");
  }

  private List<List<Object>> ids() throws SQLException {
    return rows(c, "SELECT id FROM item ORDER BY id");
  }

  @Test
  void metadataSaysSavepointsAreSupported() throws SQLException {
    assertThat(c.getMetaData().supportsSavepoints()).isTrue();
  }

  @Test
  void unnamedAndNamedSavepointsRollBackAndRelease() throws SQLException {
    c.setAutoCommit(false);
    update(c, "INSERT INTO item VALUES (1, 'one')");
    Savepoint first = c.setSavepoint();
    update(c, "INSERT INTO item VALUES (2, 'two')");
    Savepoint named = c.setSavepoint("Named One");
    update(c, "INSERT INTO item VALUES (3, 'three')");
    Savepoint second = c.setSavepoint();
    assertThat(second.getSavepointId()).isNotEqualTo(first.getSavepointId());
    assertThat(named.getSavepointName()).isEqualTo("Named One");
    assertThat(expectState("42809", named::getSavepointId).getMessage())
        .isEqualTo("Cannot retrieve the id of a named savepoint.");
    assertThat(expectState("42809", first::getSavepointName).getMessage())
        .isEqualTo("Cannot retrieve the name of an unnamed savepoint.");

    update(c, "INSERT INTO item VALUES (4, 'four')");
    c.rollback(named);
    assertThat(ids()).containsExactly(List.of(1), List.of(2));
    // rolling back to "named" destroyed the later savepoint
    expectState("3B001", () -> c.rollback(second));
    assertThat(expectState("25P02", () -> update(c, "INSERT INTO item VALUES (5, 'five')")).getMessage())
        .contains("current transaction is aborted");
    c.rollback(named); // allowed in the failed transaction; it continues from there
    update(c, "INSERT INTO item VALUES (5, 'five')");
    c.releaseSavepoint(named);
    expectState("3B001", () -> c.rollback(named)); // released: pgJDBC's message
    c.rollback(first);
    assertThat(ids()).containsExactly(List.of(1));
    c.commit();
    assertThat(ids()).containsExactly(List.of(1));
    // after commit the savepoints are gone
    expectState("3B001", () -> c.rollback(first));
    c.rollback();
  }

  @Test
  void anErrorRolledBackToASavepointLeavesTheRestToCommit() throws SQLException {
    c.setAutoCommit(false);
    update(c, "INSERT INTO item VALUES (1, 'one')");
    Savepoint sp = c.setSavepoint();
    expectState("23505", c, "INSERT INTO item VALUES (1, 'again')");
    expectState("25P02", c, "SELECT 1");
    c.rollback(sp);
    update(c, "INSERT INTO item VALUES (2, 'two')");
    c.commit();
    c.setAutoCommit(true);
    assertThat(rows(c, "SELECT id, name FROM item ORDER BY id"))
        .containsExactly(List.of(1, "one"), List.of(2, "two"));
  }

  @Test
  void autocommitHasNoSavepoints() throws SQLException {
    assertThat(expectState("25P01", () -> c.setSavepoint()).getMessage())
        .isEqualTo("Cannot establish a savepoint in auto-commit mode.");
    expectState("25P01", () -> c.setSavepoint("x"));
    expectState("25P01", c, "SAVEPOINT x");
    expectState("25P01", c, "ROLLBACK TO SAVEPOINT x");
    expectState("25P01", c, "RELEASE x");
  }

  @Test
  void sqlSavepointsInABlockBegunWithBegin() throws SQLException {
    update(c, "BEGIN");
    update(c, "INSERT INTO item VALUES (1, 'one')");
    update(c, "SAVEPOINT s");
    update(c, "INSERT INTO item VALUES (2, 'two')");
    update(c, "ROLLBACK TO SAVEPOINT s");
    update(c, "COMMIT");
    assertThat(ids()).containsExactly(List.of(1));
  }

  @Test
  void aSavepointOfAnotherConnectionIsRefused() throws SQLException {
    Connection other = connect();
    other.setAutoCommit(false);
    c.setAutoCommit(false);
    Savepoint theirs = other.setSavepoint();
    expectState("3B001", () -> c.rollback(theirs));
    c.rollback();
    other.rollback();
  }
}
