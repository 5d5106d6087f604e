package io.accel.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs a PostgreSQL client program of this machine (psql, pgbench) and collects what it printed. */
final class Psql {
  record Run(int exit, String out, String err) {
  }

  private Psql() {
  }

  /** The directory of Debian's PostgreSQL client programs, or a skip (a failure where CI requires services). */
  static Path bin(String program) {
    for (String dir : List.of("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin",
        "/usr/bin")) {
      Path p = Path.of(dir, program);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    String message = program + " is not installed (Debian's postgresql-client has it)";
    if (System.getenv("ACCEL_REQUIRE_SERVICES") != null) {
      throw new IllegalStateException(message);
    }
    Assumptions.abort(message);
    return null;
  }

  static Run run(Map<String, String> env, String stdin, String program, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(bin(program).toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("PGCONNECT_TIMEOUT", "10");
    pb.environment().remove("PGPASSWORD");
    pb.environment().putAll(env);
    Path out = Files.createTempFile("psql-out", ".txt");
    Path err = Files.createTempFile("psql-err", ".txt");
    pb.redirectOutput(out.toFile());
    pb.redirectError(err.toFile());
    Process p = pb.start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(program + " did not finish in 180 s: " + command);
    }
    Run r = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    Files.delete(out);
    Files.delete(err);
    return r;
  }

  /** psql -X (no psqlrc) -A -t (bare values) with the given connection string and extra arguments. */
  static Run psql(String conninfo, Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("-X", "-A", "-t", "-v", "VERBOSITY=verbose", "-d", conninfo));
    all.addAll(List.of(args));
    return run(env, null, "psql", all.toArray(String[]::new));
  }
}
