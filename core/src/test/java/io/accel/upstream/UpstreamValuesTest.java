package io.accel.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import java.math.BigDecimal;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** Upstream values as the snapshot (COPY text) and the stream (Debezium) deliver them, in the engine's form. */
class UpstreamValuesTest {
  private static DataType t(ColumnType kind) {
    return DataType.of(kind);
  }

  @Test
  void copyLinesAreSplitOnTabsWithEscapesAndNulls() {
    assertThat(UpstreamValues.splitCopyLine("1\ta\\tb\\nc\t\\N\tback\\\\slash", 4))
        .containsExactly("1", "a\tb\nc", null, "back\\slash");
    assertThat(UpstreamValues.splitCopyLine("\t", 2)).containsExactly("", "");
    assertThatThrownBy(() -> UpstreamValues.splitCopyLine("1\t2", 3)).hasMessageContaining("2 fields");
  }

  @Test
  void copyTextBecomesTheEnginesValues() {
    assertThat(UpstreamValues.fromText(t(ColumnType.INTEGER), "-42")).isEqualTo(-42);
    assertThat(UpstreamValues.fromText(t(ColumnType.SMALLINT), "7")).isEqualTo((short) 7);
    assertThat(UpstreamValues.fromText(new DataType(ColumnType.NUMERIC, 10, 2), "12.50"))
        .isEqualTo(new BigDecimal("12.50"));
    assertThat(UpstreamValues.fromText(t(ColumnType.DOUBLE), "Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(UpstreamValues.fromText(t(ColumnType.BOOLEAN), "t")).isEqualTo(true);
    assertThat(UpstreamValues.fromText(t(ColumnType.DATE), "1970-01-03")).isEqualTo(2);
    assertThat(UpstreamValues.fromText(t(ColumnType.TIME), "00:00:01.2349")).isEqualTo(1234);
    // times finer than a millisecond are truncated towards the past
    assertThat(UpstreamValues.fromText(t(ColumnType.TIMESTAMP), "1970-01-01 00:00:01.999999")).isEqualTo(1999L);
    assertThat(UpstreamValues.fromText(t(ColumnType.TIMESTAMP), "1969-12-31 23:59:59.9995")).isEqualTo(-1L);
    assertThat(UpstreamValues.fromText(t(ColumnType.TIMESTAMPTZ), "1970-01-01 01:00:00.5+01")).isEqualTo(500L);
    assertThat(UpstreamValues.fromText(t(ColumnType.TIMESTAMPTZ), "1970-01-01 00:00:00-05:30")).isEqualTo(19_800_000L);
    assertThat(UpstreamValues.fromText(t(ColumnType.BYTEA), "\\x00ff")).isEqualTo(new ByteString(new byte[] {0, -1}));
    assertThat(UpstreamValues.fromText(DataType.of(ColumnType.CHAR, 4), "ab  ")).isEqualTo("ab");
    assertThat(UpstreamValues.fromText(t(ColumnType.UUID), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").toString())
        .isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    assertThatThrownBy(() -> UpstreamValues.fromText(t(ColumnType.DATE), "infinity"))
        .hasMessageContaining("no counterpart");
    assertThatThrownBy(() -> UpstreamValues.fromText(t(ColumnType.NUMERIC), "NaN"))
        .hasMessageContaining("no counterpart");
  }

  @Test
  void debeziumValuesBecomeTheEnginesValues() {
    Schema micros = SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").build();
    assertThat(UpstreamValues.fromConnect(t(ColumnType.TIMESTAMP), micros, 1_999_999L, null)).isEqualTo(1999L);
    Schema zoned = SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build();
    assertThat(UpstreamValues.fromConnect(t(ColumnType.TIMESTAMPTZ), zoned, "1970-01-01T00:00:02.5Z", null))
        .isEqualTo(2500L);
    Schema microTime = SchemaBuilder.int64().name("io.debezium.time.MicroTime").build();
    assertThat(UpstreamValues.fromConnect(t(ColumnType.TIME), microTime, 61_000_500L, null)).isEqualTo(61_000);
    assertThat(UpstreamValues.fromConnect(new DataType(ColumnType.NUMERIC, 6, 2), Schema.STRING_SCHEMA, "3.10", null))
        .isEqualTo(new BigDecimal("3.10"));
    assertThat(UpstreamValues.fromConnect(t(ColumnType.TEXT), Schema.STRING_SCHEMA, null, "old")).isNull();
    // an unchanged TOASTed value is not sent again: the mirrored row's value stays
    assertThat(UpstreamValues.fromConnect(t(ColumnType.TEXT), Schema.STRING_SCHEMA, UpstreamValues.UNAVAILABLE, "old"))
        .isEqualTo("old");
    assertThat(UpstreamValues.fromConnect(t(ColumnType.BYTEA), Schema.BYTES_SCHEMA,
        java.nio.ByteBuffer.wrap(UpstreamValues.UNAVAILABLE.getBytes()), new ByteString(new byte[] {1})))
        .isEqualTo(new ByteString(new byte[] {1}));
  }

  @Test
  void upstreamTypesMapToTheEnginesWithTheirModifiers() {
    // numeric(10,2): typmod ((10 << 16) | 2) + 4
    assertThat(UpstreamTable.typeOf("numeric", ((10 << 16) | 2) + 4)).isEqualTo(new DataType(ColumnType.NUMERIC, 10, 2));
    assertThat(UpstreamTable.typeOf("varchar", 100 + 4)).isEqualTo(DataType.of(ColumnType.VARCHAR, 100));
    assertThat(UpstreamTable.typeOf("bpchar", 3 + 4)).isEqualTo(DataType.of(ColumnType.CHAR, 3));
    assertThat(UpstreamTable.typeOf("numeric", -1)).isEqualTo(DataType.of(ColumnType.NUMERIC));
    assertThat(UpstreamTable.typeOf("jsonb", -1)).isNull();
    assertThat(UpstreamTable.typeOf("_int4", -1)).isNull();
  }
}
