package io.accel.exec;

import io.accel.plan.PlanCache;
import io.accel.sql.Command;
import java.util.List;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;

/**
 * A statement prepared by a {@link Session}: what it is, the parameters it takes and the columns it returns.
 * Made by {@link Session#prepare}, run by {@link Session#execute}, any number of times.
 *
 * <p>The descriptors are Avatica's (the types Calcite's own JDBC driver describes statements with):
 * parameters with their SQL type, precision and scale; columns with name, label, SQL type and type name,
 * precision, scale, nullability, the table column they come from, and the Java representation of their
 * values in result rows.
 */
public final class Prepared {
  /** What a statement does, as frontends need to know it. */
  public enum Kind {
    /** returns rows */
    QUERY,
    /** INSERT, UPDATE, DELETE: returns a count */
    DML,
    /** DDL, transaction control, ANALYZE: runs in core, returns nothing */
    COMMAND,
    /** EXPLAIN [ANALYZE]: returns the plan as rows of text */
    EXPLAIN
  }

  private final String sql;
  private final Kind kind;
  private final Meta.Signature signature;
  private final PlanCache.Plan plan;
  private final Command command;

  Prepared(String sql, Kind kind, Meta.Signature signature, PlanCache.Plan plan, Command command) {
    this.sql = sql;
    this.kind = kind;
    this.signature = signature;
    this.plan = plan;
    this.command = command;
  }

  public String sql() {
    return sql;
  }

  public Kind kind() {
    return kind;
  }

  /** Whether it returns rows (a query, EXPLAIN, or DML with a RETURNING clause). */
  public boolean returnsRows() {
    return kind == Kind.QUERY || kind == Kind.EXPLAIN || returning != null
        || execution != null && execution.statement().returnsRows();
  }

  /** For {@code EXECUTE name (arguments)}: the statement PREPARE named and the command with its arguments. */
  record Execution(Prepared statement, io.accel.sql.Command.ExecuteStatement command) {
  }

  private Execution execution;

  /**
   * EXECUTE: described as the statement it runs (its kind, columns and statement type); its parameters are those of
   * its arguments that are a frontend's parameters.
   */
  static Prepared executing(String sql, Prepared statement, io.accel.sql.Command.ExecuteStatement command,
      List<AvaticaParameter> parameters) {
    Meta.Signature s = statement.signature();
    Prepared p = new Prepared(sql, statement.kind, Meta.Signature.create(s.columns, sql, parameters, s.cursorFactory,
        s.statementType), null, null);
    p.execution = new Execution(statement, command);
    return p;
  }

  Execution execution() {
    return execution;
  }

  /** For EXECUTE: the statement it runs (a frontend names its command tag after it); empty otherwise. */
  public java.util.Optional<Prepared> executed() {
    return execution == null ? java.util.Optional.empty() : java.util.Optional.of(execution.statement());
  }

  /** The RETURNING clause of a DML statement and the query evaluating it over the rows written; null if none. */
  private io.accel.sql.Returning returning;
  private Prepared returningQuery;

  /**
   * INSERT, UPDATE or DELETE ... RETURNING: {@code dml} without the clause, {@code query} its list over the written
   * rows; the statement's parameters are the DML's followed by the list's, its columns the list's.
   */
  /** The ON CONFLICT clause of an INSERT and the query of its DO UPDATE (null for DO NOTHING); null if none. */
  private io.accel.sql.OnConflict onConflict;
  private Prepared conflictQuery;

  /**
   * INSERT ... ON CONFLICT: {@code insert} without the clause, {@code query} the SET values and WHERE condition
   * (null for DO NOTHING); the parameters are the INSERT's followed by the query's.
   */
  static Prepared withOnConflict(String sql, io.accel.sql.OnConflict onConflict, Prepared insert, Prepared query) {
    List<AvaticaParameter> parameters = new java.util.ArrayList<>(insert.parameters());
    if (query != null) {
      parameters.addAll(query.parameters());
    }
    Meta.Signature signature = Meta.Signature.create(insert.columns(), sql, parameters,
        insert.signature().cursorFactory, insert.signature().statementType);
    Prepared p = new Prepared(sql, Kind.DML, signature, insert.plan, null);
    p.onConflict = onConflict;
    p.conflictQuery = query;
    return p;
  }

  io.accel.sql.OnConflict onConflict() {
    return onConflict;
  }

  Prepared conflictQuery() {
    return conflictQuery;
  }

  static Prepared withReturning(String sql, io.accel.sql.Returning returning, Prepared dml, Prepared query) {
    List<AvaticaParameter> parameters = new java.util.ArrayList<>(dml.parameters());
    parameters.addAll(query.parameters());
    // a query's statement type: frontends read the rows as a result set (Avatica reads a DML's as its row count)
    Meta.Signature signature = Meta.Signature.create(query.columns(), sql, parameters,
        query.signature().cursorFactory, query.signature().statementType);
    Prepared p = new Prepared(sql, Kind.DML, signature, dml.plan, null);
    p.returning = returning;
    p.returningQuery = query;
    p.onConflict = dml.onConflict;
    p.conflictQuery = dml.conflictQuery;
    return p;
  }

  /** The locking clause of a SELECT ... FOR UPDATE / SHARE, applied by the scans of its tables; null if none. */
  private io.accel.sql.RowLocking rowLocking;

  /** SELECT ... FOR UPDATE / SHARE: {@code query} planned without the clause. */
  static Prepared withRowLocking(String sql, io.accel.sql.RowLocking locking, Prepared query) {
    Prepared p = new Prepared(sql, Kind.QUERY, query.signature, query.plan, null);
    p.rowLocking = locking;
    return p;
  }

