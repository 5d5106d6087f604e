package io.accel.e2e.fuzz;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JDBC objects one worker, or a pair of workers, keeps between calls: connections, statements and result
 * sets, each with a short name for the log. Objects stay in the pool after they are closed (so later calls use
 * closed objects) until they are evicted; the pool only hands them out, every JDBC call happens outside its lock.
 */
final class ObjectPool {
  private static final int MAX_CONNECTIONS = 3;
  private static final int MAX_STATEMENTS = 8;
  private static final int MAX_CURSORS = 10;

  record Conn(String name, Connection jdbc) {
  }

  /** A statement; {@code prepared} is null for a plain Statement. */
  record Stmt(String name, Conn conn, Statement jdbc, FuzzSql.Prepared prepared, AtomicBoolean running) {
    Stmt(String name, Conn conn, Statement jdbc, FuzzSql.Prepared prepared) {
      this(name, conn, jdbc, prepared, new AtomicBoolean());
    }
  }

  /** A result set, its statement and column count; {@code ownWrites} when it may see uncommitted rows of its own. */
  record Cursor(String name, Stmt stmt, ResultSet jdbc, int columns, boolean ownWrites) {
  }

  final String name;
  private final List<Conn> conns = new ArrayList<>();
  private final List<Stmt> stmts = new ArrayList<>();
  private final List<Cursor> cursors = new ArrayList<>();

  ObjectPool(String name) {
    this.name = name;
  }

  private static <T> Optional<T> any(List<T> list, Random rnd) {
    return list.isEmpty() ? Optional.empty() : Optional.of(list.get(rnd.nextInt(list.size())));
  }

  /** Adds {@code item}; returns what was evicted to make room (the caller closes or drops it), if anything. */
  private static <T> Optional<T> add(List<T> list, T item, int max, Random rnd) {
    list.add(item);
    if (list.size() <= max) {
      return Optional.empty();
    }
    return Optional.of(list.remove(rnd.nextInt(list.size() - 1)));
  }

  synchronized Optional<Conn> conn(Random rnd) {
    return any(conns, rnd);
  }

  synchronized Optional<Stmt> stmt(Random rnd) {
    return any(stmts, rnd);
  }

  synchronized Optional<Cursor> cursor(Random rnd) {
    return any(cursors, rnd);
  }

  synchronized int connections() {
    return conns.size();
  }

  synchronized Optional<Conn> add(Conn c, Random rnd) {
    return add(conns, c, MAX_CONNECTIONS, rnd);
  }

  synchronized Optional<Stmt> add(Stmt s, Random rnd) {
    return add(stmts, s, MAX_STATEMENTS, rnd);
  }

  synchronized Optional<Cursor> add(Cursor c, Random rnd) {
    return add(cursors, c, MAX_CURSORS, rnd);
  }

  synchronized void remove(Cursor c) {
    cursors.remove(c);
  }

  synchronized void remove(Stmt s) {
    stmts.remove(s);
    cursors.removeIf(c -> c.stmt() == s);
  }

  /** Forgets a connection and everything made from it, so that nothing here keeps it reachable. */
  synchronized void remove(Conn c) {
    conns.remove(c);
    stmts.removeIf(s -> s.conn() == c);
    cursors.removeIf(k -> k.stmt().conn() == c);
  }

  synchronized List<Conn> allConnections() {
    return List.copyOf(conns);
  }

  synchronized List<Statement> allStatements() {
    return stmts.stream().map(Stmt::jdbc).toList();
  }

  synchronized List<ResultSet> allResultSets() {
    return cursors.stream().map(Cursor::jdbc).toList();
  }

  synchronized void clear() {
    conns.clear();
    stmts.clear();
    cursors.clear();
  }
}
