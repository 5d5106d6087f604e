package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * PostgreSQL's {@code x AT TIME ZONE z}, which Calcite's parser does not read, rewritten as PostgreSQL itself
 * defines it: {@code timezone(z, x)} ({@link io.accel.plan.PgFunctions}). {@code x} is the primary expression
 * before AT: a column, a parameter, a typed literal ({@code TIMESTAMP '...'}), a function call or a parenthesized
 * expression, with a {@code ::} cast (which binds tighter); {@code z} the string, parameter, column or
 * parenthesized expression after ZONE.
 */
public final class AtTimeZone {
  private AtTimeZone() {
  }

  /** Words before a parenthesis that are not a function's name. */
  private static final Set<String> NOT_FUNCTIONS = Set.of("and", "or", "not", "in", "select", "where", "when",
      "then", "else", "from", "on", "by", "having", "as", "values", "any", "all", "some", "exists", "between",
      "is", "like", "ilike", "return", "returning", "set", "using", "over", "filter", "within", "case");
  private static final Set<String> TYPE_WORDS = Set.of("timestamp", "timestamptz", "time", "timetz", "date");

  /** {@code sql} with each AT TIME ZONE as a timezone() call; unchanged when it has none it can read. */
  public static String rewrite(String sql) {
    if (!sql.toLowerCase(Locale.ROOT).contains("zone")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 16, AtTimeZone::rewriteFirst);
  }

  /** The text with its first AT TIME ZONE rewritten, or null when there is none this class reads. */
  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 1; k + 3 < tokens.size(); k++) {
      if (!(tokens.get(k).is("at") && tokens.get(k + 1).is("time") && tokens.get(k + 2).is("zone"))) {
        continue;
      }
      int left = operandStart(tokens, k - 1);
      int right = operandEnd(tokens, k + 3);
      if (left < 0 || right < 0) {
        return null;
      }
      String operand = sql.substring(tokens.get(left).start(), tokens.get(k - 1).end());
      if (tokens.get(left).is("current_timestamp") || tokens.get(left).is("now")) {
        // a timestamptz in PostgreSQL, the session's wall-clock timestamp to Calcite: made the instant it is
        operand = "CAST(" + operand + " AS timestamptz)";
      }
      return sql.substring(0, tokens.get(left).start()) + "timezone("
          + sql.substring(tokens.get(k + 3).start(), tokens.get(right).end()) + ", " + operand + ")"
          + sql.substring(tokens.get(right).end());
    }
    return null;
  }

  /** The first token of the primary expression ending at token {@code end}, or -1. */
  private static int operandStart(List<Token> tokens, int end) {
    Token t = tokens.get(end);
    int start;
    if (t.isSymbol(")")) {
      start = JsonSyntax.opening(tokens, end);
      if (start < 0) {
        return -1;
      }
      if (start > 0 && tokens.get(start - 1).isName() && !(tokens.get(start - 1).kind() == Kind.WORD
          && NOT_FUNCTIONS.contains(tokens.get(start - 1).text()))) {
        start--; // a function's name
      }
    } else if (t.kind() == Kind.STRING) {
      start = end;
      if (start >= 5 && tokens.get(start - 1).is("zone") && tokens.get(start - 2).is("time")
          && (tokens.get(start - 3).is("with") || tokens.get(start - 3).is("without"))
          && TYPE_WORDS.contains(tokens.get(start - 4).text())) {
        start -= 4; // TIMESTAMP WITH TIME ZONE '...'
      } else if (start >= 1 && tokens.get(start - 1).kind() == Kind.WORD
          && TYPE_WORDS.contains(tokens.get(start - 1).text())) {
        start--; // TIMESTAMP '...'
      }
      return start;
    } else if (t.is("zone") && end >= 4 && tokens.get(end - 1).is("time")
        && (tokens.get(end - 2).is("with") || tokens.get(end - 2).is("without"))
        && TYPE_WORDS.contains(tokens.get(end - 3).text()) && tokens.get(end - 4).isSymbol("::")) {
      return operandStart(tokens, end - 5); // x::timestamp with time zone
    } else if (t.isName() || t.kind() == Kind.PARAM || t.kind() == Kind.NUMBER) {
      start = end;
      if (t.kind() == Kind.WORD && start >= 2 && tokens.get(start - 1).isSymbol("::")) {
        return operandStart(tokens, start - 2); // x::timestamp
      }
    } else {
      return -1;
    }
    while (start >= 2 && tokens.get(start - 1).isSymbol(".") && tokens.get(start - 2).isName()) {
      start -= 2; // qualified
    }
    if (start >= 2 && tokens.get(start - 1).isSymbol("::")) {
      return -1;
    }
    return start;
  }

  /** The last token of the expression starting at token {@code start} after ZONE, or -1. */
  private static int operandEnd(List<Token> tokens, int start) {
    Token t = tokens.get(start);
    if (t.kind() == Kind.STRING || t.kind() == Kind.PARAM) {
      return start;
    }
    if (t.isSymbol("(")) {
      return PgCatalogSyntax.closing(tokens, start);
    }
    if (t.isName()) {
      int end = start;
      while (end + 2 < tokens.size() && tokens.get(end + 1).isSymbol(".") && tokens.get(end + 2).isName()) {
        end += 2;
      }
      if (end + 1 < tokens.size() && tokens.get(end + 1).isSymbol("(")) {
        return PgCatalogSyntax.closing(tokens, end + 1);
      }
      return end;
    }
    return -1;
  }
}
