package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Optional;

/**
 * A query's trailing {@code LIMIT n OFFSET k} (in either order, or {@code OFFSET k ROWS FETCH FIRST n ROWS
 * ONLY}) split from the query it pages: the cursor cache serves page after page of {@link #inner()} from one
 * suspended cursor. Each bound is a literal or a {@code ?} parameter (by index).
 */
public record Paging(String inner, Bound offset, Bound fetch) {
  /** A bound: a literal number, or the value of parameter {@code parameter} (0-based). */
  public record Bound(long literal, int parameter) {
    static Bound of(long literal) {
      return new Bound(literal, -1);
    }

    static Bound param(int index) {
      return new Bound(-1, index);
    }

    public boolean isParameter() {
      return parameter >= 0;
    }
  }

  /**
   * The paging clause at the end of {@code sql} (outside parentheses), with both a row count and an
   * offset given; empty when there is none, or when it is not simple (LIMIT ALL, expressions, no offset).
   */
  public static Optional<Paging> of(String sql) {
    if (!mentionsOffset(sql)) {
      return Optional.empty(); // most queries: no need to lex them
    }
    List<Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    int params = 0;
    int depth = 0;
    int clause = -1;
    int paramsBeforeClause = 0;
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && clause < 0 && (t.is("limit") || t.is("offset") || t.is("fetch"))) {
        clause = i;
        paramsBeforeClause = params;
      } else if (t.kind() == Kind.PARAM) {
        if (!t.text().equals("?")) {
          return Optional.empty(); // $n parameters: positions are not in text order
        }
        params++;
      }
    }
    if (clause < 0) {
      return Optional.empty();
    }
    Bound offset = null;
    Bound fetch = null;
    int[] p = {paramsBeforeClause};
    int i = clause;
    while (i < tokens.size() && tokens.get(i).kind() != Kind.END && !tokens.get(i).isSymbol(";")) {
      Token t = tokens.get(i);
      if (t.is("limit") && fetch == null) {
        fetch = bound(tokens, i + 1, p);
        i += 2;
      } else if (t.is("offset") && offset == null) {
        offset = bound(tokens, i + 1, p);
        i += 2;
        if (i < tokens.size() && (tokens.get(i).is("rows") || tokens.get(i).is("row"))) {
          i++;
        }
      } else if (t.is("fetch") && fetch == null && i + 4 < tokens.size()
          && (tokens.get(i + 1).is("first") || tokens.get(i + 1).is("next"))
          && (tokens.get(i + 3).is("rows") || tokens.get(i + 3).is("row")) && tokens.get(i + 4).is("only")) {
        fetch = bound(tokens, i + 2, p);
        i += 5;
      } else {
        return Optional.empty();
      }
      if (offset == ZERO_INVALID || fetch == ZERO_INVALID) {
        return Optional.empty();
      }
    }
    for (int j = i; j < tokens.size(); j++) {
      if (tokens.get(j).kind() != Kind.END && !tokens.get(j).isSymbol(";")) {
        return Optional.empty();
      }
    }
    if (offset == null || fetch == null) {
      return Optional.empty();
    }
    return Optional.of(new Paging(sql.substring(0, tokens.get(clause).start()), offset, fetch));
  }

  private static boolean mentionsOffset(String sql) {
    for (int i = sql.length() - 6; i >= 0; i--) {
      if (sql.regionMatches(true, i, "offset", 0, 6)) {
        return true;
      }
    }
    return false;
  }

  private static final Bound ZERO_INVALID = new Bound(-2, -2);

  private static Bound bound(List<Token> tokens, int i, int[] params) {
    if (i >= tokens.size()) {
      return ZERO_INVALID;
    }
    Token t = tokens.get(i);
    if (t.kind() == Kind.PARAM) {
      return Bound.param(params[0]++);
    }
    if (t.kind() == Kind.NUMBER) {
      try {
        long v = Long.parseLong(t.text());
        return v >= 0 ? Bound.of(v) : ZERO_INVALID;
      } catch (NumberFormatException e) {
        return ZERO_INVALID;
      }
    }
    return ZERO_INVALID;
  }
}
