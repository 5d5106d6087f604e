package io.accel.e2e.diff;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Result rows normalised for comparison: integers as Long, NUMERIC as BigDecimal, floating point as Double, strings,
 * booleans, dates as LocalDate, SQL NULL as null. Numbers compare numerically across representations; a Double (or
 * a BigDecimal that is the inexact result of a division, scale above 10) compares with a relative tolerance.
 */
/** Reading and comparing query results of two engines; also used by the access-path tests. */
public final class Results {
  static final double REL_TOLERANCE = 1e-9;

  private Results() {
  }

  static List<Object[]> read(ResultSet rs, int maxRows) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        row[i] = normalise(rs.getObject(i + 1));
      }
      rows.add(row);
      if (rows.size() > maxRows) {
        break;
      }
    }
    return rows;
  }

  public static Object normalise(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b) {
      return b.bitLength() < 64 ? (Object) b.longValue() : new BigDecimal(b);
    }
    if (v instanceof BigDecimal b) {
      return b;
    }
    if (v instanceof Float || v instanceof Double) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof Character ch) {
      return ch.toString();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.sql.Timestamp ts) {
      return ts.toLocalDateTime();
    }
    return v; // String, Boolean, LocalDate, ... compared with equals()
  }

  static boolean valueEquals(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Number x && b instanceof Number y) {
      if (x instanceof Double || y instanceof Double) {
        return close(x.doubleValue(), y.doubleValue());
      }
      BigDecimal bx = decimal(x);
      BigDecimal by = decimal(y);
      if (bx.compareTo(by) == 0) {
        return true;
      }
      if (inexact(bx) || inexact(by)) {
        return close(bx.doubleValue(), by.doubleValue());
      }
      return false;
    }
    return a.equals(b);
  }

  private static boolean inexact(BigDecimal b) {
    return b.stripTrailingZeros().scale() > 10;
  }

  private static boolean close(double x, double y) {
    if (x == y) {
      return true;
    }
    if (Double.isNaN(x) || Double.isNaN(y)) {
      return Double.isNaN(x) && Double.isNaN(y);
    }
    double diff = Math.abs(x - y);
    return diff <= REL_TOLERANCE * Math.max(Math.abs(x), Math.abs(y)) || diff < 1e-12;
  }

  public static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal b) {
      return b;
    }
    if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
      return BigDecimal.valueOf(n.longValue());
    }
    return new BigDecimal(n.toString());
  }

  static boolean rowEquals(Object[] a, Object[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!valueEquals(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }

  /** A total order used to sort multisets before comparing them (numbers by value, then by kind). */
  static final Comparator<Object> VALUE_ORDER = (a, b) -> {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    int ka = kind(a);
    int kb = kind(b);
    if (ka != kb) {
      return Integer.compare(ka, kb);
    }
    if (a instanceof Number x) {
      return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    if (a instanceof String s) {
      return s.compareTo((String) b);
    }
    if (a instanceof Boolean x) {
      return x.compareTo((Boolean) b);
    }
    if (a instanceof LocalDate d) {
      return d.compareTo((LocalDate) b);
    }
    if (a instanceof LocalDateTime d) {
      return d.compareTo((LocalDateTime) b);
    }
    return a.toString().compareTo(b.toString());
  };

  /** The order of value kinds when a column mixes them: numbers, strings, booleans, dates, the rest. */
  public static int kind(Object o) {
    if (o instanceof Number) {
      return 0;
    }
    if (o instanceof String) {
      return 1;
    }
    if (o instanceof Boolean) {
      return 2;
    }
    if (o instanceof LocalDate) {
      return 3;
    }
    return 4;
  }

  static final Comparator<Object[]> ROW_ORDER = (a, b) -> {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = VALUE_ORDER.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  };

  /** Null when equal, else a description of the difference. */
  static String compareOrdered(List<Object[]> expected, List<Object[]> actual) {
    String width = widthMismatch(expected, actual);
    if (width != null) {
      return width;
    }
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!rowEquals(expected.get(i), actual.get(i))) {
        return "row " + i + " differs: expected " + show(expected.get(i)) + " but Accel returned "
            + show(actual.get(i)) + " (" + expected.size() + " vs " + actual.size() + " rows)"
            + context(expected, actual, i);
      }
    }
    if (expected.size() != actual.size()) {
      int i = Math.min(expected.size(), actual.size());
      return "row count: expected " + expected.size() + " but Accel returned " + actual.size()
          + (expected.size() > i ? "; first missing row " + show(expected.get(i))
          : "; first extra row " + show(actual.get(i)));
    }
    return null;
  }

  private static String context(List<Object[]> expected, List<Object[]> actual, int i) {
    int from = Math.max(0, i - 2);
    int to = i + 3;
    return "\n      expected rows " + from + "..: " + expected.subList(from, Math.min(to, expected.size())).stream()
        .map(Results::show).collect(Collectors.joining(" ")) + "\n      Accel rows    " + from + "..: "
        + actual.subList(from, Math.min(to, actual.size())).stream().map(Results::show)
            .collect(Collectors.joining(" "));
  }

  private static String widthMismatch(List<Object[]> expected, List<Object[]> actual) {
    if (!expected.isEmpty() && !actual.isEmpty() && expected.get(0).length != actual.get(0).length) {
      return "column count: expected " + expected.get(0).length + " but Accel returned " + actual.get(0).length;
    }
    return null;
  }

  /** Multiset comparison: null when equal, else the rows missing from / extra in Accel's result. */
  static String compareUnordered(List<Object[]> expected, List<Object[]> actual) {
    String width = widthMismatch(expected, actual);
    if (width != null) {
      return width;
    }
    List<Object[]> e = new ArrayList<>(expected);
    List<Object[]> a = new ArrayList<>(actual);
    e.sort(ROW_ORDER);
    a.sort(ROW_ORDER);
    if (e.size() == a.size()) {
      boolean same = true;
      for (int i = 0; i < e.size() && same; i++) {
        same = rowEquals(e.get(i), a.get(i));
      }
      if (same) {
        return null;
      }
    }
    // tolerance-aware matching (sorting may interleave nearly-equal values differently)
    List<Object[]> missing = new ArrayList<>();
    List<Object[]> extra = new ArrayList<>(a);
    for (Object[] row : e) {
      int hit = -1;
      for (int i = 0; i < extra.size(); i++) {
        if (rowEquals(row, extra.get(i))) {
          hit = i;
          break;
        }
      }
      if (hit >= 0) {
        extra.remove(hit);
      } else {
        missing.add(row);
      }
    }
    if (missing.isEmpty() && extra.isEmpty()) {
      return null;
    }
    return "multiset differs (" + expected.size() + " expected rows, " + actual.size() + " from Accel): "
        + missing.size() + " missing from Accel " + sample(missing) + ", " + extra.size() + " extra in Accel "
        + sample(extra);
  }

  public static String sample(List<Object[]> rows) {
    return rows.stream().limit(4).map(Results::show).collect(Collectors.joining(" ", "[", rows.size() > 4 ? " ...]"
        : "]"));
  }

  public static String show(Object[] row) {
    return Arrays.stream(row).map(Results::show).collect(Collectors.joining(", ", "(", ")"));
  }

  public static String show(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      return "'" + s + "'";
    }
    if (v instanceof BigDecimal b) {
      return b.toPlainString();
    }
    if (v instanceof Double d) {
      return d + "d";
    }
    if (v instanceof LocalDate d) {
      return "DATE " + d;
    }
    if (v instanceof Long || v instanceof Boolean) {
      return v.toString();
    }
    return v + ":" + v.getClass().getSimpleName();
  }
}
