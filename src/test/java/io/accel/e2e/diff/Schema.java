package io.accel.e2e.diff;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/** A generated schema: 2-4 tables with their columns, keys and indexes, and the SQL that creates them. */
final class Schema {
  final List<Table> tables = new ArrayList<>();

  static final class Column {
    final String name;
    final SqlType type;
    final boolean notNull;
    /** Size of the skewed small domain the column's values mostly come from (shared between tables). */
    final int domain;
    /** Probability of NULL in a nullable column. */
    final double nullRate;
    /** Salt that makes this column prefer different values than another column of the same type. */
    final int salt;
    boolean primaryKey;
    boolean unique;

    Column(String name, SqlType type, boolean notNull, int domain, double nullRate, int salt) {
      this.name = name;
      this.type = type;
      this.notNull = notNull;
      this.domain = domain;
      this.nullRate = nullRate;
      this.salt = salt;
    }

    /** An upper bound of |value| for numeric columns (the generator's overflow guard). */
    double bound() {
      if ((primaryKey || unique) && type.isNum()) {
        // INSERT ... SELECT shifts key values by large offsets to keep them unique
        return type == SqlType.SMALLINT ? 30_000 : Math.max(Values.bound(type), 5.0e7);
      }
      return Values.bound(type);
    }

    @Override
    public String toString() {
      return name + " " + type.ddl;
    }
  }

  record IndexColumn(Column column, boolean desc) {
  }

  record Index(String name, boolean unique, List<IndexColumn> columns) {
  }

  static final class Table {
    final String name;
    final List<Column> columns = new ArrayList<>();
    final List<Column> primaryKey = new ArrayList<>();
    final List<Index> indexes = new ArrayList<>();
    int rowCount;

    Table(String name) {
      this.name = name;
    }

    /** Columns an UPDATE may change without touching a key (PK or UNIQUE). */
    List<Column> updatable() {
      return columns.stream().filter(c -> !c.primaryKey && !c.unique).collect(Collectors.toList());
    }

    /** The key column lists that must stay unique: the PK and every UNIQUE index. */
    List<List<Column>> uniqueKeys() {
      List<List<Column>> keys = new ArrayList<>();
      if (!primaryKey.isEmpty()) {
        keys.add(primaryKey);
      }
      for (Index ix : indexes) {
        if (ix.unique()) {
          keys.add(ix.columns().stream().map(IndexColumn::column).collect(Collectors.toList()));
        }
      }
      return keys;
    }

    String columnList() {
      return columns.stream().map(c -> c.name).collect(Collectors.joining(", "));
    }

    String createTable() {
      StringBuilder sb = new StringBuilder("CREATE TABLE ").append(name).append(" (");
      for (int i = 0; i < columns.size(); i++) {
        Column c = columns.get(i);
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(c.name).append(' ').append(c.type.ddl);
        if (primaryKey.size() == 1 && c.primaryKey) {
          sb.append(" PRIMARY KEY");
        } else if (c.notNull) {
          sb.append(" NOT NULL");
        }
      }
      if (primaryKey.size() > 1) {
        sb.append(", PRIMARY KEY (")
            .append(primaryKey.stream().map(c -> c.name).collect(Collectors.joining(", "))).append(')');
      }
      return sb.append(')').toString();
    }

    List<String> createIndexes() {
      List<String> out = new ArrayList<>();
      for (Index ix : indexes) {
        out.add("CREATE " + (ix.unique() ? "UNIQUE " : "") + "INDEX " + ix.name() + " ON " + name + " ("
            + ix.columns().stream().map(ic -> ic.column().name + (ic.desc() ? " DESC" : ""))
                .collect(Collectors.joining(", ")) + ")");
      }
      return out;
    }
  }

