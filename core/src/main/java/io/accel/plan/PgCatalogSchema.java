package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.catalog.ViewDef;
import io.accel.exec.Session;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's system catalog ({@code pg_catalog}) for one session: read-only virtual tables derived from
 * Accel's {@link io.accel.catalog.Catalog} when they are scanned (the model of tables, indexes and oids is
 * built once per catalog version), the functions of {@link PgCatalogFunctions}, and PostgreSQL's type names.
 * OIDs are stable: a table or index is {@code 16384 + 2 * catalog id}, a primary key's index
 * {@code 16385 + 2 * table id}; namespaces and built-in types have PostgreSQL's own.
 */
public final class PgCatalogSchema extends AbstractSchema {
  public static final String NAME = "pg_catalog";
  static final int PG_CATALOG_OID = 11;
  static final int PUBLIC_OID = 2200;
  static final int INFORMATION_SCHEMA_OID = 13181;
  static final int USER_OID = 10;
  /** PostgreSQL 15's owner of schema public: the role pg_database_owner. */
  static final int DATABASE_OWNER_OID = 6171;
  static final int DATABASE_OID = 16383;
  static final int BTREE_OID = 403;
  static final int HEAP_OID = 2;

  /** pg_catalog's own relations that {@code 'pg_class'::regclass} and the like name. */
  static final Map<String, Integer> SYSTEM_RELATIONS = Map.ofEntries(Map.entry("pg_type", 1247),
      Map.entry("pg_attribute", 1249), Map.entry("pg_proc", 1255), Map.entry("pg_class", 1259),
      Map.entry("pg_database", 1262), Map.entry("pg_namespace", 2615), Map.entry("pg_index", 2610),
      Map.entry("pg_constraint", 2606), Map.entry("pg_description", 2609), Map.entry("pg_attrdef", 2604),
      Map.entry("pg_am", 2601), Map.entry("pg_inherits", 2611), Map.entry("pg_authid", 1260),
      Map.entry("pg_tablespace", 1213), Map.entry("pg_collation", 3456), Map.entry("pg_settings", 12000),
      Map.entry("pg_extension", 3079), Map.entry("pg_auth_members", 1261), Map.entry("pg_trigger", 2620),
      Map.entry("pg_rewrite", 2618), Map.entry("pg_opclass", 2616), Map.entry("pg_opfamily", 2753),
      Map.entry("pg_language", 2612), Map.entry("pg_shdescription", 2396), Map.entry("pg_range", 3541));

  /** Oids of the extensions Accel provides, in the range PostgreSQL keeps for objects made at initdb. */
  private static final Map<String, Integer> EXTENSION_OIDS = Map.of("plpgsql", 13559, "pgcrypto", 13570,
      "uuid-ossp", 13571);

  /** PostgreSQL 15's predefined roles, of which the session's user (a superuser) is a member. */
  private static final java.util.Set<String> PREDEFINED_ROLES = java.util.Set.of("pg_database_owner",
      "pg_read_all_data", "pg_write_all_data", "pg_monitor", "pg_read_all_settings", "pg_read_all_stats",
      "pg_stat_scan_tables", "pg_read_server_files", "pg_write_server_files", "pg_execute_server_program",
      "pg_signal_backend", "pg_checkpoint");

  private static final AtomicInteger TOKENS = new AtomicInteger();
  private static final Map<Integer, WeakReference<PgCatalogSchema>> BY_TOKEN = new ConcurrentHashMap<>();

  private final Session session;
  private final String user;
  private final int token;
  private final Map<String, Table> tables = new LinkedHashMap<>();
  private volatile Model model;
  private volatile Descriptions descriptions;

  static final int PG_CLASS_CLASS = 1259;
  static final int PG_CONSTRAINT_CLASS = 2606;
  static final int PG_NAMESPACE_CLASS = 2615;
  static final int PG_DATABASE_CLASS = 1262;

  /** A row of pg_description without its text: the object (oid in its catalog) and column (0: the object). */
  record DescriptionKey(int objoid, int classoid, int objsubid) {
  }

  private record Descriptions(long version, Map<DescriptionKey, String> texts) {
  }

  public PgCatalogSchema(Session session, String user) {
    this.session = session;
    this.user = user;
    this.token = TOKENS.incrementAndGet();
    BY_TOKEN.values().removeIf(ref -> ref.get() == null);
    BY_TOKEN.put(token, new WeakReference<>(this));
    defineTables();
  }

  /** The schema whose {@link #token()} is {@code token} (the calls {@code PgCatalogSyntax} rewrote carry it). */
  static PgCatalogSchema of(int token) {
    WeakReference<PgCatalogSchema> ref = BY_TOKEN.get(token);
    PgCatalogSchema schema = ref == null ? null : ref.get();
    if (schema == null) {
      throw new IllegalStateException("no session for catalog token " + token);
    }
    return schema;
  }

  /** The number that stands for this session in rewritten calls of session-dependent functions. */
  public int token() {
    return token;
  }

  String userName() {
    return user;
  }

  /** {@code current_database()}: the setting {@code accel.database} a frontend gives, else "accel". */
  String databaseName() {
    try {
      String name = session.settings().get("accel.database");
      return name == null || name.isEmpty() ? "accel" : name;
    } catch (RuntimeException e) {
      return "accel";
    }
  }

  /** The schemas of search_path that exist, with pg_catalog first when {@code implicit} and not named. */
  List<String> searchPath(boolean implicit) {
    List<String> path = new ArrayList<>();
    for (String part : session.settings().get("search_path").split(",")) {
      String name = part.trim();
      name = name.startsWith("\"") && name.endsWith("\"") && name.length() > 1
          ? name.substring(1, name.length() - 1) : name.toLowerCase(java.util.Locale.ROOT);
      if (name.equals("$user")) {
        name = user;
      }
      if ((name.equals("public") || name.equals(NAME) || name.equals("information_schema")) && !path.contains(name)) {
        path.add(name);
      }
    }
    if (implicit && !path.contains(NAME)) {
      path.add(0, NAME);
    }
    return path;
  }

  boolean relationVisible(int oid) {
    Model m = model();
    if (m.relations.containsKey(oid)) {
      return searchPath(true).contains("public");
    }
    return SYSTEM_RELATIONS.containsValue(oid);
  }

  String relationName(int oid) {
    String name = model().relations.get(oid);
    if (name == null) {
      name = SYSTEM_RELATIONS.entrySet().stream().filter(e -> e.getValue() == oid).map(Map.Entry::getKey)
          .findFirst().orElse(null);
    }
    return name == null ? Integer.toString(oid) : PgCatalogFunctions.quoteIdent(name);
  }

  String namespaceName(int oid) {
    return switch (oid) {
      case PG_CATALOG_OID -> NAME;
      case PUBLIC_OID -> "public";
      case INFORMATION_SCHEMA_OID -> "information_schema";
      default -> Integer.toString(oid);
    };
  }

  /** The oid of the relation {@code name} names ({@code 'items'::regclass}), or null. */
  public Integer relationOid(String name) {
    List<String> parts = identifierParts(name);
    if (parts.size() == 3) {
      parts = parts.subList(1, 3); // database.schema.relation: the session's database is the only one
    }
    if (parts.isEmpty() || parts.size() > 2) {
      return null;
    }
    String schema = parts.size() == 2 ? parts.get(0) : null;
    String n = parts.get(parts.size() - 1);
    if (schema == null || schema.equals("public")) {
      Integer oid = model().oidsByName.get(n);
      if (oid != null) {
        return oid;
      }
    }
    return schema == null || schema.equals(NAME) ? SYSTEM_RELATIONS.get(n) : null;
  }

