package io.accel.sql;

/**
 * A failure the user caused or must act on, with its SQLSTATE and a message fit to show them. The JDBC
 * layer turns it into a {@link java.sql.SQLException} with the same code and message.
 */
public final class AccelException extends RuntimeException {
  private final SqlState state;

  public AccelException(SqlState state, String message) {
    super(message);
    this.state = state;
  }

  public AccelException(SqlState state, String message, Throwable cause) {
    super(message, cause);
    this.state = state;
  }

  public SqlState state() {
    return state;
  }

  public static AccelException syntax(String message) {
    return new AccelException(SqlState.SYNTAX_ERROR, message);
  }
}
