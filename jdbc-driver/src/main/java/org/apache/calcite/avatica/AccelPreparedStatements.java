package org.apache.calcite.avatica;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Prepares statements through the connection's Meta, as Avatica itself does. Calcite's connection
 * overrides {@code prepareStatement} to plan the text directly, past the Meta and so past Accel's plan
 * cache; the Accel driver calls this instead, so a statement prepared again (or prepared with other
 * literals) reuses its plan. The factory that makes the statement is package-private to Avatica.
 */
public final class AccelPreparedStatements {
  private AccelPreparedStatements() {
  }

  /** A prepared statement for {@code sql} whose signature comes from {@link Meta#prepare}. */
  public static PreparedStatement prepare(Connection connection, String sql, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    AvaticaConnection c = connection.unwrap(AvaticaConnection.class);
    c.checkOpen();
    Meta.StatementHandle h = c.meta.prepare(c.handle, sql, -1);
    try {
      return c.factory.newPreparedStatement(c, h, h.signature, resultSetType, resultSetConcurrency,
          resultSetHoldability);
    } catch (SQLException | RuntimeException e) {
      c.meta.closeStatement(h);
      throw e;
    }
  }
}
