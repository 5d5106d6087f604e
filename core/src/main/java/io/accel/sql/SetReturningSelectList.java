package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A set-returning function of one column in a SELECT list ({@code SELECT generate_series(1, 3)},
 * {@code INSERT INTO t SELECT generate_series(1, 1000), 'x'}, {@code SELECT id, jsonb_array_elements_text(tags)
 * FROM t}, {@code SELECT unnest(ARRAY[1, 2])}), which PostgreSQL expands into one row per value and Calcite cannot
 * call there: the call becomes a column of the function in FROM, {@code accel_series.generate_series}. Without
 * FROM the SELECT reads {@code FROM generate_series(1, 3) AS accel_series(generate_series)}; with one, the function is joined laterally to its items
 * ({@code FROM t, LATERAL TABLE(f(...)) AS accel_series(...)}), so each row repeats once per value and a row whose
 * call returns none is dropped, as in PostgreSQL. One such call per SELECT, and not in a SELECT that groups or
 * aggregates (PostgreSQL expands it after grouping); anything else keeps its text (Calcite reports it).
 */
public final class SetReturningSelectList {
  private SetReturningSelectList() {
  }

  private static final String ALIAS = "accel_series";

  /** The functions, and the name of their column (quoted where it is a reserved word). */
  private static final Map<String, String> FUNCTIONS = Map.of("generate_series", "generate_series",
      "jsonb_object_keys", "jsonb_object_keys", "json_object_keys", "jsonb_object_keys",
      "jsonb_array_elements", "value", "json_array_elements", "value", "jsonb_array_elements_text", "value",
      "json_array_elements_text", "value", "unnest", "\"unnest\"", "regexp_matches", "regexp_matches",
      "regexp_split_to_table", "regexp_split_to_table");

  /** Aggregates and words that make the SELECT group. */
  private static final Set<String> GROUPING = Set.of("count", "sum", "avg", "min", "max", "string_agg",
      "array_agg", "json_agg", "jsonb_agg", "bool_and", "bool_or", "every", "distinct", "over", "group", "having",
      "stddev", "variance");

  /** {@code sql} with each such SELECT rewritten; unchanged when it has none. */
  public static String rewrite(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (!lower.contains("generate_series") && !lower.contains("_object_keys") && !lower.contains("_elements")
        && !lower.contains("unnest") && !lower.contains("regexp_")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 8, SetReturningSelectList::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int s = 0; s < tokens.size(); s++) {
      if (!tokens.get(s).is("select")) {
        continue;
      }
      // the SELECT list: up to the first word at its depth that ends it
      int depth = 0;
      int call = -1;
      int calls = 0;
      List<Integer> unnests = new java.util.ArrayList<>();
      boolean grouping = false;
      int end = s + 1;
      for (; end < tokens.size(); end++) {
        Token t = tokens.get(end);
        if (t.kind() == Kind.END) {
          break;
        }
        if (t.isSymbol("(")) {
          depth++;
        } else if (t.isSymbol(")")) {
          if (depth == 0) {
            break; // the end of a parenthesized SELECT
          }
          depth--;
        } else if (depth == 0 && t.kind() == Kind.WORD && ENDS_LIST.contains(t.text())) {
          break;
        } else if (t.kind() == Kind.WORD && FUNCTIONS.containsKey(t.text()) && end + 1 < tokens.size()
            && tokens.get(end + 1).isSymbol("(") && !tokens.get(end - 1).isSymbol(".")) {
          calls++;
          call = end;
          if (t.is("unnest")) {
            unnests.add(end);
          }
        } else if (t.is("generate_subscripts") && end + 1 < tokens.size() && tokens.get(end + 1).isSymbol("(")) {
          calls++;
          unnests.add(end); // with an unnest of the same key column: its positions (SQLAlchemy's primary keys)
        } else if (t.kind() == Kind.WORD && GROUPING.contains(t.text())) {
          grouping = true;
        } else if (t.is("select")) {
          calls += 2; // a sub-query in the list: left as it is
        }
      }
      boolean from = end < tokens.size() && tokens.get(end).is("from");
      if (from && !grouping && calls > 0 && unnests.size() == calls
          && unnests.stream().allMatch(c -> catalogKeys(tokens, c))) {
        String keys = catalogKeys(sql, tokens, unnests, end);
        if (keys != null) {
          return keys;
        }
      }
      if (call < 0 || calls != 1) {
        continue;
      }
      int close = PgCatalogSyntax.closing(tokens, call + 1);
      if (close < 0 || close > end) {
        continue;
      }
      String function = tokens.get(call).text();
      String column = FUNCTIONS.get(function);
      String reference = ALIAS + "." + column;
      String callText = sql.substring(tokens.get(call).start(), tokens.get(close).end());
      int listEnd = tokens.get(end - 1).end();
      boolean unnest = function.equals("unnest");
      if (!from) {
        // (Calcite's FROM reads the functions other than these only inside TABLE(...))
        boolean bare = function.equals("generate_series") || unnest;
        return sql.substring(0, tokens.get(call).start()) + reference
            + sql.substring(tokens.get(close).end(), listEnd) + " FROM " + (bare ? callText : "TABLE(" + callText
            + ")") + " AS " + ALIAS + "(" + column + ")" + sql.substring(listEnd);
      }
      int fromEnd = fromEnd(tokens, end);
      if (fromEnd < 0 || grouping || groups(tokens, end, fromEnd)) {
        continue;
      }
      int itemsEnd = tokens.get(fromEnd - 1).end();
      // (UNNEST in FROM is Calcite's own syntax, lateral by itself; the other functions are table functions)
      return sql.substring(0, tokens.get(call).start()) + reference + sql.substring(tokens.get(close).end(), itemsEnd)
          + (unnest ? ", " + callText : ", LATERAL TABLE(" + callText + ")") + " AS " + ALIAS + "(" + column + ")"
          + sql.substring(itemsEnd);
    }
    return null;
  }

