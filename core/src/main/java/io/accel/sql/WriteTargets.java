package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which columns an INSERT or UPDATE gives values for, read from its text, for the rule PostgreSQL applies to
 * GENERATED ALWAYS identity columns (a value other than DEFAULT needs OVERRIDING SYSTEM VALUE); and the INSERT
 * without its {@code OVERRIDING SYSTEM VALUE} clause, which Calcite's grammar lacks.
 *
 * @param table the target table
 * @param columns the columns given values other than DEFAULT; for an INSERT without a column list, the ordinals
 *     (as text, from "1") whose values are not all DEFAULT, see {@link #byPosition}
 * @param byPosition whether {@code columns} holds 1-based positions (an INSERT without a column list)
 * @param overridingSystem whether the INSERT says OVERRIDING SYSTEM VALUE
 * @param text the statement without its OVERRIDING clause
 */
public record WriteTargets(String operation, String table, List<String> columns, boolean byPosition,
    boolean overridingSystem, String text) {

  /** Whether the statement gives a value other than DEFAULT to the column at {@code ordinal} (from 0) named so. */
  public boolean gives(int ordinal, String name) {
    return byPosition ? columns.contains(Integer.toString(ordinal + 1)) : columns.contains(name);
  }

  /** The targets of an INSERT or UPDATE; empty for other statements or shapes this reading does not know. */
  public static Optional<WriteTargets> of(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.isEmpty() || !tokens.get(0).is("insert") && !tokens.get(0).is("update")) {
      return Optional.empty();
    }
    return tokens.get(0).is("insert") ? insert(sql, tokens) : update(sql, tokens);
  }

  private static Optional<WriteTargets> insert(String sql, List<Token> tokens) {
    int i = 1;
    if (!tokens.get(i).is("into")) {
      return Optional.empty();
    }
    i++;
    if (!tokens.get(i).isName()) {
      return Optional.empty();
    }
    String table = tokens.get(i++).text();
    if (tokens.get(i).isSymbol(".") && tokens.get(i + 1).isName()) {
      table = tokens.get(i + 1).text();
      i += 2;
    }
    if (tokens.get(i).is("as") && tokens.get(i + 1).isName()) {
      i += 2;
    }
    List<String> listed = null;
    if (tokens.get(i).isSymbol("(")) {
      listed = new ArrayList<>();
      i++;
      while (tokens.get(i).isName()) {
        listed.add(tokens.get(i++).text());
        if (!tokens.get(i).isSymbol(",")) {
          break;
        }
        i++;
      }
      if (!tokens.get(i).isSymbol(")")) {
        return Optional.empty();
      }
      i++;
    }
    boolean system = false;
    String text = sql;
    if (tokens.get(i).is("overriding")) {
      Token kind = tokens.get(i + 1);
      if (!tokens.get(i + 2).is("value") || !kind.is("system") && !kind.is("user")) {
        throw SqlLexer.syntax(sql, tokens.get(i).start(), "syntax error at or near \"OVERRIDING\"");
      }
      if (kind.is("user")) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "OVERRIDING USER VALUE is not supported by Accel");
      }
      system = true;
      text = sql.substring(0, tokens.get(i).start()) + sql.substring(tokens.get(i + 2).end());
      i += 3;
    }
    // the positions whose VALUES are DEFAULT in every row; a query or DEFAULT VALUES gives none / all
    List<Boolean> allDefault = null;
    if (tokens.get(i).is("default") && tokens.get(i + 1).is("values")) {
      allDefault = List.of();
      listed = List.of();
    } else if (tokens.get(i).is("values")) {
      allDefault = new ArrayList<>();
      i++;
      while (tokens.get(i).isSymbol("(")) {
        int position = 0;
        int depth = 0;
        int itemStart = i + 1;
        for (i++; ; i++) {
          Token t = tokens.get(i);
          if (t.kind() == Kind.END) {
            return Optional.empty();
          }
          if (t.isSymbol("(")) {
            depth++;
          } else if (depth > 0 && t.isSymbol(")")) {
            depth--;
          } else if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
            boolean isDefault = i == itemStart + 1 && tokens.get(itemStart).is("default");
            if (allDefault.size() <= position) {
              allDefault.add(isDefault);
            } else {
              allDefault.set(position, allDefault.get(position) && isDefault);
            }
            position++;
            itemStart = i + 1;
            if (t.isSymbol(")")) {
              i++;
              break;
            }
          }
        }
        if (!tokens.get(i).isSymbol(",")) {
          break;
        }
        i++;
      }
    }
    List<String> given = new ArrayList<>();
    int count = listed != null ? listed.size() : allDefault != null ? allDefault.size() : Integer.MAX_VALUE;
    for (int p = 0; p < count && p < 10_000; p++) {
      boolean isDefault = allDefault != null && p < allDefault.size() && allDefault.get(p);
      if (!isDefault) {
        given.add(listed != null ? listed.get(p) : Integer.toString(p + 1));
      }
    }
    return Optional.of(new WriteTargets("insert", table, given, listed == null, system, text));
  }

  private static Optional<WriteTargets> update(String sql, List<Token> tokens) {
    int i = 1;
    if (tokens.get(i).is("only")) {
      i++;
    }
    if (!tokens.get(i).isName()) {
      return Optional.empty();
    }
    String table = tokens.get(i).text();
    while (!tokens.get(i).is("set")) {
      if (tokens.get(i).kind() == Kind.END) {
        return Optional.empty();
      }
      i++;
    }
    i++;
    List<String> given = new ArrayList<>();
    int depth = 0;
    boolean expectColumn = true;
    for (; tokens.get(i).kind() != Kind.END; i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && (t.is("where") || t.is("from") || t.is("returning"))) {
        break;
      } else if (depth == 0 && t.isSymbol(",")) {
        expectColumn = true;
        continue;
      } else if (expectColumn && depth == 0 && t.isName() && tokens.get(i + 1).isSymbol("=")) {
        boolean isDefault = tokens.get(i + 2).is("default") && (tokens.get(i + 3).isSymbol(",")
            || tokens.get(i + 3).kind() == Kind.END || tokens.get(i + 3).is("where") || tokens.get(i + 3).is("from")
            || tokens.get(i + 3).is("returning"));
        if (!isDefault) {
          given.add(t.text());
        }
      }
      expectColumn = false;
    }
    return Optional.of(new WriteTargets("update", table, given, false, false, sql));
  }
}
