package io.accel.sql;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Maps whatever a statement threw (Accel's own errors, Calcite's parse and validation errors, Java
 * arithmetic and conversion failures from generated code) to an {@link AccelException} with a PostgreSQL
 * SQLSTATE and a message in PostgreSQL's words. The one place such mapping happens.
 */
public final class ErrorTranslator {
  private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
  private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
  private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found");
  private static final Pattern UNKNOWN_TARGET_COLUMN = Pattern.compile("Unknown target column '([^']*)'");
  private static final Pattern SELF_DEPENDENT = Pattern.compile("The definition of column '([^']*)' depends on itself");
  private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']*)' is ambiguous");
  private static final Pattern NO_DEFAULT = Pattern.compile("Column '([^']*)' has no default value and does not allow NULLs");
  private static final Pattern POSITION = Pattern.compile("(?:From line|At line|at line) (\\d+), column (\\d+)");
  private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"([^\"]*)\" at line (\\d+), column (\\d+)");

  private static final Pattern INDEX_OUT_OF_RANGE = Pattern.compile("(?i)\\bindex\\b.*out of range");

  private ErrorTranslator() {
  }

  public static AccelException translate(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
      if (t instanceof AccelException a) {
        return a;
      }
      if (t instanceof SqlParseException p) {
        return parse(p);
      }
      if (t instanceof CalciteContextException c) {
        return validation(c);
      }
      if (t instanceof ArithmeticException a) {
        return arithmetic(a);
      }
      if (t instanceof NumberFormatException n) {
        return new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
            "invalid input syntax for type numeric: " + quoteInput(n.getMessage()), n);
      }
    }
    t = failure;
    for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
      String m = t.getMessage() == null ? "" : t.getMessage();
      if (m.contains("/ by zero") || m.contains("Division by zero") || m.contains("Division undefined")) {
        return new AccelException(SqlState.DIVISION_BY_ZERO, "division by zero", t);
      }
      if (m.contains("more than one value in agg SINGLE_VALUE")) {
        return new AccelException(SqlState.CARDINALITY_VIOLATION,
            "more than one row returned by a subquery used as an expression", t);
      }
      if (m.contains("Invalid DATE value") || m.contains("Invalid TIMESTAMP value") || m.contains("Invalid TIME value")
          || m.toLowerCase(Locale.ROOT).contains("invalid date") || m.contains("Unparseable date")) {
        return new AccelException(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type date/time: "
            + clean(m), t);
      }
      if (m.matches("(?s)Value of \\w+ field is out of range.*")) {
        return new AccelException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: "
            + clean(m).replaceFirst("^Value of \\w+ field is out of range in ", ""), t);
      }
      // (an index out of range is the planner's or executor's own failure, not a value's: internal error)
      if ((m.contains("Value out of range") || m.contains("out of range") || m.contains("overflow"))
          && !(t instanceof IndexOutOfBoundsException) && !INDEX_OUT_OF_RANGE.matcher(m).find()) {
        return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, clean(m), t);
      }
      if (m.startsWith("Cannot call table function here:")) {
        // a set-returning function where Accel cannot expand it (beside an aggregate, two in one SELECT list)
        return new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "set-returning function "
            + m.substring("Cannot call table function here:".length()).trim() + " is not supported here", t);
      }
      if (m.startsWith("Invalid UUID string: ")) {
        return new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type uuid: \""
            + m.substring("Invalid UUID string: ".length()) + "\"", t);
      }
      if (m.startsWith("Invalid escape sequence")) {
        return new AccelException(SqlState.INVALID_ESCAPE_SEQUENCE,
            "invalid escape sequence in LIKE pattern: " + clean(m).replaceFirst("^Invalid escape sequence ", ""), t);
      }
      if (m.contains("Invalid character for cast") || m.contains("Invalid input for")) {
        return new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, clean(m), t);
      }
    }
    String message = rootMessage(failure);
    return new AccelException(SqlState.INTERNAL_ERROR, "internal error: " + message, failure);
  }

  private static AccelException parse(SqlParseException p) {
    String m = p.getMessage() == null ? "" : p.getMessage();
    Matcher e = ENCOUNTERED.matcher(m);
    if (e.find()) {
      // the statement ended where more was expected: PostgreSQL's words for it ("+ <EOF>" before)
      String near = e.group(1).endsWith("<EOF>") ? "syntax error at end of input"
          : "syntax error at or near \"" + e.group(1) + "\"";
      return AccelException.syntax(near + " at line " + e.group(2) + ", column " + e.group(3));
    }
    String firstLine = m.lines().findFirst().orElse("syntax error");
    if (p.getPos() != null && p.getPos().getLineNum() > 0) {
      firstLine += " at line " + p.getPos().getLineNum() + ", column " + p.getPos().getColumnNum();
    }
    return new AccelException(SqlState.SYNTAX_ERROR, "syntax error: " + firstLine, p);
  }

  private static AccelException validation(CalciteContextException c) {
    Throwable cause = c.getCause();
    String inner = cause instanceof SqlValidatorException v ? v.getMessage() : c.getMessage();
    if (inner == null) {
      inner = "";
    }
    String where = "";
    Matcher pos = POSITION.matcher(c.getMessage() == null ? "" : c.getMessage());
    if (pos.find()) {
      where = " (at line " + pos.group(1) + ", column " + pos.group(2) + ")";
    }
    Matcher m;
    if ((m = OBJECT_NOT_FOUND.matcher(inner)).find() || (m = TABLE_NOT_FOUND.matcher(inner)).find()) {
      return new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + lastPart(m.group(1)) + "\" does not exist"
          + where, c);
    }
    if ((m = COLUMN_NOT_FOUND.matcher(inner)).find() || (m = UNKNOWN_TARGET_COLUMN.matcher(inner)).find()) {
      return new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + m.group(1) + "\" does not exist" + where, c);
    }
    if ((m = SELF_DEPENDENT.matcher(inner)).find()) {
      return new AccelException(SqlState.UNDEFINED_COLUMN, "column \"" + m.group(1) + "\" does not exist" + where, c);
    }
    if ((m = AMBIGUOUS.matcher(inner)).find()) {
      return new AccelException(SqlState.AMBIGUOUS_COLUMN, "column reference \"" + m.group(1) + "\" is ambiguous"
          + where, c);
    }
    if ((m = NO_DEFAULT.matcher(inner)).find()) {
      return new AccelException(SqlState.NOT_NULL_VIOLATION, "null value in column \"" + m.group(1)
          + "\" violates not-null constraint", c);
    }
    if (inner.startsWith("No match found for function signature")) {
      return new AccelException(SqlState.UNDEFINED_FUNCTION, "function does not exist: "
          + inner.substring("No match found for function signature".length()).trim() + where, c);
    }
    if (inner.startsWith("Cannot apply") || inner.contains("Cannot infer return type")) {
      return new AccelException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + inner + where, c);
    }
    if (inner.contains("is not being grouped") || inner.contains("Aggregate expression is illegal")
        || inner.contains("aggregate function calls cannot be nested") || inner.contains("cannot be nested")) {
      return new AccelException(SqlState.GROUPING_ERROR, inner + where, c);
    }
    if ((m = Pattern.compile("Unknown identifier '([^']*)'").matcher(inner)).find()) {
      return new AccelException(SqlState.UNDEFINED_OBJECT, "type \"" + m.group(1) + "\" does not exist" + where, c);
    }
    if (inner.contains("Ordinal out of range")) {
      return new AccelException(SqlState.INVALID_COLUMN_REFERENCE, "ORDER BY position is not in select list" + where, c);
    }
    if (inner.contains("clause must be a condition")) {
      return new AccelException(SqlState.DATATYPE_MISMATCH, "argument of " + inner.substring(0, inner.indexOf(' '))
          + " must be type boolean" + where, c);
    }
    if (inner.startsWith("Cannot assign to target field") || inner.contains("Type mismatch")
        || inner.startsWith("Cast function cannot convert") || inner.contains("must be of type")
        || inner.contains("Values passed to") || inner.contains("type mismatch")
        || inner.contains("must have the same type") || inner.contains("Cannot compare")) {
      return new AccelException(SqlState.DATATYPE_MISMATCH, inner + where, c);
    }
    if (inner.contains("Number of INSERT target columns") || inner.contains("Column count mismatch")) {
      return new AccelException(SqlState.SYNTAX_ERROR, inner + where, c);
    }
    if (inner.contains("out of range")) {
      return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, inner + where, c);
    }
    return new AccelException(SqlState.SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION, inner + where, c);
  }

  private static AccelException arithmetic(ArithmeticException a) {
    // no message: the JVM's preallocated exception for an integer division by zero in hot compiled code
    // (OmitStackTraceInFastThrow); every explicit ArithmeticException (overflow, BigDecimal) has one
    String m = a.getMessage() == null ? "by zero" : a.getMessage().toLowerCase(Locale.ROOT);
    if (m.contains("by zero") || m.contains("division undefined") || m.contains("divide by zero")) {
      return new AccelException(SqlState.DIVISION_BY_ZERO, "division by zero", a);
    }
    if (m.contains("integer overflow")) {
      return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range", a);
    }
    if (m.contains("long overflow")) {
      return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range", a);
    }
    return new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric value out of range: " + a.getMessage(), a);
  }

  private static String lastPart(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? name : name.substring(dot + 1);
  }

  private static String quoteInput(String numberFormatMessage) {
    if (numberFormatMessage == null) {
      return "\"\"";
    }
    Matcher m = Pattern.compile("\"(.*)\"").matcher(numberFormatMessage);
    return m.find() ? "\"" + m.group(1) + "\"" : "\"" + numberFormatMessage + "\"";
  }

  private static String clean(String message) {
    return message.lines().findFirst().orElse(message);
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    return root.getClass().getSimpleName() + (m == null ? "" : ": " + clean(m));
  }
}
