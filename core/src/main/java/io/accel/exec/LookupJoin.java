package io.accel.exec;

import io.accel.exec.AccessCounters.ScanStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Predicate2;

/**
 * Executes an index lookup join: reads the outer input in batches, computes each row's lookup key (the
 * outer values the inner side's composite condition is bound to), looks every distinct key of the batch up
 * once in the inner table's index, in key order so the one RocksDB iterator moves forward (sorted seeks),
 * with the inner side's Index Condition Pushdown and residual predicates evaluated per key, then emits the
 * batch's joined rows in outer order. The first batch is small and batches double up to
 * {@value #MAX_BATCH} rows, so the first rows come out long before a large outer side is exhausted.
 *
 * <p>Join kinds: INNER (each outer row with each matching inner row), LEFT (and so RIGHT, with the sides
 * swapped: unmatched outer rows with NULLs), SEMI (each outer row with at least one match, once) and ANTI
 * (each outer row with none). A match is an inner row the lookup returned that also satisfies the join's
 * remaining condition, evaluated on the pair. A key with a NULL matches nothing: every pushed conjunct is a
 * comparison, which NULL never satisfies.
 */
public final class LookupJoin {
  static final int FIRST_BATCH = 16;
  public static final int MAX_BATCH = 1024;

  private LookupJoin() {
  }

  /**
   * INNER, LEFT, SEMI, ANTI as in SQL; LEFT_FIRST joins each outer row with its first match only, projected
   * by {@link Spec#mark} (a left join with a distinct projection of the inner table that at most one row
   * can match: Calcite's form of NOT EXISTS and NOT IN), or with NULLs.
   */
  public enum Kind { INNER, LEFT, SEMI, ANTI, LEFT_FIRST }

  /**
   * What a lookup join does besides its generated code: the inner scan (whose bounds read lookup-key slots),
   * the join kind, whether output rows put the inner columns first (a join whose inner table was written on
   * the left), and the number of inner columns (the NULLs of an unmatched LEFT row).
   */
  public record Spec(ScanPlan inner, Kind kind, boolean innerFirst, int innerWidth, int[] mark) {
  }

