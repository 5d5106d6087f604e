package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog queries an ORM sends on connecting and when it syncs a model (Sequelize's, verbatim), answered with
 * PostgreSQL's column types: identifiers are {@code name}, so an array of them is a {@code name[]} (node-postgres
 * leaves that as text, which Sequelize parses itself; a text[] it would parse into an array Sequelize cannot read).
 */
class OrmCatalogQueriesTest {
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer();
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table oc_t (id serial primary key, email text unique, born timestamptz)");
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void sequelizeConnectionSetUp() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("SET client_min_messages TO warning;SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE;");
      try (ResultSet rs = s.executeQuery("show timezone")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("<+00>-00");
      }
      Map<String, List<String>> types = new HashMap<>();
      try (ResultSet rs = s.executeQuery("WITH ranges AS (  SELECT pg_range.rngtypid, pg_type.typname AS rngtypname,"
          + "         pg_type.typarray AS rngtyparray, pg_range.rngsubtype    FROM pg_range LEFT OUTER JOIN pg_type ON"
          + " pg_type.oid = pg_range.rngtypid)SELECT pg_type.typname, pg_type.typtype, pg_type.oid, pg_type.typarray,"
          + "       ranges.rngtypname, ranges.rngtypid, ranges.rngtyparray  FROM pg_type LEFT OUTER JOIN ranges ON"
          + " pg_type.oid = ranges.rngsubtype WHERE (pg_type.typtype IN('b', 'e'));")) {
        assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("name");
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int i = 2; i <= 7; i++) {
            row.add(rs.getString(i));
          }
          types.put(rs.getString(1), row);
        }
      }
      assertThat(types.get("int4")).containsExactly("b", "23", "1007", null, null, null);
      assertThat(types.get("jsonb")).containsExactly("b", "3802", "3807", null, null, null);
    }
  }

  @Test
  void sequelizeIndexListing() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT i.relname AS name, ix.indisprimary AS primary, ix.indisunique AS unique, ix.indkey AS indkey,"
            + " array_agg(a.attnum) as column_indexes, array_agg(a.attname) AS column_names,"
            + " pg_get_indexdef(ix.indexrelid) AS definition FROM pg_class t, pg_class i, pg_index ix, pg_attribute a"
            + " WHERE t.oid = ix.indrelid AND i.oid = ix.indexrelid AND a.attrelid = t.oid AND t.relkind = 'r' and"
            + " t.relname = 'oc_t' GROUP BY i.relname, ix.indexrelid, ix.indisprimary, ix.indisunique, ix.indkey"
            + " ORDER BY i.relname;")) {
      assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("name");
      assertThat(rs.getMetaData().getColumnTypeName(5)).isEqualTo("_int2");
      assertThat(rs.getMetaData().getColumnTypeName(6)).isEqualTo("_name");
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString("name") + " " + rs.getBoolean("primary") + " " + rs.getString("indkey") + " "
            + List.of((Object[]) rs.getArray("column_names").getArray()));
      }
      assertThat(rows).containsExactly("oc_t_email_key false 2 [id, email, born]", "oc_t_pkey true 1 [id, email, born]");
    }
  }

  @Test
  void sequelizeDescribeTable() throws SQLException {
    List<String> fields = new ArrayList<>();
    try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT pk.constraint_type as \"Constraint\",c.column_name as \"Field\", c.column_default as \"Default\","
            + "c.is_nullable as \"Null\", (CASE WHEN c.udt_name = 'hstore' THEN c.udt_name ELSE c.data_type END) ||"
            + " (CASE WHEN c.character_maximum_length IS NOT NULL THEN '(' || c.character_maximum_length || ')'"
            + " ELSE '' END) as \"Type\", (SELECT array_agg(e.enumlabel) FROM pg_catalog.pg_type t JOIN"
            + " pg_catalog.pg_enum e ON t.oid=e.enumtypid WHERE t.typname=c.udt_name) AS \"special\", (SELECT"
            + " pgd.description FROM pg_catalog.pg_statio_all_tables AS st INNER JOIN pg_catalog.pg_description pgd"
            + " on (pgd.objoid=st.relid) WHERE c.ordinal_position=pgd.objsubid AND c.table_name=st.relname) AS"
            + " \"Comment\" FROM information_schema.columns c LEFT JOIN (SELECT tc.table_schema, tc.table_name,"
            + " cu.column_name, tc.constraint_type FROM information_schema.TABLE_CONSTRAINTS tc JOIN"
            + " information_schema.KEY_COLUMN_USAGE  cu ON tc.table_schema=cu.table_schema and"
            + " tc.table_name=cu.table_name and tc.constraint_name=cu.constraint_name and"
            + " tc.constraint_type='PRIMARY KEY') pk ON pk.table_schema=c.table_schema AND"
            + " pk.table_name=c.table_name AND pk.column_name=c.column_name WHERE c.table_name = 'oc_t' AND"
            + " c.table_schema = 'public'")) {
      while (rs.next()) {
        fields.add(rs.getString("Field") + " " + rs.getString("Type") + " " + rs.getString("Constraint"));
      }
    }
    assertThat(fields).containsExactlyInAnyOrder("id integer PRIMARY KEY", "email text null",
        "born timestamp with time zone null");
  }

  @Test
  void sqlalchemyReflection() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      // unique constraints: conkey is an int2[] (psycopg2 makes it a list SQLAlchemy indexes)
      try (ResultSet rs = s.executeQuery("SELECT cons.conname as name, cons.conkey as key, a.attnum as col_num,"
          + " a.attname as col_name FROM pg_catalog.pg_constraint cons join pg_attribute a on cons.conrelid ="
          + " a.attrelid AND a.attnum = ANY(cons.conkey) WHERE cons.conrelid = 'oc_t'::regclass AND"
          + " cons.contype = 'u'")) {
        assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("_int2");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("name")).isEqualTo("oc_t_email_key");
        assertThat((Object[]) rs.getArray("key").getArray()).containsExactly((short) 2);
        assertThat(rs.getString("col_name")).isEqualTo("email");
        assertThat(rs.next()).isFalse();
      }
      // the primary key's columns in key order: unnest and generate_subscripts of indkey in lockstep
      try (ResultSet rs = s.executeQuery("SELECT a.attname FROM pg_attribute a JOIN ( SELECT unnest(ix.indkey)"
          + " attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix WHERE ix.indrelid = 'oc_t'::regclass"
          + " AND ix.indisprimary ) k ON a.attnum = k.attnum WHERE a.attrelid = 'oc_t'::regclass ORDER BY k.ord")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("id");
        assertThat(rs.next()).isFalse();
      }
      // a serial column's sequence: a call's result cast to regclass and oid
      try (ResultSet rs = s.executeQuery("SELECT pg_catalog.pg_get_serial_sequence(a.attrelid::regclass::text,"
          + " a.attname)::regclass::oid IS NOT NULL FROM pg_attribute a WHERE a.attrelid = 'oc_t'::regclass AND"
          + " a.attname = 'id'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isTrue();
      }
    }
  }
}
