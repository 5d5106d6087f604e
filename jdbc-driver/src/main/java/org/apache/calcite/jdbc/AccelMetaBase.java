package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;

/**
 * Lets Accel's Meta extend Calcite's: CalciteMetaImpl's constructor takes the package-private
 * CalciteConnectionImpl, which only code in this package can name.
 */
public abstract class AccelMetaBase extends CalciteMetaImpl {
  protected AccelMetaBase(AvaticaConnection connection) {
    super((CalciteConnectionImpl) connection, CalciteMetaTableFactoryImpl.INSTANCE,
        CalciteMetaColumnFactoryImpl.INSTANCE);
  }
}
