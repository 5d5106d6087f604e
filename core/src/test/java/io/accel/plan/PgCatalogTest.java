package io.accel.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.exec.Database;
import io.accel.exec.Result;
import io.accel.exec.Session;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * pg_catalog and information_schema on a session: every catalog query psql and pgJDBC send (the e2e module's
 * {@code catalog/client-queries.sql}) runs, and the answers PostgreSQL gives for the same schema (compared in
 * full by the e2e {@code CatalogDifferentialTest}) hold for the essentials here.
 */
class PgCatalogTest extends io.accel.exec.EngineTestBase {
  @Override
  protected String user() {
    return "postgres";
  }

  @BeforeEach
  void createTables() {
    run("CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, price NUMERIC(10,2) DEFAULT 0,"
        + " qty SMALLINT, big BIGINT, flag BOOLEAN DEFAULT true, created TIMESTAMP, createdz TIMESTAMPTZ, d DATE,"
        + " t TIME, f4 REAL, f8 DOUBLE PRECISION, code CHAR(3), note TEXT, data BYTEA, u UUID)");
    run("CREATE UNIQUE INDEX items_name_key ON items (name)");
    run("CREATE INDEX items_price_idx ON items (price, qty DESC)");
    run("CREATE TABLE plain (a INT, b TEXT)");
  }

  private List<List<Object>> fetch(String sql) {
    Result r = run(sql);
    List<List<Object>> rows = new ArrayList<>();
    int columns = r.signature().columns.size();
    while (r.cursor().hasNext()) {
      Object row = r.cursor().next();
      rows.add(columns == 1 && !(row instanceof Object[]) ? Arrays.asList(row) : Arrays.asList((Object[]) row));
    }
    return rows;
  }

  /** The client queries with table oids and pgJDBC's parameters filled in. */
  static List<String[]> clientQueries(java.util.function.Function<String, String> oids) throws Exception {
    Path file = Path.of("../src/test/resources/catalog/client-queries.sql");
    String text = Files.readString(file);
    List<String[]> queries = new ArrayList<>();
    for (String part : text.split(";\n(?=-- source: |$)")) {
      Matcher m = Pattern.compile("(?s)-- source: ([^\n]*)\n(.*)").matcher(part);
      if (m.find()) {
        String sql = m.group(2).trim();
        Matcher o = Pattern.compile("%OID\\((\\w+)\\)%").matcher(sql);
        sql = o.replaceAll(r -> oids.apply(r.group(1)));
        if (sql.contains("attname LIKE $3")) {
          sql = sql.replace("$1", "'public'").replace("$2", "'items'").replace("$3", "'%'");
        } else if (sql.contains("AS \"TABLE_TYPE\"")) {
          sql = sql.replace("$1", "'public'").replace("$2", "'%'");
        } else {
          sql = sql.replace("$1", "'public'").replace("$2", "'items'");
        }
        queries.add(new String[] {m.group(1), sql});
      }
    }
    return queries;
  }

  private String oid(String table) {
    return String.valueOf(fetch("SELECT oid FROM pg_catalog.pg_class WHERE relname = '" + table + "'").get(0).get(0));
  }

  @Test
  void everyClientQueryRuns() throws Exception {
    List<String> failures = new ArrayList<>();
    for (String[] q : clientQueries(this::oid)) {
      try {
        fetch(q[1]);
      } catch (RuntimeException | AssertionError e) {
        failures.add(q[0] + ": " + e.getMessage() + "\n" + q[1]);
      }
    }
    assertThat(failures).isEmpty();
  }

  private Object value(String sql) {
    return fetch(sql).get(0).get(0);
  }

