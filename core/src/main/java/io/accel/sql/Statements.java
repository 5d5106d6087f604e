package io.accel.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text holding several statements at the semicolons between them, as PostgreSQL's simple query
 * protocol and psql do: semicolons inside quoted strings, quoted identifiers, dollar-quoted strings and
 * comments do not split. Empty statements are dropped.
 */
public final class Statements {
  private Statements() {
  }

  /**
   * Whether any of the statements is BEGIN/START TRANSACTION, COMMIT/END or ROLLBACK/ABORT: text that controls its
   * own transactions runs statement by statement rather than in the simple query protocol's implicit transaction.
   */
  public static boolean controlTransactions(List<String> statements) {
    for (String statement : statements) {
      java.util.Optional<Command> c;
      try {
        c = CommandParser.parse(statement);
      } catch (RuntimeException e) {
        continue; // reported when the statement runs
      }
      if (c.isPresent() && (c.get() instanceof Command.Begin || c.get() instanceof Command.Commit
          || c.get() instanceof Command.Rollback)) {
        return true;
      }
    }
    return false;
  }

  public static List<String> split(String sql) {
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(sql, i, c);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        i = skipBlockComment(sql, i);
      } else if (c == '$' && (i == 0 || !isWordChar(sql.charAt(i - 1)))) {
        i = skipDollarQuoted(sql, i);
      } else if (c == ';') {
        add(out, sql.substring(start, i));
        start = ++i;
      } else {
        i++;
      }
    }
    add(out, sql.substring(start));
    return out;
  }

  private static void add(List<String> out, String statement) {
    if (!isBlank(statement)) {
      out.add(statement.strip());
    }
  }

  /** Whether a statement holds nothing but white space and comments. */
  private static boolean isBlank(String s) {
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
        int end = s.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        i = skipBlockComment(s, i);
      } else {
        return false;
      }
    }
    return true;
  }

  /** Past a quoted string or identifier starting at {@code i} (a doubled quote is part of it). */
  private static int skipQuoted(String sql, int i, char quote) {
    int j = i + 1;
    boolean escapes = quote == '\'' && i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e');
    while (j < sql.length()) {
      char c = sql.charAt(j);
      if (escapes && c == '\\') {
        j += 2;
        continue;
      }
      if (c == quote) {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
  }

  /** Past a block comment starting at {@code i}; they nest, as in PostgreSQL. */
  private static int skipBlockComment(String sql, int i) {
    int depth = 0;
    int j = i;
    while (j < sql.length()) {
      if (sql.startsWith("/*", j)) {
        depth++;
        j += 2;
      } else if (sql.startsWith("*/", j)) {
        depth--;
        j += 2;
        if (depth == 0) {
          return j;
        }
      } else {
        j++;
      }
    }
    return sql.length();
  }

  /** Past {@code $tag$ ... $tag$} starting at {@code i}; a lone {@code $} (a parameter {@code $1}) is one char. */
  private static int skipDollarQuoted(String sql, int i) {
    int j = i + 1;
    while (j < sql.length() && isWordChar(sql.charAt(j)) && !Character.isDigit(sql.charAt(i + 1))) {
      j++;
    }
    if (j >= sql.length() || sql.charAt(j) != '$') {
      return i + 1;
    }
    String tag = sql.substring(i, j + 1);
    int end = sql.indexOf(tag, j + 1);
    return end < 0 ? sql.length() : end + tag.length();
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
