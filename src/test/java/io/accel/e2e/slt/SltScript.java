package io.accel.e2e.slt;

import java.util.List;

/** A parsed sqllogictest file: its display name (used in {@code name:line} positions) and its records. */
public record SltScript(String name, List<SltRecord> records) {
  public SltScript {
    records = List.copyOf(records);
  }
}
