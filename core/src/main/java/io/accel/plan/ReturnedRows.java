package io.accel.plan;

import io.accel.exec.Session;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * The rows an INSERT, UPDATE or DELETE wrote, as tables its RETURNING list is evaluated over: for each stored
 * table a table of the same row type whose scan reads the rows the execution handed over in its DataContext
 * (under {@link #ROWS}). {@code io.accel.sql.Returning} writes the query; {@link TableModification} collects the
 * rows (as stored: after defaults, coercion and, for UPDATE, the new values; for DELETE the old ones).
 */
public final class ReturnedRows extends AbstractSchema {
  /** The schema's name in each session's root schema; no user schema can have it (it is not an identifier). */
  public static final String NAME = "accel returning";
  /** The DataContext variable holding the {@code List<Object[]>} of written rows. */
  public static final String ROWS = "accel.returned";
  /** The schema of ON CONFLICT's proposed row ({@code excluded}), read from the variable {@link #EXCLUDED}. */
  public static final String EXCLUDED_NAME = "accel excluded";
  public static final String EXCLUDED = "accel.excluded";

  private final Session session;
  private final String variable;

  ReturnedRows(Session session, String variable) {
    this.session = session;
    this.variable = variable;
  }

  private long builtAtVersion = -1;
  private Map<String, Table> tables = Map.of();

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    long version = session.database().catalog().version();
    if (version != builtAtVersion) {
      Map<String, Table> map = new java.util.HashMap<>();
      for (io.accel.catalog.TableDef t : session.database().catalog().tables()) {
        map.put(t.name(), new Rows(new AccelTable(session, t), variable));
      }
      tables = map;
      builtAtVersion = version;
    }
    return tables;
  }

  /** A stored table's row type over the rows of the running execution. */
  private static final class Rows extends AbstractTable implements ScannableTable {
    private final AccelTable table;
    private final String variable;

    Rows(AccelTable table, String variable) {
      this.table = table;
      this.variable = variable;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return table.getRowType(typeFactory);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Enumerable<Object[]> scan(DataContext root) {
      Object rows = root.get(variable);
      return Linq4j.asEnumerable(rows == null ? List.<Object[]>of() : (List<Object[]>) rows);
    }
  }
}
