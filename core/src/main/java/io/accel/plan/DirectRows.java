package io.accel.plan;

import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.ScanPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The execution of a {@link DirectPlanner} plan: the scan with its conditions evaluated by interpretation, then
 * grouping and aggregation, ordering and paging in plain Java. Values are compared as the general path's
 * generated code compares them for the types the planner admits: integers as numbers, text by
 * {@link String#compareTo}; conditions follow SQL's three-valued logic.
 */
final class DirectRows implements DirectPlan {
  /** A condition over a full-width row and the execution's parameters: TRUE, FALSE or null (unknown). */
  interface Condition {
    Boolean test(Object[] row, Object[] parameters);
  }

  private interface Value {
    Object of(Object[] row, Object[] parameters);
  }

  /**
   * Where the rows come from: one table's scan, or joined tables. A row has the source's layout, which outputs,
   * group keys and sort keys on source columns index.
   */
  interface Source {
    Enumerable<Object[]> rows(DataContext root, Object[] parameters, ScanStats[] stats);

    /** EXPLAIN's lines for the source at {@code depth}, with each scan's counters where analysed. */
    List<String> explain(int depth, ScanStats[] stats);

    /** The number of scans (each has its counters under EXPLAIN ANALYZE). */
    int scans();
  }

  /** One table read through a {@link ScanPlan}: its rows in the scan's projection order. */
  record ScanSource(ScanPlan scan, int[] slotParameters, Condition icp, Condition residual,
      List<Map.Entry<String, Object>> terms) implements Source {
    @Override
    public Enumerable<Object[]> rows(DataContext root, Object[] parameters, ScanStats[] stats) {
      Object[] slots = null;
      if (slotParameters.length > 0) {
        slots = new Object[slotParameters.length];
        for (int i = 0; i < slots.length; i++) {
          slots[i] = parameters[slotParameters[i]];
        }
      }
      return ScanRuntime.rows(root, scan, slots, predicate(icp, parameters), predicate(residual, parameters),
          stats == null ? null : stats[0]);
    }

    @Override
    public List<String> explain(int depth, ScanStats[] stats) {
      return List.of(scanLine(depth, terms, stats == null ? null : stats[0]));
    }

    @Override
    public int scans() {
      return 1;
    }
  }

  /** An {@code AccelScan(...)} line as the general planner's EXPLAIN prints it, with its counters if any. */
  static String scanLine(int depth, List<Map.Entry<String, Object>> scanTerms, ScanStats s) {
    List<String> terms = new ArrayList<>();
    for (Map.Entry<String, Object> t : scanTerms) {
      terms.add(t.getKey() + "=[" + t.getValue() + "]");
    }
    StringBuilder line = new StringBuilder(indent(depth)).append("AccelScan(").append(String.join(", ", terms))
        .append(')');
    if (s != null) {
      line.append(String.format(java.util.Locale.ROOT, "  (%sseeks=%d index entries read=%d icp attempts=%d"
          + " icp matches=%d rows fetched=%d rows returned=%d)", s.lookups() > 0 ? "lookups=" + s.lookups() + " " : "",
          s.seeks(), s.entriesRead(), s.icpAttempts(), s.icpMatches(), s.rowsFetched(), s.rowsReturned()));
    }
    return line.toString();
  }

  static String indent(int depth) {
    return "  ".repeat(depth) + (depth == 0 ? "" : "-> ");
  }

  private final Source source;
  private final int parameterCount;
  /** Source positions of the GROUP BY columns; null when the query does not aggregate. */
  private final int[] groupKeys;
  private final List<DirectPlanner.Output> outputs;
  private final List<DirectPlanner.SortKey> sort;
  private final long limit;
  private final long offset;
  private final boolean scalar;
  /** What EXPLAIN shows above the source, outermost first: limit, sort, aggregate (those present). */
  private final List<String> operators;
  /** EXPLAIN ANALYZE's counters: per operator (as {@link #operators}), then the source's rows, then per scan. */
  private volatile Analysis analysis;

  private record Analysis(AccelProbe.OperatorStats[] operators, AccelProbe.OperatorStats source,
      ScanStats[] scans) {
  }

  DirectRows(List<String> operators, Source source, int parameterCount, int[] groupKeys,
      List<DirectPlanner.Output> outputs, List<DirectPlanner.SortKey> sort, long limit, long offset,
      boolean scalar) {
    this.source = source;
    this.parameterCount = parameterCount;
    this.groupKeys = groupKeys;
    this.outputs = List.copyOf(outputs);
    this.sort = List.copyOf(sort);
    this.limit = limit;
    this.offset = offset;
    this.scalar = scalar;
    this.operators = List.copyOf(operators);
  }

  @Override
  public void analyze() {
    AccelProbe.OperatorStats[] ops = new AccelProbe.OperatorStats[operators.size()];
    for (int i = 0; i < ops.length; i++) {
      ops[i] = new AccelProbe.OperatorStats();
    }
    ScanStats[] scans = new ScanStats[source.scans()];
    for (int i = 0; i < scans.length; i++) {
      scans[i] = new ScanStats();
    }
    analysis = new Analysis(ops, new AccelProbe.OperatorStats(), scans);
  }

  @Override
  public ScanStats scanTotals() {
    ScanStats total = new ScanStats();
    Analysis a = analysis;
    if (a != null) {
      for (ScanStats s : a.scans()) {
        total.addAll(s);
      }
    }
    return total;
  }

  @Override
  public List<String> explain() {
    Analysis a = analysis;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < operators.size(); i++) {
      lines.add(indent(i) + operators.get(i) + (a == null ? "" : actual(a.operators()[i])));
    }
    List<String> sourceLines = new ArrayList<>(source.explain(operators.size(), a == null ? null : a.scans()));
    if (a != null) {
      // the source's first line (its outermost operator) carries the rows it gave
      String first = sourceLines.get(0);
      int counters = first.indexOf("  (seeks=") >= 0 ? first.indexOf("  (seeks=") : first.indexOf("  (lookups=");
      sourceLines.set(0, counters < 0 ? first + actual(a.source())
          : first.substring(0, counters) + actual(a.source()) + first.substring(counters));
    }
    lines.addAll(sourceLines);
    return lines;
  }

  private static String actual(AccelProbe.OperatorStats s) {
    return String.format(java.util.Locale.ROOT, "  (actual rows=%d loops=%d time=%.3f ms)", s.rows(), s.loops(),
        s.nanos() / 1e6);
  }

  /** The rows of one execution (a row is an {@code Object[]}, or its value when there is one column). */
  Enumerable<Object> bind(DataContext root) {
    Object[] parameters = new Object[parameterCount];
    for (int i = 0; i < parameterCount; i++) {
      parameters[i] = root.get("?" + i);
    }
    Analysis a = analysis;
    Enumerable<Object[]> rows = probed(a == null ? null : a.source(),
        source.rows(root, parameters, a == null ? null : a.scans()));
    int operator = operators.size() - 1;
    if (groupKeys != null) {
      Enumerable<Object[]> input = rows;
      rows = probed(a == null ? null : a.operators()[operator--], materialized(() -> group(input)));
    }
    if (!sort.isEmpty()) {
      Enumerable<Object[]> input = rows;
      // ungrouped, the source's rows are sorted (ORDER BY may name columns not selected), then shaped
      List<DirectPlanner.SortKey> keys = sort;
      if (groupKeys == null) {
        keys = new ArrayList<>(sort.size());
        for (DirectPlanner.SortKey k : sort) {
          int field = k.field() < outputs.size() ? outputs.get(k.field()).scanColumn() : k.field() - outputs.size();
          keys.add(new DirectPlanner.SortKey(field, k.descending(), k.nullsFirst()));
        }
      }
      List<DirectPlanner.SortKey> sortKeys = keys;
      rows = probed(a == null ? null : a.operators()[operator--], materialized(() -> {
        List<Object[]> all = new ArrayList<>();
        try (Enumerator<Object[]> e = input.enumerator()) {
          while (e.moveNext()) {
            all.add(e.current());
          }
        }
        sort(all, sortKeys);
        return all;
      }));
    }
    Enumerable<Object> out = groupKeys != null ? rows.select(row -> scalar ? row[0] : row) : rows.select(this::output);
    if (offset > 0 || limit >= 0) {
      if (offset > 0) {
        out = out.skip((int) Math.min(offset, Integer.MAX_VALUE));
      }
      if (limit >= 0) {
        out = out.take((int) Math.min(limit, Integer.MAX_VALUE));
      }
      out = probed(a == null ? null : a.operators()[operator], out);
    }
    return out;
  }

  private static <T> Enumerable<T> probed(AccelProbe.OperatorStats stats, Enumerable<T> rows) {
    return stats == null ? rows : AccelProbe.wrap(stats, rows);
  }

  private static Predicate1<Object[]> predicate(Condition c, Object[] parameters) {
    return c == null ? null : row -> c.test(row, parameters) == Boolean.TRUE;
  }

  private interface Rows {
    List<Object[]> get();
  }

  /** Rows computed when the enumeration starts (not at bind: a cursor may be opened and never read). */
  private static Enumerable<Object[]> materialized(Rows rows) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(rows.get());
      }
    };
  }

  /** A scan row as an output row. */
  private Object output(Object[] row) {
    if (scalar) {
      return row[outputs.get(0).scanColumn()];
    }
    Object[] out = new Object[outputs.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = row[outputs.get(i).scanColumn()];
    }
    return out;
  }

  /** One output row per group (one row in all when there is no GROUP BY), aggregates computed. */
  private List<Object[]> group(Enumerable<Object[]> rows) {
    Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
    int n = outputs.size();
    try (Enumerator<Object[]> e = rows.enumerator()) {
      while (e.moveNext()) {
        Object[] row = e.current();
        Object[] key = new Object[groupKeys.length];
        for (int i = 0; i < key.length; i++) {
          key[i] = row[groupKeys[i]];
        }
        Object[] acc = groups.get(Arrays.asList(key));
        if (acc == null) {
          acc = start(row);
          groups.put(Arrays.asList(key), acc);
        }
        for (int i = 0; i < n; i++) {
          DirectPlanner.Output o = outputs.get(i);
          if (o.aggregate()) {
            acc[i] = accumulate(o, acc[i], o.scanColumn() < 0 ? null : row[o.scanColumn()]);
          }
        }
      }
    }
    if (groups.isEmpty() && groupKeys.length == 0) {
      groups.put(List.of(), start(null));
    }
    return new ArrayList<>(groups.values());
  }

  /** A group's accumulators: group columns take the first row's value, counts start at 0, others at NULL. */
  private Object[] start(Object[] row) {
    Object[] acc = new Object[outputs.size()];
    for (int i = 0; i < acc.length; i++) {
      DirectPlanner.Output o = outputs.get(i);
      if (!o.aggregate()) {
        acc[i] = row[o.scanColumn()];
      } else if (o.function().equals("count")) {
        acc[i] = 0L;
      }
    }
    return acc;
  }

  private static Object accumulate(DirectPlanner.Output o, Object acc, Object value) {
    switch (o.function()) {
      case "count":
        return o.scanColumn() < 0 || value != null ? (Long) acc + 1 : acc;
      case "sum":
        return value == null ? acc : acc == null ? ((Number) value).longValue()
            : (Long) acc + ((Number) value).longValue();
      case "min":
        return value == null ? acc : acc == null || compare(value, acc) < 0 ? value : acc;
      default:
        return value == null ? acc : acc == null || compare(value, acc) > 0 ? value : acc;
    }
  }

  private static void sort(List<Object[]> rows, List<DirectPlanner.SortKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    Comparator<Object[]> order = null;
    for (DirectPlanner.SortKey k : keys) {
      Comparator<Object[]> c = (x, y) -> {
        Object a = x[k.field()];
        Object b = y[k.field()];
        if (a == null || b == null) {
          return a == b ? 0 : (a == null) == k.nullsFirst() ? -1 : 1;
        }
        int r = compare(a, b);
        return k.descending() ? -r : r;
      };
      order = order == null ? c : order.thenComparing(c);
    }
    rows.sort(order);
  }

  /**
   * Integers (of any width) and NUMERIC by value, text by {@link String#compareTo}, as generated code compares
   * them.
   */
  static int compare(Object a, Object b) {
    if (a instanceof String s) {
      return s.compareTo((String) b);
    }
    if (a instanceof java.math.BigDecimal || b instanceof java.math.BigDecimal) {
      return decimal(a).compareTo(decimal(b));
    }
    return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
  }

  private static java.math.BigDecimal decimal(Object v) {
    return v instanceof java.math.BigDecimal d ? d : java.math.BigDecimal.valueOf(((Number) v).longValue());
  }

  /**
   * A condition the planner built (comparisons of columns with literals, parameters and columns, IS [NOT] NULL,
   * AND, OR, NOT) for evaluation; null when {@code c} is null or holds anything else.
   */
  static Condition condition(RexNode c) {
    if (c == null) {
      return null;
    }
    try {
      Value v = value(c);
      return (row, parameters) -> (Boolean) v.of(row, parameters);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Value value(RexNode e) {
    if (e instanceof RexInputRef ref) {
      int i = ref.getIndex();
      return (row, p) -> row[i];
    }
    if (e instanceof RexDynamicParam param) {
      int i = param.getIndex();
      return (row, p) -> p[i];
    }
    if (e instanceof RexLiteral lit) {
      Object v = literal(lit);
      return (row, p) -> v;
    }
    if (!(e instanceof RexCall call)) {
      throw new IllegalArgumentException(e.toString());
    }
    List<Value> operands = new ArrayList<>(call.getOperands().size());
    for (RexNode o : call.getOperands()) {
      operands.add(value(o));
    }
    switch (call.getKind()) {
      case AND:
        return junction(operands.toArray(new Value[0]), Boolean.FALSE);
      case OR:
        return junction(operands.toArray(new Value[0]), Boolean.TRUE);
      case NOT: {
        Value t = operands.get(0);
        return (row, p) -> {
          Object r = t.of(row, p);
          return r == null ? null : !(Boolean) r;
        };
      }
      case IS_NULL: {
        Value t = operands.get(0);
        return (row, p) -> t.of(row, p) == null;
      }
      case IS_NOT_NULL: {
        Value t = operands.get(0);
        return (row, p) -> t.of(row, p) != null;
      }
      case EQUALS:
        return comparison(operands, Outcome.EQ);
      case NOT_EQUALS:
        return comparison(operands, Outcome.NE);
      case LESS_THAN:
        return comparison(operands, Outcome.LT);
      case LESS_THAN_OR_EQUAL:
        return comparison(operands, Outcome.LE);
      case GREATER_THAN:
        return comparison(operands, Outcome.GT);
      case GREATER_THAN_OR_EQUAL:
        return comparison(operands, Outcome.GE);
      default:
        throw new IllegalArgumentException(call.toString());
    }
  }

  /**
   * AND ({@code decisive} FALSE) or OR ({@code decisive} TRUE) under three-valued logic: the decisive value if any
   * term has it, else unknown if any term is, else the other value.
   */
  private static Value junction(Value[] terms, Boolean decisive) {
    Boolean otherwise = !decisive;
    return (row, p) -> {
      boolean unknown = false;
      for (Value t : terms) {
        Object r = t.of(row, p);
        if (r == null) {
          unknown = true;
        } else if (r.equals(decisive)) {
          return decisive;
        }
      }
      return unknown ? null : otherwise;
    };
  }

  private enum Outcome {
    EQ, NE, LT, LE, GT, GE;

    boolean of(int c) {
      return switch (this) {
        case EQ -> c == 0;
        case NE -> c != 0;
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        case GE -> c >= 0;
      };
    }
  }

  private static Value comparison(List<Value> operands, Outcome outcome) {
    Value a = operands.get(0);
    Value b = operands.get(1);
    return (row, p) -> {
      Object x = a.of(row, p);
      Object y = b.of(row, p);
      return x == null || y == null ? null : outcome.of(compare(x, y));
    };
  }

  private static Object literal(RexLiteral lit) {
    if (lit.isNull()) {
      throw new IllegalArgumentException("NULL literal");
    }
    SqlTypeName type = lit.getType().getSqlTypeName();
    return switch (type) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> lit.getValueAs(Long.class);
      case DECIMAL -> lit.getValueAs(java.math.BigDecimal.class);
      // days since the epoch, as DATE values are represented
      case DATE -> lit.getValueAs(Integer.class);
      case CHAR, VARCHAR -> lit.getValueAs(String.class);
      case BOOLEAN -> lit.getValueAs(Boolean.class);
      default -> throw new IllegalArgumentException(lit.toString());
    };
  }
}
