package io.accel.server;

import com.ongres.scram.common.ScramFunctions;
import com.ongres.scram.common.ServerFirstMessage;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * One connection's authentication exchange, after its startup message: trust (none), a cleartext password,
 * or SCRAM-SHA-256 (RFC 5802/7677 without channel binding, as PostgreSQL does it), checked against the
 * user's {@link ScramVerifier}. Failures are 28P01 for a wrong password and 28000 otherwise, with
 * PostgreSQL's wording, and do not say whether the user exists.
 */
final class Authenticator {
  /** Thrown to end the connection with a FATAL error. */
  static final class Failure extends RuntimeException {
    final String sqlState;

    Failure(String sqlState, String message) {
      super(message, null, false, false);
      this.sqlState = sqlState;
    }
  }

  /** What the server sends next: a message to write, and whether authentication is complete. */
  interface Output {
    void cleartextRequest();

    void saslRequest(String mechanism);

    void saslContinue(int code, String data);
  }

  enum Mode { TRUST, PASSWORD, SCRAM_SHA_256 }

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Mode mode;
  private final Users users;
  private final String user;
  private final Output output;
  private int step;
  private ScramVerifier verifier;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;

  Authenticator(Mode mode, Users users, String user, Output output) {
    this.mode = mode;
    this.users = users;
    this.user = user;
    this.output = output;
  }

  /** Starts the exchange; true when no password is needed. */
  boolean start() {
    switch (mode) {
      case TRUST -> {
        return true;
      }
      case PASSWORD -> output.cleartextRequest();
      case SCRAM_SHA_256 -> output.saslRequest(ScramVerifier.MECHANISM.getName());
      default -> throw new IllegalStateException(mode.name());
    }
    return false;
  }

  /** Handles a PasswordMessage / SASLInitialResponse / SASLResponse body; true when authentication succeeded. */
  boolean respond(ByteBuf body) {
    verifier = users.find(user);
    if (mode == Mode.PASSWORD) {
      String password = PgConnection.cstring(body);
      if (verifier == null || !verifier.matches(password)) {
        throw failed();
      }
      return true;
    }
    if (step == 0) {
      String mechanism = PgConnection.cstring(body);
      if (!mechanism.equals(ScramVerifier.MECHANISM.getName())) {
        throw new Failure("28000", "client selected an invalid SASL authentication mechanism");
      }
      int length = body.readInt();
      if (length < 0 || length > body.readableBytes()) {
        throw new Failure("08P01", "malformed SCRAM message");
      }
      String clientFirst = body.readCharSequence(length, StandardCharsets.UTF_8).toString();
      // gs2-header (n or y, no channel binding; p=... asks for it), then n=user (libpq leaves it empty), r=nonce
      if (clientFirst.startsWith("p")) {
        throw new Failure("08P01", "channel binding is not supported: the server offers SCRAM-SHA-256 only");
      }
      int headerEnd = clientFirst.indexOf(',', clientFirst.indexOf(',') + 1);
      if (!(clientFirst.startsWith("n,") || clientFirst.startsWith("y,")) || headerEnd < 0) {
        throw new Failure("08P01", "malformed SCRAM message: bad GS2 header");
      }
      clientFirstBare = clientFirst.substring(headerEnd + 1);
      String clientNonce = null;
      for (String attribute : clientFirstBare.split(",")) {
        if (attribute.startsWith("r=")) {
          clientNonce = attribute.substring(2);
        }
      }
      if (clientNonce == null || clientNonce.isEmpty()) {
        throw new Failure("08P01", "malformed SCRAM message: no nonce");
      }
      // an unknown user gets a made-up salt, so the exchange looks the same and fails at the proof
      ScramVerifier v = verifier != null ? verifier : ScramVerifier.of(ScramFunctions.nonce(24, RANDOM));
      String serverNonce = ScramFunctions.nonce(24, RANDOM);
      ServerFirstMessage sfm = new ServerFirstMessage(clientNonce, serverNonce,
          Base64.getEncoder().encodeToString(v.salt()), v.iterations());
      nonce = sfm.getNonce();
      serverFirst = sfm.toString();
      step = 1;
      output.saslContinue(11, serverFirst);
      return false;
    }
    if (step != 1) {
      throw new Failure("08P01", "unexpected SASL message");
    }
    String clientFinal = body.readCharSequence(body.readableBytes(), StandardCharsets.UTF_8).toString();
    int p = clientFinal.lastIndexOf(",p=");
    if (p < 0) {
      throw new Failure("08P01", "malformed SCRAM message: no proof");
    }
    String withoutProof = clientFinal.substring(0, p);
    String receivedNonce = null;
    for (String attribute : withoutProof.split(",")) {
      if (attribute.startsWith("r=")) {
        receivedNonce = attribute.substring(2);
      }
    }
    if (!nonce.equals(receivedNonce)) {
      throw new Failure("08P01", "SCRAM nonce mismatch");
    }
    byte[] proof;
    try {
      proof = Base64.getDecoder().decode(clientFinal.substring(p + 3));
    } catch (IllegalArgumentException e) {
      throw new Failure("08P01", "malformed SCRAM message: bad proof");
    }
    String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    if (verifier == null || proof.length != verifier.storedKey().length
        || !ScramFunctions.verifyClientProof(ScramVerifier.MECHANISM, proof, verifier.storedKey(), authMessage)) {
      throw failed();
    }
    byte[] signature = ScramFunctions.serverSignature(ScramVerifier.MECHANISM, verifier.serverKey(), authMessage);
    output.saslContinue(12, "v=" + Base64.getEncoder().encodeToString(signature));
    step = 2;
    return true;
  }

  private Failure failed() {
    return new Failure("28P01", "password authentication failed for user \"" + user + "\"");
  }
}
