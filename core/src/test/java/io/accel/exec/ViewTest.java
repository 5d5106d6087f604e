package io.accel.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Views where plans and restarts matter (what a view returns is in the e2e file views.test, checked against
 * PostgreSQL): the planner expands a view in place, so the tables' index paths apply to queries over it.
 */
class ViewTest extends EngineTestBase {
  @TempDir
  Path dir;

  private String plan(String sql) {
    return String.join("\n", rows("EXPLAIN " + sql).stream().map(Object::toString).toList());
  }

  @Test
  void queriesOverAViewUseTheIndexesOfItsTables() {
    run("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, status TEXT)");
    run("CREATE INDEX orders_customer ON orders (customer, status)");
    run("INSERT INTO orders VALUES (1, 10, 'open'), (2, 10, 'shipped'), (3, 11, 'open')");
    run("CREATE VIEW open_orders AS SELECT id, customer FROM orders WHERE status = 'open'");
    run("CREATE VIEW customer_ten AS SELECT * FROM open_orders WHERE customer = 10");
    assertThat(plan("SELECT id FROM open_orders WHERE customer = 11")).contains("orders_customer");
    assertThat(plan("SELECT customer FROM open_orders WHERE id = 3")).contains("access=[primary key], keys=[id = 3]");
    assertThat(plan("SELECT * FROM customer_ten")).contains("orders_customer");
    assertThat(rows("SELECT id FROM open_orders WHERE customer = 11")).containsExactly(3);
    assertThat(rows("SELECT id FROM customer_ten")).containsExactly(1);
  }

  @Test
  void viewsAndTheirDependenciesSurviveReopen() throws Exception {
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session s = new Session(db)) {
      s.execute(1, "CREATE TABLE t (id INTEGER PRIMARY KEY, v NUMERIC(6,2))");
      s.execute(2, "INSERT INTO t VALUES (1, 1.50), (2, 2.25)");
      s.execute(3, "CREATE VIEW big (ident, val) AS SELECT id, v FROM t WHERE v > 2");
      s.execute(4, "CREATE VIEW big2 AS SELECT ident FROM big");
    }
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)));
        Session s = new Session(db)) {
      assertThat(rows(s, "SELECT ident, val FROM big")).containsExactly("[2, 2.25]");
      assertThat(rows(s, "SELECT * FROM big2")).containsExactly(2);
      assertThat(failure(() -> s.execute(5, "DROP TABLE t")).state().code()).isEqualTo("2BP01");
      s.execute(6, "DROP VIEW big CASCADE");
      assertThat(db.catalog().views()).isEmpty();
      s.execute(7, "DROP TABLE t");
    }
    try (Database db = Database.open(Store.openFile(dir, new StoreOptions(8 << 20, false)))) {
      assertThat(db.catalog().views()).isEmpty();
      assertThat(db.catalog().tables()).isEmpty();
    }
  }
}
