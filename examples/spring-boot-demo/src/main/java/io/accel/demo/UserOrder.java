package io.accel.demo;

import java.math.BigDecimal;

/** A row of the straddled join S1: a user with one of their orders. */
public record UserOrder(long userId, String name, long orderId, BigDecimal total) {
}
