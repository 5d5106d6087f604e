package io.accel.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's set-returning regular expression functions: {@code regexp_matches(s, pattern [, flags])} (a text[]
 * of the groups of the first match, of every match with the flag g; no row when nothing matches) and
 * {@code regexp_split_to_table(s, pattern [, flags])} (the pieces regexp_split_to_array returns, one per row).
 * As with {@link JsonRows}, Calcite calls each factory while validating (with nulls for non-literals) for the row
 * type, and the generated code to scan; a NULL argument gives no rows.
 */
public final class RegexpRows extends AbstractTable implements ScannableTable {
  private final boolean split;
  private final Object text;
  private final Object pattern;
  private final Object flags;

  private RegexpRows(boolean split, Object text, Object pattern, Object flags) {
    this.split = split;
    this.text = text;
    this.pattern = pattern;
    this.flags = flags;
  }

  public static RegexpRows matches(Object text, Object pattern) {
    return new RegexpRows(false, text, pattern, "");
  }

  public static RegexpRows matches(Object text, Object pattern, Object flags) {
    return new RegexpRows(false, text, pattern, flags);
  }

  public static RegexpRows splitToTable(Object text, Object pattern) {
    return new RegexpRows(true, text, pattern, "");
  }

  public static RegexpRows splitToTable(Object text, Object pattern, Object flags) {
    return new RegexpRows(true, text, pattern, flags);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    RelDataType text = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true);
    return split ? typeFactory.builder().add("regexp_split_to_table", text).build()
        : typeFactory.builder().add("regexp_matches", typeFactory.createArrayType(text, -1)).build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    if (text == null || pattern == null || flags == null) {
      return Linq4j.emptyEnumerable();
    }
    String s = text.toString();
    List<Object[]> rows = new ArrayList<>();
    if (split) {
      for (String piece : TextFunctions.regexpSplit(s, pattern.toString(), flags.toString())) {
        rows.add(new Object[] {piece});
      }
      return Linq4j.asEnumerable(rows);
    }
    String f = flags.toString();
    java.util.regex.Matcher m = TextFunctions.regex(pattern.toString(), f.replace("g", ""), "regexp_matches")
        .matcher(s);
    while (m.find()) {
      rows.add(new Object[] {TextFunctions.groups(m)});
      if (f.indexOf('g') < 0) {
        break;
      }
    }
    return Linq4j.asEnumerable(rows);
  }
}
