package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Connection URLs, driver discovery, and the lifetime of in-memory and file stores. */
class DriverUrlTest extends JdbcTestSupport {
  @TempDir
  Path dir;

  @Test
  void driverIsListedInMetaInfServices() {
    List<String> drivers = new ArrayList<>();
    for (Driver d : ServiceLoader.load(Driver.class)) {
      drivers.add(d.getClass().getName());
    }
    assertThat(drivers).contains(AccelDriver.class.getName());
  }

  @Test
  void driverManagerFindsTheDriverForAccelUrls() throws SQLException {
    Driver d = DriverManager.getDriver("jdbc:accel:mem:x");
    assertThat(d).isInstanceOf(AccelDriver.class);
    assertThat(d.acceptsURL("jdbc:accel:mem:x")).isTrue();
    assertThat(d.acceptsURL("jdbc:accel:file:/tmp/x")).isTrue();
    assertThat(d.acceptsURL("jdbc:postgresql://localhost/db")).isFalse();
    assertThat(d.acceptsURL("jdbc:h2:mem:x")).isFalse();
    assertThat(d.getMajorVersion()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void storeSettingsTheOpenStoreDoesNotHaveAreReportedAsWarnings() throws SQLException {
    Connection first = connect(url + "?blockCacheSize=64MB&rowCacheSize=8MB");
    assertThat((Throwable) first.getWarnings()).isNull();
    Connection same = connect(url + "?blockCacheSize=64MB");
    assertThat((Throwable) same.getWarnings()).isNull();
    Connection unset = connect(url);
    assertThat((Throwable) unset.getWarnings()).isNull();
    Connection other = connect(url + "?blockCacheSize=32MB&syncCommits=false&rowCacheSize=8MB");
    java.sql.SQLWarning w = other.getWarnings();
    assertThat((Throwable) w).isNotNull();
    assertThat(w.getMessage()).contains("blockCacheSize=33554432 was ignored")
        .contains("blockCacheSize=67108864");
    assertThat(w.getSQLState()).isEqualTo("22023");
    assertThat((Throwable) w.getNextWarning()).isNotNull();
    assertThat(w.getNextWarning().getMessage()).contains("syncCommits=false was ignored");
    assertThat((Throwable) w.getNextWarning().getNextWarning()).isNull();
    // the connection works with the store's settings
    assertThat(other.createStatement().executeQuery("SELECT 1").next()).isTrue();
    other.clearWarnings();
    assertThat((Throwable) other.getWarnings()).isNull();
  }

  @Test
  void connectReturnsNullForUrlsOfOtherDrivers() throws SQLException {
    assertThat(new AccelDriver().connect("jdbc:postgresql://localhost/db", new Properties())).isNull();
  }

  @Test
  void memUrlOpensAWorkingConnection() throws SQLException {
    Connection c = connect();
    assertThat(c.isClosed()).isFalse();
    assertThat(c.isValid(0)).isTrue();
    assertThat(update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY)")).isZero();
    assertThat(update(c, "INSERT INTO t VALUES (1), (2)")).isEqualTo(2);
    assertThat(count(c, "t")).isEqualTo(2);
  }

  @Test
  void propertiesInUrlAfterQuestionMarkOrSemicolon() throws SQLException {
    for (String u : List.of(url + "?syncCommits=false&blockCacheSize=8MB", url + ";blockCacheSize=1048576",
        url + "?blockCacheSize=2m;syncCommits=true")) {
      try (Connection c = DriverManager.getConnection(u)) {
        assertUsable(c);
      }
    }
  }

  @Test
  void propertiesAreRead() {
    // a property value that is not valid shows the property is read, from the URL ...
    SQLException e = expectState("22023", () -> DriverManager.getConnection(url + "?blockCacheSize=lots"));
    assertThat(e.getMessage()).contains("lots");
    expectState("22023", () -> DriverManager.getConnection(url + ";blockCacheSize=lots"));
    // ... and from the Properties
    Properties p = new Properties();
    p.setProperty("blockCacheSize", "lots");
    expectState("22023", () -> DriverManager.getConnection(url, p));
  }

  @Test
  void urlPropertiesOverrideTheProperties() throws SQLException {
    Properties p = new Properties();
    p.setProperty("blockCacheSize", "lots");
    try (Connection c = DriverManager.getConnection(url + "?blockCacheSize=4MB", p)) {
      assertUsable(c);
    }
  }

  @Test
  void userPropertyIsReportedByMetaData() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "alice");
    try (Connection c = DriverManager.getConnection(url, p)) {
      assertThat(c.getMetaData().getUserName()).isEqualTo("alice");
    }
    try (Connection c = DriverManager.getConnection(url + "?user=bob")) {
      assertThat(c.getMetaData().getUserName()).isEqualTo("bob");
    }
  }

