package io.accel.bench.workload;

import java.util.List;
import java.util.Locale;

/**
 * The workloads of DATASETS.md by name: {@code straddle}, {@code lineitem}, {@code clicks},
 * {@code events} and {@code employees}.
 */
public final class Workloads {
  private Workloads() {
  }

  /** Names of the workloads this build can generate. */
  public static List<String> names() {
    return List.of(Straddle.NAME, Lineitem.NAME, Clicks.NAME, Events.NAME, Employees.NAME);
  }

  /** The workload {@code name} at its DATASETS.md size and seed. */
  public static Workload byName(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case Straddle.NAME -> new Straddle();
      case Lineitem.NAME -> new Lineitem();
      case Clicks.NAME -> new Clicks();
      case Events.NAME -> new Events();
      case Employees.NAME -> new Employees();
      default -> throw new IllegalArgumentException("unknown workload \"" + name + "\"; known: " + names());
    };
  }
}
