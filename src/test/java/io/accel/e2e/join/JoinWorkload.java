package io.accel.e2e.join;

import static io.accel.e2e.access.AccessRows.literal;

import io.accel.e2e.access.AccessRows;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Schemas, data, queries and DML of {@link StraddledJoinDifferentialTest}: random schemas of an outer table
 * {@code a} and one or two inner tables {@code b} and {@code c}, joined on key columns of comparable but sometimes
 * different types, with duplicate and NULL keys on both sides, low-cardinality status columns, range columns and
 * secondary indexes shaped for index-lookup joins (the join key followed by columns the inner side fixes by
 * equality, DESC columns, UNIQUE, INCLUDE) or not usable for them at all; and random straddled joins over them:
 * predicates on both sides plus the join condition, as inner, left, right, semi (IN / EXISTS) and anti (NOT IN /
 * NOT EXISTS) joins, with non-equi extra conditions, three-way joins, ORDER BY + LIMIT, aggregates and {@code ?}
 * parameters.
 *
 * <p>Known Accel gaps the generator avoids (they are not join bugs): strings outside the BMP, CHAR columns
 * compared with literals with trailing spaces (there are no CHAR columns), parameters bound with values outside
 * the column type's range (every literal that may become a parameter is drawn from the domain of the column it is
 * compared with), decimal division (there is none, nor AVG).
 */
final class JoinWorkload {
  static final LocalDate DAY0 = LocalDate.of(2024, 1, 1);
  static final String[] STATUSES = {"PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"};
  /** Cumulative shares of {@link #STATUSES}: 10%, 15%, 30%, 40%, 5% (the straddle workload's). */
  static final double[] STATUS_CDF = {0.10, 0.25, 0.55, 0.95, 1.0};
  static final String[] KINDS = {"A", "B", "C"};

  /** The outer table's key type and the inner tables' key type (equal or comparable). */
  record KeyPair(String outer, String inner) {
    @Override
    public String toString() {
      return outer + "/" + inner;
    }
  }

  static final List<KeyPair> KEY_PAIRS = List.of(
      new KeyPair("INTEGER", "INTEGER"),
      new KeyPair("INTEGER", "BIGINT"),
      new KeyPair("BIGINT", "INTEGER"),
      new KeyPair("INTEGER", "NUMERIC(10,2)"),
      new KeyPair("NUMERIC(10,2)", "INTEGER"),
      new KeyPair("SMALLINT", "INTEGER"),
      new KeyPair("INTEGER", "SMALLINT"),
      new KeyPair("VARCHAR(12)", "VARCHAR(12)"),
      new KeyPair("VARCHAR(10)", "VARCHAR(16)"),
      new KeyPair("VARCHAR(16)", "VARCHAR(10)"),
      new KeyPair("DATE", "DATE"));

  /** How well the inner tables are indexed for lookups by their join key. */
  enum Indexing { RICH, ONE, UNUSABLE }

  /** A table: name, column definitions (name, SQL type, nullable), primary key (null: none), indexes. */
  record Table(String name, List<String[]> columns, String primaryKey, List<String> indexes, List<Object[]> rows) {
    String createTable() {
      StringJoiner j = new StringJoiner(", ", "CREATE TABLE " + name + " (", ")");
      for (String[] c : columns) {
        j.add(c[0] + " " + c[1] + (c[2].equals("null") ? "" : " NOT NULL"));
      }
      if (primaryKey != null) {
        j.add("PRIMARY KEY (" + primaryKey + ")");
      }
      return j.toString();
    }

    String columnList() {
      StringJoiner j = new StringJoiner(", ");
      for (String[] c : columns) {
        j.add(c[0]);
      }
      return j.toString();
    }

    boolean nullable(String column) {
      for (String[] c : columns) {
        if (c[0].equals(column)) {
          return c[2].equals("null");
        }
      }
      throw new IllegalArgumentException(column);
    }

    String type(String column) {
      for (String[] c : columns) {
        if (c[0].equals(column)) {
          return c[1];
        }
      }
      throw new IllegalArgumentException(column);
    }

    /** A parameterised INSERT of one row, for loading the rows in JDBC batches. */
    String insertParameterised() {
      return "INSERT INTO " + name + " (" + columnList() + ") VALUES (" + "?, ".repeat(columns.size() - 1) + "?)";
    }

    /** The JDBC type of a column, for binding NULLs. */
    int jdbcType(int column) {
      String t = columns.get(column)[1];
      return t.startsWith("NUMERIC") ? Types.NUMERIC : t.startsWith("VARCHAR") ? Types.VARCHAR : switch (t) {
        case "SMALLINT" -> Types.SMALLINT;
        case "INTEGER" -> Types.INTEGER;
        case "BIGINT" -> Types.BIGINT;
        case "DATE" -> Types.DATE;
        default -> throw new IllegalArgumentException(t);
      };
    }

    /** Multi-row INSERT statements (100 rows each). */
    List<String> inserts(List<Object[]> which) {
      List<String> out = new ArrayList<>();
      for (int from = 0; from < which.size(); from += 100) {
        StringJoiner values = new StringJoiner(", ", "INSERT INTO " + name + " (" + columnList() + ") VALUES ", "");
        for (Object[] row : which.subList(from, Math.min(which.size(), from + 100))) {
          values.add(rowLiteral(row));
        }
        out.add(values.toString());
      }
      return out;
    }