  @Test
  void malformedUrlPropertyIsAnError() {
    expectState("08006", () -> DriverManager.getConnection(url + "?novalue"));
  }

  @Test
  void unknownLocationFormIsAnErrorWithSqlState() {
    SQLException e = expectState("08006", () -> DriverManager.getConnection("jdbc:accel:tape:/dev/st0"));
    assertThat(e.getMessage()).contains("tape");
    expectState("08006", () -> DriverManager.getConnection("jdbc:accel:mem:"));
    expectState("08006", () -> DriverManager.getConnection("jdbc:accel:file:"));
    expectState("08006", () -> DriverManager.getConnection("jdbc:accel:"));
  }

  @Test
  void frontingMysqlIsNotSupportedWithAClearError() {
    SQLException e = expectState("0A000",
        () -> DriverManager.getConnection("jdbc:accel:mysql://localhost:3306/shop?user=app"));
    assertThat(e.getMessage()).contains("MySQL").contains("jdbc:accel:postgresql://");
  }

  @Test
  void anUnreachableUpstreamIs08001NamingHostAndPort() {
    SQLException e = expectState("08001",
        () -> DriverManager.getConnection("jdbc:accel:postgresql://127.0.0.1:9/shop?user=app&connectTimeout=2"));
    assertThat(e.getMessage()).contains("127.0.0.1:9");
  }

  @Test
  void memStoreIsSharedByConnectionsAndGoneAfterTheLastCloses() throws SQLException {
    Connection a = DriverManager.getConnection(url);
    Connection b = DriverManager.getConnection(url);
    try {
      update(a, "CREATE TABLE shared (id INTEGER PRIMARY KEY, v VARCHAR(10))");
      update(a, "INSERT INTO shared VALUES (1, 'one')");
      assertThat(scalar(b, "SELECT v FROM shared WHERE id = 1")).isEqualTo("one");
      update(b, "INSERT INTO shared VALUES (2, 'two')");
      assertThat(count(a, "shared")).isEqualTo(2);
      a.close();
      // still open through b
      assertThat(count(b, "shared")).isEqualTo(2);
      try (Connection c = DriverManager.getConnection(url)) {
        assertThat(count(c, "shared")).isEqualTo(2);
      }
      assertThat(count(b, "shared")).isEqualTo(2);
    } finally {
      a.close();
      b.close();
    }
    try (Connection c = DriverManager.getConnection(url)) {
      expectState("42P01", c, "SELECT * FROM shared");
      // and the name is free again
      update(c, "CREATE TABLE shared (x INTEGER)");
      assertThat(count(c, "shared")).isZero();
    }
  }

  @Test
  void differentMemNamesAreDifferentStores() throws SQLException {
    Connection a = connect();
    Connection b = connect(url + "_other");
    update(a, "CREATE TABLE only_in_a (id INTEGER)");
    expectState("42P01", b, "SELECT * FROM only_in_a");
  }

