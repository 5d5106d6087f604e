package io.accel.e2e.fuzz;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The calls a fuzz run made, in order across all threads: the last {@value #RING} in memory (attached to each
 * violation, since a race involves the other threads' calls too), and every call of each thread in
 * {@code ops-<thread>.log}, written unbuffered so the file is complete when the JVM dies in native code.
 */
final class OpLog {
  private static final int RING = 256;
  private final AtomicReferenceArray<String> ring = new AtomicReferenceArray<>(RING);
  private final AtomicLong next = new AtomicLong();
  private final long start = System.nanoTime();
  private final Path dir;

  OpLog(Path dir) {
    this.dir = dir;
  }

  /** The log file of one thread. */
  PrintStream open(String thread) throws IOException {
    return new PrintStream(new FileOutputStream(dir.resolve("ops-" + thread + ".log").toFile()), true,
        StandardCharsets.UTF_8);
  }

  void add(String thread, PrintStream file, String call) {
    String line = String.format("%7.3fs %s %s", (System.nanoTime() - start) / 1e9, thread, call);
    ring.set((int) (next.getAndIncrement() % RING), line);
    if (file != null) {
      file.println(line);
    }
  }

  /** The last {@code n} calls of all threads, oldest first. */
  List<String> recent(int n) {
    long end = next.get();
    List<String> out = new ArrayList<>();
    for (long i = Math.max(0, end - Math.min(n, RING)); i < end; i++) {
      String s = ring.get((int) (i % RING));
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }
}
