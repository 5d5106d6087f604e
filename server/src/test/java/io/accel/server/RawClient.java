package io.accel.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A protocol 3.0 client at the byte level, to send what real drivers never would. */
final class RawClient implements AutoCloseable {
  record Message(char type, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** An ErrorResponse field ('C' for the SQLSTATE, 'M' for the message). */
    String field(char code) {
      int i = 0;
      while (i < body.length && body[i] != 0) {
        int end = i + 1;
        while (body[end] != 0) {
          end++;
        }
        if (body[i] == code) {
          return new String(body, i + 1, end - i - 1, StandardCharsets.UTF_8);
        }
        i = end + 1;
      }
      return null;
    }
  }

  final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;

  RawClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(20_000);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
  }

  static byte[] startup(String user) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    writeInt(b, 0);
    writeInt(b, 196608);
    cstring(b, "user");
    cstring(b, user);
    cstring(b, "database");
    cstring(b, "test");
    b.write(0);
    byte[] bytes = b.toByteArray();
    ByteBuffer.wrap(bytes).putInt(0, bytes.length);
    return bytes;
  }

  /** Startup with trust authentication; reads up to the first ReadyForQuery. */
  List<Message> login(String user) throws IOException {
    send(startup(user));
    return readUntilReady();
  }

  static byte[] message(char type, byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(5 + body.length);
    b.put((byte) type).putInt(4 + body.length).put(body);
    return b.array();
  }

  static byte[] query(String sql) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, sql);
    return message('Q', b.toByteArray());
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  Message read() throws IOException {
    char type = (char) in.readUnsignedByte();
    int length = in.readInt();
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return new Message(type, body);
  }

  /** Messages up to and including ReadyForQuery; an ErrorResponse FATAL followed by EOF ends the list too. */
  List<Message> readUntilReady() throws IOException {
    List<Message> all = new ArrayList<>();
    while (true) {
      Message m;
      try {
        m = read();
      } catch (EOFException e) {
        return all;
      }
      all.add(m);
      if (m.type() == 'Z') {
        return all;
      }
    }
  }

  static void cstring(ByteArrayOutputStream b, String s) {
    b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    b.write(0);
  }

  static void writeInt(ByteArrayOutputStream b, int v) {
    b.write(v >>> 24);
    b.write(v >>> 16);
    b.write(v >>> 8);
    b.write(v);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
