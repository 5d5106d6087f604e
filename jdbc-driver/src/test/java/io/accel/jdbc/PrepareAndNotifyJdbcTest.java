package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.exec.Notifications.Notification;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** SQL PREPARE / EXECUTE and LISTEN / NOTIFY through the driver on a standalone store. */
class PrepareAndNotifyJdbcTest extends JdbcTestSupport {

  @Test
  void prepareAndExecuteWorkThroughStatements() throws SQLException {
    Connection c = connect();
    update(c, "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)");
    update(c, "PREPARE ins(int, text) AS INSERT INTO t VALUES ($1, $2)");
    assertThat(update(c, "EXECUTE ins(1, 'one')")).isEqualTo(1);
    update(c, "PREPARE get(int) AS SELECT b FROM t WHERE a = $1");
    assertThat(scalar(c, "EXECUTE get(1)")).isEqualTo("one");
    assertThat(scalar(c, "SELECT count(*) FROM pg_prepared_statements")).isEqualTo(2L);
    try (java.sql.PreparedStatement ps = c.prepareStatement("EXECUTE get(?)")) {
      ps.setInt(1, 1);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("one");
      }
    }
    expectState("26000", c, "EXECUTE nosuch");
    expectState("42P05", c, "PREPARE get AS SELECT 1");
    update(c, "DEALLOCATE ALL");
    expectState("26000", c, "EXECUTE get(1)");
  }

  @Test
  void notificationsReachListenersAtCommit() throws Exception {
    Connection listener = connect();
    Connection notifier = connect();
    update(listener, "LISTEN jobs");
    AccelNotifications inbox = listener.unwrap(AccelNotifications.class);
    assertThat(inbox.getNotifications()).isEmpty();
    CompletableFuture<List<Notification>> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return inbox.getNotifications(10_000);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    notifier.setAutoCommit(false);
    update(notifier, "NOTIFY jobs, 'one'");
    scalar(notifier, "SELECT pg_notify('jobs', 'two')");
    Thread.sleep(200);
    assertThat(waiting).isNotDone(); // nothing before the commit
    notifier.commit();
    List<Notification> got = waiting.get(10, TimeUnit.SECONDS);
    if (got.size() < 2) {
      got = new java.util.ArrayList<>(got);
      got.addAll(inbox.getNotifications(1000));
    }
    assertThat(got).extracting(Notification::payload).containsExactly("one", "two");
    assertThat(got).extracting(Notification::channel).containsOnly("jobs");
    update(notifier, "NOTIFY jobs, 'rolled back'");
    notifier.rollback();
    assertThat(inbox.getNotifications(200)).isEmpty();
  }
}
