package io.accel.cache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;

/**
 * What one execution of a query read, per column family: the keys it fetched (rows by primary key, point gets of
 * index entries) and the key ranges it scanned. Recorded while a {@link ResultCache} entry is filled; a write of a
 * key inside it can change the result, a write outside it cannot. Past {@link #MAX_TRACKED} keys and ranges the
 * set stops recording and says so: the entry is then invalidated by any write to the tables it read.
 */
public final class ReadSet {
  /** Keys and ranges tracked per result; more make the result table-level. */
  public static final int MAX_TRACKED = 4096;

  private static final class Recorded {
    final List<byte[]> points = new ArrayList<>();
    final List<byte[][]> ranges = new ArrayList<>();
  }

  private final Map<ColumnFamilyHandle, Recorded> families = new IdentityHashMap<>();
  private int size;
  private boolean overflow;

  /** A key read (found or not). */
  public synchronized void point(ColumnFamilyHandle family, byte[] key) {
    if (count()) {
      families.computeIfAbsent(family, f -> new Recorded()).points.add(key.clone());
    }
  }

  /** Keys in [{@code low}, {@code high}) scanned; an empty {@code low} is the family's start, a null {@code high} its end. */
  public synchronized void range(ColumnFamilyHandle family, byte[] low, byte[] high) {
    if (count()) {
      families.computeIfAbsent(family, f -> new Recorded()).ranges.add(
          new byte[][] {low.clone(), high == null ? null : high.clone()});
    }
  }

  private boolean count() {
    if (overflow) {
      return false;
    }
    if (++size > MAX_TRACKED) {
      overflow = true;
      families.clear();
      return false;
    }
    return true;
  }

  /** The recorded reads, sorted for lookups; null when there were too many to track. */
  synchronized Frozen freeze() {
    if (overflow) {
      return null;
    }
    Map<ColumnFamilyHandle, Family> frozen = new IdentityHashMap<>();
    families.forEach((f, r) -> frozen.put(f, Family.of(r)));
    return new Frozen(frozen, size);
  }

  /** A result's reads, immutable: per family, sorted distinct keys and sorted, merged ranges. */
  public record Frozen(Map<ColumnFamilyHandle, Family> families, int size) {
    boolean touches(ColumnFamilyHandle family, byte[] key) {
      Family f = families.get(family);
      return f != null && f.contains(key);
    }
  }

  /** One family's reads: sorted distinct keys, and sorted disjoint ranges ({@code highs[i]} null: to the end). */
  public record Family(byte[][] points, byte[][] lows, byte[][] highs) {
    static Family of(Recorded r) {
      byte[][] points = r.points.toArray(new byte[0][]);
      Arrays.sort(points, Arrays::compareUnsigned);
      List<byte[][]> sorted = new ArrayList<>(r.ranges);
      sorted.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
      List<byte[]> lows = new ArrayList<>();
      List<byte[]> highs = new ArrayList<>();
      for (byte[][] range : sorted) {
        int last = lows.size() - 1;
        if (last >= 0 && (highs.get(last) == null || Arrays.compareUnsigned(range[0], highs.get(last)) <= 0)) {
          // overlaps or touches the previous range: extend it
          byte[] high = highs.get(last);
          if (high != null && (range[1] == null || Arrays.compareUnsigned(range[1], high) > 0)) {
            highs.set(last, range[1]);
          }
        } else {
          lows.add(range[0]);
          highs.add(range[1]);
        }
      }
      return new Family(points, lows.toArray(new byte[0][]), highs.toArray(new byte[0][]));
    }

    boolean contains(byte[] key) {
      if (points.length > 0 && Arrays.binarySearch(points, key, Arrays::compareUnsigned) >= 0) {
        return true;
      }
      // the last range starting at or before the key
      int lo = 0;
      int hi = lows.length - 1;
      int at = -1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (Arrays.compareUnsigned(lows[mid], key) <= 0) {
          at = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return at >= 0 && (highs[at] == null || Arrays.compareUnsigned(key, highs[at]) < 0);
    }
  }
}