    String describe() {
      return name + "(" + rows.size() + " rows, pk " + (primaryKey == null ? "none" : "(" + primaryKey + ")")
          + ", k " + type("k") + (indexes.isEmpty() ? ", no index" : ", " + String.join("; ", indexes)
              .replaceAll("CREATE (UNIQUE )?INDEX \\w+ ON \\w+ ", "$1")) + ")";
    }
  }

  /** One generated schema: its tables ({@code c} may be absent) and the facts queries are drawn from. */
  final class Schema {
    final int number;
    final KeyPair keys;
    final Indexing indexing;
    final boolean analyze;
    final Table a;
    final Table b;
    final Table c;
    /** Key ordinals: a's keys are drawn from [0, domain), b's from [shift, domain + shift). */
    final int domain;
    final int shift;
    int nextB;
    int nextU;

    Schema(int number, KeyPair keys, Indexing indexing, boolean analyze, Table a, Table b, Table c, int domain,
        int shift) {
      this.number = number;
      this.keys = keys;
      this.indexing = indexing;
      this.analyze = analyze;
      this.a = a;
      this.b = b;
      this.c = c;
      this.domain = domain;
      this.shift = shift;
      this.nextB = b.rows().size() + 1;
      this.nextU = 100_000;
    }

    /** Whether b has a primary key or an index leading with the join key, through which a lookup join can read. */
    boolean lookupCapable() {
      return b.primaryKey() != null && b.primaryKey().startsWith("k,")
          || b.indexes().stream().anyMatch(i -> i.contains(" ON b (k,") || i.contains(" ON b (k)")
              || i.contains(" ON b (k DESC"));
    }

    String describe() {
      return "schema " + number + " [keys " + keys + ", " + indexing + (lookupCapable() ? "" : " (no lookup path)")
          + (analyze ? ", ANALYZE" : ", no ANALYZE") + "]: " + a.describe() + "; " + b.describe()
          + (c == null ? "" : "; " + c.describe());
    }
  }

  final Random r;
  /** Whether to generate the constructs of known Accel gaps too (see the test's note; {@code -Djoin.gaps=true}). */
  final boolean gaps;

  JoinWorkload(long seed, boolean gaps) {
    this.r = new Random(seed);
    this.gaps = gaps;
  }

  // ------------------------------------------------------------------------------------------ randomness

  boolean chance(double p) {
    return r.nextDouble() < p;
  }

  <T> T pick(List<T> values) {
    return values.get(r.nextInt(values.size()));
  }

  String pick(String... values) {
    return values[r.nextInt(values.length)];
  }

  int between(int lo, int hi) {
    return lo + r.nextInt(hi - lo + 1);
  }

  String status() {
    double p = r.nextDouble();
    for (int i = 0; i < STATUSES.length; i++) {
      if (p < STATUS_CDF[i]) {
        return STATUSES[i];
      }
    }
    return STATUSES[STATUSES.length - 1];
  }

  // ------------------------------------------------------------------------------------------ values

  /**
   * The key value of ordinal {@code n} in a column of {@code type}; with {@code odd} a value of that type at an
   * edge of the other side's type, which the other side's values rarely or never equal: x.50 and x.01 for NUMERIC
   * (must match neither x nor x+1 of an INTEGER side), INTEGER values beyond SMALLINT and near INTEGER's limit,
   * BIGINT values beyond INTEGER, SMALLINT values at its limit, negative integers; upper-case strings, strings with
   * a trailing space, ten-character strings and (in columns wide enough) the same with a tail, which a key cast
   * to a narrower VARCHAR would truncate to a false match; dates in 1999 and 9999.
   */
  Object key(String type, int n, boolean odd) {
    if (type.startsWith("NUMERIC")) {
      return new BigDecimal(n + (!odd ? ".00" : chance(0.7) ? ".50" : ".01"));
    }
    if (type.startsWith("VARCHAR")) {
      if (!odd) {
        return "k" + n;
      }
      int length = Integer.parseInt(type.substring("VARCHAR(".length(), type.length() - 1));
      return switch (r.nextInt(length >= 14 ? 5 : 4)) {
        case 0 -> "K" + n;
        case 1 -> "k" + n + "x";
        case 2 -> "k" + n + " ";
        case 3 -> String.format("k%09d", n);
        default -> String.format("k%09d", n) + "tail";
      };
    }
    return switch (type) {
      case "INTEGER" -> !odd ? n : switch (r.nextInt(4)) {
        case 0 -> 40_000 + n;
        case 1 -> Integer.MAX_VALUE - n;
        default -> -n - 1;
      };
      case "SMALLINT" -> !odd ? n : chance(0.5) ? Short.MAX_VALUE - n : -n - 1;
      case "BIGINT" -> !odd ? (long) n : switch (r.nextInt(5)) {
        case 0 -> 5_000_000_000L + n;
        case 1 -> (long) Integer.MAX_VALUE + 1 + n;
        case 2 -> (long) Integer.MAX_VALUE - n;
        default -> (long) -n - 1;
      };
      case "DATE" -> !odd ? DAY0.plusDays(n) : chance(0.7) ? LocalDate.of(1999, 12, 31).minusDays(n)
          : LocalDate.of(9999, 12, 31).minusDays(n);
      default -> throw new IllegalArgumentException(type);
    };
  }