  List<String> ddl() {
    List<String> out = new ArrayList<>();
    for (Table t : tables) {
      out.add(t.createTable());
      out.addAll(t.createIndexes());
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------------------------
  // generation

  static Schema generate(Random r, Features f) {
    Schema s = new Schema();
    int n = 2 + r.nextInt(3);
    for (int t = 0; t < n; t++) {
      s.tables.add(table(r, f, "t" + t));
    }
    return s;
  }

  private static Table table(Random r, Features f, String name) {
    Table t = new Table(name);
    List<SqlType> types = new ArrayList<>();
    for (SqlType ty : SqlType.values()) {
      if (allowed(ty, f)) {
        types.add(ty);
      }
    }
    int ncols = 3 + r.nextInt(5);
    // Every table gets an INTEGER and a string column so that joins between tables can match.
    List<SqlType> chosen = new ArrayList<>();
    chosen.add(SqlType.INTEGER);
    chosen.add(r.nextBoolean() || !f.textColumns ? SqlType.VARCHAR : SqlType.TEXT);
    while (chosen.size() < ncols) {
      chosen.add(types.get(r.nextInt(types.size())));
    }
    java.util.Collections.shuffle(chosen, r);

    // primary key
    int pkKind = r.nextInt(100); // 0-59 single, 60-84 composite, 85-99 none
    if (pkKind >= 85 && !f.tablesWithoutPrimaryKey) {
      pkKind = 0;
    }
    if (pkKind >= 60 && pkKind < 85 && !f.compositePrimaryKeys) {
      pkKind = 0;
    }
    int pkCols = pkKind < 60 ? 1 : pkKind < 85 ? 2 : 0;
    for (int i = 0; i < chosen.size(); i++) {
      SqlType ty = chosen.get(i);
      boolean pk = false;
      if (i < pkCols) {
        // key columns: types the generator can make unique values for
        while (!keyable(ty)) {
          ty = types.get(r.nextInt(types.size()));
        }
        chosen.set(i, ty);
        pk = true;
      }
      String cname = prefix(ty) + i;
      boolean notNull = pk || (f.notNullColumns && r.nextInt(4) == 0);
      int domain = 3 + r.nextInt(r.nextBoolean() ? 8 : 25);
      double nullRate = notNull ? 0 : 0.05 + r.nextDouble() * 0.2;
      Column c = new Column(cname, ty, notNull, domain, nullRate, r.nextInt(1000));
      c.primaryKey = pk;
      t.columns.add(c);
      if (pk) {
        t.primaryKey.add(c);
      }
    }
    // secondary indexes
    if (f.secondaryIndexes) {
      int nix = r.nextInt(3);
      for (int k = 0; k < nix; k++) {
        boolean unique = f.uniqueIndexes && r.nextInt(10) < 3;
        int width = f.compositeIndexes && r.nextBoolean() ? 2 : 1;
        List<Column> candidates = new ArrayList<>();
        for (Column c : t.columns) {
          if (!unique || (!c.primaryKey && !c.unique && keyable(c.type))) {
            candidates.add(c);
          }
        }
        java.util.Collections.shuffle(candidates, r);
        if (candidates.size() < width) {
          continue;
        }
        List<IndexColumn> ics = new ArrayList<>();
        for (int w = 0; w < width; w++) {
          Column c = candidates.get(w);
          ics.add(new IndexColumn(c, f.descIndexes && r.nextInt(3) == 0));
          if (unique) {
            c.unique = true;
          }
        }
        t.indexes.add(new Index("ix_" + name + "_" + k, unique, ics));
      }
    }
    return t;
  }

  private static boolean allowed(SqlType ty, Features f) {
    return switch (ty) {
      case INTEGER, VARCHAR -> true;
      case BIGINT -> f.bigintColumns;
      case SMALLINT -> f.smallintColumns;
      case NUMERIC -> f.numericColumns;
      case TEXT -> f.textColumns;
      case BOOLEAN -> f.booleanColumns;
      case DATE -> f.dateColumns;
      case DOUBLE -> f.doubleColumns;
    };
  }

  static boolean keyable(SqlType ty) {
    return ty != SqlType.BOOLEAN && ty != SqlType.DOUBLE;
  }

  private static String prefix(SqlType ty) {
    return switch (ty) {
      case INTEGER -> "i";
      case BIGINT -> "bi";
      case SMALLINT -> "si";
      case NUMERIC -> "n";
      case VARCHAR -> "v";
      case TEXT -> "tx";
      case BOOLEAN -> "b";
      case DATE -> "d";
      case DOUBLE -> "f";
    };
  }

  // ------------------------------------------------------------------------------------------------------------
  // data

  /** Rows for every table (Java values: Long, BigDecimal, Double, String, Boolean, LocalDate, null). */
  static List<List<Object[]>> data(Random r, Schema s) {
    List<List<Object[]>> all = new ArrayList<>();
    for (Table t : s.tables) {
      int n = 120 + r.nextInt(160);
      List<Object[]> rows = new ArrayList<>();
      // unique keys: a permutation of row numbers per key, spread over the key's columns in mixed radix
      List<List<Column>> keys = t.uniqueKeys();
      List<int[]> perms = new ArrayList<>();
      for (int k = 0; k < keys.size(); k++) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
          p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
          int j = r.nextInt(i + 1);
          int tmp = p[i];
          p[i] = p[j];
          p[j] = tmp;
        }
        perms.add(p);
      }
      for (int i = 0; i < n; i++) {
        Object[] row = new Object[t.columns.size()];
        for (int c = 0; c < row.length; c++) {
          Column col = t.columns.get(c);
          row[c] = col.notNull || r.nextDouble() >= col.nullRate ? Values.sample(r, col.type, col.domain, col.salt)
              : null;
        }
        for (int k = 0; k < keys.size(); k++) {
          List<Column> key = keys.get(k);
          int u = perms.get(k)[i];
          boolean nullable = key.stream().noneMatch(c -> c.notNull);
          if (nullable && r.nextInt(12) == 0) {
            // NULLs never collide in a UNIQUE index
            for (Column c : key) {
              row[t.columns.indexOf(c)] = null;
            }
            continue;
          }
          if (key.size() == 1) {
            row[t.columns.indexOf(key.get(0))] = Values.unique(key.get(0).type, u);
          } else {
            int radix = 4 + (k % 3);
            row[t.columns.indexOf(key.get(0))] = Values.unique(key.get(0).type, u % radix);
            row[t.columns.indexOf(key.get(1))] = Values.unique(key.get(1).type, u / radix);
          }
        }
        rows.add(row);
      }
      if (keys.isEmpty()) {
        // exact duplicate rows
        int dups = n / 10;
        for (int i = 0; i < dups; i++) {
          rows.add(rows.get(r.nextInt(n)).clone());
        }
        java.util.Collections.shuffle(rows, r);
      }
      t.rowCount = rows.size();
      all.add(rows);
    }
    return all;
  }

