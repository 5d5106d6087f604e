package io.accel.e2e.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SltRendererTest {

  @Test
  void nullAndEmpty() {
    for (char t : new char[] {'I', 'R', 'T'}) {
      assertThat(SltRenderer.render(null, t)).isEqualTo("NULL");
    }
    assertThat(SltRenderer.render("", 'T')).isEqualTo("(empty)");
    assertThat(SltRenderer.render("a\tb\nc", 'T')).isEqualTo("a@b@c");
    assertThat(SltRenderer.render("héllo ✓", 'T')).isEqualTo("héllo ✓");
  }

  @Test
  void realsHaveThreeDecimals() {
    assertThat(SltRenderer.render(1.5d, 'R')).isEqualTo("1.500");
    assertThat(SltRenderer.render(2, 'R')).isEqualTo("2.000");
    assertThat(SltRenderer.render(-0.125f, 'R')).isEqualTo("-0.125");
    assertThat(SltRenderer.render(1.0 / 3, 'R')).isEqualTo("0.333");
    assertThat(SltRenderer.render(2.0 / 3, 'R')).isEqualTo("0.667");
    assertThat(SltRenderer.render(new BigDecimal("3.5000000000000000"), 'R')).isEqualTo("3.500");
    assertThat(SltRenderer.render(new BigDecimal("1E+3"), 'R')).isEqualTo("1000.000");
    assertThat(SltRenderer.render(1e10, 'R')).isEqualTo("10000000000.000");
    assertThat(SltRenderer.render(-0.0001, 'R')).isEqualTo("-0.000");
    assertThat(SltRenderer.render(Double.NaN, 'R')).isEqualTo("NaN");
    // ties round half-even, on the exact value, like printf("%.3f"), for doubles and numerics alike
    assertThat(SltRenderer.render(0.0625, 'R')).isEqualTo("0.062");
    assertThat(SltRenderer.render(new BigDecimal("0.0625"), 'R')).isEqualTo("0.062");
    assertThat(SltRenderer.render(new BigDecimal("0.0635"), 'R')).isEqualTo("0.064");
  }

  @Test
  void integers() {
    assertThat(SltRenderer.render(42, 'I')).isEqualTo("42");
    assertThat(SltRenderer.render(-7L, 'I')).isEqualTo("-7");
    assertThat(SltRenderer.render((short) 3, 'I')).isEqualTo("3");
    assertThat(SltRenderer.render(new BigInteger("9223372036854775808"), 'I')).isEqualTo("9223372036854775808");
    assertThat(SltRenderer.render(new BigDecimal("2024"), 'I')).isEqualTo("2024");
    assertThat(SltRenderer.render(new BigDecimal("2.00"), 'I')).isEqualTo("2");
    assertThat(SltRenderer.render(new BigDecimal("0.000"), 'I')).isEqualTo("0");
    assertThat(SltRenderer.render(3.0d, 'I')).isEqualTo("3");
    // a fraction is never silently dropped
    assertThat(SltRenderer.render(new BigDecimal("2.50"), 'I')).isEqualTo("2.5");
    assertThat(SltRenderer.render(2.5d, 'I')).isEqualTo("2.5");
    assertThat(SltRenderer.render("12", 'I')).isEqualTo("12");
  }

  @Test
  void text() {
    assertThat(SltRenderer.render(true, 'T')).isEqualTo("true");
    assertThat(SltRenderer.render(false, 'T')).isEqualTo("false");
    assertThat(SltRenderer.render(new BigDecimal("1.50"), 'T')).isEqualTo("1.50");
    assertThat(SltRenderer.render(new BigDecimal("1E+2"), 'T')).isEqualTo("100");
    assertThat(SltRenderer.render(1.5d, 'T')).isEqualTo("1.5");
    assertThat(SltRenderer.render(100d, 'T')).isEqualTo("100");
    assertThat(SltRenderer.render(1.5f, 'T')).isEqualTo("1.5");
    assertThat(SltRenderer.render(1e20, 'T')).isEqualTo("1e+20");
    assertThat(SltRenderer.render(new byte[] {1, 2, (byte) 0xff}, 'T')).isEqualTo("\\x0102ff");
    assertThat(SltRenderer.render(new byte[0], 'T')).isEqualTo("\\x");
    assertThat(SltRenderer.render(UUID.fromString("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"), 'T'))
        .isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  }

  @Test
  void datesAndTimes() {
    assertThat(SltRenderer.render(LocalDate.of(2024, 2, 29), 'T')).isEqualTo("2024-02-29");
    assertThat(SltRenderer.render(java.sql.Date.valueOf("1999-12-31"), 'T')).isEqualTo("1999-12-31");
    assertThat(SltRenderer.render(LocalTime.of(13, 45), 'T')).isEqualTo("13:45:00");
    assertThat(SltRenderer.render(LocalTime.of(8, 5, 0, 250_000_000), 'T')).isEqualTo("08:05:00.25");
    assertThat(SltRenderer.render(java.sql.Time.valueOf("23:59:59"), 'T')).isEqualTo("23:59:59");
    assertThat(SltRenderer.render(LocalDateTime.of(2024, 1, 15, 10, 30), 'T')).isEqualTo("2024-01-15 10:30:00");
    assertThat(SltRenderer.render(java.sql.Timestamp.valueOf("2024-01-15 10:30:00.123456"), 'T'))
        .isEqualTo("2024-01-15 10:30:00.123456");
    assertThat(SltRenderer.render(OffsetDateTime.of(2024, 1, 15, 12, 30, 0, 0, ZoneOffset.ofHours(2)), 'T'))
        .isEqualTo("2024-01-15 10:30:00+00");
  }

  @Test
  void sortModes() {
    List<List<String>> rows = List.of(List.of("b", "1"), List.of("a", "2"), List.of("a", "10"), List.of("B", "0"));
    assertThat(SltRenderer.sortedValues(rows, SltRecord.SortMode.NOSORT))
        .containsExactly("b", "1", "a", "2", "a", "10", "B", "0");
    // rows compared column by column as strings (bytewise: upper case first, "10" before "2")
    assertThat(SltRenderer.sortedValues(rows, SltRecord.SortMode.ROWSORT))
        .containsExactly("B", "0", "a", "10", "a", "2", "b", "1");
    assertThat(SltRenderer.sortedValues(rows, SltRecord.SortMode.VALUESORT))
        .containsExactly("0", "1", "10", "2", "B", "a", "a", "b");
    // NULL sorts as the string "NULL"
    assertThat(SltRenderer.sortedValues(List.of(List.of("a"), List.of("NULL"), List.of("1")), SltRecord.SortMode.ROWSORT))
        .containsExactly("1", "NULL", "a");
    // strcmp over UTF-8: é (0xC3 0xA9) after z
    assertThat(SltRenderer.sortedValues(List.of(List.of("é"), List.of("z")), SltRecord.SortMode.VALUESORT))
        .containsExactly("z", "é");
  }

  @Test
  void hashesLikeSqllogictest() {
    // md5 of "1\n2\n3\n"
    assertThat(SltRenderer.md5(List.of("1", "2", "3"))).isEqualTo("c0710d6b4f15dfa88f600b0e6b624077");
    assertThat(SltRenderer.hashLine(List.of("1", "2", "3")))
        .isEqualTo("3 values hashing to c0710d6b4f15dfa88f600b0e6b624077");
    assertThat(SltRenderer.md5(List.of())).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
  }

  @Test
  void rendersRowsByColumnType() {
    List<List<Object>> rows = List.of(Arrays.asList(1, 1.5, "x"), Arrays.asList(null, null, ""));
    assertThat(SltRenderer.renderRows(rows, "IRT"))
        .containsExactly(List.of("1", "1.500", "x"), List.of("NULL", "NULL", "(empty)"));
  }
}
