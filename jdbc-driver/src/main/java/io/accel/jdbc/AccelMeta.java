package io.accel.jdbc;

import io.accel.catalog.Column;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.exec.CommandExecutor;
import io.accel.exec.Session;
import io.accel.exec.StoreRegistry;
import io.accel.plan.AccelSchema;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.CommandParser;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.avatica.Meta.StatementType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.jdbc.AccelMetaBase;

/**
 * The statement lifecycle of an Accel connection, on top of Calcite's: DDL and transaction control run
 * here; queries and DML run through Calcite inside the transaction the {@link Session} gives each
 * statement, holding the schema lock shared so no DDL runs under them; failures roll back what the
 * statement wrote. Also answers the DatabaseMetaData calls Calcite leaves empty (primary keys, indexes).
 */
final class AccelMeta extends AccelMetaBase {
  private final Session session;
  private final Map<Integer, Command> preparedCommands = new ConcurrentHashMap<>();

  /** The plan cache's size when the connection does not set {@code planCacheSize}. */
  static final int DEFAULT_PLAN_CACHE_SIZE = 1000;

  AccelMeta(AvaticaConnection connection, Session session, int planCacheSize) {
    super(connection, planCacheSize, session.database().meters(), session.database().meterTags());
    this.session = session;
    this.connProps.setAutoCommit(true)
        .setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
    this.connProps.setDirty(false);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    Optional<Command> command = parseCommand(sql);
    if (command.isPresent() && command.get() instanceof Command.Explain explain) {
      return inStatement(h, () -> explainResult(h, explain, callback));
    }
    if (command.isPresent()) {
      runCommand(h, command.get());
      try {
        synchronized (callback.getMonitor()) {
          callback.clear();
          callback.assign(commandSignature(sql), null, 0);
        }
        callback.execute();
      } catch (java.sql.SQLException e) {
        throw new RuntimeException(e);
      }
      return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, 0)));
    }
    return inStatement(h, isQuery(sql), () -> super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame,
        callback));
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    Optional<Command> command = parseCommand(sql);
    if (command.isPresent() && command.get() instanceof Command.Explain) {
      throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
          "EXPLAIN cannot be prepared; run it with Statement.executeQuery");
    }
    if (command.isPresent()) {
      StatementHandle h = createStatement(ch);
      h.signature = commandSignature(sql);
      preparedCommands.put(h.id, command.get());
      return h;
    }
    // planning reads the catalog: no DDL may change it meanwhile
    Lock lock = session.database().schemaLock().readLock();
    lock.lock();
    try {
      return super.prepare(ch, sql, maxRowCount);
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
      throws NoSuchStatementException {
    Command command = preparedCommands.get(h.id);
    if (command != null) {
      runCommand(h, command);
      return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, 0)));
    }
    boolean query = h.signature != null && h.signature.statementType == StatementType.SELECT;
    return inStatement(h, query, () -> super.execute(h, parameterValues, maxRowsInFirstFrame));
  }

  /**
   * The version plans are valid for: the catalog's (DDL) and the tables' statistics' (the planner's costs
   * change with them, so a plan made from old statistics is planned again). Both only increase, so the
   * combination changes whenever either does.
   */
  @Override
  protected long planVersion() {
    return session.database().catalog().version() * 1_000_003L + session.database().statistics().version();
  }

  @Override
  protected Optional<List<Object>> bindLiterals(List<org.apache.calcite.avatica.AvaticaParameter> parameters,
      List<io.accel.sql.LiteralNormalizer.Literal> literals) {
    return LiteralBinding.bind(parameters, literals);
  }

  /**
   * PreparedStatement.executeBatch: each parameter set runs as its own statement; when one fails, the
   * failure carries the update counts of those that ran before it (for BatchUpdateException).
   */
  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
      throws NoSuchStatementException {
    long[] counts = new long[parameterValueLists.size()];
    for (int i = 0; i < counts.length; i++) {
      try {
        ExecuteResult result = execute(h, parameterValueLists.get(i), -1);
        counts[i] = batchCount(result.resultSets.size() == 1 ? result.resultSets.get(0).updateCount : -1);
      } catch (RuntimeException e) {
        throw new BatchFailure(Arrays.copyOf(counts, i), e);
      }
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
        counts[i] = batchCount(super.prepareAndExecuteBatch(h, List.of(sqlCommands.get(i))).updateCounts[0]);
      } catch (RuntimeException e) {
        throw new BatchFailure(Arrays.copyOf(counts, i), e);
      }
    }
    return new ExecuteBatchResult(counts);
  }

  private static long batchCount(long updateCount) {
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

  /**
   * The rows of a statement run in a transaction block, readable only while the block lasts: after COMMIT
   * or ROLLBACK the next read fails with 55000, as a closed JDBC result set does, even for rows already
   * evaluated. (Outside a block a statement's snapshot ends only with the statement, which closes its
   * result set; the scans themselves never touch an ended transaction's iterators.)
   */
  @Override
  public Iterable<Object> createIterable(StatementHandle h, org.apache.calcite.avatica.QueryState state,
      Signature signature, List<TypedValue> parameterValues, Frame firstFrame) {
    io.accel.exec.TxnContext ctx = session.blockContext();
    Iterable<Object> rows = super.createIterable(h, state, signature, parameterValues, firstFrame);
    if (ctx == null) {
      return rows;
    }
    java.util.Iterator<Object> all = new LiveRows(rows.iterator(), ctx);
    return () -> all;
  }

  /** Rows that may be read only while the transaction they come from is live. */
  private static final class LiveRows implements java.util.Iterator<Object>, AutoCloseable {
    private final java.util.Iterator<Object> rows;
    private final io.accel.exec.TxnContext ctx;

    LiveRows(java.util.Iterator<Object> rows, io.accel.exec.TxnContext ctx) {
      this.rows = rows;
      this.ctx = ctx;
    }

    @Override
    public boolean hasNext() {
      ctx.checkLive();
      return rows.hasNext();
    }

    @Override
    public Object next() {
      ctx.checkLive();
      return rows.next();
    }

    @Override
    public void close() throws Exception {
      if (rows instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  @Override
  public void closeStatement(StatementHandle h) {
    preparedCommands.remove(h.id);
    session.releaseStatement(h.id);
    super.closeStatement(h);
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
    session.close();
    StoreRegistry.release(session.database());
  }

  private interface StatementBody {
    ExecuteResult run() throws NoSuchStatementException;
  }

  private ExecuteResult inStatement(StatementHandle h, StatementBody body) throws NoSuchStatementException {
    return inStatement(h, false, body);
  }

  /**
   * Whether SQL text is a query (SELECT, WITH, VALUES, TABLE after any comments and parentheses): it cannot
   * write, so outside a transaction block it reads a plain snapshot.
   */
  static boolean isQuery(String sql) {
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        break;
      }
    }
    int j = i;
    while (j < n && Character.isLetter(sql.charAt(j))) {
      j++;
    }
    String word = sql.substring(i, j).toUpperCase(java.util.Locale.ROOT);
    return word.equals("SELECT") || word.equals("WITH") || word.equals("VALUES") || word.equals("TABLE");
  }

  private ExecuteResult inStatement(StatementHandle h, boolean query, StatementBody body)
      throws NoSuchStatementException {
    Lock lock = session.database().schemaLock().readLock();
    lock.lock();
    try {
      session.beginStatement(h.id, query);
      ExecuteResult result;
      try {
        result = body.run();
      } catch (NoSuchStatementException e) {
        session.statementFailed(h.id);
        throw e;
      } catch (RuntimeException | LinkageError e) {
        // LinkageError: generated code whose constant folding failed (1/0) in a static initializer
        session.statementFailed(h.id);
        throw ErrorTranslator.translate(e);
      }
      session.statementSucceeded(h.id);
      return result;
    } finally {
      lock.unlock();
    }
  }

  /** EXPLAIN [ANALYZE]: the plan lines as the statement's result set. */
  private ExecuteResult explainResult(StatementHandle h, Command.Explain explain, PrepareCallback callback) {
    MetaResultSet lines = explain(h, explain.statement(), explain.analyze());
    try {
      synchronized (callback.getMonitor()) {
        callback.clear();
        callback.assign(lines.signature, null, -1);
      }
      callback.execute();
    } catch (java.sql.SQLException e) {
      throw new RuntimeException(e);
    }
    return new ExecuteResult(List.of(MetaResultSet.create(h.connectionId, h.id, false, lines.signature, null)));
  }

  private void runCommand(StatementHandle h, Command command) {
    session.releaseStatement(h.id);
    new CommandExecutor(session).execute(command);
  }

  private static Optional<Command> parseCommand(String sql) {
    try {
      return CommandParser.parse(sql);
    } catch (AccelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
    }
  }

  private static Signature commandSignature(String sql) {
    return Signature.create(List.of(), sql, List.of(), CursorFactory.ARRAY, StatementType.OTHER_DDL);
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
    for (MetaColumn c : calciteColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern)) {
      if (!AccelSchema.NAME.equals(c.tableSchem)) {
        rows.add(ColumnRow.of(c));
      }
    }
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
    return records(ColumnRow.class, rows, columnColumns());
  }

  /** The declared type of a column of one of Accel's tables, or null when there is no such column. */
  DataType declaredType(String schema, String table, String column) {
    if (schema != null && !schema.equals(AccelSchema.NAME) || table == null || column == null) {
      return null;
    }
    return session.database().catalog().table(table)
        .flatMap(t -> t.columnOrdinal(column).map(i -> t.columns().get(i).type()))
        .orElse(null);
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

    static ColumnRow of(MetaColumn c) {
      return new ColumnRow(c.tableSchem, c.tableName, c.columnName, c.dataType, c.typeName, c.columnSize,
          c.decimalDigits, c.numPrecRadix, c.nullable != java.sql.DatabaseMetaData.columnNoNulls, c.columnDef,
          c.charOctetLength, c.ordinalPosition);
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
