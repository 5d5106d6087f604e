package io.accel.bench.workload;

/**
 * A small deterministic random source for one generated row: SplitMix64 seeded from (seed, stream, row).
 *
 * <p>Every value of a row is a pure function of the workload's seed, a stream number (which table or
 * which parameter list) and the row's number, so a row can be regenerated on its own (tests recompute
 * expected results from it) and the data never depends on the order rows are produced in, on the JDK's
 * {@code Random} implementation, on hash iteration order or on the time of day.
 */
public final class RowRandom {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private long state;

  public RowRandom(long seed, int stream, long row) {
    this.state = mix64(mix64(seed + GOLDEN * (stream + 1L)) + row);
  }

  /** The SplitMix64 finaliser: a bijective mix of 64 bits. */
  public static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  public long nextLong() {
    state += GOLDEN;
    return mix64(state);
  }

  /**
   * Uniform in [0, bound), for bound > 0: the unsigned remainder of 64 random bits (its bias, at most
   * bound / 2^64, is far below anything a workload can show).
   */
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    return Long.remainderUnsigned(nextLong(), bound);
  }

  /** Uniform in [0, bound), for bound > 0. */
  public int nextInt(int bound) {
    return (int) nextLong(bound);
  }
}
