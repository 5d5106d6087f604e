package io.accel.server;

import io.accel.exec.PgText;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.ColumnMetaData.Rep;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;

/**
 * PostgreSQL's type OIDs for Accel's column and parameter types, and their binary wire format (the text
 * format is core's {@link io.accel.exec.PgText}). Dates count days, times and timestamps microseconds, from
 * 2000-01-01 as PostgreSQL's binary format does; Accel keeps milliseconds.
 */
final class PgTypes {
  static final int BOOL = 16;
  static final int BYTEA = 17;
  static final int INT8 = 20;
  static final int INT2 = 21;
  static final int INT4 = 23;
  static final int TEXT = 25;
  static final int OID = 26;
  static final int NAME = 19;
  static final int FLOAT4 = 700;
  static final int FLOAT8 = 701;
  static final int UNKNOWN = 705;
  static final int BPCHAR = 1042;
  static final int VARCHAR = 1043;
  static final int DATE = 1082;
  static final int TIME = 1083;
  static final int TIMESTAMP = 1114;
  static final int TIMESTAMPTZ = 1184;
  static final int NUMERIC = 1700;
  static final int UUID_OID = 2950;
  static final int JSON = 114;
  static final int JSONB = 3802;
  /** The version byte that starts jsonb's binary form (then the JSON text). */
  private static final int JSONB_VERSION = 1;

  private static final long PG_EPOCH_DAYS = 10_957L; // 2000-01-01 in days since 1970-01-01
  private static final long PG_EPOCH_MILLIS = PG_EPOCH_DAYS * 86_400_000L;

  private PgTypes() {
  }

  /** The OID PostgreSQL would report for a column or parameter of this Avatica type. */
  static int oid(ColumnMetaData.AvaticaType type) {
    String name = type.name == null ? "" : type.name.toUpperCase(Locale.ROOT);
    return switch (type.id) {
      case Types.BOOLEAN, Types.BIT -> BOOL;
      case Types.TINYINT, Types.SMALLINT -> INT2;
      case Types.INTEGER -> INT4;
      case Types.BIGINT -> INT8;
      case Types.REAL -> FLOAT4;
      case Types.FLOAT, Types.DOUBLE -> FLOAT8;
      case Types.DECIMAL, Types.NUMERIC -> NUMERIC;
      case Types.CHAR -> BPCHAR;
      case Types.VARCHAR -> switch (name) {
        case "TEXT" -> TEXT;
        case "JSONB" -> JSONB;
        case "JSON" -> JSON;
        case "NAME" -> NAME;
        case "_INT2" -> INT2_ARRAY; // a catalog key column, its text {1,2}
        default -> VARCHAR;
      };
      case Types.LONGVARCHAR, Types.CLOB -> TEXT;
      case Types.DATE -> DATE;
      case Types.TIME -> TIME;
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> PgText.isTimestampTz(type) ? TIMESTAMPTZ : TIMESTAMP;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTEA;
      // an array by its element's array type (int4[], text[], ...): clients parse those, where text[] would not be
      case Types.ARRAY -> type instanceof ColumnMetaData.ArrayType a ? arrayOf(oid(a.getComponent())) : TEXT;
      default -> name.equals("UUID") ? UUID_OID : PgText.isTimestampTz(type) ? TIMESTAMPTZ : TEXT;
    };
  }

  /** The type modifier PostgreSQL reports: length + 4 for char types, (precision << 16 | scale) + 4 for numeric. */
  static int typmod(int oid, int precision, int scale) {
    return switch (oid) {
      case BPCHAR, VARCHAR -> precision > 0 && precision < 10_485_760 ? precision + 4 : -1;
      case NUMERIC -> precision > 0 && precision <= 1000 ? ((precision << 16) | Math.max(scale, 0)) + 4 : -1;
      default -> -1;
    };
  }

  static int size(int oid) {
    return switch (oid) {
      case BOOL -> 1;
      case INT2 -> 2;
      case INT4, FLOAT4, DATE, OID -> 4;
      case INT8, FLOAT8, TIME, TIMESTAMP, TIMESTAMPTZ -> 8;
      case UUID_OID -> 16;
      case NAME -> 64;
      default -> -1;
    };
  }

