package io.accel.demo;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders. */
@Service
public class OrderService {
  private final UserRepository users;
  private final OrderRepository orders;

  public OrderService(UserRepository users, OrderRepository orders) {
    this.users = users;
    this.orders = orders;
  }

  /**
   * Places a PENDING order for the user and returns the user's PENDING orders, the new one included. One
   * transaction, so the write and the read share a connection: Accel's read-your-writes is per connection, and a
   * pooled read on another connection could run on a mirror that has not applied the write yet.
   */
  @Transactional
  public List<UserOrder> place(String email, BigDecimal total) {
    User user = users.findByEmail(email).orElseThrow(() -> new UnknownUserException(email));
    orders.save(Order.of(user.id(), "PENDING", total, LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS)));
    return orders.ordersOf(email, "PENDING");
  }

  /** No user has this email. */
  public static class UnknownUserException extends RuntimeException {
    public UnknownUserException(String email) {
      super("no user with email " + email);
    }
  }
}
