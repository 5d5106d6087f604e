package io.accel.plan;

import io.accel.catalog.ColumnType;
import io.accel.catalog.TableDef;
import io.accel.sql.SimpleSelect;
import java.math.BigDecimal;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * Plans and runs a {@link SimpleSelect} (a query of one stored table with a filter of comparisons) without
 * Calcite's pipeline: the filter becomes the same row expressions Calcite's conversion gives, the access path
 * is the cheapest {@link AccessPathPlanner} finds (the costs Volcano would compare for a single-table scan), and
 * the scan's conditions, grouping, ordering and paging are evaluated by {@link DirectRows} instead of compiled
 * code. A statement seen for the first time then costs a few tens of microseconds to plan instead of
 * milliseconds (parsing, validation, rule search and Janino); PostgreSQL plans such statements as cheaply.
 *
 * <p>It declines (null) whatever it does not handle exactly as the general path does: other shapes, views and
 * catalog relations, names that need Calcite's resolution, column types whose comparison or grouping has
 * semantics of its own, and plans whose estimated cost is high enough that the full search, which also unites
 * index ranges across OR branches, may find better and its planning time no longer matters.
 */
final class DirectPlanner {
  /** Plans estimated dearer than this (Volcano's units: about rows read) go to the full planner. */
  static final double MAX_COST = 10_000;

  private final StatementPlanner planner;
  /** Made at the first query planned here (it loads Calcite's operator table; an INSERT does not need it). */
  private RexBuilder rexBuilder;

  DirectPlanner(StatementPlanner planner) {
    this.planner = planner;
  }

  private RexBuilder rexBuilder() {
    if (rexBuilder == null) {
      rexBuilder = new RexBuilder(planner.typeFactory());
    }
    return rexBuilder;
  }

  /** The plan of {@code sql}, or null when the statement is not one this planner handles. */
  StatementPlanner.Planned plan(String sql, long maxRowCount, CalciteSchema rootSchema) {
    SimpleSelect q = SimpleSelect.parse(sql);
    if (q == null) {
      io.accel.sql.SimpleInsert insert = io.accel.sql.SimpleInsert.parse(sql);
      return insert == null ? null : planInsert(insert, sql, maxRowCount, rootSchema);
    }
    List<AccelTable> tables = new ArrayList<>(q.from().size());
    for (SimpleSelect.TableRef ref : q.from()) {
      AccelTable table = resolve(ref.name(), rootSchema);
      if (table == null) {
        return null;
      }
      tables.add(table);
    }
    try {
      return new Planning(q, tables).plan(sql, maxRowCount, rootSchema);
    } catch (Declined e) {
      return null;
    }
  }

