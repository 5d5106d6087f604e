package io.accel.e2e.slt;

/**
 * One record whose outcome differs from the script: where it is, its SQL, what was expected and what
 * the engine did.
 */
public record SltMismatch(String file, int line, String sql, String problem, String expected, String actual) {

  public String position() {
    return file + ":" + line;
  }

  /** A multi-line description: {@code file:line: problem}, the SQL, then expected and actual. */
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append(position()).append(": ").append(problem).append('\n');
    b.append("  SQL:      ").append(indent(sql)).append('\n');
    b.append("  expected: ").append(indent(expected)).append('\n');
    b.append("  actual:   ").append(indent(actual));
    return b.toString();
  }

  private static String indent(String s) {
    return s == null ? "" : s.replace("\n", "\n            ");
  }
}
