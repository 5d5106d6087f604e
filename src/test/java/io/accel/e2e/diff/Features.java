package io.accel.e2e.diff;

/**
 * What the differential generator may produce. {@link #all()} is everything the generator knows (all of it is
 * SQL PostgreSQL accepts); {@link #forAccel()} is what the differential test runs with: everything minus the
 * known engine gaps, each switched off by one line marked {@code // accel gap: ...}. When the engine closes a
 * gap, delete its line.
 */
public final class Features {
  // ---- schema (DDL) ----
  public boolean compositePrimaryKeys = true;
  public boolean tablesWithoutPrimaryKey = true;
  public boolean secondaryIndexes = true;
  public boolean compositeIndexes = true;
  public boolean descIndexes = true;
  public boolean uniqueIndexes = true;
  public boolean notNullColumns = true;
  /** Column types beyond INTEGER / VARCHAR (each can be switched off on its own). */
  public boolean bigintColumns = true;
  public boolean smallintColumns = true;
  public boolean numericColumns = true;
  public boolean textColumns = true;
  public boolean booleanColumns = true;
  public boolean dateColumns = true;
  public boolean doubleColumns = true;
  /** INSERT ... VALUES with many rows per statement (otherwise one row per statement). */
  public boolean multiRowInsert = true;
  /** DOUBLE PRECISION values written as plain decimal literals (0.125) in INSERTs; otherwise as 0.125E0. */
  public boolean plainDecimalDoubleLiterals = true;

  // ---- query shapes ----
  public boolean innerJoin = true;
  public boolean leftJoin = true;
  public boolean rightJoin = true;
  public boolean fullJoin = true;
  public boolean crossJoin = true;
  /** FROM a, b WHERE ... */
  public boolean commaJoin = true;
  /** Extra non-equi conjuncts in ON clauses of inner/left/right joins. */
  public boolean nonEquiJoinConditions = true;
  public boolean threeWayJoins = true;
  /** Four to six relations in one FROM clause (heuristic join order). */
  public boolean manyWayJoins = true;
  public boolean derivedTables = true;
  /** ORDER BY ... LIMIT inside a derived table. */
  public boolean limitInDerivedTable = true;
  public boolean distinct = true;
  /** SELECT DISTINCT whose select list has no column reference (only constants). */
  public boolean distinctOverConstants = true;
  public boolean groupBy = true;
  public boolean having = true;
  /** Aggregates without GROUP BY (one row, also over empty input). */
  public boolean globalAggregates = true;
  /** Select items without an aggregate call (constants) next to aggregates in a query without GROUP BY. */
  public boolean constantsInGlobalAggregates = true;
  public boolean countDistinct = true;
  public boolean sumDistinct = true;
  public boolean avg = true;
  /** sum() / avg() of a BIGINT argument (PostgreSQL: NUMERIC result). */
  public boolean sumAvgOfBigint = true;
  /** CASE / COALESCE / NULLIF in the SELECT list or HAVING of an aggregate query. */
  public boolean caseInAggregateQueries = true;
  public boolean orderBy = true;
  /** ORDER BY 1, 2 instead of output column names (some of the time). */
  public boolean orderByOrdinal = true;
  /** Explicit NULLS FIRST / NULLS LAST (otherwise only the default null order is used). */
  public boolean nullsFirstLast = true;
  public boolean limit = true;
  public boolean offset = true;
  public boolean union = true;
  public boolean unionAll = true;
  public boolean intersect = true;
  public boolean intersectAll = true;
  public boolean except = true;
  public boolean exceptAll = true;
  /** LIMIT / OFFSET on the result of a set operation. */
  public boolean limitOnSetOps = true;
  /** Three operands, mixing operators (INTERSECT binds tighter than UNION / EXCEPT). */
  public boolean setOpChains = true;

  // ---- predicates ----
  public boolean between = true;
  public boolean inList = true;
  /** A NULL literal inside an IN list. */
  public boolean nullInInList = true;
  public boolean like = true;
  public boolean isDistinctFrom = true;
  public boolean inSubquery = true;
  public boolean notInSubquery = true;
  public boolean exists = true;
  public boolean notExists = true;
  public boolean scalarSubqueries = true;
  public boolean correlatedSubqueries = true;
  /** [NOT] EXISTS whose subquery is not correlated (otherwise EXISTS always carries a correlation). */
  public boolean uncorrelatedExists = true;
  /** Subqueries inside subqueries. */
  public boolean nestedSubqueries = true;
  /** Correlated subqueries in the SELECT list (otherwise subqueries there are uncorrelated). */
  public boolean correlatedSubqueriesInSelectList = true;
  /** Correlated subqueries in a query whose FROM clause has an outer join. */
  public boolean correlatedSubqueriesWithOuterJoins = true;
  /** NOT IN (subquery) whose subquery refers to the outer query. */
  public boolean correlatedNotIn = true;
  /** Outer columns anywhere in a subquery's WHERE (otherwise only in its "inner = outer" correlation equality). */
  public boolean nonEquiCorrelation = true;
  /** A subquery inside the left operand of [NOT] IN (subquery). */
  public boolean subqueryInInOperand = true;
  /** Comparisons of a column with itself (a.x < a.x: never true, NULL for NULLs). */
  public boolean selfComparisons = true;
  /** Comparisons between two BOOLEAN values with < / > (PostgreSQL orders false < true). */
  public boolean booleanOrdering = true;

