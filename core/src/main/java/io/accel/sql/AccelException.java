package io.accel.sql;

/**
 * A failure the user caused or must act on, with its SQLSTATE and a message fit to show them, and where
 * known PostgreSQL's optional fields: a detail, a hint and the position in the statement (1-based, in
 * characters). The JDBC layer turns it into a {@link java.sql.SQLException} with the same code and message.
 */
public final class AccelException extends RuntimeException {
  private static final java.util.regex.Pattern LINE_COLUMN =
      java.util.regex.Pattern.compile("(?:at|At|From) line (\\d+), column (\\d+)");

  private final SqlState state;
  private String detail;
  private String hint;
  private String context;
  private int position;

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

  /** PostgreSQL's DETAIL, or null. */
  public String detail() {
    return detail;
  }

  /** PostgreSQL's HINT, or null. */
  public String hint() {
    return hint;
  }

  /** PostgreSQL's CONTEXT (where the error arose, e.g. {@code COPY t, line 3, column a: "x"}), or null. */
  public String context() {
    return context;
  }

  public AccelException withContext(String context) {
    this.context = context;
    return this;
  }

  /** The 1-based character position in the statement the error is about, or 0 when none. */
  public int position() {
    return position;
  }

  public AccelException withDetail(String detail) {
    this.detail = detail;
    return this;
  }

  public AccelException withHint(String hint) {
    this.hint = hint;
    return this;
  }

  /**
   * Sets the position from the "line L, column C" the message names (Calcite's and Accel's parsers report
   * positions so), counted in {@code sql}; unchanged when the message names none or it is set already.
   */
  public AccelException locatedIn(String sql) {
    if (position > 0 || sql == null || getMessage() == null) {
      return this;
    }
    java.util.regex.Matcher m = LINE_COLUMN.matcher(getMessage());
    if (!m.find()) {
      return this;
    }
    int line = Integer.parseInt(m.group(1));
    int column = Integer.parseInt(m.group(2));
    int offset = 0;
    for (int l = 1; l < line && offset >= 0; l++) {
      offset = sql.indexOf('\n', offset);
      offset = offset < 0 ? -1 : offset + 1;
    }
    if (offset >= 0 && offset + column - 1 <= sql.length()) {
      position = sql.codePointCount(0, offset + column - 1) + 1;
    }
    return this;
  }

  /**
   * The message without the "(at line L, column C)" it names when {@link #position} carries it: PostgreSQL's
   * clients show the position themselves (psql's LINE 1 and caret).
   */
  public String messageWithoutPosition() {
    String m = getMessage();
    return position <= 0 || m == null ? m : IN_MESSAGE.matcher(m).replaceFirst("");
  }

  private static final java.util.regex.Pattern IN_MESSAGE =
      java.util.regex.Pattern.compile(" \\(at line \\d+, column \\d+\\)| at line \\d+, column \\d+");

  public static AccelException syntax(String message) {
    return new AccelException(SqlState.SYNTAX_ERROR, message);
  }
}
