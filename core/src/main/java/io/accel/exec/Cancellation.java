package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What stops a running statement: its cancel flag (set by a frontend's cancel, {@link Session#cancel}) and
 * its timeout ({@code statement_timeout}, JDBC's query timeout), which sets the same flag. Checked by every
 * step of a scan ({@link TxnContext#enter}) and of a cursor, so a cancelled statement stops within a row
 * or a few index entries, with 57014.
 */
public final class Cancellation {
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "accel-statement-timeout");
    t.setDaemon(true);
    return t;
  });

  private final AtomicBoolean flag;
  private volatile boolean timedOut;
  private final ScheduledFuture<?> timer;

  /** @param timeoutMillis 0 for none */
  Cancellation(AtomicBoolean flag, long timeoutMillis) {
    this.flag = flag;
    this.timer = timeoutMillis <= 0 ? null : TIMER.schedule(() -> {
      timedOut = true;
      flag.set(true);
    }, timeoutMillis, TimeUnit.MILLISECONDS);
  }

  AtomicBoolean flag() {
    return flag;
  }

  /** Fails with 57014 once the statement was cancelled or timed out. */
  public void check() {
    if (flag.get()) {
      throw new AccelException(SqlState.QUERY_CANCELED, timedOut ? "canceling statement due to statement timeout"
          : "canceling statement due to user request");
    }
  }

  /** The statement ended: its timeout no longer applies. */
  public void finish() {
    if (timer != null) {
      timer.cancel(false);
    }
  }
}
