package io.accel.catalog;

import io.accel.storage.KeyCodec;
import io.accel.storage.KeyReader;
import io.accel.storage.KeyWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * What the planner knows about one table's data: its row count, the number of distinct values of every
 * prefix of each secondary index and of the primary key, and per column the fraction of NULLs, the number
 * of distinct values and, for low-cardinality columns, the complete list of values with their counts.
 * Immutable; computed by ANALYZE ({@link StatisticsCollector}), persisted with {@link StatisticsCodec}.
 *
 * <p>Conventions:
 * <ul>
 *   <li>{@link #distinctPrefix} counts distinct tuples of the first k index columns with NULL treated as one
 *       value (as GROUP BY does), although a UNIQUE index lets several rows hold NULL: each tuple of index
 *       values counts once, so for the full prefix the count never exceeds the row count.</li>
 *   <li>{@link #distinctValues} counts distinct <em>non-null</em> values, as PostgreSQL's {@code n_distinct}
 *       does; {@link #nullFraction} covers the NULLs. It is exact for columns with a most-common-values
 *       list, columns leading an index or the primary key; for other columns it is a KMV sketch estimate
 *       (exact below {@value StatisticsCollector#SKETCH_SIZE} distinct values, about 2% error above).</li>
 *   <li>Values are compared as the column's type compares them (the key encoding is canonical): an INTEGER
 *       column finds 5 given as Integer, Long, Double 5.0 or BigDecimal 5.00; a CHAR column ignores trailing
 *       spaces; a NUMERIC column ignores the scale.</li>
 * </ul>
 *
 * <p>An analyzed table's statistics are scaled to the live row count with {@link #withRowCount}: a prefix
 * or column that was unique at analysis stays unique (its distinct count grows with the rows), every other
 * distinct count keeps its analyzed value, capped at the row count. Fractions are unchanged.
 */
public final class TableStatistics {
  /** PostgreSQL's default number of distinct values when nothing is known. */
  static final double DEFAULT_DISTINCT = 200;

  /** One value of a most-common-values list and the fraction of the table's rows holding it. */
  public record ValueFrequency(Object value, double frequency) {
  }

  /** The shape of an index, for defaults when it has no statistics. */
  record IndexShape(int columns, boolean unique) {
  }

  /**
   * One column's statistics as analyzed: NULL count; distinct non-null values ({@code -1} when unknown); whether
   * that count is exact; the complete value counts keyed by the key encoding of each value (ascending), or null
   * when the column has more than {@value StatisticsCollector#MCV_LIMIT} distinct values; {@code min} and
   * {@code max}, the smallest and largest non-null values as doubles for numeric, date and time columns (NaN
   * otherwise, or when the column holds no value); and for a column without the complete list, its most common
   * values with approximate counts (PostgreSQL's MCV list: the values notably more frequent than the average,
   * such as the '9999-01-01' end date of every current salary), or null.
   */
  record ColumnStats(long nullCount, double distinct, boolean distinctExact, Map<ByteBuffer, Long> valueCounts,
      double min, double max, Map<ByteBuffer, Long> frequentCounts) {
    ColumnStats(long nullCount, double distinct, boolean distinctExact, Map<ByteBuffer, Long> valueCounts) {
      this(nullCount, distinct, distinctExact, valueCounts, Double.NaN, Double.NaN, null);
    }

    ColumnStats withDistinct(double exactDistinct) {
      return new ColumnStats(nullCount, exactDistinct, true, valueCounts, min, max, frequentCounts);
    }
  }

  private final long tableId;
  private final int schemaVersion;
  private final List<DataType> types;
  private final int primaryKeyColumns;
  private final long analyzedAt;
  private final long analyzedRows;
  private final long rowCount;
  private final double[] primaryKeyDistinct;
  private final Map<Long, double[]> indexDistinct;
  private final Map<Long, IndexShape> indexShapes;
  private final List<ColumnStats> columns;

  TableStatistics(long tableId, int schemaVersion, List<DataType> types, int primaryKeyColumns, long analyzedAt,
      long analyzedRows,
      long rowCount, double[] primaryKeyDistinct, Map<Long, double[]> indexDistinct, Map<Long, IndexShape> indexShapes,
      List<ColumnStats> columns) {
    this.tableId = tableId;
    this.schemaVersion = schemaVersion;
    this.types = List.copyOf(types);
    this.primaryKeyColumns = primaryKeyColumns;
    this.analyzedAt = analyzedAt;
    this.analyzedRows = analyzedRows;
    this.rowCount = rowCount;
    this.primaryKeyDistinct = primaryKeyDistinct;
    this.indexDistinct = Collections.unmodifiableMap(new LinkedHashMap<>(indexDistinct));
    this.indexShapes = Collections.unmodifiableMap(new LinkedHashMap<>(indexShapes));
    this.columns = columns == null ? null : List.copyOf(columns);
  }

  /** The statistics of a table never analyzed: no rows, nothing known about values. */
  public static TableStatistics empty(TableDef table) {
    return new TableStatistics(table.id(), table.schemaVersion(), types(table), table.primaryKey().size(), 0, 0, 0,
        new double[0], Map.of(), shapes(table), null);
  }

  static List<DataType> types(TableDef table) {
    return table.columns().stream().map(Column::type).toList();
  }

  static Map<Long, IndexShape> shapes(TableDef table) {
    Map<Long, IndexShape> shapes = new LinkedHashMap<>();
    for (IndexDef index : table.plainIndexes()) {
      shapes.put(index.id(), new IndexShape(index.columns().size(), index.unique()));
    }
    return shapes;
  }

  public long tableId() {
    return tableId;
  }

  /** The table's schema version when it was analyzed. */
  public int schemaVersion() {
    return schemaVersion;
  }

  /** The number of rows: as analyzed, plus committed inserts minus committed deletes since (never negative). */
  public long rowCount() {
    return rowCount;
  }

  /** When the statistics were computed (milliseconds since the epoch); 0 for a table never analyzed. */
  public long analyzedAt() {
    return analyzedAt;
  }

  public boolean analyzed() {
    return analyzedAt != 0;
  }

  /** The number of rows the last analysis saw. */
  public long analyzedRowCount() {
    return analyzedRows;
  }

  /**
   * Whether this holds the analyzed prefix distinct counts of the index (false for an index created since
   * the analysis, or a table never analyzed); without them {@link #distinctPrefix} answers defaults.
   */
  public boolean hasIndex(long indexId) {
    return indexDistinct.containsKey(indexId);
  }

  /**
   * The number of distinct values of the first {@code prefixLength} key columns of the index (NULL counted
   * as one value). Without statistics for the index: the row count for the full key of a UNIQUE index,
   * otherwise PostgreSQL's default of 200 capped at the row count.
   */
  public double distinctPrefix(long indexId, int prefixLength) {
    double[] d = analyzedRows == 0 ? null : indexDistinct.get(indexId);
    if (d == null) {
      IndexShape shape = indexShapes.get(indexId);
      if (prefixLength < 1 || shape != null && prefixLength > shape.columns()) {
        throw new IllegalArgumentException("prefix length " + prefixLength + " of index " + indexId);
      }
      if (shape != null && shape.unique() && prefixLength == shape.columns()) {
        return rowCount;
      }
      return Math.min(rowCount, DEFAULT_DISTINCT);
    }
    if (prefixLength < 1 || prefixLength > d.length) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " of an index of " + d.length + " columns");
    }
    return scaled(d[prefixLength - 1], analyzedRows);
  }

  /**
   * The number of distinct values of the first {@code prefixLength} primary key columns; the full key is
   * the row count. Without statistics (never analyzed, or no rows then): PostgreSQL's default of 200,
   * capped at the row count.
   *
   * @throws IllegalArgumentException when the table's primary key (none for a hidden row id) is shorter
   */
  public double distinctPrimaryKeyPrefix(int prefixLength) {
    if (prefixLength < 1 || prefixLength > primaryKeyColumns) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " of a primary key of "
          + primaryKeyColumns + " columns");
    }
    if (prefixLength == primaryKeyColumns) {
      return rowCount;
    }
    if (analyzedRows == 0 || primaryKeyDistinct.length != primaryKeyColumns) {
      return Math.min(rowCount, DEFAULT_DISTINCT);
    }
    return scaled(primaryKeyDistinct[prefixLength - 1], analyzedRows);
  }

  /**
   * The smallest and largest non-null values of a numeric, date or time column as doubles (dates as days,
   * timestamps as milliseconds), as of the last analysis; empty when unknown.
   */
  public Optional<double[]> valueRange(int column) {
    ColumnStats c = column(column);
    if (c == null || analyzedRows == 0 || Double.isNaN(c.min()) || Double.isNaN(c.max())) {
      return Optional.empty();
    }
    return Optional.of(new double[] {c.min(), c.max()});
  }

  /** A value of a numeric, date or time column as a double, or NaN for other values. */
  public static double rangeValue(Object v) {
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** The fraction of rows whose column is NULL; 0 when unknown. */
  public double nullFraction(int column) {
    ColumnStats c = column(column);
    if (c == null || analyzedRows == 0) {
      return 0;
    }
    return (double) c.nullCount() / analyzedRows;
  }

  /** The number of distinct non-null values of the column, when known (see the class comment). */
  public OptionalDouble distinctValues(int column) {
    ColumnStats c = column(column);
    if (c == null || c.distinct() < 0 || analyzedRows == 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(scaled(c.distinct(), analyzedRows - c.nullCount()) * nonNullShare(c));
  }

  /** Whether {@link #distinctValues} is exact (as of the analysis) rather than estimated. */
  public boolean distinctValuesExact(int column) {
    ColumnStats c = column(column);
    return c != null && c.distinct() >= 0 && c.distinctExact();
  }

  /**
   * The fraction of rows whose column equals {@code value}, for a column with a complete value list (at most
   * {@value StatisticsCollector#MCV_LIMIT} distinct values at analysis: 0 for a value not in it, or a value no row
   * of the column's type can equal, 5.5 in an INTEGER column) or a most-common-values list (a listed value's
   * share; any other value an equal share of the rows the list and the NULLs leave, as PostgreSQL estimates).
   * Empty when the column has neither list, the table had no rows when analyzed, or the value is of a class the
   * column's type cannot compare with (a String for an INTEGER column). NULL equals no row ({@code x = NULL} is
   * never true): use {@link #nullFraction} for IS NULL.
   */
  public OptionalDouble frequency(int column, Object value) {
    ColumnStats c = column(column);
    if (c == null || c.valueCounts() == null && c.frequentCounts() == null || analyzedRows == 0) {
      return OptionalDouble.empty();
    }
    if (value == null) {
      return OptionalDouble.of(0);
    }
    byte[] key = lookupKey(types.get(column), value);
    if (key == null) {
      return OptionalDouble.empty();
    }
    if (c.valueCounts() != null) {
      Long count = c.valueCounts().get(ByteBuffer.wrap(key));
      return OptionalDouble.of(count == null ? 0 : (double) count / analyzedRows);
    }
    Long count = c.frequentCounts().get(ByteBuffer.wrap(key));
    if (count != null) {
      return OptionalDouble.of((double) count / analyzedRows);
    }
    long listed = 0;
    for (long n : c.frequentCounts().values()) {
      listed += n;
    }
    double rest = Math.max(0, analyzedRows - listed - c.nullCount()) / (double) analyzedRows;
    double others = c.distinct() - c.frequentCounts().size();
    return OptionalDouble.of(others >= 1 ? rest / others : rest);
  }

  /** Whether the column has a complete value list or a most-common-values list. */
  public boolean listsValues(int column) {
    ColumnStats c = column(column);
    return c != null && analyzedRows > 0 && (c.valueCounts() != null || c.frequentCounts() != null);
  }

  /**
   * Whether {@code value} is listed for the column with a share of the rows more than twice or less than half
   * the average value's: an estimate made without knowing the value is then far off for it.
   */
  public boolean skewedValue(int column, Object value) {
    ColumnStats c = column(column);
    if (c == null || analyzedRows == 0 || value == null || c.distinct() < 1) {
      return false;
    }
    Map<ByteBuffer, Long> listed = c.valueCounts() != null ? c.valueCounts() : c.frequentCounts();
    byte[] key = listed == null ? null : lookupKey(types.get(column), value);
    Long count = key == null ? null : listed.get(ByteBuffer.wrap(key));
    if (count == null) {
      return false;
    }
    double average = (analyzedRows - c.nullCount()) / c.distinct();
    return count > 2 * average || count < average / 2;
  }

  /** The complete value list of a low-cardinality column, most frequent first; empty when the column has none. */
  public Optional<List<ValueFrequency>> mostCommonValues(int column) {
    ColumnStats c = column(column);
    if (c == null || c.valueCounts() == null || analyzedRows == 0) {
      return Optional.empty();
    }
    List<ValueFrequency> list = new ArrayList<>(c.valueCounts().size());
    for (Map.Entry<ByteBuffer, Long> e : c.valueCounts().entrySet()) {
      Object v = KeyCodec.read(new KeyReader(bytes(e.getKey())), types.get(column), false);
      list.add(new ValueFrequency(v, analyzedRows == 0 ? 0 : (double) e.getValue() / analyzedRows));
    }
    return Optional.of(List.copyOf(list));
  }

  /**
   * These statistics for a live row count: distinct counts that were unique at analysis grow with the
   * rows, the others keep their value capped at {@code rows}. Fractions are unchanged.
   */
  public TableStatistics withRowCount(long rows) {
    long r = Math.max(0, rows);
    if (r == rowCount) {
      return this;
    }
    return new TableStatistics(tableId, schemaVersion, types, primaryKeyColumns, analyzedAt, analyzedRows, r,
        primaryKeyDistinct, indexDistinct, indexShapes, columns);
  }

  /**
   * These statistics restricted to what {@code table} (the same table, perhaps since changed by DDL)
   * still has: statistics of dropped indexes go, new indexes get defaults, and the column statistics go
   * when the columns changed.
   */
  public TableStatistics forTable(TableDef table) {
    Map<Long, double[]> kept = new LinkedHashMap<>();
    for (IndexDef index : table.plainIndexes()) {
      double[] d = indexDistinct.get(index.id());
      if (d != null && d.length == index.columns().size()) {
        kept.put(index.id(), d);
      }
    }
    boolean sameColumns = table.schemaVersion() == schemaVersion && types(table).equals(types);
    return new TableStatistics(table.id(), table.schemaVersion(), types(table), table.primaryKey().size(), analyzedAt,
        analyzedRows, rowCount,
        table.primaryKey().size() == primaryKeyDistinct.length ? primaryKeyDistinct : new double[0], kept,
        shapes(table), sameColumns ? columns : null);
  }

  /**
   * Whether plans made with {@code previous} may be wrong for these: never analyzed before, an index
   * without statistics before, or the row count or any distinct count differing by more than
   * {@code tolerance} (relative to the previous value).
   */
  public boolean differsSignificantly(TableStatistics previous, double tolerance) {
    if (previous == null || !previous.analyzed()) {
      return true;
    }
    if (differs(previous.rowCount, rowCount, tolerance)) {
      return true;
    }
    if (differs(previous.primaryKeyDistinct, primaryKeyDistinct, tolerance)) {
      return true;
    }
    for (Map.Entry<Long, double[]> e : indexDistinct.entrySet()) {
      double[] before = previous.indexDistinct.get(e.getKey());
      if (before == null || differs(before, e.getValue(), tolerance)) {
        return true;
      }
    }
    if (columns != null) {
      for (int i = 0; i < columns.size(); i++) {
        ColumnStats now = columns.get(i);
        ColumnStats before = previous.column(i);
        if (before == null || (before.distinct() < 0) != (now.distinct() < 0)
            || differs(before.distinct(), now.distinct(), tolerance)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean differs(double[] before, double[] now, double tolerance) {
    if (before.length != now.length) {
      return true;
    }
    for (int i = 0; i < now.length; i++) {
      if (differs(before[i], now[i], tolerance)) {
        return true;
      }
    }
    return false;
  }

  private static boolean differs(double before, double now, double tolerance) {
    if (before == now) {
      return false;
    }
    if (before <= 0) {
      return true;
    }
    return Math.abs(now - before) > tolerance * before;
  }

  // --- package-private access for the collector and the codec

  double[] primaryKeyDistinctRaw() {
    return primaryKeyDistinct;
  }

  Map<Long, double[]> indexDistinctRaw() {
    return indexDistinct;
  }

  List<ColumnStats> columnsRaw() {
    return columns;
  }

  List<DataType> types() {
    return types;
  }

  /** A copy with one more index's prefix counts (and the column it leads now known exactly). */
  TableStatistics withIndex(IndexDef index, double[] distinct, TableDef table) {
    Map<Long, double[]> indexes = new LinkedHashMap<>(indexDistinct);
    indexes.put(index.id(), distinct);
    List<ColumnStats> cols = columns;
    if (cols != null && distinct.length > 0) {
      int lead = index.columns().get(0).column();
      ColumnStats c = cols.get(lead);
      if (!c.distinctExact()) {
        List<ColumnStats> copy = new ArrayList<>(cols);
        copy.set(lead, c.withDistinct(distinct[0] - (c.nullCount() > 0 ? 1 : 0)));
        cols = copy;
      }
    }
    return new TableStatistics(tableId, schemaVersion, types, primaryKeyColumns, analyzedAt, analyzedRows, rowCount,
        primaryKeyDistinct, indexes, shapes(table), cols);
  }

  private ColumnStats column(int column) {
    if (column < 0 || column >= types.size()) {
      throw new IndexOutOfBoundsException("column " + column + " of a table of " + types.size() + " columns");
    }
    return columns == null ? null : columns.get(column);
  }

  /** A distinct count scaled from {@code base} analyzed rows to the live row count (see the class comment). */
  private double scaled(double distinct, long base) {
    if (rowCount == analyzedRows) {
      return Math.min(distinct, rowCount);
    }
    if (base > 0 && distinct >= base) {
      return rowCount;
    }
    return Math.min(distinct, rowCount);
  }

  /** For a column unique among its non-null values, the share of the live rows that are not NULL. */
  private double nonNullShare(ColumnStats c) {
    long nonNull = analyzedRows - c.nullCount();
    if (rowCount == analyzedRows || nonNull <= 0 || c.distinct() < nonNull) {
      return 1;
    }
    return (double) nonNull / analyzedRows;
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private static final byte[] NO_MATCH = new byte[0];

  /**
   * The ascending key encoding of {@code value} as the column's type: {@link #NO_MATCH} for a value no row
   * can hold, null for a value of a class the type cannot compare with.
   */
  static byte[] lookupKey(DataType type, Object value) {
    Object v = canonical(type, value);
    if (v == null) {
      return null;
    }
    if (v == NO_MATCH) {
      return NO_MATCH;
    }
    KeyWriter w = new KeyWriter(16);
    try {
      KeyCodec.write(w, type, v, false);
    } catch (IllegalArgumentException | ClassCastException e) {
      return null;
    }
    return w.toByteArray();
  }

  private static Object canonical(DataType type, Object value) {
    Object v = value;
    if (v instanceof NlsString s) {
      v = s.getValue();
    } else if (v instanceof Character ch) {
      v = ch.toString();
    }
    switch (type.kind()) {
      case SMALLINT, INTEGER, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> {
        Long l = integral(temporal(v));
        if (l == null) {
          return integralClass(temporal(v)) ? NO_MATCH : null;
        }
        long min = type.kind() == ColumnType.SMALLINT ? Short.MIN_VALUE
            : type.kind() == ColumnType.INTEGER || type.kind() == ColumnType.DATE || type.kind() == ColumnType.TIME
                ? Integer.MIN_VALUE : Long.MIN_VALUE;
        long max = type.kind() == ColumnType.SMALLINT ? Short.MAX_VALUE
            : type.kind() == ColumnType.INTEGER || type.kind() == ColumnType.DATE || type.kind() == ColumnType.TIME
                ? Integer.MAX_VALUE : Long.MAX_VALUE;
        return l < min || l > max ? NO_MATCH : l;
      }
      case NUMERIC -> {
        if (v instanceof Double || v instanceof Float) {
          double d = ((Number) v).doubleValue();
          return Double.isFinite(d) ? BigDecimal.valueOf(d) : NO_MATCH;
        }
        return v instanceof Number ? v : null;
      }
      case REAL, DOUBLE -> {
        return v instanceof Number ? v : null;
      }
      case BOOLEAN -> {
        return v instanceof Boolean ? v : null;
      }
      case CHAR, VARCHAR, TEXT, JSON, JSONB -> {
        return v instanceof CharSequence ? v.toString() : null;
      }
      case BYTEA -> {
        return v instanceof ByteString || v instanceof byte[] ? v : null;
      }
      case UUID -> {
        if (v instanceof String s) {
          try {
            return java.util.UUID.fromString(s);
          } catch (IllegalArgumentException e) {
            return NO_MATCH;
          }
        }
        return v instanceof java.util.UUID ? v : null;
      }
      default -> {
        return null;
      }
    }
  }

  /** Calcite's literal classes and java.time values as the engine's integral representation. */
  private static Object temporal(Object v) {
    if (v instanceof DateString d) {
      return (long) d.getDaysSinceEpoch();
    } else if (v instanceof TimeString t) {
      return (long) t.getMillisOfDay();
    } else if (v instanceof TimestampString ts) {
      return ts.getMillisSinceEpoch();
    } else if (v instanceof LocalDate d) {
      return d.toEpochDay();
    } else if (v instanceof LocalTime t) {
      return t.toNanoOfDay() / 1_000_000L;
    } else if (v instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC).toEpochMilli();
    } else if (v instanceof Instant i) {
      return i.toEpochMilli();
    }
    return v;
  }

  private static boolean integralClass(Object v) {
    return v instanceof Number;
  }

  /** The exact long value of a number, or null when it has none (fractional, too large, not a number). */
  private static Long integral(Object v) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      try {
        return d.longValueExact();
      } catch (ArithmeticException e) {
        return null;
      }
    }
    if (v instanceof BigInteger i) {
      return i.bitLength() < 64 ? i.longValue() : null;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isFinite(d) && d == Math.rint(d) && d >= -9.223372036854775808E18 && d < 9.223372036854775807E18) {
        return (long) d;
      }
    }
    return null;
  }

  /** Value counts ordered most frequent first, ties in key order. */
  static Map<ByteBuffer, Long> ordered(Map<ByteBuffer, Long> counts) {
    List<Map.Entry<ByteBuffer, Long>> entries = new ArrayList<>(counts.entrySet());
    entries.sort(Map.Entry.<ByteBuffer, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    Map<ByteBuffer, Long> out = new LinkedHashMap<>();
    for (Map.Entry<ByteBuffer, Long> e : entries) {
      out.put(e.getKey().asReadOnlyBuffer(), e.getValue());
    }
    return Collections.unmodifiableMap(out);
  }

  @Override
  public String toString() {
    Map<Long, List<Double>> idx = new HashMap<>();
    indexDistinct.forEach((k, v) -> idx.put(k, Arrays.stream(v).boxed().toList()));
    return "TableStatistics[table=" + tableId + ", rows=" + rowCount + ", analyzedRows=" + analyzedRows
        + ", analyzedAt=" + analyzedAt + ", pk=" + Arrays.toString(primaryKeyDistinct) + ", indexes=" + idx + "]";
  }
}
