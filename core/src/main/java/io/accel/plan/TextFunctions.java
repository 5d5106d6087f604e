package io.accel.plan;

import io.accel.exec.PgText;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PostgreSQL's string and small numeric functions that Calcite's PostgreSQL library lacks: {@code reverse},
 * {@code quote_literal}, {@code quote_nullable}, {@code format} (%s, %I, %L, %%, positions {@code %2$s} and widths),
 * {@code array_length(array, dimension)}, {@code div}, {@code make_timestamp}. Called by generated code.
 */
public final class TextFunctions {
  private TextFunctions() {
  }

  static List<SqlOperator> operators() {
    List<SqlOperator> out = new ArrayList<>();
    out.add(PgFunctions.scalar("reverse", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARCHAR),
        TextFunctions.class, "reverse", false, true));
    out.add(PgFunctions.function("quote_literal", nullableText(true), 1, 1, textOf("quoteLiteral",
        NullPolicy.STRICT)));
    out.add(PgFunctions.function("quote_nullable", nullableText(false), 1, 1, textOf("quoteNullable",
        NullPolicy.NONE)));
    out.add(PgFunctions.function("format", nullableText(true), 1, 100, new PgFunctions.Implementation(
        PgFunctions.method(TextFunctions.class, "format"), false, NullPolicy.NONE,
        call -> List.of(typeNames(call.getOperands())), true)));
    out.add(PgFunctions.function("array_length", binding -> binding.getTypeFactory().createTypeWithNullability(
        binding.getTypeFactory().createSqlType(SqlTypeName.INTEGER), true), 2, 2, new PgFunctions.Implementation(
        PgFunctions.method(TextFunctions.class, "arrayLength"), false, NullPolicy.STRICT)));
    out.add(PgFunctions.scalar("div", PgFunctions.returning(SqlTypeName.DECIMAL), List.of(SqlTypeName.DECIMAL,
        SqlTypeName.DECIMAL), TextFunctions.class, "div", false, true));
    out.add(PgFunctions.scalar("make_timestamp", PgFunctions.returning(SqlTypeName.TIMESTAMP), List.of(
        SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER,
        SqlTypeName.DOUBLE), TextFunctions.class, "makeTimestamp", false, true));
    out.add(PgFunctions.scalar("gcd", PgFunctions.returning(SqlTypeName.BIGINT), List.of(SqlTypeName.BIGINT,
        SqlTypeName.BIGINT), TextFunctions.class, "gcd", false, true));
    out.add(PgFunctions.scalar("lcm", PgFunctions.returning(SqlTypeName.BIGINT), List.of(SqlTypeName.BIGINT,
        SqlTypeName.BIGINT), TextFunctions.class, "lcm", false, true));
    out.add(PgFunctions.scalar("to_hex", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.INTEGER),
        TextFunctions.class, "toHexInt", false, true));
    out.add(PgFunctions.scalar("to_hex", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.BIGINT),
        TextFunctions.class, "toHex", false, true));
    out.add(PgFunctions.scalar("bit_length", PgFunctions.returning(SqlTypeName.INTEGER),
        List.of(SqlTypeName.VARCHAR), TextFunctions.class, "bitLength", false, true));
    out.add(PgFunctions.scalar("pg_sleep", PgFunctions.returning(SqlTypeName.VARCHAR),
        List.of(SqlTypeName.DOUBLE), TextFunctions.class, "sleep", false, false));
    for (String name : List.of("num_nulls", "num_nonnulls")) {
      out.add(PgFunctions.function(name, binding -> binding.getTypeFactory().createSqlType(SqlTypeName.INTEGER), 1,
          100, new PgFunctions.Implementation(PgFunctions.method(TextFunctions.class,
              name.equals("num_nulls") ? "numNulls" : "numNonNulls"), false, NullPolicy.NONE, c -> List.of(), true)));
    }
    out.add(PgFunctions.function("array_position", binding -> binding.getTypeFactory().createTypeWithNullability(
        binding.getTypeFactory().createSqlType(SqlTypeName.INTEGER), true), 2, 2, new PgFunctions.Implementation(
        PgFunctions.method(TextFunctions.class, "arrayPosition"), false, NullPolicy.NONE)));
    out.add(SUBSTRING_REGEX);
    return out;
  }

  /** {@code substring(s FROM 'pattern')}: see {@link #substringRegex}; PgSqlValidator calls it for that form. */
  static final org.apache.calcite.sql.validate.SqlUserDefinedFunction SUBSTRING_REGEX = PgFunctions.scalar(
      "accel_substring_regex", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARCHAR,
          SqlTypeName.VARCHAR), TextFunctions.class, "substringRegex", false, true);

  /**
   * The part of {@code s} the POSIX regular expression matches first, or its first parenthesized group's when it has
   * one; NULL when nothing matches.
   */
  public static @Nullable String substringRegex(String s, String pattern) {
    java.util.regex.Matcher m;
    try {
      m = java.util.regex.Pattern.compile(pattern).matcher(s);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new AccelException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: "
          + e.getDescription());
    }
    if (!m.find()) {
      return null;
    }
    return m.groupCount() > 0 ? m.group(1) : m.group();
  }

  public static long gcd(long a, long b) {
    return Math.abs(java.math.BigInteger.valueOf(a).gcd(java.math.BigInteger.valueOf(b)).longValueExact());
  }

  public static long lcm(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    try {
      return Math.abs(Math.multiplyExact(a / gcd(a, b), b));
    } catch (ArithmeticException e) {
      throw new AccelException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
    }
  }

  /** to_hex: a bigint as lower-case hexadecimal, two's complement for a negative one. */
  public static String toHex(long v) {
    return Long.toHexString(v);
  }

  public static String toHexInt(int v) {
    return Integer.toHexString(v);
  }

  public static int bitLength(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length * 8;
  }

  /** pg_sleep(seconds): the statement's thread sleeps (an interrupt ends it early). Returns void's empty text. */
  public static String sleep(Double seconds) {
    if (seconds != null && seconds > 0) {
      try {
        Thread.sleep(Math.round(seconds * 1000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AccelException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
      }
    }
    return "";
  }

  public static int numNulls(Object[] values) {
    int n = 0;
    for (Object v : values) {
      n += v == null ? 1 : 0;
    }
    return n;
  }

  public static int numNonNulls(Object[] values) {
    return values.length - numNulls(values);
  }

  /** array_position(array, value): the 1-based position of the first element equal to the value, else NULL. */
  public static @Nullable Integer arrayPosition(Object array, Object value) {
    if (array == null) {
      return null;
    }
    List<?> list = (List<?>) array;
    for (int i = 0; i < list.size(); i++) {
      Object e = list.get(i);
      if (e == null ? value == null : value != null && (e.equals(value) || e instanceof Number x
          && value instanceof Number y && new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0)) {
        return i + 1;
      }
    }
    return null;
  }

  private static org.apache.calcite.sql.type.SqlReturnTypeInference nullableText(boolean fromOperands) {
    return binding -> {
      boolean nullable = false;
      for (int i = 0; fromOperands && i < binding.getOperandCount(); i++) {
        nullable |= binding.getOperandType(i).isNullable();
      }
      return binding.getTypeFactory().createTypeWithNullability(
          binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), nullable);
    };
  }

  /** A one-operand function given the operand's type name first (to print it as PostgreSQL's text output). */
  private static PgFunctions.Implementation textOf(String method, NullPolicy nulls) {
    return new PgFunctions.Implementation(PgFunctions.method(TextFunctions.class, method), false, nulls,
        call -> List.of(typeNames(call.getOperands())), false);
  }

  /** The operands' type names, comma-separated, with the planning session's zone last. */
  private static String typeNames(List<RexNode> operands) {
    StringBuilder out = new StringBuilder();
    for (RexNode o : operands) {
      RelDataType t = o.getType();
      out.append(JsonSqlType.is(t) ? "JSON" : t.getSqlTypeName().name()).append(',');
    }
    return out.append(StatementPlanner.planningZone().getId()).toString();
  }

  /** A value as PostgreSQL's output function prints it. */
  private static String text(Object v, String type, String zone) {
    return switch (type) {
      case "BOOLEAN" -> (Boolean) v ? "t" : "f";
      case "DATE" -> PgText.date(((Number) v).intValue());
      case "TIME" -> PgText.time(((Number) v).longValue());
      case "TIMESTAMP" -> PgText.timestamp(((Number) v).longValue());
      case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> PgText.timestampTz(((Number) v).longValue(), ZoneId.of(zone));
      case "DOUBLE", "FLOAT" -> PgText.float8(((Number) v).doubleValue());
      case "REAL" -> PgText.float4(((Number) v).floatValue());
      default -> v instanceof BigDecimal b ? b.toPlainString() : v instanceof ByteString b ? "\\x" + b.toString(16)
          : v instanceof List<?> list ? arrayText(list) : v.toString();
    };
  }

  private static String arrayText(List<?> list) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < list.size(); i++) {
      Object e = list.get(i);
      out.append(i == 0 ? "" : ",").append(e == null ? "NULL" : e instanceof BigDecimal b ? b.toPlainString()
          : e.toString());
    }
    return out.append('}').toString();
  }

  public static String reverse(String s) {
    return new StringBuilder(s).reverse().toString();
  }

  public static @Nullable String quoteLiteral(String types, @Nullable Object v) {
    if (v == null) {
      return null;
    }
    String[] t = types.split(",");
    return literal(text(v, t[0], t[t.length - 1]));
  }

  public static String quoteNullable(String types, @Nullable Object v) {
    return v == null ? "NULL" : quoteLiteral(types, v);
  }

  /** quote_literal of text: quotes doubled; with a backslash, the E'' form with backslashes doubled. */
  static String literal(String s) {
    String quoted = s.replace("'", "''");
    return s.indexOf('\\') >= 0 ? "E'" + quoted.replace("\\", "\\\\") + "'" : "'" + quoted + "'";
  }

  /** format(formatstr, args...): args[0] is the format. */
  public static @Nullable String format(String types, Object[] args) {
    if (args[0] == null) {
      return null;
    }
    String[] t = types.split(",");
    String zone = t[t.length - 1];
    String f = args[0].toString();
    StringBuilder out = new StringBuilder();
    int next = 1;
    for (int i = 0; i < f.length(); i++) {
      char c = f.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (++i >= f.length()) {
        throw invalid("unterminated format() type specifier");
      }
      if (f.charAt(i) == '%') {
        out.append('%');
        continue;
      }
      // %[position$][-][width]type
      int start = i;
      while (i < f.length() && Character.isDigit(f.charAt(i))) {
        i++;
      }
      int arg = next;
      if (i < f.length() && f.charAt(i) == '$' && i > start) {
        arg = Integer.parseInt(f.substring(start, i));
        if (arg < 1) {
          throw invalid("format specifies argument 0, but arguments are numbered from 1");
        }
        i++;
      } else {
        i = start;
      }
      boolean left = false;
      if (i < f.length() && f.charAt(i) == '-') {
        left = true;
        i++;
      }
      int widthStart = i;
      while (i < f.length() && Character.isDigit(f.charAt(i))) {
        i++;
      }
      int width = i > widthStart ? Integer.parseInt(f.substring(widthStart, i)) : 0;
      if (i >= f.length()) {
        throw invalid("unterminated format() type specifier");
      }
      char type = f.charAt(i);
      if (type != 's' && type != 'I' && type != 'L') {
        throw invalid("unrecognized format() type specifier \"" + type + "\"");
      }
      if (arg >= args.length) {
        throw invalid("too few arguments for format()");
      }
      next = arg + 1;
      Object v = args[arg];
      String s;
      if (type == 'L') {
        s = v == null ? "NULL" : literal(text(v, t[arg], zone));
      } else if (type == 'I') {
        if (v == null) {
          throw new AccelException(SqlState.NULL_VALUE_NOT_ALLOWED,
              "null values cannot be formatted as an SQL identifier");
        }
        s = PgCatalogFunctions.quoteIdent(text(v, t[arg], zone));
      } else {
        s = v == null ? "" : text(v, t[arg], zone);
      }
      if (s.length() < width) {
        String pad = " ".repeat(width - s.length());
        s = left ? s + pad : pad + s;
      }
      out.append(s);
    }
    return out.toString();
  }

  private static AccelException invalid(String message) {
    return new AccelException(SqlState.INVALID_PARAMETER_VALUE, message);
  }

  /** array_length(a, 1): its element count, NULL for an empty array or another dimension (one-dimensional arrays). */
  public static @Nullable Integer arrayLength(Object array, Object dimension) {
    List<?> list = (List<?>) array;
    return ((Number) dimension).intValue() != 1 || list.isEmpty() ? null : list.size();
  }

  /** div(y, x): the integer quotient, truncated towards zero. */
  public static BigDecimal div(BigDecimal y, BigDecimal x) {
    if (x.signum() == 0) {
      throw new AccelException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }
    return y.divide(x, 0, RoundingMode.DOWN);
  }

  /** make_timestamp(year, month, day, hour, min, sec): local milliseconds. */
  public static long makeTimestamp(int year, int month, int day, int hour, int minute, double seconds) {
    if (seconds < 0 || seconds > 60) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: " + year + "-"
          + month + "-" + day);
    }
    try {
      long millis = Math.round(seconds * 1000);
      return LocalDateTime.of(year < 0 ? year + 1 : year, month, day, hour, minute).toEpochSecond(ZoneOffset.UTC)
          * 1000 + millis;
    } catch (java.time.DateTimeException e) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: " + year + "-"
          + month + "-" + day);
    }
  }
}
