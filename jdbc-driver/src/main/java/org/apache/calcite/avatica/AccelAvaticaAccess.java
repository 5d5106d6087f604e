package org.apache.calcite.avatica;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * Lets the Accel driver reach what Avatica keeps to its own package: the parameter slots of prepared
 * statements (to bind values whose engine representation Avatica's setters cannot produce, UUID objects
 * and instants of TIMESTAMP WITH TIME ZONE, and to check that every parameter is set) and the Meta of a
 * connection.
 */
public final class AccelAvaticaAccess {
  private AccelAvaticaAccess() {
  }

  /** The Meta of the Avatica connection behind {@code connection}, or null when it is not one. */
  public static Meta meta(java.sql.Connection connection) throws SQLException {
    if (!connection.isWrapperFor(AvaticaConnection.class)) {
      return null;
    }
    return connection.unwrap(AvaticaConnection.class).meta;
  }

  /**
   * Clears a cancel request left from an earlier execution: Avatica never resets the flag, so once cancelled a
   * statement's later result sets would all fail; PostgreSQL's cancel reaches only the running statement.
   */
  public static void clearCancel(java.sql.Statement statement) throws SQLException {
    if (statement.isWrapperFor(AvaticaStatement.class)) {
      statement.unwrap(AvaticaStatement.class).cancelFlag.set(false);
    }
  }

  /** The Avatica statement behind {@code ps}, or null when it is not one. */
  private static AvaticaPreparedStatement avatica(PreparedStatement ps) throws SQLException {
    return ps.isWrapperFor(AvaticaPreparedStatement.class) ? ps.unwrap(AvaticaPreparedStatement.class) : null;
  }

  /** The declared type name of parameter {@code index} (1-based), or null when unknown. */
  public static String typeName(PreparedStatement ps, int index) throws SQLException {
    AvaticaPreparedStatement a = avatica(ps);
    if (a == null) {
      return null;
    }
    var parameters = a.getSignature().parameters;
    if (index < 1 || index > parameters.size()) {
      return null;
    }
    return parameters.get(index - 1).typeName;
  }

  /** Binds a value given in the engine's own (local) representation. */
  public static void setLocal(PreparedStatement ps, int index, ColumnMetaData.Rep rep, Object value)
      throws SQLException {
    AvaticaPreparedStatement a = avatica(ps);
    a.getSite(index); // checks that the statement is open and the index in range
    a.slots[index - 1] = value == null ? TypedValue.EXPLICIT_NULL : TypedValue.ofLocal(rep, value);
  }

  /** A bound parameter value and what the statement declares the parameter to be. */
  public interface ParameterConverter {
    /** The value to bind instead of {@code value} (same object when unchanged). */
    TypedValue convert(int index, TypedValue value, AvaticaParameter parameter) throws SQLException;
  }

  /** Replaces each bound value by what {@code converter} makes of it. */
  public static void convertParameters(PreparedStatement ps, ParameterConverter converter) throws SQLException {
    AvaticaPreparedStatement a = avatica(ps);
    if (a == null) {
      return;
    }
    var parameters = a.getSignature().parameters;
    for (int i = 0; i < a.slots.length && i < parameters.size(); i++) {
      TypedValue value = a.slots[i];
      if (value != null && value.value != null) {
        a.slots[i] = converter.convert(i + 1, value, parameters.get(i));
      }
    }
  }

  /** The 1-based index of the first parameter that has no value, or 0 when all have one. */
  public static int firstUnset(PreparedStatement ps) throws SQLException {
    AvaticaPreparedStatement a = avatica(ps);
    if (a == null) {
      return 0;
    }
    for (int i = 0; i < a.slots.length; i++) {
      if (a.slots[i] == null) {
        return i + 1;
      }
    }
    return 0;
  }
}
