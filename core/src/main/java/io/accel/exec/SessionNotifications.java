package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * One session's side of LISTEN / NOTIFY, with PostgreSQL's transaction semantics: NOTIFY is sent at commit (none
 * on rollback, nor for a savepoint rolled back to; a repeated channel and payload folded into one), and in a
 * block LISTEN and UNLISTEN take effect at commit too.
 */
final class SessionNotifications {
  private final Notifications registry;
  private final Notifications.Inbox inbox = new Notifications.Inbox();
  /** Channels listened on, as committed. */
  private final LinkedHashSet<String> listening = new LinkedHashSet<>();
  /** The transaction's notifications, in order, duplicates folded. */
  private LinkedHashSet<Notifications.Notification> pending = new LinkedHashSet<>();
  /** The transaction's LISTEN (channel), UNLISTEN (channel, negated by the flag) and UNLISTEN * (null channel). */
  private final List<Action> actions = new ArrayList<>();

  private record Action(String channel, boolean listen) {
  }

  /** Where a savepoint leaves the transaction's notifications and actions. */
  record Mark(int notifications, int actions) {
  }

  SessionNotifications(Notifications registry) {
    this.registry = registry;
  }

  Notifications.Inbox inbox() {
    return inbox;
  }

  void listen(String channel, boolean inBlock) {
    checkChannel(channel);
    actions.add(new Action(channel, true));
    if (!inBlock) {
      commit();
    }
  }

  void unlisten(Optional<String> channel, boolean inBlock) {
    actions.add(new Action(channel.orElse(null), false));
    if (!inBlock) {
      commit();
    }
  }

  /** NOTIFY or pg_notify: 22023 for an empty or over-long channel name or a payload of 8000 bytes or more. */
  void notify(int processId, String channel, String payload, boolean inBlock) {
    checkChannel(channel);
    String p = payload == null ? "" : payload;
    if (p.getBytes(StandardCharsets.UTF_8).length >= 8000) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "payload string too long");
    }
    pending.add(new Notifications.Notification(processId, channel, p));
    if (!inBlock) {
      commit();
    }
  }

  private static void checkChannel(String channel) {
    if (channel == null || channel.isEmpty()) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "channel name cannot be empty");
    }
    if (channel.getBytes(StandardCharsets.UTF_8).length >= 64) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "channel name too long");
    }
  }

  Mark mark() {
    return new Mark(pending.size(), actions.size());
  }

  void rollbackTo(Mark mark) {
    if (pending.size() > mark.notifications()) {
      LinkedHashSet<Notifications.Notification> kept = new LinkedHashSet<>();
      for (Notifications.Notification n : pending) {
        if (kept.size() == mark.notifications()) {
          break;
        }
        kept.add(n);
      }
      pending = kept;
    }
    actions.subList(Math.min(mark.actions(), actions.size()), actions.size()).clear();
  }

  /** The transaction committed: its LISTEN / UNLISTEN take effect, then its notifications go out. */
  void commit() {
    for (Action a : actions) {
      if (a.listen()) {
        if (listening.add(a.channel())) {
          registry.listen(a.channel(), inbox);
        }
      } else if (a.channel() == null) {
        registry.unlistenAll(listening, inbox);
        listening.clear();
      } else if (listening.remove(a.channel())) {
        registry.unlisten(a.channel(), inbox);
      }
    }
    actions.clear();
    if (!pending.isEmpty()) {
      List<Notifications.Notification> sent = new ArrayList<>(pending);
      pending.clear();
      registry.publish(sent);
    }
  }

  /** The transaction rolled back: nothing it did happens. */
  void discard() {
    pending.clear();
    actions.clear();
  }

  void close() {
    discard();
    registry.unlistenAll(listening, inbox);
    listening.clear();
  }
}
