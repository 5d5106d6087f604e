package io.accel.e2e.fuzz;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One fuzzing thread: until the deadline it makes random JDBC calls, on its own table through its writing
 * connection ({@link OwnedTable}) and on the objects of its private pool and of the pool it shares with another
 * worker (so two threads use one connection, its statements and result sets at once). Every failure a call raises
 * is judged by {@link Violations#failure}; the calls are logged before they are made.
 */
final class FuzzWorker implements Runnable {
  final String name;
  private final FuzzContext ctx;
  private final Random rnd;
  private final ObjectPool mine;
  private final ObjectPool shared;
  final OwnedTable own;
  private PrintStream file;
  /** The second thread of {@link #race}. */
  private final ExecutorService helper;
  /** The call in progress (null between calls) and when it started, for the watchdog. */
  volatile String current;
  volatile long currentSince;
  volatile boolean done;

  FuzzWorker(int index, FuzzContext ctx, long seed, ObjectPool shared) {
    this.name = "t" + index;
    this.ctx = ctx;
    this.rnd = new Random(seed * 1_000_003L + index);
    this.mine = new ObjectPool(name);
    this.shared = shared;
    this.own = new OwnedTable(index, ctx, this::call);
    this.helper = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fuzz-" + name + "-helper");
      t.setDaemon(true);
      return t;
    });
  }

  private void call(String what) {
    current = what;
    currentSince = System.nanoTime();
    ctx.log.add(name, file, what);
  }

  @Override
  public void run() {
    try (PrintStream f = ctx.log.open(name)) {
      file = f;
      while (!ctx.over()) {
        step();
        current = null;
      }
      own.finish();
    } catch (IOException e) {
      ctx.violations.record("harness: cannot write the call log", name, e.toString());
    } catch (Throwable t) {
      ctx.violations.record("harness: worker died: " + t, name, String.valueOf(current));
    } finally {
      done = true;
    }
  }

  private void step() {
    if (rnd.nextInt(100) < 30) {
      ctx.count("own table step");
      own.step(rnd);
      return;
    }
    ObjectPool pool = rnd.nextBoolean() ? mine : shared;
    int p = rnd.nextInt(100);
    if (p < 3) {
      openConnection(pool);
    } else if (p < 7) {
      closeConnection(pool);
    } else if (p < 9) {
      dropConnection(pool);
    } else if (p < 17) {
      newStatement(pool);
    } else if (p < 37) {
      executeQuery(pool);
    } else if (p < 60) {
      readCursor(pool);
    } else if (p < 64) {
      closeCursor(pool);
    } else if (p < 68) {
      closeStatement(pool);
    } else if (p < 69) {
      dropStatement(pool);
    } else if (p < 78) {
      transactionControl(pool);
    } else if (p < 86) {
      sharedDml(pool);
    } else if (p < 90) {
      ddl(pool);
    } else if (p < 92) {
      cancel();
    } else if (p < 97) {
      for (int i = rnd.nextInt(3); i >= 0; i--) {
        race(shared);
      }
    } else if (p < 98) {
      ctx.count("System.gc");
      call("System.gc()");
      System.gc();
    } else if (rnd.nextInt(4) == 0) {
      closeAll(pool);
    }
  }

  /** Makes a call; a failure it raises is judged, and then the step ends. */
  private interface Call {
    void run() throws Exception;
  }

  private boolean attempt(String what, Call c) {
    call(what);
    try {
      c.run();
      return true;
    } catch (Throwable t) {
      ctx.violations.failure(what, t);
      return false;
    }
  }

  private Optional<ObjectPool.Conn> connection(ObjectPool pool) {
    Optional<ObjectPool.Conn> c = pool.conn(rnd);
    return c.isPresent() ? c : openConnection(pool);
  }

  private Optional<ObjectPool.Conn> openConnection(ObjectPool pool) {
    ctx.count("open connection");
    String url = ctx.connectionUrl(rnd);
    String cname = ctx.name('c');
    Connection[] made = new Connection[1];
    if (!attempt(cname + " = getConnection(" + url + ") [pool " + pool.name + "]",
        () -> made[0] = DriverManager.getConnection(url))) {
      return Optional.empty();
    }
    ObjectPool.Conn c = new ObjectPool.Conn(cname, made[0]);
    if (rnd.nextInt(3) == 0) {
      attempt(cname + ".setAutoCommit(false)", () -> made[0].setAutoCommit(false));
    }
    pool.add(c, rnd).ifPresent(old -> {
      if (rnd.nextInt(3) == 0) {
        pool.remove(old);
        call(old.name() + " dropped without close (evicted)");
      } else {
        attempt(old.name() + ".close() (evicted)", () -> old.jdbc().close());
      }
    });
    return Optional.of(c);
  }

  private void closeConnection(ObjectPool pool) {
    ctx.count("close connection");
    pool.conn(rnd).ifPresent(c -> {
      int times = rnd.nextInt(5) == 0 ? 2 : 1;
      for (int i = 0; i < times; i++) {
        attempt(c.name() + ".close()", () -> c.jdbc().close());
      }
      if (rnd.nextBoolean()) {
        pool.remove(c);
      }
    });
  }

  private void dropConnection(ObjectPool pool) {
    ctx.count("drop connection");
    pool.conn(rnd).ifPresent(c -> {
      call(c.name() + " dropped without close, with its statements and result sets");
      pool.remove(c);
    });
  }

  private Optional<ObjectPool.Stmt> newStatement(ObjectPool pool) {
    ctx.count("new statement");
    Optional<ObjectPool.Conn> oc = connection(pool);
    if (oc.isEmpty()) {
      return Optional.empty();
    }
    ObjectPool.Conn c = oc.get();
    String sname = ctx.name('s');
    int kind = rnd.nextInt(20);
    FuzzSql.Prepared prepared = kind < 8 ? null
        : kind < 17 ? FuzzSql.preparedQuery(rnd, ctx.tables)
        : kind < 19 ? FuzzSql.preparedSharedDml(rnd)
        : new FuzzSql.Prepared(FuzzSql.transactionControl(rnd), false, (ps, r) -> { });
    Statement[] made = new Statement[1];
    String what = prepared == null ? sname + " = " + c.name() + ".createStatement()"
        : sname + " = " + c.name() + ".prepareStatement(" + prepared.sql() + ")";
    if (!attempt(what, () -> made[0] = prepared == null ? c.jdbc().createStatement()
        : c.jdbc().prepareStatement(prepared.sql()))) {
      return Optional.empty();
    }
    ObjectPool.Stmt s = new ObjectPool.Stmt(sname, c, made[0], prepared);
    pool.add(s, rnd).ifPresent(old -> {
      if (rnd.nextBoolean()) {
        pool.remove(old);
        call(old.name() + " dropped without close (evicted)");
      } else {
        attempt(old.name() + ".close() (evicted)", () -> old.jdbc().close());
      }
    });
    return Optional.of(s);
  }

  private Optional<ObjectPool.Stmt> statement(ObjectPool pool) {
    Optional<ObjectPool.Stmt> s = pool.stmt(rnd);
    return s.isPresent() ? s : newStatement(pool);
  }

  private void executeQuery(ObjectPool pool) {
    ctx.count("execute query");
    Optional<ObjectPool.Stmt> os = statement(pool);
    if (os.isEmpty()) {
      return;
    }
    ObjectPool.Stmt s = os.get();
    if (s.prepared() != null && !s.prepared().query()) {
      execute(s);
      return;
    }
    String sql = s.prepared() == null ? FuzzSql.query(rnd, ctx.tables) : null;
    String rname = ctx.name('r');
    int rows = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(150);
    ctx.cancellable(s);
    s.running().set(true);
    try {
      attempt(rname + " = " + s.name() + ".executeQuery(" + (sql == null ? "" : sql) + ") [" + s.conn().name()
          + "], read " + rows + " rows", () -> {
            ResultSet rs;
            if (sql == null) {
              PreparedStatement ps = (PreparedStatement) s.jdbc();
              s.prepared().binder().bind(ps, rnd);
              rs = ps.executeQuery();
            } else {
              rs = s.jdbc().executeQuery(sql);
            }
            if (rs == null) {
              ctx.violations.wrong("executeQuery returned null instead of a result set or an SQLException",
                  s.name() + ".executeQuery(" + (sql == null ? s.prepared().sql() : sql) + ")", "");
              return;
            }
            ObjectPool.Cursor cursor = new ObjectPool.Cursor(rname, s, rs, rs.getMetaData().getColumnCount(), false);
            pool.add(cursor, rnd);
            read(cursor, rows, ctx.observedTags);
          });
    } finally {
      s.running().set(false);
    }
  }

  /** Executes a prepared statement that is not a query (DML or transaction control), sometimes as a batch. */
  private void execute(ObjectPool.Stmt s) {
    PreparedStatement ps = (PreparedStatement) s.jdbc();
    boolean batch = rnd.nextInt(4) == 0;
    attempt(s.name() + (batch ? ".addBatch() x3, executeBatch()" : ".execute()") + " [" + s.prepared().sql() + ", "
        + s.conn().name() + "]", () -> {
          if (batch) {
            for (int i = 0; i < 3; i++) {
              s.prepared().binder().bind(ps, rnd);
              ps.addBatch();
            }
            ps.executeBatch();
          } else {
            s.prepared().binder().bind(ps, rnd);
            ps.execute();
          }
        });
  }

  /**
   * Reads up to {@code rows} rows of a result set, every column with getObject; the tags found are added to
   * {@code tags} unless it is null. Returns the number of rows read.
   */
  static int read(ObjectPool.Cursor cursor, int rows, Set<String> tags) throws SQLException {
    ResultSet rs = cursor.jdbc();
    int n = 0;
    while (n < rows && rs.next()) {
      for (int i = 1; i <= cursor.columns(); i++) {
        Object v = rs.getObject(i);
        if (tags != null && v instanceof String s && s.startsWith("T") && s.indexOf('#') > 0) {
          tags.add(s);
        }
      }
      n++;
    }
    return n;
  }

  private void readCursor(ObjectPool pool) {
    ctx.count("read result set");
    Optional<ObjectPool.Cursor> oc = pool.cursor(rnd);
    if (oc.isEmpty()) {
      executeQuery(pool);
      return;
    }
    ObjectPool.Cursor c = oc.get();
    int rows = switch (rnd.nextInt(4)) {
      case 0 -> 1;
      case 1 -> 10;
      case 2 -> 100;
      default -> 1_000;
    };
    c.stmt().running().set(true);
    try {
      attempt(c.name() + ": read " + rows + " rows, getObject each column [" + c.stmt().name() + ", "
          + c.stmt().conn().name() + "]", () -> {
            read(c, rows, ctx.observedTags);
            if (rnd.nextInt(4) == 0) {
              c.jdbc().getString(1);
            }
          });
    } finally {
      c.stmt().running().set(false);
    }
  }

  private void closeCursor(ObjectPool pool) {
    ctx.count("close result set");
    pool.cursor(rnd).ifPresent(c -> {
      int times = rnd.nextInt(5) == 0 ? 2 : 1;
      for (int i = 0; i < times; i++) {
        attempt(c.name() + ".close()", () -> c.jdbc().close());
      }
      if (rnd.nextBoolean()) {
        pool.remove(c);
      }
    });
  }

  private void closeStatement(ObjectPool pool) {
    ctx.count("close statement");
    pool.stmt(rnd).ifPresent(s -> {
      int times = rnd.nextInt(5) == 0 ? 2 : 1;
      for (int i = 0; i < times; i++) {
        attempt(s.name() + ".close()", () -> s.jdbc().close());
      }
      if (rnd.nextBoolean()) {
        pool.remove(s);
      }
    });
  }

  private void dropStatement(ObjectPool pool) {
    ctx.count("drop statement");
    pool.stmt(rnd).ifPresent(s -> {
      call(s.name() + " dropped without close, with its result sets");
      pool.remove(s);
    });
  }

  private void transactionControl(ObjectPool pool) {
    ctx.count("transaction control");
    Optional<ObjectPool.Conn> oc = connection(pool);
    if (oc.isEmpty()) {
      return;
    }
    ObjectPool.Conn c = oc.get();
    switch (rnd.nextInt(6)) {
      case 0 -> attempt(c.name() + ".setAutoCommit(true)", () -> c.jdbc().setAutoCommit(true));
      case 1 -> attempt(c.name() + ".setAutoCommit(false)", () -> c.jdbc().setAutoCommit(false));
      case 2 -> attempt(c.name() + ".commit()", () -> c.jdbc().commit());
      case 3 -> attempt(c.name() + ".rollback()", () -> c.jdbc().rollback());
      default -> {
        String sql = FuzzSql.transactionControl(rnd);
        attempt(c.name() + ".createStatement().execute(\"" + sql + "\")", () -> {
          Statement st = c.jdbc().createStatement();
          st.execute(sql);
          if (rnd.nextBoolean()) {
            st.close();
          }
        });
      }
    }
  }

  private void sharedDml(ObjectPool pool) {
    ctx.count("DML on a shared table");
    Optional<ObjectPool.Stmt> os = statement(pool);
    if (os.isEmpty()) {
      return;
    }
    ObjectPool.Stmt s = os.get();
    if (s.prepared() != null) {
      if (!s.prepared().query()) {
        execute(s);
      }
      return;
    }
    if (rnd.nextInt(4) == 0) {
      String a = FuzzSql.sharedDml(rnd);
      String b = FuzzSql.sharedDml(rnd);
      attempt(s.name() + ".addBatch(" + a + "), addBatch(" + b + "), executeBatch() [" + s.conn().name() + "]", () -> {
        s.jdbc().addBatch(a);
        s.jdbc().addBatch(b);
        s.jdbc().executeBatch();
      });
    } else {
      String sql = FuzzSql.sharedDml(rnd);
      attempt(s.name() + ".executeUpdate(" + sql + ") [" + s.conn().name() + "]", () -> s.jdbc().executeUpdate(sql));
    }
  }

  private void ddl(ObjectPool pool) {
    ctx.count("DDL");
    Optional<ObjectPool.Conn> oc = connection(pool);
    if (oc.isEmpty()) {
      return;
    }
    ObjectPool.Conn c = oc.get();
    String sql = FuzzSql.ddl(rnd, ctx.tables);
    boolean created = attempt(c.name() + ".createStatement().execute(" + sql + ")", () -> {
      try (Statement st = c.jdbc().createStatement()) {
        st.execute(sql);
      }
    });
    if (created && sql.startsWith("CREATE TABLE")) {
      String fill = FuzzSql.fillShared(sql.split(" ")[2], FuzzSql.ownTable(0));
      attempt(c.name() + ".createStatement().executeUpdate(" + fill + ")", () -> {
        try (Statement st = c.jdbc().createStatement()) {
          st.executeUpdate(fill);
        }
      });
    }
  }

  private void cancel() {
    ctx.count("cancel");
    ctx.cancelTarget(rnd).ifPresent(s -> {
      boolean running = s.running().get();
      attempt(s.name() + ".cancel() [" + (running ? "while it runs" : "idle") + ", " + s.conn().name() + "]",
          () -> s.jdbc().cancel());
    });
  }

  /**
   * Two calls on one result set, its statement or its connection at the same moment, from this thread and its
   * helper: reads of the result set against reads, re-execution, close, commit, rollback, autocommit switches,
   * cancel, another statement of the connection, or DDL on the tables it reads.
   */
  private void race(ObjectPool pool) {
    ctx.count("race");
    Optional<ObjectPool.Cursor> oc = rnd.nextInt(4) == 0 ? pool.cursor(rnd) : freshScan(pool);
    if (oc.isEmpty()) {
      return;
    }
    ObjectPool.Cursor c = oc.get();
    ObjectPool.Stmt s = c.stmt();
    Connection conn = s.conn().jdbc();
    String read = c.name() + ": read to the end";
    String what;
    Call other;
    switch (rnd.nextInt(14)) {
      case 0, 11, 12 -> {
        what = c.name() + ": read to the end";
        other = () -> read(c, Integer.MAX_VALUE, ctx.observedTags);
      }
      case 1, 13 -> {
        String sql = FuzzSql.query(rnd, ctx.tables);
        boolean plain = s.prepared() == null;
        what = s.name() + ".executeQuery(" + (plain ? sql : s.prepared().sql()) + ")";
        other = () -> {
          if (plain) {
            s.jdbc().executeQuery(sql);
          } else {
            s.prepared().binder().bind((PreparedStatement) s.jdbc(), rnd);
            ((PreparedStatement) s.jdbc()).execute();
          }
        };
      }
      case 2 -> {
        what = s.name() + ".close()";
        other = () -> s.jdbc().close();
      }
      case 3 -> {
        what = s.conn().name() + ".close()";
        other = conn::close;
      }
      case 4 -> {
        what = s.conn().name() + ".commit()";
        other = conn::commit;
      }
      case 5 -> {
        what = s.conn().name() + ".rollback()";
        other = conn::rollback;
      }
      case 6 -> {
        boolean on = rnd.nextBoolean();
        what = s.conn().name() + ".setAutoCommit(" + on + ")";
        other = () -> conn.setAutoCommit(on);
      }
      case 7 -> {
        what = s.name() + ".cancel()";
        other = () -> s.jdbc().cancel();
      }
      case 8 -> {
        String sql = rnd.nextBoolean() ? FuzzSql.sharedDml(rnd) : FuzzSql.query(rnd, ctx.tables);
        what = s.conn().name() + ".createStatement().execute(" + sql + ")";
        other = () -> {
          try (Statement st = conn.createStatement()) {
            st.execute(sql);
          }
        };
      }
      default -> {
        String sql = FuzzSql.ddl(rnd, ctx.tables);
        Optional<ObjectPool.Conn> another = pool.conn(rnd);
        Connection ddlConn = another.map(ObjectPool.Conn::jdbc).orElse(conn);
        what = another.map(ObjectPool.Conn::name).orElse(s.conn().name()) + ".createStatement().execute(" + sql + ")";
        other = () -> {
          try (Statement st = ddlConn.createStatement()) {
            st.execute(sql);
          }
        };
      }
    }
    call("race: [" + read + "] against [" + what + "] (" + s.name() + ", " + s.conn().name() + ")");
    CountDownLatch start = new CountDownLatch(2);
    Future<?> theirs = helper.submit(() -> {
      start.countDown();
      awaitQuietly(start);
      judged("race: " + what, other);
    });
    start.countDown();
    awaitQuietly(start);
    s.running().set(true);
    try {
      judged("race: " + read, () -> read(c, Integer.MAX_VALUE, ctx.observedTags));
    } finally {
      s.running().set(false);
    }
    try {
      theirs.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      ctx.violations.record("harness: race helper failed", what, String.valueOf(e.getCause()));
    }
  }

  /** A new result set over many rows, a few of them read, in the pool. */
  private Optional<ObjectPool.Cursor> freshScan(ObjectPool pool) {
    Optional<ObjectPool.Conn> oc = connection(pool);
    if (oc.isEmpty()) {
      return Optional.empty();
    }
    ObjectPool.Conn conn = oc.get();
    String sql = FuzzSql.largeQuery(rnd, ctx.tables);
    String sname = ctx.name('s');
    String rname = ctx.name('r');
    int rows = rnd.nextInt(20);
    ObjectPool.Cursor[] made = new ObjectPool.Cursor[1];
    boolean ok = attempt(sname + " = " + conn.name() + ".createStatement(); " + rname + " = " + sname + ".executeQuery("
        + sql + "); read " + rows + " rows", () -> {
          ObjectPool.Stmt s = new ObjectPool.Stmt(sname, conn, conn.jdbc().createStatement(), null);
          pool.add(s, rnd);
          ctx.cancellable(s);
          ResultSet rs = s.jdbc().executeQuery(sql);
          made[0] = new ObjectPool.Cursor(rname, s, rs, rs.getMetaData().getColumnCount(), false);
          pool.add(made[0], rnd);
          read(made[0], rows, ctx.observedTags);
        });
    return ok ? Optional.of(made[0]) : Optional.empty();
  }

  private void judged(String what, Call c) {
    try {
      c.run();
    } catch (Throwable t) {
      ctx.violations.failure(what, t);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** After the run's checks: closes whatever this worker still holds, shared objects included. */
  void closeEverything() {
    closeAll(mine);
    closeAll(shared);
    own.close();
  }

  /** Closes every object of a pool at once, in a random order of kinds, and forgets them. */
  private void closeAll(ObjectPool pool) {
    ctx.count("close everything of a pool");
    int order = rnd.nextInt(3);
    for (int k = 0; k < 3; k++) {
      switch ((order + k) % 3) {
        case 0 -> pool.allResultSets().forEach(rs -> attempt("close result set of pool " + pool.name, rs::close));
        case 1 -> pool.allStatements().forEach(st -> attempt("close statement of pool " + pool.name, st::close));
        default -> pool.allConnections().forEach(c -> attempt(c.name() + ".close() (pool " + pool.name + ")",
            () -> c.jdbc().close()));
      }
    }
    pool.clear();
  }
}
