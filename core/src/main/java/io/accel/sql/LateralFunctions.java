package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A set-returning function after a comma or JOIN in FROM ({@code FROM t, jsonb_each(t.doc) AS e},
 * {@code JOIN LATERAL generate_series(1, t.n) s ON true}), which PostgreSQL lets refer to the tables before it and
 * Calcite reads only as {@code LATERAL TABLE(f(...))}: rewritten so. As in PostgreSQL, a table alias without column
 * names also names the single column of a function returning a plain type ({@code jsonb_object_keys(d) AS k} has
 * column {@code k}).
 */
public final class LateralFunctions {
  private LateralFunctions() {
  }

  /** The set-returning functions of {@code io.accel.plan.PgFunctions}; true for those of one column. */
  private static final java.util.Map<String, Boolean> FUNCTIONS = java.util.Map.ofEntries(
      java.util.Map.entry("generate_series", true), java.util.Map.entry("jsonb_object_keys", true),
      java.util.Map.entry("json_object_keys", true), java.util.Map.entry("jsonb_each", false),
      java.util.Map.entry("json_each", false), java.util.Map.entry("jsonb_each_text", false),
      java.util.Map.entry("json_each_text", false), java.util.Map.entry("jsonb_array_elements", false),
      java.util.Map.entry("json_array_elements", false), java.util.Map.entry("jsonb_array_elements_text", false),
      java.util.Map.entry("json_array_elements_text", false), java.util.Map.entry("regexp_matches", true),
      java.util.Map.entry("regexp_split_to_table", true));

  /** Words that end a FROM clause at its depth. */
  private static final Set<String> ENDS_FROM = Set.of("where", "group", "having", "window", "order", "limit",
      "offset", "fetch", "for", "union", "intersect", "except", "returning", "select", "qualify");

  /** Words after a FROM item that are no alias. */
  private static final Set<String> NOT_ALIAS = Set.of("on", "using", "join", "cross", "inner", "left", "right",
      "full", "natural", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "for", "union",
      "intersect", "except", "returning", "qualify");

  /** {@code sql} with each such call rewritten; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("json") && !lower.contains("generate_series")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 16, LateralFunctions::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    List<Boolean> inFrom = new ArrayList<>(List.of(false)); // per parenthesis depth
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      int depth = inFrom.size() - 1;
      if (t.isSymbol("(")) {
        inFrom.add(false);
      } else if (t.isSymbol(")") && depth > 0) {
        inFrom.remove(depth);
      } else if (t.is("from")) {
        inFrom.set(depth, true);
      } else if (t.kind() == Kind.WORD && ENDS_FROM.contains(t.text())) {
        inFrom.set(depth, false);
      } else if (inFrom.get(depth) && t.kind() == Kind.WORD && FUNCTIONS.containsKey(t.text()) && i > 0
          && i + 1 < tokens.size() && tokens.get(i + 1).isSymbol("(")) {
        Token before = tokens.get(i - 1);
        boolean lateral = before.is("lateral");
        Token joiner = lateral && i > 1 ? tokens.get(i - 2) : before;
        if (!(joiner.isSymbol(",") || joiner.is("join"))) {
          continue;
        }
        int close = JsonSyntax.closing(tokens, i + 1);
        if (close < 0) {
          continue;
        }
        int start = lateral ? before.start() : t.start();
        String call = "LATERAL TABLE(" + sql.substring(t.start(), tokens.get(close).end()) + ")";
        int k = close + 1;
        if (k < tokens.size() && tokens.get(k).is("as")) {
          k++;
        }
        if (FUNCTIONS.get(t.text()) && k < tokens.size() && tokens.get(k).isName()
            && !NOT_ALIAS.contains(tokens.get(k).text())
            && !(k + 1 < tokens.size() && tokens.get(k + 1).isSymbol("("))) {
          String alias = sql.substring(tokens.get(k).start(), tokens.get(k).end());
          return sql.substring(0, start) + call + sql.substring(tokens.get(close).end(), tokens.get(k).end())
              + "(" + alias + ")" + sql.substring(tokens.get(k).end());
        }
        return sql.substring(0, start) + call + sql.substring(tokens.get(close).end());
      }
    }
    return null;
  }
}