  static String rowLiteral(Object[] row) {
    StringJoiner j = new StringJoiner(", ", "(", ")");
    for (Object v : row) {
      j.add(literal(v));
    }
    return j.toString();
  }

  LocalDate day() {
    return DAY0.plusDays(r.nextInt(365));
  }

  // ------------------------------------------------------------------------------------------ schemas

  private static final String[] A_COLUMNS = {"id", "k", "k2", "x", "grp", "r", "dt", "email", "bu"};
  private static final String[] B_COLUMNS = {"id", "k", "k2", "status", "r", "dt", "v", "amt", "u"};
  private static final String[] C_COLUMNS = {"id", "bid", "k", "kind", "qty", "dt"};

  Schema schema(int number, KeyPair keys, Indexing indexing, boolean analyze, int scale) {
    int na = between(scale / 3, scale * 2 / 3);
    int nb = between(scale / 2, scale);
    int domain = Math.max(20, na / 3);
    int shift = domain / 5;

    // b: primary key (id), (k, id), (k2, id) or none; a key column in the primary key is NOT NULL
    String bpk = pick("id", "id", "id", "k, id", "k, id", "k2, id", null, null);
    boolean bKeyNullable = bpk == null || !bpk.contains("k,");
    boolean bK2Nullable = bpk == null || !bpk.startsWith("k2");
    List<String[]> bcols = List.of(
        new String[] {"id", "INTEGER", "not null"},
        new String[] {"k", keys.inner(), bKeyNullable ? "null" : "not null"},
        new String[] {"k2", "INTEGER", bK2Nullable ? "null" : "not null"},
        new String[] {"status", "VARCHAR(10)", "null"},
        new String[] {"r", "INTEGER", "null"},
        new String[] {"dt", "DATE", "null"},
        new String[] {"v", "INTEGER", "null"},
        new String[] {"amt", "NUMERIC(10,2)", "null"},
        new String[] {"u", "INTEGER", "null"});
    List<Integer> uniques = new ArrayList<>();
    for (int i = 0; i < nb * 2; i++) {
      uniques.add(i);
    }
    Collections.shuffle(uniques, r);
    List<Object[]> brows = new ArrayList<>();
    for (int id = 1; id <= nb; id++) {
      brows.add(bRow(id, keys.inner(), domain, shift, bKeyNullable, bK2Nullable,
          chance(0.15) ? null : uniques.get(id)));
    }
    if (bpk == null) {
      // a table without a primary key may hold the same row twice (u NULL keeps a UNIQUE (u) index possible)
      int dups = nb / 30;
      for (int i = 0; i < dups; i++) {
        Object[] row = brows.get(r.nextInt(brows.size()));
        row[8] = null;
        brows.add(row.clone());
      }
    }
    Collections.shuffle(brows, r);
    List<String> bidx = innerIndexes("b", indexing, bpk);
    Table b = new Table("b", bcols, bpk, bidx, brows);

    // a: the outer table, primary key id, nullable keys, low-cardinality x and grp, ranges r and dt
    List<String[]> acols = List.of(
        new String[] {"id", "INTEGER", "not null"},
        new String[] {"k", keys.outer(), "null"},
        new String[] {"k2", "INTEGER", "null"},
        new String[] {"x", "INTEGER", "not null"},
        new String[] {"grp", "VARCHAR(8)", "null"},
        new String[] {"r", "INTEGER", "null"},
        new String[] {"dt", "DATE", "null"},
        new String[] {"email", "VARCHAR(40)", "not null"},
        new String[] {"bu", "INTEGER", "null"});
    List<Object[]> arows = new ArrayList<>();
    for (int id = 1; id <= na; id++) {
      Object k = chance(0.08) ? null : key(keys.outer(), r.nextInt(domain), chance(0.05));
      Object bu = chance(0.2) ? null : chance(0.9) ? b.rows().get(r.nextInt(nb))[8] : (Object) (nb * 3 + id);
      arows.add(new Object[] {id, k, chance(0.1) ? null : r.nextInt(4), chance(0.3) ? 0 : r.nextInt(10),
          chance(0.05) ? null : "g" + r.nextInt(6), chance(0.05) ? null : r.nextInt(100),
          chance(0.05) ? null : day(), "u" + id + "@x.org", bu});
    }
    Collections.shuffle(arows, r);
    List<String> aidx = new ArrayList<>();
    if (chance(0.7)) {
      aidx.add("CREATE UNIQUE INDEX a_email ON a (email)");
    }
    if (chance(0.4)) {
      aidx.add("CREATE INDEX a_x ON a (x)");
    }
    if (chance(0.4)) {
      aidx.add("CREATE INDEX a_grp_dt ON a (grp, dt)");
    }
    if (chance(0.3)) {
      aidx.add("CREATE INDEX a_k ON a (k)");
    }
    Table a = new Table("a", acols, "id", aidx, arows);

    // c: a second inner table, joined to b by bid and to a by k (of a's or b's key type)
    Table c = null;
    if (chance(0.65)) {
      String ctype = chance(0.5) ? keys.outer() : keys.inner();
      String cpk = pick("id", "id", "id", "bid, id", null);
      boolean bidNullable = cpk == null || !cpk.startsWith("bid");
      List<String[]> ccols = List.of(
          new String[] {"id", "INTEGER", "not null"},
          new String[] {"bid", "INTEGER", bidNullable ? "null" : "not null"},
          new String[] {"k", ctype, "null"},
          new String[] {"kind", "VARCHAR(4)", "null"},
          new String[] {"qty", "INTEGER", "null"},
          new String[] {"dt", "DATE", "null"});
      int nc = between(scale / 4, scale / 2);
      List<Object[]> crows = new ArrayList<>();
      for (int id = 1; id <= nc; id++) {
        Object bid = bidNullable && chance(0.05) ? null : chance(0.05) ? (Object) (nb + 1000 + id)
            : (Object) (1 + r.nextInt(nb));
        crows.add(new Object[] {id, bid, chance(0.05) ? null : key(ctype, r.nextInt(domain), chance(0.05)),
            chance(0.05) ? null : pick(KINDS), chance(0.05) ? null : r.nextInt(21), chance(0.05) ? null : day()});
      }
      Collections.shuffle(crows, r);
      List<String> cidx = new ArrayList<>();
      if (indexing != Indexing.UNUSABLE) {
        if (chance(0.6)) {
          cidx.add(pick("CREATE INDEX c_bid_kind ON c (bid, kind)", "CREATE INDEX c_bid ON c (bid) INCLUDE (qty)",
              "CREATE INDEX c_bid_kind_d ON c (bid, kind DESC, qty)"));
        }
        if (chance(0.6)) {
          cidx.add(pick("CREATE INDEX c_k_kind ON c (k, kind, qty)", "CREATE INDEX c_k ON c (k)",
              "CREATE INDEX c_kd_kind ON c (k DESC, kind)"));
        }
      } else if (chance(0.5)) {
        cidx.add("CREATE INDEX c_kind ON c (kind, qty)");
      }
      c = new Table("c", ccols, cpk, cidx, crows);
    }
    return new Schema(number, keys, indexing, analyze, a, b, c, domain, shift);
  }

