package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.sql.LiteralNormalizer.Literal;
import io.accel.sql.LiteralNormalizer.LiteralKind;
import io.accel.sql.LiteralNormalizer.Normalized;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiteralNormalizerTest {

  private static Normalized normalize(String sql) {
    return LiteralNormalizer.normalize(sql).orElseThrow(() -> new AssertionError("not normalisable: " + sql));
  }

  /** The normalised text. */
  private static String n(String sql) {
    return normalize(sql).sql();
  }

  private static List<Object> values(String sql) {
    return normalize(sql).literals().stream().map(Literal::value).toList();
  }

  private static void unchanged(String sql) {
    Normalized n = normalize(sql);
    assertThat(n.sql()).as(sql).isEqualTo(sql);
    assertThat(n.literals()).as(sql).isEmpty();
  }

  @Test
  void comparisonOperandsBecomeParameters() {
    assertThat(n("SELECT * FROM t WHERE id = 42")).isEqualTo("SELECT * FROM t WHERE id = ?");
    assertThat(values("SELECT * FROM t WHERE id = 42")).containsExactly(new BigDecimal(42));
    assertThat(n("select a from t where a<>1 and b!=2 and c<3 and d<=4 and e>5 and f>=6"))
        .isEqualTo("select a from t where a<>? and b!=? and c<? and d<=? and e>? and f>=?");
    assertThat(n("SELECT a FROM t WHERE 5 < a OR (7 = b)")).isEqualTo("SELECT a FROM t WHERE ? < a OR (? = b)");
    assertThat(n("SELECT a FROM t WHERE NOT a = 'x' AND b > 1.5 ORDER BY a"))
        .isEqualTo("SELECT a FROM t WHERE NOT a = ? AND b > ? ORDER BY a");
    assertThat(n("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 10"))
        .isEqualTo("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > ?");
    assertThat(n("SELECT * FROM a JOIN b ON a.id = b.id AND b.k = 3 WHERE a.x = 1"))
        .isEqualTo("SELECT * FROM a JOIN b ON a.id = b.id AND b.k = ? WHERE a.x = ?");
    assertThat(n("UPDATE t SET a = 1, b = 'x' WHERE id = 7")).isEqualTo("UPDATE t SET a = ?, b = ? WHERE id = ?");
    // pgbench's TPC-B in simple mode: the delta is an operand after the column
    assertThat(n("UPDATE pgbench_accounts SET abalance = abalance + -3226 WHERE aid = 71339;"))
        .isEqualTo("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?;");
    assertThat(values("UPDATE pgbench_accounts SET abalance = abalance + -3226 WHERE aid = 71339;"))
        .containsExactly(new BigDecimal(-3226), new BigDecimal(71339));
    assertThat(n("UPDATE t SET a = a + 677 WHERE id = 7")).isEqualTo("UPDATE t SET a = a + ? WHERE id = ?");
    assertThat(n("UPDATE t SET a = a - 5, b = b * 2 WHERE id = 7")).isEqualTo("UPDATE t SET a = a - ?, b = b * ? WHERE id = ?");
    assertThat(values("UPDATE t SET a = a - 5 WHERE id = 7")).containsExactly(new BigDecimal(5), new BigDecimal(7));
    // not an operand after a column, or not the end of the assignment: kept
    assertThat(n("UPDATE t SET a = 2 * a WHERE id = 7")).isEqualTo("UPDATE t SET a = 2 * a WHERE id = ?");
    assertThat(n("UPDATE t SET a = a + 1 + b WHERE id = 7")).isEqualTo("UPDATE t SET a = a + 1 + b WHERE id = ?");
    assertThat(n("UPDATE t SET a = f(1) WHERE id = 7")).isEqualTo("UPDATE t SET a = f(1) WHERE id = ?");
    assertThat(n("UPDATE t SET a = b || 'x' WHERE id = 7")).isEqualTo("UPDATE t SET a = b || 'x' WHERE id = ?");
    assertThat(n("UPDATE t SET a = (a + 1) WHERE id = 7")).isEqualTo("UPDATE t SET a = (a + 1) WHERE id = ?");
    assertThat(n("DELETE FROM t WHERE id = 7")).isEqualTo("DELETE FROM t WHERE id = ?");
    assertThat(n("SELECT * FROM t WHERE CASE WHEN a = 1 THEN b ELSE c END = 2"))
        .isEqualTo("SELECT * FROM t WHERE CASE WHEN a = ? THEN b ELSE c END = ?");
  }

  @Test
  void literalKinds() {
    Normalized n = normalize("SELECT * FROM t WHERE a = 1 AND b = 1.50 AND c = 1e5 AND d = .5 AND e = 'it''s'"
        + " AND f = 2.5E-3 AND g = 12345678901234567890");
    assertThat(n.literals()).extracting(Literal::kind).containsExactly(LiteralKind.INTEGER, LiteralKind.DECIMAL,
        LiteralKind.APPROXIMATE, LiteralKind.DECIMAL, LiteralKind.STRING, LiteralKind.APPROXIMATE,
        LiteralKind.INTEGER);
    assertThat(n.literals()).extracting(Literal::value).containsExactly(new BigDecimal("1"),
        new BigDecimal("1.50"), new BigDecimal("1e5"), new BigDecimal(".5"), "it's", new BigDecimal("2.5E-3"),
        new BigDecimal("12345678901234567890"));
    assertThat(n.literals()).extracting(Literal::text).containsExactly("1", "1.50", "1e5", ".5", "'it''s'",
        "2.5E-3", "12345678901234567890");
  }

  @Test
  void negativeNumbersAfterOperators() {
    assertThat(n("SELECT * FROM t WHERE a = -5")).isEqualTo("SELECT * FROM t WHERE a = ?");
    assertThat(values("SELECT * FROM t WHERE a = -5")).containsExactly(new BigDecimal(-5));
    assertThat(n("SELECT * FROM t WHERE a>-5 AND b<-1.5")).isEqualTo("SELECT * FROM t WHERE a>? AND b<?");
    assertThat(values("SELECT * FROM t WHERE a>-5 AND b<-1.5"))
        .containsExactly(new BigDecimal(-5), new BigDecimal("-1.5"));
    assertThat(values("SELECT * FROM t WHERE a = +7")).containsExactly(new BigDecimal(7));
    assertThat(values("SELECT * FROM t WHERE a IN (-1, - 2)")).containsExactly(new BigDecimal(-1), new BigDecimal(-2));
    // binary minus is not a sign; the operands of arithmetic stay
    unchanged("SELECT * FROM t WHERE a - 5 = b");
    unchanged("SELECT * FROM t WHERE a = b - 5");
    unchanged("SELECT * FROM t WHERE a = 1 + 2");
    unchanged("SELECT * FROM t WHERE a * 2 > b");
  }

  @Test
  void inListsBetweenLike() {
    assertThat(n("SELECT * FROM t WHERE a IN (1, 2, 3) AND b NOT IN ('x', 'y')"))
        .isEqualTo("SELECT * FROM t WHERE a IN (?, ?, ?) AND b NOT IN (?, ?)");
    assertThat(n("SELECT * FROM t WHERE a IN (1, b, NULL)")).isEqualTo("SELECT * FROM t WHERE a IN (?, b, NULL)");
    assertThat(n("SELECT * FROM t WHERE a IN (SELECT 1 FROM u WHERE u.x = 2)"))
        .isEqualTo("SELECT * FROM t WHERE a IN (SELECT 1 FROM u WHERE u.x = ?)");
    assertThat(n("SELECT * FROM t WHERE a BETWEEN 1 AND 10 AND b = 2"))
        .isEqualTo("SELECT * FROM t WHERE a BETWEEN ? AND ? AND b = ?");
    assertThat(n("SELECT * FROM t WHERE a NOT BETWEEN SYMMETRIC -1 AND 1"))
        .isEqualTo("SELECT * FROM t WHERE a NOT BETWEEN SYMMETRIC ? AND ?");
    assertThat(n("SELECT * FROM t WHERE a BETWEEN 1 AND 10 + 1")).isEqualTo("SELECT * FROM t WHERE a BETWEEN ? AND 10 + 1");
    assertThat(n("SELECT * FROM t WHERE name LIKE 'ab%' OR name NOT ILIKE '%c'"))
        .isEqualTo("SELECT * FROM t WHERE name LIKE ? OR name NOT ILIKE ?");
    unchanged("SELECT * FROM t WHERE name LIKE 'a!%' ESCAPE '!'");
    // row IN lists and IN inside functions stay
    unchanged("SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))");
    unchanged("SELECT * FROM t WHERE position('a' IN ('abc')) > b");
  }

  @Test
  void limitOffsetFetch() {
    assertThat(n("SELECT * FROM t ORDER BY a LIMIT 10")).isEqualTo("SELECT * FROM t ORDER BY a LIMIT ?");
    assertThat(n("SELECT * FROM t ORDER BY a LIMIT 10 OFFSET 20")).isEqualTo("SELECT * FROM t ORDER BY a LIMIT ? OFFSET ?");
    assertThat(n("SELECT * FROM t ORDER BY a OFFSET 5 ROWS FETCH FIRST 3 ROWS ONLY"))
        .isEqualTo("SELECT * FROM t ORDER BY a OFFSET ? ROWS FETCH FIRST ? ROWS ONLY");
    assertThat(n("SELECT * FROM (SELECT * FROM t LIMIT 3) s")).isEqualTo("SELECT * FROM (SELECT * FROM t LIMIT ?) s");
    unchanged("SELECT * FROM t LIMIT 5, 10");
    unchanged("SELECT * FROM t LIMIT ALL");
  }

  @Test
  void insertValues() {
    Normalized n = normalize("INSERT INTO t (a, b, c) VALUES (1, 'x', -2.5), (2, 'y''z', 3)");
    assertThat(n.sql()).isEqualTo("INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?)");
    assertThat(n.literals()).extracting(Literal::value).containsExactly(new BigDecimal(1), "x", new BigDecimal("-2.5"),
        new BigDecimal(2), "y'z", new BigDecimal(3));
    assertThat(n("INSERT INTO t VALUES (1, DEFAULT, NULL, TRUE, DATE '2024-01-01', 1 + 1, lower('A'))"))
        .isEqualTo("INSERT INTO t VALUES (?, DEFAULT, NULL, TRUE, DATE '2024-01-01', 1 + 1, lower('A'))");
    assertThat(n("INSERT INTO t SELECT a FROM u WHERE b = 3")).isEqualTo("INSERT INTO t SELECT a FROM u WHERE b = ?");
    // a VALUES query is not an INSERT: its literals are its result
    unchanged("VALUES (1, 'a')");
    unchanged("SELECT * FROM (VALUES (1), (2)) v(x)");
  }

  @Test
  void neverReplaced() {
    unchanged("SELECT 1, 'a', a + 2 FROM t");
    unchanged("SELECT a = 1 FROM t");
    unchanged("SELECT CASE WHEN a = 1 THEN 'x' END FROM t");
    unchanged("SELECT a, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC");
    unchanged("SELECT * FROM t WHERE d = DATE '2024-01-01' AND ts > TIMESTAMP '2024-01-01 10:00:00'");
    unchanged("SELECT * FROM t WHERE ts > now() - INTERVAL '1' DAY");
    unchanged("SELECT * FROM t WHERE a = CAST('5' AS DECIMAL(10,2))");
    unchanged("SELECT * FROM t WHERE CAST(a AS VARCHAR(5)) = b");
    unchanged("SELECT * FROM t WHERE a = '5'::int");
    unchanged("SELECT * FROM t WHERE a::int = b");
    unchanged("SELECT * FROM t WHERE a = NULL OR b = TRUE OR c = FALSE");
    unchanged("SELECT * FROM t WHERE coalesce(a, 0) = b");
    unchanged("SELECT * FROM t WHERE substring(a FROM 2 FOR 3) = b");
    unchanged("SELECT * FROM t WHERE a = E'x\\'y' OR b = X'ff' OR c = U&'d\\0061' OR d = N'x'");
    unchanged("SELECT * FROM t WHERE a = 'abc' 'def'");
    unchanged("SELECT * FROM t WHERE a = 'x' COLLATE \"C\"");
    unchanged("SELECT * FROM t WHERE a = 5 IS TRUE");
    unchanged("SELECT count(*) FILTER (WHERE a = 1) FROM t");
    unchanged("SELECT * FROM t WHERE f(a => 5) > b");
  }

  @Test
  void keepsQuotesCommentsAndIdentifiers() {
    assertThat(n("SELECT \"a = 1\" FROM t -- where b = 2\nWHERE /* c = 3 */ \"x\" = 'a = 1' // d = 4"))
        .isEqualTo("SELECT \"a = 1\" FROM t -- where b = 2\nWHERE /* c = 3 */ \"x\" = ? // d = 4");
    assertThat(values("SELECT * FROM t WHERE a = 'it''s -- not a comment'")).containsExactly("it's -- not a comment");
    assertThat(n("SELECT * FROM t WHERE a='x'AND b=2")).isEqualTo("SELECT * FROM t WHERE a=?AND b=?");
    assertThat(n("SELECT * FROM t WHERE a = 'naïve ☃'")).isEqualTo("SELECT * FROM t WHERE a = ?");
    assertThat(n("SELECT * FROM t WHERE a = 1;")).isEqualTo("SELECT * FROM t WHERE a = ?;");
  }

  /** Longer lists keep their literals: Calcite plans them as a constant VALUES relation, not a union of parameters. */
  @Test
  void longInListsAndLargeInsertsKeepTheirLiterals() {
    String twenty = String.join(", ", java.util.Collections.nCopies(20, "7"));
    assertThat(normalize("SELECT * FROM t WHERE a IN (" + twenty + ") AND b = 1").literals()).hasSize(21);
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a IN (" + twenty + ", 8) AND b = 1")).isEmpty();
    String row = "(1, 'x')";
    String rows64 = String.join(", ", java.util.Collections.nCopies(64, row));
    assertThat(normalize("INSERT INTO t VALUES " + rows64).literals()).hasSize(128);
    assertThat(LiteralNormalizer.normalize("INSERT INTO t VALUES " + rows64 + ", " + row)).isEmpty();
  }

  @Test
  void notNormalisable() {
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a = ? AND b = 1")).isEmpty();
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a = $1 AND b = 1")).isEmpty();
    assertThat(LiteralNormalizer.normalize("EXPLAIN PLAN FOR SELECT * FROM t WHERE a = 1")).isEmpty();
    assertThat(LiteralNormalizer.normalize("CREATE TABLE t (a int)")).isEmpty();
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a = 'unterminated")).isEmpty();
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a = 1; SELECT 2")).isEmpty();
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE (a = 1")).isEmpty();
    assertThat(LiteralNormalizer.normalize("SELECT * FROM t WHERE a = $$it's$$")).isEmpty();
    // a parameter inside a string or comment is no parameter
    assertThat(n("SELECT * FROM t WHERE a = '?' /* ? */ AND b = 1")).isEqualTo("SELECT * FROM t WHERE a = ? /* ? */ AND b = ?");
  }

  @Test
  void sameShapeSameText() {
    assertThat(n("SELECT * FROM t WHERE id = 1")).isEqualTo(n("SELECT * FROM t WHERE id = 987654"));
    assertThat(n("SELECT * FROM t WHERE s = 'a'")).isEqualTo(n("SELECT * FROM t WHERE s = 'b''c'"));
  }
}
