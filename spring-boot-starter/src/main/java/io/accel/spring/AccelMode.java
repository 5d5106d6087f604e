package io.accel.spring;

/** How the application's {@code jdbc:accel:} URL uses Accel. */
public enum AccelMode {
  /** {@code jdbc:accel:mem:} or {@code jdbc:accel:file:}: Accel is the database. */
  STANDALONE,
  /** {@code jdbc:accel:postgresql:}: a local mirror in front of a PostgreSQL. */
  FRONTING;

  static AccelMode of(String url) {
    return url != null && url.startsWith("jdbc:accel:postgresql:") ? FRONTING : STANDALONE;
  }
}
