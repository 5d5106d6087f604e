package io.accel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** INSERT, UPDATE and DELETE ... RETURNING through the engine API: rows and the DML's row count together. */
class ReturningTest extends EngineTestBase {

  @Test
  void insertReturnsTheRowsAsStoredWithTheirCount() {
    run("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10), n INT DEFAULT 7)");
    try (Result r = run("INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b') RETURNING id, n, name || '!' AS x")) {
      assertTrue(r.hasRows());
      assertEquals(2, r.updateCount());
      assertEquals(List.of("x"), List.of(r.signature().columns.get(2).label));
      assertEquals("[1, 7, a!]", java.util.Arrays.toString((Object[]) r.cursor().next()));
      assertEquals("[2, 7, b!]", java.util.Arrays.toString((Object[]) r.cursor().next()));
    }
  }

  @Test
  void updateReturnsNewValuesAndDeleteTheOldOnes() {
    run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    run("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)");
    assertEquals(List.of("[2, 21]", "[3, 31]"), rows("UPDATE t SET v = v + 1 WHERE id >= 2 RETURNING *"));
    assertEquals(List.of(21), rows("DELETE FROM t AS x WHERE x.id = 2 RETURNING x.v"));
    assertEquals(List.of(), rows("DELETE FROM t WHERE id = 99 RETURNING id"));
    assertEquals(List.of("[1, 10]", "[3, 31]"), rows("SELECT * FROM t ORDER BY id"));
  }
}
