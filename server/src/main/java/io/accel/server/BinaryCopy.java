package io.accel.server;

import io.accel.catalog.DataType;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * PostgreSQL's binary COPY format: the signature {@code PGCOPY\n\377\r\n\0}, flags and header extension, then per
 * tuple a 16-bit field count and per field a 32-bit length (-1 for NULL) and the value in the binary form DataRow
 * and Bind use ({@link PgTypes}), and a trailer of -1.
 */
final class BinaryCopy {
  private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};

  private BinaryCopy() {
  }

  static void writeHeader(ByteBuf out) {
    out.writeBytes(SIGNATURE);
    out.writeInt(0); // flags: no OIDs
    out.writeInt(0); // no header extension
  }

  static void writeTuple(ByteBuf out, Object[] values, int[] oids) {
    out.writeShort(oids.length);
    for (int i = 0; i < oids.length; i++) {
      if (values[i] == null) {
        out.writeInt(-1);
      } else {
        // a bytea value is bytes whatever type the query's column was described with
        boolean bytes = values[i] instanceof org.apache.calcite.avatica.util.ByteString || values[i] instanceof byte[];
        PgTypes.writeBinary(out, bytes ? PgTypes.BYTEA : oids[i], values[i]);
      }
    }
  }

  static void writeTrailer(ByteBuf out) {
    out.writeShort(-1);
  }

  /** The OID whose binary form a column of this type is read in. */
  static int oid(DataType type) {
    return switch (type.kind()) {
      case SMALLINT -> PgTypes.INT2;
      case INTEGER -> PgTypes.INT4;
      case BIGINT -> PgTypes.INT8;
      case NUMERIC -> PgTypes.NUMERIC;
      case REAL -> PgTypes.FLOAT4;
      case DOUBLE -> PgTypes.FLOAT8;
      case BOOLEAN -> PgTypes.BOOL;
      case CHAR -> PgTypes.BPCHAR;
      case VARCHAR -> PgTypes.VARCHAR;
      case DATE -> PgTypes.DATE;
      case TIME -> PgTypes.TIME;
      case TIMESTAMP -> PgTypes.TIMESTAMP;
      case TIMESTAMPTZ -> PgTypes.TIMESTAMPTZ;
      case BYTEA -> PgTypes.BYTEA;
      case UUID -> PgTypes.UUID_OID;
      case TEXT, JSON, JSONB -> PgTypes.TEXT; // jsonb's version byte is dropped by core
    };
  }

  /** Reads the format from CopyData chunks of any size and hands over each complete tuple's values. */
  static final class Reader implements AutoCloseable {
    private final int[] oids;
    private final ByteBuf pending = Unpooled.buffer(8192);
    private boolean headerRead;
    private boolean trailerRead;

    Reader(List<DataType> types) {
      this.oids = types.stream().mapToInt(BinaryCopy::oid).toArray();
    }

    void write(ByteBuf chunk, Consumer<List<TypedValue>> tuple) {
      if (trailerRead) {
        if (chunk.isReadable()) {
          throw bad("received copy data after EOF marker");
        }
        return;
      }
      pending.writeBytes(chunk);
      if (!headerRead) {
        if (pending.readableBytes() < SIGNATURE.length + 8) {
          return;
        }
        for (byte b : SIGNATURE) {
          if (pending.readByte() != b) {
            throw bad("COPY file signature not recognized");
          }
        }
        int flags = pending.getInt(pending.readerIndex());
        int extension = pending.getInt(pending.readerIndex() + 4);
        if ((flags & 0xffff0000) != 0) { // bit 16 (OIDs) and every other critical flag
          throw bad("unrecognized critical flags in COPY file header");
        }
        if (extension < 0) {
          throw bad("invalid COPY file header (missing length)");
        }
        if (pending.readableBytes() < 8 + extension) {
          pending.readerIndex(pending.readerIndex() - SIGNATURE.length);
          return;
        }
        pending.skipBytes(8 + extension);
        headerRead = true;
      }
      while (!trailerRead && pending.readableBytes() >= 2) {
        int start = pending.readerIndex();
        List<TypedValue> values = tuple(start);
        if (values == null) {
          pending.readerIndex(start); // incomplete: waits for the next chunk
          break;
        }
        if (trailerRead) {
          if (pending.isReadable()) {
            throw bad("received copy data after EOF marker");
          }
          break;
        }
        tuple.accept(values);
      }
      pending.discardReadBytes();
    }

    /** The next tuple's values, or null when it is not complete yet; sets {@code trailerRead} at the trailer. */
    private List<TypedValue> tuple(int start) {
      short count = pending.readShort();
      if (count == -1) {
        trailerRead = true;
        return List.of();
      }
      if (count != oids.length) {
        throw bad("row field count is " + count + ", expected " + oids.length);
      }
      List<TypedValue> values = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        if (pending.readableBytes() < 4) {
          return null;
        }
        int length = pending.readInt();
        if (length == -1) {
          values.add(null);
          continue;
        }
        if (length < -1) {
          throw bad("invalid field size");
        }
        if (pending.readableBytes() < length) {
          return null;
        }
        ByteBuf field = pending.readSlice(length);
        try {
          values.add(PgTypes.readBinary(field, oids[i]));
        } catch (IndexOutOfBoundsException e) {
          throw new AccelException(SqlState.INVALID_BINARY_REPRESENTATION, "insufficient data left in message");
        } catch (RuntimeException e) {
          // a value its type's binary form cannot hold (a malformed numeric, ...)
          throw new AccelException(SqlState.INVALID_BINARY_REPRESENTATION,
              "incorrect binary data format in field " + (i + 1));
        }
        if (field.isReadable()) {
          throw new AccelException(SqlState.INVALID_BINARY_REPRESENTATION,
              "incorrect binary data format in field " + (i + 1));
        }
      }
      return values;
    }

    /** CopyDone: the data must have ended with the trailer (or, as PostgreSQL accepts, at a tuple boundary). */
    void finish() {
      if (!trailerRead && (pending.isReadable() || !headerRead)) {
        throw bad(headerRead ? "unexpected EOF in COPY data" : "COPY file signature not recognized");
      }
    }

    private static AccelException bad(String message) {
      return new AccelException(SqlState.BAD_COPY_FILE_FORMAT, message);
    }

    @Override
    public void close() {
      pending.release();
    }
  }
}
