package io.accel.server;

import com.ongres.scram.common.ScramFunctions;
import com.ongres.scram.common.ScramMechanism;
import com.ongres.scram.common.StringPreparation;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A password as PostgreSQL stores it for SCRAM-SHA-256 ({@code SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey},
 * RFC 5802): enough to check a SCRAM proof or a cleartext password, never the password itself.
 */
record ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
  static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_256;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The verifier of a password, with a fresh salt and PostgreSQL's default of 4096 iterations. */
  static ScramVerifier of(String password) {
    byte[] salt = ScramFunctions.salt(16, RANDOM);
    byte[] salted = ScramFunctions.saltedPassword(MECHANISM, StringPreparation.POSTGRESQL_PREPARATION,
        password.toCharArray(), salt, 4096);
    return new ScramVerifier(4096, salt, ScramFunctions.storedKey(MECHANISM, ScramFunctions.clientKey(MECHANISM, salted)),
        ScramFunctions.serverKey(MECHANISM, salted));
  }

  /** Parses PostgreSQL's text form; IllegalArgumentException when it is not one. */
  static ScramVerifier parse(String text) {
    String prefix = "SCRAM-SHA-256$";
    if (!text.startsWith(prefix)) {
      throw new IllegalArgumentException("not a SCRAM-SHA-256 verifier (it starts with SCRAM-SHA-256$)");
    }
    String[] parts = text.substring(prefix.length()).split("\\$");
    if (parts.length != 2) {
      throw new IllegalArgumentException("a SCRAM-SHA-256 verifier is SCRAM-SHA-256$iterations:salt$storedKey:serverKey");
    }
    String[] iterSalt = parts[0].split(":");
    String[] keys = parts[1].split(":");
    if (iterSalt.length != 2 || keys.length != 2) {
      throw new IllegalArgumentException("a SCRAM-SHA-256 verifier is SCRAM-SHA-256$iterations:salt$storedKey:serverKey");
    }
    Base64.Decoder b64 = Base64.getDecoder();
    return new ScramVerifier(Integer.parseInt(iterSalt[0]), b64.decode(iterSalt[1]), b64.decode(keys[0]),
        b64.decode(keys[1]));
  }

  @Override
  public String toString() {
    Base64.Encoder b64 = Base64.getEncoder();
    return "SCRAM-SHA-256$" + iterations + ":" + b64.encodeToString(salt) + "$" + b64.encodeToString(storedKey) + ":"
        + b64.encodeToString(serverKey);
  }

  /** Whether a cleartext password is the one this verifier was made from. */
  boolean matches(String password) {
    byte[] salted = ScramFunctions.saltedPassword(MECHANISM, StringPreparation.POSTGRESQL_PREPARATION,
        password.toCharArray(), salt, iterations);
    byte[] stored = ScramFunctions.storedKey(MECHANISM, ScramFunctions.clientKey(MECHANISM, salted));
    return MessageDigest.isEqual(stored, storedKey);
  }
}
