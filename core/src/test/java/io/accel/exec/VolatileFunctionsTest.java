package io.accel.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The current time and volatile functions as PostgreSQL evaluates them: now() fixed for a transaction, the
 * volatile ones evaluated again for every row and every execution of a cached plan (what sqllogictest cannot
 * observe: time passing between statements, one prepared statement run twice).
 */
class VolatileFunctionsTest extends EngineTestBase {

  @Test
  void nowIsTheTransactionStartForEveryStatementOfABlock() throws Exception {
    run("BEGIN");
    Object first = rows("SELECT now()").get(0);
    Thread.sleep(20);
    assertEquals(first, rows("SELECT now()").get(0));
    assertEquals(first, rows("SELECT CURRENT_TIMESTAMP").get(0));
    assertEquals(List.of(true), rows("SELECT statement_timestamp() > transaction_timestamp()"));
    run("COMMIT");
    Thread.sleep(20);
    Object later = rows("SELECT now()").get(0);
    assertTrue((Long) later > (Long) first, () -> later + " after " + first);
  }

  @Test
  void nowIsBeginsTimeEvenWhenTheFirstStatementComesLater() throws Exception {
    run("BEGIN");
    long begun = System.currentTimeMillis();
    Thread.sleep(50);
    long now = (Long) rows("SELECT transaction_timestamp()").get(0);
    assertTrue(now <= begun, () -> now + " after BEGIN at " + begun);
    run("ROLLBACK");
  }

  @Test
  void nowAdvancesBetweenStatementsOutsideABlock() throws Exception {
    Object first = rows("SELECT now()").get(0);
    Thread.sleep(20);
    assertNotEquals(first, rows("SELECT now()").get(0));
  }

  @Test
  void genRandomUuidIsNewForEveryRowCallAndExecutionOfACachedPlan() {
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      seen.addAll(rows("SELECT gen_random_uuid() FROM generate_series(1, 5)"));
    }
    assertEquals(15, seen.size());
    Prepared prepared = s.prepare("SELECT gen_random_uuid(), gen_random_uuid()");
    for (int i = 0; i < 3; i++) {
      try (Result r = s.execute("p", prepared, List.of(), new AtomicBoolean(), 0)) {
        Object[] row = (Object[]) r.cursor().next();
        seen.add(row[0]);
        seen.add(row[1]);
      }
    }
    assertEquals(21, seen.size());
  }

  @Test
  void aUuidDefaultIsNewForEveryInsertOfTheSameStatement() {
    run("CREATE TABLE items (id uuid DEFAULT gen_random_uuid() PRIMARY KEY, name TEXT)");
    for (int i = 0; i < 3; i++) {
      run("INSERT INTO items (name) VALUES ('x')");
    }
    assertEquals(List.of(3L), rows("SELECT count(DISTINCT id) FROM items"));
  }

  @Test
  void randomIsNewForEveryExecution() {
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      seen.addAll(rows("SELECT random()"));
    }
    assertEquals(5, seen.size());
  }
}
