package io.accel.plan;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.TableFunction;
import org.apache.calcite.schema.impl.TableFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlUserDefinedTableFunction;

/**
 * PostgreSQL's functions that Calcite lacks or types differently, declared with PostgreSQL's argument and result
 * types (an operator table the validator searches before Calcite's): {@code date_trunc}, {@code generate_series},
 * {@code gen_random_uuid} and the JSON functions. Declared by hand rather than by reflection on Java methods, so a
 * TIMESTAMP is read as Calcite's internal value (no detour through {@code java.sql.Timestamp} and the JVM's zone),
 * functions may read the statement's DataContext (the session's zone), and volatile ones are not deterministic to
 * the planner (never folded into constants or cached in a plan).
 */
public final class PgFunctions {
  private PgFunctions() {
  }

  /** A result of {@code type}, nullable when any operand is. */
  static SqlReturnTypeInference returning(SqlTypeName type) {
    return binding -> {
      boolean nullable = false;
      for (int i = 0; i < binding.getOperandCount(); i++) {
        nullable |= binding.getOperandType(i).isNullable();
      }
      RelDataTypeFactory f = binding.getTypeFactory();
      RelDataType t = type == SqlTypeName.TIMESTAMP || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          ? f.createSqlType(type, 3) : f.createSqlType(type);
      return f.createTypeWithNullability(t, nullable);
    };
  }

