package io.accel.demo;

import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads and writes {@code users} and {@code orders} with plain SQL that PostgreSQL and Accel both run. */
@Repository
public class ShopRepository {
  private final JdbcClient jdbc;

  public ShopRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** S1 of the straddle workload: the user with this email joined with their orders of this status. */
  public List<UserOrder> ordersOf(String email, String status) {
    return jdbc.sql("""
            SELECT u.id, u.name, o.order_id, o.total FROM users u JOIN orders o ON u.id = o.user_id
            WHERE u.email = ? AND o.status = ? ORDER BY o.order_id""")
        .params(email, status)
        .query((rs, n) -> new UserOrder(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getBigDecimal(4)))
        .list();
  }

  public Optional<User> userByEmail(String email) {
    return jdbc.sql("SELECT id, email, name, country, created_at FROM users WHERE email = ?").param(email)
        .query((rs, n) -> new User(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getTimestamp(5).toLocalDateTime()))
        .optional();
  }

  public void insert(User u) {
    jdbc.sql("INSERT INTO users (id, email, name, country, created_at) VALUES (?, ?, ?, ?, ?)")
        .params(u.id(), u.email(), u.name(), u.country(), java.sql.Timestamp.valueOf(u.createdAt())).update();
  }

  public void insert(Order o) {
    jdbc.sql("INSERT INTO orders (order_id, user_id, status, total, created_at) VALUES (?, ?, ?, ?, ?)")
        .params(o.orderId(), o.userId(), o.status(), o.total(), java.sql.Timestamp.valueOf(o.createdAt())).update();
  }

  public long countUsers() {
    return jdbc.sql("SELECT count(*) FROM users").query(Long.class).single();
  }

  /** The largest id in use of {@code users.id} or {@code orders.order_id}, 0 for none. */
  public long maxId(String table, String column) {
    return jdbc.sql("SELECT COALESCE(MAX(" + column + "), 0) FROM " + table).query(Long.class).single();
  }
}
