package io.accel.jdbc;

import io.accel.catalog.Column;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.cursor.Cursor;
import io.accel.exec.Prepared;
import io.accel.exec.Result;
import io.accel.exec.Session;
import io.accel.exec.StoreRegistry;
import io.accel.plan.AccelSchema;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.lang.reflect.Field;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * Avatica's Meta over core's engine API: every statement is prepared and run by the connection's
 * {@link Session} (plan cache, parameter conversion, transactions, DDL, EXPLAIN, error translation all
 * live there); this class maps Avatica's statement handles onto the session's statement keys and its result
 * sets onto core's cursors, and answers DatabaseMetaData from the catalog.
 */
final class AccelMeta extends MetaImpl {
  private final Session session;
  private final Map<Integer, Prepared> prepared = new ConcurrentHashMap<>();
  /** The cursor of each statement's last execution, until Avatica's result set asks for it. */
  private final Map<Integer, Cursor> cursors = new ConcurrentHashMap<>();

  AccelMeta(AvaticaConnection connection, Session session) {
    super(connection);
    this.session = session;
    this.connProps.setAutoCommit(true)
        .setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
    this.connProps.setDirty(false);
  }

  Session session() {
    return session;
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    Prepared p = session.prepare(sql, maxRowCount);
    StatementHandle h = createStatement(ch);
    h.signature = p.signature();
    prepared.put(h.id, p);
    return h;
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return prepareAndExecute(h, sql, maxRowCount, -1, callback);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    Prepared p = session.prepare(sql, maxRowCount);
    prepared.put(h.id, p);
    h.signature = p.signature();
    MetaResultSet result = run(h, p, List.of());
    try {
      synchronized (callback.getMonitor()) {
        callback.clear();
        callback.assign(result.signature, null, result.updateCount);
      }
      callback.execute();
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
    return new ExecuteResult(List.of(result));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, long maxRowCount)
      throws NoSuchStatementException {
    return execute(h, parameterValues, (int) Math.min(maxRowCount, Integer.MAX_VALUE));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
      throws NoSuchStatementException {
    Prepared p = prepared.get(h.id);
    if (p == null) {
      throw new NoSuchStatementException(h);
    }
    return new ExecuteResult(List.of(run(h, p, parameterValues == null ? List.of() : parameterValues)));
  }

  /** Closes the cursor of the statement's previous run, if it left one open. */
  private void closeCursor(StatementHandle h) {
    Cursor previous = cursors.remove(h.id);
    if (previous != null) {
      previous.close();
    }
  }

  /** Runs a statement through the session; a query's cursor waits for Avatica's result set. */
  private MetaResultSet run(StatementHandle h, Prepared p, List<TypedValue> parameterValues) {
    closeCursor(h);
    Result result = session.execute(h.id, p, parameterValues, cancelFlag(h), queryTimeoutMillis(h));
    if (result.hasRows()) {
      AvaticaStatement statement = statement(h);
      try {
        if (statement != null && statement.getResultSetHoldability() == java.sql.ResultSet.HOLD_CURSORS_OVER_COMMIT) {
          session.hold(result.cursor());
        }
      } catch (SQLException closed) {
        // a closed statement's result set is closed anyway
      }
      cursors.put(h.id, result.cursor());
      return MetaResultSet.create(h.connectionId, h.id, false, result.signature(), null);
    }
    return MetaResultSet.count(h.connectionId, h.id, result.updateCount());
  }

  private AtomicBoolean cancelFlag(StatementHandle h) {
    try {
      return connection.getCancelFlag(h);
    } catch (NoSuchStatementException e) {
      return new AtomicBoolean();
    }
  }

  private long queryTimeoutMillis(StatementHandle h) {
    AvaticaStatement statement = statement(h);
    try {
      return statement == null ? 0 : statement.getQueryTimeout() * 1000L;
    } catch (SQLException e) {
      return 0;
    }
  }

  private AvaticaStatement statement(StatementHandle h) {
    return ((AccelJdbcFactory.AccelConnection) connection).statement(h);
  }

  @Override
  public Iterable<Object> createIterable(StatementHandle h, QueryState state, Signature signature,
      List<TypedValue> parameterValues, Frame firstFrame) {
    Cursor cursor = h == null ? null : cursors.remove(h.id);
    if (cursor != null) {
      return () -> cursor;
    }
    return super.createIterable(h, state, signature, parameterValues, firstFrame);
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount) {
    // result sets read their cursor directly (createIterable); there is no remote fetch
    return Frame.EMPTY;
  }

  @Override
  public boolean syncResults(StatementHandle h, QueryState state, long offset) {
    return false;
  }

  /**
   * PreparedStatement.executeBatch: an INSERT ... VALUES batch runs as one statement (Session#executeBatch);
   * otherwise, or when that fails, each parameter set runs as its own statement, and when one fails the failure
   * carries the update counts of those that ran before it (for BatchUpdateException). Outside a transaction
   * block the batch is one transaction, as in PostgreSQL: a failure leaves none of its changes.
   */
  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
      throws NoSuchStatementException {
    Prepared p = prepared.get(h.id);
    if (p == null) {
      throw new NoSuchStatementException(h);
    }
    closeCursor(h);
    long[] batched;
    try {
      batched = session.executeBatch(h.id, p, parameterValueLists, cancelFlag(h), queryTimeoutMillis(h));
    } catch (RuntimeException e) {
      throw new BatchFailure(new long[0], e);
    }
    if (batched != null) {
      for (int i = 0; i < batched.length; i++) {
        batched[i] = batchCount(batched[i]);
      }
      return new ExecuteBatchResult(batched);
    }
    // outside a block the batch is one transaction, as pgJDBC's (one Sync): a failure keeps none of its rows
    boolean atomic = !session.inTransactionBlock();
    if (atomic) {
      session.begin();
    }
    long[] counts = new long[parameterValueLists.size()];
    int i = 0;
    try {
      for (; i < counts.length; i++) {
        ExecuteResult result = execute(h, parameterValueLists.get(i), -1);
        counts[i] = batchCount(result.resultSets.get(0).updateCount);
      }
      if (atomic) {
        session.commit();
      }
    } catch (RuntimeException e) {
      if (atomic) {
        try {
          session.rollback();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new BatchFailure(Arrays.copyOf(counts, i), e);
    }
    return new ExecuteBatchResult(counts);
  }

  /** Statement.executeBatch: as {@link #executeBatch}, one SQL text after the other. */
  @Override
  public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
      throws NoSuchStatementException {
    long[] counts = new long[sqlCommands.size()];
    for (int i = 0; i < counts.length; i++) {
      try {
        Prepared p = session.prepare(sqlCommands.get(i), -1);
        prepared.put(h.id, p);
        counts[i] = batchCount(run(h, p, List.of()).updateCount);
      } catch (RuntimeException e) {
        throw new BatchFailure(Arrays.copyOf(counts, i), e);
      }
    }
    return new ExecuteBatchResult(counts);
  }

  private long batchCount(long updateCount) {
    if (updateCount < 0) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED, "a statement of a batch returned a result set;"
          + " batches may hold only INSERT, UPDATE, DELETE and DDL statements");
    }
    return updateCount;
  }

  /** A failed batch: the cause is the failure, {@link #updateCounts} what the statements before it did. */
  static final class BatchFailure extends RuntimeException {
    private final long[] updateCounts;

    BatchFailure(long[] updateCounts, RuntimeException cause) {
      super(cause.getMessage(), cause);
      this.updateCounts = updateCounts;
    }

    long[] updateCounts() {
      return updateCounts.clone();
    }
  }

  @Override
  public void closeStatement(StatementHandle h) {
    prepared.remove(h.id);
    Cursor cursor = cursors.remove(h.id);
    if (cursor != null) {
      cursor.close();
    }
    session.releaseStatement(h.id);
  }

  @Override
  public void commit(ConnectionHandle ch) {
    session.commit();
  }

  @Override
  public void rollback(ConnectionHandle ch) {
    session.rollback();
  }

  @Override
  public ConnectionProperties connectionSync(ConnectionHandle ch, ConnectionProperties props) {
    if (props.isAutoCommit() != null) {
      session.setAutoCommit(props.isAutoCommit());
    }
    return super.connectionSync(ch, props);
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    super.closeConnection(ch);
    for (Cursor cursor : cursors.values()) {
      cursor.close();
    }
    cursors.clear();
    prepared.clear();
    session.close();
    StoreRegistry.release(session.database());
  }

  // ---- DatabaseMetaData, from the catalog ----

  @Override
  public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    return Map.of();
  }

  /** DatabaseMetaData.getTables: ordered by TABLE_TYPE, TABLE_CAT, TABLE_SCHEM and TABLE_NAME. */
  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      List<String> typeList) {
    List<MetaTable> tables = new ArrayList<>();
    if (matchesSchema(catalog, schemaPattern) && (typeList == null || typeList.contains("TABLE"))) {
      for (TableDef t : session.database().catalog().tables()) {
        if (like(tableNamePattern.s, t.name())) {
          tables.add(new MetaTable(null, AccelSchema.NAME, t.name(), "TABLE"));
        }
      }
    }
    tables.sort(Comparator.comparing((MetaTable t) -> t.tableName));
    return records(MetaTable.class, tables, List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE",
        "REMARKS", "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"));
  }

  @Override
  public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
    List<MetaSchema> schemas = matchesSchema(catalog, schemaPattern)
        ? List.of(new MetaSchema(null, AccelSchema.NAME)) : List.of();
    return records(MetaSchema.class, schemas, List.of("TABLE_SCHEM", "TABLE_CATALOG"));
  }

  @Override
  public MetaResultSet getCatalogs(ConnectionHandle ch) {
    return records(MetaCatalog.class, List.of(), List.of("TABLE_CAT"));
  }

  @Override
  public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return records(MetaTableType.class, List.of(new MetaTableType("TABLE")), List.of("TABLE_TYPE"));
  }

  /** The types a column can be declared with, as {@code DatabaseMetaData.getTypeInfo} lists them. */
  @Override
  public MetaResultSet getTypeInfo(ConnectionHandle ch) {
    List<MetaTypeInfo> types = new ArrayList<>();
    for (ColumnType kind : ColumnType.values()) {
      int jdbc = kind.sqlTypeName().getJdbcOrdinal();
      boolean text = kind == ColumnType.CHAR || kind == ColumnType.VARCHAR;
      boolean numeric = switch (kind) {
        case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> true;
        default -> false;
      };
      String name = kind == ColumnType.NUMERIC ? "DECIMAL" : kind.sqlTypeName().getName();
      if (kind == ColumnType.UUID) {
        name = "UUID";
      } else if (kind == ColumnType.TIMESTAMPTZ) {
        name = "TIMESTAMP WITH TIME ZONE";
      }
      types.add(new MetaTypeInfo(name, jdbc, kind == ColumnType.NUMERIC ? 1000 : null, text ? "'" : null,
          text ? "'" : null, (short) DatabaseMetaData.typeNullable, text, (short) DatabaseMetaData.typeSearchable,
          !numeric, kind == ColumnType.NUMERIC, false, (short) 0, kind == ColumnType.NUMERIC ? (short) 1000 : (short) 0,
          numeric ? 10 : 0));
    }
    types.sort(Comparator.comparingInt((MetaTypeInfo t) -> t.dataType));
    return records(MetaTypeInfo.class, types, List.of("TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX",
        "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE",
        "FIXED_PREC_SCALE", "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE",
        "SQL_DATETIME_SUB", "NUM_PREC_RADIX"));
  }

  private static boolean matchesSchema(String catalog, Pat schemaPattern) {
    return (catalog == null || catalog.isEmpty()) && like(schemaPattern.s, AccelSchema.NAME);
  }

  /** A metadata result set whose rows are the public fields of {@code items}, named as in {@code names}. */
  private <E> MetaResultSet records(Class<?> clazz, List<E> items, List<String> names) {
    List<ColumnMetaData> columns = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    List<String> fieldNames = new ArrayList<>();
    for (String name : names) {
      String fieldName = AvaticaUtils.toCamelCase(name);
      Field field;
      try {
        field = clazz.getField(fieldName);
      } catch (NoSuchFieldException e) {
        try {
          field = clazz.getDeclaredField(fieldName);
        } catch (NoSuchFieldException e2) {
          throw new IllegalStateException(e2);
        }
      }
      columns.add(MetaImpl.columnMetaData(name, columns.size(), field.getType(), false));
      fields.add(field);
      fieldNames.add(fieldName);
    }
    @SuppressWarnings("unchecked")
    Iterable<Object> iterable = (Iterable<Object>) (Iterable<?>) items;
    return createResultSet(Collections.emptyMap(), columns, CursorFactory.record(clazz, fields, fieldNames),
        new Frame(0, true, iterable));
  }

  @Override
  public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema, String table) {
    List<PrimaryKeyRow> rows = new ArrayList<>();
    for (TableDef t : tables(schema, table)) {
      for (int i = 0; i < t.primaryKey().size(); i++) {
        rows.add(new PrimaryKeyRow(t.name(), t.columns().get(t.primaryKey().get(i)).name(), (short) (i + 1),
            t.name() + "_pkey"));
      }
    }
    rows.sort(Comparator.comparing((PrimaryKeyRow r) -> r.tableName).thenComparing(r -> r.columnName));
    return rows(PrimaryKeyRow.class, rows, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
        "PK_NAME");
  }

  @Override
  public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema, String table, boolean unique,
      boolean approximate) {
    List<IndexInfoRow> rows = new ArrayList<>();
    for (TableDef t : tables(schema, table)) {
      // the primary key is the table's unique index, as PostgreSQL reports it
      for (int i = 0; i < t.primaryKey().size(); i++) {
        rows.add(new IndexInfoRow(t.name(), false, t.name() + "_pkey", (short) (i + 1),
            t.columns().get(t.primaryKey().get(i)).name(), "A"));
      }
      for (IndexDef index : t.indexes()) {
        if (unique && !index.unique()) {
          continue;
        }
        for (int i = 0; i < index.columns().size(); i++) {
          IndexColumn ic = index.columns().get(i);
          rows.add(new IndexInfoRow(t.name(), !index.unique(), index.name(), (short) (i + 1),
              t.columns().get(ic.column()).name(), ic.descending() ? "D" : "A"));
        }
      }
    }
    rows.sort(Comparator.comparing((IndexInfoRow r) -> r.nonUnique).thenComparing(r -> r.tableName)
        .thenComparing(r -> r.indexName).thenComparing(r -> r.ordinalPosition));
    return rows(IndexInfoRow.class, rows, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
        "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
        "FILTER_CONDITION");
  }

  /**
   * DatabaseMetaData.getColumns. Accel's own tables are described from its catalog, which knows what
   * Calcite's row types do not: declared lengths of VARCHAR, the declared type names, DEFAULT expressions.
   */
  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      Pat columnNamePattern) {
    List<ColumnRow> rows = new ArrayList<>();
    if ((catalog == null || catalog.isEmpty()) && like(schemaPattern.s, AccelSchema.NAME)) {
      for (TableDef t : session.database().catalog().tables()) {
        if (!like(tableNamePattern.s, t.name())) {
          continue;
        }
        for (int i = 0; i < t.columns().size(); i++) {
          Column column = t.columns().get(i);
          if (like(columnNamePattern.s, column.name())) {
            rows.add(ColumnRow.of(t.name(), column, i + 1));
          }
        }
      }
    }
    rows.sort(Comparator.comparing((ColumnRow r) -> r.tableSchem, Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(r -> r.tableName).thenComparing(r -> r.ordinalPosition));
    return records(ColumnRow.class, rows, List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
        "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE",
        "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION",
        "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTOINCREMENT",
        "IS_GENERATEDCOLUMN"));
  }

  /** Whether {@code value} matches a JDBC search pattern ({@code %}, {@code _}, {@code \} escapes); null matches all. */
  static boolean like(String pattern, String value) {
    if (pattern == null) {
      return true;
    }
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char ch = pattern.charAt(i);
      if (ch == '\\' && i + 1 < pattern.length()) {
        regex.append(java.util.regex.Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (ch == '%') {
        regex.append(".*");
      } else if (ch == '_') {
        regex.append('.');
      } else {
        regex.append(java.util.regex.Pattern.quote(String.valueOf(ch)));
      }
    }
    return value.matches(regex.toString());
  }

  private List<TableDef> tables(String schema, String table) {
    if (schema != null && !schema.equals(AccelSchema.NAME)) {
      return List.of();
    }
    return session.database().catalog().tables().stream()
        .filter(t -> table == null || t.name().equals(table))
        .sorted(Comparator.comparing(TableDef::name))
        .toList();
  }

  private <E> MetaResultSet rows(Class<E> clazz, List<E> items, String... names) {
    return records(clazz, items, List.of(names));
  }

  /** A row of {@link java.sql.DatabaseMetaData#getColumns}. */
  public static final class ColumnRow {
    public final String tableCat = null;
    public final String tableSchem;
    public final String tableName;
    public final String columnName;
    public final int dataType;
    public final String typeName;
    public final Integer columnSize;
    public final Integer bufferLength = null;
    public final Integer decimalDigits;
    public final Integer numPrecRadix;
    public final int nullable;
    public final String remarks = null;
    public final String columnDef;
    public final Integer sqlDataType = null;
    public final Integer sqlDatetimeSub = null;
    public final Integer charOctetLength;
    public final int ordinalPosition;
    public final String isNullable;
    public final String scopeCatalog = null;
    public final String scopeSchema = null;
    public final String scopeTable = null;
    public final Short sourceDataType = null;
    public final String isAutoincrement = "NO";
    public final String isGeneratedcolumn = "NO";

    private ColumnRow(String tableSchem, String tableName, String columnName, int dataType, String typeName,
        Integer columnSize, Integer decimalDigits, Integer numPrecRadix, boolean nullable, String columnDef,
        Integer charOctetLength, int ordinalPosition) {
      this.tableSchem = tableSchem;
      this.tableName = tableName;
      this.columnName = columnName;
      this.dataType = dataType;
      this.typeName = typeName;
      this.columnSize = columnSize;
      this.decimalDigits = decimalDigits;
      this.numPrecRadix = numPrecRadix;
      this.nullable = nullable ? java.sql.DatabaseMetaData.columnNullable : java.sql.DatabaseMetaData.columnNoNulls;
      this.isNullable = nullable ? "YES" : "NO";
      this.columnDef = columnDef;
      this.charOctetLength = charOctetLength;
      this.ordinalPosition = ordinalPosition;
    }

    static ColumnRow of(String table, Column column, int ordinal) {
      DataType type = column.type();
      ColumnType kind = type.kind();
      String typeName = type.sqlName().replaceAll("\\(.*\\)", "");
      Integer size = switch (kind) {
        case SMALLINT -> 5;
        case INTEGER -> 10;
        case BIGINT -> 19;
        case NUMERIC -> type.precision() < 0 ? null : type.precision();
        case REAL -> 7;
        case DOUBLE -> 15;
        case BOOLEAN -> 1;
        case CHAR -> type.precision() < 0 ? 1 : type.precision();
        case VARCHAR -> type.precision() < 0 ? null : type.precision();
        case DATE -> 10;
        case TIME -> 12;
        case TIMESTAMP -> 23;
        case TIMESTAMPTZ -> 29;
        case UUID -> 36;
        default -> null;
      };
      Integer digits = switch (kind) {
        case SMALLINT, INTEGER, BIGINT -> 0;
        case NUMERIC -> type.precision() < 0 ? null : Math.max(type.scale(), 0);
        case TIME, TIMESTAMP, TIMESTAMPTZ -> 3;
        default -> null;
      };
      Integer radix = switch (kind) {
        case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> 10;
        default -> null;
      };
      Integer octets = switch (kind) {
        case CHAR, VARCHAR -> size == null ? null : size * 4;
        default -> null;
      };
      return new ColumnRow(AccelSchema.NAME, table, column.name(), kind.sqlTypeName().getJdbcOrdinal(), typeName,
          size, digits, radix, column.nullable(), column.defaultSql().orElse(null), octets, ordinal);
    }
  }

  /** A row of {@link java.sql.DatabaseMetaData#getPrimaryKeys}. */
  public static final class PrimaryKeyRow {
    public final String tableCat = null;
    public final String tableSchem = AccelSchema.NAME;
    public final String tableName;
    public final String columnName;
    public final short keySeq;
    public final String pkName;

    PrimaryKeyRow(String tableName, String columnName, short keySeq, String pkName) {
      this.tableName = tableName;
      this.columnName = columnName;
      this.keySeq = keySeq;
      this.pkName = pkName;
    }
  }

  /** A row of {@link java.sql.DatabaseMetaData#getIndexInfo}. */
  public static final class IndexInfoRow {
    public final String tableCat = null;
    public final String tableSchem = AccelSchema.NAME;
    public final String tableName;
    public final boolean nonUnique;
    public final String indexQualifier = null;
    public final String indexName;
    public final short type = java.sql.DatabaseMetaData.tableIndexOther;
    public final short ordinalPosition;
    public final String columnName;
    public final String ascOrDesc;
    public final long cardinality = -1;
    public final long pages = -1;
    public final String filterCondition = null;

    IndexInfoRow(String tableName, boolean nonUnique, String indexName, short ordinalPosition, String columnName,
        String ascOrDesc) {
      this.tableName = tableName;
      this.nonUnique = nonUnique;
      this.indexName = indexName;
      this.ordinalPosition = ordinalPosition;
      this.columnName = columnName;
      this.ascOrDesc = ascOrDesc;
    }
  }
}
