package io.accel.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * What a view's query names, read from its parse tree: the relations of its FROM clauses (sub-queries included,
 * WITH names excluded) and every identifier it uses, for the dependency checks of DROP TABLE, DROP VIEW and ALTER
 * TABLE (PostgreSQL records them as dependencies when the view is created).
 */
public final class ViewReferences {
  /** Calcite's Babel parser reading names as PostgreSQL does (unquoted ones folded to lower case). */
  public static final SqlParser.Config PARSER = SqlParser.config()
      .withParserFactory(SqlBabelParserImpl.FACTORY)
      .withConformance(SqlConformanceEnum.BABEL)
      .withUnquotedCasing(Casing.TO_LOWER)
      .withQuotedCasing(Casing.UNCHANGED)
      .withCaseSensitive(true);

  private final Set<String> relations = new LinkedHashSet<>();
  private final Set<String> names = new HashSet<>();

  private ViewReferences() {
  }

  /** The references of a query as Calcite parses it. */
  public static ViewReferences of(String calciteSql) {
    ViewReferences r = new ViewReferences();
    SqlNode node;
    try {
      node = SqlParser.create(calciteSql, PARSER).parseQuery();
    } catch (SqlParseException e) {
      throw AccelException.syntax(e.getMessage());
    }
    Set<String> withNames = new HashSet<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlWith with) {
          for (SqlNode item : with.withList) {
            withNames.add(((SqlWithItem) item).name.getSimple());
          }
        }
        if (call instanceof SqlSelect select && select.getFrom() != null) {
          r.from(select.getFrom());
        }
        return super.visit(call);
      }

      @Override
      public Void visit(SqlIdentifier id) {
        for (String name : id.names) {
          if (!name.isEmpty()) {
            r.names.add(name);
          }
        }
        return null;
      }
    });
    r.relations.removeAll(withNames);
    return r;
  }

  /** The names an expression (a CHECK constraint's) uses. */
  public static Set<String> expressionNames(String expression) {
    SqlNode node;
    Set<String> names = new HashSet<>();
    try {
      node = SqlParser.create(expression, PARSER).parseExpression();
    } catch (SqlParseException e) {
      // PostgreSQL syntax Calcite's parser lacks: every word counts (a superset of the names)
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*").matcher(expression);
      while (m.find()) {
        names.add(m.group().toLowerCase(java.util.Locale.ROOT));
      }
      return names;
    }
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlIdentifier id) {
        names.addAll(id.names);
        return null;
      }
    });
    return names;
  }

  /**
   * {@code expression} with the qualifiers naming {@code table} ({@code t.a}, {@code public.t.a}) removed, as
   * PostgreSQL keeps an index's or CHECK's expression: the stored text then survives a rename of the table.
   */
  public static String unqualified(String expression, String table) {
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(expression);
    } catch (AccelException e) {
      return expression;
    }
    StringBuilder out = new StringBuilder();
    int copied = 0;
    for (int i = 0; i + 2 < tokens.size(); i++) {
      int q = i;
      if (tokens.get(i).isName() && tokens.get(i).text().equals("public") && i + 4 < tokens.size()
          && tokens.get(i + 1).isSymbol(".") && tokens.get(i + 2).isName() && tokens.get(i + 3).isSymbol(".")) {
        q = i + 2;
      }
      SqlLexer.Token name = tokens.get(q);
      if (name.isName() && name.text().equals(table) && q + 2 < tokens.size() && tokens.get(q + 1).isSymbol(".")
          && tokens.get(q + 2).isName() && (i == 0 || !tokens.get(i - 1).isSymbol("."))) {
        out.append(expression, copied, tokens.get(i).start());
        copied = tokens.get(q + 2).start();
        i = q + 1;
      }
    }
    return out.append(expression.substring(copied)).toString();
  }

  private void from(SqlNode from) {
    if (from instanceof SqlIdentifier id) {
      relations.add(id.names.get(id.names.size() - 1));
    } else if (from instanceof SqlJoin join) {
      from(join.getLeft());
      from(join.getRight());
    } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      from(call.operand(0));
    }
  }

  /** The relations (tables and views) the query reads by name. */
  public List<String> relations() {
    return new ArrayList<>(relations);
  }

  /**
   * Whether the query may use the column: it names it anywhere. A view's stored query selects its columns by name
   * around the query as written, so a {@code *} counts for the columns it read when the view was created (PostgreSQL
   * expands it then), not for those added since.
   */
  public boolean mayUse(String column) {
    return names.contains(column);
  }
}
