package io.accel.catalog;

import io.accel.storage.RowCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The binary form of a {@link TableDef} in the {@code meta} column family, versioned by a leading format byte. */
final class CatalogCodec {
  /** Format 8 adds, at the end, the primary key constraint's declared name. */
  private static final int FORMAT = 8;
  /** Written before primary key constraints kept their declared names. */
  private static final int FORMAT_WITHOUT_PK_NAME = 7;
  /** Format 7 adds, after the foreign keys, each index's predicate and expression columns. */
  /** Written before partial and expression indexes. */
  private static final int FORMAT_WITHOUT_INDEX_EXPRESSIONS = 6;
  /** Format 5 adds each FOREIGN KEY constraint's deferral after its actions. */
  /** Written before constraints could be NOT VALID. */
  private static final int FORMAT_WITHOUT_VALIDATION = 5;
  /** Format 4 adds the FOREIGN KEY constraints after the CHECKs, and whether an index is a UNIQUE constraint's. */
  private static final int FORMAT_WITHOUT_DEFERRAL = 4;
  /** Format 3 adds the row layout (ALTER TABLE ADD / DROP COLUMN) and the CHECK constraints after the indexes. */
  private static final int FORMAT_WITHOUT_FOREIGN_KEYS = 3;
  /** Format 2 has INCLUDE columns and no row layout (every row holds the columns in order); still read. */
  private static final int FORMAT_WITHOUT_LAYOUT = 2;
  /** Format 1 predates INCLUDE columns; still read. */
  private static final int FORMAT_WITHOUT_INCLUDE = 1;

  private CatalogCodec() {
  }

