package io.accel.compat.liquibase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.core.PostgresDatabase;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Liquibase 4.33 migrating a standalone file store, as it migrates PostgreSQL: update, re-run, status, rollback. */
class LiquibaseMigrationTest {
  private static final String CHANGELOG = "db/liquibase/changelog.yaml";

  @TempDir
  Path store;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:accel:file:" + store);
  }

  private static Liquibase liquibase(Connection c) throws Exception {
    Database db = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
    assertThat(db).isInstanceOf(PostgresDatabase.class);
    return new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), db);
  }

  @Test
  void updatesTheStoreAndRecordsEachChangeSet() throws Exception {
    try (Connection c = connect()) {
      Liquibase lb = liquibase(c);
      lb.update(new Contexts(), new LabelExpression());
      assertThat(lb.listUnrunChangeSets(new Contexts(), new LabelExpression())).isEmpty();
    }
    try (Connection c = connect(); Statement s = c.createStatement()) {
      assertThat(strings(s, "SELECT id FROM databasechangelog ORDER BY orderexecuted"))
          .containsExactly("1-customers", "2-orders", "3-data", "4-phone", "5-view");
      assertThat(strings(s, "SELECT email || ' ' || full_name FROM customers ORDER BY id"))
          .containsExactly("ada@example.com Ada", "grace@example.com Grace");
      assertThat(strings(s, "SELECT email || ' ' || total FROM paid_orders")).containsExactly("ada@example.com 12.50");
      // the identity column, the default and the foreign key Liquibase declared
      s.execute("INSERT INTO customers (email, phone) VALUES ('alan@example.com', '+44')");
      assertThat(strings(s, "SELECT count(*) FROM customers WHERE created_at IS NOT NULL")).containsExactly("3");
      s.execute("INSERT INTO orders (customer_id) VALUES (3)");
      assertThat(strings(s, "SELECT status || ' ' || total FROM orders WHERE customer_id = 3"))
          .containsExactly("NEW 0.00");
      assertThatThrownBy(() -> s.execute("INSERT INTO orders (customer_id) VALUES (999)"))
          .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23503");
      assertThatThrownBy(() -> s.execute("INSERT INTO customers (email) VALUES ('ada@example.com')"))
          .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      s.execute("DELETE FROM customers WHERE email = 'alan@example.com'");
      assertThat(strings(s, "SELECT count(*) FROM orders WHERE customer_id = 3")).containsExactly("0");
    }
    // a second run finds nothing to do, and a new process sees the same history
    try (Connection c = connect()) {
      Liquibase lb = liquibase(c);
      lb.update(new Contexts(), new LabelExpression());
      assertThat(lb.listUnrunChangeSets(new Contexts(), new LabelExpression())).isEmpty();
    }
  }

  @Test
  void rollsBackTheLastChangeSetsAndReappliesThem() throws Exception {
    try (Connection c = connect()) {
      Liquibase lb = liquibase(c);
      lb.update(new Contexts(), new LabelExpression());
      lb.rollback(3, (String) null);
      try (Statement s = c.createStatement()) {
        assertThat(strings(s, "SELECT id FROM databasechangelog ORDER BY orderexecuted"))
            .containsExactly("1-customers", "2-orders");
        assertThat(strings(s, "SELECT count(*) FROM customers")).containsExactly("0");
        assertThat(strings(s, "SELECT column_name FROM information_schema.columns WHERE table_name = 'customers'"
            + " ORDER BY ordinal_position")).containsExactly("id", "email", "name", "created_at");
      }
      lb.update(new Contexts(), new LabelExpression());
      assertThat(lb.listUnrunChangeSets(new Contexts(), new LabelExpression())).isEmpty();
    }
  }

  private static List<String> strings(Statement s, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
