package io.accel.plan;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.catalog.TableStatistics;
import io.accel.exec.ScanPlan;
import io.accel.plan.AccessPath.Estimate;
import io.accel.plan.AccessPath.KeyBound;
import io.accel.plan.AccessPath.PlanInterval;
import io.accel.plan.AccessPath.PlanValue;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import com.google.common.collect.BoundType;

/**
 * Finds the ways to read one table under a filter, and costs them from the table's statistics: the
 * table's own rows (a primary-key range, or a full scan) and every secondary index. For an index, the
 * conjuncts bind its leading columns, as many as are fixed by points (equalities, IN lists, ORs of
 * equalities on one column, IS NULL) plus one range; every other conjunct that needs only columns
 * the index entry holds becomes the Index Condition Pushdown predicate, the rest the residual.
 *
 * <p>Costs are in Volcano's row units: a seek {@value #SEEK} (a positioning of a RocksDB iterator costs about
 * what a point lookup does), an index entry read {@value #ENTRY}, a row fetched by primary key {@value #FETCH}, a row read by a table scan {@value #ROW}.
 */
final class AccessPathPlanner {
  static final double SEEK = 2.5;
  static final double ENTRY = 0.5;
  static final double FETCH = 4.0;
  static final double ROW = 1.0;
  static final double EVAL = 0.05;

  /** PostgreSQL's defaults when nothing better is known. */
  private static final double DEFAULT_EQ = 0.005;
  private static final double DEFAULT_INEQ = 1.0 / 3;
  private static final double DEFAULT_RANGE = 0.05;
  private static final double DEFAULT_OTHER = 0.25;

  private final TableDef table;
  private final TableStatistics stats;
  private final RexBuilder rexBuilder;
  private final boolean indexScans;
  private final boolean icpEnabled;
  /**
   * While the paths of an expression index are found: its key expressions (as {@link IndexExpressions} prints them)
   * by the column number that stands for each, the table's width plus the key position; otherwise null.
   */
  private Map<String, Integer> virtual;
  private IndexDef virtualIndex;

  AccessPathPlanner(TableDef table, TableStatistics stats, RexBuilder rexBuilder, boolean indexScans,
      boolean icpEnabled) {
    this.table = table;
    this.stats = stats;
    this.rexBuilder = rexBuilder;
    this.indexScans = indexScans;
    this.icpEnabled = icpEnabled;
  }

  double rowCount() {
    return Math.max(1, stats.rowCount());
  }

  /**
   * Every access path for the condition (null: none) when the scan returns {@code projection} (table
   * ordinals; null: every column); with a required order, only the paths whose key order gives it, with
   * their direction and the LIMIT that stops them.
   */
  List<AccessPath> paths(RexNode condition, int[] projection, List<RelFieldCollation> order, double limit) {
    List<RexNode> conjuncts = condition == null ? List.of() : RelOptUtil.conjunctions(condition);
    Map<RexNode, Constraint> constraints = new LinkedHashMap<>();
    for (RexNode c : conjuncts) {
      Constraint k = constraintOf(c);
      if (k != null) {
        constraints.put(c, k);
      }
    }
    List<AccessPath> out = new ArrayList<>();
    out.add(path(null, conjuncts, constraints, projection, false));
    if (indexScans) {
      for (IndexDef index : table.plainIndexes()) {
        out.add(path(index, conjuncts, constraints, projection, false));
        AccessPath skipping = path(index, conjuncts, constraints, projection, true);
        if (skipping.keys().stream().anyMatch(KeyBound::skip)) {
          out.add(skipping);
        }
      }
      for (IndexDef index : table.indexes()) {
        if (!index.plain()) {
          AccessPath p = computedPath(index, conjuncts, projection);
          if (p != null) {
            out.add(p);
          }
        }
      }
    }
    if (order.isEmpty()) {
      return out;
    }
    List<AccessPath> ordered = new ArrayList<>();
    for (AccessPath p : out) {
      Boolean reverse = orderDirection(p, order);
      if (reverse != null) {
        ordered.add(p.withOrder(reverse, limit, limited(p.estimate(), limit)));
      }
    }
    return ordered;
  }

  /**
   * The path of a partial or expression index, when the condition implies its predicate: each key expression the
   * condition compares with a value bounds the key as a column would; the comparison stays in the residual.
   */
  private AccessPath computedPath(IndexDef index, List<RexNode> conjuncts, int[] projection) {
    IndexExpressions.Shape shape = IndexExpressions.shape(table, index);
    if (!IndexExpressions.implied(shape, conjuncts, table)) {
      return null;
    }
    virtual = new java.util.HashMap<>();
    virtualIndex = index;
    try {
      for (int p = 0; p < shape.keys().size(); p++) {
        if (shape.keys().get(p) != null) {
          virtual.putIfAbsent(shape.keys().get(p), table.columns().size() + p);
        }
      }
      Map<RexNode, Constraint> constraints = new LinkedHashMap<>();
      for (RexNode c : conjuncts) {
        Constraint k = constraintOf(c);
        if (k != null) {
          constraints.put(c, k);
        }
      }
      return path(index, conjuncts, constraints, projection, false);
    } finally {
      virtual = null;
      virtualIndex = null;
    }
  }

