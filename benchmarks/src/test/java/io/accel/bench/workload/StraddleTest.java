package io.accel.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The straddle generator as a user sees it: loaded through the Accel driver at a tiny size. */
class StraddleTest {
  private static final long USERS = 200;
  private static final long ORDERS = 2_000;
  private static final AtomicInteger STORES = new AtomicInteger();

  private static Straddle straddle;
  private static Connection db;
  private static LoadResult loaded;

  @BeforeAll
  static void load() throws SQLException {
    straddle = new Straddle(USERS, ORDERS);
    db = open();
    loaded = straddle.load(db);
  }

  @AfterAll
  static void close() throws SQLException {
    if (db != null) {
      db.close();
    }
  }

  private static Connection open() throws SQLException {
    return DriverManager.getConnection("jdbc:accel:mem:straddle-test-" + STORES.incrementAndGet());
  }

  @Test
  void loadsTheRequestedRowCounts() throws SQLException {
    assertThat(count("SELECT COUNT(*) FROM users")).isEqualTo(USERS);
    assertThat(count("SELECT COUNT(*) FROM orders")).isEqualTo(ORDERS);
    assertThat(loaded.rows("users")).isEqualTo(USERS);
    assertThat(loaded.rows("orders")).isEqualTo(ORDERS);
    assertThat(loaded.rows()).isEqualTo(USERS + ORDERS);
    assertThat(db.getAutoCommit()).as("auto-commit restored after the load").isTrue();
  }

