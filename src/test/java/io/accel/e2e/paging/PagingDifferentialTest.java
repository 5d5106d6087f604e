package io.accel.e2e.paging;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.e2e.Services;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Paging through the cursor cache returns what PostgreSQL returns and what Accel returns with the cache off
 * ({@code cursorCacheSize=0}), page after page, while a writer inserts, deletes and updates rows between the
 * pages (each write applied to both databases): LIMIT/OFFSET walks over several kinds at once, and keyset
 * pages by {@code (kind, id) > (?, ?)}.
 */
class PagingDifferentialTest {
  private static final String PAGE = "SELECT id, kind, payload FROM ev WHERE kind = ? ORDER BY id LIMIT ? OFFSET ?";
  private static final String KEYSET =
      "SELECT id, kind, payload FROM ev WHERE (kind, id) > (?, ?) ORDER BY kind, id LIMIT ?";
  private static final String[] KINDS = {"click", "view", "search", "buy"};

  @Test
  void pagesEqualPostgresAndReExecutionUnderWrites() throws Exception {
    long seed = Long.getLong("seed", 20261125L);
    Random random = new Random(seed);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Metrics.globalRegistry.add(meters);
    String url = "jdbc:accel:mem:paging-diff-" + seed;
    try (Connection pg = Services.postgres(); Connection cached = DriverManager.getConnection(url);
        Connection plain = DriverManager.getConnection(url + "?cursorCacheSize=0");
        Connection writer = DriverManager.getConnection(url)) {
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS paging_diff CASCADE");
        s.execute("CREATE SCHEMA paging_diff");
        s.execute("SET search_path = paging_diff");
      }
      String ddl = "CREATE TABLE ev (id BIGINT PRIMARY KEY, kind VARCHAR(8) NOT NULL, payload VARCHAR(20))";
      both(writer, pg, ddl);
      both(writer, pg, "CREATE INDEX ev_kind ON ev (kind, id)");
      long nextId = 1;
      StringBuilder insert = new StringBuilder("INSERT INTO ev VALUES ");
      for (; nextId <= 3000; nextId++) {
        insert.append(nextId == 1 ? "" : ", ").append(row(nextId, random));
      }
      both(writer, pg, insert.toString());
      both(writer, pg, "ANALYZE ev");

      int[] offsets = new int[KINDS.length];
      Object[][] keyset = new Object[2][];
      keyset[0] = new Object[] {"buy", 0L};
      keyset[1] = new Object[] {"click", 1500L};
      int pages = 0;
      for (int step = 0; step < 600; step++) {
        int action = random.nextInt(10);
        if (action < 6) {
          int k = random.nextInt(KINDS.length);
          int size = 7 + random.nextInt(3) * 10;
          Object[] params = {KINDS[k], size, offsets[k]};
          List<List<Object>> expected = rows(pg, PAGE, params);
          assertThat(rows(cached, PAGE, params)).as("page %s of the walk, seed %d", List.of(params), seed)
              .isEqualTo(expected).isEqualTo(rows(plain, PAGE, params));
          offsets[k] = expected.size() < size ? 0 : offsets[k] + size;
          pages++;
        } else if (action < 8) {
          Object[] cursor = keyset[random.nextInt(2)];
          Object[] params = {cursor[0], cursor[1], 25};
          List<List<Object>> expected = rows(pg, KEYSET, params);
          assertThat(rows(cached, KEYSET, params)).as("keyset page after %s, seed %d", List.of(params), seed)
              .isEqualTo(expected);
          if (expected.isEmpty()) {
            cursor[0] = "buy";
            cursor[1] = 0L;
          } else {
            List<Object> last = expected.get(expected.size() - 1);
            cursor[0] = last.get(1);
            cursor[1] = ((Number) last.get(0)).longValue();
          }
        } else {
          String write = switch (random.nextInt(3)) {
            case 0 -> "INSERT INTO ev VALUES " + row(nextId++, random);
            case 1 -> "DELETE FROM ev WHERE id = " + (1 + random.nextInt((int) nextId));
            default -> "UPDATE ev SET payload = 'u" + random.nextInt(1000) + "' WHERE id = "
                + (1 + random.nextInt((int) nextId));
          };
          both(writer, pg, write);
        }
      }
      String store = url.substring("jdbc:accel:".length());
      double lookups = meters.get("accel.cursor.lookups").tag("store", store).counter().count();
      double misses = meters.get("accel.cursor.misses").tag("store", store).counter().count();
      double drops = meters.get("accel.cursor.drops").tag("store", store).counter().count();
      assertThat(pages).isGreaterThan(200);
      assertThat(lookups - misses).as("pages that resumed a suspended cursor").isGreaterThan(50);
      assertThat(drops).as("cursors dropped because a write touched the table").isPositive();
    } finally {
      Metrics.globalRegistry.remove(meters);
    }
  }

  private static String row(long id, Random random) {
    return "(" + id + ", '" + KINDS[random.nextInt(KINDS.length)] + "', " + (random.nextInt(8) == 0 ? "NULL"
        : "'p" + random.nextInt(100000) + "'") + ")";
  }

  private static void both(Connection accel, Connection pg, String sql) throws SQLException {
    try (Statement a = accel.createStatement(); Statement p = pg.createStatement()) {
      a.execute(sql);
      p.execute(sql);
    }
  }

  private static List<List<Object>> rows(Connection c, String sql, Object[] params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      List<List<Object>> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(List.of(rs.getLong(1), rs.getString(2), String.valueOf(rs.getString(3))));
        }
      }
      return out;
    }
  }
}
