package io.accel.upstream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.BiPredicate;

/**
 * Authorization parity: whether an upstream user may SELECT a mirrored table (every one of its columns), as the
 * upstream says ({@code has_table_privilege}, or {@code has_column_privilege} on every column). Answers are kept
 * for a short time and dropped when GRANT or REVOKE passes through Accel.
 */
public final class Privileges {
  static final Duration TTL = Duration.ofSeconds(30);

  private record Key(String user, String table) {
  }

  private final Cache<Key, Boolean> answers = Caffeine.newBuilder().expireAfterWrite(TTL).maximumSize(10_000).build();
  private final BiPredicate<String, String> upstream;

  Privileges(BiPredicate<String, String> upstream) {
    this.upstream = upstream;
  }

  /** Whether {@code user} may read every column of the mirrored table {@code table}; false if it cannot be told. */
  public boolean maySelect(String user, String table) {
    if (user == null) {
      return false;
    }
    return answers.get(new Key(user, table), k -> upstream.test(k.user(), k.table()));
  }

  public void invalidate() {
    answers.invalidateAll();
  }
}
