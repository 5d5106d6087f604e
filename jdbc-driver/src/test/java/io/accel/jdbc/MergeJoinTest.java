package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scans of a primary key return rows in key order, and the planner knows it: tables joined by their keys are merged
 * without a hash table or a sort, and an ORDER BY of the key needs no sort. The rows are the join's, in the key's
 * order where one is asked for.
 */
class MergeJoinTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void data() throws SQLException {
    c = connect();
    // a: every third id from -3000; b: every second id down from 5000; history: five rows per person
    update(c, "CREATE TABLE a (id INTEGER PRIMARY KEY, v INTEGER)");
    update(c, "INSERT INTO a SELECT g * 3 - 3000, g % 13 FROM generate_series(1, 4000) g");
    update(c, "CREATE TABLE b (id INTEGER PRIMARY KEY, w INTEGER)");
    update(c, "INSERT INTO b SELECT 5000 - g * 2, g % 7 FROM generate_series(1, 5000) g");
    update(c, "CREATE TABLE person (p INTEGER PRIMARY KEY, name TEXT)");
    update(c, "INSERT INTO person SELECT g, 'p' || g FROM generate_series(0, 1999) g");
    update(c, "CREATE TABLE history (p INTEGER, since DATE, amount INTEGER, PRIMARY KEY (p, since))");
    update(c, "INSERT INTO history SELECT g / 5, DATE '1968-01-01' + (g % 5) * 365, (g * 37) % 500 FROM "
        + "generate_series(0, 9999) g");
    update(c, "CREATE TABLE tagged (tag TEXT PRIMARY KEY, n INTEGER)");
    update(c, "INSERT INTO tagged SELECT 't' || g, g FROM generate_series(1, 3000) g");
    update(c, "CREATE TABLE tagged2 (tag TEXT PRIMARY KEY, m INTEGER)");
    update(c, "INSERT INTO tagged2 SELECT 't' || (g * 2), g FROM generate_series(1, 3000) g");
    for (String t : List.of("a", "b", "person", "history", "tagged", "tagged2")) {
      update(c, "ANALYZE " + t);
    }
  }

  private String plan(String sql) throws SQLException {
    StringBuilder out = new StringBuilder();
    for (List<Object> row : rows(c, "EXPLAIN " + sql)) {
      out.append(row.get(0)).append('\n');
    }
    return out.toString();
  }

  private static boolean inA(int id) {
    return id >= -2997 && id <= 9000 && Math.floorMod(id, 3) == 0;
  }

  private static boolean inB(int id) {
    return id >= -5000 && id <= 4998 && id % 2 == 0;
  }

  @Test
  void tablesJoinedByTheirKeysAreMergedInKeyOrder() throws SQLException {
    String sql = "SELECT a.id, a.v, b.w FROM a JOIN b ON a.id = b.id ORDER BY a.id";
    String plan = plan(sql);
    assertThat(plan).contains("EnumerableMergeJoin").doesNotContain("Sort").doesNotContain("HashJoin");
    List<List<Object>> expected = new ArrayList<>();
    for (int id = -5000; id <= 9000; id++) {
      if (inA(id) && inB(id)) {
        int g = (id + 3000) / 3;
        int h = (5000 - id) / 2;
        expected.add(List.of(id, g % 13, h % 7));
      }
    }
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(rows(c, sql)).containsExactlyElementsOf(expected);
  }

  @Test
  void aKeyPrefixJoinMatchesEveryPairOfItsRuns() throws SQLException {
    // each person's five rows against each other: the pairs where the earlier row had the larger amount
    String sql = "SELECT count(*), sum(h1.amount - h2.amount), count(DISTINCT pe.name) FROM person pe "
        + "JOIN history h1 ON pe.p = h1.p JOIN history h2 ON pe.p = h2.p "
        + "WHERE h1.since < h2.since AND h1.amount > h2.amount";
    assertThat(plan(sql)).contains("EnumerableMergeJoin").doesNotContain("Sort");
    long count = 0;
    long sum = 0;
    java.util.Set<Integer> people = new java.util.HashSet<>();
    for (int p = 0; p < 2000; p++) {
      for (int i = 0; i < 5; i++) {
        for (int j = i + 1; j < 5; j++) {
          int earlier = ((p * 5 + i) * 37) % 500;
          int later = ((p * 5 + j) * 37) % 500;
          if (earlier > later) {
            count++;
            sum += earlier - later;
            people.add(p);
          }
        }
      }
    }
    assertThat(rows(c, sql)).containsExactly(List.of(count, sum, (long) people.size()));
  }

  @Test
  void anOrderByTheKeyIsReadInKeyOrder() throws SQLException {
    String sql = "SELECT id FROM a WHERE id BETWEEN 100 AND 400 ORDER BY id";
    assertThat(plan(sql)).doesNotContain("Sort");
    List<List<Object>> expected = new ArrayList<>();
    for (int id = 100; id <= 400; id++) {
      if (inA(id)) {
        expected.add(List.of(id));
      }
    }
    assertThat(rows(c, sql)).containsExactlyElementsOf(expected);
  }

  @Test
  void rowsTheTransactionWroteAreMergedInTheirPlace() throws SQLException {
    c.setAutoCommit(false);
    // 4, -298 and 4996 are in b but not in a; 0 leaves b
    update(c, "INSERT INTO a VALUES (4, 100), (-298, 101), (4996, 102)");
    update(c, "DELETE FROM b WHERE id = 0");
    List<List<Object>> rows = rows(c, "SELECT a.id, a.v FROM a JOIN b ON a.id = b.id WHERE a.v >= 100 "
        + "OR a.id BETWEEN -6 AND 6 ORDER BY a.id");
    assertThat(rows).containsExactly(List.of(-298, 101), List.of(-6, (-6 + 3000) / 3 % 13), List.of(4, 100),
        List.of(6, (6 + 3000) / 3 % 13), List.of(4996, 102));
    c.rollback();
  }

  @Test
  void textKeysAreNotTakenAsOrdered() throws SQLException {
    // the key encoding orders text by its UTF-8 bytes, Java's comparison by UTF-16 units: no claim is made
    String sql = "SELECT count(*), sum(t.n), sum(u.m) FROM tagged t JOIN tagged2 u ON t.tag = u.tag";
    assertThat(plan(sql)).doesNotContain("EnumerableMergeJoin");
    long sumN = 0;
    long sumM = 0;
    for (int g = 1; g <= 1500; g++) {
      sumN += g * 2L;
      sumM += g;
    }
    assertThat(rows(c, sql)).containsExactly(List.of(1500L, sumN, sumM));
  }
}
