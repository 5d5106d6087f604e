package io.accel.jdbc;

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
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
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

  AccelMeta(AvaticaConnection connection, Session session) {
    super(connection);
    this.session = session;
    this.connProps.setAutoCommit(true)
        .setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
    this.connProps.setDirty(false);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    Optional<Command> command = parseCommand(sql);
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
    return inStatement(h, () -> super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback));
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    Optional<Command> command = parseCommand(sql);
    if (command.isPresent()) {
      StatementHandle h = createStatement(ch);
      h.signature = commandSignature(sql);
      preparedCommands.put(h.id, command.get());
      return h;
    }
    try {
      return super.prepare(ch, sql, maxRowCount);
    } catch (RuntimeException e) {
      throw ErrorTranslator.translate(e);
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
    return inStatement(h, () -> super.execute(h, parameterValues, maxRowsInFirstFrame));
  }

  @Override
  protected long schemaVersion() {
    return session.database().catalog().version();
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
    Lock lock = session.database().schemaLock().readLock();
    lock.lock();
    try {
      session.beginStatement(h.id);
      ExecuteResult result;
      try {
        result = body.run();
      } catch (NoSuchStatementException e) {
        session.statementFailed(h.id);
        throw e;
      } catch (RuntimeException e) {
        session.statementFailed(h.id);
        throw ErrorTranslator.translate(e);
      }
      session.statementSucceeded(h.id);
      return result;
    } finally {
      lock.unlock();
    }
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
    rows.sort(Comparator.comparing((PrimaryKeyRow r) -> r.columnName));
    return rows(PrimaryKeyRow.class, rows, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
        "PK_NAME");
  }

  @Override
  public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema, String table, boolean unique,
      boolean approximate) {
    List<IndexInfoRow> rows = new ArrayList<>();
    for (TableDef t : tables(schema, table)) {
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
    rows.sort(Comparator.comparing((IndexInfoRow r) -> r.nonUnique).thenComparing(r -> r.indexName)
        .thenComparing(r -> r.ordinalPosition));
    return rows(IndexInfoRow.class, rows, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
        "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
        "FILTER_CONDITION");
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
    List<ColumnMetaData> columns = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    List<String> fieldNames = new ArrayList<>();
    for (String name : names) {
      String fieldName = AvaticaUtils.toCamelCase(name);
      try {
        Field field = clazz.getField(fieldName);
        columns.add(MetaImpl.columnMetaData(name, columns.size(), field.getType(), false));
        fields.add(field);
        fieldNames.add(fieldName);
      } catch (NoSuchFieldException e) {
        throw new IllegalStateException(e);
      }
    }
    @SuppressWarnings("unchecked")
    Iterable<Object> iterable = (Iterable<Object>) (Iterable<?>) items;
    return createResultSet(Collections.emptyMap(), columns, CursorFactory.record(clazz, fields, fieldNames),
        new Frame(0, true, iterable));
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
