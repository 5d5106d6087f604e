package io.accel.e2e.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the workers of one fuzz run share: the store's URL, the tables, the violations and log, the statements any
 * worker may cancel, and the transaction tags seen by connections that must see committed rows only.
 */
final class FuzzContext {
  /** Per-connection settings a new connection may get (the store itself is opened by the first connection). */
  private static final int CANCEL_TARGETS = 48;
  private static final List<String> SETTINGS = List.of("", "", "", "", "", "", "?indexScans=false",
      "?lookupJoins=false", "?icp=false", "?planCacheSize=0");

  final String url;
  final List<String> tables;
  final long deadline;
  final OpLog log;
  final Violations violations;
  /** Statements that ran a query lately, from every worker: any worker may cancel them. */
  private final List<ObjectPool.Stmt> cancellable = new ArrayList<>();
  /** Tags ({@code T<thread>#<txn>}) of rows read through connections that see only committed rows. */
  final Set<String> observedTags = ConcurrentHashMap.newKeySet();
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
  private final AtomicInteger names = new AtomicInteger();

  FuzzContext(String url, List<String> tables, long deadline, OpLog log) {
    this.url = url;
    this.tables = tables;
    this.deadline = deadline;
    this.log = log;
    this.violations = new Violations(log);
  }

  /** Makes {@code s} a target of cancels from any worker (the oldest targets are forgotten). */
  void cancellable(ObjectPool.Stmt s) {
    synchronized (cancellable) {
      cancellable.add(s);
      if (cancellable.size() > CANCEL_TARGETS) {
        cancellable.remove(0);
      }
    }
  }

  /** A statement to cancel: one running a query if a few random picks find one. */
  Optional<ObjectPool.Stmt> cancelTarget(Random rnd) {
    synchronized (cancellable) {
      ObjectPool.Stmt pick = null;
      for (int i = 0; i < 4 && !cancellable.isEmpty(); i++) {
        pick = cancellable.get(rnd.nextInt(cancellable.size()));
        if (pick.running().get()) {
          break;
        }
      }
      return Optional.ofNullable(pick);
    }
  }

  String connectionUrl(Random rnd) {
    String setting = SETTINGS.get(rnd.nextInt(SETTINGS.size()));
    return url + (url.contains("?") ? setting.replace('?', '&') : setting);
  }

  /** A short unique name for a JDBC object in the log: {@code c12}, {@code s40}, {@code r77}. */
  String name(char kind) {
    return kind + Integer.toString(names.incrementAndGet());
  }

  void count(String call) {
    calls.computeIfAbsent(call, c -> new LongAdder()).increment();
  }

  Map<String, Long> calls() {
    Map<String, Long> out = new TreeMap<>();
    calls.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  boolean over() {
    return System.nanoTime() > deadline;
  }
}
