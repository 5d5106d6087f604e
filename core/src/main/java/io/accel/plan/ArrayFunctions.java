package io.accel.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PostgreSQL's functions of one-dimensional arrays: array_length, array_position, array_append, array_prepend,
 * array_cat, array_remove, array_replace, array_upper and array_lower. Arrays are Calcite's {@code List}s; an
 * element added is converted to the array's element type (a literal 3 appended to an integer[] is an Integer, as
 * the array's own).
 */
public final class ArrayFunctions {
  private ArrayFunctions() {}

  /** array_append, also {@code array || element} (PgSqlValidator). */
  static final SqlOperator APPEND = PgFunctions.function("array_append", arrayOf(0), 2, 2,
      elementTyped("append", 0));
  /** array_prepend, also {@code element || array}. */
  static final SqlOperator PREPEND = PgFunctions.function("array_prepend", arrayOf(1), 2, 2,
      elementTyped("prepend", 1));

  static List<SqlOperator> operators() {
    List<SqlOperator> out = new ArrayList<>();
    out.add(APPEND);
    out.add(PREPEND);
    out.add(PgFunctions.function("array_cat", arrayOf(0), 2, 2, new PgFunctions.Implementation(
        PgFunctions.method(ArrayFunctions.class, "cat"), false, NullPolicy.NONE)));
    out.add(PgFunctions.function("array_remove", arrayOf(0), 2, 2, elementTyped("remove", 0)));
    out.add(PgFunctions.function("array_replace", arrayOf(0), 3, 3, elementTyped("replace", 0)));
    // array_upper of a one-dimensional array is its length
    for (String[] f : new String[][] {{"array_length", "length"}, {"array_upper", "length"},
        {"array_lower", "lower"}}) {
      out.add(PgFunctions.function(f[0], nullableInteger(), 2, 2, new PgFunctions.Implementation(
          PgFunctions.method(ArrayFunctions.class, f[1]), false, NullPolicy.STRICT)));
    }
    out.add(PgFunctions.function("array_position", nullableInteger(), 2, 2, new PgFunctions.Implementation(
        PgFunctions.method(ArrayFunctions.class, "position"), false, NullPolicy.NONE)));
    // '{1,2}'::int[] (io.accel.sql.ArrayLiterals): the text as an array of the element type its second operand names
    out.add(PgFunctions.function("accel_array_in", binding -> {
      org.apache.calcite.rel.type.RelDataTypeFactory f = binding.getTypeFactory();
      String element = binding.getOperandLiteralValue(1, String.class);
      RelDataType type = f.createTypeWithNullability(f.createSqlType(SqlTypeName.valueOf(element)), true);
      return f.createTypeWithNullability(f.createArrayType(type, -1), binding.getOperandType(0).isNullable());
    }, 2, 2, new PgFunctions.Implementation(PgFunctions.method(ArrayFunctions.class, "arrayIn"), false,
        NullPolicy.STRICT)));
    return out;
  }

  public static List<Object> arrayIn(String text, String element) {
    return io.accel.exec.ParameterConversions.arrayIn(text, element, java.time.ZoneOffset.UTC);
  }

  private static SqlReturnTypeInference nullableInteger() {
    return binding -> binding.getTypeFactory().createTypeWithNullability(
        binding.getTypeFactory().createSqlType(SqlTypeName.INTEGER), true);
  }

  /** The type of the array operand {@code i} (of another array operand where that one is a NULL), nullable. */
  private static SqlReturnTypeInference arrayOf(int i) {
    return binding -> {
      RelDataType type = binding.getOperandType(i);
      for (int j = 0; type.getComponentType() == null && j < binding.getOperandCount(); j++) {
        if (binding.getOperandType(j).getComponentType() != null) {
          type = binding.getOperandType(j);
        }
      }
      return binding.getTypeFactory().createTypeWithNullability(type, true);
    };
  }

