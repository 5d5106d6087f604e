package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's array literals written as text cast to an array type, which Calcite's parser does not read:
 * {@code '{1,2}'::int[]} and {@code CAST('{a,"b c"}' AS text[])} become {@code accel_array_in('{1,2}', 'INTEGER')}
 * ({@link io.accel.plan.ArrayFunctions}), an array of that element type. Element types: the integer types, numeric,
 * real, double precision, boolean, text, varchar and date.
 */
public final class ArrayLiterals {
  private ArrayLiterals() {
  }

  /** PostgreSQL's element type names (one word, or the first of two) and their SQL type names. */
  private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("int", "INTEGER"),
      Map.entry("int4", "INTEGER"), Map.entry("integer", "INTEGER"), Map.entry("int2", "SMALLINT"),
      Map.entry("smallint", "SMALLINT"), Map.entry("int8", "BIGINT"), Map.entry("bigint", "BIGINT"),
      Map.entry("numeric", "DECIMAL"), Map.entry("decimal", "DECIMAL"), Map.entry("real", "REAL"),
      Map.entry("float4", "REAL"), Map.entry("float8", "DOUBLE"), Map.entry("double", "DOUBLE"),
      Map.entry("bool", "BOOLEAN"), Map.entry("boolean", "BOOLEAN"), Map.entry("text", "VARCHAR"),
      Map.entry("varchar", "VARCHAR"), Map.entry("date", "DATE"));

  /** {@code sql} with each text literal cast to an array type as an accel_array_in call. */
  public static String rewrite(String sql) {
    if (!sql.contains("[]") && !sql.contains("[ ]")) {
      return sql;
    }
    return SqlLexer.rewriteEach(sql, 64, ArrayLiterals::rewriteFirst);
  }

  private static String rewriteFirst(String sql, List<Token> tokens) {
    for (int k = 0; k + 3 < tokens.size(); k++) {
      Token literal = tokens.get(k);
      // 'text'::type[]
      if (literal.kind() == Kind.STRING && tokens.get(k + 1).isSymbol("::")) {
        int end = arrayType(tokens, k + 2);
        if (end > 0) {
          return replace(sql, literal, tokens, k + 2, end, literal.start(), tokens.get(end).end());
        }
      }
      // CAST('text' AS type[])
      if (literal.is("cast") && tokens.get(k + 1).isSymbol("(") && tokens.get(k + 2).kind() == Kind.STRING
          && k + 4 < tokens.size() && tokens.get(k + 3).is("as")) {
        int end = arrayType(tokens, k + 4);
        if (end > 0 && end + 1 < tokens.size() && tokens.get(end + 1).isSymbol(")")) {
          return replace(sql, tokens.get(k + 2), tokens, k + 4, end, literal.start(), tokens.get(end + 1).end());
        }
      }
    }
    return null;
  }

  /** The index of the {@code ]} ending an array type name starting at {@code i}, or -1. */
  private static int arrayType(List<Token> tokens, int i) {
    if (i >= tokens.size() || !TYPES.containsKey(tokens.get(i).text()) || tokens.get(i).kind() != Kind.WORD) {
      return -1;
    }
    int j = i + 1;
    if (tokens.get(i).is("double") && j < tokens.size() && tokens.get(j).is("precision")) {
      j++;
    }
    if (tokens.get(i).is("varchar") && j + 2 < tokens.size() && tokens.get(j).isSymbol("(")
        && tokens.get(j + 1).kind() == Kind.NUMBER && tokens.get(j + 2).isSymbol(")")) {
      j += 3;
    }
    return j + 1 < tokens.size() && tokens.get(j).isSymbol("[") && tokens.get(j + 1).isSymbol("]") ? j + 1 : -1;
  }

  private static String replace(String sql, Token literal, List<Token> tokens, int type, int end, int from, int to) {
    return sql.substring(0, from) + "accel_array_in(" + sql.substring(literal.start(), literal.end()) + ", '"
        + TYPES.get(tokens.get(type).text()) + "')" + sql.substring(to);
  }
}
