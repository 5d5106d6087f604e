package io.accel.demo;

import java.math.BigDecimal;
import java.time.LocalDateTime;

/** A row of {@code orders}. */
public record Order(long orderId, long userId, String status, BigDecimal total, LocalDateTime createdAt) {
}
