package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Optional;

/**
 * The {@code RETURNING} clause of an INSERT, UPDATE or DELETE, which Calcite's grammar lacks: the statement is
 * split into the DML without it (planned by Calcite as any DML) and the list of output expressions, evaluated over
 * the rows the DML wrote (see {@code io.accel.plan.ReturnedRows}). {@code table} is the target table and
 * {@code alias} the name the RETURNING list may qualify its columns by (the alias, else the table's name).
 *
 * @param parameters the {@code ?} parameters of the DML part; those of the RETURNING list follow them
 */
public record Returning(String dml, String list, String table, String alias, String operation, int parameters) {

  /** The query evaluating the RETURNING list over the rows in {@code schema}'s table of the target's name. */
  public String query(String schema) {
    return "SELECT " + list + " FROM " + quote(schema) + "." + quote(table) + " AS " + quote(alias);
  }

  /** A cheap test before {@link #of}: whether the text contains the word at all. */
  public static boolean mayHave(String sql) {
    for (int i = sql.indexOf('r') < 0 && sql.indexOf('R') < 0 ? sql.length() : 0; i + 9 <= sql.length(); i++) {
      if (sql.regionMatches(true, i, "returning", 0, 9)) {
        return true;
      }
    }
    return false;
  }

  /** The RETURNING clause of {@code sql}, if it is an INSERT, UPDATE or DELETE that has one. */
  public static Optional<Returning> of(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.isEmpty() || tokens.get(0).kind() != Kind.WORD) {
      return Optional.empty();
    }
    String operation = tokens.get(0).text();
    if (!operation.equals("insert") && !operation.equals("update") && !operation.equals("delete")) {
      return Optional.empty();
    }
    int at = returningAt(tokens);
    if (at < 0) {
      return Optional.empty();
    }
    Target target = target(tokens, operation);
    if (target == null) {
      return Optional.empty();
    }
    int end = tokens.get(tokens.size() - 1).kind() == Kind.END ? tokens.size() - 1 : tokens.size();
    while (end > at + 1 && tokens.get(end - 1).isSymbol(";")) {
      end--;
    }
    if (end == at + 1) {
      throw SqlLexer.syntax(sql, tokens.get(at + 1).start(), "syntax error at end of input");
    }
    int parameters = 0;
    for (int i = 0; i < at; i++) {
      if (tokens.get(i).kind() == Kind.PARAM) {
        parameters++;
      }
    }
    // schema.table.column (as jOOQ writes "public"."t"."id") is table.column: the list reads the table's new rows
    StringBuilder written = new StringBuilder();
    int copied = tokens.get(at + 1).start();
    for (int i = at + 1; i + 4 < end; i++) {
      if (tokens.get(i).isName() && tokens.get(i + 1).isSymbol(".") && tokens.get(i + 2).isName()
          && tokens.get(i + 3).isSymbol(".") && tokens.get(i + 4).isName()
          && tokens.get(i + 2).text().equals(target.table) && !(i > at + 1 && tokens.get(i - 1).isSymbol("."))) {
        written.append(sql, copied, tokens.get(i).start());
        copied = tokens.get(i + 2).start();
        i += 4;
      }
    }
    written.append(sql, copied, tokens.get(end - 1).end());
    String list = written.toString().trim();
    String dml = sql.substring(0, tokens.get(at).start()).trim();
    return Optional.of(new Returning(dml, list, target.table, target.alias, operation, parameters));
  }

  /**
   * For JDBC's generated keys: {@code sql} with {@code RETURNING columns} (all columns when none are named) added
   * when it is an INSERT, UPDATE or DELETE without a RETURNING clause of its own; otherwise {@code sql} unchanged.
   */
  public static String withKeys(String sql, List<String> columns) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.isEmpty() || tokens.get(0).kind() != Kind.WORD) {
      return sql;
    }
    String operation = tokens.get(0).text();
    if (!operation.equals("insert") && !operation.equals("update") && !operation.equals("delete")
        || returningAt(tokens) >= 0) {
      return sql;
    }
    String text = sql.strip();
    while (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).strip();
    }
    String list = columns.isEmpty() ? "*" : String.join(", ", columns.stream().map(Returning::quote).toList());
    return text + " RETURNING " + list;
  }

  /**
   * {@code INSERT INTO t AS alias ...} without {@code AS alias}, which Calcite's grammar lacks (the alias serves
   * RETURNING and ON CONFLICT, which Accel evaluates itself); other statements unchanged.
   */
  public static String withoutInsertAlias(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.size() < 5 || !tokens.get(0).is("insert") || !tokens.get(1).is("into")) {
      return sql;
    }
    int i = 3;
    if (tokens.get(i).isSymbol(".") && tokens.get(i + 1).isName()) {
      i += 2;
    }
    if (!tokens.get(i).is("as") || !tokens.get(i + 1).isName()) {
      return sql;
    }
    return sql.substring(0, tokens.get(i).start()) + sql.substring(tokens.get(i + 1).end());
  }

  /** The table an INSERT, UPDATE or DELETE writes, if {@code sql} is one. */
  public static Optional<String> targetTable(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    if (tokens.isEmpty() || tokens.get(0).kind() != Kind.WORD) {
      return Optional.empty();
    }
    String operation = tokens.get(0).text();
    if (!operation.equals("insert") && !operation.equals("update") && !operation.equals("delete")) {
      return Optional.empty();
    }
    Target target = target(tokens, operation);
    return target == null ? Optional.empty() : Optional.of(target.table);
  }

  /** The index of the RETURNING keyword outside parentheses, or -1. */
  private static int returningAt(List<Token> tokens) {
    int depth = 0;
    for (int i = 1; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && t.is("returning")) {
        return i;
      }
    }
    return -1;
  }

  private record Target(String table, String alias) {
  }

  /** {@code INSERT INTO t [AS a]}, {@code UPDATE [ONLY] t [[AS] a] SET}, {@code DELETE FROM [ONLY] t [[AS] a]}. */
  private static Target target(List<Token> tokens, String operation) {
    int i = 1;
    if (!operation.equals("update")) {
      if (!tokens.get(i).is(operation.equals("insert") ? "into" : "from")) {
        return null;
      }
      i++;
    }
    if (tokens.get(i).is("only")) {
      i++;
    }
    if (!tokens.get(i).isName()) {
      return null;
    }
    String table = tokens.get(i).text();
    i++;
    if (tokens.get(i).isSymbol(".") && tokens.get(i + 1).isName()) {
      table = tokens.get(i + 1).text();
      i += 2;
    }
    String alias = table;
    if (tokens.get(i).is("as") && tokens.get(i + 1).isName()) {
      alias = tokens.get(i + 1).text();
    } else if (!operation.equals("insert") && tokens.get(i).isName() && !tokens.get(i).is("set")
        && !tokens.get(i).is("where") && !tokens.get(i).is("using") && !tokens.get(i).is("returning")) {
      alias = tokens.get(i).text();
    }
    return new Target(table, alias);
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
