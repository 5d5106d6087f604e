package io.accel.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ColumnFamilyHandle;

/**
 * Query results kept exact by invalidation, as Readyset's caches are kept by dataflow: a {@link Definition} (made by
 * {@code CREATE CACHE}, or by {@code autoCache} on a query's second execution) names a normalised query, and each
 * execution of it with other parameter values has its own {@link Entry}: the rows, and what producing them read.
 *
 * <p>A deep entry records its {@link ReadSet} (the keys it fetched and the ranges it scanned); a committed write
 * invalidates exactly the entries whose read set holds a key it wrote. An entry that read more than
 * {@link ReadSet#MAX_TRACKED} keys and ranges, and any entry when the writing transaction wrote too many keys to list,
 * is invalidated at table level. Shallow entries (what cannot be tracked: system relations, now()) live for a TTL.
 *
 * <p>Exactness: a commit registers its writes and drops the entries they touch before RocksDB commits, so no reader
 * that starts after the commit can be handed an older result; an entry being filled is inserted only if no commit
 * that touches its read set is under way or committed after the snapshot it read.
 */
public final class ResultCache {
  /** DEEP: invalidated by the writes it read; SHALLOW: refreshed after its TTL. */
  public enum Mode { DEEP, SHALLOW }

  /** How one entry is invalidated. */
  public enum Invalidation { KEY, TABLE, TTL }

  /** A cached query: every execution of its shape is answered from an entry per parameter values. */
  public static final class Definition {
    private final String id;
    private final String name;
    private final String query;
    private final String shape;
    private final Mode mode;
    private final Duration ttl;
    private final boolean persistent;
    private final boolean upstream;
    private final AtomicLong hits = new AtomicLong();

    Definition(String name, String query, String shape, Mode mode, Duration ttl, boolean persistent,
        boolean upstream) {
      this.id = queryId(shape);
      this.name = name == null ? id : name;
      this.query = query;
      this.shape = shape;
      this.mode = mode;
      this.ttl = ttl;
      this.persistent = persistent;
      this.upstream = upstream;
    }

    /** A shallow cache of results only a fronted upstream can produce (the frontend fills it with theirs). */
    public boolean upstream() {
      return upstream;
    }

    public String id() {
      return id;
    }

    public String name() {
      return name;
    }

    public String query() {
      return query;
    }

    public String shape() {
      return shape;
    }

    public Mode mode() {
      return mode;
    }

    /** A shallow cache's time to live (null for a deep one). */
    public Duration ttl() {
      return ttl;
    }

    /** Made by CREATE CACHE (kept in a file store), not by autoCache. */
    public boolean persistent() {
      return persistent;
    }

    public long hits() {
      return hits.get();
    }
  }

  /** One execution's identity: the definition, the statement as written, its parameter values, the time zone. */
  public record Key(String definition, String sql, List<Object> values, String zone) {
    public Key {
      values = comparable(values);
    }

    /** Values as keys compare: byte[] by content, numbers regardless of scale, NULL as a marker (List.copyOf refuses null). */
    private static List<Object> comparable(List<Object> values) {
      Object[] out = new Object[values.size()];
      for (int i = 0; i < out.length; i++) {
        Object v = values.get(i);
        out[i] = v == null ? NULL : v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b)
            : v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() + "::numeric" : v;
      }
      return List.of(out);
    }

