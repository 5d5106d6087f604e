package io.accel.bench.workload;

import java.util.List;
import java.util.Locale;

/**
 * The workloads of DATASETS.md by name: {@code straddle} and {@code lineitem} so far; clicks, events and
 * employees will be sibling {@link Workload} classes added here.
 */
public final class Workloads {
  private Workloads() {
  }

  /** Names of the workloads this build can generate. */
  public static List<String> names() {
    return List.of(Straddle.NAME, Lineitem.NAME);
  }

  /** The workload {@code name} at its DATASETS.md size and seed. */
  public static Workload byName(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case Straddle.NAME -> new Straddle();
      case Lineitem.NAME -> new Lineitem();
      default -> throw new IllegalArgumentException("unknown workload \"" + name + "\"; known: " + names());
    };
  }
}