  static byte[] encode(TableDef t) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeLong(t.id());
      out.writeUTF(t.name());
      out.writeInt(t.schemaVersion());
      out.writeInt(t.columns().size());
      for (Column c : t.columns()) {
        out.writeUTF(c.name());
        out.writeUTF(c.type().kind().name());
        out.writeInt(c.type().precision());
        out.writeInt(c.type().scale());
        out.writeBoolean(c.nullable());
        out.writeBoolean(c.defaultSql().isPresent());
        if (c.defaultSql().isPresent()) {
          out.writeUTF(c.defaultSql().get());
        }
      }
      out.writeInt(t.primaryKey().size());
      for (int ordinal : t.primaryKey()) {
        out.writeInt(ordinal);
      }
      out.writeInt(t.indexes().size());
      for (IndexDef index : t.indexes()) {
        out.writeLong(index.id());
        out.writeUTF(index.name());
        out.writeBoolean(index.unique());
        out.writeInt(index.columns().size());
        for (IndexColumn ic : index.columns()) {
          out.writeInt(ic.column());
          out.writeBoolean(ic.descending());
        }
        out.writeInt(index.include().size());
        for (int ordinal : index.include()) {
          out.writeInt(ordinal);
        }
        out.writeBoolean(index.constraint());
      }
      writeLayout(out, t.layout());
      out.writeInt(t.checks().size());
      for (CheckDef c : t.checks()) {
        out.writeUTF(c.name());
        writeLongText(out, c.expression());
        out.writeBoolean(c.validated());
      }
      out.writeInt(t.foreignKeys().size());
      for (ForeignKeyDef fk : t.foreignKeys()) {
        out.writeUTF(fk.name());
        writeNames(out, fk.columns());
        out.writeUTF(fk.refTable());
        writeNames(out, fk.refColumns());
        out.writeByte(fk.onUpdate().ordinal());
        out.writeByte(fk.onDelete().ordinal());
        out.writeByte(fk.deferral().ordinal());
        out.writeBoolean(fk.validated());
      }
      for (IndexDef index : t.indexes()) {
        out.writeBoolean(index.predicate() != null);
        if (index.predicate() != null) {
          writeLongText(out, index.predicate());
        }
        for (IndexColumn ic : index.columns()) {
          out.writeBoolean(ic.isExpression());
          if (ic.isExpression()) {
            writeLongText(out, ic.expression());
            writeType(out, ic.type());
          }
        }
      }
      out.writeBoolean(t.pkConstraint() != null);
      if (t.pkConstraint() != null) {
        out.writeUTF(t.pkConstraint());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static TableDef decode(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int format = in.readByte();
      if (format < FORMAT_WITHOUT_INCLUDE || format > FORMAT) {
        throw new IllegalStateException("unknown catalog format " + format);
      }
      long id = in.readLong();
      String name = in.readUTF();
      int schemaVersion = in.readInt();
      int columnCount = in.readInt();
      List<Column> columns = new ArrayList<>(columnCount);
      for (int i = 0; i < columnCount; i++) {
        String columnName = in.readUTF();
        ColumnType kind = ColumnType.valueOf(in.readUTF());
        int precision = in.readInt();
        int scale = in.readInt();
        boolean nullable = in.readBoolean();
        Optional<String> defaultSql = in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
        columns.add(new Column(columnName, new DataType(kind, precision, scale), nullable, defaultSql));
      }
      int pkCount = in.readInt();
      List<Integer> pk = new ArrayList<>(pkCount);
      for (int i = 0; i < pkCount; i++) {
        pk.add(in.readInt());
      }
      int indexCount = in.readInt();
      List<IndexDef> indexes = new ArrayList<>(indexCount);
      for (int i = 0; i < indexCount; i++) {
        long indexId = in.readLong();
        String indexName = in.readUTF();
        boolean unique = in.readBoolean();
        int n = in.readInt();
        List<IndexColumn> ics = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
          ics.add(new IndexColumn(in.readInt(), in.readBoolean()));
        }
        List<Integer> include = new ArrayList<>();
        if (format >= FORMAT_WITHOUT_LAYOUT) {
          int k = in.readInt();
          for (int j = 0; j < k; j++) {
            include.add(in.readInt());
          }
        }
        boolean constraint = format >= FORMAT_WITHOUT_DEFERRAL && in.readBoolean();
        indexes.add(new IndexDef(indexId, indexName, ics, unique, include, constraint));
      }
      RowLayout layout = format >= FORMAT_WITHOUT_FOREIGN_KEYS ? readLayout(in) : null;
      List<CheckDef> checks = new ArrayList<>();
      if (format >= FORMAT_WITHOUT_FOREIGN_KEYS) {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
          String checkName = in.readUTF();
          String expression = readLongText(in);
          checks.add(new CheckDef(checkName, expression, format <= FORMAT_WITHOUT_VALIDATION || in.readBoolean()));
        }
      }
      List<ForeignKeyDef> foreignKeys = new ArrayList<>();
      if (format >= FORMAT_WITHOUT_DEFERRAL) {
        int n = in.readInt();
        ForeignKeyDef.Action[] actions = ForeignKeyDef.Action.values();
        for (int i = 0; i < n; i++) {
          String fkName = in.readUTF();
          List<String> fkColumns = readNames(in);
          String refTable = in.readUTF();
          List<String> refColumns = readNames(in);
          ForeignKeyDef.Action onUpdate = actions[in.readByte()];
          ForeignKeyDef.Action onDelete = actions[in.readByte()];
          ForeignKeyDef.Deferral deferral = format >= FORMAT_WITHOUT_VALIDATION
              ? ForeignKeyDef.Deferral.values()[in.readByte()] : ForeignKeyDef.Deferral.NOT_DEFERRABLE;
          boolean validated = format <= FORMAT_WITHOUT_VALIDATION || in.readBoolean();
          foreignKeys.add(new ForeignKeyDef(fkName, fkColumns, refTable, refColumns, onUpdate, onDelete, deferral,
              validated));
        }
      }
      if (format > FORMAT_WITHOUT_INDEX_EXPRESSIONS) {
        for (int i = 0; i < indexes.size(); i++) {
          IndexDef index = indexes.get(i);
          String predicate = in.readBoolean() ? readLongText(in) : null;
          List<IndexColumn> ics = new ArrayList<>();
          for (IndexColumn ic : index.columns()) {
            ics.add(in.readBoolean() ? IndexColumn.ofExpression(readLongText(in), readType(in), ic.descending()) : ic);
          }
          indexes.set(i, new IndexDef(index.id(), index.name(), ics, index.unique(), index.include(),
              index.constraint(), predicate));
        }
      }
      String pkConstraint = format > FORMAT_WITHOUT_PK_NAME && in.readBoolean() ? in.readUTF() : null;
      return new TableDef(id, name, columns, pk, indexes, schemaVersion,
          layout == null ? RowLayout.plain(columns) : layout, checks, foreignKeys, pkConstraint);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A plain layout is one flag; otherwise each slot (type, version added, missing value) and each column's slot. */
  private static void writeLayout(DataOutputStream out, RowLayout layout) throws IOException {
    out.writeBoolean(layout.isPlain());
    if (layout.isPlain()) {
      return;
    }
    out.writeInt(layout.slots().size());
    for (RowLayout.Slot slot : layout.slots()) {
      writeType(out, slot.type());
      out.writeInt(slot.addedIn());
      out.writeBoolean(slot.missing() != null);
      if (slot.missing() != null) {
        byte[] value = RowCodec.encode(0, List.of(slot.type()), new Object[] {slot.missing()});
        out.writeInt(value.length);
        out.write(value);
      }
    }
    out.writeInt(layout.columnSlots().size());
    for (int s : layout.columnSlots()) {
      out.writeInt(s);
    }
  }

