package io.accel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** pgJDBC (from Maven Central) against the server: what a Java application observes. */
class PgJdbcTest {
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer();
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table kinds(id int primary key, i2 smallint, i8 bigint, f4 real, f8 double precision, "
          + "n numeric(12,3), t text, v varchar(10), c char(4), b boolean, d date, tm time, ts timestamp, "
          + "tz timestamptz, by bytea, u uuid)");
      s.execute("create table big(id int primary key, grp int, label varchar(20))");
      StringBuilder insert = new StringBuilder("insert into big values ");
      for (int i = 1; i <= 5000; i++) {
        insert.append(i > 1 ? "," : "").append('(').append(i).append(',').append(i % 10).append(",'row").append(i)
            .append("')");
      }
      s.execute(insert.toString());
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Every listed type round-trips, in text (prepareThreshold=0 never switches) and in binary (forced). */
  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void typesRoundTrip(String mode) throws SQLException {
    Properties p = new Properties();
    if (mode.equals("binary")) {
      p.setProperty("prepareThreshold", "-1"); // server-prepared from the first execution, binary results
      p.setProperty("binaryTransfer", "true");
    } else {
      p.setProperty("prepareThreshold", "0");
      p.setProperty("binaryTransfer", "false");
    }
    int id = mode.equals("binary") ? 2 : 1;
    UUID uuid = UUID.randomUUID();
    try (Connection c = server.connect(p)) {
      try (PreparedStatement ps = c.prepareStatement(
          "insert into kinds values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        ps.setInt(1, id);
        ps.setShort(2, (short) -12);
        ps.setLong(3, 9_000_000_000L);
        ps.setFloat(4, 1.5f);
        ps.setDouble(5, 2.25);
        ps.setBigDecimal(6, new BigDecimal("-12345.678"));
        ps.setString(7, "héllo\tworld");
        ps.setString(8, "short");
        ps.setString(9, "ab");
        ps.setBoolean(10, true);
        ps.setObject(11, LocalDate.of(2024, 2, 29));
        ps.setObject(12, LocalTime.of(13, 45, 30, 123_000_000));
        ps.setObject(13, LocalDateTime.of(1999, 12, 31, 23, 59, 58, 250_000_000));
        ps.setObject(14, OffsetDateTime.of(2024, 1, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2)));
        ps.setBytes(15, new byte[] {0, 1, (byte) 0xff});
        ps.setObject(16, uuid);
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement ps = c.prepareStatement("select * from kinds where id = ?")) {
        for (int round = 0; round < 3; round++) {
          ps.setInt(1, id);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getShort("i2")).isEqualTo((short) -12);
            assertThat(rs.getLong("i8")).isEqualTo(9_000_000_000L);
            assertThat(rs.getFloat("f4")).isEqualTo(1.5f);
            assertThat(rs.getDouble("f8")).isEqualTo(2.25);
            assertThat(rs.getBigDecimal("n")).isEqualByComparingTo("-12345.678");
            assertThat(rs.getString("t")).isEqualTo("héllo\tworld");
            assertThat(rs.getString("v")).isEqualTo("short");
            assertThat(rs.getString("c")).isEqualTo("ab  ");
            assertThat(rs.getBoolean("b")).isTrue();
            assertThat(rs.getObject("d", LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
            assertThat(rs.getObject("tm", LocalTime.class)).isEqualTo(LocalTime.of(13, 45, 30, 123_000_000));
            assertThat(rs.getObject("ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(1999, 12, 31, 23, 59, 58, 250_000_000));
            assertThat(rs.getObject("tz", OffsetDateTime.class).toInstant())
                .isEqualTo(OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 0, ZoneOffset.UTC).toInstant());
            assertThat(rs.getBytes("by")).containsExactly(0, 1, 0xff);
            assertThat(rs.getObject("u")).isEqualTo(uuid);
            assertThat(rs.next()).isFalse();
          }
        }
      }
      try (ResultSet rs = c.createStatement().executeQuery("select i2, n, d, ts from kinds where id = " + id)) {
        var md = rs.getMetaData();
        assertThat(md.getColumnTypeName(1)).isEqualTo("int2");
        assertThat(md.getColumnTypeName(2)).isEqualTo("numeric");
        assertThat(md.getPrecision(2)).isEqualTo(12);
        assertThat(md.getScale(2)).isEqualTo(3);
        assertThat(md.getColumnTypeName(3)).isEqualTo("date");
        assertThat(md.getColumnTypeName(4)).isEqualTo("timestamp");
      }
    }
  }

  /** Text of every UTF-8 width, and values longer than the server's reply buffer, come back unchanged. */
  @ParameterizedTest
  @ValueSource(strings = {"text", "binary"})
  void textOfEveryWidthAndLength(String mode) throws SQLException {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", mode.equals("binary") ? "-1" : "0");
    p.setProperty("binaryTransfer", String.valueOf(mode.equals("binary")));
    List<String> values = List.of("", "plain ascii", "é and ß", "€ 3 bytes", "emoji 😀 (a surrogate pair)",
        "x".repeat(100_000), "ü".repeat(30_000) + "end", "tab\there, quote ' and \"");
    try (Connection c = server.connect(p); Statement s = c.createStatement()) {
      String table = "widths_" + mode;
      s.execute("create table " + table + "(id int primary key, t text, n bigint)");
      try (PreparedStatement ps = c.prepareStatement("insert into " + table + " values (?, ?, ?)")) {
        for (int i = 0; i < values.size(); i++) {
          ps.setInt(1, i);
          ps.setString(2, values.get(i));
          ps.setLong(3, i % 2 == 0 ? Long.MIN_VALUE + i : -1_234_567_890_123L * i);
          ps.executeUpdate();
        }
      }
      try (PreparedStatement ps = c.prepareStatement("select id, t, n from " + table + " order by id")) {
        for (int round = 0; round < 2; round++) {
          try (ResultSet rs = ps.executeQuery()) {
            for (int i = 0; i < values.size(); i++) {
              assertThat(rs.next()).isTrue();
              assertThat(rs.getString("t")).isEqualTo(values.get(i));
              assertThat(rs.getLong("n")).isEqualTo(i % 2 == 0 ? Long.MIN_VALUE + i : -1_234_567_890_123L * i);
            }
            assertThat(rs.next()).isFalse();
          }
        }
      }
    }
  }

  @Test
  void nullsAndNumericEdgesInBinary() throws SQLException {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", "-1");
    try (Connection c = server.connect(p);
         PreparedStatement ps = c.prepareStatement("select cast(? as numeric(20,5)), cast(? as int), cast(? as text)")) {
      for (String n : List.of("0", "0.00001", "123456789012345.5", "-0.5", "10000", "99999999.99999")) {
        ps.setBigDecimal(1, new BigDecimal(n));
        ps.setNull(2, java.sql.Types.INTEGER);
        ps.setNull(3, java.sql.Types.VARCHAR);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getBigDecimal(1)).isEqualByComparingTo(n);
          assertThat(rs.getObject(2)).isNull();
          assertThat(rs.getString(3)).isNull();
        }
      }
    }
  }

  /** pgJDBC reads a result in fetch-size pieces inside a transaction: Execute with a row limit, PortalSuspended. */
  @Test
  void fetchSizeInTransactionSuspendsThePortal() throws SQLException {
    double before = server.meter("accel.server.portal.suspended");
    try (Connection c = server.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("select id, label from big where grp = ? order by id")) {
        ps.setFetchSize(100);
        ps.setInt(1, 3);
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getInt(1));
            assertThat(rs.getString(2)).isEqualTo("row" + rs.getInt(1));
          }
        }
        assertThat(ids).hasSize(500).startsWith(3, 13, 23).endsWith(4993);
      }
      c.commit();
    }
    // 500 rows in pieces of 100: four suspensions, then the last piece completes
    assertThat(server.meter("accel.server.portal.suspended") - before).isEqualTo(4);
  }

  @Test
  void batchesAndUpdateCounts() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table batch(id int primary key, v int)");
      try (PreparedStatement ps = c.prepareStatement("insert into batch values (?, ?)")) {
        for (int i = 0; i < 100; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i * 2);
          ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        assertThat(counts).hasSize(100).containsOnly(1);
      }
      assertThat(s.executeUpdate("update batch set v = v + 1 where id < 10")).isEqualTo(10);
      assertThat(s.executeUpdate("delete from batch where id >= 90")).isEqualTo(10);
      // a failing batch in autocommit: PostgreSQL runs it in one implicit transaction, so nothing of it stays
      try (PreparedStatement ps = c.prepareStatement("insert into batch values (?, ?)")) {
        ps.setInt(1, 500);
        ps.setInt(2, 0);
        ps.addBatch();
        ps.setInt(1, 1); // duplicate key
        ps.setInt(2, 0);
        ps.addBatch();
        assertThatThrownBy(ps::executeBatch).isInstanceOf(BatchUpdateException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      }
      try (ResultSet rs = s.executeQuery("select count(*) from batch where id = 500")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
  }

  @Test
  void errorsCarrySqlStateAndTheSessionGoesOn() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      // PostgreSQL's message, its position in a field of its own (psql draws the caret from it)
      assertThatThrownBy(() -> s.executeQuery("select * from no_such_table"))
          .isInstanceOfSatisfying(org.postgresql.util.PSQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42P01");
            assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("relation \"no_such_table\" does not exist");
            assertThat(e.getServerErrorMessage().getPosition()).isEqualTo(15);
          });
      assertThatThrownBy(() -> s.executeQuery("selec 1"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
      assertThatThrownBy(() -> s.executeQuery("select 1 +"))
          .isInstanceOfSatisfying(org.postgresql.util.PSQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42601");
            assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("syntax error at end of input");
          });
      assertThatThrownBy(() -> s.executeQuery("select 1/0"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22012"));
      c.setAutoCommit(false);
      s.execute("insert into big values (100000, 1, 'x')");
      assertThatThrownBy(() -> s.execute("insert into big values (1, 1, 'dup')"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      assertThatThrownBy(() -> s.executeQuery("select 1"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));
      c.rollback();
      c.setAutoCommit(true);
      try (ResultSet rs = s.executeQuery("select count(*) from big where id = 100000")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
  }

  @Test
  void parameterTypesAreInferredAndChecked() throws SQLException {
    try (Connection c = server.connect();
         PreparedStatement ps = c.prepareStatement("select label from big where id = ? and grp = ?")) {
      ps.setString(1, "7"); // pgJDBC sends varchar; the engine converts as PostgreSQL's unknown-typed text
      ps.setInt(2, 7);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("row7");
      }
      ps.setString(1, "seven");
      ps.setInt(2, 7);
      assertThatThrownBy(ps::executeQuery).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22P02"));
      var pmd = ps.getParameterMetaData();
      assertThat(pmd.getParameterCount()).isEqualTo(2);
    }
  }

  @Test
  void cancelStopsOnlyThatSessionsStatement() throws Exception {
    try (Connection c = server.connect(); Connection other = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table spin(id int primary key)");
      s.execute("insert into spin select id from big");
      CompletableFuture<SQLException> running = CompletableFuture.supplyAsync(() -> {
        try {
          s.executeQuery("select count(*) from spin a, spin b, spin c");
          return null;
        } catch (SQLException e) {
          return e;
        }
      });
      Thread.sleep(500);
      s.cancel();
      SQLException e = running.get(30, TimeUnit.SECONDS);
      assertThat((Object) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("57014");
      try (ResultSet rs = other.createStatement().executeQuery("select count(*) from big")) {
        rs.next();
        assertThat(rs.getInt(1)).isGreaterThanOrEqualTo(5000);
      }
      try (ResultSet rs = s.executeQuery("select 1")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void statementTimeoutIs57014() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("set statement_timeout = 200");
      assertThatThrownBy(() -> s.executeQuery("select count(*) from big a, big b, big c"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
      s.execute("reset statement_timeout");
    }
  }

  @Test
  void transactionsCommitAndRollBack() throws SQLException {
    try (Connection c = server.connect(); Connection other = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table tx(id int primary key)");
      c.setAutoCommit(false);
      s.execute("insert into tx values (1)");
      try (ResultSet rs = other.createStatement().executeQuery("select count(*) from tx")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
      c.commit();
      s.execute("insert into tx values (2)");
      c.rollback();
      try (ResultSet rs = other.createStatement().executeQuery("select id from tx")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void sessionSettingsAreReported() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("set application_name = 'reporting'");
      assertThat(c.getClientInfo("ApplicationName")).isEqualTo("reporting");
      try (ResultSet rs = s.executeQuery("select set_config('application_name', 'by function', false)")) {
        rs.next();
      }
      assertThat(c.getClientInfo("ApplicationName")).isEqualTo("by function");
      s.execute("set time zone 'Europe/Paris'");
      try (ResultSet rs = s.executeQuery("select cast('2024-07-01 12:00:00+00' as timestamptz)")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("2024-07-01 14:00:00+02");
      }
      try (ResultSet rs = s.executeQuery("show server_version")) {
        rs.next();
        assertThat(rs.getString(1)).contains("Accel");
      }
      assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith("15");
    }
  }

  @Test
  void timestampsAsJdbcTypes() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table times(id int primary key, d date, t time, ts timestamp)");
      try (PreparedStatement ps = c.prepareStatement("insert into times values (1, ?, ?, ?)")) {
        ps.setDate(1, Date.valueOf("2020-05-17"));
        ps.setTime(2, Time.valueOf("08:30:00"));
        ps.setTimestamp(3, Timestamp.valueOf("2020-05-17 08:30:00.5"));
        ps.executeUpdate();
      }
      try (ResultSet rs = s.executeQuery("select d, t, ts from times")) {
        rs.next();
        assertThat(rs.getDate(1)).isEqualTo(Date.valueOf("2020-05-17"));
        assertThat(rs.getTime(2)).isEqualTo(Time.valueOf("08:30:00"));
        assertThat(rs.getTimestamp(3)).isEqualTo(Timestamp.valueOf("2020-05-17 08:30:00.5"));
      }
    }
  }

  /** RowDescription names each column's table and column number, so pgJDBC's metadata finds them in the catalog. */
  @Test
  void resultSetMetaDataNamesTheTablesColumnsComeFrom() throws SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("create table if not exists tagged(id bigserial primary key, tag varchar(10) not null, note text)");
      try (ResultSet rs = s.executeQuery("SELECT b.label, b.id + 1 AS following, t.tag, t.id, t.note FROM big b"
          + " LEFT JOIN tagged t ON t.id = b.id WHERE b.id = 1")) {
        var md = rs.getMetaData().unwrap(org.postgresql.PGResultSetMetaData.class);
        assertThat(md.getBaseTableName(1)).isEqualTo("big");
        assertThat(md.getBaseColumnName(1)).isEqualTo("label");
        assertThat(md.getBaseTableName(2)).isEmpty();
        assertThat(md.getBaseColumnName(2)).isEmpty();
        assertThat(md.getBaseTableName(3)).isEqualTo("tagged");
        assertThat(md.getBaseColumnName(3)).isEqualTo("tag");
        assertThat(md.getBaseSchemaName(3)).isEqualTo("public");
        var plain = rs.getMetaData();
        assertThat(plain.isAutoIncrement(4)).isTrue();
        assertThat(plain.isAutoIncrement(3)).isFalse();
        assertThat(plain.isNullable(3)).isEqualTo(java.sql.ResultSetMetaData.columnNoNulls);
        assertThat(plain.isNullable(5)).isEqualTo(java.sql.ResultSetMetaData.columnNullable);
      }
    }
  }

  @Test
  void databaseMetaDataBrowsesTheCatalog() throws SQLException {
    try (Connection c = server.connect()) {
      var md = c.getMetaData();
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, "public", "%", new String[] {"TABLE"})) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).contains("big", "kinds");
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "public", "big", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME") + ":" + rs.getInt("NULLABLE"));
        }
      }
      assertThat(columns).containsExactly("id:int4:0", "grp:int4:1", "label:varchar:1");
      try (ResultSet rs = md.getPrimaryKeys(null, "public", "big")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("id");
        assertThat(rs.getString("PK_NAME")).isEqualTo("big_pkey");
      }
      try (ResultSet rs = md.getIndexInfo(null, "public", "big", false, false)) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("INDEX_NAME")).isEqualTo("big_pkey");
        assertThat(rs.getBoolean("NON_UNIQUE")).isFalse();
      }
      try (ResultSet rs = md.getSchemas()) {
        List<String> schemas = new ArrayList<>();
        while (rs.next()) {
          schemas.add(rs.getString(1));
        }
        assertThat(schemas).contains("public", "pg_catalog", "information_schema");
      }
    }
  }

  @Test
  void importedAndExportedKeysComeFromPgConstraint() throws SQLException {
    try (Connection c = server.connect(); var s = c.createStatement()) {
      s.execute("CREATE TABLE fk_parent (a INTEGER, b TEXT, PRIMARY KEY (a), UNIQUE (b))");
      s.execute("CREATE TABLE fk_child (id INTEGER PRIMARY KEY, pa INTEGER REFERENCES fk_parent ON DELETE CASCADE,"
          + " pb TEXT, CONSTRAINT fk_child_b FOREIGN KEY (pb) REFERENCES fk_parent (b) ON UPDATE SET NULL)");
      var md = c.getMetaData();
      List<String> imported = new ArrayList<>();
      try (ResultSet rs = md.getImportedKeys(null, "public", "fk_child")) {
        while (rs.next()) {
          imported.add(rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME") + " <- "
              + rs.getString("FKCOLUMN_NAME") + " " + rs.getInt("KEY_SEQ") + " " + rs.getString("FK_NAME") + " "
              + rs.getString("PK_NAME") + " " + rs.getInt("UPDATE_RULE") + " " + rs.getInt("DELETE_RULE"));
        }
      }
      assertThat(imported).containsExactly(
          "fk_parent.b <- pb 1 fk_child_b fk_parent_b_key " + java.sql.DatabaseMetaData.importedKeySetNull + " "
              + java.sql.DatabaseMetaData.importedKeyNoAction,
          "fk_parent.a <- pa 1 fk_child_pa_fkey fk_parent_pkey " + java.sql.DatabaseMetaData.importedKeyNoAction + " "
              + java.sql.DatabaseMetaData.importedKeyCascade);
      List<String> exported = new ArrayList<>();
      try (ResultSet rs = md.getExportedKeys(null, "public", "fk_parent")) {
        while (rs.next()) {
          exported.add(rs.getString("FKTABLE_NAME") + "." + rs.getString("FKCOLUMN_NAME"));
        }
      }
      assertThat(exported).containsExactly("fk_child.pb", "fk_child.pa");
      s.execute("DROP TABLE fk_child");
      s.execute("DROP TABLE fk_parent");
    }
  }

  @Test
  void isolationAndReadOnlySettersAndServerPreparedStatementsAcrossDiscard() throws SQLException {
    Properties p = new Properties();
    p.setProperty("prepareThreshold", "1");
    try (Connection c = server.connect(p)) {
      c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      c.setReadOnly(false);
      assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      try (PreparedStatement ps = c.prepareStatement("select label from big where id = ?")) {
        for (int i = 1; i <= 3; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("row" + i);
          }
        }
      }
    }
  }
}
