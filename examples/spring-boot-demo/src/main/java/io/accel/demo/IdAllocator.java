package io.accel.demo;

import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Application-assigned ids, continuing from the largest in the tables at start-up: the standalone engine has no
 * sequences yet. One application instance at a time; with SERIAL/identity columns this class goes away.
 */
@Component
public class IdAllocator {
  private final ShopRepository repository;
  private AtomicLong nextUser;
  private AtomicLong nextOrder;

  public IdAllocator(ShopRepository repository) {
    this.repository = repository;
  }

  public synchronized long nextUserId() {
    if (nextUser == null) {
      nextUser = new AtomicLong(repository.maxId("users", "id"));
    }
    return nextUser.incrementAndGet();
  }

  public synchronized long nextOrderId() {
    if (nextOrder == null) {
      nextOrder = new AtomicLong(repository.maxId("orders", "order_id"));
    }
    return nextOrder.incrementAndGet();
  }
}
