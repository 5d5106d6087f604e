package io.accel.e2e.slt;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parses the sqllogictest format.
 *
 * <p>Records are separated by blank lines. A record may start with comment lines ({@code #...}) and
 * {@code skipif ENGINE} / {@code onlyif ENGINE} lines, then its command line:
 * <ul>
 *   <li>{@code statement ok} or {@code statement error [SQLSTATE | regex]}, followed by the SQL (up to the
 *       next blank line);</li>
 *   <li>{@code query TYPES [nosort|rowsort|valuesort] [LABEL]}, followed by the SQL, a {@code ----} line
 *       and the expected values (up to the next blank line); {@code TYPES} has one of {@code I}, {@code R},
 *       {@code T} per column; the {@code ----} and the values may be left out when no rows are
 *       expected;</li>
 *   <li>{@code hash-threshold N};</li>
 *   <li>{@code halt}.</li>
 * </ul>
 * Lines starting with {@code #} inside the SQL are dropped too; inside expected values they are values.
 */
public final class SltParser {
  private static final Pattern TYPES = Pattern.compile("[ITR]+");
  private static final Pattern WS = Pattern.compile("\\s+");

  private SltParser() {
  }

  public static SltScript parse(String name, String text) {
    String[] lines = text.split("\r?\n", -1);
    List<SltRecord> records = new ArrayList<>();
    int i = 0;
    int n = lines.length;
    while (i < n) {
      // Skip blank lines and comments between records.
      if (isBlank(lines[i]) || isComment(lines[i])) {
        i++;
        continue;
      }
      List<SltRecord.Condition> conditions = new ArrayList<>();
      String[] words;
      while (true) {
        String line = lines[i];
        words = WS.split(line.strip());
        if (isComment(line)) {
          i++;
        } else if (words[0].equals("skipif") || words[0].equals("onlyif")) {
          if (words.length != 2) {
            throw new SltParseException(name, i + 1, "expected '" + words[0] + " ENGINE', got: " + line);
          }
          conditions.add(new SltRecord.Condition(words[0].equals("onlyif"), words[1]));
          i++;
        } else {
          break;
        }
        if (i >= n || isBlank(lines[i])) {
          throw new SltParseException(name, i, "skipif/onlyif/comment lines without a record after them");
        }
      }
      int recordLine = i + 1;
      String command = words[0];
      switch (command) {
        case "statement" -> {
          boolean error;
          String pattern = null;
          if (words.length == 2 && words[1].equals("ok")) {
            error = false;
          } else if (words.length >= 2 && words[1].equals("error")) {
            error = true;
            String rest = lines[i].strip().substring("statement".length()).strip().substring("error".length()).strip();
            pattern = rest.isEmpty() ? null : rest;
          } else {
            throw new SltParseException(name, recordLine, "expected 'statement ok' or 'statement error [SQLSTATE|regex]', got: " + lines[i]);
          }
          i++;
          StringBuilder sql = new StringBuilder();
          while (i < n && !isBlank(lines[i])) {
            if (lines[i].strip().equals("----")) {
              throw new SltParseException(name, i + 1, "'----' in a statement record (results belong to query records)");
            }
            if (!isComment(lines[i])) {
              appendLine(sql, lines[i]);
            }
            i++;
          }
          if (sql.length() == 0) {
            throw new SltParseException(name, recordLine, "statement without SQL");
          }
          records.add(new SltRecord.Statement(recordLine, List.copyOf(conditions), sql.toString(), error, pattern));
        }
        case "query" -> {
          if (words.length < 2 || words.length > 4 || !TYPES.matcher(words[1]).matches()) {
            throw new SltParseException(name, recordLine,
                "expected 'query TYPES [nosort|rowsort|valuesort] [LABEL]' with TYPES made of I, R and T, got: " + lines[i]);
          }
          SltRecord.SortMode sort = SltRecord.SortMode.NOSORT;
          String label = null;
          if (words.length >= 3) {
            sort = SltRecord.SortMode.parse(words[2]);
            if (sort == null) {
              throw new SltParseException(name, recordLine, "unknown sort mode '" + words[2] + "' (nosort, rowsort or valuesort)");
            }
          }
          if (words.length == 4) {
            label = words[3];
          }
          i++;
          StringBuilder sql = new StringBuilder();
          boolean separator = false;
          while (i < n && !isBlank(lines[i])) {
            if (lines[i].strip().equals("----")) {
              separator = true;
              i++;
              break;
            }
            if (!isComment(lines[i])) {
              appendLine(sql, lines[i]);
            }
            i++;
          }
          if (sql.length() == 0) {
            throw new SltParseException(name, recordLine, "query without SQL");
          }
          int resultsLine = i; // 1-based line of "----" (or of the last SQL line)
          List<String> expected = new ArrayList<>();
          if (separator) {
            while (i < n && !isBlank(lines[i])) {
              expected.add(lines[i]);
              i++;
            }
          }
          records.add(new SltRecord.Query(recordLine, List.copyOf(conditions), words[1], sort, label, sql.toString(),
              List.copyOf(expected), separator, resultsLine, i));
        }
        case "hash-threshold" -> {
          if (words.length != 2 || !words[1].matches("\\d+")) {
            throw new SltParseException(name, recordLine, "expected 'hash-threshold N', got: " + lines[i]);
          }
          records.add(new SltRecord.HashThreshold(recordLine, List.copyOf(conditions), Integer.parseInt(words[1])));
          i++;
          requireEndOfRecord(name, lines, i);
        }
        case "halt" -> {
          if (words.length != 1) {
            throw new SltParseException(name, recordLine, "expected 'halt', got: " + lines[i]);
          }
          records.add(new SltRecord.Halt(recordLine, List.copyOf(conditions)));
          i++;
          requireEndOfRecord(name, lines, i);
        }
        default -> throw new SltParseException(name, recordLine, "unknown record type '" + command + "'");
      }
    }
    return new SltScript(name, records);
  }

  private static void requireEndOfRecord(String name, String[] lines, int i) {
    if (i < lines.length && !isBlank(lines[i]) && !isComment(lines[i])) {
      throw new SltParseException(name, i + 1, "expected a blank line after the record, got: " + lines[i]);
    }
  }

  private static void appendLine(StringBuilder sql, String line) {
    if (sql.length() > 0) {
      sql.append('\n');
    }
    sql.append(line);
  }

  static boolean isBlank(String line) {
    return line.isBlank();
  }

  static boolean isComment(String line) {
    return line.startsWith("#");
  }
}
