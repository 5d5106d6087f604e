package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** LISTEN / UNLISTEN / NOTIFY and pg_notify between sessions of one store, with PostgreSQL 15's semantics. */
class NotificationTest extends EngineTestBase {

  private static List<String> drain(Session session) {
    List<String> out = new ArrayList<>();
    for (var n = session.pollNotification(); n.isPresent(); n = session.pollNotification()) {
      out.add(n.get().channel() + ":" + n.get().payload());
    }
    return out;
  }

  @Test
  void aNotificationReachesEveryListenerIncludingTheNotifier() throws Exception {
    try (Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "other"))) {
      AtomicInteger woken = new AtomicInteger();
      other.onNotification(woken::incrementAndGet);
      run("LISTEN c1");
      other.execute("o", "LISTEN c1");
      run("NOTIFY c1, 'a'");
      run("NOTIFY c2, 'not listened'");
      assertThat(drain(s)).containsExactly("c1:a");
      assertThat(drain(other)).containsExactly("c1:a");
      assertThat(woken).hasValue(1);
      run("NOTIFY c1, 'b'");
      assertThat(s.pollNotification().get().processId()).isEqualTo(s.processId());
      assertThat(drain(other)).containsExactly("c1:b");
      other.execute("o", "UNLISTEN c1");
      run("NOTIFY c1, 'c'");
      assertThat(drain(other)).isEmpty();
      assertThat(drain(s)).containsExactly("c1:c");
    }
  }

  @Test
  void aBlockSendsAtCommitFoldsDuplicatesAndRollbackSendsNothing() {
    run("LISTEN c1");
    run("BEGIN");
    run("NOTIFY c1, 'x'");
    run("NOTIFY c1, 'x'");
    run("NOTIFY c1, 'y'");
    run("NOTIFY c1, 'x'");
    assertThat(drain(s)).isEmpty(); // not before the commit
    run("COMMIT");
    assertThat(drain(s)).containsExactly("c1:x", "c1:y");
    run("BEGIN");
    run("NOTIFY c1, 'r'");
    run("ROLLBACK");
    assertThat(drain(s)).isEmpty();
    run("BEGIN");
    run("NOTIFY c1, 's1'");
    run("SAVEPOINT a");
    run("NOTIFY c1, 's2'");
    run("ROLLBACK TO a");
    run("COMMIT");
    assertThat(drain(s)).containsExactly("c1:s1");
    run("BEGIN");
    run("NOTIFY c1, 'e'");
    failure(() -> run("SELECT 1/0"));
    run("COMMIT"); // a failed block's COMMIT rolls back
    assertThat(drain(s)).isEmpty();
  }

  @Test
  void pgNotifyIsNotifyAndChecksItsArguments() {
    run("LISTEN c1");
    assertThat(rows("SELECT pg_notify('c1', 'f')")).containsExactly(""); // void: empty, not NULL
    run("NOTIFY c1");
    assertThat(rows("SELECT pg_notify('c1', NULL)")).hasSize(1);
    assertThat(drain(s)).containsExactly("c1:f", "c1:", "c1:"); // two transactions: not folded
    assertThat(failure(() -> run("SELECT pg_notify('', 'x')")).state().code()).isEqualTo("22023");
    assertThat(failure(() -> run("SELECT pg_notify(NULL, 'x')")).getMessage())
        .isEqualTo("channel name cannot be empty");
    assertThat(failure(() -> run("NOTIFY c1, 'x', 'y'")).state().code()).isEqualTo("42601");
    assertThat(failure(() -> run("NOTIFY c1, '" + "x".repeat(8000) + "'")).getMessage())
        .isEqualTo("payload string too long");
  }

  @Test
  void listenInABlockTakesEffectAtCommitAndUnlistenStarStopsAll() {
    run("BEGIN");
    run("LISTEN c1");
    run("LISTEN \"Mixed\"");
    run("ROLLBACK");
    run("NOTIFY c1, 'a'");
    assertThat(drain(s)).isEmpty();
    run("BEGIN");
    run("LISTEN c1");
    run("LISTEN \"Mixed\"");
    run("COMMIT");
    run("NOTIFY \"Mixed\", 'm'");
    run("NOTIFY mixed, 'm2'");
    run("NOTIFY c1, 'b'");
    assertThat(drain(s)).containsExactly("Mixed:m", "c1:b");
    run("UNLISTEN *");
    run("NOTIFY c1, 'gone'");
    assertThat(drain(s)).isEmpty();
  }

  @Test
  void aClosedSessionListensNoMore() throws Exception {
    Session other = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "other"));
    other.execute("o", "LISTEN c1");
    other.close();
    run("NOTIFY c1, 'x'");
    assertThat(db.notifications().channels()).isEmpty();
  }
}
