package io.accel.bench.jmh;

import io.accel.bench.workload.Straddle;
import io.accel.bench.workload.WorkloadData;
import io.accel.catalog.Catalog;
import io.accel.catalog.ColumnType;
import io.accel.catalog.DataType;
import io.accel.catalog.IndexDef;
import io.accel.catalog.TableDef;
import io.accel.exec.Database;
import io.accel.storage.KeyCodec;
import io.accel.storage.KeyWriter;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * The storage floor under S1: what the RocksDB reads S1 needs cost through RocksJava on the loaded
 * {@code straddle} store (the one {@link StraddleBenchmark} reads), without SQL, planning or JDBC. S1 makes
 * one get of a {@code users_email} entry, one get of the user's row, one iterator seek into
 * {@code orders_user_status} with a few nexts, and three order-row gets (one MultiGet when there are at least
 * eight). The sum of these is the least any plan over this storage can take for S1.
 *
 * <p>Operations: {@code get} (an orders row by a random primary key), {@code multiGet3} (three at once),
 * {@code seek} (a new iterator positioned on a random {@code orders_user_status} prefix and its first entry
 * read, as a lookup does), {@code userGet} (a users row). Run:
 * {@code java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main RocksRead}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class RocksReadBenchmark {
  @Param("full")
  public String size;

  private Database database;
  private RocksDB db;
  private ReadOptions readOptions;
  private ColumnFamilyHandle orders;
  private ColumnFamilyHandle users;
  private ColumnFamilyHandle ordersUserStatus;
  private List<ColumnFamilyHandle> three;
  private byte[][] orderKeys;
  private byte[][] userKeys;
  private byte[][] prefixes;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Straddle w = size.equals("full") ? new Straddle() : new Straddle(10_000, 100_000);
    WorkloadData.ensureAccel(w, System.out);
    Path dir = WorkloadData.accelDir(w);
    Store store = Store.openFile(dir, StoreOptions.DEFAULTS);
    database = Database.open(store);
    Catalog catalog = database.catalog();
    TableDef o = catalog.table("orders").orElseThrow();
    TableDef u = catalog.table("users").orElseThrow();
    IndexDef ous = o.indexes().stream().filter(i -> i.name().equals("orders_user_status")).findFirst().orElseThrow();
    db = store.db();
    orders = store.family(Catalog.tableFamily(o.id())).orElseThrow();
    users = store.family(Catalog.tableFamily(u.id())).orElseThrow();
    ordersUserStatus = store.family(Catalog.indexFamily(ous.id())).orElseThrow();
    three = Collections.nCopies(3, orders);
    readOptions = new ReadOptions();
    DataType bigint = DataType.of(ColumnType.BIGINT);
    DataType varchar = o.columns().get(2).type();
    Random r = new Random(42);
    int n = 1 << 16;
    orderKeys = new byte[n][];
    userKeys = new byte[n][];
    prefixes = new byte[n][];
    for (int i = 0; i < n; i++) {
      orderKeys[i] = key(bigint, 1 + (long) r.nextInt((int) w.orders()));
      long user = 1 + (long) r.nextInt((int) w.users());
      userKeys[i] = key(bigint, user);
      KeyWriter kw = new KeyWriter(32);
      KeyCodec.write(kw, bigint, user, false);
      KeyCodec.write(kw, varchar, "SHIPPED", false);
      prefixes[i] = kw.toByteArray();
    }
  }

  private static byte[] key(DataType type, Object v) {
    KeyWriter w = new KeyWriter(16);
    KeyCodec.write(w, type, v, false);
    return w.toByteArray();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    readOptions.close();
    database.close();
  }

  private int nextIndex() {
    next = (next + 1) & (orderKeys.length - 1);
    return next;
  }

  @Benchmark
  public byte[] get() throws Exception {
    return db.get(orders, readOptions, orderKeys[nextIndex()]);
  }

  @Benchmark
  public byte[] userGet() throws Exception {
    return db.get(users, readOptions, userKeys[nextIndex()]);
  }

  @Benchmark
  public List<byte[]> multiGet3() throws Exception {
    int i = nextIndex();
    List<byte[]> keys = new ArrayList<>(3);
    keys.add(orderKeys[i]);
    keys.add(orderKeys[(i + 1) & (orderKeys.length - 1)]);
    keys.add(orderKeys[(i + 2) & (orderKeys.length - 1)]);
    return db.multiGetAsList(readOptions, three, keys);
  }

  @Benchmark
  public byte[] seek() {
    try (RocksIterator it = db.newIterator(ordersUserStatus, readOptions)) {
      it.seek(prefixes[nextIndex()]);
      return it.isValid() ? it.key() : null;
    }
  }
}
