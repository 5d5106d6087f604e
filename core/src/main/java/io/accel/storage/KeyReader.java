package io.accel.storage;

import java.util.Objects;

/**
 * A read cursor over an encoded key: {@link KeyCodec#read} and {@link KeyCodec#skip} consume one field
 * at a time from it, so the fields of a composite key are read in order.
 */
public final class KeyReader {

  final byte[] buf;
  int pos;

  public KeyReader(byte[] buf) {
    this(buf, 0);
  }

  public KeyReader(byte[] buf, int offset) {
    this.buf = Objects.requireNonNull(buf, "buf");
    if (offset < 0 || offset > buf.length) {
      throw new IndexOutOfBoundsException("offset " + offset + " outside a key of " + buf.length + " bytes");
    }
    this.pos = offset;
  }

  public int position() {
    return pos;
  }

  public boolean hasRemaining() {
    return pos < buf.length;
  }

  int get() {
    if (pos >= buf.length) {
      throw truncated();
    }
    return buf[pos++] & 0xFF;
  }

  int getInt() {
    if (buf.length - pos < 4) {
      throw truncated();
    }
    int v = (buf[pos] & 0xFF) << 24 | (buf[pos + 1] & 0xFF) << 16 | (buf[pos + 2] & 0xFF) << 8 | buf[pos + 3] & 0xFF;
    pos += 4;
    return v;
  }

  long getLong() {
    long hi = getInt();
    return hi << 32 | getInt() & 0xFFFFFFFFL;
  }

  void skipBytes(int n) {
    if (n > buf.length - pos) {
      throw truncated();
    }
    pos += n;
  }

  IllegalArgumentException truncated() {
    return new IllegalArgumentException("key of " + buf.length + " bytes ends in the middle of a field");
  }
}
