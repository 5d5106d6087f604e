package io.accel.compat.spring;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.ReadOnlyProperty;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.core.mapping.MappedCollection;
import org.springframework.data.relational.core.mapping.Table;
import org.springframework.data.repository.ListCrudRepository;
import org.springframework.data.repository.ListPagingAndSortingRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A small shop on Spring Data JDBC over the schema Flyway migrates ({@code db/shop}). */
@SpringBootApplication
@EnableJdbcRepositories(considerNestedRepositories = true)
public class ShopApplication {

  /** A customer; {@code created_at} is the database's default, so it is only read. */
  @Table("customers")
  public record Customer(@Id Long id, String email, String name, String phone,
      @ReadOnlyProperty LocalDateTime createdAt) {
    public static Customer of(String email, String name) {
      return new Customer(null, email, name, null, null);
    }

    public Customer withPhone(String phone) {
      return new Customer(id, email, name, phone, createdAt);
    }
  }

  /** An order and its lines, one aggregate: the lines are keyed by (order_id, line_no). */
  @Table("orders")
  public record Order(@Id Long id, Long customerId, String status, short priority,
      @MappedCollection(idColumn = "order_id", keyColumn = "line_no") List<OrderLine> lines) {
  }

  @Table("order_lines")
  public record OrderLine(Long productId, int quantity) {
  }

  public interface CustomerRepository extends ListCrudRepository<Customer, Long>,
      ListPagingAndSortingRepository<Customer, Long> {
    Optional<Customer> findByEmail(String email);

    Page<Customer> findByNameStartingWith(String prefix, Pageable page);

    @Modifying
    @Query("UPDATE customers SET phone = :phone WHERE email = :email")
    int setPhone(String email, String phone);
  }

  public interface OrderRepository extends ListCrudRepository<Order, Long> {
    List<Order> findByCustomerIdOrderByIdDesc(Long customerId);
  }

  /** Places orders in one transaction each: a failure leaves neither the customer nor the order. */
  @Service
  public static class OrderService {
    private final CustomerRepository customers;
    private final OrderRepository orders;

    public OrderService(CustomerRepository customers, OrderRepository orders) {
      this.customers = customers;
      this.orders = orders;
    }

    @Transactional
    public Order placeOrder(String email, List<OrderLine> lines) {
      Customer c = customers.findByEmail(email).orElseGet(() -> customers.save(Customer.of(email, email)));
      if (lines.isEmpty()) {
        throw new IllegalArgumentException("an order needs a line");
      }
      return orders.save(new Order(null, c.id(), "NEW", (short) 0, lines));
    }
  }
}
