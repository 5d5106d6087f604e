package io.accel.plan;

import io.accel.catalog.Column;
import io.accel.catalog.DataType;
import io.accel.catalog.TableDef;
import io.accel.catalog.ViewDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The standard's {@code information_schema} (schemata, tables, columns, views, sequences, and the constraints:
 * table_constraints, key_column_usage, referential_constraints, constraint_column_usage) over the same model as
 * {@link PgCatalogSchema}, with PostgreSQL's values: data_type as PostgreSQL names it ({@code integer},
 * {@code character varying}, {@code timestamp without time zone}), precisions in its radixes.
 */
public final class InformationSchema extends AbstractSchema {
  public static final String NAME = "information_schema";

  private final Map<String, Table> tables = new LinkedHashMap<>();

  public InformationSchema(PgCatalogSchema pg) {
    tables.put("schemata", PgCatalogSchema.virtual("catalog_name text, schema_name text, schema_owner text,"
        + " default_character_set_catalog text, default_character_set_schema text, default_character_set_name text,"
        + " sql_path text", () -> {
          String db = pg.databaseName();
          return List.of(new Object[] {db, "information_schema", pg.userName(), null, null, null, null},
              new Object[] {db, "pg_catalog", pg.userName(), null, null, null, null},
              new Object[] {db, "public", "pg_database_owner", null, null, null, null});
        }));
    tables.put("tables", PgCatalogSchema.virtual("table_catalog text, table_schema text, table_name text,"
        + " table_type text, self_referencing_column_name text, reference_generation text,"
        + " user_defined_type_catalog text, user_defined_type_schema text, user_defined_type_name text,"
        + " is_insertable_into text, is_typed text, commit_action text", () -> {
          List<Object[]> rows = new ArrayList<>();
          for (TableDef t : pg.userTables()) {
            rows.add(new Object[] {pg.databaseName(), "public", t.name(), "BASE TABLE", null, null, null, null, null,
                "YES", "NO", null});
          }
          for (ViewDef v : pg.userViews()) {
            rows.add(new Object[] {pg.databaseName(), "public", v.name(), "VIEW", null, null, null, null, null,
                "NO", "NO", null});
          }
          return rows;
        }));
    tables.put("columns", PgCatalogSchema.virtual("table_catalog text, table_schema text, table_name text,"
        + " column_name text, ordinal_position int4, column_default text, is_nullable text, data_type text,"
        + " character_maximum_length int4, character_octet_length int4, numeric_precision int4,"
        + " numeric_precision_radix int4, numeric_scale int4, datetime_precision int4, interval_type text,"
        + " interval_precision int4, udt_catalog text, udt_schema text, udt_name text, is_identity text,"
        + " identity_generation text, is_generated text, is_updatable text", () -> {
          List<Object[]> rows = new ArrayList<>();
          for (TableDef t : pg.userTables()) {
            for (int i = 0; i < t.columns().size(); i++) {
              rows.add(column(pg.databaseName(), t.name(), t.columns().get(i), i + 1, true,
                  pg.identity(t, t.columns().get(i).name())));
            }
          }
          for (ViewDef v : pg.userViews()) {
            List<Column> columns = PgCatalogSchema.viewColumns(v);
            for (int i = 0; i < columns.size(); i++) {
              rows.add(column(pg.databaseName(), v.name(), columns.get(i), i + 1, false, ""));
            }
          }
          return rows;
        }));
    // view_definition is the query as written (PostgreSQL prints its own deparsed form)
    tables.put("views", PgCatalogSchema.virtual("table_catalog text, table_schema text, table_name text,"
        + " view_definition text, check_option text, is_updatable text, is_insertable_into text,"
        + " is_trigger_updatable text, is_trigger_deletable text, is_trigger_insertable_into text", () -> {
          List<Object[]> rows = new ArrayList<>();
          for (ViewDef v : pg.userViews()) {
            rows.add(new Object[] {pg.databaseName(), "public", v.name(), v.definition(), "NONE", "NO", "NO", "NO",
                "NO", "NO"});
          }
          return rows;
        }));
    tables.put("sequences", PgCatalogSchema.virtual("sequence_catalog text, sequence_schema text, sequence_name text,"
        + " data_type text, numeric_precision int4, numeric_precision_radix int4, numeric_scale int4,"
        + " start_value text, minimum_value text, maximum_value text, increment text, cycle_option text", () -> {
          List<Object[]> rows = new ArrayList<>();
          for (io.accel.catalog.SequenceDef q : pg.sequences()) {
            if (q.owner().filter(o -> o.identity() != io.accel.catalog.SequenceDef.Identity.NONE).isPresent()) {
              continue; // an identity column's sequence is internal to it: PostgreSQL's view leaves it out
            }
            int bits = q.type() == io.accel.catalog.ColumnType.SMALLINT ? 16
                : q.type() == io.accel.catalog.ColumnType.INTEGER ? 32 : 64;
            rows.add(new Object[] {pg.databaseName(), "public", q.name(), io.accel.catalog.SequenceDef.typeName(
                q.type()), bits, 2, 0, Long.toString(q.start()), Long.toString(q.min()), Long.toString(q.max()),
                Long.toString(q.increment()), q.cycle() ? "YES" : "NO"});
          }
          return rows;
        }));
    constraintTables(pg);
  }

