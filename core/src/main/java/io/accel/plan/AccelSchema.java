package io.accel.plan;

import io.accel.catalog.TableDef;
import io.accel.exec.Session;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The catalog of a store as Calcite sees it, for one connection: its tables read and write through that
 * connection's {@link Session}. Rebuilt whenever the catalog changes.
 */
public final class AccelSchema extends AbstractSchema {
  public static final String NAME = "public";

  private final Session session;
  private long builtAtVersion = -1;
  private Map<String, Table> tables = Map.of();

  public AccelSchema(Session session) {
    this.session = session;
  }

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    long version = session.database().catalog().version();
    if (version != builtAtVersion) {
      Map<String, Table> map = new HashMap<>();
      for (TableDef t : session.database().catalog().tables()) {
        map.put(t.name(), new AccelTable(session, t));
      }
      tables = map;
      builtAtVersion = version;
    }
    return tables;
  }

  @Override
  public boolean isMutable() {
    return true;
  }
}