  io.accel.sql.RowLocking rowLocking() {
    return rowLocking;
  }

  io.accel.sql.Returning returning() {
    return returning;
  }

  Prepared returningQuery() {
    return returningQuery;
  }

  public List<AvaticaParameter> parameters() {
    return signature.parameters;
  }

  /** The result columns (empty for DML and commands). */
  public List<ColumnMetaData> columns() {
    return signature.columns;
  }

  /** Parameters, columns, the shape of result rows and the statement type, in one Avatica signature. */
  public Meta.Signature signature() {
    return signature;
  }

  PlanCache.Plan plan() {
    return plan;
  }

  /** The ids of the tables a query reads (empty for other statements and queries that read none). */
  public java.util.Set<Long> tablesRead() {
    return plan == null || plan.facts() == null ? java.util.Set.of() : plan.facts().tables();
  }

  /** Whether this is {@code CREATE TABLE ... AS query}, whose count is the rows it inserted ("SELECT n"). */
  public boolean createsTableFromQuery() {
    return command instanceof Command.CreateTableAs;
  }

  Command command() {
    return command;
  }

  /**
   * The COPY this statement is, if it is one: a frontend runs it with {@link Session#copyIn} ({@code from()}) or
   * {@link Session#copyOut}, not {@code execute}.
   */
  public java.util.Optional<Command.Copy> copy() {
    return command instanceof Command.Copy c ? java.util.Optional.of(c) : java.util.Optional.empty();
  }

  /**
   * Pads the values of CHAR(n) columns to n characters, as PostgreSQL returns bpchar (stored and compared
   * without the trailing spaces); null when the result has no such column. Worked out once per statement.
   */
  @SuppressWarnings("unchecked")
  java.util.function.UnaryOperator<Object> charPadding() {
    Object p = padding;
    if (p == UNKNOWN) {
      p = charPadding(signature);
      padding = p;
    }
    return (java.util.function.UnaryOperator<Object>) p;
  }

  private static final Object UNKNOWN = new Object();
  private volatile Object padding = UNKNOWN;

  private static java.util.function.UnaryOperator<Object> charPadding(Meta.Signature signature) {
    int n = signature.columns.size();
    int[] widths = null;
    for (int i = 0; i < n; i++) {
      org.apache.calcite.avatica.ColumnMetaData c = signature.columns.get(i);
      if (c.type.id == java.sql.Types.CHAR && c.precision > 0) {
        if (widths == null) {
          widths = new int[n];
        }
        widths[i] = c.precision;
      }
    }
    if (widths == null) {
      return null;
    }
    int[] w = widths;
    return row -> {
      if (row instanceof Object[] values) {
        Object[] out = values.clone();
        for (int i = 0; i < w.length && i < out.length; i++) {
          out[i] = pad(out[i], w[i]);
        }
        return out;
      }
      return pad(row, w[0]);
    };
  }

  private static Object pad(Object value, int width) {
    if (width == 0 || !(value instanceof String s)) {
      return value;
    }
    if (s.isEmpty() && width < BLANKS.length) {
      String blank = BLANKS[width]; // an empty CHAR(n) value is n spaces: made once per width
      if (blank == null) {
        blank = " ".repeat(width);
        BLANKS[width] = blank;
      }
      return blank;
    }
    int length = s.codePointCount(0, s.length());
    return length >= width ? s : s + " ".repeat(width - length);
  }

  private static final String[] BLANKS = new String[1024];

  /** A plain planned query (no command, RETURNING, ON CONFLICT or row locking): one text, one reusable plan. */
  boolean reusableByText() {
    return kind == Kind.QUERY && plan != null && command == null && returning == null && onConflict == null
        && rowLocking == null;
  }

  private volatile String cacheShape;
  private volatile boolean noted;

  /** The statement's shape for the result cache (literals and parameters as {@code ?}); noted there when first made. */
  String cacheShape(io.accel.cache.ResultCache cache) {
    String s = cacheShape;
    if (s == null) {
      s = io.accel.cache.ResultCache.shapeOf(sql);
      noteQuery(cache);
      cacheShape = s;
    }
    return s;
  }

  /** Notes the statement's text with the result cache (for CREATE CACHE FROM a query id), once. */
  void noteQuery(io.accel.cache.ResultCache cache) {
    if (!noted) {
      noted = true;
      cache.noteQuery(plan == null ? null : plan.cachedText(), sql);
    }
  }

  private volatile io.accel.sql.Paging paging;
  /** The query a paged statement pages, prepared; null when it cannot be paged through the cursor cache. */
  private volatile Prepared pagedQuery;
  private volatile boolean pagingChecked;

  io.accel.sql.Paging paging() {
    return paging;
  }

  /**
   * For {@code query LIMIT n OFFSET k}: {@code query} prepared, when its rows stream in scan order (no sort
   * in its plan), so page k + 1 can continue the cursor page k left; otherwise null.
   */
  Prepared pagedQuery(Session session) {
    if (!pagingChecked) {
      Prepared inner = null;
      io.accel.sql.Paging p = io.accel.sql.Paging.of(sql).orElse(null);
      if (p != null) {
        try {
          Prepared candidate = session.prepare(p.inner());
          if (candidate.kind() == Kind.QUERY && candidate.plan() != null && candidate.plan().facts().streaming()
              && !candidate.plan().facts().tables().isEmpty()) {
            inner = candidate;
          }
        } catch (RuntimeException e) {
          inner = null; // the statement runs as written and reports its own errors
        }
      }
      paging = p;
      pagedQuery = inner;
      pagingChecked = true;
    }
    return pagedQuery;
  }
}
