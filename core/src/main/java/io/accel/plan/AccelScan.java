package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.exec.Values;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.TableDef;
import io.accel.exec.AccessCounters.ScanStats;
import io.accel.exec.ScanPlan;
import io.accel.plan.AccessPath.KeyBound;
import io.accel.plan.AccessPath.PlanInterval;
import io.accel.plan.AccessPath.PlanValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.function.Predicate1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;

/**
 * A read of one Accel table through one {@link AccessPath}: the table scan of Calcite's plans, into which
 * Accel's rules ({@link AccelScanRules}) push filters, projections and orderings. Logical (convention
 * NONE) while the planner explores; the chosen one becomes an {@link AccelEnumerableScan}.
 */
public class AccelScan extends AbstractRelNode {
  private final RelOptTable table;
  private final AccelTable accelTable;
  private final RexNode condition;
  private final int[] projection;
  private final List<RelFieldCollation> order;
  private final AccessPath path;
  ScanStats analyzeStats;

  AccelScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, AccelTable accelTable, RexNode condition,
      int[] projection, List<RelFieldCollation> order, AccessPath path) {
    super(cluster, traits);
    this.table = table;
    this.accelTable = accelTable;
    this.condition = condition;
    this.projection = projection;
    this.order = List.copyOf(order);
    this.path = path;
  }

  /** The plain scan of a whole table, as the SQL-to-relational converter creates it. */
  static AccelScan create(RelOptCluster cluster, RelOptTable table, AccelTable accelTable) {
    AccessPathPlanner planner = accelTable.planner(cluster.getRexBuilder());
    AccessPath path = planner.paths(null, null, List.of(), -1).get(0);
    return new AccelScan(cluster, cluster.traitSetOf(Convention.NONE), table, accelTable, null, null, List.of(), path);
  }

  /**
   * The order a scan of the primary key returns its rows in when no order was asked of it: key order (one key range
   * read forwards), as far as the key columns' values compare in Java as their encoded keys do (integer, date and
   * time types), NULLs last as a merge join asks (the key columns are NOT NULL; an ORDER BY asks the same). A merge
   * join or an ORDER BY uses it without sorting. Only the Enumerable scan carries it: rules converting a logical
   * input ask for its traits, and a collation there made hash and lookup joins ask for sorted inputs.
   */
  static List<RelFieldCollation> keyOrder(TableDef t, AccessPath path) {
    if (path.index() != null || path.reverse() || t.primaryKey().isEmpty()
        || path.keys().stream().anyMatch(k -> k.intervals().size() != 1)) {
      return List.of();
    }
    List<RelFieldCollation> order = new ArrayList<>();
    for (int c : t.primaryKey()) {
      switch (t.columns().get(c).type().kind()) {
        case SMALLINT, INTEGER, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> order.add(
            new RelFieldCollation(c, RelFieldCollation.Direction.ASCENDING, RelFieldCollation.NullDirection.LAST));
        default -> {
          return order;
        }
      }
    }
    return order;
  }

  @Override
  public RelOptTable getTable() {
    return table;
  }

  AccelTable accelTable() {
    return accelTable;
  }

  RexNode condition() {
    return condition;
  }

  int[] projection() {
    return projection;
  }

  List<RelFieldCollation> order() {
    return order;
  }

  AccessPath path() {
    return path;
  }

  /** The table column each output field reads. */
  int tableColumn(int field) {
    return projection == null ? field : projection[field];
  }

  /** This scan with the pushed condition, projection and order, read through {@code path}. */
  AccelScan with(RexNode condition, int[] projection, List<RelFieldCollation> order, AccessPath path) {
    return new AccelScan(getCluster(), getTraitSet().replace(collation(order, projection)), getTable(), accelTable,
        condition, projection, order, path);
  }

  /**
   * The order of a scan's output fields: {@code order} (table columns) renumbered through {@code projection}, up to
   * the first column the projection leaves out (a narrowed scan keeps its order, its fields do not).
   */
  static RelCollation collation(List<RelFieldCollation> order, int[] projection) {
    List<RelFieldCollation> fields = new ArrayList<>();
    for (RelFieldCollation fc : order) {
      int field = fc.getFieldIndex();
      if (projection != null) {
        field = -1;
        for (int i = 0; i < projection.length && field < 0; i++) {
          field = projection[i] == fc.getFieldIndex() ? i : -1;
        }
      }
      if (field < 0) {
        break;
      }
      fields.add(fc.withFieldIndex(field));
    }
    return RelCollations.of(fields);
  }

  /** Collects per-operator counts while EXPLAIN ANALYZE runs the plan. */
  public void analyzeInto(ScanStats stats) {
    this.analyzeStats = stats;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    AccelScan copy = this instanceof AccelEnumerableScan
        ? new AccelEnumerableScan(getCluster(), traitSet, getTable(), accelTable, condition, projection, order, path)
        : new AccelScan(getCluster(), traitSet, getTable(), accelTable, condition, projection, order, path);
    copy.analyzeStats = analyzeStats;
    return copy;
  }

  @Override
  public RelDataType deriveRowType() {
    RelDataType full = table.getRowType();
    if (projection == null) {
      return full;
    }
    var builder = getCluster().getTypeFactory().builder();
    for (int p : projection) {
      RelDataTypeField f = full.getFieldList().get(p);
      builder.add(f.getName(), f.getType());
    }
    return builder.build();
  }

  @Override
  public void register(RelOptPlanner planner) {
    AccelScanRules.register(planner);
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return Math.max(1, path.estimate().rows());
  }

  /** The share of a scan's cost that decoding all of a row's columns adds. */
  static final double DECODE_SHARE = 0.05;

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // Decoding a row's columns is part of reading it: a scan that returns fewer columns decodes fewer (an
    // aggregate over a filtered scan then takes the trimmed scan, not the whole rows: 1M rows, 5 columns -> 1)
    int columns = accelTable.definition().columns().size();
    // (no discount for a scan of no columns: its empty rows are a different Java row format to its consumers)
    double decoded = projection == null || projection.length == 0 || columns == 0 ? 1
        : (double) projection.length / columns;
    double cost = path.estimate().cost() * (1 + DECODE_SHARE * decoded);
    return planner.getCostFactory().makeCost(cost, cost, 0);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    for (Map.Entry<String, Object> term : terms(accelTable.definition(), table.getQualifiedName(), path, projection,
        !order.isEmpty())) {
      w = w.item(term.getKey(), term.getValue());
    }
    return w;
  }

  /** What EXPLAIN shows of a scan (also of a directly planned one, {@link DirectRows}). */
  static List<Map.Entry<String, Object>> terms(TableDef t, List<String> qualifiedName, AccessPath path,
      int[] projection, boolean ordered) {
    String access = path.index() != null ? "index " + path.index().name()
        : path.keys().isEmpty() ? "full scan" : "primary key";
    List<Map.Entry<String, Object>> terms = new ArrayList<>();
    terms.add(Map.entry("table", qualifiedName));
    terms.add(Map.entry("access", access));
    if (!path.keys().isEmpty()) {
      terms.add(Map.entry("keys", describeKeys(t, path)));
    }
    if (path.icp() != null) {
      terms.add(Map.entry("icp", names(t, path.icp())));
    }
    if (path.residual() != null) {
      terms.add(Map.entry("residual", names(t, path.residual())));
    }
    if (path.covering()) {
      terms.add(Map.entry("covering", true));
    }
    if (ordered) {
      terms.add(Map.entry("order", path.reverse() ? "backward" : "forward"));
    }
    if (path.limit() >= 0) {
      terms.add(Map.entry("limit", (long) path.limit()));
    }
    if (projection != null) {
      List<String> names = new ArrayList<>();
      for (int p : projection) {
        names.add(t.columns().get(p).name());
      }
      terms.add(Map.entry("columns", String.join(", ", names)));
    }
    terms.add(Map.entry("est. rows", Math.round(path.estimate().rows())));
    return terms;
  }

  private static final Pattern INPUT_REF = Pattern.compile("\\$(\\d+)");

  /** A condition with column names in place of input references. */
  String names(RexNode node) {
    return names(accelTable.definition(), node);
  }

  static String names(TableDef t, RexNode node) {
    List<Column> columns = t.columns();
    return rename(node.toString(), i -> i < columns.size() ? columns.get(i).name() : null);
  }

  /** {@code text} with each input reference {@code $i} replaced by {@code name(i)} (kept where that is null). */
  static String rename(String text, IntFunction<String> name) {
    Matcher m = INPUT_REF.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String n = name.apply(Integer.parseInt(m.group(1)));
      m.appendReplacement(sb, Matcher.quoteReplacement(n == null ? m.group() : n));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  String describeKeys() {
    return describeKeys(accelTable.definition(), path);
  }

  private static String describeKeys(TableDef t, AccessPath path) {
    List<String> parts = new ArrayList<>();
    for (KeyBound k : path.keys()) {
      String name = ScanPlan.keyName(t, path.index(), k.column());
      List<String> alternatives = new ArrayList<>();
      DataType type = ScanPlan.keyType(t, path.index(), k.column());
      for (PlanInterval i : k.intervals()) {
        alternatives.add(describe(t, i, type));
      }
      if (k.skip()) {
        parts.add(name + " skipped (each value)");
        continue;
      }
      if (k.lowTail() != null || k.highTail() != null) {
        parts.add(describeRow(t, k, name));
        continue;
      }
      String set = alternatives.size() == 1 ? alternatives.get(0) : "{" + String.join(", ", alternatives) + "}";
      parts.add(name + " " + (k.allPoints() && alternatives.size() == 1 ? "= " + set : "in " + set));
    }
    return String.join(", ", parts);
  }

  /** A row-value bound as written: {@code (kind, id) > ('a', ?1)}. */
  private static String describeRow(TableDef t, KeyBound k, String name) {
    List<String> out = new ArrayList<>();
    PlanInterval i = k.intervals().get(0);
    for (int side = 0; side < 2; side++) {
      AccessPath.Tail tail = side == 0 ? k.lowTail() : k.highTail();
      PlanValue first = side == 0 ? i.low() : i.high();
      if (first == null) {
        continue;
      }
      List<String> names = new ArrayList<>(List.of(name));
      List<String> values = new ArrayList<>(List.of(describe(t, first, t.columns().get(k.column()).type())));
      String op = side == 0 ? ">=" : "<=";
      if (tail != null) {
        for (int c = 0; c < tail.columns().size(); c++) {
          io.accel.catalog.Column col = t.columns().get(tail.columns().get(c));
          names.add(col.name());
          values.add(describe(t, tail.values().get(c), col.type()));
        }
        op = (side == 0 ? ">" : "<") + (tail.inclusive() ? "=" : "");
      }
      out.add(names.size() == 1 ? name + " " + op + " " + values.get(0)
          : "(" + String.join(", ", names) + ") " + op + " (" + String.join(", ", values) + ")");
    }
    return String.join(" and ", out);
  }

  private static String describe(TableDef t, PlanInterval i, DataType type) {
    if (i.nullPoint()) {
      return "NULL";
    }
    if (i.isPoint()) {
      return describe(t, i.low(), type);
    }
    return (i.low() == null ? "(-inf" : (i.lowInclusive() ? "[" : "(") + describe(t, i.low(), type)) + ".."
        + (i.high() == null ? "+inf)" : describe(t, i.high(), type) + (i.highInclusive() ? "]" : ")"));
  }

  /** A bound as PostgreSQL would print the value (dates as dates, not day numbers), or the expression. */
  private static String describe(TableDef t, PlanValue v, DataType type) {
    if (!v.isConstant()) {
      return names(t, v.expr());
    }
    Object c = v.constant();
    String text;
    try {
      text = c instanceof Number && !(type.kind() == ColumnType.DATE || type.kind() == ColumnType.TIME
          || type.kind() == ColumnType.TIMESTAMP || type.kind() == ColumnType.TIMESTAMPTZ)
          ? c.toString() : Values.toText(type, c);
    } catch (RuntimeException e) {
      text = String.valueOf(c);
    }
    return c instanceof String || type.kind() == ColumnType.DATE || type.kind() == ColumnType.TIMESTAMP
        || type.kind() == ColumnType.TIMESTAMPTZ || type.kind() == ColumnType.TIME ? "'" + text + "'" : text;
  }

  boolean isLogical() {
    return getConvention() == Convention.NONE;
  }

  AccelScan toEnumerable() {
    RelTraitSet traits = getTraitSet().replace(EnumerableConvention.INSTANCE);
    if (order.isEmpty()) {
      traits = traits.replace(collation(keyOrder(accelTable.definition(), path), projection));
    }
    AccelScan copy = new AccelEnumerableScan(getCluster(), traits, getTable(), accelTable, condition, projection, order,
        path);
    copy.analyzeStats = analyzeStats;
    return copy;
  }
}
