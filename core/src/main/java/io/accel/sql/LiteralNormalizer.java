package io.accel.sql;

import io.accel.sql.SqlLexer.Kind;
import io.accel.sql.SqlLexer.Token;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Replaces the literals of a query or DML statement by {@code ?} parameters, as Readyset does, so that
 * statements differing only in their constants share one plan: {@code SELECT * FROM t WHERE id = 42}
 * becomes {@code SELECT * FROM t WHERE id = ?} with the literal 42.
 *
 * <p>Only literals whose replacement by a parameter cannot change what the statement means are replaced:
 * <ul>
 *   <li>a whole operand of a comparison ({@code = <> != < <= > >=}) in a WHERE, HAVING or JOIN ... ON
 *       condition (not in the SELECT list, GROUP BY, ORDER BY or inside function calls);
 *   <li>in an UPDATE's SET, the whole value of an assignment ({@code SET a = 5}) or the right operand of
 *       {@code +}, {@code -} or {@code *} after a column ({@code SET a = a + -3226}, pgbench's TPC-B): the
 *       parameter takes the column's type, and a literal that does not fit it keeps the statement exact;
 *   <li>the elements of an IN list and the bounds of BETWEEN in those conditions, the pattern of LIKE /
 *       ILIKE (without ESCAPE);
 *   <li>the counts of LIMIT, OFFSET and FETCH FIRST/NEXT;
 *   <li>the values of the rows of {@code INSERT ... VALUES}.
 * </ul>
 * A literal is a number ({@code 1}, {@code -1}, {@code 1.5}, {@code .5}, {@code 1e5}) or a plain
 * 'string'. Never replaced: typed literals ({@code DATE '...'}, {@code INTERVAL '1' DAY}), prefixed
 * strings ({@code E'..'}, {@code X'..'}, {@code U&'..'}), operands of {@code ::} or COLLATE, anything
 * within a type ({@code DECIMAL(10,2)}) or a CAST, NULL, TRUE and FALSE. A statement that has parameters
 * of its own ({@code ?}, {@code $1}) or is not a query or DML is not normalisable, nor is one with an IN list
 * of more than {@value #MAX_IN_LIST} literals or an INSERT of more than {@value #MAX_VALUES_ROWS} rows.
 *
 * <p>Normalising does not decide alone: the caller must check that each literal converts to the type the
 * planner infers for its parameter without changing value (an INTEGER parameter cannot take 1.5), and
 * plan the exact text otherwise.
 */
public final class LiteralNormalizer {
  /** What kind of constant a literal is, as Calcite types it. */
  public enum LiteralKind {
    /** An integer without decimal point or exponent: INTEGER, BIGINT or (very large) DECIMAL. */
    INTEGER,
    /** A number with a decimal point and no exponent: DECIMAL. */
    DECIMAL,
    /** A number with an exponent: DOUBLE. */
    APPROXIMATE,
    /** A plain quoted string: CHAR. */
    STRING
  }

  /**
   * A replaced literal: its kind, its raw text in the statement (with sign and quotes), and its value:
   * a {@link BigDecimal} for numbers (the sign applied), a {@link String} for strings (quotes removed).
   */
  public record Literal(LiteralKind kind, String text, Object value) {
    /** The value of a number. */
    public BigDecimal number() {
      return (BigDecimal) value;
    }
  }

  /** The normalised text (the replaced literals are {@code ?}) and the literals, in order. */
  public record Normalized(String sql, List<Literal> literals) {
    public Normalized {
      literals = List.copyOf(literals);
    }

    public boolean hasLiterals() {
      return !literals.isEmpty();
    }
  }

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");
  /** Tokens after which a comparison's right operand ends. */
  private static final Set<String> OPERAND_END_WORDS = Set.of("and", "or", "then", "when", "else", "end", "order",
      "group", "having", "limit", "offset", "fetch", "union", "intersect", "except", "minus", "window", "qualify",
      "where", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using");
  /** Tokens before which a comparison's left operand starts. */
  private static final Set<String> OPERAND_START_WORDS = Set.of("where", "having", "on", "and", "or", "not", "when");
  /** Clauses in which comparisons, IN lists, BETWEEN and LIKE may be normalised. */
  private static final Set<String> CONDITION_CLAUSES = Set.of("where", "having", "on");
  /** Words that start a clause of a query or DML statement. */
  private static final Set<String> CLAUSE_WORDS = Set.of("select", "from", "where", "group", "having", "order",
      "limit", "offset", "fetch", "window", "qualify", "on", "using", "set", "values", "returning", "union",
      "intersect", "except", "minus", "with", "into", "join", "update", "delete", "insert");
  /** Words that may stand before a parenthesis that is not a function call. */
  private static final Set<String> NON_FUNCTION_WORDS = Set.of("and", "or", "not", "in", "exists", "values", "on",
      "using", "where", "having", "from", "join", "select", "as", "when", "then", "else", "between", "like",
      "ilike", "union", "intersect", "except", "minus", "all", "any", "some", "lateral", "with", "by", "case",
      "is", "distinct", "symmetric", "asymmetric", "limit", "offset", "fetch", "set", "returning", "into");
  private static final Set<String> STATEMENT_STARTS = Set.of("select", "with", "values", "insert", "upsert", "update",
      "delete");

  private enum FrameType { TOP, PLAIN, FUNCTION, IN_LIST, VALUES_ROW }

  /** What the tokens at one parenthesis depth are part of. */
  private static final class Frame {
    FrameType type;
    String clause;
    /** The literals replaced in this frame (an IN list's elements). */
    int replaced;

    Frame(FrameType type, String clause) {
      this.type = type;
      this.clause = clause;
    }
  }

  private final String sql;
  private final List<Token> tokens;
  private final boolean insert;
  private final boolean update;

  private LiteralNormalizer(String sql, List<Token> tokens) {
    this.sql = sql;
    this.tokens = tokens;
    Token first = tokens.get(0);
    this.insert = first.is("insert") || first.is("upsert");
    this.update = first.is("update");
  }

  /**
   * The statement with its replaceable literals as parameters, or empty when it is not normalisable: it
   * has parameters of its own, it is not a query or DML statement, or it does not lex.
   */
  public static Optional<Normalized> normalize(String sql) {
    List<Token> tokens;
    try {
      tokens = SqlLexer.tokenizeExtended(sql);
    } catch (AccelException e) {
      return Optional.empty();
    }
    Token first = tokens.get(0);
    if (!(first.kind() == Kind.WORD && STATEMENT_STARTS.contains(first.text()) || first.isSymbol("("))) {
      return Optional.empty();
    }
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.kind() == Kind.PARAM) {
        return Optional.empty();
      }
      if (t.isSymbol(";") && tokens.get(i + 1).kind() != Kind.END) {
        return Optional.empty();
      }
    }
    return new LiteralNormalizer(sql, tokens).run();
  }

  /**
   * IN lists longer than this keep their literals: Calcite plans a longer list as a join with a VALUES
   * relation, which for parameters is a union of one-row projections (a plan growing with the list and
   * code past the JVM's 64 KB method limit), and for literals a constant relation read without generated code.
   */
  static final int MAX_IN_LIST = 20;
  /** INSERT ... VALUES with more rows than this keeps its literals, for the same reason. */
  static final int MAX_VALUES_ROWS = 64;

  private Optional<Normalized> run() {
    int valuesRows = 0;
    Deque<Frame> frames = new ArrayDeque<>();
    frames.push(new Frame(FrameType.TOP, null));
    List<int[]> spans = new ArrayList<>();
    List<Literal> literals = new ArrayList<>();
    int i = 0;
    while (i < tokens.size() - 1) {
      Token t = tokens.get(i);
      Frame frame = frames.peek();
      if (t.isSymbol("(")) {
        Frame opened = openFrame(i, frame);
        if (opened.type == FrameType.VALUES_ROW && ++valuesRows > MAX_VALUES_ROWS) {
          return Optional.empty();
        }
        frames.push(opened);
        i++;
        continue;
      }
      if (t.isSymbol(")")) {
        if (frames.size() == 1) {
          return Optional.empty();
        }
        if (frames.pop().replaced > MAX_IN_LIST) {
          return Optional.empty();
        }
        i++;
        continue;
      }
      if (t.kind() == Kind.WORD) {
        word(i, t, frame);
        i++;
        continue;
      }
      int end = literalEnd(i);
      if (end > i && update && "set".equals(frame.clause) && binaryOperator(i)) {
        i++; // a + or - between a column and a number is the operator: the number alone is the literal
        continue;
      }
      if (end >= 0) {
        if (replaceable(i, end, frame)) {
          spans.add(new int[] {tokens.get(i).start(), tokens.get(end).end()});
          literals.add(literal(i, end));
          frame.replaced++;
        }
        i = end + 1;
        continue;
      }
      i++;
    }
    if (frames.size() != 1) {
      return Optional.empty();
    }
    if (spans.isEmpty()) {
      return Optional.of(new Normalized(sql, List.of()));
    }
    StringBuilder b = new StringBuilder(sql.length());
    int at = 0;
    for (int[] span : spans) {
      b.append(sql, at, span[0]).append('?');
      at = span[1];
    }
    b.append(sql, at, sql.length());
    return Optional.of(new Normalized(b.toString(), literals));
  }

  private Frame openFrame(int i, Frame outer) {
    Token before = i > 0 ? tokens.get(i - 1) : null;
    if (before != null && before.is("in") && inCondition(outer)) {
      return new Frame(FrameType.IN_LIST, outer.clause);
    }
    if (insert && outer.type == FrameType.TOP && "values".equals(outer.clause)
        && before != null && (before.is("values") || before.isSymbol(","))) {
      return new Frame(FrameType.VALUES_ROW, "values");
    }
    if (before != null && (before.kind() == Kind.QUOTED
        || before.kind() == Kind.WORD && !NON_FUNCTION_WORDS.contains(before.text()))) {
      return new Frame(FrameType.FUNCTION, "function");
    }
    return new Frame(FrameType.PLAIN, outer.clause);
  }

  private void word(int i, Token t, Frame frame) {
    String w = t.text();
    if (!CLAUSE_WORDS.contains(w)) {
      return;
    }
    if (frame.type == FrameType.FUNCTION && !w.equals("select") && !w.equals("with")) {
      return; // EXTRACT(YEAR FROM d), SUBSTRING(s FROM 2), count(*) FILTER (WHERE ...)
    }
    if (w.equals("from") && i > 0 && tokens.get(i - 1).is("distinct")) {
      return; // IS [NOT] DISTINCT FROM
    }
    if (w.equals("on") && frame.clause != null && frame.clause.equals("values")) {
      frame.clause = "conflict";
      return;
    }
    if (frame.type == FrameType.IN_LIST || frame.type == FrameType.VALUES_ROW) {
      frame.type = FrameType.PLAIN; // a subquery
    }
    frame.clause = w;
  }

  /** The index of the last token of the literal that starts at {@code i} (a sign, a number or a string), or -1. */
  private int literalEnd(int i) {
    Token t = tokens.get(i);
    if (t.kind() == Kind.NUMBER) {
      return i;
    }
    if (t.kind() == Kind.STRING && sql.charAt(t.start()) == '\'') {
      return i;
    }
    if ((t.isSymbol("-") || t.isSymbol("+")) && tokens.get(i + 1).kind() == Kind.NUMBER) {
      return i + 1;
    }
    return -1;
  }

  private Literal literal(int from, int to) {
    Token last = tokens.get(to);
    String text = sql.substring(tokens.get(from).start(), last.end());
    if (last.kind() == Kind.STRING) {
      return new Literal(LiteralKind.STRING, text, last.text());
    }
    BigDecimal value = new BigDecimal(last.text());
    if (tokens.get(from).isSymbol("-")) {
      value = value.negate();
    }
    String digits = last.text();
    LiteralKind kind = digits.indexOf('e') >= 0 || digits.indexOf('E') >= 0 ? LiteralKind.APPROXIMATE
        : digits.indexOf('.') >= 0 ? LiteralKind.DECIMAL : LiteralKind.INTEGER;
    return new Literal(kind, text, value);
  }

  private boolean replaceable(int from, int to, Frame frame) {
    Token first = tokens.get(from);
    Token last = tokens.get(to);
    Token before = from > 0 ? tokens.get(from - 1) : null;
    Token after = tokens.get(to + 1);
    if (before == null || !wellDelimited(from, to)) {
      return false;
    }
    boolean signed = first != last;
    boolean number = last.kind() == Kind.NUMBER;
    // LIMIT n, OFFSET n [ROWS], FETCH FIRST|NEXT n ROWS ONLY
    if (number && !signed && frame.type != FrameType.FUNCTION) {
      boolean endsCount = after.kind() == Kind.END || after.isSymbol(")") || after.isSymbol(";")
          || after.is("offset") || after.is("fetch") || after.is("limit");
      if (before.is("limit") && endsCount) {
        return true; // not LIMIT n, m
      }
      if (before.is("offset") && (after.is("row") || after.is("rows") || endsCount)) {
        return true;
      }
      if ((before.is("first") || before.is("next")) && from >= 2 && tokens.get(from - 2).is("fetch")
          && (after.is("row") || after.is("rows"))) {
        return true;
      }
    }
    if (frame.type == FrameType.VALUES_ROW) {
      return (before.isSymbol("(") || before.isSymbol(",")) && (after.isSymbol(",") || after.isSymbol(")"));
    }
    if (update && frame.type == FrameType.TOP && "set".equals(frame.clause)) {
      return assignedValue(from, before, after);
    }
    if (!inCondition(frame)) {
      return false;
    }
    if (frame.type == FrameType.IN_LIST && (before.isSymbol("(") || before.isSymbol(","))
        && (after.isSymbol(",") || after.isSymbol(")"))) {
      return true;
    }
    if (before.kind() == Kind.SYMBOL && COMPARISONS.contains(before.text()) && endsOperand(after)) {
      return true;
    }
    if (after.kind() == Kind.SYMBOL && COMPARISONS.contains(after.text())
        && (before.isSymbol("(") || before.kind() == Kind.WORD && OPERAND_START_WORDS.contains(before.text())
        && !(before.is("and") && isBetweenAnd(from - 1)))) {
      return true;
    }
    if (before.is("between") || (before.is("symmetric") || before.is("asymmetric")) && from >= 2
        && tokens.get(from - 2).is("between")) {
      return after.is("and");
    }
    if (before.is("and") && isBetweenAnd(from - 1)) {
      return endsOperand(after);
    }
    if ((before.is("like") || before.is("ilike")) && last.kind() == Kind.STRING && !signed) {
      return endsOperand(after);
    }
    return false;
  }

  /** Whether the + or - at {@code i} follows an operand (a column, a quoted name), so it is binary. */
  private boolean binaryOperator(int i) {
    Token before = i > 0 ? tokens.get(i - 1) : null;
    return before != null && isColumnName(before)
        && (before.kind() == Kind.QUOTED || !NON_FUNCTION_WORDS.contains(before.text()));
  }

  /** A name that can stand for a column: a quoted name, or a word that does not start a clause. */
  private static boolean isColumnName(Token t) {
    return t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !CLAUSE_WORDS.contains(t.text());
  }

  /**
   * In UPDATE's SET: the literal is a whole assigned value ({@code col = 5}) or the right operand of + - *
   * after a column ({@code col = col + 5}), and the assignment ends after it.
   */
  private boolean assignedValue(int from, Token before, Token after) {
    boolean ends = after.kind() == Kind.END || after.isSymbol(",") || after.isSymbol(";")
        || after.is("where") || after.is("returning") || after.is("from");
    if (!ends || from < 2) {
      return false;
    }
    Token twoBefore = tokens.get(from - 2);
    if (before.isSymbol("=")) {
      return isColumnName(twoBefore);
    }
    if (before.isSymbol("+") || before.isSymbol("-") || before.isSymbol("*")) {
      // col = col + 5: the operand before the operator is a column, itself right after the assignment's '='
      return isColumnName(twoBefore) && from >= 3 && tokens.get(from - 3).isSymbol("=");
    }
    return false;
  }

  private static boolean inCondition(Frame frame) {
    return frame.clause != null && CONDITION_CLAUSES.contains(frame.clause) && frame.type != FrameType.FUNCTION;
  }

  /** Whether the AND at {@code i} is the one of a BETWEEN (a BETWEEN at the same depth, no AND between). */
  private boolean isBetweenAnd(int i) {
    int depth = 0;
    for (int j = i - 1; j >= 0; j--) {
      Token t = tokens.get(j);
      if (t.isSymbol(")")) {
        depth++;
      } else if (t.isSymbol("(")) {
        if (depth == 0) {
          return false;
        }
        depth--;
      } else if (depth == 0 && (t.is("and") || t.is("or") || t.is("where") || t.is("on") || t.is("having")
          || t.is("when") || t.is("then"))) {
        return false;
      } else if (depth == 0 && t.is("between")) {
        return true;
      }
    }
    return false;
  }

  /** Whether the token ends the operand before it (nothing that binds tighter than a comparison follows). */
  private static boolean endsOperand(Token after) {
    if (after.kind() == Kind.END) {
      return true;
    }
    if (after.kind() == Kind.SYMBOL) {
      return after.text().equals(")") || after.text().equals(",") || after.text().equals(";");
    }
    return after.kind() == Kind.WORD && OPERAND_END_WORDS.contains(after.text());
  }

  /** Whether the literal is a token of its own: nothing sticks to it (1abc, x'..', 'a' 'b', U&'..'). */
  private boolean wellDelimited(int from, int to) {
    Token first = tokens.get(from);
    Token last = tokens.get(to);
    if (first.start() > 0 && isStuck(sql.charAt(first.start() - 1))) {
      return false;
    }
    if (last.kind() == Kind.NUMBER && last.end() < sql.length() && isStuck(sql.charAt(last.end()))) {
      return false;
    }
    if (last.kind() == Kind.NUMBER) {
      try {
        new BigDecimal(last.text());
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return tokens.get(to + 1).kind() != Kind.STRING && tokens.get(from - 1).kind() != Kind.STRING;
  }

  private static boolean isStuck(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.' || c == '\'' || c == '"' || c == '&';
  }
}
