package io.accel.plan;

import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.exec.Settings;

/**
 * PostgreSQL's system-information functions, as the schema {@code pg_catalog} offers them to SQL (every public
 * static method is a function of that name). Those that need the session take its token first
 * ({@link PgCatalogSchema#of}): {@code io.accel.sql.PgCatalogSyntax} inserts it into the calls it rewrites
 * ({@code current_database()} becomes {@code pg_catalog.accel_current_database(7)}).
 */
public final class PgCatalogFunctions {
  private PgCatalogFunctions() {
  }

  /** {@code conkey[n]} of a catalog int2[] held as text ({@code {3,4}}): the n-th element, NULL past the end. */
  public static Short accel_key_at(String array, Integer n) {
    if (array == null || n == null || n < 1) {
      return null;
    }
    String[] keys = keys(array);
    return n <= keys.length ? Short.valueOf(keys[n - 1]) : null;
  }

  /** Whether {@code n} is one of the keys of a catalog key column's text ({@code {1,2}}, {@code 1 2}). */
  public static Boolean accel_key_in(Object n, String array) {
    if (n == null || array == null) {
      return null;
    }
    long key = ((Number) n).longValue(); // attnum is a smallint
    for (String k : keys(array)) {
      if (Long.parseLong(k) == key) {
        return true;
      }
    }
    return false;
  }

  /** The numbers of a catalog key column's text: {@code {1,2}} (conkey) or {@code 1 2} (indkey, an int2vector). */
  private static String[] keys(String array) {
    String inner = array.replace("{", "").replace("}", "").trim();
    return inner.isEmpty() ? new String[0] : inner.split("[,\\s]+");
  }

  public static String version() {
    return "PostgreSQL " + Settings.SERVER_VERSION + " on x86_64-pc-linux-gnu, compiled by javac, 64-bit";
  }

  public static String accel_current_database(int token) {
    return PgCatalogSchema.of(token).databaseName();
  }

  public static String accel_current_schema(int token) {
    var path = PgCatalogSchema.of(token).searchPath(false);
    return path.isEmpty() ? null : path.get(0);
  }

  /** {@code current_schemas(implicit)} as the text of PostgreSQL's name[] ({@code {pg_catalog,public}}). */
  public static String accel_current_schemas(int token, boolean implicit) {
    return "{" + String.join(",", PgCatalogSchema.of(token).searchPath(implicit)) + "}";
  }

  /** {@code (current_schemas(implicit))[n]}, 1-based as PostgreSQL's arrays. */
  public static String accel_current_schemas_at(int token, boolean implicit, int n) {
    var path = PgCatalogSchema.of(token).searchPath(implicit);
    return n >= 1 && n <= path.size() ? path.get(n - 1) : null;
  }

  /**
   * {@code nextval('name')}: the sequence's next value (see {@code io.accel.exec.SessionSequences}); {@code site}
   * numbers the call, so Calcite never takes two calls for one.
   */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long accel_nextval(int token, int site, String name) {
    return PgCatalogSchema.of(token).session().sequences().nextval(name);
  }

  /** {@code currval('name')}: this session's last nextval of the sequence; 55000 before the first. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long accel_currval(int token, String name) {
    return PgCatalogSchema.of(token).session().sequences().currval(name);
  }

  /** {@code setval('name', value)}: nextval returns value + increment next. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long accel_setval(int token, String name, long value) {
    return PgCatalogSchema.of(token).session().sequences().setval(name, value, true);
  }

  /** {@code setval('name', value, is_called)}: with is_called false, nextval returns value itself next. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long accel_setval(int token, String name, long value, boolean isCalled) {
    return PgCatalogSchema.of(token).session().sequences().setval(name, value, isCalled);
  }

  /** {@code lastval()}: the value of this session's last nextval, of any sequence. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static long accel_lastval(int token) {
    return PgCatalogSchema.of(token).session().sequences().lastval();
  }

  /**
   * {@code pg_get_serial_sequence('table', 'column')}: {@code public.<sequence>} of a SERIAL or identity column (the
   * sequence the column owns), NULL for other columns.
   */
  public static String accel_get_serial_sequence(int token, String table, String column) {
    if (table == null || column == null) {
      return null;
    }
    io.accel.exec.Database db = PgCatalogSchema.of(token).session().database();
    String name = io.accel.exec.SessionSequences.relationNameOf(table);
    io.accel.catalog.TableDef t = db.catalog().table(name).orElseThrow(() -> new io.accel.sql.AccelException(
        io.accel.sql.SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
    String col = column.startsWith("\"") && column.endsWith("\"") && column.length() > 1
        ? column.substring(1, column.length() - 1) : column.toLowerCase(java.util.Locale.ROOT);
    if (t.columnOrdinal(col).isEmpty()) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_COLUMN,
          "column \"" + col + "\" of relation \"" + name + "\" does not exist");
    }
    return db.sequences().ownedBy(t.id()).stream().filter(s -> s.owner().get().column().equals(col))
        .map(s -> "public." + s.name()).findFirst().orElse(null);
  }

