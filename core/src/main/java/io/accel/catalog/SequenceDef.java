package io.accel.catalog;

import java.util.Optional;

/**
 * A sequence as the catalog records it: PostgreSQL's pg_sequence options (data type, start, increment, bounds,
 * cache, cycle) and, for the sequences of SERIAL and identity columns (or OWNED BY), the column owning it. Its
 * current value is not part of the definition (see {@code io.accel.exec.SequenceValues}).
 */
public record SequenceDef(long id, String name, ColumnType type, long start, long increment, long min, long max,
    long cache, boolean cycle, Optional<Owner> owner) {

  /** How an owning column uses its sequence: as a SERIAL default (or OWNED BY), or as an identity column. */
  public enum Identity {
    NONE, ALWAYS, BY_DEFAULT;

    /** pg_attribute.attidentity: 'a', 'd' or ''. */
    public String code() {
      return this == ALWAYS ? "a" : this == BY_DEFAULT ? "d" : "";
    }
  }

  /** The column a sequence belongs to: dropping the table drops the sequence. */
  public record Owner(long tableId, String column, Identity identity) {
  }

  public SequenceDef {
    owner = owner == null ? Optional.empty() : owner;
  }

  public SequenceDef withOwner(Optional<Owner> newOwner) {
    return new SequenceDef(id, name, type, start, increment, min, max, cache, cycle, newOwner);
  }

  /** Whether this is the identity sequence of that column. */
  public boolean identityOf(long tableId, String column) {
    return owner.filter(o -> o.tableId() == tableId && o.column().equals(column) && o.identity() != Identity.NONE)
        .isPresent();
  }

  /** The smallest and largest values of a sequence data type. */
  public static long typeMin(ColumnType type) {
    return switch (type) {
      case SMALLINT -> Short.MIN_VALUE;
      case INTEGER -> Integer.MIN_VALUE;
      default -> Long.MIN_VALUE;
    };
  }

  public static long typeMax(ColumnType type) {
    return switch (type) {
      case SMALLINT -> Short.MAX_VALUE;
      case INTEGER -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  /** The type's name as PostgreSQL prints it in messages and information_schema. */
  public static String typeName(ColumnType type) {
    return switch (type) {
      case SMALLINT -> "smallint";
      case INTEGER -> "integer";
      default -> "bigint";
    };
  }
}
