package io.accel.demo;

import static org.assertj.core.api.Assertions.assertThat;

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
  ShopRepository repository;
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
  void repositoryWritesAndReadsBack() {
    User ada = new User(9001, "ada@example.com", "Ada", "GB", LocalDateTime.of(2025, 3, 1, 12, 0));
    // in one transaction the read shares the write's connection: it sees the write at once
    java.util.Optional<User> readInTheWritesTransaction = transactions.execute(t -> {
      repository.insert(ada);
      return repository.userByEmail("ada@example.com");
    });
    assertThat(readInTheWritesTransaction).contains(ada);
    eventually(() -> assertThat(repository.userByEmail("ada@example.com")).contains(ada));
    assertThat(repository.userByEmail("nobody@example.com")).isEmpty();
  }

  @Test
  void ordersEndpointAnswersTheStraddledJoin() throws Exception {
    User grace = new User(9002, "grace@example.com", "Grace", "US", LocalDateTime.of(2025, 4, 1, 9, 30));
    repository.insert(grace);
    LocalDateTime at = LocalDateTime.of(2025, 5, 1, 10, 0);
    repository.insert(new Order(90_001, 9002, "SHIPPED", new BigDecimal("12.50"), at));
    repository.insert(new Order(90_002, 9002, "PENDING", new BigDecimal("3.00"), at));
    repository.insert(new Order(90_003, 9002, "SHIPPED", new BigDecimal("7.25"), at));

    eventually(() -> assertThat(orderIds(get("/users/grace@example.com/orders?status=SHIPPED")))
        .containsExactly(90_001L, 90_003L));
    JsonNode shipped = get("/users/grace@example.com/orders?status=SHIPPED");
    assertThat(shipped.get(0).get("name").asString()).isEqualTo("Grace");
    assertThat(shipped.get(1).get("total").decimalValue()).isEqualByComparingTo("7.25");
  }

  @Test
  void aPlacedOrderIsInTheSameRequestsRead() throws Exception {
    User alan = new User(9003, "alan@example.com", "Alan", "GB", LocalDateTime.of(2025, 4, 2, 8, 0));
    repository.insert(alan);
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