  static List<String> inserts(Table t, List<Object[]> rows, boolean multiRow, boolean plainDoubles) {
    List<String> out = new ArrayList<>();
    int batch = multiRow ? 40 : 1;
    for (int i = 0; i < rows.size(); i += batch) {
      StringBuilder sb = new StringBuilder("INSERT INTO ").append(t.name).append(" (").append(t.columnList())
          .append(") VALUES ");
      for (int j = i; j < Math.min(rows.size(), i + batch); j++) {
        if (j > i) {
          sb.append(", ");
        }
        sb.append('(');
        Object[] row = rows.get(j);
        for (int c = 0; c < row.length; c++) {
          if (c > 0) {
            sb.append(", ");
          }
          sb.append(Values.literal(row[c], t.columns.get(c).type, plainDoubles));
        }
        sb.append(')');
      }
      out.add(sb.toString());
    }
    return out;
  }

  /** Values: skewed small domains shared by all columns of a type, unique values for keys, SQL literals. */
  static final class Values {
    static final String[] STRINGS = {
        "a", "b", "ab", "abc", "A", "B", "aB", "Ab", "ba", "k1", "k2", "k3", "hello", "Hello", "HELLO", "x_y",
        "x%y", "zz", "a b", " ", "", "trail ", " lead", "Z", "mid", "k10", "0", "9"};
    static final LocalDate DATE_BASE = LocalDate.of(2024, 2, 25);
    static final LocalDate[] FAR_DATES = {
        LocalDate.of(1999, 12, 31), LocalDate.of(2000, 1, 1), LocalDate.of(1970, 1, 1), LocalDate.of(2038, 1, 19),
        LocalDate.of(2023, 12, 31)};
    static final int[] CENTS = {0, 0, 0, 50, 25, 99, 1, 10};
    static final double[] FRACTIONS = {0, 0, 0.5, 0.25, 0.125, 0.75};

