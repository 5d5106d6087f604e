package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.AccelException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.remote.TypedValue;
import org.junit.jupiter.api.Test;

/**
 * COPY FROM STDIN and TO STDOUT through the engine API. Expected bytes are what PostgreSQL 15 printed for the same
 * rows ({@code psql -c "copy (select * from cv order by id) to stdout"} with TimeZone UTC), not Accel's output.
 */
class CopyTest extends EngineTestBase {
  /** PostgreSQL's {@code COPY cv TO STDOUT} of the four rows of {@link #CV}. */
  static final String PG_TEXT = ""
      + "1\ttab\\there\tab  \t1.50\t0.1\t1.5\tt\t2024-01-31\t2024-01-31 13:45:00.25\t2024-01-31 13:45:00+00\t\\\\x0a0b"
      + "\t0e984725-c51c-4bf4-9960-e1c80e27aba0\n"
      + "2\tline\\nbreak \\\\ back\t\\N\t-0.01\t1e+20\t1.234567e+06\tf\t0001-01-01\t2024-01-31 00:00:00"
      + "\t2024-07-01 06:00:00.5+00\t\\\\x\t\\N\n"
      + "3\tcomma, \"quoted\"\t    \t100.00\tNaN\t-Infinity\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n"
      + "4\t\tx   \t\\N\t1e-05\t0.1\tt\t2024-02-29\t1969-12-31 23:59:59.999\t1970-01-01 00:00:00+00\t\\\\xff"
      + "\t00000000-0000-0000-0000-000000000000\n";

  /** PostgreSQL's {@code COPY ... TO STDOUT WITH (FORMAT csv, HEADER)} of the same rows. */
  static final String PG_CSV = ""
      + "id,t,c,n,f,r,b,d,ts,tz,by,u\n"
      + "1,tab\there,ab  ,1.50,0.1,1.5,t,2024-01-31,2024-01-31 13:45:00.25,2024-01-31 13:45:00+00,\\x0a0b,"
      + "0e984725-c51c-4bf4-9960-e1c80e27aba0\n"
      + "2,\"line\nbreak \\ back\",,-0.01,1e+20,1.234567e+06,f,0001-01-01,2024-01-31 00:00:00,"
      + "2024-07-01 06:00:00.5+00,\\x,\n"
      + "3,\"comma, \"\"quoted\"\"\",    ,100.00,NaN,-Infinity,,,,,,\n"
      + "4,\"\",x   ,,1e-05,0.1,t,2024-02-29,1969-12-31 23:59:59.999,1970-01-01 00:00:00+00,\\xff,"
      + "00000000-0000-0000-0000-000000000000\n";

  static final String CV = "CREATE TABLE cv (id INT PRIMARY KEY, t TEXT, c CHAR(4), n NUMERIC(10,2), f FLOAT8,"
      + " r REAL, b BOOL, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, by BYTEA, u UUID)";

