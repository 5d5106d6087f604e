package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import static java.util.Objects.requireNonNull;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Expressions whose PostgreSQL value differs from what Calcite computes, rewritten into calls of Accel's own
 * functions. Run as the first planning phase (before Calcite folds constants with its own semantics) and as
 * the last (for expressions planning creates: an AVG is planned as SUM / COUNT).
 * <ul>
 *   <li><b>NUMERIC division</b> to the scale of the result type. Calcite divides two decimals to 16
 *       significant digits and pads the quotient, so {@code 12.50 / 3} was 4.1666666666666670 where
 *       PostgreSQL gives 4.1666666666666667, and every AVG lost its last digit the same way. Rounds half away
 *       from zero, as PostgreSQL; division by zero stays an ArithmeticException (22012).
 *   <li><b>DOUBLE / REAL to an integer type</b> rounds half to even ({@code rint}), as PostgreSQL does;
 *       Calcite truncated (2.75 became 2), and a value out of the type's range is 22003.
 *   <li><b>LIKE</b> without ESCAPE escapes with a backslash, as PostgreSQL's does ({@code 'a%c' LIKE 'a\%c'});
 *       Calcite's had no escape character. In a constant pattern an escaped ordinary character is that
 *       character, as in PostgreSQL (Calcite rejected it).
 *   <li><b>Text to BOOLEAN</b> accepts PostgreSQL's spellings ({@code 't'}, {@code 'yes'}, {@code 'off'}, ...);
 *       Calcite took only {@code 'true'} and {@code 'false'}.
 *   <li><b>UUID compared with text</b> reads the text as a UUID (Calcite compared the UUID's text, and its
 *       generated cast did not compile); UUID to text, which did not compile either, prints it.
 *   <li><b>BOOLEAN, NUMERIC, DOUBLE and REAL to text</b> as PostgreSQL prints them: {@code true},
 *       {@code 0.25} (Calcite printed {@code TRUE} and {@code .25}), {@code 0}, {@code 1e+20} and
 *       {@code 1.5e-05} (Calcite printed {@code 0E0}, {@code 1.0E20}).
 * </ul>
 */
public final class PgExpressions {
  private PgExpressions() {
  }

  static final SqlUserDefinedFunction DIVIDE = function("accel_numeric_divide", "divide",
      binding -> binding.getTypeFactory().createTypeWithNullability(
          AccelTypeSystem.INSTANCE.deriveDecimalDivideType(binding.getTypeFactory(), binding.getOperandType(0),
              binding.getOperandType(1)),
          binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable()),
      List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
      List.of(SqlTypeName.DECIMAL, SqlTypeName.DECIMAL, SqlTypeName.INTEGER));

  static final SqlUserDefinedFunction ROUND_TO_INTEGER = function("accel_round_to_integer", "roundToInteger",
      binding -> binding.getTypeFactory().createTypeWithNullability(
          binding.getTypeFactory().createSqlType(SqlTypeName.BIGINT), binding.getOperandType(0).isNullable()),
      List.of(SqlTypeFamily.APPROXIMATE_NUMERIC, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
      List.of(SqlTypeName.DOUBLE, SqlTypeName.BIGINT, SqlTypeName.BIGINT));

  static final SqlUserDefinedFunction TO_TEXT = function("accel_to_text", "toText",
      binding -> binding.getTypeFactory().createTypeWithNullability(
          binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), binding.getOperandType(0).isNullable()),
      List.of(SqlTypeFamily.ANY), List.of(SqlTypeName.ANY));

