package io.accel.exec;

/**
 * Thrown where a READ COMMITTED statement met a row committed after its snapshot: the session undoes what the
 * statement wrote and runs it again on a new snapshot (PostgreSQL re-evaluates the row instead; running the whole
 * statement again gives the same result for the statement, which has returned nothing yet).
 */
final class StatementRestart extends RuntimeException {
  StatementRestart() {
    super("the statement met a concurrent update and runs again", null, false, false);
  }
}
