package io.accel.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One store's LISTEN / NOTIFY channels: which sessions listen on each channel, and every listening session's
 * inbox. A committed transaction's notifications are {@link #publish published} to each session listening on
 * their channel, the notifier included, in the order it sent them.
 */
public final class Notifications {
  /** A notification as a listener receives it: the notifying session's process id, the channel and payload. */
  public record Notification(int processId, String channel, String payload) {
  }

  /** The most notifications a session's inbox holds unread; past it the oldest are dropped (and counted). */
  public static final int INBOX_CAPACITY = 10_000;

  /** One session's unread notifications; a frontend's wake-up runs when some arrive (on the notifier's thread). */
  static final class Inbox {
    private final ArrayDeque<Notification> queue = new ArrayDeque<>();
    private volatile Runnable wakeUp;
    private long dropped;

    private synchronized void add(Notification n) {
      if (queue.size() >= INBOX_CAPACITY) {
        queue.poll();
        dropped++;
      }
      queue.add(n);
    }

    synchronized Notification poll() {
      return queue.poll();
    }

    synchronized long dropped() {
      return dropped;
    }

    void wakeUp(Runnable r) {
      wakeUp = r;
    }

    private void wake() {
      Runnable r = wakeUp;
      if (r != null) {
        r.run();
      }
    }
  }

  private final Map<String, Set<Inbox>> channels = new HashMap<>();

  synchronized void listen(String channel, Inbox inbox) {
    channels.computeIfAbsent(channel, c -> new LinkedHashSet<>()).add(inbox);
  }

  synchronized void unlisten(String channel, Inbox inbox) {
    Set<Inbox> set = channels.get(channel);
    if (set != null && set.remove(inbox) && set.isEmpty()) {
      channels.remove(channel);
    }
  }

  synchronized void unlistenAll(Collection<String> listened, Inbox inbox) {
    for (String channel : listened) {
      unlisten(channel, inbox);
    }
  }

  /** Delivers a committed transaction's notifications to every session listening on their channels. */
  void publish(Collection<Notification> notifications) {
    Set<Inbox> woken = new LinkedHashSet<>();
    synchronized (this) {
      for (Notification n : notifications) {
        Set<Inbox> set = channels.get(n.channel());
        if (set != null) {
          for (Inbox inbox : set) {
            inbox.add(n);
            woken.add(inbox);
          }
        }
      }
    }
    for (Inbox inbox : woken) {
      inbox.wake();
    }
  }

  /** The channels sessions listen on (for status). */
  synchronized List<String> channels() {
    return new ArrayList<>(channels.keySet());
  }
}
