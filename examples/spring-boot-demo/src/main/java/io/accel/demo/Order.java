package io.accel.demo;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Column;
import org.springframework.data.relational.core.mapping.Table;

/** A row of {@code orders}; a null id is assigned by the table's sequence on save. */
@Table("orders")
public record Order(@Id @Column("order_id") Long orderId, Long userId, String status, BigDecimal total,
    LocalDateTime createdAt) {
  public static Order of(long userId, String status, BigDecimal total, LocalDateTime createdAt) {
    return new Order(null, userId, status, total, createdAt);
  }
}
