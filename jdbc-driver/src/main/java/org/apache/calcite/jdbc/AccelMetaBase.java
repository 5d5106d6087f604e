package org.apache.calcite.jdbc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.lang.reflect.Field;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Lets Accel's Meta extend Calcite's (CalciteMetaImpl's constructor takes the package-private
 * CalciteConnectionImpl, which only code in this package can name), and keeps a per-connection cache
 * of prepared plans keyed by exact SQL text, so a statement run again skips parsing, planning and
 * code generation. The cache is emptied whenever the catalog changes. Also lists tables and columns in
 * the order JDBC prescribes (Calcite lists them in its schema's hash order).
 */
public abstract class AccelMetaBase extends CalciteMetaImpl {
  private record PlanKey(String sql, long maxRowCount) {
  }

  private final Cache<PlanKey, CalcitePrepare.CalciteSignature<Object>> plans =
      Caffeine.newBuilder().maximumSize(256).build();
  private long plansAtVersion = -1;

  protected AccelMetaBase(AvaticaConnection connection) {
    super((CalciteConnectionImpl) connection, CalciteMetaTableFactoryImpl.INSTANCE,
        CalciteMetaColumnFactoryImpl.INSTANCE);
  }

  /** Changes whenever a plan made before may no longer be valid (DDL). */
  protected abstract long schemaVersion();

  private CalcitePrepare.CalciteSignature<Object> plan(CalciteServerStatement statement, String sql, long maxRowCount) {
    synchronized (plans) {
      long version = schemaVersion();
      if (version != plansAtVersion) {
        plans.invalidateAll();
        plansAtVersion = version;
      }
    }
    return plans.get(new PlanKey(sql, maxRowCount), key -> {
      CalcitePrepare.Context context = statement.createPrepareContext();
      return getConnection().parseQuery(CalcitePrepare.Query.of(sql), context, maxRowCount);
    });
  }

  /**
   * Evaluates the first rows of a query as it executes, so errors such as division by zero surface from
   * {@code execute}, as PostgreSQL reports them, rather than from a later {@code next()}; the rest of
   * the rows stream on demand.
   */
  @Override
  public Iterable<Object> createIterable(StatementHandle handle, org.apache.calcite.avatica.QueryState state,
      Signature signature, List<org.apache.calcite.avatica.remote.TypedValue> parameterValues, Frame firstFrame) {
    Iterable<Object> rows = super.createIterable(handle, state, signature, parameterValues, firstFrame);
    java.util.Iterator<Object> source = rows.iterator();
    java.util.ArrayList<Object> head = new java.util.ArrayList<>();
    while (head.size() < PREFETCH_ROWS && source.hasNext()) {
      head.add(source.next());
    }
    java.util.Iterator<Object> all = new PrefetchedIterator(head.iterator(), source);
    return () -> all;
  }

  /** The prefetched rows, then the rest; closing it closes the query's own iterator. */
  private static final class PrefetchedIterator implements java.util.Iterator<Object>, AutoCloseable {
    private final java.util.Iterator<Object> head;
    private final java.util.Iterator<Object> rest;

    PrefetchedIterator(java.util.Iterator<Object> head, java.util.Iterator<Object> rest) {
      this.head = head;
      this.rest = rest;
    }

    @Override
    public boolean hasNext() {
      return head.hasNext() || rest.hasNext();
    }

    @Override
    public Object next() {
      return head.hasNext() ? head.next() : rest.next();
    }

    @Override
    public void close() throws Exception {
      if (rest instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  private static final int PREFETCH_ROWS = 100;

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    StatementHandle h = createStatement(ch);
    CalciteServerStatement statement;
    try {
      statement = getConnection().server.getStatement(h);
    } catch (NoSuchStatementException e) {
      throw new AssertionError("missing statement", e);
    }
    h.signature = plan(statement, sql, maxRowCount);
    statement.setSignature(h.signature);
    return h;
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    CalcitePrepare.CalciteSignature<Object> signature;
    try {
      int updateCount;
      synchronized (callback.getMonitor()) {
        callback.clear();
        CalciteServerStatement statement = getConnection().server.getStatement(h);
        signature = plan(statement, sql, maxRowCount);
        statement.setSignature(signature);
        updateCount = switch (signature.statementType) {
          case CREATE, DROP, ALTER, OTHER_DDL -> 0;
          default -> -1;
        };
        callback.assign(signature, null, updateCount);
      }
      try {
        callback.execute();
      } catch (SQLException | RuntimeException | LinkageError e) {
        // A plan whose constants failed to evaluate (1/0 folded into a static initializer) stays broken.
        plans.invalidate(new PlanKey(sql, maxRowCount));
        throw e;
      }
      MetaResultSet metaResultSet = MetaResultSet.create(h.connectionId, h.id, false, signature, null, updateCount);
      return new ExecuteResult(List.of(metaResultSet));
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());

  /** DatabaseMetaData.getTables: ordered by TABLE_TYPE, TABLE_CAT, TABLE_SCHEM and TABLE_NAME. */
  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      List<String> typeList) {
    refreshSchemaCaches();
    List<MetaTable> tables = new ArrayList<>(schemas(catalog, new LikePattern(schemaPattern.s))
        .selectMany(schema -> tables(schema, new LikePattern(tableNamePattern.s)))
        .where(t -> typeList == null || typeList.contains(t.tableType))
        .toList());
    tables.sort(Comparator.comparing((MetaTable t) -> t.tableType, NULLS_FIRST)
        .thenComparing(t -> t.tableCat, NULLS_FIRST)
        .thenComparing(t -> t.tableSchem, NULLS_FIRST)
        .thenComparing(t -> t.tableName, NULLS_FIRST));
    return records(CalciteMetaTableFactoryImpl.INSTANCE.getMetaTableClass(), tables,
        CalciteMetaTableFactoryImpl.INSTANCE.getColumnNames());
  }

  /** DatabaseMetaData.getColumns: ordered by TABLE_CAT, TABLE_SCHEM, TABLE_NAME and ORDINAL_POSITION. */
  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
      Pat columnNamePattern) {
    return records(CalciteMetaColumnFactoryImpl.INSTANCE.getMetaColumnClass(),
        calciteColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern),
        CalciteMetaColumnFactoryImpl.INSTANCE.getColumnNames());
  }

  /** The columns as Calcite describes them (from the row types of its tables), in JDBC's order. */
  protected List<MetaColumn> calciteColumns(String catalog, Pat schemaPattern, Pat tableNamePattern,
      Pat columnNamePattern) {
    refreshSchemaCaches();
    List<MetaTable> tables = new ArrayList<>(schemas(catalog, new LikePattern(schemaPattern.s))
        .selectMany(schema -> tables(schema, new LikePattern(tableNamePattern.s)))
        .toList());
    tables.sort(Comparator.comparing((MetaTable t) -> t.tableCat, NULLS_FIRST)
        .thenComparing(t -> t.tableSchem, NULLS_FIRST)
        .thenComparing(t -> t.tableName, NULLS_FIRST));
    List<MetaColumn> columns = new ArrayList<>();
    var matcher = namedMatcher(columnNamePattern);
    for (MetaTable table : tables) {
      for (MetaColumn column : columns(table)) {
        if (matcher.apply(column)) {
          columns.add(column);
        }
      }
    }
    return columns;
  }

  /** The column names of DatabaseMetaData.getColumns. */
  protected static List<String> columnColumns() {
    return COLUMN_COLUMNS;
  }

  /**
   * Drops the table names the connection's schemas have cached, so metadata lists the tables as they are
   * now (queries see DDL through a fresh snapshot of the schemas; metadata reads the schemas themselves).
   */
  private void refreshSchemaCaches() {
    CalciteSchema root = getConnection().rootSchema;
    for (CalciteSchema schema : root.getSubSchemaMap().values()) {
      if (schema.isCacheEnabled()) {
        schema.setCache(false);
        schema.setCache(true);
      }
    }
  }

  /** A metadata result set whose rows are the public fields of {@code items}, named as in {@code names}. */
  protected <E> MetaResultSet records(Class<?> clazz, List<E> items, List<String> names) {
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
}