  /** Writes a non-null value in PostgreSQL's binary format, preceded by its length. */
  static void writeBinary(ByteBuf out, int oid, Object v) {
    // (arrays are looked up only for list values: the scalar columns of every row take the switch below)
    int element = v instanceof List<?> ? elementOf(oid) : 0;
    if (element != 0) {
      writeArray(out, element, (List<?>) v);
      return;
    }
    if (oid == INT2_ARRAY && v instanceof String text) {
      // a catalog key column kept as its text ({1,2})
      String inner = text.replace("{", "").replace("}", "").trim();
      writeArray(out, INT2, inner.isEmpty() ? List.of()
          : java.util.Arrays.stream(inner.split(",")).map(k -> Short.valueOf(k.trim())).toList());
      return;
    }
    switch (oid) {
      case BOOL -> {
        out.writeInt(1);
        out.writeByte(Boolean.TRUE.equals(v) ? 1 : 0);
      }
      case INT2 -> {
        out.writeInt(2);
        out.writeShort(((Number) v).shortValue());
      }
      case INT4, OID -> {
        out.writeInt(4);
        out.writeInt(((Number) v).intValue());
      }
      case INT8 -> {
        out.writeInt(8);
        out.writeLong(((Number) v).longValue());
      }
      case FLOAT4 -> {
        out.writeInt(4);
        out.writeFloat(((Number) v).floatValue());
      }
      case FLOAT8 -> {
        out.writeInt(8);
        out.writeDouble(((Number) v).doubleValue());
      }
      case DATE -> {
        out.writeInt(4);
        out.writeInt((int) (((Number) v).longValue() - PG_EPOCH_DAYS));
      }
      case TIME -> {
        out.writeInt(8);
        out.writeLong(((Number) v).longValue() * 1000L);
      }
      case TIMESTAMP, TIMESTAMPTZ -> {
        out.writeInt(8);
        out.writeLong((((Number) v).longValue() - PG_EPOCH_MILLIS) * 1000L);
      }
      case NUMERIC -> writeNumeric(out, v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
      case BYTEA -> {
        byte[] b = v instanceof ByteString s ? s.getBytes() : (byte[]) v;
        out.writeInt(b.length);
        out.writeBytes(b);
      }
      case UUID_OID -> {
        UUID u = v instanceof UUID x ? x : UUID.fromString(v.toString());
        out.writeInt(16);
        out.writeLong(u.getMostSignificantBits());
        out.writeLong(u.getLeastSignificantBits());
      }
      case JSONB -> {
        int at = out.writerIndex();
        out.writeInt(0);
        out.writeByte(JSONB_VERSION);
        int n = out.writeCharSequence(v.toString(), StandardCharsets.UTF_8);
        out.setInt(at, n + 1);
      }
      default -> {
        int at = out.writerIndex();
        out.writeInt(0);
        int n = out.writeCharSequence(v.toString(), StandardCharsets.UTF_8);
        out.setInt(at, n);
      }
    }
  }

  /** NUMERIC's binary form: base-10000 digits with weight, sign and display scale. */
  private static void writeNumeric(ByteBuf out, BigDecimal d) {
    int dscale = Math.max(d.scale(), 0);
    BigDecimal abs = d.abs().setScale(dscale, RoundingMode.UNNECESSARY);
    String digits = abs.unscaledValue().toString();
    // split into the integer part and the fraction, pad both to groups of four decimal digits
    String intPart = dscale == 0 ? digits : digits.length() > dscale ? digits.substring(0, digits.length() - dscale) : "";
    String frac = dscale == 0 ? "" : digits.length() >= dscale ? digits.substring(digits.length() - dscale)
        : "0".repeat(dscale - digits.length()) + digits;
    int intGroups = (intPart.length() + 3) / 4;
    intPart = "0".repeat(intGroups * 4 - intPart.length()) + intPart;
    int fracGroups = (frac.length() + 3) / 4;
    frac = frac + "0".repeat(fracGroups * 4 - frac.length());
    short[] groups = new short[intGroups + fracGroups];
    for (int i = 0; i < intGroups; i++) {
      groups[i] = Short.parseShort(intPart.substring(i * 4, i * 4 + 4));
    }
    for (int i = 0; i < fracGroups; i++) {
      groups[intGroups + i] = Short.parseShort(frac.substring(i * 4, i * 4 + 4));
    }
    int first = 0;
    while (first < groups.length && groups[first] == 0) {
      first++;
    }
    int last = groups.length;
    while (last > first && groups[last - 1] == 0) {
      last--;
    }
    int n = last - first;
    int weight = n == 0 ? 0 : intGroups - 1 - first;
    out.writeInt(8 + 2 * n);
    out.writeShort(n);
    out.writeShort(weight);
    out.writeShort(d.signum() < 0 ? 0x4000 : 0);
    out.writeShort(dscale);
    for (int i = first; i < last; i++) {
      out.writeShort(groups[i]);
    }
  }

  private static BigDecimal readNumeric(ByteBuf in) {
    int n = in.readShort();
    int weight = in.readShort();
    int sign = in.readUnsignedShort();
    int dscale = in.readShort();
    if (sign == 0xC000) {
      throw new IllegalArgumentException("NaN is not a numeric value Accel stores");
    }
    BigInteger unscaled = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      unscaled = unscaled.multiply(BigInteger.valueOf(10_000)).add(BigInteger.valueOf(in.readShort()));
    }
    // the digits make an integer scaled by 10000^(n - 1 - weight)
    BigDecimal value = new BigDecimal(unscaled).scaleByPowerOfTen(-4 * (n - 1 - weight));
    value = value.setScale(dscale, RoundingMode.HALF_UP);
    return sign == 0x4000 ? value.negate() : value;
  }

