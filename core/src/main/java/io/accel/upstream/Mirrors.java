package io.accel.upstream;

import io.accel.storage.StoreOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * The mirrors open in this process: one per upstream database, shared by every connection to it and closed when
 * the last of them closes (its store keeps the position, so the next open resumes the stream).
 */
public final class Mirrors {
  private static final Map<String, Entry> OPEN = new HashMap<>();

  private Mirrors() {
  }

  private static final class Entry {
    final Mirror mirror;
    int references;

    Entry(Mirror mirror) {
      this.mirror = mirror;
    }
  }

  /** Opens (or joins) the mirror of {@code config}'s upstream; the first open may take a snapshot. */
  public static Mirror acquire(UpstreamConfig config, StoreOptions options) {
    synchronized (OPEN) {
      Entry e = OPEN.get(config.mirrorKey());
      if (e == null) {
        e = new Entry(Mirror.open(config, options));
        OPEN.put(config.mirrorKey(), e);
      }
      e.references++;
      return e.mirror;
    }
  }

  /** How many connections hold the mirror. */
  static int references(Mirror mirror) {
    synchronized (OPEN) {
      Entry e = OPEN.get(mirror.config().mirrorKey());
      return e != null && e.mirror == mirror ? e.references : 0;
    }
  }

  /** Closes {@code mirror} whatever connections still hold it: the application has ended without closing them. */
  static void abandon(Mirror mirror) {
    synchronized (OPEN) {
      Entry e = OPEN.get(mirror.config().mirrorKey());
      if (e == null || e.mirror != mirror || mirror.isClosed()) {
        return;
      }
      OPEN.remove(mirror.config().mirrorKey());
      mirror.close();
    }
  }

  public static void release(Mirror mirror) {
    synchronized (OPEN) {
      Entry e = OPEN.get(mirror.config().mirrorKey());
      if (e != null && e.mirror == mirror && --e.references == 0) {
        OPEN.remove(mirror.config().mirrorKey());
        mirror.close();
      }
    }
  }
}
