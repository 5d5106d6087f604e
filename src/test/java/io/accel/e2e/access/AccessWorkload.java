package io.accel.e2e.access;

import static io.accel.e2e.access.AccessRows.literal;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The schema, data, queries and DML of {@link AccessPathDifferentialTest}: one table definition loaded into several
 * copies that differ only in their indexes, random rows full of NULLs and duplicates, and random queries whose
 * predicates, orderings and projections are shaped after those indexes so that the planner has index paths to
 * choose. Every statement is a template where {@code {T}} stands for the table under test and {@code {S}} for the
 * small outer table of correlated sub-queries.
 */
final class AccessWorkload {
  static final String COLUMNS_DDL = "id INTEGER NOT NULL, a INTEGER, b BIGINT, c VARCHAR(8), d NUMERIC(10,2), "
      + "e DATE, f BOOLEAN, g CHAR(3), u INTEGER, h TEXT, k INTEGER NOT NULL";
  static final String ALL_COLUMNS = "id, a, b, c, d, e, f, g, u, h, k";
  static final String OUTER_DDL = "CREATE TABLE s (id INTEGER PRIMARY KEY, a INTEGER, b BIGINT, c VARCHAR(8))";

  /** A copy of the table: its name, its primary key columns (null: none, a hidden row id), and its indexes. */
  record Copy(String name, String primaryKey, List<String> indexes) {
    List<String> ddl() {
      List<String> out = new ArrayList<>();
      out.add("CREATE TABLE " + name + " (" + COLUMNS_DDL + (primaryKey != null ? ", PRIMARY KEY (" + primaryKey
          + "))" : ")"));
      out.addAll(indexes);
      return out;
    }

    boolean indexed() {
      return !indexes.isEmpty();
    }
  }

  static final Copy PLAIN = new Copy("t_plain", "id", List.of());
  static final List<Copy> COPIES = List.of(
      PLAIN,
      new Copy("t_comp", "id", List.of("CREATE INDEX t_comp_abc ON t_comp (a, b, c)")),
      new Copy("t_desc", "id", List.of("CREATE INDEX t_desc_ba ON t_desc (b DESC, a)")),
      new Copy("t_uniq", "id", List.of("CREATE UNIQUE INDEX t_uniq_u ON t_uniq (u)")),
      new Copy("t_cov", "id", List.of("CREATE INDEX t_cov_cade ON t_cov (c, a, d, e)")),
      new Copy("t_multi", "id", List.of(
          "CREATE INDEX t_multi_abc ON t_multi (a, b, c)",
          "CREATE INDEX t_multi_ba ON t_multi (b DESC, a)",
          "CREATE UNIQUE INDEX t_multi_u ON t_multi (u)",
          "CREATE INDEX t_multi_g ON t_multi (g)",
          "CREATE INDEX t_multi_ef ON t_multi (e DESC, f)",
          "CREATE INDEX t_multi_d ON t_multi (d)")),
      new Copy("t_nopk", null, List.of(
          "CREATE INDEX t_nopk_ab ON t_nopk (a, b)",
          "CREATE INDEX t_nopk_ge ON t_nopk (g, e DESC)",
          // entries without NULLs are keyed by (u, a) alone, those with a NULL also by the row id
          "CREATE UNIQUE INDEX t_nopk_ua ON t_nopk (u, a DESC)")),
      // a composite primary key: primary-key ranges on an equality prefix, row keys of two columns in entries
      new Copy("t_pk2", "k, id", List.of("CREATE INDEX t_pk2_ba ON t_pk2 (b DESC, a)")));

  /**
   * Key orders the generator shapes ORDER BY clauses and prefixes after: each entry is the index columns (a
   * leading '-' for DESC) followed by the primary key where the index has one.
   */
  static final List<List<String>> KEY_ORDERS = List.of(
      List.of("a", "b", "c", "id"),
      List.of("-b", "a", "id"),
      List.of("u", "id"),
      List.of("c", "a", "d", "e", "id"),
      List.of("g", "id"),
      List.of("-e", "f", "id"),
      List.of("d", "id"),
      List.of("a", "b"),
      List.of("g", "-e"),
      List.of("id"),
      List.of("h", "id"),
      List.of("k", "id"),
      List.of("-b", "a", "k", "id"),
      List.of("u", "-a"));

  /** Projections, several of which some index covers (with the primary key). */
  static final List<String> PROJECTIONS = List.of(
      "id, a, b, c", "id, c, a, d, e", "id", "id, u", "id, b, a", ALL_COLUMNS, "id, g, e", "a, b", "id, d",
      "id, e, f", "c, id", "g", "k, id, b", "id, u, a");

