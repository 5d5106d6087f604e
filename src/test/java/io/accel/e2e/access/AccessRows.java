package io.accel.e2e.access;

import static io.accel.e2e.diff.Results.decimal;
import static io.accel.e2e.diff.Results.kind;
import static io.accel.e2e.diff.Results.normalise;
import static io.accel.e2e.diff.Results.sample;
import static io.accel.e2e.diff.Results.show;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The outcome of one query (its rows, or the SQLSTATE it failed with) normalised for comparison: integers as
 * Long, NUMERIC as BigDecimal (compared by value, so 1.5 equals 1.50), dates as LocalDate, strings as they are.
 * Comparisons between two Accel runs are exact; comparisons with PostgreSQL ignore trailing spaces of strings
 * (a CHAR(n) value read through an expression may or may not carry its padding). Public for the join
 * differential test ({@code io.accel.e2e.join}).
 */
public final class AccessRows {
  /** Rows, or null when the statement failed with {@link #state}. */
  public final List<Object[]> rows;
  public final String state;
  public final String message;

  private AccessRows(List<Object[]> rows, String state, String message) {
    this.rows = rows;
    this.state = state;
    this.message = message;
  }

  public static AccessRows of(List<Object[]> rows) {
    return new AccessRows(rows, null, null);
  }

  public static AccessRows error(SQLException e) {
    String m = e.getMessage() == null ? "" : e.getMessage().split("\n")[0];
    return new AccessRows(null, e.getSQLState() == null ? "?????" : e.getSQLState(), m);
  }

  public boolean failed() {
    return rows == null;
  }

  public static List<Object[]> read(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<Object[]> out = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        row[i] = normalise(rs.getObject(i + 1));
      }
      out.add(row);
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------ comparison

  /** How a query's result is compared. */
  public record Mode(boolean ordered, int keyColumns, boolean multisetToo) {
    /** No ORDER BY (or one that is not total and not worth checking): compare as multisets. */
    public static final Mode UNORDERED = new Mode(false, 0, true);

    /** A total ORDER BY: the sequences must be equal. */
    public static final Mode TOTAL = new Mode(true, -1, false);

    /**
     * A partial ORDER BY whose sort keys are the first {@code keys} columns: their sequence must be equal, and
     * the rows as multisets too when {@code multiset} (no LIMIT/OFFSET cut ties arbitrarily).
     */
    public static Mode keys(int keys, boolean multiset) {
      return new Mode(true, keys, multiset);
    }

    @Override
    public String toString() {
      return !ordered ? "multiset" : keyColumns < 0 ? "ordered" : "ordered on " + keyColumns + " key column(s)"
          + (multisetToo ? " + multiset" : "");
    }
  }

  /** Null when {@code actual} agrees with {@code expected} under the mode, else a description of the difference. */
  public static String compare(AccessRows expected, AccessRows actual, Mode mode, boolean trimStrings,
      boolean sameState) {
    if (expected.failed() || actual.failed()) {
      if (expected.failed() && actual.failed()) {
        return !sameState || expected.state.equals(actual.state) ? null
            : "both failed, with different SQLSTATEs: expected " + expected.state + " (" + expected.message
                + ") but got " + actual.state + " (" + actual.message + ")";
      }
      return expected.failed()
          ? "expected an error " + expected.state + " (" + expected.message + ") but got " + actual.rows.size()
              + " rows " + sample(actual.rows)
          : "expected " + expected.rows.size() + " rows " + sample(expected.rows) + " but got error " + actual.state
              + " (" + actual.message + ")";
    }
    List<Object[]> e = expected.rows;
    List<Object[]> a = actual.rows;
    if (!e.isEmpty() && !a.isEmpty() && e.get(0).length != a.get(0).length) {
      return "column count " + e.get(0).length + " vs " + a.get(0).length;
    }
    if (mode.ordered) {
      String d = compareOrdered(mode.keyColumns < 0 ? e : prefix(e, mode.keyColumns),
          mode.keyColumns < 0 ? a : prefix(a, mode.keyColumns), trimStrings);
      if (d != null) {
        return (mode.keyColumns < 0 ? "" : "sort keys: ") + d;
      }
    }
    if (mode.multisetToo) {
      return compareUnordered(e, a, trimStrings);
    }
    return null;
  }

