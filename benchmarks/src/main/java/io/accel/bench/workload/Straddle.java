package io.accel.bench.workload;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The {@code straddle} workload of DATASETS.md (Readyset's straddled join): {@code users} and
 * {@code orders}, and the queries S1 (one user by email, their SHIPPED orders) and S2 (users of a country
 * created since a date, their PENDING orders).
 *
 * <p>Rows are numbered from 1 and each is a pure function of (seed, row number): {@link #user(long)} and
 * {@link #order(long)} regenerate any row without loading anything, which is what the loader inserts.
 * <ul>
 *   <li>users: id 1..users; email {@code 'user' || id || '@example.com'}; name a first and a last name
 *       from fixed lists; country uniform over {@link #COUNTRIES}; created_at uniform to the second in
 *       [{@link #EPOCH}, {@link #END}).
 *   <li>orders: order_id 1..orders; user_id uniform over 1..users; status PENDING 10%, PAID 15%, SHIPPED
 *       30%, DELIVERED 40%, CANCELLED 5%; total uniform over 1.00 .. 999.99 in cents; created_at uniform
 *       to the second in [the user's created_at, {@link #END}).
 * </ul>
 */
public final class Straddle implements Workload {
  public static final String NAME = "straddle";
  public static final long DEFAULT_SEED = 42;
  public static final long DEFAULT_USERS = 100_000;
  public static final long DEFAULT_ORDERS = 1_000_000;

  /** The 20 country codes, uniformly drawn. */
  public static final List<String> COUNTRIES = List.of(
      "US", "GB", "DE", "FR", "ES", "IT", "NL", "SE", "PL", "IE",
      "CA", "MX", "BR", "AR", "JP", "KR", "IN", "AU", "NZ", "ZA");

  /** Order statuses and their shares in percent, in this order. */
  public static final List<String> STATUSES = List.of("PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED");
  public static final List<Integer> STATUS_PERCENT = List.of(10, 15, 30, 40, 5);

  /** users.created_at lies in [EPOCH, END); orders.created_at in [its user's created_at, END). */
  public static final LocalDateTime EPOCH = LocalDateTime.of(2020, 1, 1, 0, 0);
  public static final LocalDateTime END = LocalDateTime.of(2025, 1, 1, 0, 0);

  /**
   * S2's date: users created since 2024-09-01 are 4 of the 60 months, so a country (1/20 of users) has
   * about users / 300 of them: ~333 at the default size, the "few hundred" rows of S2's outer side.
   */
  public static final LocalDateTime S2_SINCE = LocalDateTime.of(2024, 9, 1, 0, 0);

  private static final List<String> FIRST_NAMES = List.of(
      "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Frances", "Grace",
      "Guido", "Hedy", "John", "Ken", "Leslie", "Margaret", "Niklaus", "Radia", "Shafi", "Tony");
  private static final List<String> LAST_NAMES = List.of(
      "Allen", "Backus", "Codd", "Dijkstra", "Goldwasser", "Hamilton", "Hoare", "Hopper", "Kernighan",
      "Knuth", "Lamarr", "Lamport", "Liskov", "Perlman", "Ritchie", "Shannon", "Thompson", "Turing",
      "Wirth", "Lovelace");

  /** Bumped whenever the generated rows change (the golden values of StraddleTest change with it). */
  static final int DATA_VERSION = 1;

  private static final int STREAM_USERS = 1;
  private static final int STREAM_ORDERS = 2;
  private static final int STREAM_S1 = 3;
  private static final int STREAM_S2 = 4;
  private static final long EPOCH_SECOND = EPOCH.toEpochSecond(ZoneOffset.UTC);
  private static final long END_SECOND = END.toEpochSecond(ZoneOffset.UTC);

  public static final String CREATE_USERS = "CREATE TABLE users ("
      + "id BIGINT PRIMARY KEY, email VARCHAR(100) NOT NULL, name VARCHAR(100) NOT NULL, "
      + "country CHAR(2) NOT NULL, created_at TIMESTAMP NOT NULL)";
  public static final String CREATE_ORDERS = "CREATE TABLE orders ("
      + "order_id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, status VARCHAR(16) NOT NULL, "
      + "total NUMERIC(12,2) NOT NULL, created_at TIMESTAMP NOT NULL)";
  public static final List<String> INDEXES = List.of(
      "CREATE UNIQUE INDEX users_email ON users (email)",
      "CREATE INDEX orders_status ON orders (status)",
      "CREATE INDEX orders_user_status ON orders (user_id, status)");

  public static final String INSERT_USER =
      "INSERT INTO users (id, email, name, country, created_at) VALUES (?, ?, ?, ?, ?)";
  public static final String INSERT_ORDER =
      "INSERT INTO orders (order_id, user_id, status, total, created_at) VALUES (?, ?, ?, ?, ?)";

  /** S1: one parameter, a user's email (VARCHAR). */
  public static final String S1 = "SELECT u.id, u.name, o.order_id, o.total FROM users u JOIN orders o "
      + "ON u.id = o.user_id WHERE u.email = ? AND o.status = 'SHIPPED'";
  /** S2: two parameters, a country (CHAR(2)) and a timestamp. */
  public static final String S2 = "SELECT u.id, o.order_id FROM users u JOIN orders o ON u.id = o.user_id "
      + "WHERE u.country = ? AND u.created_at >= ? AND o.status = 'PENDING'";

  /** A users row. */
  public record User(long id, String email, String name, String country, LocalDateTime createdAt) {
  }

  /** An orders row; total has scale 2. */
  public record Order(long orderId, long userId, String status, BigDecimal total, LocalDateTime createdAt) {
  }

  private final long users;
  private final long orders;
  private final long seed;
  private final int batchSize;

  /** The DATASETS.md size: 100,000 users, 1,000,000 orders, seed 42. */
  public Straddle() {
    this(DEFAULT_USERS, DEFAULT_ORDERS);
  }

  public Straddle(long users, long orders) {
    this(users, orders, DEFAULT_SEED, BatchLoader.DEFAULT_BATCH_SIZE);
  }

  public Straddle(long users, long orders, long seed, int batchSize) {
    if (users < 1) {
      throw new IllegalArgumentException("users must be at least 1: " + users);
    }
    if (orders < 0) {
      throw new IllegalArgumentException("orders must not be negative: " + orders);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
    this.users = users;
    this.orders = orders;
    this.seed = seed;
    this.batchSize = batchSize;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long seed() {
    return seed;
  }

  public long users() {
    return users;
  }

  public long orders() {
    return orders;
  }

  /** {@code <users>_<orders>}, and {@code _s<seed>} unless the seed is 42: {@code 100000_1000000}. */
  @Override
  public String sizeLabel() {
    return users + "_" + orders + (seed == DEFAULT_SEED ? "" : "_s" + Long.toUnsignedString(seed));
  }

  @Override
  public String fingerprint() {
    return Workload.super.fingerprint() + " v" + DATA_VERSION;
  }

  @Override
  public List<String> tables() {
    return List.of("users", "orders");
  }

  @Override
  public List<String> createTables() {
    return List.of(CREATE_USERS, CREATE_ORDERS);
  }

  @Override
  public List<String> createIndexes() {
    return INDEXES;
  }

  /** The email of user {@code id}. */
  public static String email(long id) {
    return "user" + id + "@example.com";
  }

  /** Users row {@code id}, 1 &lt;= id &lt;= users. */
  public User user(long id) {
    checkRange("user id", id, users);
    RowRandom r = new RowRandom(seed, STREAM_USERS, id);
    String name = FIRST_NAMES.get(r.nextInt(FIRST_NAMES.size())) + " " + LAST_NAMES.get(r.nextInt(LAST_NAMES.size()));
    String country = COUNTRIES.get(r.nextInt(COUNTRIES.size()));
    LocalDateTime createdAt = second(EPOCH_SECOND + r.nextLong(END_SECOND - EPOCH_SECOND));
    return new User(id, email(id), name, country, createdAt);
  }

  /** Orders row {@code orderId}, 1 &lt;= orderId &lt;= orders. */
  public Order order(long orderId) {
    checkRange("order id", orderId, orders);
    RowRandom r = new RowRandom(seed, STREAM_ORDERS, orderId);
    long userId = 1 + r.nextLong(users);
    String status = status(r.nextInt(100));
    BigDecimal total = BigDecimal.valueOf(100 + r.nextLong(99_900), 2);
    long userCreated = user(userId).createdAt().toEpochSecond(ZoneOffset.UTC);
    LocalDateTime createdAt = second(userCreated + r.nextLong(END_SECOND - userCreated));
    return new Order(orderId, userId, status, total, createdAt);
  }

  /** S1's parameters for its i-th execution (i &gt;= 0): the email of a user drawn uniformly. */
  public Object[] s1Params(long i) {
    return new Object[] {email(s1UserId(i))};
  }

  /** The user whose email {@link #s1Params(long)} gives for execution i. */
  public long s1UserId(long i) {
    return 1 + new RowRandom(seed, STREAM_S1, i).nextLong(users);
  }

  /** S2's parameters for its i-th execution (i &gt;= 0): a country drawn uniformly, and {@link #S2_SINCE}. */
  public Object[] s2Params(long i) {
    String country = COUNTRIES.get(new RowRandom(seed, STREAM_S2, i).nextInt(COUNTRIES.size()));
    return new Object[] {country, S2_SINCE};
  }

  @Override
  public LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException {
    BatchLoader loader = new BatchLoader(batchSize);
    LoadResult.TableLoad u = loader.insert(connection, "users", INSERT_USER, users, (ps, row) -> {
      User user = user(row + 1);
      ps.setLong(1, user.id());
      ps.setString(2, user.email());
      ps.setString(3, user.name());
      ps.setString(4, user.country());
      ps.setObject(5, user.createdAt());
    }, listener);
    LoadResult.TableLoad o = loader.insert(connection, "orders", INSERT_ORDER, orders, (ps, row) -> {
      Order order = order(row + 1);
      ps.setLong(1, order.orderId());
      ps.setLong(2, order.userId());
      ps.setString(3, order.status());
      ps.setBigDecimal(4, order.total());
      ps.setObject(5, order.createdAt());
    }, listener);
    return LoadResult.of(u, o);
  }

  private static String status(int percentile) {
    int upTo = 0;
    for (int i = 0; i < STATUSES.size(); i++) {
      upTo += STATUS_PERCENT.get(i);
      if (percentile < upTo) {
        return STATUSES.get(i);
      }
    }
    throw new AssertionError("status percentages do not add up to 100");
  }

  private static LocalDateTime second(long epochSecond) {
    return LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
  }

  private static void checkRange(String what, long id, long max) {
    if (id < 1 || id > max) {
      throw new IllegalArgumentException(what + " out of range 1.." + max + ": " + id);
    }
  }

  @Override
  public String toString() {
    return NAME + "(users=" + users + ", orders=" + orders + ", seed=" + seed + ")";
  }
}
