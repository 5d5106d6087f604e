package io.accel.plan;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.accel.sql.LiteralNormalizer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * A session's plan cache: Calcite's prepared signatures (parsed, validated, optimised, compiled) keyed by
 * SQL text and maxRowCount, so a statement run again skips all of that. Literals are normalised to
 * parameters first ({@link LiteralNormalizer}): {@code WHERE id = 7} and {@code WHERE id = 8} share the plan
 * of {@code WHERE id = ?}, and each execution gets a copy of the signature that has no parameters and binds
 * the literal values itself (through the signature's internal parameters, which the execution puts into
 * the query's DataContext under the names generated code reads parameters by). The shared plan is used only
 * when every literal converts to the type the planner inferred for its parameter without changing value
 * ({@link LiteralBinding}) and none is a value its column's statistics list as far more or less common than
 * the average one the shared plan was costed for ({@link StatementPlanner.PlanFacts#skewedBy}); otherwise, or
 * when the normalised text does not prepare, the exact text is planned (and cached). The cache is emptied whenever the plan version changes; a plan whose execution
 * failed is dropped ({@link #forget}).
 */
public final class PlanCache {
  /** {@code normalized}: the text has literals replaced by parameters that each execution binds. */
  private record PlanKey(String sql, long maxRowCount, boolean normalized) {
  }

  /** A cached plan; a null signature records that the normalised text does not prepare. */
  private record CachedPlan(CalcitePrepare.CalciteSignature<Object> signature, StatementPlanner.PlanFacts facts) {
    CachedPlan(StatementPlanner.Planned planned) {
      this(planned.signature(), planned.facts());
    }
  }

  private static final CachedPlan NOT_NORMALIZABLE = new CachedPlan(null, null);

  /** A plan to run, and the cache entry to drop if running it fails (null: not cached). */
  public record Plan(CalcitePrepare.CalciteSignature<Object> signature, StatementPlanner.PlanFacts facts, Object key) {
    /** The text the plan is cached under (the normalised text when literals share it); null when not cached. */
    public String cachedText() {
      return key instanceof PlanKey k ? k.sql() : null;
    }
  }

  private final StatementPlanner planner;
  private final LongSupplier planVersion;
  /** Null when the size is 0. */
  private final Cache<PlanKey, CachedPlan> plans;
  private long plansAtVersion = Long.MIN_VALUE;
  private final Counter hits;
  private final Counter misses;
  private final Counter fallbacks;
  private final Counter direct;
  private final CacheSizes sizes;

  /**
   * @param size the most plans kept (0: none, every statement is planned afresh)
   * @param planVersion changes whenever a plan made before may no longer be valid or good
   * @param meters where the counters go ({@code accel.plan.cache.hits}, {@code .misses}, {@code .fallbacks},
   *     and the gauge {@code accel.plan.cache.size}), with {@code tags}
   */
  public PlanCache(StatementPlanner planner, int size, LongSupplier planVersion, MeterRegistry meters,
      Iterable<Tag> tags) {
    if (size < 0) {
      throw new IllegalArgumentException("planCacheSize must not be negative: " + size);
    }
    this.planner = planner;
    this.planVersion = planVersion;
    // evictions run on the calling thread: the bound holds as soon as a statement returns
    this.plans = size == 0 ? null : Caffeine.newBuilder().maximumSize(size).executor(Runnable::run).build();
    this.hits = Counter.builder("accel.plan.cache.hits").tags(tags)
        .description("statements that reused a cached plan").register(meters);
    this.misses = Counter.builder("accel.plan.cache.misses").tags(tags)
        .description("statements that were parsed, validated, optimised and compiled").register(meters);
    this.fallbacks = Counter.builder("accel.plan.cache.fallbacks").tags(tags)
        .description("statements whose literals could not share the normalised plan, or whose literal is a common"
            + " value of its column (its own plan); planned by exact text")
        .register(meters);
    this.direct = Counter.builder("accel.plan.direct").tags(tags)
        .description("statements planned directly (one table, simple conditions), without Calcite's pipeline")
        .register(meters);
    this.sizes = plans == null ? null : CacheSizes.register(meters, Tags.of(tags), plans);
  }

  /** The plan of {@code sql}: from the cache, or planned now (and cached). */
  public Plan plan(String sql, long maxRowCount) {
    if (plans == null) {
      misses.increment();
      StatementPlanner.Planned planned = prepare(sql, maxRowCount);
      return new Plan(planned.signature(), planned.facts(), null);
    }
    synchronized (plans) {
      long version = planVersion.getAsLong();
      if (version != plansAtVersion) {
        plans.invalidateAll();
        plansAtVersion = version;
      }
    }
    boolean[] planned = {false};
    Optional<LiteralNormalizer.Normalized> normalized = LiteralNormalizer.normalize(sql);
    if (normalized.isPresent() && normalized.get().hasLiterals()) {
      LiteralNormalizer.Normalized n = normalized.get();
      PlanKey key = new PlanKey(n.sql(), maxRowCount, true);
      CachedPlan cached = plans.get(key, k -> {
        planned[0] = true;
        try {
          return new CachedPlan(prepare(n.sql(), maxRowCount));
        } catch (StatementPlanner.PlanningCancelled e) {
          throw e;
        } catch (RuntimeException | AssertionError | LinkageError | StackOverflowError e) {
          // Calcite cannot infer a parameter's type (? = ?), a planner rule trips over a parameter, or the
          // statement fails anyway: the exact text decides
          return NOT_NORMALIZABLE;
        }
      });
      if (cached.signature() != null) {
        Optional<List<Object>> values = LiteralBinding.bind(cached.signature().parameters, n.literals());
        // a literal whose share of its column is far from the average one's gets the exact text's own plan
        if (values.isPresent() && !cached.facts().skewedBy(values.get())) {
          (planned[0] ? misses : hits).increment();
          return new Plan(bound(cached.signature(), values.get(), sql), cached.facts(), key);
        }
      }
      fallbacks.increment();
    }
    PlanKey key = new PlanKey(sql, maxRowCount, false);
    CachedPlan cached = plans.get(key, k -> {
      planned[0] = true;
      return new CachedPlan(prepare(sql, maxRowCount));
    });
    (planned[0] ? misses : hits).increment();
    return new Plan(cached.signature(), cached.facts(), key);
  }

  private StatementPlanner.Planned prepare(String sql, long maxRowCount) {
    StatementPlanner.Planned planned = planner.prepare(sql, maxRowCount);
    if (planned.direct() != null) {
      direct.increment();
    }
    return planned;
  }

  /**
   * A copy of a normalised plan's signature for one execution: no parameters, and the literal values as
   * internal parameters named {@code ?0}, {@code ?1}, ..., where the generated code reads its parameters.
   */
  private static CalcitePrepare.CalciteSignature<Object> bound(CalcitePrepare.CalciteSignature<Object> plan,
      List<Object> values, String sql) {
    Map<String, Object> internal = new LinkedHashMap<>(plan.internalParameters);
    for (int i = 0; i < values.size(); i++) {
      internal.put("?" + i, values.get(i));
    }
    return new CalcitePrepare.CalciteSignature<>(sql, List.of(), internal, plan.rowType, plan.columns,
        plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, plan::enumerable, plan.statementType);
  }

  /** Counts a hit for a statement whose plan the session reused without asking the cache. */
  public void countReuse() {
    hits.increment();
  }

  /** Drops a plan whose execution failed (a failing constant such as 1/0 may be folded into its code). */
  public void forget(Plan plan) {
    if (plans != null && plan.key() instanceof PlanKey key) {
      plans.invalidate(key);
    }
  }

  /** Empties the cache and stops counting it in {@code accel.plan.cache.size}. */
  public void close() {
    if (sizes != null) {
      sizes.remove(plans);
      plans.invalidateAll();
    }
  }

  /**
   * The gauge {@code accel.plan.cache.size}: the plans cached by all open sessions of one store (one
   * registry and set of tags). Registered when the first session opens, removed with the last.
   */
  private static final class CacheSizes {
    private static final Map<List<Object>, CacheSizes> ALL = new HashMap<>();

    private final List<Object> id;
    private final MeterRegistry registry;
    private final Set<Cache<?, ?>> caches = ConcurrentHashMap.newKeySet();
    private Gauge gauge;

    private CacheSizes(List<Object> id, MeterRegistry registry) {
      this.id = id;
      this.registry = registry;
    }

    static CacheSizes register(MeterRegistry registry, Tags tags, Cache<?, ?> cache) {
      synchronized (ALL) {
        List<Object> id = List.of(registry, tags);
        CacheSizes sizes = ALL.computeIfAbsent(id, k -> new CacheSizes(k, registry));
        if (sizes.gauge == null) {
          sizes.gauge = Gauge.builder("accel.plan.cache.size", sizes, CacheSizes::size).tags(tags)
              .description("plans cached by the open connections").strongReference(true).register(registry);
        }
        sizes.caches.add(cache);
        return sizes;
      }
    }

    private double size() {
      long n = 0;
      for (Cache<?, ?> c : caches) {
        n += c.estimatedSize();
      }
      return n;
    }

    void remove(Cache<?, ?> cache) {
      synchronized (ALL) {
        caches.remove(cache);
        if (caches.isEmpty()) {
          ALL.remove(id);
          if (gauge != null) {
            registry.remove(gauge);
            gauge = null;
          }
        }
      }
    }
  }
}
