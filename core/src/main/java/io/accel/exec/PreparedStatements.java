package io.accel.exec;

import io.accel.catalog.DataType;
import io.accel.cursor.Cursor;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.PositionalParameters;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * One session's SQL-level prepared statements ({@code PREPARE}, {@code EXECUTE}, {@code DEALLOCATE}), what
 * {@code pg_prepared_statements} lists. A statement keeps its text with {@code $n} rewritten as {@code ?} and is
 * prepared again at each EXECUTE through the session's caches, so DDL in between re-plans it as PostgreSQL does.
 */
final class PreparedStatements {
  /** A statement PREPARE named: its engine text, which parameter each {@code ?} binds, and its parameter types. */
  record Named(String name, String text, String sql, int[] order, List<String> parameterTypes, Instant prepareTime,
      long[] executions) {
  }

  private final Map<String, Named> statements = new LinkedHashMap<>();
  /** Names a frontend's own prepared statements use (the protocol's), which share PostgreSQL's one name space. */
  private java.util.function.Predicate<String> frontendNames = name -> false;

  void frontendNames(java.util.function.Predicate<String> names) {
    frontendNames = names;
  }

  boolean contains(String name) {
    return statements.containsKey(name);
  }

  /** PREPARE: checks and plans the statement now, as PostgreSQL analyses it at PREPARE. */
  void prepare(Session session, String text, Command.PrepareStatement command) {
    if (statements.containsKey(command.name()) || frontendNames.test(command.name())) {
      throw new AccelException(SqlState.DUPLICATE_PREPARED_STATEMENT, "prepared statement \"" + command.name()
          + "\" already exists");
    }
    List<DataType> declared = command.types();
    // the declared types are the parameters' types, as in PostgreSQL: each declared $n is cast to its type; a
    // parameter Calcite cannot type alone ("SELECT $1") is text, as PostgreSQL types an unknown parameter; last,
    // the statement as written (a declared type Calcite's CAST does not take)
    List<java.util.function.IntFunction<String>> attempts = List.of(
        n -> n <= declared.size() ? castName(declared.get(n - 1)) : null,
        n -> n <= declared.size() ? castName(declared.get(n - 1)) : "VARCHAR",
        n -> null);
    PositionalParameters positions = null;
    Prepared prepared = null;
    AccelException first = null;
    for (java.util.function.IntFunction<String> castTo : attempts) {
      try {
        positions = PositionalParameters.of(command.statement(), castTo);
        prepared = session.prepare(positions.sql());
        if (!untyped(prepared)) {
          break;
        }
        prepared = null;
      } catch (AccelException e) {
        first = first == null ? e : first;
      }
      if (positions == null || positions.count() == 0) {
        break; // the text did not read ($0: its error), or no parameter: nothing to cast
      }
    }
    if (prepared == null) {
      throw first != null ? first : new AccelException(SqlState.INDETERMINATE_DATATYPE,
          "could not determine data type of parameter");
    }
    if (positions.count() == 0 && !prepared.parameters().isEmpty()) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"?\"");
    }
    int count = Math.max(declared.size(), positions.count());
    List<String> types = new ArrayList<>();
    for (int n = 1; n <= count; n++) {
      types.add(n <= declared.size() ? typeName(declared.get(n - 1)) : inferred(prepared, positions.order(), n));
    }
    statements.put(command.name(), new Named(command.name(), text, positions.sql(), positions.order(),
        List.copyOf(types), Instant.now(), new long[1]));
  }

  /** A declared type as a CAST names it (PostgreSQL's names where Calcite's differ: the session's type aliases). */
  private static String castName(DataType type) {
    return switch (type.kind()) {
      case TIMESTAMPTZ -> "timestamptz";
      case BYTEA -> "bytea";
      case JSON -> "json";
      case JSONB -> "jsonb";
      case TEXT -> "text";
      default -> type.sqlName();
    };
  }

  private static boolean untyped(Prepared prepared) {
    for (AvaticaParameter p : prepared.parameters()) {
      if (p.parameterType == java.sql.Types.OTHER || p.parameterType == java.sql.Types.NULL
          || p.parameterType == java.sql.Types.JAVA_OBJECT) {
        return true;
      }
    }
    return false;
  }

  Named get(String name) {
    Named n = statements.get(name);
    if (n == null) {
      throw new AccelException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name
          + "\" does not exist");
    }
    return n;
  }

  void deallocate(java.util.Optional<String> name) {
    if (name.isEmpty()) {
      statements.clear();
    } else if (statements.remove(name.get()) == null) {
      throw new AccelException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name.get()
          + "\" does not exist");
    }
  }

  List<Named> all() {
    return List.copyOf(statements.values());
  }

  /** EXECUTE's statement: the named one prepared again (a cache hit unless DDL or statistics changed). */
  Prepared statementOf(Session session, Command.ExecuteStatement execute) {
    Named named = get(execute.name());
    if (execute.arguments().size() != named.parameterTypes().size()) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "wrong number of parameters for prepared statement \""
          + named.name() + "\"").withDetail("Expected " + named.parameterTypes().size() + " parameters but got "
          + execute.arguments().size() + ".");
    }
    return session.prepare(named.sql());
  }

  /**
   * The parameters of EXECUTE itself: an argument that is a frontend's parameter ({@code EXECUTE p($1)} over the
   * extended protocol, {@code ?} by then) takes the type of the statement's parameter it fills.
   */
  List<AvaticaParameter> parametersOf(Command.ExecuteStatement execute, Prepared statement) {
    Named named = get(execute.name());
    List<AvaticaParameter> parameters = new ArrayList<>();
    for (int n = 1; n <= execute.arguments().size(); n++) {
      if (execute.arguments().get(n - 1).strip().equals("?")) {
        AvaticaParameter target = target(named.order(), statement, n);
        parameters.add(target != null ? target : new AvaticaParameter(false, 0, 0, java.sql.Types.VARCHAR,
            "VARCHAR", String.class.getName(), "?"));
      }
    }
    return parameters;
  }

  private static AvaticaParameter target(int[] order, Prepared statement, int n) {
    for (int i = 0; i < order.length; i++) {
      if (order[i] == n && i < statement.parameters().size()) {
        return statement.parameters().get(i);
      }
    }
    return null;
  }

  private static final Pattern NUMBER = Pattern.compile("[+-]?\\s*(\\d+\\.?\\d*([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?)");
  private static final Pattern STRING = Pattern.compile("'((?:[^']|'')*)'");

  /**
   * EXECUTE's arguments as the values of {@code statement}'s {@code ?}s: literals as their text (as PostgreSQL
   * reads an unknown-typed literal with the parameter type's input function), other expressions evaluated first.
   */
  List<TypedValue> arguments(Session session, Command.ExecuteStatement execute, Prepared statement,
      List<TypedValue> given) {
    Named named = get(execute.name());
    named.executions()[0]++;
    TypedValue[] values = new TypedValue[execute.arguments().size()];
    int[] order = named.order();
    int next = 0;
    for (int n = 1; n <= values.length; n++) {
      String text = execute.arguments().get(n - 1);
      if (text.strip().equals("?")) {
        if (next >= given.size()) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "no value specified for parameter " + (next + 1));
        }
        values[n - 1] = given.get(next++); // converted to the parameter's type by the statement's execution
        continue;
      }
      String v = argument(session, text, target(order, statement, n), n, named.parameterTypes().get(n - 1));
      values[n - 1] = v == null ? TypedValue.ofLocal(ColumnMetaData.Rep.OBJECT, null)
          : TypedValue.ofLocal(ColumnMetaData.Rep.STRING, v);
    }
    List<TypedValue> bound = new ArrayList<>();
    for (int i = 0; i < order.length; i++) {
      bound.add(values[order[i] - 1]);
    }
    return bound;
  }

  /** One argument as text for its parameter (null for SQL NULL). */
  private static String argument(Session session, String text, AvaticaParameter target, int n, String typeName) {
    String t = text.strip();
    java.util.regex.Matcher string = STRING.matcher(t);
    if (string.matches()) {
      return string.group(1).replace("''", "'");
    }
    if (t.equalsIgnoreCase("null")) {
      return null;
    }
    if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
      return t.toLowerCase(Locale.ROOT);
    }
    if (NUMBER.matcher(t).matches()) {
      String number = t.replaceAll("\\s+", "");
      if (target != null && isInteger(target.parameterType) && !number.matches("[+-]?\\d+")) {
        // numeric to an integer type rounds, as PostgreSQL's assignment cast does
        return new BigDecimal(number).setScale(0, RoundingMode.HALF_UP).toPlainString();
      }
      return number;
    }
    // an expression: evaluated as a query of one value, then handed over in text form
    Object key = new Object();
    try {
      Prepared select = session.prepare("SELECT " + t);
      if (select.columns().size() != 1 || select.parameters().size() > 0) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + t + "\"");
      }
      ColumnMetaData column = select.columns().get(0);
      if (target != null && isText(column.type.id) && !isText(target.parameterType)) {
        throw new AccelException(SqlState.DATATYPE_MISMATCH, "parameter $" + n + " of type text cannot be coerced"
            + " to the expected type " + typeName).withHint("You will need to rewrite or cast the expression.");
      }
      Result result = session.execute(key, select, List.of(), new AtomicBoolean(), 0);
      Cursor cursor = result.cursor();
      Object row = cursor.next();
      Object value = row instanceof Object[] a ? a[0] : row;
      cursor.close();
      return value == null ? null : PgText.format(value, column, session.timeZone().toZoneId());
    } finally {
      session.releaseStatement(key);
    }
  }

  private static boolean isInteger(int type) {
    return type == java.sql.Types.INTEGER || type == java.sql.Types.BIGINT || type == java.sql.Types.SMALLINT
        || type == java.sql.Types.TINYINT;
  }

  private static boolean isText(int type) {
    return type == java.sql.Types.VARCHAR || type == java.sql.Types.CHAR || type == java.sql.Types.LONGVARCHAR;
  }

  private static String inferred(Prepared prepared, int[] order, int n) {
    for (int i = 0; i < order.length; i++) {
      if (order[i] == n && i < prepared.parameters().size()) {
        return typeName(prepared.parameters().get(i).parameterType);
      }
    }
    return "text";
  }

  /** A declared type as PostgreSQL's regtype prints it. */
  private static String typeName(DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> "smallint";
      case INTEGER -> "integer";
      case BIGINT -> "bigint";
      case NUMERIC -> "numeric";
      case REAL -> "real";
      case DOUBLE -> "double precision";
      case BOOLEAN -> "boolean";
      case CHAR -> "character";
      case VARCHAR -> "character varying";
      case TEXT -> "text";
      case DATE -> "date";
      case TIME -> "time without time zone";
      case TIMESTAMP -> "timestamp without time zone";
      case TIMESTAMPTZ -> "timestamp with time zone";
      case BYTEA -> "bytea";
      case UUID -> "uuid";
      case JSON -> "json";
      case JSONB -> "jsonb";
    };
  }

  private static String typeName(int sqlType) {
    return switch (sqlType) {
      case java.sql.Types.SMALLINT, java.sql.Types.TINYINT -> "smallint";
      case java.sql.Types.INTEGER -> "integer";
      case java.sql.Types.BIGINT -> "bigint";
      case java.sql.Types.NUMERIC, java.sql.Types.DECIMAL -> "numeric";
      case java.sql.Types.REAL, java.sql.Types.FLOAT -> "real";
      case java.sql.Types.DOUBLE -> "double precision";
      case java.sql.Types.BOOLEAN -> "boolean";
      case java.sql.Types.DATE -> "date";
      case java.sql.Types.TIME -> "time without time zone";
      case java.sql.Types.TIMESTAMP -> "timestamp without time zone";
      case java.sql.Types.TIMESTAMP_WITH_TIMEZONE -> "timestamp with time zone";
      case java.sql.Types.BINARY, java.sql.Types.VARBINARY -> "bytea";
      default -> "text";
    };
  }
}