  /**
   * The joined rows. {@code keyOf} computes an outer row's lookup key; {@code slots} the inner scan's slot
   * values for a key; {@code icp} (on the decoded index entry) and {@code residual} (on the fetched row) may
   * read the key; {@code condition} is the rest of the join condition on (outer row, inner row); {@code reshape}
   * turns an inner row into the columns the join returns (casts of the join's inner input). Any of the
   * predicates, and {@code reshape}, may be null.
   */
  public static Enumerable<Object[]> rows(Database database, TxnContext ctx, Enumerable<Object[]> outer, Spec spec,
      Function1<Object[], Object[]> keyOf, Function1<Object[], Object[]> slots, Predicate2<Object[], Object[]> icp,
      Predicate2<Object[], Object[]> residual, Predicate2<Object[], Object[]> condition,
      Function1<Object[], Object[]> reshape, ScanStats operatorStats) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new JoinEnumerator(database, ctx, outer, spec, keyOf, slots, icp, residual, condition, reshape,
            operatorStats);
      }
    };
  }

  /** A lookup key: the key values, compared by value. */
  private record Key(List<Object> values) {
  }

  /** One distinct key of a batch, with its slot values, first key byte (for sorting) and the rows found. */
  private static final class Lookup {
    final Object[] key;
    final Object[] slots;
    final List<byte[][]> ranges;
    List<Object[]> rows = List.of();

    Lookup(Object[] key, Object[] slots, List<byte[][]> ranges) {
      this.key = key;
      this.slots = slots;
      this.ranges = ranges;
    }

    byte[] start() {
      return ranges == null || ranges.isEmpty() ? null : ranges.get(0)[0];
    }
  }

  private static final class JoinEnumerator implements Enumerator<Object[]> {
    private final Database database;
    private final TxnContext ctx;
    private final Enumerable<Object[]> outer;
    private final Spec spec;
    private final Function1<Object[], Object[]> keyOf;
    private final Function1<Object[], Object[]> slotsOf;
    private final Predicate2<Object[], Object[]> icp;
    private final Predicate2<Object[], Object[]> residual;
    private final Predicate2<Object[], Object[]> condition;
    private final Function1<Object[], Object[]> reshape;
    private final ScanStats operatorStats;
    private final ArrayDeque<Object[]> out = new ArrayDeque<>();
    private final Object[] nulls;
    private Enumerator<Object[]> outerRows;
    private IndexScan.ScanEnumerator inner;
    private Object[] currentKey;
    private boolean outerDone;
    private int batchSize = FIRST_BATCH;
    private Object[] current;

    JoinEnumerator(Database database, TxnContext ctx, Enumerable<Object[]> outer, Spec spec,
        Function1<Object[], Object[]> keyOf, Function1<Object[], Object[]> slotsOf, Predicate2<Object[], Object[]> icp,
        Predicate2<Object[], Object[]> residual, Predicate2<Object[], Object[]> condition,
        Function1<Object[], Object[]> reshape, ScanStats operatorStats) {
      this.database = database;
      this.ctx = ctx;
      this.outer = outer;
      this.spec = spec;
      this.keyOf = keyOf;
      this.slotsOf = slotsOf;
      this.icp = icp;
      this.residual = residual;
      this.condition = condition;
      this.reshape = reshape;
      this.operatorStats = operatorStats;
      this.nulls = new Object[spec.innerWidth()];
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      while (out.isEmpty()) {
        if (outerDone) {
          current = null;
          return false;
        }
        nextBatch();
      }
      current = out.poll();
      return true;
    }

    private void nextBatch() {
      if (outerRows == null) {
        outerRows = outer.enumerator();
      }
      List<Object[]> batch = new ArrayList<>(Math.min(batchSize, 64));
      while (batch.size() < batchSize) {
        if (!outerRows.moveNext()) {
          outerDone = true;
          break;
        }
        batch.add(outerRows.current());
      }
      batchSize = Math.min(batchSize * 2, MAX_BATCH);
      if (batch.isEmpty()) {
        return;
      }
      Map<Key, Lookup> distinct = new HashMap<>();
      Lookup[] perRow = new Lookup[batch.size()];
      boolean skipScan = spec.inner().skipColumn() >= 0;
      for (int i = 0; i < batch.size(); i++) {
        Object[] key = keyOf.apply(batch.get(i));
        if (hasNull(key)) {
          continue;
        }
        Lookup lookup = distinct.computeIfAbsent(new Key(Arrays.asList(key)), k -> {
          Object[] slots = slotsOf.apply(key);
          return new Lookup(key, slots, skipScan ? null : spec.inner().ranges(slots));
        });
        perRow[i] = lookup;
      }
      List<Lookup> sorted = new ArrayList<>(distinct.values());
      if (!skipScan) {
        sorted.sort((a, b) -> {
          byte[] x = a.start();
          byte[] y = b.start();
          return x == null ? (y == null ? 0 : -1) : y == null ? 1 : Arrays.compareUnsigned(x, y);
        });
      }
      if (!sorted.isEmpty()) {
        ensureInner(sorted.get(0));
        if (inner.wholeKeys()) {
          List<Lookup> points = new ArrayList<>(sorted.size());
          for (Lookup lookup : sorted) {
            if (IndexScan.ScanEnumerator.singleKeys(lookup.ranges)) {
              points.add(lookup);
            } else {
              lookUp(lookup); // adjacent keys of an IN list merged into one range
            }
          }
          lookUpPoints(points);
        } else {
          for (Lookup lookup : sorted) {
            lookUp(lookup);
          }
        }
      }
      fetchPending();
      for (int i = 0; i < batch.size(); i++) {
        emit(batch.get(i), perRow[i] == null ? List.of() : perRow[i].rows);
      }
    }

    /** Index entries of the batch whose rows are still to fetch, with the lookup each belongs to. */
    private final List<byte[]> pendingKeys = new ArrayList<>();
    private final List<Lookup> pendingLookups = new ArrayList<>();

    private void ensureInner(Lookup first) {
      if (inner == null) {
        inner = new IndexScan.ScanEnumerator(database, ctx, spec.inner(), first.slots,
            icp == null ? null : row -> icp.apply(row, currentKey),
            residual == null ? null : row -> residual.apply(row, currentKey), operatorStats);
        inner.deferFetches();
      }
    }

    /**
     * Lookups whose keys are whole RocksDB keys (a full primary key, a full UNIQUE key): the batch's keys are
     * read with one MultiGet.
     */
    private void lookUpPoints(List<Lookup> lookups) {
      List<byte[]> keys = new ArrayList<>(lookups.size());
      List<Lookup> owners = new ArrayList<>(lookups.size());
      for (Lookup lookup : lookups) {
        inner.countLookup();
        lookup.rows = new ArrayList<>(1);
        for (byte[][] range : lookup.ranges) {
          keys.add(range[0]);
          owners.add(lookup);
        }
      }
      // an index's entries by MultiGet; a table's rows (primary-key lookups) through the row cache
      boolean tableRows = inner.family() == inner.tableFamily();
      List<byte[]> values = tableRows ? null : ctx.multiGet(inner.family(), keys);
      List<Object[]> tableRowList = tableRows ? inner.fetchRows(keys) : null;
      for (int i = 0; i < keys.size(); i++) {
        Lookup lookup = owners.get(i);
        currentKey = lookup.key;
        Object[] row = tableRows ? inner.visitPoint(keys.get(i), null, tableRowList.get(i))
            : inner.visitPoint(keys.get(i), values.get(i), null);
        if (row == null) {
          continue;
        }
        if (inner.pendingRowKey() != null) {
          pendingKeys.add(inner.pendingRowKey());
          pendingLookups.add(lookup);
        } else {
          lookup.rows.add(row);
        }
      }
    }

    private void lookUp(Lookup lookup) {
      currentKey = lookup.key;
      inner.rebind(lookup.slots, lookup.ranges);
      inner.countLookup();
      List<Object[]> rows = null;
      while (inner.moveNext()) {
        if (inner.pendingRowKey() != null) {
          pendingKeys.add(inner.pendingRowKey());
          pendingLookups.add(lookup);
          continue;
        }
        if (rows == null) {
          rows = new ArrayList<>(4);
        }
        rows.add(inner.current());
      }
      lookup.rows = rows == null ? new ArrayList<>(0) : rows;
    }

    /** Fetches the rows of the batch's index entries with one MultiGet, then applies each lookup's residual. */
    private void fetchPending() {
      if (pendingKeys.isEmpty()) {
        return;
      }
      List<Object[]> fetchedRows = inner.fetchRows(pendingKeys);
      for (int i = 0; i < fetchedRows.size(); i++) {
        Lookup lookup = pendingLookups.get(i);
        currentKey = lookup.key;
        Object[] row = inner.fetched(fetchedRows.get(i), pendingKeys.get(i));
        if (row != null) {
          lookup.rows.add(row);
        }
      }
      pendingKeys.clear();
      pendingLookups.clear();
    }

    private void emit(Object[] outerRow, List<Object[]> innerRows) {
      boolean matched = false;
      for (Object[] innerRow : innerRows) {
        if (condition != null && !condition.apply(outerRow, innerRow)) {
          continue;
        }
        matched = true;
        switch (spec.kind()) {
          case INNER, LEFT -> out.add(concat(outerRow, reshape == null ? innerRow : reshape.apply(innerRow)));
          case SEMI -> {
            out.add(outerRow);
            return;
          }
          case ANTI -> {
            return;
          }
          case LEFT_FIRST -> {
            out.add(concat(outerRow, marked(innerRow)));
            return;
          }
        }
      }
      if (!matched && spec.kind() != Kind.INNER && spec.kind() != Kind.SEMI) {
        out.add(spec.kind() == Kind.ANTI ? outerRow : concat(outerRow, nulls));
      }
    }

    private Object[] marked(Object[] innerRow) {
      int[] mark = spec.mark();
      Object[] row = new Object[mark.length];
      for (int i = 0; i < mark.length; i++) {
        row[i] = mark[i] < 0 ? Boolean.TRUE : innerRow[mark[i]];
      }
      return row;
    }

    private Object[] concat(Object[] outerRow, Object[] innerRow) {
      Object[] first = spec.innerFirst() ? innerRow : outerRow;
      Object[] second = spec.innerFirst() ? outerRow : innerRow;
      Object[] row = Arrays.copyOf(first, first.length + second.length);
      System.arraycopy(second, 0, row, first.length, second.length);
      return row;
    }

    private static boolean hasNull(Object[] key) {
      for (Object k : key) {
        if (k == null) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void reset() {
      close();
      outerRows = null;
      outerDone = false;
      batchSize = FIRST_BATCH;
      out.clear();
      current = null;
    }

    @Override
    public void close() {
      if (outerRows != null) {
        outerRows.close();
        outerRows = null;
      }
      if (inner != null) {
        inner.close();
        inner = null;
      }
    }
  }
}
