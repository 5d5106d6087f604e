package io.accel.sql;

import io.accel.catalog.DataType;
import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * SQL-level prepared statements, as PostgreSQL writes them: {@code PREPARE name [(type, ...)] AS statement},
 * {@code EXECUTE name [(argument, ...)]} and {@code DEALLOCATE [PREPARE] name | ALL}. Only SELECT, INSERT,
 * UPDATE, DELETE, VALUES, WITH and TABLE statements may be prepared, as in PostgreSQL.
 */
final class PreparedStatementSyntax {
  private static final java.util.Set<String> PREPARABLE = java.util.Set.of("select", "insert", "update", "delete",
      "values", "with", "table");

  private final String sql;
  private final List<Token> tokens;
  private int pos;

  private PreparedStatementSyntax(String sql) {
    this.sql = sql;
    this.tokens = SqlLexer.tokenizeExtended(sql);
  }

  /** The command when {@code sql} is PREPARE, EXECUTE or DEALLOCATE; empty otherwise. */
  static Optional<Command> parse(String sql) {
    PreparedStatementSyntax p = new PreparedStatementSyntax(sql);
    Token first = p.next();
    return Optional.of(switch (first.text()) {
      case "prepare" -> p.prepare();
      case "execute" -> p.execute();
      case "deallocate" -> p.deallocate();
      default -> throw new IllegalArgumentException(first.text());
    });
  }

  private Command prepare() {
    String name = name();
    List<DataType> types = new ArrayList<>();
    if (optionalSymbol("(")) {
      for (List<Token> type : list()) {
        if (type.isEmpty()) {
          throw syntax(peek());
        }
        types.add(CommandParser.parseType(sql.substring(type.get(0).start(), type.get(type.size() - 1).end())));
      }
    }
    Token as = next();
    if (!as.is("as")) {
      throw syntax(as);
    }
    Token start = peek();
    int first = pos;
    while (peek().isSymbol("(")) {
      next(); // (SELECT ...) UNION ...
    }
    if (peek().kind() != Kind.WORD || !PREPARABLE.contains(peek().text())) {
      throw syntax(peek());
    }
    pos = first;
    String statement = sql.substring(start.start()).strip();
    while (statement.endsWith(";")) {
      statement = statement.substring(0, statement.length() - 1).strip();
    }
    return new Command.PrepareStatement(name, types, statement);
  }

  private Command execute() {
    String name = name();
    List<String> arguments = new ArrayList<>();
    if (optionalSymbol("(")) {
      for (List<Token> argument : list()) {
        if (argument.isEmpty()) {
          throw syntax(peek());
        }
        arguments.add(sql.substring(argument.get(0).start(), argument.get(argument.size() - 1).end()));
      }
    }
    finish();
    return new Command.ExecuteStatement(name, arguments);
  }

  private Command deallocate() {
    if (peek().is("prepare")) {
      next();
    }
    if (peek().is("all")) {
      next();
      finish();
      return new Command.Deallocate(Optional.empty());
    }
    String name = name();
    finish();
    return new Command.Deallocate(Optional.of(name));
  }

  /** The comma-separated items up to the closing parenthesis (the opening one read), as token runs. */
  private List<List<Token>> list() {
    List<List<Token>> items = new ArrayList<>();
    List<Token> item = new ArrayList<>();
    int depth = 0;
    while (true) {
      Token t = next();
      if (t.kind() == Kind.END) {
        throw syntax(t);
      }
      if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
        items.add(item);
        item = new ArrayList<>();
        if (t.isSymbol(")")) {
          return items;
        }
        continue;
      }
      if (t.isSymbol("(") || t.isSymbol("[")) {
        depth++;
      } else if (t.isSymbol(")") || t.isSymbol("]")) {
        depth--;
      }
      item.add(t);
    }
  }

  /** A statement name: folded to lower case unless quoted. */
  private String name() {
    Token t = next();
    if (!t.isName()) {
      throw syntax(t);
    }
    return t.kind() == Kind.WORD ? t.text().toLowerCase(Locale.ROOT) : t.text();
  }

  private void finish() {
    while (optionalSymbol(";")) {
      // trailing semicolons end the statement
    }
    if (peek().kind() != Kind.END) {
      throw syntax(peek());
    }
  }

  private AccelException syntax(Token t) {
    return SqlLexer.syntax(sql, t.start(), "syntax error at or near \""
        + (t.kind() == Kind.END ? "end of input" : sql.substring(t.start(), t.end())) + "\"");
  }

  private Token peek() {
    return tokens.get(pos);
  }

  private Token next() {
    Token t = tokens.get(pos);
    if (t.kind() != Kind.END) {
      pos++;
    }
    return t;
  }

  private boolean optionalSymbol(String symbol) {
    if (peek().isSymbol(symbol)) {
      next();
      return true;
    }
    return false;
  }
}