  /**
   * A table's constraints as information_schema lists them: the primary key, UNIQUE constraints, FOREIGN KEYs, CHECKs,
   * and PostgreSQL 15's NOT NULL checks (named {@code <namespace oid>_<table oid>_<attnum>_not_null}).
   */
  private record Constraint(TableDef table, String name, String type, List<String> columns,
      io.accel.catalog.ForeignKeyDef fk) {
  }

  private static List<Constraint> constraints(PgCatalogSchema pg) {
    List<Constraint> list = new ArrayList<>();
    for (TableDef t : pg.userTables()) {
      if (!t.primaryKey().isEmpty()) {
        list.add(new Constraint(t, t.primaryKeyName(), "PRIMARY KEY", t.primaryKey().stream()
            .map(o -> t.columns().get(o).name()).toList(), null));
      }
      for (io.accel.catalog.IndexDef i : t.indexes()) {
        if (i.constraint()) {
          list.add(new Constraint(t, i.name(), "UNIQUE", i.columns().stream()
              .map(c -> t.columns().get(c.column()).name()).toList(), null));
        }
      }
      for (io.accel.catalog.ForeignKeyDef fk : t.foreignKeys()) {
        list.add(new Constraint(t, fk.name(), "FOREIGN KEY", fk.columns(), fk));
      }
      for (io.accel.catalog.CheckDef c : t.checks()) {
        java.util.Set<String> used = io.accel.sql.ViewReferences.expressionNames(c.expression());
        list.add(new Constraint(t, c.name(), "CHECK", t.columns().stream().map(Column::name).filter(used::contains)
            .toList(), null));
      }
      for (int i = 0; i < t.columns().size(); i++) {
        if (!t.columns().get(i).nullable()) {
          list.add(new Constraint(t, "2200_" + PgCatalogSchema.tableOid(t) + "_" + (i + 1) + "_not_null", "CHECK",
              List.of(), null));
        }
      }
    }
    return list;
  }

  /** The primary key or UNIQUE constraint a FOREIGN KEY references: its name and columns, or null. */
  private static Constraint referenced(PgCatalogSchema pg, io.accel.catalog.ForeignKeyDef fk) {
    java.util.Set<String> wanted = new java.util.HashSet<>(fk.refColumns());
    for (Constraint c : constraints(pg)) {
      if (c.table().name().equals(fk.refTable()) && (c.type().equals("PRIMARY KEY") || c.type().equals("UNIQUE"))
          && c.columns().size() == wanted.size() && wanted.containsAll(c.columns())) {
        return c;
      }
    }
    return null;
  }

  private static String rule(io.accel.catalog.ForeignKeyDef.Action a) {
    return a.sql;
  }

