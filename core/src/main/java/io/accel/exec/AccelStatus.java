package io.accel.exec;

import io.accel.catalog.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.rocksdb.RocksDBException;

/**
 * {@code SHOW ACCEL STATUS} and {@code SHOW ACCEL TABLES}, answered by any session: a standalone store describes
 * itself; a fronting mirror's store is described by its {@link Source} (the mirror), which adds what only it knows
 * (upstream, replication, routing, tables not mirrored). Both share the store's part and the row forms.
 */
public final class AccelStatus {
  /** What a fronting mirror says of its store, in place of the standalone description. */
  public interface Source {
    /** Rows of (name, value), in order. */
    Map<String, String> status();

    /** Rows of (table, status, description), sorted by table. */
    List<String[]> tables();
  }

  private AccelStatus() {
  }

  /** The rows of SHOW ACCEL STATUS on {@code database}. */
  public static Map<String, String> status(Database database) {
    Source source = database.frontedBy();
    if (source != null) {
      return source.status();
    }
    Map<String, String> m = new LinkedHashMap<>();
    m.put("mode", "standalone");
    m.put("store", database.store().description());
    m.put("tables", Integer.toString(database.catalog().tables().size()));
    m.putAll(storeValues(database));
    m.put("uptime (s)", Long.toString(database.uptimeSeconds()));
    return m;
  }

  /** The rows of SHOW ACCEL TABLES on {@code database}. */
  public static List<String[]> tables(Database database) {
    Source source = database.frontedBy();
    if (source != null) {
      return source.tables();
    }
    List<String[]> rows = new ArrayList<>();
    List<TableDef> tables = new ArrayList<>(database.catalog().tables());
    tables.sort(java.util.Comparator.comparing(TableDef::name));
    for (TableDef t : tables) {
      // the row count kept up to date by commits since the last ANALYZE
      rows.add(tableRow(t.name(), "online", "about " + database.statistics().of(t).rowCount() + " rows"));
    }
    return rows;
  }

  /** One row of SHOW ACCEL TABLES; a null description is empty. */
  public static String[] tableRow(String table, String status, String description) {
    return new String[] {table, status, description == null ? "" : description};
  }

  /**
   * What every store reports, standalone or mirror: its size on disk and in memtables (RocksDB's own properties,
   * summed over column families), the result cache's definitions, results, bytes and hits, the row cache's bytes.
   */
  public static Map<String, String> storeValues(Database database) {
    Map<String, String> m = new LinkedHashMap<>();
    try {
      var db = database.store().db();
      m.put("store size on disk (bytes)", Long.toString(db.getAggregatedLongProperty("rocksdb.total-sst-files-size")));
      m.put("store memtables (bytes)", Long.toString(db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables")));
    } catch (RocksDBException | RuntimeException e) {
      // a closing store: its sizes are left out rather than failing the status
    }
    io.accel.cache.ResultCache cache = database.resultCache();
    if (cache != null) {
      m.put("result caches", Integer.toString(cache.definitions().size()));
      m.put("cached results", Long.toString(cache.entryCount()));
      m.put("result cache memory (bytes)", Long.toString(cache.weightedBytes()));
      m.put("result cache hits", Long.toString(cache.hitCount()));
    }
    io.accel.cache.RowCache rows = database.rowCache();
    if (rows != null) {
      m.put("row cache memory (bytes)", Long.toString(rows.weightedBytes()));
      m.put("row cache size (bytes)", Long.toString(rows.maxBytes()));
    }
    return m;
  }

  /** The columns: (name, value) for STATUS, (table, status, description) for TABLES; all text. */
  static Meta.Signature signature(String sql, boolean tables) {
    String[] names = tables ? new String[] {"table", "status", "description"} : new String[] {"name", "value"};
    List<ColumnMetaData> columns = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      columns.add(MetaImpl.columnMetaData(names[i], i, String.class, false));
    }
    return Meta.Signature.create(columns, sql, List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.SELECT);
  }

  /** The rows of either command, as a cursor reads them. */
  static List<Object> rows(Database database, boolean tables) {
    List<Object> rows = new ArrayList<>();
    if (tables) {
      rows.addAll(tables(database));
    } else {
      status(database).forEach((k, v) -> rows.add(new Object[] {k, v}));
    }
    return rows;
  }
}
