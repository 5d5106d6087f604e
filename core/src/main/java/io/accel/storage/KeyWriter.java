package io.accel.storage;

import java.util.Arrays;
import java.util.Objects;

/**
 * A growable byte buffer that keys and rows are built in. One writer can be {@link #reset() reset} and
 * reused for many keys to avoid reallocating.
 */
public final class KeyWriter {

  private byte[] buf;
  private int length;

  public KeyWriter() {
    this(32);
  }

  public KeyWriter(int initialCapacity) {
    if (initialCapacity < 0) {
      throw new IllegalArgumentException("negative capacity " + initialCapacity);
    }
    buf = new byte[Math.max(initialCapacity, 8)];
  }

  public void put(byte b) {
    if (length == buf.length) {
      grow(1);
    }
    buf[length++] = b;
  }

  public void put(byte[] src, int off, int len) {
    Objects.checkFromIndexSize(off, len, src.length);
    if (len > buf.length - length) {
      grow(len);
    }
    System.arraycopy(src, off, buf, length, len);
    length += len;
  }

  /** A copy of the bytes written since construction or the last {@link #reset()}. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, length);
  }

  /** The buffer itself (its first {@link #length()} bytes are those written), for reading without a copy. */
  public byte[] buffer() {
    return buf;
  }

  public int length() {
    return length;
  }

  public void reset() {
    length = 0;
  }

  void putInt(int v) {
    if (buf.length - length < 4) {
      grow(4);
    }
    buf[length] = (byte) (v >>> 24);
    buf[length + 1] = (byte) (v >>> 16);
    buf[length + 2] = (byte) (v >>> 8);
    buf[length + 3] = (byte) v;
    length += 4;
  }

  void putLong(long v) {
    putInt((int) (v >>> 32));
    putInt((int) v);
  }

  private void grow(int extra) {
    long needed = (long) length + extra;
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("key buffer would exceed the maximum array size");
    }
    int capacity = (int) Math.max(needed, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 8));
    buf = Arrays.copyOf(buf, capacity);
  }
}
