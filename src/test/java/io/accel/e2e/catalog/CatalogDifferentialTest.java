package io.accel.e2e.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The catalog queries psql 15 and pgJDBC 42.7 send ({@code catalog/client-queries.sql}, captured from the clients
 * exactly as sent) answered by Accel's pg_catalog and information_schema and by PostgreSQL for the same tables
 * (several types, a primary key, a unique and a two-column index with a DESC key, NOT NULL, defaults): the rows
 * must be equal, except OIDs of tables and indexes (the columns named below), which differ by design.
 */
class CatalogDifferentialTest {
  private static final String DATABASE = "accel_catalog_diff";
  private static final String[] DDL = {
      "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, price NUMERIC(10,2) DEFAULT 0,"
          + " qty SMALLINT, big BIGINT, flag BOOLEAN DEFAULT true, created TIMESTAMP, createdz TIMESTAMPTZ, d DATE,"
          + " t TIME, f4 REAL, f8 DOUBLE PRECISION, code CHAR(3), note TEXT, data BYTEA, u UUID)",
      "CREATE UNIQUE INDEX items_name_key ON items (name)",
      "CREATE INDEX items_price_idx ON items (price, qty DESC)",
      "CREATE TABLE plain (a INT NOT NULL, b TEXT DEFAULT 'x')",
      "CREATE TABLE pair (k1 BIGINT, k2 VARCHAR(10), v DOUBLE PRECISION, PRIMARY KEY (k1, k2))"};
  /**
   * Result columns left out of the comparison: OIDs of tables and indexes, which Accel derives from its own catalog
   * ids, and psql's sizes ({@code \dt+}, {@code \di+}, {@code \l+}), which are RocksDB's estimates in Accel and
   * PostgreSQL's pages there (pg_size_pretty itself is compared on fixed values below).
   */
  private static final Set<String> EXCLUDED_COLUMNS = Set.of("oid", "ci_oid", "size");

