package io.accel.demo;

import java.time.LocalDateTime;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A row of {@code users}; a null id is assigned by the table's sequence on save. */
@Table("users")
public record User(@Id Long id, String email, String name, String country, LocalDateTime createdAt) {
  public static User of(String email, String name, String country, LocalDateTime createdAt) {
    return new User(null, email, name, country, createdAt);
  }
}
