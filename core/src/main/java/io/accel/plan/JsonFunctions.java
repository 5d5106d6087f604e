package io.accel.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.accel.json.JsonText;
import io.accel.json.Jsonb;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * PostgreSQL's json and jsonb functions and operators as Calcite functions over the JSON text ({@link JsonSqlType}):
 * the operators {@code -> ->> #> #>> @> <@} (which {@code io.accel.sql.JsonSyntax} rewrites into calls of the
 * {@code accel_json_*} functions), casts from text, {@code to_json[b]}, {@code json[b]_build_object},
 * {@code json[b]_build_array}, {@code json[b]_typeof}, {@code json[b]_array_length}, and the pieces of
 * {@code json[b]_agg}. Arguments of any type are turned into JSON by their SQL type, which the implementation is
 * given as one character per operand ({@link #kind}).
 */
public final class JsonFunctions {
  private JsonFunctions() {
  }

  /** How a value of {@code type} becomes JSON: j json, s string, n number, f float, b boolean, dates and times. */
  static char kind(RelDataType type) {
    if (JsonSqlType.is(type)) {
      return 'j';
    }
    return switch (type.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> 'n';
      case REAL, DOUBLE, FLOAT -> 'f';
      case BOOLEAN -> 'b';
      case DATE -> 'd';
      case TIME -> 't';
      case TIMESTAMP -> 'p';
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 'z';
      default -> 's';
    };
  }

  private static String kinds(RexCall call) {
    StringBuilder b = new StringBuilder();
    call.getOperands().forEach(o -> b.append(kind(o.getType())));
    return b.toString();
  }

  private static boolean binaryOperand(RexCall call) {
    RelDataType t = call.getOperands().get(0).getType();
    return !JsonSqlType.is(t) || JsonSqlType.isBinary(t);
  }

  /** The json type of the first operand (jsonb unless it is json), nullable as any operand. */
  private static final SqlReturnTypeInference SAME_JSON = binding -> {
    RelDataType t = binding.getOperandType(0);
    boolean nullable = false;
    for (int i = 0; i < binding.getOperandCount(); i++) {
      nullable |= binding.getOperandType(i).isNullable();
    }
    return binding.getTypeFactory().createTypeWithNullability(
        JsonSqlType.of(binding.getTypeFactory(), !JsonSqlType.is(t) || JsonSqlType.isBinary(t)), nullable);
  };

  private static SqlReturnTypeInference json(boolean binary, boolean nullable) {
    return binding -> binding.getTypeFactory().createTypeWithNullability(
        JsonSqlType.of(binding.getTypeFactory(), binary), nullable || binding.getOperandCount() > 0
            && binding.getOperandType(0).isNullable());
  }

  /** A nullable result of {@code type} (a missing member is NULL whatever the operands). */
  private static SqlReturnTypeInference sql(SqlTypeName type) {
    return binding -> binding.getTypeFactory().createTypeWithNullability(
        binding.getTypeFactory().createSqlType(type), true);
  }

  private static PgFunctions.Implementation impl(String method, boolean context, NullPolicy nulls,
      java.util.function.Function<RexCall, List<Object>> leading, boolean variadic) {
    return new PgFunctions.Implementation(PgFunctions.method(JsonFunctions.class, method), context, nulls, leading,
        variadic);
  }

  private static SqlUserDefinedFunction fn(String name, SqlReturnTypeInference type, int min, int max,
      PgFunctions.Implementation impl) {
    return PgFunctions.function(name, type, min, max, impl);
  }

  /** Text to json ({@code false}: validated) or jsonb ({@code true}: normalized); the cast's type is given. */
  static final SqlUserDefinedFunction IN = fn("accel_json_in", SAME_JSON, 2, 2,
      impl("in", false, NullPolicy.STRICT, c -> List.of(), false));

  /** A json value as another json type that keeps its text (json to json, jsonb to json). */
  static final SqlUserDefinedFunction RETYPE = fn("accel_json_retype", SAME_JSON, 1, 1,
      impl("retype", false, NullPolicy.STRICT, c -> List.of(), false));

  /** jsonb's {@code ||}; the call keeps the type Calcite gave the concatenation. */
  static final SqlUserDefinedFunction CONCAT = fn("accel_jsonb_concat", SAME_JSON, 2, 2,
      impl("concat", false, NullPolicy.STRICT, c -> List.of(), false));

  static final List<SqlOperator> OPERATORS = List.of(
      fn("accel_json_get", SAME_JSON, 2, 2, impl("get", false, NullPolicy.STRICT,
          c -> List.of(binaryOperand(c)), false)),
      fn("accel_json_get_text", sql(SqlTypeName.VARCHAR), 2, 2, impl("getText", false, NullPolicy.STRICT,
          c -> List.of(binaryOperand(c)), false)),
      fn("accel_json_path", SAME_JSON, 2, 2, impl("path", false, NullPolicy.STRICT,
          c -> List.of(binaryOperand(c)), false)),
      fn("accel_json_path_text", sql(SqlTypeName.VARCHAR), 2, 2, impl("pathText", false, NullPolicy.STRICT,
          c -> List.of(binaryOperand(c)), false)),
      fn("accel_jsonb_contains", sql(SqlTypeName.BOOLEAN), 2, 2, impl("contains", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_set", json(true, false), 3, 4, impl("set", false, NullPolicy.STRICT, c -> List.of(), true)),
      fn("jsonb_typeof", sql(SqlTypeName.VARCHAR), 1, 1, impl("typeOf", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_pretty", sql(SqlTypeName.VARCHAR), 1, 1, impl("pretty", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("json_typeof", sql(SqlTypeName.VARCHAR), 1, 1, impl("typeOf", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_exists", sql(SqlTypeName.BOOLEAN), 2, 2, impl("exists", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_exists_any", sql(SqlTypeName.BOOLEAN), 2, 2, impl("existsAny", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_exists_all", sql(SqlTypeName.BOOLEAN), 2, 2, impl("existsAll", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("jsonb_array_length", sql(SqlTypeName.INTEGER), 1, 1, impl("arrayLength", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("json_array_length", sql(SqlTypeName.INTEGER), 1, 1, impl("arrayLength", false, NullPolicy.STRICT,
          c -> List.of(), false)),
      fn("to_jsonb", json(true, false), 1, 1, impl("toJson", true, NullPolicy.STRICT,
          c -> List.of(kinds(c), true), true)),
      fn("to_json", json(false, false), 1, 1, impl("toJson", true, NullPolicy.STRICT,
          c -> List.of(kinds(c), false), true)),
      fn("jsonb_build_object", json(true, false), 0, Integer.MAX_VALUE, impl("buildObject", true,
          NullPolicy.NONE, c -> List.of(kinds(c), true), true)),
      fn("json_build_object", json(false, false), 0, Integer.MAX_VALUE, impl("buildObject", true,
          NullPolicy.NONE, c -> List.of(kinds(c), false), true)),
      fn("jsonb_build_array", json(true, false), 0, Integer.MAX_VALUE, impl("buildArray", true,
          NullPolicy.NONE, c -> List.of(kinds(c), true), true)),
      fn("json_build_array", json(false, false), 0, Integer.MAX_VALUE, impl("buildArray", true,
          NullPolicy.NONE, c -> List.of(kinds(c), false), true)),
      // json[b]_agg(x) is string_agg(accel_json_element(x), ...) finished by accel_json_agg (io.accel.sql.JsonSyntax)
      fn("accel_json_element", binding -> binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), 1, 1,
          impl("element", true, NullPolicy.NONE, c -> List.of(kinds(c)), true)),
      fn("accel_jsonb_agg", json(true, true), 1, 1, impl("aggregate", false, NullPolicy.STRICT,
          c -> List.of(true), false)),
      fn("accel_json_agg", json(false, true), 1, 1, impl("aggregate", false, NullPolicy.STRICT,
          c -> List.of(false), false)));

  public static String in(String text, boolean binary) {
    return binary ? Jsonb.normalize(text) : Jsonb.validate(text);
  }

  public static String retype(String json) {
    return json;
  }

  private static Object key(Object key) {
    return key instanceof Number n ? (Object) n.intValue() : key.toString();
  }

  /** {@code ->}: a member by key or an element by index, as json (its text) or jsonb. */
  public static String get(boolean binary, String json, Object key) {
    if (!binary) {
      return JsonText.path(json, List.of(key(key)));
    }
    JsonNode node = Jsonb.parse(json);
    JsonNode member = key instanceof Number n ? Jsonb.element(node, n.intValue()) : Jsonb.field(node, key.toString());
    return member == null ? null : Jsonb.print(member);
  }

  /** {@code ->>}: as {@code ->}, as text (a string's value; NULL for JSON null). */
  public static String getText(boolean binary, String json, Object key) {
    String member = get(binary, json, key);
    return member == null ? null : Jsonb.text(Jsonb.parse(member));
  }

  /** {@code #>}: the member at a path given as a text array literal ({@code '{a,0,b}'}). */
  public static String path(boolean binary, String json, String path) {
    List<String> steps = Jsonb.textArray(path);
    if (!binary) {
      return JsonText.path(json, List.copyOf(steps.stream().map(s -> (Object) s).toList()));
    }
    JsonNode member = Jsonb.path(Jsonb.parse(json), steps);
    return member == null ? null : Jsonb.print(member);
  }

  public static String pathText(boolean binary, String json, String path) {
    String member = path(binary, json, path);
    return member == null ? null : Jsonb.text(Jsonb.parse(member));
  }

  /** {@code a || b} of jsonb values. */
  public static String concat(String a, String b) {
    return Jsonb.print(Jsonb.concat(Jsonb.parse(a), Jsonb.parse(b)));
  }

  /** {@code a @> b}. */
  public static boolean contains(String a, String b) {
    return Jsonb.contains(Jsonb.parse(a), Jsonb.parse(b));
  }

  /**
   * {@code jsonb_set(target, path, value [, create_missing])}: {@code target} with the item at {@code path} (a text
   * array: object keys and array indexes, negative from the end) replaced by {@code value}, or added where the
   * last step is missing and {@code create_missing} (default true); unchanged where an earlier step is missing.
   */
  public static String set(Object[] args) {
    JsonNode root = Jsonb.parse(args[0].toString()).deepCopy();
    List<String> path = Jsonb.textArray(args[1].toString());
    JsonNode value = Jsonb.parse(args[2].toString());
    boolean create = args.length < 4 || Boolean.TRUE.equals(args[3]);
    if (path.isEmpty()) {
      return Jsonb.print(root);
    }
    JsonNode parent = root;
    for (int i = 0; i < path.size() - 1 && parent != null; i++) {
      parent = step(parent, path.get(i), i);
    }
    String last = path.get(path.size() - 1);
    if (parent instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
      if (create || object.has(last)) {
        object.set(last, value);
      }
    } else if (parent instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
      int index = index(last, path.size() - 1);
      int at = index < 0 ? array.size() + index : index;
      if (at >= 0 && at < array.size()) {
        array.set(at, value);
      } else if (create) {
        if (at < 0) {
          array.insert(0, value);
        } else {
          array.add(value);
        }
      }
    } else if (parent != null && path.size() == 1) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "cannot set path in scalar");
    }
    return Jsonb.print(root);
  }

  private static JsonNode step(JsonNode node, String key, int position) {
    if (node.isObject()) {
      return node.get(key);
    }
    if (node.isArray()) {
      int index = index(key, position);
      int at = index < 0 ? node.size() + index : index;
      return at >= 0 && at < node.size() ? node.get(at) : null;
    }
    return null;
  }

  private static int index(String key, int position) {
    try {
      return Integer.parseInt(key.strip());
    } catch (NumberFormatException e) {
      throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "path element at position " + (position + 1)
          + " is not an integer: \"" + key + "\"");
    }
  }

  public static String pretty(String json) {
    return Jsonb.pretty(Jsonb.parse(json));
  }

  public static String typeOf(String json) {
    return Jsonb.typeOf(Jsonb.parse(json));
  }

  /**
   * jsonb's {@code ?}: whether {@code key} is a key of the top-level object, a string element of the top-level
   * array, or the string itself.
   */
  public static boolean exists(String json, String key) {
    return exists(Jsonb.parse(json), key);
  }

  private static boolean exists(JsonNode node, String key) {
    if (node.isObject()) {
      return node.has(key);
    }
    if (node.isArray()) {
      for (JsonNode element : node) {
        if (element.isTextual() && element.textValue().equals(key)) {
          return true;
        }
      }
      return false;
    }
    return node.isTextual() && node.textValue().equals(key);
  }

  /** {@code ?|}: any of the keys (an array, or text[] literal text) exists; NULL keys are skipped. */
  public static boolean existsAny(String json, Object keys) {
    JsonNode node = Jsonb.parse(json);
    return keys(keys).stream().anyMatch(k -> k != null && exists(node, k));
  }

  /** {@code ?&}: every key exists; NULL keys are skipped. */
  public static boolean existsAll(String json, Object keys) {
    JsonNode node = Jsonb.parse(json);
    return keys(keys).stream().allMatch(k -> k == null || exists(node, k));
  }

  private static List<String> keys(Object keys) {
    if (keys instanceof List<?> list) {
      return list.stream().map(k -> k == null ? null : k.toString()).toList();
    }
    return Jsonb.textArray(keys.toString());
  }

  /** 22023 for a scalar or object, as PostgreSQL. */
  public static int arrayLength(String json) {
    JsonNode node = Jsonb.parse(json);
    if (!node.isArray()) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "cannot get array length of a "
          + (node.isObject() ? "non-array" : "scalar"));
    }
    return node.size();
  }

  /** {@code to_json[b](value)}. */
  public static String toJson(DataContext context, String kinds, boolean binary, Object[] values) {
    String text = text(context, kinds.charAt(0), values[0]);
    return binary ? Jsonb.normalize(text) : text;
  }

  /** An element of json[b]_agg: its JSON text, {@code null} for NULL. */
  public static String element(DataContext context, String kinds, Object[] values) {
    return text(context, kinds.charAt(0), values[0]);
  }

  /** The end of json[b]_agg: the elements joined by string_agg, as an array; NULL for no rows. */
  public static String aggregate(boolean binary, String joined) {
    String array = "[" + joined + "]";
    return binary ? Jsonb.normalize(array) : array;
  }

  /** {@code json[b]_build_object(k1, v1, ...)}; json's form is PostgreSQL's {@code {"k" : v, ...}}. */
  public static String buildObject(DataContext context, String kinds, boolean binary, Object[] values) {
    if (values.length % 2 != 0) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
          "argument list must have even number of elements")
          .withHint("The arguments of " + (binary ? "jsonb" : "json")
              + "_build_object() must consist of alternating keys and values.");
    }
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < values.length; i += 2) {
      if (values[i] == null) {
        throw new AccelException(SqlState.NULL_VALUE_NOT_ALLOWED, "argument " + (i + 1) + ": key must not be null");
      }
      String key = kinds.charAt(i) == 'j' ? values[i].toString() : scalarText(context, kinds.charAt(i), values[i]);
      b.append(i > 0 ? ", " : "");
      Jsonb.quote(key, b);
      b.append(" : ").append(text(context, kinds.charAt(i + 1), values[i + 1]));
    }
    String text = b.append('}').toString();
    return binary ? Jsonb.normalize(text) : text;
  }

  public static String buildArray(DataContext context, String kinds, boolean binary, Object[] values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      b.append(i > 0 ? ", " : "").append(text(context, kinds.charAt(i), values[i]));
    }
    String text = b.append(']').toString();
    return binary ? Jsonb.normalize(text) : text;
  }

  /** The JSON text of a SQL value of the given kind, as PostgreSQL's to_json writes it. */
  private static String text(DataContext context, char kind, Object value) {
    if (value == null) {
      return "null";
    }
    return switch (kind) {
      case 'j' -> value.toString();
      case 'n' -> value instanceof BigDecimal d ? d.toPlainString() : value.toString();
      case 'f' -> {
        double d = ((Number) value).doubleValue();
        yield Double.isNaN(d) || Double.isInfinite(d) ? Jsonb.quote(PgExpressions.toText(value))
            : PgExpressions.toText(value);
      }
      case 'b' -> value.toString();
      default -> Jsonb.quote(scalarText(context, kind, value));
    };
  }

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss[.SSS]");

  /** A scalar as text: strings as they are, dates and times in ISO 8601 as PostgreSQL writes them in JSON. */
  private static String scalarText(DataContext context, char kind, Object value) {
    return switch (kind) {
      case 'd' -> LocalDate.ofEpochDay(((Number) value).longValue()).toString();
      case 't' -> trimFraction(LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000L).format(TIME));
      case 'p' -> trimFraction(LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value).longValue()),
          ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS")));
      case 'z' -> {
        var t = Instant.ofEpochMilli(((Number) value).longValue()).atZone(PgTimeFunctions.zone(context));
        String local = trimFraction(t.toLocalDateTime().format(DateTimeFormatter.ofPattern(
            "yyyy-MM-dd'T'HH:mm:ss.SSS")));
        int seconds = t.getOffset().getTotalSeconds();
        yield local + (seconds < 0 ? "-" : "+") + String.format("%02d:%02d", Math.abs(seconds) / 3600,
            Math.abs(seconds) % 3600 / 60);
      }
      case 'n', 'f', 'b' -> text(context, kind, value);
      default -> value.toString();
    };
  }

  /** {@code 10:00:00.000} is {@code 10:00:00}, {@code .120} is {@code .12}, as PostgreSQL prints fractions. */
  private static String trimFraction(String time) {
    if (!time.contains(".")) {
      return time;
    }
    String t = time.replaceAll("0+$", "");
    return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
  }
}
