package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementsTest {
  @Test
  void splitsAtSemicolonsOutsideQuotesCommentsAndDollarQuotes() {
    assertThat(Statements.split("SELECT 1; SELECT 2")).containsExactly("SELECT 1", "SELECT 2");
    assertThat(Statements.split("SELECT 'a;b'; SELECT \"x;y\" FROM t")).containsExactly("SELECT 'a;b'",
        "SELECT \"x;y\" FROM t");
    assertThat(Statements.split("SELECT 'it''s; fine'")).containsExactly("SELECT 'it''s; fine'");
    assertThat(Statements.split("SELECT E'a\\';b'; SELECT 2")).containsExactly("SELECT E'a\\';b'", "SELECT 2");
    assertThat(Statements.split("SELECT $$a;b$$; SELECT $tag$ ; $$ ; $tag$")).containsExactly("SELECT $$a;b$$",
        "SELECT $tag$ ; $$ ; $tag$");
    assertThat(Statements.split("SELECT $1; SELECT 2")).containsExactly("SELECT $1", "SELECT 2");
    assertThat(Statements.split("-- c; d\nSELECT 1 /* x; /* nested; */ y; */;;  ; -- only a comment"))
        .containsExactly("-- c; d\nSELECT 1 /* x; /* nested; */ y; */");
    assertThat(Statements.split("  ;  ")).isEmpty();
    assertThat(Statements.split("SELECT 'unterminated; SELECT 2")).containsExactly("SELECT 'unterminated; SELECT 2");
  }
}
