package io.accel.bench.jmh;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import java.util.Collection;
import java.util.Locale;

/**
 * Accel's MVCC row cache as its meters show it, read from the registry {@link EngineCounters#installRegistry()}
 * adds to Micrometer's global registry (install it before the first connection opens the store): Micrometer's
 * Caffeine binder {@code cache.gets} tagged {@code cache=accel.row} and {@code result=hit} / {@code miss},
 * and the gauge {@value #BYTES}, of one store (tag {@code store}, the store's directory). Stores of an
 * engine build without the row cache have none of them.
 *
 * <p>Micrometer keeps a meter once registered: a store closed and opened again in the same JVM finds its
 * old meters, bound to the closed store's cache, and its own registrations are ignored. So the row cache
 * reads true only in a JVM whose first opening of the store is the one measured.
 */
final class RowCacheMeters {
  static final String GETS = "cache.gets";
  static final String CACHE_TAG = "accel.row";
  static final String BYTES = "accel.row.cache.bytes";

  /** Running totals of hits and misses and the bytes held now; {@code present} false without the meters. */
  record Snapshot(boolean present, double hits, double misses, double bytes) {
    static final Snapshot ABSENT = new Snapshot(false, Double.NaN, Double.NaN, Double.NaN);

    /** The hits and misses since {@code start}, with the bytes held now. */
    Snapshot since(Snapshot start) {
      if (!present || !start.present) {
        return present ? this : ABSENT;
      }
      return new Snapshot(true, hits - start.hits, misses - start.misses, bytes);
    }

    double hitRatio() {
      return hits / (hits + misses);
    }

    /** {@code row cache: hits H, misses M (ratio x), bytes B}, or that the meters are missing. */
    @Override
    public String toString() {
      if (!present) {
        return "row cache meters not present";
      }
      return String.format(Locale.ROOT, "row cache: hits %,.0f, misses %,.0f (ratio %.4f), bytes %,.0f",
          hits, misses, hitRatio(), bytes);
    }
  }

  private final MeterRegistry registry;
  private final String store;

  private RowCacheMeters(MeterRegistry registry, String store) {
    this.registry = registry;
    this.store = store;
  }

  /** Installs the recording registry (once per JVM) and reads the meters of {@code store} from it. */
  static RowCacheMeters install(String store) {
    return new RowCacheMeters(EngineCounters.installRegistry(), store);
  }

  Snapshot read() {
    Collection<Meter> hits = registry.find(GETS).tag("cache", CACHE_TAG).tag("result", "hit").tag("store", store).meters();
    Collection<Meter> misses = registry.find(GETS).tag("cache", CACHE_TAG).tag("result", "miss").tag("store", store).meters();
    if (hits.isEmpty() && misses.isEmpty()) {
      return Snapshot.ABSENT;
    }
    double bytes = 0;
    Collection<Gauge> gauges = registry.find(BYTES).tag("store", store).gauges();
    if (gauges.isEmpty()) {
      bytes = Double.NaN;
    }
    for (Gauge g : gauges) {
      bytes += g.value();
    }
    return new Snapshot(true, count(hits), count(misses), bytes);
  }

  private static double count(Collection<Meter> meters) {
    double sum = 0;
    for (Meter m : meters) {
      for (var measurement : m.measure()) {
        if (measurement.getStatistic() == Statistic.COUNT) {
          sum += measurement.getValue();
        }
      }
    }
    return sum;
  }
}
