package io.accel.plan;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.calcite.avatica.util.ByteString;

/**
 * PostgreSQL's {@code encode} / {@code decode}, pgcrypto's {@code digest}, {@code hmac} and {@code gen_random_bytes},
 * and uuid-ossp's generators and namespaces, over Calcite's {@code ByteString} (bytea) and {@code UUID}.
 */
public final class ByteFunctions {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ByteFunctions() {
  }

  /** {@code encode(bytea, 'hex' | 'base64' | 'escape')}; base64 broken into lines of 76 characters, as PostgreSQL. */
  public static String encode(ByteString data, String format) {
    byte[] b = data.getBytes();
    return switch (format.toLowerCase(Locale.ROOT)) {
      case "hex" -> HexFormat.of().formatHex(b);
      case "base64" -> Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(b);
      case "escape" -> {
        StringBuilder out = new StringBuilder();
        for (byte x : b) {
          int v = x & 0xff;
          if (v == '\\') {
            out.append("\\\\");
          } else if (v == 0 || v >= 0x80) {
            out.append('\\').append(String.format(Locale.ROOT, "%03o", v));
          } else {
            out.append((char) v);
          }
        }
        yield out.toString();
      }
      default -> throw unknownEncoding(format);
    };
  }

  /** {@code decode(text, 'hex' | 'base64' | 'escape')}. */
  public static ByteString decode(String text, String format) {
    try {
      return new ByteString(switch (format.toLowerCase(Locale.ROOT)) {
        case "hex" -> HexFormat.of().parseHex(text.replaceAll("\\s", ""));
        case "base64" -> Base64.getMimeDecoder().decode(text);
        case "escape" -> unescape(text);
        default -> throw unknownEncoding(format);
      });
    } catch (IllegalArgumentException e) {
      throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid " + format.toLowerCase(Locale.ROOT)
          + " data: " + e.getMessage());
    }
  }

  private static byte[] unescape(String text) {
    ByteBuffer out = ByteBuffer.allocate(text.length() * 3);
    byte[] in = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < in.length; i++) {
      if (in[i] != '\\') {
        out.put(in[i]);
      } else if (i + 1 < in.length && in[i + 1] == '\\') {
        out.put((byte) '\\');
        i++;
      } else if (i + 3 < in.length && isOctal(in[i + 1]) && isOctal(in[i + 2]) && isOctal(in[i + 3])) {
        out.put((byte) Integer.parseInt(new String(in, i + 1, 3, StandardCharsets.US_ASCII), 8));
        i += 3;
      } else {
        throw new IllegalArgumentException("invalid escape sequence");
      }
    }
    byte[] b = new byte[out.position()];
    out.flip().get(b);
    return b;
  }

  private static boolean isOctal(byte b) {
    return b >= '0' && b <= '7';
  }

  private static AccelException unknownEncoding(String format) {
    return new AccelException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized encoding: \"" + format + "\"");
  }

  /** pgcrypto's {@code digest(data, 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512')}. */
  public static ByteString digest(ByteString data, String type) {
    return new ByteString(messageDigest(type).digest(data.getBytes()));
  }

  /** {@code digest(text, type)}: the text's UTF-8 bytes. */
  public static ByteString digestText(String data, String type) {
    return new ByteString(messageDigest(type).digest(data.getBytes(StandardCharsets.UTF_8)));
  }

  public static ByteString sha224(ByteString data) {
    return digest(data, "sha224");
  }

  public static ByteString sha256(ByteString data) {
    return digest(data, "sha256");
  }

  public static ByteString sha384(ByteString data) {
    return digest(data, "sha384");
  }

  public static ByteString sha512(ByteString data) {
    return digest(data, "sha512");
  }

  /** pgcrypto's {@code hmac(data, key, type)}. */
  public static ByteString hmac(ByteString data, ByteString key, String type) {
    return new ByteString(mac(type, key.getBytes()).doFinal(data.getBytes()));
  }

  /** {@code hmac(text, text, type)}. */
  public static ByteString hmacText(String data, String key, String type) {
    return new ByteString(mac(type, key.getBytes(StandardCharsets.UTF_8))
        .doFinal(data.getBytes(StandardCharsets.UTF_8)));
  }

  /** pgcrypto's {@code gen_random_bytes(n)}, 1 to 1024 bytes from a cryptographic generator. */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static ByteString randomBytes(int count) {
    if (count < 1 || count > 1024) {
      throw new AccelException(SqlState.EXTERNAL_ROUTINE_INVOCATION_EXCEPTION, "Length not in range");
    }
    byte[] b = new byte[count];
    RANDOM.nextBytes(b);
    return new ByteString(b);
  }

  private static String algorithm(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "md5" -> "MD5";
      case "sha1" -> "SHA-1";
      case "sha224" -> "SHA-224";
      case "sha256" -> "SHA-256";
      case "sha384" -> "SHA-384";
      case "sha512" -> "SHA-512";
      default -> throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "Cannot use \"" + type
          + "\": No such hash algorithm");
    };
  }

  private static MessageDigest messageDigest(String type) {
    try {
      return MessageDigest.getInstance(algorithm(type));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Mac mac(String type, byte[] key) {
    String name = "Hmac" + algorithm(type).replace("-", "");
    try {
      Mac mac = Mac.getInstance(name);
      mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, name));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- uuid-ossp

  /** {@code uuid_generate_v4()}: a random UUID ({@code site} numbers the call, as for gen_random_uuid). */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static UUID uuidV4(int site) {
    return UUID.randomUUID();
  }

  /**
   * {@code uuid_generate_v1()} / {@code uuid_generate_v1mc()}: a time-based UUID (100 ns intervals since 1582-10-15)
   * with a random clock sequence and a random multicast node, as v1mc makes it.
   */
  @org.apache.calcite.linq4j.function.NonDeterministic
  public static UUID uuidV1(int site) {
    long time = System.currentTimeMillis() * 10_000 + 0x01B21DD213814000L + (System.nanoTime() / 100) % 10_000;
    long msb = (time << 32) | ((time >>> 16) & 0xFFFF0000L) | 0x1000L | ((time >>> 48) & 0x0FFFL);
    long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L | 0x0000010000000000L;
    return new UUID(msb, lsb);
  }

  /** {@code uuid_nil()}. */
  public static UUID uuidNil() {
    return new UUID(0, 0);
  }

  public static UUID uuidNsDns() {
    return UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  }

  public static UUID uuidNsUrl() {
    return UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");
  }

  public static UUID uuidNsOid() {
    return UUID.fromString("6ba7b812-9dad-11d1-80b4-00c04fd430c8");
  }

  public static UUID uuidNsX500() {
    return UUID.fromString("6ba7b814-9dad-11d1-80b4-00c04fd430c8");
  }

  /** {@code uuid_generate_v3(namespace, name)}: MD5 of the namespace's bytes and the name's. */
  public static UUID uuidV3(UUID namespace, String name) {
    return named(namespace, name, "MD5", 3);
  }

  /** {@code uuid_generate_v5(namespace, name)}: SHA-1 of the namespace's bytes and the name's. */
  public static UUID uuidV5(UUID namespace, String name) {
    return named(namespace, name, "SHA-1", 5);
  }

  private static UUID named(UUID namespace, String name, String algorithm, int version) {
    try {
      MessageDigest md = MessageDigest.getInstance(algorithm);
      md.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits())
          .putLong(namespace.getLeastSignificantBits()).array());
      byte[] h = md.digest(name.getBytes(StandardCharsets.UTF_8));
      h[6] = (byte) ((h[6] & 0x0f) | (version << 4));
      h[8] = (byte) ((h[8] & 0x3f) | 0x80);
      ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
      return new UUID(b.getLong(), b.getLong());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
