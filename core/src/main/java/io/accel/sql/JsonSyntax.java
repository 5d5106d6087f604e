package io.accel.sql;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * PostgreSQL's json operators and aggregates, rewritten before Calcite parses the statement (its parser has none of
 * them) into calls of {@code io.accel.plan.JsonFunctions}: {@code a -> k} is {@code accel_json_get(a, k)},
 * {@code ->>} {@code accel_json_get_text}, {@code #>} {@code accel_json_path}, {@code #>>}
 * {@code accel_json_path_text}, {@code a @> b} {@code accel_jsonb_contains(a, b)} and {@code a <@ b} the same with the
 * operands swapped; {@code jsonb_agg(x [ORDER BY ...])} is {@code accel_jsonb_agg(string_agg(accel_json_element(x),
 * ',' [ORDER BY ...]))} (and json_agg alike, joined by {@code ", "}; a FILTER becomes a CASE in the element).
 *
 * <p>As in PostgreSQL, the operators associate to the left with {@code ||} and bind looser than arithmetic and
 * tighter than comparisons: {@code a || b ->> 'y' = c} reads {@code ((a || b) ->> 'y') = c}. The key operators
 * {@code ?}, {@code ?|} and {@code ?&} are {@code jsonb_exists}, {@code jsonb_exists_any} and
 * {@code jsonb_exists_all} where a string, ARRAY or parameter follows them (a parameter never is); pgJDBC's
 * escaped {@code ??} is read alike. In a prepared statement a {@code ?} stays a parameter otherwise.
 */
public final class JsonSyntax {
  private JsonSyntax() {
  }

  // a ? only where it can be jsonb's operator: not every JDBC parameter makes a statement worth lexing
  private static final Pattern TRIGGER = Pattern.compile(
      "->|#>|@>|<@|\\?[?|&]|\\?\\s*(?:[eE]?'|(?i:array\\b)|[?$])|(?i)json_agg|jsonb_agg");

  private static final Map<String, String> OPERATORS = Map.of("->", "accel_json_get", "->>", "accel_json_get_text",
      "#>", "accel_json_path", "#>>", "accel_json_path_text", "@>", "accel_jsonb_contains",
      "<@", "accel_jsonb_contains");

  public static String rewrite(String sql) {
    if (!TRIGGER.matcher(sql).find()) {
      return sql;
    }
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return sql;
    }
    // one rewrite at a time, leftmost first, so an operand may be an earlier rewrite's call
    for (int guard = 0; guard < 10_000; guard++) {
      String next = rewriteFirst(sql, tokens);
      if (next == null) {
        return sql;
      }
      sql = next;
      tokens = SqlLexer.tokenizeExtended(sql);
    }
    return sql;
  }

  private static String rewriteFirst(String sql, List<SqlLexer.Token> tokens) {
    for (int i = 0; i < tokens.size(); i++) {
      SqlLexer.Token t = tokens.get(i);
      String keyOperator = t.kind() == SqlLexer.Kind.PARAM && t.text().equals("?") && i > 0 ? keyOperator(tokens, i)
          : null;
      if (keyOperator != null) {
        int right = i + 1;
        while (tokens.get(right).start() == tokens.get(right - 1).end() && !tokens.get(right).isName()
            && tokens.get(right).kind() != SqlLexer.Kind.STRING) {
          right++; // the rest of ??, ?|, ?&
        }
        int start = operandStart(tokens, i - 1);
        int end = operandEnd(tokens, right);
        if (start < 0 || end < 0) {
          continue;
        }
        String call = keyOperator + "(" + text(sql, tokens, start, i - 1) + ", " + text(sql, tokens, right, end) + ")";
        return sql.substring(0, tokens.get(start).start()) + call + sql.substring(tokens.get(end).end());
      }
      if (t.kind() == SqlLexer.Kind.SYMBOL && OPERATORS.containsKey(t.text()) && i > 0) {
        int start = operandStart(tokens, i - 1);
        int end = operandEnd(tokens, i + 1);
        if (start < 0 || end < 0) {
          continue;
        }
        String left = text(sql, tokens, start, i - 1);
        String right = text(sql, tokens, i + 1, end);
        String call = OPERATORS.get(t.text()) + "(" + (t.text().equals("<@") ? right + ", " + left
            : left + ", " + right) + ")";
        return sql.substring(0, tokens.get(start).start()) + call + sql.substring(tokens.get(end).end());
      }
      if ((t.is("jsonb_agg") || t.is("json_agg")) && i + 1 < tokens.size() && tokens.get(i + 1).isSymbol("(")
          && !(i > 0 && tokens.get(i - 1).isSymbol("."))) {
        int close = closing(tokens, i + 1);
        if (close < 0) {
          continue;
        }
        int order = -1;
        int depth = 0;
        for (int k = i + 2; k < close; k++) {
          if (tokens.get(k).isSymbol("(")) {
            depth++;
          } else if (tokens.get(k).isSymbol(")")) {
            depth--;
          } else if (depth == 0 && tokens.get(k).is("order")) {
            order = k;
            break;
          }
        }
        int argEnd = order >= 0 ? order : close;
        if (argEnd <= i + 2) {
          continue;
        }
        String argument = sql.substring(tokens.get(i + 2).start(), tokens.get(argEnd - 1).end());
        String orderBy = order >= 0 ? " " + sql.substring(tokens.get(order).start(), tokens.get(close - 1).end()) : "";
        // FILTER (WHERE c) becomes CASE WHEN c THEN ... END, which string_agg skips when NULL (Calcite fails on a
        // FILTER beside an ORDER BY inside the call)
        int end = close;
        String element = "accel_json_element(" + argument + ")";
        if (close + 3 < tokens.size() && tokens.get(close + 1).is("filter") && tokens.get(close + 2).isSymbol("(")
            && tokens.get(close + 3).is("where")) {
          end = closing(tokens, close + 2);
          if (end < 0 || end <= close + 4) {
            continue;
          }
          element = "CASE WHEN " + sql.substring(tokens.get(close + 4).start(), tokens.get(end - 1).end()) + " THEN "
              + element + " END";
        }
        boolean binary = t.is("jsonb_agg");
        String call = (binary ? "accel_jsonb_agg" : "accel_json_agg") + "(string_agg(" + element + ", '"
            + (binary ? "," : ", ") + "'" + orderBy + "))";
        return sql.substring(0, t.start()) + call + sql.substring(tokens.get(end).end());
      }
    }
    return null;
  }

  /**
   * The function of the key operator at token {@code i} ({@code ?}, {@code ?|}, {@code ?&}, or pgJDBC's escaped
   * {@code ??}, {@code ??|}, {@code ??&}), or null when it is a parameter: the operator is written without
   * blanks inside and followed by a string, an ARRAY or (after a blank) a parameter, which no parameter ever is.
   */
  private static String keyOperator(List<SqlLexer.Token> tokens, int i) {
    int k = i + 1;
    if (k < tokens.size() && tokens.get(k).kind() == SqlLexer.Kind.PARAM && tokens.get(k).text().equals("?")
        && tokens.get(k).start() == tokens.get(i).end()) {
      k++;
    }
    String function = "jsonb_exists";
    if (k < tokens.size() && tokens.get(k).start() == tokens.get(k - 1).end()
        && (tokens.get(k).isSymbol("|") || tokens.get(k).isSymbol("&"))) {
      function = tokens.get(k).isSymbol("|") ? "jsonb_exists_any" : "jsonb_exists_all";
      k++;
    }
    boolean operand = k < tokens.size() && (tokens.get(k).kind() == SqlLexer.Kind.STRING || tokens.get(k).is("array")
        || tokens.get(k).kind() == SqlLexer.Kind.PARAM && tokens.get(k).start() > tokens.get(k - 1).end());
    return operand ? function : null;
  }

  private static String text(String sql, List<SqlLexer.Token> tokens, int from, int to) {
    return sql.substring(tokens.get(from).start(), tokens.get(to).end());
  }

  /** Operators of the left operand: {@code ||} (the same precedence, to the left) and arithmetic (tighter). */
  private static final java.util.Set<String> LEFT_OPERATORS = java.util.Set.of("||", "+", "-", "*", "/", "%", "^");

  /** The first token of the left operand ending at token {@code end}: primaries (with casts) joined as above. */
  static int operandStart(List<SqlLexer.Token> tokens, int end) {
    int start = castStart(tokens, end);
    while (start >= 2 && tokens.get(start - 1).kind() == SqlLexer.Kind.SYMBOL
        && LEFT_OPERATORS.contains(tokens.get(start - 1).text())) {
      int before = castStart(tokens, start - 2);
      if (before < 0) {
        break;
      }
      start = before;
    }
    return start;
  }

  /** The first token of a primary ending at token {@code end}, with its casts. */
  private static int castStart(List<SqlLexer.Token> tokens, int end) {
    int start = primaryStart(tokens, end);
    while (start >= 2 && tokens.get(start - 1).isSymbol("::")) {
      start = primaryStart(tokens, start - 2);
    }
    return start;
  }

  private static int primaryStart(List<SqlLexer.Token> tokens, int end) {
    if (end < 0) {
      return -1;
    }
    SqlLexer.Token t = tokens.get(end);
    int start;
    if (t.isSymbol(")") || t.isSymbol("]")) {
      start = opening(tokens, end);
      if (start < 0) {
        return -1;
      }
      if (start > 0 && tokens.get(start - 1).isName()) {
        start--; // a function call or a type with modifiers
      } else {
        return start;
      }
    } else if (t.isName() || t.kind() == SqlLexer.Kind.STRING || t.kind() == SqlLexer.Kind.NUMBER
        || t.kind() == SqlLexer.Kind.PARAM) {
      start = end;
    } else {
      return -1;
    }
    while (start >= 2 && tokens.get(start - 1).isSymbol(".") && tokens.get(start - 2).isName()) {
      start -= 2;
    }
    return start;
  }

  /** The last token of the operand starting at token {@code start}. */
  private static int operandEnd(List<SqlLexer.Token> tokens, int start) {
    if (start >= tokens.size()) {
      return -1;
    }
    SqlLexer.Token t = tokens.get(start);
    int end;
    if ((t.isSymbol("-") || t.isSymbol("+")) && start + 1 < tokens.size()
        && tokens.get(start + 1).kind() == SqlLexer.Kind.NUMBER) {
      end = start + 1;
    } else if (t.isSymbol("(")) {
      end = closing(tokens, start);
    } else if (t.kind() == SqlLexer.Kind.STRING || t.kind() == SqlLexer.Kind.NUMBER
        || t.kind() == SqlLexer.Kind.PARAM) {
      end = start;
    } else if (t.isName()) {
      end = start;
      while (end + 2 < tokens.size() && tokens.get(end + 1).isSymbol(".") && tokens.get(end + 2).isName()) {
        end += 2;
      }
      if (end + 1 < tokens.size() && (tokens.get(end + 1).isSymbol("(") || tokens.get(end + 1).isSymbol("["))) {
        end = closing(tokens, end + 1); // a call, or ARRAY[...]
      } else if (end + 1 < tokens.size() && tokens.get(end + 1).kind() == SqlLexer.Kind.STRING) {
        end++; // a typed literal: jsonb '{...}'
      }
    } else {
      return -1;
    }
    while (end >= 0 && end + 2 < tokens.size() && tokens.get(end + 1).isSymbol("::")
        && tokens.get(end + 2).isName()) {
      end += 2;
      if (end + 1 < tokens.size() && tokens.get(end + 1).isSymbol("(")) {
        end = closing(tokens, end + 1);
      }
    }
    return end;
  }

  static int closing(List<SqlLexer.Token> tokens, int open) {
    int depth = 0;
    for (int k = open; k < tokens.size(); k++) {
      if (tokens.get(k).isSymbol("(") || tokens.get(k).isSymbol("[")) {
        depth++;
      } else if ((tokens.get(k).isSymbol(")") || tokens.get(k).isSymbol("]")) && --depth == 0) {
        return k;
      }
    }
    return -1;
  }

  /** The index of the parenthesis or bracket opening the one closing at {@code close}, or -1. */
  static int opening(List<SqlLexer.Token> tokens, int close) {
    int depth = 0;
    for (int k = close; k >= 0; k--) {
      if (tokens.get(k).isSymbol(")") || tokens.get(k).isSymbol("]")) {
        depth++;
      } else if ((tokens.get(k).isSymbol("(") || tokens.get(k).isSymbol("[")) && --depth == 0) {
        return k;
      }
    }
    return -1;
  }
}
