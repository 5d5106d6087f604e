package io.accel.bench.fronting;

import io.accel.bench.workload.Lineitem;
import io.accel.bench.workload.LineitemData;
import io.accel.storage.StoreOptions;
import io.accel.upstream.Mirror;
import io.accel.upstream.Mirrors;
import io.accel.upstream.UpstreamConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.postgresql.PGConnection;

/**
 * The mirror's initial snapshot against PostgreSQL's own COPY of the same rows: {@code target=accel} takes a new
 * mirror of the lineitem schema (slot, exported snapshot, COPY out, decode, sorted runs ingested as table files,
 * ANALYZE); {@code target=postgres} loads the same rows with {@code COPY FROM STDIN} into an empty copy of the
 * table with the same indexes ({@code CREATE TABLE ... (LIKE lineitem INCLUDING ALL)}), from a file COPY wrote
 * once in the setup. One shot per iteration.
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar org.openjdk.jmh.Main SnapshotBenchmark -p sf=1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 0)
@Measurement(iterations = 2)
public class SnapshotBenchmark {
  @Param({"1"})
  public String sf;

  @Param({"accel", "postgres"})
  public String target;

  private String schema;
  private Path copyFile;
  private Connection pg;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Upstream.useForWorkloads();
    Lineitem w = new Lineitem(sf);
    schema = LineitemData.postgresSchema(w);
    LineitemData.ensurePostgres(w, System.out);
    pg = Upstream.postgres(schema);
    if (target.equals("postgres")) {
      copyFile = Files.createTempFile("lineitem", ".copy");
      try (OutputStream out = Files.newOutputStream(copyFile)) {
        pg.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY lineitem TO STDOUT", out);
      }
    }
  }

  @Setup(Level.Iteration)
  public void empty() throws Exception {
    if (target.equals("accel")) {
      deleteMirror();
    } else {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP TABLE IF EXISTS lineitem_copy");
        s.execute("CREATE TABLE lineitem_copy (LIKE lineitem INCLUDING ALL)");
      }
    }
  }

  private void deleteMirror() throws IOException, SQLException {
    try (Statement s = pg.createStatement()) {
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name LIKE"
          + " 'accel_%' AND NOT active AND database = current_database()");
    }
    Path dir = Upstream.mirrorDir(schema + "-snapshot");
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Benchmark
  public long snapshot() throws Exception {
    if (target.equals("accel")) {
      Properties p = new Properties();
      p.setProperty("user", "postgres");
      p.setProperty("currentSchema", schema);
      p.setProperty("tables", "lineitem");
      p.setProperty("mirrorDir", Upstream.mirrorDir(schema + "-snapshot").toString());
      Mirror mirror = Mirrors.acquire(UpstreamConfig.parse("postgresql://" + Upstream.hostPortDb(), p),
          StoreOptions.DEFAULTS);
      long rows = mirror.tableStatuses().stream().mapToLong(Mirror.TableStatus::rowsDone).sum();
      Mirrors.release(mirror);
      return rows;
    }
    try (InputStream in = Files.newInputStream(copyFile)) {
      return pg.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY lineitem_copy FROM STDIN", in);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (target.equals("postgres")) {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP TABLE IF EXISTS lineitem_copy");
      }
      Files.deleteIfExists(copyFile);
    } else {
      deleteMirror();
    }
    pg.close();
  }
}
