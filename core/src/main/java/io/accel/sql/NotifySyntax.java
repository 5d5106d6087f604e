package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code LISTEN channel}, {@code UNLISTEN channel | *} and {@code NOTIFY channel [, 'payload']}, as PostgreSQL's. */
final class NotifySyntax {
  private NotifySyntax() {
  }

  /** The command when {@code sql} is LISTEN, UNLISTEN or NOTIFY. */
  static Optional<Command> parse(String sql) {
    List<Token> tokens = SqlLexer.tokenizeExtended(sql);
    int end = tokens.size() - 1; // the END token
    while (end > 1 && tokens.get(end - 1).isSymbol(";")) {
      end--;
    }
    String verb = tokens.get(0).text();
    if (verb.equals("unlisten") && end == 2 && tokens.get(1).isSymbol("*")) {
      return Optional.of(new Command.Unlisten(Optional.empty()));
    }
    Token channel = tokens.get(1);
    if (!channel.isName()) {
      throw syntax(sql, channel);
    }
    String name = channel.kind() == Kind.WORD ? channel.text().toLowerCase(Locale.ROOT) : channel.text();
    if (verb.equals("notify") && end == 4 && tokens.get(2).isSymbol(",")) {
      Token payload = tokens.get(3);
      if (payload.kind() != Kind.STRING) {
        throw syntax(sql, payload);
      }
      return Optional.of(new Command.Notify(name, payload.text()));
    }
    if (end != 2) {
      throw syntax(sql, tokens.get(2));
    }
    return Optional.of(switch (verb) {
      case "listen" -> new Command.Listen(name);
      case "unlisten" -> new Command.Unlisten(Optional.of(name));
      default -> new Command.Notify(name, "");
    });
  }

  private static AccelException syntax(String sql, Token t) {
    return SqlLexer.syntax(sql, t.start(), "syntax error at or near \""
        + (t.kind() == Kind.END ? "end of input" : sql.substring(t.start(), t.end())) + "\"");
  }
}
