package io.accel.e2e.diff;

import io.accel.e2e.diff.Schema.Column;
import io.accel.e2e.diff.Schema.Table;
import io.accel.e2e.diff.SqlType.Family;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Random queries and DML over a generated {@link Schema}, restricted to the SQL both PostgreSQL and Accel are meant
 * to accept and to what {@link Features} enables. Expressions carry their PostgreSQL type and a magnitude bound so
 * that no arithmetic can overflow in PostgreSQL; literals come from the same skewed domains as the data so that
 * predicates and joins select something.
 */
final class QueryGenerator {
  /** Estimated row count bound used for sum()/count() magnitudes (joins of two few-hundred-row tables). */
  private static final double MAX_ROWS = 1.0e5;

  /** Joins are built so that their estimated size stays below this. */
  private static final double JOIN_CAP = 2500;
  /** Assumed size of a derived table. */
  private static final double DERIVED_ROWS = 60;

  private final Random r;
  private final Schema schema;
  private final Features f;
  private final List<List<Object[]>> data;
  /** Value frequencies per column in the initial data (numbers keyed by double value), for join estimates. */
  private final java.util.Map<Column, java.util.Map<Object, Integer>> freq = new java.util.HashMap<>();
  private int aliasSeq;
  private int insertSeq;

  QueryGenerator(Random r, Schema schema, Features f, List<List<Object[]>> data) {
    this.r = r;
    this.schema = schema;
    this.f = f;
    this.data = data;
    for (int t = 0; t < schema.tables.size(); t++) {
      refreshStats(schema.tables.get(t), data.get(t));
    }
  }

  /** Recomputes a table's value frequencies and row count from its current rows (after DML). */
  void refreshStats(Table table, List<Object[]> rows) {
    for (int c = 0; c < table.columns.size(); c++) {
      java.util.Map<Object, Integer> m = new java.util.HashMap<>();
      for (Object[] row : rows) {
        if (row[c] != null) {
          m.merge(freqKey(row[c]), 1, Integer::sum);
        }
      }
      freq.put(table.columns.get(c), m);
    }
    table.rowCount = rows.size();
  }

  private static Object freqKey(Object v) {
    return v instanceof Number n ? (Object) n.doubleValue() : v;
  }

  /** Estimated fraction of pairs (x, y) with x = y. */
  private double selectivity(RelCol x, RelCol y) {
    if (x.base() == null || y.base() == null) {
      return 0.05;
    }
    java.util.Map<Object, Integer> fx = freq.get(x.base());
    java.util.Map<Object, Integer> fy = freq.get(y.base());
    double nx = fx.values().stream().mapToInt(Integer::intValue).sum();
    double ny = fy.values().stream().mapToInt(Integer::intValue).sum();
    if (nx == 0 || ny == 0) {
      return 0;
    }
    double matches = 0;
    for (var e : fx.entrySet()) {
      Integer o = fy.get(e.getKey());
      if (o != null) {
        matches += (double) e.getValue() * o;
      }
    }
    return matches / (nx * ny);
  }

  /** A generated query: {@code ordered} when it has a top-level ORDER BY over all its output columns. */
  record Query(String sql, boolean ordered, boolean mayError, String shape) {
  }

  /** A generated data change; {@code mayError} when it may legitimately fail (e.g. duplicate key). */
  record Dml(String sql, Table table, boolean mayError) {
  }

  /** A typed SQL expression. {@code dom}/{@code salt} say which values literals compared with it should take. */
  record Expr(String sql, SqlType type, double bound, boolean nullable, int dom, int salt) {
    Family family() {
      return type.family;
    }
  }

  /** A column in scope; {@code base} is the table column it reads (null for derived-table columns). */
  record RelCol(String qualifier, String name, SqlType type, double bound, boolean nullable, int dom, int salt,
      Column base) {
    Expr ref() {
      return new Expr(qualifier + "." + name, type, bound, nullable, dom, salt);
    }

    RelCol asNullable() {
      return new RelCol(qualifier, name, type, bound, true, dom, salt, base);
    }
  }

  /** A FROM item with its estimated row count. */
  record Rel(String alias, List<RelCol> cols, double rows) {
  }

  /** Name scope of an expression. */
  private static final class Ctx {
    final List<Rel> rels = new ArrayList<>();
    /** Scope a subquery may refer to (correlation); null when uncorrelated. */
    Ctx outer;
    /** True in SELECT/HAVING of an aggregate query: bare columns only through {@link #keys}. */
    boolean agg;
    final List<Expr> keys = new ArrayList<>();
    int subDepth;
    boolean noSubqueries;
    /** DML: no string concatenation (keeps VARCHAR(20) values short). */
    boolean dml;
    /** Subqueries generated in this scope are uncorrelated. */
    boolean noCorrelation;
    /** The FROM clause of this scope has an outer join. */
    boolean hasOuterJoin;

    Ctx copyPlain() {
      Ctx c = new Ctx();
      c.rels.addAll(rels);
      c.outer = outer;
      c.subDepth = subDepth;
      c.noSubqueries = noSubqueries;
      c.dml = dml;
      c.noCorrelation = noCorrelation;
      c.hasOuterJoin = hasOuterJoin;
      return c;
    }

    List<RelCol> cols(Family fam) {
      List<RelCol> out = new ArrayList<>();
      for (Rel rel : rels) {
        for (RelCol c : rel.cols()) {
          if (fam == null || c.type().family == fam) {
            out.add(c);
          }
        }
      }
      return out;
    }
  }

  /** A SELECT without ORDER BY, with its output columns (named c0, c1, ...). */
  private record Sel(String sql, List<Expr> outs) {
  }

  // ============================================================================================================
  // helpers

  private boolean chance(double p) {
    return r.nextDouble() < p;
  }

  private <T> T pick(List<T> xs) {
    return xs.get(r.nextInt(xs.size()));
  }

  private String alias() {
    return "a" + (++aliasSeq);
  }

  private static String neg(long v) {
    return v < 0 ? "(" + v + ")" : Long.toString(v);
  }

  private Family randomFamily(boolean withBool) {
    int k = r.nextInt(withBool ? 12 : 10);
    if (k < 5) {
      return Family.NUM;
    }
    if (k < 8) {
      return Family.STR;
    }
    if (k < 10) {
      return f.dateColumns ? Family.DATE : Family.NUM;
    }
    return Family.BOOL;
  }

  private Rel baseRel(Table t, String alias) {
    List<RelCol> cols = new ArrayList<>();
    for (Column c : t.columns) {
      cols.add(new RelCol(alias, c.name, c.type, c.bound(), !c.notNull, c.domain, c.salt, c));
    }
    return new Rel(alias, cols, t.rowCount);
  }

  // ============================================================================================================
  // literals

  private Expr literal(Object v) {
    String sql = Schema.Values.literal(v);
    if (v instanceof Long l) {
      SqlType t = Math.abs(l) < 2_000_000_000L ? SqlType.INTEGER : SqlType.BIGINT;
      return new Expr(sql, t, Math.abs((double) l), false, 10, 0);
    }
    if (v instanceof BigDecimal b) {
      return new Expr(sql, SqlType.NUMERIC, Math.abs(b.doubleValue()), false, 10, 0);
    }
    if (v instanceof Double d) {
      return new Expr(sql, SqlType.NUMERIC, Math.abs(d), false, 10, 0);
    }
    if (v instanceof String) {
      return new Expr(sql, SqlType.TEXT, 0, false, 10, 0);
    }
    if (v instanceof Boolean) {
      return new Expr(sql, SqlType.BOOLEAN, 0, false, 10, 0);
    }
    return new Expr(sql, SqlType.DATE, 0, false, 10, 0);
  }

  /** A literal of the same type as {@code e}, from the values {@code e} usually takes. */
  private Expr literalLike(Expr e) {
    SqlType t = e.type();
    if (t.isNum() && e.bound() > Schema.Values.bound(t) * 4) {
      // derived expression: small integers still match something
      return literal((long) (r.nextInt(41) - 10));
    }
    return literal(Schema.Values.sample(r, t, Math.max(2, e.dom()), e.salt()));
  }

