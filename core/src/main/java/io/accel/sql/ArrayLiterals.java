package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's array literals written as text cast to an array type, which Calcite's parser does not read:
 * {@code '{1,2}'::int[]} and {@code CAST('{a,"b c"}' AS text[])} become {@code accel_array_in('{1,2}', 'INTEGER')}
 * (a parameter so cast, {@code $1::int[]}, too: its value is an array's text)
 * ({@link io.accel.plan.ArrayFunctions}), an array of that element type; {@code ARRAY[]::int[]} (an empty
 * ARRAY, which Calcite's parser refuses) is {@code accel_array_in('{}', 'INTEGER')}. The type is named as a column's
 * ({@link CommandParser#parseType}); element types: the integer types, numeric, real, double precision, boolean,
 * text, varchar and date.
 */
public final class ArrayLiterals {
  private ArrayLiterals() {
  }

  /** The element types read here (the SQL type names of the column types {@link CommandParser#parseType} reads). */
  private static final Set<String> ELEMENTS = Set.of("SMALLINT", "INTEGER", "BIGINT", "DECIMAL", "REAL", "DOUBLE",
      "BOOLEAN", "VARCHAR", "DATE");

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
      // 'text'::type[], and a parameter so cast ($1::int[], an array's text bound to it)
      if ((literal.kind() == Kind.STRING || literal.kind() == Kind.PARAM) && tokens.get(k + 1).isSymbol("::")) {
        ArrayType type = arrayType(sql, tokens, k + 2);
        if (type != null) {
          return replace(sql, literal, type.element(), literal.start(), tokens.get(type.end()).end());
        }
      }
      // ARRAY[]::type[] and CAST(ARRAY[] AS type[]): an empty array of that type
      if (literal.is("array") && tokens.get(k + 1).isSymbol("[") && tokens.get(k + 2).isSymbol("]")
          && tokens.get(k + 3).isSymbol("::") && k + 4 < tokens.size()) {
        ArrayType type = arrayType(sql, tokens, k + 4);
        if (type != null) {
          return empty(sql, type.element(), literal.start(), tokens.get(type.end()).end());
        }
      }
      if (literal.is("cast") && tokens.get(k + 1).isSymbol("(") && tokens.get(k + 2).is("array")
          && k + 6 < tokens.size() && tokens.get(k + 3).isSymbol("[") && tokens.get(k + 4).isSymbol("]")
          && tokens.get(k + 5).is("as")) {
        ArrayType type = arrayType(sql, tokens, k + 6);
        if (type != null && type.end() + 1 < tokens.size() && tokens.get(type.end() + 1).isSymbol(")")) {
          return empty(sql, type.element(), literal.start(), tokens.get(type.end() + 1).end());
        }
      }
      // CAST('text' AS type[]), CAST($1 AS type[])
      if (literal.is("cast") && tokens.get(k + 1).isSymbol("(")
          && (tokens.get(k + 2).kind() == Kind.STRING || tokens.get(k + 2).kind() == Kind.PARAM)
          && k + 4 < tokens.size() && tokens.get(k + 3).is("as")) {
        ArrayType type = arrayType(sql, tokens, k + 4);
        if (type != null && type.end() + 1 < tokens.size() && tokens.get(type.end() + 1).isSymbol(")")) {
          return replace(sql, tokens.get(k + 2), type.element(), literal.start(), tokens.get(type.end() + 1).end());
        }
      }
    }
    return null;
  }

  /** An array type: its element's SQL type name, and the index of the token {@code ]} that ends it. */
  private record ArrayType(String element, int end) {
  }

  /** The array type (a column type, then {@code []}) starting at token {@code i}, or null. */
  private static ArrayType arrayType(String sql, List<Token> tokens, int i) {
    for (int j = i + 1; j + 1 < tokens.size() && j <= i + 6; j++) {
      if (tokens.get(j).isSymbol("[") && tokens.get(j + 1).isSymbol("]")) {
        try {
          String element = CommandParser.parseType(sql.substring(tokens.get(i).start(), tokens.get(j - 1).end()))
              .kind().sqlTypeName().name();
          return ELEMENTS.contains(element) ? new ArrayType(element, j + 1) : null;
        } catch (AccelException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static String empty(String sql, String element, int from, int to) {
    return sql.substring(0, from) + "accel_array_in('{}', '" + element + "')" + sql.substring(to);
  }

  private static String replace(String sql, Token literal, String element, int from, int to) {
    return sql.substring(0, from) + "accel_array_in(" + sql.substring(literal.start(), literal.end()) + ", '"
        + element + "')" + sql.substring(to);
  }
}
