package io.accel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Catalog entries written by earlier formats still read as they were written. */
class CatalogCodecTest {
  private static TableDef table() {
    List<Column> columns = List.of(new Column("id", DataType.of(ColumnType.INTEGER), false, Optional.empty()),
        new Column("parent", DataType.of(ColumnType.INTEGER), true, Optional.empty()),
        new Column("qty", DataType.of(ColumnType.INTEGER), true, Optional.of("0")));
    return new TableDef(7, "child", columns, List.of(0), List.of(), 3).withChecks(List.of(
            new CheckDef("child_qty_check", "qty >= 0", false), new CheckDef("child_check", "qty < 100")))
        .withForeignKeys(List.of(new ForeignKeyDef("child_parent_fkey", List.of("parent"), "parent", List.of("id"),
            ForeignKeyDef.Action.CASCADE, ForeignKeyDef.Action.NO_ACTION, ForeignKeyDef.Deferral.NOT_DEFERRABLE,
            false)));
  }

  @Test
  void theCurrentFormatRoundTrips() {
    TableDef t = table();
    assertThat(CatalogCodec.decode(CatalogCodec.encode(t))).isEqualTo(t);
  }

  @Test
  void aDeclaredPrimaryKeyNameRoundTrips() {
    TableDef t = table().withPkConstraint("pk_child");
    assertThat(CatalogCodec.decode(CatalogCodec.encode(t)).primaryKeyName()).isEqualTo("pk_child");
    assertThat(CatalogCodec.decode(CatalogCodec.encode(table())).primaryKeyName()).isEqualTo("child_pkey");
  }

  @Test
  void formatsSixAndSevenReadAsWritten() {
    // format 8 appends whether the primary key has a declared name (here not: one byte); a table without
    // secondary indexes is written in format 7 as in format 6 but for the leading format byte
    TableDef t = table();
    byte[] current = CatalogCodec.encode(t);
    assertThat(current[0]).isEqualTo((byte) 8);
    byte[] bytes = java.util.Arrays.copyOf(current, current.length - 1);
    bytes[0] = 7;
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(t);
    bytes[0] = 6;
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(t);
  }
}