  private Expr literal(Family fam) {
    return switch (fam) {
      case NUM -> {
        SqlType t = switch (r.nextInt(6)) {
          case 0, 1, 2 -> SqlType.INTEGER;
          case 3 -> f.numericColumns ? SqlType.NUMERIC : SqlType.INTEGER;
          case 4 -> f.doubleColumns ? SqlType.DOUBLE : SqlType.INTEGER;
          default -> SqlType.SMALLINT;
        };
        yield literal(Schema.Values.sample(r, t, 10, r.nextInt(10)));
      }
      case STR -> literal(Schema.Values.sample(r, SqlType.VARCHAR, 15, r.nextInt(30)));
      case DATE -> literal(Schema.Values.sample(r, SqlType.DATE, 10, 0));
      case BOOL -> literal(r.nextBoolean());
    };
  }

  // ============================================================================================================
  // expressions

  private Expr leaf(Ctx c, Family fam) {
    if (c.agg) {
      List<Expr> ks = c.keys.stream().filter(k -> k.family() == fam).collect(Collectors.toList());
      int k = r.nextInt(10);
      if (!ks.isEmpty() && k < 4) {
        return pick(ks);
      }
      if (k < 9) {
        Expr a = aggCall(c, fam);
        if (a != null) {
          return a;
        }
      }
      return literal(fam);
    }
    List<RelCol> cols = c.cols(fam);
    if (c.outer != null && f.correlatedSubqueries && f.nonEquiCorrelation && chance(0.2)) {
      List<RelCol> outer = c.outer.cols(fam);
      if (!outer.isEmpty()) {
        return pick(outer).ref();
      }
    }
    if (!cols.isEmpty() && chance(0.85)) {
      return pick(cols).ref();
    }
    return literal(fam);
  }

  /** An aggregate call of the given result family over the rows of {@code c}, or null if there is none. */
  private Expr aggCall(Ctx c, Family fam) {
    Ctx arg = c.copyPlain();
    arg.outer = null; // no outer references inside aggregate arguments
    arg.noSubqueries = true;
    switch (fam) {
      case NUM: {
        int k = r.nextInt(10);
        if (k == 0) {
          return new Expr("count(*)", SqlType.BIGINT, MAX_ROWS, false, 10, 0);
        }
        if (k == 1) {
          Expr e = value(arg, randomFamily(true), 1);
          if (f.countDistinct && chance(0.5)) {
            return new Expr("count(DISTINCT " + e.sql() + ")", SqlType.BIGINT, MAX_ROWS, false, 10, 0);
          }
          return new Expr("count(" + e.sql() + ")", SqlType.BIGINT, MAX_ROWS, false, 10, 0);
        }
        Expr e = value(arg, Family.NUM, 1);
        for (int i = 0; i < 5 && !f.sumAvgOfBigint && e.type() == SqlType.BIGINT && k <= 6; i++) {
          e = value(arg, Family.NUM, 1);
        }
        if (!f.sumAvgOfBigint && e.type() == SqlType.BIGINT && k <= 6) {
          k = 7; // min / max instead
        }
        if (k <= 4) {
          boolean distinct = f.sumDistinct && chance(0.15);
          SqlType st = e.type().sumType();
          double b = e.bound() * MAX_ROWS;
          return new Expr("sum(" + (distinct ? "DISTINCT " : "") + e.sql() + ")", st, b, true, 10, 0);
        }
        if (k <= 6 && f.avg) {
          return new Expr("avg(" + e.sql() + ")", e.type().avgType(), e.bound(), true, e.dom(), e.salt());
        }
        return new Expr((r.nextBoolean() ? "min(" : "max(") + e.sql() + ")", e.type(), e.bound(), true, e.dom(),
            e.salt());
      }
      case STR:
      case DATE: {
        Expr e = value(arg, fam, 1);
        return new Expr((r.nextBoolean() ? "min(" : "max(") + e.sql() + ")", e.type(), 0, true, e.dom(), e.salt());
      }
      default:
        return null;
    }
  }

  Expr value(Ctx c, Family fam, int depth) {
    if (fam == Family.BOOL) {
      if (depth <= 0 || chance(0.4)) {
        List<RelCol> bools = c.agg ? List.of() : c.cols(Family.BOOL);
        if (!bools.isEmpty() && chance(0.7)) {
          return pick(bools).ref();
        }
        if (c.agg) {
          List<Expr> ks = c.keys.stream().filter(k -> k.family() == Family.BOOL).collect(Collectors.toList());
          if (!ks.isEmpty() && chance(0.5)) {
            return pick(ks);
          }
        }
      }
      return pred(c, Math.max(0, depth - 1));
    }
    if (depth <= 0 || chance(0.45)) {
      return leaf(c, fam);
    }
    return switch (fam) {
      case NUM -> numExpr(c, depth);
      case STR -> strExpr(c, depth);
      case DATE -> dateExpr(c, depth);
      default -> throw new IllegalStateException();
    };
  }

  private Expr numExpr(Ctx c, int depth) {
    for (int attempt = 0; attempt < 6; attempt++) {
      Expr e = numExprOnce(c, depth);
      if (e != null) {
        return e;
      }
    }
    return leaf(c, Family.NUM);
  }

  private Expr numExprOnce(Ctx c, int depth) {
    int k = r.nextInt(20);
    switch (k) {
      case 0, 1, 2, 3, 4, 5: {
        if (!f.arithmetic) {
          return null;
        }
        Expr a = value(c, Family.NUM, depth - 1);
        Expr b = chance(0.5) ? literalLike(a) : value(c, Family.NUM, depth - 1);
        String op = switch (r.nextInt(3)) {
          case 0 -> "+";
          case 1 -> "-";
          default -> f.multiplication ? "*" : "+";
        };
        SqlType t = SqlType.promote(a.type(), b.type());
        double bound = op.equals("*") ? a.bound() * b.bound() : a.bound() + b.bound();
        if (bound > t.limit / 4) {
          return null;
        }
        return new Expr("(" + a.sql() + " " + op + " " + b.sql() + ")", t, bound, a.nullable() || b.nullable(),
            a.dom(), a.salt());
      }
      case 6: {
        if (!f.unaryMinus) {
          return null;
        }
        Expr a = value(c, Family.NUM, depth - 1);
        if (a.type() == SqlType.DOUBLE && !f.negativeZeroDoubles) {
          return new Expr("(0 - " + a.sql() + ")", a.type(), a.bound(), a.nullable(), 10, 0);
        }
        return new Expr("(- " + a.sql() + ")", a.type(), a.bound(), a.nullable(), 10, 0);
      }
      case 7: {
        if (!f.abs) {
          return null;
        }
        Expr a = value(c, Family.NUM, depth - 1);
        return new Expr("abs(" + a.sql() + ")", a.type(), a.bound(), a.nullable(), a.dom(), a.salt());
      }
      case 8: {
        Expr a = value(c, Family.NUM, depth - 1);
        long d = 1 + r.nextInt(7);
        if (r.nextInt(4) == 0) {
          d = -d;
        }
        if (a.type().isIntegral()) {
          if (chance(0.5) ? !f.integerDivision : !f.modulo) {
            return null;
          }
          if (chance(0.5) && f.integerDivision) {
            return new Expr("(" + a.sql() + " / " + neg(d) + ")", SqlType.promote(a.type(), SqlType.INTEGER),
                a.bound(), a.nullable(), 10, 0);
          }
          if (!f.modulo) {
            return null;
          }
          return new Expr("mod(" + a.sql() + ", " + neg(d) + ")", SqlType.promote(a.type(), SqlType.INTEGER),
              Math.abs(d), a.nullable(), 10, 0);
        }
        if (a.type() == SqlType.NUMERIC ? !f.numericDivision : !f.doubleDivision) {
          return null;
        }
        return new Expr("(" + a.sql() + " / " + neg(d) + ")", a.type(), a.bound(), a.nullable(), 10, 0);
      }
      case 9, 10: {
        if (!f.caseExpr || !caseOk(c)) {
          return null;
        }
        return caseExpr(c, Family.NUM, depth);
      }
      case 11: {
        if (!f.coalesce || !caseOk(c)) {
          return null;
        }
        Expr a = value(c, Family.NUM, depth - 1);
        Expr b = chance(0.6) ? literalLike(a) : value(c, Family.NUM, depth - 1);
        return new Expr("COALESCE(" + a.sql() + ", " + b.sql() + ")", SqlType.promote(a.type(), b.type()),
            Math.max(a.bound(), b.bound()), a.nullable() && b.nullable(), a.dom(), a.salt());
      }
      case 12: {
        if (!f.nullif || !caseOk(c)) {
          return null;
        }
        Expr a = value(c, Family.NUM, depth - 1);
        Expr b = literalLike(a);
        return new Expr("NULLIF(" + a.sql() + ", " + b.sql() + ")", SqlType.promote(a.type(), b.type()),
            a.bound(), true, a.dom(), a.salt());
      }
      case 13, 14: {
        if (!f.cast) {
          return null;
        }
        return castToNum(c, depth);
      }
      case 15: {
        if (!f.charLength) {
          return null;
        }
        Expr s = value(c, Family.STR, depth - 1);
        return new Expr("char_length(" + s.sql() + ")", SqlType.INTEGER, 200, s.nullable(), 6, 0);
      }
      case 16, 17: {
        if (!f.scalarSubqueries) {
          return null;
        }
        return scalarSubquery(c, Family.NUM);
      }
      default: {
        if (!f.simpleCase || !caseOk(c)) {
          return null;
        }
        return simpleCase(c, Family.NUM, depth);
      }
    }
  }

