package io.accel.plan;

import java.math.BigDecimal;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit type coercion plus PostgreSQL's date arithmetic, which Calcite's {@code +} and {@code -}
 * reject (42883): {@code date + integer} and {@code date - integer} add and subtract days
 * ({@code current_date - 7}), and {@code date - date} is the number of days between them, an INTEGER. The
 * integer operand becomes {@code n * INTERVAL '1' DAY}; each date of a difference becomes its day number,
 * {@code CAST(EXTRACT(EPOCH FROM d) / 86400 AS INTEGER)}.
 */
final class PgTypeCoercion extends TypeCoercionImpl {
  PgTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  public boolean binaryArithmeticCoercion(SqlCallBinding binding) {
    SqlKind kind = binding.getOperator().getKind();
    if (binding.getOperandCount() == 2 && (kind == SqlKind.PLUS || kind == SqlKind.MINUS)) {
      RelDataType left = binding.getOperandType(0);
      RelDataType right = binding.getOperandType(1);
      SqlCall call = binding.getCall();
      if (date(left) && integer(right)) {
        return replace(binding, call, 1, days(call.operand(1)));
      }
      if (kind == SqlKind.PLUS && integer(left) && date(right)) {
        return replace(binding, call, 0, days(call.operand(0)));
      }
      if (kind == SqlKind.MINUS && date(left) && date(right)) {
        return replace(binding, call, 0, dayNumber(call.operand(0)))
            && replace(binding, call, 1, dayNumber(call.operand(1)));
      }
    }
    return super.binaryArithmeticCoercion(binding);
  }

  private static boolean date(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DATE;
  }

  private static boolean integer(RelDataType type) {
    return SqlTypeUtil.isIntType(type);
  }

  /** {@code n * INTERVAL '1' DAY}. */
  private static SqlNode days(SqlNode n) {
    SqlParserPos pos = n.getParserPosition();
    SqlNode oneDay = SqlLiteral.createInterval(1, "1", new SqlIntervalQualifier(TimeUnit.DAY, null, pos), pos);
    return SqlStdOperatorTable.MULTIPLY.createCall(pos, n, oneDay);
  }

  /** {@code CAST(EXTRACT(EPOCH FROM d) / 86400 AS INTEGER)}: days since 1970-01-01. */
  private SqlNode dayNumber(SqlNode d) {
    SqlParserPos pos = d.getParserPosition();
    SqlNode epoch = SqlStdOperatorTable.EXTRACT.createCall(pos, new SqlIntervalQualifier(TimeUnit.EPOCH, null, pos), d);
    SqlNode days = SqlStdOperatorTable.DIVIDE.createCall(pos, epoch,
        SqlLiteral.createExactNumeric(BigDecimal.valueOf(86_400).toPlainString(), pos));
    return SqlStdOperatorTable.CAST.createCall(pos, days,
        SqlTypeUtil.convertTypeToSpec(factory.createSqlType(SqlTypeName.INTEGER)));
  }

  private boolean replace(SqlCallBinding binding, SqlCall call, int index, SqlNode replacement) {
    call.setOperand(index, replacement);
    validator.deriveType(binding.getScope(), replacement);
    return true;
  }
}
