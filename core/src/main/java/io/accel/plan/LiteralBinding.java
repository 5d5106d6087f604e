package io.accel.plan;

import io.accel.sql.LiteralNormalizer.Literal;
import io.accel.sql.LiteralNormalizer.LiteralKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Decides whether the literals normalised out of a statement may run in the plan of its normalised text:
 * each literal must convert to the type Calcite inferred for its parameter without changing value, and in
 * a way that cannot change what the statement computes. Anything else (a string for a DATE parameter, 1.5
 * for an INTEGER one, 70000 for a SMALLINT one, a number for a VARCHAR one) makes the caller plan the
 * exact text, which then behaves, fails and reports errors exactly as it always did.
 */
public final class LiteralBinding {
  private static final BigDecimal FLOAT_MAX = new BigDecimal(Float.MAX_VALUE);
  private static final BigDecimal DOUBLE_MAX = new BigDecimal(Double.MAX_VALUE);

  private LiteralBinding() {
  }

  /** The values to bind, in Calcite's internal representation, or empty when a literal does not fit. */
  public static Optional<List<Object>> bind(List<AvaticaParameter> parameters, List<Literal> literals) {
    if (parameters.size() != literals.size()) {
      return Optional.empty();
    }
    List<Object> values = new ArrayList<>(literals.size());
    for (int i = 0; i < literals.size(); i++) {
      Object v = value(parameters.get(i), literals.get(i));
      if (v == null) {
        return Optional.empty();
      }
      values.add(v);
    }
    return Optional.of(values);
  }

  /** The value of {@code literal} for {@code parameter}, or null when it does not convert exactly. */
  static Object value(AvaticaParameter parameter, Literal literal) {
    String type = parameter.typeName == null ? "" : parameter.typeName.toUpperCase(Locale.ROOT);
    LiteralKind kind = literal.kind();
    if (kind != LiteralKind.STRING && !validNumber(kind, literal.number())) {
      return null; // the exact text fails validation ("numeric literal out of range")
    }
    switch (type) {
      case "TINYINT":
        return kind == LiteralKind.INTEGER ? integral(literal.number(), Byte.MIN_VALUE, Byte.MAX_VALUE, x -> (byte) x)
            : null;
      case "SMALLINT":
        return kind == LiteralKind.INTEGER
            ? integral(literal.number(), Short.MIN_VALUE, Short.MAX_VALUE, x -> (short) x) : null;
      case "INTEGER":
        return kind == LiteralKind.INTEGER
            ? integral(literal.number(), Integer.MIN_VALUE, Integer.MAX_VALUE, x -> (int) x) : null;
      case "BIGINT":
        return kind == LiteralKind.INTEGER ? integral(literal.number(), Long.MIN_VALUE, Long.MAX_VALUE, x -> x) : null;
      case "DECIMAL":
        return kind == LiteralKind.INTEGER || kind == LiteralKind.DECIMAL ? decimal(literal.number(), parameter) : null;
      case "REAL":
        return kind == LiteralKind.STRING ? null : real(kind, literal.number());
      case "FLOAT":
      case "DOUBLE":
        return kind == LiteralKind.STRING ? null : dbl(literal.number());
      case "VARCHAR":
        if (kind != LiteralKind.STRING) {
          return null;
        }
        String s = (String) literal.value();
        return parameter.precision > 0 && s.codePointCount(0, s.length()) > parameter.precision ? null : s;
      default:
        // CHAR (padding), BOOLEAN, dates and times, UUID, binary, ...: only the exact text decides
        return null;
    }
  }

  /** Whether Calcite's validator accepts the number as a literal (see SqlValidatorImpl.validateLiteral). */
  private static boolean validNumber(LiteralKind kind, BigDecimal v) {
    if (kind == LiteralKind.APPROXIMATE) {
      return Double.isFinite(v.doubleValue());
    }
    BigDecimal stripped = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    return stripped.precision() <= AccelTypeSystem.INSTANCE.getMaxPrecision(SqlTypeName.DECIMAL)
        && stripped.scale() <= AccelTypeSystem.INSTANCE.getMaxScale(SqlTypeName.DECIMAL);
  }

  private interface Narrowing {
    Object of(long value);
  }

  private static Object integral(BigDecimal v, long min, long max, Narrowing narrowing) {
    if (v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(max)) > 0) {
      return null;
    }
    return narrowing.of(v.longValueExact());
  }

  /**
   * A DECIMAL(p, s) parameter takes numbers of at most s decimals and p - s integer digits, with scale s
   * (as the exact text's literal is cast: INSERT of 5 into NUMERIC(10,2) stores 5.00).
   */
  private static BigDecimal decimal(BigDecimal v, AvaticaParameter parameter) {
    if (parameter.precision <= 0) {
      return v;
    }
    int scale = Math.max(parameter.scale, 0);
    BigDecimal stripped = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    int decimals = Math.max(stripped.scale(), 0);
    int integerDigits = stripped.precision() - stripped.scale();
    if (decimals > scale || integerDigits > parameter.precision - scale) {
      return null;
    }
    // an unconstrained NUMERIC parameter keeps the literal's scale, as PostgreSQL's numeric does
    return AccelTypeSystem.isUnconstrainedNumeric(parameter.precision, parameter.scale) ? v : v.setScale(scale);
  }

  /**
   * A REAL parameter takes an exact number rounded to the nearest float, as Calcite casts the literal of the
   * exact text to REAL (when rounding through double would give another float, the exact text decides). A
   * DOUBLE literal (1e-3) makes Calcite compare in DOUBLE instead: it must be a float exactly.
   */
  private static Float real(LiteralKind kind, BigDecimal v) {
    if (v.abs().compareTo(FLOAT_MAX) > 0) {
      return null;
    }
    float f = v.floatValue();
    if (kind == LiteralKind.APPROXIMATE) {
      return new BigDecimal(f).compareTo(v) == 0 ? f : null;
    }
    return (float) v.doubleValue() == f ? f : null;
  }

  /**
   * A DOUBLE parameter takes any finite number, rounded to the nearest double: Calcite compares and stores
   * a DOUBLE against a DECIMAL literal as doubles too, after the same rounding.
   */
  private static Double dbl(BigDecimal v) {
    if (v.abs().compareTo(DOUBLE_MAX) > 0) {
      return null;
    }
    return v.doubleValue();
  }
}