  /** {@code pg_advisory_lock(key)}: waits for the store-wide lock on key, held until unlocked or the session ends. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static String accel_advisory_lock(int token, long key) {
    PgCatalogSchema.of(token).session().advisoryLock(key, false);
    return "";
  }

  /** {@code pg_advisory_xact_lock(key)}: as pg_advisory_lock, held until the transaction ends. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static String accel_advisory_xact_lock(int token, long key) {
    PgCatalogSchema.of(token).session().advisoryLock(key, true);
    return "";
  }

  /** {@code pg_try_advisory_lock(key)}: takes the lock if no other session holds it. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static boolean accel_try_advisory_lock(int token, long key) {
    io.accel.exec.Session s = PgCatalogSchema.of(token).session();
    return s.database().advisoryLocks().tryLock(s, key, false);
  }

  /** {@code pg_try_advisory_xact_lock(key)}: takes the lock until the transaction ends if no other session holds it. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static boolean accel_try_advisory_xact_lock(int token, long key) {
    io.accel.exec.Session s = PgCatalogSchema.of(token).session();
    return s.database().advisoryLocks().tryLock(s, key, true);
  }

  /** {@code pg_advisory_unlock(key)}: releases one session-level hold; false when the session holds none. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static boolean accel_advisory_unlock(int token, long key) {
    io.accel.exec.Session s = PgCatalogSchema.of(token).session();
    return s.database().advisoryLocks().unlock(s, key);
  }

  /** {@code pg_advisory_unlock_all()}: releases the session's session-level holds. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static String accel_advisory_unlock_all(int token) {
    io.accel.exec.Session s = PgCatalogSchema.of(token).session();
    s.database().advisoryLocks().unlockAll(s);
    return "";
  }

  /** {@code current_setting(name)}: the setting as SHOW prints it; 42704 for an unknown one. */
  public static String accel_current_setting(int token, String name) {
    return name == null ? null : PgCatalogSchema.of(token).session().settings().get(name);
  }

  /** {@code current_setting(name, missing_ok)}: NULL for an unknown setting when missing_ok. */
  public static String accel_current_setting(int token, String name, Boolean missingOk) {
    try {
      return accel_current_setting(token, name);
    } catch (io.accel.sql.AccelException e) {
      if (Boolean.TRUE.equals(missingOk)) {
        return null;
      }
      throw e;
    }
  }

