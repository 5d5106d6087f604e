package io.accel.compat.flyway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flyway's PostgreSQL support migrating a shop's schema history on a standalone file store. */
class FlywayMigrationTest {
  @TempDir
  Path dir;

  private HikariDataSource dataSource() {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl("jdbc:accel:file:" + dir.resolve("shop"));
    ds.setMaximumPoolSize(3);
    return ds;
  }

  private static Flyway flyway(HikariDataSource ds, String... locations) {
    return Flyway.configure().dataSource(ds).locations(locations).load();
  }

  /**
   * An existing database brought under Flyway: baseline at version 3 (its tables already made by hand), then migrate
   * applies only what comes after the baseline.
   */
  @Test
  void baselineOfAnExistingSchemaThenMigrateAppliesOnlyLaterVersions() throws SQLException {
    try (HikariDataSource ds = dataSource()) {
      Flyway first = Flyway.configure().dataSource(ds).locations("classpath:db/shop").load();
      first.migrate(); // the schema an application had before it used Flyway: made, then its history dropped
      try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
        s.execute("DROP TABLE flyway_schema_history");
      }
      Flyway baselined = Flyway.configure().dataSource(ds).locations("classpath:db/shop").baselineVersion("5")
          .baselineDescription("existing schema").load();
      baselined.baseline();
      MigrationInfo[] applied = baselined.info().applied();
      assertThat(applied).extracting(i -> i.getVersion().getVersion()).containsExactly("5");
      assertThat(applied[0].getDescription()).isEqualTo("existing schema");
      assertThat(applied[0].getState()).isEqualTo(MigrationState.BASELINE);
      // versions up to the baseline are not run again; the repeatable migration is
      MigrateResult after = baselined.migrate();
      assertThat(after.success).isTrue();
      assertThat(after.migrationsExecuted).isEqualTo(1);
      assertThat(baselined.info().applied()).extracting(i -> i.getVersion() == null ? "R" : i.getVersion().getVersion())
          .containsExactly("5", "R");
      assertThat(baselined.info().pending()).isEmpty();
    }
  }

  @Test
  void migratesTheWholeHistoryAndASecondMigrateDoesNothing() throws SQLException {
    try (HikariDataSource ds = dataSource()) {
      MigrateResult first = flyway(ds, "classpath:db/shop").migrate();
      assertThat(first.success).isTrue();
      assertThat(first.migrationsExecuted).isEqualTo(6);
      assertThat(first.targetSchemaVersion).isEqualTo("5");

      MigrationInfo[] applied = flyway(ds, "classpath:db/shop").info().applied();
      assertThat(applied).extracting(i -> i.getVersion() == null ? "R" : i.getVersion().getVersion())
          .containsExactly("1", "2", "3", "4", "5", "R");
      assertThat(applied).extracting(MigrationInfo::getState).containsOnly(MigrationState.SUCCESS);
      assertThat(applied).extracting(MigrationInfo::getDescription)
          .containsExactly("customers", "products and orders", "customer phone and shipping", "seed products",
              "order totals view", "customer summary");
      assertThat(flyway(ds, "classpath:db/shop").info().pending()).isEmpty();

      MigrateResult second = flyway(ds, "classpath:db/shop").migrate();
      assertThat(second.migrationsExecuted).isZero();
      assertThat(flyway(ds, "classpath:db/shop").info().applied()).hasSize(6);
      flyway(ds, "classpath:db/shop").validate();

      try (Connection c = ds.getConnection()) {
        assertThat(prices(c)).containsExactly(Map.entry("CB-USB", new BigDecimal("11.99")),
            Map.entry("KB-01", new BigDecimal("59.88")), Map.entry("MN-27", new BigDecimal("334.80")),
            Map.entry("MS-01", new BigDecimal("23.40")));
        assertThat(placeOrder(c, "ada@example.com", "KB-01", 2)).isEqualTo(new BigDecimal("119.76"));
        assertThat(query(c, "SELECT email, orders FROM customer_summary")).containsExactly("ada@example.com|1");
      }
    }
  }

  @Test
  void reopeningTheFileStoreKeepsTheSchemaHistoryAndTheData() throws SQLException {
    long firstCustomer;
    try (HikariDataSource ds = dataSource()) {
      flyway(ds, "classpath:db/shop").migrate();
      try (Connection c = ds.getConnection()) {
        placeOrder(c, "ada@example.com", "MS-01", 1);
        firstCustomer = Long.parseLong(query(c, "SELECT id FROM customers").get(0));
      }
    }
    try (HikariDataSource ds = dataSource()) {
      assertThat(flyway(ds, "classpath:db/shop").info().pending()).isEmpty();
      assertThat(flyway(ds, "classpath:db/shop").migrate().migrationsExecuted).isZero();
      try (Connection c = ds.getConnection()) {
        placeOrder(c, "grace@example.com", "MN-27", 1);
        List<String> ids = query(c, "SELECT id FROM customers ORDER BY id");
        assertThat(ids).hasSize(2);
        assertThat(Long.parseLong(ids.get(0))).isEqualTo(firstCustomer);
        assertThat(Long.parseLong(ids.get(1))).isGreaterThan(firstCustomer);
        assertThat(query(c, "SELECT email, orders FROM customer_summary ORDER BY email"))
            .containsExactly("ada@example.com|1", "grace@example.com|1");
      }
    }
  }

  @Test
  void aFailedMigrationLeavesTheStoreAsItWasAndTheFixedOneThenApplies() throws SQLException {
    try (HikariDataSource ds = dataSource()) {
      flyway(ds, "classpath:db/shop").migrate();
      Map<String, BigDecimal> before;
      try (Connection c = ds.getConnection()) {
        before = prices(c);
      }

      assertThatThrownBy(() -> flyway(ds, "classpath:db/shop", "classpath:db/shop-v6-broken").migrate())
          .hasMessageContaining("V6__more_products.sql")
          .hasMessageContaining("23505");

      try (Connection c = ds.getConnection()) {
        assertThat(prices(c)).isEqualTo(before);
      }
      Flyway broken = flyway(ds, "classpath:db/shop", "classpath:db/shop-v6-broken");
      assertThat(broken.info().current().getVersion().getVersion()).isEqualTo("5");
      assertThat(broken.info().pending()).extracting(i -> i.getVersion().getVersion()).containsExactly("6");

      MigrateResult fixed = flyway(ds, "classpath:db/shop", "classpath:db/shop-v6-fixed").migrate();
      assertThat(fixed.migrationsExecuted).isEqualTo(1);
      try (Connection c = ds.getConnection()) {
        assertThat(prices(c)).hasSize(6).containsEntry("HS-01", new BigDecimal("59.00"))
            .containsEntry("KB-02", new BigDecimal("39.00"));
      }
    }
  }

  @Test
  void cleanDropsEverythingAndTheHistoryMigratesAgain() throws SQLException {
    try (HikariDataSource ds = dataSource()) {
      flyway(ds, "classpath:db/shop").migrate();
      Flyway cleaning = Flyway.configure().dataSource(ds).locations("classpath:db/shop").cleanDisabled(false).load();
      cleaning.clean();
      try (Connection c = ds.getConnection()) {
        assertThat(query(c, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).isEmpty();
        assertThat(query(c, "SELECT sequence_name FROM information_schema.sequences")).isEmpty();
      }
      assertThat(cleaning.migrate().migrationsExecuted).isEqualTo(6);
      try (Connection c = ds.getConnection()) {
        assertThat(prices(c)).hasSize(4);
      }
    }
  }

  /** Creates the customer if new and an order of one product line; returns the order's total from the view. */
  private static BigDecimal placeOrder(Connection c, String email, String sku, int quantity) throws SQLException {
    try (var ins = c.prepareStatement(
        "INSERT INTO customers (email, name) VALUES (?, ?) ON CONFLICT (email) DO NOTHING")) {
      ins.setString(1, email);
      ins.setString(2, email.substring(0, email.indexOf('@')));
      ins.executeUpdate();
    }
    long orderId;
    try (var ins = c.prepareStatement(
        "INSERT INTO orders (customer_id) SELECT id FROM customers WHERE email = ? RETURNING id")) {
      ins.setString(1, email);
      try (ResultSet rs = ins.executeQuery()) {
        assertThat(rs.next()).isTrue();
        orderId = rs.getLong(1);
      }
    }
    try (var ins = c.prepareStatement(
        "INSERT INTO order_lines (order_id, line_no, product_id, quantity) SELECT ?, 1, id, ? FROM products WHERE sku = ?")) {
      ins.setLong(1, orderId);
      ins.setInt(2, quantity);
      ins.setString(3, sku);
      assertThat(ins.executeUpdate()).isEqualTo(1);
    }
    try (var q = c.prepareStatement("SELECT total FROM order_totals WHERE order_id = ?")) {
      q.setLong(1, orderId);
      try (ResultSet rs = q.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getBigDecimal(1);
      }
    }
  }

  private static Map<String, BigDecimal> prices(Connection c) throws SQLException {
    Map<String, BigDecimal> prices = new TreeMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sku, price FROM products")) {
      while (rs.next()) {
        prices.put(rs.getString(1), rs.getBigDecimal(2));
      }
    }
    return prices;
  }

  private static List<String> query(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
