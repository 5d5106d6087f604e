package io.accel.exec;

import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.SqlState;
import java.sql.Types;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.avatica.ColumnMetaData;

/**
 * {@code CREATE TABLE name [(columns)] AS query [WITH [NO] DATA]}, as PostgreSQL runs it: a table with one column
 * per result column (named by the list, else by the result's labels; a column read straight from a table keeps its
 * declared type, a computed one gets the type of its value), then the query's rows inserted. A failing insert drops
 * the new table again, so nothing is left half made.
 */
final class CreateTableAs {
  private CreateTableAs() {
  }

  /** Runs the command in {@code session}; returns the number of rows inserted. */
  static long run(Session session, Object statementKey, Command.CreateTableAs c) {
    var catalog = session.database().catalog();
    if (catalog.table(c.name()).isPresent() || catalog.view(c.name()).isPresent()) {
      if (c.ifNotExists()) {
        return 0;
      }
      throw new AccelException(SqlState.DUPLICATE_TABLE, "relation \"" + c.name() + "\" already exists");
    }
    Prepared query = session.prepare(c.query());
    if (query.kind() != Prepared.Kind.QUERY || query.command() != null) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + firstWord(c.query()) + "\"");
    }
    List<ColumnMetaData> columns = query.columns();
    if (c.columns().size() > columns.size()) {
      throw new AccelException(SqlState.SYNTAX_ERROR, "too many column names were specified");
    }
    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(quote(c.name())).append(" (");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < columns.size(); i++) {
      ColumnMetaData column = columns.get(i);
      String name = i < c.columns().size() ? c.columns().get(i) : column.label;
      if (!names.add(name)) {
        throw new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + name + "\" specified more than once");
      }
      ddl.append(i == 0 ? "" : ", ").append(quote(name)).append(' ').append(typeOf(session, column));
    }
    session.execute(statementKey, ddl.append(')').toString());
    if (!c.withData()) {
      return 0;
    }
    try {
      return session.execute(statementKey, "INSERT INTO " + quote(c.name()) + " " + c.query()).updateCount();
    } catch (RuntimeException e) {
      try {
        session.execute(statementKey, "DROP TABLE IF EXISTS " + quote(c.name()));
      } catch (RuntimeException dropFailed) {
        e.addSuppressed(dropFailed);
      }
      throw e;
    }
  }

  /** The declared type of a column read straight from a table, else the type of the computed values. */
  private static String typeOf(Session session, ColumnMetaData c) {
    if (c.tableName != null && c.columnName != null && io.accel.plan.AccelSchema.NAME.equals(c.schemaName)) {
      TableDef t = session.database().catalog().table(c.tableName).orElse(null);
      int ordinal = t == null ? -1 : t.columnOrdinal(c.columnName).orElse(-1);
      if (ordinal >= 0) {
        DataType declared = t.columns().get(ordinal).type();
        return declared.sqlName();
      }
    }
    String name = c.type.name == null ? "" : c.type.name.toUpperCase(Locale.ROOT);
    return switch (c.type.id) {
      case Types.BOOLEAN, Types.BIT -> "BOOLEAN";
      case Types.TINYINT, Types.SMALLINT -> "SMALLINT";
      case Types.INTEGER -> "INTEGER";
      case Types.BIGINT -> "BIGINT";
      case Types.REAL -> "REAL";
      case Types.FLOAT, Types.DOUBLE -> "DOUBLE PRECISION";
      case Types.DECIMAL, Types.NUMERIC -> "NUMERIC";
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.CLOB -> name.contains("JSONB") ? "JSONB"
          : name.contains("JSON") ? "JSON" : "TEXT";
      case Types.DATE -> "DATE";
      case Types.TIME -> "TIME";
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> PgText.isTimestampTz(c.type) ? "TIMESTAMPTZ"
          : "TIMESTAMP";
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> "BYTEA";
      default -> {
        if (name.equals("UUID")) {
          yield "UUID";
        }
        if (PgText.isTimestampTz(c.type)) {
          yield "TIMESTAMPTZ";
        }
        throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "column \"" + c.label + "\" has type "
            + (c.type.name == null ? "unknown" : c.type.name.toLowerCase(Locale.ROOT))
            + ", which a table of Accel cannot hold");
      }
    };
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static String firstWord(String sql) {
    String t = sql.strip();
    int end = 0;
    while (end < t.length() && !Character.isWhitespace(t.charAt(end))) {
      end++;
    }
    return t.substring(0, end);
  }
}
