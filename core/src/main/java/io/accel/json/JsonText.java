package io.accel.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Navigation in a {@code json} value, which PostgreSQL keeps as written: {@code ->} and {@code #>} return the member's
 * text exactly as it appears in the input (spacing, key order and duplicates kept), so they slice the text at the
 * offsets Jackson's streaming parser reports instead of printing a tree. The text was validated when it became json.
 */
public final class JsonText {
  private JsonText() {
  }

  private static final JsonFactory FACTORY = new JsonFactory();

  /** The text of the member at {@code path} (keys of objects, indexes of arrays), or null. */
  public static String path(String json, List<Object> path) {
    try (JsonParser p = FACTORY.createParser(json)) {
      JsonToken t = p.nextToken();
      for (int s = 0; s < path.size(); s++) {
        Object step = path.get(s);
        if (step == null) {
          return null;
        }
        if (t == JsonToken.START_OBJECT) {
          String key = step.toString();
          boolean found = false;
          while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            t = p.nextToken();
            if (name.equals(key)) {
              found = true;
              break;
            }
            p.skipChildren();
          }
          if (!found) {
            return null;
          }
        } else if (t == JsonToken.START_ARRAY) {
          int index;
          try {
            index = step instanceof Number n ? n.intValue() : Integer.parseInt(step.toString().strip());
          } catch (NumberFormatException e) {
            return null;
          }
          if (index < 0) {
            int size = size(json, path.subList(0, s));
            index += size;
            if (index < 0) {
              return null;
            }
          }
          int i = 0;
          while ((t = p.nextToken()) != JsonToken.END_ARRAY && i < index) {
            p.skipChildren();
            i++;
          }
          if (t == JsonToken.END_ARRAY) {
            return null;
          }
        } else {
          return null;
        }
      }
      int start = (int) p.currentTokenLocation().getCharOffset();
      p.skipChildren();
      int end = (int) p.currentLocation().getCharOffset();
      return json.substring(start, end);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The number of elements of the array at {@code path} (0 when it is not an array). */
  private static int size(String json, List<Object> path) {
    String array = path.isEmpty() ? json : path(json, path);
    if (array == null) {
      return 0;
    }
    com.fasterxml.jackson.databind.JsonNode node = Jsonb.parse(array);
    return node.isArray() ? node.size() : 0;
  }
}