  /** A key column's number in a path: its table column, or for an expression the number standing for it. */
  private int keyId(IndexColumn kc, int pos) {
    return kc.isExpression() ? table.columns().size() + pos : kc.column();
  }

  /** The type of a column, or of the index expression a number beyond the table's columns stands for. */
  private DataType typeOf(int column) {
    return column < table.columns().size() ? table.columns().get(column).type()
        : virtualIndex.columns().get(column - table.columns().size()).type();
  }

  private boolean isVirtual(int column) {
    return column >= table.columns().size();
  }

  /** A scan whose consumer stops after {@code limit} rows reads only that share of what it would. */
  private static Estimate limited(Estimate e, double limit) {
    if (limit < 0 || e.rows() <= limit) {
      return e;
    }
    double share = Math.max(limit, 1) / Math.max(e.rows(), 1);
    return new Estimate(Math.max(1, e.seeks() * share), e.entries() * share, e.fetches() * share, limit,
        e.cost() * share + SEEK);
  }

  /**
   * One access path. With {@code skip}, a leading key column that no conjunct bounds, followed by one that
   * is, is skipped over (MySQL's skip scan): the scan seeks each of its distinct values in turn and the
   * later columns' bounds under it.
   */
  private AccessPath path(IndexDef index, List<RexNode> conjuncts, Map<RexNode, Constraint> constraints,
      int[] projection, boolean skip) {
    List<IndexColumn> keyOrder = ScanPlan.keyOrder(table, index);
    Map<Integer, List<Constraint>> byColumn = new LinkedHashMap<>();
    for (Constraint c : constraints.values()) {
      byColumn.computeIfAbsent(c.column, k -> new ArrayList<>()).add(c);
    }
    List<KeyBound> keys = new ArrayList<>();
    Set<RexNode> used = new HashSet<>();
    Set<RexNode> recheck = new HashSet<>();
    double combos = 1;
    boolean skipped = false;
    for (int pos = 0; pos < keyOrder.size(); pos++) {
      IndexColumn kc = keyOrder.get(pos);
      int id = keyId(kc, pos);
      List<Constraint> cs = byColumn.getOrDefault(id, List.of());
      if (cs.isEmpty() && skip && !skipped && pos + 1 < keyOrder.size()
          && byColumn.containsKey(keyId(keyOrder.get(pos + 1), pos + 1))) {
        keys.add(new KeyBound(id, kc.descending(), List.of()));
        skipped = true;
        continue;
      }
      Constraint points = null;
      for (Constraint c : cs) {
        if (c.allPoints() && (points == null || c.intervals.size() < points.intervals.size())) {
          points = c;
        }
      }
      if (points != null && combos * points.intervals.size() <= ScanPlan.MAX_RANGES) {
        keys.add(new KeyBound(id, kc.descending(), points.intervals));
        use(points, used, recheck);
        combos *= points.intervals.size();
        continue;
      }
      Range range = rangeOf(cs);
      if (range != null && combos * range.intervals.size() <= ScanPlan.MAX_RANGES) {
        AccessPath.Tail lowTail = null;
        AccessPath.Tail highTail = null;
        if (range.sources.size() == 1 && !kc.descending()) {
          Constraint only = range.sources.get(0);
          lowTail = tailFits(only.lowTail, keyOrder, pos) ? only.lowTail : null;
          highTail = tailFits(only.highTail, keyOrder, pos) ? only.highTail : null;
        }
        keys.add(new KeyBound(id, kc.descending(), range.intervals, lowTail, highTail));
        for (Constraint c : range.sources) {
          use(c, used, recheck);
        }
      }
      break;
    }
    if (!keys.isEmpty() && keys.get(keys.size() - 1).skip()) {
      keys.remove(keys.size() - 1);
    }
    BitSet entryColumns = ScanPlan.entryColumns(table, index);
    List<RexNode> icp = new ArrayList<>();
    List<RexNode> residual = new ArrayList<>();
    for (RexNode c0 : conjuncts) {
      if (used.contains(c0) && !recheck.contains(c0)) {
        continue;
      }
      RexNode row = PgExpressions.expandRowComparison(rexBuilder, c0);
      RexNode c = row == null ? c0 : row;
      if (index != null && icpEnabled && covers(entryColumns, c)) {
        icp.add(c);
      } else {
        residual.add(c);
      }
    }
    boolean covering = false;
    if (index != null && index.plain()) {
      BitSet needed = new BitSet();
      if (projection == null) {
        needed.set(0, table.columns().size());
      } else {
        for (int p : projection) {
          needed.set(p);
        }
      }
      for (RexNode r : residual) {
        needed.or(RelOptUtil.InputFinder.bits(r).toBitSet());
      }
      BitSet missing = (BitSet) needed.clone();
      missing.andNot(entryColumns);
      covering = missing.isEmpty();
    }
    Estimate estimate = estimate(index, keys, combos, icp, residual, covering);
    return new AccessPath(index, keys, and(icp), and(residual), covering, false, -1, estimate);
  }