  /**
   * An INSERT of constant rows: each value converted to its column's representation here (integers into integer
   * columns within range, strings into text columns, booleans into boolean columns, NULL anywhere, parameters typed
   * as their column), the rows written by {@link TableModification} as the general path's plan writes them (the
   * same batch, RETURNING and ON CONFLICT handling, constraints and defaults checks in the writer). Declined when a
   * column the statement leaves out has a DEFAULT (an identity or serial column included), which Calcite computes.
   */
  private StatementPlanner.Planned planInsert(io.accel.sql.SimpleInsert insert, String sql, long maxRowCount,
      CalciteSchema rootSchema) {
    AccelTable table = resolve(insert.table(), rootSchema);
    if (table == null) {
      return null;
    }
    TableDef def = table.definition();
    int width = def.columns().size();
    int[] targets = new int[insert.columns().isEmpty() ? width : insert.columns().size()];
    if (insert.columns().isEmpty()) {
      for (int i = 0; i < width; i++) {
        targets[i] = i;
      }
    } else {
      java.util.BitSet seen = new java.util.BitSet();
      for (int i = 0; i < targets.length; i++) {
        String name = insert.columns().get(i);
        int found = -1;
        for (int c = 0; c < width; c++) {
          if (def.columns().get(c).name().equalsIgnoreCase(name)) {
            if (found >= 0 || !def.columns().get(c).name().equals(name)) {
              return null;
            }
            found = c;
          }
        }
        if (found < 0 || seen.get(found)) {
          return null; // 42703 / 42701 from the general path
        }
        seen.set(found);
        targets[i] = found;
      }
      for (int c = 0; c < width; c++) {
        if (!seen.get(c) && def.columns().get(c).defaultSql().isPresent()) { // (a generated column too)
          return null;
        }
      }
    }
    RelDataType rowType = table.getRowType(planner.typeFactory());
    Map<Integer, RelDataType> parameterTypes = new HashMap<>();
    List<Object[]> constants = new ArrayList<>(insert.rows().size());
    int[][] parameterAt = new int[insert.rows().size()][];
    for (int r = 0; r < insert.rows().size(); r++) {
      List<io.accel.sql.SimpleInsert.Value> values = insert.rows().get(r);
      if (values.size() != targets.length) {
        return null; // 42601: more or fewer expressions than target columns
      }
      Object[] row = new Object[width];
      int[] params = new int[width];
      java.util.Arrays.fill(params, -1);
      for (int i = 0; i < targets.length; i++) {
        int c = targets[i];
        io.accel.sql.SimpleInsert.Value v = values.get(i);
        ColumnType kind = def.columns().get(c).type().kind();
        if (v.isParameter()) {
          if (!(kind == ColumnType.SMALLINT || kind == ColumnType.INTEGER || kind == ColumnType.BIGINT
              || kind == ColumnType.VARCHAR || kind == ColumnType.TEXT || kind == ColumnType.BOOLEAN)) {
            return null;
          }
          parameterTypes.put(v.parameter(), planner.typeFactory().createTypeWithNullability(
              rowType.getFieldList().get(c).getType(), true));
          params[c] = v.parameter();
        } else if (v.literal() != null) {
          Object value = insertValue(v.literal(), kind);
          if (value == null) {
            return null;
          }
          row[c] = value;
        }
      }
      constants.add(row);
      parameterAt[r] = params;
    }
    List<AvaticaParameter> parameters = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      RelDataType t = parameterTypes.get(i);
      if (t == null) {
        return null;
      }
      parameters.add(new AvaticaParameter(false, precision(t), scale(t), t.getSqlTypeName().getJdbcOrdinal(),
          t.getSqlTypeName().getName(), Object.class.getName(), "?" + i));
    }
    int parameterCount = parameters.size();
    TableModification modification = new TableModification(table,
        org.apache.calcite.rel.core.TableModify.Operation.INSERT, List.of(), true);
    org.apache.calcite.runtime.Bindable<Object> bindable = root -> {
      List<Object[]> rows = new ArrayList<>(constants.size());
      for (int r = 0; r < constants.size(); r++) {
        Object[] row = constants.get(r).clone();
        int[] params = parameterAt[r];
        for (int c = 0; c < params.length; c++) {
          if (params[c] >= 0 && params[c] < parameterCount) {
            row[c] = root.get("?" + params[c]);
          }
        }
        rows.add(row);
      }
      long count = TableModification.execute(modification, root, org.apache.calcite.linq4j.Linq4j.asEnumerable(rows));
      return org.apache.calcite.linq4j.Linq4j.singletonEnumerable(count);
    };
    RelDataType countType = planner.typeFactory().createSqlType(SqlTypeName.BIGINT);
    RelDataType resultType = planner.typeFactory().createStructType(List.of(countType), List.of("ROWCOUNT"));
    ColumnMetaData.AvaticaType avaticaType = ColumnMetaData.scalar(java.sql.Types.BIGINT, "BIGINT",
        ColumnMetaData.Rep.PRIMITIVE_LONG);
    List<ColumnMetaData> columns = List.of(new ColumnMetaData(0, false, true, false, false,
        DatabaseMetaData.columnNoNulls, true, countType.getPrecision(), "ROWCOUNT", "ROWCOUNT", null,
        precision(countType), scale(countType), null, null, avaticaType, true, false, false,
        avaticaType.columnClassName()));
    CalcitePrepare.CalciteSignature<Object> signature = new CalcitePrepare.CalciteSignature<>(sql, parameters,
        Map.of(), resultType, columns, Meta.CursorFactory.deduce(columns, Object[].class), rootSchema, List.of(),
        maxRowCount, bindable, Meta.StatementType.INSERT);
    String line = "DirectInsert(table=[[" + AccelSchema.NAME + ", " + def.name() + "]], rows=[" + constants.size()
        + "])";
    DirectPlan explained = new DirectPlan() {
      @Override
      public void analyze() {
      }

      @Override
      public List<String> explain() {
        return List.of(line);
      }

      @Override
      public io.accel.exec.AccessCounters.ScanStats scanTotals() {
        return new io.accel.exec.AccessCounters.ScanStats();
      }
    };
    return new StatementPlanner.Planned(signature,
        new StatementPlanner.PlanFacts(true, java.util.Set.of(), "it reads no table", List.of()), explained);
  }

  /** A literal in a column's representation, or null when it does not convert exactly (Calcite decides then). */
  private static Object insertValue(Object literal, ColumnType kind) {
    if (literal instanceof Long v) {
      return kind == ColumnType.SMALLINT || kind == ColumnType.INTEGER || kind == ColumnType.BIGINT
          ? narrowed(v, kind) : null;
    }
    if (literal instanceof String s) {
      return kind == ColumnType.VARCHAR || kind == ColumnType.TEXT ? s : null;
    }
    return kind == ColumnType.BOOLEAN ? literal : null;
  }

  /** The stored table the name means as Calcite would resolve it, or null when that is not certain. */
  private AccelTable resolve(List<String> name, CalciteSchema rootSchema) {
    String tableName = name.get(name.size() - 1);
    List<List<String>> paths = name.size() == 2 ? List.of(List.of(name.get(0))) : planner.schemaPaths();
    for (List<String> path : paths) {
      if (path.isEmpty()) {
        continue; // the root holds schemas, not tables
      }
      CalciteSchema schema = rootSchema.getSubSchema(path.get(0), false);
      if (schema == null) {
        continue;
      }
      CalciteSchema.TableEntry entry = schema.getTable(tableName, false);
      if (entry == null) {
        continue;
      }
      Table t = entry.getTable();
      return path.get(0).equals(AccelSchema.NAME) && entry.name.equals(tableName) && t instanceof AccelTable a
          ? a : null;
    }
    return null;
  }

  /** The statement leaves what this planner handles exactly. */
  static final class Declined extends RuntimeException {
    static final Declined INSTANCE = new Declined();

    private Declined() {
      super(null, null, false, false);
    }
  }

  /** What {@link DirectRows} computes for an output column: a scan column, or an aggregate over one. */
  record Output(String function, int scanColumn) {
    boolean aggregate() {
      return function != null;
    }
  }

  /** A sort key over the rows {@link DirectRows} builds (outputs, then the scan's extra columns). */
  record SortKey(int field, boolean descending, boolean nullsFirst) {
  }

  /** A table of the FROM clause: its columns are {@code offset ...} of the joined row. */
  record Relation(AccelTable table, TableDef def, RelDataType rowType, String qualifier, int offset) {
  }

  private final class Planning {
    private final SimpleSelect q;
    private final List<Relation> relations = new ArrayList<>();
    /** The one table of an unjoined query (its scan's projection is the source row); null when joined. */
    private final Relation single;
    private final Map<Integer, RelDataType> parameterTypes = new HashMap<>();
    /** Unjoined: the table ordinals the scan returns, in order. */
    private final List<Integer> scanColumns = new ArrayList<>();
    /** Joined: the columns (of the joined row) the query reads. */
    private final java.util.BitSet needed = new java.util.BitSet();
    /** The relations a condition being read may name (an ON condition: those joined so far). */
    private int visible;

    Planning(SimpleSelect q, List<AccelTable> tables) {
      this.q = q;
      int offset = 0;
      java.util.Set<String> qualifiers = new java.util.HashSet<>();
      for (int i = 0; i < tables.size(); i++) {
        AccelTable t = tables.get(i);
        SimpleSelect.TableRef ref = q.from().get(i);
        String qualifier = ref.alias() != null ? ref.alias() : t.definition().name();
        if (!qualifiers.add(qualifier)) {
          throw Declined.INSTANCE; // 42712: the same name twice
        }
        RelDataType rowType = t.getRowType(planner.typeFactory());
        relations.add(new Relation(t, t.definition(), rowType, qualifier, offset));
        offset += rowType.getFieldCount();
      }
      this.single = relations.size() == 1 ? relations.get(0) : null;
      this.visible = relations.size();
    }

    /** The relation a column of the joined row belongs to. */
    private Relation relationOf(int column) {
      for (int i = relations.size() - 1; i >= 0; i--) {
        if (column >= relations.get(i).offset()) {
          return relations.get(i);
        }
      }
      throw new IllegalArgumentException("column " + column);
    }

    private RelDataType typeOf(int column) {
      Relation r = relationOf(column);
      return r.rowType().getFieldList().get(column - r.offset()).getType();
    }

    StatementPlanner.Planned plan(String sql, long maxRowCount, CalciteSchema rootSchema) {
      boolean grouped = !q.groupBy().isEmpty()
          || q.items().stream().anyMatch(i -> i instanceof SimpleSelect.Aggregate);
      List<Integer> groupColumns = new ArrayList<>();
      for (SimpleSelect.Column c : q.groupBy()) {
        int column = column(c);
        if (!groupable(column) || groupColumns.contains(column)) {
          throw Declined.INSTANCE;
        }
        groupColumns.add(column);
      }
      // the select list: labels, Calcite's field names, types, origins
      List<Output> outputs = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      List<String> fieldNames = new ArrayList<>();
      List<RelDataType> types = new ArrayList<>();
      List<Integer> origins = new ArrayList<>();
      for (SimpleSelect.Item item : q.items()) {
        if (item instanceof SimpleSelect.Star star) {
          boolean any = false;
          for (Relation r : relations) {
            if (star.qualifier() == null || star.qualifier().equals(r.qualifier())) {
              any = true;
              for (RelDataTypeField f : r.rowType().getFieldList()) {
                addColumn(r.offset() + f.getIndex(), null, outputs, labels, fieldNames, types, origins);
              }
            }
          }
          if (grouped || !any) {
            throw Declined.INSTANCE;
          }
        } else if (item instanceof SimpleSelect.ColumnItem ci) {
          int column = column(ci.column());
          if (grouped && !groupColumns.contains(column)) {
            throw Declined.INSTANCE; // 42803, or a column functionally dependent on the key: Calcite decides
          }
          addColumn(column, ci.label(), outputs, labels, fieldNames, types, origins);
        } else {
          SimpleSelect.Aggregate a = (SimpleSelect.Aggregate) item;
          RelDataType type;
          int column = -1;
          if (a.argument() == null) {
            type = planner.typeFactory().createSqlType(SqlTypeName.BIGINT);
          } else {
            column = column(a.argument());
            RelDataType arg = typeOf(column);
            boolean nullable = arg.isNullable() || groupColumns.isEmpty();
            type = switch (a.function()) {
              case "count" -> planner.typeFactory().createSqlType(SqlTypeName.BIGINT);
              case "sum" -> {
                ColumnType kind = kind(column);
                if (kind != ColumnType.SMALLINT && kind != ColumnType.INTEGER) {
                  throw Declined.INSTANCE; // a BIGINT sum overflows with Calcite's checked arithmetic
                }
                yield planner.typeFactory().createTypeWithNullability(
                    planner.typeFactory().createSqlType(SqlTypeName.BIGINT), nullable);
              }
              default -> {
                if (!comparable(column)) {
                  throw Declined.INSTANCE;
                }
                yield planner.typeFactory().createTypeWithNullability(arg, nullable);
              }
            };
          }
          outputs.add(new Output(a.function(), column < 0 ? -1 : sourceColumn(column)));
          labels.add(a.label() != null ? a.label() : a.function());
          fieldNames.add(a.label());
          types.add(type);
          origins.add(-1);
        }
      }
      if (grouped) {
        // the group keys are scanned whether selected or not
        for (int column : groupColumns) {
          sourceColumn(column);
        }
      }
      // ORDER BY: an output (by position or label) or, ungrouped, any column of the table
      List<SortKey> sort = new ArrayList<>();
      List<RelFieldCollation> tableOrder = new ArrayList<>();
      boolean orderByColumns = true;
      for (SimpleSelect.OrderKey k : q.orderBy()) {
        int field;
        if (k.column() == null) {
          if (k.position() < 1 || k.position() > outputs.size()) {
            throw Declined.INSTANCE;
          }
          field = k.position() - 1;
        } else {
          field = outputNamed(k.column(), labels);
          if (field < 0) {
            int column = column(k.column());
            if (grouped) {
              field = outputOf(column, outputs);
              if (field < 0) {
                throw Declined.INSTANCE;
              }
            } else {
              field = outputs.size() + sourceColumn(column);
            }
          }
        }
        // aggregates sort as numbers or as their (comparable) argument; columns must compare as here
        int column = field < outputs.size() ? (outputs.get(field).aggregate() ? -1
            : columnAt(outputs.get(field).scanColumn())) : columnAt(field - outputs.size());
        if (column >= 0 && !comparable(column)) {
          throw Declined.INSTANCE;
        }
        // PostgreSQL: NULLS LAST ascending, NULLS FIRST descending, unless written
        boolean nullsFirst = k.nullsFirst() != null ? k.nullsFirst() : k.descending();
        sort.add(new SortKey(field, k.descending(), nullsFirst));
        if (column < 0 || grouped || single == null) {
          orderByColumns = false;
        } else {
          tableOrder.add(new RelFieldCollation(column,
              k.descending() ? RelFieldCollation.Direction.DESCENDING : RelFieldCollation.Direction.ASCENDING,
              nullsFirst ? RelFieldCollation.NullDirection.FIRST : RelFieldCollation.NullDirection.LAST));
        }
      }
      RexNode condition = condition();
      boolean sorted = !sort.isEmpty();
      DirectRows.Source source;
      java.util.Set<Long> tableIds = new java.util.TreeSet<>();
      List<StatementPlanner.SkewedParameter> skewed = new ArrayList<>();
      if (single != null) {
        TableDef def = single.def();
        int[] projection = scanColumns.stream().mapToInt(Integer::intValue).toArray();
        // the cheapest access path: unordered (then sorted here), or one whose key order gives ORDER BY
        AccessPathPlanner paths = single.table().planner(rexBuilder());
        AccessPath best = null;
        double bestCost = Double.MAX_VALUE;
        for (AccessPath p : paths.paths(condition, projection, List.of(), -1)) {
          double cost = p.estimate().cost() + (sort.isEmpty() ? 0 : sortCost(p.estimate().rows()));
          if (cost < bestCost) {
            best = p;
            bestCost = cost;
          }
        }
        if (sorted && orderByColumns) {
          double limit = q.limit() < 0 ? -1 : q.limit() + q.offset();
          for (AccessPath p : paths.paths(condition, projection, tableOrder, limit)) {
            if (p.estimate().cost() < bestCost) {
              best = p;
              bestCost = p.estimate().cost();
              sorted = false;
            }
          }
        }
        if (best == null || bestCost > MAX_COST) {
          throw Declined.INSTANCE;
        }
        source = scanSource(def, best, projection, !sorted && !sort.isEmpty());
        tableIds.add(def.id());
        if (condition != null) {
          StatementPlanner.SkewedParameter.collect(condition, single.table().statistics(), skewed);
        }
      } else {
        DirectJoin join = new DirectJoin(relations, rexBuilder(), parameterTypes.size(), needed);
        source = join.plan(condition, !grouped && sort.isEmpty() && q.limit() >= 0 ? q.limit() + q.offset() : -1);
        for (Relation r : relations) {
          tableIds.add(r.def().id());
        }
        skewed.addAll(join.skewed());
      }
      int[] groupKeys = grouped ? groupColumns.stream().mapToInt(this::sourceColumn).toArray() : null;
      List<String> operators = operators(grouped, groupColumns, outputs, labels, sorted ? sort : List.of());
      DirectRows rows = new DirectRows(operators, source, parameterTypes.size(), groupKeys, outputs,
          sorted ? sort : List.of(), q.limit(), q.offset(), outputs.size() == 1);

      List<ColumnMetaData> columns = new ArrayList<>();
      for (int i = 0; i < outputs.size(); i++) {
        columns.add(metaData(i, labels.get(i), types.get(i), origins.get(i)));
      }
      List<String> names = SqlValidatorUtil.uniquify(withExpressionNames(fieldNames), SqlValidatorUtil.EXPR_SUGGESTER,
          false);
      RelDataType resultType = planner.typeFactory().createStructType(types, names);
      List<AvaticaParameter> parameters = new ArrayList<>();
      for (int i = 0; i < parameterTypes.size(); i++) {
        RelDataType t = parameterTypes.get(i);
        if (t == null) {
          throw Declined.INSTANCE;
        }
        parameters.add(new AvaticaParameter(false, precision(t), scale(t), t.getSqlTypeName().getJdbcOrdinal(),
            t.getSqlTypeName().getName(), Object.class.getName(), "?" + i));
      }
      CalcitePrepare.CalciteSignature<Object> signature = new CalcitePrepare.CalciteSignature<>(sql, parameters,
          Map.of(), resultType, columns, Meta.CursorFactory.deduce(columns, Object[].class), rootSchema, List.of(),
          maxRowCount, rows::bind, Meta.StatementType.SELECT);
      // rows stream in scan order unless sorted here (as the general path's facts: a plan without a Sort)
      StatementPlanner.PlanFacts facts = new StatementPlanner.PlanFacts(!sorted,
          java.util.Set.copyOf(tableIds), null, List.copyOf(skewed));
      return new StatementPlanner.Planned(signature, facts, rows);
    }

    /** What EXPLAIN shows above the scan, outermost first. */
    private List<String> operators(boolean grouped, List<Integer> groupColumns, List<Output> outputs,
        List<String> labels, List<SortKey> sort) {
      List<String> lines = new ArrayList<>();
      if (q.limit() >= 0 || q.offset() > 0) {
        lines.add("DirectLimit(" + (q.offset() > 0 ? "offset=[" + q.offset() + "]" : "")
            + (q.offset() > 0 && q.limit() >= 0 ? ", " : "") + (q.limit() >= 0 ? "fetch=[" + q.limit() + "]" : "")
            + ")");
      }
      if (!sort.isEmpty()) {
        List<String> keys = new ArrayList<>();
        for (SortKey k : sort) {
          String name = k.field() < outputs.size() ? labels.get(k.field())
              : columnName(columnAt(k.field() - outputs.size()));
          keys.add(name + (k.descending() ? " DESC" : "") + (k.nullsFirst() != k.descending()
              ? (k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST") : ""));
        }
        lines.add("DirectSort(keys=[" + String.join(", ", keys) + "])");
      }
      if (grouped) {
        List<String> group = new ArrayList<>();
        for (int c : groupColumns) {
          group.add(columnName(c));
        }
        List<String> aggregates = new ArrayList<>();
        for (Output o : outputs) {
          if (o.aggregate()) {
            aggregates.add(o.function() + "(" + (o.scanColumn() < 0 ? "*" : columnName(columnAt(o.scanColumn())))
                + ")");
          }
        }
        lines.add("DirectAggregate(" + (group.isEmpty() ? "" : "group=[" + String.join(", ", group) + "], ")
            + "aggregates=[" + String.join(", ", aggregates) + "])");
      }
      return lines;
    }

    /** Calcite's names for the fields: a label where written or the column's name, else EXPR$n. */
    private List<String> withExpressionNames(List<String> fieldNames) {
      List<String> out = new ArrayList<>(fieldNames.size());
      for (int i = 0; i < fieldNames.size(); i++) {
        out.add(fieldNames.get(i) != null ? fieldNames.get(i) : SqlValidatorUtil.EXPR_SUGGESTER.apply(null, i, 0));
      }
      return out;
    }

    /** As Volcano weighs a sort: the rows it takes (its comparisons are CPU, which Volcano does not compare). */
    private double sortCost(double rows) {
      return rows;
    }

    private void addColumn(int column, String label, List<Output> outputs, List<String> labels,
        List<String> fieldNames, List<RelDataType> types, List<Integer> origins) {
      if (kind(column) == ColumnType.JSON || kind(column) == ColumnType.JSONB) {
        throw Declined.INSTANCE;
      }
      Relation r = relationOf(column);
      RelDataTypeField f = r.rowType().getFieldList().get(column - r.offset());
      outputs.add(new Output(null, sourceColumn(column)));
      labels.add(label != null ? label : f.getName());
      fieldNames.add(label != null ? label : f.getName());
      types.add(f.getType());
      origins.add(column);
    }

    /**
     * Where a column of the joined row is in the source's rows, recording that the query reads it: unjoined, its
     * position among the scan's columns (added when new); joined, the column itself.
     */
    private int sourceColumn(int column) {
      if (single == null) {
        needed.set(column);
        return column;
      }
      int at = scanColumns.indexOf(column);
      if (at < 0) {
        scanColumns.add(column);
        at = scanColumns.size() - 1;
      }
      return at;
    }

    /** The column of the joined row at a position of the source's rows (the inverse of {@link #sourceColumn}). */
    private int columnAt(int position) {
      return single == null ? position : scanColumns.get(position);
    }

    /** A column's name, qualified when the query joins tables. */
    private String columnName(int column) {
      Relation r = relationOf(column);
      String name = r.def().columns().get(column - r.offset()).name();
      return single == null ? r.qualifier() + "." + name : name;
    }

    /** The output an unqualified ORDER BY name labels (PostgreSQL looks there first), or -1. */
    private int outputNamed(SimpleSelect.Column c, List<String> labels) {
      if (c.qualifier() != null) {
        return -1;
      }
      int found = -1;
      for (int i = 0; i < labels.size(); i++) {
        if (labels.get(i).equals(c.name())) {
          if (found >= 0) {
            throw Declined.INSTANCE; // ambiguous (42702)
          }
          found = i;
        }
      }
      return found;
    }

    private int outputOf(int column, List<Output> outputs) {
      for (int i = 0; i < outputs.size(); i++) {
        if (!outputs.get(i).aggregate() && columnAt(outputs.get(i).scanColumn()) == column) {
          return i;
        }
      }
      return -1;
    }

    /**
     * The column of the joined row a reference names; declined when it is not plainly one column of one table the
     * reference may see (Calcite matches names ignoring case: only an exact, unique match is certain).
     */
    private int column(SimpleSelect.Column c) {
      int found = -1;
      for (int i = 0; i < visible; i++) {
        Relation r = relations.get(i);
        if (c.qualifier() != null && !c.qualifier().equals(r.qualifier())) {
          continue;
        }
        for (RelDataTypeField f : r.rowType().getFieldList()) {
          if (f.getName().equalsIgnoreCase(c.name())) {
            if (found >= 0 || !f.getName().equals(c.name())) {
              throw Declined.INSTANCE; // ambiguous (42702), or a match by case only
            }
            found = r.offset() + f.getIndex();
          }
        }
      }
      if (found < 0) {
        throw Declined.INSTANCE; // 42703 / 42P01 from the general path
      }
      return found;
    }

    private ColumnType kind(int column) {
      Relation r = relationOf(column);
      return r.def().columns().get(column - r.offset()).type().kind();
    }

    private boolean integral(int column) {
      ColumnType k = kind(column);
      return k == ColumnType.SMALLINT || k == ColumnType.INTEGER || k == ColumnType.BIGINT;
    }

    private boolean text(int column) {
      ColumnType k = kind(column);
      return k == ColumnType.VARCHAR || k == ColumnType.TEXT;
    }

    /**
     * Compared, sorted and aggregated by min/max here exactly as the general path does: integers, text, and NUMERIC
     * (by value: 1.5 = 1.50).
     */
    private boolean comparable(int column) {
      return column >= 0 && (integral(column) || text(column) || kind(column) == ColumnType.NUMERIC
          || kind(column) == ColumnType.DATE);
    }

    /** Grouped here as the general path groups: NUMERIC is not (its groups fold trailing zeros). */
    private boolean groupable(int column) {
      return integral(column) || text(column) || kind(column) == ColumnType.DATE;
    }

    /** WHERE and every ON condition, as one conjunction over the joined row; null when there is none. */
    private RexNode condition() {
      List<RexNode> terms = new ArrayList<>();
      for (int i = 1; i < q.from().size(); i++) {
        if (q.from().get(i).on() != null) {
          visible = i + 1; // an ON condition sees the tables joined so far
          terms.add(condition(q.from().get(i).on(), false));
        }
      }
      visible = relations.size();
      if (q.where() != null) {
        terms.add(condition(q.where(), false));
      }
      return terms.isEmpty() ? null : terms.size() == 1 ? terms.get(0)
          : rexBuilder().makeCall(SqlStdOperatorTable.AND, terms);
    }

    /** The condition as Calcite's conversion gives it, NOT pushed into the operands. */
    private RexNode condition(SimpleSelect.Condition c, boolean negated) {
      if (c instanceof SimpleSelect.And and) {
        return junction(and.operands(), negated, !negated);
      } else if (c instanceof SimpleSelect.Or or) {
        return junction(or.operands(), negated, negated);
      } else if (c instanceof SimpleSelect.Not not) {
        return condition(not.operand(), !negated);
      } else if (c instanceof SimpleSelect.Comparison cmp) {
        return comparison(cmp.op(), cmp.left(), cmp.right(), negated);
      } else if (c instanceof SimpleSelect.Between b) {
        boolean outside = b.negated() != negated;
        RexNode low = comparison(">=", b.value(), b.low(), outside);
        RexNode high = comparison("<=", b.value(), b.high(), outside);
        return rexBuilder().makeCall(outside ? SqlStdOperatorTable.OR : SqlStdOperatorTable.AND, low, high);
      } else if (c instanceof SimpleSelect.InList in) {
        boolean notIn = in.negated() != negated;
        List<RexNode> terms = new ArrayList<>();
        for (SimpleSelect.Operand o : in.list()) {
          terms.add(comparison("=", in.value(), o, notIn));
        }
        return terms.size() == 1 ? terms.get(0)
            : rexBuilder().makeCall(notIn ? SqlStdOperatorTable.AND : SqlStdOperatorTable.OR, terms);
      } else {
        SimpleSelect.IsNull isNull = (SimpleSelect.IsNull) c;
        if (!(isNull.value() instanceof SimpleSelect.Column col)) {
          throw Declined.INSTANCE;
        }
        int column = column(col);
        return rexBuilder().makeCall(isNull.negated() != negated ? SqlStdOperatorTable.IS_NOT_NULL
            : SqlStdOperatorTable.IS_NULL, rexBuilder().makeInputRef(typeOf(column), column));
      }
    }

    private RexNode junction(List<SimpleSelect.Condition> operands, boolean negated, boolean and) {
      List<RexNode> terms = new ArrayList<>(operands.size());
      for (SimpleSelect.Condition o : operands) {
        terms.add(condition(o, negated));
      }
      return rexBuilder().makeCall(and ? SqlStdOperatorTable.AND : SqlStdOperatorTable.OR, terms);
    }

    /** {@code left op right} (negated: its complement, the same under SQL's three-valued logic). */
    private RexNode comparison(String op, SimpleSelect.Operand left, SimpleSelect.Operand right, boolean negated) {
      SqlOperator operator = switch (op) {
        case "=" -> negated ? SqlStdOperatorTable.NOT_EQUALS : SqlStdOperatorTable.EQUALS;
        case "<>" -> negated ? SqlStdOperatorTable.EQUALS : SqlStdOperatorTable.NOT_EQUALS;
        case "<" -> negated ? SqlStdOperatorTable.GREATER_THAN_OR_EQUAL : SqlStdOperatorTable.LESS_THAN;
        case "<=" -> negated ? SqlStdOperatorTable.GREATER_THAN : SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
        case ">" -> negated ? SqlStdOperatorTable.LESS_THAN_OR_EQUAL : SqlStdOperatorTable.GREATER_THAN;
        default -> negated ? SqlStdOperatorTable.LESS_THAN : SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
      };
      int column;
      if (left instanceof SimpleSelect.Column l) {
        column = column(l);
      } else if (right instanceof SimpleSelect.Column r) {
        column = column(r);
      } else {
        throw Declined.INSTANCE; // no column: constants and parameters are typed by Calcite's rules
      }
      if (!comparable(column)) {
        throw Declined.INSTANCE;
      }
      return rexBuilder().makeCall(operator, operand(left, column), operand(right, column));
    }

    /** An operand compared with {@code column}: of the column's type family, or declined. */
    private RexNode operand(SimpleSelect.Operand o, int column) {
      RelDataType columnType = typeOf(column);
      if (o instanceof SimpleSelect.Column c) {
        int other = column(c);
        if (kind(other) == ColumnType.NUMERIC || kind(column) == ColumnType.NUMERIC
            || (kind(other) == ColumnType.DATE) != (kind(column) == ColumnType.DATE)
            || integral(other) != integral(column) || text(other) != text(column)) {
          throw Declined.INSTANCE;
        }
        return rexBuilder().makeInputRef(typeOf(other), other);
      } else if (o instanceof SimpleSelect.IntegerLiteral i) {
        if (!(integral(column) && narrowed(i.value(), kind(column)) != null || kind(column) == ColumnType.NUMERIC)) {
          throw Declined.INSTANCE;
        }
        return rexBuilder().makeExactLiteral(BigDecimal.valueOf(i.value()));
      } else if (o instanceof SimpleSelect.DateLiteral d) {
        if (kind(column) != ColumnType.DATE) {
          throw Declined.INSTANCE;
        }
        return rexBuilder().makeDateLiteral(org.apache.calcite.util.DateString.fromDaysSinceEpoch(
            (int) d.value().toEpochDay()));
      } else if (o instanceof SimpleSelect.DecimalLiteral d) {
        if (kind(column) != ColumnType.NUMERIC) {
          throw Declined.INSTANCE; // an integer column against a fraction: Calcite's casts decide
        }
        return rexBuilder().makeExactLiteral(d.value());
      } else if (o instanceof SimpleSelect.StringLiteral s) {
        if (!text(column) || !latin1(s.value())) {
          throw Declined.INSTANCE;
        }
        return rexBuilder().makeLiteral(s.value());
      } else {
        int index = ((SimpleSelect.Parameter) o).index();
        RelDataType type = planner.typeFactory().createTypeWithNullability(columnType, true);
        RelDataType known = parameterTypes.putIfAbsent(index, type);
        if (known != null) {
          throw Declined.INSTANCE;
        }
        return rexBuilder().makeDynamicParam(type, index);
      }
    }

    /** A result column as Calcite's preparation describes it; {@code origin} the column it reads, or -1. */
    private ColumnMetaData metaData(int ordinal, String label, RelDataType type, int origin) {
      ColumnMetaData.Rep rep = ColumnMetaData.Rep.of(((JavaTypeFactoryImpl) planner.typeFactory()).getJavaClass(type));
      ColumnMetaData.AvaticaType avaticaType = PgTypes.avaticaType(type,
          ColumnMetaData.scalar(type.getSqlTypeName().getJdbcOrdinal(), type.getSqlTypeName().getName(), rep));
      Relation r = origin < 0 ? null : relationOf(origin);
      String columnName = r == null ? label : r.def().columns().get(origin - r.offset()).name();
      return new ColumnMetaData(ordinal, false, true, false, false,
          type.isNullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls, true,
          type.getPrecision(), label, columnName, r == null ? null : AccelSchema.NAME,
          precision(type), scale(type), r == null ? null : r.def().name(), null, avaticaType, true, false, false,
          avaticaType.columnClassName());
    }
  }

  /**
   * The runtime form of an access path: its scan plan, the parameter that fills each slot of it, its conditions
   * for evaluation and EXPLAIN's terms ({@code ordered}: it gives the query's order); declined when a slot needs
   * anything but a parameter or a condition cannot be interpreted.
   */
  static DirectRows.ScanSource scanSource(TableDef def, AccessPath path, int[] projection, boolean ordered) {
    List<RexNode> runtimeValues = new ArrayList<>();
    io.accel.exec.ScanPlan scan = AccelEnumerableScan.scanPlan(def, path, projection, runtimeValues);
    int[] slotParameters = new int[runtimeValues.size()];
    for (int i = 0; i < slotParameters.length; i++) {
      if (!(runtimeValues.get(i) instanceof RexDynamicParam p)) {
        throw Declined.INSTANCE;
      }
      slotParameters[i] = p.getIndex();
    }
    return new DirectRows.ScanSource(scan, slotParameters, evaluated(path.icp()), evaluated(path.residual()),
        AccelScan.terms(def, List.of(AccelSchema.NAME, def.name()), path, projection, ordered));
  }

  /** A condition of an access path for evaluation (null for none); declined when it cannot be interpreted. */
  static DirectRows.Condition evaluated(RexNode condition) {
    DirectRows.Condition c = DirectRows.condition(condition);
    if (condition != null && c == null) {
      throw Declined.INSTANCE;
    }
    return c;
  }

  /** An integer in an integer column's representation (Short, Integer or Long), or null when out of its range. */
  static Object narrowed(long v, ColumnType kind) {
    return switch (kind) {
      case SMALLINT -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE ? (Object) (short) v : null;
      case INTEGER -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : null;
      default -> v;
    };
  }

  /** Calcite's literals without a character set name hold Latin-1 text only. */
  private static boolean latin1(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) {
        return false;
      }
    }
    return true;
  }

  private static int precision(RelDataType t) {
    return t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0 : t.getPrecision();
  }

  private static int scale(RelDataType t) {
    return t.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : t.getScale();
  }
}
