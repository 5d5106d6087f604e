package io.accel.plan;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Matches a query's expressions with the key expressions and predicates of expression and partial indexes: both sides
 * are printed as SQL in one dialect and compared as text (the index's as written in CREATE INDEX and parsed, the
 * query's from the planner's expression over the table's columns), so {@code WHERE lower(email) = ?} finds the index
 * on {@code lower(email)}. Text that does not parse, or an expression that does not print, matches nothing: the scan
 * then reads the table as before.
 */
public final class IndexExpressions {
  private static final SqlParser.Config PARSER = io.accel.sql.ViewReferences.PARSER;
  private static final SqlDialect DIALECT = PostgresqlSqlDialect.DEFAULT;

  /**
   * An index's key expressions (null at a plain column's position and where one does not parse) and its predicate's
   * conjuncts (null without a predicate; a predicate that does not parse makes the index unusable).
   */
  public record Shape(List<String> keys, Set<String> predicate, boolean usable) {
  }

  /** Per definition of a table: a new TableDef (any DDL) plans its expressions again. */
  private static final Cache<TableDef, java.util.Map<Long, Shape>> SHAPES = Caffeine.newBuilder().weakKeys()
      .maximumSize(10_000).build();

  private IndexExpressions() {
  }

  public static Shape shape(TableDef table, IndexDef index) {
    return SHAPES.get(table, t -> new java.util.concurrent.ConcurrentHashMap<>())
        .computeIfAbsent(index.id(), id -> parse(index));
  }

  private static Shape parse(IndexDef index) {
    List<String> keys = new ArrayList<>();
    for (IndexColumn ic : index.columns()) {
      keys.add(ic.isExpression() ? printed(ic.expression()) : null);
    }
    if (index.predicate() == null) {
      return new Shape(keys, null, true);
    }
    SqlNode predicate;
    try {
      predicate = SqlParser.create(index.predicate(), PARSER).parseExpression();
    } catch (SqlParseException | RuntimeException e) {
      return new Shape(keys, null, false);
    }
    Set<String> conjuncts = new HashSet<>();
    collectConjuncts(predicate, conjuncts);
    return new Shape(keys, conjuncts, true);
  }

  private static void collectConjuncts(SqlNode node, Set<String> out) {
    if (node instanceof org.apache.calcite.sql.SqlCall call
        && call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.AND) {
      for (SqlNode operand : call.getOperandList()) {
        collectConjuncts(operand, out);
      }
    } else {
      out.add(canonicalText(node.toSqlString(DIALECT).getSql()));
    }
  }

  /** An expression's text (SQL over a table's columns) in the compared form, or null when it does not parse. */
  public static String canonical(String expression) {
    return printed(expression);
  }

  /** The compared forms of a condition's conjuncts, or null when it does not parse. */
  public static Set<String> conjuncts(String condition) {
    try {
      Set<String> out = new HashSet<>();
      collectConjuncts(SqlParser.create(condition, PARSER).parseExpression(), out);
      return out;
    } catch (SqlParseException | RuntimeException e) {
      return null;
    }
  }

  private static String printed(String expression) {
    try {
      return canonicalText(SqlParser.create(expression, PARSER).parseExpression().toSqlString(DIALECT).getSql());
    } catch (SqlParseException | RuntimeException e) {
      return null;
    }
  }

  /** An expression over the table's columns as SQL text in the form {@link #shape} gives, or null. */
  static String printed(RexNode e, TableDef table) {
    try {
      SqlImplementor.SimpleContext context = new SqlImplementor.SimpleContext(DIALECT,
          i -> new SqlIdentifier(table.columns().get(i).name(), SqlParserPos.ZERO));
      return canonicalText(context.toSql(null, e).toSqlString(DIALECT).getSql());
    } catch (RuntimeException ex) {
      return null;
    }
  }

  /** Whether the query's conjuncts include every conjunct of the index's predicate (true without one). */
  static boolean implied(Shape shape, List<RexNode> conjuncts, TableDef table) {
    if (!shape.usable()) {
      return false;
    }
    if (shape.predicate() == null) {
      return true;
    }
    Set<String> query = new HashSet<>();
    for (RexNode c : conjuncts) {
      for (RexNode d : RelOptUtil.conjunctions(c)) {
        String p = printed(d, table);
        if (p != null) {
          query.add(p);
        }
      }
    }
    return query.containsAll(shape.predicate());
  }

  /**
   * Text compared case-insensitively outside string literals, without identifier quotes and redundant spaces: the
   * parser and the planner spell function names and quote names differently.
   */
  private static String canonicalText(String sql) {
    StringBuilder out = new StringBuilder();
    boolean literal = false;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        literal = !literal;
        out.append(c);
      } else if (literal) {
        out.append(c);
      } else if (c != '"' && !Character.isWhitespace(c)) {
        out.append(Character.toUpperCase(c));
      }
    }
    return out.toString();
  }
}
