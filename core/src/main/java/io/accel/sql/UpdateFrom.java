package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;

/**
 * PostgreSQL's joined writes, which Calcite's grammar lacks, in a form it parses, with the text (and so the order of
 * the {@code ?} parameters) kept:
 * <ul>
 *   <li>{@code UPDATE t [AS a] SET ... FROM list [WHERE cond]} becomes {@code UPDATE t [AS a] SET ... WHERE EXISTS
 *       (SELECT 'accel:update-from' FROM list WHERE cond)}; the validator reads that marked condition back as the
 *       join of the target with the list ({@code io.accel.plan.PgSqlValidator}), so the SET expressions see the
 *       list's columns and each target row joined is updated.</li>
 *   <li>{@code DELETE FROM t [AS a] USING list [WHERE cond]} becomes {@code DELETE FROM t [AS a] WHERE EXISTS
 *       (SELECT 1 FROM list WHERE cond)}, which is what it means.</li>
 * </ul>
 */
public final class UpdateFrom {
  private UpdateFrom() {
  }

  /** The select-list literal marking the condition that carries an UPDATE's FROM list. */
  public static final String MARKER = "accel:update-from";

  /** Whether {@code sql} is such an UPDATE or DELETE (one with a FROM or USING list). */
  public static boolean joins(String sql) {
    return !rewrite(sql).equals(sql);
  }

  /** {@code sql} rewritten as above; unchanged when it is neither. */
  public static String rewrite(String sql) {
    int first = 0;
    while (first < sql.length() && Character.isWhitespace(sql.charAt(first))) {
      first++;
    }
    if (!sql.regionMatches(true, first, "update", 0, 6) && !sql.regionMatches(true, first, "delete", 0, 6)) {
      return sql;
    }
    List<Token> tokens = SqlLexer.tokensOrNull(sql);
    if (tokens == null) {
      return sql;
    }
    boolean update = tokens.get(0).is("update");
    // the clause that introduces the joined list, and the WHERE after it, at the statement's own level
    int list = -1;
    int where = -1;
    int depth = 0;
    for (int i = 1; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        depth--;
      } else if (depth == 0 && t.kind() == Kind.WORD) {
        if (list < 0 && (update ? t.is("from") && sawSet(tokens, i) : t.is("using") && i > 2)) {
          list = i;
        } else if (list >= 0 && t.is("where")) {
          where = i;
          break;
        } else if (list >= 0 && t.is("returning")) {
          break;
        }
      }
    }
    if (list < 0) {
      return sql;
    }
    int listEnd = where >= 0 ? tokens.get(where).start() : endOfStatement(sql, tokens);
    String items = sql.substring(tokens.get(list).end(), listEnd);
    String condition = where >= 0 ? sql.substring(tokens.get(where).end(), endOfStatement(sql, tokens)) : " TRUE";
    return sql.substring(0, tokens.get(list).start()) + "WHERE EXISTS (SELECT "
        + (update ? "'" + MARKER + "'" : "1") + " FROM" + items + (items.endsWith(" ") ? "" : " ") + "WHERE"
        + condition + ")" + sql.substring(endOfStatement(sql, tokens));
  }

  private static boolean sawSet(List<Token> tokens, int before) {
    for (int i = 1; i < before; i++) {
      if (tokens.get(i).is("set")) {
        return true;
      }
    }
    return false;
  }

  /** Where the statement's text ends: before a trailing semicolon and blanks. */
  private static int endOfStatement(String sql, List<Token> tokens) {
    int end = 0;
    for (Token t : tokens) {
      if (t.kind() != Kind.END && !t.isSymbol(";")) {
        end = Math.max(end, t.end());
      }
    }
    return end;
  }
}
