package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ResultSet getters, ResultSetMetaData and DatabaseMetaData. */
class MetaDataTest extends JdbcTestSupport {
  private Connection c;

  @BeforeEach
  void createTables() throws SQLException {
    c = connect();
    update(c, "CREATE TABLE orders (id BIGINT NOT NULL, line INTEGER NOT NULL, customer VARCHAR(30) NOT NULL,"
        + " amount NUMERIC(12,2), note TEXT, code CHAR(5), paid BOOLEAN, placed DATE, at TIMESTAMP, ratio DOUBLE PRECISION,"
        + " PRIMARY KEY (id, line), UNIQUE (code))");
    update(c, "CREATE INDEX orders_customer_placed ON orders (customer, placed DESC)");
    update(c, "CREATE UNIQUE INDEX orders_note_uq ON orders (note)");
    update(c, "CREATE TABLE other (k INTEGER PRIMARY KEY)");
    update(c, "INSERT INTO orders VALUES (1, 1, 'ann', 12.50, 'n1', 'A1', TRUE, DATE '2024-05-06',"
        + " TIMESTAMP '2024-05-06 07:08:09', 0.5), (1, 2, 'bob', NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
  }

  @Test
  void gettersByIndexAndByLabel() throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, line, customer, amount, paid, placed, ratio, id * 10 AS ten,"
             + " customer AS \"Who\" FROM orders ORDER BY line")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1L);
      assertThat(rs.getLong("id")).isEqualTo(1L);
      assertThat(rs.getInt("line")).isEqualTo(1);
      assertThat(rs.getString(3)).isEqualTo("ann");
      assertThat(rs.getString("customer")).isEqualTo("ann");
      assertThat(rs.getBigDecimal("amount")).isEqualTo(new BigDecimal("12.50"));
      assertThat(rs.getDouble("amount")).isEqualTo(12.5);
      assertThat(rs.getString("amount")).isEqualTo("12.50");
      assertThat(rs.getBoolean("paid")).isTrue();
      assertThat(rs.getString("placed")).isEqualTo("2024-05-06");
      assertThat(rs.getDouble("ratio")).isEqualTo(0.5);
      assertThat(rs.getLong("ten")).isEqualTo(10L);
      assertThat(rs.getString("Who")).isEqualTo("ann");
      // labels are matched without regard to case, as JDBC asks
      assertThat(rs.getString("CUSTOMER")).isEqualTo("ann");
      assertThat(rs.getInt("Line")).isEqualTo(1);
      assertThat(rs.findColumn("ten")).isEqualTo(8);
      assertThat(rs.findColumn("who")).isEqualTo(9);
      // conversions between getters
      assertThat(rs.getString("line")).isEqualTo("1");
      assertThat(rs.getInt("id")).isEqualTo(1);
      assertThat(rs.getBigDecimal("line")).isEqualByComparingTo("1");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("customer")).isEqualTo("bob");
      assertThat(rs.getBigDecimal("amount")).isNull();
      assertThat(rs.wasNull()).isTrue();
      assertThat(rs.getString("customer")).isEqualTo("bob");
      assertThat(rs.wasNull()).isFalse();
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void unknownColumnLabelIsAnUndefinedColumnError() throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
      assertThat(rs.next()).isTrue();
      expectState("42703", () -> rs.getString("nope"));
      expectState("42703", () -> rs.findColumn("nope"));
      // the result set is still usable
      assertThat(rs.getLong("id")).isEqualTo(1L);
    }
  }

  @Test
  void columnIndexOutOfRangeIsAnError() throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, line FROM orders")) {
      assertThat(rs.next()).isTrue();
      expectState("22023", () -> rs.getInt(0));
      expectState("22023", () -> rs.getInt(3));
      expectState("22023", () -> rs.getObject(99));
      assertThat(rs.getInt(2)).isEqualTo(1);
    }
  }

  @Test
  void resultSetMetaData() throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, customer, amount, note, code, paid, placed, at, ratio,"
             + " line + 1 AS next_line, count(*) OVER () AS n FROM orders")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(11);
      List<String> names = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        names.add(md.getColumnName(i));
        labels.add(md.getColumnLabel(i));
      }
      assertThat(labels).containsExactly("id", "customer", "amount", "note", "code", "paid", "placed", "at", "ratio",
          "next_line", "n");
      assertThat(names.subList(0, 9)).containsExactly("id", "customer", "amount", "note", "code", "paid", "placed",
          "at", "ratio");

      assertThat(md.getColumnType(1)).isEqualTo(Types.BIGINT);
      assertThat(md.getColumnType(2)).isEqualTo(Types.VARCHAR);
      assertThat(md.getColumnType(3)).isIn(Types.NUMERIC, Types.DECIMAL);
      assertThat(md.getColumnType(4)).isEqualTo(Types.VARCHAR);
      assertThat(md.getColumnType(5)).isEqualTo(Types.CHAR);
      assertThat(md.getColumnType(6)).isEqualTo(Types.BOOLEAN);
      assertThat(md.getColumnType(7)).isEqualTo(Types.DATE);
      assertThat(md.getColumnType(8)).isEqualTo(Types.TIMESTAMP);
      assertThat(md.getColumnType(9)).isEqualTo(Types.DOUBLE);
      assertThat(md.getColumnType(10)).isEqualTo(Types.INTEGER);
      assertThat(md.getColumnType(11)).isEqualTo(Types.BIGINT);
      assertThat(md.getColumnTypeName(1)).isEqualToIgnoringCase("BIGINT");
      assertThat(md.getColumnTypeName(2)).isEqualToIgnoringCase("VARCHAR");
      assertThat(md.getColumnTypeName(6)).isEqualToIgnoringCase("BOOLEAN");

      assertThat(md.getPrecision(3)).isEqualTo(12);
      assertThat(md.getScale(3)).isEqualTo(2);
      assertThat(md.getPrecision(2)).isEqualTo(30);
      assertThat(md.getPrecision(5)).isEqualTo(5);

      assertThat(md.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(md.isNullable(2)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(md.isNullable(3)).isEqualTo(ResultSetMetaData.columnNullable);
      assertThat(md.isNullable(4)).isEqualTo(ResultSetMetaData.columnNullable);

      assertThat(md.getColumnClassName(1)).isEqualTo(Long.class.getName());
      assertThat(md.getColumnClassName(2)).isEqualTo(String.class.getName());
      assertThat(md.getColumnClassName(3)).isEqualTo(BigDecimal.class.getName());
    }
  }

  @Test
  void preparedStatementMetaDataBeforeExecution() throws SQLException {
    try (var ps = c.prepareStatement("SELECT amount, customer AS who FROM orders WHERE id = ?")) {
      ResultSetMetaData md = ps.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(2);
      assertThat(md.getColumnLabel(2)).isEqualTo("who");
      assertThat(md.getPrecision(1)).isEqualTo(12);
      assertThat(md.getScale(1)).isEqualTo(2);
    }
  }

  @Test
  void productIsPostgreSqlAsSeenByToolsAndTheDriverIsAccels() throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    assertThat(md.getDatabaseProductName()).isEqualTo("PostgreSQL");
    assertThat(md.getDatabaseProductVersion()).isEqualTo("15.0 (Accel 0.1.0)");
    assertThat(md.getDatabaseMajorVersion()).isEqualTo(15);
    assertThat(md.getDatabaseMinorVersion()).isEqualTo(0);
    assertThat(md.getDriverName()).isEqualTo("Accel JDBC Driver");
    assertThat(md.getDriverVersion()).isNotBlank();
    assertThat(md.getURL()).isEqualTo(url);
    assertThat(md.getConnection()).isSameAs(c);
    assertThat(md.isReadOnly()).isFalse();
    assertThat(md.supportsTransactions()).isTrue();
    assertThat(md.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_REPEATABLE_READ)).isTrue();
    assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE)).isFalse();
    assertThat(md.supportsBatchUpdates()).isTrue();
    assertThat(md.dataDefinitionCausesTransactionCommit()).isFalse();
    assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
    assertThat(md.storesLowerCaseIdentifiers()).isTrue();
  }

  @Test
  void getTablesListsTheStoredTables() throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    Map<String, String> tables = new LinkedHashMap<>();
    try (ResultSet rs = md.getTables(null, "public", "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        tables.put(rs.getString("TABLE_NAME"), rs.getString("TABLE_TYPE"));
        assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("public");
      }
    }
    assertThat(tables).containsExactly(Map.entry("orders", "TABLE"), Map.entry("other", "TABLE"));
    try (ResultSet rs = md.getTables(null, null, "oth%", null)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("other");
      assertThat(rs.next()).isFalse();
    }
    // a table created later is listed too
    update(c, "CREATE TABLE third (x INTEGER)");
    try (ResultSet rs = md.getTables(null, "public", "third", null)) {
      assertThat(rs.next()).isTrue();
    }
    update(c, "DROP TABLE third");
    try (ResultSet rs = md.getTables(null, "public", "third", null)) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void getColumnsDescribesTheColumns() throws SQLException {
    Map<String, Map<String, Object>> columns = new LinkedHashMap<>();
    try (ResultSet rs = c.getMetaData().getColumns(null, "public", "orders", "%")) {
      while (rs.next()) {
        Map<String, Object> col = new HashMap<>();
        col.put("DATA_TYPE", rs.getInt("DATA_TYPE"));
        col.put("TYPE_NAME", rs.getString("TYPE_NAME"));
        col.put("COLUMN_SIZE", rs.getInt("COLUMN_SIZE"));
        col.put("DECIMAL_DIGITS", rs.getInt("DECIMAL_DIGITS"));
        col.put("NULLABLE", rs.getInt("NULLABLE"));
        col.put("IS_NULLABLE", rs.getString("IS_NULLABLE"));
        col.put("ORDINAL_POSITION", rs.getInt("ORDINAL_POSITION"));
        col.put("COLUMN_DEF", rs.getString("COLUMN_DEF"));
        assertThat(rs.getString("TABLE_NAME")).isEqualTo("orders");
        columns.put(rs.getString("COLUMN_NAME"), col);
      }
    }
    assertThat(columns.keySet()).containsExactly("id", "line", "customer", "amount", "note", "code", "paid", "placed",
        "at", "ratio");
    assertThat(columns.get("id")).containsEntry("DATA_TYPE", Types.BIGINT).containsEntry("ORDINAL_POSITION", 1)
        .containsEntry("TYPE_NAME", "BIGINT")
        .containsEntry("NULLABLE", DatabaseMetaData.columnNoNulls).containsEntry("IS_NULLABLE", "NO");
    assertThat(columns.get("customer")).containsEntry("DATA_TYPE", Types.VARCHAR).containsEntry("COLUMN_SIZE", 30)
        .containsEntry("NULLABLE", DatabaseMetaData.columnNoNulls);
    assertThat((Integer) columns.get("amount").get("DATA_TYPE")).isIn(Types.NUMERIC, Types.DECIMAL);
    assertThat(columns.get("amount")).containsEntry("COLUMN_SIZE", 12).containsEntry("DECIMAL_DIGITS", 2)
        .containsEntry("NULLABLE", DatabaseMetaData.columnNullable).containsEntry("IS_NULLABLE", "YES");
    assertThat(columns.get("code")).containsEntry("DATA_TYPE", Types.CHAR).containsEntry("COLUMN_SIZE", 5);
    assertThat(columns.get("paid")).containsEntry("DATA_TYPE", Types.BOOLEAN);
    assertThat(columns.get("placed")).containsEntry("DATA_TYPE", Types.DATE).containsEntry("ORDINAL_POSITION", 8);
    assertThat(columns.get("at")).containsEntry("DATA_TYPE", Types.TIMESTAMP);
    assertThat(columns.get("ratio")).containsEntry("DATA_TYPE", Types.DOUBLE);
    assertThat((String) columns.get("customer").get("TYPE_NAME")).startsWithIgnoringCase("VARCHAR");
    assertThat(columns.get("note")).containsEntry("DATA_TYPE", Types.VARCHAR);

    try (ResultSet rs = c.getMetaData().getColumns(null, null, "orders", "c%")) {
      List<String> names = new ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString("COLUMN_NAME"));
      }
      assertThat(names).containsExactly("customer", "code");
    }
  }

  @Test
  void getColumnsReportsDefaults() throws SQLException {
    update(c, "CREATE TABLE withdefault (id INTEGER PRIMARY KEY, status VARCHAR(10) DEFAULT 'new', n INTEGER DEFAULT 0,"
        + " plain TEXT)");
    Map<String, String> defaults = new HashMap<>();
    try (ResultSet rs = c.getMetaData().getColumns(null, "public", "withdefault", null)) {
      while (rs.next()) {
        defaults.put(rs.getString("COLUMN_NAME"), rs.getString("COLUMN_DEF"));
      }
    }
    assertThat(defaults.get("status")).contains("new");
    assertThat(defaults.get("n")).isEqualTo("0");
    assertThat(defaults).containsEntry("plain", null).containsEntry("id", null);
  }

  @Test
  void getColumnsReportsAutoincrementAndGeneratedColumnsAsPgJdbcDoes() throws SQLException {
    update(c, "CREATE TABLE counted (id BIGSERIAL PRIMARY KEY, n INTEGER GENERATED ALWAYS AS IDENTITY,"
        + " v INTEGER DEFAULT 3, twice INTEGER GENERATED ALWAYS AS (v * 2) STORED)");
    Map<String, List<String>> columns = new HashMap<>();
    try (ResultSet rs = c.getMetaData().getColumns(null, "public", "counted", null)) {
      while (rs.next()) {
        columns.put(rs.getString("COLUMN_NAME"), java.util.Arrays.asList(rs.getString("IS_AUTOINCREMENT"),
            rs.getString("IS_GENERATEDCOLUMN"), rs.getString("COLUMN_DEF")));
      }
    }
    // as pgJDBC on PostgreSQL: a serial and an identity column are autoincrement, the identity shows no default
    assertThat(columns.get("id")).containsExactly("YES", "NO", "nextval('counted_id_seq'::regclass)");
    assertThat(columns.get("n")).containsExactly("YES", "NO", null);
    assertThat(columns.get("v")).containsExactly("NO", "NO", "3");
    assertThat(columns.get("twice").subList(0, 2)).containsExactly("NO", "YES");
    assertThat(columns.get("twice").get(2)).contains("v * 2");
  }

  @Test
  void getColumnsOfSeveralTablesAreOrderedByTableAndPosition() throws SQLException {
    update(c, "CREATE TABLE aaa (z INTEGER, a INTEGER)");
    List<String> columns = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getColumns(null, "public", "%", "%")) {
      while (rs.next()) {
        columns.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME"));
      }
    }
    assertThat(columns).containsExactly("aaa.z", "aaa.a", "orders.id", "orders.line", "orders.customer",
        "orders.amount", "orders.note", "orders.code", "orders.paid", "orders.placed", "orders.at", "orders.ratio",
        "other.k");
  }

  @Test
  void getPrimaryKeysGivesTheKeyColumnsInKeyOrder() throws SQLException {
    List<String> keys = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", "orders")) {
      while (rs.next()) {
        assertThat(rs.getString("TABLE_NAME")).isEqualTo("orders");
        assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("public");
        assertThat(rs.getString("PK_NAME")).isEqualTo("orders_pkey");
        keys.add(rs.getString("COLUMN_NAME") + ":" + rs.getShort("KEY_SEQ"));
      }
    }
    assertThat(keys).containsExactlyInAnyOrder("id:1", "line:2");
    try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, null, "other")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("COLUMN_NAME")).isEqualTo("k");
      assertThat(rs.getInt("KEY_SEQ")).isEqualTo(1);
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, null, "missing")) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void tableWithoutPrimaryKeyHasNoPrimaryKeyRows() throws SQLException {
    update(c, "CREATE TABLE heap (x INTEGER, y TEXT)");
    try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, null, "heap")) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void importedAndExportedKeysListForeignKeyColumnsWithTheirRules() throws SQLException {
    update(c, "CREATE TABLE items (id INTEGER PRIMARY KEY, order_id BIGINT, order_line INTEGER, other_k INTEGER"
        + " REFERENCES other ON DELETE CASCADE, CONSTRAINT items_order FOREIGN KEY (order_id, order_line)"
        + " REFERENCES orders (id, line) ON UPDATE SET NULL)");
    DatabaseMetaData md = c.getMetaData();
    List<String> imported = new ArrayList<>();
    try (ResultSet rs = md.getImportedKeys(null, "public", "items")) {
      while (rs.next()) {
        imported.add(rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME") + " <- "
            + rs.getString("FKTABLE_NAME") + "." + rs.getString("FKCOLUMN_NAME") + " " + rs.getShort("KEY_SEQ") + " "
            + rs.getString("FK_NAME") + " " + rs.getString("PK_NAME") + " u" + rs.getShort("UPDATE_RULE") + " d"
            + rs.getShort("DELETE_RULE") + " " + rs.getShort("DEFERRABILITY"));
      }
    }
    assertThat(imported).containsExactly(
        "orders.id <- items.order_id 1 items_order orders_pkey u" + DatabaseMetaData.importedKeySetNull + " d"
            + DatabaseMetaData.importedKeyNoAction + " " + DatabaseMetaData.importedKeyNotDeferrable,
        "orders.line <- items.order_line 2 items_order orders_pkey u" + DatabaseMetaData.importedKeySetNull + " d"
            + DatabaseMetaData.importedKeyNoAction + " " + DatabaseMetaData.importedKeyNotDeferrable,
        "other.k <- items.other_k 1 items_other_k_fkey other_pkey u" + DatabaseMetaData.importedKeyNoAction + " d"
            + DatabaseMetaData.importedKeyCascade + " " + DatabaseMetaData.importedKeyNotDeferrable);
    List<String> exported = new ArrayList<>();
    try (ResultSet rs = md.getExportedKeys(null, null, "other")) {
      while (rs.next()) {
        exported.add(rs.getString("FKTABLE_NAME") + "." + rs.getString("FKCOLUMN_NAME"));
      }
    }
    assertThat(exported).containsExactly("items.other_k");
    try (ResultSet rs = md.getCrossReference(null, null, "orders", null, null, "items")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("FK_NAME")).isEqualTo("items_order");
    }
    try (ResultSet rs = md.getExportedKeys(null, null, "items")) {
      assertThat(rs.next()).isFalse();
    }
  }

  private record IndexRow(String name, boolean nonUnique, short position, String column, String ascOrDesc) {
  }

  private List<IndexRow> indexInfo(String table, boolean unique) throws SQLException {
    List<IndexRow> rows = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getIndexInfo(null, "public", table, unique, false)) {
      while (rs.next()) {
        assertThat(rs.getString("TABLE_NAME")).isEqualTo(table);
        assertThat(rs.getShort("TYPE")).isNotEqualTo(DatabaseMetaData.tableIndexStatistic);
        rows.add(new IndexRow(rs.getString("INDEX_NAME"), rs.getBoolean("NON_UNIQUE"), rs.getShort("ORDINAL_POSITION"),
            rs.getString("COLUMN_NAME"), rs.getString("ASC_OR_DESC")));
      }
    }
    return rows;
  }

  @Test
  void getIndexInfoListsIndexesWithDirectionAndUniqueness() throws SQLException {
    List<IndexRow> rows = indexInfo("orders", false);
    // unique indexes first, then by name and position, as JDBC orders them
    assertThat(rows).containsExactly(
        new IndexRow("orders_code_key", false, (short) 1, "code", "A"),
        new IndexRow("orders_note_uq", false, (short) 1, "note", "A"),
        new IndexRow("orders_pkey", false, (short) 1, "id", "A"),
        new IndexRow("orders_pkey", false, (short) 2, "line", "A"),
        new IndexRow("orders_customer_placed", true, (short) 1, "customer", "A"),
        new IndexRow("orders_customer_placed", true, (short) 2, "placed", "D"));
  }

  @Test
  void getIndexInfoWithUniqueOnlyOmitsNonUniqueIndexes() throws SQLException {
    assertThat(indexInfo("orders", true)).extracting(IndexRow::name).containsOnly("orders_code_key", "orders_note_uq",
        "orders_pkey");
    assertThat(indexInfo("other", false)).containsExactly(new IndexRow("other_pkey", false, (short) 1, "k", "A"));
    assertThat(indexInfo("missing", false)).isEmpty();
  }

  @Test
  void getIndexInfoFollowsDroppedAndCreatedIndexes() throws SQLException {
    update(c, "DROP INDEX orders_customer_placed");
    update(c, "CREATE INDEX orders_ratio_desc ON orders (ratio DESC)");
    assertThat(indexInfo("orders", false)).extracting(IndexRow::name).doesNotContain("orders_customer_placed")
        .contains("orders_ratio_desc");
    assertThat(indexInfo("orders", false)).filteredOn(r -> r.name().equals("orders_ratio_desc"))
        .containsExactly(new IndexRow("orders_ratio_desc", true, (short) 1, "ratio", "D"));
  }

  @Test
  void getTypeInfoListsTheSupportedTypes() throws SQLException {
    Map<String, Integer> types = new HashMap<>();
    try (ResultSet rs = c.getMetaData().getTypeInfo()) {
      while (rs.next()) {
        types.put(rs.getString("TYPE_NAME").toUpperCase(), rs.getInt("DATA_TYPE"));
        assertThat(rs.getShort("NULLABLE")).isEqualTo((short) DatabaseMetaData.typeNullable);
      }
    }
    assertThat(types).containsEntry("INTEGER", Types.INTEGER).containsEntry("BIGINT", Types.BIGINT)
        .containsEntry("SMALLINT", Types.SMALLINT).containsEntry("VARCHAR", Types.VARCHAR)
        .containsEntry("CHAR", Types.CHAR).containsEntry("BOOLEAN", Types.BOOLEAN).containsEntry("DATE", Types.DATE)
        .containsEntry("TIME", Types.TIME).containsEntry("TIMESTAMP", Types.TIMESTAMP)
        .containsEntry("DOUBLE", Types.DOUBLE).containsEntry("REAL", Types.REAL);
    assertThat(types).containsKey("DECIMAL");
  }

  @Test
  void connectionIsValidUntilClosed() throws SQLException {
    Connection other = connect();
    assertThat(other.isValid(0)).isTrue();
    assertThat(other.isValid(5)).isTrue();
    expectState("22023", () -> other.isValid(-1));
    other.close();
    assertThat(other.isValid(0)).isFalse();
  }
}
