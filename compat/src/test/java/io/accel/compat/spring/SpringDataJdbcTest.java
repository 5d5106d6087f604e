package io.accel.compat.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.accel.compat.spring.ShopApplication.Customer;
import io.accel.compat.spring.ShopApplication.CustomerRepository;
import io.accel.compat.spring.ShopApplication.Order;
import io.accel.compat.spring.ShopApplication.OrderLine;
import io.accel.compat.spring.ShopApplication.OrderRepository;
import io.accel.compat.spring.ShopApplication.OrderService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A Spring Boot application on a standalone file store, as a user configures it: the URL, Flyway migrating at
 * start-up, then JdbcTemplate and Spring Data JDBC repositories. Each test has a store of its own.
 */
@SpringBootTest(classes = ShopApplication.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class SpringDataJdbcTest {
  @TempDir
  static Path stores;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", () -> {
      try {
        return "jdbc:accel:file:" + Files.createTempDirectory(stores, "shop");
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    registry.add("spring.flyway.locations", () -> "classpath:db/shop");
  }

  @Autowired
  JdbcTemplate jdbc;
  @Autowired
  Flyway flyway;
  @Autowired
  CustomerRepository customers;
  @Autowired
  OrderRepository orders;
  @Autowired
  OrderService service;
  @Autowired
  TransactionTemplate transactions;

  @Test
  void flywayMigratedTheStoreAtStartUp() {
    assertThat(flyway.info().applied()).hasSize(6);
    assertThat(flyway.info().pending()).isEmpty();
    assertThat(jdbc.queryForObject("SELECT count(*) FROM products", Long.class)).isEqualTo(4L);
    assertThat(jdbc.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Long.class))
        .isEqualTo(6L);
  }

  @Test
  void jdbcTemplateInsertsReturnIncreasingGeneratedKeys() {
    List<Long> ids = new ArrayList<>();
    for (String email : List.of("ada@example.com", "grace@example.com", "edsger@example.com")) {
      GeneratedKeyHolder keys = new GeneratedKeyHolder();
      jdbc.update(c -> {
        PreparedStatement ps = c.prepareStatement("INSERT INTO customers (email, name) VALUES (?, ?)",
            Statement.RETURN_GENERATED_KEYS);
        ps.setString(1, email);
        ps.setString(2, email.substring(0, email.indexOf('@')));
        return ps;
      }, keys);
      assertThat(keys.getKeys()).containsEntry("email", email);
      ids.add(((Number) keys.getKeys().get("id")).longValue());
    }
    assertThat(ids).doesNotHaveDuplicates().isSorted();

    Long returned = jdbc.queryForObject("INSERT INTO customers (email, name) VALUES (?, ?) RETURNING id", Long.class,
        "barbara@example.com", "barbara");
    assertThat(returned).isGreaterThan(ids.get(2));

    Number viaSimpleInsert = new SimpleJdbcInsert(jdbc).withTableName("customers").usingGeneratedKeyColumns("id")
        .usingColumns("email", "name").executeAndReturnKey(Map.of("email", "alan@example.com", "name", "alan"));
    assertThat(viaSimpleInsert.longValue()).isGreaterThan(returned);

    assertThat(jdbc.queryForList("SELECT name FROM customers ORDER BY id", String.class))
        .containsExactly("ada", "grace", "edsger", "barbara", "alan");
    assertThat(jdbc.update("UPDATE customers SET phone = ? WHERE name LIKE ?", "+44 20", "%a%")).isEqualTo(4);
    assertThat(jdbc.queryForObject("SELECT count(*) FROM customers WHERE created_at <= now()", Long.class))
        .isEqualTo(5L);
    int[] counts = jdbc.batchUpdate("INSERT INTO customers (email, name) VALUES (?, ?)",
        List.of(new Object[] {"b1@example.com", "b1"}, new Object[] {"b2@example.com", "b2"}));
    assertThat(counts).containsExactly(1, 1);
    assertThatThrownBy(() -> jdbc.update("INSERT INTO customers (email, name) VALUES ('ada@example.com', 'x')"))
        .isInstanceOf(DuplicateKeyException.class);
  }

  @Test
  void repositoriesSaveFindUpdatePageAndDelete() {
    Customer ada = customers.save(Customer.of("ada@example.com", "Ada"));
    Customer alan = customers.save(Customer.of("alan@example.com", "Alan"));
    Customer grace = customers.save(Customer.of("grace@example.com", "Grace"));
    assertThat(List.of(ada.id(), alan.id(), grace.id())).doesNotContainNull().doesNotHaveDuplicates().isSorted();

    Customer read = customers.findById(alan.id()).orElseThrow();
    assertThat(read.email()).isEqualTo("alan@example.com");
    assertThat(read.name()).isEqualTo("Alan");
    assertThat(read.createdAt()).isNotNull();
    assertThat(customers.findByEmail("grace@example.com")).map(Customer::id).contains(grace.id());

    customers.save(read.withPhone("+1 555"));
    assertThat(customers.findById(alan.id()).orElseThrow().phone()).isEqualTo("+1 555");
    assertThat(customers.setPhone("ada@example.com", "+44 1")).isEqualTo(1);
    assertThat(customers.findByEmail("ada@example.com").orElseThrow().phone()).isEqualTo("+44 1");

    Page<Customer> first = customers.findAll(PageRequest.of(0, 2, Sort.by("email")));
    assertThat(first.getTotalElements()).isEqualTo(3);
    assertThat(first.getContent()).extracting(Customer::email).containsExactly("ada@example.com", "alan@example.com");
    Page<Customer> second = customers.findAll(first.nextPageable());
    assertThat(second.getContent()).extracting(Customer::email).containsExactly("grace@example.com");
    Page<Customer> as = customers.findByNameStartingWith("A", PageRequest.of(0, 1, Sort.by("name").descending()));
    assertThat(as.getTotalElements()).isEqualTo(2);
    assertThat(as.getContent()).extracting(Customer::name).containsExactly("Alan");

    customers.deleteById(alan.id());
    assertThat(customers.count()).isEqualTo(2);
    assertThat(customers.findAll(Sort.by("id"))).extracting(Customer::email)
        .containsExactly("ada@example.com", "grace@example.com");
  }

  @Test
  void anAggregateIsSavedWithItsLinesAndReadBackWhole() {
    Long keyboard = jdbc.queryForObject("SELECT id FROM products WHERE sku = 'KB-01'", Long.class);
    Long mouse = jdbc.queryForObject("SELECT id FROM products WHERE sku = 'MS-01'", Long.class);
    Order placed = service.placeOrder("ada@example.com", List.of(new OrderLine(keyboard, 1), new OrderLine(mouse, 3)));
    Order again = service.placeOrder("ada@example.com", List.of(new OrderLine(mouse, 1)));
    assertThat(again.id()).isGreaterThan(placed.id());

    Order read = orders.findById(placed.id()).orElseThrow();
    assertThat(read.status()).isEqualTo("NEW");
    assertThat(read.lines()).containsExactly(new OrderLine(keyboard, 1), new OrderLine(mouse, 3));
    assertThat(orders.findByCustomerIdOrderByIdDesc(read.customerId())).extracting(Order::id)
        .containsExactly(again.id(), placed.id());
    assertThat(jdbc.queryForObject("SELECT total FROM order_totals WHERE order_id = ?", java.math.BigDecimal.class,
        placed.id())).isEqualByComparingTo("130.08");

    orders.save(new Order(read.id(), read.customerId(), "SHIPPED", (short) 1, List.of(new OrderLine(keyboard, 2))));
    Order updated = orders.findById(placed.id()).orElseThrow();
    assertThat(updated.status()).isEqualTo("SHIPPED");
    assertThat(updated.lines()).containsExactly(new OrderLine(keyboard, 2));
  }

  /** Spring Data JDBC locks the aggregate root with SELECT ... FOR UPDATE OF before deleting it. */
  @Test
  void anAggregateIsDeletedWithItsLines() {
    Long mouse = jdbc.queryForObject("SELECT id FROM products WHERE sku = 'MS-01'", Long.class);
    Order placed = service.placeOrder("ada@example.com", List.of(new OrderLine(mouse, 1), new OrderLine(mouse, 2)));
    orders.deleteById(placed.id());
    assertThat(orders.findById(placed.id())).isEmpty();
    assertThat(jdbc.queryForObject("SELECT count(*) FROM order_lines WHERE order_id = ?", Long.class, placed.id()))
        .isZero();
  }

  @Test
  void aFailedTransactionLeavesNothingBehind() {
    assertThatThrownBy(() -> service.placeOrder("nobody@example.com", List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(customers.findByEmail("nobody@example.com")).isEmpty();
    assertThat(orders.count()).isZero();

    transactions.executeWithoutResult(status -> {
      customers.save(Customer.of("temp@example.com", "temp"));
      assertThat(customers.findByEmail("temp@example.com")).isPresent();
      status.setRollbackOnly();
    });
    assertThat(customers.count()).isZero();

    Long committed = transactions.execute(status -> customers.save(Customer.of("kept@example.com", "kept")).id());
    assertThat(customers.findById(committed)).isPresent();
  }

  /**
   * PROPAGATION_NESTED runs on a savepoint of the outer transaction: a nested failure, even one that failed a
   * statement (a duplicate key), rolls back to it and the outer transaction commits the rest.
   */
  @Test
  void nestedTransactionsRollBackToTheirSavepoint() {
    TransactionTemplate nested = new TransactionTemplate(transactions.getTransactionManager());
    nested.setPropagationBehavior(org.springframework.transaction.TransactionDefinition.PROPAGATION_NESTED);
    transactions.executeWithoutResult(outer -> {
      customers.save(Customer.of("outer@example.com", "outer"));
      assertThatThrownBy(() -> nested.executeWithoutResult(inner -> {
        customers.save(Customer.of("inner@example.com", "inner"));
        jdbc.update("INSERT INTO customers (email, name) VALUES ('outer@example.com', 'again')");
      })).isInstanceOf(DuplicateKeyException.class);
      nested.executeWithoutResult(inner -> {
        customers.save(Customer.of("undone@example.com", "undone"));
        inner.setRollbackOnly();
      });
      nested.executeWithoutResult(inner -> customers.save(Customer.of("nested@example.com", "nested")));
      customers.save(Customer.of("after@example.com", "after"));
    });
    assertThat(customers.findAll(Sort.by("id"))).extracting(Customer::email)
        .containsExactly("outer@example.com", "nested@example.com", "after@example.com");

    // the savepoint API of a TransactionStatus
    transactions.executeWithoutResult(status -> {
      Object savepoint = status.createSavepoint();
      customers.save(Customer.of("gone@example.com", "gone"));
      status.rollbackToSavepoint(savepoint);
      status.releaseSavepoint(savepoint);
    });
    assertThat(customers.findByEmail("gone@example.com")).isEmpty();
  }
}
