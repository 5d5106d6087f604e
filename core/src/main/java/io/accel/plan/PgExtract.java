package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code EXTRACT(EPOCH | SECOND FROM x)} as PostgreSQL computes it: a NUMERIC with the fraction of a second
 * ({@code 1704067201.500000}), where Calcite gives a whole BIGINT. The statement's text calls {@code
 * accel_extract('epoch', x)} ({@link io.accel.sql.FractionalExtract}); the validator types it unconstrained NUMERIC,
 * and its conversion passes which representation x has (Calcite's milliseconds, days or months) to {@link #extract}.
 */
public final class PgExtract {
  private PgExtract() {
  }

  /** What the validator sees: {@code accel_extract(unit, value)}. */
  static final SqlFunction FUNCTION = new SqlFunction("ACCEL_EXTRACT", SqlKind.OTHER_FUNCTION,
      AccelTypeSystem.unconstrainedNumeric(1),
      InferTypes.FIRST_KNOWN, OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.ANY),
      SqlFunctionCategory.SYSTEM);

  /** What generated code calls: {@link #extract}. */
  private static final SqlUserDefinedFunction IMPLEMENTATION = new SqlUserDefinedFunction(
      new SqlIdentifier("accel_extract_value", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
      AccelTypeSystem.unconstrainedNumeric(1),
      InferTypes.FIRST_KNOWN,
      OperandTypes.operandMetadata(List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.ANY, SqlTypeFamily.INTEGER),
          factory -> List.of(factory.createSqlType(SqlTypeName.VARCHAR), factory.createSqlType(SqlTypeName.ANY),
              factory.createSqlType(SqlTypeName.INTEGER)), i -> "arg" + i, i -> false),
      ScalarFunctionImpl.create(PgExtract.class, "extract"));

  private static final int TIMESTAMP = 0;
  private static final int DAY_TIME_INTERVAL = 1;
  private static final int DATE = 2;
  private static final int TIME = 3;
  private static final int YEAR_MONTH_INTERVAL = 4;

  /** The conversion of {@code accel_extract(unit, value)}: the value's representation made explicit. */
  static RexNode convert(SqlRexContext cx, SqlCall call) {
    RelDataType type = cx.getValidator().getValidatedNodeType(call);
    RelDataType valueType = cx.getValidator().getValidatedNodeType(call.operand(1));
    SqlTypeName t = valueType.getSqlTypeName();
    int kind;
    if (t == SqlTypeName.TIMESTAMP || t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      kind = TIMESTAMP;
    } else if (t == SqlTypeName.DATE) {
      kind = DATE;
    } else if (t == SqlTypeName.TIME) {
      kind = TIME;
    } else if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(t)) {
      kind = YEAR_MONTH_INTERVAL;
    } else if (SqlTypeName.DAY_INTERVAL_TYPES.contains(t)) {
      kind = DAY_TIME_INTERVAL;
    } else {
      throw new AccelException(SqlState.UNDEFINED_FUNCTION, "function extract(unknown, "
          + PgFunctions.typeName(valueType) + ") does not exist")
          .withHint("No function matches the given name and argument types. You might need to add explicit type"
              + " casts.");
    }
    return cx.getRexBuilder().makeCall(type, IMPLEMENTATION, List.of(cx.convertExpression(call.operand(0)),
        cx.convertExpression(call.operand(1)), cx.getRexBuilder().makeExactLiteral(BigDecimal.valueOf(kind),
            cx.getTypeFactory().createSqlType(SqlTypeName.INTEGER))));
  }

  /**
   * The EPOCH or SECOND of a value held as Calcite holds {@code kind}: milliseconds (timestamps, day-time intervals,
   * times of day), days (dates) or months (year-month intervals, a year counting 365.25 days and a month 30, as
   * PostgreSQL counts them). Microsecond scale, as PostgreSQL prints it; a date's epoch is whole. NULL for NULL.
   * Called by generated code.
   */
  public static @Nullable BigDecimal extract(String unit, @Nullable Object value, int kind) {
    if (value == null) {
      return null;
    }
    long v = ((Number) value).longValue();
    boolean epoch = unit.toLowerCase(Locale.ROOT).equals("epoch");
    return switch (kind) {
      case DATE -> {
        if (!epoch) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "unit \"second\" not supported for type date");
        }
        yield BigDecimal.valueOf(v * 86_400);
      }
      case YEAR_MONTH_INTERVAL -> epoch
          ? BigDecimal.valueOf((v / 12) * 31_557_600 + (v % 12) * 2_592_000).setScale(6)
          : BigDecimal.ZERO.setScale(6);
      // before 1970 a timestamp's milliseconds are negative, its seconds within the minute are not
      case TIMESTAMP -> BigDecimal.valueOf(epoch ? v : Math.floorMod(v, 60_000L), 3).setScale(6);
      default -> BigDecimal.valueOf(epoch ? v : v % 60_000, 3).setScale(6);
    };
  }
}
