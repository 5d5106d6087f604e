package io.accel.upstream;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.sql.SQLException;

/** Failures of the upstream connection in Accel's terms: PostgreSQL's own SQLSTATE where it gave one. */
final class Upstream {
  private Upstream() {
  }

  /** A failed upstream statement of the mirror's: the upstream's SQLSTATE, with what the mirror was doing. */
  static AccelException failure(String doing, SQLException e) {
    String state = e.getSQLState();
    SqlState code = state == null || state.length() != 5 ? SqlState.CONNECTION_FAILURE : SqlState.of(state);
    return new AccelException(code, doing + ": " + e.getMessage(), e);
  }
}
