package io.accel.e2e.slt;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Runs a {@link SltScript} against a {@link SltConnection} as the engine named {@code engine} (what
 * {@code skipif}/{@code onlyif} lines are matched against: {@code accel}, {@code postgresql}), and
 * collects every mismatch rather than stopping at the first.
 *
 * <p>Results are compared as sqllogictest does: the values are rendered by the query's type string
 * ({@link SltRenderer}), ordered by its sort mode, and compared with the expected lines, written either
 * one value per line or one row per line (values separated by whitespace). With {@code hash-threshold
 * N} (N &gt; 0), a result of more than N values is compared by the line {@code <n> values hashing to
 * <md5>}; an expected hash line is compared by hash whatever the result's size. Queries carrying the
 * same label must produce the same values.
 */
public final class SltRunner {
  private static final Pattern HASH_LINE = Pattern.compile("(\\d+) values hashing to ([0-9a-f]{32})");
  private static final Pattern WS = Pattern.compile("\\s+");

  private final SltConnection connection;
  private final String engine;
  private final boolean ignoreSkipIf;

  /**
   * Whether the record applies to every engine named in {@code engine} ({@code accel+postgresql}: the fronting
   * run, where a statement may run on either, takes only records both agree on).
   */
  private boolean appliesToAll(SltRecord record) {
    for (String name : engine.split("\\+")) {
      if (!record.appliesTo(name, ignoreSkipIf)) {
        return false;
      }
    }
    return true;
  }

  public SltRunner(SltConnection connection, String engine) {
    this(connection, engine, false);
  }

  /**
   * With {@code ignoreSkipIf}, {@code skipif} lines are ignored, so records marked as known gaps run too
   * (see {@link SltRecord#appliesTo(String, boolean)}).
   */
  public SltRunner(SltConnection connection, String engine, boolean ignoreSkipIf) {
    this.connection = connection;
    this.engine = engine;
    this.ignoreSkipIf = ignoreSkipIf;
  }

  public SltResult run(SltScript script) {
    List<SltMismatch> mismatches = new ArrayList<>();
    Map<String, String[]> labels = new HashMap<>(); // label -> {hash, line}
    int hashThreshold = 0;
    int run = 0;
    int skipped = 0;
    boolean halted = false;
    for (SltRecord record : script.records()) {
      if (!appliesToAll(record)) {
        skipped++;
        continue;
      }
      if (record instanceof SltRecord.Halt) {
        halted = true;
        break;
      }
      run++;
      if (record instanceof SltRecord.HashThreshold h) {
        hashThreshold = h.threshold();
      } else if (record instanceof SltRecord.Statement s) {
        SltMismatch m = runStatement(script.name(), s);
        if (m != null) {
          mismatches.add(m);
        }
      } else if (record instanceof SltRecord.Query q) {
        SltMismatch m = runQuery(script.name(), q, hashThreshold, labels);
        if (m != null) {
          mismatches.add(m);
        }
      }
    }
    int notRun = 0;
    if (halted) {
      notRun = script.records().size() - run - skipped - 1; // the records after the halt
    }
    return new SltResult(script.name(), run, skipped + notRun, halted, mismatches);
  }