    private static final Object NULL = new Object() {
      @Override
      public String toString() {
        return "NULL";
      }
    };
  }

  /** A cached result: its rows, as the query returned them, and how it is invalidated. */
  public static final class Entry {
    private final List<Object> rows;
    private final long bytes;
    private final ReadSet.Frozen reads;
    private final Set<Long> tables;
    private final Invalidation invalidation;
    private final long catalogVersion;
    private final long expiresAtNanos;
    private final long readFromNanos;

    private Entry(List<Object> rows, long bytes, ReadSet.Frozen reads, Set<Long> tables, Invalidation invalidation,
        long catalogVersion, long expiresAtNanos, long readFromNanos) {
      this.rows = rows;
      this.bytes = bytes;
      this.reads = reads;
      this.tables = tables;
      this.invalidation = invalidation;
      this.catalogVersion = catalogVersion;
      this.expiresAtNanos = expiresAtNanos;
      this.readFromNanos = readFromNanos;
    }

    public List<Object> rows() {
      return rows;
    }

    /** When ({@link System#nanoTime}) the execution that produced it began: it holds what was committed before. */
    public long readFromNanos() {
      return readFromNanos;
    }
  }

  /** A commit's writes: per family the keys (null when too many to list: table level), and the tables. */
  public static final class Writes {
    private final Set<Long> tables;
    private final Map<ColumnFamilyHandle, List<byte[]>> keys;
    private long sequence;

    public Writes(Set<Long> tables, Map<ColumnFamilyHandle, List<byte[]>> keys) {
      this.tables = tables;
      this.keys = keys;
    }

    /** Whether these writes can change a result that read {@code e}'s reads. */
    boolean touch(Entry e) {
      if (e.invalidation == Invalidation.TTL) {
        return false;
      }
      boolean sharesTable = false;
      for (long t : tables) {
        if (e.tables.contains(t)) {
          sharesTable = true;
          break;
        }
      }
      if (!sharesTable) {
        return false;
      }
      if (keys == null || e.reads == null) {
        return true;
      }
      for (Map.Entry<ColumnFamilyHandle, List<byte[]>> w : keys.entrySet()) {
        if (e.reads.families().containsKey(w.getKey())) {
          for (byte[] key : w.getValue()) {
            if (e.reads.touches(w.getKey(), key)) {
              return true;
            }
          }
        }
      }
      return false;
    }
  }

  /** An entry as the invalidation index holds it. */
  private record Indexed(Key key, Entry entry) {
  }

  /** A shallow cache's time to live when CREATE SHALLOW CACHE names none. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);
  /** How many committed write sets are kept for entries being filled; a fill older than them is not inserted. */
  private static final int RECENT_COMMITS = 4096;
  /** A result with more rows is not cached (it is returned as usual); nor one above a quarter of the bound. */
  public static final int MAX_ROWS = 100_000;
  private static final String META_PREFIX = "resultcache/";
  /** The persisted mode of a shallow cache of upstream results. */
  private static final String UPSTREAM = "UPSTREAM";
  /** The catalog version upstream results are kept under: the mirror's catalog does not describe them. */
  public static final long UPSTREAM_VERSION = Long.MIN_VALUE;

  private final boolean autoCache;
  private final long maxBytes;
  private final Cache<Key, Entry> entries;
  private final Map<String, Definition> byShape = new ConcurrentHashMap<>();
  private final Map<String, Definition> byName = new ConcurrentHashMap<>();
  /** How many definitions keep upstream results. */
  private final java.util.concurrent.atomic.AtomicInteger upstreamDefinitions =
      new java.util.concurrent.atomic.AtomicInteger();
  /** Executions seen per shape, for autoCache (bounded). */
  private final Cache<String, AtomicLong> seen = Caffeine.newBuilder().maximumSize(10_000).build();
  private final Persistence persistence;

  // the invalidation index and the commit log, under this object's monitor
  /** Per family, the deep entries by what they read: a written key finds the entries it touches without a scan. */
  private final Map<ColumnFamilyHandle, FamilyIndex> byFamily = new IdentityHashMap<>();
  /** Per table, the entries that read it (coarse writes) and the table-level entries among them. */
  private final Map<Long, Set<Indexed>> byTable = new HashMap<>();
  private final Map<Long, Set<Indexed>> tableLevel = new HashMap<>();
  private final Set<Writes> pending = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  private final ArrayDeque<Writes> recent = new ArrayDeque<>();
  /** Fills reading a snapshot older than this cannot be checked against the commits since (trimmed). */
  private long horizon;

  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong keyInvalidations = new AtomicLong();
  private final AtomicLong tableInvalidations = new AtomicLong();
  private final AtomicLong rejectedFills = new AtomicLong();
  private final List<Meter> meters = new ArrayList<>();
  private MeterRegistry registry;

  /** Where CREATE CACHE definitions survive a restart (a file store's meta family); null keeps them in memory. */
  public interface Persistence {
    void save(String key, byte[] value);

    void delete(String key);

    Map<String, byte[]> load(String prefix);
  }

  public ResultCache(long maxBytes, boolean autoCache, Persistence persistence) {
    this.autoCache = autoCache;
    this.maxBytes = maxBytes;
    this.persistence = persistence;
    this.entries = Caffeine.newBuilder().maximumWeight(maxBytes)
        .weigher((Key k, Entry e) -> (int) Math.min(Integer.MAX_VALUE, e.bytes))
        .executor(Runnable::run).recordStats().build();
    if (persistence != null) {
      for (byte[] value : persistence.load(META_PREFIX).values()) {
        String[] parts = new String(value, StandardCharsets.UTF_8).split("\t", 4);
        boolean upstream = parts[0].equals(UPSTREAM);
        Mode mode = upstream ? Mode.SHALLOW : Mode.valueOf(parts[0]);
        Duration ttl = parts[1].isEmpty() ? null : Duration.ofMillis(Long.parseLong(parts[1]));
        String name = parts[2];
        String query = parts[3];
        register(new Definition(name, query, shapeOf(query), mode, ttl, true, upstream));
      }
    }
  }

  public boolean autoCache() {
    return autoCache;
  }

  /** Whether writers must list the keys they write: some query is cached or may become cached. */
  public boolean tracking() {
    return autoCache || !byName.isEmpty();
  }

  // --- definitions

  /** The definition that caches statements of this shape, or null. */
  public Definition definition(String shape) {
    return byShape.get(shape);
  }

  public Collection<Definition> definitions() {
    return List.copyOf(byName.values());
  }

  /**
   * Defines a cache; {@code persistent} ones (CREATE CACHE) are saved. A second definition of the same query or
   * name fails (42710), as Readyset's does.
   */
  public Definition define(String name, String query, String shape, Mode mode, Duration ttl,
      boolean persistent) {
    return define(name, query, shape, mode, ttl, persistent, false);
  }

  /**
   * As {@link #define(String, String, String, Mode, Duration, boolean)}; {@code upstream}: a shallow cache of upstream
   * results ({@link Definition#upstream}).
   */
  public synchronized Definition define(String name, String query, String shape, Mode mode, Duration ttl,
      boolean persistent, boolean upstream) {
    if (upstream && mode != Mode.SHALLOW) {
      throw new IllegalArgumentException("an upstream result cache is shallow");
    }
    Definition d = new Definition(name, query, shape, mode, ttl, persistent, upstream);
    Definition same = byShape.get(shape);
    if (same != null) {
      if (!persistent) {
        return same; // autoCache raced with another definition of it
      }
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.DUPLICATE_OBJECT,
          "the query is already cached as \"" + same.name() + "\"");
    }
    if (byName.containsKey(d.name())) {
      throw new io.accel.sql.AccelException(io.accel.sql.SqlState.DUPLICATE_OBJECT,
          "cache \"" + d.name() + "\" already exists");
    }
    register(d);
    if (persistent && persistence != null) {
      persistence.save(META_PREFIX + d.name(), ((upstream ? UPSTREAM : mode.name()) + "\t"
          + (ttl == null ? "" : ttl.toMillis()) + "\t" + d.name() + "\t" + query).getBytes(StandardCharsets.UTF_8));
    }
    return d;
  }

  private void register(Definition d) {
    byShape.put(d.shape(), d);
    byName.put(d.name(), d);
    if (d.upstream()) {
      upstreamDefinitions.incrementAndGet();
    }
  }

  /** Whether some definition keeps upstream results (a fronting frontend then passes parameter values to look up). */
  public boolean keepsUpstreamResults() {
    return upstreamDefinitions.get() > 0;
  }

  /** Drops a cache by name or query id; false when there is none. */
  public synchronized boolean drop(String nameOrId) {
    Definition d = byName.get(nameOrId);
    if (d == null) {
      d = byName.values().stream().filter(x -> x.id().equals(nameOrId)).findFirst().orElse(null);
    }
    if (d == null) {
      return false;
    }
    remove(d);
    return true;
  }

  /** Drops every cache; returns how many there were. */
  public synchronized int dropAll() {
    List<Definition> all = List.copyOf(byName.values());
    all.forEach(this::remove);
    return all.size();
  }

  private void remove(Definition d) {
    byShape.remove(d.shape());
    byName.remove(d.name());
    if (d.upstream()) {
      upstreamDefinitions.decrementAndGet();
    }
    if (d.persistent() && persistence != null) {
      persistence.delete(META_PREFIX + d.name());
    }
    for (Key k : List.copyOf(entries.asMap().keySet())) {
      if (k.definition().equals(d.id())) {
        Entry e = entries.asMap().remove(k);
        if (e != null) {
          unindex(new Indexed(k, e));
        }
      }
    }
  }

  /**
   * The queries seen lately, for CREATE CACHE FROM a query id: the first text of each plan-cache text (literals
   * normalised, so one entry per statement shape, as before), their ids computed only when such a command looks one
   * up (a query's shape costs a second lexing of its text, on every new statement).
   */
  private final Cache<String, String> known = Caffeine.newBuilder().maximumSize(10_000).executor(Runnable::run)
      .build();

  /** Notes that a query ran as {@code sql}, planned under {@code planText} (null: not cached, the text itself). */
  public void noteQuery(String planText, String sql) {
    known.asMap().putIfAbsent(planText == null ? sql : planText, sql);
  }

  /** The text of a query seen with id {@code id}, or of a cache's. */
  public java.util.Optional<String> knownQuery(String id) {
    String text = null;
    for (String sql : known.asMap().values()) {
      if (queryId(shapeOf(sql)).equals(id)) {
        text = sql;
        break;
      }
    }
    if (text == null) {
      text = byName.values().stream().filter(d -> d.id().equals(id)).map(Definition::query).findFirst().orElse(null);
    }
    return java.util.Optional.ofNullable(text);
  }

  /** With autoCache: whether this execution of {@code shape} is its second (the one that defines its cache). */
  public boolean secondExecution(String shape) {
    return autoCache && seen.get(shape, s -> new AtomicLong()).incrementAndGet() == 2;
  }

  /** How many results a definition holds, by invalidation mode. */
  public Map<Invalidation, Integer> entryModes(Definition d) {
    Map<Invalidation, Integer> modes = new java.util.EnumMap<>(Invalidation.class);
    entries.asMap().forEach((k, e) -> {
      if (k.definition().equals(d.id())) {
        modes.merge(e.invalidation, 1, Integer::sum);
      }
    });
    return modes;
  }

  // --- entries

  /** The entry of an execution, if cached and still valid under catalog version {@code catalogVersion}. */
  public Entry get(Key key, Definition d, long catalogVersion) {
    return get(key, d, catalogVersion, Long.MIN_VALUE);
  }

  private Entry get(Key key, Definition d, long catalogVersion, long notReadBeforeNanos) {
    Entry e = entries.getIfPresent(key);
    if (e != null && notReadBeforeNanos != Long.MIN_VALUE && e.readFromNanos - notReadBeforeNanos <= 0) {
      misses.incrementAndGet();
      return null; // kept, but too old for this reader: the upstream answers, and the new result replaces it
    }
    if (e != null && (e.catalogVersion != catalogVersion
        || e.expiresAtNanos != 0 && System.nanoTime() - e.expiresAtNanos > 0)) {
      if (entries.asMap().remove(key, e)) {
        synchronized (this) {
          unindex(new Indexed(key, e));
        }
      }
      e = null;
    }
    if (e == null) {
      misses.incrementAndGet();
      return null;
    }
    hits.incrementAndGet();
    d.hits.incrementAndGet();
    return e;
  }

  /**
   * The upstream result of an execution ({@link Definition#upstream}), if one is kept and its execution began after
   * {@code notReadBeforeNanos} (the connection's last write: a result read before it may not hold it;
   * {@link Long#MIN_VALUE} for none).
   */
  public Entry getUpstream(Key key, Definition d, long notReadBeforeNanos) {
    return get(key, d, UPSTREAM_VERSION, notReadBeforeNanos);
  }

  /**
   * Caches the rows of an execution that read {@code reads} (null: too many to track) of {@code tables} at snapshot
   * {@code snapshotSequence} under catalog version {@code catalogVersion}; false when a commit since the snapshot
   * (or under way) touched what it read, so the rows may already be stale.
   */
  public boolean put(Key key, Definition d, List<Object> rows, ReadSet reads, Set<Long> tables, long snapshotSequence,
      long catalogVersion) {
    long bytes = 64;
    for (Object row : rows) {
      bytes += estimate(row);
    }
    Invalidation how;
    ReadSet.Frozen frozen = null;
    long expires = 0;
    if (d.mode() == Mode.SHALLOW) {
      how = Invalidation.TTL;
      expires = System.nanoTime() + d.ttl().toNanos();
      if (expires == 0) {
        expires = 1;
      }
    } else {
      frozen = reads == null ? null : reads.freeze();
      how = frozen == null ? Invalidation.TABLE : Invalidation.KEY;
      if (frozen != null) {
        bytes += 48L * frozen.size();
      }
    }
    if (bytes > maxBytes / 4) {
      return false;
    }
    Entry e = new Entry(java.util.Collections.unmodifiableList(rows), bytes, frozen, Set.copyOf(tables), how,
        catalogVersion, expires, 0);
    synchronized (this) {
      if (!byName.containsKey(d.name())) {
        return false; // dropped meanwhile
      }
      if (how != Invalidation.TTL) {
        for (Writes w : pending) {
          if (w.touch(e)) {
            rejectedFills.incrementAndGet();
            return false;
          }
        }
        if (snapshotSequence < horizon) {
          rejectedFills.incrementAndGet();
          return false;
        }
        for (java.util.Iterator<Writes> it = recent.descendingIterator(); it.hasNext(); ) {
          Writes w = it.next();
          if (w.sequence <= snapshotSequence) {
            break;
          }
          if (w.touch(e)) {
            rejectedFills.incrementAndGet();
            return false;
          }
        }
      }
      Entry old = entries.asMap().put(key, e);
      if (old != null) {
        unindex(new Indexed(key, old));
      }
      index(new Indexed(key, e));
    }
    return true;
  }

  /**
   * Keeps a result an upstream returned for a definition of {@link Definition#upstream} for its TTL: {@code result} is
   * the frontend's own form of it, {@code bytes} its estimated size, {@code readFromNanos} when its execution began.
   * False when it is too large or the definition was dropped.
   */
  public boolean putUpstream(Key key, Definition d, Object result, long bytes, long readFromNanos) {
    if (!d.upstream() || bytes > maxBytes / 4) {
      return false;
    }
    long expires = System.nanoTime() + d.ttl().toNanos();
    Entry e = new Entry(List.of(result), 64 + bytes, null, Set.of(), Invalidation.TTL, UPSTREAM_VERSION,
        expires == 0 ? 1 : expires, readFromNanos);
    synchronized (this) {
      if (byName.get(d.name()) != d) {
        return false; // dropped meanwhile
      }
      Entry old = entries.asMap().put(key, e);
      if (old != null) {
        unindex(new Indexed(key, old));
      }
    }
    return true;
  }

  private static long estimate(Object value) {
    if (value instanceof Object[] row) {
      long n = 24 + 8L * row.length;
      for (Object v : row) {
        n += estimate(v);
      }
      return n;
    }
    if (value instanceof String s) {
      return 48 + 2L * s.length();
    }
    if (value instanceof byte[] b) {
      return 24 + b.length;
    }
    return value == null ? 0 : 24;
  }

  private void index(Indexed i) {
    Entry e = i.entry();
    if (e.invalidation == Invalidation.TTL) {
      return;
    }
    for (long t : e.tables) {
      byTable.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(i);
      if (e.reads == null) {
        tableLevel.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(i);
      }
    }
    if (e.reads != null) {
      e.reads.families().forEach((f, reads) -> byFamily.computeIfAbsent(f, k -> new FamilyIndex()).add(i, reads));
    }
  }

  private void unindex(Indexed i) {
    Entry e = i.entry();
    for (long t : e.tables) {
      remove(byTable, t, i);
      remove(tableLevel, t, i);
    }
    if (e.reads != null) {
      e.reads.families().forEach((f, reads) -> {
        FamilyIndex fi = byFamily.get(f);
        if (fi != null && fi.remove(i, reads)) {
          byFamily.remove(f);
        }
      });
    }
  }

  private static <K> void remove(Map<K, Set<Indexed>> map, K key, Indexed i) {
    Set<Indexed> s = map.get(key);
    if (s != null && s.remove(i) && s.isEmpty()) {
      map.remove(key);
    }
  }

  /**
   * The entries that read one family, by what they read: exact keys, prefix ranges ({@code [p, successor(p))}, what
   * index lookups and lookup joins scan) by their prefix, and other ranges in a list checked one by one.
   */
  private static final class FamilyIndex {
    final Map<java.nio.ByteBuffer, Set<Indexed>> points = new HashMap<>();
    final Map<java.nio.ByteBuffer, Set<Indexed>> prefixes = new HashMap<>();
    /** How many indexed prefixes have each length: a written key is looked up at these lengths only. */
    final java.util.TreeMap<Integer, Integer> prefixLengths = new java.util.TreeMap<>();
    final Map<Indexed, ReadSet.Family> others = new HashMap<>();
    int size;

    void add(Indexed i, ReadSet.Family reads) {
      size++;
      for (byte[] p : reads.points()) {
        points.computeIfAbsent(java.nio.ByteBuffer.wrap(p), k -> new HashSet<>()).add(i);
      }
      boolean other = false;
      for (int r = 0; r < reads.lows().length; r++) {
        byte[] low = reads.lows()[r];
        byte[] high = reads.highs()[r];
        if (high != null && low.length > 0 && java.util.Arrays.equals(high, io.accel.storage.KeyCodec.prefixSuccessor(low))) {
          if (prefixes.computeIfAbsent(java.nio.ByteBuffer.wrap(low), k -> new HashSet<>()).add(i)) {
            prefixLengths.merge(low.length, 1, Integer::sum);
          }
        } else {
          other = true;
        }
      }
      if (other) {
        others.put(i, reads);
      }
    }

    /** Removes an entry; true when the family has none left. */
    boolean remove(Indexed i, ReadSet.Family reads) {
      for (byte[] p : reads.points()) {
        removeFrom(points, java.nio.ByteBuffer.wrap(p), i);
      }
      for (int r = 0; r < reads.lows().length; r++) {
        byte[] low = reads.lows()[r];
        java.nio.ByteBuffer k = java.nio.ByteBuffer.wrap(low);
        Set<Indexed> s = prefixes.get(k);
        if (s != null && s.remove(i)) {
          if (s.isEmpty()) {
            prefixes.remove(k);
          }
          prefixLengths.compute(low.length, (len, n) -> n == 1 ? null : n - 1);
        }
      }
      others.remove(i);
      return --size == 0;
    }

    private static void removeFrom(Map<java.nio.ByteBuffer, Set<Indexed>> map, java.nio.ByteBuffer k, Indexed i) {
      Set<Indexed> s = map.get(k);
      if (s != null && s.remove(i) && s.isEmpty()) {
        map.remove(k);
      }
    }

    /** Adds to {@code out} every entry whose reads hold {@code key}. */
    void touching(byte[] key, Set<Indexed> out) {
      Set<Indexed> exact = points.get(java.nio.ByteBuffer.wrap(key));
      if (exact != null) {
        out.addAll(exact);
      }
      for (int len : prefixLengths.keySet()) {
        if (len > key.length) {
          break;
        }
        Set<Indexed> s = prefixes.get(java.nio.ByteBuffer.wrap(key, 0, len));
        if (s != null) {
          out.addAll(s);
        }
      }
      others.forEach((i, reads) -> {
        if (reads.contains(key)) {
          out.add(i);
        }
      });
    }
  }

  // --- commits

  /**
   * Before a commit of {@code writes}: the entries they touch are dropped and the writes stay registered until
   * {@link #committed}, so no fill that read before them is inserted meanwhile.
   */
  public synchronized void committing(Writes writes) {
    pending.add(writes);
    Set<Indexed> touched = new HashSet<>();
    for (long t : writes.tables) {
      Set<Indexed> s = writes.keys == null ? byTable.get(t) : tableLevel.get(t);
      if (s != null) {
        touched.addAll(s);
      }
    }
    if (writes.keys != null) {
      writes.keys.forEach((family, keys) -> {
        FamilyIndex fi = byFamily.get(family);
        if (fi != null) {
          for (byte[] key : keys) {
            fi.touching(key, touched);
          }
        }
      });
    }
    for (Indexed i : touched) {
      boolean precise = writes.keys != null && i.entry().reads != null;
      if (entries.asMap().remove(i.key(), i.entry())) {
        (precise ? keyInvalidations : tableInvalidations).incrementAndGet();
      }
      unindex(i);
    }
  }

  /** After the commit of {@code writes} ended; {@code sequence} is at least its RocksDB sequence number. */
  public synchronized void committed(Writes writes, boolean succeeded, long sequence) {
    pending.remove(writes);
    if (succeeded) {
      writes.sequence = sequence;
      // kept in sequence order, which a fill's check relies on to stop at the first commit its snapshot saw: a
      // committer that read its sequence before another's commit can arrive here after that other one
      ArrayDeque<Writes> later = null;
      while (!recent.isEmpty() && recent.peekLast().sequence > sequence) {
        if (later == null) {
          later = new ArrayDeque<>();
        }
        later.push(recent.removeLast());
      }
      recent.addLast(writes);
      while (later != null && !later.isEmpty()) {
        recent.addLast(later.pop());
      }
      while (recent.size() > RECENT_COMMITS) {
        horizon = Math.max(horizon, recent.removeFirst().sequence);
      }
    }
  }

  /** Drops every entry (DDL that the catalog version does not show, tests). */
  public synchronized void clear() {
    entries.invalidateAll();
    byFamily.clear();
    byTable.clear();
    tableLevel.clear();
  }

  // --- observation

  public long hitCount() {
    return hits.get();
  }

  public long missCount() {
    return misses.get();
  }

  public long keyInvalidations() {
    return keyInvalidations.get();
  }

  public long tableInvalidations() {
    return tableInvalidations.get();
  }

  public long entryCount() {
    return entries.estimatedSize();
  }

  public long weightedBytes() {
    return entries.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  /** Registers the {@code accel.result.cache.*} meters. */
  public synchronized void bindTo(MeterRegistry registry, Tags tags) {
    this.registry = registry;
    meters.add(FunctionCounter.builder("accel.result.cache.hits", hits, AtomicLong::get).tags(tags)
        .description("executions answered from a cached result").register(registry));
    meters.add(FunctionCounter.builder("accel.result.cache.misses", misses, AtomicLong::get).tags(tags)
        .description("executions of a cached query that found no valid result").register(registry));
    meters.add(FunctionCounter.builder("accel.result.cache.invalidations", keyInvalidations, AtomicLong::get)
        .tags(tags.and("kind", "key")).description("results dropped because a commit wrote a key they read")
        .register(registry));
    meters.add(FunctionCounter.builder("accel.result.cache.invalidations", tableInvalidations, AtomicLong::get)
        .tags(tags.and("kind", "table")).description("results dropped because a commit wrote a table they read")
        .register(registry));
    meters.add(FunctionCounter.builder("accel.result.cache.evictions", entries, c -> c.stats().evictionCount())
        .tags(tags).description("results evicted to stay within the cache's bound").register(registry));
    meters.add(FunctionCounter.builder("accel.result.cache.rejected.fills", rejectedFills, AtomicLong::get)
        .tags(tags).description("results not cached because a concurrent commit touched what they read")
        .register(registry));
    meters.add(Gauge.builder("accel.result.cache.bytes", this, ResultCache::weightedBytes).tags(tags)
        .baseUnit("bytes").description("estimated heap bytes of the cached results").register(registry));
    meters.add(Gauge.builder("accel.result.cache.entries", this, ResultCache::entryCount).tags(tags)
        .description("cached results").register(registry));
    meters.add(Gauge.builder("accel.result.cache.hit.ratio", this, c -> {
      long h = c.hits.get();
      long m = c.misses.get();
      return h + m == 0 ? 0 : (double) h / (h + m);
    }).tags(tags).description("share of cached-query executions answered from the cache").register(registry));
  }

  /** Removes the meters {@link #bindTo} registered (the store is closing). */
  public synchronized void unbind() {
    if (registry != null) {
      meters.forEach(registry::remove);
      meters.clear();
    }
  }

  // --- shapes

  /**
   * The shape of a query text: literals that the plan cache turns into parameters become {@code ?}, {@code $n}
   * parameters become {@code ?}, whitespace collapses, and a trailing semicolon goes; statements differing only in
   * those share a cache.
   */
  public static String shapeOf(String sql) {
    String s = sql.strip();
    if (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    String text = io.accel.sql.LiteralNormalizer.normalize(s).map(n -> n.sql()).orElse(s);
    StringBuilder out = new StringBuilder(text.length());
    boolean space = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        out.append(c);
        if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
      }
      if (Character.isWhitespace(c)) {
        space = true;
        continue;
      }
      if (space && out.length() > 0) {
        out.append(' ');
      }
      space = false;
      if (c == '$' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1))) {
        out.append('?');
        while (i + 1 < text.length() && Character.isDigit(text.charAt(i + 1))) {
          i++;
        }
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  /** Readyset's form of a query id: {@code q_} and a hash of the shape. */
  public static String queryId(String shape) {
    long h = 1125899906842597L;
    for (int i = 0; i < shape.length(); i++) {
      h = 31 * h + shape.charAt(i);
    }
    String hex = Long.toHexString(h);
    return "q_" + "0".repeat(16 - hex.length()) + hex;
  }
}
