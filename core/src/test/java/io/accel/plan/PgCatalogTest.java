package io.accel.plan;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * pg_catalog and information_schema on a session: every catalog query psql and pgJDBC send (the e2e module's
 * {@code catalog/client-queries.sql}) runs, and the answers PostgreSQL gives for the same schema (compared in
 * full by the e2e {@code CatalogDifferentialTest}) hold for the essentials here.
 */
class PgCatalogTest {
  private Database db;
  private Session s;
  private int keys;

  @BeforeEach
  void open() throws Exception {
    db = Database.open(Store.openInMemory("pg-catalog-" + System.nanoTime(), new StoreOptions(8 << 20, false)));
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), "postgres"));
    run("CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, price NUMERIC(10,2) DEFAULT 0,"
        + " qty SMALLINT, big BIGINT, flag BOOLEAN DEFAULT true, created TIMESTAMP, createdz TIMESTAMPTZ, d DATE,"
        + " t TIME, f4 REAL, f8 DOUBLE PRECISION, code CHAR(3), note TEXT, data BYTEA, u UUID)");
    run("CREATE UNIQUE INDEX items_name_key ON items (name)");
    run("CREATE INDEX items_price_idx ON items (price, qty DESC)");
    run("CREATE TABLE plain (a INT, b TEXT)");
  }

  @AfterEach
  void close() {
    s.close();
    db.close();
  }

  private Result run(String sql) {
    return s.execute("k" + keys++, sql);
  }

  private List<List<Object>> rows(String sql) {
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
    return String.valueOf(rows("SELECT oid FROM pg_catalog.pg_class WHERE relname = '" + table + "'").get(0).get(0));
  }

  @Test
  void everyClientQueryRuns() throws Exception {
    List<String> failures = new ArrayList<>();
    for (String[] q : clientQueries(this::oid)) {
      try {
        List<List<Object>> rows = rows(q[1]);
        System.out.println("OK " + q[0] + " " + rows.size() + " rows: "
            + rows.stream().limit(20).map(Object::toString).toList());
      } catch (RuntimeException e) {
        failures.add(q[0] + ": " + e.getMessage() + "\n" + q[1]);
      }
    }
    assertThat(failures).isEmpty();
  }
}
