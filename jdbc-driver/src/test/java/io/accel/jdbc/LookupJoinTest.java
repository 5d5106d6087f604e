package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The index lookup join ({@code IndexLookupJoin}) as users see it: the plans EXPLAIN shows for joins into an
 * Accel table, the rows those joins return, and what EXPLAIN ANALYZE and the {@code accel.join.lookups} counter
 * say the lookups read, on the straddled-join schema of Readyset's benchmark:
 * {@code users(id BIGINT PK, email UNIQUE users_email, name, country CHAR(2), created_at)} and
 * {@code orders(order_id BIGINT PK, user_id BIGINT, status, total NUMERIC(12,2), created_at)} with
 * {@code orders_status (status)} and {@code orders_user_status (user_id, status)}.
 *
 * <p>The rows are generated here with {@code java.util.Random(SEED)} (see {@link #USER_ROWS} and
 * {@link #ORDER_ROWS}); every expected result and count is computed from those Java objects, never from the
 * engine's output. {@value #USERS} users, {@value #ORDERS} orders: 1% of orders have a NULL user_id, 1% a user_id
 * no user has ({@code USERS + 1 .. USERS + 50}), the rest a user of {@code 1 .. USERS - USERS_WITHOUT_ORDERS}, so
 * the last {@value #USERS_WITHOUT_ORDERS} users have no orders. Statuses PENDING 10%, PAID 15%, SHIPPED 30%,
 * DELIVERED 40%, CANCELLED 5%.
 *
 * <p>One store holds the data for the whole class (tests that write roll back); a second store, with the extra
 * index {@code orders_user_status_created (user_id, status, created_at)}, serves the range and ICP tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LookupJoinTest extends JdbcTestSupport {
  static final long SEED = 20_240_901L;
  static final int USERS = 3000;
  static final int ORDERS = 12000;
  static final int USERS_WITHOUT_ORDERS = 100;
  static final List<String> COUNTRIES = List.of("US", "GB", "DE", "FR", "ES", "IT", "NL", "SE", "PL", "IE",
      "CA", "MX", "BR", "AR", "JP", "KR", "IN", "AU", "NZ", "ZA");
  static final List<String> FIRST_NAMES = List.of("Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Edsger",
      "Frances", "Grace", "Hedy");
  static final List<String> LAST_NAMES = List.of("Backus", "Codd", "Dijkstra", "Hopper", "Knuth", "Lamport",
      "Liskov", "Ritchie", "Turing", "Wirth");
  static final List<String> STATUSES = List.of("PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED");
  static final int[] STATUS_PERCENT = {10, 15, 30, 40, 5};
  static final LocalDateTime EPOCH = LocalDateTime.of(2020, 1, 1, 0, 0);
  static final LocalDateTime END = LocalDateTime.of(2025, 1, 1, 0, 0);
  /** Users created since then are 6 of the 60 months: about 300, the "few hundred" outer rows of S2. */
  static final LocalDateTime S2_SINCE = LocalDateTime.of(2024, 7, 1, 0, 0);

  static final String S1 = "SELECT u.id, u.name, o.order_id, o.total FROM users u JOIN orders o "
      + "ON u.id = o.user_id WHERE u.email = ? AND o.status = 'SHIPPED'";
  static final String S2 = "SELECT u.id, o.order_id FROM users u JOIN orders o ON u.id = o.user_id "
      + "WHERE u.created_at >= ? AND o.status = 'PENDING'";

  record User(long id, String email, String name, String country, LocalDateTime createdAt) {
  }

  record Order(long orderId, Long userId, String status, BigDecimal total, LocalDateTime createdAt) {
  }

  static final List<User> USER_ROWS = new ArrayList<>();
  static final List<Order> ORDER_ROWS = new ArrayList<>();
  static final Map<Long, User> USER_BY_ID = new HashMap<>();
  static final Map<Long, List<Order>> ORDERS_BY_USER = new HashMap<>();

  static {
    Random r = new Random(SEED);
    long span = END.toEpochSecond(ZoneOffset.UTC) - EPOCH.toEpochSecond(ZoneOffset.UTC);
    for (long id = 1; id <= USERS; id++) {
      User u = new User(id, "user" + id + "@example.com",
          FIRST_NAMES.get(r.nextInt(FIRST_NAMES.size())) + " " + LAST_NAMES.get(r.nextInt(LAST_NAMES.size())),
          COUNTRIES.get(r.nextInt(COUNTRIES.size())), EPOCH.plusSeconds((long) (r.nextDouble() * span)));
      USER_ROWS.add(u);
      USER_BY_ID.put(id, u);
    }
    for (long id = 1; id <= ORDERS; id++) {
      int kind = r.nextInt(100);
      Long user = kind == 0 ? null
          : kind == 1 ? Long.valueOf(USERS + 1 + r.nextInt(50))
          : Long.valueOf(1 + r.nextInt(USERS - USERS_WITHOUT_ORDERS));
      int p = r.nextInt(100);
      int s = 0;
      int acc = STATUS_PERCENT[0];
      while (p >= acc) {
        acc += STATUS_PERCENT[++s];
      }
      Order o = new Order(id, user, STATUSES.get(s), BigDecimal.valueOf(100 + r.nextInt(99_900), 2),
          EPOCH.plusSeconds((long) (r.nextDouble() * span)));
      ORDER_ROWS.add(o);
      if (user != null) {
        ORDERS_BY_USER.computeIfAbsent(user, k -> new ArrayList<>()).add(o);
      }
    }
  }

  private SimpleMeterRegistry meters;
  private Connection keeper;
  private Connection rangeKeeper;
  private String rangeUrl;
  private Connection c;

  @BeforeAll
  void loadStore() throws SQLException {
    meters = new SimpleMeterRegistry();
    Metrics.globalRegistry.add(meters);
    // not tracked: keeps the in-memory store (and its data) open across the tests of the class
    keeper = DriverManager.getConnection(url);
    load(keeper);
  }

  @AfterAll
  void closeStores() throws SQLException {
    if (rangeKeeper != null) {
      rangeKeeper.close();
    }
    keeper.close();
    Metrics.globalRegistry.remove(meters);
    meters.close();
  }

  @BeforeEach
  void open() throws SQLException {
    c = connect();
  }

  static void load(Connection conn) throws SQLException {
    update(conn, "CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(100) NOT NULL, name VARCHAR(100) NOT NULL,"
        + " country CHAR(2) NOT NULL, created_at TIMESTAMP NOT NULL)");
    update(conn, "CREATE TABLE orders (order_id BIGINT PRIMARY KEY, user_id BIGINT, status VARCHAR(16) NOT NULL, "
        + "total NUMERIC(12,2) NOT NULL, created_at TIMESTAMP NOT NULL)");
    update(conn, "CREATE UNIQUE INDEX users_email ON users (email)");
    update(conn, "CREATE INDEX orders_status ON orders (status)");
    update(conn, "CREATE INDEX orders_user_status ON orders (user_id, status)");
    try (PreparedStatement ps = conn.prepareStatement("INSERT INTO users VALUES (?, ?, ?, ?, ?)")) {
      for (User u : USER_ROWS) {
        ps.setLong(1, u.id());
        ps.setString(2, u.email());
        ps.setString(3, u.name());
        ps.setString(4, u.country());
        ps.setObject(5, u.createdAt());
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)")) {
      for (Order o : ORDER_ROWS) {
        ps.setLong(1, o.orderId());
        if (o.userId() == null) {
          ps.setNull(2, Types.BIGINT);
        } else {
          ps.setLong(2, o.userId());
        }
        ps.setString(3, o.status());
        ps.setBigDecimal(4, o.total());
        ps.setObject(5, o.createdAt());
        ps.addBatch();
      }
      ps.executeBatch();
    }
    update(conn, "ANALYZE users");
    update(conn, "ANALYZE orders");
  }

  /**
   * Connections that plan through Calcite: this class checks its IndexLookupJoin operator and EXPLAIN lines (the
   * direct planner's joins run on the same lookup engine; DirectPlanningTest covers them).
   */
  @Override
  protected Connection connect() throws SQLException {
    return connect(url);
  }

  @Override
  protected Connection connect(String anyUrl) throws SQLException {
    return super.connect(anyUrl + (anyUrl.contains("?") ? "&" : "?") + "directPlanning=false");
  }

  /** A connection to the second store, which also has orders_user_status_created (user_id, status, created_at). */
  private Connection rangeStore() throws SQLException {
    if (rangeKeeper == null) {
      rangeUrl = url + "_range";
      rangeKeeper = DriverManager.getConnection(rangeUrl);
      load(rangeKeeper);
      update(rangeKeeper, "CREATE INDEX orders_user_status_created ON orders (user_id, status, created_at)");
      update(rangeKeeper, "ANALYZE orders");
    }
    return connect(rangeUrl);
  }

  // ------------------------------------------------------------------------------------------ data in Java

  /** The S1 user: the one with the most SHIPPED orders (the lowest id among ties). */
  static User s1User() {
    return USER_ROWS.stream()
        .max(Comparator.comparingLong((User u) -> shipped(u.id()).size()).thenComparing(u -> -u.id()))
        .orElseThrow();
  }

  static List<Order> ordersOf(long userId) {
    return ORDERS_BY_USER.getOrDefault(userId, List.of());
  }

  static List<Order> shipped(long userId) {
    return ordersOf(userId).stream().filter(o -> o.status().equals("SHIPPED")).toList();
  }

  static List<User> users(Predicate<User> p) {
    return USER_ROWS.stream().filter(p).toList();
  }

  static List<Order> orders(Predicate<Order> p) {
    return ORDER_ROWS.stream().filter(p).toList();
  }

  static List<List<Object>> s1Expected(User u) {
    return shipped(u.id()).stream().map(o -> row(u.id(), u.name(), o.orderId(), o.total())).toList();
  }

  static List<List<Object>> s2Expected(LocalDateTime since) {
    List<List<Object>> rows = new ArrayList<>();
    for (User u : users(u -> !u.createdAt().isBefore(since))) {
      for (Order o : ordersOf(u.id())) {
        if (o.status().equals("PENDING")) {
          rows.add(row(u.id(), o.orderId()));
        }
      }
    }
    return rows;
  }

  // ------------------------------------------------------------------------------------------ S1 and S2

  @Test
  void s1LooksTheUsersShippedOrdersUpThroughTheCompositeIndex() throws SQLException {
    User u = s1User();
    List<List<Object>> expected = s1Expected(u);
    assertThat(expected).as("the S1 user has several SHIPPED orders").hasSizeGreaterThan(3);

    // the plan of the statement with its bind parameter, and with the email written in
    List<String> prepared = explain(c, S1);
    assertThat(line(prepared, "table=[[public, users]]")).contains("access=[index users_email]", "keys=[email = ?0]");
    for (List<String> plan : List.of(prepared, explain(c, S1, u.email()))) {
      assertThat(lookupLine(plan)).contains("type=[inner]", "table=[[public, orders]]",
          "access=[index orders_user_status]", "lookup key=[user_id = id, status = 'SHIPPED']", "est. lookups=[1]");
    }

    assertThat(query(c, S1, u.email())).containsExactlyInAnyOrderElementsOf(expected);

    List<String> analyzed = explain(c, "ANALYZE " + S1, u.email());
    Counts n = counts(lookupLine(analyzed));
    assertThat(n.lookups).isEqualTo(1);
    assertThat(n.seeks).isEqualTo(1);
    assertThat(n.entriesRead).as("the entries under (user_id, 'SHIPPED') and no other").isEqualTo(expected.size());
    assertThat(n.rowsFetched).isEqualTo(expected.size());
    assertThat(n.actualRows).isEqualTo(expected.size());
    assertThat(String.join("\n", analyzed)).contains("Rows returned: " + expected.size());
  }

  @Test
  void s1ThroughOnePreparedStatementForManyUsers() throws SQLException {
    User withoutShipped = USER_ROWS.stream()
        .filter(u -> !ordersOf(u.id()).isEmpty() && shipped(u.id()).isEmpty()).findFirst().orElseThrow();
    User withoutOrders = USER_BY_ID.get((long) USERS);
    assertThat(ordersOf(withoutOrders.id())).isEmpty();
    List<User> probes = new ArrayList<>(List.of(s1User(), withoutShipped, withoutOrders));
    probes.addAll(USER_ROWS.subList(0, 20));
    try (PreparedStatement ps = c.prepareStatement(S1)) {
      for (User u : probes) {
        ps.setString(1, u.email());
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(normalized(rs)).as("S1 for %s", u.email()).containsExactlyInAnyOrderElementsOf(s1Expected(u));
        }
      }
      ps.setString(1, "nobody@example.com");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void s2LooksEachOuterUserUpOnce() throws SQLException {
    List<User> outer = users(u -> !u.createdAt().isBefore(S2_SINCE));
    List<List<Object>> expected = s2Expected(S2_SINCE);
    assertThat(outer).hasSizeBetween(200, 500);

    String join = lookupLine(explain(c, S2, S2_SINCE));
    assertThat(join).contains("type=[inner]", "table=[[public, orders]]", "access=[index orders_user_status]",
        "lookup key=[user_id = id, status = 'PENDING']");
    // with the date written in (the plan above) and as a bind parameter (planned without knowing how many users
    // it keeps: PENDING orders outside, users looked up by id)
    assertThat(query(c, inline(S2, S2_SINCE))).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(query(c, S2, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);

    Counts n = counts(lookupLine(explain(c, "ANALYZE " + S2, S2_SINCE)));
    assertThat(n.lookups).as("one lookup per outer user (their ids are distinct)").isEqualTo(outer.size());
    assertThat(n.seeks).isEqualTo(outer.size());
    assertThat(n.entriesRead).isEqualTo(expected.size());
    assertThat(n.rowsFetched).isEqualTo(expected.size());
    assertThat(n.actualRows).isEqualTo(expected.size());
  }

  @Test
  void repeatedOuterKeysAreLookedUpOncePerBatch() throws SQLException {
    // 3 users with 3 or more orders; up to 5 orders of each, 9..15 outer rows: one batch (16 rows)
    List<Long> threeUsers = ORDERS_BY_USER.keySet().stream().sorted()
        .filter(id -> id <= USERS && ordersOf(id).size() >= 3).limit(3).toList();
    List<Order> picked = threeUsers.stream().flatMap(id -> ordersOf(id).stream().limit(5)).toList();
    assertThat(picked).hasSizeBetween(9, 15);
    String ids = picked.stream().map(o -> String.valueOf(o.orderId())).collect(Collectors.joining(", "));
    String sql = "SELECT o.order_id, u.id, u.name FROM orders o JOIN users u ON u.id = o.user_id "
        + "WHERE o.order_id IN (" + ids + ")";
    String join = lookupLine(explain(c, sql));
    assertThat(join).as("the orders are the outer side, users the looked-up table")
        .contains("type=[inner]", "table=[[public, users]]", "access=[primary key]", "lookup key=[id = user_id]");
    assertThat(query(c, sql)).containsExactlyInAnyOrderElementsOf(picked.stream()
        .map(o -> row(o.orderId(), o.userId(), USER_BY_ID.get(o.userId()).name())).toList());
    Counts n = counts(lookupLine(explain(c, "ANALYZE " + sql)));
    assertThat(n.lookups).as("3 distinct keys among %d outer rows", picked.size()).isEqualTo(3);
    assertThat(n.rowsFetched).isEqualTo(3);
    assertThat(n.actualRows).isEqualTo(picked.size());

    // several batches: the CANCELLED orders and their users; some users have more than one CANCELLED order
    List<Order> cancelled = orders(o -> o.status().equals("CANCELLED"));
    String many = "SELECT o.order_id, u.name FROM orders o JOIN users u ON u.id = o.user_id WHERE o.status = 'CANCELLED'";
    assertThat(lookupLine(explain(c, many))).contains("table=[[public, users]]", "lookup key=[id = user_id]");
    assertThat(query(c, many)).containsExactlyInAnyOrderElementsOf(cancelled.stream()
        .filter(o -> o.userId() != null && USER_BY_ID.containsKey(o.userId()))
        .map(o -> row(o.orderId(), USER_BY_ID.get(o.userId()).name())).toList());
    long distinctKeys = cancelled.stream().map(Order::userId).filter(Objects::nonNull).distinct().count();
    long nonNullKeys = cancelled.stream().filter(o -> o.userId() != null).count();
    assertThat(distinctKeys).isLessThan(nonNullKeys);
    Counts m = counts(lookupLine(explain(c, "ANALYZE " + many)));
    assertThat(m.lookups).as("at most one lookup per outer row with a key, at least one per distinct key")
        .isBetween(distinctKeys, nonNullKeys);
    assertThat(m.rowsFetched).as("a lookup finds one user or none").isLessThanOrEqualTo(m.lookups);
  }

  // ------------------------------------------------------------------------------------------ range and ICP

  @Test
  void aRangeOnTheNextIndexColumnBoundsTheSeek() throws SQLException {
    Connection r = rangeStore();
    User u = s1User();
    List<Order> shipped = shipped(u.id()).stream().sorted(Comparator.comparing(Order::createdAt)).toList();
    LocalDateTime since = shipped.get(shipped.size() / 2).createdAt();
    List<Order> recent = shipped.stream().filter(o -> !o.createdAt().isBefore(since)).toList();
    assertThat(recent).hasSizeBetween(1, shipped.size() - 1);
    String sql = "SELECT u.id, o.order_id, o.total FROM users u JOIN orders o ON u.id = o.user_id "
        + "WHERE u.email = ? AND o.status = 'SHIPPED' AND o.created_at >= ?";

    String join = lookupLine(explain(r, sql, u.email(), since));
    assertThat(join).contains("type=[inner]", "access=[index orders_user_status_created]",
        "lookup key=[user_id = id, status = 'SHIPPED', created_at in [").contains("..+inf)]")
        .doesNotContain("icp=", "residual=", "join filter=");
    assertThat(query(r, sql, u.email(), since)).containsExactlyInAnyOrderElementsOf(
        recent.stream().map(o -> row(u.id(), o.orderId(), o.total())).toList());
    Counts n = counts(lookupLine(explain(r, "ANALYZE " + sql, u.email(), since)));
    assertThat(n.lookups).isEqualTo(1);
    assertThat(n.entriesRead).as("only the entries from the range's start: %s of %s", recent.size(), shipped.size())
        .isEqualTo(recent.size());
    assertThat(n.rowsFetched).isEqualTo(recent.size());
  }

  @Test
  void aConditionOnAnUnboundIndexColumnIsCheckedOnTheIndexEntry() throws SQLException {
    Connection r = rangeStore();
    User u = s1User();
    List<Order> all = ordersOf(u.id());
    LocalDateTime since = all.stream().map(Order::createdAt).sorted().toList().get(all.size() / 2);
    List<Order> recent = all.stream().filter(o -> !o.createdAt().isBefore(since)).toList();
    assertThat(recent).hasSizeBetween(1, all.size() - 1);
    // no condition on status: created_at, the third index column, cannot bound the seek
    String sql = "SELECT u.id, o.order_id, o.total FROM users u JOIN orders o ON u.id = o.user_id "
        + "WHERE u.email = ? AND o.created_at >= ?";

    String join = lookupLine(explain(r, sql, u.email(), since));
    assertThat(join).contains("access=[index orders_user_status_created]", "lookup key=[user_id = id]",
        "icp=[>=(created_at, ");
    assertThat(query(r, sql, u.email(), since)).containsExactlyInAnyOrderElementsOf(
        recent.stream().map(o -> row(u.id(), o.orderId(), o.total())).toList());
    Counts n = counts(lookupLine(explain(r, "ANALYZE " + sql, u.email(), since)));
    assertThat(n.lookups).isEqualTo(1);
    assertThat(n.entriesRead).isEqualTo(all.size());
    assertThat(n.icpAttempts).isEqualTo(all.size());
    assertThat(n.icpMatches).isEqualTo(recent.size());
    assertThat(n.rowsFetched).as("only the rows whose entry passed").isEqualTo(recent.size());
  }

  @Test
  void aJoinConditionOnTheOuterRowBoundsTheRangeOfEachLookup() throws SQLException {
    Connection r = rangeStore();
    // each user's SHIPPED orders placed at or after the user's own created_at
    String sql = "SELECT u.id, o.order_id FROM users u JOIN orders o ON u.id = o.user_id AND o.created_at >= u.created_at "
        + "WHERE u.created_at >= ? AND o.status = 'SHIPPED'";
    List<User> outer = users(u -> !u.createdAt().isBefore(S2_SINCE));
    List<List<Object>> expected = new ArrayList<>();
    for (User u : outer) {
      for (Order o : shipped(u.id())) {
        if (!o.createdAt().isBefore(u.createdAt())) {
          expected.add(row(u.id(), o.orderId()));
        }
      }
    }
    assertThat(expected).isNotEmpty();
    String join = lookupLine(explain(r, sql, S2_SINCE));
    assertThat(join).contains("access=[index orders_user_status_created]",
        "lookup key=[user_id = id, status = 'SHIPPED', created_at in [created_at..+inf)]");
    assertThat(query(r, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);
    Counts n = counts(lookupLine(explain(r, "ANALYZE " + sql, S2_SINCE)));
    assertThat(n.lookups).isEqualTo(outer.size());
    assertThat(n.entriesRead).isEqualTo(expected.size());

    // without the status, the per-row bound on created_at is checked on the entry
    String icp = "SELECT u.id, o.order_id FROM users u JOIN orders o ON u.id = o.user_id AND o.created_at >= u.created_at "
        + "WHERE u.created_at >= ?";
    List<List<Object>> expectedIcp = new ArrayList<>();
    for (User u : outer) {
      for (Order o : ordersOf(u.id())) {
        if (!o.createdAt().isBefore(u.createdAt())) {
          expectedIcp.add(row(u.id(), o.orderId()));
        }
      }
    }
    assertThat(lookupLine(explain(r, icp, S2_SINCE))).contains("lookup key=[user_id = id]", "icp=[");
    assertThat(query(r, icp, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expectedIcp);
  }

  // ------------------------------------------------------------------------------------------ join kinds

  @Test
  void leftJoinPadsUnmatchedOuterRowsWithNulls() throws SQLException {
    // outer users, some without SHIPPED orders
    String sql = "SELECT u.id, o.order_id, o.status FROM users u LEFT JOIN orders o "
        + "ON u.id = o.user_id AND o.status = 'SHIPPED' WHERE u.created_at >= ?";
    List<List<Object>> expected = new ArrayList<>();
    int unmatched = 0;
    for (User u : users(u -> !u.createdAt().isBefore(S2_SINCE))) {
      List<Order> s = shipped(u.id());
      if (s.isEmpty()) {
        unmatched++;
        expected.add(row(u.id(), null, null));
      }
      for (Order o : s) {
        expected.add(row(u.id(), o.orderId(), "SHIPPED"));
      }
    }
    assertThat(unmatched).isGreaterThan(10);
    assertThat(lookupLine(explain(c, sql, S2_SINCE))).contains("type=[left]", "table=[[public, orders]]",
        "lookup key=[user_id = id, status = 'SHIPPED']").doesNotContain("output=[inner columns first]");
    assertThat(query(c, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);

    // outer orders: a NULL user_id or a user_id no user has gets NULLs
    String byOrder = "SELECT o.order_id, o.user_id, u.id, u.email FROM orders o LEFT JOIN users u ON u.id = o.user_id "
        + "WHERE o.status = 'CANCELLED'";
    List<List<Object>> expectedByOrder = orders(o -> o.status().equals("CANCELLED")).stream().map(o -> {
      User u = o.userId() == null ? null : USER_BY_ID.get(o.userId());
      return row(o.orderId(), o.userId(), u == null ? null : u.id(), u == null ? null : u.email());
    }).toList();
    assertThat(expectedByOrder.stream().filter(x -> x.get(2) == null).count()).isGreaterThan(5);
    assertThat(lookupLine(explain(c, byOrder))).contains("type=[left]", "table=[[public, users]]",
        "lookup key=[id = user_id]");
    assertThat(query(c, byOrder)).containsExactlyInAnyOrderElementsOf(expectedByOrder);
  }

  @Test
  void leftJoinChecksTheRestOfTheConditionOnEachPair() throws SQLException {
    // o.total > u.id is only known after the fetch: the lookups find the user's orders, the pair check keeps some
    String sql = "SELECT u.id, o.order_id FROM users u LEFT JOIN orders o ON u.id = o.user_id AND o.total > u.id "
        + "WHERE u.created_at >= ?";
    List<List<Object>> expected = new ArrayList<>();
    int filteredOut = 0;
    for (User u : users(u -> !u.createdAt().isBefore(S2_SINCE))) {
      List<Order> kept = ordersOf(u.id()).stream()
          .filter(o -> o.total().compareTo(BigDecimal.valueOf(u.id())) > 0).toList();
      if (kept.isEmpty()) {
        if (!ordersOf(u.id()).isEmpty()) {
          filteredOut++;
        }
        expected.add(row(u.id(), null));
      }
      kept.forEach(o -> expected.add(row(u.id(), o.orderId())));
    }
    assertThat(filteredOut).as("users whose every order fails the pair condition").isGreaterThan(10);
    assertThat(lookupLine(explain(c, sql, S2_SINCE))).contains("type=[left]", "lookup key=[user_id = id]");
    assertThat(query(c, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void rightJoinWrittenWithTheTableOnTheLeft() throws SQLException {
    String sql = "SELECT o.order_id, o.status, u.id, u.email FROM orders o RIGHT JOIN users u "
        + "ON u.id = o.user_id AND o.status = 'SHIPPED' WHERE u.created_at >= ?";
    List<List<Object>> expected = new ArrayList<>();
    for (User u : users(u -> !u.createdAt().isBefore(S2_SINCE))) {
      List<Order> s = shipped(u.id());
      if (s.isEmpty()) {
        expected.add(row(null, null, u.id(), u.email()));
      }
      s.forEach(o -> expected.add(row(o.orderId(), "SHIPPED", u.id(), u.email())));
    }
    assertThat(lookupLine(explain(c, sql, S2_SINCE))).contains("type=[left]", "table=[[public, orders]]",
        "lookup key=[user_id = id, status = 'SHIPPED']", "output=[inner columns first]");
    assertThat(query(c, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(query(c, "SELECT * FROM orders o RIGHT JOIN users u ON u.id = o.user_id AND o.status = 'SHIPPED' "
        + "WHERE u.created_at >= ?", S2_SINCE)).as("every column of both tables, the table's first")
        .containsExactlyInAnyOrderElementsOf(users(u -> !u.createdAt().isBefore(S2_SINCE)).stream().flatMap(u -> {
          List<Order> s = shipped(u.id());
          List<Object> userPart = List.of(u.id(), u.email(), u.name(), u.country(), u.createdAt());
          if (s.isEmpty()) {
            return Stream.of(concat(Arrays.asList(null, null, null, null, null), userPart));
          }
          return s.stream().map(o -> concat(Arrays.<Object>asList(o.orderId(), o.userId(), o.status(), o.total(),
              o.createdAt()), userPart));
        }).toList());
  }

  @Test
  void semiJoinForExistsAndIn() throws SQLException {
    List<List<Object>> expected = users(u -> !u.createdAt().isBefore(S2_SINCE)
        && ordersOf(u.id()).stream().anyMatch(o -> o.status().equals("PENDING"))).stream()
        .map(u -> row(u.id(), u.name())).toList();
    // each user once, though many have several PENDING orders
    assertThat(users(u -> !u.createdAt().isBefore(S2_SINCE)).stream()
        .filter(u -> ordersOf(u.id()).stream().filter(o -> o.status().equals("PENDING")).count() > 1)).isNotEmpty();
    String exists = "SELECT u.id, u.name FROM users u WHERE u.created_at >= ? AND EXISTS "
        + "(SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.status = 'PENDING')";
    String in = "SELECT u.id, u.name FROM users u WHERE u.created_at >= ? AND u.id IN "
        + "(SELECT o.user_id FROM orders o WHERE o.status = 'PENDING')";
    for (String sql : List.of(exists, in)) {
      assertThat(lookupLine(explain(c, sql, S2_SINCE))).as(sql).contains("type=[semi]", "table=[[public, orders]]",
          "lookup key=[user_id = id, status = 'PENDING']");
      assertThat(query(c, sql, S2_SINCE)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /** NOT EXISTS: the rows must be right, and the plan a lookup join (the S1 user alone: one lookup). */
  @Test
  void antiJoinForNotExists() throws SQLException {
    List<List<Object>> expected = users(u -> !u.createdAt().isBefore(S2_SINCE)
        && ordersOf(u.id()).stream().noneMatch(o -> o.status().equals("PENDING"))).stream()
        .map(u -> row(u.id(), u.name())).toList();
    assertThat(expected).isNotEmpty();
    String sql = "SELECT u.id, u.name FROM users u WHERE u.created_at >= ? AND NOT EXISTS "
        + "(SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.status = 'PENDING')";
    assertThat(query(c, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(expected);
    User one = s1User();
    String single = "SELECT u.id FROM users u WHERE u.email = ? AND NOT EXISTS "
        + "(SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.status = 'SHIPPED')";
    assertThat(query(c, single, one.email())).isEmpty();
    assertThat(query(c, single, USER_BY_ID.get((long) USERS).email())).containsExactly(row((long) USERS));
    // one outer user: the plan looks its key up, not read every SHIPPED order. Calcite writes NOT EXISTS as a
    // left join with the distinct inner keys, kept where the match indicator IS NULL: the lookup join takes
    // each outer row's first match.
    assertThat(explain(c, single, one.email())).as("NOT EXISTS as a lookup of the first match")
        .anySatisfy(line -> assertThat(line).contains("IndexLookupJoin", "type=[left, first match]"));
    assertThat(lookupLine(explain(c, sql, S2_SINCE))).contains("type=[left, first match]",
        "table=[[public, orders]]", "lookup key=[user_id = id, status = 'PENDING']");
  }

  @Test
  void antiJoinWrittenAsALeftJoinKeepingTheUnmatched() throws SQLException {
    String sql = "SELECT u.id FROM users u LEFT JOIN orders o ON o.user_id = u.id AND o.status = 'PENDING' "
        + "WHERE u.created_at >= ? AND o.order_id IS NULL";
    assertThat(lookupLine(explain(c, sql, S2_SINCE))).contains("type=[left]",
        "lookup key=[user_id = id, status = 'PENDING']");
    assertThat(query(c, sql, S2_SINCE)).containsExactlyInAnyOrderElementsOf(users(u -> !u.createdAt().isBefore(S2_SINCE)
        && ordersOf(u.id()).stream().noneMatch(o -> o.status().equals("PENDING"))).stream()
        .map(u -> row(u.id())).toList());
  }

  // ------------------------------------------------------------------------------------------ key types

  @Test
  void anIntegerOuterKeyLooksUpABigintKey() throws SQLException {
    update(c, "CREATE TABLE picks (pick_id INTEGER PRIMARY KEY, uid INTEGER)");
    // 5 twice, 9 twice, a NULL, an id no user has, 2: 4 distinct keys, one NULL, in one batch
    long[][] picks = {{1, 5}, {2, 9}, {3, 5}, {4, -1}, {5, USERS + 7}, {6, 2}, {7, 9}};
    for (long[] p : picks) {
      update(c, "INSERT INTO picks VALUES (" + p[0] + ", " + (p[1] < 0 ? "NULL" : String.valueOf(p[1])) + ")");
    }
    update(c, "ANALYZE picks");
    String sql = "SELECT p.pick_id, u.id, u.email FROM picks p JOIN users u ON u.id = p.uid";
    List<List<Object>> expected = new ArrayList<>();
    for (long[] p : picks) {
      User u = USER_BY_ID.get(p[1]);
      if (u != null) {
        expected.add(row(p[0], u.id(), u.email()));
      }
    }
    assertThat(lookupLine(explain(c, sql))).contains("type=[inner]", "table=[[public, users]]",
        "access=[primary key]");
    assertThat(query(c, sql)).containsExactlyInAnyOrderElementsOf(expected);
    Counts n = counts(lookupLine(explain(c, "ANALYZE " + sql)));
    assertThat(n.lookups).as("keys 5, 9, %s and 2; the NULL key is not looked up", USERS + 7).isEqualTo(4);
    assertThat(n.rowsFetched).isEqualTo(3);

    // the same keys against orders.user_id (BIGINT) through orders_user_status
    String toOrders = "SELECT p.pick_id, o.order_id FROM picks p JOIN orders o ON o.user_id = p.uid";
    List<List<Object>> expectedOrders = new ArrayList<>();
    for (long[] p : picks) {
      ordersOf(p[1]).forEach(o -> expectedOrders.add(row(p[0], o.orderId())));
    }
    assertThat(lookupLine(explain(c, toOrders))).contains("access=[index orders_user_status]");
    assertThat(query(c, toOrders)).containsExactlyInAnyOrderElementsOf(expectedOrders);
  }

  private boolean numericTables;

  /**
   * nums.v NUMERIC(10,2) against ints.i INTEGER (1..1000): 2.00, 3 and 10.00 match 2, 3 and 10; 2.50 (between 2
   * and 3), 2.99 and 7.25 match nothing.
   */
  private void numericAndIntegerTables() throws SQLException {
    if (numericTables) {
      return;
    }
    numericTables = true;
    update(c, "CREATE TABLE nums (n_id INTEGER PRIMARY KEY, v NUMERIC(10,2))");
    update(c, "INSERT INTO nums VALUES (1, 2.50), (2, 2.00), (3, 3), (4, 7.25), (5, NULL), (6, 10.00), (7, 2.99)");
    update(c, "CREATE TABLE ints (i INTEGER PRIMARY KEY, label VARCHAR(10))");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ints VALUES (?, ?)")) {
      for (int i = 1; i <= 1000; i++) {
        ps.setInt(1, i);
        ps.setString(2, "l" + i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    update(c, "ANALYZE nums");
    update(c, "ANALYZE ints");
  }

  private static final String NUMERIC_JOIN = "SELECT n.n_id, t.i, t.label FROM nums n JOIN ints t ON t.i = n.v";
  private static final String NUMERIC_LEFT_JOIN =
      "SELECT n.n_id, t.i FROM nums n LEFT JOIN ints t ON t.i = n.v";

  @Test
  void aNumericOuterKeyMatchesOnlyEqualIntegers() throws SQLException {
    numericAndIntegerTables();
    List<List<Object>> expected = List.of(row(2, 2, "l2"), row(3, 3, "l3"), row(6, 10, "l10"));
    List<List<Object>> expectedLeft = List.of(row(1, null), row(2, 2), row(3, 3), row(4, null), row(5, null),
        row(6, 10), row(7, null));
    Connection off = connect(url + "?lookupJoins=false");
    for (Connection conn : List.of(c, off)) {
      assertThat(query(conn, NUMERIC_JOIN)).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(query(conn, NUMERIC_LEFT_JOIN)).containsExactlyInAnyOrderElementsOf(expectedLeft);
    }
  }

  @Test
  void aNumericOuterKeyIsLookedUpInAnIntegerKey() throws SQLException {
    numericAndIntegerTables();
    // 7 outer rows against 1,000: seven primary-key lookups, as for the INTEGER/BIGINT keys above
    assertThat(lookupLine(explain(c, NUMERIC_JOIN))).contains("type=[inner]", "table=[[public, ints]]",
        "access=[primary key]");
    assertThat(query(c, NUMERIC_JOIN)).containsExactlyInAnyOrderElementsOf(
        List.of(row(2, 2, "l2"), row(3, 3, "l3"), row(6, 10, "l10")));
    Counts n = counts(lookupLine(explain(c, "ANALYZE " + NUMERIC_JOIN)));
    assertThat(n.rowsFetched).isEqualTo(3);
  }

  @Test
  void anIntegerOuterKeyIsLookedUpInANumericIndex() throws SQLException {
    update(c, "CREATE TABLE prices (p_id INTEGER PRIMARY KEY, amount NUMERIC(10,2) NOT NULL)");
    // 2.50 (between 2 and 3), 2.00, 3.00, 3.01, and 500 amounts 100.00, 100.07, ..., 134.93
    List<BigDecimal> amounts = new ArrayList<>(List.of(new BigDecimal("2.50"), new BigDecimal("2.00"),
        new BigDecimal("3.00"), new BigDecimal("3.01")));
    for (int i = 0; i < 500; i++) {
      amounts.add(BigDecimal.valueOf(10_000 + i * 7L, 2));
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO prices VALUES (?, ?)")) {
      for (int i = 0; i < amounts.size(); i++) {
        ps.setInt(1, i + 1);
        ps.setBigDecimal(2, amounts.get(i));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    update(c, "CREATE INDEX prices_amount ON prices (amount)");
    update(c, "CREATE TABLE wanted (w INTEGER PRIMARY KEY)");
    update(c, "INSERT INTO wanted VALUES (1), (2), (3), (4), (100), (101)");
    update(c, "ANALYZE prices");
    update(c, "ANALYZE wanted");
    String sql = "SELECT w.w, p.p_id FROM wanted w JOIN prices p ON p.amount = w.w";
    List<List<Object>> expected = new ArrayList<>();
    for (int w : new int[] {1, 2, 3, 4, 100, 101}) {
      for (int i = 0; i < amounts.size(); i++) {
        if (amounts.get(i).compareTo(BigDecimal.valueOf(w)) == 0) {
          expected.add(row(w, i + 1));
        }
      }
    }
    // 2 = 2.00, 3 = 3.00, 100 = 100.00; 1, 4 and 101 equal no amount, 2.50 and 3.01 no integer
    assertThat(expected).hasSize(3);
    assertThat(query(c, sql)).containsExactlyInAnyOrderElementsOf(expected);
    // 6 outer rows against 504: six lookups in prices_amount
    assertThat(lookupLine(explain(c, sql))).contains("type=[inner]", "table=[[public, prices]]",
        "access=[index prices_amount]");
  }

  @Test
  void aLookupKeyOfTwoOuterColumns() throws SQLException {
    User u = s1User();
    User other = USER_BY_ID.get(1L);
    update(c, "CREATE TABLE wants (want_id INTEGER PRIMARY KEY, uid BIGINT, st VARCHAR(16))");
    Object[][] wants = {{1, u.id(), "SHIPPED"}, {2, u.id(), "SHIPPED"}, {3, u.id(), "PENDING"},
        {4, other.id(), "SHIPPED"}, {5, null, "SHIPPED"}, {6, other.id(), null}};
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO wants VALUES (?, ?, ?)")) {
      for (Object[] w : wants) {
        ps.setObject(1, w[0]);
        ps.setObject(2, w[1], Types.BIGINT);
        ps.setObject(3, w[2], Types.VARCHAR);
        ps.executeUpdate();
      }
    }
    update(c, "ANALYZE wants");
    String sql = "SELECT w.want_id, o.order_id FROM wants w JOIN orders o ON o.user_id = w.uid AND o.status = w.st";
    List<List<Object>> expected = new ArrayList<>();
    for (Object[] w : wants) {
      if (w[1] != null && w[2] != null) {
        ordersOf((Long) w[1]).stream().filter(o -> o.status().equals(w[2]))
            .forEach(o -> expected.add(row(w[0], o.orderId())));
      }
    }
    assertThat(lookupLine(explain(c, sql))).contains("access=[index orders_user_status]",
        "lookup key=[user_id = uid, status = st]");
    assertThat(query(c, sql)).containsExactlyInAnyOrderElementsOf(expected);
    Counts n = counts(lookupLine(explain(c, "ANALYZE " + sql)));
    assertThat(n.lookups).as("(u, SHIPPED) twice, (u, PENDING), (1, SHIPPED); keys with a NULL skipped")
        .isEqualTo(3);
  }

  // ------------------------------------------------------------------------------------------ streaming

  @Test
  void limitStopsReadingTheOuterSideAfterTheFirstBatch() throws SQLException {
    List<Order> pending = orders(o -> o.status().equals("PENDING"));
    Map<Long, Order> byId = pending.stream().collect(Collectors.toMap(Order::orderId, o -> o));
    long withoutUser = pending.stream().filter(o -> o.userId() == null || !USER_BY_ID.containsKey(o.userId())).count();
    // LIMIT 5 needs at most 6 joined rows; at most `withoutUser` outer rows join nothing, so the first two batches
    // (16 + 32 rows) hold enough matches whatever their order, and usually the first does
    assertThat(withoutUser).isLessThan(16 + 32 - 6);
    String inner = "SELECT u.id, o.order_id FROM users u JOIN orders o ON u.id = o.user_id AND o.status = 'PENDING' "
        + "LIMIT 5";
    List<String> plan = explain(c, "ANALYZE " + inner);
    assertThat(lookupLine(plan)).contains("type=[inner]", "table=[[public, users]]", "lookup key=[id = user_id]");
    long outerRead = actualRows(line(plan, "table=[[public, orders]]"));
    assertThat(outerRead).as("outer rows read of %s in %s", pending.size(), plan).isIn(16L, 48L);
    assertThat(counts(lookupLine(plan)).lookups).isLessThanOrEqualTo(outerRead);
    assertThat(query(c, inner)).hasSize(5).allSatisfy(r -> {
      Order o = byId.get((Long) r.get(1));
      assertThat(o).as("a PENDING order: %s", r).isNotNull();
      assertThat(o.userId()).isEqualTo(r.get(0));
    });

    // a left join returns a row for each outer row: 16 outer rows at most (the planner may also push the LIMIT
    // into the outer side, which a left join allows)
    String left = "SELECT o.order_id, o.status, u.name FROM orders o LEFT JOIN users u ON u.id = o.user_id "
        + "WHERE o.status = 'PENDING' LIMIT 5";
    List<String> leftPlan = explain(c, "ANALYZE " + left);
    assertThat(lookupLine(leftPlan)).contains("type=[left]", "table=[[public, users]]");
    assertThat(actualRows(line(leftPlan, "table=[[public, orders]]"))).as("outer rows read of %s", pending.size())
        .isLessThanOrEqualTo(16);
    List<List<Object>> rows = query(c, left);
    assertThat(rows).hasSize(5);
    for (List<Object> r : rows) {
      Order o = byId.get((Long) r.get(0));
      assertThat(o).as("a PENDING order: %s", r).isNotNull();
      User u = o.userId() == null ? null : USER_BY_ID.get(o.userId());
      assertThat(r).isEqualTo(row(o.orderId(), "PENDING", u == null ? null : u.name()));
    }
  }

  // ------------------------------------------------------------------------------------------ cost and switch

  @Test
  void aHashJoinWinsOverTheWholeOfBothTables() throws SQLException {
    String sql = "SELECT count(*) FROM users u JOIN orders o ON u.id = o.user_id";
    assertThat(explain(c, sql)).noneMatch(l -> l.contains("IndexLookupJoin"))
        .anyMatch(l -> l.contains("EnumerableHashJoin"));
    long expected = ORDER_ROWS.stream().filter(o -> o.userId() != null && USER_BY_ID.containsKey(o.userId())).count();
    assertThat(((Number) scalar(c, sql)).longValue()).isEqualTo(expected);
  }

  /**
   * EXPLAIN ANALYZE prints the planner's estimates next to what happened; they must be the estimates EXPLAIN
   * shows. The hash join of all orders with all users returns about one row per order: Accel's join estimate
   * (|L| x |R| / max(ndv)) says 12,000; Calcite's fallback (15% of the cross product) 5,400,000.
   */
  @Test
  void explainAnalyzeShowsTheEstimatesOfExplain() throws SQLException {
    String sql = "SELECT count(*) FROM users u JOIN orders o ON u.id = o.user_id";
    long joined = ORDER_ROWS.stream().filter(o -> o.userId() != null && USER_BY_ID.containsKey(o.userId())).count();
    String planned = line(explain(c, sql), "EnumerableHashJoin");
    String analyzed = line(explain(c, "ANALYZE " + sql), "EnumerableHashJoin");
    assertThat(actualRows(analyzed)).isEqualTo(joined);
    assertThat(estimatedRows(planned)).as(planned).isBetween(joined / 3, joined * 3);
    assertThat(estimatedRows(analyzed)).as(analyzed).isEqualTo(estimatedRows(planned));

    Connection off = connect(url + "?lookupJoins=false");
    String s1 = inline(S1, s1User().email());
    String offPlanned = line(explain(off, s1), "Join(");
    String offAnalyzed = line(explain(off, "ANALYZE " + s1), "Join(");
    assertThat(estimatedRows(offAnalyzed)).as(offAnalyzed).isEqualTo(estimatedRows(offPlanned));
  }

  @Test
  void lookupJoinsOffPlansAHashJoinWithTheSameRows() throws SQLException {
    Connection off = connect(url + "?lookupJoins=false");
    User u = s1User();
    List<String> plan = explain(off, S1, u.email());
    assertThat(plan).noneMatch(l -> l.contains("IndexLookupJoin"))
        .anyMatch(l -> l.contains("EnumerableHashJoin") || l.contains("EnumerableMergeJoin"));
    assertThat(query(off, S1, u.email())).containsExactlyInAnyOrderElementsOf(s1Expected(u));
    assertThat(query(off, S2, S2_SINCE)).containsExactlyInAnyOrderElementsOf(s2Expected(S2_SINCE));
    // the default connection to the same store still plans lookups
    assertThat(explain(c, S1, u.email())).anyMatch(l -> l.contains("IndexLookupJoin"));
  }

  // ------------------------------------------------------------------------------------------ counters

  @Test
  void theLookupsCounterCountsEachLookup() throws SQLException {
    int outerUsers = users(u -> !u.createdAt().isBefore(S2_SINCE)).size();
    // the statements EXPLAIN shows (with a bind parameter instead, S2 is planned without knowing how many users
    // the date keeps, and reads the other way round: PENDING orders outside, users looked up by id)
    String s2 = inline(S2, S2_SINCE);
    assertThat(lookupLine(explain(c, s2))).contains("table=[[public, orders]]");
    double before = lookupsCounter();
    assertThat(query(c, s2)).hasSameSizeAs(s2Expected(S2_SINCE));
    assertThat(lookupsCounter() - before).isEqualTo(outerUsers);

    before = lookupsCounter();
    assertThat(query(c, inline(S1, s1User().email()))).isNotEmpty();
    assertThat(lookupsCounter() - before).isEqualTo(1);

    // a hash join looks nothing up
    before = lookupsCounter();
    scalar(c, "SELECT count(*) FROM users u JOIN orders o ON u.id = o.user_id");
    assertThat(lookupsCounter() - before).isZero();
  }

  @Test
  void explainAnalyzeAgainReportsTheSameCounts() throws SQLException {
    int outerUsers = users(u -> !u.createdAt().isBefore(S2_SINCE)).size();
    for (int i = 0; i < 3; i++) {
      Counts n = counts(lookupLine(explain(c, "ANALYZE " + S2, S2_SINCE)));
      assertThat(n.lookups).as("run %d", i + 1).isEqualTo(outerUsers);
      assertThat(n.entriesRead).as("run %d", i + 1).isEqualTo(s2Expected(S2_SINCE).size());
      // the plain query between two EXPLAIN ANALYZE runs of the same statement
      assertThat(query(c, S2, S2_SINCE)).hasSameSizeAs(s2Expected(S2_SINCE));
    }
  }

  // ------------------------------------------------------------------------------------------ transactions

  @Test
  void uncommittedWritesAreSeenByTheLookups() throws SQLException {
    User u = s1User();
    List<List<Object>> before = s1Expected(u);
    Order changed = shipped(u.id()).get(0);
    Connection other = connect();
    c.setAutoCommit(false);
    try {
      update(c, "INSERT INTO orders VALUES (" + (ORDERS + 1) + ", " + u.id() + ", 'SHIPPED', 12.34, "
          + "TIMESTAMP '2024-12-24 10:00:00')");
      update(c, "UPDATE orders SET status = 'DELIVERED' WHERE order_id = " + changed.orderId());
      assertThat(explain(c, S1, u.email())).anyMatch(l -> l.contains("IndexLookupJoin"));
      List<List<Object>> inTxn = new ArrayList<>(before);
      inTxn.remove(row(u.id(), u.name(), changed.orderId(), changed.total()));
      inTxn.add(row(u.id(), u.name(), (long) ORDERS + 1, new BigDecimal("12.34")));
      assertThat(query(c, S1, u.email())).as("inside the transaction").containsExactlyInAnyOrderElementsOf(inTxn);
      assertThat(query(other, S1, u.email())).as("another connection, before commit")
          .containsExactlyInAnyOrderElementsOf(before);
      c.rollback();
      assertThat(query(c, S1, u.email())).as("after rollback").containsExactlyInAnyOrderElementsOf(before);
    } finally {
      c.rollback();
      c.setAutoCommit(true);
    }
  }

  // ------------------------------------------------------------------------------------------ helpers

  /** What EXPLAIN ANALYZE says about one operator. */
  record Counts(long actualRows, long lookups, long seeks, long entriesRead, long icpAttempts, long icpMatches,
      long rowsFetched) {
  }

  private static final Pattern LOOKUP_COUNTS = Pattern.compile("\\(lookups=(\\d+) seeks=(\\d+) index entries read="
      + "(\\d+) icp attempts=(\\d+) icp matches=(\\d+) rows fetched=(\\d+)\\)");
  private static final Pattern ACTUAL_ROWS = Pattern.compile("\\(actual rows=(\\d+) ");

  static Counts counts(String line) {
    Matcher m = LOOKUP_COUNTS.matcher(line);
    assertThat(m.find()).as("lookup counts in %s", line).isTrue();
    return new Counts(actualRows(line), Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
        Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
        Long.parseLong(m.group(6)));
  }

  private static final Pattern ESTIMATED_ROWS = Pattern.compile("\\(est\\. rows=(\\d+)\\)");

  static long estimatedRows(String line) {
    Matcher m = ESTIMATED_ROWS.matcher(line);
    assertThat(m.find()).as("estimated rows in %s", line).isTrue();
    return Long.parseLong(m.group(1));
  }

  static long actualRows(String line) {
    Matcher m = ACTUAL_ROWS.matcher(line);
    assertThat(m.find()).as("actual rows in %s", line).isTrue();
    return Long.parseLong(m.group(1));
  }

  /** The plan's only IndexLookupJoin line. */
  static String lookupLine(List<String> plan) {
    return line(plan, "IndexLookupJoin(");
  }

  static String line(List<String> plan, String marker) {
    List<String> found = plan.stream().filter(l -> l.contains(marker)).toList();
    assertThat(found).as("one line with %s in the plan:\n%s", marker, String.join("\n", plan)).hasSize(1);
    return found.get(0);
  }

  /**
   * The lines of {@code EXPLAIN sql} (sql may start with ANALYZE). EXPLAIN takes no bind parameters, so the
   * parameters are written into the text as literals: the plan is the one the same query with those literals gets.
   */
  static List<String> explain(Connection conn, String sql, Object... params) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + inline(sql, params))) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return lines;
  }

  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** {@code sql} with each {@code ?} replaced by the SQL literal of the next parameter (none: unchanged). */
  static String inline(String sql, Object... params) {
    if (params.length == 0) {
      return sql;
    }
    StringBuilder out = new StringBuilder();
    int next = 0;
    for (char ch : sql.toCharArray()) {
      if (ch != '?') {
        out.append(ch);
        continue;
      }
      Object p = params[next++];
      if (p instanceof String str) {
        out.append('\'').append(str.replace("'", "''")).append('\'');
      } else if (p instanceof LocalDateTime t) {
        out.append("TIMESTAMP '").append(TIMESTAMP.format(t)).append('\'');
      } else {
        out.append(p);
      }
    }
    assertThat(next).as("parameters of %s", sql).isEqualTo(params.length);
    return out.toString();
  }

  static List<List<Object>> query(Connection conn, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        return normalized(rs);
      }
    }
  }

  private static void bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      ps.setObject(i + 1, params[i]);
    }
  }

  static List<List<Object>> normalized(ResultSet rs) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : rows(rs)) {
      out.add(row(r.toArray()));
    }
    return out;
  }

  /** A row with comparable values: integers as Long, decimals without trailing zeros, timestamps as LocalDateTime. */
  static List<Object> row(Object... values) {
    List<Object> r = new ArrayList<>();
    for (Object v : values) {
      r.add(norm(v));
    }
    return r;
  }

  static Object norm(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      return d.stripTrailingZeros().toPlainString();
    }
    if (v instanceof Timestamp t) {
      return t.toLocalDateTime();
    }
    return v;
  }

  static List<Object> concat(List<Object> a, List<Object> b) {
    List<Object> r = new ArrayList<>(a);
    r.addAll(b);
    return row(r.toArray());
  }

  private double lookupsCounter() {
    Counter counter = meters.find("accel.join.lookups").tag("store", url.substring("jdbc:accel:".length())).counter();
    return counter == null ? 0 : counter.count();
  }

}
