package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The locking clause of a SELECT ({@code FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE [OF table, ...] [NOWAIT |
 * SKIP LOCKED]}, repeatable), which Calcite's grammar lacks: split off the text so the query is planned without it,
 * and applied to the rows the query's scans of the locked tables return. {@code tables} empty means every table;
 * {@code limit} is the query's top-level {@code LIMIT} literal (-1: none), past which no row is read.
 */
public record RowLocking(Strength strength, List<String> tables, Wait waitPolicy, long limit) {

  /** PostgreSQL's row lock strengths, weakest first: two conflict when their ordinals add up to 3 or more. */
  public enum Strength {
    KEY_SHARE, SHARE, NO_KEY_UPDATE, UPDATE;

    public boolean conflictsWith(Strength other) {
      return ordinal() + other.ordinal() >= 3;
    }

    public String sql() {
      return name().replace('_', ' ');
    }
  }

  /** What happens to a row another transaction holds a conflicting lock on. */
  public enum Wait { WAIT, NOWAIT, SKIP_LOCKED }

  public RowLocking {
    tables = List.copyOf(tables);
  }

  /** Whether the clause locks the rows of {@code table}. */
  public boolean covers(String table) {
    return tables.isEmpty() || tables.contains(table);
  }

  /** A query and the locking clause taken out of it. */
  public record Split(String query, RowLocking locking) {
  }

  /** A cheap test before {@link #of}. */
  public static boolean mayHave(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    return lower.contains("for") && (lower.contains("update") || lower.contains("share"));
  }

  /**
   * The query without its locking clauses, when it is a query that has some. OF names that are not tables (aliases)
   * make the clause lock every table the query reads.
   */
  public static Optional<Split> of(String sql) {
    List<Token> tokens = SqlLexer.tokenize(sql);
    if (tokens.isEmpty() || !(tokens.get(0).is("select") || tokens.get(0).is("with") || tokens.get(0).isSymbol("("))) {
      return Optional.empty();
    }
    StringBuilder query = new StringBuilder();
    int copied = 0;
    int depth = 0;
    Strength strength = null;
    List<String> tables = new ArrayList<>();
    boolean allTables = false;
    Wait wait = Wait.WAIT;
    long limit = -1;
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      }
      if (depth == 0 && i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.NUMBER
          && (t.is("limit") || t.is("first") || t.is("next"))) {
        try {
          limit = Long.parseLong(tokens.get(i + 1).text());
        } catch (NumberFormatException e) {
          limit = -1;
        }
      }
      if (!t.is("for") || i + 1 >= tokens.size()) {
        continue;
      }
      int j = i + 1;
      Strength s;
      if (tokens.get(j).is("update")) {
        s = Strength.UPDATE;
      } else if (tokens.get(j).is("share")) {
        s = Strength.SHARE;
      } else if (tokens.get(j).is("no") && word(tokens, j + 1, "key") && word(tokens, j + 2, "update")) {
        s = Strength.NO_KEY_UPDATE;
        j += 2;
      } else if (tokens.get(j).is("key") && word(tokens, j + 1, "share")) {
        s = Strength.KEY_SHARE;
        j += 1;
      } else {
        continue;
      }
      j++;
      strength = strength == null || s.ordinal() > strength.ordinal() ? s : strength;
      if (word(tokens, j, "of")) {
        j++;
        while (true) {
          Token name = tokens.get(j);
          if (name.kind() != Kind.WORD && name.kind() != Kind.QUOTED) {
            throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + name.text() + "\"");
          }
          j++;
          String n = name.text();
          if (tokens.get(j).isSymbol(".")) {
            n = tokens.get(j + 1).text();
            j += 2;
          }
          tables.add(n);
          if (!tokens.get(j).isSymbol(",")) {
            break;
          }
          j++;
        }
      } else {
        allTables = true;
      }
      if (word(tokens, j, "nowait")) {
        wait = Wait.NOWAIT;
        j++;
      } else if (word(tokens, j, "skip") && word(tokens, j + 1, "locked")) {
        wait = Wait.SKIP_LOCKED;
        j += 2;
      }
      query.append(sql, copied, t.start());
      Token last = tokens.get(j - 1);
      copied = last.end();
      i = j - 1;
    }
    if (strength == null) {
      return Optional.empty();
    }
    query.append(sql.substring(copied));
    if (!allTables) {
      tables = fromRelations(SqlLexer.tokenize(query.toString()), tables, strength);
    }
    return Optional.of(new Split(query.toString().trim(), new RowLocking(strength, allTables ? List.of() : tables,
        wait, limit)));
  }

  /**
   * The tables the OF names stand for: a name, or the relation it is an alias of ({@code jobs j}, {@code jobs AS j});
   * a name the query does not mention is 42P01, as in PostgreSQL.
   */
  private static List<String> fromRelations(List<Token> query, List<String> names, Strength strength) {
    List<String> tables = new ArrayList<>();
    for (String name : names) {
      boolean found = false;
      for (int i = 0; i < query.size(); i++) {
        Token t = query.get(i);
        if ((t.kind() == Kind.WORD || t.kind() == Kind.QUOTED) && t.text().equals(name)) {
          found = true;
          int before = i - 1 >= 0 && query.get(i - 1).is("as") ? i - 2 : i - 1;
          if (before >= 0 && (query.get(before).kind() == Kind.WORD || query.get(before).kind() == Kind.QUOTED)) {
            tables.add(query.get(before).text());
          }
        }
      }
      if (!found) {
        throw new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" in FOR " + strength.sql()
            + " clause not found in FROM clause");
      }
      tables.add(name);
    }
    return tables;
  }

  private static boolean word(List<Token> tokens, int i, String word) {
    return i < tokens.size() && tokens.get(i).is(word);
  }
}
