package io.accel.e2e.slt;

/** A malformed sqllogictest script; the message starts with {@code file:line:}. */
public final class SltParseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SltParseException(String file, int line, String message) {
    super(file + ":" + line + ": " + message);
  }
}
