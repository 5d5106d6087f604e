package io.accel.upstream;

import io.accel.catalog.Column;
import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.exec.Database;
import io.accel.exec.RowKeys;
import io.accel.exec.Session;
import io.accel.exec.TableReader;
import io.accel.exec.TableWriter;
import io.accel.exec.TxnContext;
import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirror's change stream: Debezium's embedded engine with its PostgreSQL connector reading the mirror's slot
 * through pgoutput (no snapshot of its own: the mirror took one at the slot's start). Records are gathered per
 * upstream transaction (Debezium's transaction metadata: BEGIN, the changes, END) and each transaction is applied
 * in commit order as one RocksDB transaction, which also writes the mirror's new position: a crash loses or
 * repeats nothing. Debezium keeps its offsets in memory only; on a restart it reads the slot from the position
 * the slot confirmed, which is at most the mirror's, and transactions the mirror already holds (commit LSN not
 * past its position) are skipped.
 */
final class ChangeStream implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeStream.class);
  /** Held while a transaction is applied, and by DDL on the mirror (its mirror-only indexes). */
  static final Object APPLY = new Object();

  private final Mirror mirror;
  private final String topicPrefix;
  private volatile DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;
  private ExecutorService executor;
  private final List<SourceRecord> pending = new ArrayList<>();
  private volatile boolean stopping;
  private boolean appliedInBatch;
  /** Debezium refuses to stop while its task is starting: close waits for the start (or the engine's end). */
  private final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);

  ChangeStream(Mirror mirror) {
    this.mirror = mirror;
    this.topicPrefix = "accel_" + mirror.config().slotName();
  }

  void start() {
    UpstreamConfig config = mirror.config();
    Properties p = new Properties();
    p.setProperty("name", "accel-" + config.slotName());
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    // offsets (the slot's confirmed position) once a second: flushing them after every batch held each batch
    // back by about 2 ms
    p.setProperty("offset.flush.interval.ms", "1000");
    p.setProperty("database.hostname", config.host());
    p.setProperty("database.port", Integer.toString(config.port()));
    p.setProperty("database.user", config.pgProperties().getProperty("user", System.getProperty("user.name")));
    p.setProperty("database.password", config.pgProperties().getProperty("password", ""));
    p.setProperty("database.dbname", config.database());
    // the replication connection negotiates TLS as the mirror's pgJDBC connections do: pgJDBC's default (prefer),
    // or ssl=true without sslmode being verify-full, and the same CA, client certificate and key
    Properties pg = config.pgProperties();
    p.setProperty("database.sslmode", pg.getProperty("sslmode",
        Boolean.parseBoolean(pg.getProperty("ssl", "false")) ? "verify-full" : "prefer"));
    for (String name : new String[] {"sslrootcert", "sslcert", "sslkey", "sslpassword", "sslfactory"}) {
      if (pg.getProperty(name) != null) {
        p.setProperty("database." + name, pg.getProperty(name));
      }
    }
    p.setProperty("topic.prefix", topicPrefix);
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", config.slotName());
    p.setProperty("publication.name", config.publicationName());
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("provide.transaction.metadata", "true");
    p.setProperty("decimal.handling.mode", "string");
    p.setProperty("binary.handling.mode", "bytes");
    p.setProperty("tombstones.on.delete", "false");
    p.setProperty("skipped.operations", "none");
    p.setProperty("heartbeat.interval.ms", "10000");
    // Debezium's queue hands a batch over when it is full or this has passed, and its stream reader sleeps this
    // long when there is nothing: the default 500 ms is a floor under the lag. Its queue spins through the last
    // millisecond of each interval, so 1 ms kept half a core busy on an idle mirror; 10 ms costs about a tenth
    p.setProperty("poll.interval.ms", "10");
    p.setProperty("message.prefix.include.list", Mirror.MESSAGE_PREFIX);
    p.setProperty("include.unknown.datatypes", "false");
    p.setProperty("errors.max.retries", "0");
    p.setProperty("slot.drop.on.stop", "false");
    // built and run by threads of THREADS: the engine's own pools (not daemons) then belong to it too
    RuntimeException[] failure = new RuntimeException[1];
    Thread builder = new Thread(THREADS, () -> {
      try {
        engine = build(p);
      } catch (RuntimeException e) {
        failure[0] = e;
      }
    }, "accel-stream-build");
    builder.setDaemon(true);
    builder.start();
    try {
      builder.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the change stream", e);
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(THREADS, r, "accel-stream-" + config.describe());
      t.setDaemon(true);
      return t;
    });
    executor.execute(engine);
  }

  private DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> build(Properties p) {
    return DebeziumEngine.create(Connect.class).using(p)
        .notifying(this::handle)
        .using(new DebeziumEngine.ConnectorCallback() {
          @Override
          public void taskStarted() {
            started.countDown();
          }
        })
        .using((success, message, error) -> {
          started.countDown();
          if (!stopping && !mirror.isClosed()) {
            mirror.streamFailed(error != null ? error : new IllegalStateException(message));
          }
        })
        .build();
  }

  /**
   * The change streams' threads, Debezium's included (they inherit the group of the thread that builds and runs
   * the engine). Debezium's are not daemons, so a JVM whose application ended without closing its connections
   * would keep running for them: {@link #onlyStreamThreadsLeft} tells the mirror when that is all that is left.
   */
  static final ThreadGroup THREADS = new ThreadGroup("accel-change-streams");

  /** Whether every live non-daemon thread but the JVM's own exit thread belongs to a change stream. */
  static boolean onlyStreamThreadsLeft() {
    ThreadGroup root = THREADS;
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 32];
    int n = root.enumerate(threads, true);
    for (int i = 0; i < n; i++) {
      Thread t = threads[i];
      if (t.isDaemon() || !t.isAlive() || t.getName().equals("DestroyJavaVM")) {
        continue;
      }
      ThreadGroup g = t.getThreadGroup();
      while (g != null && g != THREADS) {
        g = g.getParent();
      }
      if (g == null) {
        return false;
      }
    }
    return true;
  }

  private void handle(List<ChangeEvent<SourceRecord, SourceRecord>> records,
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer) throws InterruptedException {
    for (ChangeEvent<SourceRecord, SourceRecord> event : records) {
      SourceRecord r = event.value();
      if (r == null || stopping) {
        committer.markProcessed(event);
        continue;
      }
      String topic = r.topic();
      if (topic.equals(topicPrefix + ".transaction")) {
        Struct v = (Struct) r.value();
        if ("BEGIN".equals(v.getString("status"))) {
          pending.clear();
        } else {
          long lsn = offsetLong(r.sourceOffset(), "lsn_commit");
          applyTransaction(lsn);
        }
      } else if (topic.equals(topicPrefix + ".message")) {
        Struct source = ((Struct) r.value()).getStruct("source");
        mirror.advance(source.getInt64("lsn"));
      } else if (topic.startsWith(topicPrefix + ".")) {
        pending.add(r);
      }
      committer.markProcessed(event);
    }
    if (appliedInBatch) {
      // the mirror's store commits without syncing; what Debezium may confirm to the slot must be on disk first
      appliedInBatch = false;
      try {
        mirror.database().store().db().flushWal(true);
      } catch (org.rocksdb.RocksDBException e) {
        throw new IllegalStateException("cannot sync the mirror's write-ahead log: " + e.getMessage(), e);
      }
    }
    committer.markBatchFinished();
  }

  private static long offsetLong(Map<String, ?> offset, String key) {
    Object v = offset.get(key);
    return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
  }

  /** Applies the gathered changes of one upstream transaction, with the new position, as one local transaction. */
  private void applyTransaction(long commitLsn) {
    if (commitLsn <= mirror.position()) {
      pending.clear();
      return;
    }
    Session session = mirror.applySession();
    Database database = mirror.database();
    synchronized (APPLY) {
      TxnContext ctx = session.beginStatement(APPLY);
      try {
        for (SourceRecord r : pending) {
          apply(database, ctx, r, commitLsn);
        }
        ctx.put(database.store().meta(), Mirror.POSITION_KEY, Mirror.positionBytes(commitLsn));
        session.statementSucceeded(APPLY);
      } catch (RuntimeException e) {
        session.statementFailed(APPLY);
        pending.clear();
        throw e;
      } finally {
        session.releaseStatement(APPLY);
      }
    }
    pending.clear();
    appliedInBatch = true;
    mirror.countTransaction();
    mirror.advance(commitLsn);
  }

  private static final class SchemaChanged extends RuntimeException {
    SchemaChanged(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Applies one change of a transaction committed at {@code commitLsn}, unless its table is not online (it will be
   * copied whole) or its copy already holds it. A row whose columns are not the mirrored table's means the table
   * changed upstream: it goes offline, to be copied again, and the rest of the transaction is applied.
   */
  private void apply(Database database, TxnContext ctx, SourceRecord r, long commitLsn) {
    Struct value = (Struct) r.value();
    Struct source = value.getStruct("source");
    String schema = source.getString("schema");
    String name = source.getString("table");
    UpstreamTable upstream = mirror.upstreamTable(name);
    if (upstream == null || !upstream.schema().equals(schema) || !mirror.applies(name, commitLsn)) {
      return;
    }
    TableDef table = database.catalog().table(name).orElse(null);
    if (table == null) {
      mirror.tableChanged(name, "it is missing from the mirror");
      return;
    }
    try {
      applyChange(database, ctx, table, value, name);
    } catch (SchemaChanged e) {
      mirror.tableChanged(name, e.getMessage());
    }
  }

  private void applyChange(Database database, TxnContext ctx, TableDef table, Struct value, String name) {
    List<DataType> types = table.columns().stream().map(Column::type).toList();
    TableWriter writer = new TableWriter(database, ctx, table);
    String op = value.getString("op");
    switch (op) {
      case "c", "r", "u" -> {
        Struct after = value.getStruct("after");
        checkColumns(table, after);
        Object[] keyed = convert(table, types, after, null);
        Object[] old = table.hasHiddenRowId() ? null : existing(database, ctx, table, types, keyed);
        Object[] row = old == null ? keyed : convert(table, types, after, old);
        if (old == null && table.hasHiddenRowId() && op.equals("u")) {
          Struct before = value.getStruct("before");
          Object[] previous = convert(table, types, before, null);
          writer.update(List.<Object[]>of(previous), List.<Object[]>of(row));
        } else if (old == null) {
          writer.insert(List.<Object[]>of(row));
        } else {
          writer.update(List.<Object[]>of(old), List.<Object[]>of(row));
        }
      }
      case "d" -> {
        Struct before = value.getStruct("before");
        if (table.hasHiddenRowId()) {
          writer.delete(List.<Object[]>of(convert(table, types, before, null)));
          return;
        }
        Object[] keyed = convertKey(table, types, before);
        Object[] old = existing(database, ctx, table, types, keyed);
        if (old != null) {
          writer.delete(List.<Object[]>of(old));
        }
      }
      case "t" -> {
        List<Object[]> all = new ArrayList<>();
        new TableReader(database, table).forEach(ctx, (key, row) -> all.add(row));
        if (!all.isEmpty()) {
          writer.delete(all);
        }
      }
      default -> LOG.debug("ignored change {} on {}", op, name);
    }
  }

  /** A change whose columns are not the mirrored table's: the upstream's schema changed. */
  private static void checkColumns(TableDef table, Struct row) {
    List<Field> fields = row.schema().fields();
    boolean same = fields.size() == table.columns().size();
    for (int i = 0; same && i < fields.size(); i++) {
      same = fields.get(i).name().equals(table.columns().get(i).name());
    }
    if (!same) {
      throw new SchemaChanged("the columns of " + table.name() + " changed upstream");
    }
  }

  private static Object[] existing(Database database, TxnContext ctx, TableDef table, List<DataType> types,
      Object[] keyed) {
    return ctx.fetchRow(table, database.tableFamily(table), RowKeys.rowKey(table, keyed), null);
  }

  private static Object[] convert(TableDef table, List<DataType> types, Struct struct, Object[] old) {
    Object[] row = new Object[types.size()];
    List<Field> fields = struct.schema().fields();
    for (int i = 0; i < row.length; i++) {
      Field f = fields.get(i);
      row[i] = UpstreamValues.fromConnect(types.get(i), f.schema(), struct.getWithoutDefault(f.name()), old == null ? null : old[i]);
    }
    return row;
  }

  /** A row holding only the primary key's values, from a delete's old key. */
  private static Object[] convertKey(TableDef table, List<DataType> types, Struct before) {
    Object[] row = new Object[types.size()];
    for (int c : table.primaryKey()) {
      Field f = before.schema().field(table.columns().get(c).name());
      if (f == null) {
        throw new SchemaChanged("the primary key of " + table.name() + " changed upstream");
      }
      row[c] = UpstreamValues.fromConnect(types.get(c), f.schema(), before.getWithoutDefault(f.name()), null);
    }
    return row;
  }

  @Override
  public void close() {
    stopping = true;
    try {
      if (engine != null) {
        started.await(60, TimeUnit.SECONDS);
        // the start callback comes a moment before the engine accepts a stop: retry briefly
        for (int attempt = 0; ; attempt++) {
          try {
            engine.close();
            break;
          } catch (IllegalStateException e) {
            if (attempt >= 200 || !String.valueOf(e.getMessage()).contains("starting")) {
              throw e;
            }
            Thread.sleep(50);
          }
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warn("closing the change stream: {}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (executor != null) {
      executor.shutdown();
      try {
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
          executor.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
