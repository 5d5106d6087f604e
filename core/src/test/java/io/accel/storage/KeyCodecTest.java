package io.accel.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property tests of the key encoding against an oracle that knows SQL (PostgreSQL) ordering but nothing
 * of the codec. Run with {@code -Dseed=N} to reproduce a failure; every failure message names the seed.
 */
class KeyCodecTest {

  static final long SEED = Long.parseLong(System.getProperty("seed", "7355608"));
  private static final int PAIRS = 5000;
  private static final int COMPOSITE_PAIRS = 60;

  static final List<DataType> TYPES = List.of(
      DataType.of(ColumnType.SMALLINT), DataType.of(ColumnType.INTEGER), DataType.of(ColumnType.BIGINT),
      new DataType(ColumnType.NUMERIC, -1, -1), new DataType(ColumnType.NUMERIC, 12, 3),
      DataType.of(ColumnType.REAL), DataType.of(ColumnType.DOUBLE), DataType.of(ColumnType.BOOLEAN),
      DataType.of(ColumnType.CHAR, 8), DataType.of(ColumnType.CHAR), DataType.of(ColumnType.VARCHAR, 20),
      DataType.of(ColumnType.VARCHAR), DataType.of(ColumnType.TEXT), DataType.of(ColumnType.DATE),
      DataType.of(ColumnType.TIME), DataType.of(ColumnType.TIMESTAMP), DataType.of(ColumnType.TIMESTAMPTZ),
      DataType.of(ColumnType.BYTEA), DataType.of(ColumnType.UUID));

  static Stream<DataType> types() {
    return TYPES.stream();
  }

