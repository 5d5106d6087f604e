package io.accel.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.catalog.TableDef;
import io.accel.exec.Database;
import io.accel.exec.StoreRegistry;
import io.accel.storage.StoreOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ANALYZE through JDBC: all tables or named ones, inside a transaction block too; unknown tables are 42P01. */
class AnalyzeTest extends JdbcTestSupport {
  private Connection c;
  private Database database;

  @BeforeEach
  void createTables() throws SQLException {
    c = connect();
    // the connection's own store, shared with the driver while both hold it
    database = StoreRegistry.acquire(url.substring("jdbc:accel:".length()), StoreOptions.DEFAULTS);
    update(c, "CREATE TABLE item (id INTEGER PRIMARY KEY, kind VARCHAR(10), price NUMERIC(8,2))");
    update(c, "CREATE INDEX item_kind ON item (kind, price DESC)");
    update(c, "CREATE TABLE other (x INTEGER)");
    update(c, "INSERT INTO item VALUES (1, 'a', 1.50), (2, 'a', 2), (3, 'b', NULL), (4, NULL, 3)");
  }

  @AfterEach
  void release() {
    StoreRegistry.release(database);
  }

  private TableDef table(String name) {
    return database.catalog().table(name).orElseThrow();
  }

  @Test
  void analyzeNamedTables() throws SQLException {
    assertThat(update(c, "ANALYZE item")).isZero();
    var stats = database.statistics().of(table("item"));
    assertThat(stats.analyzed()).isTrue();
    assertThat(stats.rowCount()).isEqualTo(4);
    long kind = table("item").index("item_kind").orElseThrow().id();
    assertThat(stats.distinctPrefix(kind, 1)).isEqualTo(3);
    assertThat(stats.distinctPrefix(kind, 2)).isEqualTo(4);
    assertThat(stats.frequency(1, "a")).hasValue(0.5);
    assertThat(stats.nullFraction(2)).isEqualTo(0.25);
    assertThat(database.statistics().of(table("other")).analyzed()).isFalse();
    update(c, "ANALYZE VERBOSE item, other");
    assertThat(database.statistics().of(table("other")).analyzed()).isTrue();
  }

  @Test
  void analyzeEverythingInsideATransactionBlock() throws SQLException {
    c.setAutoCommit(false);
    update(c, "INSERT INTO other VALUES (1), (2)");
    update(c, "ANALYZE");
    // statistics describe committed rows
    assertThat(database.statistics().of(table("other")).rowCount()).isZero();
    assertThat(database.statistics().of(table("item")).rowCount()).isEqualTo(4);
    c.commit();
    assertThat(database.statistics().of(table("other")).rowCount()).isEqualTo(2);
  }

  @Test
  void preparedAnalyze() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("ANALYZE item")) {
      ps.execute();
      ps.execute();
    }
    assertThat(database.statistics().of(table("item")).analyzed()).isTrue();
  }

  @Test
  void unknownTable() throws SQLException {
    expectState("42P01", c, "ANALYZE nope");
    expectState("42P01", c, "ANALYZE item, nope");
    expectState("42601", c, "ANALYZE (nope) item");
    assertUsable(c);
  }
}
