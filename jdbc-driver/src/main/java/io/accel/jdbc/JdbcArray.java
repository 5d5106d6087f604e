package io.accel.jdbc;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An array value as pgJDBC returns it: {@link #getArray()} is an array of the element's boxed class ({@code Integer[]}
 * for int4[], {@code String[]} for text[], {@code BigDecimal[]} for numeric[], with NULL elements), where Avatica's
 * gave a primitive {@code int[]} (or failed on a NULL element, or gave {@code Object[]}); {@link #toString()} is
 * the column's text as {@code getString} gives it (PostgreSQL's). The elements are read through Avatica's array,
 * which converts them.
 */
final class JdbcArray implements Array {
  private final Array avatica;
  private final String text;

  private JdbcArray(Array avatica, String text) {
    this.avatica = avatica;
    this.text = text;
  }

  /** Avatica's array (null for NULL) as pgJDBC's, whose text is {@code text}. */
  static JdbcArray of(Array avatica, String text) {
    return avatica == null ? null : new JdbcArray(avatica, text);
  }

  /** The element type's PostgreSQL name, as pgJDBC gives it, and the class of its values in {@link #getArray()}. */
  private record Element(String pgName, Class<?> type) {
  }

  private Element element() throws SQLException {
    return switch (avatica.getBaseType()) {
      case Types.SMALLINT, Types.TINYINT -> new Element("int2", Short.class);
      case Types.INTEGER -> new Element("int4", Integer.class);
      case Types.BIGINT -> new Element("int8", Long.class);
      case Types.DECIMAL, Types.NUMERIC -> new Element("numeric", BigDecimal.class);
      case Types.REAL -> new Element("float4", Float.class);
      case Types.DOUBLE, Types.FLOAT -> new Element("float8", Double.class);
      case Types.BOOLEAN, Types.BIT -> new Element("bool", Boolean.class);
      case Types.CHAR -> new Element("bpchar", String.class);
      case Types.VARCHAR, Types.LONGVARCHAR -> new Element("text", String.class);
      case Types.DATE -> new Element("date", java.sql.Date.class);
      case Types.TIME -> new Element("time", java.sql.Time.class);
      case Types.TIMESTAMP -> new Element("timestamp", java.sql.Timestamp.class);
      default -> new Element(avatica.getBaseTypeName(), Object.class);
    };
  }

  @Override
  public String getBaseTypeName() throws SQLException {
    return element().pgName();
  }

  @Override
  public int getBaseType() throws SQLException {
    return avatica.getBaseType();
  }

  @Override
  public Object getArray() throws SQLException {
    return typed(elements(1, Integer.MAX_VALUE));
  }

  @Override
  public Object getArray(Map<String, Class<?>> map) throws SQLException {
    return getArray();
  }

  @Override
  public Object getArray(long index, int count) throws SQLException {
    if (index < 1 || count < 0) {
      throw new SQLException("array index out of range: " + index, "2202E");
    }
    return typed(elements(index, count));
  }

  @Override
  public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
    return getArray(index, count);
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    return avatica.getResultSet();
  }

  @Override
  public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
    return avatica.getResultSet(map);
  }

  @Override
  public ResultSet getResultSet(long index, int count) throws SQLException {
    return avatica.getResultSet(index, count);
  }

  @Override
  public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
    return avatica.getResultSet(index, count, map);
  }

  @Override
  public void free() throws SQLException {
    avatica.free();
  }

  /** Elements {@code index} (1-based) on, at most {@code count}, as Avatica's result set of the array reads them. */
  private List<Object> elements(long index, int count) throws SQLException {
    List<Object> out = new ArrayList<>();
    try (ResultSet rows = avatica.getResultSet()) {
      long position = 0;
      while (rows.next() && out.size() < count) {
        if (++position >= index) {
          out.add(rows.getObject(2));
        }
      }
    }
    return out;
  }

  private Object[] typed(List<Object> elements) throws SQLException {
    Class<?> type = element().type();
    Object[] out = (Object[]) java.lang.reflect.Array.newInstance(type, elements.size());
    for (int i = 0; i < out.length; i++) {
      Object e = elements.get(i);
      out[i] = e == null || type.isInstance(e) ? e : convert(e, type);
    }
    return out;
  }

  /** An element Avatica read as another class (a Short's column as an Integer, a numeric as a Double). */
  private static Object convert(Object e, Class<?> type) {
    if (e instanceof Number n) {
      if (type == Short.class) {
        return n.shortValue();
      } else if (type == Integer.class) {
        return n.intValue();
      } else if (type == Long.class) {
        return n.longValue();
      } else if (type == BigDecimal.class) {
        return new BigDecimal(n.toString());
      } else if (type == Float.class) {
        return n.floatValue();
      } else if (type == Double.class) {
        return n.doubleValue();
      }
    }
    return type == String.class ? e.toString() : e;
  }

  @Override
  public String toString() {
    return text;
  }
}
