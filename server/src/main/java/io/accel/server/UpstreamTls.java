package io.accel.server;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.util.Locale;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * How the server's upstream links use TLS: libpq's and pgJDBC's {@code sslmode} (default prefer) with the CA of
 * {@code sslrootcert} (a PEM file, by default {@code ~/.postgresql/root.crt}, as pgJDBC's), read from the {@code --upstream} properties that the mirror's pgJDBC and
 * Debezium connections get too. Verification is pgJDBC's: require checks nothing, verify-ca the chain,
 * verify-full the chain and the host name.
 */
record UpstreamTls(Mode mode, SSLContext context) {

  /** libpq's sslmode values. */
  enum Mode {
    /** Plain TCP only. */
    DISABLE,
    /** Plain first; TLS when the upstream refuses a plain connection. */
    ALLOW,
    /** TLS when the upstream offers it, plain otherwise. */
    PREFER,
    /** TLS or no connection; the certificate is not checked. */
    REQUIRE,
    /** TLS with a certificate signed by the trusted CA. */
    VERIFY_CA,
    /** As verify-ca, and the certificate names the host connected to. */
    VERIFY_FULL;

    boolean required() {
      return compareTo(REQUIRE) >= 0;
    }

    boolean verifies() {
      return compareTo(VERIFY_CA) >= 0;
    }
  }

  /** The settings in {@code pg} (pgJDBC's names); a bad mode or an unreadable CA file fails here, at startup. */
  static UpstreamTls of(Properties pg) {
    String text = pg.getProperty("sslmode");
    if (text == null) {
      text = Boolean.parseBoolean(pg.getProperty("ssl", "false")) ? "verify-full" : "prefer"; // pgJDBC's reading
    }
    Mode mode = switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "disable" -> Mode.DISABLE;
      case "allow" -> Mode.ALLOW;
      case "prefer" -> Mode.PREFER;
      case "require" -> Mode.REQUIRE;
      case "verify-ca" -> Mode.VERIFY_CA;
      case "verify-full" -> Mode.VERIFY_FULL;
      default -> throw new IllegalArgumentException("invalid sslmode \"" + text
          + "\": expected disable, allow, prefer, require, verify-ca or verify-full");
    };
    if (mode == Mode.DISABLE) {
      return new UpstreamTls(mode, null);
    }
    SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
    if (!mode.verifies()) {
      builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
    } else {
      String root = pg.getProperty("sslrootcert");
      if (root == null) {
        root = System.getProperty("user.home") + File.separator + ".postgresql" + File.separator + "root.crt";
      }
      if (!new File(root).canRead()) {
        throw new IllegalArgumentException("root certificate file \"" + root + "\" does not exist or cannot be"
            + " read: sslmode " + text + " needs the upstream's CA (sslrootcert)");
      }
      builder.trustManager(new File(root));
    }
    try {
      return new UpstreamTls(mode, ((JdkSslContext) builder.build()).context());
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot use the upstream's TLS settings: " + e.getMessage(), e);
    }
  }
}