  /**
   * A dotted name as PostgreSQL reads it ({@code "Public".t}, {@code db.public.t}): its parts, quoted ones as
   * written, the others in lower case.
   */
  static List<String> identifierParts(String name) {
    List<String> parts = new ArrayList<>();
    String n = name.trim();
    int i = 0;
    while (i <= n.length()) {
      StringBuilder part = new StringBuilder();
      if (i < n.length() && n.charAt(i) == '"') {
        i++;
        while (i < n.length()) {
          char c = n.charAt(i++);
          if (c == '"') {
            if (i < n.length() && n.charAt(i) == '"') {
              part.append('"');
              i++;
            } else {
              break;
            }
          } else {
            part.append(c);
          }
        }
      } else {
        int dot = n.indexOf('.', i);
        int end = dot < 0 ? n.length() : dot;
        part.append(n.substring(i, end).trim().toLowerCase(java.util.Locale.ROOT));
        i = end;
      }
      parts.add(part.toString());
      if (i >= n.length()) {
        break;
      }
      if (n.charAt(i) != '.') {
        return List.of(); // text after a quoted part
      }
      i++;
    }
    return parts;
  }

  /** The oid of the type {@code name} names ({@code 'int4'::regtype}), or null. */
  public static Integer typeOid(String name) {
    String n = name.trim().toLowerCase(java.util.Locale.ROOT);
    if (n.startsWith("\"")) {
      // "pg_catalog"."int4", as information_schema's udt_schema and udt_name quote it
      List<String> parts = identifierParts(name);
      if (parts.size() > 2 || parts.size() == 2 && !parts.get(0).equals(NAME)) {
        return null;
      }
      n = parts.isEmpty() ? n : parts.get(parts.size() - 1);
    }
    if (n.startsWith("pg_catalog.")) {
      n = n.substring("pg_catalog.".length());
    }
    n = switch (n) {
      case "integer", "int" -> "int4";
      case "smallint" -> "int2";
      case "bigint" -> "int8";
      case "real" -> "float4";
      case "double precision" -> "float8";
      case "boolean" -> "bool";
      case "character varying" -> "varchar";
      case "character" -> "bpchar";
      case "timestamp without time zone" -> "timestamp";
      case "timestamp with time zone" -> "timestamptz";
      case "time without time zone" -> "time";
      default -> n;
    };
    PgTypes.PgType t = PgTypes.BY_NAME.get(n);
    return t == null ? null : t.oid();
  }

