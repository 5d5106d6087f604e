package io.accel.e2e.slt;

import java.util.List;
import java.util.Locale;

/**
 * One record of a sqllogictest script. Every record knows the line it starts on (1-based, the line of
 * its command word) and the {@code skipif}/{@code onlyif} conditions written above it.
 */
public sealed interface SltRecord
    permits SltRecord.Statement, SltRecord.Query, SltRecord.HashThreshold, SltRecord.Halt {

  int line();

  List<Condition> conditions();

  /** Whether the record is to be run by the engine of that name, after its skipif/onlyif lines. */
  default boolean appliesTo(String engine) {
    return appliesTo(engine, false);
  }

  /**
   * Like {@link #appliesTo(String)}; with {@code ignoreSkipIf} the record's {@code skipif} lines are
   * ignored (its {@code onlyif} lines still count), to see which marked gaps an engine now passes.
   */
  default boolean appliesTo(String engine, boolean ignoreSkipIf) {
    for (Condition c : conditions()) {
      if (ignoreSkipIf && !c.onlyIf()) {
        continue;
      }
      boolean same = c.engine().equalsIgnoreCase(engine);
      if (c.onlyIf() != same) {
        return false;
      }
    }
    return true;
  }

  /** {@code skipif ENGINE} ({@code onlyIf == false}) or {@code onlyif ENGINE}. */
  record Condition(boolean onlyIf, String engine) {
    @Override
    public String toString() {
      return (onlyIf ? "onlyif " : "skipif ") + engine;
    }
  }

  /**
   * {@code statement ok} or {@code statement error [SQLSTATE|regex]}. When {@code expectError} is true,
   * {@code errorPattern} is null (any error), a five-character SQLSTATE or a regular expression searched
   * (case-insensitively) in the exception's message.
   */
  record Statement(int line, List<Condition> conditions, String sql, boolean expectError, String errorPattern)
      implements SltRecord {

    /** True when {@link #errorPattern()} is a SQLSTATE (five digits or upper-case letters). */
    public boolean expectsSqlState() {
      return errorPattern != null && isSqlState(errorPattern);
    }

    static boolean isSqlState(String token) {
      return token.length() == 5 && token.chars().allMatch(ch -> (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'));
    }
  }

  /**
   * {@code query TYPES [SORTMODE] [LABEL]}: the SQL, then after {@code ----} the expected output lines
   * ({@code expected}), empty when the query returns no rows. {@code resultsLine} is the line of the
   * {@code ----} separator (or of the last SQL line when there is none); {@code endLine} the last line of
   * the record.
   */
  record Query(int line, List<Condition> conditions, String types, SortMode sortMode, String label, String sql,
      List<String> expected, boolean hasSeparator, int resultsLine, int endLine) implements SltRecord {
  }

  /** {@code hash-threshold N}: results with more than N values are compared by their MD5 hash. */
  record HashThreshold(int line, List<Condition> conditions, int threshold) implements SltRecord {
  }

  /** {@code halt}: stop running the script here. */
  record Halt(int line, List<Condition> conditions) implements SltRecord {
  }

  /** How a query's rendered result is ordered before it is compared. */
  enum SortMode {
    NOSORT, ROWSORT, VALUESORT;

    static SortMode parse(String word) {
      return switch (word.toLowerCase(Locale.ROOT)) {
        case "nosort" -> NOSORT;
        case "rowsort" -> ROWSORT;
        case "valuesort" -> VALUESORT;
        default -> null;
      };
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