  /**
   * How a function is implemented: a static method, given the DataContext first when {@code context}, then the
   * constants {@code leading} derives from the call (its operands' types), then the operands (as one Object[]
   * when {@code variadic}).
   */
  record Implementation(Method method, boolean context, NullPolicy nulls,
      java.util.function.Function<org.apache.calcite.rex.RexCall, List<Object>> leading, boolean variadic)
      implements ScalarFunction, ImplementableFunction {
    Implementation(Method method, boolean context, NullPolicy nulls) {
      this(method, context, nulls, call -> List.of(), false);
    }

    @Override
    public CallImplementor getImplementor() {
      return RexImpTable.createImplementor((translator, call, operands) -> {
        Class<?>[] types = method.getParameterTypes();
        List<Expression> args = new ArrayList<>();
        if (context) {
          args.add(translator.getRoot());
        }
        for (Object constant : leading.apply(call)) {
          args.add(Expressions.constant(constant, types[args.size()]));
        }
        if (variadic) {
          args.add(Expressions.newArrayInit(Object.class,
              operands.stream().map(o -> convert(o, Object.class)).toList()));
        } else {
          for (Expression operand : operands) {
            args.add(convert(operand, types[args.size()]));
          }
        }
        return Expressions.call(method, args);
      }, nulls, false);
    }

    /** Boxed with valueOf when an Object is wanted: Janino reads {@code (Object) -1} as a subtraction. */
    private static Expression convert(Expression operand, Class<?> type) {
      if (type == Object.class && operand.getType() instanceof Class<?> c && c.isPrimitive()) {
        return org.apache.calcite.linq4j.tree.Expressions.box(operand);
      }
      return EnumUtils.convert(operand, type);
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
      return typeFactory.createSqlType(SqlTypeName.ANY);
    }

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }
  }

  static Method method(Class<?> owner, String name) {
    return Arrays.stream(owner.getMethods()).filter(m -> m.getName().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no method " + owner.getSimpleName() + "." + name));
  }

  private static Method method(Class<?> owner, String name, int arity) {
    return Arrays.stream(owner.getMethods()).filter(m -> m.getName().equals(name) && m.getParameterCount() == arity)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no method " + owner.getSimpleName() + "." + name));
  }

  /** A scalar function of fixed operand types. */
  static SqlUserDefinedFunction scalar(String name, SqlReturnTypeInference returnType, List<SqlTypeName> operands,
      Class<?> owner, String method, boolean context, boolean deterministic) {
    Implementation impl = new Implementation(method(owner, method, operands.size() + (context ? 1 : 0)), context,
        deterministic ? NullPolicy.STRICT : NullPolicy.NONE);
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        returnType, InferTypes.FIRST_KNOWN, metadata(operands), impl) {
      @Override
      public boolean isDeterministic() {
        return deterministic;
      }

      @Override
      public boolean isDynamicFunction() {
        return !deterministic;
      }
    };
  }

  /** A function of any operands, between {@code min} and {@code max} of them, and its own implementation. */
  static SqlUserDefinedFunction function(String name, SqlReturnTypeInference returnType, int min, int max,
      Implementation impl) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        returnType, InferTypes.VARCHAR_1024, new AnyOperands(min, max), impl);
  }

  /** Operands of any types; unknown ones ({@code ?}, NULL) are text. */
  private record AnyOperands(int min, int max) implements org.apache.calcite.sql.type.SqlOperandMetadata {
    @Override
    public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
      return List.of();
    }

    @Override
    public List<String> paramNames() {
      return List.of();
    }

    @Override
    public boolean checkOperandTypes(org.apache.calcite.sql.SqlCallBinding callBinding, boolean throwOnFailure) {
      return true;
    }

    @Override
    public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
      return org.apache.calcite.sql.type.SqlOperandCountRanges.between(min, max);
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return opName + "(...)";
    }
  }

  static org.apache.calcite.sql.type.SqlOperandMetadata metadata(List<SqlTypeName> operands) {
    return OperandTypes.operandMetadata(operands.stream().map(PgFunctions::family).toList(),
        factory -> operands.stream().map(t -> switch (t) {
          case DECIMAL -> factory.createSqlType(t, factory.getTypeSystem().getMaxPrecision(t), 0);
          // any interval, as it is (a day-time one is milliseconds, a year-month one months)
          case INTERVAL_DAY -> factory.createSqlType(SqlTypeName.ANY);
          default -> factory.createSqlType(t);
        }).toList(),
        i -> "arg" + i, i -> false);
  }

  private static SqlTypeFamily family(SqlTypeName type) {
    return switch (type) {
      case ANY -> SqlTypeFamily.ANY;
      case INTERVAL_DAY -> SqlTypeFamily.DATETIME_INTERVAL;
      default -> type.getFamily();
    };
  }

  /**
   * A set-returning function of fixed operand types, used in FROM; {@code method} takes its operands as Objects
   * (Calcite also calls it while validating, with the literal operands' values or nulls, for the row type).
   */
  static SqlUserDefinedTableFunction table(String name, List<SqlTypeName> operands, Class<?> owner, String method) {
    TableFunction function = TableFunctionImpl.create(method(owner, method, operands.size()));
    return new SqlUserDefinedTableFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        ReturnTypes.CURSOR, InferTypes.FIRST_KNOWN, metadata(operands), function);
  }

  private static final List<SqlOperator> OPERATORS = new ArrayList<>();

  /** {@code timezone(zone, timestamptz)}: the instant's wall-clock time in the zone, a timestamp. */
  static final SqlUserDefinedFunction WALL_CLOCK = scalar("timezone", returning(SqlTypeName.TIMESTAMP),
      List.of(SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE), PgTimeFunctions.class,
      "timestampTzAtZone", false, true);

  static {
    for (SqlTypeName t : List.of(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
        SqlTypeName.DATE)) {
      SqlTypeName result = t == SqlTypeName.TIMESTAMP ? t : SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      OPERATORS.add(scalar("date_trunc", returning(result), List.of(SqlTypeName.VARCHAR, t), PgTimeFunctions.class,
          switch (t) {
            case TIMESTAMP -> "truncTimestamp";
            case DATE -> "truncDate";
            default -> "truncTimestampTz";
          }, true, true));
    }
    // x AT TIME ZONE z (io.accel.sql.AtTimeZone): a timestamp read in z, or an instant's wall-clock time in z
    OPERATORS.add(scalar("timezone", returning(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
        List.of(SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP), PgTimeFunctions.class, "timestampAtZone", false, true));
    OPERATORS.add(WALL_CLOCK);
    // the argument numbers the call (io.accel.sql.PgCatalogSyntax adds it): two calls are two values
    OPERATORS.add(scalar("gen_random_uuid", binding -> binding.getTypeFactory().createSqlType(SqlTypeName.UUID),
        List.of(SqlTypeName.INTEGER), PgFunctions.class, "randomUuid", false, false));
    // encode / decode, pgcrypto's and uuid-ossp's functions (io.accel.plan.ByteFunctions)
    OPERATORS.add(scalar("encode", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.VARBINARY, SqlTypeName.VARCHAR),
        ByteFunctions.class, "encode", false, true));
    OPERATORS.add(scalar("decode", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR),
        ByteFunctions.class, "decode", false, true));
    OPERATORS.add(scalar("digest", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARBINARY,
        SqlTypeName.VARCHAR), ByteFunctions.class, "digest", false, true));
    OPERATORS.add(scalar("digest", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARCHAR,
        SqlTypeName.VARCHAR), ByteFunctions.class, "digestText", false, true));
    // PostgreSQL's sha224 ... sha512 of bytea are bytea (Calcite's SHA256 of a string is hex text)
    for (String sha : List.of("sha224", "sha256", "sha384", "sha512")) {
      OPERATORS.add(scalar(sha, returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARBINARY), ByteFunctions.class,
          sha, false, true));
    }
    OPERATORS.add(scalar("hmac", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARBINARY,
        SqlTypeName.VARBINARY, SqlTypeName.VARCHAR), ByteFunctions.class, "hmac", false, true));
    OPERATORS.add(scalar("hmac", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.VARCHAR,
        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR), ByteFunctions.class, "hmacText", false, true));
    OPERATORS.add(scalar("gen_random_bytes", returning(SqlTypeName.VARBINARY), List.of(SqlTypeName.INTEGER),
        ByteFunctions.class, "randomBytes", false, false));
    SqlReturnTypeInference uuid = binding -> binding.getTypeFactory().createSqlType(SqlTypeName.UUID);
    // the argument numbers the call (io.accel.sql.PgCatalogSyntax adds it), as gen_random_uuid's
    OPERATORS.add(scalar("uuid_generate_v4", uuid, List.of(SqlTypeName.INTEGER), ByteFunctions.class, "uuidV4",
        false, false));
    OPERATORS.add(scalar("uuid_generate_v1", uuid, List.of(SqlTypeName.INTEGER), ByteFunctions.class, "uuidV1",
        false, false));
    OPERATORS.add(scalar("uuid_generate_v1mc", uuid, List.of(SqlTypeName.INTEGER), ByteFunctions.class, "uuidV1",
        false, false));
    for (String[] f : new String[][] {{"uuid_nil", "uuidNil"}, {"uuid_ns_dns", "uuidNsDns"},
        {"uuid_ns_url", "uuidNsUrl"}, {"uuid_ns_oid", "uuidNsOid"}, {"uuid_ns_x500", "uuidNsX500"}}) {
      OPERATORS.add(scalar(f[0], uuid, List.of(), ByteFunctions.class, f[1], false, true));
    }
    OPERATORS.add(scalar("uuid_generate_v3", returning(SqlTypeName.UUID), List.of(SqlTypeName.UUID,
        SqlTypeName.VARCHAR), ByteFunctions.class, "uuidV3", false, true));
    OPERATORS.add(scalar("uuid_generate_v5", returning(SqlTypeName.UUID), List.of(SqlTypeName.UUID,
        SqlTypeName.VARCHAR), ByteFunctions.class, "uuidV5", false, true));
    OPERATORS.add(scalar("random", binding -> binding.getTypeFactory().createSqlType(SqlTypeName.DOUBLE),
        List.of(SqlTypeName.INTEGER), PgFunctions.class, "random", false, false));
    SqlReturnTypeInference timestamptz = binding -> binding.getTypeFactory().createSqlType(
        SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3);
    OPERATORS.add(scalar("clock_timestamp", timestamptz, List.of(SqlTypeName.INTEGER), PgFunctions.class,
        "clockTimestamp", false, false));
    OPERATORS.add(scalar("statement_timestamp", timestamptz, List.of(), PgFunctions.class, "statementTimestamp",
        true, false));
    OPERATORS.add(scalar("transaction_timestamp", timestamptz, List.of(), PgFunctions.class, "transactionTimestamp",
        true, false));
    for (SqlTypeName t : List.of(SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DECIMAL)) {
      String m = switch (t) {
        case INTEGER -> "integers";
        case BIGINT -> "bigints";
        default -> "numerics";
      };
      OPERATORS.add(table("generate_series", List.of(t, t), GenerateSeries.class, m));
      OPERATORS.add(table("generate_series", List.of(t, t, t), GenerateSeries.class, m));
    }
    OPERATORS.add(table("generate_series", List.of(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP,
        SqlTypeName.INTERVAL_DAY), GenerateSeries.class, "timestamps"));
    OPERATORS.addAll(JsonFunctions.OPERATORS);
    // round(numeric, n): PostgreSQL's result has n decimals (none for n < 0); Calcite kept the input's scale
    OPERATORS.add(scalar("accel_round", binding -> {
      RelDataTypeFactory f = binding.getTypeFactory();
      int scale = binding.isOperandLiteral(1, false) && binding.getOperandLiteralValue(1, Integer.class) != null
          ? Math.max(0, binding.getOperandLiteralValue(1, Integer.class)) : Math.max(0, binding.getOperandType(0)
              .getScale());
      return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DECIMAL,
          f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), Math.min(scale, f.getTypeSystem().getMaxScale(SqlTypeName.DECIMAL))),
          binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable());
    }, List.of(SqlTypeName.DECIMAL, SqlTypeName.INTEGER), PgFunctions.class, "round", false, true));
    // trunc(numeric[, n]) toward zero, with PostgreSQL's result scale; trunc(double precision)
    OPERATORS.add(scalar("trunc", binding -> {
      RelDataTypeFactory f = binding.getTypeFactory();
      int scale = binding.getOperandCount() < 2 ? 0
          : binding.isOperandLiteral(1, false) && binding.getOperandLiteralValue(1, Integer.class) != null
              ? Math.max(0, binding.getOperandLiteralValue(1, Integer.class)) : binding.getOperandType(0).getScale();
      boolean nullable = false;
      for (int i = 0; i < binding.getOperandCount(); i++) {
        nullable |= binding.getOperandType(i).isNullable();
      }
      return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DECIMAL,
          f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL),
          Math.min(Math.max(scale, 0), f.getTypeSystem().getMaxScale(SqlTypeName.DECIMAL))), nullable);
    }, List.of(SqlTypeName.DECIMAL, SqlTypeName.INTEGER), PgFunctions.class, "trunc", false, true));
    OPERATORS.add(scalar("trunc", binding -> {
      RelDataTypeFactory f = binding.getTypeFactory();
      return f.createTypeWithNullability(f.createSqlType(SqlTypeName.DECIMAL,
          f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), 0), binding.getOperandType(0).isNullable());
    }, List.of(SqlTypeName.DECIMAL), PgFunctions.class, "truncWhole", false, true));
    OPERATORS.add(scalar("trunc", returning(SqlTypeName.DOUBLE), List.of(SqlTypeName.DOUBLE), PgFunctions.class,
        "truncDouble", false, true));
    // make_date(year, month, day); to_timestamp(seconds since the epoch)
    OPERATORS.add(scalar("make_date", returning(SqlTypeName.DATE), List.of(SqlTypeName.INTEGER, SqlTypeName.INTEGER,
        SqlTypeName.INTEGER), PgTimeFunctions.class, "makeDate", false, true));
    OPERATORS.add(scalar("to_timestamp", returning(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
        List.of(SqlTypeName.DOUBLE), PgTimeFunctions.class, "fromEpochSeconds", false, true));
    OPERATORS.add(table("generate_series", List.of(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
        SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, SqlTypeName.INTERVAL_DAY), GenerateSeries.class,
        "timestampTzs"));
  }

  /**
   * {@code pg_typeof(x)}: the name of x's type as PostgreSQL prints it ({@code integer}, {@code timestamp without
   * time zone}); a constant, converted by {@link PgExpressions#convertlets} from the validated operand type.
   */
  static final org.apache.calcite.sql.SqlFunction PG_TYPEOF = new org.apache.calcite.sql.SqlFunction("PG_TYPEOF",
      SqlKind.OTHER_FUNCTION, ReturnTypes.VARCHAR, InferTypes.VARCHAR_1024, OperandTypes.ANY,
      org.apache.calcite.sql.SqlFunctionCategory.SYSTEM);

  /** What {@code pg_typeof} of a value of {@code type} returns. */
  static String typeName(RelDataType type) {
    return PgTypes.formatType(PgTypes.oid(type), -1);
  }

  static {
    OPERATORS.addAll(TextFunctions.operators());
    OPERATORS.addAll(ArrayFunctions.operators());
    OPERATORS.addAll(OrderedSetFunctions.operators());
    OPERATORS.add(scalar("age", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP),
        PgTimeFunctions.class, "age", false, true));
    OPERATORS.add(scalar("age", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.TIMESTAMP),
        PgTimeFunctions.class, "ageFromToday", true, false));
    // dates as midnights (Calcite's own AGE, which dates resolved to, borrowed the later month's days)
    OPERATORS.add(scalar("age", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.DATE, SqlTypeName.DATE),
        PgTimeFunctions.class, "ageOfDates", false, true));
    OPERATORS.add(scalar("age", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.DATE, SqlTypeName.TIMESTAMP),
        PgTimeFunctions.class, "ageOfDateAndTimestamp", false, true));
    OPERATORS.add(scalar("age", returning(SqlTypeName.VARCHAR), List.of(SqlTypeName.TIMESTAMP, SqlTypeName.DATE),
        PgTimeFunctions.class, "ageOfTimestampAndDate", false, true));
    OPERATORS.add(PG_TYPEOF);
    OPERATORS.add(LikeQuantified.FUNCTION);
    OPERATORS.add(PgExtract.FUNCTION);
    for (List<SqlTypeName> operands : List.of(List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR),
        List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR))) {
      OPERATORS.add(table("regexp_matches", operands, RegexpRows.class, "matches"));
      OPERATORS.add(table("regexp_split_to_table", operands, RegexpRows.class, "splitToTable"));
    }
    for (String prefix : List.of("jsonb", "json")) {
      OPERATORS.add(table(prefix + "_each", List.of(SqlTypeName.VARCHAR), JsonRows.class, "each"));
      OPERATORS.add(table(prefix + "_each_text", List.of(SqlTypeName.VARCHAR), JsonRows.class, "eachText"));
      OPERATORS.add(table(prefix + "_object_keys", List.of(SqlTypeName.VARCHAR), JsonRows.class, "objectKeys"));
      OPERATORS.add(table(prefix + "_array_elements", List.of(SqlTypeName.VARCHAR), JsonRows.class,
          "arrayElements"));
      OPERATORS.add(table(prefix + "_array_elements_text", List.of(SqlTypeName.VARCHAR), JsonRows.class,
          "arrayElementsText"));
    }
  }

  /** The operator table of these functions, searched before Calcite's. */
  static final SqlOperatorTable TABLE = SqlOperatorTables.of(OPERATORS);

  /** {@code gen_random_uuid()}: a version 4 UUID, new for every row and call ({@code site} numbers the call). */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static java.util.UUID randomUuid(int site) {
    return java.util.UUID.randomUUID();
  }

  /** {@code round(numeric, n)}: half away from zero to n decimals (tens, hundreds, ... for n &lt; 0). */
  public static java.math.BigDecimal round(Object value, int decimals) {
    java.math.BigDecimal d = value instanceof java.math.BigDecimal b ? b : new java.math.BigDecimal(value.toString());
    java.math.BigDecimal rounded = d.setScale(decimals, java.math.RoundingMode.HALF_UP);
    return decimals < 0 ? rounded.setScale(0) : rounded;
  }

  /** {@code trunc(numeric, n)}: toward zero to n decimals (tens, hundreds, ... for n &lt; 0). */
  public static java.math.BigDecimal trunc(Object value, int decimals) {
    java.math.BigDecimal d = value instanceof java.math.BigDecimal b ? b : new java.math.BigDecimal(value.toString());
    java.math.BigDecimal cut = d.setScale(decimals, java.math.RoundingMode.DOWN);
    return decimals < 0 ? cut.setScale(0) : cut;
  }

  /** {@code trunc(numeric)}: the whole part. */
  public static java.math.BigDecimal truncWhole(Object value) {
    return trunc(value, 0);
  }

  /** {@code trunc(double precision)}: the whole part, as a double. */
  public static double truncDouble(double value) {
    return value < 0 ? Math.ceil(value) : Math.floor(value);
  }

  /** {@code random()}: uniform in [0, 1), new for every row and call. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static double random(int site) {
    return java.util.concurrent.ThreadLocalRandom.current().nextDouble();
  }

  /** {@code clock_timestamp()}: the time now, changing within a statement. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long clockTimestamp(int site) {
    return System.currentTimeMillis();
  }

  /** {@code statement_timestamp()}: when the statement began. */
  public static long statementTimestamp(org.apache.calcite.DataContext context) {
    return (Long) context.get(StatementPlanner.ExecutionContext.STATEMENT_TIMESTAMP);
  }

  /** {@code transaction_timestamp()}: when the transaction began, as now() but typed timestamptz. */
  public static long transactionTimestamp(org.apache.calcite.DataContext context) {
    return (Long) context.get(org.apache.calcite.DataContext.Variable.UTC_TIMESTAMP.camelName);
  }
}