    static double bound(SqlType t) {
      return switch (t) {
        case SMALLINT -> 100;
        case INTEGER -> 1000;
        case BIGINT -> 1.0e12;
        case NUMERIC -> 10_000;
        case DOUBLE -> 1000;
        default -> 0;
      };
    }

    /** A skewed index in [0, domain). */
    static int skewed(Random r, int domain) {
      double x = r.nextDouble();
      return (int) Math.floor(domain * x * x);
    }

    static Object sample(Random r, SqlType t, int domain, int salt) {
      boolean wide = r.nextInt(10) == 0;
      int k = skewed(r, domain);
      switch (t) {
        case SMALLINT:
          return (long) (wide ? r.nextInt(201) - 100 : k);
        case INTEGER:
          return (long) (wide ? r.nextInt(2001) - 1000 : k);
        case BIGINT:
          if (wide) {
            return r.nextBoolean() ? (long) (r.nextInt(2001) - 1000)
                : (long) ((r.nextDouble() * 2 - 1) * 1.0e12);
          }
          return (long) k;
        case NUMERIC: {
          if (wide) {
            return BigDecimal.valueOf(r.nextInt(2_000_001) - 1_000_000, 2);
          }
          int cents = CENTS[(k + salt) % CENTS.length];
          return BigDecimal.valueOf(k * 100L + cents, 2);
        }
        case DOUBLE:
          if (wide) {
            return (r.nextInt(16001) - 8000) / 8.0;
          }
          return k + FRACTIONS[(k + salt) % FRACTIONS.length];
        case VARCHAR:
        case TEXT:
          return STRINGS[(k + salt) % STRINGS.length];
        case BOOLEAN:
          return ((k + salt) % 3) != 0;
        case DATE:
          if (wide) {
            return FAR_DATES[r.nextInt(FAR_DATES.length)];
          }
          return DATE_BASE.plusDays(k);
        default:
          throw new IllegalArgumentException(t.toString());
      }
    }

    /** The u-th distinct value of a key column type (u small: below a thousand). */
    static Object unique(SqlType t, int u) {
      return switch (t) {
        case SMALLINT, INTEGER -> (long) u;
        case BIGINT -> u % 2 == 0 ? (long) u : 10_000_000_000L + u;
        case NUMERIC -> BigDecimal.valueOf(u * 100L + (u % 3 == 0 ? 50 : 0), 2);
        case VARCHAR, TEXT -> "k" + u;
        case DATE -> DATE_BASE.plusDays(u - 20);
        default -> throw new IllegalArgumentException(t.toString());
      };
    }

    /** A literal for a value of a column of type {@code t} (DOUBLE values optionally in exponent form). */
    static String literal(Object v, SqlType t, boolean plainDoubles) {
      if (!plainDoubles && t == SqlType.DOUBLE && v instanceof Number n) {
        String s = Double.toString(n.doubleValue()).replace("E", "E").toUpperCase();
        if (!s.contains("E")) {
          s = s + "E0";
        }
        return n.doubleValue() < 0 ? "(" + s + ")" : s;
      }
      return literal(v);
    }

    static String literal(Object v) {
      if (v == null) {
        return "NULL";
      }
      if (v instanceof Long l) {
        return l < 0 ? "(" + l + ")" : Long.toString(l);
      }
      if (v instanceof BigDecimal b) {
        return b.signum() < 0 ? "(" + b.toPlainString() + ")" : b.toPlainString();
      }
      if (v instanceof Double d) {
        String s = BigDecimal.valueOf(d).toPlainString();
        return d < 0 ? "(" + s + ")" : s;
      }
      if (v instanceof String s) {
        return "'" + s.replace("'", "''") + "'";
      }
      if (v instanceof Boolean b) {
        return b ? "TRUE" : "FALSE";
      }
      if (v instanceof LocalDate d) {
        return "DATE '" + d + "'";
      }
      throw new IllegalArgumentException(v.getClass().toString());
    }
  }
}