  /** The catalog's key columns, arrays Accel keeps as their text ({@code {1,2}}, an index's {@code 1 2}). */
  private static final Set<String> KEY_ARRAYS = Set.of("conkey", "confkey", "indkey");

  /**
   * Whether the call at {@code call} is unnest of a catalog key column ({@code unnest(con.conkey)}), or
   * generate_subscripts of one in its first dimension.
   */
  private static boolean catalogKeys(List<Token> tokens, int call) {
    int close = PgCatalogSyntax.closing(tokens, call + 1);
    if (close < 0 || close == call + 2) {
      return false;
    }
    if (tokens.get(call).is("generate_subscripts")) {
      if (close < 4 || !tokens.get(close - 2).isSymbol(",") || !tokens.get(close - 1).text().equals("1")) {
        return false;
      }
      close -= 2;
    }
    for (int k = call + 2; k < close; k++) {
      boolean name = tokens.get(k).kind() == Kind.WORD || tokens.get(k).kind() == Kind.QUOTED;
      if ((k - call) % 2 == 0 ? !name : !tokens.get(k).isSymbol(".")) {
        return false;
      }
    }
    return (close - call) % 2 == 1 && KEY_ARRAYS.contains(tokens.get(close - 1).text());
  }

  /**
   * unnest of catalog key columns in a SELECT list, several in lockstep as PostgreSQL runs them (TypeORM's foreign
   * keys: {@code UNNEST(con.conkey) AS parent, UNNEST(con.confkey) AS child}): each is the key at a position of
   * {@code accel_key_positions}, joined while the first has one. Null when the FROM clause is not one this reads.
   */
  private static String catalogKeys(String sql, List<Token> tokens, List<Integer> calls, int from) {
    int fromEnd = fromEnd(tokens, from);
    if (fromEnd < 0 || groups(tokens, from, fromEnd)) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    int at = 0;
    String first = null;
    for (int c : calls) {
      int close = PgCatalogSyntax.closing(tokens, c + 1);
      boolean subscripts = tokens.get(c).is("generate_subscripts");
      String argument = sql.substring(tokens.get(c + 2).start(), tokens.get(subscripts ? close - 3 : close - 1).end());
      first = first == null ? argument : first;
      out.append(sql, at, tokens.get(c).start()).append(subscripts ? "accel_key_pos.n"
          : "pg_catalog.accel_key_at(" + argument + ", accel_key_pos.n)");
      at = tokens.get(close).end();
    }
    String has = "pg_catalog.accel_key_at(" + first + ", accel_key_pos.n) IS NOT NULL";
    out.append(sql, at, tokens.get(fromEnd - 1).end()).append(", pg_catalog.accel_key_positions AS accel_key_pos");
    Token after = tokens.get(fromEnd);
    if (after.is("where")) {
      out.append(sql, tokens.get(fromEnd - 1).end(), after.end()).append(" ").append(has).append(" AND (");
      int whereEnd = clauseEnd(tokens, fromEnd, ENDS_WHERE);
      if (whereEnd < 0) {
        return null;
      }
      out.append(sql, after.end(), tokens.get(whereEnd - 1).end()).append(")")
          .append(sql.substring(tokens.get(whereEnd - 1).end()));
    } else {
      out.append(" WHERE ").append(has).append(sql.substring(tokens.get(fromEnd - 1).end()));
    }
    return out.toString();
  }


  /** The index of the token that ends the FROM clause starting at token {@code from}, or -1. */
  private static int fromEnd(List<Token> tokens, int from) {
    return clauseEnd(tokens, from, ENDS_FROM);
  }

  /** The index of the token that ends the clause starting at token {@code start} (one of {@code ends}), or -1. */
  private static int clauseEnd(List<Token> tokens, int start, Set<String> ends) {
    int depth = 0;
    for (int k = start + 1; k < tokens.size(); k++) {
      Token t = tokens.get(k);
      if (t.kind() == Kind.END) {
        return k;
      }
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        if (depth-- == 0) {
          return k;
        }
      } else if (depth == 0 && (t.isSymbol(";") || t.kind() == Kind.WORD && ends.contains(t.text()))) {
        return k;
      }
    }
    return -1;
  }

  /** Whether the clauses after the FROM items group (GROUP BY, HAVING, a window). */
  private static boolean groups(List<Token> tokens, int from, int fromEnd) {
    int depth = 0;
    for (int k = fromEnd; k < tokens.size(); k++) {
      Token t = tokens.get(k);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")") && depth-- == 0) {
        return false;
      } else if (depth == 0 && (t.is("group") || t.is("having") || t.is("window") || t.is("union")
          || t.is("intersect") || t.is("except"))) {
        return true;
      }
    }
    return false;
  }

  /** Words that end a SELECT list at its depth. */
  private static final Set<String> ENDS_LIST = Set.of("from", "where", "group", "having",
      "window", "order", "limit", "offset", "fetch", "for", "union", "intersect", "except", "into", "returning",
      "on");

  /** Words that end a WHERE clause at its depth. */
  private static final Set<String> ENDS_WHERE = Set.of("group", "having", "window", "order", "limit",
      "offset", "fetch", "for", "union", "intersect", "except", "returning", "qualify");

  /** Words that end a FROM clause at its depth. */
  private static final Set<String> ENDS_FROM = java.util.stream.Stream.concat(ENDS_WHERE.stream(),
      java.util.stream.Stream.of("where")).collect(java.util.stream.Collectors.toUnmodifiableSet());
}