  @ParameterizedTest
  @MethodSource("types")
  void byteOrderIsSqlOrder(DataType type) {
    for (boolean desc : new boolean[] {false, true}) {
      List<Object> edges = new ArrayList<>(edgeValues(type));
      edges.add(null);
      for (Object a : edges) {
        for (Object b : edges) {
          checkOrder(type, desc, a, b);
        }
      }
      Random r = new Random(SEED * 31 + type.hashCode() + (desc ? 1 : 0));
      for (int i = 0; i < PAIRS; i++) {
        Object a = r.nextInt(12) == 0 ? null : randomValue(r, type);
        Object b = r.nextInt(12) == 0 ? null : r.nextInt(3) == 0 && a != null ? related(r, type, a) : randomValue(r, type);
        checkOrder(type, desc, a, b);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("types")
  void decodeInvertsEncode(DataType type) {
    for (boolean desc : new boolean[] {false, true}) {
      List<Object> values = new ArrayList<>(edgeValues(type));
      values.add(null);
      Random r = new Random(SEED * 37 + type.hashCode() + (desc ? 1 : 0));
      for (int i = 0; i < PAIRS; i++) {
        values.add(randomValue(r, type));
      }
      for (Object v : values) {
        withSeed(() -> context(type, desc) + " round trip of " + show(v), () -> checkRoundTrip(type, desc, v));
      }
    }
  }

  private static void checkRoundTrip(DataType type, boolean desc, Object v) {
    byte[] key = encode(type, v, desc);
    KeyReader in = new KeyReader(key);
    Object back = KeyCodec.read(in, type, desc);
    assertThat(in.position()).as(() -> context(type, desc) + " read length of " + show(v)).isEqualTo(key.length);
    KeyReader skipper = new KeyReader(key);
    KeyCodec.skip(skipper, type, desc);
    assertThat(skipper.position()).as(() -> context(type, desc) + " skip length of " + show(v)).isEqualTo(key.length);
    Object expected = expectedDecode(type, v);
    assertThat(sameValue(type, expected, back))
        .as(() -> context(type, desc) + " decode of " + show(v) + " gave " + show(back) + ", want " + show(expected))
        .isTrue();
  }

  @Test
  void compositeKeysOrderColumnByColumn() {
    Random r = new Random(SEED * 41);
    for (DataType first : TYPES) {
      for (DataType second : TYPES) {
        for (int dirs = 0; dirs < 4; dirs++) {
          boolean desc1 = (dirs & 1) != 0;
          boolean desc2 = (dirs & 2) != 0;
          for (int i = 0; i < COMPOSITE_PAIRS; i++) {
            Object a1 = r.nextInt(10) == 0 ? null : randomValue(r, first);
            Object b1 = r.nextInt(3) == 0 ? a1 : r.nextInt(10) == 0 ? null : randomValue(r, first);
            Object a2 = r.nextInt(10) == 0 ? null : randomValue(r, second);
            Object b2 = r.nextInt(10) == 0 ? null : randomValue(r, second);
            withSeed(() -> "(" + first.sqlName() + ", " + second.sqlName() + "): (" + show(a1) + ", " + show(a2) + ") vs ("
                + show(b1) + ", " + show(b2) + ")", () -> checkComposite(first, desc1, second, desc2, a1, a2, b1, b2));
          }
        }
      }
    }
  }

  @Test
  void varcharThenIntegerDescOrdersLexicographically() {
    DataType varchar = DataType.of(ColumnType.VARCHAR);
    DataType integer = DataType.of(ColumnType.INTEGER);
    String[] words = {"", "a", "ab", "abc", "a\u0000", "a\u0000b", "b", "\uD83D\uDE00", "\uFFFF"};
    Integer[] ints = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, null};
    Random r = new Random(SEED * 43);
    for (int i = 0; i < PAIRS; i++) {
      String s1 = r.nextInt(8) == 0 ? null : words[r.nextInt(words.length)];
      String s2 = r.nextInt(8) == 0 ? null : words[r.nextInt(words.length)];
      checkComposite(varchar, false, integer, true, s1, ints[r.nextInt(ints.length)], s2, ints[r.nextInt(ints.length)]);
    }
  }

  @Test
  void goldenEncodings() {
    assertHex(DataType.of(ColumnType.INTEGER), 1, false, "0180000001");
    assertHex(DataType.of(ColumnType.INTEGER), -1, false, "017fffffff");
    assertHex(DataType.of(ColumnType.INTEGER), 1, true, "fe7ffffffe");
    assertHex(DataType.of(ColumnType.INTEGER), null, false, "02");
    assertHex(DataType.of(ColumnType.INTEGER), null, true, "fd");
    assertHex(DataType.of(ColumnType.SMALLINT), (short) 0, false, "018000");
    assertHex(DataType.of(ColumnType.BIGINT), 0L, false, "018000000000000000");
    assertHex(DataType.of(ColumnType.DOUBLE), 0.0, false, "018000000000000000");
    assertHex(DataType.of(ColumnType.DOUBLE), -0.0, false, "018000000000000000");
    assertHex(DataType.of(ColumnType.DOUBLE), Double.NaN, false, "01fff8000000000000");
    assertHex(DataType.of(ColumnType.REAL), 1.0f, false, "01bf800000");
    assertHex(DataType.of(ColumnType.BOOLEAN), true, false, "0101");
    assertHex(DataType.of(ColumnType.VARCHAR), "a\u0000", false, "016100ff0001");
    assertHex(DataType.of(ColumnType.VARCHAR), "", true, "fefffe");
    assertHex(DataType.of(ColumnType.CHAR, 4), "a  ", false, "01610001");
    assertHex(DataType.of(ColumnType.BYTEA), new ByteString(new byte[] {0, 1}), false, "0100ff010001");
    assertHex(DataType.of(ColumnType.NUMERIC), BigDecimal.ZERO, false, "0102");
    assertHex(DataType.of(ColumnType.NUMERIC), new BigDecimal("1.00"), false, "010381010b00");
    assertHex(DataType.of(ColumnType.NUMERIC), new BigDecimal("-1"), false, "01017efef4ff");
    assertHex(DataType.of(ColumnType.NUMERIC), new BigDecimal("123.45"), false, "010381030d233300");
    assertHex(DataType.of(ColumnType.NUMERIC), new BigDecimal("0.001"), false, "01037efe0b00");
    assertHex(DataType.of(ColumnType.UUID), new UUID(0x8000000000000000L, 1), false,
        "0180000000000000000000000000000001");
  }

  @Test
  void equalNumericsOfDifferentScaleShareAKey() {
    DataType numeric = DataType.of(ColumnType.NUMERIC);
    for (boolean desc : new boolean[] {false, true}) {
      assertThat(encode(numeric, new BigDecimal("1.0"), desc)).as(() -> context(numeric, desc))
          .isEqualTo(encode(numeric, new BigDecimal("1.00"), desc))
          .isEqualTo(encode(numeric, new BigDecimal("1E0"), desc));
      assertThat(encode(numeric, new BigDecimal("0.000"), desc)).as(() -> context(numeric, desc))
          .isEqualTo(encode(numeric, new BigDecimal("0E+10"), desc));
      assertThat(encode(numeric, new BigDecimal("-120"), desc)).as(() -> context(numeric, desc))
          .isEqualTo(encode(numeric, new BigDecimal("-1.2E+2"), desc));
    }
  }

  /**
   * Values of up to 18 digits are encoded by a long-arithmetic path, longer ones through BigInteger: a value written
   * with enough trailing zeros to take the long path's other side gets the very same key.
   */
  @Test
  void numericsOfEighteenDigitsOrFewerEncodeAsTheirLongerSpellings() {
    DataType numeric = DataType.of(ColumnType.NUMERIC);
    Random r = new Random(SEED * 31);
    for (int i = 0; i < PAIRS * 4; i++) {
      long unscaled = r.nextInt(3) == 0 ? r.nextLong() % 1_000_000_000_000_000_000L : r.nextInt(100_000) - 50_000;
      if (unscaled == 0) {
        continue;
      }
      BigDecimal value = BigDecimal.valueOf(unscaled, r.nextInt(40) - 20);
      BigDecimal longer = value.setScale(value.scale() + 20); // the same number, 20 more digits: the BigInteger path
      for (boolean desc : new boolean[] {false, true}) {
        assertThat(encode(numeric, value, desc)).as("%s (%s)", value, context(numeric, desc))
            .isEqualTo(encode(numeric, longer, desc));
      }
    }
  }

  @Test
  void prefixSuccessorBoundsExactlyThePrefixedKeys() {
    assertThat(KeyCodec.prefixSuccessor(new byte[] {1, 2, 3})).isEqualTo(new byte[] {1, 2, 4});
    assertThat(KeyCodec.prefixSuccessor(new byte[] {1, (byte) 0xFF, (byte) 0xFF})).isEqualTo(new byte[] {2});
    assertThat(KeyCodec.prefixSuccessor(new byte[] {0x7F})).isEqualTo(new byte[] {(byte) 0x80});
    assertThat(KeyCodec.prefixSuccessor(new byte[] {(byte) 0xFE, (byte) 0xFF})).isEqualTo(new byte[] {(byte) 0xFF});
    assertThat(KeyCodec.prefixSuccessor(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
    assertThat(KeyCodec.prefixSuccessor(new byte[0])).isNull();

    byte[] alphabet = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
    Random r = new Random(SEED * 47);
    for (int i = 0; i < PAIRS * 4; i++) {
      byte[] prefix = randomBytes(r, alphabet, 1 + r.nextInt(4));
      byte[] key = r.nextBoolean() ? concat(prefix, randomBytes(r, alphabet, r.nextInt(4))) : randomBytes(r, alphabet, r.nextInt(6));
      byte[] successor = KeyCodec.prefixSuccessor(prefix);
      boolean prefixed = key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
      boolean inRange = Arrays.compareUnsigned(key, prefix) >= 0
          && (successor == null || Arrays.compareUnsigned(key, successor) < 0);
      assertThat(inRange)
          .as(() -> "seed=" + SEED + " prefix " + hex(prefix) + " successor " + hex(successor) + " key " + hex(key))
          .isEqualTo(prefixed);
      if (successor != null) {
        assertThat(successor.length <= prefix.length && Arrays.compareUnsigned(successor, prefix) > 0)
            .as(() -> "seed=" + SEED + " prefix " + hex(prefix) + " successor " + hex(successor)).isTrue();
      }
    }
  }

  @Test
  void malformedAndTruncatedKeysAreRejected() {
    DataType text = DataType.of(ColumnType.TEXT);
    byte[] key = encode(text, "abc", false);
    assertThatThrownBy(() -> KeyCodec.read(new KeyReader(Arrays.copyOf(key, key.length - 1)), text, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyCodec.read(new KeyReader(new byte[] {7}), text, false))
        .isInstanceOf(IllegalArgumentException.class);
    DataType bigint = DataType.of(ColumnType.BIGINT);
    assertThatThrownBy(() -> KeyCodec.read(new KeyReader(new byte[] {1, 0, 0}), bigint, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyCodec.write(new KeyWriter(), DataType.of(ColumnType.SMALLINT), 40000, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyCodec.write(new KeyWriter(), DataType.of(ColumnType.INTEGER), "1", false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readerStartsAtAnOffset() {
    DataType integer = DataType.of(ColumnType.INTEGER);
    KeyWriter out = new KeyWriter(1);
    out.put((byte) 42);
    KeyCodec.write(out, integer, 7, false);
    KeyReader in = new KeyReader(out.toByteArray(), 1);
    assertThat(KeyCodec.read(in, integer, false)).isEqualTo(7);
    assertThat(in.hasRemaining()).isFalse();
    out.reset();
    assertThat(out.length()).isZero();
  }

  private static void checkOrder(DataType type, boolean desc, Object a, Object b) {
    withSeed(() -> context(type, desc) + ": " + show(a) + " vs " + show(b), () -> checkOrderUnguarded(type, desc, a, b));
  }

  /** Runs a check, turning an exception from the codec into a failure that names the seed and the case. */
  static void withSeed(Supplier<String> what, Runnable check) {
    try {
      check.run();
    } catch (RuntimeException e) {
      throw new AssertionError("seed=" + SEED + " " + what.get() + " threw " + e, e);
    }
  }

  private static void checkOrderUnguarded(DataType type, boolean desc, Object a, Object b) {
    int sql = sqlCompareNullsLast(type, a, b);
    int expected = Integer.signum(desc ? -sql : sql);
    int actual = Integer.signum(Arrays.compareUnsigned(encode(type, a, desc), encode(type, b, desc)));
    assertThat(actual)
        .as(() -> context(type, desc) + ": " + show(a) + " vs " + show(b) + " keys " + hex(encode(type, a, desc))
            + " vs " + hex(encode(type, b, desc)))
        .isEqualTo(expected);
  }

  private static void checkComposite(DataType t1, boolean d1, DataType t2, boolean d2,
      Object a1, Object a2, Object b1, Object b2) {
    int c1 = sqlCompareNullsLast(t1, a1, b1);
    int c2 = sqlCompareNullsLast(t2, a2, b2);
    int expected = Integer.signum(c1 != 0 ? (d1 ? -c1 : c1) : (d2 ? -c2 : c2));
    byte[] ka = composite(t1, d1, a1, t2, d2, a2);
    byte[] kb = composite(t1, d1, b1, t2, d2, b2);
    String what = "seed=" + SEED + " (" + t1.sqlName() + (d1 ? " DESC" : "") + ", " + t2.sqlName() + (d2 ? " DESC" : "")
        + "): (" + show(a1) + ", " + show(a2) + ") vs (" + show(b1) + ", " + show(b2) + ")";
    assertThat(Integer.signum(Arrays.compareUnsigned(ka, kb))).as(what).isEqualTo(expected);
    KeyReader in = new KeyReader(ka);
    Object r1 = KeyCodec.read(in, t1, d1);
    Object r2 = KeyCodec.read(in, t2, d2);
    assertThat(in.hasRemaining()).as(what).isFalse();
    assertThat(sameValue(t1, expectedDecode(t1, a1), r1) && sameValue(t2, expectedDecode(t2, a2), r2)).as(what).isTrue();
  }

  private static byte[] composite(DataType t1, boolean d1, Object v1, DataType t2, boolean d2, Object v2) {
    KeyWriter out = new KeyWriter();
    KeyCodec.write(out, t1, v1, d1);
    KeyCodec.write(out, t2, v2, d2);
    return out.toByteArray();
  }

  private static void assertHex(DataType type, Object value, boolean desc, String hex) {
    assertThat(hex(encode(type, value, desc))).as(() -> context(type, desc) + " " + show(value)).isEqualTo(hex);
  }

  static byte[] encode(DataType type, Object value, boolean desc) {
    KeyWriter out = new KeyWriter(4);
    KeyCodec.write(out, type, value, desc);
    return out.toByteArray();
  }

  private static String context(DataType type, boolean desc) {
    return "seed=" + SEED + " " + type.sqlName() + (desc ? " DESC" : " ASC");
  }

  /** SQL comparison of two values of one type with NULL greater than every value (ascending NULLS LAST). */
  static int sqlCompareNullsLast(DataType type, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    return switch (type.kind()) {
      case SMALLINT, INTEGER, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ ->
          Long.compare(((Number) a).longValue(), ((Number) b).longValue());
      case NUMERIC -> ((BigDecimal) a).compareTo((BigDecimal) b);
      case REAL, DOUBLE -> postgresFloatCompare(((Number) a).doubleValue(), ((Number) b).doubleValue());
      case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
      case CHAR -> codePointCompare(stripTrailingSpaces((String) a), stripTrailingSpaces((String) b));
      case VARCHAR, TEXT, JSON, JSONB -> codePointCompare((String) a, (String) b);
      case BYTEA -> Arrays.compareUnsigned(((ByteString) a).getBytes(), ((ByteString) b).getBytes());
      case UUID -> Arrays.compareUnsigned(uuidBytes((UUID) a), uuidBytes((UUID) b));
    };
  }

  private static int postgresFloatCompare(double a, double b) {
    boolean aNaN = Double.isNaN(a);
    boolean bNaN = Double.isNaN(b);
    if (aNaN || bNaN) {
      return aNaN && bNaN ? 0 : aNaN ? 1 : -1;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  private static int codePointCompare(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  private static String stripTrailingSpaces(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return s.substring(0, end);
  }

  private static byte[] uuidBytes(UUID u) {
    return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
  }

  private static Object expectedDecode(DataType type, Object v) {
    if (v == null) {
      return null;
    }
    return switch (type.kind()) {
      case NUMERIC -> ((BigDecimal) v).signum() == 0 ? BigDecimal.ZERO : ((BigDecimal) v).stripTrailingZeros();
      case REAL -> Float.isNaN((Float) v) ? Float.NaN : (Float) v == 0.0f ? 0.0f : v;
      case DOUBLE -> Double.isNaN((Double) v) ? Double.NaN : (Double) v == 0.0 ? 0.0 : v;
      case CHAR -> {
        String s = stripTrailingSpaces((String) v);
        int width = type.precision() < 0 ? 1 : type.precision();
        yield s + " ".repeat(Math.max(0, width - s.codePointCount(0, s.length())));
      }
      default -> v;
    };
  }

  /** Exact equality: same class, BigDecimal including scale, floating point by bit pattern. */
  static boolean sameValue(DataType type, Object expected, Object actual) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    if (expected.getClass() != actual.getClass() || actual.getClass() != type.kind().javaClass()) {
      return false;
    }
    return switch (type.kind()) {
      case REAL -> Float.floatToRawIntBits((Float) expected) == Float.floatToRawIntBits((Float) actual);
      case DOUBLE -> Double.doubleToRawLongBits((Double) expected) == Double.doubleToRawLongBits((Double) actual);
      default -> expected.equals(actual);
    };
  }

  static String show(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      StringBuilder b = new StringBuilder("'");
      s.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\u%04X", c)));
      return b.append("'").toString();
    }
    if (v instanceof Float f) {
      return f + "f[" + Integer.toHexString(Float.floatToRawIntBits(f)) + "]";
    }
    if (v instanceof Double d) {
      return d + "[" + Long.toHexString(Double.doubleToRawLongBits(d)) + "]";
    }
    if (v instanceof BigDecimal d) {
      return d + "(scale " + d.scale() + ")";
    }
    return v + " (" + v.getClass().getSimpleName() + ")";
  }

  static String hex(byte[] b) {
    return b == null ? "null" : HexFormat.of().formatHex(b);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static byte[] randomBytes(Random r, byte[] alphabet, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = r.nextInt(3) == 0 ? (byte) r.nextInt(256) : alphabet[r.nextInt(alphabet.length)];
    }
    return b;
  }

  private static final String[] STRING_PIECES = {"a", "b", "ab", "A", "z", " ", "  ", "\u0000", "\u0001", "\u007F",
      "\u0080", "\u00E9", "\u07FF", "\u0800", "\uD7FF", "\uE000", "\uFFFD", "\uFFFF", "\uD83D\uDE00",
      "\uD800\uDC00", "\uDBFF\uDFFF", "\uD800", "\uDFFF"};

  private static final byte[] BYTE_PIECES = {0, 1, 2, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};

  static List<Object> edgeValues(DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> List.of(Short.MIN_VALUE, (short) (Short.MIN_VALUE + 1), (short) -256, (short) -1, (short) 0,
          (short) 1, (short) 255, (short) 256, (short) (Short.MAX_VALUE - 1), Short.MAX_VALUE);
      case INTEGER, DATE, TIME -> List.of(Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -65536, -256, -1, 0, 1, 255, 256,
          Integer.MAX_VALUE - 1, Integer.MAX_VALUE);
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> List.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, (long) Integer.MIN_VALUE,
          -256L, -1L, 0L, 1L, 256L, (long) Integer.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE);
      case NUMERIC -> Stream.of("0", "0.00", "0E+5", "0.001", "0.01", "0.1", "0.10000001", "0.11", "0.15", "1", "1.0",
          "1.00", "1.5", "9", "9.99", "10", "11", "15", "99", "100", "101", "-0.0001", "-0.001", "-0.5", "-1", "-1.0",
          "-5", "-9.99", "-10", "-101", "1E+100", "1E-100", "-1E+100", "-1E-100", "1E+2000000000", "1E-2000000000",
          "-1E+2000000000", "-1E-2000000000", "9.999999999999999999E+2000000000", "123456789012345678901234567890.123456789",
          "-123456789012345678901234567890.123456789", "12345678901234567890", "12345678901234567891",
          "0.000000000000000000000000000001", "999999999999999999999999999999999999999")
          .map(s -> (Object) new BigDecimal(s)).toList();
      case REAL -> List.of(Float.NaN, Float.intBitsToFloat(0x7F800001), Float.intBitsToFloat(0xFFC00000),
          Float.intBitsToFloat(0xFFFFFFFF), Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0.0f, -0.0f,
          Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 1.0f, -1.0f, 0.5f,
          -0.5f, 16777216.0f);
      case DOUBLE -> List.of(Double.NaN, Double.longBitsToDouble(0x7FF0000000000001L),
          Double.longBitsToDouble(0xFFF8000000000000L), Double.longBitsToDouble(-1L), Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY, 0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL,
          Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0, 0.5, -0.5, 0.1, 9007199254740993.0);
      case BOOLEAN -> List.of(false, true);
      case CHAR -> {
        int width = type.precision() < 0 ? 1 : type.precision();
        yield Stream.of("", " ", "a", "a ", " a", "\u0000", "\u0000 ", "\t", "\u00E9", "\uD83D\uDE00", "ab", "ab  ",
                "a\u0000", "\uFFFF", "        ", "abcdefgh", "abcdefg ")
            .filter(s -> s.codePointCount(0, s.length()) <= width).map(s -> (Object) s).toList();
      }
      case VARCHAR, TEXT, JSON, JSONB -> List.of("", " ", "\u0000", "\u0000\u0000", "a", "a\u0000", "a\u0000b", "a\u0001", "ab",
          "abc", "a ", "b", "\u007F", "\u0080", "\u00E9", "\u07FF", "\u0800", "\uD7FF", "\uE000", "\uFFFF",
          "\uD83D\uDE00", "\uDBFF\uDFFF", "\uFFFF\uFFFF", "\uD800", "\uDFFF", "\uD800a", "x\uDBFF");
      case BYTEA -> Stream.of(new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[] {0, 1}, new byte[] {0, (byte) 0xFF},
          new byte[] {1}, new byte[] {1, 0}, new byte[] {(byte) 0x7F}, new byte[] {(byte) 0x80},
          new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFF, 0}, new byte[] {(byte) 0xFF, (byte) 0xFF})
          .map(b -> (Object) new ByteString(b)).toList();
      case UUID -> List.of(new UUID(0, 0), new UUID(0, 1), new UUID(0, Long.MIN_VALUE), new UUID(0, -1),
          new UUID(1, 0), new UUID(Long.MAX_VALUE, -1), new UUID(Long.MIN_VALUE, 0), new UUID(Long.MIN_VALUE, 1),
          new UUID(-1, 0), new UUID(-1, -1), UUID.fromString("ffffffff-0000-4000-8000-000000000000"));
    };
  }

  static Object randomValue(Random r, DataType type) {
    List<Object> edges = edgeValues(type);
    if (r.nextInt(5) == 0) {
      return edges.get(r.nextInt(edges.size()));
    }
    boolean small = r.nextInt(3) == 0;
    return switch (type.kind()) {
      case SMALLINT -> (short) (small ? r.nextInt(7) - 3 : r.nextInt(1 << 16) + Short.MIN_VALUE);
      case INTEGER, DATE, TIME -> small ? r.nextInt(7) - 3 : r.nextInt();
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> small ? (long) r.nextInt(7) - 3 : r.nextBoolean() ? r.nextLong() : (long) r.nextInt();
      case NUMERIC -> randomDecimal(r);
      case REAL -> switch (r.nextInt(4)) {
        case 0 -> Float.intBitsToFloat(r.nextInt());
        case 1 -> (float) (r.nextInt(9) - 4) / 2;
        case 2 -> (float) r.nextGaussian() * 1000;
        default -> (float) (r.nextDouble() * Math.pow(10, r.nextInt(60) - 30) * (r.nextBoolean() ? 1 : -1));
      };
      case DOUBLE -> switch (r.nextInt(4)) {
        case 0 -> Double.longBitsToDouble(r.nextLong());
        case 1 -> (double) (r.nextInt(9) - 4) / 2;
        case 2 -> r.nextGaussian() * 1000;
        default -> r.nextDouble() * Math.pow(10, r.nextInt(600) - 300) * (r.nextBoolean() ? 1 : -1);
      };
      case BOOLEAN -> r.nextBoolean();
      case CHAR -> {
        int width = type.precision() < 0 ? 1 : type.precision();
        StringBuilder b = new StringBuilder();
        int codePoints = r.nextInt(width + 1);
        for (int i = 0; i < codePoints; i++) {
          b.appendCodePoint(r.nextInt(3) == 0 ? ' ' : randomCodePoint(r));
        }
        yield b.toString();
      }
      case VARCHAR, TEXT, JSON, JSONB -> randomString(r);
      case BYTEA -> new ByteString(randomBytes(r, BYTE_PIECES, r.nextInt(9)));
      case UUID -> small ? new UUID(r.nextInt(3) - 1, r.nextInt(3) - 1) : new UUID(r.nextLong(), r.nextLong());
    };
  }

  /** A value equal or close to {@code v}, so that ties and near-ties are common. */
  private static Object related(Random r, DataType type, Object v) {
    return switch (type.kind()) {
      case NUMERIC -> {
        BigDecimal d = (BigDecimal) v;
        yield switch (r.nextInt(3)) {
          case 0 -> d.setScale(d.scale() + 1 + r.nextInt(3));
          case 1 -> d.add(new BigDecimal(BigInteger.valueOf(r.nextInt(3) - 1), d.scale() + r.nextInt(3)));
          default -> d.negate();
        };
      }
      case CHAR -> {
        String s = stripTrailingSpaces((String) v);
        int width = type.precision() < 0 ? 1 : type.precision();
        int room = width - s.codePointCount(0, s.length());
        yield room <= 0 ? s : s + (r.nextBoolean() ? " ".repeat(r.nextInt(room + 1)) : "\u0000");
      }
      case VARCHAR, TEXT, JSON, JSONB -> {
        String s = (String) v;
        yield r.nextBoolean() ? s + STRING_PIECES[r.nextInt(STRING_PIECES.length)] : s.substring(0, r.nextInt(s.length() + 1));
      }
      case BYTEA -> {
        byte[] b = ((ByteString) v).getBytes();
        yield new ByteString(r.nextBoolean() ? concat(b, randomBytes(r, BYTE_PIECES, 1)) : Arrays.copyOf(b, r.nextInt(b.length + 1)));
      }
      case SMALLINT -> (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, (Short) v + r.nextInt(3) - 1));
      case INTEGER, DATE, TIME -> (Integer) v + r.nextInt(3) - 1;
      case BIGINT, TIMESTAMP, TIMESTAMPTZ -> (Long) v + r.nextInt(3) - 1;
      case REAL -> Math.nextUp((Float) v);
      case DOUBLE -> r.nextBoolean() ? Math.nextDown((Double) v) : -(Double) v;
      default -> v;
    };
  }

  static BigDecimal randomDecimal(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> BigDecimal.valueOf(r.nextInt(2001) - 1000, r.nextInt(5));
      case 1 -> new BigDecimal(new BigInteger(1 + r.nextInt(200), r).multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)),
          r.nextInt(81) - 40);
      case 2 -> new BigDecimal(BigInteger.valueOf(r.nextInt(2001) - 1000),
          (r.nextBoolean() ? 1 : -1) * (2_000_000_000 - r.nextInt(1000)));
      case 3 -> {
        StringBuilder b = new StringBuilder(r.nextBoolean() ? "-" : "");
        int intDigits = r.nextInt(4);
        for (int i = 0; i < intDigits; i++) {
          b.append(r.nextInt(4) == 0 ? '9' : r.nextInt(3) == 0 ? '0' : (char) ('0' + r.nextInt(10)));
        }
        b.append(intDigits == 0 ? "0." : ".");
        int fracDigits = 1 + r.nextInt(5);
        for (int i = 0; i < fracDigits; i++) {
          b.append(r.nextInt(3) == 0 ? '0' : (char) ('0' + r.nextInt(10)));
        }
        yield new BigDecimal(b.toString());
      }
      default -> new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(41) - 20);
    };
  }

  static String randomString(Random r) {
    StringBuilder b = new StringBuilder();
    int pieces = r.nextInt(7);
    for (int i = 0; i < pieces; i++) {
      if (r.nextInt(5) < 3) {
        b.append(STRING_PIECES[r.nextInt(STRING_PIECES.length)]);
      } else {
        b.appendCodePoint(randomCodePoint(r));
      }
    }
    return b.toString();
  }

  private static int randomCodePoint(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextInt(0x80);
      case 1 -> r.nextInt(0x800);
      case 2 -> r.nextInt(0x10000);
      default -> r.nextInt(Character.MAX_CODE_POINT + 1);
    };
  }
}
