package io.accel.upstream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The statements a mirror's connections sent upstream, for {@code SHOW PROXIED QUERIES}: one entry per statement
 * text (whitespace collapsed), with why it went upstream and how often; the 1,000 most recent.
 */
public final class ProxiedQueries {
  /** One proxied statement: Readyset's query id form ({@code q_} and a hash), its text, why, and a count. */
  public record Entry(String id, String text, boolean supported, String reason, long count) {
  }

  private record Counted(String text, String reason, AtomicLong count) {
  }

  private final Cache<String, Counted> entries = Caffeine.newBuilder().maximumSize(1000).build();

  void record(String sql, String reason) {
    String text = sql.strip().replaceAll("\\s+", " ");
    entries.asMap().compute(text, (k, old) -> {
      Counted c = old == null ? new Counted(text, reason, new AtomicLong()) : new Counted(text, reason, old.count());
      c.count().incrementAndGet();
      return c;
    });
  }

  public List<Entry> entries() {
    return entries.asMap().values().stream().map(c -> new Entry(id(c.text()), c.text(),
        !c.reason().startsWith("not supported by Accel"), c.reason(), c.count().get()))
        .sorted(Comparator.comparing(Entry::count).reversed().thenComparing(Entry::text)).toList();
  }

  /** The id CREATE CACHE FROM takes: the same for every text of one shape. */
  static String id(String text) {
    return io.accel.cache.ResultCache.queryId(io.accel.cache.ResultCache.shapeOf(text));
  }
}
