package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;

/**
 * Words PostgreSQL lets a query use as names where Calcite's parser reserves them, quoted before the statement
 * reaches Calcite. After AS, any keyword is a column label in PostgreSQL ({@code count(*) AS limit},
 * {@code ts AS date}), except in a CAST's type. And {@code date}, {@code time}, {@code timestamp},
 * {@code interval}, {@code next} and {@code uuid} are column names PostgreSQL does not reserve
 * ({@code SELECT date FROM t}, {@code WHERE t.time > ?}): quoted where a name stands (before a comma, an
 * operator, FROM, a closing parenthesis), never where they begin a typed literal ({@code DATE '2024-01-01'}),
 * call a function, name a type (after {@code ::} or AS, in {@code WITH TIME ZONE}) or read a sequence
 * ({@code NEXT VALUE FOR}).
 */
public final class KeywordNames {
  private KeywordNames() {
  }

  private static final SqlAbstractParserImpl.Metadata CALCITE =
      SqlBabelParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();
  /** Words that may follow AS in a query without being a label. */
  private static final Set<String> NOT_LABELS = Set.of("select", "with", "values", "table", "not", "materialized");
  private static final Set<String> BARE_NAMES = Set.of("date", "time", "timestamp", "interval", "next", "uuid");
  /** What may follow a name standing alone. */
  private static final Set<String> AFTER_NAME_WORDS = Set.of("from", "as", "is", "in", "and", "or", "not",
      "between", "like", "ilike", "order", "group", "having", "limit", "offset", "asc", "desc", "nulls", "where",
      "union", "intersect", "except", "join", "on", "using", "fetch", "for", "window", "collate", "similar",
      "returning", "set", "then", "else", "end", "when", "at", "rows", "range", "groups");
  private static final Set<String> AFTER_NAME_SYMBOLS = Set.of(",", ")", ";", "=", "<>", "!=", "<", ">", "<=", ">=",
      "+", "-", "*", "/", "%", "||", "::", "]", "->", "->>", "#>", "#>>", "@>", "<@", "~", "~*", "!~", "!~*");
  /** Words before which a type name or a time-zone clause follows. */
  private static final Set<String> BEFORE_TYPE_WORDS = Set.of("as", "at", "with", "without");

  /** {@code sql} with such names quoted; unchanged when it has none or cannot be read. */
  public static String rewrite(String sql) {
    if (!mayHave(sql)) {
      return sql;
    }
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    StringBuilder out = null;
    int copied = 0;
    // for each open parenthesis: whether it is a CAST's (AS there is followed by a type)
    Deque<Boolean> casts = new ArrayDeque<>();
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        casts.push(i > 0 && (tokens.get(i - 1).is("cast") || tokens.get(i - 1).is("try_cast")));
        continue;
      }
      if (t.isSymbol(")")) {
        casts.poll();
        continue;
      }
      if (t.kind() != Kind.WORD || !quote(tokens, i, Boolean.TRUE.equals(casts.peek()))) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(sql.length() + 8);
      }
      out.append(sql, copied, t.start()).append('"').append(t.text()).append('"');
      copied = t.end();
    }
    return out == null ? sql : out.append(sql, copied, sql.length()).toString();
  }

  private static boolean quote(List<Token> tokens, int i, boolean inCast) {
    Token t = tokens.get(i);
    Token before = i > 0 ? tokens.get(i - 1) : null;
    Token after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
    if (before != null && before.is("as")) {
      return !inCast && !NOT_LABELS.contains(t.text()) && (after == null || !after.isSymbol("("))
          && CALCITE.isReservedWord(t.text().toUpperCase(Locale.ROOT));
    }
    if (!BARE_NAMES.contains(t.text()) || before != null && (before.isSymbol("::")
        || before.kind() == Kind.WORD && BEFORE_TYPE_WORDS.contains(before.text()))) {
      return false;
    }
    if (after == null || after.kind() == Kind.END) {
      return true;
    }
    return after.kind() == Kind.WORD ? AFTER_NAME_WORDS.contains(after.text())
        : after.kind() == Kind.SYMBOL && AFTER_NAME_SYMBOLS.contains(after.text());
  }

  /** A cheap look for AS or one of the bare names, before lexing. */
  private static boolean mayHave(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (lower.contains(" as ") || lower.contains("\nas ") || lower.contains(" as\n")) {
      return true;
    }
    for (String name : BARE_NAMES) {
      if (lower.contains(name)) {
        return true;
      }
    }
    return false;
  }
}