  private static Connection postgres() throws SQLException {
    try (Connection admin = Services.postgres(); Statement s = admin.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE);
      s.execute("CREATE DATABASE " + DATABASE);
    }
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    return DriverManager.getConnection(Services.POSTGRES_URL.replace("/test", "/" + DATABASE), p);
  }

  private static Connection accel() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    Connection c = DriverManager.getConnection("jdbc:accel:mem:catalog-diff-" + System.nanoTime(), p);
    try (Statement s = c.createStatement()) {
      s.execute("SET accel.database = '" + DATABASE + "'");
    }
    return c;
  }

  /** The client queries, each with its source command. */
  private static List<String[]> clientQueries() throws Exception {
    String text;
    try (var in = CatalogDifferentialTest.class.getResourceAsStream("/catalog/client-queries.sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String[]> queries = new ArrayList<>();
    for (String part : text.split(";\n(?=-- source: |$)")) {
      Matcher m = Pattern.compile("(?s)-- source: ([^\n]*)\n(.*)").matcher(part);
      if (m.find()) {
        queries.add(new String[] {m.group(1), m.group(2).trim()});
      }
    }
    // the standard's views, as tools that do not speak pg_catalog read them
    queries.add(new String[] {"information_schema", "SELECT table_name, column_name, ordinal_position,"
        + " column_default, is_nullable, data_type, character_maximum_length, character_octet_length,"
        + " numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, udt_name"
        + " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"});
    queries.add(new String[] {"information_schema", "SELECT table_catalog, table_schema, table_name, table_type"
        + " FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"});
    queries.add(new String[] {"information_schema", "SELECT catalog_name, schema_name, schema_owner"
        + " FROM information_schema.schemata WHERE schema_name IN ('public', 'pg_catalog', 'information_schema')"
        + " ORDER BY schema_name"});
    queries.add(new String[] {"functions", "SELECT current_database(), current_schema(), current_schemas(true),"
        + " current_schemas(false), current_user, session_user, pg_catalog.format_type(1043, 44),"
        + " pg_catalog.format_type(1700, 655366), pg_catalog.format_type(1184, NULL), 'items'::regclass::oid = (SELECT oid FROM pg_catalog.pg_class"
        + " WHERE relname = 'items'), pg_catalog.pg_table_is_visible('items'::regclass)"});
    // pg_size_pretty's units and rounding, bigint and numeric, at and around each boundary
    StringBuilder sizes = new StringBuilder("SELECT ");
    long[] values = {0, 1, -1, 10239, 10240, -10240, 10751, 10752, 20479, 20480, 1048064, 1048575, 10485247,
        10485248, 20970495, 20970496, 21474312191L, 21474312192L, 21990207307775L, 21990207307776L,
        22517972283162623L, 22517972283162624L, 123456789012345678L, Long.MAX_VALUE, -Long.MAX_VALUE};
    for (long v : values) {
      sizes.append(sizes.length() > 7 ? ", " : "").append("pg_catalog.pg_size_pretty(CAST(").append(v)
          .append(" AS BIGINT))");
    }
    sizes.append(", pg_size_pretty(1.5), pg_size_pretty(-10239.99), pg_size_pretty(10240.5), pg_size_pretty(987654321.0)");
    queries.add(new String[] {"functions", sizes.toString()});
    return queries;
  }

  /** A query with this database's table oids and pgJDBC's parameters ($1, ...) filled in. */
  private static String bind(Connection c, String sql) throws SQLException {
    Matcher o = Pattern.compile("%OID\\((\\w+)\\)%").matcher(sql);
    StringBuilder out = new StringBuilder();
    while (o.find()) {
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT oid FROM pg_catalog.pg_class WHERE relname = '" + o.group(1) + "'")) {
        rs.next();
        o.appendReplacement(out, rs.getString(1));
      }
    }
    o.appendTail(out);
    sql = out.toString();
    if (sql.contains("attname LIKE $3")) {
      return sql.replace("$1", "'public'").replace("$2", "'items'").replace("$3", "'%'");
    } else if (sql.contains("AS \"TABLE_TYPE\"")) {
      return sql.replace("$1", "'public'").replace("$2", "'%'");
    }
    return sql.replace("$1", "'public'").replace("$2", "'items'");
  }

  /** The rows of a query, values normalised (numbers by value, booleans as true/false), OID columns left out. */
  private static List<List<String>> rows(Connection c, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          if (EXCLUDED_COLUMNS.contains(md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT))) {
            continue;
          }
          Object v = rs.getObject(i);
          if (v instanceof java.sql.Array a) {
            // an array as PostgreSQL's text of it (elements here need no quotes)
            v = "{" + String.join(",", java.util.Arrays.stream((Object[]) a.getArray()).map(String::valueOf)
                .toList()) + "}";
          }
          row.add(v == null ? null : v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros()
              .toPlainString() : v instanceof Boolean b ? b.toString() : v.toString());
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static List<String> labels(Connection c, String sql) throws SQLException {
    List<String> labels = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        labels.add(rs.getMetaData().getColumnLabel(i).toLowerCase(java.util.Locale.ROOT));
      }
    }
    return labels;
  }

  @Test
  void clientCatalogQueriesAnswerAsPostgres() throws Exception {
    try (Connection pg = postgres(); Connection accel = accel()) {
      for (String ddl : DDL) {
        try (Statement a = accel.createStatement(); Statement p = pg.createStatement()) {
          a.execute(ddl);
          p.execute(ddl);
        }
      }
      List<String> mismatches = new ArrayList<>();
      int compared = 0;
      for (String[] q : clientQueries()) {
        String accelSql = bind(accel, q[1]);
        String pgSql = bind(pg, q[1]);
        List<List<String>> expected = rows(pg, pgSql);
        List<List<String>> actual;
        try {
          actual = rows(accel, accelSql);
        } catch (SQLException e) {
          mismatches.add(q[0] + ": " + e.getMessage() + "\n" + q[1]);
          continue;
        }
        compared++;
        if (q[1].contains("FROM pg_catalog.pg_database")) {
          // PostgreSQL has other databases; the row of this one must be Accel's one row
          expected.removeIf(r -> !r.get(0).equals(DATABASE));
        }
        if (q[1].contains("FROM pg_catalog.pg_roles r")) {
          // PostgreSQL's cluster has other roles; Accel has the session's user alone (psql's \du)
          expected.removeIf(r -> !r.get(0).equals("postgres"));
        }
        if (q[1].contains("FROM pg_catalog.pg_extension e")) {
          // Accel lists no extensions: it runs no PL/pgSQL, the one a fresh PostgreSQL database has (psql's \dx)
          expected.removeIf(r -> r.get(0).equals("plpgsql"));
        }
        if (q[1].contains("FROM pg_catalog.pg_type") && !q[1].contains("WHERE typname") && !q[0].equals("\\dT")) {
          // PostgreSQL has hundreds of types; Accel lists its own and the ones clients ask for, as PostgreSQL does
          if (!expected.containsAll(actual) || actual.size() < 60) {
            mismatches.add(q[0] + ": types not as in PostgreSQL: "
                + actual.stream().filter(r -> !expected.contains(r)).toList() + "\n" + q[1]);
          }
          continue;
        }
        if (!expected.equals(actual)) {
          mismatches.add(q[0] + ":\n  PostgreSQL " + expected + "\n  Accel      " + actual + "\n" + q[1]);
        }
        // column labels as PostgreSQL gives them, where clients read columns by name (pgJDBC's queries)
        if (q[0].equals("pgjdbc")) {
          List<String> pgLabels = labels(pg, pgSql);
          List<String> accelLabels = labels(accel, accelSql);
          if (!pgLabels.equals(accelLabels)) {
            mismatches.add(q[0] + ": labels " + pgLabels + " vs " + accelLabels);
          }
        }
      }
      assertThat(mismatches).isEmpty();
      assertThat(compared).isGreaterThanOrEqualTo(25);
    }
  }
}
