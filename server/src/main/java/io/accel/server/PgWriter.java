package io.accel.server;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** Backend messages of protocol 3.0 appended to a buffer: a type byte, an int32 length, the body. */
final class PgWriter {
  private PgWriter() {
  }

  /** Starts a message; {@link #end} fills in its length. Returns the length field's index. */
  static int begin(ByteBuf out, char type) {
    out.writeByte(type);
    int at = out.writerIndex();
    out.writeInt(0);
    return at;
  }

  static void end(ByteBuf out, int lengthAt) {
    out.setInt(lengthAt, out.writerIndex() - lengthAt);
  }

  static void cstring(ByteBuf out, String s) {
    out.writeCharSequence(s, StandardCharsets.UTF_8);
    out.writeByte(0);
  }

  static void authenticationOk(ByteBuf out) {
    int at = begin(out, 'R');
    out.writeInt(0);
    end(out, at);
  }

  static void authenticationCleartext(ByteBuf out) {
    int at = begin(out, 'R');
    out.writeInt(3);
    end(out, at);
  }

  static void authenticationSasl(ByteBuf out, String mechanism) {
    int at = begin(out, 'R');
    out.writeInt(10);
    cstring(out, mechanism);
    out.writeByte(0);
    end(out, at);
  }

  static void authenticationSaslContinue(ByteBuf out, int code, String data) {
    int at = begin(out, 'R');
    out.writeInt(code);
    out.writeCharSequence(data, StandardCharsets.UTF_8);
    end(out, at);
  }

  static void parameterStatus(ByteBuf out, String name, String value) {
    int at = begin(out, 'S');
    cstring(out, name);
    cstring(out, value);
    end(out, at);
  }

  static void backendKeyData(ByteBuf out, int pid, int secret) {
    int at = begin(out, 'K');
    out.writeInt(pid);
    out.writeInt(secret);
    end(out, at);
  }

  static void readyForQuery(ByteBuf out, char status) {
    int at = begin(out, 'Z');
    out.writeByte(status);
    end(out, at);
  }

  static void commandComplete(ByteBuf out, String tag) {
    int at = begin(out, 'C');
    cstring(out, tag);
    end(out, at);
  }

  static void simple(ByteBuf out, char type) {
    out.writeByte(type);
    out.writeInt(4);
  }

  /** ErrorResponse ('E') or NoticeResponse ('N') with PostgreSQL's fields. */
  static void error(ByteBuf out, char type, String severity, String code, String message, String detail,
      String hint, int position) {
    error(out, type, severity, code, message, detail, hint, position, null);
  }

  static void error(ByteBuf out, char type, String severity, String code, String message, String detail,
      String hint, int position, String context) {
    int at = begin(out, type);
    field(out, 'S', severity);
    field(out, 'V', severity);
    field(out, 'C', code);
    field(out, 'M', message);
    if (detail != null) {
      field(out, 'D', detail);
    }
    if (hint != null) {
      field(out, 'H', hint);
    }
    if (position > 0) {
      field(out, 'P', Integer.toString(position));
    }
    if (context != null) {
      field(out, 'W', context);
    }
    out.writeByte(0);
    end(out, at);
  }

  private static void field(ByteBuf out, char code, String value) {
    out.writeByte(code);
    cstring(out, value == null ? "" : value);
  }

  static void copyResponse(ByteBuf out, char type, boolean binary, int columns) {
    int at = begin(out, type);
    out.writeByte(binary ? 1 : 0);
    out.writeShort(columns);
    for (int i = 0; i < columns; i++) {
      out.writeShort(binary ? 1 : 0);
    }
    end(out, at);
  }
}
