package io.accel.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** What the demo does in either mode, through its HTTP endpoints and its repository. */
abstract class DemoBehaviour {
  @Autowired
  UserRepository users;
  @Autowired
  OrderRepository orders;
  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  Environment environment;
  @Autowired
  ObjectMapper json;
  @Autowired
  TransactionTemplate transactions;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void schemaIsCreatedAndSampleDataLoaded() {
    assertThat(jdbc.queryForObject("SELECT count(*) FROM users WHERE email LIKE 'user%@example.com'", Long.class))
        .isEqualTo(50);
    assertThat(jdbc.queryForObject("SELECT count(*) FROM orders WHERE order_id <= 500", Long.class)).isEqualTo(500);
  }

  @Test
  void flywayRecordedItsMigration() {
    assertThat(jdbc.queryForList("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL",
        String.class)).containsExactly("1");
  }

  @Test
  void repositoriesWriteAndReadBack() {
    // in one transaction the read shares the write's connection: it sees the write at once
    User[] saved = new User[1];
    java.util.Optional<User> readInTheWritesTransaction = transactions.execute(t -> {
      saved[0] = users.save(User.of("ada@example.com", "Ada", "GB", LocalDateTime.of(2025, 3, 1, 12, 0)));
      return users.findByEmail("ada@example.com");
    });
    User ada = saved[0];
    // the sequence continues after the sample data's ids
    assertThat(ada.id()).isGreaterThan(50L);
    assertThat(readInTheWritesTransaction).contains(ada);
    eventually(() -> assertThat(users.findById(ada.id())).contains(ada));
    assertThat(users.findByEmail("nobody@example.com")).isEmpty();

    User renamed = users.save(new User(ada.id(), ada.email(), "Ada L.", ada.country(), ada.createdAt()));
    eventually(() -> assertThat(users.findByEmail("ada@example.com")).contains(renamed));
    users.deleteById(ada.id());
    eventually(() -> assertThat(users.findByEmail("ada@example.com")).isEmpty());
  }

  @Test
  void anOrderOfAnUnknownUserIsRefusedByTheForeignKey() {
    long before = orders.count();
    assertThatThrownBy(() -> orders.save(Order.of(999_999, "PENDING", BigDecimal.ONE, LocalDateTime.now())))
        .isInstanceOf(org.springframework.dao.DataIntegrityViolationException.class)
        .hasMessageContaining("orders_user_id_fkey");
    assertThat(orders.count()).isEqualTo(before);
  }

  @Test
  void ordersEndpointAnswersTheStraddledJoin() throws Exception {
    User grace = users.save(User.of("grace@example.com", "Grace", "US", LocalDateTime.of(2025, 4, 1, 9, 30)));
    LocalDateTime at = LocalDateTime.of(2025, 5, 1, 10, 0);
    Order first = orders.save(Order.of(grace.id(), "SHIPPED", new BigDecimal("12.50"), at));
    orders.save(Order.of(grace.id(), "PENDING", new BigDecimal("3.00"), at));
    Order third = orders.save(Order.of(grace.id(), "SHIPPED", new BigDecimal("7.25"), at));
    assertThat(first.orderId()).isGreaterThan(500L);

    eventually(() -> assertThat(orderIds(get("/users/grace@example.com/orders?status=SHIPPED")))
        .containsExactly(first.orderId(), third.orderId()));
    JsonNode shipped = get("/users/grace@example.com/orders?status=SHIPPED");
    assertThat(shipped.get(0).get("name").asString()).isEqualTo("Grace");
    assertThat(shipped.get(1).get("total").decimalValue()).isEqualByComparingTo("7.25");
  }

  @Test
  void aPlacedOrderIsInTheSameRequestsRead() throws Exception {
    users.save(User.of("alan@example.com", "Alan", "GB", LocalDateTime.of(2025, 4, 2, 8, 0)));
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> placed = http.send(HttpRequest.newBuilder(uri("/users/alan@example.com/orders"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"total\": " + i + ".99}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(placed.statusCode()).isEqualTo(201);
      assertThat(orderIds(json.readTree(placed.body()))).hasSize(i);
    }
    eventually(() -> assertThat(orderIds(get("/users/alan@example.com/orders?status=PENDING"))).hasSize(3));
  }

  /**
   * A read on another pooled connection than the write's: standalone it sees the write at once; in front of
   * PostgreSQL once the mirror has applied it (read-your-writes is per connection; this is replication lag).
   */
  protected static void eventually(org.awaitility.core.ThrowingRunnable assertion) {
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(assertion);
  }

  protected JsonNode get(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return json.readTree(response.body());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + environment.getProperty("local.server.port") + path);
  }

  private static List<Long> orderIds(JsonNode rows) {
    List<Long> ids = new ArrayList<>();
    rows.forEach(r -> ids.add(r.get("orderId").asLong()));
    return ids;
  }
}