  /** pg_catalog's functions and relations resolve unqualified, as PostgreSQL searches pg_catalog implicitly. */
  @Test
  void unqualifiedNamesResolveInPgCatalog() {
    assertThat((String) value("select version()")).startsWith("PostgreSQL 15");
    assertThat(value("select format_type(1043, 24)")).isEqualTo("character varying(20)");
    assertThat(value("select format_type(23, -1)")).isEqualTo("integer");
    assertThat(value("select quote_ident('A b')")).isEqualTo("\"A b\"");
    assertThat(value("select pg_is_in_recovery()")).isEqualTo(false);
    run("create table t (tcol int)");
    assertThat(value("select count(*) from pg_class where relname = 't'")).isEqualTo(1L);
    assertThat(value("select (select count(*) from pg_class c where c.relname = 't')")).isEqualTo(1L);
    assertThat(value("select count(*) from plain where exists (select 1 from pg_class where relname = 't')"))
        .isEqualTo(0L);
    assertThat(value("select count(*) from (select oid from pg_class where relname = 't') x")).isEqualTo(1L);
    assertThat(value("select relname from pg_class where oid in (select attrelid from pg_attribute"
        + " where attname = 'tcol')")).isEqualTo("t");
    // user tables resolve as before, in statements that also read the catalog
    run("insert into t values (5)");
    assertThat(value("select tcol from t where exists (select 1 from pg_namespace where nspname = 'public')"))
        .isEqualTo(5);
    assertThat(value("select format_type(atttypid, atttypmod) from pg_attribute a join pg_class c"
        + " on c.oid = a.attrelid where c.relname = 'items' and a.attname = 'name'"))
        .isEqualTo("character varying(40)");
  }

  /**
   * PostgreSQL's search order: pg_catalog first unless search_path names it, so a user table named like a
   * catalog relation is found only when search_path puts public before pg_catalog.
   */
  @Test
  void pgCatalogIsSearchedFirstUnlessSearchPathNamesIt() {
    run("create table pg_am (x int)");
    assertThat(value("select count(*) from pg_am where amname = 'btree'")).isEqualTo(1L);
    assertThat(value("select count(*) from public.pg_am")).isEqualTo(0L);
    run("set search_path = public, pg_catalog");
    assertThat(value("select count(*) from pg_am")).isEqualTo(0L);
    assertThat((String) value("select version()")).startsWith("PostgreSQL 15");
    run("set search_path = pg_catalog");
    assertThat(value("select count(*) from pg_am where amname = 'btree'")).isEqualTo(1L);
    assertThatThrownBy(() -> value("select count(*) from items")).hasMessageContaining("items");
    assertThat(value("select count(*) from public.items")).isEqualTo(0L);
  }

  /** Resolving through pg_catalog keeps the plan cache: the same statements again are not planned again. */
  @Test
  void planCacheHitsForUnqualifiedNames() throws Exception {
    var meters = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    try (Database counted = Database.open(Store.openInMemory("pg-catalog-cache-" + System.nanoTime(),
        new StoreOptions(8 << 20, false)), meters)) {
      Session session = new Session(counted, new Session.Options(100, TimeZone.getTimeZone("UTC"), "postgres"));
      session.execute("c", "create table t (id int primary key)");
      List<String> statements = List.of("select format_type(23, -1)", "select count(*) from pg_class where"
          + " relname = 'x'", "select count(*) from t where id = 3", "select now()",
          "select current_setting('search_path')");
      for (String sql : statements) {
        session.execute("k", sql).cursor().hasNext();
      }
      java.util.function.DoubleSupplier hits = () -> meters.find("accel.plan.cache.hits").counters().stream()
          .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
      double before = hits.getAsDouble();
      for (String sql : statements) {
        session.execute("k", sql).cursor().hasNext();
      }
      assertThat(hits.getAsDouble() - before).isEqualTo(statements.size());
      session.close();
    }
  }

