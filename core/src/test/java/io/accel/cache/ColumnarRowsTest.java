package io.accel.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnarRowsTest {
  private static final List<DataType> TYPES = List.of(DataType.of(ColumnType.INTEGER), DataType.of(ColumnType.BIGINT),
      DataType.of(ColumnType.DOUBLE), DataType.of(ColumnType.TEXT), DataType.of(ColumnType.NUMERIC),
      DataType.of(ColumnType.BOOLEAN));

  @Test
  void rowsReadBackAsTheyWereAddedNullsIncluded() {
    List<Object[]> added = new ArrayList<>();
    ColumnarRows.Builder b = new ColumnarRows.Builder(TYPES, 2);
    for (int i = 0; i < 1000; i++) {
      Object[] row = i % 7 == 0 ? new Object[6]
          : new Object[] {i - 500, (long) i << 33, i / 3.0, "name " + (i % 10), new BigDecimal(i).movePointLeft(2),
              i % 2 == 0};
      added.add(row);
      b.add(row.clone());
    }
    ColumnarRows rows = b.build();
    assertThat(rows.size()).isEqualTo(1000);
    for (int i = 0; i < 1000; i++) {
      Object[] out = new Object[6];
      rows.fill(i, out, null);
      assertThat(out).as("row %d", i).containsExactly(added.get(i));
      assertThat(rows.get(3, i)).isEqualTo(added.get(i)[3]);
    }
    Object[] partial = new Object[6];
    Arrays.fill(partial, "untouched");
    rows.fill(1, partial, new boolean[] {true, false, false, true, false, false});
    assertThat(partial).containsExactly(-499, "untouched", "untouched", "name 1", "untouched", "untouched");
  }

  @Test
  void repeatedValuesAreSharedAndCountedOnce() {
    ColumnarRows.Builder few = new ColumnarRows.Builder(List.of(DataType.of(ColumnType.TEXT)), 16);
    ColumnarRows.Builder many = new ColumnarRows.Builder(List.of(DataType.of(ColumnType.TEXT)), 16);
    for (int i = 0; i < 10_000; i++) {
      few.add(new Object[] {new String("repeated value " + (i % 3))});
      many.add(new Object[] {"distinct value " + i});
    }
    ColumnarRows shared = few.build();
    assertThat(shared.get(0, 3)).isSameAs(shared.get(0, 0));
    assertThat(shared.bytes()).isLessThan(many.build().bytes() / 5);
  }
}
