package io.accel.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.accel.json.Jsonb;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's set-returning jsonb functions in FROM: {@code jsonb_each} (columns {@code key}, {@code value}
 * jsonb), {@code jsonb_each_text} (value text), {@code jsonb_object_keys}, {@code jsonb_array_elements}
 * ({@code value} jsonb) and {@code jsonb_array_elements_text}; the json variants alike. Keys come in jsonb's order.
 * A NULL argument gives no rows; the wrong kind of value is 22023 with PostgreSQL's message. As with
 * {@link GenerateSeries}, Calcite calls each factory while validating (with null for a non-literal) for the row
 * type, and the generated code to scan.
 */
public final class JsonRows extends AbstractTable implements ScannableTable {
  private enum Kind { EACH, EACH_TEXT, KEYS, ELEMENTS, ELEMENTS_TEXT }

  private final Kind kind;
  private final String function;
  private final Object json;

  private JsonRows(Kind kind, String function, Object json) {
    this.kind = kind;
    this.function = function;
    this.json = json;
  }

  public static JsonRows each(Object json) {
    return new JsonRows(Kind.EACH, "jsonb_each", json);
  }

  public static JsonRows eachText(Object json) {
    return new JsonRows(Kind.EACH_TEXT, "jsonb_each_text", json);
  }

  public static JsonRows objectKeys(Object json) {
    return new JsonRows(Kind.KEYS, "jsonb_object_keys", json);
  }

  public static JsonRows arrayElements(Object json) {
    return new JsonRows(Kind.ELEMENTS, "jsonb_array_elements", json);
  }

  public static JsonRows arrayElementsText(Object json) {
    return new JsonRows(Kind.ELEMENTS_TEXT, "jsonb_array_elements_text", json);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    RelDataType text = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true);
    RelDataType jsonb = typeFactory.createTypeWithNullability(JsonSqlType.of(typeFactory, true), true);
    return switch (kind) {
      case EACH -> typeFactory.builder().add("key", text).add("value", jsonb).build();
      case EACH_TEXT -> typeFactory.builder().add("key", text).add("value", text).build();
      case KEYS -> typeFactory.builder().add("jsonb_object_keys", text).build();
      case ELEMENTS -> typeFactory.builder().add("value", jsonb).build();
      case ELEMENTS_TEXT -> typeFactory.builder().add("value", text).build();
    };
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    if (json == null) {
      return Linq4j.emptyEnumerable();
    }
    JsonNode node = Jsonb.parse(json.toString());
    List<Object[]> rows = new ArrayList<>();
    switch (kind) {
      case EACH, EACH_TEXT, KEYS -> {
        if (!node.isObject()) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, kind == Kind.KEYS
              ? "cannot call " + function + " on " + (node.isArray() ? "an array" : "a scalar")
              : "cannot call " + function + " on a non-object");
        }
        // jsonb's order: keys by length, then bytes (as Jsonb prints them)
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
          fields.add(it.next());
        }
        fields.sort((a, b) -> Jsonb.compareKeys(a.getKey(), b.getKey()));
        for (Map.Entry<String, JsonNode> f : fields) {
          rows.add(switch (kind) {
            case EACH -> new Object[] {f.getKey(), Jsonb.print(f.getValue())};
            case EACH_TEXT -> new Object[] {f.getKey(), Jsonb.text(f.getValue())};
            default -> new Object[] {f.getKey()};
          });
        }
      }
      default -> {
        if (!node.isArray()) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE,
              "cannot extract elements from " + (node.isObject() ? "an object" : "a scalar"));
        }
        for (JsonNode element : node) {
          rows.add(new Object[] {kind == Kind.ELEMENTS ? Jsonb.print(element) : Jsonb.text(element)});
        }
      }
    }
    return Linq4j.asEnumerable(rows);
  }
}