  private static List<Object[]> prefix(List<Object[]> rows, int n) {
    List<Object[]> out = new ArrayList<>(rows.size());
    for (Object[] r : rows) {
      out.add(Arrays.copyOf(r, Math.min(n, r.length)));
    }
    return out;
  }

  private static String compareOrdered(List<Object[]> e, List<Object[]> a, boolean trim) {
    for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
      if (!rowEquals(e.get(i), a.get(i), trim)) {
        return "row " + i + " differs: expected " + show(e.get(i)) + " but got " + show(a.get(i)) + " ("
            + e.size() + " vs " + a.size() + " rows)";
      }
    }
    if (e.size() != a.size()) {
      int i = Math.min(e.size(), a.size());
      return "row count: expected " + e.size() + " but got " + a.size()
          + (e.size() > i ? "; first missing row " + show(e.get(i)) : "; first extra row " + show(a.get(i)));
    }
    return null;
  }

  private static String compareUnordered(List<Object[]> expected, List<Object[]> actual, boolean trim) {
    List<Object[]> e = new ArrayList<>(expected);
    List<Object[]> a = new ArrayList<>(actual);
    Comparator<Object[]> order = rowOrder(trim);
    e.sort(order);
    a.sort(order);
    List<Object[]> missing = new ArrayList<>();
    List<Object[]> extra = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < e.size() || j < a.size()) {
      if (i < e.size() && j < a.size() && rowEquals(e.get(i), a.get(j), trim)) {
        i++;
        j++;
      } else if (j >= a.size() || i < e.size() && order.compare(e.get(i), a.get(j)) < 0) {
        missing.add(e.get(i++));
      } else {
        extra.add(a.get(j++));
      }
    }
    if (missing.isEmpty() && extra.isEmpty()) {
      return null;
    }
    return "multiset differs (" + expected.size() + " expected rows, " + actual.size() + " actual): "
        + missing.size() + " missing " + sample(missing) + ", " + extra.size() + " extra " + sample(extra);
  }

  static boolean rowEquals(Object[] x, Object[] y, boolean trim) {
    if (x.length != y.length) {
      return false;
    }
    for (int i = 0; i < x.length; i++) {
      if (compareValues(x[i], y[i], trim) != 0) {
        return false;
      }
    }
    return true;
  }

  /** A total order on normalised values: NULL first, then numbers by value, strings, booleans, dates. */
  static int compareValues(Object x, Object y, boolean trim) {
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    int kx = kind(x);
    int ky = kind(y);
    if (kx != ky) {
      return Integer.compare(kx, ky);
    }
    if (x instanceof Number nx) {
      Number ny = (Number) y;
      if (x instanceof Double || y instanceof Double) {
        double dx = nx.doubleValue();
        double dy = ny.doubleValue();
        return Math.abs(dx - dy) <= 1e-9 * Math.max(Math.abs(dx), Math.abs(dy)) ? 0 : Double.compare(dx, dy);
      }
      return decimal(nx).compareTo(decimal(ny));
    }
    if (x instanceof String sx) {
      String sy = (String) y;
      return trim ? rtrim(sx).compareTo(rtrim(sy)) : sx.compareTo(sy);
    }
    if (x instanceof Boolean bx) {
      return bx.compareTo((Boolean) y);
    }
    if (x instanceof LocalDate dx) {
      return dx.compareTo((LocalDate) y);
    }
    return x.toString().compareTo(y.toString());
  }

  private static Comparator<Object[]> rowOrder(boolean trim) {
    return (x, y) -> {
      for (int i = 0; i < Math.min(x.length, y.length); i++) {
        int c = compareValues(x[i], y[i], trim);
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.length, y.length);
    };
  }

  /** A value as a SQL literal both Accel and PostgreSQL read. */
  public static String literal(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (v instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (v instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return v.toString();
  }

  static String rtrim(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return s.substring(0, end);
  }

  @Override
  public String toString() {
    return failed() ? "ERROR " + state + " " + message : rows.size() + " rows " + sample(rows);
  }
}
