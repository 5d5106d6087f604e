package io.accel.e2e.slt;

import io.accel.e2e.Services;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A tool for writing scripts: runs each given {@code .test} file against PostgreSQL (as
 * {@link SqlLogicTestOnPostgres} does, engine name {@code postgresql}) and rewrites the expected values
 * of every query it runs with what PostgreSQL returned, one row per line, values separated by a space
 * (or a hash line past {@code hash-threshold}). Records skipped for PostgreSQL are left as they are;
 * statements whose outcome differs from the script and queries that fail are reported on stderr and
 * left unchanged. Review the diff before keeping it.
 *
 * <pre>java -cp ... io.accel.e2e.slt.SltCompleter src/test/resources/slt/joins.test ...</pre>
 */
public final class SltCompleter {
  private SltCompleter() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: SltCompleter FILE.test ...");
      System.exit(2);
    }
    int problems = 0;
    for (String arg : args) {
      problems += complete(Paths.get(arg));
    }
    System.err.println(problems == 0 ? "completed without problems" : problems + " problem(s)");
    System.exit(problems == 0 ? 0 : 1);
  }

  private record Replacement(int from, int to, boolean addSeparator, List<String> lines) {
  }

  static int complete(Path file) throws Exception {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String name = "slt/" + file.getFileName();
    SltScript script = SltParser.parse(name, text);
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
    List<Replacement> replacements = new ArrayList<>();
    int problems = 0;
    try (Connection c = Services.postgres()) {
      String schema = SqlLogicTestOnPostgres.openSchema(c, file);
      try {
        JdbcSltConnection conn = new JdbcSltConnection(c, 60);
        SltRunner runner = new SltRunner(conn, SqlLogicTestOnPostgres.ENGINE);
        int threshold = 0;
        for (SltRecord r : script.records()) {
          if (!r.appliesTo(SqlLogicTestOnPostgres.ENGINE)) {
            continue;
          }
          if (r instanceof SltRecord.Halt) {
            break;
          } else if (r instanceof SltRecord.HashThreshold h) {
            threshold = h.threshold();
          } else if (r instanceof SltRecord.Statement s) {
            SltMismatch m = runner.runStatement(name, s);
            if (m != null) {
              System.err.println(m.describe());
              problems++;
            }
          } else if (r instanceof SltRecord.Query q) {
            SltConnection.QueryResult result;
            try {
              result = conn.query(q.sql());
            } catch (SQLException e) {
              System.err.println(name + ":" + q.line() + ": query failed: " + SltRunner.describe(e) + "\n  SQL: " + q.sql());
              problems++;
              continue;
            }
            if (result.columnCount() != q.types().length()) {
              System.err.println(name + ":" + q.line() + ": query returned " + result.columnCount()
                  + " columns, type string is " + q.types());
              problems++;
              continue;
            }
            List<String> out = SltRunner.actualLines(result, q, threshold);
            if (!q.hasSeparator() && out.isEmpty()) {
              continue;
            }
            replacements.add(new Replacement(q.resultsLine(), q.endLine(), !q.hasSeparator(), out));
          }
        }
      } finally {
        SqlLogicTestOnPostgres.dropSchema(c, schema);
      }
    }
    for (int i = replacements.size() - 1; i >= 0; i--) {
      Replacement rep = replacements.get(i);
      List<String> region = lines.subList(rep.from(), rep.to());
      region.clear();
      List<String> add = new ArrayList<>();
      if (rep.addSeparator()) {
        add.add("----");
      }
      add.addAll(rep.lines());
      region.addAll(add);
    }
    Files.writeString(file, String.join("\n", lines), StandardCharsets.UTF_8);
    System.err.println(name + ": " + replacements.size() + " query result(s) written, " + problems + " problem(s)");
    return problems;
  }
}
