package io.accel.e2e.diff;

import io.accel.e2e.Services;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs a SQL script on a fresh Accel store and on PostgreSQL and prints every statement whose outcome differs:
 * the tool for cutting a discrepancy down to a minimal case.
 *
 * <p>Usage: {@code java -cp <test classpath> io.accel.e2e.diff.DiffCheck script.sql} (or {@code -} for stdin).
 * Statements end with ';' at the end of a line; lines starting with '--' are comments. A statement starting with
 * SELECT, WITH, VALUES or '(' is compared as a query (as a multiset, or in order when it has a top-level ORDER BY);
 * anything else as an update (update count and error class). Add {@code -v} to print every outcome,
 * {@code -trace} for Accel's stack traces, {@code -tsv} for one machine-readable RESULT line per statement.
 */
public final class DiffCheck {
  private DiffCheck() {
  }

  public static void main(String[] args) throws Exception {
    boolean verbose = List.of(args).contains("-v");
    boolean trace = List.of(args).contains("-trace");
    boolean tsv = List.of(args).contains("-tsv");
    String file = List.of(args).stream().filter(a -> !a.startsWith("-") || a.equals("-")).findFirst().orElse("-");
    String script = file.equals("-") ? new String(System.in.readAllBytes()) : Files.readString(Path.of(file));
    List<String> stmts = split(script);
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    int differing = 0;
    String pgSchema = "diff_check_" + ProcessHandle.current().pid();
    try (Connection pg = DriverManager.getConnection(Services.POSTGRES_URL, p);
         Connection accel = DriverManager.getConnection("jdbc:accel:mem:diff_check_" + ProcessHandle.current().pid())) {
      try (Statement st = pg.createStatement()) {
        st.execute("DROP SCHEMA IF EXISTS " + pgSchema + " CASCADE");
        st.execute("CREATE SCHEMA " + pgSchema);
        st.execute("SET search_path TO " + pgSchema);
      }
      DiffRunner helper = new DiffRunner(0, Features.all(), pg, accel, false);
      try {
        for (String sql : stmts) {
          String head = sql.stripLeading().toUpperCase();
          boolean query = head.startsWith("SELECT") || head.startsWith("WITH") || head.startsWith("VALUES")
              || head.startsWith("(");
          DiffRunner.Outcome o1 = helper.execute(pg, sql, query, true);
          DiffRunner.Outcome o2 = helper.execute(accel, sql, query, false);
          String diff = helper.compare(o1, o2, query && hasTopLevelOrderBy(sql));
          if (diff != null) {
            differing++;
          }
          if (tsv) {
            System.out.println("RESULT\t" + (diff != null ? 1 : 0) + "\t" + (o1.failed() ? "err" : "ok") + "\t"
                + (o2.failed() ? DiffRunner.firstLine(o2.error().getMessage()).replace('\t', ' ') : "ok"));
            continue;
          }
          if (diff != null || verbose) {
            System.out.println((diff != null ? "DIFFERS: " : "same:    ") + sql);
            System.out.println("  PostgreSQL: " + show(o1));
            System.out.println("  Accel:      " + show(o2));
            if (diff != null) {
              System.out.println("  " + diff);
            }
            if (trace && o2.failed()) {
              o2.error().printStackTrace(System.out);
            }
          }
        }
      } finally {
        try (Statement st = pg.createStatement()) {
          st.execute("DROP SCHEMA IF EXISTS " + pgSchema + " CASCADE");
        }
      }
    }
    System.out.println(differing + " of " + stmts.size() + " statements differ");
  }

  private static String show(DiffRunner.Outcome o) {
    if (o.failed() || o.rows() == null) {
      return o.describe();
    }
    StringBuilder sb = new StringBuilder(o.rows().size() + " rows");
    o.rows().stream().limit(8).forEach(r -> sb.append(' ').append(Results.show(r)));
    return sb.append(o.rows().size() > 8 ? " ..." : "").toString();
  }

  static boolean hasTopLevelOrderBy(String sql) {
    int depth = 0;
    String up = sql.toUpperCase();
    boolean inString = false;
    for (int i = 0; i < up.length(); i++) {
      char ch = up.charAt(i);
      if (ch == '\'') {
        inString = !inString;
      } else if (!inString && ch == '(') {
        depth++;
      } else if (!inString && ch == ')') {
        depth--;
      } else if (!inString && depth == 0 && up.startsWith("ORDER BY", i)) {
        return true;
      }
    }
    return false;
  }

  static List<String> split(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : script.split("\n")) {
      if (line.stripLeading().startsWith("--")) {
        continue;
      }
      cur.append(line).append('\n');
      if (line.stripTrailing().endsWith(";")) {
        String s = cur.toString().strip();
        out.add(s.substring(0, s.length() - 1).strip());
        cur.setLength(0);
      }
    }
    if (!cur.toString().isBlank()) {
      out.add(cur.toString().strip());
    }
    return out;
  }
}