  @Test
  void createsTheThreeIndexesOfDatasetsMd() throws SQLException {
    assertThat(straddle.createIndexes()).containsExactly(
        "CREATE UNIQUE INDEX users_email ON users (email)",
        "CREATE INDEX orders_status ON orders (status)",
        "CREATE INDEX orders_user_status ON orders (user_id, status)");
    // users_email is unique: a second user with an existing email is refused by the store.
    try (Statement s = db.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate(
              "INSERT INTO users VALUES (999999, 'user1@example.com', 'x', 'US', TIMESTAMP '2024-01-01 00:00:00')"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
    }
  }

  @Test
  void emailsAreUserIdAtExampleCom() throws SQLException {
    int n = 0;
    try (Statement s = db.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, email FROM users ORDER BY id")) {
      while (rs.next()) {
        n++;
        assertThat(rs.getLong(1)).isEqualTo(n);
        assertThat(rs.getString(2)).isEqualTo("user" + n + "@example.com").matches("user[0-9]+@example\\.com");
      }
    }
    assertThat(n).isEqualTo(USERS);
  }

  @Test
  void storedRowsAreTheGeneratedRows() throws SQLException {
    List<Straddle.User> users = new ArrayList<>();
    try (Statement s = db.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, email, name, country, created_at FROM users ORDER BY id")) {
      while (rs.next()) {
        users.add(new Straddle.User(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getObject(5, LocalDateTime.class)));
      }
    }
    List<Straddle.Order> orders = new ArrayList<>();
    try (Statement s = db.createStatement();
         ResultSet rs = s.executeQuery("SELECT order_id, user_id, status, total, created_at FROM orders ORDER BY order_id")) {
      while (rs.next()) {
        orders.add(new Straddle.Order(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getBigDecimal(4),
            rs.getObject(5, LocalDateTime.class)));
      }
    }
    assertThat(users).containsExactlyElementsOf(generatedUsers(straddle));
    assertThat(orders).containsExactlyElementsOf(generatedOrders(straddle));
  }

  @Test
  void valuesAreInTheirDocumentedRanges() {
    Map<String, Integer> countries = new TreeMap<>();
    for (Straddle.User u : generatedUsers(straddle)) {
      assertThat(Straddle.COUNTRIES).contains(u.country());
      assertThat(u.createdAt()).isAfterOrEqualTo(Straddle.EPOCH).isBefore(Straddle.END);
      assertThat(u.name()).matches("[A-Z][a-z]+ [A-Z][a-z]+");
      countries.merge(u.country(), 1, Integer::sum);
    }
    assertThat(countries.size()).as("countries used by 200 users").isGreaterThanOrEqualTo(18);
    assertThat(Straddle.COUNTRIES).hasSize(20).doesNotHaveDuplicates();
    for (Straddle.Order o : generatedOrders(straddle)) {
      assertThat(o.userId()).isBetween(1L, USERS);
      assertThat(o.total().scale()).isEqualTo(2);
      assertThat(o.total()).isBetween(new BigDecimal("1.00"), new BigDecimal("999.99"));
      assertThat(o.createdAt()).isAfterOrEqualTo(straddle.user(o.userId()).createdAt()).isBefore(Straddle.END);
    }
  }

  @Test
  void statusDistributionIsAsSpecified() throws SQLException {
    Map<String, Long> byStatus = new HashMap<>();
    try (Statement s = db.createStatement();
         ResultSet rs = s.executeQuery("SELECT status, COUNT(*) FROM orders GROUP BY status")) {
      while (rs.next()) {
        byStatus.put(rs.getString(1), rs.getLong(2));
      }
    }
    assertThat(byStatus).containsOnlyKeys("PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED");
    Map<String, Double> expected = Map.of("PENDING", 0.10, "PAID", 0.15, "SHIPPED", 0.30, "DELIVERED", 0.40,
        "CANCELLED", 0.05);
    // 2,000 orders: one standard deviation of a share is at most 1.1 percentage points; allow 3.
    expected.forEach((status, share) ->
        assertThat(byStatus.get(status) / (double) ORDERS).as(status).isCloseTo(share, within(0.03)));
    // The generator alone, over many more rows, is much closer.
    Straddle big = new Straddle(10_000, 200_000);
    Map<String, Long> bigCounts = new HashMap<>();
    for (long id = 1; id <= big.orders(); id++) {
      bigCounts.merge(big.order(id).status(), 1L, Long::sum);
    }
    expected.forEach((status, share) ->
        assertThat(bigCounts.get(status) / 200_000.0).as(status).isCloseTo(share, within(0.005)));
  }

  @Test
  void s1ReturnsExactlyTheShippedOrdersOfTheUser() throws SQLException {
    // The user with the most SHIPPED orders, and the users of S1's first executions.
    Map<Long, Integer> shipped = new HashMap<>();
    for (Straddle.Order o : generatedOrders(straddle)) {
      if (o.status().equals("SHIPPED")) {
        shipped.merge(o.userId(), 1, Integer::sum);
      }
    }
    long busiest = 0;
    for (long id = 1; id <= USERS; id++) {
      if (shipped.getOrDefault(id, 0) > shipped.getOrDefault(busiest, 0)) {
        busiest = id;
      }
    }
    assertThat(shipped.get(busiest)).isGreaterThanOrEqualTo(3);
    List<Long> userIds = new ArrayList<>(List.of(busiest));
    for (int i = 0; i < 5; i++) {
      userIds.add(straddle.s1UserId(i));
      assertThat(straddle.s1Params(i)).containsExactly(Straddle.email(straddle.s1UserId(i)));
    }
    try (PreparedStatement ps = db.prepareStatement(Straddle.S1)) {
      for (long userId : userIds) {
        Straddle.User user = straddle.user(userId);
        List<String> expected = new ArrayList<>();
        for (Straddle.Order o : generatedOrders(straddle)) {
          if (o.userId() == userId && o.status().equals("SHIPPED")) {
            expected.add(user.id() + "|" + user.name() + "|" + o.orderId() + "|" + o.total());
          }
        }
        ps.setString(1, user.email());
        List<String> actual = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            actual.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getLong(3) + "|" + rs.getBigDecimal(4));
          }
        }
        assertThat(actual).as("S1 for " + user.email()).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void s2ReturnsThePendingOrdersOfRecentUsersOfTheCountry() throws SQLException {
    try (PreparedStatement ps = db.prepareStatement(Straddle.S2)) {
      for (int i = 0; i < 3; i++) {
        Object[] params = straddle.s2Params(i);
        String country = (String) params[0];
        LocalDateTime since = (LocalDateTime) params[1];
        assertThat(since).isEqualTo(Straddle.S2_SINCE);
        // A wider date than the default, so that 200 users give S2 something to return.
        LocalDateTime from = LocalDateTime.of(2022, 1, 1, 0, 0);
        List<String> expected = new ArrayList<>();
        for (Straddle.Order o : generatedOrders(straddle)) {
          Straddle.User u = straddle.user(o.userId());
          if (u.country().equals(country) && !u.createdAt().isBefore(from) && o.status().equals("PENDING")) {
            expected.add(u.id() + "|" + o.orderId());
          }
        }
        ps.setString(1, country);
        ps.setObject(2, from);
        List<String> actual = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            actual.add(rs.getLong(1) + "|" + rs.getLong(2));
          }
        }
        assertThat(actual).as("S2 for " + country).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameDataAndADifferentSeedDifferentData() throws SQLException {
    Straddle again = new Straddle(USERS, ORDERS);
    assertThat(generatedUsers(again)).isEqualTo(generatedUsers(straddle));
    assertThat(generatedOrders(again)).isEqualTo(generatedOrders(straddle));
    for (int i = 0; i < 20; i++) {
      assertThat(again.s1Params(i)).isEqualTo(straddle.s1Params(i));
      assertThat(again.s2Params(i)).isEqualTo(straddle.s2Params(i));
    }
    // Loaded a second time into a fresh store, the tables read back identically.
    try (Connection second = open()) {
      again.load(second);
      assertThat(dump(second, "SELECT * FROM users ORDER BY id")).isEqualTo(dump(db, "SELECT * FROM users ORDER BY id"));
      assertThat(dump(second, "SELECT * FROM orders ORDER BY order_id"))
          .isEqualTo(dump(db, "SELECT * FROM orders ORDER BY order_id"));
    }
    Straddle other = new Straddle(USERS, ORDERS, 43, BatchLoader.DEFAULT_BATCH_SIZE);
    assertThat(generatedOrders(other)).isNotEqualTo(generatedOrders(straddle));
  }

  @Test
  void rowsDoNotDependOnTheSizeOrTheBatchSize() {
    // Row k is a function of (seed, k) only (user_id draws depend on the number of users, so keep it).
    Straddle smallBatches = new Straddle(USERS, ORDERS * 2, Straddle.DEFAULT_SEED, 7);
    for (long id = 1; id <= ORDERS; id++) {
      assertThat(smallBatches.order(id)).isEqualTo(straddle.order(id));
    }
  }

  @Test
  void generatedValuesArePinned() {
    // Golden values: if these change, every stored benchmark result was made on other data.
    assertThat(straddle.user(1)).isEqualTo(new Straddle.User(1, "user1@example.com", "Edsger Kernighan", "KR",
        LocalDateTime.of(2023, 2, 18, 21, 31, 43)));
    assertThat(straddle.user(3)).isEqualTo(new Straddle.User(3, "user3@example.com", "Tony Perlman", "ES",
        LocalDateTime.of(2020, 8, 23, 1, 1, 17)));
    Straddle full = new Straddle();
    assertThat(full.order(1)).isEqualTo(new Straddle.Order(1, 62649, "PENDING", new BigDecimal("603.97"),
        LocalDateTime.of(2021, 8, 2, 3, 15, 58)));
    assertThat(full.order(1_000_000)).isEqualTo(new Straddle.Order(1_000_000, 99634, "DELIVERED",
        new BigDecimal("618.79"), LocalDateTime.of(2022, 10, 25, 7, 50, 7)));
    assertThat(full.user(100_000)).isEqualTo(new Straddle.User(100_000, "user100000@example.com", "Barbara Backus",
        "DE", LocalDateTime.of(2023, 5, 13, 8, 51, 54)));
    assertThat(full.s1Params(0)).containsExactly("user98870@example.com");
    assertThat(full.s2Params(0)).containsExactly("IE", Straddle.S2_SINCE);
  }

  @Test
  void commitsPerBatchAndRollsBackAFailedBatch() throws SQLException {
    Straddle small = new Straddle(120, 300, Straddle.DEFAULT_SEED, 50);
    try (Connection c = open()) {
      Workload.execute(c, small.schema());
      try (Statement s = c.createStatement()) {
        // A row that collides with generated user 110, in the third batch of users (rows 101..120).
        s.executeUpdate("INSERT INTO users VALUES (110, 'someone@example.org', 'x', 'US', TIMESTAMP '2024-01-01 00:00:00')");
      }
      List<String> batches = new ArrayList<>();
      assertThatThrownBy(() -> small.loadRows(c, (table, rows, total) -> batches.add(table + " " + rows + "/" + total)))
          .isInstanceOf(SQLException.class);
      assertThat(batches).containsExactly("users 50/120", "users 100/120");
      assertThat(c.getAutoCommit()).isTrue();
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*), MAX(id) FROM users")) {
        rs.next();
        assertThat(rs.getLong(1)).as("two committed batches and the pre-existing row").isEqualTo(101);
        assertThat(rs.getLong(2)).isEqualTo(110);
      }
    }
  }

  @Test
  void workloadsKnowsStraddle() {
    assertThat(Workloads.names()).contains("straddle");
    Workload w = Workloads.byName("STRADDLE");
    assertThat(w).isInstanceOf(Straddle.class);
    assertThat(((Straddle) w).users()).isEqualTo(100_000);
    assertThat(((Straddle) w).orders()).isEqualTo(1_000_000);
    assertThat(w.seed()).isEqualTo(42);
    assertThat(w.dropTables()).containsExactly("DROP TABLE IF EXISTS orders", "DROP TABLE IF EXISTS users");
  }

  private static List<Straddle.User> generatedUsers(Straddle s) {
    List<Straddle.User> users = new ArrayList<>();
    for (long id = 1; id <= s.users(); id++) {
      users.add(s.user(id));
    }
    return users;
  }

  private static List<Straddle.Order> generatedOrders(Straddle s) {
    List<Straddle.Order> orders = new ArrayList<>();
    for (long id = 1; id <= s.orders(); id++) {
      orders.add(s.order(id));
    }
    return orders;
  }

  private static long count(String sql) throws SQLException {
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  private static List<List<String>> dump(Connection c, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
