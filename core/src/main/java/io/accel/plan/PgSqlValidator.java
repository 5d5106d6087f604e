package io.accel.plan;

import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's validator with PostgreSQL's typing of the rows of {@code INSERT ... VALUES}: a quoted string or
 * NULL in a row has no type of its own and takes the target column's, so rows that mix typed values and
 * strings ({@code (7, TRUE), (8, 'false')}) or strings and NULLs for a BYTEA column are one VALUES, as in
 * PostgreSQL. Calcite typed each column of a multi-row VALUES by its values alone and rejected such rows
 * (42804).
 *
 * <p>It also records which columns of the statement's outermost SELECT a {@code *} expanded to, and their names
 * before Calcite made them unique ({@link #starColumns}), for PostgreSQL's column labels
 * ({@link ColumnLabels}).
 */
final class PgSqlValidator extends CalciteSqlValidator {
  PgSqlValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader, JavaTypeFactory typeFactory,
      Config config) {
    super(operators, catalogReader, typeFactory, config);
  }

  /**
   * {@code UPDATE t AS a SET ... FROM list WHERE cond}, which {@link io.accel.sql.UpdateFrom} wrote as a marked
   * {@code WHERE EXISTS (SELECT marker FROM list WHERE cond)}: the rows to update are those of the join of the target
   * with the list, {@code SELECT a.*, <SET expressions> FROM t AS a, list WHERE cond}.
   */
  @Override
  protected SqlSelect createSourceSelectForUpdate(org.apache.calcite.sql.SqlUpdate call) {
    SqlSelect select = super.createSourceSelectForUpdate(call);
    if (!(call.getCondition() instanceof SqlCall exists) || exists.getKind() != SqlKind.EXISTS
        || !(exists.operand(0) instanceof SqlSelect inner) || inner.getSelectList().size() != 1
        || !(inner.getSelectList().get(0) instanceof SqlCharStringLiteral marker)
        || !io.accel.sql.UpdateFrom.MARKER.equals(marker.getValueAs(String.class)) || inner.getFrom() == null) {
      return select;
    }
    String targetName = call.getAlias() != null ? call.getAlias().getSimple()
        : ((SqlIdentifier) call.getTargetTable()).names.get(((SqlIdentifier) call.getTargetTable()).names.size() - 1);
    org.apache.calcite.sql.SqlNodeList items = new org.apache.calcite.sql.SqlNodeList(SqlParserPos.ZERO);
    items.add(SqlIdentifier.star(List.of(targetName, ""), SqlParserPos.ZERO,
        List.of(SqlParserPos.ZERO, SqlParserPos.ZERO)));
    for (int i = 1; i < select.getSelectList().size(); i++) {
      items.add(select.getSelectList().get(i));
    }
    select.setSelectList(items);
    select.setFrom(new org.apache.calcite.sql.SqlJoin(SqlParserPos.ZERO, select.getFrom(),
        org.apache.calcite.sql.SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
        org.apache.calcite.sql.JoinType.COMMA.symbol(SqlParserPos.ZERO), inner.getFrom(),
        org.apache.calcite.sql.JoinConditionType.NONE.symbol(SqlParserPos.ZERO), null));
    select.setWhere(inner.getWhere());
    call.setOperand(3, inner.getWhere());
    return select;
  }

  /**
   * An UPDATE's parameters in their order, read from the query that computes its rows (its SET list, FROM list and
   * condition): Calcite read them from the UPDATE's own operands, which hold no FROM list.
   */
  @Override
  public RelDataType getParameterRowType(SqlNode sqlQuery) {
    if (!(sqlQuery instanceof org.apache.calcite.sql.SqlUpdate update) || update.getSourceSelect() == null) {
      return super.getParameterRowType(sqlQuery);
    }
    java.util.TreeMap<Integer, RelDataType> types = new java.util.TreeMap<>();
    org.apache.calcite.sql.util.SqlBasicVisitor<Void> params = new org.apache.calcite.sql.util.SqlBasicVisitor<>() {
      @Override
      public Void visit(SqlDynamicParam param) {
        types.putIfAbsent(param.getIndex(), getValidatedNodeType(param));
        return null;
      }
    };
    update.getSourceSelect().accept(params);
    update.accept(params);
    return getTypeFactory().createStructType(List.copyOf(types.values()),
        types.keySet().stream().map(i -> "?" + i).toList());
  }

  /** The leftmost SELECT of the statement validated last, and the positions of its {@code *} items. */
  private @Nullable SqlSelect outermost;
  private List<SqlParserPos> stars = List.of();

  @Override
  public SqlNode validate(SqlNode topNode) {
    // a ^ b is exponentiation in PostgreSQL (Calcite's parser reads it as bitwise XOR)
    topNode.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
      @Override
      public Void visit(org.apache.calcite.sql.SqlCall call) {
        if (call instanceof org.apache.calcite.sql.SqlBasicCall b
            && b.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.BITXOR_OPERATOR) {
          b.setOperator(org.apache.calcite.sql.fun.SqlStdOperatorTable.POWER);
        }
        // substring(s FROM 'pattern') is a regular expression's match in PostgreSQL (Calcite: a position)
        if (call instanceof org.apache.calcite.sql.SqlBasicCall b
            && b.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.SUBSTRING && b.operandCount() == 2
            && b.operand(1) instanceof SqlCharStringLiteral) {
          b.setOperator(TextFunctions.SUBSTRING_REGEX);
        }
        return super.visit(call);
      }
    });
    // before validation: Calcite expands the stars in place (the SELECT itself is kept)
    outermost = leftmostSelect(topNode);
    stars = outermost == null ? List.of() : outermost.getSelectList().stream()
        .filter(item -> item instanceof SqlIdentifier id && id.isStar()).map(SqlNode::getParserPosition).toList();
    return super.validate(topNode);
  }

  /**
   * For each column of the validated statement's leftmost SELECT: the name of the column a {@code *} expanded
   * to it, as its source names it ({@code x} where Calcite made it {@code x0} beside another {@code x}), or
   * null for a column of an item written out; null when the statement is no SELECT.
   */
  @Nullable List<@Nullable String> starColumns() {
    SelectScope scope = outermost == null ? null : getRawSelectScope(outermost);
    List<SqlNode> expanded = scope == null ? null : scope.getExpandedSelectList();
    if (expanded == null) {
      return null;
    }
    List<@Nullable String> names = new java.util.ArrayList<>(expanded.size());
    for (SqlNode item : expanded) {
      SqlNode column = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
      names.add(column instanceof SqlIdentifier id && !id.isStar() && stars.contains(id.getParserPosition())
          ? id.names.get(id.names.size() - 1) : null);
    }
    return names;
  }

  private static @Nullable SqlSelect leftmostSelect(SqlNode node) {
    while (true) {
      if (node instanceof SqlSelect select) {
        return select;
      } else if (node instanceof SqlOrderBy orderBy) {
        node = orderBy.query;
      } else if (node instanceof SqlWith with) {
        node = with.body;
      } else if (node.getKind().belongsTo(SqlKind.SET_QUERY)) {
        node = ((SqlCall) node).operand(0);
      } else {
        return null;
      }
    }
  }

  /** {@code pg_typeof(column)} calls and the declared type of their column, by call. */
  private final java.util.Map<SqlNode, String> declaredTypeNames = new java.util.IdentityHashMap<>();

  /**
   * The declared type of the table column that {@code pg_typeof} call {@code call} names ({@code character
   * varying}, which Calcite's VARCHAR does not tell from text), or null when its argument is no table column.
   */
  @Nullable String declaredTypeName(SqlNode call) {
    return declaredTypeNames.get(call);
  }

  private void recordDeclaredType(SqlValidatorScope scope, SqlCall call) {
    if (!(call.operand(0) instanceof SqlIdentifier id) || declaredTypeNames.containsKey(call)) {
      return;
    }
    try {
      org.apache.calcite.sql.validate.SqlQualified q = scope.fullyQualify(id);
      org.apache.calcite.sql.validate.SqlValidatorTable t = q.namespace == null ? null : q.namespace.getTable();
      AccelTable table = t == null ? null : t.unwrap(AccelTable.class);
      if (table == null || q.suffix().size() != 1) {
        return;
      }
      for (io.accel.catalog.Column c : table.definition().columns()) {
        if (c.name().equalsIgnoreCase(q.suffix().get(0))) {
          int oid = PgTypes.oid(c.type());
          declaredTypeNames.put(call, oid == 1042 ? "character" : PgTypes.formatType(oid, -1)); // regtype's name
          return;
        }
      }
    } catch (RuntimeException e) {
      // not a column this can resolve: pg_typeof names the validated type
    }
  }

  /**
   * {@code date + interval}, {@code interval + date} and {@code date - interval} are timestamps in PostgreSQL (the
   * date is read as its midnight); Calcite kept a DATE and dropped the interval's hours. {@code timestamp -
   * timestamp} (with or without time zone) is an interval, which Calcite rejected (42883).
   */
  @Override
  public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
    if (expr instanceof SqlCall call && call.getOperator() == PgFunctions.PG_TYPEOF && call.operandCount() == 1) {
      recordDeclaredType(scope, call);
    }
    if (expr instanceof org.apache.calcite.sql.SqlBasicCall call && call.getOperator() == SqlStdOperatorTable.CONCAT
        && call.operandCount() == 2 && getValidatedNodeTypeIfKnown(call) == null) {
      // array || element and element || array append and prepend, as in PostgreSQL (Calcite's || joins two arrays)
      boolean firstArray = super.deriveType(scope, call.operand(0)).getComponentType() != null;
      boolean secondArray = super.deriveType(scope, call.operand(1)).getComponentType() != null;
      if (firstArray != secondArray) {
        call.setOperator(firstArray ? ArrayFunctions.APPEND : ArrayFunctions.PREPEND);
      }
    }
    // (not again once typed: PgTypeCoercion's date + n * INTERVAL '1' DAY stays a date)
    if (expr instanceof SqlCall call && call.operandCount() == 2 && getValidatedNodeTypeIfKnown(call) == null
        && (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS)) {
      if (call.getKind() == SqlKind.MINUS && call instanceof org.apache.calcite.sql.SqlBasicCall basic
          && PgTimeFunctions.isTimestamp(super.deriveType(scope, call.operand(0)))
          && PgTimeFunctions.isTimestamp(super.deriveType(scope, call.operand(1)))) {
        for (int side = 0; side < 2; side++) {
          // timestamp - timestamptz: the timestamp read in the session's zone, as PostgreSQL casts it
          if (super.deriveType(scope, call.operand(side)).getSqlTypeName() == SqlTypeName.TIMESTAMP
              && super.deriveType(scope, call.operand(1 - side)).getSqlTypeName()
                  == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            call.setOperand(side, SqlStdOperatorTable.CAST.createCall(call.operand(side).getParserPosition(),
                call.operand(side), SqlTypeUtil.convertTypeToSpec(getTypeFactory().createSqlType(
                    SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3))));
          }
        }
        basic.setOperator(PgTimeFunctions.TIMESTAMP_DIFFERENCE);
        return super.deriveType(scope, expr);
      }
      for (int side = 0; side < 2; side++) {
        if (side == 1 && call.getKind() == SqlKind.MINUS) {
          break;
        }
        SqlNode date = call.operand(side);
        SqlNode other = call.operand(1 - side);
        if (deriveType(scope, date).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DATE
            && SqlTypeUtil.isInterval(deriveType(scope, other))) {
          SqlNode timestamp = SqlStdOperatorTable.CAST.createCall(date.getParserPosition(), date,
              SqlTypeUtil.convertTypeToSpec(getTypeFactory().createSqlType(
                  org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP, 0)));
          call.setOperand(side, timestamp);
        }
      }
    }
    return super.deriveType(scope, expr);
  }

  /**
   * A parameter that is an argument of a function (or of {@code ||}) whose operand inference gives it no type:
   * the type the function's overloads of that arity agree on ({@code setval(name, $2)} is bigint), else text, as
   * PostgreSQL types an unknown ({@code upper($1)}, {@code $1 || 'x'}). Calcite rejected these (illegal use of
   * dynamic parameter): it resolves an overloaded user-defined function only after its operands are typed.
   */
  @Override
  protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
    if (node instanceof SqlDynamicParam && inferredType.equals(getUnknownType())
        && getValidatedNodeTypeIfKnown(node) != null) {
      return; // typed below, as an argument
    }
    RelDataType known = node instanceof SqlDynamicParam ? getValidatedNodeTypeIfKnown(node) : null;
    if (known != null && known.getSqlTypeName() == SqlTypeName.ARRAY
        && inferredType.getSqlTypeName() != SqlTypeName.ARRAY) {
      return; // typeArrayParameter's array, not the element type Calcite infers
    }
    if (node instanceof SqlCall call && call.operandCount() >= 2) {
      typeArrayParameter(call, scope);
    }
    if (node instanceof SqlCall call && (call.getOperator() instanceof SqlFunction
        || call.getOperator() == SqlStdOperatorTable.CONCAT)) {
      typeUntypedArguments(call, scope, inferredType);
    }
    super.inferUnknownTypes(inferredType, scope, node);
  }

  /**
   * {@code x = ANY($1)}, {@code x LIKE ANY($1)}: the parameter is an array of x's type (of text for LIKE), as
   * PostgreSQL types it; Calcite typed it as x's type, an IN list of one.
   */
  private void typeArrayParameter(SqlCall call, SqlValidatorScope scope) {
    SqlNode array = call.operand(1);
    boolean like = call.getOperator() == LikeQuantified.FUNCTION;
    if ((call.getKind() == SqlKind.SOME || call.getKind() == SqlKind.ALL) && call.operandCount() == 2
        && array instanceof org.apache.calcite.sql.SqlNodeList list && list.size() == 1) {
      array = list.get(0);
    } else if (!like) {
      return;
    }
    if (!(array instanceof SqlDynamicParam) || getValidatedNodeTypeIfKnown(array) != null) {
      return;
    }
    RelDataType element = like ? getTypeFactory().createSqlType(SqlTypeName.VARCHAR)
        : deriveType(scope, call.operand(0));
    setValidatedNodeType(array, getTypeFactory().createTypeWithNullability(
        getTypeFactory().createArrayType(getTypeFactory().createTypeWithNullability(element, true), -1), true));
  }

  private void typeUntypedArguments(SqlCall call, SqlValidatorScope scope, RelDataType returnType) {
    int n = call.operandCount();
    boolean anyParameter = false;
    for (SqlNode operand : call.getOperandList()) {
      anyParameter |= operand instanceof SqlDynamicParam && getValidatedNodeTypeIfKnown(operand) == null;
    }
    if (!anyParameter) {
      return;
    }
    RelDataType unknown = getUnknownType();
    RelDataType[] inferred = new RelDataType[n];
    java.util.Arrays.fill(inferred, unknown);
    SqlOperandTypeInference inference = call.getOperator().getOperandTypeInference();
    if (inference != null && !(call.getOperator() instanceof SqlUnresolvedFunction)) {
      inference.inferOperandTypes(new SqlCallBinding(this, scope, call), returnType, inferred);
    }
    List<SqlFunction> overloads = call.getOperator() instanceof SqlFunction function ? overloads(function, n)
        : List.of();
    for (int i = 0; i < n; i++) {
      if (!(call.operand(i) instanceof SqlDynamicParam parameter) || getValidatedNodeTypeIfKnown(parameter) != null
          || !inferred[i].equals(unknown)) {
        continue;
      }
      RelDataType type = agreedParameterType(overloads, i);
      if (type == null) {
        type = getTypeFactory().createSqlType(SqlTypeName.VARCHAR);
      }
      setValidatedNodeType(parameter, getTypeFactory().createTypeWithNullability(type, true));
    }
  }

  /** The user-defined functions named as {@code function} that take {@code arity} arguments. */
  private List<SqlFunction> overloads(SqlFunction function, int arity) {
    SqlIdentifier name = function.getSqlIdentifier() != null ? function.getSqlIdentifier()
        : new SqlIdentifier(function.getName(), SqlParserPos.ZERO);
    List<SqlOperator> found = new java.util.ArrayList<>();
    getOperatorTable().lookupOperatorOverloads(name, SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION,
        found, getCatalogReader().nameMatcher());
    List<SqlFunction> overloads = new java.util.ArrayList<>();
    for (SqlOperator op : found) {
      if (op instanceof SqlFunction f && f.getOperandCountRange().isValidCount(arity)) {
        overloads.add(f);
      }
    }
    return overloads;
  }

  /** The type every overload gives argument {@code i}, or null when they differ or do not say. */
  private @Nullable RelDataType agreedParameterType(List<SqlFunction> overloads, int i) {
    RelDataType agreed = null;
    for (SqlFunction f : overloads) {
      List<RelDataType> types = f.getOperandTypeChecker() instanceof SqlOperandMetadata metadata
          ? metadata.paramTypes(getTypeFactory()) : null;
      if (types == null || i >= types.size()) {
        return null;
      }
      RelDataType type = types.get(i);
      if (agreed != null && !agreed.getSqlTypeName().equals(type.getSqlTypeName())) {
        return null;
      }
      agreed = type;
    }
    return agreed;
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
