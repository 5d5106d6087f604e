package io.accel.storage;

import io.accel.catalog.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;

/**
 * The compact value encoding of a whole row, as stored under its key. Unlike {@link KeyCodec} it need not
 * preserve order, so it favours size and an exact round trip: NUMERIC keeps its scale, REAL and DOUBLE
 * keep their bit pattern (NaN payloads, -0.0), CHAR keeps its spaces.
 *
 * <p>Layout: the schema version as an unsigned varint (so a reader can pick the column list the row was
 * written with), a null bitmap of ceil(n/8) bytes (bit i%8 of byte i/8 set when column i is null), then
 * each non-null value in column order: zig-zag varints for SMALLINT, INTEGER, BIGINT, DATE, TIME,
 * TIMESTAMP and TIMESTAMPTZ; 4 or 8 raw big-endian bytes for REAL and DOUBLE; one byte for BOOLEAN; a
 * varint length and the bytes for strings (UTF-8) and BYTEA; for NUMERIC a zig-zag varint scale, a varint
 * length and the unscaled value's two's complement bytes; 16 bytes for UUID.
 */
public final class RowCodec {

  private static final int SCHEMA_VERSION = -2;
  private static final int NULL_BITMAP = -1;

  private RowCodec() {
  }

  public static byte[] encode(int schemaVersion, List<DataType> types, Object[] row) {
    int n = types.size();
    if (row.length != n) {
      throw new IllegalArgumentException("row has " + row.length + " values for " + n + " columns");
    }
    KeyWriter out = new KeyWriter(8 + n * 6);
    putVarint(out, schemaVersion & 0xFFFFFFFFL);
    byte[] bitmap = new byte[(n + 7) / 8];
    for (int i = 0; i < n; i++) {
      if (row[i] == null) {
        bitmap[i >>> 3] |= (byte) (1 << (i & 7));
      }
    }
    out.put(bitmap, 0, bitmap.length);
    for (int i = 0; i < n; i++) {
      if (row[i] != null) {
        writeValue(out, types.get(i), row[i]);
      }
    }
    return out.toByteArray();
  }

  /**
   * Decodes a row written by {@link #encode} with the same column types.
   *
   * @throws IllegalArgumentException if the bytes do not hold exactly one row of these types
   */
  public static Object[] decode(List<DataType> types, byte[] bytes) {
    return decode(types, bytes, null);
  }

  /**
   * Decodes the columns {@code wanted} marks (all when null) of a row written by {@link #encode}; the others are
   * skipped without building their values and stay null.
   *
   * @throws IllegalArgumentException if the bytes do not hold exactly one row of these types
   */
  public static Object[] decode(List<DataType> types, byte[] bytes, boolean[] wanted) {
    Cursor in = new Cursor(bytes, types);
    in.varint();
    int n = types.size();
    in.column = NULL_BITMAP;
    int bitmapAt = in.bytes((n + 7) / 8);
    if (n % 8 != 0 && (bytes[bitmapAt + n / 8] & 0xFF) >>> (n % 8) != 0) {
      throw new IllegalArgumentException("row's null bitmap marks columns beyond the " + n + " given");
    }
    Object[] row = new Object[n];
    // the columns after the last wanted one are not even skipped (the length check below then cannot run)
    int last = n;
    if (wanted != null) {
      while (last > 0 && !wanted[last - 1]) {
        last--;
      }
    }
    for (int i = 0; i < last; i++) {
      if ((bytes[bitmapAt + (i >>> 3)] & 1 << (i & 7)) == 0) {
        in.column = i;
        if (wanted == null || wanted[i]) {
          row[i] = readValue(in, types.get(i));
        } else {
          skipValue(in, types.get(i));
        }
      }
    }
    if (last == n && in.pos != bytes.length) {
      throw new IllegalArgumentException("row of " + bytes.length + " bytes has " + (bytes.length - in.pos)
          + " bytes left after its " + n + " columns; it was written with more columns than given");
    }
    return row;
  }

  /** The schema version a row was written with. */
  public static int schemaVersion(byte[] bytes) {
    return new Cursor(bytes, List.of()).varint();
  }

  private static void writeValue(KeyWriter out, DataType type, Object v) {
    switch (type.kind()) {
      case SMALLINT -> putZigZag(out, KeyCodec.integral(type, v, Short.MIN_VALUE, Short.MAX_VALUE));
      case INTEGER, DATE, TIME -> putZigZag(out, KeyCodec.integral(type, v, Integer.MIN_VALUE, Integer.MAX_VALUE));
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> putZigZag(out, KeyCodec.integral(type, v, Long.MIN_VALUE, Long.MAX_VALUE));
      case REAL -> out.putInt(Float.floatToRawIntBits(KeyCodec.number(type, v).floatValue()));
      case DOUBLE -> out.putLong(Double.doubleToRawLongBits(KeyCodec.number(type, v).doubleValue()));
      case BOOLEAN -> out.put((byte) (KeyCodec.bool(type, v) ? 1 : 0));
      case CHAR, VARCHAR, TEXT, JSON, JSONB -> putBytes(out, KeyCodec.encodeUtf8(KeyCodec.string(type, v)));
      case BYTEA -> {
        if (v instanceof ByteString bs) {
          putBytes(out, bs.getBytes());
        } else if (v instanceof byte[] b) {
          putBytes(out, b);
        } else {
          throw KeyCodec.wrongClass(type, v);
        }
      }
      case NUMERIC -> {
        BigDecimal d = KeyCodec.decimal(type, v);
        putZigZag(out, d.scale());
        putBytes(out, d.unscaledValue().toByteArray());
      }
      case UUID -> {
        UUID u = KeyCodec.uuid(type, v);
        out.putLong(u.getMostSignificantBits());
        out.putLong(u.getLeastSignificantBits());
      }
      default -> throw new IllegalArgumentException("no row encoding for " + type.sqlName());
    }
  }