  /** {@code pg_notify(channel, payload)}: NOTIFY, sent at the statement's transaction's commit. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static String accel_pg_notify(int token, String channel, String payload) {
    PgCatalogSchema.of(token).session().pgNotify(channel, payload);
    return ""; // void: printed empty, and not NULL
  }

  /** {@code set_config(name, value, is_local)}: SET as the statement runs (see {@code Session.setConfig}). */
  public static String accel_set_config(int token, String name, String value, Boolean isLocal) {
    if (name == null) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.NULL_VALUE_NOT_ALLOWED,
          "SET requires parameter name");
    }
    return PgCatalogSchema.of(token).session().setConfig(name, value, Boolean.TRUE.equals(isLocal));
  }

  public static String accel_get_userbyid(int token, Integer oid) {
    if (oid == null) {
      return null;
    }
    return oid == PgCatalogSchema.USER_OID ? PgCatalogSchema.of(token).userName()
        : oid == PgCatalogSchema.DATABASE_OWNER_OID ? "pg_database_owner" : "unknown (OID=" + oid + ")";
  }

  public static boolean accel_table_is_visible(int token, Integer oid) {
    return oid != null && PgCatalogSchema.of(token).relationVisible(oid);
  }

  /** {@code text::regclass::oid}: the oid of the relation the text names; 42P01 when there is none. */
  public static Integer accel_regclass_oid(int token, String name) {
    if (name == null) {
      return null;
    }
    Integer oid = PgCatalogSchema.of(token).relationOid(name);
    if (oid == null) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_TABLE,
          "relation \"" + name + "\" does not exist");
    }
    return oid;
  }

  /** {@code text::regtype}: the type the text names, as format_type prints it; 42704 when there is none. */
  public static String accel_regtype_text(String name) {
    if (name == null) {
      return null;
    }
    Integer oid = PgCatalogSchema.typeOid(name);
    if (oid == null) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_OBJECT,
          "type \"" + name + "\" does not exist");
    }
    return format_type(oid, null);
  }

  /** {@code X::regclass} for an oid: the relation's name (NULL-safe), or the number when there is none. */
  public static String accel_regclass_name(int token, Integer oid) {
    return oid == null ? null : PgCatalogSchema.of(token).relationName(oid);
  }

  public static String accel_regnamespace_name(int token, Integer oid) {
    return oid == null ? null : PgCatalogSchema.of(token).namespaceName(oid);
  }

  public static String accel_get_indexdef(int token, Integer oid) {
    return accel_get_indexdef(token, oid, 0, false);
  }

  /**
   * {@code pg_get_indexdef(index, column, pretty)}: the CREATE INDEX statement for column 0, else the name of
   * that key column.
   */
  public static String accel_get_indexdef(int token, Integer oid, Object column, Boolean pretty) {
    // (the column is any integer type: psql's \d INDEX passes pg_attribute.attnum, a SMALLINT)
    if (oid == null || column != null && !(column instanceof Number)) {
      return null;
    }
    PgCatalogSchema schema = PgCatalogSchema.of(token);
    PgCatalogSchema.IndexInfo info = schema.index(oid);
    if (info == null) {
      return null;
    }
    TableDef t = info.table();
    int col = column == null ? 0 : ((Number) column).intValue();
    if (col > 0) {
      return col <= info.keys().size() ? keyText(t, info.keys().get(col - 1), true) : null;
    }
    // the table qualified, except in the pretty form when schema public is on the search path, as PostgreSQL
    // prints it (psql's \d asks for the pretty form)
    boolean prettyForm = Boolean.TRUE.equals(pretty);
    return createIndexText(info, !prettyForm || !schema.searchPath(false).contains("public"), prettyForm);
  }

  /** The CREATE INDEX statement of an index, its table qualified by its schema or not (pg_get_indexdef, pg_indexes). */
  static String createIndexText(PgCatalogSchema.IndexInfo info, boolean qualified, boolean pretty) {
    TableDef t = info.table();
    StringBuilder sb = new StringBuilder("CREATE ");
    if (info.unique()) {
      sb.append("UNIQUE ");
    }
    String qualifier = qualified ? "public." : "";
    sb.append("INDEX ").append(quoteIdent(info.name())).append(" ON ").append(qualifier).append(quoteIdent(t.name()))
        .append(" USING btree (").append(keyList(t, info.keys())).append(')');
    IndexDef def = info.def();
    if (def != null && !def.include().isEmpty()) {
      sb.append(" INCLUDE (");
      for (int i = 0; i < def.include().size(); i++) {
        sb.append(i > 0 ? ", " : "").append(quoteIdent(t.columns().get(def.include().get(i)).name()));
      }
      sb.append(')');
    }
    if (def != null && def.predicate() != null) {
      // the pretty form without the parentheses around the whole predicate
      sb.append(pretty ? " WHERE " + def.predicate() : " WHERE (" + def.predicate() + ")");
    }
    return sb.toString();
  }

  private static final java.util.regex.Pattern ONE_CALL = java.util.regex.Pattern.compile(
      "[A-Za-z_][A-Za-z_0-9.]*\\s*\\(.*\\)", java.util.regex.Pattern.DOTALL);

  /**
   * A key column as PostgreSQL prints it: the column's name, a function call as written, another expression in
   * parentheses around PostgreSQL's own (an operator expression deparses as {@code (n * 2)}: {@code ((n * 2))}).
   */
  static String keyText(TableDef t, IndexColumn key, boolean column) {
    if (!key.isExpression()) {
      return quoteIdent(t.columns().get(key.column()).name());
    }
    String e = key.expression();
    if (ONE_CALL.matcher(e).matches() && balancedOnce(e)) {
      return e;
    }
    return column ? "(" + e + ")" : "((" + e + "))";
  }

  /** Whether the first "(" of {@code e} closes at its end ({@code f(a)}, not {@code f(a) + g(b)}). */
  private static boolean balancedOnce(String e) {
    int depth = 0;
    for (int i = e.indexOf('('); i < e.length(); i++) {
      char c = e.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return i == e.length() - 1;
      }
    }
    return false;
  }

  static String keyList(TableDef t, java.util.List<IndexColumn> keys) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < keys.size(); i++) {
      sb.append(i > 0 ? ", " : "").append(keyText(t, keys.get(i), false));
      if (keys.get(i).descending()) {
        sb.append(" DESC");
      }
    }
    return sb.toString();
  }

  /** {@code pg_get_triggerdef}: Accel has no triggers (pg_trigger is empty), so there is none to print. */
  public static String pg_get_triggerdef(Integer oid) {
    return null;
  }

  public static String pg_get_triggerdef(Integer oid, Boolean pretty) {
    return null;
  }

  public static String accel_get_constraintdef(int token, Integer oid) {
    return accel_get_constraintdef(token, oid, false);
  }

  /** {@code pg_get_constraintdef}: {@code PRIMARY KEY (a, b)} for the primary keys Accel records as constraints. */
  public static String accel_get_constraintdef(int token, Integer oid, Boolean pretty) {
    if (oid == null) {
      return null;
    }
    PgCatalogSchema.IndexInfo info = PgCatalogSchema.of(token).constraint(oid);
    if (info == null) {
      PgCatalogSchema.ForeignKeyInfo fk = PgCatalogSchema.of(token).foreignKey(oid);
      if (fk != null) {
        return fk.fk().definition();
      }
      // a CHECK: its expression as written (PostgreSQL prints its own deparsed form, parenthesised once more unless
      // pretty, as psql's \d asks: CHECK (qty >= 0))
      io.accel.catalog.CheckDef check = PgCatalogSchema.of(token).check(oid);
      return check == null ? null : (Boolean.TRUE.equals(pretty) ? "CHECK (" + check.expression() + ")"
          : "CHECK ((" + check.expression() + "))") + (check.validated() ? "" : " NOT VALID");
    }
    return (info.primary() ? "PRIMARY KEY (" : "UNIQUE (") + keyList(info.table(), info.keys()) + ")";
  }

  /** {@code pg_has_role(role, privilege)} for the session's user (see {@link PgCatalogSchema#hasRole}). */
  public static boolean accel_has_role(int token, String role, String privilege) {
    return PgCatalogSchema.of(token).hasRole(null, role);
  }

  public static boolean accel_has_role(int token, String user, String role, String privilege) {
    return PgCatalogSchema.of(token).hasRole(user, role);
  }

  /**
   * {@code pg_table_size(relation)}: the relation's bytes as RocksDB estimates them; NULL for no such oid. The
   * relation is an oid or, as PostgreSQL casts a literal to regclass, a name ({@code pg_table_size('items')}).
   */
  public static Long accel_table_size(int token, Object relation) {
    Integer oid = relationOid(token, relation);
    return oid == null ? null : PgCatalogSchema.of(token).relationSize(oid);
  }

  public static Long accel_relation_size(int token, Object relation) {
    return accel_table_size(token, relation);
  }

  /** {@code pg_relation_size(relation, fork)}: Accel has one "fork", the main one; the others are empty. */
  public static Long accel_relation_size(int token, Object relation, String fork) {
    Long main = accel_table_size(token, relation);
    return fork == null || main == null ? null : "main".equals(fork) ? main : 0L;
  }

  public static Long accel_indexes_size(int token, Object relation) {
    Integer oid = relationOid(token, relation);
    return oid == null ? null : PgCatalogSchema.of(token).indexesSize(oid);
  }

  public static Long accel_total_relation_size(int token, Object relation) {
    Long table = accel_table_size(token, relation);
    return table == null ? null : table + accel_indexes_size(token, relation);
  }

  /** An oid, or a relation's name as {@code 'name'::regclass} reads it (42P01 when there is none). */
  private static Integer relationOid(int token, Object relation) {
    if (relation == null || relation instanceof Number) {
      return relation == null ? null : ((Number) relation).intValue();
    }
    String name = relation.toString();
    Integer oid = PgCatalogSchema.of(token).relationOid(name);
    if (oid == null) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.UNDEFINED_TABLE,
          "relation \"" + name + "\" does not exist");
    }
    return oid;
  }

  /** {@code pg_database_size(name)}: every column family of the store; 3D000 for another database. */
  public static Long accel_database_size(int token, String name) {
    return name == null ? null : PgCatalogSchema.of(token).databaseSize(name);
  }

  /**
   * {@code pg_size_pretty(bigint)} exactly as PostgreSQL 15 formats it (its size_pretty_units): bytes below 10240,
   * then kB, MB, GB, TB, PB, each while below 10239.5 of it, the value kept with one extra bit and at the end halved,
   * rounding half away from zero.
   */
  public static String pg_size_pretty(Long size) {
    if (size == null) {
      return null;
    }
    String[] units = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    long s = size;
    for (int u = 0; ; u++) {
      long limit = u == 0 ? 10 * 1024 : 20 * 1024 - 1;
      if (u == units.length - 1 || Math.abs(s) < limit) {
        // half_rounded: the units past bytes keep one extra bit until here
        return (u == 0 ? s : (s + (s < 0 ? -1 : 1)) / 2) + " " + units[u];
      }
      // bytes -> kB drops 9 bits (kB keeps the extra bit); between rounded units, 10
      s /= 1L << (u == 0 ? 9 : 10);
    }
  }

  /**
   * {@code pg_size_pretty(numeric)}: the same rules; below 10 kB the number as it is ({@code 1.5 bytes}), above it
   * truncated first (truncating before or after the divisions is the same), within bigint's range.
   */
  public static String pg_size_pretty(java.math.BigDecimal size) {
    if (size == null) {
      return null;
    }
    if (size.abs().compareTo(java.math.BigDecimal.valueOf(10 * 1024)) < 0) {
      return size.toPlainString() + " bytes";
    }
    return pg_size_pretty(size.setScale(0, java.math.RoundingMode.DOWN).longValueExact());
  }

  /** Every function of pg_proc is in pg_catalog, which is always searched. */
  public static boolean pg_function_is_visible(Integer oid) {
    return oid != null && PgCatalogSchema.procOid(oid);
  }

  /** pg_conversion is empty: Accel's text is UTF-8 throughout. */
  public static boolean pg_conversion_is_visible(Integer oid) {
    return false;
  }

  /** The text search catalogs are empty: Accel has no full-text search. */
  public static boolean pg_ts_config_is_visible(Integer oid) {
    return false;
  }

  public static boolean pg_ts_dict_is_visible(Integer oid) {
    return false;
  }

  public static boolean pg_ts_parser_is_visible(Integer oid) {
    return false;
  }

  public static boolean pg_ts_template_is_visible(Integer oid) {
    return false;
  }

  /** pg_statistic_ext is empty: Accel has no extended statistics objects. */
  public static boolean pg_statistics_obj_is_visible(Integer oid) {
    return false;
  }

  /** pg_opclass is empty: Accel's indexes have no operator classes of their own. */
  public static boolean pg_opclass_is_visible(Integer oid) {
    return false;
  }

  /** pg_opfamily is empty, as pg_opclass. */
  public static boolean pg_opfamily_is_visible(Integer oid) {
    return false;
  }

  /** Both collations of pg_collation are in pg_catalog, which is always searched. */
  public static boolean pg_collation_is_visible(Integer oid) {
    return oid != null && (oid == 100 || oid == 950);
  }

  /** {@code pg_tablespace_location}: the built-in tablespaces, whose location PostgreSQL prints as empty. */
  public static String pg_tablespace_location(Integer oid) {
    return oid == null ? null : "";
  }

  /** The database's encoding: Accel's text is UTF-8. */
  public static String getdatabaseencoding() {
    return "UTF8";
  }

  /** {@code pg_char_to_encoding}: PostgreSQL's number of an encoding name (UTF8 6, SQL_ASCII 0), -1 for others. */
  public static int pg_char_to_encoding(String name) {
    if (name == null) {
      return -1;
    }
    String n = name.replace("-", "").replace("_", "").toUpperCase(java.util.Locale.ROOT);
    return n.equals("UTF8") || n.equals("UNICODE") ? 6 : n.equals("SQLASCII") ? 0 : -1;
  }

  /** {@code pg_encoding_to_char}: the name of encoding 6 (UTF8) or 0 (SQL_ASCII); empty for others, as PostgreSQL. */
  public static String pg_encoding_to_char(Integer encoding) {
    return encoding == null ? null : encoding == 6 ? "UTF8" : encoding == 0 ? "SQL_ASCII" : "";
  }

  /** Every type of pg_type is in pg_catalog, which is always searched. */
  public static boolean pg_type_is_visible(Integer oid) {
    return oid != null && PgTypes.BY_OID.containsKey(oid);
  }

  /** {@code pg_get_function_sqlbody}: no function of pg_proc has a SQL body (psql's {@code \df+} then shows prosrc). */
  public static String pg_get_function_sqlbody(Integer oid) {
    return null;
  }

  /** {@code pg_get_function_result}: pg_proc lists Accel's functions with result text and no declared arguments. */
  public static String pg_get_function_result(Integer oid) {
    return oid != null && PgCatalogSchema.procOid(oid) ? "text" : null;
  }

  public static String pg_get_function_arguments(Integer oid) {
    return oid != null && PgCatalogSchema.procOid(oid) ? "" : null;
  }

  public static String pg_get_function_identity_arguments(Integer oid) {
    return pg_get_function_arguments(oid);
  }

  /**
   * psql's {@code \d+} reloptions: {@code array_to_string(c.reloptions || array(select 'toast.' || x from
   * unnest(tc.reloptions) x), ', ')} over the text form of the two arrays ({@code PgCatalogSyntax} rewrites it).
   */
  public static String accel_reloptions(String options, String toastOptions) {
    java.util.List<String> all = new java.util.ArrayList<>(elements(options));
    elements(toastOptions).forEach(o -> all.add("toast." + o));
    return String.join(", ", all);
  }

  /** The elements of an array's text ({@code {a,b}}), none for NULL; Accel's catalog arrays have no quoting. */
  private static java.util.List<String> elements(String array) {
    if (array == null) {
      return java.util.List.of();
    }
    String body = array.startsWith("{") && array.endsWith("}") ? array.substring(1, array.length() - 1) : array;
    return body.isEmpty() ? java.util.List.of() : java.util.List.of(body.split(","));
  }

  /** {@code pg_get_expr}: Accel keeps a default's SQL text as its "node tree", so it is its own expression. */
  public static String pg_get_expr(String expr, Integer relation) {
    return expr;
  }

  public static String pg_get_expr(String expr, Integer relation, Boolean pretty) {
    return expr;
  }

  /** {@code oidvectortypes(proargtypes)}: the type names of an oidvector's text, comma-separated. */
  public static String oidvectortypes(String oids) {
    if (oids == null) {
      return null;
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    for (String oid : oids.trim().split("\\s+")) {
      if (!oid.isEmpty()) {
        names.add(PgTypes.formatType(Integer.parseInt(oid), -1));
      }
    }
    return String.join(", ", names);
  }

  public static String format_type(Integer oid, Integer typmod) {
    return oid == null ? null : PgTypes.formatType(oid, typmod == null ? -1 : typmod);
  }

  /** {@code obj_description(oid)} (deprecated in PostgreSQL): the object's comment in any catalog. */
  public static String accel_obj_description(int token, Integer oid) {
    if (oid == null) {
      return null;
    }
    for (var e : PgCatalogSchema.of(token).descriptions().entrySet()) {
      if (e.getKey().objoid() == oid && e.getKey().objsubid() == 0) {
        return e.getValue();
      }
    }
    return null;
  }

  /** {@code obj_description(oid, 'pg_class')}: what COMMENT ON said of the object. */
  public static String accel_obj_description(int token, Integer oid, String catalog) {
    Integer classoid = catalog == null ? null : PgCatalogSchema.SYSTEM_RELATIONS.get(catalog.startsWith("pg_catalog.")
        ? catalog.substring("pg_catalog.".length()) : catalog);
    return oid == null || classoid == null ? null : PgCatalogSchema.of(token).descriptions()
        .get(new PgCatalogSchema.DescriptionKey(oid, classoid, 0));
  }

  /** The column is any integer type: psql passes pg_attribute.attnum, a SMALLINT (a boxed Short at run time). */
  public static String accel_col_description(int token, Integer oid, Object column) {
    return oid == null || !(column instanceof Number n) ? null : PgCatalogSchema.of(token).descriptions()
        .get(new PgCatalogSchema.DescriptionKey(oid, PgCatalogSchema.PG_CLASS_CLASS, n.intValue()));
  }

  /** {@code shobj_description(oid, 'pg_database')}: the database's comment. */
  public static String accel_shobj_description(int token, Integer oid, String catalog) {
    return oid != null && oid == PgCatalogSchema.DATABASE_OID && "pg_database".equals(catalog)
        ? PgCatalogSchema.of(token).session().database().catalog()
            .comment(io.accel.catalog.Catalog.DATABASE_COMMENT).orElse(null)
        : null;
  }

  /**
   * {@code array_to_string(array, separator)}: of a real array ({@code ARRAY(SELECT ...)}) its non-NULL elements
   * joined; arrays held as text in Accel's catalog tables stand for their elements. One method taking any type, as
   * Calcite cannot rank a VARCHAR overload against an ARRAY one.
   */
  public static String array_to_string(Object array, String separator) {
    if (!(array instanceof java.util.List<?> list)) {
      return array == null ? null : array.toString();
    }
    if (separator == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    for (Object o : list) {
      if (o != null) {
        sb.append(first ? "" : separator).append(o);
        first = false;
      }
    }
    return sb.toString();
  }

  /**
   * {@code array_remove(array, element)} over an array Accel's catalog tables hold as text ({@code {a,b}}, as psql's
   * {@code \sv} reads pg_class.reloptions): the array without the element.
   */
  public static String array_remove(String array, String element) {
    if (array == null || !array.startsWith("{") || !array.endsWith("}")) {
      return array;
    }
    String body = array.substring(1, array.length() - 1);
    java.util.List<String> kept = new java.util.ArrayList<>();
    for (String e : body.isEmpty() ? new String[0] : body.split(",", -1)) {
      if (!e.equals(element)) {
        kept.add(e);
      }
    }
    return "{" + String.join(",", kept) + "}";
  }

  public static boolean has_table_privilege(String table, String privilege) {
    return true;
  }

  public static boolean has_table_privilege(String user, String table, String privilege) {
    return true;
  }

  public static boolean has_table_privilege(Integer table, String privilege) {
    return true;
  }

  public static boolean has_schema_privilege(String schema, String privilege) {
    return true;
  }

  public static boolean has_schema_privilege(String user, String schema, String privilege) {
    return true;
  }

  public static boolean has_database_privilege(String database, String privilege) {
    return true;
  }

  public static boolean has_column_privilege(String table, String column, String privilege) {
    return true;
  }

  public static boolean pg_relation_is_publishable(Integer oid) {
    return false;
  }

  public static boolean pg_is_in_recovery() {
    return false;
  }

  public static int pg_backend_pid() {
    return (int) ProcessHandle.current().pid();
  }

  public static String pg_get_statisticsobjdef_columns(Integer oid) {
    return null;
  }

  public static String accel_get_viewdef(int token, Integer oid) {
    return accel_get_viewdef(token, oid, false);
  }

  /**
   * {@code pg_get_viewdef}: the view's query as written, ended by a semicolon (PostgreSQL prints its own deparsed
   * form, qualified names on their own lines); null for a relation that is no view.
   */
  public static String accel_get_viewdef(int token, Integer oid, Boolean pretty) {
    if (oid == null) {
      return null;
    }
    for (io.accel.catalog.ViewDef v : PgCatalogSchema.of(token).userViews()) {
      if (PgCatalogSchema.viewOid(v) == oid) {
        String text = v.definition().strip();
        return " " + (text.endsWith(";") ? text : text + ";");
      }
    }
    return null;
  }

  public static String quote_ident(String name) {
    return name == null ? null : quoteIdent(name);
  }

  /** A name as PostgreSQL quotes it: bare when lower-case letters, digits and underscores, else in quotes. */
  static String quoteIdent(String name) {
    if (name.matches("[a-z_][a-z0-9_$]*") && !PgTypes.RESERVED.contains(name)) {
      return name;
    }
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
