package io.accel.plan;

import io.accel.catalog.DataType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PostgreSQL's built-in types as {@code pg_type} lists them (rows copied from PostgreSQL 15's own catalog into
 * {@code pg_type.txt}: oid, name, length, by value, type, category, preferred, element, array, input function,
 * alignment, storage, collation), and the mapping of Accel's column types onto them.
 */
final class PgTypes {
  record PgType(int oid, String name, short len, boolean byVal, String type, String category, boolean preferred,
      int elem, int array, String input, String align, String storage, int collation) {
  }

  static final List<PgType> ALL = load();
  static final Map<Integer, PgType> BY_OID = new HashMap<>();
  static final Map<String, PgType> BY_NAME = new HashMap<>();

  static {
    for (PgType t : ALL) {
      BY_OID.put(t.oid(), t);
      BY_NAME.put(t.name(), t);
    }
  }

  /** Key words PostgreSQL quotes in identifiers (those a column is likely to be named). */
  static final Set<String> RESERVED = Set.of("all", "and", "any", "array", "as", "asc", "both", "case", "cast",
      "check", "collate", "column", "constraint", "create", "default", "desc", "distinct", "do", "else", "end",
      "except", "false", "for", "foreign", "from", "grant", "group", "having", "in", "into", "leading", "limit",
      "not", "null", "offset", "on", "only", "or", "order", "primary", "references", "select", "table", "then",
      "to", "true", "union", "unique", "user", "using", "when", "where", "with");

  private PgTypes() {
  }

  private static List<PgType> load() {
    List<PgType> types = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        PgTypes.class.getResourceAsStream("pg_type.txt"), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        String[] f = line.split("\\|", -1);
        if (f.length < 13) {
          continue;
        }
        types.add(new PgType(Integer.parseInt(f[0]), f[1], Short.parseShort(f[2]), f[3].equals("t"), f[4], f[5],
            f[6].equals("t"), Integer.parseInt(f[7]), Integer.parseInt(f[8]), f[9], f[10], f[11],
            Integer.parseInt(f[12])));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(types);
  }

  /**
   * The Avatica type of a result column of {@code type}: json, jsonb and name keep their names, also as an array's
   * elements (a PostgreSQL client reads their OIDs: node-postgres parses json, pgJDBC names them), other types
   * {@code calcite}'s.
   */
  static org.apache.calcite.avatica.ColumnMetaData.AvaticaType avaticaType(org.apache.calcite.rel.type.RelDataType type,
      org.apache.calcite.avatica.ColumnMetaData.AvaticaType calcite) {
    if (type instanceof JsonSqlType j) {
      return org.apache.calcite.avatica.ColumnMetaData.scalar(java.sql.Types.VARCHAR, j.binary() ? "JSONB" : "JSON",
          org.apache.calcite.avatica.ColumnMetaData.Rep.STRING);
    }
    if (type instanceof NameSqlType n) {
      return org.apache.calcite.avatica.ColumnMetaData.scalar(java.sql.Types.VARCHAR, n.typeName(),
          org.apache.calcite.avatica.ColumnMetaData.Rep.STRING);
    }
    if (type.getComponentType() != null && calcite instanceof org.apache.calcite.avatica.ColumnMetaData.ArrayType a) {
      org.apache.calcite.avatica.ColumnMetaData.AvaticaType component = avaticaType(type.getComponentType(),
          a.getComponent());
      return component == a.getComponent() ? calcite
          : org.apache.calcite.avatica.ColumnMetaData.array(component, a.name, a.rep);
    }
    return calcite;
  }