  private void constraintTables(PgCatalogSchema pg) {
    tables.put("table_constraints", PgCatalogSchema.virtual("constraint_catalog text, constraint_schema text,"
        + " constraint_name text, table_catalog text, table_schema text, table_name text, constraint_type text,"
        + " is_deferrable text, initially_deferred text, enforced text, nulls_distinct text", () -> {
          List<Object[]> rows = new ArrayList<>();
          String db = pg.databaseName();
          for (Constraint c : constraints(pg)) {
            boolean deferrable = c.fk() != null && c.fk().deferral().deferrable();
            boolean deferred = c.fk() != null
                && c.fk().deferral() == io.accel.catalog.ForeignKeyDef.Deferral.INITIALLY_DEFERRED;
            rows.add(new Object[] {db, "public", c.name(), db, "public", c.table().name(), c.type(),
                deferrable ? "YES" : "NO", deferred ? "YES" : "NO", "YES", c.type().equals("UNIQUE") ? "YES" : null});
          }
          return rows;
        }));
    tables.put("key_column_usage", PgCatalogSchema.virtual("constraint_catalog text, constraint_schema text,"
        + " constraint_name text, table_catalog text, table_schema text, table_name text, column_name text,"
        + " ordinal_position int4, position_in_unique_constraint int4", () -> {
          List<Object[]> rows = new ArrayList<>();
          String db = pg.databaseName();
          for (Constraint c : constraints(pg)) {
            if (c.type().equals("CHECK")) {
              continue;
            }
            Constraint ref = c.fk() == null ? null : referenced(pg, c.fk());
            for (int i = 0; i < c.columns().size(); i++) {
              Integer position = ref == null ? null : ref.columns().indexOf(c.fk().refColumns().get(i)) + 1;
              rows.add(new Object[] {db, "public", c.name(), db, "public", c.table().name(), c.columns().get(i), i + 1,
                  position});
            }
          }
          return rows;
        }));
    tables.put("referential_constraints", PgCatalogSchema.virtual("constraint_catalog text, constraint_schema text,"
        + " constraint_name text, unique_constraint_catalog text, unique_constraint_schema text,"
        + " unique_constraint_name text, match_option text, update_rule text, delete_rule text", () -> {
          List<Object[]> rows = new ArrayList<>();
          String db = pg.databaseName();
          for (Constraint c : constraints(pg)) {
            if (c.fk() != null) {
              Constraint ref = referenced(pg, c.fk());
              rows.add(new Object[] {db, "public", c.name(), ref == null ? null : db, ref == null ? null : "public",
                  ref == null ? null : ref.name(), "NONE", rule(c.fk().onUpdate()), rule(c.fk().onDelete())});
            }
          }
          return rows;
        }));
    tables.put("constraint_column_usage", PgCatalogSchema.virtual("table_catalog text, table_schema text,"
        + " table_name text, column_name text, constraint_catalog text, constraint_schema text,"
        + " constraint_name text", () -> {
          List<Object[]> rows = new ArrayList<>();
          String db = pg.databaseName();
          for (Constraint c : constraints(pg)) {
            if (c.name().endsWith("_not_null") && c.columns().isEmpty()) {
              continue;
            }
            String table = c.fk() == null ? c.table().name() : c.fk().refTable();
            for (String column : c.fk() == null ? c.columns() : c.fk().refColumns()) {
              rows.add(new Object[] {db, "public", table, column, db, "public", c.name()});
            }
          }
          return rows;
        }));
  }

  private static Object[] column(String db, String relation, Column c, int ordinal, boolean updatable,
      String identity) {
    DataType type = c.type();
    Integer charLength = null;
    Integer octetLength = null;
    Integer precision = null;
    Integer radix = null;
    Integer scale = null;
    Integer datetime = null;
    switch (type.kind()) {
      case CHAR -> {
        charLength = type.precision() < 0 ? 1 : type.precision();
        octetLength = charLength * 4;
      }
      case VARCHAR -> {
        charLength = type.precision() < 0 ? null : type.precision();
        octetLength = charLength == null ? 1073741824 : charLength * 4;
      }
      case TEXT -> octetLength = 1073741824;
      case SMALLINT -> {
        precision = 16;
        radix = 2;
        scale = 0;
      }
      case INTEGER -> {
        precision = 32;
        radix = 2;
        scale = 0;
      }
      case BIGINT -> {
        precision = 64;
        radix = 2;
        scale = 0;
      }
      case REAL -> {
        precision = 24;
        radix = 2;
      }
      case DOUBLE -> {
        precision = 53;
        radix = 2;
      }
      case NUMERIC -> {
        radix = 10;
        precision = type.precision() < 0 ? null : type.precision();
        scale = type.precision() < 0 ? null : Math.max(type.scale(), 0);
      }
      case DATE -> datetime = 0;
      case TIME, TIMESTAMP, TIMESTAMPTZ -> datetime = type.precision() < 0 ? 6 : type.precision();
      default -> {
      }
    }
    String udt = PgTypes.BY_OID.get(PgTypes.oid(type)).name();
    // an identity column shows no default (its sequence is an attribute of the column), as in PostgreSQL
    // a generated column shows none either: is_generated says ALWAYS
    return new Object[] {db, "public", relation, c.name(), ordinal,
        c.defaultSql().isPresent() && identity.isEmpty() && !c.generated() ? PgCatalogSchema.deparsedDefault(c) : null,
        c.nullable() ? "YES" : "NO", PgTypes.sqlName(type), charLength, octetLength, precision, radix, scale,
        datetime, null, null, db, "pg_catalog", udt, identity.isEmpty() ? "NO" : "YES",
        identity.equals("a") ? "ALWAYS" : identity.equals("d") ? "BY DEFAULT" : null, c.generated() ? "ALWAYS" : "NEVER",
        updatable ? "YES" : "NO"};
  }

  @Override
  protected Map<String, Table> getTableMap() {
    return tables;
  }
}
