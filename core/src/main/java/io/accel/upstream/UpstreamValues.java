package io.accel.upstream;

import io.accel.catalog.DataType;
import io.accel.exec.Values;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import org.apache.kafka.connect.data.Schema;

/**
 * Upstream values in the engine's representation ({@link io.accel.catalog.ColumnType}): from the text form of
 * COPY (the snapshot, read with DateStyle ISO, TimeZone UTC and hex bytea) and from Debezium's Connect values
 * (the change stream, with its default adaptive time precision and numerics as strings). Times finer than the
 * engine's milliseconds are truncated towards the past, the same way on both paths.
 */
final class UpstreamValues {
  /** What Debezium puts in place of a TOASTed value an update left unchanged (its default placeholder). */
  static final String UNAVAILABLE = "__debezium_unavailable_value";
  private static final byte[] UNAVAILABLE_BYTES = UNAVAILABLE.getBytes(StandardCharsets.UTF_8);

  private UpstreamValues() {
  }

  /** A value of COPY's text format, already unescaped; never null (COPY's \N is handled by the caller). */
  static Object fromText(DataType type, String text) {
    Object v = switch (type.kind()) {
      case SMALLINT, INTEGER, BIGINT -> Long.parseLong(text);
      case NUMERIC -> decimal(text);
      case REAL -> Float.parseFloat(text);
      case DOUBLE -> Double.parseDouble(text);
      case BOOLEAN -> text.equals("t");
      case CHAR, VARCHAR, TEXT, JSON, JSONB -> text;
      case DATE -> Math.toIntExact(date(text).toEpochDay());
      case TIME -> (int) (LocalTime.parse(text).toNanoOfDay() / 1_000_000);
      case TIMESTAMP -> millis(LocalDateTime.parse(text.replace(' ', 'T')));
      case TIMESTAMPTZ -> zoned(text);
      case BYTEA -> HexFormat.of().parseHex(text.substring(2));
      case UUID -> java.util.UUID.fromString(text);
    };
    return Values.coerce(type, v);
  }

  /**
   * A value of a Debezium record field with Connect schema {@code schema}; {@code old} is the mirrored row's value,
   * taken where the upstream sent none (an unchanged TOASTed column).
   */
  static Object fromConnect(DataType type, Schema schema, Object v, Object old) {
    if (v == null) {
      return null;
    }
    if (v instanceof String s && s.equals(UNAVAILABLE)) {
      return old;
    }
    if (v instanceof ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      v = bytes;
    }
    if (v instanceof byte[] bytes && java.util.Arrays.equals(bytes, UNAVAILABLE_BYTES)) {
      return old;
    }
    String name = schema.name() == null ? "" : schema.name();
    Object value = switch (name) {
      case "io.debezium.time.MicroTime" -> (int) Math.floorDiv((Long) v, 1000L);
      case "io.debezium.time.NanoTime" -> (int) Math.floorDiv((Long) v, 1_000_000L);
      case "io.debezium.time.MicroTimestamp" -> Math.floorDiv((Long) v, 1000L);
      case "io.debezium.time.NanoTimestamp" -> Math.floorDiv((Long) v, 1_000_000L);
      case "io.debezium.time.ZonedTimestamp" -> OffsetDateTime.parse((String) v).toInstant().toEpochMilli();
      default -> switch (type.kind()) {
        case NUMERIC -> decimal(v.toString());
        case REAL, DOUBLE -> v;
        default -> v;
      };
    };
    return Values.coerce(type, value);
  }

  private static BigDecimal decimal(String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("numeric value " + text + " has no counterpart in Accel");
    }
  }

  private static LocalDate date(String text) {
    if (text.endsWith(" BC") || text.contains("infinity")) {
      throw new IllegalArgumentException("date " + text + " has no counterpart in Accel");
    }
    return LocalDate.parse(text);
  }

  private static long millis(LocalDateTime t) {
    return Math.floorDiv(t.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + t.getNano(), 1_000_000L);
  }

  /** {@code 2026-11-25 13:45:12.123456+00} (TimeZone UTC): milliseconds since the epoch. */
  private static long zoned(String text) {
    if (text.contains("infinity") || text.endsWith(" BC")) {
      throw new IllegalArgumentException("timestamp " + text + " has no counterpart in Accel");
    }
    int sign = Math.max(text.lastIndexOf('+'), text.lastIndexOf('-'));
    String offset = text.substring(sign);
    String local = text.substring(0, sign);
    if (offset.length() == 3) {
      offset = offset + ":00";
    }
    return OffsetDateTime.of(LocalDateTime.parse(local.replace(' ', 'T')), ZoneOffset.of(offset)).toInstant()
        .toEpochMilli();
  }

  /** Splits one line of COPY's text format into fields, unescaped; null for \N. */
  static String[] splitCopyLine(String line, int columns) {
    String[] fields = new String[columns];
    int field = 0;
    StringBuilder sb = new StringBuilder();
    boolean isNull = false;
    for (int i = 0; i <= line.length(); i++) {
      char ch = i == line.length() ? '\t' : line.charAt(i);
      if (ch == '\t') {
        if (field < columns) {
          fields[field] = isNull ? null : sb.toString();
        }
        field++;
        sb.setLength(0);
        isNull = false;
      } else if (ch == '\\' && i + 1 < line.length()) {
        char n = line.charAt(++i);
        switch (n) {
          case 'N' -> isNull = true;
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'v' -> sb.append('\u000b');
          case 'x' -> {
            int end = i + 1;
            while (end < line.length() && end < i + 3 && Character.digit(line.charAt(end), 16) >= 0) {
              end++;
            }
            sb.append((char) Integer.parseInt(line.substring(i + 1, end), 16));
            i = end - 1;
          }
          default -> {
            if (n >= '0' && n <= '7') {
              int end = i;
              while (end < line.length() && end < i + 3 && line.charAt(end) >= '0' && line.charAt(end) <= '7') {
                end++;
              }
              sb.append((char) Integer.parseInt(line.substring(i, end), 8));
              i = end - 1;
            } else {
              sb.append(n);
            }
          }
        }
      } else {
        sb.append(ch);
      }
    }
    if (field != columns) {
      throw new IllegalArgumentException("COPY line with " + field + " fields where " + columns + " were expected");
    }
    return fields;
  }
}