  SltMismatch runStatement(String file, SltRecord.Statement s) {
    try {
      connection.execute(s.sql());
    } catch (SQLException e) {
      if (!s.expectError()) {
        return new SltMismatch(file, s.line(), s.sql(), "statement failed", "ok", describe(e));
      }
      if (s.errorPattern() == null) {
        return null;
      }
      if (s.expectsSqlState()) {
        if (s.errorPattern().equals(e.getSQLState())) {
          return null;
        }
        return new SltMismatch(file, s.line(), s.sql(), "statement failed with another SQLSTATE",
            "error with SQLSTATE " + s.errorPattern(), describe(e));
      }
      String message = String.valueOf(e.getMessage());
      try {
        if (Pattern.compile(s.errorPattern(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL).matcher(message).find()) {
          return null;
        }
      } catch (PatternSyntaxException bad) {
        if (message.toLowerCase(Locale.ROOT).contains(s.errorPattern().toLowerCase(Locale.ROOT))) {
          return null;
        }
      }
      return new SltMismatch(file, s.line(), s.sql(), "statement failed with another message",
          "error matching /" + s.errorPattern() + "/", describe(e));
    } catch (RuntimeException e) {
      return new SltMismatch(file, s.line(), s.sql(), "the driver threw " + e.getClass().getName()
          + " instead of an SQLException", s.expectError() ? "error " + nullToEmpty(s.errorPattern()) : "ok", String.valueOf(e));
    }
    if (s.expectError()) {
      return new SltMismatch(file, s.line(), s.sql(), "statement succeeded but should have failed",
          "error" + (s.errorPattern() == null ? "" : " " + s.errorPattern()), "ok");
    }
    return null;
  }

  private SltMismatch runQuery(String file, SltRecord.Query q, int hashThreshold, Map<String, String[]> labels) {
    String expectedText = q.expected().isEmpty() ? "(no rows)" : String.join("\n", q.expected());
    SltConnection.QueryResult result;
    try {
      result = connection.query(q.sql());
    } catch (SQLException e) {
      return new SltMismatch(file, q.line(), q.sql(), "query failed", expectedText, describe(e));
    } catch (RuntimeException e) {
      return new SltMismatch(file, q.line(), q.sql(), "the driver threw " + e.getClass().getName()
          + " instead of an SQLException", expectedText, String.valueOf(e));
    }
    if (result.columnCount() != q.types().length()) {
      return new SltMismatch(file, q.line(), q.sql(), "query returned " + result.columnCount()
          + " column(s) but its type string '" + q.types() + "' has " + q.types().length(), expectedText,
          text(actualLines(result, q, 0)));
    }
    List<String> values = SltRenderer.sortedValues(SltRenderer.renderRows(result.rows(), q.types()), q.sortMode());
    String hash = SltRenderer.hashLine(values);
    String problem = compare(q, values, hashThreshold, hash);
    if (problem != null) {
      return new SltMismatch(file, q.line(), q.sql(), problem, expectedText,
          text(actualLines(result, q, hashThreshold)));
    }
    if (q.label() != null) {
      String[] previous = labels.putIfAbsent(q.label(), new String[] {hash, Integer.toString(q.line())});
      if (previous != null && !previous[0].equals(hash)) {
        return new SltMismatch(file, q.line(), q.sql(), "result differs from that of the query with the same label '"
            + q.label() + "' at line " + previous[1], previous[0], hash);
      }
    }
    return null;
  }

  /** Null when the values match the record's expected lines, else what is wrong. */
  static String compare(SltRecord.Query q, List<String> values, int hashThreshold, String hashLine) {
    List<String> expected = q.expected();
    if (expected.size() == 1) {
      Matcher m = HASH_LINE.matcher(expected.get(0).strip());
      if (m.matches()) {
        return hashLine.equals(expected.get(0).strip()) ? null : "result hash differs";
      }
    }
    if (hashThreshold > 0 && values.size() > hashThreshold) {
      return "the result has " + values.size() + " values, more than hash-threshold " + hashThreshold
          + ": the expected result must be written as '" + hashLine + "'";
    }
    int columns = q.types().length();
    if (expected.size() == values.size()) {
      for (int i = 0; i < values.size(); i++) {
        if (!expected.get(i).stripTrailing().equals(values.get(i).stripTrailing())) {
          return "result differs at value " + (i + 1) + " (row " + (i / columns + 1) + ", column "
              + (i % columns + 1) + "): expected '" + expected.get(i) + "' but was '" + values.get(i) + "'";
        }
      }
      return null;
    }
    if (values.size() % columns == 0 && expected.size() == values.size() / columns) {
      for (int r = 0; r < expected.size(); r++) {
        List<String> row = values.subList(r * columns, (r + 1) * columns);
        if (!rowMatches(expected.get(r), row)) {
          return "result differs at row " + (r + 1) + ": expected '" + expected.get(r).strip() + "' but was '"
              + String.join(" ", row) + "'";
        }
      }
      return null;
    }
    return "expected " + expected.size() + " line(s) but the query returned " + values.size() / Math.max(columns, 1)
        + " row(s) of " + columns + " value(s)";
  }

  /**
   * A row written on one line matches when the line is the values joined by single spaces; when no value
   * holds whitespace, any run of whitespace may separate them (so columns can be aligned by hand).
   */
  static boolean rowMatches(String line, List<String> row) {
    String joined = String.join(" ", row);
    if (line.strip().equals(joined.strip())) {
      return true;
    }
    for (String v : row) {
      if (WS.matcher(v).find()) {
        return false;
      }
    }
    return tokens(line).equals(row);
  }

  private static List<String> tokens(String line) {
    String s = line.strip();
    return s.isEmpty() ? List.of() : List.of(WS.split(s));
  }

  /**
   * The result as it would be written in a script: one row per line (values separated by a space),
   * ordered by the record's sort mode, or the hash line when the result has more than {@code
   * hashThreshold} values (threshold &gt; 0).
   */
  public static List<String> actualLines(SltConnection.QueryResult result, SltRecord.Query q, int hashThreshold) {
    String types = q.types();
    List<List<String>> rows = SltRenderer.renderRows(result.rows(), types);
    List<String> values = SltRenderer.sortedValues(rows, q.sortMode());
    if (hashThreshold > 0 && values.size() > hashThreshold) {
      return List.of(SltRenderer.hashLine(values));
    }
    int columns = Math.max(result.columnCount(), 1);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < values.size(); i += columns) {
      lines.add(String.join(" ", values.subList(i, Math.min(values.size(), i + columns))));
    }
    return lines;
  }

  private static String text(List<String> lines) {
    return lines.isEmpty() ? "(no rows)" : String.join("\n", lines);
  }

  static String describe(SQLException e) {
    StringBuilder b = new StringBuilder("error");
    b.append(" SQLSTATE ").append(e.getSQLState());
    b.append(": ").append(e.getMessage());
    Throwable cause = e.getCause();
    if (cause != null && cause != e && !String.valueOf(e.getMessage()).contains(String.valueOf(cause.getMessage()))) {
      b.append(" (cause: ").append(cause).append(')');
    }
    return b.toString();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