  private Object[] bRow(int id, String type, int domain, int shift, boolean keyNullable, boolean k2Nullable,
      Integer u) {
    Object k;
    if (keyNullable && chance(0.06)) {
      k = null;
    } else if (chance(0.1)) {
      k = key(type, shift + r.nextInt(3), false); // hot keys
    } else {
      k = key(type, shift + r.nextInt(domain), chance(0.05));
    }
    Object k2 = k2Nullable && chance(0.1) ? null : (Object) r.nextInt(4);
    return new Object[] {id, k, k2, chance(0.03) ? null : status(), chance(0.05) ? null : r.nextInt(100),
        chance(0.05) ? null : day(), chance(0.05) ? null : r.nextInt(101) - 50,
        chance(0.05) ? null : new BigDecimal(r.nextInt(100_000)).movePointLeft(2), u};
  }

  private List<String> innerIndexes(String t, Indexing indexing, String pk) {
    List<String> menu = new ArrayList<>(List.of(
        "CREATE INDEX " + t + "_ks ON " + t + " (k, status)",
        "CREATE INDEX " + t + "_ksr ON " + t + " (k, status, r)",
        "CREATE INDEX " + t + "_ksr_desc ON " + t + " (k, status DESC, r DESC)",
        "CREATE INDEX " + t + "_k ON " + t + " (k)",
        "CREATE INDEX " + t + "_kdesc_dt ON " + t + " (k DESC, dt)",
        "CREATE INDEX " + t + "_ks_inc ON " + t + " (k, status) INCLUDE (r, v, amt)",
        "CREATE INDEX " + t + "_kk2s ON " + t + " (k, k2, status)"));
    if (pk != null) {
      menu.add("CREATE UNIQUE INDEX " + t + "_ksid ON " + t + " (k, status, id)");
    }
    List<String> out = new ArrayList<>();
    switch (indexing) {
      case RICH -> {
        Collections.shuffle(menu, r);
        out.addAll(menu.subList(0, between(2, 4)));
      }
      case ONE -> out.add(pick(menu.subList(0, 3)));
      case UNUSABLE -> {
        // indexes that do not lead with the join key (or none at all)
        if (chance(0.5)) {
          out.add("CREATE INDEX " + t + "_sk ON " + t + " (status, k)");
        }
        if (chance(0.5)) {
          out.add("CREATE INDEX " + t + "_r ON " + t + " (r)");
        }
      }
    }
    if (chance(0.5)) {
      out.add("CREATE UNIQUE INDEX " + t + "_u ON " + t + " (u)");
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------ queries

  /** A query: its kind, SQL, {@code ?} parameter values (in order; none: a plain Statement), how to compare it. */
  record Query(String kind, String sql, List<Object> params, AccessRows.Mode mode) {
  }

  /** A JDBC parameter, bound by its Java type (dates alternately as java.sql.Date and LocalDate). */
  static void bind(PreparedStatement ps, int i, Object v) throws SQLException {
    if (v instanceof Integer x) {
      ps.setInt(i, x);
    } else if (v instanceof Long x) {
      ps.setLong(i, x);
    } else if (v instanceof BigDecimal x) {
      ps.setBigDecimal(i, x);
    } else if (v instanceof String x) {
      ps.setString(i, x);
    } else if (v instanceof LocalDate x) {
      if (x.getDayOfMonth() % 2 == 0) {
        ps.setDate(i, java.sql.Date.valueOf(x));
      } else {
        ps.setObject(i, x);
      }
    } else {
      throw new IllegalArgumentException(String.valueOf(v));
    }
  }

  /** Outer predicates: selective filters of a (S1: a unique email; S2: a group and a date range). */
  String outerPred(Schema s, String t) {
    String p = switch (r.nextInt(11)) {
      case 0, 1 -> t + ".x = " + (chance(0.3) ? 0 : r.nextInt(10));
      case 2 -> t + ".x IN (" + r.nextInt(10) + ", " + r.nextInt(10) + ")";
      case 3 -> t + ".grp = 'g" + r.nextInt(7) + "'";
      case 4 -> t + ".email = 'u" + (1 + r.nextInt(s.a.rows().size() + 3)) + "@x.org'";
      case 5 -> {
        int lo = r.nextInt(100);
        yield t + ".r BETWEEN " + lo + " AND " + (lo + between(0, 12));
      }
      case 6 -> {
        LocalDate d = day();
        yield t + ".dt >= " + literal(d) + (chance(0.6) ? " AND " + t + ".dt < " + literal(d.plusDays(between(5, 40)))
            : "");
      }
      case 7 -> chance(0.5) ? t + ".id <= " + between(1, 60)
          : t + ".id BETWEEN " + between(1, s.a.rows().size()) + " AND " + between(1, s.a.rows().size());
      case 8 -> t + ".k = " + literal(key(s.keys.outer(), r.nextInt(s.domain), chance(0.1)));
      case 9 -> t + ".grp = 'g" + r.nextInt(6) + "' AND " + t + ".dt >= " + literal(DAY0.plusDays(between(300, 370)));
      default -> t + ".k2 = " + r.nextInt(4) + " AND " + t + ".x = " + r.nextInt(10);
    };
    return chance(0.12) ? p + " AND " + t + ".k IS NOT NULL" : p;
  }

  /** Inner predicates on b (alias t): mostly status equalities (the lookup's second key column), then ranges. */
  String innerPred(String t) {
    List<String> atoms = new ArrayList<>();
    double p = r.nextDouble();
    if (p < 0.68) {
      atoms.add(t + ".status = '" + status() + "'");
    } else if (p < 0.8) {
      atoms.add(t + ".status IN ('" + status() + "', '" + status() + "')");
    } else if (p < 0.86) {
      atoms.add(t + ".status <> '" + status() + "'");
    } else if (p < 0.89) {
      atoms.add(t + ".status IS NULL");
    }
    if (chance(0.45) || atoms.isEmpty()) {
      int lo = r.nextInt(100);
      LocalDate d = day();
      atoms.add(switch (r.nextInt(6)) {
        case 0 -> t + ".r >= " + lo;
        case 1 -> t + ".r BETWEEN " + lo + " AND " + (lo + between(0, 30));
        case 2 -> t + ".r < " + lo;
        case 3 -> t + ".dt >= " + literal(d);
        case 4 -> t + ".dt BETWEEN " + literal(d) + " AND " + literal(d.plusDays(between(10, 90)));
        default -> t + ".r > " + lo + " AND " + t + ".r <= " + (lo + between(0, 40));
      });
    }
    if (chance(0.12)) {
      atoms.add(switch (r.nextInt(4)) {
        case 0 -> t + ".v > " + (r.nextInt(101) - 50);
        case 1 -> t + ".amt > " + new BigDecimal(r.nextInt(100_000)).movePointLeft(2).toPlainString();
        case 2 -> t + ".k2 = " + r.nextInt(4);
        default -> "(" + t + ".v IS NULL OR " + t + ".v < " + (r.nextInt(101) - 50) + ")";
      });
    }
    return String.join(" AND ", atoms);
  }

  String cPred(String t) {
    return switch (r.nextInt(4)) {
      case 0, 1 -> t + ".kind = '" + pick(KINDS) + "'";
      case 2 -> t + ".kind = '" + pick(KINDS) + "' AND " + t + ".qty >= " + r.nextInt(21);
      default -> t + ".qty BETWEEN " + r.nextInt(21) + " AND " + r.nextInt(21);
    };
  }

  /** The join condition between a and b: the key, key and k2, or the unique column u; sometimes non-equi too. */
  String joinCondition(String ta, String tb) {
    double p = r.nextDouble();
    String jc;
    if (p < 0.62) {
      jc = ta + ".k = " + tb + ".k";
    } else if (p < 0.74) {
      jc = tb + ".k = " + ta + ".k";
    } else if (p < 0.9) {
      jc = ta + ".k = " + tb + ".k AND " + ta + ".k2 = " + tb + ".k2";
    } else {
      jc = ta + ".bu = " + tb + ".u";
    }
    if (chance(0.15)) {
      jc += pick(" AND " + tb + ".r > " + ta + ".r", " AND " + tb + ".dt >= " + ta + ".dt",
          " AND " + tb + ".r <> " + ta + ".x");
    }
    return jc;
  }

  static final List<String> AB_PROJECTIONS = List.of(
      "a.id, b.id", "a.id, a.k, b.id, b.status, b.r", "a.email, b.id, b.amt", "a.id, b.k, b.dt, b.v",
      "a.id, a.x, b.id, b.k2", "b.id, b.status", "a.k, b.k, b.u", "a.id, a.grp, b.id, b.r, b.amt");

  Query query(Schema s) {
    int kind = r.nextInt(100);
    Query q;
    if (kind < 20) {
      q = inner(s);
    } else if (kind < 31) {
      q = left(s);
    } else if (kind < 36) {
      q = right(s);
    } else if (kind < 44) {
      q = semiIn(s);
    } else if (kind < 51) {
      q = exists(s, false);
    } else if (kind < 58) {
      q = exists(s, true);
    } else if (kind < 65) {
      q = notIn(s);
    } else if (kind < 73) {
      q = s.c != null ? threeWay(s) : selfJoin(s);
    } else if (kind < 77) {
      q = selfJoin(s);
    } else if (kind < 87) {
      q = ordered(s);
    } else {
      q = aggregate(s);
    }
    return chance(0.3) ? parameterize(q) : q;
  }

  Query inner(Schema s) {
    String proj = pick(AB_PROJECTIONS);
    String jc = joinCondition("a", "b");
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    String sql = switch (r.nextInt(5)) {
      case 0 -> "SELECT " + proj + " FROM a, b WHERE " + jc + " AND " + ap + " AND " + bp;
      case 1 -> "SELECT " + proj + " FROM b JOIN a ON " + jc + " WHERE " + bp + " AND " + ap;
      case 2 -> "SELECT " + proj + " FROM a JOIN b ON " + jc + " AND " + bp + " WHERE " + ap;
      default -> "SELECT " + proj + " FROM a JOIN b ON " + jc + " WHERE " + ap + " AND " + bp;
    };
    return new Query("inner", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  Query left(Schema s) {
    String proj = pick(AB_PROJECTIONS);
    String jc = joinCondition("a", "b");
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    String sql = switch (r.nextInt(6)) {
      // the inner side's predicates in WHERE make it an inner join
      case 0 -> "SELECT " + proj + " FROM a LEFT JOIN b ON " + jc + " WHERE " + ap + " AND " + bp;
      // unmatched outer rows only: an anti join written as a left join
      case 1 -> "SELECT a.id, a.k FROM a LEFT JOIN b ON " + jc + " AND " + bp + " WHERE " + ap + " AND b.id IS NULL";
      case 2 -> "SELECT " + proj + " FROM a LEFT OUTER JOIN b ON " + jc + " WHERE " + ap + " AND (" + bp
          + " OR b.id IS NULL)";
      default -> "SELECT " + proj + " FROM a LEFT JOIN b ON " + jc + " AND " + bp + " WHERE " + ap;
    };
    return new Query("left", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  Query right(Schema s) {
    String proj = pick(AB_PROJECTIONS);
    return new Query("right", "SELECT " + proj + " FROM b RIGHT JOIN a ON " + joinCondition("a", "b") + " AND "
        + innerPred("b") + " WHERE " + outerPred(s, "a"), List.of(), AccessRows.Mode.UNORDERED);
  }

  Query semiIn(Schema s) {
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    String sql = switch (r.nextInt(5)) {
      case 0 -> "SELECT a.id, a.bu FROM a WHERE " + ap + " AND a.bu IN (SELECT b.u FROM b WHERE " + bp + ")";
      // row-value IN over the key and k2
      case 1 -> "SELECT a.id, a.k, a.k2 FROM a WHERE " + ap + " AND (a.k, a.k2) IN (SELECT b.k, b.k2 FROM b WHERE "
          + bp + ")";
      case 2 -> "SELECT a.id, a.email FROM a WHERE a.k IN (SELECT b.k FROM b WHERE " + bp + " AND b.r > a.r) AND "
          + ap;
      default -> "SELECT a.id, a.k FROM a WHERE " + ap + " AND a.k IN (SELECT b.k FROM b WHERE " + bp + ")";
    };
    return new Query("semi IN", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  Query exists(Schema s, boolean not) {
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    String corr = switch (r.nextInt(6)) {
      case 0 -> "b.k = a.k AND b.k2 = a.k2";
      case 1 -> "a.k = b.k AND b.r > a.r";
      case 2 -> "b.u = a.bu";
      default -> "b.k = a.k";
    };
    String neg = not ? "NOT " : "";
    String sql = chance(0.8)
        ? "SELECT a.id, a.k, a.x FROM a WHERE " + ap + " AND " + neg + "EXISTS (SELECT 1 FROM b WHERE " + corr
            + " AND " + bp + ")"
        : "SELECT a.id, a.grp FROM a WHERE " + neg + "EXISTS (SELECT b.id FROM b WHERE " + bp + " AND " + corr
            + ") AND " + ap;
    return new Query(not ? "anti NOT EXISTS" : "semi EXISTS", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  Query notIn(Schema s) {
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    // NOT IN over a sub-query holding a NULL returns no rows; half the sub-queries exclude their NULLs.
    // Row-value NOT IN ((a.k, a.k2) NOT IN (SELECT b.k, b.k2 ...)) only with gaps: see the test's note.
    String notNull = chance(0.5) ? " AND b.k IS NOT NULL" : "";
    if (gaps && chance(0.4)) {
      return new Query("anti NOT IN (row value)", "SELECT a.id, a.k, a.k2 FROM a WHERE " + ap + " AND (a.k, a.k2)"
          + " NOT IN (SELECT b.k, b.k2 FROM b WHERE " + bp + notNull + ")", List.of(), AccessRows.Mode.UNORDERED);
    }
    String sql = switch (r.nextInt(5)) {
      case 0 -> "SELECT a.id, a.k2 FROM a WHERE " + ap + " AND a.k2 NOT IN (SELECT b.k2 FROM b WHERE " + bp
          + (chance(0.5) ? " AND b.k2 IS NOT NULL" : "") + ")";
      case 1 -> "SELECT a.id, a.bu FROM a WHERE " + ap + " AND a.bu NOT IN (SELECT b.u FROM b WHERE " + bp
          + (chance(0.6) ? " AND b.u IS NOT NULL" : "") + ")";
      default -> "SELECT a.id, a.k FROM a WHERE " + ap + " AND a.k NOT IN (SELECT b.k FROM b WHERE " + bp + notNull
          + ")";
    };
    return new Query("anti NOT IN", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  Query threeWay(Schema s) {
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    String cp = cPred("c");
    String sql = switch (r.nextInt(5)) {
      case 0 -> "SELECT a.id, b.id, c.id, c.qty FROM a JOIN b ON " + joinCondition("a", "b") + " JOIN c ON c.bid = b.id"
          + " WHERE " + ap + " AND " + bp + " AND " + cp;
      case 1 -> "SELECT a.id, b.id, c.id FROM a JOIN b ON a.k = b.k JOIN c ON c.k = a.k AND " + cp + " WHERE " + ap
          + " AND " + bp;
      case 2 -> "SELECT a.id, b.id, c.id, c.kind FROM a JOIN b ON " + joinCondition("a", "b")
          + " LEFT JOIN c ON c.bid = b.id AND " + cp + " WHERE " + ap + " AND " + bp;
      case 3 -> "SELECT a.id, c.id, c.dt FROM a JOIN c ON c.k = a.k WHERE " + ap + " AND " + cp
          + " AND EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND " + bp + ")";
      default -> "SELECT a.email, b.status, c.qty FROM c JOIN b ON b.id = c.bid JOIN a ON a.k = b.k WHERE " + cp
          + " AND " + bp + " AND " + ap;
    };
    return new Query("three-way", sql, List.of(), AccessRows.Mode.UNORDERED);
  }

  /** The employees E1 shape: the inner table joined twice, compared across its two occurrences. */
  Query selfJoin(Schema s) {
    String ap = chance(0.7) ? outerPred(s, "a") + " AND " : "";
    String cmp = pick("b1.dt < b2.dt AND b1.v > b2.v", "b1.r < b2.r AND b1.amt > b2.amt",
        "b1.dt < b2.dt AND b1.r > b2.r");
    return new Query("E1 self-join", "SELECT a.id, a.email, b1.v, b2.v, b1.id, b2.id FROM a JOIN b b1 ON a.k = b1.k"
        + " JOIN b b2 ON a.k = b2.k WHERE " + ap + cmp + " AND b2.status = '" + status() + "'", List.of(),
        AccessRows.Mode.UNORDERED);
  }

  /** A join ordered by every projected column (a total order of the result), often with LIMIT. */
  Query ordered(Schema s) {
    Query base = chance(0.65) ? inner(s) : left(s);
    String sql = base.sql();
    String proj = sql.substring("SELECT ".length(), sql.indexOf(" FROM "));
    StringJoiner order = new StringJoiner(", ");
    for (String col : proj.split(", ")) {
      order.add(col + (chance(0.3) ? " DESC" : ""));
    }
    String limit = chance(0.75) ? " LIMIT " + between(1, 25) : "";
    return new Query("ordered " + base.kind() + (limit.isEmpty() ? "" : "+limit"), sql + " ORDER BY " + order + limit,
        List.of(), AccessRows.Mode.TOTAL);
  }

  Query aggregate(Schema s) {
    String jc = joinCondition("a", "b");
    String ap = outerPred(s, "a");
    String bp = innerPred("b");
    return switch (r.nextInt(6)) {
      case 0 -> new Query("aggregate", "SELECT a.x, COUNT(*), COUNT(b.id), SUM(b.v), SUM(b.amt), MIN(b.r), MAX(b.dt)"
          + " FROM a LEFT JOIN b ON " + jc + " AND " + bp + " WHERE " + ap + " GROUP BY a.x ORDER BY a.x", List.of(),
          AccessRows.Mode.TOTAL);
      case 1 -> new Query("aggregate", "SELECT b.status, COUNT(*), SUM(a.r), MAX(a.id) FROM a JOIN b ON " + jc
          + " WHERE " + ap + " AND " + bp + " GROUP BY b.status ORDER BY b.status", List.of(), AccessRows.Mode.TOTAL);
      case 2 -> new Query("aggregate", "SELECT COUNT(*), COUNT(DISTINCT b.id), SUM(b.v), MIN(b.amt) FROM a JOIN b ON "
          + jc + " WHERE " + ap + " AND " + bp, List.of(), AccessRows.Mode.UNORDERED);
      case 3 -> new Query("aggregate", "SELECT a.id, COUNT(b.id), SUM(b.r) FROM a LEFT JOIN b ON " + jc + " AND " + bp
          + " WHERE " + ap + " GROUP BY a.id", List.of(), AccessRows.Mode.UNORDERED);
      case 4 -> new Query("aggregate", "SELECT a.grp, COUNT(*) FROM a WHERE " + ap + " AND EXISTS (SELECT 1 FROM b"
          + " WHERE b.k = a.k AND " + bp + ") GROUP BY a.grp", List.of(), AccessRows.Mode.UNORDERED);
      default -> new Query("aggregate", "SELECT a.k, COUNT(*), SUM(b.amt) FROM a JOIN b ON " + jc + " WHERE " + ap
          + " AND " + bp + " GROUP BY a.k HAVING COUNT(*) > 1", List.of(), AccessRows.Mode.UNORDERED);
    };
  }

  // ------------------------------------------------------------------------------------------ parameters

  /**
   * Literals that may become {@code ?} parameters: DATE literals, strings, numbers (not LIMIT counts, nor the 1
   * of {@code SELECT 1}). Each literal is drawn from the domain of the column it is compared with, so its
   * parameter is within that column's type.
   */
  private static final Pattern LITERAL = Pattern.compile(
      "DATE '[0-9-]+'|'[^']*'|(?<!SELECT )(?<!LIMIT )(?<![A-Za-z_0-9.])-?[0-9]+(\\.[0-9]+)?(?![A-Za-z_0-9])");

  /** The query with (most of) its literals replaced by {@code ?} parameters, bound by a PreparedStatement. */
  Query parameterize(Query q) {
    Matcher m = LITERAL.matcher(q.sql());
    StringBuilder out = new StringBuilder();
    List<Object> params = new ArrayList<>();
    while (m.find()) {
      String lit = m.group();
      if (!chance(0.75)) {
        m.appendReplacement(out, Matcher.quoteReplacement(lit));
        continue;
      }
      Object value;
      if (lit.startsWith("DATE")) {
        value = LocalDate.parse(lit.substring(6, lit.length() - 1));
      } else if (lit.startsWith("'")) {
        value = lit.substring(1, lit.length() - 1).replace("''", "'");
      } else if (lit.contains(".")) {
        value = new BigDecimal(lit);
      } else {
        long v = Long.parseLong(lit);
        value = v == (int) v ? (Object) (int) v : (Object) v;
      }
      params.add(value);
      m.appendReplacement(out, "?");
    }
    m.appendTail(out);
    return params.isEmpty() ? q : new Query(q.kind() + " ?", out.toString(), params, q.mode());
  }

  // ------------------------------------------------------------------------------------------ DML

  /** A write to the inner tables (b, sometimes c), identical on both systems. */
  String dml(Schema s) {
    Table b = s.b;
    int nb = b.rows().size();
    int lo = 1 + r.nextInt(nb);
    switch (r.nextInt(c(s) ? 8 : 7)) {
      case 0, 1: {
        List<Object[]> fresh = new ArrayList<>();
        int n = between(1, 6);
        for (int i = 0; i < n; i++) {
          fresh.add(bRow(s.nextB++, s.keys.inner(), s.domain, s.shift, b.nullable("k"), b.nullable("k2"),
              chance(0.3) ? null : s.nextU++));
        }
        return b.inserts(fresh).get(0);
      }
      case 2:
        return "UPDATE b SET status = '" + status() + "' WHERE id BETWEEN " + lo + " AND " + (lo + between(0, 30));
      case 3:
        return "UPDATE b SET k = " + literal(key(s.keys.inner(), s.shift + r.nextInt(s.domain), chance(0.1)))
            + ", r = r + 7 WHERE id BETWEEN " + lo + " AND " + (lo + between(0, 10));
      case 4:
        return "DELETE FROM b WHERE k = " + literal(key(s.keys.inner(), s.shift + r.nextInt(s.domain), false));
      case 5:
        return "DELETE FROM b WHERE status = '" + status() + "' AND r < " + r.nextInt(30);
      case 6:
        return "UPDATE b SET k2 = " + (b.nullable("k2") && chance(0.5) ? "NULL" : String.valueOf(r.nextInt(4)))
            + ", dt = " + literal(day()) + " WHERE status = '" + status() + "' AND r BETWEEN " + lo % 100 + " AND "
            + (lo % 100 + 15);
      default:
        return chance(0.5) ? "DELETE FROM c WHERE kind = '" + pick(KINDS) + "' AND qty < " + r.nextInt(10)
            : "UPDATE c SET bid = " + lo + ", kind = '" + pick(KINDS) + "' WHERE id BETWEEN " + lo % 50 + " AND "
                + (lo % 50 + 20);
    }
  }

  private static boolean c(Schema s) {
    return s.c != null;
  }
}
