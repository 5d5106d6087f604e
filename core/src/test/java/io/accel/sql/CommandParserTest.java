package io.accel.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.sql.Command.ColumnSpec;
import io.accel.sql.Command.CreateIndex;
import io.accel.sql.Command.CreateTable;
import io.accel.sql.Command.IndexKeySpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommandParserTest {

  private static Command parse(String sql) {
    return CommandParser.parse(sql).orElseThrow();
  }

  private static void assertState(String sql, SqlState state) {
    assertThatThrownBy(() -> CommandParser.parse(sql))
        .isInstanceOfSatisfying(AccelException.class, e -> assertThat(e.state()).isEqualTo(state));
  }

  @Test
  void queriesAndDmlAreLeftToCalcite() {
    assertThat(CommandParser.parse("SELECT 1")).isEmpty();
    assertThat(CommandParser.parse("  insert into t values (1)")).isEmpty();
    assertThat(CommandParser.parse("-- comment\nUPDATE t SET a = 1")).isEmpty();
    assertThat(CommandParser.parse("WITH x AS (SELECT 1) SELECT * FROM x")).isEmpty();
  }

  @Test
  void createTableWithEveryConstraintForm() {
    CreateTable t = (CreateTable) parse("CREATE TABLE IF NOT EXISTS Orders (\n"
        + "  order_id BIGINT PRIMARY KEY,\n"
        + "  \"User\" integer NOT NULL,\n"
        + "  status varchar(16) DEFAULT 'NEW' NOT NULL,\n"
        + "  total numeric(12, 2) DEFAULT (1 + 2) * 3,\n"
        + "  code char UNIQUE,\n"
        + "  at timestamp with time zone, d double precision, b bytea, u uuid,\n"
        + "  CONSTRAINT uq UNIQUE (status, code));");
    assertThat(t.name()).isEqualTo("orders");
    assertThat(t.ifNotExists()).isTrue();
    assertThat(t.primaryKey()).containsExactly("order_id");
    assertThat(t.uniqueKeys()).containsExactly(List.of("code"), List.of("status", "code"));
    assertThat(t.columns()).extracting(ColumnSpec::name)
        .containsExactly("order_id", "User", "status", "total", "code", "at", "d", "b", "u");
    assertThat(t.columns().get(2)).isEqualTo(new ColumnSpec("status", DataType.of(ColumnType.VARCHAR, 16), true,
        Optional.of("'NEW'")));
    assertThat(t.columns().get(3).defaultSql()).contains("(1 + 2) * 3");
    assertThat(t.columns().get(3).type()).isEqualTo(new DataType(ColumnType.NUMERIC, 12, 2));
    assertThat(t.columns().get(4).type()).isEqualTo(DataType.of(ColumnType.CHAR, 1));
    assertThat(t.columns().get(5).type().kind()).isEqualTo(ColumnType.TIMESTAMPTZ);
    assertThat(t.columns().get(6).type().kind()).isEqualTo(ColumnType.DOUBLE);
  }

  @Test
  void tableLevelCompositePrimaryKey() {
    CreateTable t = (CreateTable) parse("create table s (emp_no int, from_date date, salary int, "
        + "primary key (emp_no, from_date))");
    assertThat(t.primaryKey()).containsExactly("emp_no", "from_date");
  }

  @Test
  void createIndexWithDirections() {
    CreateIndex i = (CreateIndex) parse("CREATE UNIQUE INDEX IF NOT EXISTS ix ON public.t USING btree (a DESC, b ASC, c)");
    assertThat(i.unique()).isTrue();
    assertThat(i.ifNotExists()).isTrue();
    assertThat(i.name()).contains("ix");
    assertThat(i.table()).isEqualTo("t");
    assertThat(i.keys()).containsExactly(new IndexKeySpec("a", true), new IndexKeySpec("b", false),
        new IndexKeySpec("c", false));
    assertThat(((CreateIndex) parse("create index on t (x)")).name()).isEmpty();
  }

  @Test
  void dropAndTransactionControl() {
    assertThat(parse("DROP TABLE IF EXISTS a, b CASCADE")).isEqualTo(new Command.DropTable(List.of("a", "b"), true,
        true));
    assertThat(parse("DROP TABLE a RESTRICT")).isEqualTo(new Command.DropTable(List.of("a"), false, false));
    assertThat(parse("drop view if exists v, w cascade")).isEqualTo(new Command.DropView(List.of("v", "w"), true,
        true));
    assertThat(parse("drop index ix")).isEqualTo(new Command.DropIndex(List.of("ix"), false));
    assertThat(parse("BEGIN")).isInstanceOf(Command.Begin.class);
    assertThat(parse("start transaction isolation level repeatable read")).isInstanceOf(Command.Begin.class);
    assertThat(parse("COMMIT WORK;")).isInstanceOf(Command.Commit.class);
    assertThat(parse("end")).isInstanceOf(Command.Commit.class);
    assertThat(parse("rollback")).isInstanceOf(Command.Rollback.class);
  }

  @Test
  void savepoints() {
    assertThat(parse("SAVEPOINT Sp1;")).isEqualTo(new Command.Savepoint("sp1"));
    assertThat(parse("savepoint \"Sp 1\"")).isEqualTo(new Command.Savepoint("Sp 1"));
    assertThat(parse("RELEASE SAVEPOINT a")).isEqualTo(new Command.ReleaseSavepoint("a"));
    assertThat(parse("release a")).isEqualTo(new Command.ReleaseSavepoint("a"));
    assertThat(parse("ROLLBACK TO a")).isEqualTo(new Command.RollbackToSavepoint("a"));
    assertThat(parse("rollback work to savepoint a")).isEqualTo(new Command.RollbackToSavepoint("a"));
    assertThat(parse("ROLLBACK TRANSACTION TO \"A\"")).isEqualTo(new Command.RollbackToSavepoint("A"));
    assertThat(parse("rollback transaction")).isInstanceOf(Command.Rollback.class);
    assertState("SAVEPOINT", SqlState.SYNTAX_ERROR);
    assertState("SAVEPOINT a b", SqlState.SYNTAX_ERROR);
    assertState("ROLLBACK TO", SqlState.SYNTAX_ERROR);
    assertState("ABORT TO a", SqlState.SYNTAX_ERROR);
  }

  @Test
  void viewsAndAlterTableActions() {
    assertThat(parse("create or replace view v (a, b) as select x, y from t;")).isEqualTo(
        new Command.CreateView("v", true, List.of("a", "b"), "select x, y from t"));
    assertThat(parse("CREATE VIEW v AS SELECT 1")).isEqualTo(new Command.CreateView("v", false, List.of(), "SELECT 1"));
    assertThat(parse("alter table t add column if not exists c int default 5 not null, drop column d cascade,"
        + " alter column e set data type bigint using e::bigint, alter f drop default, alter column g set not null"))
        .isEqualTo(new Command.AlterTable("t", false, List.of(
            new Command.AddColumn(new Command.ColumnSpec("c", io.accel.catalog.DataType.of(
                io.accel.catalog.ColumnType.INTEGER), true, java.util.Optional.of("5")), true, false, false, List.of()),
            new Command.DropColumn("d", false, true),
            new Command.AlterType("e", io.accel.catalog.DataType.of(io.accel.catalog.ColumnType.BIGINT),
                java.util.Optional.of("e::bigint")),
            new Command.SetDefault("f", java.util.Optional.empty()),
            new Command.SetNotNull("g", true))));
    assertThat(parse("alter table if exists t rename column a to b")).isEqualTo(new Command.AlterTable("t", true,
        List.of(new Command.RenameColumn("a", "b"))));
    assertThat(parse("alter table t rename to u")).isEqualTo(new Command.AlterTable("t", false,
        List.of(new Command.RenameTable("u"))));
    assertThat(parse("alter table t add primary key (a)")).isInstanceOf(Command.AddKey.class);
  }

  @Test
  void malformedStatementsAreSyntaxErrorsWithAPosition() {
    assertState("CREATE TABLE t (a INTEGER", SqlState.SYNTAX_ERROR);
    assertState("CREATE TABLE t (a INTEGER) extra", SqlState.SYNTAX_ERROR);
    assertState("CREATE INDEX ON t", SqlState.SYNTAX_ERROR);
    assertState("CREATE TABLE t (a INTEGER DEFAULT (1 +))", SqlState.SYNTAX_ERROR);
    assertState("DROP TABLE", SqlState.SYNTAX_ERROR);
    assertThatThrownBy(() -> CommandParser.parse("CREATE TABLE t (a INTEGER,\n b INTEGER NOT 5)"))
        .hasMessageContaining("line 2, column");
  }

  @Test
  void unknownTypesAndUnsupportedFeaturesSayWhat() {
    assertState("CREATE TABLE t (a money)", SqlState.UNDEFINED_OBJECT);
    assertState("CREATE TABLE t (a int, b int, PRIMARY KEY (a), PRIMARY KEY (b))", SqlState.INVALID_TABLE_DEFINITION);
    assertState("CREATE TABLE t (a int REFERENCES u(id) NOT DEFERRABLE INITIALLY DEFERRED)", SqlState.SYNTAX_ERROR);
    assertState("CREATE TABLE t (a int REFERENCES u(id) MATCH FULL)", SqlState.FEATURE_NOT_SUPPORTED);
    assertState("CREATE TEMP VIEW v AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED);
    assertState("CREATE MATERIALIZED VIEW v AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED);
    assertState("CREATE TABLE t (a numeric(3, 5))", SqlState.INVALID_PARAMETER_VALUE);
    assertState("CREATE TABLE t (s varchar(10) COLLATE \"C\")", SqlState.FEATURE_NOT_SUPPORTED);
  }
}
