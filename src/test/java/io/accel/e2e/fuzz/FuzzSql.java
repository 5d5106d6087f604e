package io.accel.e2e.fuzz;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

/**
 * The SQL the fuzz run sends, all over tables of one shape {@code (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL,
 * val VARCHAR(40))}: each worker's own table {@code own_<t>} and the tables {@code shared_<k>} that workers drop and
 * create again. Queries read through every access path (full scans, secondary index ranges, point gets, lookup and
 * hash joins, correlated sub-queries); DML and DDL other than CREATE/DROP INDEX and ANALYZE touch shared tables only,
 * so the rows of an own table are written by its owner alone.
 */
final class FuzzSql {
  static final int GROUPS = 10;
  static final int SHARED_TABLES = 2;
  static final int SHARED_IDS = 1_000;

  private FuzzSql() {
  }

  /** A statement text with {@code ?} parameters and how to bind them. */
  record Prepared(String sql, boolean query, Binder binder) {
  }

  interface Binder {
    void bind(PreparedStatement ps, Random rnd) throws SQLException;
  }

  static String ownTable(int thread) {
    return "own_" + thread;
  }

  static String sharedTable(int k) {
    return "shared_" + k;
  }

  static String createTable(String name) {
    return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val VARCHAR(40))";
  }

  /** Fills a shared table with rows of the same ids and groups as {@code from}'s initial rows, untagged. */
  static String fillShared(String table, String from) {
    return "INSERT INTO " + table + " SELECT id, grp, 's' || CAST(id AS VARCHAR) FROM " + from;
  }

  static String insertRow() {
    return "INSERT INTO %s (id, grp, val) VALUES (?, ?, ?)";
  }

  private static String pick(Random rnd, List<String> tables) {
    return tables.get(rnd.nextInt(tables.size()));
  }

  /** A query text with literals over one or two of {@code tables}. */
  static String query(Random rnd, List<String> tables) {
    String t = pick(rnd, tables);
    String u = pick(rnd, tables);
    int g = rnd.nextInt(GROUPS);
    int k = rnd.nextInt(SHARED_IDS);
    return switch (rnd.nextInt(11)) {
      case 0 -> "SELECT id, grp, val FROM " + t;
      case 1 -> "SELECT id, grp, val FROM " + t + " WHERE grp >= " + g / 3 + " ORDER BY grp, id";
      case 2 -> "SELECT id, grp, val FROM " + t + " WHERE grp BETWEEN " + g / 2 + " AND " + (g / 2 + 6);
      case 3 -> "SELECT id, grp, val FROM " + t + " WHERE id = " + k % 600;
      case 4 -> "SELECT a.id, a.val, b.val FROM " + t + " a JOIN " + u + " b ON a.id = b.id";
      case 5 -> "SELECT a.id, b.id, b.val FROM " + t + " a JOIN " + u + " b ON a.grp = b.grp WHERE a.id < " + k / 10;
      case 6 -> "SELECT grp, count(*), max(val) FROM " + t + " GROUP BY grp";
      case 7 -> "SELECT id, val FROM " + t + " WHERE grp = " + g + " AND id > " + k / 4 + " ORDER BY id DESC";
      case 8 -> "SELECT a.id, a.val FROM " + t + " a WHERE EXISTS (SELECT 1 FROM " + u
          + " b WHERE b.id = a.id AND b.grp = a.grp)";
      case 9 -> "SELECT id, grp, val FROM " + t + " ORDER BY id DESC";
      default -> "SELECT a.id, a.grp, b.val FROM " + t + " a LEFT JOIN " + u + " b ON b.id = a.id + 1 WHERE a.grp <> "
          + g;
    };
  }

  /** A query whose result has hundreds of rows: more than a query evaluates before its result set is read. */
  static String largeQuery(Random rnd, List<String> tables) {
    String t = pick(rnd, tables);
    String u = pick(rnd, tables);
    return switch (rnd.nextInt(4)) {
      case 0 -> "SELECT id, grp, val FROM " + t + " WHERE grp >= 0 ORDER BY grp, id";
      case 1 -> "SELECT id, grp, val FROM " + t;
      case 2 -> "SELECT a.id, a.val, b.val FROM " + t + " a JOIN " + u + " b ON a.id = b.id";
      default -> "SELECT a.id, b.id, b.val FROM " + t + " a JOIN " + u + " b ON a.grp = b.grp WHERE a.id < 40";
    };
  }

  /** A query with {@code ?} parameters over one or two of {@code tables}. */
  static Prepared preparedQuery(Random rnd, List<String> tables) {
    String t = pick(rnd, tables);
    String u = pick(rnd, tables);
    return switch (rnd.nextInt(4)) {
      case 0 -> new Prepared("SELECT id, grp, val FROM " + t + " WHERE grp >= ? ORDER BY grp, id", true,
          (ps, r) -> ps.setInt(1, r.nextInt(4)));
      case 1 -> new Prepared("SELECT id, grp, val FROM " + t + " WHERE grp BETWEEN ? AND ?", true,
          (ps, r) -> {
            int g = r.nextInt(GROUPS);
            ps.setInt(1, g / 2);
            ps.setInt(2, g / 2 + 5);
          });
      case 2 -> new Prepared("SELECT id, grp, val FROM " + t + " WHERE id = ?", true,
          (ps, r) -> ps.setInt(1, r.nextInt(600)));
      default -> new Prepared("SELECT a.id, b.id, b.val FROM " + t + " a JOIN " + u + " b ON a.grp = b.grp"
          + " WHERE a.id < ?", true, (ps, r) -> ps.setInt(1, r.nextInt(120)));
    };
  }

  /** An INSERT, UPDATE or DELETE with literals on a shared table; its val values never look like a tag. */
  static String sharedDml(Random rnd) {
    String t = sharedTable(rnd.nextInt(SHARED_TABLES));
    int k = rnd.nextInt(SHARED_IDS);
    int g = rnd.nextInt(GROUPS);
    String v = "'s" + rnd.nextInt(1000) + "'";
    return switch (rnd.nextInt(5)) {
      case 0 -> "INSERT INTO " + t + " (id, grp, val) VALUES (" + k + ", " + g + ", " + v + ")";
      case 1 -> "UPDATE " + t + " SET val = " + v + ", grp = " + g + " WHERE id = " + k;
      case 2 -> "UPDATE " + t + " SET val = " + v + " WHERE grp = " + g;
      case 3 -> "DELETE FROM " + t + " WHERE id BETWEEN " + k + " AND " + (k + 5);
      default -> "INSERT INTO " + t + " (id, grp, val) VALUES (" + k + ", " + g + ", " + v + "), (" + (k + 1) + ", "
          + (g + 1) % GROUPS + ", " + v + ")";
    };
  }

  /** A prepared INSERT, UPDATE or DELETE on a shared table. */
  static Prepared preparedSharedDml(Random rnd) {
    String t = sharedTable(rnd.nextInt(SHARED_TABLES));
    return switch (rnd.nextInt(3)) {
      case 0 -> new Prepared(String.format(insertRow(), t), false, (ps, r) -> {
        ps.setInt(1, r.nextInt(SHARED_IDS));
        ps.setInt(2, r.nextInt(GROUPS));
        ps.setString(3, "s" + r.nextInt(1000));
      });
      case 1 -> new Prepared("UPDATE " + t + " SET val = ? WHERE grp = ?", false, (ps, r) -> {
        ps.setString(1, "s" + r.nextInt(1000));
        ps.setInt(2, r.nextInt(GROUPS));
      });
      default -> new Prepared("DELETE FROM " + t + " WHERE id = ?", false,
          (ps, r) -> ps.setInt(1, r.nextInt(SHARED_IDS)));
    };
  }

  /** Transaction control as SQL text. */
  static String transactionControl(Random rnd) {
    return switch (rnd.nextInt(4)) {
      case 0 -> "BEGIN";
      case 1 -> "START TRANSACTION";
      case 2 -> "COMMIT";
      default -> "ROLLBACK";
    };
  }

  /**
   * DDL: shared tables are dropped (and created again by {@link #createTable} plus rows); any table gets indexes
   * created and dropped, and is analyzed.
   */
  static String ddl(Random rnd, List<String> tables) {
    String t = pick(rnd, tables);
    String s = sharedTable(rnd.nextInt(SHARED_TABLES));
    return switch (rnd.nextInt(8)) {
      case 0 -> "DROP TABLE " + s;
      case 1 -> createTable(s);
      case 2 -> "CREATE INDEX " + t + "_grp ON " + t + " (grp)";
      case 3 -> "DROP INDEX " + t + "_grp";
      case 4 -> "CREATE INDEX IF NOT EXISTS " + t + "_val ON " + t + " (val, grp)";
      case 5 -> "DROP INDEX IF EXISTS " + t + "_val";
      case 6 -> "CREATE UNIQUE INDEX " + t + "_grp_id ON " + t + " (grp DESC, id) INCLUDE (val)";
      default -> rnd.nextBoolean() ? "DROP INDEX " + t + "_grp_id" : "ANALYZE " + t;
    };
  }
}