  @Test
  void fileStoreKeepsCatalogAndRowsAcrossReopen() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("db");
    try (Connection c = DriverManager.getConnection(fileUrl); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customer (id INTEGER PRIMARY KEY, email VARCHAR(40) NOT NULL UNIQUE,"
          + " name TEXT, balance NUMERIC(12,2) DEFAULT 0, joined DATE)");
      s.execute("CREATE INDEX customer_name_desc ON customer (name DESC, id)");
      s.execute("CREATE TABLE log (msg TEXT)");
      s.executeUpdate("INSERT INTO customer (id, email, name, joined) VALUES (1, 'a@x', 'ann', DATE '2024-01-02'),"
          + " (2, 'b@x', 'bob', NULL)");
      s.executeUpdate("INSERT INTO log VALUES ('first'), ('second')");
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(rows(c, "SELECT id, email, name, balance, joined FROM customer ORDER BY id")).containsExactly(
          List.of(1, "a@x", "ann", new java.math.BigDecimal("0.00"), java.sql.Date.valueOf("2024-01-02")),
          java.util.Arrays.asList(2, "b@x", "bob", new java.math.BigDecimal("0.00"), null));
      // the default, NOT NULL, primary key and unique constraints are still in force
      update(c, "INSERT INTO customer (id, email) VALUES (3, 'c@x')");
      assertThat(scalar(c, "SELECT balance FROM customer WHERE id = 3")).isEqualTo(new java.math.BigDecimal("0.00"));
      expectState("23505", c, "INSERT INTO customer (id, email) VALUES (1, 'z@x')");
      expectState("23505", c, "INSERT INTO customer (id, email) VALUES (9, 'a@x')");
      expectState("23502", c, "INSERT INTO customer (id) VALUES (9)");
      // the index is there and answers queries
      DatabaseMetaData md = c.getMetaData();
      List<String> indexColumns = new ArrayList<>();
      try (ResultSet rs = md.getIndexInfo(null, null, "customer", false, false)) {
        while (rs.next()) {
          if ("customer_name_desc".equals(rs.getString("INDEX_NAME"))) {
            indexColumns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("ASC_OR_DESC"));
          }
        }
      }
      assertThat(indexColumns).containsExactly("name D", "id A");
      assertThat(rows(c, "SELECT id FROM customer WHERE name = 'bob'")).containsExactly(List.of(2));
      assertThat(rows(c, "SELECT name FROM customer ORDER BY name DESC")).containsExactly(
          java.util.Arrays.asList((Object) null), List.of("bob"), List.of("ann"));
      // a table without a primary key goes on numbering its rows after the stored ones
      update(c, "INSERT INTO log VALUES ('third')");
      assertThat(count(c, "log")).isEqualTo(3);
      assertThat(rows(c, "SELECT msg FROM log ORDER BY msg")).containsExactly(List.of("first"), List.of("second"),
          List.of("third"));
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(count(c, "customer")).isEqualTo(3);
      assertThat(count(c, "log")).isEqualTo(3);
      update(c, "DROP TABLE log");
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      expectState("42P01", c, "SELECT * FROM log");
      assertThat(count(c, "customer")).isEqualTo(3);
    }
  }

  @Test
  void fileStoreIsSharedByConnectionsOfOneProcess() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("shared");
    Connection a = connect(fileUrl);
    Connection b = connect(fileUrl + "?syncCommits=false");
    update(a, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
    update(b, "INSERT INTO t VALUES (7)");
    assertThat(scalar(a, "SELECT id FROM t")).isEqualTo(7);
  }

  @Test
  void fileStoreKeepsOnlyCommittedWork() throws SQLException {
    String fileUrl = "jdbc:accel:file:" + dir.resolve("txn");
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
      update(c, "INSERT INTO t VALUES (1)");
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
        ps.setInt(1, 2);
        ps.executeUpdate();
      }
      // closed without commit
    }
    try (Connection c = DriverManager.getConnection(fileUrl)) {
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of(1));
    }
  }
}
