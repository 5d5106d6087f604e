package org.apache.calcite.jdbc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Lets Accel's Meta extend Calcite's (CalciteMetaImpl's constructor takes the package-private
 * CalciteConnectionImpl, which only code in this package can name), and keeps a per-connection cache
 * of prepared plans keyed by exact SQL text, so a statement run again skips parsing, planning and
 * code generation. The cache is emptied whenever the catalog changes.
 */
public abstract class AccelMetaBase extends CalciteMetaImpl {
  private record PlanKey(String sql, long maxRowCount) {
  }

  private final Cache<PlanKey, CalcitePrepare.CalciteSignature<Object>> plans =
      Caffeine.newBuilder().maximumSize(256).build();
  private long plansAtVersion = -1;

  protected AccelMetaBase(AvaticaConnection connection) {
    super((CalciteConnectionImpl) connection, CalciteMetaTableFactoryImpl.INSTANCE,
        CalciteMetaColumnFactoryImpl.INSTANCE);
  }

  /** Changes whenever a plan made before may no longer be valid (DDL). */
  protected abstract long schemaVersion();

  private CalcitePrepare.CalciteSignature<Object> plan(CalciteServerStatement statement, String sql, long maxRowCount) {
    synchronized (plans) {
      long version = schemaVersion();
      if (version != plansAtVersion) {
        plans.invalidateAll();
        plansAtVersion = version;
      }
    }
    return plans.get(new PlanKey(sql, maxRowCount), key -> {
      CalcitePrepare.Context context = statement.createPrepareContext();
      return getConnection().parseQuery(CalcitePrepare.Query.of(sql), context, maxRowCount);
    });
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    StatementHandle h = createStatement(ch);
    CalciteServerStatement statement;
    try {
      statement = getConnection().server.getStatement(h);
    } catch (NoSuchStatementException e) {
      throw new AssertionError("missing statement", e);
    }
    h.signature = plan(statement, sql, maxRowCount);
    statement.setSignature(h.signature);
    return h;
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
      PrepareCallback callback) throws NoSuchStatementException {
    CalcitePrepare.CalciteSignature<Object> signature;
    try {
      int updateCount;
      synchronized (callback.getMonitor()) {
        callback.clear();
        CalciteServerStatement statement = getConnection().server.getStatement(h);
        signature = plan(statement, sql, maxRowCount);
        statement.setSignature(signature);
        updateCount = switch (signature.statementType) {
          case CREATE, DROP, ALTER, OTHER_DDL -> 0;
          default -> -1;
        };
        callback.assign(signature, null, updateCount);
      }
      callback.execute();
      MetaResultSet metaResultSet = MetaResultSet.create(h.connectionId, h.id, false, signature, null, updateCount);
      return new ExecuteResult(List.of(metaResultSet));
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }
}
