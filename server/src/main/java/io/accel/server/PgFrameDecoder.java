package io.accel.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream into protocol 3.0 messages. Before the startup message completes, messages have no
 * type byte (StartupMessage, SSLRequest, GSSENCRequest, CancelRequest); after it, a type byte and an int32
 * length that counts itself. A length out of bounds is a {@link Malformed} frame; the connection answers it
 * with an error and closes, since the stream can no longer be framed.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
  /** A typed message; {@code body} is released by whoever handles it. */
  record Frame(char type, ByteBuf body) {
  }

  /** An untyped startup-phase packet: its first int32 is the protocol code. */
  record Startup(ByteBuf body) {
  }

  /** A frame that cannot be read: the reason, as the error the client receives. */
  record Malformed(String sqlState, String message) {
  }

  static final int MAX_STARTUP = 10_000;

  private final int maxMessage;
  private boolean typed; // set by the connection's handler, on the loop thread that decodes
  private boolean broken;

  PgFrameDecoder(int maxMessage) {
    this.maxMessage = maxMessage;
  }

  /** After the startup message, frames carry a type byte. */
  void startupDone() {
    typed = true;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (broken) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (!typed) {
      if (in.readableBytes() < 4) {
        return;
      }
      int length = in.getInt(in.readerIndex());
      if (length < 8 || length > MAX_STARTUP) {
        broken = true;
        in.skipBytes(in.readableBytes());
        out.add(new Malformed("08P01", "invalid length of startup packet"));
        return;
      }
      if (in.readableBytes() < length) {
        return;
      }
      in.skipBytes(4);
      out.add(new Startup(in.readRetainedSlice(length - 4)));
      return;
    }
    while (in.readableBytes() >= 5) {
      int start = in.readerIndex();
      char type = (char) in.getUnsignedByte(start);
      long length = in.getUnsignedInt(start + 1);
      if (length < 4) {
        broken = true;
        in.skipBytes(in.readableBytes());
        out.add(new Malformed("08P01", "invalid message length"));
        return;
      }
      if (length > maxMessage) {
        broken = true;
        in.skipBytes(in.readableBytes());
        out.add(new Malformed("54000", "message of " + length + " bytes exceeds the server's maximum of "
            + maxMessage + " bytes (--max-message-size)"));
        return;
      }
      if (in.readableBytes() < 1 + length) {
        return;
      }
      in.skipBytes(5);
      out.add(new Frame(type, in.readRetainedSlice((int) length - 4)));
    }
  }
}
