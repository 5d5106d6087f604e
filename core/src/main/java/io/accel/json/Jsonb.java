package io.accel.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values as PostgreSQL's jsonb treats them, over Jackson's trees: reading text (22P02 "invalid input syntax for
 * type json" for anything that is not one JSON value), printing as jsonb prints (object keys ordered by length, then
 * bytes; a duplicate key keeps its last value; {@code ", "} and {@code ": "} between items; numbers as numeric prints
 * them), and jsonb's operators: navigation by key, index or path, and containment ({@code @>}).
 */
public final class Jsonb {
  private Jsonb() {
  }

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  /** The JSON value of {@code text}; 22P02 when it is not exactly one JSON value. */
  public static JsonNode parse(String text) {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw invalid(e.getOriginalMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw invalid("The input string ended unexpectedly.");
    }
    return node;
  }

  private static AccelException invalid(String detail) {
    return new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json")
        .withDetail(detail);
  }

  /** {@code text} validated and printed as jsonb prints it. */
  public static String normalize(String text) {
    return print(parse(text));
  }

  /** {@code text} validated as json (which keeps its text as written). */
  public static String validate(String text) {
    parse(text);
    return text;
  }

  /** A value as jsonb prints it. */
  public static String print(JsonNode node) {
    StringBuilder b = new StringBuilder();
    print(node, b);
    return b.toString();
  }

