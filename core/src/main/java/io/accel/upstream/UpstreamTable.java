package io.accel.upstream;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A table of the upstream as its catalog describes it: columns with their types, primary key, plain btree
 * indexes, row-level security and replica identity; and whether Accel can mirror it, and if not, why.
 */
public record UpstreamTable(long oid, String schema, String name, List<Column> columns, List<String> primaryKey,
    List<Index> indexes, boolean rowSecurity, char replicaIdentity, long estimatedRows) {

  /**
   * An upstream column; {@code attnum} its number there (gaps where columns were dropped); {@code type} is null
   * when Accel has no such type ({@code pgType} says which).
   */
  public record Column(String name, int attnum, String pgType, DataType type, boolean notNull) {
  }

  /** A plain index over columns (no expressions, no predicate). */
  public record Index(String name, boolean unique, List<String> columns, List<Boolean> descending,
      List<String> include) {
  }

  public String qualifiedName() {
    return quote(schema) + "." + quote(name);
  }

  /** Null when the table can be mirrored; otherwise why not (shown in the status). */
  public String unsupportedReason() {
    List<String> others = columns.stream().filter(c -> c.type() == null)
        .map(c -> c.name() + " " + c.pgType()).toList();
    if (!others.isEmpty()) {
      return "columns of types Accel does not have: " + String.join(", ", others);
    }
    if (primaryKey.isEmpty() && replicaIdentity != 'f') {
      return "no primary key and REPLICA IDENTITY is not FULL: its updates and deletes cannot be mirrored";
    }
    return null;
  }

  /** The mirror's CREATE TABLE for it, in Accel's SQL. */
  String createTableSql() {
    StringBuilder sql = new StringBuilder("CREATE TABLE ").append(quote(name)).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      sql.append(i == 0 ? "" : ", ").append(quote(c.name())).append(' ').append(c.type().sqlName());
      if (c.notNull()) {
        sql.append(" NOT NULL");
      }
    }
    if (!primaryKey.isEmpty()) {
      sql.append(", PRIMARY KEY (").append(primaryKey.stream().map(UpstreamTable::quote)
          .collect(Collectors.joining(", "))).append(')');
    }
    return sql.append(')').toString();
  }

  /** The mirror's CREATE INDEX for one of its indexes. */
  String createIndexSql(Index index) {
    StringBuilder sql = new StringBuilder("CREATE ").append(index.unique() ? "UNIQUE " : "").append("INDEX ")
        .append(quote(index.name())).append(" ON ").append(quote(name)).append(" (");
    for (int i = 0; i < index.columns().size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(quote(index.columns().get(i)))
          .append(index.descending().get(i) ? " DESC" : "");
    }
    sql.append(')');
    if (!index.include().isEmpty()) {
      sql.append(" INCLUDE (").append(index.include().stream().map(UpstreamTable::quote)
          .collect(Collectors.joining(", "))).append(')');
    }
    return sql.toString();
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /**
   * The ordinary tables of the schemas on the upstream's search path (or those named in {@code only}, as
   * {@code table} or {@code schema.table}), the first of each name in search-path order.
   */
  static List<UpstreamTable> read(Connection c, List<String> only) throws SQLException {
    Map<String, UpstreamTable> byName = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement("""
        SELECT c.oid, n.nspname, c.relname, c.relrowsecurity, c.relreplident, greatest(c.reltuples, 0)::bigint,
               array_position(current_schemas(false), n.nspname::text) AS pos
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND n.nspname = ANY (current_schemas(false))
        ORDER BY pos, c.relname""");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String schema = rs.getString(2);
        String name = rs.getString(3);
        if (!only.isEmpty() && !only.contains(name) && !only.contains(schema + "." + name)) {
          continue;
        }
        if (byName.containsKey(name)) {
          continue;
        }
        byName.put(name, new UpstreamTable(rs.getLong(1), schema, name, List.of(), List.of(), List.of(),
            rs.getBoolean(4), rs.getString(5).charAt(0), rs.getLong(6)));
      }
    }
    List<UpstreamTable> tables = new ArrayList<>();
    for (UpstreamTable t : byName.values()) {
      tables.add(t.withDetails(c));
    }
    return tables;
  }

  private UpstreamTable withDetails(Connection c) throws SQLException {
    List<Column> cols = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("""
        SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typname, a.atttypmod, a.attnotnull, a.attnum
        FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum""")) {
      ps.setLong(1, oid);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          cols.add(new Column(rs.getString(1), rs.getInt(6), rs.getString(2), typeOf(rs.getString(3), rs.getInt(4)),
              rs.getBoolean(5)));
        }
      }
    }
    List<String> pk = new ArrayList<>();
    List<Index> indexes = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("""
        SELECT ic.relname, i.indisprimary, i.indisunique, i.indnkeyatts, i.indkey::int2[], i.indoption::int2[],
               i.indexprs IS NULL AND i.indpred IS NULL AND am.amname = 'btree' AND i.indisvalid
        FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
        WHERE i.indrelid = ? ORDER BY i.indisprimary DESC, ic.relname""")) {
      ps.setLong(1, oid);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (!rs.getBoolean(7)) {
            continue;
          }
          Short[] keys = (Short[]) rs.getArray(5).getArray();
          Short[] options = (Short[]) rs.getArray(6).getArray();
          int keyCount = rs.getInt(4);
          List<String> names = new ArrayList<>();
          List<Boolean> desc = new ArrayList<>();
          List<String> include = new ArrayList<>();
          boolean plain = true;
          for (int k = 0; k < keys.length; k++) {
            if (keys[k] <= 0 || keys[k] > cols.size() || cols.get(keys[k] - 1).type() == null) {
              plain = false;
              break;
            }
            String column = cols.get(keys[k] - 1).name();
            if (k < keyCount) {
              names.add(column);
              desc.add((options[k] & 1) != 0);
            } else {
              include.add(column);
            }
          }
          if (!plain) {
            continue;
          }
          if (rs.getBoolean(2)) {
            pk.addAll(names);
          } else {
            indexes.add(new Index(rs.getString(1), rs.getBoolean(3), names, desc, include));
          }
        }
      }
    }
    return new UpstreamTable(oid, schema, name, List.copyOf(cols), List.copyOf(pk), List.copyOf(indexes), rowSecurity,
        replicaIdentity, estimatedRows);
  }

  /** Accel's type for an upstream type (by pg_type name and typmod), null when there is none. */
  static DataType typeOf(String typname, int typmod) {
    return switch (typname) {
      case "int2" -> DataType.of(ColumnType.SMALLINT);
      case "int4" -> DataType.of(ColumnType.INTEGER);
      case "int8" -> DataType.of(ColumnType.BIGINT);
      case "numeric" -> typmod < 4 ? DataType.of(ColumnType.NUMERIC)
          : new DataType(ColumnType.NUMERIC, ((typmod - 4) >> 16) & 0xffff, (typmod - 4) & 0xffff);
      case "float4" -> DataType.of(ColumnType.REAL);
      case "float8" -> DataType.of(ColumnType.DOUBLE);
      case "bool" -> DataType.of(ColumnType.BOOLEAN);
      case "text" -> DataType.of(ColumnType.TEXT);
      case "varchar" -> typmod < 4 ? DataType.of(ColumnType.VARCHAR) : DataType.of(ColumnType.VARCHAR, typmod - 4);
      case "bpchar" -> DataType.of(ColumnType.CHAR, typmod < 4 ? 1 : typmod - 4);
      case "date" -> DataType.of(ColumnType.DATE);
      case "time" -> DataType.of(ColumnType.TIME);
      case "timestamp" -> DataType.of(ColumnType.TIMESTAMP);
      case "timestamptz" -> DataType.of(ColumnType.TIMESTAMPTZ);
      case "bytea" -> DataType.of(ColumnType.BYTEA);
      case "uuid" -> DataType.of(ColumnType.UUID);
      default -> null;
    };
  }
}