  /** The pg_type oid of a column type. */
  static int oid(DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> 21;
      case INTEGER -> 23;
      case BIGINT -> 20;
      case NUMERIC -> 1700;
      case REAL -> 700;
      case DOUBLE -> 701;
      case BOOLEAN -> 16;
      case CHAR -> 1042;
      case VARCHAR -> 1043;
      case TEXT -> 25;
      case DATE -> 1082;
      case TIME -> 1083;
      case TIMESTAMP -> 1114;
      case TIMESTAMPTZ -> 1184;
      case BYTEA -> 17;
      case UUID -> 2950;
      case JSON -> 114;
      case JSONB -> 3802;
    };
  }

  /**
   * The pg_type oid of a value Calcite typed as {@code type}: a string literal (CHAR) and NULL are
   * {@code unknown}, as PostgreSQL leaves them; text, varchar and char columns are all text to Calcite.
   */
  static int oid(org.apache.calcite.rel.type.RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case BOOLEAN -> 16;
      case TINYINT, SMALLINT -> 21;
      case INTEGER -> 23;
      case BIGINT -> 20;
      case DECIMAL -> 1700;
      case REAL -> 700;
      case FLOAT, DOUBLE -> 701;
      case VARCHAR -> JsonSqlType.is(type) ? (JsonSqlType.isBinary(type) ? 3802 : 114) : type instanceof NameSqlType n ? (NameSqlType.is(n) ? 19 : 1005) : 25;
      case DATE -> 1082;
      case TIME -> 1083;
      case TIMESTAMP -> 1114;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 1184;
      case BINARY, VARBINARY -> 17;
      case UUID -> 2950;
      case ARRAY -> {
        PgType element = type.getComponentType() == null ? null : BY_OID.get(oid(type.getComponentType()));
        yield element == null || element.array() == 0 ? 705 : element.array();
      }
      default -> org.apache.calcite.sql.type.SqlTypeName.INTERVAL_TYPES.contains(type.getSqlTypeName()) ? 1186 : 705;
    };
  }

  /** The type modifier PostgreSQL records for a declaration (atttypmod): length + 4, (p << 16 | s) + 4, or -1. */
  static int typmod(DataType type) {
    return switch (type.kind()) {
      case CHAR -> (type.precision() < 0 ? 1 : type.precision()) + 4;
      case VARCHAR -> type.precision() < 0 ? -1 : type.precision() + 4;
      case NUMERIC -> type.precision() < 0 ? -1 : ((type.precision() << 16) | Math.max(type.scale(), 0)) + 4;
      case TIME, TIMESTAMP, TIMESTAMPTZ -> type.precision() < 0 ? -1 : type.precision();
      default -> -1;
    };
  }

  static short len(DataType type) {
    PgType t = BY_OID.get(oid(type));
    return t == null ? -1 : t.len();
  }

  /** {@code format_type(oid, typmod)} as PostgreSQL prints it. */
  static String formatType(int oid, int typmod) {
    String base = switch (oid) {
      case 16 -> "boolean";
      case 18 -> "\"char\"";
      case 20 -> "bigint";
      case 21 -> "smallint";
      case 23 -> "integer";
      case 700 -> "real";
      case 701 -> "double precision";
      case 1042 -> typmod < 0 ? "bpchar" : "character";
      case 1043 -> "character varying";
      case 1083 -> "time";
      case 1114 -> "timestamp";
      case 1184 -> "timestamp";
      case 1266 -> "time";
      case 1560 -> "bit";
      case 1562 -> "bit varying";
      case 1700 -> "numeric";
      default -> null;
    };
    if (base == null) {
      PgType t = BY_OID.get(oid);
      if (t == null) {
        return "???";
      }
      if (t.elem() != 0 && t.name().startsWith("_")) {
        return formatType(t.elem(), typmod) + "[]";
      }
      return t.name();
    }
    String mod = "";
    if (typmod >= 0) {
      mod = switch (oid) {
        case 1042, 1043 -> "(" + (typmod - 4) + ")";
        case 1700 -> "(" + (((typmod - 4) >> 16) & 0xffff) + "," + ((typmod - 4) & 0xffff) + ")";
        case 1083, 1114, 1184, 1266, 1560, 1562 -> "(" + typmod + ")";
        default -> "";
      };
    }
    return switch (oid) {
      case 1083, 1114 -> base + mod + " without time zone";
      case 1184, 1266 -> base + mod + " with time zone";
      default -> base + mod;
    };
  }

  /** information_schema's data_type: the SQL name without modifiers. */
  static String sqlName(DataType type) {
    return switch (type.kind()) {
      case CHAR -> "character";
      default -> formatType(oid(type), -1);
    };
  }
}
