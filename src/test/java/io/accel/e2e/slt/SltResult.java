package io.accel.e2e.slt;

import java.util.List;

/** The outcome of running one script: how many records ran or were skipped, and the mismatches. */
public record SltResult(String file, int recordsRun, int recordsSkipped, boolean halted, List<SltMismatch> mismatches) {
  public SltResult {
    mismatches = List.copyOf(mismatches);
  }

  public boolean passed() {
    return mismatches.isEmpty();
  }

  /** A report of all mismatches, first line a summary. */
  public String report() {
    StringBuilder b = new StringBuilder();
    b.append(file).append(": ").append(mismatches.size()).append(" mismatch(es) in ").append(recordsRun)
        .append(" records run (").append(recordsSkipped).append(" skipped)");
    if (!mismatches.isEmpty()) {
      b.append("; first at ").append(mismatches.get(0).position());
    }
    for (SltMismatch m : mismatches) {
      b.append("\n\n").append(m.describe());
    }
    return b.toString();
  }
}
