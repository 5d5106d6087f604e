package io.accel.plan;

import io.accel.catalog.TableDef;
import io.accel.catalog.ViewDef;
import io.accel.exec.Session;
import java.util.HashMap;
import java.util.List;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.ViewTable;
import java.util.Map;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.type.SqlTypeName;
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

  public Session session() {
    return session;
  }

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    long version = session.database().catalog().version();
    if (version != builtAtVersion) {
      Map<String, Table> map = new HashMap<>();
      for (TableDef t : session.database().catalog().tables()) {
        map.put(t.name(), new AccelTable(session, t));
      }
      // a view is expanded in place by the planner (Calcite's ViewTable): the tables' access paths still apply
      for (ViewDef v : session.database().catalog().views()) {
        map.put(v.name(), new ViewTable(Object[].class, factory -> {
          RelDataTypeFactory.Builder row = factory.builder();
          for (int i = 0; i < v.columns().size(); i++) {
            row.add(v.columns().get(i), v.types().get(i).toRelDataType(factory, v.nullable().get(i)));
          }
          return row.build();
        }, v.sql(), List.of(NAME), List.of(NAME, v.name())));
      }
      tables = map;
      builtAtVersion = version;
    }
    return tables;
  }

  /**
   * PostgreSQL's type names that Calcite lacks, for casts such as {@code x::text}; Calcite resolves type
   * names from the root schema, where the driver registers these.
   */
  public static final Map<String, RelProtoDataType> TYPE_ALIASES = Map.ofEntries(
      Map.entry("text", f -> f.createSqlType(SqlTypeName.VARCHAR)),
      Map.entry("int2", f -> f.createSqlType(SqlTypeName.SMALLINT)),
      Map.entry("int4", f -> f.createSqlType(SqlTypeName.INTEGER)),
      Map.entry("int8", f -> f.createSqlType(SqlTypeName.BIGINT)),
      Map.entry("float4", f -> f.createSqlType(SqlTypeName.REAL)),
      Map.entry("float8", f -> f.createSqlType(SqlTypeName.DOUBLE)),
      Map.entry("bool", f -> f.createSqlType(SqlTypeName.BOOLEAN)),
      Map.entry("bytea", f -> f.createSqlType(SqlTypeName.VARBINARY)),
      Map.entry("timestamptz", f -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)),
      Map.entry("bpchar", f -> f.createSqlType(SqlTypeName.CHAR)),
      Map.entry("json", f -> JsonSqlType.of(f, false)),
      Map.entry("jsonb", f -> JsonSqlType.of(f, true)));

  @Override
  public boolean isMutable() {
    return true;
  }
}
