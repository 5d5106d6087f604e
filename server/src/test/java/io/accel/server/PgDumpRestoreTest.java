package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL schema dumped by Debian's pg_dump restores into the server through psql with ON_ERROR_STOP, as a user
 * moving a database would do it: SET lines, tables, sequences OWNED BY, ALTER ... OWNER TO, COPY, setval, constraints
 * added afterwards, an expression index, a view and a comment; the rows then read as in PostgreSQL.
 */
class PgDumpRestoreTest {
  @TempDir
  Path dir;

  @Test
  void aPgDumpOfASchemaRestoresWithOnErrorStop() throws Exception {
    String schema = "accel_dump_" + Long.toHexString(System.nanoTime());
    try (Connection pg = TestServer.postgres(); Statement s = pg.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("SET search_path = " + schema);
      s.execute("CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL UNIQUE, born date,"
          + " created timestamptz DEFAULT now())");
      s.execute("CREATE TABLE book (id bigserial PRIMARY KEY, author_id int REFERENCES author(id) ON DELETE CASCADE,"
          + " title varchar(200) NOT NULL, price numeric(8,2) CHECK (price > 0), tags jsonb,"
          + " isbn uuid DEFAULT gen_random_uuid())");
      s.execute("CREATE INDEX book_title ON book (lower(title))");
      s.execute("CREATE VIEW cheap AS SELECT title FROM book WHERE price < 10");
      s.execute("INSERT INTO author (name, born) VALUES ('Ann', '1970-01-02'), ('Bob', NULL)");
      s.execute("INSERT INTO book (author_id, title, price, tags) VALUES (1, 'A ''quoted'' title', 9.5, '{\"a\": 1}'),"
          + " (2, E'tab\\there', 20, NULL)");
      s.execute("COMMENT ON TABLE book IS 'books'");
      Psql.Run dump = Psql.run(Map.of(), null, "pg_dump", "-h", "127.0.0.1", "-U", "postgres", "-n", schema, "test");
      assertThat(dump.exit()).as(dump.err()).isZero();
      // the dump (ALTER ... OWNER TO postgres for every object), its schema renamed to public and its CREATE SCHEMA
      // left out, as in a dump of public
      assertThat(dump.out()).contains("OWNER TO postgres;", "COPY " + schema + ".book");
      String script = dump.out().replace(schema + ".", "public.").lines()
          .filter(l -> !l.startsWith("CREATE SCHEMA ") && !l.startsWith("ALTER SCHEMA "))
          .reduce("", (a, b) -> a + b + "\n");
      Path file = dir.resolve("dump.sql");
      Files.writeString(file, script);
      try (TestServer server = new TestServer()) {
        String c = "host=127.0.0.1 port=" + server.port() + " dbname=test user=postgres";
        Psql.Run restore = Psql.psql(c, Map.of(), "-v", "ON_ERROR_STOP=1", "-f", file.toString());
        assertThat(restore.exit()).as(restore.err()).isZero();
        String query = "SELECT b.id, a.name, a.born, b.title, b.price, b.tags::text, b.isbn IS NOT NULL"
            + " FROM book b JOIN author a ON a.id = b.author_id ORDER BY b.id";
        Psql.Run accel = Psql.psql(c, Map.of(), "-c", query, "-c", "SELECT title FROM cheap",
            "-c", "INSERT INTO author (name) VALUES ('Cy') RETURNING id",
            "-c", "SELECT obj_description('book'::regclass, 'pg_class')",
            "-c", "SELECT count(*) FROM book WHERE lower(title) = 'a ''quoted'' title'");
        assertThat(accel.exit()).as(accel.err()).isZero();
        assertThat(accel.out()).isEqualTo("1|Ann|1970-01-02|A 'quoted' title|9.50|{\"a\": 1}|t\n"
            + "2|Bob||tab\there|20.00||t\n"
            + "A 'quoted' title\n"
            + "3\nINSERT 0 1\n"
            + "books\n"
            + "1\n");
        Psql.Run wrongOwner = Psql.psql(c, Map.of(), "-c", "ALTER TABLE book OWNER TO someone_else");
        assertThat(wrongOwner.err()).contains("role \"someone_else\" does not exist");
      }
    } finally {
      try (Connection pg = TestServer.postgres(); Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }
}
