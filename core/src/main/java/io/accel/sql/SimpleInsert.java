package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * An INSERT of constant rows, the write applications and ORMs send most: {@code INSERT INTO table [(columns)]
 * VALUES (value, ...) [, (value, ...) ...]}, each value an integer or plain string literal, TRUE, FALSE, NULL or a
 * {@code ?} parameter. Planned directly (see {@code io.accel.plan.DirectPlanner}); {@link #parse} returns null for
 * anything else (DEFAULT, expressions, casts, SELECT, ON CONFLICT, RETURNING, ...), which takes the general path.
 */
public record SimpleInsert(List<String> table, List<String> columns, List<List<Value>> rows) {

  /** A value: {@code literal} is a Long, String or Boolean (null for NULL), or {@code parameter} >= 0. */
  public record Value(Object literal, int parameter) {
    public boolean isParameter() {
      return parameter >= 0;
    }
  }

  /** The statement in this shape, or null (columns is empty when the statement names none). */
  public static SimpleInsert parse(String sql) {
    List<Token> tokens = SimpleSelect.tokensOf(sql, "insert");
    if (tokens == null) {
      return null;
    }
    int[] at = {0};
    int[] parameters = {0};
    try {
      word(tokens, at, "insert");
      word(tokens, at, "into");
      List<String> table = new ArrayList<>();
      table.add(name(tokens, at));
      if (symbol(tokens, at, ".")) {
        table.add(name(tokens, at));
      }
      List<String> columns = new ArrayList<>();
      if (symbol(tokens, at, "(")) {
        do {
          columns.add(name(tokens, at));
        } while (symbol(tokens, at, ","));
        expect(tokens, at, ")");
      }
      word(tokens, at, "values");
      List<List<Value>> rows = new ArrayList<>();
      do {
        expect(tokens, at, "(");
        List<Value> row = new ArrayList<>();
        do {
          row.add(value(sql, tokens, at, parameters));
        } while (symbol(tokens, at, ","));
        expect(tokens, at, ")");
        rows.add(List.copyOf(row));
      } while (symbol(tokens, at, ","));
      symbol(tokens, at, ";");
      if (tokens.get(at[0]).kind() != Kind.END) {
        return null;
      }
      return new SimpleInsert(List.copyOf(table), List.copyOf(columns), List.copyOf(rows));
    } catch (IllegalStateException e) {
      return null;
    }
  }

  private static Value value(String sql, List<Token> tokens, int[] at, int[] parameters) {
    Token t = tokens.get(at[0]);
    boolean negative = false;
    if (t.isSymbol("-") && tokens.get(at[0] + 1).kind() == Kind.NUMBER) {
      negative = true;
      t = tokens.get(++at[0]);
    }
    at[0]++;
    switch (t.kind()) {
      case NUMBER:
        if (!t.text().chars().allMatch(Character::isDigit) || t.text().length() > 18) {
          throw new IllegalStateException();
        }
        return new Value(negative ? -Long.parseLong(t.text()) : Long.parseLong(t.text()), -1);
      case STRING:
        if (sql.charAt(t.start()) != '\'' || tokens.get(at[0]).kind() == Kind.STRING) {
          throw new IllegalStateException();
        }
        return new Value(t.text(), -1);
      case PARAM:
        if (!t.text().equals("?")) {
          throw new IllegalStateException();
        }
        return new Value(null, parameters[0]++);
      case WORD:
        return switch (t.text()) {
          case "null" -> new Value(null, -1);
          case "true" -> new Value(Boolean.TRUE, -1);
          case "false" -> new Value(Boolean.FALSE, -1);
          default -> throw new IllegalStateException();
        };
      default:
        throw new IllegalStateException();
    }
  }

  private static String name(List<Token> tokens, int[] at) {
    Token t = tokens.get(at[0]);
    if (t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !SimpleSelect.reserved(t.text())) {
      at[0]++;
      return t.text();
    }
    throw new IllegalStateException();
  }

  private static void word(List<Token> tokens, int[] at, String word) {
    if (!tokens.get(at[0]).is(word)) {
      throw new IllegalStateException();
    }
    at[0]++;
  }

  private static boolean symbol(List<Token> tokens, int[] at, String symbol) {
    if (tokens.get(at[0]).isSymbol(symbol)) {
      at[0]++;
      return true;
    }
    return false;
  }

  private static void expect(List<Token> tokens, int[] at, String symbol) {
    if (!symbol(tokens, at, symbol)) {
      throw new IllegalStateException();
    }
  }
}
