package io.accel.demo;

import java.util.Optional;
import org.springframework.data.repository.ListCrudRepository;

/** {@code users} through Spring Data JDBC. */
public interface UserRepository extends ListCrudRepository<User, Long> {
  Optional<User> findByEmail(String email);
}