  /** A method given the element type's name first, then the operands; NULL operands reach it. */
  private static PgFunctions.Implementation elementTyped(String method, int arrayOperand) {
    return new PgFunctions.Implementation(PgFunctions.method(ArrayFunctions.class, method), false, NullPolicy.NONE,
        call -> {
          RelDataType component = call.getOperands().get(arrayOperand).getType().getComponentType();
          return List.of(component == null ? "" : component.getSqlTypeName().name());
        }, false);
  }

  public static @Nullable List<Object> append(String type, @Nullable Object array, @Nullable Object value) {
    List<Object> out = array == null ? new ArrayList<>() : new ArrayList<>((List<?>) array);
    out.add(element(type, value));
    return out;
  }

  public static @Nullable List<Object> prepend(String type, @Nullable Object value, @Nullable Object array) {
    List<Object> out = new ArrayList<>();
    out.add(element(type, value));
    if (array != null) {
      out.addAll((List<?>) array);
    }
    return out;
  }

  public static @Nullable List<Object> cat(@Nullable Object a, @Nullable Object b) {
    if (a == null && b == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    if (a != null) {
      out.addAll((List<?>) a);
    }
    if (b != null) {
      out.addAll((List<?>) b);
    }
    return out;
  }

  /** array_remove(a, v): every element equal to v (NULLs for a NULL v) left out. */
  public static @Nullable List<Object> remove(String type, @Nullable Object array, @Nullable Object value) {
    if (array == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (Object e : (List<?>) array) {
      if (!same(e, value)) {
        out.add(e);
      }
    }
    return out;
  }

  /** array_replace(a, from, to): every element equal to from (NULLs for a NULL from) replaced by to. */
  public static @Nullable List<Object> replace(String type, @Nullable Object array, @Nullable Object from,
      @Nullable Object to) {
    if (array == null) {
      return null;
    }
    Object replacement = element(type, to);
    List<Object> out = new ArrayList<>();
    for (Object e : (List<?>) array) {
      out.add(same(e, from) ? replacement : e);
    }
    return out;
  }

  /** array_length(a, 1), array_upper(a, 1): the element count; NULL for an empty array or another dimension. */
  public static @Nullable Integer length(Object array, Object dimension) {
    List<?> list = (List<?>) array;
    return ((Number) dimension).intValue() != 1 || list.isEmpty() ? null : list.size();
  }

  /** array_position(array, value): the 1-based position of the first element equal to the value, else NULL. */
  public static @Nullable Integer position(@Nullable Object array, @Nullable Object value) {
    if (array == null) {
      return null;
    }
    List<?> list = (List<?>) array;
    for (int i = 0; i < list.size(); i++) {
      if (same(list.get(i), value)) {
        return i + 1;
      }
    }
    return null;
  }

  /** array_lower(a, 1): 1 for a non-empty one-dimensional array, else NULL. */
  public static @Nullable Integer lower(Object array, Object dimension) {
    List<?> list = (List<?>) array;
    return ((Number) dimension).intValue() != 1 || list.isEmpty() ? null : 1;
  }

  /** PostgreSQL's IS NOT DISTINCT FROM of two elements; numbers compare by value (1 and 1.00 are equal). */
  private static boolean same(@Nullable Object a, @Nullable Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.equals(b) || a instanceof Number x && b instanceof Number y
        && new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
  }

  /** {@code value} as an element of an array of {@code type} (a SqlTypeName's name), numbers as a cast makes them. */
  private static @Nullable Object element(String type, @Nullable Object value) {
    // other values are already in the element's (Calcite's internal) form: a date's days, a timestamp's millis
    return value instanceof Number && NUMBERS.contains(type)
        ? io.accel.exec.ParameterConversions.element(value, type, java.time.ZoneOffset.UTC) : value;
  }

  private static final java.util.Set<String> NUMBERS = java.util.Set.of("SMALLINT", "INTEGER", "BIGINT", "DECIMAL",
      "REAL", "DOUBLE", "FLOAT");
}