  // ---- expressions ----
  public boolean arithmetic = true;
  public boolean multiplication = true;
  public boolean integerDivision = true;
  /** NUMERIC / constant: PostgreSQL picks the result scale (at least 16 significant digits). */
  public boolean numericDivision = true;
  public boolean doubleDivision = true;
  public boolean modulo = true;
  public boolean unaryMinus = true;
  /** Unary minus on DOUBLE PRECISION operands (-x of 0.0 is -0.0, which must equal 0.0); otherwise 0 - x. */
  public boolean negativeZeroDoubles = true;
  public boolean abs = true;
  public boolean caseExpr = true;
  public boolean simpleCase = true;
  public boolean coalesce = true;
  public boolean nullif = true;
  public boolean upperLower = true;
  public boolean charLength = true;
  public boolean concat = true;
  public boolean booleanInSelectList = true;
  public boolean cast = true;
  /** CAST(numeric AS INTEGER/BIGINT): PostgreSQL rounds half away from zero. */
  public boolean castNumericToInteger = true;
  /** CAST(double AS INTEGER/BIGINT): PostgreSQL rounds half to even. */
  public boolean castDoubleToInteger = true;
  /** CAST(numeric/double AS NUMERIC(10,2)) (rounds). */
  public boolean castToNumeric = true;
  public boolean castIntegerToVarchar = true;
  /** CAST(numeric AS VARCHAR): PostgreSQL prints the scale ('1.50'). */
  public boolean castNumericToVarchar = true;
  /** CAST(double AS VARCHAR): PostgreSQL prints the shortest exact form ('1.5', '1e+20'). */
  public boolean castDoubleToVarchar = true;
  /** CAST(boolean AS VARCHAR): PostgreSQL prints 'true' / 'false'. */
  public boolean castBooleanToVarchar = true;
  public boolean castDateToVarchar = true;
  public boolean castStringLiteralToDate = true;
  public boolean castStringLiteralToInteger = true;
  /** x::type */
  public boolean pgCastSyntax = true;
  /** x::type as a bare operand of another operator (otherwise it is wrapped in parentheses). */
  public boolean pgCastAsOperand = true;
  /** Queries that must fail (division by zero, scalar subquery with several rows, bad cast). */
  public boolean errorQueries = true;
  /** Among the error queries: a scalar subquery returning several rows (SQLSTATE 21000). */
  public boolean scalarSubqueryRowCountError = true;

  // ---- DML ----
  public boolean update = true;
  public boolean updateFromExpressions = true;
  /** UPDATE ... SET numeric-typed expression into an INTEGER column etc. (PostgreSQL assignment casts). */
  public boolean assignmentCasts = true;
  public boolean delete = true;
  public boolean insertValues = true;
  public boolean insertSelect = true;
  /** Subqueries in UPDATE / DELETE WHERE clauses. */
  public boolean dmlSubqueries = true;
  /** UPDATE / DELETE ... RETURNING (the returned rows are compared, unordered). */
  public boolean returning = true;
  /** INSERT ... ON CONFLICT (key) DO NOTHING | DO UPDATE SET c = EXCLUDED.c. */
  public boolean onConflict = true;
  /** UPDATE t SET ... FROM other WHERE ... (PostgreSQL's joined update). */
  public boolean updateFrom = true;
  /** Statements that violate a PRIMARY KEY / UNIQUE / NOT NULL constraint (must fail and change nothing). */
  public boolean constraintViolations = true;
  /** Several statements in one transaction, then COMMIT or ROLLBACK. */
  public boolean transactions = true;

  /** Everything the generator can produce. */
  public static Features all() {
    return new Features();
  }

  /**
   * The features named by {@code -Ddiff.features}: {@code all}, or a comma list of gaps to switch back on
   * over {@link #forAccel()} ({@code negativeZeroDoubles,limitOnSetOps}), or nothing for {@link #forAccel()}.
   */
  public static Features fromProperty(String value) {
    if (value == null || value.isBlank()) {
      return forAccel();
    }
    if (value.equals("all")) {
      return all();
    }
    Features f = forAccel();
    for (String name : value.split(",")) {
      try {
        Features.class.getField(name.strip()).setBoolean(f, true);
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException("diff.features: no feature " + name.strip(), e);
      }
    }
    return f;
  }

  /** The feature set of the differential test: everything minus the known Accel gaps. */
  public static Features forAccel() {
    Features f = all();
    f.subqueryInInOperand = false; // accel gap: WHERE EXISTS (SELECT ... WHERE u.k = t.k AND (... OR (SELECT sum(...) FROM v) IN (SELECT ... correlated))) over a five-table FULL JOIN runs its nested correlated plan per outer row (over 20 s; PostgreSQL runs the uncorrelated part once); results are right (seeds 1-9)
    f.correlatedSubqueriesInSelectList = false; // accel gap: a select-list sub-query whose own sub-query reads the outermost query's row (SELECT (SELECT max(d) FROM u WHERE u.k = a.k AND (b.x < (SELECT min(...) FROM v WHERE v.n = u.f) OR ...)) FROM a JOIN b ...) -> "Correlation variable $cor2 should be defined" (seeds 1-9: the only one left)
    return f;
  }
}