  static final String[] STRINGS = {"", "a", "ab", "abc", "b", "ba", "B", "a%b", "a_b", "zz"};
  /**
   * Strings whose order differs between UTF-16 code units (Java's String.compareTo) and code points (UTF-8
   * bytes, the key order and PostgreSQL's C collation): U+FF71 sorts before U+1F600 by code point, after it by
   * UTF-16 unit.
   */
  static final String[] WIDE_STRINGS = {"\u00e9", "\uff71", "\ud83d\ude00", "a\ud83d\ude00", "\uff71b"};
  static final String[] CHARS = {"x", "xy", "xyz", "ab", "a"};
  static final String[] DECIMALS = {"-1.50", "0.00", "0.01", "1.50", "2.25", "10.00", "99.99", "12345678.90"};
  static final LocalDate DAY0 = LocalDate.of(2024, 1, 1);

  final Random r;
  final int rows;
  /** The rows as inserted: id, a, b, c, d, e, f, g, u, h, k (Java values, null for NULL). */
  final List<Object[]> data = new ArrayList<>();
  private int nextId;
  private int nextUnique = 50_000;
  /** Switches for generator features that hit known discrepancies (see the test's disabled reproductions). */
  final Set<String> off;
  /** The strings of column c: {@link #STRINGS}, and {@link #WIDE_STRINGS} unless "wideStrings" is off. */
  final String[] strings;

  AccessWorkload(long seed, int rows, Set<String> off) {
    this.r = new Random(seed);
    this.rows = rows;
    this.off = off;
    List<String> all = new ArrayList<>(List.of(STRINGS));
    if (!off.contains("wideStrings")) {
      all.addAll(List.of(WIDE_STRINGS));
    }
    this.strings = all.toArray(new String[0]);
    List<Integer> uniques = new ArrayList<>();
    for (int i = 0; i < rows * 3; i++) {
      uniques.add(i);
    }
    Collections.shuffle(uniques, r);
    for (int id = 1; id <= rows; id++) {
      data.add(newRow(id, chance(0.2) ? null : uniques.get(id)));
    }
    Collections.shuffle(data, r);
    nextId = rows + 1;
  }

  private Object[] newRow(int id, Integer u) {
    Object a;
    if (chance(0.12)) {
      a = null;
    } else if (chance(0.03)) {
      a = chance(0.5) ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    } else {
      // skewed: value 1 holds about a third of the rows
      a = chance(0.3) ? 1 : r.nextInt(10);
    }
    Object b;
    if (chance(0.12)) {
      b = null;
    } else if (chance(0.03)) {
      b = chance(0.5) ? 5_000_000_000L : -5_000_000_000L;
    } else {
      b = (long) (r.nextInt(16) - 3);
    }
    String c = chance(0.1) ? null : pick(strings);
    BigDecimal d = chance(0.1) ? null : new BigDecimal(pick(DECIMALS));
    LocalDate e = chance(0.1) ? null : chance(0.03) ? (chance(0.5) ? LocalDate.of(1999, 12, 31)
        : LocalDate.of(2100, 1, 1)) : DAY0.plusDays(r.nextInt(30));
    Boolean f = chance(0.15) ? null : r.nextBoolean();
    String g = chance(0.2) ? null : pick(CHARS);
    String h = chance(0.1) ? null : "h" + r.nextInt(20);
    return new Object[] {id, a, b, c, d, e, f, g, u, h, id % 7};
  }

