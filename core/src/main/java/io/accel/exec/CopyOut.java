package io.accel.exec;

import io.accel.cursor.Cursor;
import io.accel.sql.Command;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;

/**
 * One {@code COPY ... TO STDOUT} as a frontend drives it: {@link #next} returns each row encoded as a line of
 * PostgreSQL's text or CSV format (values as {@link PgText} prints them, newline included), read lazily from the
 * query's {@link Cursor}, so a table of any size streams in bounded memory; null after the last. The query reads
 * one snapshot (the statement's, or the open block's); {@link #close} releases it.
 */
public final class CopyOut implements AutoCloseable {
  private final Session session;
  private final Object statementKey;
  private final Result result;
  private final List<ColumnMetaData> columns;
  private final Command.CopyFormat format;
  private final ZoneId zone;
  private boolean headerDone;
  private long rows;
  private final StringBuilder out = new StringBuilder(256);

  CopyOut(Session session, Object statementKey, Result result, List<ColumnMetaData> columns,
      Command.CopyFormat format, ZoneId zone) {
    this.session = session;
    this.statementKey = statementKey;
    this.result = result;
    this.columns = columns;
    this.format = format;
    this.zone = zone;
    this.headerDone = !format.header();
  }

  /** The number of columns of each row (for CopyOutResponse). */
  public int columnCount() {
    return columns.size();
  }

  /**
   * Whether rows are text (the text or CSV format, read with {@link #next}); false for the binary format, whose
   * rows a frontend encodes from {@link #columns} and {@link #nextRow}.
   */
  public boolean textFormat() {
    return !format.binary();
  }

  /** The columns of each row: their types say how a frontend encodes the binary format. */
  public List<ColumnMetaData> columns() {
    return columns;
  }

  /** The next row's values in the engine's internal representation (as a query's cursor gives them), or null. */
  public Object[] nextRow() {
    Cursor cursor = result.cursor();
    if (!cursor.hasNext()) {
      return null;
    }
    Object row = cursor.next();
    rows++;
    return row instanceof Object[] a ? a : new Object[] {row};
  }

  /** The next line (header first when asked for), UTF-8 with its newline; null after the last row. */
  public byte[] next() {
    out.setLength(0);
    if (!headerDone) {
      headerDone = true;
      for (int i = 0; i < columns.size(); i++) {
        if (i > 0) {
          out.append(format.delimiter());
        }
        field(columns.get(i).label);
      }
      return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
    Cursor cursor = result.cursor();
    if (!cursor.hasNext()) {
      return null;
    }
    Object row = cursor.next();
    Object[] values = row instanceof Object[] a ? a : new Object[] {row};
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        out.append(format.delimiter());
      }
      String text = PgText.format(values[i], columns.get(i), zone);
      if (text == null) {
        out.append(format.nullString());
      } else {
        field(text);
      }
    }
    rows++;
    return out.append('\n').toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Rows returned so far (the count of the CommandComplete tag once {@link #next} returned null). */
  public long rows() {
    return rows;
  }

  private void field(String text) {
    if (format.csv()) {
      csv(text);
    } else {
      text(text);
    }
  }

  /** CopyAttributeOutText: backslash, the delimiter and control characters escaped. */
  private void text(String s) {
    char delimiter = format.delimiter();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20) {
        switch (c) {
          case '\b' -> out.append("\\b");
          case '\f' -> out.append("\\f");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case 0x0b -> out.append("\\v");
          default -> {
            if (c == delimiter) {
              out.append('\\');
            }
            out.append(c);
          }
        }
      } else {
        if (c == '\\' || c == delimiter) {
          out.append('\\');
        }
        out.append(c);
      }
    }
  }

  /** CopyAttributeOutCSV: quoted when it holds the delimiter, quote, CR or LF, or equals the NULL string. */
  private void csv(String s) {
    char quote = format.quote();
    char escape = format.escape();
    boolean quoted = s.equals(format.nullString()) || columns.size() == 1 && s.equals("\\.");
    for (int i = 0; i < s.length() && !quoted; i++) {
      char c = s.charAt(i);
      quoted = c == format.delimiter() || c == quote || c == '\n' || c == '\r';
    }
    if (!quoted) {
      out.append(s);
      return;
    }
    out.append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == quote || c == escape) {
        out.append(escape);
      }
      out.append(c);
    }
    out.append(quote);
  }

  /** Closes the cursor and releases the statement's snapshot. */
  @Override
  public void close() {
    result.close();
    session.releaseStatement(statementKey);
  }
}
