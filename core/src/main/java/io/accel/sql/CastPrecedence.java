package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * PostgreSQL's precedence for the {@code ::} cast, which binds tighter than any operator: {@code i = 2::int}
 * is {@code i = (2::int)} and {@code -2::int} is {@code -(2::int)}. Calcite's Babel parser binds {@code ::}
 * looser than comparisons, so it read {@code (i = 2)::int} and reported 42804. {@link #parenthesize} puts
 * each cast in parentheses, {@code operand::type}, before the statement reaches Calcite; the text is
 * otherwise unchanged.
 *
 * <p>The operand is what PostgreSQL binds to {@code ::}: a literal (with its type keyword: {@code DATE
 * '2024-01-01'}), a parameter, a possibly qualified name, a parenthesized expression, a function call (any
 * name followed by parentheses, {@code CAST(...)} included), {@code CASE ... END}, or an earlier cast
 * ({@code x::float8::text}). The type is a name of one or more words ({@code double precision},
 * {@code timestamp with time zone}) with optional modifiers in parentheses.
 */
public final class CastPrecedence {
  private CastPrecedence() {
  }

  /** Words before a parenthesized expression that are not function names. */
  private static final Set<String> NOT_FUNCTIONS = Set.of("select", "where", "and", "or", "not", "on", "in",
      "exists", "values", "from", "by", "having", "when", "then", "else", "case", "is", "like", "ilike",
      "between", "as", "set", "return", "returning", "limit", "offset", "any", "all", "some", "join", "using",
      "union", "intersect", "except", "distinct", "with", "lateral", "into", "array", "row");
  /** Type keywords that may prefix a string literal. */
  private static final Set<String> LITERAL_TYPES = Set.of("date", "time", "timestamp", "interval");

  /**
   * The statement with every {@code ::} cast, then every {@code ^} (PostgreSQL's exponentiation, which binds
   * tighter than {@code * /} and {@code + -} and groups from the left; Calcite's parser read {@code 2 * 3 ^ 2} as
   * {@code (2 * 3) ^ 2}) in parentheses; the statement itself when it has neither.
   */
  public static String parenthesize(String sql) {
    String casts = parenthesizeCasts(sql);
    return casts.indexOf('^') < 0 ? casts : parenthesizeExponents(casts);
  }

  private static String parenthesizeExponents(String sql) {
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    TreeMap<Integer, StringBuilder[]> inserts = new TreeMap<>();
    Map<Integer, Integer> groupsEndingAt = new HashMap<>();
    for (int k = 0; k < tokens.size(); k++) {
      if (!tokens.get(k).isSymbol("^")) {
        continue;
      }
      int start = operandStart(tokens, k - 1, groupsEndingAt);
      int end = operandEnd(tokens, k + 1);
      if (start < 0 || end < 0) {
        return sql; // let Calcite report it
      }
      if (start > 0 && (tokens.get(start - 1).isSymbol("-") || tokens.get(start - 1).isSymbol("+"))
          && (start == 1 || prefixPosition(tokens.get(start - 2)))) {
        start--; // a unary minus binds tighter than ^: -2 ^ 2 is 4
      }
      groupsEndingAt.put(end, start);
      insert(inserts, tokens.get(start).start(), 1, "(");
      insert(inserts, tokens.get(end).end(), 0, ")");
    }
    return apply(sql, inserts);
  }

  /** Whether a sign after this token is a unary one. */
  private static boolean prefixPosition(Token before) {
    return before.kind() == Kind.SYMBOL && !before.isSymbol(")") && !before.isSymbol("]")
        || before.kind() == Kind.WORD && NOT_FUNCTIONS.contains(before.text());
  }

  /** The index of the last token of the operand that starts at token {@code first}, or -1. */
  private static int operandEnd(List<Token> tokens, int first) {
    if (first >= tokens.size()) {
      return -1;
    }
    Token t = tokens.get(first);
    if (t.isSymbol("-") || t.isSymbol("+")) {
      return operandEnd(tokens, first + 1);
    }
    if (t.isSymbol("(")) {
      return matchForwards(tokens, first, "(", ")");
    }
    if (t.is("case")) {
      return matchForwards(tokens, first, "case", "end");
    }
    if (t.kind() == Kind.STRING || t.kind() == Kind.NUMBER || t.kind() == Kind.PARAM) {
      return first;
    }
    if (t.kind() == Kind.WORD && LITERAL_TYPES.contains(t.text()) && first + 1 < tokens.size()
        && tokens.get(first + 1).kind() == Kind.STRING) {
      return first + 1;
    }
    if (t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !NOT_FUNCTIONS.contains(t.text())) {
      int end = first;
      while (end + 2 < tokens.size() && tokens.get(end + 1).isSymbol(".") && tokens.get(end + 2).isName()) {
        end += 2;
      }
      if (end + 1 < tokens.size() && tokens.get(end + 1).isSymbol("(")) {
        end = matchForwards(tokens, end + 1, "(", ")");
      }
      return end;
    }
    return -1;
  }

  /** The index of the token closing the group that token {@code open} opens, or -1. */
  private static int matchForwards(List<Token> tokens, int open, String opening, String closing) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (matches(t, opening)) {
        depth++;
      } else if (matches(t, closing) && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static String apply(String sql, TreeMap<Integer, StringBuilder[]> inserts) {
    StringBuilder out = new StringBuilder(sql.length() + 2 * inserts.size());
    int at = 0;
    for (Map.Entry<Integer, StringBuilder[]> insert : inserts.entrySet()) {
      out.append(sql, at, insert.getKey()).append(insert.getValue()[0]).append(insert.getValue()[1]);
      at = insert.getKey();
    }
    return out.append(sql, at, sql.length()).toString();
  }

  private static String parenthesizeCasts(String sql) {
    if (!sql.contains("::")) {
      return sql;
    }
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    // offset -> text to insert there; closing parentheses go before opening ones at the same offset
    TreeMap<Integer, StringBuilder[]> inserts = new TreeMap<>();
    // for each cast: the token index where its type ends -> the token index where its operand starts
    Map<Integer, Integer> castsEndingAt = new HashMap<>();
    for (int k = 0; k < tokens.size(); k++) {
      if (!tokens.get(k).isSymbol("::")) {
        continue;
      }
      int operandStart = operandStart(tokens, k - 1, castsEndingAt);
      int typeEnd = typeEnd(tokens, k + 1);
      if (operandStart < 0 || typeEnd < 0) {
        return sql; // not a cast PostgreSQL would accept: let Calcite report it
      }
      castsEndingAt.put(typeEnd, operandStart);
      insert(inserts, tokens.get(operandStart).start(), 1, "(");
      insert(inserts, tokens.get(typeEnd).end(), 0, ")");
    }
    return apply(sql, inserts);
  }

  private static void insert(TreeMap<Integer, StringBuilder[]> inserts, int offset, int slot, String text) {
    inserts.computeIfAbsent(offset, o -> new StringBuilder[] {new StringBuilder(), new StringBuilder()})[slot]
        .append(text);
  }

  /** The index of the first token of the operand that ends at token {@code last}, or -1. */
  private static int operandStart(List<Token> tokens, int last, Map<Integer, Integer> castsEndingAt) {
    if (last < 0) {
      return -1;
    }
    Integer earlierCast = castsEndingAt.get(last);
    if (earlierCast != null) {
      return earlierCast;
    }
    Token t = tokens.get(last);
    if (t.isSymbol(")")) {
      int open = matchBackwards(tokens, last, "(", ")");
      if (open < 0) {
        return -1;
      }
      if (open > 1 && (tokens.get(open - 1).is("over") || tokens.get(open - 1).is("filter"))) {
        return operandStart(tokens, open - 2, castsEndingAt); // f(x) OVER (...)::t, count(*) FILTER (...)::t
      }
      if (open > 2 && tokens.get(open - 1).is("group") && tokens.get(open - 2).is("within")) {
        return operandStart(tokens, open - 3, castsEndingAt);
      }
      if (open > 0 && tokens.get(open - 1).isName() && !(tokens.get(open - 1).kind() == Kind.WORD
          && NOT_FUNCTIONS.contains(tokens.get(open - 1).text()))) {
        return qualifiedNameStart(tokens, open - 1);
      }
      return open;
    }
    if (t.is("end")) {
      return matchBackwards(tokens, last, "case", "end");
    }
    if (t.kind() == Kind.STRING) {
      return last > 0 && tokens.get(last - 1).kind() == Kind.WORD
          && LITERAL_TYPES.contains(tokens.get(last - 1).text()) ? last - 1 : last;
    }
    if (t.kind() == Kind.NUMBER || t.kind() == Kind.PARAM) {
      return last;
    }
    if (t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !NOT_FUNCTIONS.contains(t.text())) {
      return qualifiedNameStart(tokens, last);
    }
    return -1;
  }

  /** The start of a dotted name ({@code s.t.c}) that ends at token {@code last}. */
  private static int qualifiedNameStart(List<Token> tokens, int last) {
    int start = last;
    while (start >= 2 && tokens.get(start - 1).isSymbol(".") && tokens.get(start - 2).isName()) {
      start -= 2;
    }
    return start;
  }

  /** The index of the token opening the group that token {@code close} closes, or -1. */
  private static int matchBackwards(List<Token> tokens, int close, String open, String closing) {
    int depth = 0;
    for (int i = close; i >= 0; i--) {
      Token t = tokens.get(i);
      if (matches(t, closing)) {
        depth++;
      } else if (matches(t, open) && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static boolean matches(Token t, String text) {
    return Character.isLetter(text.charAt(0)) ? t.is(text) : t.isSymbol(text);
  }

  /** The index of the last token of the type name starting at token {@code first}, or -1. */
  private static int typeEnd(List<Token> tokens, int first) {
    if (first >= tokens.size() || !tokens.get(first).isName()) {
      return -1;
    }
    int end = first;
    while (end + 2 < tokens.size() && tokens.get(end + 1).isSymbol(".") && tokens.get(end + 2).isName()) {
      end += 2;
    }
    String word = tokens.get(end).text();
    if (word.equals("double") && is(tokens, end + 1, "precision")
        || (word.equals("character") || word.equals("char") || word.equals("bit")) && is(tokens, end + 1, "varying")) {
      end++;
    }
    end = modifiers(tokens, end);
    if ((word.equals("timestamp") || word.equals("time")) && (is(tokens, end + 1, "with")
        || is(tokens, end + 1, "without")) && is(tokens, end + 2, "time") && is(tokens, end + 3, "zone")) {
      end += 3;
    }
    if (end + 2 < tokens.size() && tokens.get(end + 1).isSymbol("[") && tokens.get(end + 2).isSymbol("]")) {
      end += 2;
    }
    return end;
  }

  /** Past the {@code (n, m)} after token {@code end}, if there is one. */
  private static int modifiers(List<Token> tokens, int end) {
    if (end + 1 >= tokens.size() || !tokens.get(end + 1).isSymbol("(")) {
      return end;
    }
    int depth = 0;
    for (int i = end + 1; i < tokens.size(); i++) {
      if (tokens.get(i).isSymbol("(")) {
        depth++;
      } else if (tokens.get(i).isSymbol(")") && --depth == 0) {
        return i;
      }
    }
    return end;
  }

  private static boolean is(List<Token> tokens, int index, String word) {
    return index < tokens.size() && tokens.get(index).is(word);
  }
}