  /**
   * A parameter sent in binary as the OID the client declared (or, when it declared none, as the type the
   * statement expects), as a value core converts to the parameter's type.
   */
  static TypedValue readBinary(ByteBuf in, int oid) {
    int length = in.readableBytes();
    return switch (oid) {
      case BOOL -> TypedValue.ofLocal(Rep.BOOLEAN, in.readByte() != 0);
      case INT2 -> TypedValue.ofLocal(Rep.SHORT, in.readShort());
      case INT4, OID -> {
        if (length == 8) { // pgJDBC may send an int8 for a parameter it typed as unspecified
          yield TypedValue.ofLocal(Rep.LONG, in.readLong());
        }
        yield TypedValue.ofLocal(Rep.INTEGER, in.readInt());
      }
      case INT8 -> length == 4 ? TypedValue.ofLocal(Rep.INTEGER, in.readInt()) : TypedValue.ofLocal(Rep.LONG, in.readLong());
      case FLOAT4 -> TypedValue.ofLocal(Rep.FLOAT, in.readFloat());
      case FLOAT8 -> TypedValue.ofLocal(Rep.DOUBLE, in.readDouble());
      case NUMERIC -> TypedValue.ofLocal(Rep.NUMBER, readNumeric(in));
      case DATE -> TypedValue.ofLocal(Rep.JAVA_SQL_DATE, (int) (in.readInt() + PG_EPOCH_DAYS));
      case TIME -> TypedValue.ofLocal(Rep.JAVA_SQL_TIME, (int) Math.floorDiv(in.readLong(), 1000L));
      case TIMESTAMP, TIMESTAMPTZ ->
          TypedValue.ofLocal(Rep.JAVA_SQL_TIMESTAMP, Math.floorDiv(in.readLong(), 1000L) + PG_EPOCH_MILLIS);
      case BYTEA -> {
        byte[] b = new byte[length];
        in.readBytes(b);
        yield TypedValue.ofLocal(Rep.BYTE_STRING, new ByteString(b));
      }
      case UUID_OID -> TypedValue.ofLocal(Rep.STRING, new UUID(in.readLong(), in.readLong()).toString());
      case JSONB -> {
        if (length == 0 || in.readByte() != JSONB_VERSION) {
          throw new IllegalArgumentException("unsupported jsonb version number");
        }
        yield TypedValue.ofLocal(Rep.STRING, in.readCharSequence(length - 1, StandardCharsets.UTF_8).toString());
      }
      default -> TypedValue.ofLocal(Rep.STRING, isArray(oid) ? arrayText(in)
          : in.readCharSequence(length, StandardCharsets.UTF_8).toString());
    };
  }

  /** The OIDs of element types and of their array types, side by side. */
  private static final int[][] ARRAYS = {{BOOL, 1000}, {BYTEA, 1001}, {INT2, 1005}, {INT4, 1007}, {TEXT, 1009},
      {BPCHAR, 1014}, {VARCHAR, 1015}, {INT8, 1016}, {FLOAT4, 1021}, {FLOAT8, 1022}, {TIMESTAMP, 1115},
      {DATE, 1182}, {TIME, 1183}, {TIMESTAMPTZ, 1185}, {NUMERIC, 1231}, {UUID_OID, 2951}, {JSON, 199},
      {JSONB, 3807}, {NAME, 1003}, {OID, 1028}};
  private static final int INT2_ARRAY = 1005;

  /** The array type of element type {@code element} (text[] for one without). */
  static int arrayOf(int element) {
    for (int[] pair : ARRAYS) {
      if (pair[0] == element) {
        return pair[1];
      }
    }
    return 1009;
  }

