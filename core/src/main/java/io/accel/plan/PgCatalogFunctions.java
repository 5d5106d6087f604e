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
  public static String accel_get_indexdef(int token, Integer oid, Integer column, Boolean pretty) {
    if (oid == null) {
      return null;
    }
    PgCatalogSchema schema = PgCatalogSchema.of(token);
    PgCatalogSchema.IndexInfo info = schema.index(oid);
    if (info == null) {
      return null;
    }
    TableDef t = info.table();
    int col = column == null ? 0 : column;
    if (col > 0) {
      return col <= info.keys().size() ? quoteIdent(t.columns().get(info.keys().get(col - 1).column()).name())
          : null;
    }
    StringBuilder sb = new StringBuilder("CREATE ");
    if (info.unique()) {
      sb.append("UNIQUE ");
    }
    // qualified only when schema public is not on the search path, as PostgreSQL prints it
    String qualifier = schema.searchPath(false).contains("public") ? "" : "public.";
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
    return sb.toString();
  }

  static String keyList(TableDef t, java.util.List<IndexColumn> keys) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < keys.size(); i++) {
      sb.append(i > 0 ? ", " : "").append(quoteIdent(t.columns().get(keys.get(i).column()).name()));
      if (keys.get(i).descending()) {
        sb.append(" DESC");
      }
    }
    return sb.toString();
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
    return info == null ? null : "PRIMARY KEY (" + keyList(info.table(), info.keys()) + ")";
  }

  /** {@code pg_get_expr}: Accel keeps a default's SQL text as its "node tree", so it is its own expression. */
  public static String pg_get_expr(String expr, Integer relation) {
    return expr;
  }

  public static String pg_get_expr(String expr, Integer relation, Boolean pretty) {
    return expr;
  }

  public static String format_type(Integer oid, Integer typmod) {
    return oid == null ? null : PgTypes.formatType(oid, typmod == null ? -1 : typmod);
  }

  public static String pg_encoding_to_char(Integer encoding) {
    return encoding != null && encoding == 6 ? "UTF8" : "";
  }

  public static String obj_description(Integer oid) {
    return null;
  }

  public static String obj_description(Integer oid, String catalog) {
    return null;
  }

  public static String col_description(Integer oid, Integer column) {
    return null;
  }

  public static String shobj_description(Integer oid, String catalog) {
    return null;
  }

  /** Arrays are held as text in Accel's catalog tables, so the text stands for its elements. */
  public static String array_to_string(String array, String separator) {
    return array;
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

  public static String pg_get_viewdef(Integer oid) {
    return null;
  }

  public static String pg_get_viewdef(Integer oid, Boolean pretty) {
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
