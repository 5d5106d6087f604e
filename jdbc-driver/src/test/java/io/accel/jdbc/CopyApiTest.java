package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY through the embedded driver ({@code unwrap(AccelCopy.class)}), as pgJDBC's CopyManager is used. */
class CopyApiTest extends JdbcTestSupport {
  @Test
  void copyInAndOutAsWithPgJdbcsCopyManager() throws SQLException, IOException {
    Connection c = connect();
    update(c, "CREATE TABLE item (id SERIAL PRIMARY KEY, name TEXT NOT NULL, price NUMERIC(8,2))");
    AccelCopy copy = c.unwrap(AccelCopy.class);
    StringBuilder csv = new StringBuilder("name,price\n");
    for (int i = 1; i <= 20_000; i++) {
      csv.append(i % 1000 == 0 ? "\"comma, é\"" : "n" + i).append(',').append(i % 7 == 0 ? "" : i + ".5").append('\n');
    }
    assertThat(copy.copyIn("COPY item (name, price) FROM STDIN WITH (FORMAT csv, HEADER)",
        new StringReader(csv.toString()))).isEqualTo(20_000);
    assertThat(rows(c, "SELECT count(*), count(price), max(id), count(DISTINCT id) FROM item"))
        .containsExactly(List.of(20_000L, 17_143L, 20_000, 20_000L));
    assertThat(rows(c, "SELECT name FROM item WHERE id = 1000")).containsExactly(List.of("comma, é"));

    StringWriter out = new StringWriter();
    assertThat(copy.copyOut("COPY (SELECT id, name, price FROM item WHERE id IN (999, 1000) ORDER BY id) TO STDOUT",
        out)).isEqualTo(2);
    assertThat(out.toString()).isEqualTo("999\tn999\t999.50\n1000\tcomma, é\t1000.50\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    copy.copyOut("COPY (SELECT name FROM item WHERE id = 1000) TO STDOUT (FORMAT csv)", bytes);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\"comma, é\"\n");
  }

  @Test
  void aFailedCopyLeavesNothingAndTheConnectionWorks() throws SQLException, IOException {
    Connection c = connect();
    update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    AccelCopy copy = c.unwrap(AccelCopy.class);
    assertThatThrownBy(() -> copy.copyIn("COPY t FROM STDIN",
        new ByteArrayInputStream("1\ta\n2\tb\nx\tc\n".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22P02"));
    assertThat(rows(c, "SELECT count(*) FROM t")).containsExactly(List.of(0L));
    assertThatThrownBy(() -> copy.copyIn("COPY nope FROM STDIN", new StringReader("")))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42P01"));
    // inside a transaction the rows are the transaction's
    c.setAutoCommit(false);
    assertThat(copy.copyIn("COPY t FROM STDIN", new StringReader("1\ta\n2\tb\n"))).isEqualTo(2);
    c.rollback();
    assertThat(rows(c, "SELECT count(*) FROM t")).containsExactly(List.of(0L));
    assertThat(copy.copyIn("COPY t FROM STDIN", new StringReader("3\tc\n"))).isEqualTo(1);
    c.commit();
    c.setAutoCommit(true);
    assertThat(rows(c, "SELECT id, v FROM t")).containsExactly(List.of(3, "c"));
  }
}