  /** now(), current_setting and set_config as PostgreSQL 15 answers them. */
  @Test
  void sessionFunctions() {
    List<Object> now = fetch("select now(), now() = current_timestamp, pg_catalog.now() = now()").get(0);
    assertThat(now.get(0)).isNotNull();
    assertThat(now.subList(1, 3)).containsExactly(true, true);
    assertThat(run("select now()").signature().columns.get(0).label).isEqualTo("now");
    assertThat(value("select count(*) from items where created < now() - interval '1' day")).isEqualTo(0L);
    assertThat(value("select current_setting('search_path')")).isEqualTo("\"$user\", public");
    assertThat(value("select current_setting('no.such', true)")).isNull();
    assertThatThrownBy(() -> value("select current_setting('nosuch')"))
        .hasMessageContaining("unrecognized configuration parameter \"nosuch\"");
    assertThat(value("select set_config('application_name', 'app', false)")).isEqualTo("app");
    assertThat(value("select current_setting('application_name')")).isEqualTo("app");
    // is_local: until the block ends (outside one, nothing changes)
    assertThat(value("select set_config('application_name', 'other', true)")).isEqualTo("other");
    assertThat(value("show application_name")).isEqualTo("app");
    run("begin");
    assertThat(value("select set_config('application_name', 'other', true)")).isEqualTo("other");
    assertThat(value("select current_setting('application_name')")).isEqualTo("other");
    run("commit");
    assertThat(value("select current_setting('application_name')")).isEqualTo("app");
    // pg_dump's first statement: unqualified user tables are then not found, pg_catalog's still are
    assertThat(value("select pg_catalog.set_config('search_path', '', false)")).isEqualTo("");
    assertThatThrownBy(() -> value("select count(*) from plain")).hasMessageContaining("plain");
    assertThat(value("select count(*) from pg_class where relname = 'plain'")).isEqualTo(1L);
    assertThat(value("select count(*) from public.plain")).isEqualTo(0L);
  }

