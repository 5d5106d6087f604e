package io.accel.e2e.slt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SltParserTest {

  private static SltScript parse(String text) {
    return SltParser.parse("x.test", text);
  }

  @Test
  void parsesStatementsQueriesAndControlRecords() {
    SltScript s = parse("""
        # a comment
        hash-threshold 8

        statement ok
        CREATE TABLE t (a INTEGER,
          b TEXT)

        statement error
        SELECT nope

        statement error 23505
        INSERT INTO t VALUES (1)

        statement error duplicate key.*"t_pkey"
        INSERT INTO t VALUES (1)

        query IT rowsort my-label
        SELECT a, b
        FROM t
        ----
        1 x
        2 y

        query R
        SELECT 1.5
        ----
        1.500

        halt
        """);
    List<SltRecord> r = s.records();
    assertThat(r).hasSize(8);
    assertThat(r.get(0)).isEqualTo(new SltRecord.HashThreshold(2, List.of(), 8));

    SltRecord.Statement create = (SltRecord.Statement) r.get(1);
    assertThat(create.line()).isEqualTo(4);
    assertThat(create.sql()).isEqualTo("CREATE TABLE t (a INTEGER,\n  b TEXT)");
    assertThat(create.expectError()).isFalse();

    SltRecord.Statement anyError = (SltRecord.Statement) r.get(2);
    assertThat(anyError.expectError()).isTrue();
    assertThat(anyError.errorPattern()).isNull();

    SltRecord.Statement state = (SltRecord.Statement) r.get(3);
    assertThat(state.errorPattern()).isEqualTo("23505");
    assertThat(state.expectsSqlState()).isTrue();

    SltRecord.Statement regex = (SltRecord.Statement) r.get(4);
    assertThat(regex.errorPattern()).isEqualTo("duplicate key.*\"t_pkey\"");
    assertThat(regex.expectsSqlState()).isFalse();

    SltRecord.Query q = (SltRecord.Query) r.get(5);
    assertThat(q.line()).isEqualTo(17);
    assertThat(q.types()).isEqualTo("IT");
    assertThat(q.sortMode()).isEqualTo(SltRecord.SortMode.ROWSORT);
    assertThat(q.label()).isEqualTo("my-label");
    assertThat(q.sql()).isEqualTo("SELECT a, b\nFROM t");
    assertThat(q.expected()).containsExactly("1 x", "2 y");
    assertThat(q.hasSeparator()).isTrue();
    assertThat(q.resultsLine()).isEqualTo(20);
    assertThat(q.endLine()).isEqualTo(22);

    SltRecord.Query real = (SltRecord.Query) r.get(6);
    assertThat(real.sortMode()).isEqualTo(SltRecord.SortMode.NOSORT);
    assertThat(real.label()).isNull();
    assertThat(r.get(7)).isEqualTo(new SltRecord.Halt(29, List.of()));
  }

  @Test
  void haltIsARecord() {
    SltScript s = parse("statement ok\nSELECT 1\n\nhalt\n\nstatement ok\nSELECT 2\n");
    assertThat(s.records()).hasSize(3);
    assertThat(s.records().get(1)).isInstanceOf(SltRecord.Halt.class);
  }

  @Test
  void queryWithoutResultsMayOmitTheSeparator() {
    SltScript s = parse("query I\nSELECT 1 WHERE false\n\nquery I\nSELECT 1 WHERE false\n----\n");
    SltRecord.Query a = (SltRecord.Query) s.records().get(0);
    SltRecord.Query b = (SltRecord.Query) s.records().get(1);
    assertThat(a.expected()).isEmpty();
    assertThat(a.hasSeparator()).isFalse();
    assertThat(b.expected()).isEmpty();
    assertThat(b.hasSeparator()).isTrue();
  }

  @Test
  void conditionsAttachToTheNextRecord() {
    SltScript s = parse("""
        skipif accel
        # why
        onlyif postgresql
        statement ok
        SELECT 1

        onlyif accel
        halt

        statement ok
        SELECT 2
        """);
    SltRecord first = s.records().get(0);
    assertThat(first.conditions()).containsExactly(new SltRecord.Condition(false, "accel"),
        new SltRecord.Condition(true, "postgresql"));
    assertThat(first.appliesTo("accel")).isFalse();
    assertThat(first.appliesTo("postgresql")).isTrue();
    assertThat(first.appliesTo("sqlite")).isFalse();
    SltRecord halt = s.records().get(1);
    assertThat(halt.appliesTo("accel")).isTrue();
    assertThat(halt.appliesTo("postgresql")).isFalse();
    assertThat(s.records().get(2).conditions()).isEmpty();
    assertThat(s.records().get(2).appliesTo("anything")).isTrue();
  }

  @Test
  void commentLinesInsideSqlAreDroppedButNotInsideResults() {
    SltScript s = parse("query T\nSELECT '#x'\n# note\n----\n#x\n");
    SltRecord.Query q = (SltRecord.Query) s.records().get(0);
    assertThat(q.sql()).isEqualTo("SELECT '#x'");
    assertThat(q.expected()).containsExactly("#x");
  }

  @Test
  void acceptsWindowsLineEnds() {
    SltScript s = parse("statement ok\r\nSELECT 1\r\n\r\nquery I\r\nSELECT 1\r\n----\r\n1\r\n");
    assertThat(s.records()).hasSize(2);
    assertThat(((SltRecord.Query) s.records().get(1)).expected()).containsExactly("1");
  }

  @Test
  void reportsMalformedRecordsWithFileAndLine() {
    assertThatThrownBy(() -> parse("statement ok\nSELECT 1\n\nstatment ok\nSELECT 2\n"))
        .isInstanceOf(SltParseException.class).hasMessageStartingWith("x.test:4: unknown record type 'statment'");
    assertThatThrownBy(() -> parse("query IX\nSELECT 1\n")).hasMessageStartingWith("x.test:1:");
    assertThatThrownBy(() -> parse("query I rowsrot\nSELECT 1\n")).hasMessageContaining("unknown sort mode 'rowsrot'");
    assertThatThrownBy(() -> parse("statement maybe\nSELECT 1\n")).hasMessageStartingWith("x.test:1:");
    assertThatThrownBy(() -> parse("statement ok\n\n")).hasMessageContaining("statement without SQL");
    assertThatThrownBy(() -> parse("\n\nskipif accel\n\nstatement ok\nSELECT 1\n")).hasMessageStartingWith("x.test:");
    assertThatThrownBy(() -> parse("statement ok\nSELECT 1\n----\n1\n")).hasMessageStartingWith("x.test:3:");
    assertThatThrownBy(() -> parse("hash-threshold many\n")).hasMessageStartingWith("x.test:1:");
  }

  @Test
  void sqlStateTokensAreFiveDigitsOrCapitals() {
    assertThat(SltRecord.Statement.isSqlState("42P01")).isTrue();
    assertThat(SltRecord.Statement.isSqlState("22012")).isTrue();
    assertThat(SltRecord.Statement.isSqlState("42p01")).isFalse();
    assertThat(SltRecord.Statement.isSqlState("4201")).isFalse();
    assertThat(SltRecord.Statement.isSqlState("division")).isFalse();
  }
}
