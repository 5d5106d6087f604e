package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/** COPY through psql and pgJDBC's CopyManager, and pgbench's initialisation, runs and consistency. */
class CopyAndPgbenchTest {
  @TempDir
  Path dir;

  private static String conninfo(TestServer s) {
    return "host=127.0.0.1 port=" + s.port() + " dbname=test user=bench";
  }

  @Test
  void copyInAndOutWithPsql() throws Exception {
    try (TestServer s = new TestServer()) {
      Path csv = dir.resolve("in.csv");
      Files.writeString(csv, "id,name,price\n1,\"a, b\",1.50\n2,,2\n3,\"say \"\"hi\"\"\",\n");
      Psql.Run r = Psql.psql(conninfo(s), Map.of(), "-c", "create table items(id int primary key, name text, price numeric(6,2))",
          "-c", "\\copy items from '" + csv + "' with (format csv, header)");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).contains("COPY 3");
      r = Psql.psql(conninfo(s), Map.of(), "-c", "copy items to stdout");
      // text format: NULL as \N, the quote kept, numeric as stored
      assertThat(r.out()).isEqualTo("1\ta, b\t1.50\n2\t\\N\t2.00\n3\tsay \"hi\"\t\\N\n");
      r = Psql.psql(conninfo(s), Map.of(), "-c", "copy (select id, name from items where id > 1 order by id) to stdout with (format csv, header)");
      assertThat(r.out()).isEqualTo("id,name\n2,\n3,\"say \"\"hi\"\"\"\n");
      // a bad row rolls the whole COPY back
      Path bad = dir.resolve("bad.txt");
      Files.writeString(bad, "10\tten\t1\n11\televen\tnot-a-number\n");
      r = Psql.psql(conninfo(s), Map.of(), "-c", "\\copy items from '" + bad + "'");
      assertThat(r.err()).contains("22P02").contains("COPY items, line 2");
      r = Psql.psql(conninfo(s), Map.of(), "-c", "select count(*) from items");
      assertThat(r.out().strip()).isEqualTo("3");
    }
  }

  @Test
  void copyWithPgJdbcCopyManager() throws Exception {
    try (TestServer s = new TestServer(); Connection c = s.connect(); Statement st = c.createStatement()) {
      st.execute("create table copied(id int primary key, v text)");
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      StringBuilder data = new StringBuilder();
      for (int i = 1; i <= 20_000; i++) {
        data.append(i).append('\t').append("value ").append(i).append('\n');
      }
      assertThat(copy.copyIn("copy copied from stdin", new StringReader(data.toString()))).isEqualTo(20_000);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(copy.copyOut("copy copied to stdout", out)).isEqualTo(20_000);
      assertThat(out.toString()).isEqualTo(data.toString());
      // inside a transaction, then rolled back
      c.setAutoCommit(false);
      copy.copyIn("copy copied from stdin", new StringReader("20001\tx\n"));
      c.rollback();
      c.setAutoCommit(true);
      try (ResultSet rs = st.executeQuery("select count(*) from copied")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(20_000);
      }
      assertThatThrownBy(() -> copy.copyIn("copy copied from stdin", new StringReader("1\tduplicate\n")))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      try (ResultSet rs = st.executeQuery("select v from copied where id = 1")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("value 1");
      }
    }
  }

  private static void assertBalancesMatchHistory(TestServer s) throws Exception {
    Psql.Run sums = Psql.psql(conninfo(s), Map.of(), "-c",
        "select (select sum(abalance) from pgbench_accounts), (select sum(tbalance) from pgbench_tellers), "
            + "(select sum(bbalance) from pgbench_branches), (select sum(delta) from pgbench_history), "
            + "(select count(*) from pgbench_history)");
    String[] v = sums.out().strip().split("\\|");
    assertThat(Long.parseLong(v[4])).isGreaterThan(0);
    assertThat(v[0]).isEqualTo(v[3]);
    assertThat(v[1]).isEqualTo(v[3]);
    assertThat(v[2]).isEqualTo(v[3]);
  }

  @Test
  void pgbenchInitializesRunsAndStaysConsistent() throws Exception {
    try (TestServer s = new TestServer()) {
      String port = Integer.toString(s.port());
      Map<String, String> env = Map.of("PGHOST", "127.0.0.1", "PGPORT", port, "PGUSER", "bench", "PGDATABASE", "test");
      Psql.Run init = Psql.run(env, null, "pgbench", "-i", "-s", "1", "-q");
      assertThat(init.exit()).as(init.err()).isZero();
      assertThat(init.err()).contains("done in");
      for (String mode : new String[] {"simple", "extended", "prepared"}) {
        Psql.Run select = Psql.run(env, null, "pgbench", "-S", "-M", mode, "-c", "4", "-j", "2", "-T", "2");
        assertThat(select.exit()).as(mode + ": " + select.err()).isZero();
        assertThat(select.out()).contains("number of failed transactions: 0");
      }
      // TPC-B-like, as PostgreSQL users run it (no retries): the four clients update the one branch row in every
      // transaction; READ COMMITTED writers wait for the row and then update it as committed, so none fails.
      // pgbench empties pgbench_history before a run (without -n), and -S changed no balance: after this run every
      // delta is in the history and in each level's balances, pgbench's own invariant
      Psql.Run tpcb = Psql.run(env, null, "pgbench", "-M", "prepared", "-c", "4", "-j", "2", "-T", "3",
          "--failures-detailed");
      assertThat(tpcb.exit()).as(tpcb.err() + tpcb.out()).isZero();
      assertThat(tpcb.out()).contains("number of failed transactions: 0").contains("number of deadlock failures: 0");
      assertBalancesMatchHistory(s);
      // simple and extended protocol, adding to the same history (-n: no vacuum, no truncation)
      for (String mode : new String[] {"simple", "extended"}) {
        Psql.Run more = Psql.run(env, null, "pgbench", "-n", "-M", mode, "-c", "3", "-T", "2");
        assertThat(more.exit()).as(more.err() + more.out()).isZero();
        assertThat(more.out()).contains("number of failed transactions: 0");
        assertBalancesMatchHistory(s);
      }
      Psql.Run count = Psql.psql(conninfo(s), Map.of(), "-c", "select count(*) from pgbench_accounts");
      assertThat(count.out().strip()).isEqualTo("100000");
    }
  }
}
