package io.accel.catalog;

import io.accel.storage.RowCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * How a table's rows are stored: a row is a sequence of slots ({@link RowCodec}), and each column of the table
 * lives in one slot. ALTER TABLE ADD COLUMN appends a slot without rewriting the rows already stored; a row written
 * before the slot existed (its schema version is older than {@link Slot#addedIn}) reads the slot's
 * {@link Slot#missing} value, the column's default as evaluated when it was added (PostgreSQL's
 * {@code attmissingval}). DROP COLUMN leaves its slot in place, unread (PostgreSQL's {@code attisdropped}), so
 * older rows still decode; rewrites (ALTER COLUMN TYPE) start again from {@link #plain}.
 *
 * @param slots the stored slots in order; dropped ones included
 * @param columnSlots for each column of the table, in column order, the slot holding it
 */
public final class RowLayout {
  private final List<Slot> slots;
  private final List<Integer> columnSlots;
  /** The slots' types in slot order (the columns' types when the layout is plain). */
  private final List<DataType> slotTypes;
  private final boolean plain;

  /**
   * One stored slot. {@code addedIn} is the schema version whose rows first hold it (0 for the table's own
   * columns); {@code missing} is what rows written before then read (SQL NULL as null).
   */
  public record Slot(DataType type, int addedIn, Object missing) {
  }

  public RowLayout(List<Slot> slots, List<Integer> columnSlots) {
    this.slots = List.copyOf(slots);
    this.columnSlots = List.copyOf(columnSlots);
    for (int s : columnSlots) {
      Objects.checkIndex(s, slots.size());
    }
    List<DataType> types = new ArrayList<>(slots.size());
    for (Slot s : slots) {
      types.add(s.type());
    }
    this.slotTypes = Collections.unmodifiableList(types);
    boolean p = slots.size() == columnSlots.size();
    for (int i = 0; p && i < slots.size(); i++) {
      p = columnSlots.get(i) == i && slots.get(i).addedIn() == 0;
    }
    this.plain = p;
  }

  public List<Slot> slots() {
    return slots;
  }

  public List<Integer> columnSlots() {
    return columnSlots;
  }

  /** The layout of a table whose rows hold exactly its columns, in order. */
  public static RowLayout plain(List<Column> columns) {
    List<Slot> slots = new ArrayList<>(columns.size());
    List<Integer> map = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      slots.add(new Slot(columns.get(i).type(), 0, null));
      map.add(i);
    }
    return new RowLayout(slots, map);
  }

  /** Whether every row holds exactly the table's columns in order (no slot added later or dropped). */
  public boolean isPlain() {
    return plain;
  }

  /** The layout after a column of {@code type} is appended, first stored by rows of {@code version}. */
  public RowLayout withColumnAdded(DataType type, int version, Object missing) {
    List<Slot> s = new ArrayList<>(slots);
    s.add(new Slot(type, version, missing));
    List<Integer> map = new ArrayList<>(columnSlots);
    map.add(s.size() - 1);
    return new RowLayout(s, map);
  }

  /** The layout after the column at {@code ordinal} is dropped: its slot stays, read by no column. */
  public RowLayout withColumnDropped(int ordinal) {
    List<Integer> map = new ArrayList<>(columnSlots);
    map.remove(ordinal);
    return new RowLayout(slots, map);
  }

  /** The layout after a column's declared type changed in a way that keeps its stored form (VARCHAR(n) wider). */
  public RowLayout withColumnType(int ordinal, DataType type) {
    List<Slot> s = new ArrayList<>(slots);
    int slot = columnSlots.get(ordinal);
    Slot old = s.get(slot);
    s.set(slot, new Slot(type, old.addedIn(), old.missing()));
    return new RowLayout(s, columnSlots);
  }

  /** Reads a stored row as the table's columns; only those {@code wanted} marks (all when null) are decoded. */
  public Object[] decode(byte[] bytes, boolean[] wanted) {
    if (plain) {
      return RowCodec.decode(slotTypes, bytes, wanted);
    }
    int version = RowCodec.schemaVersion(bytes);
    int width = 0;
    while (width < slots.size() && slots.get(width).addedIn() <= version) {
      width++;
    }
    boolean[] stored = new boolean[width];
    for (int c = 0; c < columnSlots.size(); c++) {
      int s = columnSlots.get(c);
      if (s < width && (wanted == null || wanted[c])) {
        stored[s] = true;
      }
    }
    Object[] values = RowCodec.decode(slotTypes.subList(0, width), bytes, stored);
    Object[] row = new Object[columnSlots.size()];
    for (int c = 0; c < row.length; c++) {
      int s = columnSlots.get(c);
      row[c] = s < width ? values[s] : slots.get(s).missing();
    }
    return row;
  }

  /** The stored form of a row of the table's columns, for rows of schema version {@code version}. */
  public byte[] encode(int version, Object[] row) {
    if (plain) {
      return RowCodec.encode(version, slotTypes, row);
    }
    Object[] values = new Object[slots.size()];
    for (int c = 0; c < columnSlots.size(); c++) {
      values[columnSlots.get(c)] = row[c];
    }
    return RowCodec.encode(version, slotTypes, values);
  }

  /** The slots' types, in slot order. */
  public List<DataType> slotTypes() {
    return slotTypes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowLayout l && l.slots.equals(slots) && l.columnSlots.equals(columnSlots);
  }

  @Override
  public int hashCode() {
    return slots.hashCode() * 31 + columnSlots.hashCode();
  }

  @Override
  public String toString() {
    return "RowLayout" + slots + columnSlots;
  }
}
