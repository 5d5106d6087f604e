package io.accel.plan;

import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Calcite's validator with PostgreSQL's typing of the rows of {@code INSERT ... VALUES}: a quoted string or
 * NULL in a row has no type of its own and takes the target column's, so rows that mix typed values and
 * strings ({@code (7, TRUE), (8, 'false')}) or strings and NULLs for a BYTEA column are one VALUES, as in
 * PostgreSQL. Calcite typed each column of a multi-row VALUES by its values alone and rejected such rows
 * (42804).
 */
final class PgSqlValidator extends CalciteSqlValidator {
  PgSqlValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
      Config config) {
    super(operators, catalogReader, typeFactory, config);
  }

  @Override
  protected void validateValues(SqlCall node, RelDataType targetRowType, SqlValidatorScope scope) {
    if (targetRowType.isStruct() && node.operandCount() > 1) {
      List<RelDataTypeField> fields = targetRowType.getFieldList();
      for (SqlNode row : node.getOperandList()) {
        if (row.getKind() != SqlKind.ROW) {
          continue;
        }
        SqlCall values = (SqlCall) row;
        for (int i = 0; i < values.operandCount() && i < fields.size(); i++) {
          SqlNode value = values.operand(i);
          RelDataType target = fields.get(i).getType();
          boolean untyped = value instanceof SqlCharStringLiteral || SqlUtil.isNullLiteral(value, false);
          if (untyped && !SqlTypeUtil.isCharacter(target)) {
            values.setOperand(i, SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value,
                SqlTypeUtil.convertTypeToSpec(target)));
          }
        }
      }
    }
    super.validateValues(node, targetRowType, scope);
  }
}
