package io.accel.upstream;

import io.accel.catalog.TableDef;
import io.accel.exec.Database;
import io.accel.exec.Result;
import io.accel.exec.Session;
import io.accel.exec.StoreRegistry;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import io.accel.storage.StoreOptions;
import io.micrometer.core.instrument.Gauge;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.ReplicationSlotInfo;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local copy of one upstream PostgreSQL database: its tables in a file store, loaded from a snapshot that
 * is consistent with the start of a logical replication slot, then kept current by the slot's change stream
 * ({@link ChangeStream}). One per upstream database per process ({@link Mirrors}), shared by every connection.
 *
 * <p>Positions are upstream WAL positions (LSNs). {@link #position()} is how far the mirror has provably
 * caught up: every upstream transaction that committed before it has been applied. A reader that needs to see
 * a write asks for a {@link #syncPoint()} after the write committed and waits for the position to pass it.
 */
public final class Mirror implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Mirror.class);
  static final byte[] STATE_KEY = "upstream/state".getBytes(StandardCharsets.UTF_8);
  /** The prefix of the logical decoding messages the mirror emits to learn its position. */
  static final String MESSAGE_PREFIX = "accel";

  /** Where a table's reads can be served. */
  public enum TableState { SNAPSHOTTING, ONLINE, OFFLINE, NOT_MIRRORED }

  /** What the status shows of one upstream table. */
  public record TableStatus(String name, TableState state, String reason, long rowsDone, long rowsEstimated) {
  }

  private final UpstreamConfig config;
  private final Database database;
  private final Session session;
  private final Map<String, TableStatus> tables = new ConcurrentHashMap<>();
  private final Map<String, UpstreamTable> upstreamTables = new ConcurrentHashMap<>();
  /** Per table copied on its own after the stream started: its changes committed up to this LSN are in the copy. */
  private final Map<String, Long> skipUntil = new ConcurrentHashMap<>();
  private final Object positionMonitor = new Object();
  private volatile long position;
  /** Emitted position messages not seen back yet: their emission times, for the lag. */
  private final java.util.concurrent.ConcurrentSkipListMap<Long, Long> pendingMessages =
      new java.util.concurrent.ConcurrentSkipListMap<>();
  private volatile long lastEmitFailure;
  private final ScheduledExecutorService timer;
  private Connection admin;
  /** The connection position messages and schema checks use, apart from the one a snapshot may hold. */
  private Connection sync;
  private final Object syncLock = new Object();
  private final Object restartLock = new Object();
  private ChangeStream stream;
  private volatile String streamError;
  private volatile boolean closed;
  private volatile long schemaSignature;
  private final java.util.concurrent.atomic.AtomicLong transactionsApplied = new java.util.concurrent.atomic.AtomicLong();
  private final ProxiedQueries proxied = new ProxiedQueries();
  private final Privileges privileges = new Privileges(this::upstreamMaySelect);
  private final long startedAt = System.currentTimeMillis();

  private Mirror(UpstreamConfig config, Database database) {
    this.config = config;
    this.database = database;
    this.session = new Session(database);
    // the store's sessions answer SHOW ACCEL STATUS and TABLES with the mirror's view of it
    database.frontedBy(new io.accel.exec.AccelStatus.Source() {
      @Override
      public Map<String, String> status() {
        return statusValues();
      }

      @Override
      public List<String[]> tables() {
        return tableRows();
      }
    });
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "accel-mirror-" + config.describe());
      t.setDaemon(true);
      return t;
    });
    var meters = database.meters();
    var tags = database.meterTags().and("upstream", config.describe());
    io.micrometer.core.instrument.FunctionCounter.builder("accel.replication.transactions", transactionsApplied,
        java.util.concurrent.atomic.AtomicLong::get).tags(tags)
        .description("upstream transactions applied to the mirror").register(meters);
    Gauge.builder("accel.replication.lag", this, m -> m.lagMillis() / 1000.0).tags(tags.and("unit", "seconds"))
        .description("how far the mirror is behind the upstream").register(meters);
    Gauge.builder("accel.snapshot.rows", this, m -> m.tables.values().stream().filter(
        t -> t.state() == TableState.SNAPSHOTTING).mapToLong(TableStatus::rowsDone).sum()).tags(tags)
        .description("rows copied by the snapshot under way").register(meters);
    Gauge.builder("accel.replication.lag.bytes", this, Mirror::lagBytes).tags(tags)
        .description("WAL bytes between the upstream's position and the mirror's").register(meters);
  }

  public UpstreamConfig config() {
    return config;
  }

  /** The mirror's store: local reads run against it. */
  public Database database() {
    return database;
  }

  /**
   * Opens the mirror of {@code config}'s upstream: resumes its change stream where the store left it, or takes a
   * new snapshot when there is no usable one (first start, slot gone, schema changed). Fails with 08001 when
   * the upstream cannot be reached.
   */
  static Mirror open(UpstreamConfig config, StoreOptions options) {
    Database database;
    try {
      java.nio.file.Files.createDirectories(config.mirrorDir());
      // commits are not synced one by one: the stream syncs the log once per batch, before Debezium may confirm
      // the batch to the slot, and the snapshot's files are synced when ingested
      database = StoreRegistry.acquire("file:" + config.mirrorDir(),
          new StoreOptions(options.blockCacheBytes(), false, options.rowCacheBytes())
              .withResultCache(options.resultCacheBytes(), options.autoCache()));
    } catch (AccelException e) {
      if (e.getMessage().contains("in use by another process")) {
        throw new AccelException(SqlState.CONNECTION_FAILURE, "the mirror directory " + config.mirrorDir()
            + " is in use by another process; point this one at another directory with the mirrorDir property,"
            + " or connect through the process that holds it", e);
      }
      throw e;
    } catch (IOException e) {
      throw new AccelException(SqlState.CONNECTION_FAILURE, "cannot create the mirror directory "
          + config.mirrorDir() + ": " + e.getMessage(), e);
    }
    Mirror mirror = new Mirror(config, database);
    try {
      mirror.start();
      return mirror;
    } catch (RuntimeException e) {
      mirror.close();
      throw e;
    }
  }

  /** A pgJDBC connection to the upstream with the mirror's credentials; 08001 naming the upstream if it fails. */
  Connection connect(boolean replication) {
    Properties p = new Properties();
    p.setProperty("ApplicationName", "accel-mirror");
    if (replication) {
      PGProperty.REPLICATION.set(p, "database");
      PGProperty.ASSUME_MIN_SERVER_VERSION.set(p, "9.4");
      PGProperty.PREFER_QUERY_MODE.set(p, "simple");
    }
    try {
      return config.connect(p);
    } catch (SQLException e) {
      throw Upstream.failure("upstream " + config.describe(), e);
    }
  }

  private void start() {
    admin = connect(false);
    try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SHOW wal_level")) {
      rs.next();
      if (!rs.getString(1).equals("logical")) {
        throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "the upstream " + config.describe()
            + " has wal_level=" + rs.getString(1) + "; mirroring needs wal_level=logical (set it in postgresql.conf"
            + " and restart PostgreSQL)");
      }
    } catch (SQLException e) {
      throw Upstream.failure("cannot read the upstream's settings", e);
    }
    Properties state = loadState();
    List<UpstreamTable> current = readUpstreamTables();
    if (state != null && resumable(state, current)) {
      position = storedPosition(state);
      for (String name : state.stringPropertyNames()) {
        if (name.startsWith("skip.")) {
          skipUntil.put(name.substring(5), Long.parseLong(state.getProperty(name)));
        }
      }
      for (UpstreamTable t : current) {
        upstreamTables.put(t.name(), t);
        String reason = mirrorable(t);
        tables.put(t.name(), reason == null ? new TableStatus(t.name(), TableState.ONLINE, null, 0, t.estimatedRows())
            : new TableStatus(t.name(), TableState.NOT_MIRRORED, reason, 0, 0));
      }
      LOG.info("mirror of {} resumes at {}", config.describe(), lsnText(position));
    } else {
      snapshot(current);
    }
    schemaSignature = schemaSignature();
    startStream();
    // a resumed mirror first catches up with what the upstream committed while it was stopped: until then its
    // reads go upstream
    catchUpTo = syncPoint();
    timer.scheduleWithFixedDelay(this::heartbeat, 500, 500, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(this::closeIfTheApplicationEnded, 1, 1, TimeUnit.SECONDS);
    // the first connection usually need not wait: a new snapshot is caught up within milliseconds
    awaitPosition(catchUpTo, 5_000);
  }

  /** Whether the stored mirror can continue: same slot, slot still valid, same tables with the same columns. */
  private boolean resumable(Properties state, List<UpstreamTable> current) {
    if (!"done".equals(state.getProperty("snapshot")) || !config.slotName().equals(state.getProperty("slot"))) {
      return false;
    }
    if (!state.getProperty("tables", "").equals(signature(current))) {
      LOG.info("the upstream's tables changed since the mirror was taken: taking a new snapshot");
      return false;
    }
    try (PreparedStatement ps = admin.prepareStatement(
        "SELECT wal_status FROM pg_replication_slots WHERE slot_name = ? AND database = current_database()")) {
      ps.setString(1, config.slotName());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          LOG.warn("replication slot {} is gone: taking a new snapshot", config.slotName());
          return false;
        }
        if ("lost".equals(rs.getString(1))) {
          LOG.warn("replication slot {} lost WAL it needed: taking a new snapshot", config.slotName());
          return false;
        }
        return true;
      }
    } catch (SQLException e) {
      throw Upstream.failure("cannot read the upstream's replication slots", e);
    }
  }

  private List<UpstreamTable> readUpstreamTables() {
    return readUpstreamTables(admin);
  }

  private List<UpstreamTable> readUpstreamTables(Connection c) {
    try {
      return UpstreamTable.read(c, config.tables());
    } catch (SQLException e) {
      throw Upstream.failure("cannot read the upstream's catalog", e);
    }
  }

  /** Whether {@code a} and {@code b} define a table the same way (columns, keys, indexes, security, identity). */
  private static boolean sameDefinition(UpstreamTable a, UpstreamTable b) {
    return signature(List.of(a)).equals(signature(List.of(b)));
  }

  /** The tables and columns the mirror was taken of: a new snapshot is needed when they change. */
  private static String signature(List<UpstreamTable> tables) {
    return tables.stream().map(t -> t.oid() + ":" + t.schema() + "." + t.name() + "(" + t.columns().stream()
        .map(c -> c.name() + " " + c.pgType() + (c.notNull() ? " nn" : "")).collect(Collectors.joining(","))
        + ";pk=" + t.primaryKey() + ";ix=" + t.indexes() + ";rls=" + t.rowSecurity() + ";ri=" + t.replicaIdentity() + ")")
        .collect(Collectors.joining("\n"));
  }

  private String mirrorable(UpstreamTable t) {
    if (t.rowSecurity()) {
      return "row-level security is enabled: its reads go upstream";
    }
    return t.unsupportedReason();
  }

  /**
   * Takes a new snapshot: drops whatever the store holds, (re)creates the publication and the slot, and copies
   * every mirrorable table at the slot's exported snapshot, two tables at a time.
   */
  private void snapshot(List<UpstreamTable> current) {
    long t0 = System.nanoTime();
    tables.clear();
    upstreamTables.clear();
    Properties previousState = loadState();
    dropLocalTables();
    saveState(previousState == null || previousState.getProperty("mirrorIndexes") == null ? null
        : keepOnly(previousState, "mirrorIndexes"));
    List<UpstreamTable> mirrored = new ArrayList<>();
    for (UpstreamTable t : current) {
      upstreamTables.put(t.name(), t);
      String reason = mirrorable(t);
      if (reason != null) {
        tables.put(t.name(), new TableStatus(t.name(), TableState.NOT_MIRRORED, reason, 0, 0));
        LOG.info("table {} is not mirrored: {}", t.qualifiedName(), reason);
      } else {
        mirrored.add(t);
        tables.put(t.name(), new TableStatus(t.name(), TableState.SNAPSHOTTING, null, 0, t.estimatedRows()));
      }
    }
    try (Statement s = admin.createStatement()) {
      dropSlot(s);
      s.execute("DROP PUBLICATION IF EXISTS " + config.publicationName());
      String list = mirrored.stream().map(UpstreamTable::qualifiedName).collect(Collectors.joining(", "));
      // an empty publication still streams the mirror's own position messages
      s.execute("CREATE PUBLICATION " + config.publicationName() + (list.isEmpty() ? "" : " FOR TABLE " + list));
    } catch (SQLException e) {
      throw Upstream.failure("cannot set up the publication " + config.publicationName()
          + " (the mirror's user must own the mirrored tables or be a superuser)", e);
    }
    createLocal(mirrored);
    Connection replication = connect(true);
    long consistentPoint;
    try {
      ReplicationSlotInfo slot;
      try {
        slot = replication.unwrap(PGConnection.class).getReplicationAPI().createReplicationSlot().logical()
            .withSlotName(config.slotName()).withOutputPlugin("pgoutput").make();
      } catch (SQLException e) {
        throw Upstream.failure("cannot create the replication slot " + config.slotName()
            + " (the mirror's user needs the REPLICATION attribute, and max_replication_slots a free slot)", e);
      }
      consistentPoint = slot.getConsistentPoint().asLong();
      copyTables(mirrored, slot.getSnapshotName(), replication);
    } finally {
      try {
        replication.close();
      } catch (SQLException ignored) {
        // the slot outlives the connection
      }
    }
    position = consistentPoint;
    skipUntil.clear();
    Properties state = new Properties();
    if (previousState != null && previousState.getProperty("mirrorIndexes") != null) {
      state.setProperty("mirrorIndexes", previousState.getProperty("mirrorIndexes"));
    }
    for (UpstreamTable t : mirrored) {
      analyzeAndRestoreIndexes(t, state);
      TableStatus s = tables.get(t.name());
      tables.put(t.name(), new TableStatus(t.name(), TableState.ONLINE, null, s.rowsDone(), s.rowsDone()));
    }
    state.setProperty("snapshot", "done");
    state.setProperty("slot", config.slotName());
    state.setProperty("position", Long.toString(consistentPoint));
    try {
      database.store().db().delete(database.store().meta(), database.store().writeOptions(), POSITION_KEY);
    } catch (RocksDBException e) {
      throw new AccelException(SqlState.IO_ERROR, "cannot reset the mirror's position: " + e.getMessage(), e);
    }
    state.setProperty("tables", signature(current));
    saveState(state);
    LOG.info("mirror of {}: snapshot of {} tables ({} rows) in {} ms, streaming from {}", config.describe(),
        mirrored.size(), tables.values().stream().mapToLong(TableStatus::rowsDone).sum(),
        (System.nanoTime() - t0) / 1_000_000, lsnText(consistentPoint));
  }

  /** Creates the (empty) local tables and their indexes: the loader writes their rows and entries. */
  private void createLocal(List<UpstreamTable> mirrored) {
    for (UpstreamTable t : mirrored) {
      try (Result r = session.execute(this, t.createTableSql())) {
        // created
      }
      for (UpstreamTable.Index index : t.indexes()) {
        try (Result r = session.execute(this, t.createIndexSql(index))) {
          // created on the empty table
        }
      }
    }
  }

  /** After a table's copy: its statistics, and the mirror-only indexes ({@code state}'s) defined on it. */
  private void analyzeAndRestoreIndexes(UpstreamTable t, Properties state) {
    try (Result r = session.execute(this, "ANALYZE " + UpstreamTable.quote(t.name()))) {
      // statistics for the planner
    }
    java.util.regex.Pattern on = java.util.regex.Pattern.compile("(?is)\\bON\\s+(\"" + java.util.regex.Pattern.quote(
        t.name()) + "\"|" + java.util.regex.Pattern.quote(t.name()) + ")\\s*\\(");
    for (String ddl : mirrorIndexes(state)) {
      if (on.matcher(ddl).find()) {
        try (Result r = session.execute(this, ddl)) {
          // rebuilt over the new rows
        } catch (AccelException e) {
          LOG.warn("mirror-only index not rebuilt ({}): {}", ddl, e.getMessage());
        }
      }
    }
  }

  /** Copies the tables, two at a time, each through its own connection that imported the exported snapshot. */
  private void copyTables(List<UpstreamTable> mirrored, String snapshotName, Connection holder) {
    ExecutorService pool = Executors.newFixedThreadPool(COPY_THREADS);
    List<Connection> connections = new ArrayList<>();
    try {
      Map<SnapshotLoader, List<Future<?>>> done = new LinkedHashMap<>();
      for (UpstreamTable t : mirrored) {
        TableDef def = database.catalog().table(t.name()).orElseThrow();
        SnapshotLoader loader = new SnapshotLoader(database, def, t);
        List<String> parts;
        Connection first = importedConnection(snapshotName, connections);
        try {
          // a table of more than a million rows (system property accel.snapshot.splitRows) is copied in key
          // ranges, on as many connections
          parts = t.estimatedRows() > Long.getLong("accel.snapshot.splitRows", 1_000_000)
              ? loader.parts(first, COPY_THREADS) : java.util.Collections.singletonList(null);
        } catch (SQLException e) {
          throw Upstream.failure("cannot split " + t.qualifiedName() + " for the snapshot", e);
        }
        if (parts.size() > 1) {
          LOG.info("copying {} in {} key ranges at once: {}", t.qualifiedName(), parts.size(), parts);
        }
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
          Connection c = i == 0 ? first : importedConnection(snapshotName, connections);
          String where = parts.get(i);
          futures.add(pool.submit(() -> {
            var progress = timer.scheduleAtFixedRate(() -> progress(t, loader), 1, 1, TimeUnit.SECONDS);
            try {
              loader.load(c, where);
              c.commit();
              progress(t, loader);
              return null;
            } finally {
              progress.cancel(false);
            }
          }));
        }
        done.put(loader, futures);
      }
      for (Map.Entry<SnapshotLoader, List<Future<?>>> e : done.entrySet()) {
        for (Future<?> f : e.getValue()) {
          await(f);
        }
        try {
          e.getKey().finish();
        } catch (RocksDBException x) {
          throw new AccelException(SqlState.IO_ERROR, "the snapshot failed: " + x.getMessage(), x);
        }
      }
    } finally {
      pool.shutdownNow();
      for (Connection c : connections) {
        closeQuietly(c);
      }
    }
  }

  /** Tables copied at once (and parts of a large table). */
  private static final int COPY_THREADS = 2;

  /** A new upstream connection whose transaction reads the exported snapshot (imported before the slot's closes). */
  private Connection importedConnection(String snapshotName, List<Connection> connections) {
    Connection c = connect(false);
    connections.add(c);
    try {
      SnapshotLoader.importSnapshot(c, snapshotName);
    } catch (SQLException e) {
      throw Upstream.failure("cannot import the snapshot " + snapshotName, e);
    }
    return c;
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SQLException s) {
        throw Upstream.failure("the snapshot failed", s);
      }
      throw new AccelException(SqlState.INTERNAL_ERROR, "the snapshot failed: " + cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AccelException(SqlState.QUERY_CANCELED, "the snapshot was interrupted");
    }
  }

  private void progress(UpstreamTable t, SnapshotLoader loader) {
    long done = loader.rowsDone.get();
    tables.put(t.name(), new TableStatus(t.name(), TableState.SNAPSHOTTING, null, done, Math.max(done,
        t.estimatedRows())));
    LOG.info("snapshot of {}: {} of about {} rows", t.qualifiedName(), done, Math.max(done, t.estimatedRows()));
  }

  private void dropLocalTables() {
    for (TableDef t : List.copyOf(database.catalog().tables())) {
      try (Result r = session.execute(this, "DROP TABLE " + UpstreamTable.quote(t.name()))) {
        // the store holds only the mirror's tables
      }
    }
  }

  private void startStream() {
    stream = new ChangeStream(this);
    stream.start();
  }

  /** Called by the stream when it stops with an error: retried with backoff, or a new snapshot if the slot is gone. */
  private final java.util.concurrent.atomic.AtomicInteger consecutiveFailures =
      new java.util.concurrent.atomic.AtomicInteger();

  void streamFailed(Throwable error) {
    if (closed) {
      return;
    }
    streamError = error == null ? "stopped" : String.valueOf(error.getMessage());
    // 0.5 s, 1 s, 2 s, ... up to 30 s between attempts; back to 0.5 s once the stream moves again
    long delay = Math.min(30_000L, 500L << Math.min(consecutiveFailures.getAndIncrement(), 6));
    LOG.warn("change stream of {} stopped: {}; retrying in {} ms", config.describe(), streamError, delay);
    timer.schedule(this::restartStream, delay, TimeUnit.MILLISECONDS);
  }

  private void restartStream() {
    synchronized (restartLock) {
      restartStreamLocked();
    }
  }

  private void restartStreamLocked() {
    if (closed) {
      return;
    }
    try {
      if (stream != null) {
        stream.close();
      }
      if (admin == null || !admin.isValid(2)) {
        closeQuietly(admin);
        admin = connect(false);
      }
      Properties state = loadState();
      List<UpstreamTable> current = readUpstreamTables();
      if (state == null || !resumable(state, current)) {
        tables.replaceAll((k, s) -> s.state() == TableState.ONLINE
            ? new TableStatus(k, TableState.OFFLINE, "taking a new snapshot", 0, s.rowsEstimated()) : s);
        snapshot(current);
        schemaSignature = schemaSignature();
      }
      streamError = null;
      startStream();
    } catch (RuntimeException | SQLException e) {
      streamFailed(e);
    }
  }

  /** Emits a position message, records the lag, and checks the mirrored tables' schema. */
  private void heartbeat() {
    if (closed) {
      return;
    }
    try {
      syncPoint();
      if (schemaSignature() != schemaSignature) {
        checkSchema();
      }
    } catch (RuntimeException e) {
      lastEmitFailure = lastEmitFailure == 0 ? System.currentTimeMillis() : lastEmitFailure;
    }
  }

  /**
   * A change of {@code table} the stream met (a row of other columns): the table goes offline at once (its reads
   * go upstream, its changes are skipped) until it has been copied again.
   */
  void tableChanged(String table, String why) {
    TableStatus s = tables.get(table);
    if (s != null && s.state() == TableState.ONLINE) {
      tables.put(table, new TableStatus(table, TableState.OFFLINE, why + "; copying it again", 0, s.rowsEstimated()));
    }
    timer.execute(this::reconcile);
  }

  /**
   * Compares the upstream's tables with the mirror's now (after DDL that passed through Accel, or when the heartbeat
   * saw the catalog change): a changed table goes offline at once, a dropped one is removed; then, in the
   * background, changed and new tables are copied again on their own ({@link #reconcile}).
   */
  public void checkSchema() {
    List<UpstreamTable> current;
    synchronized (syncLock) {
      try {
        current = readUpstreamTables(syncConnection());
      } catch (AccelException e) {
        dropSync();
        throw e;
      }
    }
    Map<String, UpstreamTable> now = new LinkedHashMap<>();
    current.forEach(t -> now.put(t.name(), t));
    boolean changed = false;
    for (Map.Entry<String, UpstreamTable> e : upstreamTables.entrySet()) {
      UpstreamTable after = now.get(e.getKey());
      if (after == null || !sameDefinition(after, e.getValue())) {
        changed = true;
        TableStatus s = tables.get(e.getKey());
        if (s != null && s.state() != TableState.NOT_MIRRORED) {
          tables.put(e.getKey(), new TableStatus(e.getKey(), TableState.OFFLINE, after == null ? "dropped upstream"
              : "its definition changed upstream; copying it again", 0, s.rowsEstimated()));
        }
      }
    }
    changed |= !upstreamTables.keySet().containsAll(now.keySet());
    if (changed) {
      timer.execute(this::reconcile);
    } else {
      schemaSignature = schemaSignature();
    }
  }

  /**
   * Brings the mirror's tables in line with the upstream's, table by table, while the stream waits: the
   * publication is set to the mirrorable tables, a temporary slot exports a snapshot and its consistent point C,
   * each changed or new table is dropped, created and copied at that snapshot, and the stream skips that table's
   * changes committed at or before C (the copy holds them); dropped tables go. The skip points are stored with the
   * state, so a restart skips the same changes.
   */
  private void reconcile() {
    synchronized (restartLock) {
      if (closed) {
        return;
      }
      RuntimeException failure = null;
      for (int attempt = 0; attempt < 3 && !closed; attempt++) {
        try {
          reconcileLocked();
          return;
        } catch (RuntimeException e) {
          // most often DDL racing with the copy (a table dropped meanwhile): look at the catalog again
          failure = e;
        }
      }
      if (!closed) {
        LOG.warn("mirror of {}: could not bring its tables up to date ({}); taking a new snapshot",
            config.describe(), failure.getMessage());
        Properties state = loadState();
        saveState(state == null || state.getProperty("mirrorIndexes") == null ? null
            : keepOnly(state, "mirrorIndexes"));
        timer.execute(this::restartStream);
      }
    }
  }

  private void reconcileLocked() {
    if (loadState() == null) {
      return; // a new snapshot of everything is under way or due
    }
    long expectedSignature = schemaSignature();
    List<UpstreamTable> current = readUpstreamTables();
    Map<String, UpstreamTable> now = new LinkedHashMap<>();
    current.forEach(t -> now.put(t.name(), t));
    List<UpstreamTable> copy = new ArrayList<>();
    List<String> drop = new ArrayList<>();
    for (String name : upstreamTables.keySet()) {
      UpstreamTable after = now.get(name);
      if (after == null || !sameDefinition(after, upstreamTables.get(name))
          || tables.get(name) != null && (tables.get(name).state() == TableState.OFFLINE
              || tables.get(name).state() == TableState.SNAPSHOTTING)) {
        drop.add(name);
      }
    }
    for (UpstreamTable t : current) {
      if (!upstreamTables.containsKey(t.name()) || drop.contains(t.name())) {
        copy.add(t);
      }
    }
    if (copy.isEmpty() && drop.isEmpty()) {
      schemaSignature = expectedSignature;
      return;
    }
    long t0 = System.nanoTime();
    synchronized (ChangeStream.APPLY) {
      for (String name : drop) {
        if (database.catalog().table(name).isPresent()) {
          try (Result r = session.execute(this, "DROP TABLE " + UpstreamTable.quote(name))) {
            // copied again below if it still exists
          }
        }
        upstreamTables.remove(name);
        tables.remove(name);
        skipUntil.remove(name);
      }
      List<UpstreamTable> mirrored = new ArrayList<>();
      for (UpstreamTable t : copy) {
        upstreamTables.put(t.name(), t);
        String reason = mirrorable(t);
        if (reason == null) {
          mirrored.add(t);
          tables.put(t.name(), new TableStatus(t.name(), TableState.SNAPSHOTTING, null, 0, t.estimatedRows()));
        } else {
          tables.put(t.name(), new TableStatus(t.name(), TableState.NOT_MIRRORED, reason, 0, 0));
        }
      }
      try (Statement s = admin.createStatement()) {
        String list = upstreamTables.values().stream().filter(t -> mirrorable(t) == null)
            .map(UpstreamTable::qualifiedName).collect(Collectors.joining(", "));
        // the stream sees the tables' changes from here on; the copy below starts after this
        s.execute(list.isEmpty() ? "DROP PUBLICATION IF EXISTS " + config.publicationName() + "; CREATE PUBLICATION "
            + config.publicationName() : "ALTER PUBLICATION " + config.publicationName() + " SET TABLE " + list);
      } catch (SQLException e) {
        throw Upstream.failure("cannot change the publication " + config.publicationName(), e);
      }
      createLocal(mirrored);
      Connection replication = connect(true);
      long consistentPoint;
      try {
        ReplicationSlotInfo slot = replication.unwrap(PGConnection.class).getReplicationAPI().createReplicationSlot()
            .logical().withSlotName(config.slotName() + "_copy").withOutputPlugin("pgoutput").withTemporaryOption()
            .make();
        consistentPoint = slot.getConsistentPoint().asLong();
        copyTables(mirrored, slot.getSnapshotName(), replication);
      } catch (SQLException e) {
        throw Upstream.failure("cannot copy the changed tables", e);
      } finally {
        closeQuietly(replication);
      }
      Properties state = loadState();
      for (UpstreamTable t : mirrored) {
        skipUntil.put(t.name(), consistentPoint);
        state.setProperty("skip." + t.name(), Long.toString(consistentPoint));
        analyzeAndRestoreIndexes(t, state);
      }
      for (String name : drop) {
        if (!now.containsKey(name)) {
          state.remove("skip." + name);
        }
      }
      state.setProperty("tables", signature(List.copyOf(upstreamTables.values())));
      saveState(state);
      for (UpstreamTable t : mirrored) {
        TableStatus s = tables.get(t.name());
        tables.put(t.name(), new TableStatus(t.name(), TableState.ONLINE, null, s.rowsDone(), s.rowsDone()));
      }
    }
    schemaSignature = expectedSignature;
    LOG.info("mirror of {}: {} tables copied again, {} removed, in {} ms", config.describe(), copy.size(),
        drop.stream().filter(n -> !now.containsKey(n)).count(), (System.nanoTime() - t0) / 1_000_000);
  }

  /** Whether the stream applies a change of {@code table} committed at {@code commitLsn}. */
  boolean applies(String table, long commitLsn) {
    TableStatus s = tables.get(table);
    return s != null && s.state() == TableState.ONLINE && commitLsn > skipUntil.getOrDefault(table, 0L);
  }

  private long schemaSignature() {
    synchronized (syncLock) {
      return schemaSignatureLocked();
    }
  }

  private long schemaSignatureLocked() {
    try (Statement s = syncConnection().createStatement(); ResultSet rs = s.executeQuery("""
        SELECT coalesce(sum(hashtext(c.oid::text || a.attnum || a.attname || a.atttypid || a.atttypmod
                 || a.attnotnull || a.attisdropped)), 0) + count(*)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
        WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY (current_schemas(false))""")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      dropSync();
      throw Upstream.failure("cannot read the upstream's catalog", e);
    }
  }

  private Connection syncConnection() {
    if (sync == null) {
      Connection c = connect(false);
      try (Statement s = c.createStatement()) {
        // a position message's commit flushes the WAL, so the stream sees it now, not at the WAL writer's next round
        s.execute("SET synchronous_commit = on");
      } catch (SQLException e) {
        closeQuietly(c);
        throw Upstream.failure("cannot set up the mirror's connection", e);
      }
      sync = c;
    }
    return sync;
  }

  private void dropSync() {
    closeQuietly(sync);
    sync = null;
  }

  /**
   * A position after every upstream commit that has completed by now: a logical decoding message is emitted (in a
   * transaction of its own, committed synchronously so that the WAL holding it is flushed and streamed at once) and
   * its LSN returned; once the mirror has seen it, it has applied every transaction committed before.
   */
  public long syncPoint() {
    synchronized (syncLock) {
      return syncPointLocked();
    }
  }

  private long syncPointLocked() {
    long started = System.nanoTime();
    long sent = System.currentTimeMillis();
    try (PreparedStatement ps = syncConnection().prepareStatement("SELECT pg_logical_emit_message(true, ?, ?)::text")) {
      ps.setString(1, MESSAGE_PREFIX);
      ps.setString(2, Long.toString(sent));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long lsn = parseLsn(rs.getString(1));
        if (lsn > position) {
          pendingMessages.put(lsn, sent);
        }
        lastEmitFailure = 0;
        lastEmitted = new long[] {started, lsn};
        return lsn;
      }
    } catch (SQLException e) {
      dropSync();
      throw Upstream.failure("cannot reach the upstream", e);
    }
  }

  private final ExecutorService syncExecutor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "accel-sync");
    t.setDaemon(true);
    return t;
  });
  /** The last position message emitted (on request or by the heartbeat): when it was started (nanoTime), its LSN. */
  private volatile long[] lastEmitted = {Long.MIN_VALUE, 0};

  /**
   * A sync point taken in the background, after the call: an emission that started after the request (the next
   * one, or a heartbeat's) serves it, so requests made while one is emitted share the following one.
   */
  public java.util.concurrent.CompletableFuture<Long> requestSyncPoint() {
    long requested = System.nanoTime();
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      long[] last = lastEmitted;
      return last[0] >= requested ? last[1] : syncPoint();
    }, syncExecutor);
  }

  /** Waits until the mirror has applied everything before {@code lsn}; false if {@code timeoutMillis} passed first. */
  public boolean awaitPosition(long lsn, long timeoutMillis) {
    if (position >= lsn) {
      return true;
    }
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    synchronized (positionMonitor) {
      while (position < lsn) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          positionMonitor.wait(Math.max(1, left / 1_000_000L), (int) (left % 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  private volatile long catchUpTo = Long.MAX_VALUE;

  /** Whether the mirror has applied everything the upstream had committed when it started. */
  public boolean caughtUp() {
    return position >= catchUpTo;
  }

  /** How far the mirror has caught up (an upstream LSN). */
  public long position() {
    return position;
  }

  void advance(long lsn) {
    if (lsn <= position) {
      return;
    }
    consecutiveFailures.set(0);
    synchronized (positionMonitor) {
      position = lsn;
      positionMonitor.notifyAll();
    }
    pendingMessages.headMap(lsn, true).clear();
  }

  /** Milliseconds the mirror is behind: since the oldest position message not seen back yet was sent. */
  public long lagMillis() {
    long now = System.currentTimeMillis();
    var oldest = pendingMessages.firstEntry();
    long lag = oldest == null ? 0 : now - oldest.getValue();
    if (lastEmitFailure != 0) {
      // the upstream cannot be asked: the mirror is at least as old as the first failed attempt
      lag = Math.max(lag, now - lastEmitFailure);
    }
    return lag;
  }

  private double lagBytes() {
    var newest = pendingMessages.lastEntry();
    return newest == null ? 0 : Math.max(0, newest.getKey() - position);
  }

  public TableStatus status(String table) {
    return tables.get(table);
  }

  public List<TableStatus> tableStatuses() {
    return tables.values().stream().sorted(java.util.Comparator.comparing(TableStatus::name)).toList();
  }

  /**
   * Where each column of a query the mirror answers comes from upstream (the upstream's table OID and column
   * number, as its own RowDescription would say), for a statement whose description did not come from upstream.
   */
  public List<io.accel.exec.ColumnOrigin> upstreamOrigins(List<org.apache.calcite.avatica.ColumnMetaData> columns) {
    List<io.accel.exec.ColumnOrigin> origins = new java.util.ArrayList<>(columns.size());
    for (org.apache.calcite.avatica.ColumnMetaData c : columns) {
      UpstreamTable t = c.tableName == null || c.columnName == null ? null : upstreamTables.get(c.tableName);
      io.accel.exec.ColumnOrigin origin = io.accel.exec.ColumnOrigin.COMPUTED;
      if (t != null && io.accel.plan.AccelSchema.NAME.equals(c.schemaName)) {
        for (UpstreamTable.Column column : t.columns()) {
          if (column.name().equals(c.columnName)) {
            origin = new io.accel.exec.ColumnOrigin((int) t.oid(), (short) column.attnum());
            break;
          }
        }
      }
      origins.add(origin);
    }
    return origins;
  }

  /** The upstream description of a mirrored table (by local name), or null. */
  public UpstreamTable upstreamTable(String name) {
    return upstreamTables.get(name);
  }

  /** Status in rows of (name, value), as SHOW ACCEL STATUS shows it. */
  public Map<String, String> statusValues() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("mode", "fronting");
    m.put("upstream", config.describe());
    m.put("mirror", config.mirrorDir().toString());
    m.put("replication slot", config.slotName());
    m.put("publication", config.publicationName());
    m.put("replication", streamError != null ? "reconnecting: " + streamError
        : caughtUp() ? "streaming" : "catching up");
    m.put("position", lsnText(position));
    m.put("lag (ms)", Long.toString(lagMillis()));
    m.put("slot retains (bytes)", slotRetained());
    m.put("transactions applied", Long.toString(transactionsApplied.get()));
    m.put("statements run locally", Long.toString(routedLocal.get()));
    m.put("statements sent upstream", Long.toString(routedUpstream.get()));
    m.put("tables online", Long.toString(tables.values().stream().filter(t -> t.state() == TableState.ONLINE).count()));
    m.putAll(io.accel.exec.AccelStatus.storeValues(database));
    m.put("uptime (s)", Long.toString((System.currentTimeMillis() - startedAt) / 1000));
    return m;
  }

  /** SHOW ACCEL TABLES: every upstream table the mirror knows, with its state (snapshot progress) and why. */
  public List<String[]> tableRows() {
    List<String[]> rows = new ArrayList<>();
    for (TableStatus s : tableStatuses()) {
      String state = s.state().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
      if (s.state() == TableState.SNAPSHOTTING) {
        state += " (" + s.rowsDone() + " of about " + s.rowsEstimated() + " rows)";
      }
      rows.add(io.accel.exec.AccelStatus.tableRow(s.name(), state, s.reason()));
    }
    return rows;
  }

  public ProxiedQueries proxied() {
    return proxied;
  }

  public Privileges privileges() {
    return privileges;
  }

  private boolean upstreamMaySelect(String user, String table) {
    UpstreamTable t = upstreamTables.get(table);
    if (t == null) {
      return false;
    }
    synchronized (syncLock) {
      try (PreparedStatement ps = syncConnection().prepareStatement("""
          SELECT has_table_privilege(?, c.oid, 'SELECT') OR NOT EXISTS (
                   SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                     AND NOT has_column_privilege(?, c.oid, a.attnum, 'SELECT'))
          FROM pg_class c WHERE c.oid = ?""")) {
        ps.setString(1, user);
        ps.setString(2, user);
        ps.setLong(3, t.oid());
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() && rs.getBoolean(1);
        }
      } catch (SQLException e) {
        if (!"42704".equals(e.getSQLState())) {
          dropSync();
        }
        return false;
      }
    }
  }

  /**
   * Creates or drops an index of the mirror only ({@code CREATE INDEX ...} or {@code DROP INDEX ...} in Accel's
   * SQL): the upstream is not touched; the index is remembered and rebuilt after a new snapshot.
   */
  void mirrorIndex(String ddl) {
    synchronized (ChangeStream.APPLY) {
      try (Result r = session.execute(this, ddl)) {
        // done
      }
      Properties state = loadState();
      if (state != null) {
        List<String> indexes = new ArrayList<>(mirrorIndexes(state));
        String name = indexName(ddl);
        indexes.removeIf(i -> indexName(i).equals(name));
        if (ddl.stripLeading().toUpperCase(java.util.Locale.ROOT).startsWith("CREATE")) {
          indexes.add(ddl);
        }
        state.setProperty("mirrorIndexes", String.join("\n", indexes));
        saveState(state);
      }
    }
  }

  private static List<String> mirrorIndexes(Properties state) {
    String list = state.getProperty("mirrorIndexes", "");
    return list.isBlank() ? List.of() : List.of(list.split("\n"));
  }

  private static String indexName(String ddl) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "(?is)^\\s*(?:CREATE\\s+(?:UNIQUE\\s+)?|DROP\\s+)INDEX\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(\"[^\"]+\"|\\S+)")
        .matcher(ddl);
    return m.find() ? m.group(1).replace("\"", "").toLowerCase(java.util.Locale.ROOT) : ddl;
  }

  /** How much WAL the slot makes the upstream keep: a stopped mirror's slot keeps growing it. */
  private String slotRetained() {
    synchronized (syncLock) {
      try (PreparedStatement ps = syncConnection().prepareStatement(
          "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint FROM pg_replication_slots"
              + " WHERE slot_name = ?")) {
        ps.setString(1, config.slotName());
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? Long.toString(rs.getLong(1)) : "no slot";
        }
      } catch (SQLException | AccelException e) {
        if (e instanceof SQLException) {
          dropSync();
        }
        return "unknown: " + e.getMessage();
      }
    }
  }

  /**
   * The statement {@code DROP ACCEL MIRROR}: removes the mirror for good, with its slot and publication upstream,
   * when no other connection uses it; its tables then read upstream.
   */
  void dropByCommand() {
    if (Mirrors.references(this) > 1) {
      throw new AccelException(SqlState.OBJECT_IN_USE, "the mirror of " + config.describe()
          + " is used by other connections; close them first");
    }
    drop();
    tables.replaceAll((k, s) -> new TableStatus(k, TableState.OFFLINE, "the mirror was dropped", 0, 0));
  }

  private final java.util.concurrent.atomic.AtomicLong routedLocal = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong routedUpstream = new java.util.concurrent.atomic.AtomicLong();

  void countRoute(boolean local) {
    (local ? routedLocal : routedUpstream).incrementAndGet();
  }

  void countTransaction() {
    transactionsApplied.incrementAndGet();
  }

  Session applySession() {
    return session;
  }

  boolean isClosed() {
    return closed;
  }

  private Properties loadState() {
    try {
      byte[] bytes = database.store().db().get(database.store().meta(), STATE_KEY);
      if (bytes == null) {
        return null;
      }
      Properties p = new Properties();
      p.load(new ByteArrayInputStream(bytes));
      return p;
    } catch (RocksDBException | IOException e) {
      throw new AccelException(SqlState.IO_ERROR, "cannot read the mirror's state: " + e.getMessage(), e);
    }
  }

  private void saveState(Properties state) {
    try {
      if (state == null) {
        database.store().db().delete(database.store().meta(), database.store().writeOptions(), STATE_KEY);
      } else {
        database.store().db().put(database.store().meta(), database.store().writeOptions(), STATE_KEY,
            stateBytes(state));
      }
    } catch (RocksDBException e) {
      throw new AccelException(SqlState.IO_ERROR, "cannot write the mirror's state: " + e.getMessage(), e);
    }
  }

  /** The key of the position the mirror has applied up to, written in the same batch as each transaction. */
  static final byte[] POSITION_KEY = "upstream/position".getBytes(StandardCharsets.UTF_8);

  static byte[] positionBytes(long lsn) {
    return java.nio.ByteBuffer.allocate(8).putLong(lsn).array();
  }

  /** The stored position: the one the stream last wrote, else the snapshot's. */
  private long storedPosition(Properties state) {
    try {
      byte[] b = database.store().db().get(database.store().meta(), POSITION_KEY);
      long streamed = b == null ? Long.MIN_VALUE : java.nio.ByteBuffer.wrap(b).getLong();
      return Math.max(streamed, Long.parseLong(state.getProperty("position")));
    } catch (RocksDBException e) {
      throw new AccelException(SqlState.IO_ERROR, "cannot read the mirror's position: " + e.getMessage(), e);
    }
  }

  private static Properties keepOnly(Properties p, String name) {
    Properties kept = new Properties();
    kept.setProperty(name, p.getProperty(name));
    return kept;
  }

  private static byte[] stateBytes(Properties p) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      p.store(out, null);
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static long parseLsn(String text) {
    int slash = text.indexOf('/');
    return (Long.parseLong(text.substring(0, slash), 16) << 32) | Long.parseLong(text.substring(slash + 1), 16);
  }

  static String lsnText(long lsn) {
    return Long.toHexString(lsn >>> 32).toUpperCase() + "/" + Long.toHexString(lsn & 0xffffffffL).toUpperCase();
  }

  /**
   * Removes the mirror for good: stops it, drops its replication slot and publication upstream (the slot makes
   * the upstream keep WAL for it), and deletes the local store's tables.
   */
  public void drop() {
    closeStreamAndTimer();
    try (Statement s = admin.createStatement()) {
      dropSlot(s);
      s.execute("DROP PUBLICATION IF EXISTS " + config.publicationName());
    } catch (SQLException e) {
      throw Upstream.failure("cannot drop the mirror's slot and publication", e);
    }
    dropLocalTables();
    saveState(null);
  }

  /** Drops the mirror's slot if it exists; a stream that just stopped may hold it for a moment. */
  private void dropSlot(Statement s) throws SQLException {
    for (int attempt = 0; ; attempt++) {
      try {
        s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
            + config.slotName() + "'");
        return;
      } catch (SQLException e) {
        if (!"55006".equals(e.getSQLState()) || attempt >= 100) {
          throw e;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /**
   * An application that ends without closing its connections leaves only the change stream's threads, which are
   * not daemons: the mirror then closes (as its last connection would close it) so that the JVM exits, as it
   * does with pgJDBC alone.
   */
  private void closeIfTheApplicationEnded() {
    if (!closed && ChangeStream.onlyStreamThreadsLeft()) {
      LOG.info("the application's threads have ended with connections to {} open: the mirror closes",
          config.describe());
      Thread t = new Thread(() -> Mirrors.abandon(this), "accel-mirror-exit");
      t.setDaemon(true);
      t.start();
    }
  }

  private void closeStreamAndTimer() {
    closed = true;
    syncExecutor.shutdownNow();
    timer.shutdownNow();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (restartLock) {
      if (stream != null) {
        stream.close();
        stream = null;
      }
    }
  }

  @Override
  public void close() {
    closeStreamAndTimer();
    closeQuietly(admin);
    synchronized (syncLock) {
      dropSync();
    }
    session.close();
    database.frontedBy(null);
    StoreRegistry.release(database);
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing
      }
    }
  }
}
