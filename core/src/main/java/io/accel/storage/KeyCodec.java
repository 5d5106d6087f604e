package io.accel.storage;

import io.accel.catalog.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Order-preserving encoding of column values into RocksDB key bytes: for two values of the same type,
 * comparing their encodings as unsigned bytes gives the order PostgreSQL gives the values (C collation).
 * Because byte order is SQL order, primary-key and index range bounds and prefix seeks are plain byte
 * comparisons in RocksDB's default comparator, with no decoding during the scan.
 *
 * <p>Every field starts with a header byte that puts NULL after all values of an ascending field and
 * before all values of a descending one (PostgreSQL's NULLS LAST for ASC, NULLS FIRST for DESC). A
 * descending field is the ascending encoding with every byte inverted. Each type's encoding is
 * prefix-free, so the fields of a composite key can be concatenated and the key orders column by column.
 *
 * <ul>
 *   <li>SMALLINT, INTEGER, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ: fixed-width big-endian with the sign
 *       bit flipped.</li>
 *   <li>REAL, DOUBLE: IEEE bits, sign bit flipped for positives and all bits inverted for negatives. -0.0
 *       is written as 0.0 and every NaN as one canonical NaN above +Infinity, as PostgreSQL orders them;
 *       so decoding yields 0.0 for -0.0 and the canonical NaN for any NaN.</li>
 *   <li>NUMERIC: a sign class byte, then for non-zero values a variable-length order-preserving decimal
 *       exponent and the significant digits two per byte, terminated by 0x00; the exponent and digits of
 *       negative values are inverted. Equal values get equal keys whatever their scale (1.0 and 1.00), so
 *       decoding returns a value equal by {@code compareTo} with trailing zeros stripped: the scale is
 *       not preserved.</li>
 *   <li>CHAR, VARCHAR, TEXT, BYTEA: the bytes (UTF-8 for strings) with 0x00 written as 0x00 0xFF and a
 *       0x00 0x01 terminator. CHAR drops trailing spaces before encoding, since PostgreSQL's bpchar ignores
 *       them when comparing, and decoding pads back to the declared length. A lone surrogate (invalid
 *       Unicode, but possible in a Java string) is written in its 3-byte generalized UTF-8 form, which
 *       keeps code point order and round-trips.</li>
 *   <li>UUID: the 16 bytes big-endian, so keys order as PostgreSQL's unsigned byte comparison does.</li>
 * </ul>
 */
public final class KeyCodec {

  private static final int PRESENT = 0x01;
  private static final int NULL = 0x02;

  private static final int NUMERIC_NEGATIVE = 0x01;
  private static final int NUMERIC_ZERO = 0x02;
  private static final int NUMERIC_POSITIVE = 0x03;
  private static final int NUMERIC_END = 0x00;

  private static final int ESCAPED_NUL = 0xFF;
  private static final int STRING_END = 0x01;

  private KeyCodec() {
  }

  /** Appends the key encoding of one field; {@code valueOrNull} is in the type's engine representation. */
  public static void write(KeyWriter out, DataType type, Object valueOrNull, boolean descending) {
    int mask = descending ? 0xFF : 0;
    if (valueOrNull == null) {
      put(out, NULL, mask);
      return;
    }
    put(out, PRESENT, mask);
    int intMask = descending ? -1 : 0;
    Object v = valueOrNull;
    switch (type.kind()) {
      case SMALLINT -> {
        int s = (int) integral(type, v, Short.MIN_VALUE, Short.MAX_VALUE) ^ 0x8000;
        put(out, s >>> 8, mask);
        put(out, s, mask);
      }
      case INTEGER, DATE, TIME ->
          out.putInt((int) integral(type, v, Integer.MIN_VALUE, Integer.MAX_VALUE) ^ Integer.MIN_VALUE ^ intMask);
      case BIGINT, TIMESTAMP, TIMESTAMPTZ ->
          out.putLong(integral(type, v, Long.MIN_VALUE, Long.MAX_VALUE) ^ Long.MIN_VALUE ^ intMask);
      case REAL -> {
        float f = number(type, v).floatValue();
        int bits = f == 0.0f ? 0 : Float.floatToIntBits(f);
        out.putInt((bits >= 0 ? bits ^ Integer.MIN_VALUE : ~bits) ^ intMask);
      }
      case DOUBLE -> {
        double d = number(type, v).doubleValue();
        long bits = d == 0.0d ? 0L : Double.doubleToLongBits(d);
        out.putLong((bits >= 0 ? bits ^ Long.MIN_VALUE : ~bits) ^ intMask);
      }
      case BOOLEAN -> put(out, bool(type, v) ? 1 : 0, mask);
      case NUMERIC -> writeNumeric(out, decimal(type, v), mask);
      case CHAR -> {
        String s = string(type, v);
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
          end--;
        }
        writeString(out, s, end, mask);
      }
      case VARCHAR, TEXT, JSON, JSONB -> {
        String s = string(type, v);
        writeString(out, s, s.length(), mask);
      }
      case BYTEA -> writeBytes(out, v, type, mask);
      case UUID -> {
        UUID u = uuid(type, v);
        out.putLong(u.getMostSignificantBits() ^ intMask);
        out.putLong(u.getLeastSignificantBits() ^ intMask);
      }
      default -> throw new IllegalArgumentException("no key encoding for " + type.sqlName());
    }
  }

  /** Reads one field written by {@link #write}, returning the value in the type's engine representation. */
  public static Object read(KeyReader in, DataType type, boolean descending) {
    int mask = descending ? 0xFF : 0;
    if (!readHeader(in, mask)) {
      return null;
    }
    int intMask = descending ? -1 : 0;
    return switch (type.kind()) {
      case SMALLINT -> {
        int hi = in.get() ^ mask;
        int lo = in.get() ^ mask;
        yield (short) ((hi << 8 | lo) ^ 0x8000);
      }
      case INTEGER, DATE, TIME -> in.getInt() ^ intMask ^ Integer.MIN_VALUE;
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> in.getLong() ^ intMask ^ Long.MIN_VALUE;
      case REAL -> {
        int bits = in.getInt() ^ intMask;
        yield Float.intBitsToFloat(bits < 0 ? bits ^ Integer.MIN_VALUE : ~bits);
      }
      case DOUBLE -> {
        long bits = in.getLong() ^ intMask;
        yield Double.longBitsToDouble(bits < 0 ? bits ^ Long.MIN_VALUE : ~bits);
      }
      case BOOLEAN -> {
        int b = in.get() ^ mask;
        if (b > 1) {
          throw malformed(in, "boolean byte " + b);
        }
        yield b == 1;
      }
      case NUMERIC -> readNumeric(in, mask);
      case CHAR -> {
        String s = readString(in, mask);
        int width = type.precision() < 0 ? 1 : type.precision();
        int missing = width - s.codePointCount(0, s.length());
        yield missing > 0 ? s + " ".repeat(missing) : s;
      }
      case VARCHAR, TEXT, JSON, JSONB -> readString(in, mask);
      case BYTEA -> {
        int start = in.pos;
        int n = scanEscaped(in, mask);
        yield new ByteString(unescape(in.buf, start, n, mask));
      }
      case UUID -> {
        long msb = in.getLong() ^ intMask;
        long lsb = in.getLong() ^ intMask;
        yield new UUID(msb, lsb);
      }
      default -> throw new IllegalArgumentException("no key encoding for " + type.sqlName());
    };
  }

  /** Advances past one field written by {@link #write} without decoding it. */
  public static void skip(KeyReader in, DataType type, boolean descending) {
    int mask = descending ? 0xFF : 0;
    if (!readHeader(in, mask)) {
      return;
    }
    switch (type.kind()) {
      case BOOLEAN -> in.skipBytes(1);
      case SMALLINT -> in.skipBytes(2);
      case INTEGER, DATE, TIME, REAL -> in.skipBytes(4);
      case BIGINT, TIMESTAMP, TIMESTAMPTZ, DOUBLE -> in.skipBytes(8);
      case UUID -> in.skipBytes(16);
      case CHAR, VARCHAR, TEXT, JSON, JSONB, BYTEA -> scanEscaped(in, mask);
      case NUMERIC -> skipNumeric(in, mask);
      default -> throw new IllegalArgumentException("no key encoding for " + type.sqlName());
    }
  }

  /** The first byte of every non-null field of a column in this direction. */
  public static byte presentHeader(boolean descending) {
    return (byte) (PRESENT ^ (descending ? 0xFF : 0));
  }

  /** The whole encoding of NULL in a column of this direction (one byte). */
  public static byte nullHeader(boolean descending) {
    return (byte) (NULL ^ (descending ? 0xFF : 0));
  }

  /** Whether {@code key} begins with {@code prefix} (a key of a prefix range, a meta key of a kind). */
  public static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /**
   * The smallest byte string greater than every byte string that starts with {@code prefix}, i.e. the
   * exclusive upper bound of a prefix scan; null when there is none (the prefix is empty or all 0xFF).
   */
  public static byte[] prefixSuccessor(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] successor = Arrays.copyOf(prefix, i + 1);
        successor[i]++;
        return successor;
      }
    }
    return null;
  }

  private static void put(KeyWriter out, int b, int mask) {
    out.put((byte) (b ^ mask));
  }

  private static boolean readHeader(KeyReader in, int mask) {
    int header = in.get() ^ mask;
    if (header == NULL) {
      return false;
    }
    if (header != PRESENT) {
      throw malformed(in, "field header " + header);
    }
    return true;
  }

  private static final long[] TEN_POWERS = new long[19];

  static {
    TEN_POWERS[0] = 1;
    for (int i = 1; i < TEN_POWERS.length; i++) {
      TEN_POWERS[i] = TEN_POWERS[i - 1] * 10;
    }
  }

  private static void writeNumeric(KeyWriter out, BigDecimal value, int mask) {
    int sign = value.signum();
    if (sign == 0) {
      put(out, NUMERIC_ZERO, mask);
      return;
    }
    put(out, sign < 0 ? NUMERIC_NEGATIVE : NUMERIC_POSITIVE, mask);
    int m = sign < 0 ? mask ^ 0xFF : mask;
    if (value.precision() <= 18) {
      // the same digits without BigDecimal.stripTrailingZeros and BigInteger.toString (most values: prices, counts)
      long u = Math.abs(value.unscaledValue().longValue());
      int scale = value.scale();
      while (u % 10 == 0) {
        u /= 10;
        scale--;
      }
      int n = 1;
      while (n < 19 && u >= TEN_POWERS[n]) {
        n++;
      }
      writeOrderedLong(out, (long) n - scale, m);
      for (int i = 0; i < n; i += 2) {
        int hi = (int) (u / TEN_POWERS[n - 1 - i] % 10);
        int lo = i + 1 < n ? (int) (u / TEN_POWERS[n - 2 - i] % 10) : 0;
        put(out, hi * 10 + lo + 1, m);
      }
      put(out, NUMERIC_END, m);
      return;
    }
    BigDecimal stripped = value.stripTrailingZeros();
    String digits = stripped.unscaledValue().abs().toString();
    int n = digits.length();
    writeOrderedLong(out, (long) n - stripped.scale(), m);
    for (int i = 0; i < n; i += 2) {
      int hi = digits.charAt(i) - '0';
      int lo = i + 1 < n ? digits.charAt(i + 1) - '0' : 0;
      put(out, hi * 10 + lo + 1, m);
    }
    put(out, NUMERIC_END, m);
  }

  private static BigDecimal readNumeric(KeyReader in, int mask) {
    int signClass = in.get() ^ mask;
    if (signClass == NUMERIC_ZERO) {
      return BigDecimal.ZERO;
    }
    if (signClass != NUMERIC_NEGATIVE && signClass != NUMERIC_POSITIVE) {
      throw malformed(in, "numeric sign class " + signClass);
    }
    int m = signClass == NUMERIC_NEGATIVE ? mask ^ 0xFF : mask;
    long exponent = readOrderedLong(in, m);
    StringBuilder digits = new StringBuilder();
    for (int b = in.get() ^ m; b != NUMERIC_END; b = in.get() ^ m) {
      if (b > 100) {
        throw malformed(in, "numeric digit pair " + b);
      }
      digits.append((char) ('0' + (b - 1) / 10)).append((char) ('0' + (b - 1) % 10));
    }
    int n = digits.length();
    if (n == 0) {
      throw malformed(in, "numeric without digits");
    }
    if (digits.charAt(n - 1) == '0') {
      digits.setLength(--n);
    }
    long scale = n - exponent;
    if (scale != (int) scale) {
      throw malformed(in, "numeric scale " + scale);
    }
    BigInteger unscaled = new BigInteger(digits.toString());
    return new BigDecimal(signClass == NUMERIC_NEGATIVE ? unscaled.negate() : unscaled, (int) scale);
  }

  private static void skipNumeric(KeyReader in, int mask) {
    int signClass = in.get() ^ mask;
    if (signClass == NUMERIC_ZERO) {
      return;
    }
    int m = signClass == NUMERIC_NEGATIVE ? mask ^ 0xFF : mask;
    int first = in.get() ^ m;
    in.skipBytes(first >= 0x80 ? first - 0x80 : 0x7F - first);
    int b;
    do {
      b = in.get() ^ m;
    } while (b != NUMERIC_END);
  }

  /**
   * A signed long in 1 to 9 bytes whose unsigned byte order is numeric order: a first byte 0x80 + k for a
   * non-negative value of k significant bytes, 0x7F - k for a negative one whose complement has k, then
   * those k low-order bytes big-endian.
   */
  private static void writeOrderedLong(KeyWriter out, long x, int mask) {
    int k = x >= 0 ? byteCount(x) : byteCount(~x);
    put(out, x >= 0 ? 0x80 + k : 0x7F - k, mask);
    for (int i = k - 1; i >= 0; i--) {
      put(out, (int) (x >>> (8 * i)) & 0xFF, mask);
    }
  }

  private static long readOrderedLong(KeyReader in, int mask) {
    int first = in.get() ^ mask;
    boolean negative = first < 0x80;
    int k = negative ? 0x7F - first : first - 0x80;
    if (k > 8) {
      throw malformed(in, "numeric exponent length " + k);
    }
    long x = negative ? -1L : 0L;
    for (int i = 0; i < k; i++) {
      x = x << 8 | (in.get() ^ mask);
    }
    return x;
  }

  private static int byteCount(long nonNegative) {
    return (64 - Long.numberOfLeadingZeros(nonNegative) + 7) / 8;
  }

  private static void writeString(KeyWriter out, String s, int end, int mask) {
    writeUtf8(out, s, end, mask, true);
    put(out, 0x00, mask);
    put(out, STRING_END, mask);
  }

  private static void writeUtf8(KeyWriter out, String s, int end, int mask, boolean escapeNul) {
    for (int i = 0; i < end; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        put(out, c, mask);
        if (c == 0 && escapeNul) {
          put(out, ESCAPED_NUL, mask);
        }
      } else if (c < 0x800) {
        put(out, 0xC0 | c >>> 6, mask);
        put(out, 0x80 | c & 0x3F, mask);
      } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        put(out, 0xF0 | cp >>> 18, mask);
        put(out, 0x80 | cp >>> 12 & 0x3F, mask);
        put(out, 0x80 | cp >>> 6 & 0x3F, mask);
        put(out, 0x80 | cp & 0x3F, mask);
      } else {
        put(out, 0xE0 | c >>> 12, mask);
        put(out, 0x80 | c >>> 6 & 0x3F, mask);
        put(out, 0x80 | c & 0x3F, mask);
      }
    }
  }

  private static void writeBytes(KeyWriter out, Object v, DataType type, int mask) {
    if (v instanceof ByteString bs) {
      for (int i = 0, n = bs.length(); i < n; i++) {
        putEscaped(out, bs.byteAt(i), mask);
      }
    } else if (v instanceof byte[] bytes) {
      for (byte b : bytes) {
        putEscaped(out, b, mask);
      }
    } else {
      throw wrongClass(type, v);
    }
    put(out, 0x00, mask);
    put(out, STRING_END, mask);
  }

  private static void putEscaped(KeyWriter out, byte b, int mask) {
    put(out, b & 0xFF, mask);
    if (b == 0) {
      put(out, ESCAPED_NUL, mask);
    }
  }

  private static String readString(KeyReader in, int mask) {
    int start = in.pos;
    int n = scanEscaped(in, mask);
    if (mask == 0 && n == in.pos - start - 2) {
      return decodeUtf8(in.buf, start, n);
    }
    return decodeUtf8(unescape(in.buf, start, n, mask), 0, n);
  }

  /** Advances past an escaped, terminated byte string and returns its unescaped length. */
  private static int scanEscaped(KeyReader in, int mask) {
    byte[] b = in.buf;
    byte zero = (byte) mask;
    int n = 0;
    for (int p = in.pos; ; ) {
      if (p >= b.length) {
        throw in.truncated();
      }
      if (b[p] != zero) {
        p++;
        n++;
        continue;
      }
      if (p + 1 >= b.length) {
        throw in.truncated();
      }
      int next = (b[p + 1] ^ mask) & 0xFF;
      if (next == STRING_END) {
        in.pos = p + 2;
        return n;
      }
      if (next != ESCAPED_NUL) {
        in.pos = p + 1;
        throw malformed(in, "byte " + next + " after 0x00 in a string");
      }
      p += 2;
      n++;
    }
  }

  private static byte[] unescape(byte[] b, int start, int n, int mask) {
    byte[] out = new byte[n];
    for (int i = 0, p = start; i < n; i++) {
      byte x = (byte) (b[p] ^ mask);
      out[i] = x;
      p += x == 0 ? 2 : 1;
    }
    return out;
  }

  /** UTF-8 bytes of {@code s}, writing a lone surrogate in its 3-byte generalized form instead of '?'. */
  static byte[] encodeUtf8(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        KeyWriter out = new KeyWriter(n * 3);
        writeUtf8(out, s, n, 0, false);
        return out.toByteArray();
      }
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The inverse of {@link #encodeUtf8}. */
  static String decodeUtf8(byte[] b, int off, int len) {
    int end = off + len;
    boolean surrogates = false;
    for (int i = off; i < end - 1; i++) {
      if (b[i] == (byte) 0xED && (b[i + 1] & 0xE0) == 0xA0) {
        surrogates = true;
        break;
      }
    }
    if (!surrogates) {
      return new String(b, off, len, StandardCharsets.UTF_8);
    }
    char[] chars = new char[len];
    int n = 0;
    for (int i = off; i < end; ) {
      int b0 = b[i] & 0xFF;
      int width = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
      if (i + width > end) {
        throw new IllegalArgumentException("malformed UTF-8: sequence cut off at byte " + (i - off));
      }
      switch (width) {
        case 1 -> chars[n++] = (char) b0;
        case 2 -> chars[n++] = (char) ((b0 & 0x1F) << 6 | b[i + 1] & 0x3F);
        case 3 -> chars[n++] = (char) ((b0 & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F);
        default -> {
          int cp = (b0 & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | b[i + 3] & 0x3F;
          chars[n++] = Character.highSurrogate(cp);
          chars[n++] = Character.lowSurrogate(cp);
        }
      }
      i += width;
    }
    return new String(chars, 0, n);
  }

  static long integral(DataType type, Object v, long min, long max) {
    long x;
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      x = ((Number) v).longValue();
    } else if (v instanceof BigDecimal d) {
      x = exactLong(type, d);
    } else if (v instanceof BigInteger i) {
      x = exactLong(type, new BigDecimal(i));
    } else {
      throw wrongClass(type, v);
    }
    if (x < min || x > max) {
      throw new IllegalArgumentException(x + " is out of range for " + type.sqlName());
    }
    return x;
  }

  private static long exactLong(DataType type, BigDecimal d) {
    try {
      return d.longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(d + " is not a valid " + type.sqlName(), e);
    }
  }

  static Number number(DataType type, Object v) {
    if (v instanceof Number n) {
      return n;
    }
    throw wrongClass(type, v);
  }

  static BigDecimal decimal(DataType type, Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if ((v instanceof Double || v instanceof Float) && Double.isFinite(((Number) v).doubleValue())) {
      return new BigDecimal(v.toString());
    }
    throw wrongClass(type, v);
  }

  static boolean bool(DataType type, Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw wrongClass(type, v);
  }

  static String string(DataType type, Object v) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof CharSequence cs) {
      return cs.toString();
    }
    throw wrongClass(type, v);
  }

  static UUID uuid(DataType type, Object v) {
    if (v instanceof UUID u) {
      return u;
    }
    throw wrongClass(type, v);
  }

  static IllegalArgumentException wrongClass(DataType type, Object v) {
    return new IllegalArgumentException("a " + type.sqlName() + " value must be a "
        + type.kind().javaClass().getSimpleName() + ", not " + v.getClass().getName() + " (" + v + ")");
  }

  private static IllegalArgumentException malformed(KeyReader in, String what) {
    return new IllegalArgumentException("malformed key: " + what + " at byte " + (in.pos - 1));
  }
}