  private static void print(JsonNode node, StringBuilder b) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      node.fields().forEachRemaining(fields::add);
      fields.sort((x, y) -> compareKeys(x.getKey(), y.getKey()));
      b.append('{');
      for (int i = 0; i < fields.size(); i++) {
        b.append(i > 0 ? ", " : "");
        quote(fields.get(i).getKey(), b);
        b.append(": ");
        print(fields.get(i).getValue(), b);
      }
      b.append('}');
    } else if (node.isArray()) {
      b.append('[');
      for (int i = 0; i < node.size(); i++) {
        b.append(i > 0 ? ", " : "");
        print(node.get(i), b);
      }
      b.append(']');
    } else if (node.isTextual()) {
      quote(node.textValue(), b);
    } else if (node.isNumber()) {
      b.append(number(node));
    } else {
      b.append(node.isBoolean() ? Boolean.toString(node.booleanValue()) : "null");
    }
  }

  /** jsonb_pretty: jsonb's text with one member or element per line, indented by four spaces per level. */
  public static String pretty(JsonNode node) {
    StringBuilder b = new StringBuilder();
    pretty(node, b, 0);
    return b.toString();
  }

  private static void pretty(JsonNode node, StringBuilder b, int level) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      node.fields().forEachRemaining(fields::add);
      fields.sort((x, y) -> compareKeys(x.getKey(), y.getKey()));
      b.append("{\n"); // (an empty one too: PostgreSQL prints {} as {, a line break and })
      for (int i = 0; i < fields.size(); i++) {
        b.append("    ".repeat(level + 1));
        quote(fields.get(i).getKey(), b);
        b.append(": ");
        pretty(fields.get(i).getValue(), b, level + 1);
        b.append(i + 1 < fields.size() ? ",\n" : "\n");
      }
      b.append("    ".repeat(level)).append('}');
    } else if (node.isArray()) {
      b.append("[\n");
      for (int i = 0; i < node.size(); i++) {
        b.append("    ".repeat(level + 1));
        pretty(node.get(i), b, level + 1);
        b.append(i + 1 < node.size() ? ",\n" : "\n");
      }
      b.append("    ".repeat(level)).append(']');
    } else {
      print(node, b);
    }
  }

  /** A number as PostgreSQL's numeric prints it: {@code 1e2} is 100, {@code 1.50} keeps its scale. */
  static String number(JsonNode node) {
    BigDecimal d = node.decimalValue();
    return (d.scale() < 0 ? d.setScale(0) : d).toPlainString();
  }

  /** jsonb's key order: shorter keys first, then by their UTF-8 bytes. */
  public static int compareKeys(String x, String y) {
    byte[] a = x.getBytes(StandardCharsets.UTF_8);
    byte[] c = y.getBytes(StandardCharsets.UTF_8);
    return a.length != c.length ? Integer.compare(a.length, c.length) : java.util.Arrays.compareUnsigned(a, c);
  }

  /** A string quoted as PostgreSQL's escape_json quotes it. */
  public static void quote(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  public static String quote(String s) {
    StringBuilder b = new StringBuilder();
    quote(s, b);
    return b.toString();
  }

  /** {@code -> key}: an object's member (null when absent or not an object). */
  public static JsonNode field(JsonNode node, String key) {
    return node != null && node.isObject() ? node.get(key) : null;
  }

  /** {@code -> index}: an array's element, negative from the end (null when absent or not an array). */
  public static JsonNode element(JsonNode node, int index) {
    if (node == null || !node.isArray()) {
      return null;
    }
    int i = index < 0 ? node.size() + index : index;
    return i >= 0 && i < node.size() ? node.get(i) : null;
  }

  /** {@code #> path}: each step a key of an object or an index of an array. */
  public static JsonNode path(JsonNode node, List<String> path) {
    for (String step : path) {
      if (node == null || step == null) {
        return null;
      }
      if (node.isObject()) {
        node = node.get(step);
      } else if (node.isArray()) {
        try {
          node = element(node, Integer.parseInt(step.strip()));
        } catch (NumberFormatException e) {
          return null;
        }
      } else {
        return null;
      }
    }
    return node;
  }

  /** {@code ->>}: a string's value, NULL for JSON null, other values printed. */
  public static String text(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    return node.isTextual() ? node.textValue() : print(node);
  }

  /**
   * {@code a || b}: two objects merge (b's value for a key in both), anything else concatenates as arrays, a value
   * that is no array taken as an array of itself.
   */
  public static JsonNode concat(JsonNode a, JsonNode b) {
    if (a.isObject() && b.isObject()) {
      com.fasterxml.jackson.databind.node.ObjectNode merged = a.deepCopy();
      merged.setAll((com.fasterxml.jackson.databind.node.ObjectNode) b);
      return merged;
    }
    com.fasterxml.jackson.databind.node.ArrayNode array = MAPPER.createArrayNode();
    for (JsonNode part : List.of(a, b)) {
      if (part.isArray()) {
        array.addAll((com.fasterxml.jackson.databind.node.ArrayNode) part);
      } else {
        array.add(part);
      }
    }
    return array;
  }

  /** {@code jsonb_typeof}. */
  public static String typeOf(JsonNode node) {
    return switch (node.getNodeType()) {
      case OBJECT -> "object";
      case ARRAY -> "array";
      case STRING -> "string";
      case NUMBER -> "number";
      case BOOLEAN -> "boolean";
      default -> "null";
    };
  }

  /**
   * {@code a @> b}, PostgreSQL's containment: an object contains an object whose every key it has with a value
   * containing that key's value; an array contains an array whose every element is contained in one of its
   * elements (and, at the top level, a scalar it holds); scalars contain only equal scalars.
   */
  public static boolean contains(JsonNode a, JsonNode b) {
    if (a.isArray() && !b.isArray() && !b.isObject()) {
      return containsElement(a, b);
    }
    return containsValue(a, b);
  }

  private static boolean containsValue(JsonNode a, JsonNode b) {
    if (a.isObject() && b.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> it = b.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode v = a.get(e.getKey());
        if (v == null || !containsValue(v, e.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      for (JsonNode x : b) {
        if (!containsElement(a, x)) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject() || a.isArray() || b.isObject() || b.isArray()) {
      return false;
    }
    return scalarEquals(a, b);
  }

  private static boolean containsElement(JsonNode array, JsonNode x) {
    for (JsonNode y : array) {
      if ((x.isObject() || x.isArray()) ? containsValue(y, x) : !y.isObject() && !y.isArray() && scalarEquals(y, x)) {
        return true;
      }
    }
    return false;
  }

  private static boolean scalarEquals(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.getNodeType() == b.getNodeType() && a.equals(b);
  }

  /** A text array literal ({@code {a,b}}, {@code {"a b",1}}) as its elements, for {@code #>} paths. */
  public static List<String> textArray(String literal) {
    String s = literal.strip();
    if (!s.startsWith("{") || !s.endsWith("}")) {
      throw new AccelException(SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"" + literal + "\"")
          .withDetail("Array value must start with \"{\" or dimension information.");
    }
    List<String> out = new ArrayList<>();
    String body = s.substring(1, s.length() - 1);
    if (body.isBlank()) {
      return out;
    }
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (quoted) {
        if (c == '\\' && i + 1 < body.length()) {
          cur.append(body.charAt(++i));
        } else if (c == '"') {
          quoted = false;
        } else {
          cur.append(c);
        }
      } else if (c == '"') {
        quoted = true;
        wasQuoted = true;
      } else if (c == ',') {
        out.add(element(cur, wasQuoted));
        cur.setLength(0);
        wasQuoted = false;
      } else if (c == '\\' && i + 1 < body.length()) {
        cur.append(body.charAt(++i));
      } else {
        cur.append(c);
      }
    }
    out.add(element(cur, wasQuoted));
    return out;
  }

  private static String element(StringBuilder cur, boolean quoted) {
    String e = quoted ? cur.toString() : cur.toString().strip();
    return !quoted && e.equalsIgnoreCase("null") ? null : e;
  }
}
