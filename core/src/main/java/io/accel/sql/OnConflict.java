package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code INSERT ... ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET column = expression, ...
 * [WHERE condition]}, which Calcite's grammar lacks: the INSERT is planned without the clause, and the SET list and
 * WHERE condition become one query over the conflicting row (named by the target's alias) and the proposed row
 * ({@code excluded}), evaluated once per conflict (see {@code io.accel.exec.TableWriter#upsert}). A RETURNING clause
 * has been split off before ({@link Returning}).
 *
 * @param insert the INSERT without the clause (and without an {@code AS alias} of its target)
 * @param targetColumns the conflict target's columns; empty when none or a constraint is named
 * @param targetExpressions the conflict target's expressions ({@code lower(email)}, {@code (a + b)}), as written
 * @param constraint the constraint ON CONSTRAINT names, or null
 * @param setColumns the columns DO UPDATE sets (empty for DO NOTHING)
 * @param insertParameters the {@code ?} of the INSERT part; those of SET and WHERE follow
 * @param targetWhere the target's {@code WHERE} (the partial unique indexes it infers), or null
 */
public record OnConflict(String insert, String table, String alias, List<String> targetColumns, String constraint,
    boolean doUpdate, List<String> setColumns, List<String> setExpressions, String where, int insertParameters,
    List<String> targetExpressions, String targetWhere) {

  /** A cheap test before {@link #of}. */
  public static boolean mayHave(String sql) {
    return sql.regionMatches(true, skipSpace(sql), "insert", 0, 6)
        && sql.toLowerCase(java.util.Locale.ROOT).contains("conflict");
  }

  private static int skipSpace(String sql) {
    int i = 0;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * The query computing the SET values, then the WHERE condition (TRUE without one), from the conflicting row in
   * {@code existing}'s table and the proposed one in {@code excluded}'s.
   */
  public String query(String existing, String excluded) {
    StringBuilder b = new StringBuilder("SELECT ");
    for (String e : setExpressions) {
      b.append('(').append(e).append("), ");
    }
    b.append(where == null ? "TRUE" : "(" + where + ")");
    b.append(" FROM ").append(Returning.quote(existing)).append('.').append(Returning.quote(table)).append(" AS ")
        .append(Returning.quote(alias)).append(" CROSS JOIN ").append(Returning.quote(excluded)).append('.')
        .append(Returning.quote(table)).append(" AS \"excluded\"");
    return b.toString();
  }

  public static Optional<OnConflict> of(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.size() < 4 || !tokens.get(0).is("insert") || !tokens.get(1).is("into") || !tokens.get(2).isName()) {
      return Optional.empty();
    }
    int at = -1;
    int depth = 0;
    for (int i = 3; i < tokens.size() - 1; i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.is("on") && tokens.get(i + 1).is("conflict")) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      return Optional.empty();
    }
    String table = tokens.get(2).text();
    int i = 3;
    if (tokens.get(i).isSymbol(".") && tokens.get(i + 1).isName()) {
      table = tokens.get(i + 1).text();
      i += 2;
    }
    String alias = tokens.get(i).is("as") && tokens.get(i + 1).isName() ? tokens.get(i + 1).text() : table;
    int insertParameters = 0;
    for (int k = 0; k < at; k++) {
      if (tokens.get(k).kind() == Kind.PARAM) {
        insertParameters++;
      }
    }
    String insert = Returning.withoutInsertAlias(sql.substring(0, tokens.get(at).start()).trim());
    i = at + 2;
    List<String> target = new ArrayList<>();
    List<String> targetExpressions = new ArrayList<>();
    String targetWhere = null;
    String constraint = null;
    if (tokens.get(i).isSymbol("(")) {
      i++;
      while (true) {
        Token t = tokens.get(i);
        if (t.isSymbol("(") || t.isName() && tokens.get(i + 1).isSymbol("(")) {
          // an index expression: (expr) or a function call
          int open = t.isSymbol("(") ? i : i + 1;
          int close = PgCatalogSyntax.closing(tokens, open);
          if (close < 0) {
            throw syntax(sql, tokens.get(tokens.size() - 1));
          }
          targetExpressions.add(t.isSymbol("(") ? sql.substring(tokens.get(open).end(), tokens.get(close).start())
              : sql.substring(t.start(), tokens.get(close).end()));
          i = close + 1;
        } else if (t.isName()) {
          target.add(t.text());
          i++;
        } else {
          throw syntax(sql, t);
        }
        if (tokens.get(i).is("collate")) {
          i += 2;
        }
        if (tokens.get(i).kind() == Kind.WORD && !tokens.get(i).isSymbol(",")) {
          i++; // an operator class
        }
        if (!tokens.get(i).isSymbol(",")) {
          break;
        }
        i++;
      }
      if (!tokens.get(i).isSymbol(")")) {
        throw syntax(sql, tokens.get(i));
      }
      i++;
      if (tokens.get(i).is("where")) {
        int start = ++i;
        int d = 0;
        while (tokens.get(i).kind() != Kind.END && !(d == 0 && tokens.get(i).is("do"))) {
          d += tokens.get(i).isSymbol("(") ? 1 : tokens.get(i).isSymbol(")") ? -1 : 0;
          i++;
        }
        if (i == start) {
          throw syntax(sql, tokens.get(i));
        }
        targetWhere = sql.substring(tokens.get(start).start(), tokens.get(i - 1).end());
      }
    } else if (tokens.get(i).is("on") && tokens.get(i + 1).is("constraint") && tokens.get(i + 2).isName()) {
      constraint = tokens.get(i + 2).text();
      i += 3;
    }
    if (!tokens.get(i).is("do")) {
      throw syntax(sql, tokens.get(i));
    }
    i++;
    if (tokens.get(i).is("nothing")) {
      i++;
      skipEnd(sql, tokens, i);
      return Optional.of(new OnConflict(insert, table, alias, target, constraint, false, List.of(), List.of(), null,
          insertParameters, targetExpressions, targetWhere));
    }
    if (!tokens.get(i).is("update") || !tokens.get(i + 1).is("set")) {
      throw syntax(sql, tokens.get(i));
    }
    if (target.isEmpty() && targetExpressions.isEmpty() && constraint == null) {
      throw new AccelException(SqlState.SYNTAX_ERROR,
          "ON CONFLICT DO UPDATE requires inference specification or constraint name")
          .withHint("For example, ON CONFLICT (column_name).");
    }
    i += 2;
    List<String> columns = new ArrayList<>();
    List<String> expressions = new ArrayList<>();
    String where = null;
    while (true) {
      Token column = tokens.get(i);
      if (column.isSymbol("(")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
            "ON CONFLICT DO UPDATE SET (columns) = (...) is not supported by Accel; set each column");
      }
      if (!column.isName() || !tokens.get(i + 1).isSymbol("=")) {
        throw syntax(sql, column);
      }
      i += 2;
      int start = i;
      int d = 0;
      while (tokens.get(i).kind() != Kind.END && !(d == 0 && (tokens.get(i).isSymbol(",") || tokens.get(i).is("where")
          || tokens.get(i).isSymbol(";")))) {
        if (tokens.get(i).isSymbol("(")) {
          d++;
        } else if (tokens.get(i).isSymbol(")")) {
          d--;
        }
        i++;
      }
      if (i == start) {
        throw syntax(sql, tokens.get(i));
      }
      columns.add(column.text());
      expressions.add(sql.substring(tokens.get(start).start(), tokens.get(i - 1).end()));
      if (!tokens.get(i).isSymbol(",")) {
        break;
      }
      i++;
    }
    if (tokens.get(i).is("where")) {
      int start = i + 1;
      int end = tokens.size() - 1;
      while (end > start && (tokens.get(end).kind() == Kind.END || tokens.get(end).isSymbol(";"))) {
        end--;
      }
      if (end < start) {
        throw syntax(sql, tokens.get(start));
      }
      where = sql.substring(tokens.get(start).start(), tokens.get(end).end());
    } else {
      skipEnd(sql, tokens, i);
    }
    return Optional.of(new OnConflict(insert, table, alias, target, constraint, true, columns, expressions, where,
        insertParameters, targetExpressions, targetWhere));
  }

  private static void skipEnd(String sql, List<Token> tokens, int i) {
    while (tokens.get(i).isSymbol(";")) {
      i++;
    }
    if (tokens.get(i).kind() != Kind.END) {
      throw syntax(sql, tokens.get(i));
    }
  }

  private static AccelException syntax(String sql, Token at) {
    return SqlLexer.syntax(sql, at.start(), "syntax error at or near \""
        + (at.kind() == Kind.END ? "end of input" : sql.substring(at.start(), at.end())) + "\"");
  }
}
