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
 * PostgreSQL's text of it. The elements are read through Avatica's array, which converts them.
 */
final class JdbcArray implements Array {
  private final Array avatica;

  JdbcArray(Array avatica) {
    this.avatica = avatica;
  }

  static Object wrap(Object value) {
    return value instanceof Array a && !(value instanceof JdbcArray) ? new JdbcArray(a) : value;
  }

  /** PostgreSQL's name of the element type, as pgJDBC gives it ({@code int4}, {@code text}). */
  @Override
  public String getBaseTypeName() throws SQLException {
    return switch (avatica.getBaseType()) {
      case Types.SMALLINT, Types.TINYINT -> "int2";
      case Types.INTEGER -> "int4";
      case Types.BIGINT -> "int8";
      case Types.DECIMAL, Types.NUMERIC -> "numeric";
      case Types.REAL -> "float4";
      case Types.DOUBLE, Types.FLOAT -> "float8";
      case Types.BOOLEAN, Types.BIT -> "bool";
      case Types.CHAR -> "bpchar";
      case Types.VARCHAR, Types.LONGVARCHAR -> "text";
      case Types.DATE -> "date";
      case Types.TIME -> "time";
      case Types.TIMESTAMP -> "timestamp";
      default -> avatica.getBaseTypeName();
    };
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
    Class<?> type = switch (avatica.getBaseType()) {
      case Types.SMALLINT, Types.TINYINT -> Short.class;
      case Types.INTEGER -> Integer.class;
      case Types.BIGINT -> Long.class;
      case Types.DECIMAL, Types.NUMERIC -> BigDecimal.class;
      case Types.REAL -> Float.class;
      case Types.DOUBLE, Types.FLOAT -> Double.class;
      case Types.BOOLEAN, Types.BIT -> Boolean.class;
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> String.class;
      case Types.DATE -> java.sql.Date.class;
      case Types.TIME -> java.sql.Time.class;
      case Types.TIMESTAMP -> java.sql.Timestamp.class;
      default -> Object.class;
    };
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

  /** PostgreSQL's text of the array: {1,2,NULL}, {a,"b c"}, {t,f}. */
  @Override
  public String toString() {
    try {
      StringBuilder b = new StringBuilder("{");
      for (Object e : elements(1, Integer.MAX_VALUE)) {
        if (b.length() > 1) {
          b.append(',');
        }
        if (e == null) {
          b.append("NULL");
        } else if (e instanceof Boolean bool) {
          b.append(bool ? 't' : 'f');
        } else {
          String s = e instanceof BigDecimal d ? d.toPlainString() : e.toString();
          boolean quote = s.isEmpty() || s.equalsIgnoreCase("NULL")
              || s.chars().anyMatch(c -> "{},\"\\".indexOf(c) >= 0 || Character.isWhitespace(c));
          b.append(quote ? '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"' : s);
        }
      }
      return b.append('}').toString();
    } catch (SQLException e) {
      return super.toString();
    }
  }
}
