package io.accel.e2e.fuzz;

import static io.accel.e2e.fuzz.TableModel.DELETED;

import io.accel.e2e.fuzz.TableModel.Row;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * One worker's own table and what the worker knows of it: the rows committed so far, the rows its open transaction
 * wrote, and the one connection through which only this worker writes the table. Nobody else writes the table, so
 * the model is exact: after a successful commit the transaction's writes are committed; after a failed statement in
 * a transaction block the worker rolls the block back (a failure may or may not abort a block; rolled back it is
 * gone either way); a block still open when its connection is closed or dropped is never committed.
 *
 * <p>Each transaction writes its tag {@code T<thread>#<n>} into {@code val}; a tag of a transaction that never
 * committed must never be read by another connection. While the model is exact, every write's update count, every
 * expected (or unexpected) duplicate key and every read through the writing connection is checked against it.
 */
final class OwnedTable {
  static final int IDS = 600;
  static final int INITIAL_ROWS = 300;
  private static final int MAX_SCANS = 4;

  private enum Mode { AUTOCOMMIT, JDBC_BLOCK, SQL_BLOCK }

  /** Logs a call before it is made. */
  interface Tracer {
    void call(String what);
  }

  final String table;
  private final int thread;
  private final FuzzContext ctx;
  private final Tracer tracer;
  final TableModel model = new TableModel();

  private ObjectPool.Conn conn;
  private Statement plain;
  private final Map<String, PreparedStatement> prepared = new HashMap<>();
  private Mode mode = Mode.AUTOCOMMIT;
  private String tag;
  private int transactions;
  private final List<ObjectPool.Cursor> scans = new ArrayList<>();

  OwnedTable(int thread, FuzzContext ctx, Tracer tracer) {
    this.table = FuzzSql.ownTable(thread);
    this.thread = thread;
    this.ctx = ctx;
    this.tracer = tracer;
  }

  static Row initialRow(int id) {
    return new Row(id, id % FuzzSql.GROUPS, "init");
  }

  void initialRowsCommitted() {
    for (int id = 0; id < INITIAL_ROWS; id++) {
      model.committed(initialRow(id));
    }
  }

  /** One random step of the owner: open, begin, write, commit, roll back, read, scan, read an old scan, close. */
  void step(Random rnd) {
    if (conn == null) {
      open(rnd);
      return;
    }
    int p = rnd.nextInt(100);
    if (mode == Mode.AUTOCOMMIT) {
      if (p < 15) {
        begin(rnd);
      } else if (p < 55) {
        write(rnd);
      } else if (p < 67) {
        check(rnd);
      } else if (p < 80) {
        scan(rnd);
      } else if (p < 96) {
        readScan(rnd);
      } else {
        giveUp(rnd, "close");
      }
    } else {
      if (p < 38) {
        write(rnd);
      } else if (p < 52) {
        commit(rnd);
      } else if (p < 58) {
        rollback(rnd);
      } else if (p < 68) {
        check(rnd);
      } else if (p < 81) {
        scan(rnd);
      } else if (p < 97) {
        readScan(rnd);
      } else {
        giveUp(rnd, "close");
      }
    }
  }

  private String c() {
    return conn.name();
  }

  private void open(Random rnd) {
    String url = ctx.connectionUrl(rnd);
    String name = ctx.name('c');
    String call = name + " = getConnection(" + url + ") [writes " + table + "]";
    tracer.call(call);
    try {
      conn = new ObjectPool.Conn(name, DriverManager.getConnection(url));
      mode = Mode.AUTOCOMMIT;
      plain = null;
      prepared.clear();
    } catch (Throwable t) {
      ctx.violations.failure(call, t);
    }
  }

  private Statement plain() throws SQLException {
    if (plain == null) {
      plain = conn.jdbc().createStatement();
    }
    return plain;
  }

  private PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = prepared.get(sql);
    if (ps == null) {
      ps = conn.jdbc().prepareStatement(sql);
      prepared.put(sql, ps);
    }
    return ps;
  }

  private String newTag() {
    return "T" + thread + "#" + ++transactions;
  }

  private void begin(Random rnd) {
    tag = newTag();
    boolean jdbc = rnd.nextBoolean();
    String call = jdbc ? c() + ".setAutoCommit(false) [" + tag + "]"
        : c() + ".execute(\"" + (rnd.nextBoolean() ? "BEGIN" : "START TRANSACTION") + "\") [" + tag + "]";
    tracer.call(call);
    try {
      if (jdbc) {
        conn.jdbc().setAutoCommit(false);
        mode = Mode.JDBC_BLOCK;
      } else {
        plain().execute(call.contains("BEGIN") ? "BEGIN" : "START TRANSACTION");
        mode = Mode.SQL_BLOCK;
      }
    } catch (Throwable t) {
      ctx.violations.failure(call, t);
      giveUp(rnd, "give up after failed begin");
    }
  }

  /**
   * An INSERT, UPDATE or DELETE, what the model expects of it, the rows it leaves, and the condition that selects
   * the rows it reads (to compare index and table when the update count is off).
   */
  private record Write(String sql, List<Object> params, boolean duplicate, int count, Map<Integer, Row> after,
      String where) {
    String describe() {
      return params.isEmpty() ? sql : sql + " " + params;
    }
  }

  private Write randomWrite(Random rnd, String t) {
    TreeMap<Integer, Row> view = model.view();
    int k = rnd.nextInt(IDS);
    int g = rnd.nextInt(FuzzSql.GROUPS);
    boolean withParams = rnd.nextInt(3) == 0;
    Map<Integer, Row> after = new HashMap<>();
    switch (rnd.nextInt(8)) {
      case 0, 1 -> {
        after.put(k, new Row(k, g, t));
        return withParams
            ? new Write("INSERT INTO " + table + " (id, grp, val) VALUES (?, ?, ?)", List.of(k, g, t),
                view.containsKey(k), 1, after, "id = " + k)
            : new Write("INSERT INTO " + table + " (id, grp, val) VALUES (" + k + ", " + g + ", '" + t + "')",
                List.of(), view.containsKey(k), 1, after, "id = " + k);
      }
      case 2 -> {
        int n = 2 + rnd.nextInt(4);
        StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, grp, val) VALUES ");
        boolean duplicate = false;
        for (int i = 0; i < n; i++) {
          int id = (k + i * 7) % IDS;
          duplicate |= view.containsKey(id);
          after.put(id, new Row(id, (g + i) % FuzzSql.GROUPS, t));
          sql.append(i == 0 ? "" : ", ").append('(').append(id).append(", ").append((g + i) % FuzzSql.GROUPS)
              .append(", '").append(t).append("')");
        }
        return new Write(sql.toString(), List.of(), duplicate, n, after, "id IN (" + String.join(", ",
            after.keySet().stream().map(String::valueOf).toList()) + ")");
      }
      case 3 -> {
        if (view.containsKey(k)) {
          after.put(k, new Row(k, g, t));
        }
        return withParams
            ? new Write("UPDATE " + table + " SET grp = ?, val = ? WHERE id = ?", List.of(g, t, k), false,
                after.size(), after, "id = " + k)
            : new Write("UPDATE " + table + " SET grp = " + g + ", val = '" + t + "' WHERE id = " + k, List.of(),
                false, after.size(), after, "id = " + k);
      }
      case 4 -> {
        int to = rnd.nextInt(FuzzSql.GROUPS);
        view.values().stream().filter(r -> r.grp() == g).forEach(r -> after.put(r.id(), new Row(r.id(), to, t)));
        return withParams
            ? new Write("UPDATE " + table + " SET grp = ?, val = ? WHERE grp = ?", List.of(to, t, g), false,
                after.size(), after, "grp = " + g)
            : new Write("UPDATE " + table + " SET grp = " + to + ", val = '" + t + "' WHERE grp = " + g, List.of(),
                false, after.size(), after, "grp = " + g);
      }
      case 5, 6 -> {
        if (view.containsKey(k)) {
          after.put(k, DELETED);
        }
        return withParams
            ? new Write("DELETE FROM " + table + " WHERE id = ?", List.of(k), false, after.size(), after, "id = " + k)
            : new Write("DELETE FROM " + table + " WHERE id = " + k, List.of(), false, after.size(), after,
                "id = " + k);
      }
      default -> {
        view.values().stream().filter(r -> r.grp() == g && r.id() < k / 3).forEach(r -> after.put(r.id(), DELETED));
        return new Write("DELETE FROM " + table + " WHERE grp = " + g + " AND id < " + k / 3, List.of(), false,
            after.size(), after, "grp = " + g);
      }
    }
  }

  private void write(Random rnd) {
    String t = mode == Mode.AUTOCOMMIT ? newTag() : tag;
    Write w = randomWrite(rnd, t);
    String call = c() + ".executeUpdate(" + w.describe() + ") [" + mode + " " + t + "]";
    tracer.call(call);
    int count;
    try {
      if (w.params().isEmpty()) {
        count = plain().executeUpdate(w.sql());
      } else {
        PreparedStatement ps = prepared(w.sql());
        for (int i = 0; i < w.params().size(); i++) {
          ps.setObject(i + 1, w.params().get(i));
        }
        count = ps.executeUpdate();
      }
    } catch (Throwable e) {
      String state = ctx.violations.failure(call, e);
      if ("23505".equals(state) && !w.duplicate() && model.uncertain() == null) {
        ctx.violations.wrong("model: duplicate key (23505) for a key that is neither committed nor written by the"
            + " transaction", call, "rows as the model knows them: " + describe(w));
      }
      if (mode == Mode.AUTOCOMMIT) {
        if (state == null) {
          model.unknownOutcome("an autocommit write failed with an internal error: " + call);
        } else {
          model.abandon(t);
        }
      } else {
        recover(rnd);
      }
      return;
    }
    if (model.uncertain() == null) {
      if (w.duplicate()) {
        ctx.violations.wrong("model: a write succeeded whose key is already committed or written by the transaction"
            + " (expected 23505)", call, describe(w));
        model.markUncertain("a write the model expected to fail succeeded: " + call);
      } else if (count != w.count()) {
        ctx.violations.wrong("model: update count differs from the committed rows plus the transaction's writes",
            call, "expected " + w.count() + ", got " + count + "; " + describe(w) + "\n" + indexVersusTable(w.where()));
        model.markUncertain("update count differed: " + call);
      }
    }
    model.write(w.after());
    if (mode == Mode.AUTOCOMMIT) {
      model.commit(t);
    }
  }

  /**
   * The committed rows matching {@code where} as two fresh connections read them, one with index scans and one
   * without: when they differ, an index disagrees with its table.
   */
  private String indexVersusTable(String where) {
    String sql = "SELECT id, grp, val FROM " + table + " WHERE " + where + " ORDER BY id";
    try (Connection viaIndex = DriverManager.getConnection(ctx.url);
         Connection viaTable = DriverManager.getConnection(ctx.url + (ctx.url.contains("?") ? "&" : "?")
             + "indexScans=false")) {
      List<Row> a = rows(viaIndex, sql);
      List<Row> b = rows(viaTable, sql);
      return a.equals(b) ? "committed rows " + where + ": index and table agree (" + a.size() + " rows)"
          : "committed rows " + where + ": INDEX DISAGREES WITH TABLE; table scan vs default plan: " + difference(b, a);
    } catch (SQLException | RuntimeException e) {
      return "(could not compare index and table: " + e + ")";
    }
  }

  static List<Row> rows(Connection c, String sql) throws SQLException {
    List<Row> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(new Row(rs.getInt(1), rs.getInt(2), rs.getString(3)));
      }
    }
    return out;
  }

  private String describe(Write w) {
    Map<Integer, Row> before = new TreeMap<>();
    TreeMap<Integer, Row> view = model.view();
    for (int id : w.after().keySet()) {
      before.put(id, view.get(id));
    }
    return "rows of the written keys before the write (model): " + before + "; rows the transaction wrote before: "
        + model.written();
  }

  private void commit(Random rnd) {
    int variant = rnd.nextInt(mode == Mode.JDBC_BLOCK ? 3 : 2);
    String call = c() + (variant == 0 ? ".commit()" : variant == 1 ? ".execute(\"COMMIT\")" : ".setAutoCommit(true)")
        + " [" + mode + " " + tag + ", " + model.written() + " rows written]";
    tracer.call(call);
    try {
      switch (variant) {
        case 0 -> conn.jdbc().commit();
        case 1 -> plain().execute("COMMIT");
        default -> conn.jdbc().setAutoCommit(true);
      }
    } catch (Throwable e) {
      String state = ctx.violations.failure(call, e);
      if (!"40001".equals(state)) {
        model.unknownOutcome("commit failed with " + (state == null ? "a violation" : state) + ": " + call);
        tag = null; // committed or not: its tag is neither
      }
      giveUp(rnd, "give up after failed commit");
      return;
    }
    model.commit(tag);
    if (mode == Mode.SQL_BLOCK || variant == 2) {
      mode = Mode.AUTOCOMMIT;
      tag = null;
    } else {
      tag = newTag();
    }
  }

  private void rollback(Random rnd) {
    boolean jdbc = rnd.nextBoolean();
    String call = c() + (jdbc ? ".rollback()" : ".execute(\"ROLLBACK\")") + " [" + mode + " " + tag + "]";
    tracer.call(call);
    try {
      if (jdbc) {
        conn.jdbc().rollback();
      } else {
        plain().execute("ROLLBACK");
      }
    } catch (Throwable e) {
      ctx.violations.failure(call, e);
      giveUp(rnd, "give up after failed rollback");
      return;
    }
    rolledBack();
  }

  private void rolledBack() {
    model.abandon(tag);
    if (mode == Mode.SQL_BLOCK) {
      mode = Mode.AUTOCOMMIT;
      tag = null;
    } else {
      tag = newTag();
    }
  }

  /** After a failure inside a transaction block: roll the block back, so the model knows it is gone. */
  private void recover(Random rnd) {
    if (mode == Mode.AUTOCOMMIT || conn == null) {
      return;
    }
    String call = c() + ".rollback() [after a failure in " + mode + " " + tag + "]";
    tracer.call(call);
    try {
      conn.jdbc().rollback();
    } catch (Throwable e) {
      ctx.violations.failure(call, e);
      giveUp(rnd, "give up after failed rollback");
      return;
    }
    rolledBack();
  }

  /** Closes (perhaps twice) or drops the writing connection; its open transaction, if any, is never committed. */
  private void giveUp(Random rnd, String why) {
    model.abandon(tag);
    Connection c = conn.jdbc();
    String name = conn.name();
    conn = null;
    plain = null;
    prepared.clear();
    mode = Mode.AUTOCOMMIT;
    tag = null;
    if (rnd.nextInt(4) == 0) {
      tracer.call(name + " dropped without close (" + why + ")");
      return;
    }
    for (int i = rnd.nextInt(5) == 0 ? 2 : 1; i > 0; i--) {
      String call = name + ".close() (" + why + ")";
      tracer.call(call);
      try {
        c.close();
      } catch (Throwable e) {
        ctx.violations.failure(call, e);
      }
    }
  }

  /** Reads rows through the writing connection: they must be the committed rows plus the transaction's writes. */
  private void check(Random rnd) {
    int k = rnd.nextInt(IDS);
    int g = rnd.nextInt(FuzzSql.GROUPS);
    String sql;
    String where;
    Predicate<Row> which;
    boolean withParam = false;
    switch (rnd.nextInt(4)) {
      case 0 -> {
        where = "id = " + k;
        sql = "SELECT id, grp, val FROM " + table + " WHERE " + where;
        which = r -> r.id() == k;
      }
      case 1 -> {
        where = "grp = " + g;
        sql = "SELECT id, grp, val FROM " + table + " WHERE grp = ? ORDER BY id";
        which = r -> r.grp() == g;
        withParam = true;
      }
      case 2 -> {
        where = "grp BETWEEN " + g / 2 + " AND " + (g / 2 + 3);
        sql = "SELECT id, grp, val FROM " + table + " WHERE " + where + " ORDER BY id";
        which = r -> r.grp() >= g / 2 && r.grp() <= g / 2 + 3;
      }
      default -> {
        where = "TRUE";
        sql = "SELECT id, grp, val FROM " + table + " ORDER BY id";
        which = r -> true;
      }
    }
    String call = c() + ".executeQuery(" + sql + (withParam ? " [" + g + "]" : "") + ") and read all [" + mode + " "
        + tag + "]";
    tracer.call(call);
    List<Row> actual = new ArrayList<>();
    try {
      ResultSet rs;
      if (withParam) {
        PreparedStatement ps = prepared(sql);
        ps.setInt(1, g);
        rs = ps.executeQuery();
      } else {
        rs = plain().executeQuery(sql);
      }
      try (rs) {
        while (rs.next()) {
          actual.add(new Row(rs.getInt(1), rs.getInt(2), rs.getString(3)));
        }
      }
    } catch (Throwable e) {
      ctx.violations.failure(call, e);
      recover(rnd);
      return;
    }
    if (model.uncertain() == null) {
      List<Row> expected = model.view().values().stream().filter(which).toList();
      if (!expected.equals(actual)) {
        ctx.violations.wrong("model: rows read through the writing connection differ from the committed rows plus"
            + " the transaction's writes", call, difference(expected, actual) + "\n" + indexVersusTable(where));
      }
    }
  }

  static String difference(List<Row> expected, List<Row> actual) {
    Map<Integer, Row> e = new TreeMap<>();
    expected.forEach(r -> e.put(r.id(), r));
    Map<Integer, Row> a = new TreeMap<>();
    actual.forEach(r -> a.put(r.id(), r));
    StringBuilder sb = new StringBuilder("expected " + expected.size() + " rows, got " + actual.size() + ";");
    Set<Integer> ids = new java.util.TreeSet<>(e.keySet());
    ids.addAll(a.keySet());
    int shown = 0;
    for (int id : ids) {
      if (!Objects.equals(e.get(id), a.get(id)) && shown++ < 12) {
        sb.append("\n  id ").append(id).append(": expected ").append(e.get(id)).append(", got ").append(a.get(id));
      }
    }
    if (a.size() != actual.size()) {
      sb.append("\n  (duplicate ids in the result)");
    }
    return sb.toString();
  }

  /** Opens a scan through the writing connection, reads part of it and keeps it for later reads. */
  private void scan(Random rnd) {
    String other = ctx.tables.get(rnd.nextInt(ctx.tables.size()));
    String sql = switch (rnd.nextInt(5)) {
      case 0 -> "SELECT id, grp, val FROM " + table + " WHERE grp >= " + rnd.nextInt(3) + " ORDER BY grp, id";
      case 1 -> "SELECT id, grp, val FROM " + table + " WHERE grp BETWEEN 1 AND 8";
      case 2 -> "SELECT id, grp, val FROM " + table;
      case 3 -> "SELECT a.id, a.val, b.val FROM " + table + " a JOIN " + other + " b ON a.id = b.id";
      default -> "SELECT a.id, b.id, b.val FROM " + table + " a JOIN " + other + " b ON a.grp = b.grp WHERE a.id < 60";
    };
    String sname = ctx.name('s');
    String rname = ctx.name('r');
    int rows = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(120);
    String call = sname + " = " + c() + ".createStatement(); " + rname + " = " + sname + ".executeQuery(" + sql
        + "); read " + rows + " rows [" + mode + " " + tag + "]";
    tracer.call(call);
    ObjectPool.Stmt s = null;
    try {
      s = new ObjectPool.Stmt(sname, conn, conn.jdbc().createStatement(), null);
      ctx.cancellable(s);
      s.running().set(true);
      ResultSet rs = s.jdbc().executeQuery(sql);
      if (rs == null) {
        ctx.violations.wrong("executeQuery returned null instead of a result set or an SQLException", call, "");
        return;
      }
      ObjectPool.Cursor cursor = new ObjectPool.Cursor(rname, s, rs, rs.getMetaData().getColumnCount(), true);
      scans.add(cursor);
      FuzzWorker.read(cursor, rows, null);
    } catch (Throwable e) {
      ctx.violations.failure(call, e);
      recover(rnd);
    } finally {
      if (s != null) {
        s.running().set(false);
      }
    }
    if (scans.size() > MAX_SCANS) {
      ObjectPool.Cursor old = scans.remove(0);
      if (rnd.nextBoolean()) {
        String close = old.stmt().name() + ".close()";
        tracer.call(close);
        try {
          old.stmt().jdbc().close();
        } catch (Throwable e) {
          ctx.violations.failure(close, e);
        }
      } else {
        tracer.call(old.name() + " and " + old.stmt().name() + " dropped without close");
      }
    }
  }

  /** Reads on in a scan opened earlier, whatever happened since (commits, rollbacks, closes). */
  private void readScan(Random rnd) {
    if (scans.isEmpty()) {
      scan(rnd);
      return;
    }
    ObjectPool.Cursor cursor = scans.get(rnd.nextInt(scans.size()));
    int rows = rnd.nextInt(3) == 0 ? 1_000 : 1 + rnd.nextInt(150);
    String call = cursor.name() + ": read " + rows + " rows, getObject each column [" + cursor.stmt().conn().name()
        + (conn != null && cursor.stmt().conn() == conn ? ", now " + mode + " " + tag : ", an earlier connection")
        + "]";
    tracer.call(call);
    cursor.stmt().running().set(true);
    try {
      FuzzWorker.read(cursor, rows, null);
    } catch (Throwable e) {
      ctx.violations.failure(call, e);
      if (conn != null && cursor.stmt().conn() == conn) {
        recover(rnd);
      }
    } finally {
      cursor.stmt().running().set(false);
    }
  }

  /** At the end of the run: a transaction still open is abandoned (its connection stays open, never committed). */
  void finish() {
    if (mode != Mode.AUTOCOMMIT) {
      model.abandon(tag);
    }
  }

  /** After the checks: closes the scans and the writing connection (some of them closed or dropped already). */
  void close() {
    for (ObjectPool.Cursor s : scans) {
      String call = s.stmt().name() + ".close() (end of run)";
      tracer.call(call);
      try {
        s.stmt().jdbc().close();
      } catch (Throwable e) {
        ctx.violations.failure(call, e);
      }
    }
    scans.clear();
    if (conn != null) {
      String call = conn.name() + ".close() (end of run, " + mode + ")";
      tracer.call(call);
      try {
        conn.jdbc().close();
      } catch (Throwable e) {
        ctx.violations.failure(call, e);
      }
      conn = null;
    }
  }
}
