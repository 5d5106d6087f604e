package io.accel.catalog;

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
  private static final int FORMAT = 2;
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
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static TableDef decode(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int format = in.readByte();
      if (format != FORMAT && format != FORMAT_WITHOUT_INCLUDE) {
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
        if (format >= FORMAT) {
          int k = in.readInt();
          for (int j = 0; j < k; j++) {
            include.add(in.readInt());
          }
        }
        indexes.add(new IndexDef(indexId, indexName, ics, unique, include));
      }
      return new TableDef(id, name, columns, pk, indexes, schemaVersion);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
