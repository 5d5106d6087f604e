package io.accel.catalog;

import io.accel.catalog.TableStatistics.ColumnStats;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a table's {@link TableStatistics} in the {@code meta} column family, under the key
 * {@code stats/<tableId>} (19 digits, so keys sort by id), versioned by a leading format byte. Besides the
 * statistics it records the changes committed since the analysis that were pending when the store closed
 * ({@link Entry#rowDelta}, {@link Entry#changes}), so a clean reopen keeps the row count current. Values of
 * the most-common-values lists are kept as their key encodings, which do not depend on the Java class
 * of the value.
 */
public final class StatisticsCodec {
  public static final String KEY_PREFIX = "stats/";
  private static final int FORMAT = 3;
  /** Written before columns had most-common-values lists. */
  private static final int FORMAT_WITHOUT_FREQUENT = 2;
  /** Format 1 has no column value ranges; still read. */
  private static final int FORMAT_WITHOUT_RANGES = 1;

  private StatisticsCodec() {
  }

  /** A stored record: the statistics as analyzed, and the committed changes not yet analyzed. */
  public record Entry(TableStatistics statistics, long rowDelta, long changes) {
  }

  public static byte[] key(long tableId) {
    return (KEY_PREFIX + String.format("%019d", tableId)).getBytes(StandardCharsets.UTF_8);
  }

  /** The table id of a key written by {@link #key}, or -1 when it is not one. */
  public static long tableId(byte[] key) {
    String s = new String(key, StandardCharsets.UTF_8);
    if (!s.startsWith(KEY_PREFIX)) {
      return -1;
    }
    try {
      return Long.parseLong(s.substring(KEY_PREFIX.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public static byte[] encode(Entry entry) {
    TableStatistics s = entry.statistics();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeLong(s.tableId());
      out.writeInt(s.schemaVersion());
      out.writeLong(s.analyzedAt());
      out.writeLong(s.analyzedRowCount());
      out.writeLong(entry.rowDelta());
      out.writeLong(entry.changes());
      writeDoubles(out, s.primaryKeyDistinctRaw());
      out.writeInt(s.indexDistinctRaw().size());
      for (Map.Entry<Long, double[]> e : s.indexDistinctRaw().entrySet()) {
        out.writeLong(e.getKey());
        writeDoubles(out, e.getValue());
      }
      List<ColumnStats> columns = s.columnsRaw();
      out.writeInt(columns == null ? -1 : columns.size());
      if (columns != null) {
        for (ColumnStats c : columns) {
          out.writeLong(c.nullCount());
          out.writeDouble(c.distinct());
          out.writeBoolean(c.distinctExact());
          writeCounts(out, c.valueCounts());
          out.writeDouble(c.min());
          out.writeDouble(c.max());
          writeCounts(out, c.frequentCounts());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Value counts keyed by key encoding; -1 for none. */
  private static void writeCounts(DataOutputStream out, Map<ByteBuffer, Long> counts) throws IOException {
    out.writeInt(counts == null ? -1 : counts.size());
    if (counts != null) {
      for (Map.Entry<ByteBuffer, Long> e : counts.entrySet()) {
        byte[] v = TableStatistics.bytes(e.getKey());
        out.writeInt(v.length);
        out.write(v);
        out.writeLong(e.getValue());
      }
    }
  }

  private static Map<ByteBuffer, Long> readCounts(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    Map<ByteBuffer, Long> counts = new LinkedHashMap<>();
    for (int j = 0; j < n; j++) {
      byte[] v = new byte[in.readInt()];
      in.readFully(v);
      counts.put(ByteBuffer.wrap(v), in.readLong());
    }
    return TableStatistics.ordered(counts);
  }

  /**
   * Decodes a record for the table as the catalog now defines it (see {@link TableStatistics#forTable}):
   * statistics of indexes since dropped are left out, column statistics when the columns changed.
   *
   * @throws IllegalArgumentException when the bytes are not a record this codec wrote
   */
  public static Entry decode(byte[] bytes, TableDef table) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int format = in.readByte();
      if (format != FORMAT && format != FORMAT_WITHOUT_FREQUENT && format != FORMAT_WITHOUT_RANGES) {
        throw new IllegalArgumentException("unknown statistics format " + format);
      }
      long tableId = in.readLong();
      if (tableId != table.id()) {
        throw new IllegalArgumentException("statistics of table " + tableId + " read for table " + table.id());
      }
      int schemaVersion = in.readInt();
      long analyzedAt = in.readLong();
      long rows = in.readLong();
      long rowDelta = in.readLong();
      long changes = in.readLong();
      double[] pk = readDoubles(in);
      int indexCount = in.readInt();
      Map<Long, double[]> indexes = new LinkedHashMap<>();
      for (int i = 0; i < indexCount; i++) {
        long id = in.readLong();
        indexes.put(id, readDoubles(in));
      }
      int columnCount = in.readInt();
      List<ColumnStats> columns = null;
      if (columnCount >= 0) {
        columns = new ArrayList<>(columnCount);
        for (int i = 0; i < columnCount; i++) {
          long nulls = in.readLong();
          double distinct = in.readDouble();
          boolean exact = in.readBoolean();
          Map<ByteBuffer, Long> counts = readCounts(in);
          double min = Double.NaN;
          double max = Double.NaN;
          if (format >= FORMAT_WITHOUT_FREQUENT) {
            min = in.readDouble();
            max = in.readDouble();
          }
          Map<ByteBuffer, Long> frequent = format >= FORMAT ? readCounts(in) : null;
          columns.add(new ColumnStats(nulls, distinct, exact, counts, min, max, frequent));
        }
      }
      List<DataType> types = TableStatistics.types(table);
      if (columns != null && (columns.size() != types.size() || schemaVersion != table.schemaVersion())) {
        columns = null;
      }
      TableStatistics s = new TableStatistics(tableId, schemaVersion, types, table.primaryKey().size(), analyzedAt,
          rows, rows, pk, indexes, TableStatistics.shapes(table), columns);
      return new Entry(s.forTable(table), rowDelta, changes);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated statistics record", e);
    }
  }

  private static void writeDoubles(DataOutputStream out, double[] values) throws IOException {
    out.writeInt(values.length);
    for (double v : values) {
      out.writeDouble(v);
    }
  }

  private static double[] readDoubles(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 10_000) {
      throw new IllegalArgumentException("bad length " + n);
    }
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = in.readDouble();
    }
    return out;
  }
}
