package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** pg_advisory_lock and friends between two sessions of one store, as Flyway takes them around a migration. */
class AdvisoryLockTest extends EngineTestBase {
  private Session other;
  private int otherKeys;

  @BeforeEach
  void openOther() {
    other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
  }

  @AfterEach
  void closeOther() {
    other.close();
  }

  private Object otherValue(String sql) {
    try (Result r = other.execute("o" + otherKeys++, sql)) {
      return r.cursor().next();
    }
  }

  private Object value(String sql) {
    return rows(sql).get(0);
  }

  @Test
  void aSessionLockExcludesOtherSessionsUntilUnlockedAsOftenAsLocked() {
    // Flyway's key is beyond INTEGER: the literal is a NUMERIC to the parser
    long key = 77_399_749_210_489L;
    assertThat(value("SELECT pg_try_advisory_lock(" + key + ")")).isEqualTo(true);
    assertThat(value("SELECT pg_try_advisory_lock(" + key + ")")).isEqualTo(true);
    assertThat(otherValue("SELECT pg_try_advisory_lock(" + key + ")")).isEqualTo(false);
    assertThat(otherValue("SELECT pg_advisory_unlock(" + key + ")")).isEqualTo(false);
    assertThat(value("SELECT pg_advisory_unlock(" + key + ")")).isEqualTo(true);
    assertThat(otherValue("SELECT pg_try_advisory_lock(" + key + ")")).isEqualTo(false);
    assertThat(value("SELECT pg_advisory_unlock(" + key + ")")).isEqualTo(true);
    assertThat(value("SELECT pg_advisory_unlock(" + key + ")")).isEqualTo(false);
    assertThat(otherValue("SELECT pg_try_advisory_lock(" + key + ")")).isEqualTo(true);
    assertThat(value("SELECT pg_try_advisory_lock(7)")).isEqualTo(true);
    assertThat(otherValue("SELECT pg_try_advisory_lock(7)")).isEqualTo(false);
  }

  @Test
  void aTransactionLockEndsWithTheTransactionAndOutsideOneWithTheStatement() {
    run("BEGIN");
    assertThat(value("SELECT pg_try_advisory_xact_lock(42)")).isEqualTo(true);
    assertThat(otherValue("SELECT pg_try_advisory_xact_lock(42)")).isEqualTo(false);
    run("SELECT 1");
    assertThat(otherValue("SELECT pg_try_advisory_lock(42)")).isEqualTo(false);
    run("COMMIT");
    assertThat(otherValue("SELECT pg_try_advisory_xact_lock(42)")).isEqualTo(true);
    // the other session took it in autocommit: its statement's transaction has ended
    s.setAutoCommit(false);
    assertThat(value("SELECT pg_try_advisory_xact_lock(42)")).isEqualTo(true);
    s.rollback();
    assertThat(otherValue("SELECT pg_try_advisory_xact_lock(42)")).isEqualTo(true);
  }

  @Test
  void aBlockingLockWaitsForTheHolderAndClosingASessionReleasesItsLocks() throws Exception {
    assertThat(value("SELECT pg_try_advisory_lock(5)")).isEqualTo(true);
    CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> otherValue("SELECT pg_advisory_lock(5)"));
    Thread.sleep(100);
    assertThat(waiting).isNotDone();
    s.close();
    assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("");
    assertThat(otherValue("SELECT pg_advisory_unlock(5)")).isEqualTo(true);
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
  }

  @Test
  void aBlockingLockStopsAtTheStatementTimeout() {
    assertThat(value("SELECT pg_try_advisory_lock(6)")).isEqualTo(true);
    other.execute("o" + otherKeys++, "SET statement_timeout = 100").close();
    var e = failure(() -> otherValue("SELECT pg_advisory_lock(6)"));
    assertThat(e.state().code()).isEqualTo("57014");
    assertThat(e.getMessage()).contains("statement timeout");
    run("SELECT pg_advisory_unlock_all()");
    assertThat(otherValue("SELECT pg_try_advisory_lock(6)")).isEqualTo(true);
  }
}