  private Expr castToNum(Ctx c, int depth) {
    if (f.castStringLiteralToInteger && chance(0.1)) {
      long v = r.nextInt(50);
      return new Expr("CAST('" + v + "' AS INTEGER)", SqlType.INTEGER, v, false, 10, 0);
    }
    Expr a = value(c, Family.NUM, depth - 1);
    List<SqlType> targets = new ArrayList<>();
    boolean fromInt = a.type().isIntegral();
    boolean okToInt = fromInt || (a.type() == SqlType.NUMERIC ? f.castNumericToInteger : f.castDoubleToInteger);
    if (okToInt && a.bound() < 2.0e9) {
      targets.add(SqlType.INTEGER);
    }
    if (okToInt && a.bound() < 9.0e18) {
      targets.add(SqlType.BIGINT);
    }
    if (okToInt && a.bound() < 30_000) {
      targets.add(SqlType.SMALLINT);
    }
    if ((fromInt || f.castToNumeric) && a.bound() < 9.0e7) {
      targets.add(SqlType.NUMERIC);
    }
    targets.add(SqlType.DOUBLE);
    SqlType t = pick(targets);
    return new Expr(cast(a.sql(), t.ddl), t, a.bound() + 1, a.nullable(), a.dom(), a.salt());
  }

  private String cast(String sql, String type) {
    if (f.pgCastSyntax && chance(0.2)) {
      return f.pgCastAsOperand ? "(" + sql + ")::" + type : "((" + sql + ")::" + type + ")";
    }
    return "CAST(" + sql + " AS " + type + ")";
  }

  private Expr strExpr(Ctx c, int depth) {
    for (int attempt = 0; attempt < 6; attempt++) {
      Expr e = strExprOnce(c, depth);
      if (e != null) {
        return e;
      }
    }
    return leaf(c, Family.STR);
  }

  private Expr strExprOnce(Ctx c, int depth) {
    switch (r.nextInt(10)) {
      case 0, 1: {
        if (!f.upperLower) {
          return null;
        }
        Expr a = value(c, Family.STR, depth - 1);
        return new Expr((r.nextBoolean() ? "upper(" : "lower(") + a.sql() + ")", SqlType.TEXT, 0, a.nullable(),
            a.dom(), a.salt());
      }
      case 2: {
        if (!f.concat || c.dml) {
          return null;
        }
        Expr a = value(c, Family.STR, depth - 1);
        Expr b = chance(0.5) ? literalLike(a) : value(c, Family.STR, depth - 1);
        return new Expr("(" + a.sql() + " || " + b.sql() + ")", SqlType.TEXT, 0, a.nullable() || b.nullable(),
            a.dom(), a.salt());
      }
      case 3, 4: {
        if (!f.caseExpr || !caseOk(c)) {
          return null;
        }
        return chance(0.7) || !f.simpleCase ? caseExpr(c, Family.STR, depth) : simpleCase(c, Family.STR, depth);
      }
      case 5: {
        if (!f.coalesce || !caseOk(c)) {
          return null;
        }
        Expr a = value(c, Family.STR, depth - 1);
        Expr b = literalLike(a);
        return new Expr("COALESCE(" + a.sql() + ", " + b.sql() + ")", SqlType.TEXT, 0, false, a.dom(), a.salt());
      }
      case 6: {
        if (!f.nullif || !caseOk(c)) {
          return null;
        }
        Expr a = value(c, Family.STR, depth - 1);
        return new Expr("NULLIF(" + a.sql() + ", " + literalLike(a).sql() + ")", a.type(), 0, true, a.dom(),
            a.salt());
      }
      case 7, 8: {
        if (!f.cast) {
          return null;
        }
        Family from = switch (r.nextInt(5)) {
          case 0, 1 -> Family.NUM;
          case 2 -> Family.DATE;
          case 3 -> Family.BOOL;
          default -> Family.STR;
        };
        Expr a = value(c, from, depth - 1);
        boolean ok = switch (a.type()) {
          case SMALLINT, INTEGER, BIGINT -> f.castIntegerToVarchar;
          case NUMERIC -> f.castNumericToVarchar;
          case DOUBLE -> f.castDoubleToVarchar;
          case BOOLEAN -> f.castBooleanToVarchar;
          case DATE -> f.castDateToVarchar;
          default -> true;
        };
        if (!ok) {
          return null;
        }
        return new Expr(cast(a.sql(), "VARCHAR(20)"), SqlType.VARCHAR, 0, a.nullable(), a.dom(), a.salt());
      }
      default: {
        if (!f.scalarSubqueries) {
          return null;
        }
        return scalarSubquery(c, Family.STR);
      }
    }
  }

  private Expr dateExpr(Ctx c, int depth) {
    switch (r.nextInt(5)) {
      case 0:
        if (f.caseExpr && caseOk(c)) {
          return caseExpr(c, Family.DATE, depth);
        }
        break;
      case 1:
        if (f.coalesce && caseOk(c)) {
          Expr a = value(c, Family.DATE, depth - 1);
          return new Expr("COALESCE(" + a.sql() + ", " + literalLike(a).sql() + ")", SqlType.DATE, 0, false,
              a.dom(), a.salt());
        }
        break;
      case 2:
        if (f.cast && f.castStringLiteralToDate) {
          Object d = Schema.Values.sample(r, SqlType.DATE, 10, 0);
          return new Expr(cast("'" + d + "'", "DATE"), SqlType.DATE, 0, false, 10, 0);
        }
        break;
      case 3:
        if (f.scalarSubqueries) {
          Expr e = scalarSubquery(c, Family.DATE);
          if (e != null) {
            return e;
          }
        }
        break;
      default:
        break;
    }
    return leaf(c, Family.DATE);
  }

  /** CASE-like expressions (CASE, COALESCE, NULLIF) allowed here? */
  private boolean caseOk(Ctx c) {
    return !c.agg || f.caseInAggregateQueries;
  }

  private Expr caseExpr(Ctx c, Family fam, int depth) {
    int whens = 1 + r.nextInt(2);
    StringBuilder sb = new StringBuilder("CASE");
    SqlType t = null;
    double bound = 0;
    boolean nullable = false;
    Expr first = null;
    for (int i = 0; i < whens; i++) {
      Expr p = pred(c, Math.max(0, depth - 1));
      Expr v = first == null || chance(0.5) ? value(c, fam, depth - 1) : literalLike(first);
      if (first == null) {
        first = v;
      }
      sb.append(" WHEN ").append(p.sql()).append(" THEN ").append(v.sql());
      t = t == null ? v.type() : merge(t, v.type());
      bound = Math.max(bound, v.bound());
      nullable |= v.nullable();
    }
    if (chance(0.8)) {
      Expr v = chance(0.5) ? literalLike(first) : value(c, fam, depth - 1);
      sb.append(" ELSE ").append(v.sql());
      t = merge(t, v.type());
      bound = Math.max(bound, v.bound());
      nullable |= v.nullable();
    } else {
      nullable = true;
    }
    sb.append(" END");
    return new Expr(sb.toString(), t, bound, nullable, first.dom(), first.salt());
  }

