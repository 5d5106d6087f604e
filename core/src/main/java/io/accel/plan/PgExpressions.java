package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import static java.util.Objects.requireNonNull;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.TimeUnitRange;
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
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Expressions whose PostgreSQL value differs from what Calcite computes, rewritten into calls of Accel's own
 * functions. Run as the first planning phase (before Calcite folds constants with its own semantics), and
 * for divisions again as the last (planning creates them: an AVG is planned as SUM / COUNT).
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
 *   <li><b>EXTRACT(DOW ...)</b> numbers Sunday 0, as PostgreSQL (Calcite: 1 to 7).
 *   <li><b>Text to TIMESTAMP WITH TIME ZONE</b> reads PostgreSQL's forms, with an offset or zone name or in
 *       the session's zone; Calcite accepted none of them ("not in format 'yyyy-MM-dd HH:mm:ss zone'").
 *   <li><b>Text to BYTEA</b> decodes PostgreSQL's hex ({@code '\\xcafe'}) and escape formats; Calcite stored
 *       the text's own bytes.
 *   <li><b>Text to BOOLEAN</b> accepts PostgreSQL's spellings ({@code 't'}, {@code 'yes'}, {@code 'off'}, ...);
 *       Calcite took only {@code 'true'} and {@code 'false'}.
 *   <li><b>UUID or BYTEA compared with text</b> reads the text as a UUID or BYTEA (Calcite compared the
 *       value's text, and its generated cast of a UUID did not compile); UUID to text, which did not compile
 *       either, prints it, BYTEA to text prints PostgreSQL's hex form, and the length of a BYTEA counts bytes.
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
      List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC), List.of(SqlTypeName.DECIMAL, SqlTypeName.DECIMAL));

  static final SqlUserDefinedFunction ROUND_TO_INTEGER = function("accel_round_to_integer", "roundToInteger",
      returning(SqlTypeName.BIGINT),
      List.of(SqlTypeFamily.APPROXIMATE_NUMERIC, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
      List.of(SqlTypeName.DOUBLE, SqlTypeName.BIGINT, SqlTypeName.BIGINT));

  static final SqlUserDefinedFunction TO_TEXT = function("accel_to_text", "toText",
      returning(SqlTypeName.VARCHAR),
      List.of(SqlTypeFamily.ANY), List.of(SqlTypeName.ANY));

  /**
   * An explicit cast of text to VARCHAR(n): the first n characters. A call, not Calcite's CAST, which its simplifier
   * dropped inside another cast (CAST(CAST(x AS VARCHAR(3)) AS VARCHAR) became x: text's precision is unspecified,
   * which Calcite's isLosslessCast counts as narrower than any n).
   */
  static final SqlUserDefinedFunction VARCHAR_LIMIT = function("accel_varchar_limit", "varcharLimit",
      returning(SqlTypeName.VARCHAR),
      List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER), List.of(SqlTypeName.VARCHAR, SqlTypeName.INTEGER));

  static final SqlUserDefinedFunction INTERVAL_TO_TEXT = function("accel_interval_text", "intervalText",
      returning(SqlTypeName.VARCHAR),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.BOOLEAN), List.of(SqlTypeName.ANY, SqlTypeName.BOOLEAN));

  static final SqlUserDefinedFunction TIMESTAMPTZ_TEXT = function("accel_timestamptz_text", "timestampTzText",
      returning(SqlTypeName.VARCHAR),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER), List.of(SqlTypeName.ANY, SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TIME_TEXT = function("accel_time_text", "timeText",
      returning(SqlTypeName.VARCHAR),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.BOOLEAN), List.of(SqlTypeName.ANY, SqlTypeName.BOOLEAN));

  static final SqlUserDefinedFunction TIMESTAMP_TO_TZ = function("accel_timestamp_to_tz", "timestampToTz",
      returning(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER), List.of(SqlTypeName.ANY, SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TIMESTAMPTZ_PLUS_MONTHS = function("accel_timestamptz_plus_months",
      "timestamptzPlusMonths", returning(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER),
      List.of(SqlTypeName.ANY, SqlTypeName.ANY, SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TO_DOUBLE = function("accel_to_double", "toDouble",
      returning(SqlTypeName.DOUBLE), List.of(SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TO_BOOLEAN = function("accel_to_boolean", "toBoolean",
      returning(SqlTypeName.BOOLEAN),
      List.of(SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TO_TIMESTAMPTZ = function("accel_to_timestamptz", "toTimestampTz",
      returning(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
      List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TO_TIMESTAMP = function("accel_to_timestamp", "toTimestamp",
      returning(SqlTypeName.TIMESTAMP), List.of(SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR));

  static final SqlUserDefinedFunction TO_NUMERIC = function("accel_to_numeric", "toNumeric",
      AccelTypeSystem.unconstrainedNumeric(0), List.of(SqlTypeFamily.ANY), List.of(SqlTypeName.ANY));

  /** {@code a + b}, {@code a - b} or {@code a * b} (operation 0, 1, 2) of NUMERIC values, as unconstrained NUMERIC. */
  static final SqlUserDefinedFunction NUMERIC_ARITHMETIC = function("accel_numeric_arithmetic", "arithmetic",
      AccelTypeSystem.unconstrainedNumeric(0, 1),
      List.of(SqlTypeFamily.ANY, SqlTypeFamily.ANY, SqlTypeFamily.INTEGER),
      List.of(SqlTypeName.ANY, SqlTypeName.ANY, SqlTypeName.INTEGER));

  static final SqlUserDefinedFunction TO_BYTEA = function("accel_to_bytea", "toBytea",
      returning(SqlTypeName.VARBINARY),
      List.of(SqlTypeFamily.CHARACTER), List.of(SqlTypeName.VARCHAR));

  /** Names of the one-argument length functions; of a BYTEA, each counts bytes in PostgreSQL. */
  private static final java.util.Set<String> LENGTHS = java.util.Set.of("CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH");

  /** A result of {@code type}, nullable when the first operand is. */
  private static SqlReturnTypeInference returning(SqlTypeName type) {
    return binding -> binding.getTypeFactory().createTypeWithNullability(
        binding.getTypeFactory().createSqlType(type), binding.getOperandType(0).isNullable());
  }

  private static SqlUserDefinedFunction function(String name, String method, SqlReturnTypeInference returnType,
      List<SqlTypeFamily> families, List<SqlTypeName> types) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        returnType, InferTypes.FIRST_KNOWN,
        OperandTypes.operandMetadata(families,
            factory -> types.stream().map(factory::createSqlType).toList(), i -> "arg" + i, i -> false),
        ScalarFunctionImpl.create(PgExpressions.class, method));
  }

  /** The first planning phase: every expression of the plan rewritten. */
  public static RelNode rewrite(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    return rewrite(rel, new Rewriter(rel.getCluster().getRexBuilder(), false));
  }

  /**
   * The last planning phase: the divisions planning created (an AVG becomes SUM / COUNT); everything else was
   * rewritten by the first phase.
   */
  public static RelNode rewriteDivisions(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    return bottomUp(rewrite(rel, new Rewriter(rexBuilder, true)),
        node -> {
          if (node instanceof org.apache.calcite.rel.core.Calc calc) {
            return nullSafeCondition((org.apache.calcite.rel.core.Calc) uncastQuotients(calc, rexBuilder), rexBuilder);
          }
          if (node instanceof org.apache.calcite.rel.core.Join join) {
            RexNode safe = nullSafeCasts(join.getCondition(), rexBuilder);
            return safe == join.getCondition() ? join : join.copy(join.getTraitSet(), safe, join.getLeft(),
                join.getRight(), join.getJoinType(), join.isSemiJoinDone());
          }
          return node;
        });
  }

  /**
   * A Calc's casts of a NUMERIC quotient to its own type's scale dropped (as {@link Rewriter#visitCall} drops them
   * in expression trees): an AVG's SUM / COUNT is cast so, and the quotient keeps PostgreSQL's scale for its values.
   */
  private static RelNode uncastQuotients(org.apache.calcite.rel.core.Calc calc, RexBuilder rexBuilder) {
    org.apache.calcite.rex.RexProgram program = calc.getProgram();
    List<RexNode> exprs = new java.util.ArrayList<>(program.getExprList());
    boolean changed = false;
    for (int i = 0; i < exprs.size(); i++) {
      if (exprs.get(i) instanceof RexCall cast && cast.getKind() == SqlKind.CAST
          && cast.getType().getSqlTypeName() == SqlTypeName.DECIMAL
          && cast.getOperands().get(0) instanceof org.apache.calcite.rex.RexLocalRef ref
          && exprs.get(ref.getIndex()) instanceof RexCall quotient && quotient.getOperator() == DIVIDE
          && cast.getType().getScale() == quotient.getType().getScale()) {
        exprs.set(i, rexBuilder.makeCall(cast.getType(), DIVIDE, quotient.getOperands()));
        changed = true;
      }
    }
    return !changed ? calc : calc.copy(calc.getTraitSet(), calc.getInput(), new org.apache.calcite.rex.RexProgram(
        program.getInputRowType(), exprs, program.getProjectList(), program.getCondition(),
        program.getOutputRowType()).normalize(rexBuilder, null));
  }

  /**
   * A condition with its casts that only make a nullable value NOT NULL removed. Calcite writes such a cast where a
   * guard proves the value present ({@code COALESCE(x, y)}: {@code CASE WHEN x IS NOT NULL THEN CAST(x AS NOT
   * NULL)}), then drops the guard when it simplifies a filter ({@code x IS NOT NULL AND CAST(x) <> k} is {@code
   * CAST(x) <> k} where unknown counts as false), and its generated code reads a NULL cast to NOT NULL as a value:
   * {@code COALESCE(i, j) <> (-9)} kept rows where both were NULL. Without the cast the comparison is NULL there.
   */
  public static RexNode nullSafeCasts(RexNode condition, RexBuilder rexBuilder) {
    RelDataTypeFactory types = rexBuilder.getTypeFactory();
    return condition.accept(new RexShuttle() {
      @Override
      public RexNode visitCall(RexCall call) {
        List<RexNode> operands = visitList(call.getOperands(), new boolean[1]);
        if (call.getKind() == SqlKind.CAST && !call.getType().isNullable() && operands.get(0).getType().isNullable()
            && org.apache.calcite.sql.type.SqlTypeUtil.equalSansNullability(types, call.getType(),
                operands.get(0).getType())) {
          return operands.get(0);
        }
        if (operands.equals(call.getOperands())) {
          return call;
        }
        // a NULL operand may now reach the call: its result may be NULL unless the call never returns NULL (IS NULL)
        boolean nullable = call.getType().isNullable() || org.apache.calcite.plan.Strong.policy(call)
            != org.apache.calcite.plan.Strong.Policy.NOT_NULL && operands.stream().anyMatch(o -> o.getType().isNullable());
        return call.clone(types.createTypeWithNullability(call.getType(), nullable), operands);
      }
    });
  }

  /** {@code calc} with {@link #nullSafeCasts} applied to its condition. */
  private static RelNode nullSafeCondition(org.apache.calcite.rel.core.Calc calc, RexBuilder rexBuilder) {
    org.apache.calcite.rex.RexProgram program = calc.getProgram();
    if (program.getCondition() == null) {
      return calc;
    }
    RexNode condition = program.expandLocalRef(program.getCondition());
    RexNode safe = nullSafeCasts(condition, rexBuilder);
    if (safe == condition) {
      return calc;
    }
    org.apache.calcite.rex.RexProgramBuilder pb =
        org.apache.calcite.rex.RexProgramBuilder.forProgram(program, rexBuilder, false);
    pb.clearCondition();
    pb.addCondition(safe);
    return calc.copy(calc.getTraitSet(), calc.getInput(), pb.getProgram(true));
  }

  private static RelNode rewrite(RelNode rel, RexShuttle shuttle) {
    return bottomUp(rel, node -> node.accept(shuttle));
  }

  /** {@code rel} with {@code each} applied to every node, its inputs first: the walk of a planning phase. */
  static RelNode bottomUp(RelNode rel, java.util.function.UnaryOperator<RelNode> each) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return each.apply(super.visit(other));
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
      if (call.getOperator() == PgTimeFunctions.TIMESTAMP_DIFFERENCE) {
        // Calcite's (a - b) DAY TO SECOND
        return (cx, minus) -> cx.getRexBuilder().makeCall(minus.getParserPosition(),
            cx.getValidator().getValidatedNodeType(minus), SqlStdOperatorTable.MINUS_DATE,
            List.of(cx.convertExpression(minus.operand(0)), cx.convertExpression(minus.operand(1))));
      }
      if (call.getOperator() == PgExtract.FUNCTION) {
        return PgExtract::convert;
      }
      if (call.getOperator() == org.apache.calcite.sql.fun.SqlLibraryOperators.TO_CHAR_PG
          && quotedFormat(call) != null) {
        return PgExpressions::toCharWithQuotedText;
      }
      if (call.getOperator() == PgFunctions.PG_TYPEOF) {
        // (NULL is unknown, as in PostgreSQL; Calcite typed it as the function's operand inference did)
        return (cx, typeOf) -> cx.getRexBuilder().makeLiteral(
            org.apache.calcite.sql.SqlUtil.isNullLiteral(typeOf.operand(0), false) ? "unknown"
                : cx.getValidator() instanceof PgSqlValidator v && v.declaredTypeName(typeOf) != null
                    ? v.declaredTypeName(typeOf)
                    : PgFunctions.typeName(cx.getValidator().getValidatedNodeType(typeOf.operand(0))),
            cx.getValidator().getValidatedNodeType(typeOf), true);
      }
      SqlRexConvertlet convertlet = standard.get(call);
      if (convertlet != null && InSubQueryValues.mayApply(call)) {
        return InSubQueryValues.convertlet(convertlet);
      }
      if (call.getKind() != SqlKind.CAST || convertlet == null) {
        return convertlet;
      }
      return (cx, cast) -> {
        // casts the validator inserted (implicit coercions) have no validated type: Calcite's then
        RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(cast);
        RelDataType from = cx.getValidator().getValidatedNodeTypeIfKnown(cast.operand(0));
        Rewriter rewriter = new Rewriter(cx.getRexBuilder(), false);
        if (type == null || from == null || !rewriter.rewritesCast(from, type)) {
          return convertlet.convertCall(cx, cast);
        }
        return requireNonNull(rewriter.cast(type, cx.convertExpression(cast.operand(0))));
      };
    };
  }

  /**
   * The pieces of to_char's literal format when it has double-quoted text, which PostgreSQL copies to the output
   * (a backslash escapes the next character): odd pieces are such text, even ones format fields. Null when the
   * format is no literal or has no quote.
   */
  private static List<String> quotedFormat(org.apache.calcite.sql.SqlCall call) {
    if (call.operandCount() != 2
        || !(call.operand(1) instanceof org.apache.calcite.sql.SqlCharStringLiteral literal)) {
      return null;
    }
    String format = literal.getValueAs(String.class);
    if (format.indexOf('"') < 0) {
      return null;
    }
    List<String> pieces = new java.util.ArrayList<>();
    StringBuilder piece = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c == '"') {
        pieces.add(piece.toString());
        piece.setLength(0);
        quoted = !quoted;
      } else if (c == '\\' && quoted && i + 1 < format.length()) {
        piece.append(format.charAt(++i));
      } else {
        piece.append(c);
      }
    }
    pieces.add(piece.toString());
    return pieces;
  }

  /** to_char(x, 'fields"text"fields'): Calcite's to_char of each run of fields, the quoted text between. */
  private static RexNode toCharWithQuotedText(org.apache.calcite.sql2rel.SqlRexContext cx,
      org.apache.calcite.sql.SqlCall call) {
    RexBuilder b = cx.getRexBuilder();
    RexNode value = cx.convertExpression(call.operand(0));
    RelDataType type = cx.getValidator().getValidatedNodeType(call);
    RexNode result = null;
    boolean fields = false;
    List<String> pieces = requireNonNull(quotedFormat(call));
    for (int i = 0; i < pieces.size(); i++) {
      String piece = pieces.get(i);
      if (piece.isEmpty()) {
        continue;
      }
      fields |= i % 2 == 0;
      RexNode next = i % 2 == 1 ? b.makeLiteral(piece)
          : b.makeCall(type, org.apache.calcite.sql.fun.SqlLibraryOperators.TO_CHAR_PG,
              List.of(value, b.makeLiteral(piece)));
      result = result == null ? next : b.makeCall(SqlStdOperatorTable.CONCAT, result, next);
    }
    if (result == null) {
      result = b.makeLiteral("");
    }
    if (!fields) {
      // text alone: still NULL for a NULL value, as the function is strict
      result = b.makeCall(SqlStdOperatorTable.CASE, b.makeCall(SqlStdOperatorTable.IS_NULL, value),
          b.makeNullLiteral(type), b.makeCast(type, result, true, false));
    }
    return b.makeCast(type, result, true, false);
  }

  /**
   * A row-value comparison {@code (a1, a2, ...) op (b1, b2, ...)} (op {@code < <= > >=}) in PostgreSQL's
   * (the standard's) semantics: {@code a1 op' b1 OR (a1 = b1 AND (a2 op' b2 OR ...))}, op' the strict form
   * of op but for the last pair. The first unequal pair decides; a NULL before it makes the result NULL.
   * Calcite evaluates ROW comparisons with a comparator of its own (a NULL field made {@code (1, NULL) >
   * (1, 2)} true). Null when {@code call} is not such a comparison.
   */
  static RexNode expandRowComparison(RexBuilder rexBuilder, RexNode node) {
    if (!(node instanceof RexCall call) || call.getOperands().size() != 2) {
      return null;
    }
    SqlKind kind = call.getKind();
    if (kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL && kind != SqlKind.LESS_THAN
        && kind != SqlKind.LESS_THAN_OR_EQUAL) {
      return null;
    }
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    if (left.getKind() != SqlKind.ROW || right.getKind() != SqlKind.ROW) {
      return null;
    }
    List<RexNode> a = ((RexCall) left).getOperands();
    List<RexNode> b = ((RexCall) right).getOperands();
    if (a.size() != b.size() || a.isEmpty()) {
      return null;
    }
    org.apache.calcite.sql.SqlOperator strict = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL
        ? SqlStdOperatorTable.GREATER_THAN : SqlStdOperatorTable.LESS_THAN;
    RexNode result = rexBuilder.makeCall(call.getOperator(), a.get(a.size() - 1), b.get(b.size() - 1));
    for (int i = a.size() - 2; i >= 0; i--) {
      result = rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(strict, a.get(i), b.get(i)),
          rexBuilder.makeCall(SqlStdOperatorTable.AND,
              rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, a.get(i), b.get(i)), result));
    }
    return result;
  }

  private static final class Rewriter extends RexShuttle {
    private final RexBuilder rexBuilder;
    private final RelDataTypeFactory types;
    /** Only NUMERIC divisions are rewritten (the last phase). */
    private final boolean divisionsOnly;

    Rewriter(RexBuilder rexBuilder, boolean divisionsOnly) {
      this.rexBuilder = rexBuilder;
      this.types = rexBuilder.getTypeFactory();
      this.divisionsOnly = divisionsOnly;
    }

    /**
     * percent_rank() and cume_dist(), which Calcite's window implementation lacks, from counts over the same
     * window as PostgreSQL defines them: (rank - 1) / (rows - 1), and the rows up to the current row's peers / rows.
     */
    @Override
    public RexNode visitOver(RexOver over) {
      RexNode visited = super.visitOver(over);
      if (!divisionsOnly && visited instanceof RexOver o && o.getAggOperator() == SqlStdOperatorTable.AVG
          && o.getType().getSqlTypeName() == SqlTypeName.DECIMAL && !o.isDistinct()) {
        // a NUMERIC avg over a window as SUM / COUNT over it, so the quotient has PostgreSQL's scale (Calcite's
        // window avg kept the type's 16 decimals where PostgreSQL's 135000.25 has 12)
        RexWindow w = o.getWindow();
        RexNode arg = o.getOperands().get(0);
        RelDataType sumType = types.createTypeWithNullability(
            types.getTypeSystem().deriveSumType(types, arg.getType()), true);
        RexNode sum = rexBuilder.makeOver(sumType, SqlStdOperatorTable.SUM, List.of(arg), w.partitionKeys,
            w.orderKeys, w.getLowerBound(), w.getUpperBound(), w.isRows(), true, true, false, false);
        RexNode count = rexBuilder.makeOver(types.createSqlType(SqlTypeName.BIGINT), SqlStdOperatorTable.COUNT,
            List.of(arg), w.partitionKeys, w.orderKeys, w.getLowerBound(), w.getUpperBound(), w.isRows(), true,
            false, false, false);
        return rexBuilder.makeCall(o.getType(), DIVIDE, List.of(sum, count));
      }
      if (divisionsOnly || !(visited instanceof RexOver o) || o.getAggOperator() != SqlStdOperatorTable.PERCENT_RANK
          && o.getAggOperator() != SqlStdOperatorTable.CUME_DIST) {
        return visited;
      }
      RexWindow w = o.getWindow();
      RelDataType bigint = types.createSqlType(SqlTypeName.BIGINT);
      RelDataType dbl = types.createTypeWithNullability(types.createSqlType(SqlTypeName.DOUBLE), false);
      RexNode rows = rexBuilder.makeOver(bigint, SqlStdOperatorTable.COUNT, List.of(), w.partitionKeys,
          com.google.common.collect.ImmutableList.of(), RexWindowBounds.UNBOUNDED_PRECEDING,
          RexWindowBounds.UNBOUNDED_FOLLOWING, true, true, false, false, false);
      RexNode rowsAsDouble = rexBuilder.makeCast(dbl, rows);
      if (o.getAggOperator() == SqlStdOperatorTable.CUME_DIST) {
        RexNode upToPeers = rexBuilder.makeOver(bigint, SqlStdOperatorTable.COUNT, List.of(), w.partitionKeys,
            w.orderKeys, RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.CURRENT_ROW, false, true, false,
            false, false);
        return rexBuilder.makeCall(SqlStdOperatorTable.DIVIDE, rexBuilder.makeCast(dbl, upToPeers), rowsAsDouble);
      }
      RexNode rank = rexBuilder.makeOver(bigint, SqlStdOperatorTable.RANK, List.of(), w.partitionKeys, w.orderKeys,
          RexWindowBounds.UNBOUNDED_PRECEDING, RexWindowBounds.CURRENT_ROW, false, true, false, false, false);
      RexNode one = rexBuilder.makeExactLiteral(java.math.BigDecimal.ONE, dbl);
      RexNode zero = rexBuilder.makeApproxLiteral(java.math.BigDecimal.ZERO, dbl);
      return rexBuilder.makeCall(SqlStdOperatorTable.CASE,
          rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN, rows, rexBuilder.makeBigintLiteral(
              java.math.BigDecimal.ONE)),
          rexBuilder.makeCall(SqlStdOperatorTable.DIVIDE,
              rexBuilder.makeCall(SqlStdOperatorTable.MINUS, rexBuilder.makeCast(dbl, rank), one),
              rexBuilder.makeCall(SqlStdOperatorTable.MINUS, rowsAsDouble, one)),
          zero);
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      RelDataType type = visited.getType();
      RexNode months = timestamptzPlusMonths(visited);
      if (months != null) {
        return months;
      }
      if (visited.getKind() == SqlKind.DIVIDE && type.getSqlTypeName() == SqlTypeName.DECIMAL
          && visited.getOperands().size() == 2) {
        return rexBuilder.makeCall(type, DIVIDE, List.of(visited.getOperands().get(0),
            visited.getOperands().get(1)));
      }
      if (visited.getKind() == SqlKind.CAST && visited.getOperands().size() == 1
          && visited.getOperands().get(0) instanceof RexCall quotient && quotient.getOperator() == DIVIDE
          && type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == quotient.getType().getScale()) {
        // the planner's cast of a quotient to its own type's scale: the quotient keeps PostgreSQL's scale for its
        // values (0.75000000000000000000), which the cast cut to 16 decimals
        return rexBuilder.makeCall(type, DIVIDE, quotient.getOperands());
      }
      if ((visited.getKind() == SqlKind.PLUS || visited.getKind() == SqlKind.MINUS
          || visited.getKind() == SqlKind.TIMES) && visited.getOperands().size() == 2
          && AccelTypeSystem.isUnconstrainedNumeric(type)) {
        // unconstrained NUMERIC values keep their own scales through arithmetic (9.75 * 1.5 = 14.625, as in
        // PostgreSQL); Calcite rescaled each result to the type's 19 decimals, and a product of two such values
        // was typed NUMERIC(38,38), which no value of 1 or more fits
        int operation = visited.getKind() == SqlKind.PLUS ? 0 : visited.getKind() == SqlKind.MINUS ? 1 : 2;
        return rexBuilder.makeCall(type, NUMERIC_ARITHMETIC, List.of(visited.getOperands().get(0),
            visited.getOperands().get(1), integer(operation)));
      }
      if (divisionsOnly) {
        RexNode row = expandRowComparison(rexBuilder, visited);
        return row == null ? visited : row;
      }
      if (visited.getKind() == SqlKind.SEARCH && (typedAsText(visited.getOperands().get(0)) != null
          || mixesZones(visited.getOperands().get(0).getType(), visited.getOperands().get(1).getType()))) {
        return RexUtil.expandSearch(rexBuilder, null, visited).accept(this);
      }
      if ((visited.getKind().belongsTo(SqlKind.COMPARISON) || visited.getKind() == SqlKind.IS_DISTINCT_FROM
          || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM) && visited.getOperands().size() == 2) {
        RexNode zoned = zonedComparison(visited);
        if (zoned != null) {
          return zoned;
        }
      }
      if (visited.getKind().belongsTo(SqlKind.COMPARISON) && visited.getOperands().size() == 2) {
        RexNode typedComparison = typedComparison(visited);
        if (typedComparison != null) {
          return typedComparison;
        }
        RexNode jsonb = jsonbComparison(visited);
        if (jsonb != null) {
          return jsonb;
        }
      }
      if (visited.getOperator() == SqlStdOperatorTable.CONCAT && visited.getOperands().size() == 2
          && (JsonSqlType.isBinary(visited.getOperands().get(0).getType())
              || JsonSqlType.isBinary(visited.getOperands().get(1).getType()))) {
        // jsonb || jsonb merges objects and concatenates arrays; Calcite concatenated the texts
        return rexBuilder.makeCall(type, JsonFunctions.CONCAT, visited.getOperands());
      }
      if (visited.getOperands().size() == 1 && LENGTHS.contains(visited.getOperator().getName())) {
        RexNode bytes = typedAsText(visited.getOperands().get(0));
        if (bytes != null && SqlTypeName.BINARY_TYPES.contains(bytes.getType().getSqlTypeName())) {
          return rexBuilder.makeCall(type, SqlStdOperatorTable.OCTET_LENGTH, List.of(bytes));
        }
      }
      if (visited.getKind() == SqlKind.EXTRACT && visited.getOperands().size() == 2
          && visited.getOperands().get(0) instanceof RexLiteral unit && unit.getValue() != TimeUnitRange.EPOCH
          && visited.getOperands().get(1).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        // a field of a timestamptz as the session's zone shows it (Calcite read it in UTC)
        visited = (RexCall) rexBuilder.makeCall(type, visited.getOperator(),
            List.of(unit, wallClock(visited.getOperands().get(1))));
      }
      if (visited.getOperator() == org.apache.calcite.sql.fun.SqlLibraryOperators.TO_CHAR_PG
          && visited.getOperands().size() == 2
          && visited.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        // to_char of a timestamptz formats its time in the session's zone
        return rexBuilder.makeCall(type, visited.getOperator(),
            List.of(wallClock(visited.getOperands().get(0)), visited.getOperands().get(1)));
      }
      if (visited.getKind() == SqlKind.EXTRACT && visited.getOperands().get(0) instanceof RexLiteral unit
          && unit.getValue() == TimeUnitRange.DOW) {
        // Calcite numbers the days of the week 1 (Sunday) to 7; PostgreSQL 0 (Sunday) to 6
        return rexBuilder.makeCall(type, SqlStdOperatorTable.MINUS, List.of(visited,
            rexBuilder.makeExactLiteral(BigDecimal.ONE, type)));
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

    /**
     * jsonb compared with text reads the text as jsonb ({@code data = '{"a":1}'} finds {@code {"a": 1}}), as
     * PostgreSQL types the literal by the other side; Calcite compared the texts.
     */
    private @Nullable RexNode jsonbComparison(RexCall call) {
      for (int side = 0; side < 2; side++) {
        RexNode json = call.getOperands().get(side);
        if (json.getKind() == SqlKind.CAST && JsonSqlType.isBinary(((RexCall) json).getOperands().get(0).getType())) {
          json = ((RexCall) json).getOperands().get(0); // Calcite's coercion of jsonb to the text's type
        }
        RexNode other = call.getOperands().get(1 - side);
        // (a parameter, also a normalised literal, takes the column's type but holds the text as written)
        if (JsonSqlType.isBinary(json.getType()) && !(json instanceof org.apache.calcite.rex.RexDynamicParam)
            && (other instanceof org.apache.calcite.rex.RexDynamicParam
            || !JsonSqlType.is(other.getType()) && SqlTypeName.CHAR_TYPES.contains(other.getType().getSqlTypeName()))) {
          RexNode parsed = rexBuilder.makeCall(types.createTypeWithNullability(json.getType(),
              other.getType().isNullable()), JsonFunctions.IN, List.of(other, rexBuilder.makeLiteral(true)));
          return rexBuilder.makeCall(call.getType(), call.getOperator(),
              side == 0 ? List.of(json, parsed) : List.of(parsed, json));
        }
      }
      return null;
    }

    /**
     * The UUID or BYTEA operand of {@code CAST(x AS VARCHAR)} (or of this class's rewrite of it), or null:
     * Calcite's way of comparing such a value with text, which PostgreSQL does the other way round.
     */
    private static @Nullable RexNode typedAsText(RexNode node) {
      RexNode inner = node;
      if (inner.getKind() == SqlKind.CAST && inner instanceof RexCall cast
          && SqlTypeName.CHAR_TYPES.contains(cast.getType().getSqlTypeName())) {
        inner = cast.getOperands().get(0);
      }
      if (inner instanceof RexCall call && call.getOperator() == TO_TEXT) {
        inner = call.getOperands().get(0);
      }
      SqlTypeName type = inner.getType().getSqlTypeName();
      return inner != node && (type == SqlTypeName.UUID || SqlTypeName.BINARY_TYPES.contains(type)) ? inner : null;
    }

    /**
     * A timestamp compared with a timestamptz as PostgreSQL compares them: the timestamp read as a wall-clock time
     * in the session's zone, as {@link #zoned} casts it. Calcite compared the
     * timestamp's wall clock as if it were UTC ({@code at > now() - interval '1 minute'} was off by the zone's
     * offset).
     */
    private @Nullable RexNode zonedComparison(RexCall call) {
      for (int side = 0; side < 2; side++) {
        RexNode local = call.getOperands().get(side);
        RexNode other = call.getOperands().get(1 - side);
        if (local.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
            && other.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
          RexNode zoned = zoned(local, types.createTypeWithNullability(types.createSqlType(
              SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, local.getType().getPrecision()),
              local.getType().isNullable()));
          return rexBuilder.makeCall(call.getType(), call.getOperator(),
              side == 0 ? List.of(zoned, other) : List.of(other, zoned));
        }
      }
      return null;
    }

    /** A timestamptz's wall-clock time in the session's zone, a timestamp. */
    private RexNode wallClock(RexNode tz) {
      return rexBuilder.makeCall(types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP,
          tz.getType().getPrecision()), tz.getType().isNullable()), PgFunctions.WALL_CLOCK,
          List.of(rexBuilder.makeLiteral(StatementPlanner.planningZone().getId()), tz));
    }

    /** Whether one type is a timestamp and the other a timestamptz. */
    private static boolean mixesZones(RelDataType a, RelDataType b) {
      SqlTypeName x = a.getSqlTypeName();
      SqlTypeName y = b.getSqlTypeName();
      return x == SqlTypeName.TIMESTAMP && y == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          || y == SqlTypeName.TIMESTAMP && x == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /**
     * A timestamp as the timestamptz (of {@code type}) of its wall clock in the session's zone: a cast, and a
     * timestamp compared with a timestamptz. A literal is converted here, so an index bound stays a literal.
     */
    private RexNode zoned(RexNode timestamp, RelDataType type) {
      String zone = StatementPlanner.planningZone().getId();
      if (timestamp instanceof RexLiteral literal && !literal.isNull()) {
        Long millis = timestampToTz(literal.getValueAs(Long.class), zone);
        return rexBuilder.makeTimestampWithLocalTimeZoneLiteral(
            org.apache.calcite.util.TimestampString.fromMillisSinceEpoch(requireNonNull(millis)),
            type.getPrecision());
      }
      return rexBuilder.makeCall(type, TIMESTAMP_TO_TZ, List.of(timestamp, rexBuilder.makeLiteral(zone)));
    }

    /**
     * A UUID or BYTEA compared with text as PostgreSQL compares them, the text read as a value of that type
     * ({@code id = 'A0EE...'} matches whatever the case, {@code b = '\\x6162'} compares bytes); Calcite
     * compared the value's text, and its generated cast of a UUID did not compile.
     */
    private @Nullable RexNode typedComparison(RexCall call) {
      for (int side = 0; side < 2; side++) {
        RexNode typed = typedAsText(call.getOperands().get(side));
        RexNode other = call.getOperands().get(1 - side);
        if (typed != null && SqlTypeName.CHAR_TYPES.contains(other.getType().getSqlTypeName())) {
          RelDataType target = types.createTypeWithNullability(typed.getType(), other.getType().isNullable());
          RexNode converted = typed.getType().getSqlTypeName() == SqlTypeName.UUID
              ? rexBuilder.makeCast(target, other, false, false)
              : rexBuilder.makeCall(target, TO_BYTEA, List.of(other));
          List<RexNode> operands = side == 0 ? List.of(typed, converted) : List.of(converted, typed);
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
      return JsonSqlType.is(to) || roundsToInteger(from.getSqlTypeName(), to.getSqlTypeName())
          || printsAsText(from.getSqlTypeName(), to.getSqlTypeName())
          || parsesBoolean(from.getSqlTypeName(), to.getSqlTypeName())
          || parsesTimestampTz(from.getSqlTypeName(), to.getSqlTypeName())
          || parsesBytea(from.getSqlTypeName(), to.getSqlTypeName())
          || parsesFloat(from.getSqlTypeName(), to.getSqlTypeName())
          || from.getSqlTypeName() == SqlTypeName.TIMESTAMP
              && to.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          || wallClockCast(from.getSqlTypeName(), to.getSqlTypeName())
          || keepsScale(from, to) || narrowsVarchar(from, to);
    }

    private static boolean parsesFloat(SqlTypeName from, SqlTypeName to) {
      return (from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR)
          && (to == SqlTypeName.DOUBLE || to == SqlTypeName.FLOAT || to == SqlTypeName.REAL);
    }

    /**
     * A cast to unconstrained NUMERIC ({@code x::numeric}) keeps the value's own scale, as PostgreSQL's does
     * ({@code 1.5::numeric} is 1.5); Calcite's cast to the type's 19 decimals printed 1.5000000000000000000.
     */
    private static boolean keepsScale(RelDataType from, RelDataType to) {
      SqlTypeName f = from.getSqlTypeName();
      // (also from unconstrained NUMERIC: Calcite's cast of only the nullability rescaled the value too)
      return AccelTypeSystem.isUnconstrainedNumeric(to)
          && (SqlTypeName.EXACT_TYPES.contains(f) || approximate(f) || f == SqlTypeName.CHAR || f == SqlTypeName.VARCHAR);
    }

    /** A timestamptz cast to a timestamp, date or time: its wall clock in the session's zone. */
    private static boolean wallClockCast(SqlTypeName from, SqlTypeName to) {
      return from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          && (to == SqlTypeName.TIMESTAMP || to == SqlTypeName.DATE || to == SqlTypeName.TIME);
    }

    private static boolean parsesBytea(SqlTypeName from, SqlTypeName to) {
      return (from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR)
          && (to == SqlTypeName.BINARY || to == SqlTypeName.VARBINARY);
    }

    private static boolean parsesTimestampTz(SqlTypeName from, SqlTypeName to) {
      return (from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR)
          && to == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
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
          || from == SqlTypeName.UUID || SqlTypeName.BINARY_TYPES.contains(from)
          || SqlTypeName.INTERVAL_TYPES.contains(from) || from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          || from == SqlTypeName.TIMESTAMP || from == SqlTypeName.TIME)
          && (to == SqlTypeName.VARCHAR || to == SqlTypeName.CHAR);
    }

    /** PostgreSQL's cast of {@code operand} to {@code type}, or null where Calcite's cast is PostgreSQL's. */
    @Nullable RexNode cast(RelDataType type, RexNode operand) {
      SqlTypeName to = type.getSqlTypeName();
      SqlTypeName from = operand.getType().getSqlTypeName();
      if (JsonSqlType.is(type)) {
        // text to json is validated, to jsonb normalized (so is json to jsonb); the same type stays as it is
        if (JsonSqlType.is(operand.getType()) && JsonSqlType.isBinary(operand.getType()) == JsonSqlType.isBinary(type)
            || JsonSqlType.is(operand.getType()) && !JsonSqlType.isBinary(type)) {
          return rexBuilder.makeCall(type, JsonFunctions.RETYPE, List.of(operand));
        }
        return rexBuilder.makeCall(type, JsonFunctions.IN, List.of(operand,
            rexBuilder.makeLiteral(JsonSqlType.isBinary(type))));
      }
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
      if (parsesFloat(from, to)) {
        RelDataType dbl = types.createTypeWithNullability(types.createSqlType(SqlTypeName.DOUBLE),
            type.isNullable());
        RexNode parsed = rexBuilder.makeCall(dbl, TO_DOUBLE, List.of(operand));
        return to == SqlTypeName.REAL ? rexBuilder.makeCast(type, parsed, true, false) : parsed;
      }
      if (parsesBoolean(from, to)) {
        return rexBuilder.makeCall(type, TO_BOOLEAN, List.of(operand));
      }
      if (keepsScale(operand.getType(), type)) {
        return rexBuilder.makeCall(type, TO_NUMERIC, List.of(operand));
      }
      if (parsesTimestampTz(from, to)) {
        // the session's zone when the statement is planned (a session's plans are dropped when it changes)
        return rexBuilder.makeCall(type, TO_TIMESTAMPTZ, List.of(operand,
            rexBuilder.makeLiteral(StatementPlanner.planningZone().getId())));
      }
      if ((from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR) && to == SqlTypeName.TIMESTAMP) {
        // PostgreSQL's timestamp input ('2024-01-01 10:00' without seconds, a T between date and time, a zone
        // ignored), where Calcite's cast wanted seconds
        RelDataType timestamp = types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP),
            type.isNullable());
        RexNode parsed = rexBuilder.makeCall(timestamp, TO_TIMESTAMP, List.of(operand));
        return type.equals(timestamp) ? parsed : rexBuilder.makeCast(type, parsed, true, false);
      }
      if (from == SqlTypeName.TIMESTAMP && to == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        // a wall-clock time read in the session's zone, with its fraction of a second (Calcite's cast dropped it)
        return zoned(operand, type);
      }
      if (wallClockCast(from, to)) {
        // the wall clock in the session's zone, computed; Calcite's cast printed and parsed a string per value
        // (an INSERT of now() into a timestamp column: most of the statement's time)
        RexNode local = wallClock(operand);
        return local.getType().equals(type) ? local : rexBuilder.makeCast(type, local, true, false);
      }
      if (parsesBytea(from, to)) {
        RelDataType varbinary = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARBINARY),
            type.isNullable());
        RexNode bytes = rexBuilder.makeCall(varbinary, TO_BYTEA, List.of(operand));
        return type.equals(varbinary) ? bytes : rexBuilder.makeCast(type, bytes, true, false);
      }
      if (printsAsText(from, to)) {
        RelDataType varchar = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR),
            type.isNullable());
        // a timestamptz as timestamptz_out prints it in the session's zone when the statement is planned
        // ('2024-01-01 10:00:00+00', where Calcite printed '2024-01-01 10:00:00 UTC')
        RexNode text = SqlTypeName.INTERVAL_TYPES.contains(from)
            ? rexBuilder.makeCall(varchar, INTERVAL_TO_TEXT, List.of(operand,
                rexBuilder.makeLiteral(SqlTypeName.YEAR_INTERVAL_TYPES.contains(from))))
            : from == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                ? rexBuilder.makeCall(varchar, TIMESTAMPTZ_TEXT, List.of(operand,
                    rexBuilder.makeLiteral(StatementPlanner.planningZone().getId())))
                : from == SqlTypeName.TIMESTAMP || from == SqlTypeName.TIME
                    ? rexBuilder.makeCall(varchar, TIME_TEXT, List.of(operand, rexBuilder.makeLiteral(
                        from == SqlTypeName.TIMESTAMP)))
                    : rexBuilder.makeCall(varchar, TO_TEXT, List.of(operand));
        return type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED && to == SqlTypeName.VARCHAR ? text
            : to == SqlTypeName.VARCHAR ? limited(type, text) : rexBuilder.makeCast(type, text, true, false);
      }
      if (narrowsVarchar(operand.getType(), type)) {
        return limited(type, operand);
      }
      return null;
    }

    /** Text cut to VARCHAR(n)'s n characters, typed VARCHAR(n). */
    private RexNode limited(RelDataType type, RexNode text) {
      return rexBuilder.makeCall(type, VARCHAR_LIMIT, List.of(text,
          rexBuilder.makeLiteral(type.getPrecision(), types.createSqlType(SqlTypeName.INTEGER))));
    }

    /** A cast of text to a VARCHAR(n) that may cut it. */
    private static boolean narrowsVarchar(RelDataType from, RelDataType to) {
      return (from.getSqlTypeName() == SqlTypeName.VARCHAR || from.getSqlTypeName() == SqlTypeName.CHAR)
          && to.getSqlTypeName() == SqlTypeName.VARCHAR && to.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
          && (from.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED || from.getPrecision() > to.getPrecision());
    }

    /**
     * A timestamptz plus or minus months (a year-month interval) in the session's calendar, as PostgreSQL adds
     * them ({@code now() + interval '1 month'}); Calcite added the months as milliseconds. Null for other calls.
     */
    private @Nullable RexNode timestamptzPlusMonths(RexCall call) {
      if ((call.getKind() != SqlKind.PLUS && call.getKind() != SqlKind.MINUS) || call.getOperands().size() != 2
          || call.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        return null;
      }
      RexNode a = call.getOperands().get(0);
      RexNode b = call.getOperands().get(1);
      boolean tzFirst = a.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      RexNode tz = tzFirst ? a : b;
      RexNode interval = tzFirst ? b : a;
      if (tz.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          || !SqlTypeName.YEAR_INTERVAL_TYPES.contains(interval.getType().getSqlTypeName())
          || call.getKind() == SqlKind.MINUS && !tzFirst) {
        return null;
      }
      RexNode signed = call.getKind() == SqlKind.MINUS
          ? rexBuilder.makeCall(SqlStdOperatorTable.UNARY_MINUS, interval) : interval;
      RelDataType type = types.createTypeWithNullability(call.getType(),
          tz.getType().isNullable() || interval.getType().isNullable());
      return rexBuilder.makeCall(type, TIMESTAMPTZ_PLUS_MONTHS, List.of(tz, signed,
          rexBuilder.makeLiteral(StatementPlanner.planningZone().getId())));
    }

    private RexNode integer(int value) {
      return rexBuilder.makeExactLiteral(BigDecimal.valueOf(value), types.createSqlType(SqlTypeName.INTEGER));
    }

    private RexNode bigint(long value) {
      return rexBuilder.makeExactLiteral(BigDecimal.valueOf(value), types.createSqlType(SqlTypeName.BIGINT));
    }
  }

  /**
   * {@code dividend / divisor} to PostgreSQL's scale for the two values ({@link #divisionScale}), half away from
   * zero; NULL when either is NULL. Called by generated code.
   */
  public static @Nullable BigDecimal divide(@Nullable Object dividend, @Nullable Object divisor) {
    if (dividend == null || divisor == null) {
      return null;
    }
    BigDecimal d = decimal(divisor);
    if (d.signum() == 0) {
      throw new ArithmeticException("Division by zero");
    }
    BigDecimal n = decimal(dividend);
    return n.divide(d, divisionScale(n, d), RoundingMode.HALF_UP);
  }

  /**
   * PostgreSQL's scale for a NUMERIC quotient (select_div_scale): 16 significant digits from the quotient's
   * estimated first base-10000 digit, at least the operands' scales, at most 1000 (7.0 / 2 = 3.5000000000000000,
   * 3 / 4 = 0.75000000000000000000).
   */
  static int divisionScale(BigDecimal dividend, BigDecimal divisor) {
    long[] a = baseTenThousand(dividend);
    long[] b = baseTenThousand(divisor);
    long qweight = a[0] - b[0] - (a[1] <= b[1] ? 1 : 0);
    long scale = 16 - qweight * 4;
    // the operands' own scales without trailing zeros: a planner's cast (an AVG's sum to 16 decimals) adds zeros
    // PostgreSQL's value does not have
    scale = Math.max(scale, Math.max(Math.max(ownScale(dividend), ownScale(divisor)), 0));
    return (int) Math.min(scale, 1000);
  }

  private static int ownScale(BigDecimal v) {
    return v.signum() == 0 ? 0 : v.stripTrailingZeros().scale();
  }

  /** The weight (a power of 10000) and value of a number's first base-10000 digit; {0, 0} for zero. */
  private static long[] baseTenThousand(BigDecimal v) {
    if (v.signum() == 0) {
      return new long[] {0, 0};
    }
    BigDecimal abs = v.abs();
    long exponent = abs.precision() - abs.scale() - 1L; // the power of ten of the first digit
    long weight = Math.floorDiv(exponent, 4);
    long first = abs.movePointLeft((int) (weight * 4)).longValue();
    return new long[] {weight, first};
  }

  /** See {@link #NUMERIC_ARITHMETIC}; NULL when either operand is. Called by generated code. */
  public static @Nullable BigDecimal arithmetic(@Nullable Object a, @Nullable Object b, int operation) {
    if (a == null || b == null) {
      return null;
    }
    BigDecimal x = decimal(a);
    BigDecimal y = decimal(b);
    return switch (operation) {
      case 0 -> x.add(y);
      case 1 -> x.subtract(y);
      default -> x.multiply(y);
    };
  }

  /**
   * A value as unconstrained NUMERIC with the scale PostgreSQL gives it: an integer's 0, a NUMERIC's own, a float's
   * shortest decimal form ({@code 2.0::float8::numeric} is 2), text as written ({@code '1.50'} keeps two decimals;
   * an exponent's negative scale becomes 0). NULL for NULL. Called by generated code.
   */
  public static @Nullable BigDecimal toNumeric(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "cannot convert " + (Double.isNaN(d) ? "NaN"
            : d > 0 ? "infinity" : "-infinity") + " to numeric");
      }
      BigDecimal b = value instanceof Float f ? new BigDecimal(Float.toString(f)) : BigDecimal.valueOf(d);
      return wholeScale(b.stripTrailingZeros());
    }
    if (value instanceof String text) {
      try {
        return wholeScale(new BigDecimal(text.strip()));
      } catch (NumberFormatException e) {
        throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
            "invalid input syntax for type numeric: \"" + text + "\"");
      }
    }
    return decimal(value);
  }

  /** {@code b} with a negative scale (1E+3) made 0 (1000), as numeric shows it. */
  private static BigDecimal wholeScale(BigDecimal b) {
    return b.scale() < 0 ? b.setScale(0) : b;
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

  /** The first {@code length} characters of the text (an explicit cast to VARCHAR(n)). Called by generated code. */
  public static @Nullable String varcharLimit(@Nullable String text, int length) {
    return text == null || text.codePointCount(0, text.length()) <= length ? text
        : text.substring(0, text.offsetByCodePoints(0, length));
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
    if (value instanceof ByteString b) {
      return "\\x" + b.toString(16);
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
   * A timestamp (milliseconds) or a time of day as PostgreSQL prints them: the fraction of a second only when there
   * is one ({@code 10:00:00.5}), where Calcite's cast printed the type's precision. Called by generated code.
   */
  public static @Nullable String timeText(@Nullable Object value, boolean timestamp) {
    return value == null ? null : timestamp ? io.accel.exec.PgText.timestamp(((Number) value).longValue())
        : io.accel.exec.PgText.time(((Number) value).longValue());
  }

  /** A timestamptz (UTC milliseconds) as PostgreSQL's text cast prints it in {@code zone}. Called by generated code. */
  public static @Nullable String timestampTzText(@Nullable Object value, String zone) {
    return value == null ? null
        : io.accel.exec.PgText.timestampTz(((Number) value).longValue(), java.time.ZoneId.of(zone));
  }

  /**
   * An interval as PostgreSQL prints it (IntervalStyle postgres): {@code 1 year 2 mons}, {@code 5 days 01:30:00},
   * {@code -1 days -00:00:00.5} (only 1 is singular), {@code 00:00:00}; a year-month interval is its months, a day-time one its
   * milliseconds, which are read as days and a time of day (PostgreSQL keeps {@code INTERVAL '26' HOUR} as 26
   * hours; Calcite's value cannot tell). NULL for NULL. Called by generated code.
   */
  public static @Nullable String intervalText(@Nullable Object value, boolean months) {
    if (value == null) {
      return null;
    }
    long v = ((Number) value).longValue();
    StringBuilder b = new StringBuilder();
    boolean negativeBefore = false;
    long[] amounts = months ? new long[] {v / 12, v % 12} : new long[] {v / 86_400_000L};
    String[] units = months ? new String[] {"year", "mon"} : new String[] {"day"};
    for (int i = 0; i < amounts.length; i++) {
      if (amounts[i] != 0) {
        b.append(b.isEmpty() ? "" : " ").append(negativeBefore && amounts[i] > 0 ? "+" : "").append(amounts[i])
            .append(' ').append(units[i]).append(amounts[i] == 1 ? "" : "s");
        negativeBefore = amounts[i] < 0;
      }
    }
    long millis = months ? 0 : v % 86_400_000L;
    if (millis != 0 || b.isEmpty()) {
      long m = Math.abs(millis);
      // under a day: time_out's text (HH:MM:SS, milliseconds without trailing zeros)
      b.append(b.isEmpty() ? "" : " ").append(millis < 0 ? "-" : negativeBefore ? "+" : "")
          .append(io.accel.exec.PgText.time(m));
    }
    return b.toString();
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
   * Text as a BYTEA, as PostgreSQL reads it: {@code \\x0102ff} (hex, blanks between pairs allowed), or the
   * escape format, in which {@code \\\\} is a backslash, {@code \\nnn} an octal byte and any other
   * character its UTF-8 bytes; NULL for NULL. Called by generated code.
   *
   * @throws AccelException 22023 for a bad hex digit (as PostgreSQL), 22P02 for a bad escape
   */
  public static @Nullable ByteString toBytea(@Nullable String text) {
    if (text == null) {
      return null;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length());
    if (text.startsWith("\\x")) {
      int high = -1;
      for (int i = 2; i < text.length(); i++) {
        char c = text.charAt(i);
        if (high < 0 && Character.isWhitespace(c)) {
          continue;
        }
        int digit = Character.digit(c, 16);
        if (digit < 0) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
              "invalid hexadecimal digit: \"" + c + "\"");
        }
        if (high < 0) {
          high = digit;
        } else {
          out.write(high << 4 | digit);
          high = -1;
        }
      }
      if (high >= 0) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits");
      }
      return new ByteString(out.toByteArray());
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\') {
        byte[] bytes = String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
        out.write('\\');
        i++;
      } else if (i + 3 < text.length() && text.substring(i + 1, i + 4).matches("[0-3][0-7][0-7]")) {
        out.write(Integer.parseInt(text.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bytea");
      }
    }
    return new ByteString(out.toByteArray());
  }

  private static final Pattern TIMESTAMPTZ = Pattern.compile("\\s*(\\d{4,}-\\d{1,2}-\\d{1,2})"
      + "(?:[ T](\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?))?"
      + "\\s*(Z|UTC|GMT|[+-]\\d{1,2}(?::?\\d{2}(?::?\\d{2})?)?|[A-Za-z_]+(?:/[A-Za-z_+-]+)+)?\\s*",
      Pattern.CASE_INSENSITIVE);

  /**
   * Text as a TIMESTAMP WITH TIME ZONE, as PostgreSQL reads it: {@code 2024-01-15 10:30:00+02},
   * {@code 2024-01-15T10:30:00.5Z}, {@code 2024-01-15 10:30 UTC}, {@code 2024-01-15 10:30 Europe/Paris},
   * {@code 2024-01-15}; without a zone in {@code sessionZone}, the session's. Returns the instant in milliseconds
   * (Calcite's representation, so microseconds are dropped); NULL for NULL. Called by generated code.
   *
   * @throws AccelException 22007 for text that is not a timestamp, 22008 for a field out of range
   */
  /**
   * Text as float8, as PostgreSQL reads it: also {@code infinity}, {@code -inf}, {@code NaN} in any case.
   * Called by generated code.
   */
  public static @Nullable Double toDouble(@Nullable String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip();
    String word = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
    if (word.equalsIgnoreCase("infinity") || word.equalsIgnoreCase("inf")) {
      return t.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (word.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    try {
      if (!t.isEmpty() && (Character.isDigit(t.charAt(t.length() - 1)) || t.charAt(t.length() - 1) == '.')) {
        return Double.parseDouble(t);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION,
        "invalid input syntax for type double precision: \"" + text + "\"");
  }

  /** A timestamp (local milliseconds) as the instant it is in {@code zone}. Called by generated code. */
  /** {@code tz} plus {@code months} in {@code zone}'s calendar (the day clamped to the month's last). */
  public static @Nullable Long timestamptzPlusMonths(@Nullable Object tz, @Nullable Object months, String zone) {
    if (tz == null || months == null) {
      return null;
    }
    return java.time.Instant.ofEpochMilli(((Number) tz).longValue()).atZone(ZoneId.of(zone))
        .plusMonths(((Number) months).longValue()).toInstant().toEpochMilli();
  }

  public static @Nullable Long timestampToTz(@Nullable Object local, String zone) {
    if (local == null) {
      return null;
    }
    long millis = ((Number) local).longValue();
    java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
        (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
    return t.atZone(ZoneId.of(zone)).toInstant().toEpochMilli();
  }

  /** The date and time of a {@link #TIMESTAMPTZ} match (midnight without a time). */
  private static LocalDateTime wallClock(Matcher m) {
    String[] date = m.group(1).split("-");
    LocalDate day = LocalDate.of(Integer.parseInt(date[0]), Integer.parseInt(date[1]), Integer.parseInt(date[2]));
    LocalTime time = m.group(2) == null ? LocalTime.MIDNIGHT
        : LocalTime.parse(m.group(2).indexOf(':') == 1 ? "0" + m.group(2) : m.group(2));
    return LocalDateTime.of(day, time);
  }

  /** Text as a TIMESTAMP (milliseconds of the wall-clock time), as PostgreSQL reads it; a zone is ignored. */
  public static @Nullable Long toTimestamp(@Nullable String text) {
    if (text == null) {
      return null;
    }
    if (text.strip().equalsIgnoreCase("epoch")) {
      return 0L;
    }
    Matcher m = TIMESTAMPTZ.matcher(text);
    if (!m.matches()) {
      throw new AccelException(SqlState.INVALID_DATETIME_FORMAT,
          "invalid input syntax for type timestamp: \"" + text + "\"");
    }
    try {
      return wallClock(m).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeException | NumberFormatException e) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW,
          "date/time field value out of range: \"" + text + "\"", e);
    }
  }

  public static @Nullable Long toTimestampTz(@Nullable String text, String sessionZone) {
    if (text == null) {
      return null;
    }
    Matcher m = TIMESTAMPTZ.matcher(text);
    if (!m.matches()) {
      throw new AccelException(SqlState.INVALID_DATETIME_FORMAT,
          "invalid input syntax for type timestamp with time zone: \"" + text + "\"");
    }
    try {
      LocalDateTime local = wallClock(m);
      String zone = m.group(3);
      ZoneId zoneId;
      if (zone == null) {
        zoneId = ZoneId.of(sessionZone);
      } else if (zone.equalsIgnoreCase("Z") || zone.equalsIgnoreCase("UTC") || zone.equalsIgnoreCase("GMT")) {
        zoneId = ZoneOffset.UTC;
      } else if (zone.charAt(0) == '+' || zone.charAt(0) == '-') {
        String digits = zone.substring(1).replace(":", "");
        digits = digits.length() % 2 == 1 ? "0" + digits : digits; // +5 is +05, +530 is +0530
        int hours = Integer.parseInt(digits.substring(0, 2));
        int rest = digits.length() >= 4 ? Integer.parseInt(digits.substring(2, 4)) : 0;
        int seconds = digits.length() >= 6 ? Integer.parseInt(digits.substring(4, 6)) : 0;
        int sign = zone.charAt(0) == '-' ? -1 : 1;
        zoneId = ZoneOffset.ofHoursMinutesSeconds(sign * hours, sign * rest, sign * seconds);
      } else {
        zoneId = ZoneId.of(zone);
      }
      return local.atZone(zoneId).toInstant().toEpochMilli();
    } catch (DateTimeException | NumberFormatException e) {
      throw new AccelException(SqlState.DATETIME_FIELD_OVERFLOW,
          "date/time field value out of range: \"" + text + "\"", e);
    }
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