  /** Whether a row bound's tail names the key columns right after position {@code pos}, all ascending. */
  private static boolean tailFits(AccessPath.Tail tail, List<IndexColumn> keyOrder, int pos) {
    if (tail == null || pos + tail.columns().size() >= keyOrder.size()) {
      return false;
    }
    for (int i = 0; i < tail.columns().size(); i++) {
      IndexColumn next = keyOrder.get(pos + 1 + i);
      if (next.column() != tail.columns().get(i) || next.descending()) {
        return false;
      }
    }
    return true;
  }

  private static void use(Constraint c, Set<RexNode> used, Set<RexNode> recheck) {
    used.add(c.conjunct);
    if (c.recheck) {
      recheck.add(c.conjunct);
    }
  }

  private static boolean covers(BitSet entryColumns, RexNode c) {
    BitSet refs = RelOptUtil.InputFinder.bits(c).toBitSet();
    refs.andNot(entryColumns);
    return refs.isEmpty();
  }

  private RexNode and(List<RexNode> nodes) {
    return nodes.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, nodes);
  }

  // ---------------------------------------------------------------- estimates

  private Estimate estimate(IndexDef index, List<KeyBound> keys, double combos, List<RexNode> icp,
      List<RexNode> residual, boolean covering) {
    double n = rowCount();
    double keySel = keySelectivity(index, keys, combos);
    double entries = n * keySel;
    double seeks = 1;
    for (int i = 0; i < keys.size(); i++) {
      KeyBound k = keys.get(i);
      if (k.skip()) {
        // per distinct value of the skipped column under each combination of the columns before it: a seek
        // to find the value and one into the ranges under it
        double through = stats.distinctPrefix(index.id(), i + 1);
        double before = i == 0 ? 1 : stats.distinctPrefix(index.id(), i);
        seeks *= 2 * Math.max(1, through / Math.max(1, before)) + 1;
      } else {
        seeks *= k.intervals().size();
      }
    }
    double icpSel = selectivity(icp);
    double resSel = selectivity(residual);
    if (index == null) {
      double rows = entries * resSel;
      // The residual is tested on each row before it is copied out, at no cost to Volcano: the same filter in a
      // Calc above the scan costs its output rows, from Calcite's guessed selectivity, and copies every row. With
      // a per-row evaluation cost here S2's filter over 100,000 cached users rows stayed above the scan.
      return new Estimate(seeks, 0, entries, rows, seeks * SEEK + entries * ROW);
    }
    double evalCost = EVAL * (icp.size() + residual.size());
    double afterIcp = entries * icpSel;
    double fetches = covering ? 0 : afterIcp;
    double rows = afterIcp * resSel;
    double cost = seeks * SEEK + entries * (ENTRY + evalCost) + fetches * FETCH;
    return new Estimate(seeks, entries, fetches, rows, cost);
  }

  private double keySelectivity(IndexDef index, List<KeyBound> keys, double combos) {
    if (keys.isEmpty()) {
      return 1;
    }
    if (keys.stream().anyMatch(KeyBound::skip)) {
      double sel = 1;
      for (KeyBound k : keys) {
        if (!k.skip()) {
          sel *= intervalsSelectivity(k.column(), k.intervals());
        }
      }
      return Math.max(sel, 1 / rowCount() / 2);
    }
    int points = 0;
    for (KeyBound k : keys) {
      if (!k.allPoints()) {
        break;
      }
      points++;
    }
    double sel = 1;
    if (points > 0) {
      double pointCombos = 1;
      for (int i = 0; i < points; i++) {
        pointCombos *= keys.get(i).intervals().size();
      }
      Double exact = points == 1 ? pointsSelectivity(keys.get(0).column(), keys.get(0).intervals()) : null;
      if (exact != null) {
        sel = exact;
      } else {
        double distinct = index != null && !index.plain()
            ? (index.unique() && points == index.columns().size() ? rowCount() : Math.min(rowCount(), 200))
            : index != null ? stats.distinctPrefix(index.id(), points) : stats.distinctPrimaryKeyPrefix(points);
        sel = Math.min(1, pointCombos / Math.max(1, distinct));
      }
    }
    if (points < keys.size()) {
      KeyBound last = keys.get(points);
      sel *= intervalsSelectivity(last.column(), last.intervals());
    }
    return Math.max(sel, 1 / rowCount() / 2);
  }

  /** The fraction of rows whose column is one of the points, when the statistics know it exactly. */
  private Double pointsSelectivity(int column, List<PlanInterval> intervals) {
    if (isVirtual(column)) {
      return null;
    }
    double sum = 0;
    for (PlanInterval i : intervals) {
      if (i.nullPoint()) {
        sum += stats.nullFraction(column);
        continue;
      }
      if (!i.low().isConstant()) {
        return null;
      }
      OptionalDouble f = stats.frequency(column, i.low().constant());
      if (f.isEmpty()) {
        return null;
      }
      sum += f.getAsDouble();
    }
    return Math.min(1, sum);
  }

  private double pointSelectivity(int column, PlanInterval point) {
    if (isVirtual(column)) {
      return DEFAULT_EQ;
    }
    if (point.nullPoint()) {
      return stats.nullFraction(column);
    }
    if (point.low().isConstant()) {
      OptionalDouble f = stats.frequency(column, point.low().constant());
      if (f.isPresent()) {
        return f.getAsDouble();
      }
    }
    OptionalDouble d = stats.distinctValues(column);
    if (d.isPresent() && d.getAsDouble() >= 1) {
      return (1 - stats.nullFraction(column)) / d.getAsDouble();
    }
    return DEFAULT_EQ;
  }

  private double intervalsSelectivity(int column, List<PlanInterval> intervals) {
    double sum = 0;
    for (PlanInterval i : intervals) {
      sum += i.isPoint() ? pointSelectivity(column, i) : rangeSelectivity(column, i);
    }
    return Math.min(1, sum);
  }

  private double rangeSelectivity(int column, PlanInterval i) {
    if (isVirtual(column)) {
      return i.low() == null && i.high() == null ? 1 : i.low() != null && i.high() != null ? DEFAULT_RANGE
          : DEFAULT_INEQ;
    }
    double nonNull = 1 - stats.nullFraction(column);
    if (i.low() == null && i.high() == null) {
      return nonNull;
    }
    boolean constant = (i.low() == null || i.low().isConstant()) && (i.high() == null || i.high().isConstant());
    if (constant) {
      var mcv = stats.mostCommonValues(column);
      if (mcv.isPresent()) {
        DataType type = table.columns().get(column).type();
        byte[] lo = i.low() == null ? null : encode(type, i.low().constant());
        byte[] hi = i.high() == null ? null : encode(type, i.high().constant());
        if ((i.low() == null || lo != null) && (i.high() == null || hi != null)) {
          double sum = 0;
          for (TableStatistics.ValueFrequency vf : mcv.get()) {
            byte[] v = encode(type, vf.value());
            if (v == null) {
              continue;
            }
            boolean aboveLow = lo == null || (i.lowInclusive() ? Arrays.compareUnsigned(v, lo) >= 0
                : Arrays.compareUnsigned(v, lo) > 0);
            boolean belowHigh = hi == null || (i.highInclusive() ? Arrays.compareUnsigned(v, hi) <= 0
                : Arrays.compareUnsigned(v, hi) < 0);
            if (aboveLow && belowHigh) {
              sum += vf.frequency();
            }
          }
          return sum;
        }
      }
    }
    if (constant) {
      var range = stats.valueRange(column);
      double lo = i.low() == null ? Double.NaN : TableStatistics.rangeValue(i.low().constant());
      double hi = i.high() == null ? Double.NaN : TableStatistics.rangeValue(i.high().constant());
      if (range.isPresent() && (i.low() == null || !Double.isNaN(lo)) && (i.high() == null || !Double.isNaN(hi))) {
        // Linear interpolation between the column's smallest and largest values, as PostgreSQL does within
        // a histogram bucket; at least one value's share when the interval meets the range at all.
        double min = range.get()[0];
        double max = range.get()[1];
        double from = i.low() == null ? min : Math.max(lo, min);
        double to = i.high() == null ? max : Math.min(hi, max);
        if (to < from) {
          return 0;
        }
        double width = max - min;
        double share = width <= 0 ? 1 : (to - from) / width;
        double one = stats.distinctValues(column).orElse(200);
        return nonNull * Math.min(1, Math.max(share, 1 / Math.max(one, 1)));
      }
    }
    return nonNull * (i.low() != null && i.high() != null ? DEFAULT_RANGE : DEFAULT_INEQ);
  }

  private static byte[] encode(DataType type, Object v) {
    try {
      KeyWriter w = new KeyWriter(16);
      KeyCodec.write(w, type, v, false);
      return w.toByteArray();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private double selectivity(List<RexNode> conjuncts) {
    double sel = 1;
    for (RexNode c : conjuncts) {
      sel *= selectivity(c);
    }
    return sel;
  }

  private double selectivity(RexNode c) {
    Constraint k = constraintOf(c);
    if (k != null) {
      return intervalsSelectivity(k.column, k.intervals);
    }
    switch (c.getKind()) {
      case OR: {
        double sum = 0;
        for (RexNode d : ((RexCall) c).getOperands()) {
          sum += selectivity(RelOptUtil.conjunctions(d));
        }
        return Math.min(1, sum);
      }
      case NOT:
        return 1 - selectivity(((RexCall) c).getOperands().get(0));
      case NOT_EQUALS:
        return 1 - DEFAULT_EQ;
      case LIKE:
        return 0.1;
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return DEFAULT_INEQ;
      case EQUALS:
        return DEFAULT_EQ;
      default:
        return DEFAULT_OTHER;
    }
  }

  // ---------------------------------------------------------------- ORDER BY

  /**
   * Null when the path's key order does not give {@code order}; otherwise whether to read it backwards.
   * Key columns fixed to one value by the bounds are skipped; NULLs must fall where the key puts them
   * (last in an ascending column read forwards) unless the column cannot be NULL.
   */
  private Boolean orderDirection(AccessPath p, List<RelFieldCollation> order) {
    List<IndexColumn> keyOrder = new ArrayList<>(ScanPlan.keyOrder(table, p.index()));
    if (p.index() != null) {
      for (int c : table.primaryKey()) {
        keyOrder.add(new IndexColumn(c, false));
      }
    }
    Set<Integer> fixed = new HashSet<>();
    for (KeyBound k : p.keys()) {
      if (k.fixed()) {
        fixed.add(k.column());
      }
    }
    Boolean reverse = null;
    boolean skipping = p.keys().stream().anyMatch(KeyBound::skip);
    int j = 0;
    for (RelFieldCollation fc : order) {
      int column = fc.getFieldIndex();
      if (fixed.contains(column)) {
        continue;
      }
      while (j < keyOrder.size() && fixed.contains(keyOrder.get(j).column())) {
        j++;
      }
      if (j >= keyOrder.size() || keyOrder.get(j).column() != column) {
        return null;
      }
      IndexColumn kc = keyOrder.get(j);
      boolean wantDesc = fc.getDirection() == RelFieldCollation.Direction.DESCENDING
          || fc.getDirection() == RelFieldCollation.Direction.STRICTLY_DESCENDING;
      boolean rev = wantDesc != kc.descending();
      if (reverse != null && reverse != rev) {
        return null;
      }
      reverse = rev;
      if (rev && skipping) {
        return null;
      }
      if (table.columns().get(column).nullable()) {
        // Forwards, an ascending key column has NULLs last and a descending one first; backwards, the opposite.
        boolean nullsLastInScan = kc.descending() == rev;
        RelFieldCollation.NullDirection nd = fc.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
            ? (wantDesc ? RelFieldCollation.NullDirection.FIRST : RelFieldCollation.NullDirection.LAST)
            : fc.nullDirection;
        if ((nd == RelFieldCollation.NullDirection.LAST) != nullsLastInScan) {
          return null;
        }
      }
      j++;
    }
    return reverse == null ? Boolean.FALSE : reverse;
  }

  // ---------------------------------------------------------------- conjunct analysis

  /** What one conjunct says about one column, as intervals of its values. */
  private static final class Constraint {
    final RexNode conjunct;
    final int column;
    final List<PlanInterval> intervals;
    final boolean recheck;
    /** For a row-value comparison: the rest of the tuple (see {@link AccessPath.Tail}). */
    AccessPath.Tail lowTail;
    AccessPath.Tail highTail;

    Constraint(RexNode conjunct, int column, List<PlanInterval> intervals, boolean recheck) {
      this.conjunct = conjunct;
      this.column = column;
      this.intervals = intervals;
      this.recheck = recheck;
    }

    boolean allPoints() {
      return intervals.stream().allMatch(PlanInterval::isPoint);
    }

    boolean lowOnly() {
      return intervals.size() == 1 && !intervals.get(0).nullPoint() && intervals.get(0).low() != null
          && intervals.get(0).high() == null;
    }

    boolean highOnly() {
      return intervals.size() == 1 && !intervals.get(0).nullPoint() && intervals.get(0).low() == null
          && intervals.get(0).high() != null;
    }
  }

  private record Range(List<PlanInterval> intervals, List<Constraint> sources) {
  }

  /** The range bound on a column: one constraint with ranges, or a low-only and a high-only one combined. */
  private static Range rangeOf(List<Constraint> cs) {
    Constraint low = null;
    Constraint high = null;
    Constraint general = null;
    for (Constraint c : cs) {
      if (c.lowOnly() && low == null) {
        low = c;
      } else if (c.highOnly() && high == null) {
        high = c;
      } else if (general == null && !c.intervals.isEmpty()) {
        general = c;
      }
    }
    if (low != null && high != null) {
      PlanInterval l = low.intervals.get(0);
      PlanInterval h = high.intervals.get(0);
      return new Range(List.of(new PlanInterval(l.low(), l.lowInclusive(), h.high(), h.highInclusive(), false)),
          List.of(low, high));
    }
    if (general != null) {
      return new Range(general.intervals, List.of(general));
    }
    Constraint one = low != null ? low : high;
    return one == null ? null : new Range(one.intervals, List.of(one));
  }

  /** The intervals a conjunct restricts one column to, or null when it is not such a conjunct. */
  Constraint constraintOf(RexNode c) {
    switch (c.getKind()) {
      case EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL: {
        RexCall call = (RexCall) c;
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        SqlKind kind = c.getKind();
        if (a.getKind() == SqlKind.ROW && b.getKind() == SqlKind.ROW) {
          return rowConstraint(c, (RexCall) a, (RexCall) b, kind);
        }
        int column = columnOf(a);
        RexNode value = b;
        if (column < 0 || !runtimeConstant(b)) {
          column = columnOf(b);
          value = a;
          if (column < 0 || !runtimeConstant(a)) {
            return null;
          }
          kind = kind.reverse();
        }
        PlanValue v = valueOf(value, column);
        if (v == null) {
          return null;
        }
        PlanInterval interval = switch (kind) {
          case EQUALS -> PlanInterval.point(v);
          case LESS_THAN -> new PlanInterval(null, false, v, false, false);
          case LESS_THAN_OR_EQUAL -> new PlanInterval(null, false, v, true, false);
          case GREATER_THAN -> new PlanInterval(v, false, null, false, false);
          default -> new PlanInterval(v, true, null, false, false);
        };
        return new Constraint(c, column, List.of(interval), recheck(column));
      }
      case SEARCH: {
        RexCall call = (RexCall) c;
        int column = columnOf(call.getOperands().get(0));
        if (column < 0 || !(call.getOperands().get(1) instanceof RexLiteral lit)) {
          return null;
        }
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        if (sarg == null) {
          return null;
        }
        List<PlanInterval> intervals = new ArrayList<>();
        for (com.google.common.collect.Range<?> r : sarg.rangeSet.asRanges()) {
          PlanInterval i = intervalOf(r, column);
          if (i == null) {
            return null;
          }
          intervals.add(i);
        }
        if (sarg.nullAs == RexUnknownAs.TRUE) {
          intervals.add(PlanInterval.isNull());
        }
        return new Constraint(c, column, intervals, recheck(column));
      }
      case OR: {
        // ORs of conditions on one column, such as the IN list of a normalised statement (x = ?0 OR x = ?1).
        Integer column = null;
        boolean recheck = false;
        List<PlanInterval> intervals = new ArrayList<>();
        for (RexNode d : ((RexCall) c).getOperands()) {
          Constraint k = constraintOf(d);
          if (k == null || column != null && k.column != column) {
            return null;
          }
          column = k.column;
          recheck |= k.recheck;
          intervals.addAll(k.intervals);
        }
        return column == null ? null : new Constraint(c, column, intervals, recheck);
      }
      case IS_NULL: {
        int column = columnOf(((RexCall) c).getOperands().get(0));
        return column < 0 ? null : new Constraint(c, column, List.of(PlanInterval.isNull()), false);
      }
      case IS_NOT_NULL: {
        int column = columnOf(((RexCall) c).getOperands().get(0));
        return column < 0 ? null
            : new Constraint(c, column, List.of(new PlanInterval(null, false, null, false, false)), false);
      }
      case INPUT_REF: {
        int column = ((RexInputRef) c).getIndex();
        return table.columns().get(column).type().kind() == ColumnType.BOOLEAN
            ? new Constraint(c, column, List.of(PlanInterval.point(PlanValue.of(Boolean.TRUE))), false) : null;
      }
      case NOT: {
        RexNode operand = ((RexCall) c).getOperands().get(0);
        if (operand instanceof RexInputRef ref
            && table.columns().get(ref.getIndex()).type().kind() == ColumnType.BOOLEAN) {
          return new Constraint(c, ref.getIndex(), List.of(PlanInterval.point(PlanValue.of(Boolean.FALSE))), false);
        }
        return null;
      }
      default:
        return null;
    }
  }

  /**
   * A row-value comparison {@code (c1, c2, ...) op (v1, v2, ...)} (op one of {@code < <= > >=}) of columns
   * with per-execution values: {@code c1 >= v1} (or {@code <=}) on the first column with the rest of the
   * tuple as a tail, which a path whose key continues with c2, ... (all ascending) turns into a single seek
   * (keyset pagination). Always re-evaluated on the entry: the interval is a superset (NULLs, ties on c1).
   */
  private Constraint rowConstraint(RexNode c, RexCall left, RexCall right, SqlKind kind) {
    RexCall columns = left;
    RexCall values = right;
    if (columns.getOperands().isEmpty() || columnOf(columns.getOperands().get(0)) < 0) {
      columns = right;
      values = left;
      kind = kind.reverse();
    }
    int n = columns.getOperands().size();
    if (n < 2 || values.getOperands().size() != n || kind == SqlKind.EQUALS) {
      return null;
    }
    List<Integer> cols = new ArrayList<>();
    List<PlanValue> vals = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int column = columnOf(columns.getOperands().get(i));
      RexNode value = values.getOperands().get(i);
      if (column < 0 || isVirtual(column) || !runtimeConstant(value)) {
        return null;
      }
      PlanValue v = valueOf(value, column);
      if (v == null) {
        return null;
      }
      cols.add(column);
      vals.add(v);
    }
    boolean low = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    boolean inclusive = kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.LESS_THAN_OR_EQUAL;
    PlanInterval first = low ? new PlanInterval(vals.get(0), true, null, false, false)
        : new PlanInterval(null, false, vals.get(0), true, false);
    AccessPath.Tail tail = new AccessPath.Tail(cols.subList(1, n), vals.subList(1, n), inclusive);
    Constraint k = new Constraint(c, cols.get(0), List.of(first), true);
    if (low) {
      k.lowTail = tail;
    } else {
      k.highTail = tail;
    }
    return k;
  }

  /**
   * Conjuncts on CHAR columns (whose key ignores trailing spaces, where Calcite's comparison does not) and
   * on floating-point columns (whose key folds -0 and NaNs) are evaluated again on the entry.
   */
  private boolean recheck(int column) {
    if (isVirtual(column)) {
      return true; // the expression's comparison stays in the residual: the bound only narrows the scan
    }
    ColumnType kind = table.columns().get(column).type().kind();
    return kind == ColumnType.CHAR || kind == ColumnType.REAL || kind == ColumnType.DOUBLE;
  }

  private PlanInterval intervalOf(com.google.common.collect.Range<?> r, int column) {
    PlanValue low = null;
    PlanValue high = null;
    if (r.hasLowerBound()) {
      Object v = sargValue(r.lowerEndpoint());
      if (v == null) {
        return null;
      }
      low = PlanValue.of(v);
    }
    if (r.hasUpperBound()) {
      if (r.hasLowerBound() && r.lowerEndpoint().equals(r.upperEndpoint())
          && r.lowerBoundType() == BoundType.CLOSED && r.upperBoundType() == BoundType.CLOSED) {
        return PlanInterval.point(low);
      }
      Object v = sargValue(r.upperEndpoint());
      if (v == null) {
        return null;
      }
      high = PlanValue.of(v);
    }
    return new PlanInterval(low, r.hasLowerBound() && r.lowerBoundType() == BoundType.CLOSED,
        high, r.hasUpperBound() && r.upperBoundType() == BoundType.CLOSED, false);
  }

  /** A Sarg endpoint in the engine's value representation, or null when it has no key form here. */
  private static Object sargValue(Object v) {
    if (v instanceof BigDecimal || v instanceof Boolean || v instanceof ByteString || v instanceof Long
        || v instanceof Integer || v instanceof Short || v instanceof java.util.UUID) {
      return v;
    }
    if (v instanceof Double || v instanceof Float) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof NlsString s) {
      return s.getValue();
    }
    if (v instanceof DateString d) {
      return d.getDaysSinceEpoch();
    }
    if (v instanceof TimeString t) {
      return t.getMillisOfDay();
    }
    if (v instanceof TimestampString t) {
      return t.getMillisSinceEpoch();
    }
    return null;
  }

  /** The bound value of a comparison with the column, when its type can bound the column's key. */
  private PlanValue valueOf(RexNode value, int column) {
    DataType type = typeOf(column);
    if (!compatible(value.getType(), type)) {
      return null;
    }
    if (value instanceof RexLiteral lit) {
      if (lit.isNull()) {
        return null;
      }
      Object v = literalValue(lit);
      return v == null ? null : PlanValue.of(v);
    }
    return PlanValue.runtime(value);
  }

  private static Object literalValue(RexLiteral lit) {
    SqlTypeName t = lit.getType().getSqlTypeName();
    switch (t) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case DECIMAL:
        return lit.getValueAs(BigDecimal.class);
      case REAL:
      case FLOAT:
      case DOUBLE:
        return lit.getValueAs(Double.class);
      case CHAR:
      case VARCHAR:
        return lit.getValueAs(String.class);
      case BOOLEAN:
        return lit.getValueAs(Boolean.class);
      case DATE:
      case TIME:
        return lit.getValueAs(Integer.class);
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return lit.getValueAs(Long.class);
      case BINARY:
      case VARBINARY:
        return lit.getValueAs(ByteString.class);
      case UUID:
        return lit.getValue() instanceof java.util.UUID u ? u : null;
      default:
        return null;
    }
  }

  private static boolean compatible(RelDataType valueType, DataType column) {
    SqlTypeName v = valueType.getSqlTypeName();
    return switch (column.kind()) {
      case SMALLINT, INTEGER, BIGINT, NUMERIC -> SqlTypeName.EXACT_TYPES.contains(v);
      case REAL, DOUBLE -> SqlTypeName.APPROX_TYPES.contains(v) || SqlTypeName.EXACT_TYPES.contains(v);
      case CHAR, VARCHAR, TEXT -> v == SqlTypeName.CHAR || v == SqlTypeName.VARCHAR;
      case DATE -> v == SqlTypeName.DATE;
      case TIME -> v == SqlTypeName.TIME;
      case TIMESTAMP -> v == SqlTypeName.TIMESTAMP;
      case TIMESTAMPTZ -> v == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      case BOOLEAN -> v == SqlTypeName.BOOLEAN;
      case BYTEA -> v == SqlTypeName.BINARY || v == SqlTypeName.VARBINARY;
      case UUID -> v == SqlTypeName.UUID;
      // json compares as text only after a cast; no key bounds on json columns
      case JSON, JSONB -> false;
    };
  }

  /**
   * The table column an operand reads: a column reference, or a cast of one to a type that holds every
   * value of the column exactly (INTEGER to BIGINT or DECIMAL), so comparing the cast compares the column.
   */
  private int columnOf(RexNode e) {
    int column = losslessColumnRef(e);
    if (column >= 0 || virtual == null || !(e instanceof RexCall)) {
      return column;
    }
    String printed = IndexExpressions.printed(e, table);
    Integer id = printed == null ? null : virtual.get(printed);
    return id == null ? -1 : id;
  }

  /**
   * The input field an expression reads when it is a reference or a cast of one that keeps every value
   * (the same type, or an exact numeric type at least as wide); otherwise -1.
   */
  static int losslessColumnRef(RexNode e) {
    if (e instanceof RexInputRef ref) {
      return ref.getIndex();
    }
    if (e.getKind() == SqlKind.CAST) {
      RexNode operand = ((RexCall) e).getOperands().get(0);
      RelDataType from = operand.getType();
      RelDataType to = e.getType();
      boolean lossless = from.getSqlTypeName() == to.getSqlTypeName() && from.getPrecision() == to.getPrecision()
          && from.getScale() == to.getScale()
          || SqlTypeFamily.EXACT_NUMERIC.contains(from) && SqlTypeFamily.EXACT_NUMERIC.contains(to)
          && integerDigits(to) >= integerDigits(from) && Math.max(to.getScale(), 0) >= Math.max(from.getScale(), 0);
      // a chain of such casts (CAST(CAST(i AS DECIMAL(12,2)) AS DECIMAL(12,2) NOT NULL)) keeps every value too
      return lossless ? losslessColumnRef(operand) : -1;
    }
    return -1;
  }

  private static int integerDigits(RelDataType t) {
    return switch (t.getSqlTypeName()) {
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      case DECIMAL -> t.getPrecision() - Math.max(t.getScale(), 0);
      default -> 0;
    };
  }

  /** Whether an expression has one value for the whole execution: literals, parameters, correlation variables. */
  static boolean runtimeConstant(RexNode e) {
    if (e instanceof RexLiteral || e instanceof RexDynamicParam) {
      return true;
    }
    if (e instanceof RexFieldAccess fa) {
      return fa.getReferenceExpr() instanceof RexCorrelVariable;
    }
    if (e instanceof RexCall call) {
      if (!call.getOperator().isDeterministic() || call.getOperator().isDynamicFunction()
          || call.isA(SqlKind.QUERY)) {
        return false;
      }
      for (RexNode o : call.getOperands()) {
        if (!runtimeConstant(o)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }
}
