package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexColumn;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * How one table scan reads storage, fixed when the statement is planned: which key space (the table's
 * own rows in primary-key order, or one secondary index), the bounds on its leading key columns, the
 * direction, and which columns the scan returns. Bound values are constants or slots filled at each
 * execution (parameters, correlation variables); {@link #ranges} turns them into byte ranges.
 *
 * <p>Every key column but the last bound one holds a set of points (equalities, IN lists, IS NULL);
 * the last may hold ranges. The ranges are the cartesian product of the points, each extended by the
 * last column's intervals: a skip scan seeks each combination instead of reading the whole range.
 */
public record ScanPlan(TableDef table, IndexDef index, List<KeyColumn> keyColumns, boolean reverse,
    int[] projection, boolean covering, int[] residualColumns) {

  /** At most this many seeks per execution; the planner bounds plans below it. */
  public static final int MAX_RANGES = 10_000;

  public ScanPlan {
    keyColumns = List.copyOf(keyColumns);
  }

  public boolean usesIndex() {
    return index != null;
  }

  /** A bound value: a constant known at planning, or a slot of the per-execution value array. */
  public record KeyValue(Object constant, int slot) {
    public static KeyValue of(Object constant) {
      return new KeyValue(constant, -1);
    }

    public static KeyValue slot(int slot) {
      return new KeyValue(null, slot);
    }

    Object value(Object[] slots) {
      return slot < 0 ? constant : slots[slot];
    }
  }

  /** One end of an interval; {@code value} null means unbounded. */
  public record Bound(KeyValue value, boolean inclusive) {
  }

  /**
   * An interval of one key column's values. {@code nullPoint} is the single value NULL (IS NULL); a
   * point is an interval whose two bounds are the same inclusive value.
   */
  public record Interval(Bound low, Bound high, boolean nullPoint) {
    public static Interval point(KeyValue v) {
      return new Interval(new Bound(v, true), new Bound(v, true), false);
    }

    public static Interval isNull() {
      return new Interval(null, null, true);
    }

    public boolean isPoint() {
      return nullPoint || low != null && high != null && low.value() != null && low.value().equals(high.value())
          && low.inclusive() && high.inclusive();
    }
  }

  /**
   * The rest of a row-value bound {@code (c1, c2, ...) > (v1, v2, ...)} on the key columns after a bound one
   * (all ascending): their types and values; {@code inclusive} for {@code >=} / {@code <=}.
   */
  public record Tail(List<DataType> types, List<KeyValue> values, boolean inclusive) {
    public Tail {
      types = List.copyOf(types);
      values = List.copyOf(values);
    }
  }

  /**
   * A bound key column: its type and direction, and the values the scan reads; with a row-value bound, the
   * tail that extends its single interval's low (or high) end to the following key columns.
   */
  public record KeyColumn(int column, DataType type, boolean descending, List<Interval> intervals, Tail lowTail,
      Tail highTail) {
    public KeyColumn {
      intervals = List.copyOf(intervals);
    }

    public KeyColumn(int column, DataType type, boolean descending, List<Interval> intervals) {
      this(column, type, descending, intervals, null, null);
    }
  }

  /**
   * The type of a bound key column: a table column's, or for a number beyond the table's columns, the expression at
   * that key position of the (expression) index (see io.accel.plan.AccessPathPlanner).
   */
  public static DataType keyType(TableDef table, IndexDef index, int column) {
    int width = table.columns().size();
    return column < width ? table.columns().get(column).type() : index.columns().get(column - width).type();
  }

  /** The name of a bound key column, as {@link #keyType}: a column's name, or the expression as written. */
  public static String keyName(TableDef table, IndexDef index, int column) {
    int width = table.columns().size();
    return column < width ? table.columns().get(column).name() : index.columns().get(column - width).expression();
  }

  /** The key columns of an access path in key order: the index columns, or the primary key. */
  public static List<IndexColumn> keyOrder(TableDef table, IndexDef index) {
    if (index != null) {
      return index.columns();
    }
    List<IndexColumn> pk = new ArrayList<>();
    for (int c : table.primaryKey()) {
      pk.add(new IndexColumn(c, false));
    }
    return pk;
  }

  /**
   * The columns an index entry gives back exactly, without fetching the row: the index columns, the
   * primary key and the INCLUDE columns, except types whose key form loses information (unconstrained NUMERIC loses its scale,
   * REAL and DOUBLE fold -0 and NaN payloads).
   */
  public static BitSet entryColumns(TableDef table, IndexDef index) {
    BitSet bits = new BitSet();
    if (index == null) {
      bits.set(0, table.columns().size());
      return bits;
    }
    for (IndexColumn ic : index.columns()) {
      if (!ic.isExpression() && exactInKey(table.columns().get(ic.column()).type())) {
        bits.set(ic.column());
      }
    }
    for (int c : table.primaryKey()) {
      if (exactInKey(table.columns().get(c).type())) {
        bits.set(c);
      }
    }
    for (int c : index.include()) {
      if (exactInKey(table.columns().get(c).type())) {
        bits.set(c);
      }
    }
    return bits;
  }

  private static boolean exactInKey(DataType type) {
    return switch (type.kind()) {
      case REAL, DOUBLE -> false;
      case NUMERIC -> type.precision() >= 0;
      default -> true;
    };
  }

  /** A value read from a key, in the representation the row itself stores. */
  static Object fromKey(DataType type, Object v) {
    if (v == null) {
      return null;
    }
    if (type.kind() == ColumnType.CHAR) {
      String s = (String) v;
      int end = s.length();
      while (end > 0 && s.charAt(end - 1) == ' ') {
        end--;
      }
      return s.substring(0, end);
    }
    if (type.kind() == ColumnType.NUMERIC && type.precision() >= 0) {
      return ((BigDecimal) v).setScale(Math.max(type.scale(), 0), RoundingMode.UNNECESSARY);
    }
    return v;
  }

  /**
   * The byte ranges {@code [start, end)} to read for these slot values, sorted and non-overlapping; an
   * empty list when no key can match (a bound is NULL, or a value is outside the column's type).
   * {@code end} null means the end of the key space.
   */
  public List<byte[][]> ranges(Object[] slots) {
    if (skipColumn() >= 0) {
      throw new IllegalStateException("a skip scan's ranges depend on the data: see prefixesBeforeSkip");
    }
    return rangesAfter(new byte[0], 0, slots);
  }

  /** The position in {@link #keyColumns} of the skipped column (one with no intervals), or -1. */
  public int skipColumn() {
    for (int k = 0; k < keyColumns.size(); k++) {
      if (keyColumns.get(k).intervals().isEmpty()) {
        return k;
      }
    }
    return -1;
  }

  /** For a skip scan: the key prefixes fixed by the points on the columns before the skipped one, sorted. */
  public List<byte[]> prefixesBeforeSkip(Object[] slots) {
    List<byte[]> prefixes = new ArrayList<>();
    prefixes.add(new byte[0]);
    for (int k = 0; k < skipColumn(); k++) {
      KeyColumn kc = keyColumns.get(k);
      List<byte[]> next = new ArrayList<>();
      for (byte[] prefix : prefixes) {
        for (Interval interval : kc.intervals()) {
          byte[] field = pointBytes(kc, interval, slots);
          if (field != null) {
            next.add(concat(prefix, field));
          }
        }
      }
      prefixes = next;
    }
    prefixes.sort(Arrays::compareUnsigned);
    List<byte[]> distinct = new ArrayList<>();
    for (byte[] p : prefixes) {
      if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), p)) {
        distinct.add(p);
      }
    }
    return distinct;
  }

  /**
   * The byte ranges of the key columns from position {@code from} on, under {@code start} (the encoded
   * values of the columns before it), sorted and non-overlapping.
   */
  public List<byte[][]> rangesAfter(byte[] start, int from, Object[] slots) {
    List<byte[]> prefixes = new ArrayList<>();
    prefixes.add(start);
    List<byte[][]> ranges = new ArrayList<>();
    for (int k = from; k < keyColumns.size(); k++) {
      KeyColumn kc = keyColumns.get(k);
      boolean last = k == keyColumns.size() - 1;
      List<byte[]> next = new ArrayList<>();
      for (byte[] prefix : prefixes) {
        for (Interval interval : kc.intervals()) {
          if (interval.isPoint()) {
            byte[] field = pointBytes(kc, interval, slots);
            if (field != null) {
              next.add(concat(prefix, field));
            }
          } else if (last) {
            byte[][] range = intervalRange(kc, interval, prefix, slots);
            if (range != null) {
              ranges.add(range);
            }
          } else {
            throw new IllegalStateException("a range on key column " + k + " before the last bound column");
          }
        }
      }
      prefixes = next;
      if (prefixes.size() + ranges.size() > MAX_RANGES) {
        throw new IllegalStateException("scan needs more than " + MAX_RANGES + " seeks");
      }
    }
    for (byte[] prefix : prefixes) {
      ranges.add(new byte[][] {prefix, prefix.length == 0 ? null : KeyCodec.prefixSuccessor(prefix)});
    }
    return merge(ranges);
  }

  /**
   * {@code field} extended by a row bound's tail values, or null when there is no tail or a value has no
   * exact key form (NULL, a fraction for an integer column, ...): the bound then stays on the first column
   * alone, a superset the evaluated comparison narrows.
   */
  private static byte[] tail(byte[] field, Tail tail, Object[] slots) {
    if (tail == null) {
      return null;
    }
    byte[] out = field;
    for (int i = 0; i < tail.types().size(); i++) {
      Object v = tail.values().get(i).value(slots);
      Object exact = v == null ? null : exactValue(tail.types().get(i), v, 0);
      if (exact == null || exact == OUT_LOW || exact == OUT_HIGH || exact instanceof Adjusted) {
        return null;
      }
      out = concat(out, encode(tail.types().get(i), false, exact));
    }
    return out;
  }

  private static byte[] pointBytes(KeyColumn kc, Interval interval, Object[] slots) {
    if (interval.nullPoint()) {
      return new byte[] {KeyCodec.nullHeader(kc.descending())};
    }
    Object v = interval.low().value().value(slots);
    if (v == null) {
      return null;
    }
    Object exact = exactValue(kc.type(), v, 0);
    return exact == null ? null : encode(kc, exact);
  }

  /**
   * The byte range of one interval after {@code prefix}, or null when it is empty. In a DESC column the
   * low SQL value is the high byte string, so the bounds swap.
   */
  private static byte[][] intervalRange(KeyColumn kc, Interval interval, byte[] prefix, Object[] slots) {
    byte[] presentStart = concat(prefix, new byte[] {KeyCodec.presentHeader(kc.descending())});
    byte[] presentEnd = concat(prefix, new byte[] {(byte) (KeyCodec.presentHeader(kc.descending()) + 1)});
    Bound sqlLow = interval.low();
    Bound sqlHigh = interval.high();
    byte[] start = presentStart;
    byte[] end = presentEnd;
    // The SQL low bound limits the byte start of an ASC column and the byte end of a DESC one.
    if (sqlLow != null && sqlLow.value() != null) {
      Object v = sqlLow.value().value(slots);
      if (v == null) {
        return null;
      }
      Object exact = exactValue(kc.type(), v, sqlLow.inclusive() ? 1 : 2);
      if (exact == OUT_HIGH) {
        return null;
      }
      if (exact != OUT_LOW) {
        boolean inclusive = sqlLow.inclusive() || exact instanceof Adjusted;
        byte[] field = concat(prefix, encode(kc, unwrap(exact)));
        byte[] tuple = exact instanceof Adjusted ? null : tail(field, kc.lowTail(), slots);
        if (tuple != null) {
          // (c1, c2, ...) >[=] (v1, v2, ...): start at (or after) the whole tuple
          field = tuple;
          inclusive = kc.lowTail().inclusive();
        }
        if (!kc.descending()) {
          start = inclusive ? field : KeyCodec.prefixSuccessor(field);
        } else {
          end = inclusive ? KeyCodec.prefixSuccessor(field) : field;
        }
      }
    }
    if (sqlHigh != null && sqlHigh.value() != null) {
      Object v = sqlHigh.value().value(slots);
      if (v == null) {
        return null;
      }
      Object exact = exactValue(kc.type(), v, sqlHigh.inclusive() ? -1 : -2);
      if (exact == OUT_LOW) {
        return null;
      }
      if (exact != OUT_HIGH) {
        boolean inclusive = sqlHigh.inclusive() || exact instanceof Adjusted;
        byte[] field = concat(prefix, encode(kc, unwrap(exact)));
        byte[] tuple = exact instanceof Adjusted ? null : tail(field, kc.highTail(), slots);
        if (tuple != null) {
          // (c1, c2, ...) <[=] (v1, v2, ...): stop after (or at) the whole tuple
          field = tuple;
          inclusive = kc.highTail().inclusive();
        }
        if (!kc.descending()) {
          end = inclusive ? KeyCodec.prefixSuccessor(field) : field;
        } else {
          start = inclusive ? field : KeyCodec.prefixSuccessor(field);
        }
      }
    }
    if (Arrays.compareUnsigned(start, end) >= 0) {
      return null;
    }
    return new byte[][] {start, end};
  }

  private static final Object OUT_LOW = new Object();
  private static final Object OUT_HIGH = new Object();

  /** A bound moved to the nearest representable value, which is then included. */
  private record Adjusted(Object value) {
  }

  private static Object unwrap(Object exact) {
    return exact instanceof Adjusted a ? a.value() : exact;
  }

  /**
   * The value in the column's representation. For integer columns a value outside the type or with a
   * fraction cannot be stored: as an equality ({@code role} 0) it matches nothing (null); as a low
   * bound ({@code role} 1 inclusive, 2 exclusive) it rounds up, as a high bound (-1, -2) down, and a
   * bound beyond the type's range is {@code OUT_LOW} or {@code OUT_HIGH}.
   */
  private static Object exactValue(DataType type, Object v, int role) {
    long min;
    long max;
    switch (type.kind()) {
      case SMALLINT -> {
        min = Short.MIN_VALUE;
        max = Short.MAX_VALUE;
      }
      case INTEGER, DATE, TIME -> {
        min = Integer.MIN_VALUE;
        max = Integer.MAX_VALUE;
      }
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> {
        min = Long.MIN_VALUE;
        max = Long.MAX_VALUE;
      }
      default -> {
        return v;
      }
    }
    BigDecimal d;
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      long l = ((Number) v).longValue();
      if (l >= min && l <= max) {
        return narrow(type, l);
      }
      d = BigDecimal.valueOf(l);
    } else if (v instanceof BigDecimal b) {
      d = b;
    } else if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
      d = new BigDecimal(n.toString());
    } else {
      return role == 0 ? null : role > 0 ? OUT_HIGH : OUT_LOW;
    }
    boolean integral = d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    if (role == 0 && !integral) {
      return null;
    }
    BigDecimal rounded = role > 0 ? d.setScale(0, RoundingMode.CEILING) : d.setScale(0, RoundingMode.FLOOR);
    if (rounded.compareTo(BigDecimal.valueOf(min)) < 0) {
      return role == 0 ? null : OUT_LOW;
    }
    if (rounded.compareTo(BigDecimal.valueOf(max)) > 0) {
      return role == 0 ? null : OUT_HIGH;
    }
    Object narrowed = narrow(type, rounded.longValueExact());
    return integral ? narrowed : new Adjusted(narrowed);
  }

  private static Object narrow(DataType type, long l) {
    return switch (type.kind()) {
      case SMALLINT -> (short) l;
      case INTEGER, DATE, TIME -> (int) l;
      default -> l;
    };
  }

  private static byte[] encode(KeyColumn kc, Object value) {
    return encode(kc.type(), kc.descending(), value);
  }

  private static byte[] encode(DataType type, boolean descending, Object value) {
    KeyWriter w = new KeyWriter(16);
    Object v = value;
    if (type.kind() == ColumnType.UUID && v instanceof String s) {
      v = java.util.UUID.fromString(s);
    }
    KeyCodec.write(w, type, v, descending);
    return w.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static List<byte[][]> merge(List<byte[][]> ranges) {
    ranges.sort((x, y) -> Arrays.compareUnsigned(x[0], y[0]));
    List<byte[][]> out = new ArrayList<>();
    for (byte[][] r : ranges) {
      if (!out.isEmpty()) {
        byte[][] lastRange = out.get(out.size() - 1);
        if (lastRange[1] == null || Arrays.compareUnsigned(r[0], lastRange[1]) <= 0) {
          if (lastRange[1] != null && (r[1] == null || Arrays.compareUnsigned(r[1], lastRange[1]) > 0)) {
            lastRange[1] = r[1];
          }
          continue;
        }
      }
      out.add(new byte[][] {r[0], r[1]});
    }
    return out;
  }

  /** The column types of a table, in ordinal order. */
  static List<DataType> types(TableDef table) {
    return table.columns().stream().map(Column::type).toList();
  }
}