  private Expr simpleCase(Ctx c, Family fam, int depth) {
    Family sf = randomFamily(false);
    Expr subject = value(c, sf, depth - 1);
    StringBuilder sb = new StringBuilder("CASE ").append(subject.sql());
    Expr first = null;
    SqlType t = null;
    double bound = 0;
    int whens = 1 + r.nextInt(3);
    for (int i = 0; i < whens; i++) {
      Expr v = first == null ? value(c, fam, depth - 1) : (chance(0.5) ? literalLike(first)
          : value(c, fam, depth - 1));
      if (first == null) {
        first = v;
      }
      sb.append(" WHEN ").append(literalLike(subject).sql()).append(" THEN ").append(v.sql());
      t = t == null ? v.type() : merge(t, v.type());
      bound = Math.max(bound, v.bound());
    }
    boolean hasElse = chance(0.7);
    if (hasElse) {
      Expr v = literalLike(first);
      sb.append(" ELSE ").append(v.sql());
      t = merge(t, v.type());
      bound = Math.max(bound, v.bound());
    }
    sb.append(" END");
    return new Expr(sb.toString(), t, bound, true, first.dom(), first.salt());
  }

  private static SqlType merge(SqlType a, SqlType b) {
    if (a.isNum() && b.isNum()) {
      return SqlType.promote(a, b);
    }
    if (a.family == Family.STR) {
      return a == b ? a : SqlType.TEXT;
    }
    return a;
  }

  // ============================================================================================================
  // subqueries

  private Ctx subCtx(Ctx c) {
    Ctx in = new Ctx();
    in.outer = !c.agg && !c.noCorrelation && f.correlatedSubqueries ? c : null;
    in.subDepth = c.subDepth + 1;
    in.dml = c.dml;
    in.noSubqueries = !f.nestedSubqueries;
    return in;
  }

  /** "a.x = outer.y" for some pair of same-family columns, or null. */
  private String correlation(Ctx in) {
    if (in.outer == null) {
      return null;
    }
    List<RelCol> inner = in.cols(null);
    Collections.shuffle(inner, r);
    for (RelCol ic : inner) {
      if (ic.type().family == Family.BOOL) {
        continue;
      }
      List<RelCol> oc = in.outer.cols(ic.type().family);
      if (!oc.isEmpty()) {
        return ic.ref().sql() + " = " + pick(oc).ref().sql();
      }
    }
    return null;
  }

  private String subWhere(Ctx in) {
    List<String> conj = new ArrayList<>();
    if (in.outer != null && chance(0.75)) {
      String corr = correlation(in);
      if (corr != null) {
        conj.add(corr);
      }
    }
    if (chance(0.6)) {
      conj.add(pred(in, 1).sql());
    }
    return conj.isEmpty() ? "" : " WHERE " + String.join(" AND ", conj);
  }

  private Expr scalarSubquery(Ctx c, Family fam) {
    if (c.noSubqueries || c.subDepth >= 2 || c.subDepth == 1 && chance(0.7)) {
      return null;
    }
    Ctx in = subCtx(c);
    Table t = pick(schema.tables);
    String a = alias();
    in.rels.add(baseRel(t, a));
    Ctx aggCtx = in.copyPlain();
    aggCtx.agg = true;
    Expr agg = aggCall(aggCtx, fam);
    if (agg == null) {
      return null;
    }
    String sql = "(SELECT " + agg.sql() + " FROM " + t.name + " AS " + a + subWhere(in) + ")";
    boolean nullable = !agg.sql().startsWith("count(");
    return new Expr(sql, agg.type(), agg.bound(), nullable, agg.dom(), agg.salt());
  }

  private Expr existsPred(Ctx c) {
    Ctx in = subCtx(c);
    Table t = pick(schema.tables);
    String a = alias();
    in.rels.add(baseRel(t, a));
    boolean not = f.notExists && (!f.exists || chance(0.4));
    String sel = chance(0.5) ? "1" : a + "." + pick(t.columns).name;
    String where;
    if (f.uncorrelatedExists) {
      where = subWhere(in);
    } else {
      String corr = correlation(in);
      if (corr == null) {
        return null;
      }
      where = " WHERE " + corr + (chance(0.6) ? " AND " + pred(in, 1).sql() : "");
    }
    return new Expr((not ? "NOT " : "") + "EXISTS (SELECT " + sel + " FROM " + t.name + " AS " + a + where
        + ")", SqlType.BOOLEAN, 0, false, 10, 0);
  }

  private Expr inSubqueryPred(Ctx c) {
    Family fam = randomFamily(false);
    boolean not = f.notInSubquery && (!f.inSubquery || chance(0.35));
    Ctx in = subCtx(c);
    if (not && !f.correlatedNotIn) {
      in.outer = null;
    }
    Table t = pick(schema.tables);
    String a = alias();
    Rel rel = baseRel(t, a);
    in.rels.add(rel);
    List<RelCol> cands = in.cols(fam);
    if (cands.isEmpty()) {
      return null;
    }
    Expr inner = chance(0.8) ? pick(cands).ref() : value(in, fam, 1);
    Ctx left = c;
    if (!f.subqueryInInOperand && !c.noSubqueries) {
      left = c.copyPlain();
      left.agg = c.agg;
      left.keys.addAll(c.keys);
      left.noSubqueries = true;
    }
    Expr outer = value(left, fam, 1);
    return new Expr("(" + outer.sql() + (not ? " NOT IN " : " IN ") + "(SELECT " + (chance(0.2) ? "DISTINCT " : "")
        + inner.sql() + " FROM " + t.name + " AS " + a + subWhere(in) + "))", SqlType.BOOLEAN, 0, true, 10, 0);
  }

  // ============================================================================================================
  // predicates

  Expr pred(Ctx c, int depth) {
    if (depth > 0) {
      int k = r.nextInt(10);
      if (k < 3) {
        Expr a = pred(c, depth - 1);
        Expr b = pred(c, depth - 1);
        return new Expr("(" + a.sql() + (r.nextBoolean() ? " AND " : " OR ") + b.sql() + ")", SqlType.BOOLEAN, 0,
            true, 10, 0);
      }
      if (k == 3) {
        return new Expr("(NOT " + pred(c, depth - 1).sql() + ")", SqlType.BOOLEAN, 0, true, 10, 0);
      }
    }
    for (int attempt = 0; attempt < 8; attempt++) {
      Expr e = atom(c, depth);
      if (e != null) {
        return e;
      }
    }
    Expr a = value(c, Family.NUM, 0);
    return new Expr("(" + a.sql() + " > " + literalLike(a).sql() + ")", SqlType.BOOLEAN, 0, true, 10, 0);
  }

