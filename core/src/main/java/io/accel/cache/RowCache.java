package io.accel.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The MVCC row cache (Rockset's RowStoreCache): (table, primary key) → row versions, above RocksDB's
 * block cache, so a fetch by primary key that hits costs a hash lookup instead of a RocksDB get (a binary
 * search of index blocks, a block cache lookup, a copy through JNI).
 *
 * <p>A version holds the row's stored encoding (one byte array), not decoded values: a decoded row is a
 * dozen objects scattered over the heap, three times the bytes, each a cache miss on a hit and a copy for
 * the garbage collector while it is young; the reader decodes only the columns it needs.
 *
 * <h2>Versions</h2>
 * An entry holds the current version of a row, valid for every snapshot from the sequence number it was
 * read at ({@code from}), and superseded versions valid for snapshots {@code from <= S < to}. A reader at
 * snapshot S uses a version only if it is valid at S; otherwise it reads RocksDB at S and offers what it
 * read with {@link #install}.
 *
 * <h2>Writes</h2>
 * A commit that writes rows brackets the RocksDB commit with {@link #beginCommit} and
 * {@link Commit#end}: before the commit each written key gets a pending write mark (in a small map that
 * eviction never touches) and its current version is superseded at {@code L + 1}, where L is the latest
 * sequence number before the commit, so a lower bound of the commit's own sequence number (the version
 * is then claimed valid only for snapshots that certainly precede the write; snapshots between L and the
 * commit miss, which is safe). After the commit the mark records an upper bound U of the commit's sequence
 * number. An install is refused while a key has a pending write, and from a snapshot older than the
 * latest U of the key, because the row it read may already be superseded.
 *
 * <h2>Freeing</h2>
 * Open snapshots are registered ({@link #register}) before RocksDB takes them. A write mark and the
 * versions superseded by that write are kept while a registered snapshot older than its U is open, then
 * freed: retired keys queue up and are swept whenever a commit ends or a snapshot closes.
 *
 * <h2>Bounds</h2>
 * One Caffeine cache per store, shared by all its tables, bounded by an estimate of the bytes the entries
 * hold on the heap (keys, row encodings, versions, Caffeine's node), evicting by Caffeine's W-TinyLFU
 * policy, and expiring entries {@link #EXPIRE_AFTER_WRITE} after they were installed or last changed. Statistics (hits and misses as
 * seen by MVCC readers, installs as puts, evictions) go to Micrometer through its Caffeine binder.
 */
public final class RowCache {
  /** Entries are dropped this long after they were installed or last changed (and read again if needed). */
  public static final Duration EXPIRE_AFTER_WRITE = Duration.ofMinutes(30);

  private final long maxBytes;
  private final LongSupplier latestSequence;
  private final Cache<Key, Versions> cache;
  private final Map<Key, WriteMark> writes = new ConcurrentHashMap<>();
  private final ConcurrentSkipListMap<Registration, Boolean> snapshots = new ConcurrentSkipListMap<>();
  private final AtomicLong registrationIds = new AtomicLong();
  private final ConcurrentLinkedQueue<Retired> retired = new ConcurrentLinkedQueue<>();
  private final ReentrantLock sweeping = new ReentrantLock();
  private final Stats stats = new Stats();
  private final Doorkeeper doorkeeper;
  /**
   * At most this many write marks are kept; past it (a snapshot left open while many rows are written, such as
   * a JDBC statement never closed) they are replaced by one floor: no install from a snapshot older than it.
   */
  static final int MAX_WRITE_MARKS = 1 << 20;
  private final int maxWriteMarks;
  /** Installs from snapshots older than this are refused (see {@link #MAX_WRITE_MARKS}). */
  private volatile long installFloor = Long.MIN_VALUE;

  /**
   * @param maxBytes the bound on the entries' estimated heap bytes
   * @param latestSequence the store's latest sequence number (RocksDB's {@code getLatestSequenceNumber})
   */
  public RowCache(long maxBytes, LongSupplier latestSequence) {
    this(maxBytes, latestSequence, MAX_WRITE_MARKS);
  }

  RowCache(long maxBytes, LongSupplier latestSequence, int maxWriteMarks) {
    this.maxWriteMarks = maxWriteMarks;
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("row cache size must be positive: " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.latestSequence = latestSequence;
    this.doorkeeper = new Doorkeeper(maxBytes / Doorkeeper.ENTRY_BYTES);
    this.cache = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .weigher((Key k, Versions v) -> v.weight)
        // expiry after write, not after access: a read then only records itself for the size policy, where
        // expiry after access also stamps and reorders the entry on every read (about twice the cost of a hit)
        .expireAfterWrite(EXPIRE_AFTER_WRITE)
        .recordStats(() -> stats)
        // evictions run on the thread that caused them, not later on a shared pool: the bound holds more tightly
        .executor(Runnable::run)
        .build();
  }

  // --- snapshots

  /** An open snapshot's registration; closing it lets the versions only it could need go. */
  public final class Registration implements Comparable<Registration>, AutoCloseable {
    private final long sequence;
    private final long id;
    private boolean closed;

    private Registration(long sequence, long id) {
      this.sequence = sequence;
      this.id = id;
    }

    @Override
    public int compareTo(Registration o) {
      int c = Long.compare(sequence, o.sequence);
      return c != 0 ? c : Long.compare(id, o.id);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      snapshots.remove(this);
      sweep();
    }
  }

  /**
   * Registers a snapshot about to be taken: call before RocksDB takes it, close when it is released. The
   * registration holds a lower bound of the snapshot's sequence number.
   */
  public Registration register() {
    Registration r = new Registration(latestSequence.getAsLong(), registrationIds.incrementAndGet());
    snapshots.put(r, Boolean.TRUE);
    return r;
  }

  /** A lower bound of every snapshot open now or taken from now on. */
  long oldestSnapshot() {
    long latest = latestSequence.getAsLong();
    Map.Entry<Registration, Boolean> first = snapshots.firstEntry();
    return first == null ? latest : Math.min(latest, first.getKey().sequence);
  }

  // --- reads

  /**
   * The stored value (the row's encoding) under {@code key} of table {@code table} as of snapshot
   * {@code snapshot}, or null: not cached.
   */
  public byte[] get(long table, byte[] key, long snapshot) {
    Versions v = cache.asMap().get(new Key(table, key));
    byte[] row = v == null ? null : v.at(snapshot);
    if (row == null) {
      stats.misses.increment();
    } else {
      stats.hits.increment();
    }
    return row;
  }

  /**
   * Offers a row read from RocksDB at {@code snapshot} after a miss: installed (see {@link #install}) only if
   * its key missed recently before. A key's first miss only marks it in a doorkeeper bit set (TinyLFU's
   * doorkeeper), so rows read once and never again (a scan of more rows than the cache holds) cost a bit
   * instead of an install and an eviction each; a row read again installs on its second miss.
   */
  public void offer(long table, byte[] key, long snapshot, byte[] row) {
    if (doorkeeper.admit(Key.hash(table, key))) {
      install(table, key, snapshot, row);
    }
  }

  /**
   * Offers a row read from RocksDB at {@code snapshot} (a registered, open snapshot). It becomes the current
   * version unless a write to the key may have committed after the snapshot, or is about to commit; an
   * existing current version valid at the snapshot stays (the same value: nothing was written in between).
   */
  public void install(long table, byte[] key, long snapshot, byte[] row) {
    Key k = new Key(table, key);
    cache.asMap().compute(k, (kk, old) -> {
      WriteMark mark = writes.get(kk);
      if (mark != null && mark.blocks(snapshot) || snapshot < installFloor) {
        return old;
      }
      if (old != null && old.row != null) {
        if (old.from <= snapshot) {
          return old;
        }
        // nothing was written between the snapshot and now: the same row, valid from the older snapshot on
        return old.withCurrent(old.row, snapshot);
      }
      stats.installs.increment();
      return old == null ? new Versions(kk, row, snapshot, Versions.NONE) : old.withCurrent(row, snapshot);
    });
  }

  // --- writes

  /** A row key written by a transaction about to commit. */
  public static Key key(long table, byte[] rowKey) {
    return new Key(table, rowKey);
  }

  /**
   * Marks the keys a transaction wrote as pending and supersedes their cached versions; call right before
   * the RocksDB commit, then {@link Commit#end} after it (also when it failed).
   */
  public Commit beginCommit(Collection<Key> keys) {
    for (Key k : keys) {
      writes.compute(k, (kk, m) -> m == null ? new WriteMark(1, 0) : new WriteMark(m.pending + 1, m.upper));
    }
    long to = latestSequence.getAsLong() + 1;
    for (Key k : keys) {
      // compute, not computeIfPresent: Caffeine's computeIfPresent returns at once when the key is absent,
      // without waiting for a reader's install in flight (which saw no mark), whose row would then stay current
      cache.asMap().compute(k, (kk, v) -> v == null ? null : v.supersede(to));
    }
    return new Commit(keys, to);
  }

  /** A commit in progress (see {@link #beginCommit}). */
  public final class Commit {
    private final Collection<Key> keys;
    private final long to;
    private boolean ended;

    private Commit(Collection<Key> keys, long to) {
      this.keys = keys;
      this.to = to;
    }

    /** Ends the commit: {@code committed} false when RocksDB refused it (nothing was written). */
    public void end(boolean committed) {
      if (ended) {
        return;
      }
      ended = true;
      long upper = latestSequence.getAsLong();
      if (!committed) {
        // Nothing was written: the versions this commit superseded at `to` are still the rows, but when no
        // other commit followed, `to` is above the latest sequence, so no sweep would ever free them. Dropping
        // a version only costs a miss.
        for (Key k : keys) {
          cache.asMap().computeIfPresent(k, (kk, v) -> v.dropSupersededAt(to));
        }
      }
      for (Key k : keys) {
        writes.compute(k, (kk, m) -> new WriteMark(m.pending - 1, committed ? Math.max(m.upper, upper) : m.upper));
        retired.add(new Retired(k, upper));
      }
      if (writes.size() > maxWriteMarks) {
        compactMarks();
      }
      sweep();
    }
  }

  /**
   * Replaces the finished write marks by one floor, the latest sequence number (every finished write's upper
   * bound is at most that): installs from older snapshots are refused, as any of those marks would have refused
   * them. The floor is raised before the marks go, so a reader that finds a mark gone also sees the floor.
   * Superseded versions then leave by eviction or expiry instead of by the sweep.
   */
  private synchronized void compactMarks() {
    long floor = latestSequence.getAsLong();
    installFloor = Math.max(installFloor, floor);
    writes.entrySet().removeIf(e -> e.getValue().pending == 0 && e.getValue().upper <= floor);
    retired.clear();
  }

  /**
   * Frees the write marks and superseded versions no open snapshot can need any more: those of writes whose
   * upper bound is at most the oldest open snapshot.
   */
  void sweep() {
    Retired head = retired.peek();
    if (head == null || !sweeping.tryLock()) {
      return;
    }
    try {
      long oldest = oldestSnapshot();
      while ((head = retired.peek()) != null && head.sequence <= oldest) {
        retired.poll();
        writes.computeIfPresent(head.key, (k, m) -> m.pending == 0 && m.upper <= oldest ? null : m);
        cache.asMap().computeIfPresent(head.key, (k, v) -> v.dropBefore(oldest));
      }
    } finally {
      sweeping.unlock();
    }
  }

  /** Forgets every row of a dropped table. */
  public void invalidateTable(long table) {
    cache.asMap().keySet().removeIf(k -> k.table == table);
    writes.entrySet().removeIf(e -> e.getKey().table == table && e.getValue().pending == 0);
  }

  // --- observation

  /** Exposes the cache's size and statistics: Micrometer's Caffeine binder plus byte and hit-ratio gauges. */
  public void bindTo(MeterRegistry registry, Tags tags) {
    CaffeineCacheMetrics.monitor(registry, cache, "accel.row", tags);
    Gauge.builder("accel.row.cache.bytes", this, RowCache::weightedBytes)
        .tags(tags).baseUnit("bytes").description("estimated heap bytes held by the row cache").register(registry);
    Gauge.builder("accel.row.cache.max.bytes", this, c -> c.maxBytes)
        .tags(tags).baseUnit("bytes").description("the row cache's bound (rowCacheSize)").register(registry);
    Gauge.builder("accel.row.cache.hit.ratio", this, c -> c.stats.snapshot().hitRate())
        .tags(tags).description("share of row-cache lookups that found a version valid at the reader's snapshot")
        .register(registry);
  }

  /**
   * Removes the meters {@link #bindTo} registered, so a store reopened in this JVM binds its new cache instead
   * of Micrometer keeping gauges of the closed one.
   */
  public void unbindFrom(MeterRegistry registry, Tags tags) {
    for (Meter meter : List.copyOf(registry.getMeters())) {
      Meter.Id id = meter.getId();
      boolean ours = id.getName().startsWith("accel.row.cache.") || "accel.row".equals(id.getTag("cache"));
      boolean sameTags = tags.stream().allMatch(t -> t.getValue().equals(id.getTag(t.getKey())));
      if (ours && sameTags) {
        registry.remove(meter);
      }
    }
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** The estimated heap bytes of the entries (after Caffeine's pending maintenance). */
  public long weightedBytes() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  public long entries() {
    return cache.estimatedSize();
  }

  public CacheStats stats() {
    return stats.snapshot();
  }

  /** Rows installed as current versions so far. */
  public long installs() {
    return stats.installs.sum();
  }

  /** The superseded versions held now (a walk over the cache: for tests and diagnostics). */
  public long supersededVersions() {
    long n = 0;
    for (Versions v : cache.asMap().values()) {
      n += v.superseded.length;
    }
    return n;
  }

  /** Write marks held now (pending or still needed by an open snapshot). */
  public int writeMarks() {
    return writes.size();
  }

  /** Open snapshot registrations. */
  public int openSnapshots() {
    return snapshots.size();
  }

  /** Runs Caffeine's pending maintenance (evictions, expiries) and the sweep now. */
  public void cleanUp() {
    cache.cleanUp();
    sweep();
  }

  // --- the entries

  /** A cache key: a table id and a row's storage key. */
  public static final class Key {
    final long table;
    final byte[] rowKey;
    private final int hash;

    Key(long table, byte[] rowKey) {
      this.table = table;
      this.rowKey = rowKey;
      this.hash = hash(table, rowKey);
    }

    /**
     * FNV-1a over the table id and the key bytes, folded to 32 bits. Not {@code Arrays.hashCode}: its base-31
     * polynomial maps keys that differ in their last bytes (consecutive BIGINT keys) onto few values, and the
     * cache's hash table then degenerated into tree bins (measured: a hit cost 0.7 us, a fill 7 us).
     */
    static int hash(long table, byte[] key) {
      long h = 0xcbf29ce484222325L ^ table;
      h *= 0x100000001b3L;
      for (byte b : key) {
        h = (h ^ (b & 0xFF)) * 0x100000001b3L;
      }
      return (int) (h ^ h >>> 32);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && k.table == table && Arrays.equals(k.rowKey, rowKey);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * One bit per recently missed key (by hash; a collision only admits a key early), cleared when as many keys
   * have been marked as the cache holds rows of {@link #ENTRY_BYTES}: a key that misses again within that many
   * other misses is admitted. Updates race benignly (a lost bit delays an install). 1 MB of bits for the
   * default 256 MB cache.
   */
  static final class Doorkeeper {
    /** A typical entry's weight (a row of some 150 bytes with its key, version and node). */
    static final long ENTRY_BYTES = 300;

    private final long[] bits;
    private final int mask;
    private final long resetAfter;
    private final AtomicLong marked = new AtomicLong();

    Doorkeeper(long entries) {
      // eight bits per entry, cleared after one mark per entry: at most an eighth of the bits are set, so a
      // key seen for the first time is admitted by a collision with at most that chance
      int size = Integer.highestOneBit((int) Math.min(1 << 28, Math.max(4096, entries * 8)) - 1) << 1;
      this.bits = new long[size / 64];
      this.mask = size - 1;
      this.resetAfter = size / 8;
    }

    /** Whether the key was marked since the last reset; marks it if not. */
    boolean admit(int hash) {
      int bit = (hash * 0x9E3779B9 >>> 7) & mask;
      int word = bit >>> 6;
      long m = 1L << bit;
      long w = bits[word];
      if ((w & m) != 0) {
        return true;
      }
      bits[word] = w | m;
      if (marked.incrementAndGet() >= resetAfter) {
        marked.set(0);
        Arrays.fill(bits, 0L);
      }
      return false;
    }
  }

  /** A superseded row version, valid for snapshots {@code from <= S < to}. */
  record Version(byte[] row, long from, long to) {
    boolean validAt(long snapshot) {
      return from <= snapshot && snapshot < to;
    }
  }

  /**
   * The versions of one row, immutable: every change replaces the entry, so Caffeine re-weighs it. The current
   * version's fields are inline (a hit follows one reference less).
   */
  static final class Versions {
    static final Version[] NONE = new Version[0];
    /** Caffeine's node with its expiry links, this object and its array, the key. */
    private static final long OVERHEAD = 96 + 48 + 16;

    /** The current row, valid for snapshots from {@link #from} on; null when there is none. */
    final byte[] row;
    final long from;
    final Version[] superseded;
    final int weight;
    private final Key key;

    Versions(Key key, byte[] row, long from, Version[] superseded) {
      this.key = key;
      this.row = row;
      this.from = from;
      this.superseded = superseded;
      long w = OVERHEAD + 40 + key.rowKey.length + 4L * superseded.length;
      if (row != null) {
        w += weigh(row);
      }
      for (Version v : superseded) {
        w += weigh(v.row);
      }
      this.weight = (int) Math.min(Integer.MAX_VALUE, w);
    }

    byte[] at(long snapshot) {
      if (row != null && from <= snapshot) {
        return row;
      }
      for (Version v : superseded) {
        if (v.validAt(snapshot)) {
          return v.row;
        }
      }
      return null;
    }

    Versions withCurrent(byte[] newRow, long newFrom) {
      return new Versions(key, newRow, newFrom, superseded);
    }

    /** The current version stops being current at {@code to}; null when nothing is left to keep. */
    Versions supersede(long to) {
      if (row == null) {
        return this;
      }
      Version[] kept = superseded;
      if (from < to) {
        kept = Arrays.copyOf(superseded, superseded.length + 1);
        kept[superseded.length] = new Version(row, from, to);
      }
      return kept.length == 0 ? null : new Versions(key, null, 0, kept);
    }

    /** Drops the superseded versions that stopped being current at {@code to}; null when nothing is left. */
    Versions dropSupersededAt(long to) {
      List<Version> kept = new ArrayList<>();
      for (Version v : superseded) {
        if (v.to != to) {
          kept.add(v);
        }
      }
      if (kept.size() == superseded.length) {
        return this;
      }
      if (kept.isEmpty() && row == null) {
        return null;
      }
      return new Versions(key, row, from, kept.toArray(NONE));
    }

    /** Drops the superseded versions no snapshot at or after {@code oldest} can see; null when empty. */
    Versions dropBefore(long oldest) {
      List<Version> kept = null;
      for (int i = 0; i < superseded.length; i++) {
        Version v = superseded[i];
        if (v.to <= oldest) {
          if (kept == null) {
            kept = new ArrayList<>(Arrays.asList(superseded).subList(0, i));
          }
        } else if (kept != null) {
          kept.add(v);
        }
      }
      if (kept == null) {
        return this;
      }
      if (kept.isEmpty() && row == null) {
        return null;
      }
      return new Versions(key, row, from, kept.toArray(NONE));
    }
  }

  /** Writes to a key: commits in flight, and the upper bound of the latest committed one's sequence number. */
  record WriteMark(int pending, long upper) {
    /** Whether a row read at {@code snapshot} may be stale or about to be. */
    boolean blocks(long snapshot) {
      return pending > 0 || upper > snapshot;
    }
  }

  /** A written key, to sweep once no open snapshot precedes {@code sequence}. */
  private record Retired(Key key, long sequence) {
  }

  // --- sizes

  /** The heap bytes of a stored row value and its version record. */
  static long weigh(byte[] row) {
    return 16 + row.length + 40;
  }

  // --- statistics as MVCC readers see them

  /**
   * Hits and misses counted by {@link #get} (a version valid at the reader's snapshot, or not), installs
   * reported as loads (Micrometer's {@code cache.puts}); Caffeine reports evictions. The loads Caffeine
   * would count for its own compute calls are ignored.
   */
  private static final class Stats implements StatsCounter {
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder installs = new LongAdder();
    final LongAdder evictions = new LongAdder();
    final LongAdder evictionWeight = new LongAdder();

    @Override
    public void recordHits(int count) {
    }

    @Override
    public void recordMisses(int count) {
    }

    @Override
    public void recordLoadSuccess(long loadTime) {
    }

    @Override
    public void recordLoadFailure(long loadTime) {
    }

    @Override
    public void recordEviction(int weight, RemovalCause cause) {
      evictions.increment();
      evictionWeight.add(weight);
    }

    @Override
    public CacheStats snapshot() {
      return CacheStats.of(hits.sum(), misses.sum(), installs.sum(), 0, 0, evictions.sum(), evictionWeight.sum());
    }
  }
}