  /** The layout, or null when it is plain (the columns in order). */
  private static RowLayout readLayout(DataInputStream in) throws IOException {
    if (in.readBoolean()) {
      return null;
    }
    int n = in.readInt();
    List<RowLayout.Slot> slots = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      DataType type = readType(in);
      int addedIn = in.readInt();
      Object missing = null;
      if (in.readBoolean()) {
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        missing = RowCodec.decode(List.of(type), value)[0];
      }
      slots.add(new RowLayout.Slot(type, addedIn, missing));
    }
    int columns = in.readInt();
    List<Integer> map = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      map.add(in.readInt());
    }
    return new RowLayout(slots, map);
  }

  private static void writeType(DataOutputStream out, DataType type) throws IOException {
    out.writeUTF(type.kind().name());
    out.writeInt(type.precision());
    out.writeInt(type.scale());
  }

  private static DataType readType(DataInputStream in) throws IOException {
    ColumnType kind = ColumnType.valueOf(in.readUTF());
    return new DataType(kind, in.readInt(), in.readInt());
  }

  /** The binary form of a view (its own format byte, 1). */
  static byte[] encodeView(ViewDef v) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeLong(v.id());
      out.writeUTF(v.name());
      writeLongText(out, v.sql());
      writeLongText(out, v.definition());
      out.writeInt(v.columns().size());
      for (int i = 0; i < v.columns().size(); i++) {
        out.writeUTF(v.columns().get(i));
        writeType(out, v.types().get(i));
        out.writeBoolean(v.nullable().get(i));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static ViewDef decodeView(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int format = in.readByte();
      if (format != 1) {
        throw new IllegalStateException("unknown view format " + format);
      }
      long id = in.readLong();
      String name = in.readUTF();
      String sql = readLongText(in);
      String definition = readLongText(in);
      int n = in.readInt();
      List<String> columns = new ArrayList<>(n);
      List<DataType> types = new ArrayList<>(n);
      List<Boolean> nullable = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        columns.add(in.readUTF());
        types.add(readType(in));
        nullable.add(in.readBoolean());
      }
      return new ViewDef(id, name, sql, definition, columns, types, nullable);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeNames(DataOutputStream out, List<String> names) throws IOException {
    out.writeInt(names.size());
    for (String n : names) {
      out.writeUTF(n);
    }
  }

  private static List<String> readNames(DataInputStream in) throws IOException {
    int n = in.readInt();
    List<String> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      names.add(in.readUTF());
    }
    return names;
  }

  /** Text of any length (writeUTF stops at 64 KB). */
  private static void writeLongText(DataOutputStream out, String text) throws IOException {
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readLongText(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }
}