  /**
   * {@code pg_has_role([user,] role, privilege)}: Accel has one role per session, its user, a superuser as pg_roles
   * says, so it has itself and PostgreSQL's predefined roles; any other name does not exist (42704).
   */
  boolean hasRole(String member, String role) {
    if (member != null && !member.equals(user)) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_OBJECT,
          "role \"" + member + "\" does not exist");
    }
    if (role == null) {
      return false;
    }
    if (role.equals(user) || PREDEFINED_ROLES.contains(role)) {
      return true;
    }
    throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_OBJECT,
        "role \"" + role + "\" does not exist");
  }

  /**
   * The bytes of a relation: RocksDB's estimate for its column family (SST files and memtables, see
   * {@link #familySize}); 0 for a primary key's index (the rows are stored in its order, in the table's family)
   * and for pg_catalog's virtual relations; NULL when there is no such relation, as in PostgreSQL.
   */
  Long relationSize(int oid) {
    Model m = model();
    for (TableDef t : m.tables()) {
      if (tableOid(t) == oid) {
        return familySize(io.accel.catalog.Catalog.tableFamily(t.id()));
      }
    }
    IndexInfo i = m.indexes().get(oid);
    if (i != null) {
      return i.def() == null ? 0L : familySize(io.accel.catalog.Catalog.indexFamily(i.def().id()));
    }
    return SYSTEM_RELATIONS.containsValue(oid) ? 0L : null;
  }

  /** {@code pg_indexes_size(table)}: its secondary indexes' families. */
  long indexesSize(int tableOid) {
    long sum = 0;
    for (IndexInfo i : model().allIndexes()) {
      if (tableOid(i.table()) == tableOid && i.def() != null) {
        sum += familySize(io.accel.catalog.Catalog.indexFamily(i.def().id()));
      }
    }
    return sum;
  }

  /** {@code pg_database_size(name)}: all column families of the store, the catalog's included. */
  long databaseSize(String name) {
    if (!name.equals(databaseName())) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.INVALID_CATALOG_NAME,
          "database \"" + name + "\" does not exist");
    }
    long sum = 0;
    for (String family : session.database().store().familyNames()) {
      sum += familySize(family);
    }
    return sum;
  }

  /** A key past every key Accel writes (keys are order-preserving encodings, never 64 bytes of 0xFF). */
  private static final byte[] KEY_LIMIT = filled(64);

  private static byte[] filled(int n) {
    byte[] b = new byte[n];
    java.util.Arrays.fill(b, (byte) 0xFF);
    return b;
  }

  /**
   * RocksDB's approximate size of a column family's whole key range, files and memtables (an estimate: SST sizes
   * are compressed, memtable sizes extrapolated from sampled entries); 0 for a family that is gone.
   */
  private long familySize(String name) {
    var family = session.database().store().family(name);
    if (family.isEmpty()) {
      return 0;
    }
    try (org.rocksdb.Slice start = new org.rocksdb.Slice(new byte[0]);
        org.rocksdb.Slice limit = new org.rocksdb.Slice(KEY_LIMIT)) {
      long[] sizes = session.database().store().db().getApproximateSizes(family.get(),
          List.of(new org.rocksdb.Range(start, limit)), org.rocksdb.SizeApproximationFlag.INCLUDE_FILES,
          org.rocksdb.SizeApproximationFlag.INCLUDE_MEMTABLES);
      return sizes.length == 0 ? 0 : Math.max(0, sizes[0]);
    }
  }

  IndexInfo index(int oid) {
    return model().indexes.get(oid);
  }

  IndexInfo constraint(int oid) {
    return model().constraints.get(oid);
  }

  /** An index as pg_index shows it; the primary key is one too (named {@code <table>_pkey}, as PostgreSQL names it). */
  record IndexInfo(int oid, String name, TableDef table, List<IndexColumn> keys, boolean unique, boolean primary,
      IndexDef def) {
  }

  /** A table's oid in pg_class (and in RowDescription). */
  public static int tableOid(TableDef t) {
    return 16384 + 2 * (int) t.id();
  }

  /** A view's oid: from the same ids as tables and indexes. */
  static int viewOid(ViewDef v) {
    return 16384 + 2 * (int) v.id();
  }

  /** The views, in the order they were created. */
  List<ViewDef> userViews() {
    List<ViewDef> views = new ArrayList<>(session.database().catalog().views());
    views.sort(java.util.Comparator.comparingLong(ViewDef::id));
    return views;
  }

  /** A view's columns as table columns (nullable, no default). */
  static List<Column> viewColumns(ViewDef v) {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < v.columns().size(); i++) {
      columns.add(new Column(v.columns().get(i), v.types().get(i), true, java.util.Optional.empty()));
    }
    return columns;
  }

  /** A sequence's oid: its id comes from the tables' counter, so it is numbered as they are. */
  static int sequenceOid(io.accel.catalog.SequenceDef q) {
    return 16384 + 2 * (int) q.id();
  }

  /** The identity kind ('a', 'd' or '') of a table's column, from the sequence it owns. */
  String identity(TableDef t, String column) {
    return session.database().sequences().ownedBy(t.id()).stream().filter(q -> q.identityOf(t.id(), column))
        .map(q -> q.owner().get().identity().code()).findFirst().orElse("");
  }

  /** The store's sequences, by oid. */
  List<io.accel.catalog.SequenceDef> sequences() {
    List<io.accel.catalog.SequenceDef> list = new ArrayList<>(session.database().sequences().sequences());
    list.sort(java.util.Comparator.comparingLong(io.accel.catalog.SequenceDef::id));
    return list;
  }

  /** Tables, indexes and oids of one catalog version. */
  private record Model(long version, List<TableDef> tables, List<IndexInfo> allIndexes, Map<Integer, IndexInfo> indexes,
      Map<Integer, IndexInfo> constraints, Map<Integer, String> relations, Map<String, Integer> oidsByName) {
  }

  /** Changes with the tables, views, indexes, comments and (apart from them) the sequences. */
  private long catalogVersion() {
    return session.database().catalog().version() * 1_000_003L + session.database().sequences().version();
  }

  private Model model() {
    long version = catalogVersion();
    Model m = model;
    if (m != null && m.version() == version) {
      return m;
    }
    List<TableDef> tables = new ArrayList<>(session.database().catalog().tables());
    tables.sort(java.util.Comparator.comparingLong(TableDef::id));
    List<IndexInfo> all = new ArrayList<>();
    Map<Integer, IndexInfo> indexes = new HashMap<>();
    Map<Integer, IndexInfo> constraints = new HashMap<>();
    Map<Integer, String> relations = new HashMap<>();
    Map<String, Integer> byName = new HashMap<>();
    for (TableDef t : tables) {
      relations.put(tableOid(t), t.name());
      byName.put(t.name(), tableOid(t));
      if (!t.hasHiddenRowId()) {
        List<IndexColumn> keys = t.primaryKey().stream().map(c -> new IndexColumn(c, false)).toList();
        IndexInfo pk = new IndexInfo(tableOid(t) + 1, t.primaryKeyName(), t, keys, true, true, null);
        all.add(pk);
        constraints.put(1_000_000_000 + (int) t.id(), pk);
      }
      for (IndexDef i : t.indexes()) {
        IndexInfo info = new IndexInfo(16384 + 2 * (int) i.id(), i.name(), t, i.columns(), i.unique(), false, i);
        all.add(info);
        if (i.constraint()) {
          constraints.put(uniqueOid(i), info);
        }
      }
    }
    for (ViewDef v : userViews()) {
      relations.put(viewOid(v), v.name());
      byName.put(v.name(), viewOid(v));
    }
    for (IndexInfo i : all) {
      indexes.put(i.oid(), i);
      relations.put(i.oid(), i.name());
      byName.put(i.name(), i.oid());
    }
    for (io.accel.catalog.SequenceDef q : session.database().sequences().sequences()) {
      relations.put(sequenceOid(q), q.name());
      byName.put(q.name(), sequenceOid(q));
    }
    m = new Model(version, List.copyOf(tables), List.copyOf(all), indexes, constraints, relations, byName);
    model = m;
    return m;
  }

  private static int constraintOid(IndexInfo pk) {
    return 1_000_000_000 + (int) pk.table().id();
  }

  /** The oid of a UNIQUE constraint (from its index's id). */
  static int uniqueOid(IndexDef index) {
    return 1_100_000_000 + (int) index.id();
  }

  /** The oid of a table's FOREIGN KEY constraint (its position among them). */
  static int foreignKeyOid(TableDef t, int position) {
    return 1_300_000_000 + (int) t.id() * 100 + position;
  }

  /** The referencing table, referenced table and constraint of a FOREIGN KEY, with the key's index oid. */
  record ForeignKeyInfo(int oid, TableDef table, io.accel.catalog.ForeignKeyDef fk, TableDef referenced,
      int indexOid) {
  }

  /** Every FOREIGN KEY of the store whose referenced table exists. */
  List<ForeignKeyInfo> foreignKeys() {
    List<ForeignKeyInfo> list = new ArrayList<>();
    for (TableDef t : model().tables()) {
      for (int c = 0; c < t.foreignKeys().size(); c++) {
        io.accel.catalog.ForeignKeyDef fk = t.foreignKeys().get(c);
        TableDef ref = model().tables().stream().filter(x -> x.name().equals(fk.refTable())).findFirst().orElse(null);
        if (ref == null) {
          continue;
        }
        list.add(new ForeignKeyInfo(foreignKeyOid(t, c), t, fk, ref, referencedIndexOid(ref, fk.refColumns())));
      }
    }
    return list;
  }

  /** The oid of the primary key's or UNIQUE index whose columns are {@code columns} (any order), or 0. */
  static int referencedIndexOid(TableDef t, List<String> columns) {
    java.util.Set<Integer> wanted = new java.util.HashSet<>();
    columns.forEach(c -> wanted.add(t.columnOrdinal(c).orElse(-1)));
    if (!t.primaryKey().isEmpty() && wanted.equals(new java.util.HashSet<>(t.primaryKey()))) {
      return tableOid(t) + 1;
    }
    for (IndexDef i : t.indexes()) {
      java.util.Set<Integer> have = new java.util.HashSet<>();
      i.columns().forEach(c -> have.add(c.column()));
      if (i.unique() && have.equals(wanted) && i.columns().size() == columns.size()) {
        return 16384 + 2 * (int) i.id();
      }
    }
    return 0;
  }

  /** The FOREIGN KEY with this oid, if there is one. */
  ForeignKeyInfo foreignKey(int oid) {
    return foreignKeys().stream().filter(f -> f.oid() == oid).findFirst().orElse(null);
  }

  /** A column list as pg_constraint's int2[] text: {@code {2,3}} (1-based attnums). */
  static String attnums(TableDef t, List<String> columns) {
    StringBuilder b = new StringBuilder("{");
    for (String c : columns) {
      b.append(b.length() > 1 ? "," : "").append(t.columnOrdinal(c).orElse(-1) + 1);
    }
    return b.append('}').toString();
  }

  // ---- the tables

  /** A read-only table whose rows are computed from the session's catalog when it is scanned. */
  private static final class VirtualTable extends AbstractTable implements ScannableTable {
    private final List<String> names;
    /** Per column, its (nullable) type. */
    private final List<java.util.function.Function<RelDataTypeFactory, RelDataType>> types;
    private final java.util.function.Supplier<List<Object[]>> rows;

    VirtualTable(List<String> names, List<java.util.function.Function<RelDataTypeFactory, RelDataType>> types,
        java.util.function.Supplier<List<Object[]>> rows) {
      this.names = names;
      this.types = types;
      this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      RelDataTypeFactory.Builder b = typeFactory.builder();
      for (int i = 0; i < names.size(); i++) {
        b.add(names.get(i), types.get(i).apply(typeFactory));
      }
      return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows.get());
    }
  }

  /**
   * Declares a table from {@code "name type, name type, ..."} (types: oid, int2, int4, int8, float4, bool, text, name,
   * int2[] as its text)
   * and its rows.
   */
  void table(String name, String columns, java.util.function.Supplier<List<Object[]>> rows) {
    tables.put(name, virtual(columns, rows));
  }

  static Table virtual(String columns, java.util.function.Supplier<List<Object[]>> rows) {
    List<String> names = new ArrayList<>();
    List<java.util.function.Function<RelDataTypeFactory, RelDataType>> types = new ArrayList<>();
    for (String c : columns.split(",")) {
      String[] p = c.trim().split("\\s+");
      names.add(p[0]);
      if (p[1].equals("name") || p[1].equals("int2[]")) {
        String name = p[1].equals("name") ? NameSqlType.NAME : NameSqlType.INT2_ARRAY;
        types.add(f -> NameSqlType.of(f, name));
        continue;
      }
      SqlTypeName type = switch (p[1]) {
        case "oid", "int4" -> SqlTypeName.INTEGER;
        case "int2" -> SqlTypeName.SMALLINT;
        case "int8" -> SqlTypeName.BIGINT;
        case "float4" -> SqlTypeName.REAL;
        case "bool" -> SqlTypeName.BOOLEAN;
        case "timestamptz" -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        default -> SqlTypeName.VARCHAR;
      };
      types.add(f -> f.createTypeWithNullability(f.createSqlType(type), true));
    }
    return new VirtualTable(List.copyOf(names), List.copyOf(types), rows);
  }

  private static List<Object[]> none() {
    return List.of();
  }

  /** The rows with PostgreSQL's system column {@code tableoid} (the catalog's own oid) appended. */
  private static java.util.function.Supplier<List<Object[]>> withTableOid(int oid,
      java.util.function.Supplier<List<Object[]>> rows) {
    return () -> {
      List<Object[]> out = new ArrayList<>();
      for (Object[] row : rows.get()) {
        Object[] r = java.util.Arrays.copyOf(row, row.length + 1);
        r[row.length] = oid;
        out.add(r);
      }
      return out;
    };
  }

  private void defineTables() {
    table("pg_namespace", "oid oid, nspname name, nspowner oid, nspacl text", () -> List.of(
        new Object[] {PG_CATALOG_OID, NAME, USER_OID, null},
        new Object[] {PUBLIC_OID, "public", DATABASE_OWNER_OID, null},
        new Object[] {INFORMATION_SCHEMA_OID, "information_schema", USER_OID, null}));
    table("pg_class", "oid oid, relname name, relnamespace oid, reltype oid, reloftype oid, relowner oid, relam oid,"
        + " relfilenode oid, reltablespace oid, relpages int4, reltuples float4, relallvisible int4,"
        + " reltoastrelid oid, relhasindex bool, relisshared bool, relpersistence text, relkind text, relnatts int2,"
        + " relchecks int2, relhasrules bool, relhastriggers bool, relhassubclass bool, relrowsecurity bool,"
        + " relforcerowsecurity bool, relispopulated bool, relreplident text, relispartition bool, relrewrite oid,"
        + " relfrozenxid int4, relminmxid int4, relacl text, reloptions text, relpartbound text", this::classRows);
    table("pg_attribute", "attrelid oid, attname name, atttypid oid, attstattarget int4, attlen int2, attnum int2,"
        + " attndims int4, attcacheoff int4, atttypmod int4, attbyval bool, attalign text, attstorage text,"
        + " attcompression text, attnotnull bool, atthasdef bool, atthasmissing bool, attidentity text,"
        + " attgenerated text, attisdropped bool, attislocal bool, attinhcount int4, attcollation oid, attacl text,"
        + " attoptions text, attfdwoptions text, attmissingval text", this::attributeRows);
    table("pg_attrdef", "oid oid, adrelid oid, adnum int2, adbin text", this::attrdefRows);
    table("pg_type", "oid oid, typname name, typnamespace oid, typowner oid, typlen int2, typbyval bool,"
        + " typtype text, typcategory text, typispreferred bool, typisdefined bool, typdelim text, typrelid oid,"
        + " typsubscript text, typelem oid, typarray oid, typinput text, typoutput text, typreceive text,"
        + " typsend text, typmodin text, typmodout text, typanalyze text, typalign text, typstorage text,"
        + " typnotnull bool, typbasetype oid, typtypmod int4, typndims int4, typcollation oid, typdefaultbin text,"
        + " typdefault text, typacl text, tableoid oid", withTableOid(1247, PgCatalogSchema::typeRows));
    table("pg_index", "indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, indisunique bool,"
        + " indnullsnotdistinct bool, indisprimary bool, indisexclusion bool, indimmediate bool,"
        + " indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool,"
        + " indisreplident bool, indkey text, indcollation text, indclass text, indoption text, indexprs text,"
        + " indpred text", this::indexRows);
    table("pg_constraint", "oid oid, conname name, connamespace oid, contype text, condeferrable bool,"
        + " condeferred bool, convalidated bool, conrelid oid, contypid oid, conindid oid, conparentid oid,"
        + " confrelid oid, confupdtype text, confdeltype text, confmatchtype text, conislocal bool,"
        + " coninhcount int4, connoinherit bool, conkey int2[], confkey int2[], conpfeqop text, conppeqop text,"
        + " conffeqop text, confdelsetcols text, conexclop text, conbin text, tableoid oid",
        withTableOid(PG_CONSTRAINT_CLASS, this::constraintRows));
    table("pg_database", "oid oid, datname name, datdba oid, encoding int4, datlocprovider text,"
        + " datistemplate bool, datallowconn bool, datconnlimit int4, datfrozenxid int4, datminmxid int4,"
        + " dattablespace oid, datcollate text, datctype text, daticulocale text, datcollversion text, datacl text",
        () -> List.<Object[]>of(new Object[] {DATABASE_OID, databaseName(), USER_OID, 6, "c", false, true, -1, 0, 1,
            1663, "C.UTF-8", "C.UTF-8", null, null, null}));
    table("pg_settings", "name text, setting text, unit text, category text, short_desc text, extra_desc text,"
        + " context text, vartype text, source text, min_val text, max_val text, enumvals text, boot_val text,"
        + " reset_val text, sourcefile text, sourceline int4, pending_restart bool", this::settingRows);
    table("pg_roles", "rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool,"
        + " rolcanlogin bool, rolreplication bool, rolconnlimit int4, rolpassword text, rolvaliduntil text,"
        + " rolbypassrls bool, rolconfig text, oid oid", () -> List.<Object[]>of(new Object[] {user, true, true,
            true, true, true, true, -1, "********", null, true, null, USER_OID}));
    table("pg_authid", "oid oid, rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool,"
        + " rolcreatedb bool, rolcanlogin bool, rolreplication bool, rolbypassrls bool, rolconnlimit int4",
        () -> List.<Object[]>of(new Object[] {USER_OID, user, true, true, true, true, true, true, true, -1}));
    table("pg_user", "usename name, usesysid oid, usecreatedb bool, usesuper bool, userepl bool,"
        + " usebypassrls bool, passwd text, valuntil text, useconfig text",
        () -> List.<Object[]>of(new Object[] {user, USER_OID, true, true, true, true, "********", null, null}));
    table("pg_am", "oid oid, amname name, amhandler text, amtype text",
        () -> List.<Object[]>of(new Object[] {HEAP_OID, "heap", "heap_tableam_handler", "t"},
            new Object[] {BTREE_OID, "btree", "bthandler", "i"}));
    table("pg_tablespace", "oid oid, spcname name, spcowner oid, spcacl text, spcoptions text", () -> List.of(
        new Object[] {1663, "pg_default", USER_OID, null, null},
        new Object[] {1664, "pg_global", USER_OID, null, null}));
    table("pg_collation", "oid oid, collname name, collnamespace oid, collowner oid, collprovider text,"
        + " collisdeterministic bool, collencoding int4, collcollate text, collctype text, colliculocale text",
        () -> List.of(new Object[] {100, "default", PG_CATALOG_OID, USER_OID, "d", true, -1, null, null, null},
            new Object[] {950, "C", PG_CATALOG_OID, USER_OID, "c", true, -1, "C", "C", null}));
    table("pg_description", "objoid oid, classoid oid, objsubid int4, description text", () -> {
      List<Object[]> rows = new ArrayList<>();
      descriptions().forEach((k, text) -> rows.add(new Object[] {k.objoid(), k.classoid(), k.objsubid(), text}));
      // the extensions' own descriptions, as their control files give them
      for (String name : session.database().catalog().extensions().keySet()) {
        rows.add(new Object[] {EXTENSION_OIDS.getOrDefault(name, 13569), 3079, 0, switch (name) {
          case "plpgsql" -> "PL/pgSQL procedural language";
          case "pgcrypto" -> "cryptographic functions";
          default -> "generate universally unique identifiers (UUIDs)";
        }});
      }
      return rows;
    });
    // PostgreSQL's languages (psql's \dL lists those with a call handler: none of these three)
    table("pg_language", "oid oid, lanname name, lanowner oid, lanispl bool, lanpltrusted bool, lanplcallfoid oid,"
        + " laninline oid, lanvalidator oid, lanacl text, tableoid oid", () -> List.of(
            new Object[] {12, "internal", USER_OID, false, false, 0, 0, 2246, null, 2612},
            new Object[] {13, "c", USER_OID, false, false, 0, 0, 2247, null, 2612},
            new Object[] {14, "sql", USER_OID, false, true, 0, 0, 2248, null, 2612}));
    table("pg_shdescription", "objoid oid, classoid oid, description text", () -> {
      String text = session.database().catalog().comment(io.accel.catalog.Catalog.DATABASE_COMMENT).orElse(null);
      return text == null ? List.of() : List.<Object[]>of(new Object[] {DATABASE_OID, PG_DATABASE_CLASS, text});
    });
    table("pg_inherits", "inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool", PgCatalogSchema::none);
    table("pg_partitioned_table", "partrelid oid, partstrat text, partnatts int2, partdefid oid, partattrs text",
        PgCatalogSchema::none);
    table("pg_policy", "oid oid, polname name, polrelid oid, polcmd text, polpermissive bool, polroles text,"
        + " polqual text, polwithcheck text", PgCatalogSchema::none);
    table("pg_statistic_ext", "oid oid, stxrelid oid, stxname name, stxnamespace oid, stxowner oid,"
        + " stxstattarget int4, stxkeys text, stxkind text, stxexprs text", PgCatalogSchema::none);
    table("pg_publication", "oid oid, pubname name, pubowner oid, puballtables bool, pubinsert bool,"
        + " pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool", PgCatalogSchema::none);
    table("pg_publication_rel", "oid oid, prpubid oid, prrelid oid, prqual text, prattrs text",
        PgCatalogSchema::none);
    table("pg_publication_namespace", "oid oid, pnpubid oid, pnnspid oid", PgCatalogSchema::none);
    table("pg_trigger", "oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype int2,"
        + " tgenabled text, tgisinternal bool, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, tableoid oid",
        PgCatalogSchema::none);
    table("pg_rewrite", "oid oid, rulename name, ev_class oid, ev_type text, ev_enabled text, is_instead bool,"
        + " tableoid oid", PgCatalogSchema::none);
    // no operator classes or families of Accel's own (psql's \dd lists their comments)
    // objects Accel does not have (per-role settings, default privileges, conversions, text search, subscriptions,
    // foreign data): empty, as in a PostgreSQL database that made none (psql's drds, ddp, dc, dF, dRs, des)
    table("pg_db_role_setting", "setdatabase oid, setrole oid, setconfig text", PgCatalogSchema::none);
    table("pg_default_acl", "oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype text, defaclacl text",
        PgCatalogSchema::none);
    table("pg_conversion", "oid oid, conname name, connamespace oid, conowner oid, conforencoding int4,"
        + " contoencoding int4, conproc text, condefault bool, tableoid oid", PgCatalogSchema::none);
    table("pg_ts_config", "oid oid, cfgname name, cfgnamespace oid, cfgowner oid, cfgparser oid, tableoid oid",
        PgCatalogSchema::none);
    table("pg_ts_parser", "oid oid, prsname name, prsnamespace oid, prsstart text, prstoken text, prsend text,"
        + " prsheadline text, prslextype text, tableoid oid", PgCatalogSchema::none);
    table("pg_ts_dict", "oid oid, dictname name, dictnamespace oid, dictowner oid, dicttemplate oid,"
        + " dictinitoption text, tableoid oid", PgCatalogSchema::none);
    table("pg_ts_template", "oid oid, tmplname name, tmplnamespace oid, tmplinit text, tmpllexize text,"
        + " tableoid oid", PgCatalogSchema::none);
    table("pg_subscription", "oid oid, subdbid oid, subskiplsn text, subname name, subowner oid, subenabled bool,"
        + " subbinary bool, substream bool, subtwophasestate text, subdisableonerr bool, subconninfo text,"
        + " subslotname text, subsynccommit text, subpublications text", PgCatalogSchema::none);
    table("pg_foreign_data_wrapper", "oid oid, fdwname name, fdwowner oid, fdwhandler oid, fdwvalidator oid,"
        + " fdwacl text, fdwoptions text, tableoid oid", PgCatalogSchema::none);
    table("pg_foreign_server", "oid oid, srvname name, srvowner oid, srvfdw oid, srvtype text, srvversion text,"
        + " srvacl text, srvoptions text, tableoid oid", PgCatalogSchema::none);
    table("pg_foreign_table", "ftrelid oid, ftserver oid, ftoptions text", PgCatalogSchema::none);
    table("pg_user_mappings", "umid oid, srvid oid, srvname name, umuser oid, usename name, umoptions text",
        PgCatalogSchema::none);
    table("pg_opclass", "oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid,"
        + " opcintype oid, opcdefault bool, opckeytype oid, tableoid oid", PgCatalogSchema::none);
    table("pg_opfamily", "oid oid, opfmethod oid, opfname name, opfnamespace oid, opfowner oid, tableoid oid",
        PgCatalogSchema::none);
    table("pg_sequence", "seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, seqmin int8,"
        + " seqcache int8, seqcycle bool", () -> sequences().stream().map(q -> new Object[] {sequenceOid(q),
            q.type() == io.accel.catalog.ColumnType.SMALLINT ? 21 : q.type() == io.accel.catalog.ColumnType.INTEGER
                ? 23 : 20, q.start(), q.increment(), q.max(), q.min(), q.cache(), q.cycle()}).toList());
    table("pg_proc", "oid oid, proname name, pronamespace oid, proowner oid, prolang oid, prokind text,"
        + " prorettype oid, proargtypes text, proretset bool, pronargs int2, provolatile text, proparallel text,"
        + " prosecdef bool, proacl text, prosrc text", PgCatalogSchema::procRows);
    // the statements PREPARE named in this session (the protocol's named statements are the server's own)
    table("pg_prepared_statements", "name text, statement text, prepare_time timestamptz, parameter_types text,"
        + " from_sql bool, generic_plans int8, custom_plans int8", () -> session.sqlPreparedStatements().stream()
            .map(p -> new Object[] {p.name(), p.statement(), p.prepareTime().toEpochMilli(),
                "{" + String.join(",", p.parameterTypes().stream()
                .map(t -> t.contains(" ") ? "\"" + t + "\"" : t).toList()) + "}", true, 0L, p.executions()}).toList());
    // the extensions created (plpgsql, which every PostgreSQL database has, only once created: Accel runs no
    // PL/pgSQL), plpgsql in pg_catalog, the others in public
    table("pg_extension", "oid oid, extname name, extowner oid, extnamespace oid, extrelocatable bool,"
        + " extversion text", () -> {
          List<Object[]> rows = new ArrayList<>();
          session.database().catalog().extensions().forEach((name, version) -> rows.add(new Object[] {
              EXTENSION_OIDS.getOrDefault(name, 13569), name, 10, name.equals("plpgsql") ? 11 : 2200,
              name.equals("uuid-ossp"), version}));
          return rows;
        });
    // the user's tables (PostgreSQL's view also lists the system catalogs, which Accel's pg_class does not)
    table("pg_tables", "schemaname name, tablename name, tableowner name, tablespace text, hasindexes bool,"
        + " hasrules bool, hastriggers bool, rowsecurity bool", () -> model().tables().stream().map(t -> new Object[] {
            "public", t.name(), userName(), null, !t.hasHiddenRowId() || !t.indexes().isEmpty(), false, false,
            false}).toList());
    // no materialized views
    table("pg_matviews", "schemaname name, matviewname name, matviewowner name, tablespace name, hasindexes bool,"
        + " ispopulated bool, definition text", PgCatalogSchema::none);
    // the user's views, their queries as written (PostgreSQL prints its own deparsed form); TypeORM lists them
    table("pg_views", "schemaname name, viewname name, viewowner name, definition text", () -> userViews().stream()
        .map(v -> new Object[] {"public", v.name(), userName(), v.definition()}).toList());
    table("pg_indexes", "schemaname name, tablename name, indexname name, tablespace text, indexdef text",
        () -> model().allIndexes().stream().map(i -> new Object[] {"public", i.table().name(), i.name(), null,
            PgCatalogFunctions.createIndexText(i, true, false)}).toList());
    // empty: Accel has no extensions (deptype 'e', what Flyway and pg_dump ask for), and tools find a sequence's owner
    // and a view's tables through pg_get_serial_sequence and the views' own relations
    table("pg_depend", "classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4,"
        + " deptype text", PgCatalogSchema::none);
    table("pg_enum", "oid oid, enumtypid oid, enumsortorder float4, enumlabel name", PgCatalogSchema::none);
    // the user's tables with I/O counters Accel does not keep (zero): Sequelize's describeTable joins it for comments
    table("pg_statio_all_tables", "relid oid, schemaname name, relname name, heap_blks_read int8, heap_blks_hit int8,"
        + " idx_blks_read int8, idx_blks_hit int8, toast_blks_read int8, toast_blks_hit int8, tidx_blks_read int8,"
        + " tidx_blks_hit int8", () -> model().tables().stream().map(t -> new Object[] {tableOid(t), "public",
            t.name(), 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L}).toList());
    // no range types (Sequelize reads it with pg_type on every connection)
    table("pg_range", "rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid,"
        + " rngcanonical text, rngsubdiff text", PgCatalogSchema::none);
    // one role per session and no role memberships (psql's \du); no extensions: Accel runs no PL/pgSQL or other
    // extension, so it lists none rather than PostgreSQL's plpgsql (psql's \dx)
    table("pg_auth_members", "roleid oid, member oid, grantor oid, admin_option bool", PgCatalogSchema::none);
    // helpers for the rewritten shapes of client queries (see io.accel.sql.PgCatalogSyntax)
    table("accel_search_path", "r int4, nspname name", () -> {
      List<Object[]> rows = new ArrayList<>();
      List<String> path = searchPath(false);
      for (int i = 0; i < path.size(); i++) {
        rows.add(new Object[] {i + 1, path.get(i)});
      }
      return rows;
    });
    table("accel_constraint_keys", "oid oid, n int4, x int2", () -> {
      List<Object[]> rows = new ArrayList<>();
      for (IndexInfo i : model().allIndexes()) {
        for (int k = 0; i.primary() && k < i.keys().size(); k++) {
          rows.add(new Object[] {constraintOid(i), k + 1, (short) (i.keys().get(k).column() + 1)});
        }
      }
      return rows;
    });
    // the positions 1 .. max_index_keys, for pgJDBC's generate_series over a constraint's keys
    table("accel_key_positions", "n int4", () -> {
      List<Object[]> rows = new ArrayList<>();
      for (int n = 1; n <= 32; n++) {
        rows.add(new Object[] {n});
      }
      return rows;
    });
    table("accel_index_keys", "indexrelid oid, n int4, x int2, option int2", () -> {
      List<Object[]> rows = new ArrayList<>();
      for (IndexInfo i : model().allIndexes()) {
        for (int k = 0; k < i.keys().size(); k++) {
          IndexColumn c = i.keys().get(k);
          rows.add(new Object[] {i.oid(), k + 1, (short) (c.column() + 1), (short) (c.descending() ? 3 : 0)});
        }
        for (int k = 0; i.def() != null && k < i.def().include().size(); k++) {
          rows.add(new Object[] {i.oid(), i.keys().size() + k + 1, (short) (i.def().include().get(k) + 1),
              (short) 0});
        }
      }
      return rows;
    });
    table("pg_stat_activity", "datid oid, datname name, pid int4, usesysid oid, usename name,"
        + " application_name text, client_addr text, state text, query text", this::activityRows);
  }

  private List<Object[]> classRows() {
    Model m = model();
    List<Object[]> rows = new ArrayList<>();
    java.util.Set<String> referenced = new java.util.HashSet<>();
    for (TableDef t : m.tables()) {
      t.foreignKeys().forEach(fk -> referenced.add(fk.refTable()));
    }
    for (TableDef t : m.tables()) {
      double tuples = session.database().statistics().of(t).analyzed()
          ? session.database().statistics().of(t).rowCount() : -1;
      boolean hasIndex = !t.hasHiddenRowId() || !t.indexes().isEmpty();
      Object[] row = classRow(tableOid(t), t.name(), 2, (float) tuples, hasIndex, "r", t.columns().size(), HEAP_OID);
      // psql's \d lists CHECK constraints only when relchecks says there are some, foreign keys (its own and those
      // referencing it) only when relhastriggers does, as PostgreSQL's referential triggers set it
      row[18] = (short) t.checks().size();
      row[20] = !t.foreignKeys().isEmpty() || referenced.contains(t.name());
      rows.add(row);
    }
    for (IndexInfo i : m.allIndexes()) {
      double tuples = session.database().statistics().of(i.table()).analyzed()
          ? session.database().statistics().of(i.table()).rowCount() : 0;
      rows.add(classRow(i.oid(), i.name(), 1, (float) tuples, false, "i", i.keys().size()
          + (i.def() == null ? 0 : i.def().include().size()), BTREE_OID));
    }
    for (ViewDef v : userViews()) {
      rows.add(classRow(viewOid(v), v.name(), 0, -1, false, "v", v.columns().size(), 0));
    }
    for (io.accel.catalog.SequenceDef q : sequences()) {
      rows.add(classRow(sequenceOid(q), q.name(), 1, 1f, false, "S", 3, 0));
    }
    return rows;
  }

  private static Object[] classRow(int oid, String name, int pages, float tuples, boolean hasIndex, String kind,
      int natts, int am) {
    return new Object[] {oid, name, PUBLIC_OID, 0, 0, USER_OID, am, oid, 0, kind.equals("r") ? 0 : pages, tuples, 0,
        0, hasIndex, false, "p", kind, (short) natts, (short) 0, false, false, false, false, false, true, "d",
        false, 0, 0, 0, null, null, null};
  }

  private List<Object[]> attributeRows() {
    List<Object[]> rows = new ArrayList<>();
    Model m = model();
    for (TableDef t : m.tables()) {
      for (int i = 0; i < t.columns().size(); i++) {
        Column c = t.columns().get(i);
        String identity = identity(t, c.name());
        Object[] row = attributeRow(tableOid(t), c, i + 1, c.defaultSql().isPresent() && identity.isEmpty());
        row[16] = identity;
        row[17] = c.generated() ? "s" : "";
        rows.add(row);
      }
    }
    for (IndexInfo ix : m.allIndexes()) {
      List<Column> columns = new ArrayList<>();
      for (IndexColumn k : ix.keys()) {
        // an expression column is named as PostgreSQL names it: its function, else "expr"
        columns.add(k.isExpression() ? new Column(io.accel.sql.CommandParser.expressionLabel(k.expression()), k.type(), true,
            java.util.Optional.empty()) : ix.table().columns().get(k.column()));
      }
      if (ix.def() != null) {
        ix.def().include().forEach(c -> columns.add(ix.table().columns().get(c)));
      }
      for (int i = 0; i < columns.size(); i++) {
        Column c = columns.get(i);
        rows.add(attributeRow(ix.oid(), new Column(c.name(), c.type(), true, java.util.Optional.empty()), i + 1,
            false));
      }
    }
    for (ViewDef v : userViews()) {
      List<Column> columns = viewColumns(v);
      for (int i = 0; i < columns.size(); i++) {
        rows.add(attributeRow(viewOid(v), columns.get(i), i + 1, false));
      }
    }
    return rows;
  }

  private static Object[] attributeRow(int relation, Column c, int attnum, boolean hasDefault) {
    int type = PgTypes.oid(c.type());
    PgTypes.PgType pg = PgTypes.BY_OID.get(type);
    return new Object[] {relation, c.name(), type, -1, pg.len(), (short) attnum, 0, -1, PgTypes.typmod(c.type()),
        pg.byVal(), pg.align(), pg.storage(), "", !c.nullable(), hasDefault, false, "", "", false, true, 0,
        pg.collation(), null, null, null, null};
  }

  private List<Object[]> attrdefRows() {
    List<Object[]> rows = new ArrayList<>();
    for (TableDef t : model().tables()) {
      for (int i = 0; i < t.columns().size(); i++) {
        Column c = t.columns().get(i);
        if (c.defaultSql().isPresent() && identity(t, c.name()).isEmpty()) {
          rows.add(new Object[] {1_100_000_000 + (int) t.id() * 1000 + i + 1, tableOid(t), (short) (i + 1),
              deparsedDefault(c)});
        }
      }
    }
    return rows;
  }

  /**
   * A default as PostgreSQL's pg_get_expr prints it: a quoted or negative literal with a cast to the column's type
   * ({@code 'x'::text}, {@code '-1'::integer}), anything else as written.
   */
  static String deparsedDefault(Column c) {
    if (c.generated()) {
      return c.generationExpression().get().trim(); // psql prints "generated always as (<this>) stored"
    }
    String sql = c.defaultSql().orElseThrow().trim();
    String type = switch (c.type().kind()) {
      case VARCHAR -> "character varying";
      case CHAR -> "bpchar";
      default -> PgTypes.formatType(PgTypes.oid(c.type()), -1);
    };
    if (sql.matches("'([^']|'')*'")) {
      return sql + "::" + type;
    }
    if (sql.matches("-\\s*[0-9.]+")) {
      return "'" + sql.replaceAll("\\s", "") + "'::" + type;
    }
    return sql;
  }

  private static List<Object[]> typeRows() {
    List<Object[]> rows = new ArrayList<>();
    for (PgTypes.PgType t : PgTypes.ALL) {
      String io = t.input().endsWith("in") ? t.input().substring(0, t.input().length() - 2) : t.input();
      rows.add(new Object[] {t.oid(), t.name(), PG_CATALOG_OID, USER_OID, t.len(), t.byVal(), t.type(),
          t.category(), t.preferred(), true, ",", 0, t.elem() != 0 ? "array_subscript_handler" : "-", t.elem(),
          t.array(), t.input(), io + "out", io + "recv", io + "send", "-", "-", "-", t.align(), t.storage(), false, 0,
          -1, 0, t.collation(), null, null, null});
    }
    return rows;
  }

  private List<Object[]> indexRows() {
    List<Object[]> rows = new ArrayList<>();
    for (IndexInfo i : model().allIndexes()) {
      StringBuilder key = new StringBuilder();
      StringBuilder option = new StringBuilder();
      List<Integer> columns = new ArrayList<>();
      for (IndexColumn k : i.keys()) {
        columns.add(k.column() + 1);
        option.append(option.length() > 0 ? " " : "").append(k.descending() ? 3 : 0);
      }
      if (i.def() != null) {
        i.def().include().forEach(c -> columns.add(c + 1));
      }
      for (int c : columns) {
        key.append(key.length() > 0 ? " " : "").append(c);
      }
      // indexprs: the expressions' text where PostgreSQL keeps their trees (non-null is what clients test)
      String expressions = i.keys().stream().filter(IndexColumn::isExpression).map(IndexColumn::expression)
          .reduce((a, b) -> a + ", " + b).orElse(null);
      rows.add(new Object[] {i.oid(), tableOid(i.table()), (short) columns.size(), (short) i.keys().size(),
          i.unique(), false, i.primary(), false, true, false, true, false, true, true, false, key.toString(), null,
          null, option.toString(), expressions, i.def() == null ? null : i.def().predicate()});
    }
    return rows;
  }

  private List<Object[]> constraintRows() {
    List<Object[]> rows = new ArrayList<>();
    for (IndexInfo i : model().allIndexes()) {
      if (!i.primary()) {
        continue;
      }
      StringBuilder key = new StringBuilder("{");
      for (IndexColumn k : i.keys()) {
        key.append(key.length() > 1 ? "," : "").append(k.column() + 1);
      }
      rows.add(new Object[] {constraintOid(i), i.name(), PUBLIC_OID, "p", false, false, true,
          tableOid(i.table()), 0, i.oid(), 0, 0, " ", " ", " ", true, 0, true, key.append('}').toString(), null,
          null, null, null, null, null, null});
    }
    for (IndexInfo i : model().allIndexes()) {
      if (i.def() == null || !i.def().constraint()) {
        continue;
      }
      StringBuilder key = new StringBuilder("{");
      for (IndexColumn k : i.keys()) {
        key.append(key.length() > 1 ? "," : "").append(k.column() + 1);
      }
      rows.add(new Object[] {uniqueOid(i.def()), i.name(), PUBLIC_OID, "u", false, false, true,
          tableOid(i.table()), 0, i.oid(), 0, 0, " ", " ", " ", true, 0, true, key.append('}').toString(), null,
          null, null, null, null, null, null});
    }
    for (ForeignKeyInfo f : foreignKeys()) {
      rows.add(new Object[] {f.oid(), f.fk().name(), PUBLIC_OID, "f", f.fk().deferral().deferrable(),
          f.fk().deferral() == io.accel.catalog.ForeignKeyDef.Deferral.INITIALLY_DEFERRED, f.fk().validated(),
          tableOid(f.table()), 0,
          f.indexOid(), 0, tableOid(f.referenced()), String.valueOf(f.fk().onUpdate().code),
          String.valueOf(f.fk().onDelete().code), "s", true, 0, true, attnums(f.table(), f.fk().columns()),
          attnums(f.referenced(), f.fk().refColumns()), null, null, null, null, null, null});
    }
    for (TableDef t : model().tables()) {
      for (int c = 0; c < t.checks().size(); c++) {
        io.accel.catalog.CheckDef check = t.checks().get(c);
        java.util.Set<String> used = io.accel.sql.ViewReferences.expressionNames(check.expression());
        StringBuilder key = new StringBuilder("{");
        for (int i = 0; i < t.columns().size(); i++) {
          if (used.contains(t.columns().get(i).name())) {
            key.append(key.length() > 1 ? "," : "").append(i + 1);
          }
        }
        rows.add(new Object[] {checkOid(t, c), check.name(), PUBLIC_OID, "c", false, false, check.validated(),
            tableOid(t), 0, 0,
            0, 0, " ", " ", " ", true, 0, false, key.append('}').toString(), null, null, null, null, null, null,
            check.expression()});
      }
    }
    return rows;
  }

  /**
   * COMMENT ON's texts as pg_description rows: the catalog keeps them by object (ids, column slots, constraint names;
   * see {@code Catalog.relationComment}), so the oids and attnums are those of the objects as they are now.
   */
  Map<DescriptionKey, String> descriptions() {
    io.accel.catalog.Catalog catalog = session.database().catalog();
    long version = catalogVersion();
    Descriptions d = descriptions;
    if (d != null && d.version() == version) {
      return d.texts();
    }
    Map<String, String> comments = catalog.comments();
    Map<DescriptionKey, String> texts = new java.util.LinkedHashMap<>();
    java.util.function.BiConsumer<String, DescriptionKey> add = (key, k) -> {
      String text = comments.get(key);
      if (text != null) {
        texts.put(k, text);
      }
    };
    if (!comments.isEmpty()) {
      for (TableDef t : model().tables()) {
        int oid = tableOid(t);
        add.accept(io.accel.catalog.Catalog.relationComment(t.id()), new DescriptionKey(oid, PG_CLASS_CLASS, 0));
        for (int i = 0; i < t.columns().size(); i++) {
          add.accept(io.accel.catalog.Catalog.columnComment(t.id(), t.layout().columnSlots().get(i)),
              new DescriptionKey(oid, PG_CLASS_CLASS, i + 1));
        }
        if (!t.hasHiddenRowId()) {
          add.accept(io.accel.catalog.Catalog.primaryKeyComment(t.id()),
              new DescriptionKey(oid + 1, PG_CLASS_CLASS, 0));
          add.accept(io.accel.catalog.Catalog.primaryKeyConstraintComment(t.id()),
              new DescriptionKey(1_000_000_000 + (int) t.id(), PG_CONSTRAINT_CLASS, 0));
        }
        for (IndexDef i : t.indexes()) {
          add.accept(io.accel.catalog.Catalog.indexComment(t.id(), i.id()),
              new DescriptionKey(16384 + 2 * (int) i.id(), PG_CLASS_CLASS, 0));
          if (i.constraint()) {
            add.accept(io.accel.catalog.Catalog.constraintComment(t.id(), i.name()),
                new DescriptionKey(uniqueOid(i), PG_CONSTRAINT_CLASS, 0));
          }
        }
        for (int c = 0; c < t.checks().size(); c++) {
          add.accept(io.accel.catalog.Catalog.constraintComment(t.id(), t.checks().get(c).name()),
              new DescriptionKey(checkOid(t, c), PG_CONSTRAINT_CLASS, 0));
        }
        for (int c = 0; c < t.foreignKeys().size(); c++) {
          add.accept(io.accel.catalog.Catalog.constraintComment(t.id(), t.foreignKeys().get(c).name()),
              new DescriptionKey(foreignKeyOid(t, c), PG_CONSTRAINT_CLASS, 0));
        }
      }
      for (ViewDef v : userViews()) {
        add.accept(io.accel.catalog.Catalog.relationComment(v.id()), new DescriptionKey(viewOid(v), PG_CLASS_CLASS, 0));
        for (int i = 0; i < v.columns().size(); i++) {
          add.accept(io.accel.catalog.Catalog.columnComment(v.id(), i),
              new DescriptionKey(viewOid(v), PG_CLASS_CLASS, i + 1));
        }
      }
      for (io.accel.catalog.SequenceDef q : sequences()) {
        add.accept(io.accel.catalog.Catalog.relationComment(q.id()),
            new DescriptionKey(sequenceOid(q), PG_CLASS_CLASS, 0));
      }
      add.accept(io.accel.catalog.Catalog.schemaComment("public"),
          new DescriptionKey(PUBLIC_OID, PG_NAMESPACE_CLASS, 0));
    }
    descriptions = new Descriptions(version, texts);
    return texts;
  }

  /** The oid of a table's CHECK constraint (its position among them). */
  static int checkOid(TableDef t, int position) {
    return 1_200_000_000 + (int) t.id() * 100 + position;
  }

  /** The CHECK constraint with this oid, if there is one. */
  io.accel.catalog.CheckDef check(int oid) {
    for (TableDef t : model().tables()) {
      for (int c = 0; c < t.checks().size(); c++) {
        if (checkOid(t, c) == oid) {
          return t.checks().get(c);
        }
      }
    }
    return null;
  }

  private List<Object[]> settingRows() {
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, String[]> e : session.settings().all().entrySet()) {
      String[] v = e.getValue();
      String value = v.length > 0 ? v[0] : null;
      String description = v.length > 1 ? v[1] : null;
      rows.add(new Object[] {e.getKey(), value, null, "Accel", description, null, "user", "string", "default",
          null, null, null, value, value, null, null, false});
    }
    return rows;
  }

  private static List<Object[]> procRows() {
    List<Object[]> rows = new ArrayList<>();
    int oid = 90_000;
    for (String name : Functions.PROC_NAMES) {
      // built into the engine, as PostgreSQL's internal functions (language internal, prosrc the name); volatile
      // as far as a client knows
      rows.add(new Object[] {oid++, name, PG_CATALOG_OID, USER_OID, 12, "f", 25, "", false, (short) 0, "v", "s",
          false, null, name});
    }
    return rows;
  }

  private List<Object[]> activityRows() {
    return List.<Object[]>of(new Object[] {DATABASE_OID, databaseName(), PgCatalogFunctions.pg_backend_pid(),
        USER_OID, user, session.settings().get("application_name"), null, "active", null});
  }

  private static com.google.common.collect.Multimap<String, org.apache.calcite.schema.Function> functions() {
    return ScalarFunctionImpl.functions(PgCatalogFunctions.class);
  }

  /**
   * The functions, built when Calcite first asks for them (a holder class: registering them loads some 450 classes,
   * a sixth of a second of a fresh JVM that only runs directly planned statements).
   */
  private static final class Functions {
    static final com.google.common.collect.Multimap<String, org.apache.calcite.schema.Function> FUNCTIONS =
        functions();

    /** The names pg_proc lists (its oids are 90000 on, in this order). */
    static final List<String> PROC_NAMES = FUNCTIONS.keySet().stream().filter(n -> !n.startsWith("accel_"))
        .toList();
  }

  /** Whether {@code oid} is one of pg_proc's rows. */
  static boolean procOid(int oid) {
    return oid >= 90_000 && oid < 90_000 + Functions.PROC_NAMES.size();
  }

  @Override
  protected Map<String, Table> getTableMap() {
    return tables;
  }

  @Override
  protected com.google.common.collect.Multimap<String, org.apache.calcite.schema.Function> getFunctionMultimap() {
    return Functions.FUNCTIONS;
  }

  @Override
  protected Map<String, RelProtoDataType> getTypeMap() {
    return TYPE_ALIASES;
  }

  /** PostgreSQL's type names, qualified ({@code x::pg_catalog.text}) as psql writes them. */
  static final Map<String, RelProtoDataType> TYPE_ALIASES;

  static {
    Map<String, RelProtoDataType> aliases = new HashMap<>(AccelSchema.TYPE_ALIASES);
    aliases.put("oid", f -> f.createSqlType(SqlTypeName.INTEGER));
    aliases.put("name", f -> f.createSqlType(SqlTypeName.VARCHAR));
    aliases.put("varchar", f -> f.createSqlType(SqlTypeName.VARCHAR));
    aliases.put("int2vector", f -> f.createSqlType(SqlTypeName.VARCHAR));
    aliases.put("oidvector", f -> f.createSqlType(SqlTypeName.VARCHAR));
    aliases.put("regproc", f -> f.createSqlType(SqlTypeName.VARCHAR));
    aliases.put("numeric", f -> f.createSqlType(SqlTypeName.DECIMAL));
    TYPE_ALIASES = Map.copyOf(aliases);
  }

  /** For {@link InformationSchema}: the model's tables in catalog order. */
  List<TableDef> userTables() {
    return model().tables();
  }

  Session session() {
    return session;
  }
}