  private static Object readValue(Cursor in, DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> (short) in.zigZag(Short.MIN_VALUE, Short.MAX_VALUE, type);
      case INTEGER, DATE, TIME -> (int) in.zigZag(Integer.MIN_VALUE, Integer.MAX_VALUE, type);
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> in.zigZag(Long.MIN_VALUE, Long.MAX_VALUE, type);
      case REAL -> Float.intBitsToFloat((int) in.fixed(4));
      case DOUBLE -> Double.longBitsToDouble(in.fixed(8));
      case BOOLEAN -> {
        int b = in.bytes(1);
        if (in.buf[b] != 0 && in.buf[b] != 1) {
          throw in.malformed("boolean byte " + in.buf[b]);
        }
        yield in.buf[b] == 1;
      }
      case CHAR, VARCHAR, TEXT, JSON, JSONB -> {
        int len = in.length();
        yield KeyCodec.decodeUtf8(in.buf, in.bytes(len), len);
      }
      case BYTEA -> {
        int len = in.length();
        int at = in.bytes(len);
        yield new ByteString(Arrays.copyOfRange(in.buf, at, at + len));
      }
      case NUMERIC -> {
        int scale = (int) in.zigZag(Integer.MIN_VALUE, Integer.MAX_VALUE, type);
        int len = in.length();
        if (len == 0) {
          throw in.malformed("empty NUMERIC value");
        }
        yield new BigDecimal(new BigInteger(in.buf, in.bytes(len), len), scale);
      }
      case UUID -> new UUID(in.fixed(8), in.fixed(8));
      default -> throw new IllegalArgumentException("no row encoding for " + type.sqlName());
    };
  }

  private static void skipValue(Cursor in, DataType type) {
    switch (type.kind()) {
      case SMALLINT, INTEGER, DATE, TIME, BIGINT, TIMESTAMP, TIMESTAMPTZ -> in.varint64();
      case REAL -> in.bytes(4);
      case DOUBLE -> in.bytes(8);
      case BOOLEAN -> in.bytes(1);
      case CHAR, VARCHAR, TEXT, JSON, JSONB, BYTEA -> in.bytes(in.length());
      case NUMERIC -> {
        in.varint64();
        in.bytes(in.length());
      }
      case UUID -> in.bytes(16);
      default -> throw new IllegalArgumentException("no row encoding for " + type.sqlName());
    }
  }

  private static void putBytes(KeyWriter out, byte[] b) {
    putVarint(out, b.length);
    out.put(b, 0, b.length);
  }

  private static void putZigZag(KeyWriter out, long x) {
    putVarint(out, x << 1 ^ x >> 63);
  }

  private static void putVarint(KeyWriter out, long x) {
    while ((x & ~0x7FL) != 0) {
      out.put((byte) (x & 0x7F | 0x80));
      x >>>= 7;
    }
    out.put((byte) x);
  }

  private static final class Cursor {
    final byte[] buf;
    final List<DataType> types;
    int pos;
    int column = SCHEMA_VERSION;

    Cursor(byte[] buf, List<DataType> types) {
      this.buf = buf;
      this.types = types;
    }

    String reading() {
      return switch (column) {
        case SCHEMA_VERSION -> "the schema version";
        case NULL_BITMAP -> "the null bitmap";
        default -> "column " + column + " (" + types.get(column).sqlName() + ")";
      };
    }

    /** Consumes the next {@code n} bytes and returns where they start. */
    int bytes(int n) {
      if (n > buf.length - pos) {
        throw new IllegalArgumentException("row of " + buf.length + " bytes ends while reading " + reading()
            + " of " + types.size() + " columns; the bytes hold fewer columns than given, or are truncated");
      }
      int at = pos;
      pos += n;
      return at;
    }

    long fixed(int n) {
      int at = bytes(n);
      long x = 0;
      for (int i = 0; i < n; i++) {
        x = x << 8 | buf[at + i] & 0xFF;
      }
      return x;
    }

    long varint64() {
      long x = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = buf[bytes(1)];
        x |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          if (shift == 63 && b > 1) {
            break;
          }
          return x;
        }
      }
      throw malformed("varint longer than 64 bits");
    }

    int varint() {
      long x = varint64();
      if ((x & ~0xFFFFFFFFL) != 0) {
        throw malformed("varint " + Long.toUnsignedString(x) + " wider than 32 bits");
      }
      return (int) x;
    }

    int length() {
      int len = varint();
      if (len < 0) {
        throw malformed("length " + Integer.toUnsignedString(len));
      }
      return len;
    }

    long zigZag(long min, long max, DataType type) {
      long z = varint64();
      long x = z >>> 1 ^ -(z & 1);
      if (x < min || x > max) {
        throw malformed(x + " out of range for " + type.sqlName());
      }
      return x;
    }

    IllegalArgumentException malformed(String what) {
      return new IllegalArgumentException("malformed row: " + what + " at byte " + (pos - 1) + " in " + reading());
    }
  }
}
