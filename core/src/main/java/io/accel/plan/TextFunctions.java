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
 * {@code btrim},
 * {@code quote_literal}, {@code quote_nullable}, {@code format} (%s, %I, %L, %%, positions {@code %2$s} and widths),
 * {@code div}, {@code make_timestamp}. Called by generated code.
 */
public final class TextFunctions {
  private TextFunctions() {
  }

  static List<SqlOperator> operators() {
    List<SqlOperator> out = new ArrayList<>();
    out.add(PgFunctions.scalar("reverse", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARCHAR),
        TextFunctions.class, "reverse", false, true));
    out.add(PgFunctions.scalar("btrim", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARCHAR),
        TextFunctions.class, "btrim", false, true));
    out.add(PgFunctions.scalar("btrim", PgFunctions.returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARCHAR,
        SqlTypeName.VARCHAR), TextFunctions.class, "btrimChars", false, true));
    out.add(PgFunctions.function("quote_literal", nullableText(true), 1, 1, textOf("quoteLiteral",
        NullPolicy.STRICT)));
    out.add(PgFunctions.function("quote_nullable", nullableText(false), 1, 1, textOf("quoteNullable",
        NullPolicy.NONE)));
    out.add(PgFunctions.function("format", nullableText(true), 1, 100, new PgFunctions.Implementation(
        PgFunctions.method(TextFunctions.class, "format"), false, NullPolicy.NONE,
        call -> List.of(typeNames(call.getOperands())), true)));
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
    out.add(SUBSTRING_REGEX);
    // regexp_match(s, pattern [, flags]) and regexp_split_to_array(s, pattern [, flags]): text[]
    for (String[] f : new String[][] {{"regexp_match", "regexpMatch"}, {"regexp_split_to_array", "regexpSplit"}}) {
      out.add(PgFunctions.scalar(f[0], TEXT_ARRAY, List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR),
          TextFunctions.class, f[1], false, true));
      out.add(PgFunctions.scalar(f[0], TEXT_ARRAY, List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
          SqlTypeName.VARCHAR), TextFunctions.class, f[1], false, true));
    }
    // the number as unconstrained NUMERIC (each value keeps its scale): a NUMERIC parameter of Calcite's default
    // scale 0 rounded 1234.5 to 1235 before formatting
    out.add(new org.apache.calcite.sql.validate.SqlUserDefinedFunction(
        new org.apache.calcite.sql.SqlIdentifier("to_char", org.apache.calcite.sql.parser.SqlParserPos.ZERO),
        org.apache.calcite.sql.SqlKind.OTHER_FUNCTION, PgFunctions.returning(SqlTypeName.VARCHAR),
        org.apache.calcite.sql.type.InferTypes.FIRST_KNOWN,
        org.apache.calcite.sql.type.OperandTypes.operandMetadata(
            List.of(org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC,
                org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER),
            f -> List.of(AccelTypeSystem.unconstrainedNumeric(f), f.createSqlType(SqlTypeName.VARCHAR)),
            i -> "arg" + i, i -> false),
        new PgFunctions.Implementation(PgFunctions.method(TextFunctions.class, "toCharNumber"), false,
            NullPolicy.STRICT)));
    out.add(PgFunctions.scalar("to_number", PgFunctions.returning(SqlTypeName.DECIMAL), List.of(SqlTypeName.VARCHAR,
        SqlTypeName.VARCHAR), TextFunctions.class, "toNumber", false, true));
    return out;
  }

  /** One item of a numeric format: a digit (9 or 0), the point, a group separator, a sign, or literal text. */
  private record NumberItem(char kind, String text) {
  }

  private static List<NumberItem> numberFormat(String format, boolean[] fillMode) {
    List<NumberItem> items = new ArrayList<>();
    String f = format;
    for (int i = 0; i < f.length(); i++) {
      char c = f.charAt(i);
      String rest = f.substring(i).toUpperCase(java.util.Locale.ROOT);
      if (rest.startsWith("FM")) {
        fillMode[0] = true;
        i++;
      } else if (c == '9' || c == '0') {
        items.add(new NumberItem(c, null));
      } else if (c == '.' || c == 'D' || c == 'd') {
        items.add(new NumberItem('.', null));
      } else if (c == ',' || c == 'G' || c == 'g') {
        items.add(new NumberItem(',', null));
      } else if (rest.startsWith("MI") || rest.startsWith("PR") || rest.startsWith("PL") || rest.startsWith("SG")) {
        items.add(new NumberItem(rest.charAt(0) == 'M' ? 'M' : rest.charAt(0) == 'P' ? (rest.charAt(1) == 'R' ? 'R'
            : 'P') : 'G', null));
        i++;
      } else if (c == 'S' || c == 's') {
        items.add(new NumberItem('S', null));
      } else if (c == '"') {
        int end = f.indexOf('"', i + 1);
        end = end < 0 ? f.length() : end;
        items.add(new NumberItem('L', f.substring(i + 1, end)));
        i = end;
      } else {
        items.add(new NumberItem('L', String.valueOf(c)));
      }
    }
    return items;
  }

  /**
   * to_char(numeric, format) as PostgreSQL formats numbers: 9 and 0 digit positions, . or D, , or G, MI, S, PL, SG,
   * PR, FM, quoted text; a sign position before the digits unless the format places the sign; # in every digit
   * position when the integer part does not fit.
   */
  public static String toCharNumber(Object number, String format) {
    BigDecimal value = number instanceof BigDecimal b ? b : new BigDecimal(number.toString());
    boolean[] fill = {false};
    List<NumberItem> items = numberFormat(format, fill);
    int point = -1;
    int intDigits = 0;
    int fracDigits = 0;
    boolean explicitSign = false;
    for (int i = 0; i < items.size(); i++) {
      char k = items.get(i).kind();
      if (k == '.' && point < 0) {
        point = i;
      } else if (k == '9' || k == '0') {
        if (point < 0) {
          intDigits++;
        } else {
          fracDigits++;
        }
      } else if (k == 'M' || k == 'P' || k == 'G') {
        explicitSign = true;
      }
    }
    boolean negative = value.signum() < 0;
    BigDecimal v = value.abs().setScale(fracDigits, RoundingMode.HALF_UP);
    String whole = v.toBigInteger().toString();
    String fraction = fracDigits == 0 ? "" : v.toPlainString().substring(v.toPlainString().indexOf('.') + 1);
    negative &= v.signum() != 0;
    boolean zeroWhole = whole.equals("0");
    if (zeroWhole) {
      whole = fracDigits == 0 ? "0" : "";
    }
    boolean overflow = whole.length() > intDigits;
    // the leftmost 0 position: zeros are printed from there on
    int firstZero = -1;
    for (int i = 0, d = 0; i < items.size() && (point < 0 || i < point); i++) {
      if (items.get(i).kind() == '0' && firstZero < 0) {
        firstZero = d;
      }
      if (items.get(i).kind() == '9' || items.get(i).kind() == '0') {
        d++;
      }
    }
    // cells: text, and whether it is padding (FM removes it)
    List<String> text = new ArrayList<>();
    List<Boolean> padding = new ArrayList<>();
    int firstNumberItem = -1;
    int intSeen = 0;
    int fracSeen = 0;
    boolean started = false;
    for (int i = 0; i < items.size(); i++) {
      NumberItem item = items.get(i);
      char k = item.kind();
      if ((k == '9' || k == '0' || k == '.') && firstNumberItem < 0) {
        firstNumberItem = text.size();
      }
      if ((k == '9' || k == '0') && (point < 0 || i < point)) {
        int fromRight = intDigits - 1 - intSeen;
        intSeen++;
        if (overflow) {
          text.add("#");
          padding.add(false);
        } else if (fromRight < whole.length()) {
          text.add(String.valueOf(whole.charAt(whole.length() - 1 - fromRight)));
          padding.add(false);
          started = true;
        } else if (firstZero >= 0 && intSeen - 1 >= firstZero) {
          text.add("0");
          padding.add(false);
          started = true;
        } else {
          text.add(" ");
          padding.add(true);
        }
      } else if (k == '9' || k == '0') {
        char digit = overflow ? '#' : fraction.charAt(fracSeen);
        fracSeen++;
        text.add(String.valueOf(digit));
        // FM drops trailing zeros of 9 positions after the point
        boolean trailing9 = k == '9' && !overflow && fraction.substring(fracSeen - 1).chars().allMatch(ch -> ch == '0')
            && items.subList(i, items.size()).stream().filter(x -> x.kind() == '0').findAny().isEmpty();
        padding.add(trailing9);
      } else if (k == '.') {
        text.add(i == point ? "." : "");
        padding.add(false);
      } else if (k == ',') {
        text.add(started || overflow ? "," : " ");
        padding.add(!(started || overflow));
      } else if (k == 'M') {
        text.add(negative ? "-" : " ");
        padding.add(!negative);
      } else if (k == 'P') {
        text.add(negative ? " " : "+");
        padding.add(negative);
      } else if (k == 'G') {
        text.add(negative ? "-" : "+");
        padding.add(false);
      } else if (k == 'R') {
        text.add(negative ? ">" : " ");
        padding.add(!negative);
      } else if (k == 'S') {
        text.add(""); // anchored to the digits, below
        padding.add(false);
      } else {
        text.add(item.text());
        padding.add(false);
      }
    }
    if (!explicitSign) {
      // the sign (a blank when positive; S: + or -; PR: < or a blank) goes right before the first character the
      // number prints, in a position of its own
      boolean pr = items.stream().anyMatch(x -> x.kind() == 'R');
      boolean s = items.stream().anyMatch(x -> x.kind() == 'S');
      String sign = pr ? (negative ? "<" : " ") : s ? (negative ? "-" : "+") : negative ? "-" : " ";
      int at = firstNumberItem < 0 ? text.size() : firstNumberItem;
      while (at < text.size() && padding.get(at) && text.get(at).equals(" ")) {
        at++;
      }
      text.add(at, sign);
      padding.add(at, sign.equals(" "));
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.size(); i++) {
      if (!(fill[0] && padding.get(i))) {
        out.append(text.get(i));
      }
    }
    return out.toString();
  }

  /** to_number(text, format): the digits, point and sign of the text, the rest (group separators, symbols) skipped. */
  public static BigDecimal toNumber(String text, String format) {
    StringBuilder digits = new StringBuilder();
    boolean negative = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isDigit(c) || c == '.') {
        digits.append(c);
      } else if (c == '-' || c == '<') {
        negative = true;
      }
    }
    if (digits.isEmpty() || digits.toString().equals(".")) {
      throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \""
          + text + "\"");
    }
    try {
      BigDecimal v = new BigDecimal(digits.toString());
      return negative ? v.negate() : v;
    } catch (NumberFormatException e) {
      throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \""
          + text + "\"");
    }
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

  /** A nullable array of nullable text: regexp_match is NULL when nothing matches, its groups when one did not. */
  private static final org.apache.calcite.sql.type.SqlReturnTypeInference TEXT_ARRAY = binding -> {
    org.apache.calcite.rel.type.RelDataTypeFactory f = binding.getTypeFactory();
    return f.createTypeWithNullability(f.createArrayType(
        f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true), -1), true);
  };

  /**
   * A POSIX regular expression with PostgreSQL's flags (i: case-insensitive, c: case-sensitive, n and m:
   * newline-sensitive, s: not, x: expanded); g is refused where PostgreSQL refuses it.
   */
  static java.util.regex.Pattern regex(String pattern, String flags, String function) {
    int options = 0;
    for (char c : flags.toCharArray()) {
      switch (c) {
        case 'i' -> options |= java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.UNICODE_CASE;
        case 'c' -> options &= ~(java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.UNICODE_CASE);
        case 'n', 'm' -> options |= java.util.regex.Pattern.MULTILINE;
        case 's' -> options = options & ~java.util.regex.Pattern.MULTILINE | java.util.regex.Pattern.DOTALL;
        case 'x' -> options |= java.util.regex.Pattern.COMMENTS;
        case 'g' -> throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, function
            + "() does not support the \"global\" option")
            .withHint(function.equals("regexp_match") ? "Use the regexp_matches function instead." : null);
        default -> throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
            "invalid regular expression option: \"" + c + "\"");
      }
    }
    try {
      return java.util.regex.Pattern.compile(pattern, options);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new AccelException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: "
          + e.getDescription());
    }
  }

  public static @Nullable List<String> regexpMatch(String s, String pattern) {
    return regexpMatch(s, pattern, "");
  }

  /** The first match's parenthesized groups (the whole match when there are none); NULL when nothing matches. */
  public static @Nullable List<String> regexpMatch(String s, String pattern, String flags) {
    java.util.regex.Matcher m = regex(pattern, flags, "regexp_match").matcher(s);
    return m.find() ? groups(m) : null;
  }

  /** A match's parenthesized groups, or the whole match when there are none. */
  static List<String> groups(java.util.regex.Matcher m) {
    List<String> groups = new ArrayList<>();
    if (m.groupCount() == 0) {
      groups.add(m.group());
    }
    for (int i = 1; i <= m.groupCount(); i++) {
      groups.add(m.group(i));
    }
    return groups;
  }

  public static List<String> regexpSplit(String s, String pattern) {
    return regexpSplit(s, pattern, "");
  }

  /**
   * {@code s} split at each match, as PostgreSQL splits it: an empty match splits between characters, and
   * empty pieces are kept except where an empty match would make them at the ends.
   */
  public static List<String> regexpSplit(String s, String pattern, String flags) {
    java.util.regex.Matcher m = regex(pattern, flags, "regexp_split_to_array").matcher(s);
    List<String> pieces = new ArrayList<>();
    int start = 0;
    boolean emptySplit = false;
    while (start < s.length() && m.find(start)) {
      emptySplit = m.end() == m.start();
      if (emptySplit) {
        // an empty match: split after one character (PostgreSQL never returns an empty piece for one)
        if (m.start() >= s.length()) {
          break;
        }
        int end = m.start() == start ? start + 1 : m.start();
        pieces.add(s.substring(start, end));
        start = end;
        continue;
      }
      pieces.add(s.substring(start, m.start()));
      start = m.end();
    }
    // the rest, empty after a non-empty separator at the end, none after an empty match's last split
    if (start < s.length() || !emptySplit || pieces.isEmpty()) {
      pieces.add(s.substring(start));
    }
    return pieces;
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

  /** {@code btrim(s)}: {@code s} without leading and trailing spaces (only spaces, as PostgreSQL). */
  public static String btrim(String s) {
    return btrimChars(s, " ");
  }

  /** {@code btrim(s, chars)}: {@code s} without the leading and trailing characters found in {@code chars}. */
  public static String btrimChars(String s, String chars) {
    int start = 0;
    int end = s.length();
    while (start < end && chars.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(start, end);
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