  /** The element type of array type {@code oid}, or 0 when it is no array type. */
  private static int elementOf(int oid) {
    for (int[] pair : ARRAYS) {
      if (pair[1] == oid) {
        return pair[0];
      }
    }
    return 0;
  }

  /**
   * An array value (a list of elements or of lists, one level per dimension) in PostgreSQL's binary format: the
   * dimensions, whether it holds NULLs, the element type, each dimension's size and lower bound (1), then each
   * element's length and value.
   */
  private static void writeArray(ByteBuf out, int element, List<?> list) {
    List<Integer> sizes = new ArrayList<>();
    for (Object level = list; level instanceof List<?> l; level = l.isEmpty() ? null : l.get(0)) {
      sizes.add(l.size());
    }
    if (sizes.size() == 1 && sizes.get(0) == 0) {
      sizes.clear();
    }
    int at = out.writerIndex();
    out.writeInt(0);
    out.writeInt(sizes.size());
    int nullsAt = out.writerIndex();
    out.writeInt(0);
    out.writeInt(element);
    for (int size : sizes) {
      out.writeInt(size);
      out.writeInt(1);
    }
    if (!sizes.isEmpty() && writeElements(out, element, list)) {
      out.setInt(nullsAt, 1);
    }
    out.setInt(at, out.writerIndex() - at - 4);
  }

  /** Writes the elements of {@code list} (depth first); whether one was NULL. */
  private static boolean writeElements(ByteBuf out, int element, List<?> list) {
    boolean nulls = false;
    for (Object e : list) {
      if (e instanceof List<?> inner) {
        nulls |= writeElements(out, element, inner);
      } else if (e == null) {
        out.writeInt(-1);
        nulls = true;
      } else {
        writeBinary(out, element, e);
      }
    }
    return nulls;
  }

  /** Whether {@code oid} is an array type (pgJDBC sends those in binary). */
  private static boolean isArray(int oid) {
    return elementOf(oid) != 0;
  }

  /**
   * An array in PostgreSQL's binary format (dimensions, flags, element type, each dimension's size and lower bound,
   * then each element's length and value) as its text form, which array parameters are read from.
   */
  private static String arrayText(ByteBuf in) {
    int dimensions = in.readInt();
    in.readInt(); // whether it holds NULLs
    int elementType = in.readInt();
    if (dimensions < 0 || dimensions > 6) {
      throw new IllegalArgumentException("array of " + dimensions + " dimensions");
    }
    int[] sizes = new int[dimensions];
    for (int d = 0; d < dimensions; d++) {
      sizes[d] = in.readInt();
      in.readInt(); // lower bound
      if (sizes[d] < 0 || sizes[d] > in.readableBytes() / 4) {
        throw new IllegalArgumentException("array dimension of " + sizes[d]);
      }
    }
    StringBuilder text = new StringBuilder();
    if (dimensions == 0) {
      return "{}";
    }
    appendArray(in, elementType, sizes, 0, text);
    return text.toString();
  }

  private static void appendArray(ByteBuf in, int elementType, int[] sizes, int dimension, StringBuilder text) {
    text.append('{');
    for (int i = 0; i < sizes[dimension]; i++) {
      if (i > 0) {
        text.append(',');
      }
      if (dimension + 1 < sizes.length) {
        appendArray(in, elementType, sizes, dimension + 1, text);
        continue;
      }
      int length = in.readInt();
      if (length == -1) {
        text.append("NULL");
        continue;
      }
      if (length < 0 || length > in.readableBytes()) {
        throw new IllegalArgumentException("array element of " + length + " bytes");
      }
      ByteBuf element = in.readSlice(length);
      TypedValue v = readBinary(element, elementType);
      String value = switch (v.type) {
        case BOOLEAN -> (Boolean) v.value ? "t" : "f";
        case JAVA_SQL_DATE -> PgText.date(((Number) v.value).intValue());
        case JAVA_SQL_TIME -> PgText.time(((Number) v.value).longValue());
        case JAVA_SQL_TIMESTAMP -> PgText.timestamp(((Number) v.value).longValue())
            + (elementType == TIMESTAMPTZ ? "+00" : "");
        case NUMBER -> v.value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v.value);
        case BYTE_STRING -> "\\x" + ((ByteString) v.value).toString(16);
        default -> String.valueOf(v.value);
      };
      PgText.appendQuoted(text, value);
    }
    text.append('}');
  }
}