  private static final java.util.regex.Pattern COLUMN_REF = java.util.regex.Pattern.compile("\\ba\\d+\\.[a-z]");
  /** The SQL with every parenthesised subquery removed. */
  static String withoutSubqueries(String sql) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < sql.length()) {
      if (sql.startsWith("(SELECT ", i)) {
        int depth = 0;
        boolean str = false;
        int j = i;
        for (; j < sql.length(); j++) {
          char ch = sql.charAt(j);
          if (ch == '\'') {
            str = !str;
          } else if (!str && ch == '(') {
            depth++;
          } else if (!str && ch == ')' && --depth == 0) {
            break;
          }
        }
        out.append("(?)");
        i = j + 1;
      } else {
        out.append(sql.charAt(i++));
      }
    }
    return out.toString();
  }

  private static final java.util.regex.Pattern AGG_CALL =
      java.util.regex.Pattern.compile("\\b(count|sum|avg|min|max)\\(");
  private static final String[] CMP = {"=", "<>", "<", "<=", ">", ">="};
  private static final String[] LIKE_PATTERNS = {
      "a%", "%a", "%b%", "_", "A%", "%", "ab_", "k_", "%l%", "_b%", "x_y", "% %", "", "%o"};

  private Expr atom(Ctx c, int depth) {
    // nested subqueries are kept rare: correlated ones inside correlated ones get expensive quickly
    boolean subOk = !c.noSubqueries && (c.subDepth == 0 || c.subDepth == 1 && chance(0.3));
    int k = r.nextInt(24);
    int vd = Math.min(depth, 1);
    switch (k) {
      case 0, 1, 2, 3, 4, 5, 6: {
        Family fam = randomFamily(true);
        Expr a = value(c, fam, vd);
        Expr b = chance(0.65) ? literalLike(a) : value(c, fam, vd);
        if (!f.selfComparisons && a.sql().equals(b.sql())) {
          b = literalLike(a);
        }
        String op = fam == Family.BOOL && !f.booleanOrdering ? (r.nextBoolean() ? "=" : "<>") : CMP[r.nextInt(6)];
        return new Expr("(" + a.sql() + " " + op + " " + b.sql() + ")", SqlType.BOOLEAN, 0, true, 10, 0);
      }
      case 7, 8: {
        if (!f.between) {
          return null;
        }
        Family fam = r.nextInt(3) == 0 ? Family.DATE : Family.NUM;
        if (r.nextInt(4) == 0) {
          fam = Family.STR;
        }
        Expr a = value(c, fam, vd);
        Expr lo = literalLike(a);
        Expr hi = literalLike(a);
        return new Expr("(" + a.sql() + (chance(0.25) ? " NOT BETWEEN " : " BETWEEN ") + lo.sql() + " AND "
            + hi.sql() + ")", SqlType.BOOLEAN, 0, true, 10, 0);
      }
      case 9, 10: {
        if (!f.inList) {
          return null;
        }
        Family fam = randomFamily(false);
        Expr a = value(c, fam, vd);
        int n = 1 + r.nextInt(4);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          items.add(literalLike(a).sql());
        }
        if (f.nullInInList && chance(0.15)) {
          items.add(r.nextInt(items.size() + 1), "NULL");
        }
        return new Expr("(" + a.sql() + (chance(0.3) ? " NOT IN (" : " IN (") + String.join(", ", items) + "))",
            SqlType.BOOLEAN, 0, true, 10, 0);
      }
      case 11, 12: {
        Expr a = value(c, randomFamily(true), vd);
        return new Expr("(" + a.sql() + (chance(0.4) ? " IS NOT NULL" : " IS NULL") + ")", SqlType.BOOLEAN, 0,
            false, 10, 0);
      }
      case 13, 14: {
        if (!f.like) {
          return null;
        }
        Expr a = value(c, Family.STR, vd);
        String p = LIKE_PATTERNS[r.nextInt(LIKE_PATTERNS.length)];
        return new Expr("(" + a.sql() + (chance(0.25) ? " NOT LIKE '" : " LIKE '") + p + "')", SqlType.BOOLEAN, 0,
            true, 10, 0);
      }
      case 15: {
        List<RelCol> bools = c.agg ? List.of() : c.cols(Family.BOOL);
        if (bools.isEmpty()) {
          return null;
        }
        return pick(bools).ref();
      }
      case 16: {
        if (!f.isDistinctFrom) {
          return null;
        }
        Family fam = randomFamily(true);
        Expr a = value(c, fam, vd);
        Expr b = chance(0.5) ? literalLike(a) : value(c, fam, vd);
        return new Expr("(" + a.sql() + (chance(0.5) ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ") + b.sql()
            + ")", SqlType.BOOLEAN, 0, false, 10, 0);
      }
      case 17, 18: {
        if (!subOk || !(f.exists || f.notExists)) {
          return null;
        }
        return existsPred(c);
      }
      case 19, 20: {
        if (!subOk || !(f.inSubquery || f.notInSubquery)) {
          return null;
        }
        return inSubqueryPred(c);
      }
      case 21: {
        if (!subOk || !f.scalarSubqueries) {
          return null;
        }
        Family fam = r.nextInt(3) == 0 ? Family.STR : Family.NUM;
        Expr s = scalarSubquery(c, fam);
        if (s == null) {
          return null;
        }
        Expr a = value(c, fam, vd);
        return new Expr("(" + a.sql() + " " + CMP[r.nextInt(6)] + " " + s.sql() + ")", SqlType.BOOLEAN, 0, true, 10,
            0);
      }
      default: {
        // a comparison between two columns (join-like filter)
        Family fam = randomFamily(false);
        Expr a = leaf(c, fam);
        Expr b = leaf(c, fam);
        for (int i = 0; i < 5 && !f.selfComparisons && a.sql().equals(b.sql()); i++) {
          b = leaf(c, fam);
        }
        if (!f.selfComparisons && a.sql().equals(b.sql())) {
          return null;
        }
        return new Expr("(" + a.sql() + " " + CMP[r.nextInt(6)] + " " + b.sql() + ")", SqlType.BOOLEAN, 0, true,
            10, 0);
      }
    }
  }

  // ============================================================================================================
  // FROM clause

  /** Adds the FROM clause's relations to {@code c}; returns the clause and extra WHERE conjuncts. */
  private String from(Ctx c, int maxRels, List<String> whereConj) {
    StringBuilder sb = new StringBuilder(" FROM ");
    Rel first = rel(c, sb);
    c.rels.add(first);
    double est = first.rows();
    int n = 1;
    if (maxRels >= 2 && chance(0.55)) {
      n = 2;
      if (maxRels >= 3 && f.threeWayJoins && chance(0.25)) {
        n = 3;
        // past three tables the planner orders the joins heuristically (JoinOrder)
        if (f.manyWayJoins && chance(0.3)) {
          n = 4 + r.nextInt(3);
        }
      }
    }
    for (int i = 1; i < n; i++) {
      List<String> kinds = new ArrayList<>();
      if (f.innerJoin) {
        kinds.addAll(List.of("JOIN", "JOIN", "INNER JOIN", "JOIN"));
      }
      if (f.leftJoin) {
        kinds.addAll(List.of("LEFT JOIN", "LEFT OUTER JOIN", "LEFT JOIN"));
      }
      if (f.rightJoin) {
        kinds.addAll(List.of("RIGHT JOIN", "RIGHT JOIN"));
      }
      if (f.fullJoin) {
        kinds.addAll(List.of("FULL JOIN", "FULL OUTER JOIN"));
      }
      if (f.crossJoin) {
        kinds.add("CROSS JOIN");
      }
      if (f.commaJoin && i == n - 1) {
        kinds.add(",");
      }
      if (kinds.isEmpty()) {
        break;
      }
      String kind = pick(kinds);
      StringBuilder relSql = new StringBuilder();
      Rel rel = rel(c, relSql);
      Eq eq = equiCondition(c, rel, est);
      if (kind.equals(",") || kind.equals("CROSS JOIN")) {
        boolean small = est * rel.rows() <= JOIN_CAP;
        if (!small && eq == null) {
          break;
        }
        if (eq != null && (!small || chance(0.8))) {
          whereConj.add(eq.sql());
          est = eq.rows();
        } else {
          est = est * rel.rows();
        }
        sb.append(kind.equals(",") ? ", " : " CROSS JOIN ").append(relSql);
        c.rels.add(rel);
        continue;
      }
      if (eq == null) {
        break;
      }
      double before = est;
      est = eq.rows();
      String on = joinCondition(c, rel, eq, !kind.startsWith("FULL"), before * rel.rows() <= 8 * JOIN_CAP);
      sb.append(' ').append(kind).append(' ').append(relSql).append(" ON ").append(on);
      if (!kind.contains("INNER") && !kind.equals("JOIN")) {
        c.hasOuterJoin = true;
        if (!f.correlatedSubqueriesWithOuterJoins) {
          c.noCorrelation = true;
        }
      }
      if (kind.startsWith("LEFT") || kind.startsWith("FULL")) {
        rel = nullable(rel);
      }
      if (kind.startsWith("RIGHT") || kind.startsWith("FULL")) {
        for (int j = 0; j < c.rels.size(); j++) {
          c.rels.set(j, nullable(c.rels.get(j)));
        }
      }
      c.rels.add(rel);
    }
    return sb.toString();
  }

  /** An equality join condition and the estimated size of the join it makes. */
  private record Eq(String sql, double rows) {
  }

  private static Rel nullable(Rel rel) {
    return new Rel(rel.alias(), rel.cols().stream().map(RelCol::asNullable).collect(Collectors.toList()),
        rel.rows());
  }

  private Rel rel(Ctx c, StringBuilder sb) {
    String a = alias();
    if (f.derivedTables && c.subDepth < 1 && chance(0.12)) {
      Ctx dc = new Ctx();
      dc.subDepth = c.subDepth + 1;
      List<Family> fams = new ArrayList<>();
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        fams.add(randomFamily(false));
      }
      Sel inner = chance(0.5) && f.groupBy ? aggregateSelect(dc, fams, 2) : plainSelect(dc, fams, 1);
      String sql = inner.sql();
      if (f.limitInDerivedTable && f.orderBy && f.limit && chance(0.3)) {
        sql += orderBy(inner.outs().size(), true);
      }
      sb.append('(').append(sql).append(") AS ").append(a);
      List<RelCol> cols = new ArrayList<>();
      for (int i = 0; i < inner.outs().size(); i++) {
        Expr e = inner.outs().get(i);
        cols.add(new RelCol(a, "c" + i, e.type(), e.bound(), e.nullable(), e.dom(), e.salt(), null));
      }
      return new Rel(a, cols, DERIVED_ROWS);
    }
    Table t = pick(schema.tables);
    sb.append(t.name).append(" AS ").append(a);
    return baseRel(t, a);
  }

  /** An equality between a column of {@code rel} and one in scope keeping the join below the cap, or null. */
  private Eq equiCondition(Ctx c, Rel rel, double est) {
    List<Eq> ok = new ArrayList<>();
    for (RelCol m : rel.cols()) {
      if (m.type().family == Family.BOOL) {
        continue;
      }
      for (RelCol o : c.cols(m.type().family)) {
        double rows = est * rel.rows() * selectivity(m, o);
        if (rows <= JOIN_CAP) {
          ok.add(new Eq(m.ref().sql() + " = " + o.ref().sql(), rows));
        }
      }
    }
    return ok.isEmpty() ? null : pick(ok);
  }

  private String joinCondition(Ctx c, Rel rel, Eq eq, boolean extraAllowed, boolean orAllowed) {
    String on = eq.sql();
    if (chance(0.2)) {
      Eq eq2 = equiCondition(c, rel, JOIN_CAP);
      if (eq2 != null) {
        on = on + " AND " + eq2.sql();
      }
    }
    if (extraAllowed && f.nonEquiJoinConditions && chance(0.3)) {
      Ctx onCtx = new Ctx();
      onCtx.rels.addAll(c.rels);
      onCtx.rels.add(rel);
      onCtx.noSubqueries = true;
      on = on + (!orAllowed || chance(0.85) ? " AND " : " OR ") + pred(onCtx, 0).sql();
    }
    return on;
  }

  // ============================================================================================================
  // SELECTs

  private Sel plainSelect(Ctx c, List<Family> fams, int maxRels) {
    List<String> where = new ArrayList<>();
    String from = from(c, maxRels, where);
    if (chance(0.7)) {
      where.add(pred(c, 2).sql());
    }
    List<Expr> outs = new ArrayList<>();
    StringBuilder sb = new StringBuilder("SELECT ");
    int distinctAt = sb.length();
    boolean distinct = f.distinct && chance(0.15);
    Ctx sc = c;
    if (!f.correlatedSubqueriesInSelectList) {
      sc = c.copyPlain();
      sc.noCorrelation = true;
    }
    for (int i = 0; i < fams.size(); i++) {
      Family fam = fams.get(i);
      Expr e;
      if (fam == Family.BOOL && !f.booleanInSelectList) {
        List<RelCol> bools = c.cols(Family.BOOL);
        e = bools.isEmpty() ? literal(true) : pick(bools).ref();
      } else {
        e = value(sc, fam, chance(0.5) ? 0 : 2);
      }
      outs.add(e);
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(e.sql()).append(" AS c").append(i);
    }
    if (distinct && !f.distinctOverConstants && outs.stream().noneMatch(e -> COLUMN_REF.matcher(e.sql()).find())) {
      distinct = false; // only constants in the select list
    }
    if (distinct) {
      sb.insert(distinctAt, "DISTINCT ");
    }
    sb.append(from);
    if (!where.isEmpty()) {
      sb.append(" WHERE ").append(String.join(" AND ", where));
    }
    return new Sel(sb.toString(), outs);
  }

  private Sel aggregateSelect(Ctx c, List<Family> fams, int maxRels) {
    List<String> where = new ArrayList<>();
    String from = from(c, maxRels, where);
    if (chance(0.6)) {
      where.add(pred(c, 1).sql());
    }
    Ctx ac = c.copyPlain();
    ac.agg = true;
    ac.outer = null;
    int nkeys = f.globalAggregates && (!f.groupBy || chance(0.15)) ? 0 : 1 + r.nextInt(3);
    List<RelCol> all = c.cols(null);
    Collections.shuffle(all, r);
    for (int i = 0; i < nkeys && i < all.size(); i++) {
      ac.keys.add(all.get(i).ref());
    }
    List<Expr> outs = new ArrayList<>();
    List<String> items = new ArrayList<>();
    List<Expr> unusedKeys = new ArrayList<>(ac.keys);
    for (Family fam : fams) {
      Expr e = null;
      for (Expr k : unusedKeys) {
        if (k.family() == fam && chance(0.7)) {
          e = k;
          break;
        }
      }
      if (e != null) {
        unusedKeys.remove(e);
      } else if (fam == Family.BOOL) {
        e = pred(ac, 1);
      } else {
        e = chance(0.6) ? aggCall(ac, fam) : value(ac, fam, 1);
        if (e == null) {
          e = value(ac, fam, 1);
        }
      }
      if (ac.keys.isEmpty() && !f.constantsInGlobalAggregates && !AGG_CALL.matcher(withoutSubqueries(e.sql())).find()) {
        Expr a = aggCall(ac, fam == Family.BOOL ? Family.NUM : fam);
        e = fam == Family.BOOL ? new Expr("(" + a.sql() + " IS NULL)", SqlType.BOOLEAN, 0, false, 10, 0) : a;
      }
      outs.add(e);
      items.add(e.sql() + " AS c" + (outs.size() - 1));
    }
    StringBuilder sb = new StringBuilder("SELECT ");
    if (f.distinct && chance(0.08)) {
      sb.append("DISTINCT ");
    }
    sb.append(String.join(", ", items)).append(from);
    if (!where.isEmpty()) {
      sb.append(" WHERE ").append(String.join(" AND ", where));
    }
    if (!ac.keys.isEmpty()) {
      sb.append(" GROUP BY ").append(ac.keys.stream().map(Expr::sql).collect(Collectors.joining(", ")));
    }
    if (f.having && chance(0.35)) {
      sb.append(" HAVING ").append(pred(ac, 1).sql());
    }
    return new Sel(sb.toString(), outs);
  }

  private String orderBy(int ncols, boolean forceLimit) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < ncols; i++) {
      idx.add(i);
    }
    Collections.shuffle(idx, r);
    boolean ordinal = f.orderByOrdinal && chance(0.25);
    List<String> items = new ArrayList<>();
    for (int i : idx) {
      String item = ordinal ? Integer.toString(i + 1) : "c" + i;
      int dir = r.nextInt(3);
      if (dir == 1) {
        item += " ASC";
      } else if (dir == 2) {
        item += " DESC";
      }
      if (f.nullsFirstLast) {
        int nulls = r.nextInt(3);
        if (nulls == 1) {
          item += " NULLS FIRST";
        } else if (nulls == 2) {
          item += " NULLS LAST";
        }
      }
      items.add(item);
    }
    StringBuilder sb = new StringBuilder(" ORDER BY ").append(String.join(", ", items));
    if (f.limit && (forceLimit || chance(0.35))) {
      sb.append(" LIMIT ").append(r.nextInt(25));
    }
    if (f.offset && chance(0.2)) {
      sb.append(" OFFSET ").append(r.nextInt(12));
    }
    return sb.toString();
  }

  private List<Family> randomFamilies(int max) {
    int n = 1 + r.nextInt(max);
    List<Family> fams = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fams.add(randomFamily(true));
    }
    return fams;
  }

  // ============================================================================================================
  // queries

  Query nextQuery() {
    aliasSeq = 0;
    int k = r.nextInt(100);
    if (k < 4 && f.errorQueries) {
      return errorQuery();
    }
    if (k < 16) {
      Query q = setOpQuery();
      if (q != null) {
        return q;
      }
    }
    if (k < 24) {
      return indexProbe();
    }
    Ctx c = new Ctx();
    boolean agg = (f.groupBy || f.globalAggregates) && k < 55;
    Sel s = agg ? aggregateSelect(c, randomFamilies(4), 3) : plainSelect(c, randomFamilies(4), 3);
    if (f.orderBy && chance(0.5)) {
      return new Query(s.sql() + orderBy(s.outs().size(), false), true, false, agg ? "aggregate" : "select");
    }
    return new Query(s.sql(), false, false, agg ? "aggregate" : "select");
  }

  private Query setOpQuery() {
    List<String> ops = new ArrayList<>();
    if (f.union) {
      ops.add("UNION");
    }
    if (f.unionAll) {
      ops.add("UNION ALL");
    }
    if (f.intersect) {
      ops.add("INTERSECT");
    }
    if (f.intersectAll) {
      ops.add("INTERSECT ALL");
    }
    if (f.except) {
      ops.add("EXCEPT");
    }
    if (f.exceptAll) {
      ops.add("EXCEPT ALL");
    }
    if (ops.isEmpty()) {
      return null;
    }
    List<Family> fams = randomFamilies(3);
    int n = f.setOpChains && chance(0.25) ? 3 : 2;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      Ctx c = new Ctx();
      Sel s = chance(0.3) && f.groupBy ? aggregateSelect(c, fams, 2) : plainSelect(c, fams, 2);
      if (i > 0) {
        sb.append(' ').append(pick(ops)).append(' ');
      }
      sb.append(s.sql());
    }
    if (f.orderBy && chance(0.5)) {
      String order = orderBy(fams.size(), false);
      if (!f.limitOnSetOps) {
        order = order.replaceAll(" (LIMIT|OFFSET) \\d+", "");
      }
      return new Query(sb + order, true, false, "setop");
    }
    return new Query(sb.toString(), false, false, "setop");
  }

  /** Point and range lookups on indexed / key columns, ordered along the index. */
  private Query indexProbe() {
    Table t = pick(schema.tables);
    List<List<Schema.IndexColumn>> keys = new ArrayList<>();
    if (!t.primaryKey.isEmpty()) {
      keys.add(t.primaryKey.stream().map(c -> new Schema.IndexColumn(c, false)).collect(Collectors.toList()));
    }
    for (Schema.Index ix : t.indexes) {
      keys.add(ix.columns());
    }
    String a = alias();
    Rel rel = baseRel(t, a);
    Ctx c = new Ctx();
    c.rels.add(rel);
    List<Schema.IndexColumn> key = keys.isEmpty()
        ? List.of(new Schema.IndexColumn(pick(t.columns), false)) : pick(keys);
    List<String> conj = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      Column col = key.get(i).column();
      Expr e = new Expr(a + "." + col.name, col.type, col.bound(), !col.notNull, col.domain, col.salt);
      int kind = r.nextInt(i == 0 ? 6 : 8);
      if (kind >= 6) {
        break; // prefix only
      }
      switch (kind) {
        case 0, 1 -> conj.add(e.sql() + " = " + literalLike(e).sql());
        case 2 -> conj.add(e.sql() + (r.nextBoolean() ? " > " : " <= ") + literalLike(e).sql());
        case 3 -> conj.add(e.sql() + " BETWEEN " + literalLike(e).sql() + " AND " + literalLike(e).sql());
        case 4 -> conj.add(e.sql() + " IN (" + literalLike(e).sql() + ", " + literalLike(e).sql() + ")");
        default -> conj.add(e.sql() + (r.nextBoolean() ? " IS NULL" : " IS NOT NULL"));
      }
      if (kind != 0 && kind != 1) {
        break; // a range ends the usable prefix
      }
    }
    List<Column> cols = new ArrayList<>(t.columns);
    StringBuilder sb = new StringBuilder("SELECT ");
    for (int i = 0; i < cols.size(); i++) {
      sb.append(i > 0 ? ", " : "").append(a).append('.').append(cols.get(i).name).append(" AS c").append(i);
    }
    sb.append(" FROM ").append(t.name).append(" AS ").append(a);
    if (!conj.isEmpty()) {
      sb.append(" WHERE ").append(String.join(" AND ", conj));
    }
    if (!f.orderBy) {
      return new Query(sb.toString(), false, false, "index-probe");
    }
    // ORDER BY along the index (its directions), then every other column: a total order
    List<String> order = new ArrayList<>();
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      rest.add(i);
    }
    boolean flip = chance(0.3);
    for (Schema.IndexColumn ic : key) {
      int i = cols.indexOf(ic.column());
      rest.remove((Integer) i);
      order.add("c" + i + ((ic.desc() ^ flip) ? " DESC" : ""));
    }
    for (int i : rest) {
      order.add("c" + i);
    }
    sb.append(" ORDER BY ").append(String.join(", ", order));
    if (f.limit && chance(0.3)) {
      sb.append(" LIMIT ").append(1 + r.nextInt(10));
    }
    return new Query(sb.toString(), true, false, "index-probe");
  }

  private Query errorQuery() {
    Table t = pick(schema.tables);
    String a = alias();
    Column ic = t.columns.stream().filter(c -> c.type == SqlType.INTEGER).findFirst().orElseThrow();
    int kind = r.nextInt(4);
    if (kind == 2 && !f.scalarSubqueryRowCountError) {
      kind = 0;
    }
    switch (kind) {
      case 0:
        return new Query("SELECT " + a + "." + ic.name + " / 0 AS c0 FROM " + t.name + " AS " + a, false, true,
            "error");
      case 1:
        return new Query("SELECT " + a + "." + ic.name + " / (" + a + "." + ic.name + " - " + a + "." + ic.name
            + ") AS c0 FROM " + t.name + " AS " + a, false, true, "error");
      case 2: {
        Table u = pick(schema.tables);
        String b = alias();
        return new Query("SELECT " + a + "." + ic.name + " AS c0, (SELECT " + b + "." + u.columns.get(0).name
            + " FROM " + u.name + " AS " + b + ") AS c1 FROM " + t.name + " AS " + a, false, true, "error");
      }
      default: {
        Column sc = t.columns.stream().filter(c -> c.type.family == Family.STR).findFirst().orElseThrow();
        return new Query("SELECT CAST(" + a + "." + sc.name + " AS INTEGER) AS c0 FROM " + t.name + " AS " + a
            + " WHERE " + a + "." + sc.name + " IN ('a', 'hello', 'k1')", false, true, "error");
      }
    }
  }

  // ============================================================================================================
  // DML

  Dml nextDml() {
    aliasSeq = 0;
    for (int attempt = 0; attempt < 20; attempt++) {
      int k = r.nextInt(10);
      Dml d = null;
      if (k < 4 && f.update) {
        d = update();
      } else if (k < 6 && f.delete) {
        d = delete();
      } else if (k < 8 && f.insertSelect) {
        d = insertSelect();
      } else if (f.insertValues) {
        d = insertValues();
      }
      if (d != null) {
        return d;
      }
    }
    throw new IllegalStateException("no DML feature enabled");
  }

  private Ctx dmlCtx(Table t) {
    Ctx c = new Ctx();
    c.rels.add(baseRel(t, t.name));
    c.dml = true;
    c.noSubqueries = !f.dmlSubqueries;
    return c;
  }

  /** A value for column {@code col} computed in {@code c}; sets mayError[0] when it may break NOT NULL. */
  private String assignment(Ctx c, Column col, boolean[] mayError) {
    if (!f.updateFromExpressions || chance(0.35)) {
      if (!col.notNull && chance(0.1)) {
        return "NULL";
      }
      if (col.notNull && f.constraintViolations && chance(0.03)) {
        mayError[0] = true;
        return "NULL";
      }
      return Schema.Values.literal(Schema.Values.sample(r, col.type, col.domain, col.salt));
    }
    for (int attempt = 0; attempt < 10; attempt++) {
      Expr e = value(c, col.type.family, 1 + r.nextInt(2));
      if (col.type.isNum()) {
        if (e.bound() > col.bound()) { // keep the data inside the bounds the generator assumes
          continue;
        }
        boolean needsCast = col.type.isIntegral() && !e.type().isIntegral()
            || col.type == SqlType.SMALLINT && e.type() != SqlType.SMALLINT
            || col.type == SqlType.INTEGER && e.type() == SqlType.BIGINT;
        if (needsCast && !f.assignmentCasts) {
          continue;
        }
      }
      if (col.notNull && e.nullable()) {
        if (!f.constraintViolations) {
          continue;
        }
        mayError[0] = true;
      }
      return e.sql();
    }
    return Schema.Values.literal(Schema.Values.sample(r, col.type, col.domain, col.salt));
  }

  private Dml update() {
    Table t = pick(schema.tables);
    List<Column> cols = t.updatable();
    if (cols.isEmpty()) {
      return null;
    }
    Collections.shuffle(cols, r);
    int n = 1 + (cols.size() > 1 && chance(0.3) ? 1 : 0);
    Ctx c = dmlCtx(t);
    boolean[] mayError = {false};
    List<String> sets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sets.add(cols.get(i).name + " = " + assignment(c, cols.get(i), mayError));
    }
    StringBuilder sb = new StringBuilder("UPDATE ").append(t.name).append(" SET ").append(String.join(", ", sets));
    if (f.updateFrom && chance(0.15) && !mayError[0]) {
      Dml joined = updateFrom(t, cols.get(0));
      if (joined != null) {
        return joined;
      }
    }
    if (chance(0.9)) {
      sb.append(" WHERE ").append(pred(c, 1).sql());
    }
    return new Dml(returning(sb, t), t, mayError[0]);
  }

  /** {@code sb} with a RETURNING list of some of {@code t}'s columns, sometimes. */
  private String returning(StringBuilder sb, Table t) {
    if (f.returning && chance(0.25)) {
      List<Column> cols = new ArrayList<>(t.columns);
      Collections.shuffle(cols, r);
      List<String> names = new ArrayList<>();
      for (Column col : cols.subList(0, 1 + r.nextInt(Math.min(2, cols.size())))) {
        names.add(t.name + "." + col.name); // qualified: an UPDATE ... FROM has the list's columns too
      }
      sb.append(" RETURNING ").append(chance(0.2) ? t.name + ".*" : String.join(", ", names));
    }
    return sb.toString();
  }

  /**
   * {@code UPDATE t SET col = <another table's column of col's type> FROM other o WHERE t.x = o.y}, joining on two
   * columns of one type; null when the tables have no such pair. The value set comes from a row matched by the join
   * (several may match: then the target's key must make the choice unique, so only a key column of o is compared).
   */
  private Dml updateFrom(Table t, Column target) {
    List<Table> others = new ArrayList<>(schema.tables);
    others.remove(t);
    Collections.shuffle(others, r);
    for (Table o : others) {
      List<Column> key = o.primaryKey;
      if (key.size() != 1) {
        continue;
      }
      Column ok = key.get(0);
      for (Column tc : t.columns) {
        if (tc.type != ok.type) {
          continue;
        }
        for (Column value : o.columns) {
          if (value.type != target.type || target.notNull && !value.notNull || value.bound() > target.bound()) {
            continue;
          }
          StringBuilder sb = new StringBuilder("UPDATE ").append(t.name).append(" SET ").append(target.name)
              .append(" = o.").append(value.name).append(" FROM ").append(o.name).append(" o WHERE ")
              .append(t.name).append('.').append(tc.name).append(" = o.").append(ok.name);
          return new Dml(returning(sb, t), t, false);
        }
      }
    }
    return null;
  }

  private Dml delete() {
    Table t = pick(schema.tables);
    Ctx c = dmlCtx(t);
    // mostly narrow deletes: the tables should not run empty
    Expr p = pred(c, chance(0.5) ? 0 : 1);
    if (chance(0.5)) {
      Column col = pick(t.columns);
      Expr e = new Expr(t.name + "." + col.name, col.type, col.bound(), !col.notNull, col.domain, col.salt);
      p = new Expr("(" + p.sql() + " AND " + e.sql() + " = " + literalLike(e).sql() + ")", SqlType.BOOLEAN, 0,
          true, 10, 0);
    }
    return new Dml(returning(new StringBuilder("DELETE FROM " + t.name + (chance(0.01) ? "" : " WHERE " + p.sql())),
        t), t, false);
  }

  private Dml insertValues() {
    Table t = pick(schema.tables);
    int n = 1 + r.nextInt(3);
    boolean dupKey = f.constraintViolations && !t.uniqueKeys().isEmpty() && chance(0.15);
    List<Object[]> original = data.get(schema.tables.indexOf(t));
    List<String> rows = new ArrayList<>();
    boolean mayError = false;
    for (int i = 0; i < n; i++) {
      Object[] row = new Object[t.columns.size()];
      int u = 2000 + (insertSeq++);
      for (int j = 0; j < row.length; j++) {
        Column col = t.columns.get(j);
        if (col.primaryKey || col.unique) {
          row[j] = Schema.Values.unique(col.type, u);
        } else {
          row[j] = !col.notNull && chance(0.15) ? null : Schema.Values.sample(r, col.type, col.domain, col.salt);
        }
      }
      if (dupKey && i == n - 1) {
        // copy one unique key from an original row: duplicate key unless it was deleted or changed since
        Object[] src = pick(original);
        List<Column> key = pick(t.uniqueKeys());
        for (Column col : key) {
          int j = t.columns.indexOf(col);
          row[j] = src[j];
        }
        mayError = true;
      }
      List<String> lits = new ArrayList<>();
      for (int j = 0; j < row.length; j++) {
        lits.add(Schema.Values.literal(row[j], t.columns.get(j).type, f.plainDecimalDoubleLiterals));
      }
      rows.add("(" + String.join(", ", lits) + ")");
    }
    if (!f.multiRowInsert) {
      rows = rows.subList(0, 1);
    }
    StringBuilder sb = new StringBuilder("INSERT INTO " + t.name + " (" + t.columnList() + ") VALUES "
        + String.join(", ", rows));
    if (dupKey && f.onConflict && !t.primaryKey.isEmpty() && chance(0.6)) {
      // the duplicate resolved as an upsert: nothing, or the new row's values for the non-key columns
      List<String> key = t.primaryKey.stream().map(col -> col.name).toList();
      List<String> sets = new ArrayList<>();
      for (Column col : t.columns) {
        if (!col.primaryKey && !col.unique) {
          sets.add(col.name + " = EXCLUDED." + col.name);
        }
      }
      sb.append(" ON CONFLICT (").append(String.join(", ", key)).append(") ");
      sb.append(sets.isEmpty() || chance(0.4) ? "DO NOTHING" : "DO UPDATE SET " + String.join(", ", sets));
      // another unique key may still collide, and one statement may give one key twice (21000)
      return new Dml(returning(sb, t), t, true);
    }
    return new Dml(returning(sb, t), t, mayError);
  }

  private Dml insertSelect() {
    Table t = pick(schema.tables);
    Table src = chance(0.6) ? t : pick(schema.tables);
    String a = alias();
    Ctx c = new Ctx();
    c.rels.add(baseRel(src, a));
    c.dml = true;
    c.noSubqueries = !f.dmlSubqueries;
    boolean[] mayError = {false};
    int seq = ++insertSeq;
    List<String> exprs = new ArrayList<>();
    // which key columns are made fresh
    java.util.Set<Column> fresh = new java.util.HashSet<>();
    for (List<Column> key : t.uniqueKeys()) {
      boolean ok = false;
      if (src == t) {
        for (Column col : key) {
          if (col.type.isIntegral() || col.type == SqlType.NUMERIC) {
            fresh.add(col);
            ok = true;
            break;
          }
        }
      }
      if (!ok && key.stream().noneMatch(col -> col.notNull)) {
        fresh.addAll(key); // NULLs
        ok = true;
      }
      if (!ok) {
        mayError[0] = true;
      }
    }
    for (Column col : t.columns) {
      if (fresh.contains(col)) {
        if (!col.notNull && !col.primaryKey && src != t) {
          exprs.add("NULL");
          continue;
        }
        if (!col.type.isIntegral() && col.type != SqlType.NUMERIC) {
          exprs.add("NULL");
          continue;
        }
        long offset = col.type == SqlType.SMALLINT ? 1000L * (1 + seq % 25) : 100_000L * seq;
        exprs.add(a + "." + col.name + " + " + offset);
        continue;
      }
      if (src == t && chance(0.6)) {
        exprs.add(a + "." + col.name);
        continue;
      }
      exprs.add(assignment(c, col, mayError));
    }
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(t.name).append(" (").append(t.columnList())
        .append(") SELECT ").append(String.join(", ", exprs)).append(" FROM ").append(src.name).append(" AS ")
        .append(a);
    // narrow: the tables should not grow much
    Column col = pick(src.columns);
    Expr e = new Expr(a + "." + col.name, col.type, col.bound(), !col.notNull, col.domain, col.salt);
    sb.append(" WHERE ").append(pred(c, 1).sql()).append(" AND ").append(e.sql()).append(" = ")
        .append(literalLike(e).sql());
    return new Dml(sb.toString(), t, mayError[0] || src != t);
  }
}
