package io.accel.storage;

import static io.accel.storage.KeyCodecTest.SEED;
import static io.accel.storage.KeyCodecTest.TYPES;
import static io.accel.storage.KeyCodecTest.hex;
import static io.accel.storage.KeyCodecTest.show;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the row encoding: random rows of random column lists round-trip exactly, and short
 * or overlong input is rejected. Run with {@code -Dseed=N} to reproduce a failure.
 */
class RowCodecTest {

  private static final int ROWS = 5000;

  @Test
  void randomRowsRoundTripExactly() {
    Random r = new Random(SEED * 53);
    for (int i = 0; i < ROWS; i++) {
      List<DataType> types = randomTypes(r);
      Object[] row = randomRow(r, types);
      int version = randomVersion(r);
      KeyCodecTest.withSeed(() -> describe(types, row, null) + " version " + version,
          () -> checkRoundTrip(version, types, row));
    }
  }

  private static void checkRoundTrip(int version, List<DataType> types, Object[] row) {
    byte[] bytes = RowCodec.encode(version, types, row);
    Object[] back = RowCodec.decode(types, bytes);
    assertThat(RowCodec.schemaVersion(bytes)).as(() -> describe(types, row, bytes)).isEqualTo(version);
    assertThat(back).as(() -> describe(types, row, bytes)).hasSize(row.length);
    for (int c = 0; c < row.length; c++) {
      int column = c;
      assertThat(KeyCodecTest.sameValue(types.get(c), row[c], back[c]))
          .as(() -> describe(types, row, bytes) + " column " + column + " came back as " + show(back[column]))
          .isTrue();
    }
  }

  @Test
  void decodingSomeColumnsGivesThoseAndLeavesTheRestNull() {
    Random r = new Random(SEED * 61);
    for (int i = 0; i < ROWS; i++) {
      List<DataType> types = randomTypes(r);
      Object[] row = randomRow(r, types);
      boolean[] wanted = new boolean[types.size()];
      for (int c = 0; c < wanted.length; c++) {
        wanted[c] = r.nextInt(3) == 0;
      }
      byte[] bytes = RowCodec.encode(1, types, row);
      Object[] back = RowCodec.decode(types, bytes, wanted);
      for (int c = 0; c < row.length; c++) {
        int column = c;
        if (wanted[c]) {
          assertThat(KeyCodecTest.sameValue(types.get(c), row[c], back[c]))
              .as(() -> describe(types, row, bytes) + " column " + column + " came back as " + show(back[column]))
              .isTrue();
        } else {
          assertThat(back[c]).as(() -> describe(types, row, bytes) + " unwanted column " + column).isNull();
        }
      }
    }
  }

  @Test
  void everyValueOfEveryTypeRoundTrips() {
    Random r = new Random(SEED * 59);
    for (DataType type : TYPES) {
      List<Object> values = new ArrayList<>(KeyCodecTest.edgeValues(type));
      for (int i = 0; i < ROWS; i++) {
        values.add(KeyCodecTest.randomValue(r, type));
      }
      values.add(bigDecimalsWithScale(r, type));
      for (Object v : values) {
        if (v == null) {
          continue;
        }
        List<DataType> types = List.of(type);
        Object[] row = {v};
        byte[] bytes = RowCodec.encode(1, types, row);
        Object back = RowCodec.decode(types, bytes)[0];
        assertThat(KeyCodecTest.sameValue(type, v, back))
            .as(() -> describe(types, row, bytes) + " came back as " + show(back)).isTrue();
      }
    }
  }

