package io.accel.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The result cache's side of shallow caches of upstream results: TTL, the reader's last write, persistence. */
class UpstreamResultCacheTest {
  /** A meta family in a map. */
  private static final class MapPersistence implements ResultCache.Persistence {
    final Map<String, byte[]> map = new TreeMap<>();

    @Override
    public void save(String key, byte[] value) {
      map.put(key, value);
    }

    @Override
    public void delete(String key) {
      map.remove(key);
    }

    @Override
    public Map<String, byte[]> load(String prefix) {
      Map<String, byte[]> out = new TreeMap<>();
      map.forEach((k, v) -> {
        if (k.startsWith(prefix)) {
          out.put(k, v);
        }
      });
      return out;
    }
  }

  @Test
  void keptResultsAnswerReadersThatWroteBeforeThemUntilTheirTtl() throws Exception {
    MapPersistence meta = new MapPersistence();
    ResultCache cache = new ResultCache(1 << 20, false, meta);
    String query = "SELECT v FROM notes WHERE id = ?";
    String shape = ResultCache.shapeOf(query);
    assertThat(cache.keepsUpstreamResults()).isFalse();
    ResultCache.Definition d = cache.define("notes", query, shape, ResultCache.Mode.SHALLOW, Duration.ofSeconds(1),
        true, true);
    assertThat(cache.keepsUpstreamResults()).isTrue();
    ResultCache.Key key = new ResultCache.Key(d.id(), query, List.of(1), "UTC");
    assertThat(cache.getUpstream(key, d, Long.MIN_VALUE)).isNull();

    long readFrom = System.nanoTime();
    assertThat(cache.putUpstream(key, d, "result", 100, readFrom)).isTrue();
    assertThat(cache.getUpstream(key, d, Long.MIN_VALUE).rows()).containsExactly("result");
    assertThat(cache.getUpstream(key, d, readFrom - 1)).isNotNull();
    // a reader whose last write ended after the result was read gets a miss (and the upstream's newer answer)
    assertThat(cache.getUpstream(key, d, readFrom)).isNull();
    assertThat(cache.hitCount()).isEqualTo(2);
    assertThat(cache.entryModes(d)).containsEntry(ResultCache.Invalidation.TTL, 1);
    assertThat(cache.putUpstream(key, d, "huge", 1 << 20, readFrom)).isFalse();

    // the definition is stored as an upstream one
    ResultCache reopened = new ResultCache(1 << 20, false, meta);
    ResultCache.Definition again = reopened.definition(shape);
    assertThat(again.upstream()).isTrue();
    assertThat(again.mode()).isEqualTo(ResultCache.Mode.SHALLOW);
    assertThat(again.ttl()).isEqualTo(Duration.ofSeconds(1));
    assertThat(reopened.keepsUpstreamResults()).isTrue();

    Thread.sleep(1_100);
    assertThat(cache.getUpstream(key, d, Long.MIN_VALUE)).as("expired").isNull();
    assertThat(cache.drop("notes")).isTrue();
    assertThat(cache.keepsUpstreamResults()).isFalse();
    assertThat(cache.putUpstream(key, d, "result", 100, System.nanoTime())).as("dropped").isFalse();
    assertThat(meta.map).isEmpty();
  }
}
