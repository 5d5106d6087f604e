package io.accel.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits the statements Accel handles itself (DDL, transaction control) into tokens, PostgreSQL style:
 * unquoted identifiers fold to lower case, "quoted" ones keep their case, 'strings' use '' as escape,
 * -- and /* comments are skipped.
 *
 * <p>{@link #tokenizeExtended} lexes the statements Accel hands to Calcite, for {@link LiteralNormalizer}:
 * there {@code ?} and {@code $n} are {@link Kind#PARAM} tokens, E'..' strings (backslash escapes) are one
 * STRING token starting at the E, operators are runs of operator characters as in PostgreSQL
 * ({@code >=}, {@code =>}, {@code ->>}; {@code x=-5} is {@code =} and {@code -}), numbers are
 * {@code 1}, {@code 1.5}, {@code .5}, {@code 5.}, {@code 1e5}, {@code 1.5E-3}, and {@code //} starts a
 * comment as it does in Calcite. The raw text of any token is {@code sql.substring(start, end)}.
 */
final class SqlLexer {
  enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL, PARAM, END }

  /** A token; {@code text} is folded for WORD, unescaped for QUOTED and STRING; {@code start} is its offset. */
  record Token(Kind kind, String text, int start, int end) {
    boolean is(String word) {
      return kind == Kind.WORD && text.equals(word);
    }

    boolean isSymbol(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    boolean isName() {
      return kind == Kind.WORD || kind == Kind.QUOTED;
    }
  }

  private SqlLexer() {
  }

  /**
   * {@code sql} rewritten one match at a time: {@code first} gets the tokens of the text so far (extended lexing)
   * and returns the text with its first match rewritten, or null when none is left; at most {@code rounds}
   * times. Text that does not lex is returned as it is (preparing reports the error).
   */
  static String rewriteEach(String sql, int rounds, java.util.function.BiFunction<String, List<Token>, String> first) {
    String text = sql;
    for (int round = 0; round < rounds; round++) {
      List<Token> tokens;
      try {
        tokens = tokenizeExtended(text);
      } catch (AccelException e) {
        return text;
      }
      String next = first.apply(text, tokens);
      if (next == null) {
        return text;
      }
      text = next;
    }
    return text;
  }

  static List<Token> tokenize(String sql) {
    return tokenize(sql, false);
  }

  /** Tokens of a statement for Calcite, with the extensions described in the class comment. */
  /** The tokens of {@code sql}, or null when it does not lex (a rewrite then leaves the text for Calcite to report). */
  static List<Token> tokensOrNull(String sql) {
    try {
      return tokenizeExtended(sql);
    } catch (AccelException e) {
      return null;
    }
  }

  static List<Token> tokenizeExtended(String sql) {
    return tokenize(sql, true);
  }

  private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`";

  private static List<Token> tokenize(String sql, boolean extended) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if ((c == '-' || extended && c == '/') && i + 1 < n && sql.charAt(i + 1) == c) {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        if (close < 0) {
          throw syntax(sql, i, "unterminated /* comment");
        }
        i = close + 2;
      } else if (extended && (c == 'e' || c == 'E') && i + 1 < n && sql.charAt(i + 1) == '\''
          && (i == 0 || !isWordChar(sql.charAt(i - 1)))) {
        int start = i;
        StringBuilder b = new StringBuilder();
        i += 2;
        while (true) {
          if (i >= n) {
            throw syntax(sql, start, "unterminated quoted string");
          }
          char d = sql.charAt(i);
          if (d == '\\' && i + 1 < n) {
            b.append(sql.charAt(i + 1));
            i += 2;
          } else if (d == '\'' && i + 1 < n && sql.charAt(i + 1) == '\'') {
            b.append('\'');
            i += 2;
          } else if (d == '\'') {
            i++;
            break;
          } else {
            b.append(d);
            i++;
          }
        }
        tokens.add(new Token(Kind.STRING, b.toString(), start, i));
      } else if (extended && (c == '?' || c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
        int start = i++;
        while (c == '$' && i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        tokens.add(new Token(Kind.PARAM, sql.substring(start, i), start, i));
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
          i++;
        }
        tokens.add(new Token(Kind.WORD, sql.substring(start, i).toLowerCase(Locale.ROOT), start, i));
      } else if (c == '"') {
        int start = i;
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw syntax(sql, start, "unterminated quoted identifier");
          }
          if (sql.charAt(i) == '"') {
            if (i + 1 < n && sql.charAt(i + 1) == '"') {
              b.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          b.append(sql.charAt(i++));
        }
        if (b.isEmpty()) {
          throw syntax(sql, start, "zero-length delimited identifier");
        }
        tokens.add(new Token(Kind.QUOTED, b.toString(), start, i));
      } else if (c == '\'') {
        int start = i;
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw syntax(sql, start, "unterminated quoted string");
          }
          if (sql.charAt(i) == '\'') {
            if (i + 1 < n && sql.charAt(i + 1) == '\'') {
              b.append('\'');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          b.append(sql.charAt(i++));
        }
        tokens.add(new Token(Kind.STRING, b.toString(), start, i));
      } else if (extended && (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))))) {
        int start = i;
        while (i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        if (i < n && sql.charAt(i) == '.') {
          i++;
          while (i < n && Character.isDigit(sql.charAt(i))) {
            i++;
          }
        }
        if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
          int e = i + 1;
          if (e < n && (sql.charAt(e) == '+' || sql.charAt(e) == '-')) {
            e++;
          }
          if (e < n && Character.isDigit(sql.charAt(e))) {
            i = e;
            while (i < n && Character.isDigit(sql.charAt(i))) {
              i++;
            }
          }
        }
        tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
      } else if (extended && OPERATOR_CHARS.indexOf(c) >= 0) {
        int start = i;
        while (i < n && OPERATOR_CHARS.indexOf(sql.charAt(i)) >= 0
            && !(i > start && (sql.startsWith("--", i) || sql.startsWith("/*", i) || sql.startsWith("//", i)))) {
          i++;
        }
        // as in PostgreSQL: a multi-character operator ends in + or - only if it has one of ~!@#%^&|`
        while (i - start > 1 && (sql.charAt(i - 1) == '+' || sql.charAt(i - 1) == '-')
            && !containsAny(sql, start, i - 1, "~!@#%^&|`")) {
          i--;
        }
        tokens.add(new Token(Kind.SYMBOL, sql.substring(start, i), start, i));
      } else if (extended && c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        tokens.add(new Token(Kind.SYMBOL, "::", i, i + 2));
        i += 2;
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
        int start = i;
        while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
        if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
          i++;
          if (i < n && (sql.charAt(i) == '+' || sql.charAt(i) == '-')) {
            i++;
          }
          while (i < n && Character.isDigit(sql.charAt(i))) {
            i++;
          }
        }
        tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
      } else {
        int start = i;
        String two = i + 1 < n ? sql.substring(i, i + 2) : "";
        if (two.equals("::") || two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=")
            || two.equals("||")) {
          i += 2;
          tokens.add(new Token(Kind.SYMBOL, two, start, i));
        } else {
          i++;
          tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), start, i));
        }
      }
    }
    tokens.add(new Token(Kind.END, "", n, n));
    return tokens;
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static boolean containsAny(String s, int from, int to, String chars) {
    for (int i = from; i < to; i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  static AccelException syntax(String sql, int offset, String message) {
    return AccelException.syntax(message + " at " + position(sql, offset));
  }

  /** "line L, column C" (1-based) of an offset, as Calcite reports positions. */
  static String position(String sql, int offset) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(offset, sql.length()); i++) {
      if (sql.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return "line " + line + ", column " + column;
  }
}
