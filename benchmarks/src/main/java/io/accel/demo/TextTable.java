package io.accel.demo;

import java.util.ArrayList;
import java.util.List;

/** Rows of text laid out as an aligned table, numbers right-aligned. */
final class TextTable {
  private static final int MAX_WIDTH = 48;

  private final List<String> headers;
  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();

  TextTable(List<String> headers, boolean[] rightAligned) {
    this.headers = List.copyOf(headers);
    this.rightAligned = rightAligned.clone();
  }

  void add(String[] row) {
    if (row.length != headers.size()) {
      throw new IllegalArgumentException(row.length + " values for " + headers.size() + " columns");
    }
    rows.add(row.clone());
  }

  /** The table, each line starting with {@code indent} and ending with a newline. */
  String render(String indent) {
    int[] width = new int[headers.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = clip(headers.get(c)).length();
      for (String[] row : rows) {
        width[c] = Math.max(width[c], clip(row[c]).length());
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, indent, headers.toArray(String[]::new), width);
    out.append(indent);
    for (int c = 0; c < width.length; c++) {
      out.append(c == 0 ? "" : "-+-").append("-".repeat(width[c]));
    }
    out.append('\n');
    for (String[] row : rows) {
      line(out, indent, row, width);
    }
    return out.toString();
  }

  private void line(StringBuilder out, String indent, String[] values, int[] width) {
    StringBuilder line = new StringBuilder(indent);
    for (int c = 0; c < width.length; c++) {
      String v = clip(values[c]);
      String pad = " ".repeat(width[c] - v.length());
      line.append(c == 0 ? "" : " | ").append(rightAligned[c] ? pad + v : v + pad);
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }

  private static String clip(String s) {
    return s.length() <= MAX_WIDTH ? s : s.substring(0, MAX_WIDTH - 3) + "...";
  }
}
