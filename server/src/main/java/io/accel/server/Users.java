package io.accel.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users a server with password or SCRAM authentication accepts, each with a {@link ScramVerifier}. The
 * file has one {@code name:SCRAM-SHA-256$...} line per user ({@code #} comments, blank lines allowed), the
 * form {@code accel-server hash-password} prints and PostgreSQL's pg_authid.rolpassword holds.
 */
final class Users {
  private final Map<String, ScramVerifier> verifiers = new HashMap<>();

  static Users load(Path file) throws IOException {
    Users users = new Users();
    List<String> lines = Files.readAllLines(file);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(file + " line " + (i + 1) + ": expected name:SCRAM-SHA-256$...");
      }
      try {
        users.verifiers.put(line.substring(0, colon), ScramVerifier.parse(line.substring(colon + 1)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage()
            + " (plain passwords are not accepted: make a line with hash-password)", e);
      }
    }
    return users;
  }

  void add(String name, ScramVerifier verifier) {
    verifiers.put(name, verifier);
  }

  ScramVerifier find(String name) {
    return verifiers.get(name);
  }

  int size() {
    return verifiers.size();
  }
}