  /** Multi-row INSERT statements (100 rows each) loading {@code rows} into {@code table}. */
  static List<String> inserts(String table, List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += 100) {
      StringJoiner values = new StringJoiner(", ", "INSERT INTO " + table + " (" + ALL_COLUMNS + ") VALUES ", "");
      for (Object[] row : rows.subList(from, Math.min(rows.size(), from + 100))) {
        values.add(rowLiteral(row));
      }
      out.add(values.toString());
    }
    return out;
  }

  static String rowLiteral(Object[] row) {
    StringJoiner j = new StringJoiner(", ", "(", ")");
    for (int i = 0; i < row.length; i++) {
      Object v = row[i];
      if (v != null && i == 7 && ((String) v).length() < 3 && ((Integer) row[0]) % 2 == 0) {
        j.add(literal(v + " ")); // some CHAR(3) values arrive with trailing spaces
      } else {
        j.add(literal(v));
      }
    }
    return j.toString();
  }

  /** The outer table of correlated sub-queries: 30 rows of (id, a, b, c) drawn like the main table's. */
  List<String> outerInserts() {
    StringJoiner values = new StringJoiner(", ", "INSERT INTO s VALUES ", "");
    for (int id = 1; id <= 30; id++) {
      Object[] like = data.get(r.nextInt(data.size()));
      values.add("(" + id + ", " + literal(chance(0.8) ? like[1] : (Object) (r.nextInt(12) - 1)) + ", "
          + literal(chance(0.8) ? like[2] : null) + ", " + literal(chance(0.8) ? like[3] : pick(strings)) + ")");
    }
    return List.of(values.toString());
  }

  // ------------------------------------------------------------------------------------------ randomness

  boolean chance(double p) {
    return r.nextDouble() < p;
  }

  <T> T pick(T[] values) {
    return values[r.nextInt(values.length)];
  }

  <T> T pick(List<T> values) {
    return values.get(r.nextInt(values.size()));
  }

  /** A value of the column taken from an existing row (a hit), or null when that row holds NULL. */
  private Object existing(int column) {
    return data.get(r.nextInt(data.size()))[column];
  }

  private static int columnIndex(String column) {
    return switch (column) {
      case "id" -> 0;
      case "a" -> 1;
      case "b" -> 2;
      case "c" -> 3;
      case "d" -> 4;
      case "e" -> 5;
      case "f" -> 6;
      case "g" -> 7;
      case "u" -> 8;
      case "h" -> 9;
      case "k" -> 10;
      default -> throw new IllegalArgumentException(column);
    };
  }

  // ------------------------------------------------------------------------------------------ literals

  /** A SQL literal to compare {@code column} with: mostly existing values, sometimes type limits and misses. */
  String literalFor(String column) {
    Object v = existing(columnIndex(column));
    if (v != null && chance(0.6)) {
      return literal(v);
    }
    return switch (column) {
      case "id" -> String.valueOf(r.nextInt(rows + 10) - 2);
      case "a", "u" -> chance(0.15) ? pick(new String[] {"2147483647", "-2147483648", "3000000000", "-3000000000",
          "2.5", "3.0", "0"}) : String.valueOf(r.nextInt(12) - 1);
      case "b" -> chance(0.15) ? pick(new String[] {"5000000000", "-5000000000", "9223372036854775807", "2.5",
          "-4"}) : String.valueOf(r.nextInt(18) - 4);
      case "c" -> literal(chance(0.8) ? pick(strings) : pick(new String[] {"aa", "c", "A", "ab "}));
      case "d" -> pick(new String[] {"1.5", "1.50", "1.500", "2.25", "0", "-1.5", "10", "99.99", "12345678.9",
          "1.499", "2"});
      case "e" -> literal(chance(0.1) ? LocalDate.of(1999, 12, 31) : DAY0.plusDays(r.nextInt(34) - 2));
      case "f" -> r.nextBoolean() ? "TRUE" : "FALSE";
      case "g" -> literal(off.contains("charTrailingSpaceLiteral") ? pick(CHARS)
          : chance(0.8) ? pick(CHARS) : pick(new String[] {"x ", "xy ", "b"}));
      case "h" -> literal("h" + r.nextInt(22));
      case "k" -> String.valueOf(r.nextInt(10) - 1);
      default -> throw new IllegalArgumentException(column);
    };
  }

  /** A bound parameter: the JDBC setter to use and its value; {@code pgComparable} false where the two differ. */
  record Param(String setter, Object value, int nullType, boolean pgComparable) {
    void bind(PreparedStatement ps, int i) throws SQLException {
      switch (setter) {
        case "null" -> ps.setNull(i, nullType);
        case "int" -> ps.setInt(i, ((Number) value).intValue());
        case "long" -> ps.setLong(i, ((Number) value).longValue());
        case "decimal" -> ps.setBigDecimal(i, (BigDecimal) value);
        case "double" -> ps.setDouble(i, ((Number) value).doubleValue());
        case "string" -> ps.setString(i, (String) value);
        case "date" -> ps.setDate(i, java.sql.Date.valueOf((LocalDate) value));
        case "localdate" -> ps.setObject(i, value);
        case "boolean" -> ps.setBoolean(i, (Boolean) value);
        default -> throw new IllegalStateException(setter);
      }
    }

    @Override
    public String toString() {
      return setter.equals("null") ? "setNull(" + nullType + ")" : setter + " " + io.accel.e2e.diff.Results.show(value);
    }
  }

  /** A parameter for a comparison with {@code column}. */
  Param paramFor(String column) {
    int ci = columnIndex(column);
    Object v = existing(ci);
    if (chance(0.07)) {
      int type = switch (column) {
        case "a", "u", "id", "k" -> Types.INTEGER;
        case "b" -> Types.BIGINT;
        case "d" -> Types.NUMERIC;
        case "e" -> Types.DATE;
        case "f" -> Types.BOOLEAN;
        default -> Types.VARCHAR;
      };
      return new Param("null", null, type, true);
    }
    switch (column) {
      case "k":
        return new Param(chance(0.7) ? "int" : "long", v instanceof Integer i ? i : r.nextInt(8), 0, true);
      case "id", "a", "u": {
        int x = v instanceof Integer i ? i : r.nextInt(10);
        double p = r.nextDouble();
        if (p < 0.55) {
          return new Param("int", x, 0, true);
        } else if (p < 0.75) {
          return new Param("long", (long) x, 0, true);
        } else if (p < 0.87) {
          return new Param("decimal", new BigDecimal(x + ".00"), 0, true);
        } else if (off.contains("pgParamConversion")) {
          return new Param("int", x, 0, true);
        } else if (p < 0.94) {
          // PostgreSQL compares the INTEGER column with the NUMERIC parameter; Accel converts it to INTEGER
          return new Param("decimal", new BigDecimal(x + ".5"), 0, false);
        } else {
          // PostgreSQL compares with the BIGINT parameter; Accel fails converting it to INTEGER (22003)
          return new Param("long", chance(0.5) ? 3_000_000_000L : -3_000_000_000L, 0, false);
        }
      }
      case "b": {
        long x = v instanceof Long l ? l : r.nextInt(12);
        double p = r.nextDouble();
        if (p < 0.5) {
          return new Param("long", x, 0, true);
        } else if (p < 0.8 && x == (int) x) {
          return new Param("int", (int) x, 0, true);
        }
        return new Param("decimal", new BigDecimal(x), 0, true);
      }
      case "d": {
        BigDecimal x = v instanceof BigDecimal b ? b : new BigDecimal(pick(DECIMALS));
        double p = r.nextDouble();
        if (p < 0.5) {
          return new Param("decimal", x, 0, true);
        } else if (p < 0.7) {
          return new Param("decimal", x.setScale(3), 0, true);
        } else if (p < 0.85 && x.stripTrailingZeros().scale() <= 0) {
          return new Param("int", x.intValueExact(), 0, true);
        }
        return new Param("double", chance(0.5) ? 1.5 : 2.25, 0, true);
      }
      case "e": {
        LocalDate x = v instanceof LocalDate d ? d : DAY0.plusDays(r.nextInt(30));
        return new Param(r.nextBoolean() ? "date" : "localdate", x, 0, true);
      }
      case "f":
        return new Param("boolean", v instanceof Boolean b ? b : r.nextBoolean(), 0, true);
      case "c":
        return new Param("string", v instanceof String s ? s : pick(strings), 0, true);
      case "g":
        return new Param("string", v instanceof String s ? s : pick(CHARS), 0, true);
      default:
        return new Param("string", v instanceof String s ? s : "h" + r.nextInt(20), 0, true);
    }
  }

  // ------------------------------------------------------------------------------------------ predicates

  /** Columns predicates are drawn from, weighted towards index columns. */
  private static final String[] INDEXED = {"a", "a", "a", "b", "b", "b", "c", "c", "u", "u", "g", "g", "e", "e",
      "d", "d", "f", "id", "k", "k"};
  private static final String[] OTHER = {"h", "h", "f", "d", "id", "c"};

  /** A query under construction: its SQL and its bound parameters, in order. */
  static final class Builder {
    final StringBuilder sql = new StringBuilder();
    final List<Param> params = new ArrayList<>();

    Builder add(String s) {
      sql.append(s);
      return this;
    }
  }

  /** A conjunction of 1..max atoms over columns qualified by {@code q} ("" or "o."). */
  String condition(Builder b, String q, int max, boolean params) {
    int n = 1 + r.nextInt(max);
    List<String> atoms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String column = chance(0.8) ? pick(INDEXED) : pick(OTHER);
      atoms.add(atom(b, q, column, params && chance(0.35)));
    }
    if (chance(0.1)) {
      // an OR across two columns: no single index bounds it
      atoms.add("(" + atom(b, q, pick(INDEXED), false) + " OR " + atom(b, q, pick(INDEXED), false) + ")");
    }
    return String.join(" AND ", atoms);
  }

  /**
   * One predicate on {@code column}. With {@code param}, values are {@code ?} parameters added to {@code b}
   * (its params must then be appended in the order the atoms appear in the final SQL: callers build the SQL
   * left to right).
   */
  String atom(Builder b, String q, String column, boolean param) {
    String x = q + column;
    if (column.equals("f")) {
      return switch (r.nextInt(6)) {
        case 0 -> x;
        case 1 -> "NOT " + x;
        case 2 -> x + " IS NULL";
        case 3 -> x + " IS NOT NULL";
        case 4 -> param ? x + " = " + p(b, column) : x + " = " + literalFor(column);
        default -> x + " <> " + literalFor(column);
      };
    }
    if ((column.equals("c") || column.equals("h")) && chance(0.2)) {
      String pattern = column.equals("h") ? pick(new String[] {"h1%", "h_", "%9", "h1_"})
          : pick(new String[] {"a%", "a_", "%b", "a%b", "_", "%", "b%", "a_%"});
      return x + (chance(0.2) ? " NOT LIKE " : " LIKE ") + literal(pattern);
    }
    int kind = r.nextInt(20);
    switch (kind) {
      case 18:
      case 19: {
        // an OR of ranges, points and IS NULL on one column: several intervals of one key column, possibly
        // overlapping (normalised statements turn literal IN lists into such ORs of parameters)
        StringJoiner j = new StringJoiner(" OR ", "(", ")");
        int n = 2 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          switch (r.nextInt(5)) {
            case 0 -> j.add(x + pick(new String[] {" < ", " <= "}) + v(b, column, param));
            case 1 -> j.add(x + pick(new String[] {" > ", " >= "}) + v(b, column, param));
            case 2 -> {
              String lo = v(b, column, param);
              j.add(x + " BETWEEN " + lo + " AND " + v(b, column, param));
            }
            case 3 -> j.add(x + " IS NULL");
            default -> j.add(x + " = " + v(b, column, param));
          }
        }
        return j.toString();
      }
      case 16:
        if (column.equals("a") || column.equals("u") || column.equals("k") || column.equals("b")) {
          // the column under a widening cast still bounds its key (INTEGER to BIGINT or NUMERIC)
          return pick(new String[] {"CAST(" + x + " AS BIGINT)", "CAST(" + x + " AS NUMERIC(20,2))"})
              + pick(new String[] {" = ", " < ", " >= ", " <> "}) + literalFor(column);
        }
        return x + " = " + literalFor(column);
      case 17:
        // a comparison of two columns: no key bound, evaluated on the entry or the row
        return pick(new String[] {q + "a = " + q + "b", q + "a < " + q + "k", q + "u > " + q + "id",
            q + "b >= " + q + "a"});
      case 0:
      case 1:
      case 2:
        return x + " = " + v(b, column, param);
      case 3:
        return x + pick(new String[] {" <> ", " != "}) + v(b, column, param);
      case 4:
        return x + pick(new String[] {" < ", " <= ", " > ", " >= "}) + v(b, column, param);
      case 5:
        return v(b, column, param) + pick(new String[] {" < ", " <= ", " > ", " >= "}) + x;
      case 6: {
        String lo = v(b, column, param);
        return x + (chance(0.15) ? " NOT BETWEEN " : " BETWEEN ") + lo + " AND " + v(b, column, param);
      }
      case 7: {
        // a two-sided range, sometimes empty (low above high)
        String lo = v(b, column, param);
        return x + pick(new String[] {" > ", " >= "}) + lo + " AND " + x + pick(new String[] {" < ", " <= "})
            + v(b, column, param);
      }
      case 8:
      case 9: {
        int n = 1 + r.nextInt(5);
        StringJoiner j = new StringJoiner(", ", x + " IN (", ")");
        List<String> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          String value = v(b, column, param);
          values.add(value);
          j.add(value);
        }
        if (!param && chance(0.3)) {
          j.add(values.get(0)); // duplicates
        }
        if (!param && chance(0.2)) {
          j.add("NULL");
        }
        return j.toString();
      }
      case 10: {
        StringJoiner j = new StringJoiner(" OR ", "(", ")");
        int n = 2 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          j.add(chance(0.15) ? x + " IS NULL" : x + " = " + v(b, column, param));
        }
        return j.toString();
      }
      case 11:
        return x + " IS NULL";
      case 12:
        return x + " IS NOT NULL";
      case 13: {
        int n = 1 + r.nextInt(3);
        StringJoiner j = new StringJoiner(", ", x + " NOT IN (", ")");
        for (int i = 0; i < n; i++) {
          j.add(literalFor(column));
        }
        return j.toString();
      }
      case 14:
        return "NOT (" + x + pick(new String[] {" < ", " >= "}) + literalFor(column) + ")";
      default:
        if (param && (column.equals("a") || column.equals("u"))) {
          // an explicitly typed parameter of a wider type than the INTEGER column
          if (chance(0.5)) {
            b.params.add(new Param("decimal", new BigDecimal(r.nextInt(10) + (chance(0.5) ? ".5" : ".0")), 0,
                true));
            return x + pick(new String[] {" < ", " <= ", " > ", " >= ", " = "}) + "CAST(? AS NUMERIC(12,1))";
          }
          b.params.add(new Param("long", chance(0.3) ? (chance(0.5) ? 3_000_000_000L : -3_000_000_000L)
              : (long) r.nextInt(10), 0, true));
          return x + pick(new String[] {" < ", " <= ", " > ", " >= ", " = "}) + "CAST(? AS BIGINT)";
        }
        return x + pick(new String[] {" <= ", " >= "}) + v(b, column, param);
    }
  }

  private String v(Builder b, String column, boolean param) {
    return param ? p(b, column) : literalFor(column);
  }

  private String p(Builder b, String column) {
    b.params.add(paramFor(column));
    return "?";
  }

  // ------------------------------------------------------------------------------------------ queries

  /** A generated query: a template with {@code {T}} (and {@code {S}}), its parameters and comparison mode. */
  record Query(String kind, String template, List<Param> params, AccessRows.Mode mode) {
    String sql(String table) {
      return template.replace("{T}", table).replace("{S}", "s");
    }

    boolean pgComparable() {
      return params.stream().allMatch(Param::pgComparable);
    }

    @Override
    public String toString() {
      return template + (params.isEmpty() ? "" : "  -- params " + params);
    }
  }

  Query query() {
    double p = r.nextDouble();
    if (p < 0.35) {
      return filterQuery(false);
    } else if (p < 0.47) {
      return filterQuery(true);
    } else if (p < 0.77) {
      return orderedQuery(chance(0.25));
    } else if (p < 0.92) {
      return aggregateQuery();
    }
    return correlatedQuery();
  }

  Query filterQuery(boolean params) {
    Builder b = new Builder();
    String projection = pick(PROJECTIONS);
    String cond = condition(b, "", 3, params);
    return new Query(params ? "filter+params" : "filter", "SELECT " + projection + " FROM {T} WHERE " + cond,
        b.params, AccessRows.Mode.UNORDERED);
  }

  /**
   * ORDER BY shaped after a key order: optionally equalities fix its leading columns, the ORDER BY takes the
   * next ones in the key's directions (or all reversed), sometimes with explicit NULLS FIRST/LAST, and a
   * LIMIT/OFFSET that an ordered index scan can stop early for.
   */
  Query orderedQuery(boolean params) {
    Builder b = new Builder();
    List<String> key = pick(KEY_ORDERS);
    int fixed = key.size() > 1 && chance(0.35) ? 1 + (key.size() > 2 && chance(0.3) ? 1 : 0) : 0;
    List<String> conds = new ArrayList<>();
    for (int i = 0; i < fixed; i++) {
      String col = key.get(i).replace("-", "");
      if (chance(0.15)) {
        conds.add(col + " IS NULL");
      } else if (params && chance(0.5)) {
        conds.add(col + " = " + p(b, col));
      } else {
        conds.add(col + " = " + literalFor(col));
      }
    }
    if (chance(0.6)) {
      conds.add(condition(b, "", 2, params));
    }
    int from = fixed;
    int to = from + 1 + r.nextInt(key.size() - from);
    List<String> orderCols = new ArrayList<>();
    boolean reverse = r.nextBoolean();
    StringJoiner order = new StringJoiner(", ");
    for (int i = from; i < to; i++) {
      String k = key.get(i);
      boolean desc = k.startsWith("-") != reverse;
      String col = k.replace("-", "");
      if (chance(0.1)) {
        desc = !desc; // a direction the key cannot give: a sort
      }
      String nulls = "";
      if (chance(0.35)) {
        boolean first = chance(0.75) == desc; // mostly the direction's default, sometimes the other
        nulls = first ? " NULLS FIRST" : " NULLS LAST";
      }
      orderCols.add(col);
      order.add(col + (desc ? " DESC" : chance(0.3) ? " ASC" : "") + nulls);
    }
    boolean total = orderCols.contains("id");
    boolean limited = chance(0.6);
    String limit = "";
    if (limited) {
      if (params && chance(0.4)) {
        limit = " LIMIT ?";
        // the LIMIT parameter follows every condition parameter
      } else {
        limit = " LIMIT " + (1 + r.nextInt(12));
      }
      if (chance(0.3)) {
        limit += " OFFSET " + r.nextInt(8);
      }
    }
    List<String> select = new ArrayList<>(orderCols);
    if (total || !limited) {
      for (String extra : pick(PROJECTIONS).split(", ")) {
        if (!select.contains(extra)) {
          select.add(extra);
        }
      }
    }
    String where = conds.isEmpty() ? "" : " WHERE " + String.join(" AND ", conds);
    String sql = "SELECT " + String.join(", ", select) + " FROM {T}" + where + " ORDER BY " + order + limit;
    if (limit.startsWith(" LIMIT ?")) {
      b.params.add(new Param("int", 1 + r.nextInt(12), 0, true));
    }
    AccessRows.Mode mode = total ? AccessRows.Mode.TOTAL : AccessRows.Mode.keys(orderCols.size(), !limited);
    return new Query(params ? "ordered+params" : "ordered", sql, b.params, mode);
  }

  Query aggregateQuery() {
    Builder b = new Builder();
    boolean params = chance(0.3);
    String cond = condition(b, "", 2, params);
    switch (r.nextInt(4)) {
      case 0:
        return new Query("aggregate", "SELECT count(*), sum(d), min(a), max(b), count(g), sum(b) FROM {T} WHERE "
            + cond, b.params, AccessRows.Mode.UNORDERED);
      case 1: {
        String group = pick(new String[] {"a", "b", "c", "g", "f", "e"});
        return new Query("aggregate", "SELECT " + group + ", count(*), sum(d), max(id) FROM {T} WHERE " + cond
            + " GROUP BY " + group, b.params, AccessRows.Mode.UNORDERED);
      }
      case 2:
        return new Query("aggregate", "SELECT count(DISTINCT a), count(DISTINCT c), min(e), max(u) FROM {T} WHERE "
            + cond, b.params, AccessRows.Mode.UNORDERED);
      default: {
        String col = pick(new String[] {"a", "b", "u", "d", "e", "g"});
        boolean where = chance(0.5);
        return new Query("aggregate", "SELECT min(" + col + "), max(" + col + "), count(" + col + ") FROM {T}"
            + (where ? " WHERE " + cond : ""), where ? b.params : List.of(), AccessRows.Mode.UNORDERED);
      }
    }
  }

  Query correlatedQuery() {
    Builder b = new Builder();
    String extra = chance(0.6) ? " AND " + condition(b, "o.", 1, false) : "";
    switch (r.nextInt(6)) {
      case 0:
        return new Query("correlated", "SELECT s.id, s.a FROM {S} s WHERE EXISTS (SELECT 1 FROM {T} o WHERE o.a = s.a"
            + " AND o.b > " + literalFor("b") + extra + ")", List.of(), AccessRows.Mode.UNORDERED);
      case 1:
        return new Query("correlated", "SELECT s.id FROM {S} s WHERE NOT EXISTS (SELECT 1 FROM {T} o WHERE o.b = s.b"
            + extra + ")", List.of(), AccessRows.Mode.UNORDERED);
      case 2:
        return new Query("correlated", "SELECT s.id, (SELECT count(*) FROM {T} o WHERE o.a = s.a AND o.c = s.c"
            + extra + ") FROM {S} s", List.of(), AccessRows.Mode.UNORDERED);
      case 3:
        return new Query("correlated", "SELECT s.id, (SELECT max(o.b) FROM {T} o WHERE o.a = s.a AND o.b <= s.b"
            + extra + ") FROM {S} s", List.of(), AccessRows.Mode.UNORDERED);
      case 4:
        return new Query("correlated", "SELECT s.id FROM {S} s WHERE s.a IN (SELECT o.a FROM {T} o WHERE o.b = s.b"
            + extra + ")", List.of(), AccessRows.Mode.UNORDERED);
      default:
        return new Query("correlated", "SELECT s.id, (SELECT o.id FROM {T} o WHERE o.a = s.a" + extra
            + " ORDER BY o.b DESC NULLS LAST, o.id DESC LIMIT 1) FROM {S} s", List.of(), AccessRows.Mode.UNORDERED);
    }
  }

  private static final Pattern LITERAL = Pattern.compile(
      "DATE '[0-9-]+'|'[^']*'|(?<![A-Za-z_0-9.])-?[0-9]+(\\.[0-9]+)?(?![A-Za-z_0-9])|(LIMIT|OFFSET) [0-9]+");

  /**
   * The same query with other literal values of the same kinds: run right after the original on the same
   * connection, it reuses the plan the plan cache made for the original's literals (as parameters).
   */
  Query withOtherLiterals(Query q) {
    Matcher m = LITERAL.matcher(q.template());
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String lit = m.group();
      String replacement;
      if (lit.startsWith("LIMIT") || lit.startsWith("OFFSET")) {
        replacement = lit.substring(0, lit.indexOf(' ') + 1) + r.nextInt(12);
      } else if (lit.startsWith("DATE")) {
        replacement = literal(DAY0.plusDays(r.nextInt(34) - 2));
      } else if (lit.startsWith("'")) {
        replacement = literal(chance(0.5) ? pick(strings) : chance(0.5) ? pick(CHARS) : "h" + r.nextInt(20));
      } else if (lit.contains(".")) {
        replacement = pick(new String[] {"1.5", "2.25", "0.01", "2.5", "-1.50", "99.99", "3.0"});
      } else {
        replacement = chance(0.9) ? String.valueOf(r.nextInt(12) - 1)
            : pick(new String[] {"2147483647", "-2147483648", "3000000000", "5000000000"});
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return new Query(q.kind() + "+relit", out.toString(), q.params(), q.mode());
  }

  /**
   * Queries reading every entry of each index in key order (covering, so the planner reads the index itself): the
   * index holds exactly the table's rows.
   */
  static List<Query> sweeps() {
    List<Query> out = new ArrayList<>();
    String[][] sweeps = {
        {"id, a, b, c", "a, b, c, id"},
        {"id, a, b, c", "a DESC, b DESC, c DESC, id DESC"},
        {"id, b, a", "b DESC, a, id"},
        {"id, b, a", "b, a DESC, id DESC"},
        {"id, u", "u, id"},
        {"id, u", "u DESC, id DESC"},
        {"id, c, a, d, e", "c, a, d, e, id"},
        {"id, g", "g, id"},
        {"id, e, f", "e DESC, f, id"},
        {"id, d", "d, id"},
        {"a, b, id", "a, b, id"},
        {"g, e, id", "g, e DESC, id"},
        {"u, a, id", "u, a DESC, id"},
        {"k, id, b", "k, id"},
        {"k, id, b, a", "k DESC, id DESC"},
        {"b, a, k, id", "b DESC, a, k, id"}};
    for (String[] s : sweeps) {
      out.add(new Query("sweep", "SELECT " + s[0] + " FROM {T} ORDER BY " + s[1], List.of(),
          AccessRows.Mode.TOTAL));
    }
    out.add(new Query("sweep", "SELECT " + ALL_COLUMNS + " FROM {T} ORDER BY id", List.of(), AccessRows.Mode.TOTAL));
    return out;
  }

  // ------------------------------------------------------------------------------------------ DML

  /** A DML statement template ({@code {T}}), applied identically to every copy. */
  String dml() {
    Builder ignored = new Builder();
    String cond = condition(ignored, "", 2, false);
    switch (r.nextInt(11)) {
      case 0:
        return "UPDATE {T} SET a = " + pick(new String[] {"NULL", "1", "7", "2147483647", "-2147483648"})
            + ", h = 'upd' WHERE " + cond;
      case 1:
        return "UPDATE {T} SET b = b + 1, c = " + literal(pick(strings)) + " WHERE " + cond;
      case 2:
        return "UPDATE {T} SET g = " + pick(new String[] {"NULL", "'xy'", "'z  '", "'a'"}) + ", d = -d WHERE " + cond;
      case 3:
        return "UPDATE {T} SET u = u + 1000000 WHERE " + cond;
      case 4:
        return "UPDATE {T} SET u = NULL, e = DATE '2024-02-01' WHERE " + cond;
      case 5:
        return "UPDATE {T} SET f = NOT f, a = b WHERE b BETWEEN -3 AND 20 AND " + cond;
      case 9:
        // moves rows within the composite primary key (k, id) of t_pk2
        return "UPDATE {T} SET k = k + 1 WHERE " + cond;
      case 6:
      case 7:
        return "DELETE FROM {T} WHERE " + cond;
      default: {
        // case 8 and 10
        List<Object[]> fresh = new ArrayList<>();
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
          fresh.add(newRow(nextId++, chance(0.3) ? null : nextUnique++));
        }
        return inserts("{T}", fresh).get(0);
      }
    }
  }

  // ------------------------------------------------------------------------------------------ helpers

  static Set<String> set(String... names) {
    return new LinkedHashSet<>(List.of(names));
  }
}
