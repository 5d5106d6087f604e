package io.accel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Sequence functions through the engine API (the DDL and errors are in slt/sequences_returning.test). */
class SequenceTest extends EngineTestBase {

  @Test
  void nextvalIsEvaluatedPerCallAndPerRow() {
    run("CREATE SEQUENCE s");
    assertEquals(List.of("[1, 2]"), rows("SELECT nextval('s'), nextval('s')"));
    assertEquals(List.of("[3, 3]"), rows("SELECT nextval('s') AS a, currval('s') AS b"));
    assertEquals(List.of(4L), rows("SELECT nextval('s')"));
    run("CREATE TABLE t (id BIGINT, v INT)");
    run("INSERT INTO t VALUES (nextval('s'), 1), (nextval('s'), 2)");
    assertEquals(List.of(5L, 6L), rows("SELECT id FROM t ORDER BY id"));
    assertEquals(List.of(6L), rows("SELECT currval('s')"));
  }

  @Test
  void serialColumnsDrawFromTheirSequencePerRow() {
    run("CREATE TABLE t (id SERIAL PRIMARY KEY, v TEXT)");
    run("INSERT INTO t (v) VALUES ('a'), ('b')");
    run("INSERT INTO t (v) SELECT v || 'x' FROM t");
    assertEquals(List.of("[1, a]", "[2, b]", "[3, ax]", "[4, bx]"), rows("SELECT * FROM t ORDER BY id"));
    assertEquals(List.of(5), rows("INSERT INTO t (v) VALUES ('c') RETURNING id"));
    run("CREATE SEQUENCE u");
    run("CREATE TABLE two (a BIGINT DEFAULT nextval('u'), b BIGINT DEFAULT nextval('u'), c INT)");
    run("INSERT INTO two (c) VALUES (1), (2)");
    assertEquals(List.of("[1, 2, 1]", "[3, 4, 2]"), rows("SELECT * FROM two ORDER BY c"));
    assertEquals(List.of("public.t_id_seq"), rows("SELECT pg_get_serial_sequence('t', 'id')"));
  }
}
