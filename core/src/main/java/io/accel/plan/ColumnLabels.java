package io.accel.plan;

import io.accel.sql.PgColumnNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The labels of a query's result columns as PostgreSQL gives them, in place of Calcite's: the one place they are
 * decided (and where json, jsonb and name columns get their type names back). Calcite labels an expression without alias {@code EXPR$0} and makes names unique ({@code x0}); PostgreSQL
 * names it by its form ({@link PgColumnNames}: {@code count}, {@code ?column?}, {@code int4}) and allows duplicates.
 * Only the labels frontends read change ({@link ColumnMetaData#label}, and {@link ColumnMetaData#columnName} where
 * it is Calcite's label, not a table column's name); Calcite's own field names, the plan and its cost stay as they were.
 *
 * <p>Columns of a {@code *} keep the names of what it expanded to, as the validator saw them
 * ({@link PgSqlValidator#starColumns}). When the text and the validated statement disagree on the columns (a
 * shape the reading of the text does not follow), Calcite's labels stay.
 */
final class ColumnLabels {
  private ColumnLabels() {
  }

  /**
   * The signature with PostgreSQL's labels.
   *
   * @param sql the statement as the client wrote it (or with WHERE's literals normalised to parameters)
   * @param starColumns per column, the name a {@code *} gave it or null; null when the statement is no SELECT
   */
  static CalcitePrepare.CalciteSignature<Object> relabel(CalcitePrepare.CalciteSignature<Object> signature,
      String sql, @Nullable List<@Nullable String> starColumns) {
    List<String> labels = labels(signature.columns.size(), sql, starColumns);
    List<RelDataTypeField> fields = signature.rowType == null ? null : signature.rowType.getFieldList();
    if (fields != null && fields.size() != signature.columns.size()) {
      fields = null;
    }
    List<ColumnMetaData> columns = new ArrayList<>(signature.columns.size());
    boolean changed = false;
    for (int i = 0; i < signature.columns.size(); i++) {
      ColumnMetaData c = signature.columns.get(i);
      String label = labels == null ? c.label : labels.get(i);
      // Calcite's column name is the column's origin, or its label when it has none (an expression)
      String columnName = c.columnName == null || c.columnName.equals(c.label) ? label : c.columnName;
      // json, jsonb and name by their names, which Calcite's VARCHAR lost
      ColumnMetaData.AvaticaType type = fields == null ? c.type : PgTypes.avaticaType(fields.get(i).getType(), c.type);
      if (Objects.equals(label, c.label) && Objects.equals(columnName, c.columnName) && type == c.type) {
        columns.add(c);
        continue;
      }
      changed = true;
      columns.add(new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable, c.currency,
          c.nullable, c.signed, c.displaySize, label, columnName, c.schemaName,
          c.precision, c.scale, c.tableName, c.catalogName, type, c.readOnly, c.writable, c.definitelyWritable,
          c.columnClassName));
    }
    if (!changed) {
      return signature;
    }
    // the plan itself (code, row type, parameters, maximum row count) is the original's
    CalcitePrepare.CalciteSignature<Object> plan = signature;
    return new CalcitePrepare.CalciteSignature<>(plan.sql, plan.parameters, plan.internalParameters, plan.rowType,
        columns, plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, plan::enumerable,
        plan.statementType);
  }

  /** PostgreSQL's labels for {@code n} columns, or null to keep Calcite's. */
  private static @Nullable List<String> labels(int n, String sql, @Nullable List<@Nullable String> starColumns) {
    Optional<List<String>> written = PgColumnNames.of(sql);
    if (written.isEmpty()) {
      return null;
    }
    List<String> names = written.get();
    if (starColumns == null) {
      // VALUES: column1, column2, ...
      return names.size() == n && !names.contains(null) ? names : null;
    }
    if (starColumns.size() != n) {
      return null;
    }
    List<String> labels = new ArrayList<>(n);
    int column = 0;
    for (String name : names) {
      if (name == null) {
        while (column < n && starColumns.get(column) != null) {
          labels.add(starColumns.get(column++));
        }
      } else if (column < n && starColumns.get(column) == null) {
        labels.add(name);
        column++;
      } else {
        return null;
      }
    }
    return column == n ? labels : null;
  }
}
