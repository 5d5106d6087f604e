package io.accel.cache;

import io.accel.catalog.DataType;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's decoded rows held by column, for the scan cache: integers, dates, times and timestamps in primitive
 * arrays (4 or 8 bytes a value where a boxed value in a row array costs about 20), other values as objects with
 * repeated values shared (a column of a few thousand distinct names costs a reference a row). Rows are read back
 * one at a time into an {@code Object[]} of table width.
 */
public final class ColumnarRows {
  /** Distinct values a column's dictionary keeps before it stops sharing new ones. */
  private static final int MAX_DICTIONARY = 1 << 16;

  private final Column[] columns;
  private final int size;
  private final long bytes;

  private ColumnarRows(Column[] columns, int size, long bytes) {
    this.columns = columns;
    this.size = size;
    this.bytes = bytes;
  }

  public int size() {
    return size;
  }

  /** Estimated heap bytes. */
  public long bytes() {
    return bytes;
  }

  /** Row {@code row}'s value of column {@code column}. */
  public Object get(int column, int row) {
    return columns[column].get(row);
  }

  /** Sets {@code out[c]} to row {@code row}'s value of column c for every column {@code wanted} (null: all). */
  public void fill(int row, Object[] out, boolean[] wanted) {
    for (int c = 0; c < columns.length; c++) {
      if (wanted == null || wanted[c]) {
        out[c] = columns[c].get(row);
      }
    }
  }

  /** Accumulates rows in table order; {@link #bytes} tells a caller when to give up. */
  public static final class Builder {
    private final Column[] columns;
    private int size;
    private long bytes;

    public Builder(List<DataType> types, int expectedRows) {
      columns = new Column[types.size()];
      int capacity = Math.max(16, expectedRows);
      for (int c = 0; c < columns.length; c++) {
        columns[c] = switch (types.get(c).kind()) {
          case INTEGER, DATE, TIME -> new IntColumn(capacity);
          case BIGINT, TIMESTAMP, TIMESTAMPTZ -> new LongColumn(capacity);
          case DOUBLE -> new DoubleColumn(capacity);
          default -> new ObjectColumn(capacity);
        };
      }
    }

    public void add(Object[] row) {
      for (int c = 0; c < columns.length; c++) {
        bytes += columns[c].add(size, row[c]);
      }
      size++;
    }

    public int size() {
      return size;
    }

    /** Estimated heap bytes of the rows so far. */
    public long bytes() {
      return 64 + bytes;
    }

    public ColumnarRows build() {
      for (Column c : columns) {
        c.trim(size);
      }
      return new ColumnarRows(columns, size, bytes());
    }
  }

  private abstract static class Column {
    BitSet nulls;

    /** Stores the value at {@code row}; returns the bytes it takes (its slot, and a value not shared). */
    abstract long add(int row, Object value);

    abstract Object get(int row);

    abstract void trim(int size);

    final boolean isNull(int row) {
      return nulls != null && nulls.get(row);
    }

    final void setNull(int row) {
      if (nulls == null) {
        nulls = new BitSet();
      }
      nulls.set(row);
    }

    static int grown(int length, int row) {
      return row < length ? length : Math.max(row + 1, length + (length >> 1));
    }
  }

  private static final class IntColumn extends Column {
    private int[] values;

    IntColumn(int capacity) {
      values = new int[capacity];
    }

    @Override
    long add(int row, Object value) {
      if (row >= values.length) {
        values = Arrays.copyOf(values, grown(values.length, row));
      }
      if (value == null) {
        setNull(row);
      } else {
        values[row] = (Integer) value;
      }
      return 4;
    }

    @Override
    Object get(int row) {
      return isNull(row) ? null : values[row];
    }

    @Override
    void trim(int size) {
      values = Arrays.copyOf(values, size);
    }

  }

  private static final class LongColumn extends Column {
    private long[] values;

    LongColumn(int capacity) {
      values = new long[capacity];
    }

    @Override
    long add(int row, Object value) {
      if (row >= values.length) {
        values = Arrays.copyOf(values, grown(values.length, row));
      }
      if (value == null) {
        setNull(row);
      } else {
        values[row] = (Long) value;
      }
      return 8;
    }

    @Override
    Object get(int row) {
      return isNull(row) ? null : values[row];
    }

    @Override
    void trim(int size) {
      values = Arrays.copyOf(values, size);
    }

  }

  private static final class DoubleColumn extends Column {
    private double[] values;

    DoubleColumn(int capacity) {
      values = new double[capacity];
    }

    @Override
    long add(int row, Object value) {
      if (row >= values.length) {
        values = Arrays.copyOf(values, grown(values.length, row));
      }
      if (value == null) {
        setNull(row);
      } else {
        values[row] = (Double) value;
      }
      return 8;
    }

    @Override
    Object get(int row) {
      return isNull(row) ? null : values[row];
    }

    @Override
    void trim(int size) {
      values = Arrays.copyOf(values, size);
    }

  }

  /** Any other value, shared with an equal earlier one while the column has few distinct values. */
  private static final class ObjectColumn extends Column {
    private Object[] values;
    private Map<Object, Object> dictionary = new HashMap<>();

    ObjectColumn(int capacity) {
      values = new Object[capacity];
    }

    @Override
    long add(int row, Object value) {
      if (row >= values.length) {
        values = Arrays.copyOf(values, grown(values.length, row));
      }
      if (value == null) {
        return 4;
      }
      if (dictionary != null) {
        Object shared = dictionary.putIfAbsent(value, value);
        if (shared != null) {
          values[row] = shared;
          return 4;
        }
        if (dictionary.size() > MAX_DICTIONARY) {
          dictionary = null;
        }
      }
      values[row] = value;
      return 4 + size(value);
    }

    private static long size(Object value) {
      if (value instanceof String s) {
        return 48 + s.length();
      }
      if (value instanceof byte[] b) {
        return 16 + b.length;
      }
      return 64; // BigDecimal, UUID, a byte string, a boolean, a short
    }

    @Override
    Object get(int row) {
      return values[row];
    }

    @Override
    void trim(int size) {
      values = Arrays.copyOf(values, size);
      dictionary = null;
    }

  }
}
