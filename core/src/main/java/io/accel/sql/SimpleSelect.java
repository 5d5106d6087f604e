package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A query in the small shape dynamic filters, search screens, reporting tools and ORMs send most:
 * {@code SELECT * | columns | count/sum/min/max(column) FROM table [alias] [, table ... | [INNER] JOIN table ON
 * condition ...] [WHERE condition] [GROUP BY columns] [ORDER BY keys] [LIMIT n] [OFFSET n]}, the conditions made
 * of comparisons, BETWEEN, IN lists and IS [NOT] NULL
 * of columns with integer literals, plain string literals and {@code ?} parameters, under AND, OR and NOT. Such a
 * statement is planned directly (see {@code io.accel.plan.DirectPlanner}) instead of by Calcite's full pipeline.
 *
 * <p>{@link #parse} accepts exactly that grammar and returns null for anything else, however close: the statement
 * then takes the general path, which also reports every error. Names are folded as PostgreSQL folds them.
 */
public record SimpleSelect(List<Item> items, List<TableRef> from, Condition where,
    List<Column> groupBy, List<OrderKey> orderBy, long limit, long offset) {

  /**
   * A table of the FROM clause: its name (one or two parts), alias or null, and for the second and later tables
   * of {@code a JOIN b ON ...} the ON condition (null for the first table and for a comma-separated list).
   */
  public record TableRef(List<String> name, String alias, Condition on) {
  }

  /** A select-list entry. */
  public sealed interface Item permits Star, ColumnItem, Aggregate {
  }

  /** {@code *}, or {@code qualifier.*} (qualifier null for a plain star). */
  public record Star(String qualifier) implements Item {
  }

  /** A column, with its label when written ({@code AS label}); label null otherwise. */
  public record ColumnItem(Column column, String label) implements Item {
  }

  /** {@code count(*)} (argument null), {@code count|sum|min|max(column)}, with its label or null. */
  public record Aggregate(String function, Column argument, String label) implements Item {
  }

  /** A column reference, with its qualifier (null when none). */
  public record Column(String qualifier, String name) implements Operand {
  }

  /** What a comparison compares: a column, an integer or string literal, or a parameter. */
  public sealed interface Operand permits Column, IntegerLiteral, DecimalLiteral, StringLiteral, DateLiteral,
      Parameter {
  }

  public record IntegerLiteral(long value) implements Operand {
  }

  /** A number with a decimal point and no exponent ({@code 2.50}, {@code .5}), its scale as written. */
  public record DecimalLiteral(java.math.BigDecimal value) implements Operand {
  }

  /** {@code DATE 'yyyy-mm-dd'} (that form only; PostgreSQL's other input forms take the general path). */
  public record DateLiteral(java.time.LocalDate value) implements Operand {
  }

  public record StringLiteral(String value) implements Operand {
  }

  /** The {@code index}th {@code ?} of the statement (0-based). */
  public record Parameter(int index) implements Operand {
  }

  /** A search condition. */
  public sealed interface Condition permits And, Or, Not, Comparison, Between, InList, IsNull {
  }

  public record And(List<Condition> operands) implements Condition {
  }

  public record Or(List<Condition> operands) implements Condition {
  }

  public record Not(Condition operand) implements Condition {
  }

  /** {@code left op right}; op is one of {@code = <> < <= > >=} ({@code !=} is read as {@code <>}). */
  public record Comparison(String op, Operand left, Operand right) implements Condition {
  }

  public record Between(Operand value, Operand low, Operand high, boolean negated) implements Condition {
  }

  public record InList(Operand value, List<Operand> list, boolean negated) implements Condition {
  }

  public record IsNull(Operand value, boolean negated) implements Condition {
  }

  /** An ORDER BY key: a column or a select-list position (1-based, column null); nullsFirst null by default. */
  public record OrderKey(Column column, int position, boolean descending, Boolean nullsFirst) {
  }

  /** Words that are never a column or table name here (keywords with meaning of their own, or clause words). */
  private static final Set<String> RESERVED = Set.of("select", "from", "where", "group", "order", "by", "limit",
      "offset", "and", "or", "not", "between", "in", "is", "null", "as", "asc", "desc", "nulls", "having", "union",
      "intersect", "except", "minus", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using",
      "true", "false", "distinct", "all", "fetch", "for", "window", "qualify", "case", "when", "then", "else", "end",
      "like", "ilike", "similar", "any", "some", "exists", "array", "cast", "interval", "collate", "escape", "user",
      "current_user", "session_user", "current_role", "current_date", "current_time", "current_timestamp",
      "localtime", "localtimestamp", "current_schema", "current_catalog", "default", "values", "table", "with",
      "lateral", "only", "tablesample", "into", "returning", "symmetric", "asymmetric", "unknown", "row", "first",
      "last", "overlaps", "isnull", "notnull", "at", "filter", "over", "within");

  private static final Set<String> AGGREGATES = Set.of("count", "sum", "min", "max");

  /** Whether an unquoted word is never a name in these shapes. */
  static boolean reserved(String word) {
    return RESERVED.contains(word);
  }

  /** The statement in this shape, or null when it is anything else (or does not lex). */
  public static SimpleSelect parse(String sql) {
    List<Token> tokens = tokensOf(sql, "select");
    if (tokens == null) {
      return null;
    }
    try {
      return new Reader(sql, tokens).statement();
    } catch (NotSimple e) {
      return null;
    }
  }

  /** The tokens of a statement that starts with {@code word} (checked before lexing), or null. */
  static List<Token> tokensOf(String sql, String word) {
    int i = 0;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    if (!sql.regionMatches(true, i, word, 0, word.length())) {
      return null;
    }
    try {
      return SqlLexer.tokenizeExtended(sql);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Thrown (without a stack) where the text leaves the shape. */
  private static final class NotSimple extends RuntimeException {
    static final NotSimple INSTANCE = new NotSimple();

    private NotSimple() {
      super(null, null, false, false);
    }
  }

  private static final class Reader {
    private final String sql;
    private final List<Token> tokens;
    private int at;
    private int parameters;

    Reader(String sql, List<Token> tokens) {
      this.sql = sql;
      this.tokens = tokens;
    }

    SimpleSelect statement() {
      word("select");
      List<Item> items = new ArrayList<>();
      do {
        items.add(item());
      } while (symbol(","));
      word("from");
      List<TableRef> from = new ArrayList<>();
      from.add(tableRef(null));
      if (peek().isSymbol(",")) {
        while (symbol(",")) {
          from.add(tableRef(null));
        }
      } else {
        while (peekWord("join") || peekWord("inner") && next(1).is("join")) {
          at += peekWord("inner") ? 2 : 1;
          List<String> name = tableName();
          String alias = alias();
          word("on");
          from.add(new TableRef(name, alias, or()));
        }
      }
      Condition where = null;
      if (peekWord("where")) {
        at++;
        where = or();
      }
      List<Column> groupBy = new ArrayList<>();
      if (peekWord("group")) {
        at++;
        word("by");
        do {
          groupBy.add(column());
        } while (symbol(","));
      }
      List<OrderKey> orderBy = new ArrayList<>();
      if (peekWord("order")) {
        at++;
        word("by");
        do {
          orderBy.add(orderKey());
        } while (symbol(","));
      }
      long limit = -1;
      long offset = 0;
      for (int clauses = 0; clauses < 2; clauses++) {
        if (limit < 0 && peekWord("limit")) {
          at++;
          limit = count();
        } else if (offset == 0 && peekWord("offset")) {
          at++;
          offset = count();
        }
      }
      symbol(";");
      if (peek().kind() != Kind.END) {
        throw NotSimple.INSTANCE;
      }
      return new SimpleSelect(List.copyOf(items), List.copyOf(from), where, List.copyOf(groupBy),
          List.copyOf(orderBy), limit, offset);
    }

    private TableRef tableRef(Condition on) {
      List<String> name = tableName();
      return new TableRef(name, alias(), on);
    }

    private List<String> tableName() {
      List<String> name = new ArrayList<>();
      name.add(name());
      if (symbol(".")) {
        name.add(name());
      }
      return List.copyOf(name);
    }

    private String alias() {
      if (peekWord("as")) {
        at++;
        return name();
      }
      return isName(peek()) ? name() : null;
    }

    private Item item() {
      if (symbol("*")) {
        return new Star(null);
      }
      Token t = peek();
      if (t.kind() == Kind.WORD && AGGREGATES.contains(t.text()) && next(1).isSymbol("(")) {
        at += 2;
        Column argument = t.text().equals("count") && symbol("*") ? null : column();
        expect(")");
        return new Aggregate(t.text(), argument, label());
      }
      if (isName(t) && next(1).isSymbol(".") && next(2).isSymbol("*")) {
        at += 3;
        return new Star(t.text());
      }
      return new ColumnItem(column(), label());
    }

    private String label() {
      if (peekWord("as")) {
        at++;
        return name();
      }
      return isName(peek()) ? name() : null;
    }

    private OrderKey orderKey() {
      Column column = null;
      int position = 0;
      Token t = peek();
      if (t.kind() == Kind.NUMBER && t.text().chars().allMatch(Character::isDigit) && t.text().length() < 9) {
        at++;
        position = Integer.parseInt(t.text());
      } else {
        column = column();
      }
      boolean descending = false;
      if (peekWord("asc")) {
        at++;
      } else if (peekWord("desc")) {
        at++;
        descending = true;
      }
      Boolean nullsFirst = null;
      if (peekWord("nulls")) {
        at++;
        if (peekWord("first")) {
          nullsFirst = true;
        } else if (peekWord("last")) {
          nullsFirst = false;
        } else {
          throw NotSimple.INSTANCE;
        }
        at++;
      }
      return new OrderKey(column, position, descending, nullsFirst);
    }

    private long count() {
      Token t = peek();
      if (t.kind() != Kind.NUMBER || !t.text().chars().allMatch(Character::isDigit) || t.text().length() > 18) {
        throw NotSimple.INSTANCE;
      }
      at++;
      return Long.parseLong(t.text());
    }

    private Condition or() {
      List<Condition> operands = new ArrayList<>();
      operands.add(and());
      while (peekWord("or")) {
        at++;
        operands.add(and());
      }
      return operands.size() == 1 ? operands.get(0) : new Or(List.copyOf(operands));
    }

    private Condition and() {
      List<Condition> operands = new ArrayList<>();
      operands.add(not());
      while (peekWord("and")) {
        at++;
        operands.add(not());
      }
      return operands.size() == 1 ? operands.get(0) : new And(List.copyOf(operands));
    }

    private Condition not() {
      if (peekWord("not")) {
        at++;
        return new Not(not());
      }
      return predicate();
    }

    private Condition predicate() {
      if (peek().isSymbol("(")) {
        // a parenthesised condition (a parenthesised operand such as (a) = 1 is not in the shape)
        at++;
        Condition inner = or();
        expect(")");
        return inner;
      }
      Operand value = operand();
      Token t = peek();
      if (t.kind() == Kind.SYMBOL) {
        String op = switch (t.text()) {
          case "=", "<>", "<", "<=", ">", ">=" -> t.text();
          case "!=" -> "<>";
          default -> throw NotSimple.INSTANCE;
        };
        at++;
        return new Comparison(op, value, operand());
      }
      boolean negated = false;
      if (peekWord("is")) {
        at++;
        if (peekWord("not")) {
          at++;
          negated = true;
        }
        word("null");
        return new IsNull(value, negated);
      }
      if (peekWord("not")) {
        at++;
        negated = true;
      }
      if (peekWord("between")) {
        at++;
        Operand low = operand();
        word("and");
        return new Between(value, low, operand(), negated);
      }
      if (peekWord("in")) {
        at++;
        expect("(");
        List<Operand> list = new ArrayList<>();
        do {
          list.add(operand());
        } while (symbol(","));
        expect(")");
        return new InList(value, List.copyOf(list), negated);
      }
      throw NotSimple.INSTANCE;
    }

    private Operand operand() {
      Token t = peek();
      switch (t.kind()) {
        case PARAM:
          if (!t.text().equals("?")) {
            throw NotSimple.INSTANCE;
          }
          at++;
          return new Parameter(parameters++);
        case NUMBER:
          at++;
          return number(t.text(), false);
        case STRING:
          // a plain '...' string; E'...' strings and a string continued on the next line are not in the shape
          if (sql.charAt(t.start()) != '\'' || next(1).kind() == Kind.STRING) {
            throw NotSimple.INSTANCE;
          }
          at++;
          return new StringLiteral(t.text());
        case SYMBOL:
          if ((t.text().equals("-") || t.text().equals("+")) && next(1).kind() == Kind.NUMBER) {
            at += 2;
            return number(next(-1).text(), t.text().equals("-"));
          }
          throw NotSimple.INSTANCE;
        default:
          if (t.is("date") && next(1).kind() == Kind.STRING && sql.charAt(next(1).start()) == '\''
              && next(2).kind() != Kind.STRING) {
            at += 2;
            return new DateLiteral(date(next(-1).text()));
          }
          return column();
      }
    }

    /** A date written as yyyy-mm-dd with a year from 1 to 9999 that exists in the calendar. */
    private static java.time.LocalDate date(String text) {
      if (!text.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}") || text.startsWith("0000")) {
        throw NotSimple.INSTANCE;
      }
      try {
        return java.time.LocalDate.parse(text);
      } catch (java.time.format.DateTimeParseException e) {
        throw NotSimple.INSTANCE; // 22008 from the general path
      }
    }

    /** An integer or decimal literal (a number with an exponent is not in the shape). */
    private static Operand number(String text, boolean negative) {
      if (text.indexOf('.') < 0) {
        return new IntegerLiteral(integer(text, negative));
      }
      if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0 || text.length() > 40) {
        throw NotSimple.INSTANCE;
      }
      java.math.BigDecimal v = new java.math.BigDecimal(text);
      return new DecimalLiteral(negative ? v.negate() : v);
    }

    private static long integer(String digits, boolean negative) {
      if (!digits.chars().allMatch(Character::isDigit) || digits.length() > 18) {
        throw NotSimple.INSTANCE;
      }
      long v = Long.parseLong(digits);
      return negative ? -v : v;
    }

    private Column column() {
      String first = name();
      if (symbol(".")) {
        return new Column(first, name());
      }
      if (peek().isSymbol("(") || peek().isSymbol("::")) {
        throw NotSimple.INSTANCE; // a function call or a cast
      }
      return new Column(null, first);
    }

    private String name() {
      Token t = peek();
      if (!isName(t)) {
        throw NotSimple.INSTANCE;
      }
      at++;
      return t.text();
    }

    private static boolean isName(Token t) {
      return t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !RESERVED.contains(t.text());
    }

    private void word(String word) {
      if (!peekWord(word)) {
        throw NotSimple.INSTANCE;
      }
      at++;
    }

    private boolean peekWord(String word) {
      return peek().is(word);
    }

    private boolean symbol(String symbol) {
      if (peek().isSymbol(symbol)) {
        at++;
        return true;
      }
      return false;
    }

    private void expect(String symbol) {
      if (!symbol(symbol)) {
        throw NotSimple.INSTANCE;
      }
    }

    private Token peek() {
      return tokens.get(at);
    }

    private Token next(int ahead) {
      return tokens.get(Math.min(Math.max(at + ahead, 0), tokens.size() - 1));
    }
  }
}
