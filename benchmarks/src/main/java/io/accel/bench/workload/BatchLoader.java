package io.accel.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Inserts generated rows through one PreparedStatement in JDBC batches, with auto-commit off and a commit
 * after every batch, so the same loader fills Accel and PostgreSQL. The connection's auto-commit setting
 * is restored afterwards; on failure the open batch is rolled back.
 */
public final class BatchLoader {
  public static final int DEFAULT_BATCH_SIZE = 5_000;

  /** Binds the parameters of the insert for one row, numbered from 0. */
  @FunctionalInterface
  public interface RowBinder {
    void bind(PreparedStatement insert, long row) throws SQLException;
  }

  private final int batchSize;

  public BatchLoader(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
    this.batchSize = batchSize;
  }

  public int batchSize() {
    return batchSize;
  }

  /** Inserts rows 0 .. rows-1 of {@code table} with {@code insertSql}, binding each by {@code binder}. */
  public LoadResult.TableLoad insert(Connection connection, String table, String insertSql, long rows,
      RowBinder binder, Workload.LoadListener listener) throws SQLException {
    long start = System.nanoTime();
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try (PreparedStatement insert = connection.prepareStatement(insertSql)) {
      int inBatch = 0;
      for (long row = 0; row < rows; row++) {
        binder.bind(insert, row);
        insert.addBatch();
        if (++inBatch == batchSize || row == rows - 1) {
          insert.executeBatch();
          connection.commit();
          inBatch = 0;
          listener.batchCommitted(table, row + 1, rows);
        }
      }
    } catch (SQLException | RuntimeException e) {
      try {
        connection.rollback();
        connection.setAutoCommit(autoCommit);
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    connection.setAutoCommit(autoCommit);
    return new LoadResult.TableLoad(table, rows, System.nanoTime() - start);
  }
}
