package io.accel.demo;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Fills empty tables with the straddle workload's shape (DATASETS.md) at a small size: {@code demo.users} users
 * ({@code user<id>@example.com}), ten orders each, statuses in the workload's proportions, seed 42. Batched
 * through JdbcTemplate, as a loader of many rows would be.
 */
@Component
public class SampleData implements ApplicationRunner {
  private static final String[] COUNTRIES = {"US", "GB", "DE", "FR", "JP", "BR", "IN", "CN", "CA", "AU", "ES", "IT",
      "NL", "SE", "PL", "MX", "KR", "ZA", "AR", "NG"};
  private final UserRepository repository;
  private final JdbcTemplate jdbc;
  private final int users;

  public SampleData(UserRepository repository, JdbcTemplate jdbc, @Value("${demo.users:2000}") int users) {
    this.repository = repository;
    this.jdbc = jdbc;
    this.users = users;
  }

  @Override
  public void run(ApplicationArguments args) {
    if (users == 0 || repository.count() > 0) {
      return;
    }
    Random random = new Random(42);
    LocalDateTime start = LocalDateTime.of(2025, 1, 1, 0, 0);
    List<Object[]> userRows = new ArrayList<>();
    List<Object[]> orderRows = new ArrayList<>();
    for (long id = 1; id <= users; id++) {
      userRows.add(new Object[] {id, "user" + id + "@example.com", "User " + id, COUNTRIES[random.nextInt(20)],
          java.sql.Timestamp.valueOf(start.plusMinutes(random.nextInt(500_000)))});
    }
    for (long id = 1; id <= users * 10L; id++) {
      int p = random.nextInt(100);
      String status = p < 10 ? "PENDING" : p < 25 ? "PAID" : p < 55 ? "SHIPPED" : p < 95 ? "DELIVERED" : "CANCELLED";
      orderRows.add(new Object[] {id, 1 + random.nextInt(users), status,
          BigDecimal.valueOf(100 + random.nextInt(99_900), 2),
          java.sql.Timestamp.valueOf(start.plusMinutes(random.nextInt(500_000)))});
    }
    // in transactions of 10,000 rows: bounded for the database, and for a mirror that applies each one whole
    for (int from = 0; from < userRows.size(); from += 10_000) {
      jdbc.batchUpdate("INSERT INTO users (id, email, name, country, created_at) VALUES (?, ?, ?, ?, ?)",
          userRows.subList(from, Math.min(from + 10_000, userRows.size())));
    }
    for (int from = 0; from < orderRows.size(); from += 10_000) {
      jdbc.batchUpdate("INSERT INTO orders (order_id, user_id, status, total, created_at) VALUES (?, ?, ?, ?, ?)",
          orderRows.subList(from, Math.min(from + 10_000, orderRows.size())));
    }
    // the rows carry their ids (the emails name them), so the sequences continue after them
    jdbc.queryForObject("SELECT setval(pg_get_serial_sequence('users', 'id'), ?)", Long.class, (long) users);
    jdbc.queryForObject("SELECT setval(pg_get_serial_sequence('orders', 'order_id'), ?)", Long.class,
        users * 10L);
  }
}
