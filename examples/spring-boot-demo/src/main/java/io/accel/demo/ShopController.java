package io.accel.demo;

import java.math.BigDecimal;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /users/{email}/orders?status=SHIPPED} (query S1) and {@code POST /users/{email}/orders}. */
@RestController
public class ShopController {
  private final OrderRepository repository;
  private final OrderService orders;

  public ShopController(OrderRepository repository, OrderService orders) {
    this.repository = repository;
    this.orders = orders;
  }

  @GetMapping("/users/{email}/orders")
  public List<UserOrder> orders(@PathVariable("email") String email,
      @RequestParam(name = "status", defaultValue = "SHIPPED") String status) {
    return repository.ordersOf(email, status);
  }

  /** The new order's total in the body; answers the user's PENDING orders, the new one among them. */
  @PostMapping("/users/{email}/orders")
  @ResponseStatus(HttpStatus.CREATED)
  public List<UserOrder> place(@PathVariable("email") String email, @RequestBody NewOrder order) {
    return orders.place(email, order.total());
  }

  @ExceptionHandler(OrderService.UnknownUserException.class)
  @ResponseStatus(HttpStatus.NOT_FOUND)
  public String unknownUser(OrderService.UnknownUserException e) {
    return e.getMessage();
  }

  /** The body of an order to place. */
  public record NewOrder(BigDecimal total) {
  }
}
