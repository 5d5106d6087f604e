package io.accel.demo;

import java.time.LocalDateTime;

/** A row of {@code users}. */
public record User(long id, String email, String name, String country, LocalDateTime createdAt) {
}