  /** Feeds {@code data} in chunks of {@code chunk} bytes, so rows and escapes straddle chunk boundaries. */
  private long copyIn(String sql, String data, int chunk) {
    CopyIn in = s.copyIn("copy" + keys++, sql);
    byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i += chunk) {
      in.write(bytes, i, Math.min(chunk, bytes.length - i));
    }
    return in.finish();
  }

  private String copyOut(String sql) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CopyOut c = s.copyOut("out" + keys++, sql)) {
      for (byte[] line = c.next(); line != null; line = c.next()) {
        out.writeBytes(line);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void copyToStdoutEqualsPostgresByteForByteAfterLoadingItsOwnOutput() {
    run(CV);
    assertThat(copyIn("COPY cv FROM STDIN", PG_TEXT, 7)).isEqualTo(4);
    assertThat(copyOut("COPY (SELECT * FROM cv ORDER BY id) TO STDOUT")).isEqualTo(PG_TEXT);
    assertThat(copyOut("COPY (SELECT * FROM cv ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)")).isEqualTo(PG_CSV);
    assertThat(copyOut("COPY cv TO STDOUT")).as("a table is read in primary key order").isEqualTo(PG_TEXT);
  }

  @Test
  void columnsLeftOutTakeTheirDefaultsPerRowAsInPostgres() {
    run("CREATE SEQUENCE other_seq START 100");
    run("CREATE TABLE ev (id SERIAL PRIMARY KEY, v TEXT, n BIGINT DEFAULT nextval('other_seq') * 2,"
        + " u UUID DEFAULT gen_random_uuid(), k TEXT DEFAULT 'x')");
    assertThat(copyIn("COPY ev (v) FROM STDIN", "a\nb\nc\n", 2)).isEqualTo(3);
    assertThat(rows("SELECT id, v, n, k FROM ev ORDER BY id"))
        .containsExactly("[1, a, 200, x]", "[2, b, 202, x]", "[3, c, 204, x]");
    assertThat(rows("SELECT count(DISTINCT u) FROM ev")).containsExactly(3L);
    assertThat(rows("INSERT INTO ev (v) VALUES ('d') RETURNING id, n")).containsExactly("[4, 206]");
  }

  @Test
  void csvWithQuotedNewlinesHeaderAndEndMarkerLoadsAsPostgresDoes() {
    run(CV);
    assertThat(copyIn("COPY cv FROM STDIN WITH (FORMAT csv, HEADER)", PG_CSV + "\\.\nignored after the marker\n", 3))
        .isEqualTo(4);
    assertThat(copyOut("COPY cv TO STDOUT")).isEqualTo(PG_TEXT);
    run("TRUNCATE cv");
    assertThat(copyIn("COPY cv FROM STDIN WITH CSV HEADER DELIMITER ',' NULL ''", PG_CSV, 1 << 20)).isEqualTo(4);
    assertThat(copyOut("COPY cv TO STDOUT")).isEqualTo(PG_TEXT);
  }

  @Test
  void pgbenchRowsWithAnEmptyFillerAreEmptyStringsPaddedToTheCharLength() {
    run("create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=100)");
    assertThat(copyIn("copy pgbench_tellers from stdin with (freeze on)", "1\t1\t0\t\n2\t1\t0\t\n", 5)).isEqualTo(2);
    assertThat(copyOut("copy pgbench_tellers (tid, filler) to stdout"))
        .isEqualTo("1\t" + " ".repeat(84) + "\n2\t" + " ".repeat(84) + "\n");
    assertThat(rows("SELECT count(*) FROM pgbench_tellers WHERE filler IS NULL")).containsExactly(0L);
  }

  @Test
  void aBadValueRollsTheWholeCopyBackWithPostgresContext() {
    run("create table t (aid int not null, bid int, abalance int, filler char(84))");
    AccelException bad = failure(() -> copyIn("COPY t FROM STDIN", "1\t1\t0\t\n2\t1\t0\t\nx\t1\t0\t\n", 4));
    assertThat(bad.state().code()).isEqualTo("22P02");
    assertThat(bad.getMessage()).isEqualTo("invalid input syntax for type integer: \"x\"");
    assertThat(bad.context()).isEqualTo("COPY t, line 3, column aid: \"x\"");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);

    AccelException missing = failure(() -> copyIn("COPY t FROM STDIN", "1\t1\n", 100));
    assertThat(missing.state().code()).isEqualTo("22P04");
    assertThat(missing.getMessage()).isEqualTo("missing data for column \"abalance\"");
    assertThat(missing.context()).isEqualTo("COPY t, line 1: \"1\t1\"");
    AccelException extra = failure(() -> copyIn("COPY t FROM STDIN", "1\t1\t1\ta\tb\n", 100));
    assertThat(extra.state().code()).isEqualTo("22P04");
    assertThat(extra.getMessage()).isEqualTo("extra data after last expected column");
    AccelException notNull = failure(() -> copyIn("COPY t FROM STDIN", "1\t1\t1\ta\n\\N\t1\t1\ta\n", 100));
    assertThat(notNull.state().code()).isEqualTo("23502");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);
  }

  @Test
  void aFailedCopyInABlockAbortsItAndRollbackLeavesWhatWasBefore() {
    run("create table t (a int primary key, b text)");
    run("insert into t values (1, 'one')");
    run("BEGIN");
    assertThat(copyIn("COPY t FROM STDIN", "2\ttwo\n", 100)).isEqualTo(1);
    AccelException dup = failure(() -> copyIn("COPY t FROM STDIN", "3\tthree\n1\tagain\n", 100));
    assertThat(dup.state().code()).isEqualTo("23505");
    assertThat(failure(() -> run("SELECT * FROM t")).state().code()).isEqualTo("25P02");
    run("ROLLBACK");
    assertThat(rows("SELECT a, b FROM t ORDER BY a")).containsExactly("[1, one]");
  }

  @Test
  void theClientsCopyFailCancelsTheCopy() {
    run("create table t (a int, b text)");
    CopyIn in = s.copyIn("c", "COPY t (a, b) FROM STDIN");
    assertThat(in.columnCount()).isEqualTo(2);
    in.write("1\tone\n2\tt".getBytes(StandardCharsets.UTF_8));
    AccelException failed = failure(() -> in.fail("aborted by the user"));
    assertThat(failed.state().code()).isEqualTo("57014");
    assertThat(failed.getMessage()).isEqualTo("COPY from stdin failed: aborted by the user");
    assertThat(rows("SELECT count(*) FROM t")).containsExactly(0L);
  }

  @Test
  void textEscapesAndColumnListsWithDefaults() {
    run("create table t (a int, b text default 'dflt', c text)");
    assertThat(copyIn("COPY t (a, c) FROM STDIN", "1\ta\\tb\\\\c\\x41\\101\\n\n2\t\\N\n", 2)).isEqualTo(2);
    assertThat(rows("SELECT a, b, c FROM t ORDER BY a")).containsExactly("[1, dflt, a\tb\\cAA\n]", "[2, dflt, null]");
  }

  @Test
  void copyThroughExecuteAndFromFilesAreRefusedAsPostgresRefusesThem() {
    run("create table t (a int)");
    AccelException viaExecute = failure(() -> run("COPY t FROM STDIN"));
    assertThat(viaExecute.state().code()).isEqualTo("0A000");
    AccelException file = failure(() -> s.prepare("COPY t FROM '/etc/passwd'"));
    assertThat(file.state().code()).isEqualTo("42501");
    assertThat(file.getMessage())
        .isEqualTo("must be superuser or have privileges of the pg_read_server_files role to COPY from a file");
    // the binary format takes none of the text format's options (PostgreSQL's messages and codes)
    AccelException delimiter = failure(() -> s.prepare("COPY t FROM STDIN (FORMAT binary, DELIMITER ',')"));
    assertThat(delimiter.state().code()).isEqualTo("42601");
    assertThat(delimiter.getMessage()).isEqualTo("cannot specify DELIMITER in BINARY mode");
    assertThat(failure(() -> s.prepare("COPY t TO STDOUT (FORMAT binary, HEADER)")).getMessage())
        .isEqualTo("cannot specify HEADER in BINARY mode");
    assertThat(failure(() -> s.copyIn("c", "COPY nosuch FROM STDIN")).state().code()).isEqualTo("42P01");
    assertThat(failure(() -> s.copyIn("c", "COPY t (nosuch) FROM STDIN")).state().code()).isEqualTo("42703");
  }

  @Test
  void aMillionRowCopyStreamsInBatches() {
    run("create table pgbench_accounts(aid int not null,bid int,abalance int,filler char(84)) with (fillfactor=100)");
    int n = 1_000_000;
    CopyIn in = s.copyIn("c", "copy pgbench_accounts from stdin with (freeze on)");
    long start = System.nanoTime();
    StringBuilder chunk = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      chunk.append(i).append('\t').append((i - 1) / 100_000 + 1).append("\t0\t\n");
      if (chunk.length() > 60_000 || i == n) {
        in.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
        chunk.setLength(0);
      }
    }
    assertThat(in.finish()).isEqualTo(n);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("COPY of %d rows: %.2f s, %.0f rows/s%n", n, seconds, n / seconds);
    assertThat(rows("SELECT count(*), sum(aid) FROM pgbench_accounts"))
        .containsExactly("[1000000, " + (long) n * (n + 1) / 2 + "]");
    long outStart = System.nanoTime();
    long lines = 0;
    try (CopyOut out = s.copyOut("o", "copy pgbench_accounts to stdout")) {
      while (out.next() != null) {
        lines++;
      }
      assertThat(out.rows()).isEqualTo(n);
    }
    System.out.printf("COPY TO of %d rows: %.2f s%n", lines, (System.nanoTime() - outStart) / 1e9);
  }

  @Test
  void theBinaryFormatTakesDecodedRowsAndGivesInternalValues() {
    run("create table b (id int primary key, name text, price numeric(10,2), day date, at timestamp)");
    CopyIn in = s.copyIn("c", "COPY b FROM STDIN (FORMAT binary)");
    assertThat(in.textFormat()).isFalse();
    assertThat(in.columnTypes()).extracting(t -> t.kind().name())
        .containsExactly("INTEGER", "TEXT", "NUMERIC", "DATE", "TIMESTAMP");
    in.writeRow(java.util.Arrays.asList(
        TypedValue.ofLocal(Rep.INTEGER, 1),
        TypedValue.ofLocal(Rep.STRING, "one"),
        TypedValue.ofLocal(Rep.NUMBER, new java.math.BigDecimal("1.5")),
        TypedValue.ofLocal(Rep.JAVA_SQL_DATE, 19000),
        TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, 86_400_000L)));
    in.writeRow(java.util.Arrays.asList(
        TypedValue.ofLocal(Rep.INTEGER, 2), null, null, null, null));
    AccelException count = failure(() -> in.writeRow(List.of()));
    assertThat(count.state().code()).isEqualTo("22P04");
    CopyIn again = s.copyIn("c2", "COPY b FROM STDIN (FORMAT binary)");
    again.writeRow(java.util.Arrays.asList(
        TypedValue.ofLocal(Rep.INTEGER, 1),
        TypedValue.ofLocal(Rep.STRING, "one"),
        TypedValue.ofLocal(Rep.NUMBER, new java.math.BigDecimal("1.5")),
        TypedValue.ofLocal(Rep.JAVA_SQL_DATE, 19000),
        TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, 86_400_000L)));
    assertThat(again.finish()).isEqualTo(1);
    assertThat(rows("SELECT CAST(price AS TEXT) || ' ' || CAST(day AS TEXT) || ' ' || CAST(at AS TEXT) FROM b"))
        .containsExactly("1.50 2022-01-08 1970-01-02 00:00:00");
    try (CopyOut out = s.copyOut("o", "COPY b TO STDOUT (FORMAT binary)")) {
      assertThat(out.textFormat()).isFalse();
      Object[] row = out.nextRow();
      assertThat(row[0]).isEqualTo(1);
      assertThat(row[3]).isEqualTo(19000);
      assertThat(out.nextRow()).isNull();
      assertThat(out.rows()).isEqualTo(1);
    }
  }
}