  @Test
  void truncatedOrOverlongInputIsRejected() {
    Random r = new Random(SEED * 61);
    for (int i = 0; i < ROWS / 5; i++) {
      List<DataType> types = randomTypes(r);
      Object[] row = randomRow(r, types);
      byte[] bytes = RowCodec.encode(randomVersion(r), types, row);
      for (int len = 0; len < bytes.length; len++) {
        byte[] cut = Arrays.copyOf(bytes, len);
        assertThatThrownBy(() -> RowCodec.decode(types, cut))
            .as(() -> describe(types, row, bytes) + " cut to " + cut.length + " bytes")
            .isInstanceOf(IllegalArgumentException.class);
      }
      byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
      assertThatThrownBy(() -> RowCodec.decode(types, longer))
          .as(() -> describe(types, row, bytes) + " with a byte appended")
          .isInstanceOf(IllegalArgumentException.class);
      List<DataType> more = new ArrayList<>(types);
      more.add(DataType.of(ColumnType.INTEGER));
      if (more.size() % 8 != 1) {
        assertThatThrownBy(() -> RowCodec.decode(more, bytes))
            .as(() -> describe(types, row, bytes) + " decoded with an extra INTEGER column")
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("column " + types.size());
      }
    }
    assertThatThrownBy(() -> RowCodec.schemaVersion(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RowCodec.decode(List.of(), new byte[] {(byte) 0x80}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void layoutIsAsDocumented() {
    List<DataType> types = List.of(DataType.of(ColumnType.INTEGER), DataType.of(ColumnType.VARCHAR),
        DataType.of(ColumnType.BOOLEAN), DataType.of(ColumnType.NUMERIC));
    byte[] bytes = RowCodec.encode(300, types, new Object[] {-1, "\u00E9", null, new BigDecimal("-1.50")});
    assertThat(hex(bytes)).isEqualTo("ac02" + "04" + "01" + "02c3a9" + "04" + "02ff6a");
    assertThat(RowCodec.schemaVersion(bytes)).isEqualTo(300);
    assertThat(RowCodec.decode(List.of(), RowCodec.encode(-1, List.of(), new Object[0]))).isEmpty();
    assertThat(RowCodec.schemaVersion(RowCodec.encode(-1, List.of(), new Object[0]))).isEqualTo(-1);
  }

  @Test
  void badInputToEncodeIsRejected() {
    List<DataType> one = List.of(DataType.of(ColumnType.SMALLINT));
    assertThatThrownBy(() -> RowCodec.encode(1, one, new Object[] {1, 2})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RowCodec.encode(1, one, new Object[] {70000})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RowCodec.encode(1, one, new Object[] {"7"})).isInstanceOf(IllegalArgumentException.class);
  }

  private static Object bigDecimalsWithScale(Random r, DataType type) {
    if (type.kind() != ColumnType.NUMERIC) {
      return null;
    }
    return new BigDecimal(new BigInteger(300, r).negate(), Integer.MIN_VALUE + r.nextInt(10));
  }

  private static List<DataType> randomTypes(Random r) {
    return IntStream.range(0, r.nextInt(26)).mapToObj(i -> TYPES.get(r.nextInt(TYPES.size()))).toList();
  }

  private static Object[] randomRow(Random r, List<DataType> types) {
    boolean sparse = r.nextInt(4) == 0;
    Object[] row = new Object[types.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = r.nextInt(sparse ? 2 : 5) == 0 ? null : rowValue(r, types.get(i));
    }
    return row;
  }

  private static Object rowValue(Random r, DataType type) {
    return switch (type.kind()) {
      case CHAR -> r.nextBoolean() ? KeyCodecTest.randomString(r) + "  " : KeyCodecTest.randomString(r);
      case NUMERIC -> r.nextInt(4) == 0
          ? new BigDecimal(BigInteger.valueOf(r.nextInt(2001) - 1000)).setScale(r.nextInt(10) + 40)
          : KeyCodecTest.randomValue(r, type);
      case BYTEA -> r.nextInt(10) == 0 ? new ByteString(new byte[r.nextInt(300)]) : KeyCodecTest.randomValue(r, type);
      default -> KeyCodecTest.randomValue(r, type);
    };
  }

  private static int randomVersion(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextInt(3);
      case 1 -> new int[] {127, 128, 16383, 16384, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}[r.nextInt(7)];
      default -> r.nextInt();
    };
  }

  private static String describe(List<DataType> types, Object[] row, byte[] bytes) {
    return "seed=" + SEED + " types " + types.stream().map(DataType::sqlName).collect(Collectors.joining(", "))
        + " row " + Arrays.stream(row).map(KeyCodecTest::show).collect(Collectors.joining(", ")) + (bytes == null ? "" : " bytes " + hex(bytes));
  }
}
