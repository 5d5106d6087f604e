package io.accel.demo;

import java.util.List;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

/** {@code orders} through Spring Data JDBC, and the straddled join S1. */
public interface OrderRepository extends ListCrudRepository<Order, Long> {
  /** S1 of the straddle workload: the user with this email joined with their orders of this status. */
  @Query("""
      SELECT u.id AS user_id, u.name, o.order_id, o.total FROM users u JOIN orders o ON u.id = o.user_id
      WHERE u.email = :email AND o.status = :status ORDER BY o.order_id""")
  List<UserOrder> ordersOf(String email, String status);
}
