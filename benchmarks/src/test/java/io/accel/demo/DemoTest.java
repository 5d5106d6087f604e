package io.accel.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo run as its users run it, at a tiny size. */
class DemoTest {

  /** What one run printed and returned. */
  private record Run(int exitCode, String out, String err) {
  }

  private static Run demo(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
         PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Demo.run(args, o, e);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void runsAtATinySizeAndPrintsEverySection() {
    Run run = demo("--users", "200", "--orders", "2000", "--store", "jdbc:accel:mem:demo-test", "--repeat", "3");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    String out = run.out();
    assertThat(out).contains("200 users, 2,000 orders, seed 42; store jdbc:accel:mem:demo-test");
    assertThat(out).containsPattern("users\\s+\\|\\s+200 \\|");
    assertThat(out).containsPattern("orders\\s+\\|\\s+2,000 \\|");
    assertThat(out).contains("== S1: one user's SHIPPED orders");
    assertThat(out).contains("SELECT u.id, u.name, o.order_id, o.total FROM users u JOIN orders o ON u.id = o.user_id "
        + "WHERE u.email = ? AND o.status = 'SHIPPED'");
    assertThat(out).contains("Plan (EXPLAIN PLAN FOR, with 'user");
    // The physical plan names the scan of orders (an index or a full scan, as the planner chooses).
    assertThat(out).containsPattern("Enumerable\\w*Scan\\(table=\\[\\[public, orders\\]\\]");
    assertThat(out).contains("SHIPPED orders for this user: match").doesNotContain("MISMATCH");
    assertThat(out).contains("== S2:", "== Q3:", "== Q4:", "== Q5:");
    assertThat(out).containsPattern("status\\s+\\| orders");
    assertThat(out).contains("row count: 5"); // Q3: the five statuses
    assertThat(out).contains("first execution:");
    assertThat(out).contains("median of 3 executions of the prepared statement");
    assertThat(out).contains("Demo finished in");
  }

  @Test
  void aFileStoreIsRefusedASecondLoadUnlessReplace(@TempDir Path dir) {
    String url = "jdbc:accel:file:" + dir.resolve("store");
    Run first = demo("--users", "50", "--orders", "300", "--store", url, "--repeat", "1");
    assertThat(first.exitCode()).as(first.err()).isZero();

    Run again = demo("--users", "50", "--orders", "300", "--store", url, "--repeat", "1");
    assertThat(again.exitCode()).isNotZero();
    assertThat(again.err()).contains("accel-demo: FAILED").contains("--replace");

    Run replaced = demo("--users", "50", "--orders", "300", "--store", url, "--repeat", "1", "--replace");
    assertThat(replaced.exitCode()).as(replaced.err()).isZero();
    assertThat(replaced.out()).contains("dropped any existing users and orders tables");
  }

  @Test
  void badArgumentsExitNonZeroWithAMessage() {
    Run run = demo("--users", "0");
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("--users must be >= 1");

    Run notAccel = demo("--store", "jdbc:postgresql://localhost/x");
    assertThat(notAccel.exitCode()).isNotZero();
    assertThat(notAccel.err()).contains("--store must be an Accel URL");
  }

  @Test
  void inlinesParametersAsLiterals() {
    assertThat(SqlText.inline("SELECT '?' FROM t WHERE a = ? AND b >= ? -- ?\n AND c = ?", "it's",
        LocalDateTime.of(2024, 9, 1, 0, 0), 7))
        .isEqualTo("SELECT '?' FROM t WHERE a = 'it''s' AND b >= TIMESTAMP '2024-09-01 00:00:00' -- ?\n AND c = 7");
    assertThatThrownBy(() -> SqlText.inline("SELECT ?")).isInstanceOf(IllegalArgumentException.class);
  }
}