  /** psql's \dt+, \di+, \l+, \du, \df, \dT, \dx: sizes, roles, visibility, no extensions. */
  @Test
  void sizesRolesAndVisibility() {
    // pg_size_pretty as PostgreSQL 15 prints these (checked there; the e2e test compares more)
    assertThat(fetch("select pg_size_pretty(10239), pg_size_pretty(10240), pg_size_pretty(10751), pg_size_pretty(10752),"
        + " pg_size_pretty(10485247), pg_size_pretty(10485248), pg_size_pretty(-10752),"
        + " pg_size_pretty(9223372036854775807), pg_size_pretty(1.5)").get(0)).containsExactly("10239 bytes", "10 kB",
        "10 kB", "11 kB", "10239 kB", "10 MB", "-11 kB", "8192 PB", "1.5 bytes");
    assertThat(value("select pg_table_size('items'::regclass)")).isEqualTo(0L);
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      values.append(i > 0 ? ", " : "").append("(").append(i).append(", 'name").append(i).append("', ").append(i)
          .append(", 1)");
    }
    run("insert into items (id, name, price, qty) values " + values);
    List<Object> sizes = fetch("select pg_table_size('items'), pg_indexes_size('items'::regclass),"
        + " pg_total_relation_size('items'), pg_relation_size('items_pkey'), pg_relation_size('items_name_key'),"
        + " pg_database_size(current_database())").get(0);
    assertThat((Long) sizes.get(0)).isGreaterThan(200L * 10);
    assertThat((Long) sizes.get(1)).isGreaterThan(200L * 5);
    assertThat(sizes.get(2)).isEqualTo((Long) sizes.get(0) + (Long) sizes.get(1));
    // the primary key is the order the rows are stored in: no storage of its own
    assertThat(sizes.get(3)).isEqualTo(0L);
    assertThat((Long) sizes.get(5)).isGreaterThanOrEqualTo((Long) sizes.get(2));
    assertThat(value("select pg_table_size(123)")).isNull();
    assertThatThrownBy(() -> value("select pg_table_size('nosuch')")).hasMessageContaining("does not exist");
    assertThatThrownBy(() -> value("select pg_database_size('other')"))
        .hasMessageContaining("database \"other\" does not exist");
    // one role per session: its own, and PostgreSQL's predefined roles (it is a superuser)
    assertThat(fetch("select pg_has_role('postgres', 'MEMBER'), pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE'),"
        + " pg_has_role('postgres', 'postgres', 'USAGE')").get(0)).containsExactly(true, true, true);
    assertThatThrownBy(() -> value("select pg_has_role('nobody', 'USAGE')"))
        .hasMessageContaining("role \"nobody\" does not exist");
    assertThat(value("select count(*) from pg_catalog.pg_auth_members")).isEqualTo(0L);
    assertThat(value("select count(*) from pg_catalog.pg_extension")).isEqualTo(0L);
    assertThat(value("select count(*) from pg_proc p where pg_function_is_visible(p.oid)"))
        .isEqualTo(value("select count(*) from pg_proc"));
    assertThat(value("select count(*) from pg_type t where pg_type_is_visible(t.oid)"))
        .isEqualTo(value("select count(*) from pg_type"));
    assertThat(value("select pg_catalog.array_to_string(ARRAY(SELECT relname FROM pg_class WHERE relname LIKE"
        + " 'items%' ORDER BY 1), ', ')")).isEqualTo("items, items_name_key, items_pkey, items_price_idx");
  }

  /** Flyway's PostgreSQL support asks whether a schema is empty so (PostgreSQLSchema.doEmpty, Flyway 11). */
  @Test
  void flywaysEmptySchemaQuerySeesThePublicTablesAndNoExtensionObjects() {
    String emptyQuery = "SELECT EXISTS (\n"
        + "    SELECT c.oid FROM pg_catalog.pg_class c\n"
        + "    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
        + "    LEFT JOIN pg_catalog.pg_depend d ON d.objid = c.oid AND d.deptype = 'e'\n"
        + "    WHERE  n.nspname = 'S' AND d.objid IS NULL AND c.relkind IN ('r', 'v', 'S', 't')\n"
        + "  UNION ALL\n"
        + "    SELECT t.oid FROM pg_catalog.pg_type t\n"
        + "    JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace\n"
        + "    LEFT JOIN pg_catalog.pg_depend d ON d.objid = t.oid AND d.deptype = 'e'\n"
        + "    WHERE n.nspname = 'S' AND d.objid IS NULL AND t.typcategory NOT IN ('A', 'C')\n"
        + "  UNION ALL\n"
        + "    SELECT p.oid FROM pg_catalog.pg_proc p\n"
        + "    JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace\n"
        + "    LEFT JOIN pg_catalog.pg_depend d ON d.objid = p.oid AND d.deptype = 'e'\n"
        + "    WHERE n.nspname = 'S' AND d.objid IS NULL\n"
        + ")";
    assertThat(value(emptyQuery.replace("'S'", "'public'"))).isEqualTo(true);
    assertThat(value(emptyQuery.replace("'S'", "'information_schema'"))).isEqualTo(false);
    assertThat(value("SELECT count(*) FROM pg_catalog.pg_depend")).isEqualTo(0L);
    assertThat(value("SELECT current_schema")).isEqualTo("public");
  }

  /** Flyway's clean lists a schema's tables so (PostgreSQLSchema.doAllTables, Flyway 11). */
  @Test
  void flywaysTableListingReadsTextAsRegclassOids() {
    String tables = "SELECT t.table_name FROM information_schema.tables t"
        + " LEFT JOIN pg_depend dep ON dep.objid = (quote_ident(t.table_schema)||'.'||quote_ident(t.table_name))"
        + "::regclass::oid AND dep.deptype = 'e'"
        + " WHERE table_schema='public' AND table_type='BASE TABLE' AND dep.objid IS NULL"
        + " AND NOT (SELECT EXISTS (SELECT inhrelid FROM pg_catalog.pg_inherits"
        + " WHERE inhrelid = (quote_ident(t.table_schema)||'.'||quote_ident(t.table_name))::regclass::oid))"
        + " ORDER BY 1";
    assertThat(fetch(tables)).extracting(r -> r.get(0)).containsExactly("items", "plain");
    assertThat(value("SELECT ('public' || '.' || 'items')::regclass::oid = 'items'::regclass")).isEqualTo(true);
    assertThat(value("SELECT oidvectortypes('23 25 1043')")).isEqualTo("integer, text, character varying");
    assertThat(fetch("SELECT tablename, hasindexes FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"))
        .extracting(Object::toString).containsExactly("[items, true]", "[plain, false]");
    // Flyway's clean lists the schema's functions so: none in public
    assertThat(fetch("SELECT proname, oidvectortypes(proargtypes) AS args, pg_proc.prokind = 'a' as agg,"
        + " pg_proc.prokind = 'p' as proc FROM pg_proc INNER JOIN pg_namespace ns ON (pg_proc.pronamespace = ns.oid)"
        + " LEFT JOIN pg_depend dep ON dep.objid = pg_proc.oid AND dep.deptype = 'e'"
        + " WHERE ns.nspname = 'public' AND dep.objid IS NULL")).isEmpty();
    assertThatThrownBy(() -> value("SELECT ('no' || 'such')::regclass::oid")).hasMessageContaining(
        "relation \"nosuch\" does not exist");
  }
}