  static final SqlUserDefinedFunction TO_BOOLEAN = function("accel_to_boolean", "toBoolean",
      binding -> binding.getTypeFactory().createTypeWithNullability(
          binding.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN), binding.getOperandType(0).isNullable()),
      List.of(SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR));

  private static SqlUserDefinedFunction function(String name, String method, SqlReturnTypeInference returnType,
      List<SqlTypeFamily> families, List<SqlTypeName> types) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        returnType, InferTypes.FIRST_KNOWN,
        OperandTypes.operandMetadata(families,
            factory -> types.stream().map(factory::createSqlType).toList(), i -> "arg" + i, i -> false),
        ScalarFunctionImpl.create(PgExpressions.class, method));
  }

  /** The planning phase: every expression of the plan rewritten. */
  public static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    RexShuttle shuttle = new Rewriter(rel.getCluster().getRexBuilder());
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return super.visit(other).accept(shuttle);
      }
    });
  }

  /**
   * Calcite's convertlets, except for the casts this class rewrites: SqlToRelConverter folds a cast of a
   * literal into a literal with Calcite's semantics ({@code CAST(TRUE AS VARCHAR)} became 'TRUE') before any
   * planning phase could see it.
   */
  public static SqlRexConvertletTable convertlets(SqlRexConvertletTable standard) {
    return call -> {
      SqlRexConvertlet convertlet = standard.get(call);
      if (call.getKind() != SqlKind.CAST || convertlet == null) {
        return convertlet;
      }
      return (cx, cast) -> {
        // casts the validator inserted (implicit coercions) have no validated type: Calcite's then
        RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(cast);
        RelDataType from = cx.getValidator().getValidatedNodeTypeIfKnown(cast.operand(0));
        Rewriter rewriter = new Rewriter(cx.getRexBuilder());
        if (type == null || from == null || !rewriter.rewritesCast(from, type)) {
          return convertlet.convertCall(cx, cast);
        }
        return requireNonNull(rewriter.cast(type, cx.convertExpression(cast.operand(0))));
      };
    };
  }

  private static final class Rewriter extends RexShuttle {
    private final RexBuilder rexBuilder;
    private final RelDataTypeFactory types;

    Rewriter(RexBuilder rexBuilder) {
      this.rexBuilder = rexBuilder;
      this.types = rexBuilder.getTypeFactory();
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      RelDataType type = visited.getType();
      if (visited.getKind() == SqlKind.DIVIDE && type.getSqlTypeName() == SqlTypeName.DECIMAL
          && visited.getOperands().size() == 2) {
        return rexBuilder.makeCall(type, DIVIDE, List.of(visited.getOperands().get(0),
            visited.getOperands().get(1), integer(type.getScale())));
      }
      if (visited.getKind() == SqlKind.SEARCH && uuidAsText(visited.getOperands().get(0)) != null) {
        return RexUtil.expandSearch(rexBuilder, null, visited).accept(this);
      }
      if (visited.getKind().belongsTo(SqlKind.COMPARISON) && visited.getOperands().size() == 2) {
        RexNode uuidComparison = uuidComparison(visited);
        if (uuidComparison != null) {
          return uuidComparison;
        }
      }
      if (visited.getKind() == SqlKind.LIKE && visited.getOperands().size() <= 3) {
        return like(visited);
      }
      if (visited.getKind() == SqlKind.CAST && visited.getOperands().size() == 1) {
        RexNode cast = cast(type, visited.getOperands().get(0));
        return cast != null ? cast : visited;
      }
      return visited;
    }

    /** The UUID operand of {@code CAST(uuid AS VARCHAR)} (or of this class's rewrite of it), or null. */
    private static @Nullable RexNode uuidAsText(RexNode node) {
      RexNode inner = node;
      if (inner.getKind() == SqlKind.CAST && inner instanceof RexCall cast
          && SqlTypeName.CHAR_TYPES.contains(cast.getType().getSqlTypeName())) {
        inner = cast.getOperands().get(0);
      }
      if (inner instanceof RexCall call && call.getOperator() == TO_TEXT) {
        inner = call.getOperands().get(0);
      }
      return inner != node && inner.getType().getSqlTypeName() == SqlTypeName.UUID ? inner : null;
    }

    /**
     * A UUID compared with text as PostgreSQL compares them, the text read as a UUID ({@code id = 'A0EE...'}
     * matches whatever the case); Calcite compared the UUID's text, and could not generate the cast.
     */
    private @Nullable RexNode uuidComparison(RexCall call) {
      for (int side = 0; side < 2; side++) {
        RexNode uuid = uuidAsText(call.getOperands().get(side));
        RexNode other = call.getOperands().get(1 - side);
        if (uuid != null && SqlTypeName.CHAR_TYPES.contains(other.getType().getSqlTypeName())) {
          RexNode asUuid = rexBuilder.makeCast(types.createTypeWithNullability(
              types.createSqlType(SqlTypeName.UUID), other.getType().isNullable()), other, false, false);
          List<RexNode> operands = side == 0 ? List.of(uuid, asUuid) : List.of(asUuid, uuid);
          return rexBuilder.makeCall(call.getType(), call.getOperator(), operands);
        }
      }
      return null;
    }

    /**
     * LIKE with PostgreSQL's escape: a backslash unless ESCAPE names another. A constant pattern is rewritten
     * with a backslash as its escape: in PostgreSQL an escape before any character stands for that character
     * (Calcite accepts it only before %, _ and itself), and Calcite's matcher mishandles a backslash in a
     * pattern whose escape is another character.
     */
    private RexNode like(RexCall call) {
      RexNode pattern = call.getOperands().get(1);
      RexNode escape = call.getOperands().size() == 3 ? call.getOperands().get(2) : rexBuilder.makeLiteral("\\");
      if (pattern instanceof RexLiteral p && escape instanceof RexLiteral e && !p.isNull() && !e.isNull()) {
        String text = p.getValueAs(String.class);
        String escapeText = e.getValueAs(String.class);
        if (text != null && escapeText != null && escapeText.length() == 1) {
          char esc = escapeText.charAt(0);
          StringBuilder b = new StringBuilder(text.length() + 4);
          for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escaped = c == esc && i + 1 < text.length();
            if (escaped) {
              c = text.charAt(++i);
            }
            if (c == esc && !escaped) {
              b.append('\\'); // the pattern ends with its escape: an error (22025), as in PostgreSQL
              continue;
            }
            if (escaped && (c == '%' || c == '_') || c == '\\') {
              b.append('\\'); // a literal %, _ or backslash
            }
            b.append(c);
          }
          pattern = rexBuilder.makeLiteral(b.toString());
          escape = rexBuilder.makeLiteral("\\");
        }
      }
      return rexBuilder.makeCall(call.getType(), call.getOperator(), List.of(call.getOperands().get(0), pattern,
          escape));
    }

    /** Whether a cast from {@code from} to {@code to} is one that Calcite computes differently. */
    boolean rewritesCast(RelDataType from, RelDataType to) {
      return roundsToInteger(from.getSqlTypeName(), to.getSqlTypeName())
          || printsAsText(from.getSqlTypeName(), to.getSqlTypeName())
          || parsesBoolean(from.getSqlTypeName(), to.getSqlTypeName());
    }

    private static boolean parsesBoolean(SqlTypeName from, SqlTypeName to) {
      return (from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR) && to == SqlTypeName.BOOLEAN;
    }

    private static boolean approximate(SqlTypeName type) {
      return type == SqlTypeName.DOUBLE || type == SqlTypeName.REAL || type == SqlTypeName.FLOAT;
    }

    private static boolean roundsToInteger(SqlTypeName from, SqlTypeName to) {
      return approximate(from) && (to == SqlTypeName.TINYINT || to == SqlTypeName.SMALLINT
          || to == SqlTypeName.INTEGER || to == SqlTypeName.BIGINT);
    }

    private static boolean printsAsText(SqlTypeName from, SqlTypeName to) {
      return (approximate(from) || from == SqlTypeName.BOOLEAN || from == SqlTypeName.DECIMAL
          || from == SqlTypeName.UUID)
          && (to == SqlTypeName.VARCHAR || to == SqlTypeName.CHAR);
    }

    /** PostgreSQL's cast of {@code operand} to {@code type}, or null where Calcite's cast is PostgreSQL's. */
    @Nullable RexNode cast(RelDataType type, RexNode operand) {
      SqlTypeName to = type.getSqlTypeName();
      SqlTypeName from = operand.getType().getSqlTypeName();
      if (roundsToInteger(from, to)) {
        long[] range = switch (to) {
          case TINYINT -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
          case SMALLINT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
          case INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
          default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        };
        RelDataType bigint = types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT),
            type.isNullable());
        RexNode rounded = rexBuilder.makeCall(bigint, ROUND_TO_INTEGER,
            List.of(operand, bigint(range[0]), bigint(range[1])));
        return to == SqlTypeName.BIGINT ? rounded : rexBuilder.makeCast(type, rounded, true, false);
      }
      if (parsesBoolean(from, to)) {
        return rexBuilder.makeCall(type, TO_BOOLEAN, List.of(operand));
      }
      if (printsAsText(from, to)) {
        RelDataType varchar = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR),
            type.isNullable());
        RexNode text = rexBuilder.makeCall(varchar, TO_TEXT, List.of(operand));
        return type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED && to == SqlTypeName.VARCHAR ? text
            : rexBuilder.makeCast(type, text, true, false);
      }
      return null;
    }

    private RexNode integer(int value) {
      return rexBuilder.makeExactLiteral(BigDecimal.valueOf(value), types.createSqlType(SqlTypeName.INTEGER));
    }

    private RexNode bigint(long value) {
      return rexBuilder.makeExactLiteral(BigDecimal.valueOf(value), types.createSqlType(SqlTypeName.BIGINT));
    }
  }

  /**
   * {@code dividend / divisor} to {@code scale} decimals, half away from zero; NULL when either is NULL.
   * Called by generated code.
   */
  public static @Nullable BigDecimal divide(@Nullable Object dividend, @Nullable Object divisor, int scale) {
    if (dividend == null || divisor == null) {
      return null;
    }
    BigDecimal d = decimal(divisor);
    if (d.signum() == 0) {
      throw new ArithmeticException("Division by zero");
    }
    return decimal(dividend).divide(d, scale, RoundingMode.HALF_UP);
  }

  private static BigDecimal decimal(Object value) {
    if (value instanceof BigDecimal b) {
      return b;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    return new BigDecimal(value.toString());
  }

  /**
   * A float rounded half to even to an integer in {@code [min, max]}; NULL for NULL. Called by generated code.
   *
   * @throws ArithmeticException "integer out of range" (22003) for NaN, infinities and values out of range
   */
  public static @Nullable Long roundToInteger(@Nullable Object value, long min, long max) {
    if (value == null) {
      return null;
    }
    double rounded = Math.rint(((Number) value).doubleValue());
    // (double) Long.MAX_VALUE is 2^63, itself out of range; below it every double is exact
    if (Double.isNaN(rounded) || rounded < min || rounded >= 0x1p63 || rounded > max) {
      throw new ArithmeticException(max == Long.MAX_VALUE ? "bigint out of range"
          : max == Integer.MAX_VALUE ? "integer out of range" : "smallint out of range");
    }
    return (long) rounded;
  }

  /** A boolean, NUMERIC or float as PostgreSQL prints it; NULL for NULL. Called by generated code. */
  public static @Nullable String toText(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (value instanceof BigDecimal b) {
      return b.toPlainString();
    }
    if (value instanceof Float f) {
      return floatText(f.doubleValue(), Float.toString(f));
    }
    if (value instanceof Double d) {
      return floatText(d, Double.toString(d));
    }
    return value.toString();
  }

  /**
   * Text as a boolean, as PostgreSQL reads it: {@code true}, {@code false}, {@code yes}, {@code no},
   * {@code on}, {@code off}, {@code 1}, {@code 0} or an unambiguous prefix of one, in any case, blanks
   * around ignored; NULL for NULL. Called by generated code.
   *
   * @throws AccelException 22P02 for any other text
   */
  public static @Nullable Boolean toBoolean(@Nullable String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (!t.isEmpty()) {
      if ("true".startsWith(t) || "yes".startsWith(t) || t.equals("1") || t.length() >= 2 && "on".equals(t)) {
        return true;
      }
      if ("false".startsWith(t) || "no".startsWith(t) || t.equals("0") || t.length() >= 2 && "off".startsWith(t)) {
        return false;
      }
    }
    throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
        "invalid input syntax for type boolean: \"" + text + "\"");
  }

  /**
   * PostgreSQL's output of a float (shortest digits that read back exactly, as {@code Double.toString} gives
   * them): plain when the decimal exponent is from -4 to 14, otherwise {@code d.ddde+XX}.
   */
  private static String floatText(double value, String javaText) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return 1 / value < 0 ? "-0" : "0";
    }
    BigDecimal digits = new BigDecimal(javaText).stripTrailingZeros();
    int exponent = digits.precision() - digits.scale() - 1;
    if (exponent >= -4 && exponent < 15) {
      return digits.toPlainString();
    }
    BigDecimal mantissa = digits.movePointLeft(exponent);
    return mantissa.toPlainString() + String.format(Locale.ROOT, "e%s%02d", exponent < 0 ? "-" : "+",
        Math.abs(exponent));
  }
}
