package io.accel.plan;

import io.accel.catalog.ColumnType;
import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.LookupJoin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * The joins of a {@link DirectPlanner} query: inner joins of the FROM clause's tables by equalities of their
 * columns, ordered greedily (PostgreSQL's way past {@code geqo_threshold}, and Accel's own past three tables):
 * the table whose filter leaves the fewest rows first, then at each step the connected table and method (an index
 * lookup per outer row with the key bound, or a hash join over the table's filtered scan) of least estimated cost,
 * from {@link AccessPathPlanner}'s estimates. Conditions on one table go into its scan; an equality a step does not
 * use as its key, and any condition over several tables, is evaluated as soon as its tables are joined. Joined rows
 * have every table's columns side by side, in FROM order (those the query does not read stay null).
 */
final class DirectJoin {
  /** Volcano's units per row a hash join builds or probes. */
  private static final double HASH_ROW = 0.5;

  private final List<DirectPlanner.Relation> relations;
  private final RexBuilder rexBuilder;
  private final int parameterCount;
  private final BitSet needed;
  private final List<StatementPlanner.SkewedParameter> skewed = new ArrayList<>();

  /**
   * @param parameterCount the statement's parameters; each lookup's key is an extra parameter after them
   * @param needed the columns of the joined row the query reads above the joins (outputs, groups, sort keys)
   */
  DirectJoin(List<DirectPlanner.Relation> relations, RexBuilder rexBuilder, int parameterCount, BitSet needed) {
    this.relations = relations;
    this.rexBuilder = rexBuilder;
    this.parameterCount = parameterCount;
    this.needed = needed;
  }

  /** The statement's parameters compared for equality with a listed column in one table's filter. */
  List<StatementPlanner.SkewedParameter> skewed() {
    return skewed;
  }

  /** An equality of two tables' columns (of the joined row). */
  private record Edge(RexNode condition, int left, int right) {
  }

  /** A join step: the table it adds, how (lookup or hash), and what it evaluates once the table is joined. */
  private record Step(int relation, boolean lookup, int outerColumn, int innerPosition, int keyIndex,
      ColumnType keyKind, DirectRows.ScanSource scan, int[] positions, DirectRows.Condition post, String text) {
  }

  /** The table a step adds, by which equality and access path, and what the search estimated for it. */
  private record Choice(Edge edge, int relation, int outer, int inner, AccessPath path, boolean lookup, double cost,
      double rows) {
  }

  /** The runtime form of the chosen step, with {@code post} (null for none) evaluated once its tables are joined. */
  private Step step(Choice c, int keyIndex, RexNode post) {
    DirectPlanner.Relation rel = relations.get(c.relation());
    int innerLocal = c.inner() - rel.offset();
    int[] projection = projection(c.relation());
    DirectRows.ScanSource scan = DirectPlanner.scanSource(rel.def(), c.path(), projection, false);
    scan = new DirectRows.ScanSource(scan.scan(), scan.slotParameters(), scan.icp(), scan.residual(),
        keyNamed(scan.terms(), keyIndex, name(c.outer())));
    String text = (c.lookup() ? "DirectLookupJoin" : "DirectHashJoin") + "(table=[" + rel.qualifier() + "], key=["
        + name(c.inner()) + " = " + name(c.outer()) + "]"
        + (post == null ? "" : ", condition=[" + names(post) + "]") + ")";
    return new Step(c.relation(), c.lookup(), c.outer(), indexOf(projection, innerLocal), keyIndex,
        rel.def().columns().get(innerLocal).type().kind(), scan, positions(c.relation(), projection),
        DirectPlanner.evaluated(post), text);
  }

  /** A table's cheapest scan under its own filter, and what it returns. */
  private record Scan(AccessPath path, RexNode filter, int[] projection) {
  }

  /**
   * The rows of the joined tables under {@code condition} (over the joined row; null for none); {@code limit} the
   * rows the query takes from the join as it streams (LIMIT + OFFSET without sort or grouping), or -1.
   */
  DirectRows.Source plan(RexNode condition, double limit) {
    int n = relations.size();
    for (DirectPlanner.Relation r : relations) {
      if (!r.table().statistics().analyzed()) {
        // no statistics yet (auto-analyze has not run): a greedy order from guesses is a guess too; Calcite's
        // search weighs more orders and methods
        throw DirectPlanner.Declined.INSTANCE;
      }
    }
    List<List<RexNode>> local = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      local.add(new ArrayList<>());
    }
    List<Edge> edges = new ArrayList<>();
    List<RexNode> others = new ArrayList<>();
    for (RexNode c : condition == null ? List.<RexNode>of() : RelOptUtil.conjunctions(condition)) {
      BitSet tables = tablesOf(c);
      if (tables.cardinality() == 1) {
        int r = tables.nextSetBit(0);
        local.get(r).add(RexUtil.shift(c, -relations.get(r).offset()));
        continue;
      }
      needed.or(RelOptUtil.InputFinder.bits(c).toBitSet());
      if (c.getKind() == SqlKind.EQUALS && ((RexCall) c).getOperands().get(0) instanceof RexInputRef a
          && ((RexCall) c).getOperands().get(1) instanceof RexInputRef b && keyable(a.getIndex())
          && keyable(b.getIndex())) {
        edges.add(new Edge(c, a.getIndex(), b.getIndex()));
      } else {
        others.add(c);
      }
    }
    deriveAcrossEdges(local, edges);
    List<Scan> scans = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      RexNode filter = RexUtil.composeConjunction(rexBuilder, local.get(r), true);
      int[] projection = projection(r);
      scans.add(new Scan(cheapest(r, filter, projection), filter, projection));
      if (filter != null) {
        StatementPlanner.SkewedParameter.collect(filter, relations.get(r).table().statistics(), skewed);
      }
    }
    // the first table: the one its filter leaves fewest rows of (estimates below one row count as one, as
    // PostgreSQL clamps them; ties go to the table written first)
    int first = 0;
    for (int r = 1; r < n; r++) {
      if (Math.max(1, scans.get(r).path().estimate().rows()) < Math.max(1, scans.get(first).path().estimate().rows())) {
        first = r;
      }
    }
    BitSet joined = new BitSet();
    joined.set(first);
    double rows = Math.max(1, scans.get(first).path().estimate().rows());
    double cost = scans.get(first).path().estimate().cost();
    List<Step> steps = new ArrayList<>();
    List<Edge> unused = new ArrayList<>(edges);
    while (joined.cardinality() < n) {
      Choice best = null;
      int keyIndex = parameterCount + steps.size();
      for (Edge e : unused) {
        int leftTable = relationIndex(e.left());
        int rightTable = relationIndex(e.right());
        if (joined.get(leftTable) == joined.get(rightTable)) {
          continue;
        }
        int outer = joined.get(leftTable) ? e.left() : e.right();
        int inner = outer == e.left() ? e.right() : e.left();
        int r = relationIndex(inner);
        DirectPlanner.Relation rel = relations.get(r);
        Scan scan = scans.get(r);
        int innerLocal = inner - rel.offset();
        // an index lookup per outer row, the key bound as an extra parameter
        RelDataType keyType = rexBuilder.getTypeFactory().createTypeWithNullability(
            rel.rowType().getFieldList().get(innerLocal).getType(), true);
        RexNode keyed = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
            rexBuilder.makeInputRef(rel.rowType().getFieldList().get(innerLocal).getType(), innerLocal),
            rexBuilder.makeDynamicParam(keyType, keyIndex));
        RexNode lookupFilter = scan.filter() == null ? keyed
            : RexUtil.composeConjunction(rexBuilder, List.of(scan.filter(), keyed));
        AccessPath lookup = cheapest(r, lookupFilter, scan.projection());
        double lookupCost = rows * lookup.estimate().cost();
        // or a hash join over the table's own scan
        double distinct = Math.max(1, Math.max(distinct(relationOf(outer), outer - relationOf(outer).offset()),
            distinct(rel, innerLocal)));
        double hashCost = scan.path().estimate().cost() + (rows + scan.path().estimate().rows()) * HASH_ROW;
        // under a LIMIT the lookups stop with the rows taken, where a hash join first reads its whole table
        double lookupRows = rows * lookup.estimate().rows();
        if (limit >= 0) {
          lookupCost *= Math.min(1, limit / Math.max(1, lookupRows));
        }
        // lookupJoins=false: both sides read independently, as the general planner then does
        boolean byLookup = lookupCost <= hashCost && rel.table().session().lookupJoins();
        double stepCost = byLookup ? lookupCost : hashCost;
        if (best == null || stepCost < best.cost()) {
          best = new Choice(e, r, outer, inner, byLookup ? lookup : scan.path(), byLookup, stepCost,
              byLookup ? lookupRows : rows * scan.path().estimate().rows() / distinct);
        }
      }
      if (best == null) {
        throw DirectPlanner.Declined.INSTANCE; // a table joined by no equality: a cross product, for Calcite
      }
      Edge bestEdge = best.edge();
      double bestCost = best.cost();
      double bestRows = best.rows();
      unused.remove(bestEdge);
      joined.set(best.relation());
      // what the step evaluates: the other conditions whose tables are all joined now
      List<RexNode> post = new ArrayList<>();
      for (Edge e : List.copyOf(unused)) {
        if (joined.get(relationIndex(e.left())) && joined.get(relationIndex(e.right()))) {
          post.add(e.condition());
          unused.remove(e);
        }
      }
      for (RexNode c : List.copyOf(others)) {
        BitSet tables = tablesOf(c);
        tables.andNot(joined);
        if (tables.isEmpty()) {
          post.add(c);
          others.remove(c);
        }
      }
      RexNode postCondition = RexUtil.composeConjunction(rexBuilder, post, true);
      steps.add(step(best, keyIndex, postCondition));
      cost += bestCost;
      rows = Math.max(1, bestRows);
    }
    if (cost > DirectPlanner.MAX_COST) {
      throw DirectPlanner.Declined.INSTANCE;
    }
    Scan firstScan = scans.get(first);
    DirectRows.ScanSource firstSource = DirectPlanner.scanSource(relations.get(first).def(), firstScan.path(),
        firstScan.projection(), false);
    int width = 0;
    for (DirectPlanner.Relation r : relations) {
      width += r.rowType().getFieldCount();
    }
    return new JoinSource(width, firstSource, positions(first, firstScan.projection()), steps);
  }

  /**
   * Comparisons of a joined column with a constant carried to the column it equals ({@code o.user_id = u.id AND
   * u.id = 1} gives {@code o.user_id = 1}), as PostgreSQL's equivalence classes and Calcite's transitive predicates
   * do: each table's scan is then bounded by it, and reads (and the result cache tracks) only those rows. An inner
   * join drops the rows where either side is NULL, so the carried comparison removes nothing the join keeps.
   */
  private void deriveAcrossEdges(List<List<RexNode>> local, List<Edge> edges) {
    for (int round = 0, changed = 1; changed > 0 && round < relations.size(); round++) {
      changed = 0;
      for (Edge e : edges) {
        changed += carry(local, e.left(), e.right()) + carry(local, e.right(), e.left());
      }
    }
  }

  /** Adds to {@code to}'s table the comparisons of {@code from} with a constant; the number added. */
  private int carry(List<List<RexNode>> local, int from, int to) {
    int fromTable = relationIndex(from);
    int toTable = relationIndex(to);
    int fromLocal = from - relations.get(fromTable).offset();
    DirectPlanner.Relation target = relations.get(toTable);
    if (relations.get(fromTable).def().columns().get(fromLocal).type().kind()
        != target.def().columns().get(to - target.offset()).type().kind()) {
      return 0; // a constant of one integer width may not fit the other column's key
    }
    RexNode toRef = rexBuilder.makeInputRef(target.rowType().getFieldList().get(to - target.offset()).getType(),
        to - target.offset());
    int added = 0;
    for (RexNode c : List.copyOf(local.get(fromTable))) {
      if (!(c instanceof RexCall call) || call.getOperands().size() != 2 || !SqlKind.COMPARISON.contains(c.getKind())
          || c.getKind() == SqlKind.NOT_EQUALS) {
        continue;
      }
      RexNode a = call.getOperands().get(0);
      RexNode b = call.getOperands().get(1);
      RexNode derived = null;
      if (a instanceof RexInputRef ref && ref.getIndex() == fromLocal && AccessPathPlanner.runtimeConstant(b)) {
        derived = rexBuilder.makeCall(call.getOperator(), toRef, b);
      } else if (b instanceof RexInputRef ref && ref.getIndex() == fromLocal && AccessPathPlanner.runtimeConstant(a)) {
        derived = rexBuilder.makeCall(call.getOperator(), a, toRef);
      }
      if (derived != null && !local.get(toTable).contains(derived)) {
        local.get(toTable).add(derived);
        added++;
      }
    }
    return added;
  }

  /** A lookup scan's EXPLAIN terms with its key parameter shown as the outer column it comes from. */
  private static List<Map.Entry<String, Object>> keyNamed(List<Map.Entry<String, Object>> terms, int keyIndex,
      String outer) {
    java.util.regex.Pattern key = java.util.regex.Pattern.compile("\\?" + keyIndex + "(?![0-9])");
    List<Map.Entry<String, Object>> out = new ArrayList<>(terms.size());
    for (Map.Entry<String, Object> t : terms) {
      out.add(t.getValue() instanceof String v
          ? Map.entry(t.getKey(), key.matcher(v).replaceAll(java.util.regex.Matcher.quoteReplacement(outer)))
          : t);
    }
    return out;
  }

  /** A column that can key a lookup or a hash join here: an integer or text column. */
  private boolean keyable(int column) {
    DirectPlanner.Relation r = relationOf(column);
    ColumnType k = r.def().columns().get(column - r.offset()).type().kind();
    return k == ColumnType.SMALLINT || k == ColumnType.INTEGER || k == ColumnType.BIGINT || k == ColumnType.VARCHAR
        || k == ColumnType.TEXT;
  }

  private AccessPath cheapest(int relation, RexNode filter, int[] projection) {
    AccessPath best = null;
    for (AccessPath p : relations.get(relation).table().planner(rexBuilder).paths(filter, projection, List.of(), -1)) {
      if (best == null || p.estimate().cost() < best.estimate().cost()) {
        best = p;
      }
    }
    if (best == null) {
      throw DirectPlanner.Declined.INSTANCE;
    }
    return best;
  }

  private static double distinct(DirectPlanner.Relation r, int column) {
    double rows = Math.max(1, r.table().statistics().rowCount());
    return r.table().statistics().distinctValues(column).orElse(rows);
  }

  /** The columns of one table the query reads above its scan, as table ordinals in order. */
  private int[] projection(int relation) {
    DirectPlanner.Relation r = relations.get(relation);
    int width = r.rowType().getFieldCount();
    return needed.get(r.offset(), r.offset() + width).stream().toArray();
  }

  /** Where each column a table's scan returns goes in the joined row. */
  private int[] positions(int relation, int[] projection) {
    int[] out = new int[projection.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = relations.get(relation).offset() + projection[i];
    }
    return out;
  }

  private static int indexOf(int[] values, int value) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == value) {
        return i;
      }
    }
    throw DirectPlanner.Declined.INSTANCE;
  }

  private BitSet tablesOf(RexNode c) {
    BitSet tables = new BitSet();
    for (int column : RelOptUtil.InputFinder.bits(c)) {
      tables.set(relationIndex(column));
    }
    return tables;
  }

  private int relationIndex(int column) {
    for (int i = relations.size() - 1; i >= 0; i--) {
      if (column >= relations.get(i).offset()) {
        return i;
      }
    }
    throw new IllegalArgumentException("column " + column);
  }

  private DirectPlanner.Relation relationOf(int column) {
    return relations.get(relationIndex(column));
  }

  private String name(int column) {
    DirectPlanner.Relation r = relationOf(column);
    return r.qualifier() + "." + r.def().columns().get(column - r.offset()).name();
  }

  private String names(RexNode condition) {
    return AccelScan.rename(condition.toString(), i -> name(i));
  }

  /** The joined rows: the first table's scan, then each step in order. */
  private record JoinSource(int width, DirectRows.ScanSource first, int[] firstPositions, List<Step> steps)
      implements DirectRows.Source {
    @Override
    public Enumerable<Object[]> rows(DataContext root, Object[] parameters, ScanStats[] stats) {
      Enumerable<Object[]> rows = first.rows(root, parameters, stats == null ? null : new ScanStats[] {stats[0]})
          .select(in -> combine(new Object[width], in, firstPositions));
      for (int k = 0; k < steps.size(); k++) {
        rows = join(steps.get(k), root, parameters, rows, stats == null ? null : new ScanStats[] {stats[k + 1]});
      }
      return rows;
    }

    private Enumerable<Object[]> join(Step step, DataContext root, Object[] parameters,
        Enumerable<Object[]> outer, ScanStats[] stats) {
      Enumerable<Object[]> joined;
      if (step.lookup()) {
        // the index lookup join's engine (batches of outer rows, each distinct key looked up once, in key order)
        DirectRows.ScanSource scan = step.scan();
        int keyIndex = step.keyIndex();
        // the statement's parameters and, after them, the key being looked up (evaluation is one key at a time)
        Object[] p = Arrays.copyOf(parameters, keyIndex + 1);
        int[] slotParameters = scan.slotParameters();
        LookupJoin.Spec spec = new LookupJoin.Spec(scan.scan(), LookupJoin.Kind.INNER, false,
            scan.scan().projection().length, null);
        joined = ScanRuntime.lookupJoin(root, outer, spec,
            row -> new Object[] {key(row[step.outerColumn()], step.keyKind())},
            key -> {
              Object[] slots = new Object[slotParameters.length];
              for (int i = 0; i < slots.length; i++) {
                slots[i] = slotParameters[i] == keyIndex ? key[0] : parameters[slotParameters[i]];
              }
              return slots;
            },
            predicate2(scan.icp(), p, keyIndex), predicate2(scan.residual(), p, keyIndex), null, null,
            stats == null ? null : stats[0])
            .select(row -> place(row, width, step.positions()));
      } else {
        joined = new AbstractEnumerable<>() {
          @Override
          public Enumerator<Object[]> enumerator() {
            // built when the join is read, once per execution
            Map<Object, List<Object[]>> built = new HashMap<>();
            try (Enumerator<Object[]> e = step.scan().rows(root, parameters, stats).enumerator()) {
              while (e.moveNext()) {
                Object k = hashKey(e.current()[step.innerPosition()]);
                if (k != null) {
                  built.computeIfAbsent(k, x -> new ArrayList<>()).add(e.current());
                }
              }
            }
            return outer.selectMany(row -> {
              Object k = hashKey(row[step.outerColumn()]);
              List<Object[]> matches = k == null ? null : built.get(k);
              return matches == null ? Linq4j.<Object[]>emptyEnumerable()
                  : Linq4j.asEnumerable(matches).select(in -> combine(row.clone(), in, step.positions()));
            }).enumerator();
          }
        };
      }
      DirectRows.Condition post = step.post();
      return post == null ? joined : joined.where(row -> post.test(row, parameters) == Boolean.TRUE);
    }

    /** A joined row of the lookup engine (outer row, then the inner scan's columns) in the joined-row layout. */
    private static Object[] place(Object[] row, int width, int[] positions) {
      Object[] out = Arrays.copyOf(row, width);
      for (int i = 0; i < positions.length; i++) {
        out[positions[i]] = row[width + i];
      }
      return out;
    }

    private static org.apache.calcite.linq4j.function.Predicate2<Object[], Object[]> predicate2(
        DirectRows.Condition c, Object[] p, int keyIndex) {
      if (c == null) {
        return null;
      }
      return (row, key) -> {
        p[keyIndex] = key[0];
        return c.test(row, p) == Boolean.TRUE;
      };
    }

    /** The lookup key in the inner column's representation; null when nothing can match (NULL, out of range). */
    private static Object key(Object value, ColumnType kind) {
      if (value == null) {
        return null;
      }
      if (value instanceof String) {
        return value;
      }
      return DirectPlanner.narrowed(((Number) value).longValue(), kind);
    }

    /** Integers of any width hash as one value, as they compare equal. */
    private static Object hashKey(Object value) {
      return value instanceof Number n ? (Object) n.longValue() : value;
    }

    private static Object[] combine(Object[] row, Object[] in, int[] positions) {
      for (int i = 0; i < positions.length; i++) {
        row[positions[i]] = in[i];
      }
      return row;
    }

    @Override
    public List<String> explain(int depth, ScanStats[] stats) {
      List<String> lines = new ArrayList<>();
      explain(steps.size() - 1, depth, stats, lines);
      return lines;
    }

    private void explain(int step, int depth, ScanStats[] stats, List<String> lines) {
      if (step < 0) {
        lines.addAll(first.explain(depth, stats == null ? null : new ScanStats[] {stats[0]}));
        return;
      }
      lines.add(DirectRows.indent(depth) + steps.get(step).text());
      explain(step - 1, depth + 1, stats, lines);
      lines.addAll(steps.get(step).scan().explain(depth + 1, stats == null ? null : new ScanStats[] {stats[step + 1]}));
    }

    @Override
    public int scans() {
      return steps.size() + 1;
    }
  }
}
