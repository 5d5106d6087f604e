package io.accel.e2e.diff;

import java.util.ArrayList;
import java.util.List;

/**
 * Seeds of a differential run: {@code -Dseed=N} (or a comma list) sets the first seed, {@code -Ddiff.seeds=K} how
 * many consecutive seeds to run (default 3); without {@code -Dseed} the fixed default seeds 1, 2, 3 run.
 */
final class DiffSeeds {
  static final long DEFAULT_SEED = 1;

  private DiffSeeds() {
  }

  static List<Long> seeds(int defaultCount) {
    String s = System.getProperty("seed");
    int count = Integer.getInteger("diff.seeds", defaultCount);
    List<Long> out = new ArrayList<>();
    if (s != null && s.contains(",")) {
      for (String part : s.split(",")) {
        out.add(Long.parseLong(part.trim()));
      }
      return out;
    }
    long base = s == null || s.isBlank() ? DEFAULT_SEED : Long.parseLong(s.trim());
    for (int i = 0; i < count; i++) {
      out.add(base + i);
    }
    return out;
  }
}
