package io.accel.exec;

import io.accel.catalog.Column;
import io.accel.catalog.TableDef;
import io.accel.sql.AccelException;
import io.accel.sql.Command;
import io.accel.sql.ErrorTranslator;
import io.accel.sql.SqlState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;

/**
 * One {@code COPY table FROM STDIN} as a frontend drives it: it hands over the client's data in chunks of any
 * size ({@link #write}; a row may span chunks), then {@link #finish} (the client's CopyDone) or {@link #fail}
 * (CopyFail). Rows are parsed as PostgreSQL's text or CSV format, converted with {@link PgText#parse}, and
 * inserted through {@link TableWriter} in batches of {@value #BATCH} rows into the statement's transaction: the
 * open block's, or its own, committed by {@code finish}. Any failure undoes the whole COPY (and aborts a block),
 * with PostgreSQL's SQLSTATE and CONTEXT ({@code COPY t, line 3, column a: "x"}). Once a call has failed, every
 * later call throws that failure again.
 */
public final class CopyIn {
  /** Rows written to the transaction together. */
  static final int BATCH = 10_000;

  private final Session session;
  private final Database database;
  private final Object statementKey;
  private final TableDef table;
  private final Command.CopyFormat format;
  private final ZoneId zone;
  /** Per field of a line, the table column it fills. */
  private final int[] targets;
  /** Per table column, the value of a column the COPY does not list (its DEFAULT, or null). */
  private final Object[] defaults;
  /** Per column, how a volatile default (nextval, gen_random_uuid, ...) is computed for each row; null elsewhere. */
  private final java.util.function.Supplier<Object>[] perRow;
  private final TxnContext ctx;
  private final byte[] nullBytes;
  private final TableWriter writer;
  private final AtomicBoolean cancel = new AtomicBoolean();
  private final Cancellation cancellation;
  private final List<Object[]> batch = new ArrayList<>(BATCH);
  /** Whether a COPY of more than one batch may load the table as table files ({@link BulkLoad#usable}). */
  private final boolean bulkUsable;
  /** The table files this COPY writes, once its first full batch found the table empty; null otherwise. */
  private BulkLoad bulk;

  private byte[] pending = new byte[1 << 16];
  private int length;
  /** Where the search for the end of the current line resumes, and (CSV) whether it is inside quotes there. */
  private int scanned;
  private boolean quoted;
  private long line;
  private long rows;
  private boolean ended;
  private boolean finished;
  private AccelException failure;

  CopyIn(Session session, Object statementKey, TableDef table, List<Integer> targets, Object[] defaults,
      Command.CopyFormat format, ZoneId zone, TxnContext ctx) {
    this.ctx = ctx;
    this.perRow = perRowDefaults(session, table, targets);
    this.session = session;
    this.database = session.database();
    this.statementKey = statementKey;
    this.table = table;
    this.format = format;
    this.zone = zone;
    this.targets = targets.stream().mapToInt(Integer::intValue).toArray();
    this.defaults = defaults;
    this.nullBytes = format.nullString().getBytes(StandardCharsets.UTF_8);
    this.writer = new TableWriter(database, ctx, table);
    this.bulkUsable = BulkLoad.usable(database, table, session.inTransactionBlock());
    this.cancellation = new Cancellation(cancel, session.settings().statementTimeoutMillis());
    ctx.cancellation(cancellation);
  }

  /** The number of columns each row holds (for CopyInResponse). */
  public int columnCount() {
    return targets.length;
  }

  /**
   * Whether rows are text (the text or CSV format, given to {@link #write}); false for the binary format, whose
   * rows a frontend decodes with {@link #columnTypes} and hands over one by one ({@link #writeRow}).
   */
  public boolean textFormat() {
    return !format.binary();
  }

  /** The type of each field of a row, in order (for decoding the binary format). */
  public List<io.accel.catalog.DataType> columnTypes() {
    List<io.accel.catalog.DataType> types = new ArrayList<>(targets.length);
    for (int t : targets) {
      types.add(table.columns().get(t).type());
    }
    return types;
  }

  /**
   * One row of the binary format, decoded by the frontend: a value per field in any Avatica representation (null
   * for NULL), converted to its column's type as a parameter is; 22P04 when the field count is wrong.
   */
  public void writeRow(List<org.apache.calcite.avatica.remote.TypedValue> fields) {
    run(() -> {
      line++;
      if (fields.size() != targets.length) {
        throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "row field count is " + fields.size()
            + ", expected " + targets.length).withContext("COPY " + table.name() + ", line " + line);
      }
      Object[] row = newRow();
      for (int f = 0; f < targets.length; f++) {
        io.accel.catalog.Column column = table.columns().get(targets[f]);
        try {
          row[targets[f]] = internal(fields.get(f), column.type());
        } catch (AccelException e) {
          throw e.withContext("COPY " + table.name() + ", line " + line + ", column " + column.name());
        }
      }
      writer.normalize(row);
      batch.add(row);
      rows++;
      if (batch.size() >= BATCH) {
        flush();
      }
    });
  }

  /** A binary field's value in the column's internal representation (as {@link PgText#parse} gives for text). */
  private Object internal(org.apache.calcite.avatica.remote.TypedValue v, io.accel.catalog.DataType type) {
    if (v == null || v.value == null) {
      return null;
    }
    return switch (type.kind()) {
      case CHAR, VARCHAR, TEXT -> v.value.toString();
      case JSON -> io.accel.json.Jsonb.validate(v.value.toString());
      case JSONB -> io.accel.json.Jsonb.normalize(v.value.toString().startsWith("\u0001")
          ? v.value.toString().substring(1) : v.value.toString());
      case BYTEA, UUID -> {
        Object local = v.toLocal(); // TypedValue.value is the serial form (base64 for bytes)
        yield local instanceof org.apache.calcite.avatica.util.ByteString b ? b
            : local instanceof byte[] a ? new org.apache.calcite.avatica.util.ByteString(a)
            : PgText.parse(local.toString(), type, zone);
      }
      // the binary format's dates and times are already days, milliseconds of the day, and epoch milliseconds
      case DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> v.value instanceof String text ? PgText.parse(text, type, zone)
          : v.toLocal();
      default -> ParameterConversions.convert(v, type.kind().sqlTypeName().getName(), zone).toLocal();
    };
  }

  /** Whether the rows are in CSV rather than PostgreSQL's text format. */
  public boolean csv() {
    return format.csv();
  }

  /** The flag that stops this COPY with 57014 (Session.cancel sets it while a call runs). */
  AtomicBoolean cancelFlag() {
    return cancel;
  }

  /** Takes the next chunk of the client's data (CopyData). */
  public void write(byte[] data) {
    write(data, 0, data.length);
  }

  public void write(ByteBuffer data) {
    if (data.hasArray()) {
      write(data.array(), data.arrayOffset() + data.position(), data.remaining());
      data.position(data.limit());
    } else {
      byte[] copy = new byte[data.remaining()];
      data.get(copy);
      write(copy);
    }
  }

  public void write(byte[] data, int offset, int count) {
    run(() -> {
      if (ended) {
        return; // data after the \. marker is ignored, as PostgreSQL does
      }
      append(data, offset, count);
      lines(false);
    });
  }

  /** The client's CopyDone: the last row (even without a newline) is written, and outside a block committed. */
  public long finish() {
    run(() -> {
      lines(true);
      flush();
      if (bulk != null) {
        try {
          bulk.seal();
        } catch (AccelException e) {
          throw e.context() == null ? e.withContext("COPY " + table.name()) : e;
        }
        ctx.countChanges(table.id(), bulk.count(), bulk.count());
      }
      finished = true;
    });
    try {
      session.statementSucceeded(statementKey);
    } catch (RuntimeException e) {
      throw failed(e);
    } finally {
      cancellation.finish();
    }
    return rows;
  }

  /** The client's CopyFail: nothing of the COPY remains; throws 57014 {@code COPY from stdin failed: message}. */
  public void fail(String message) {
    if (failure != null) {
      throw failure;
    }
    throw failed(new AccelException(SqlState.QUERY_CANCELED, "COPY from stdin failed: " + message));
  }

  /** Rows read so far. */
  public long rows() {
    return rows;
  }

  private interface Step {
    void run();
  }

  private void run(Step step) {
    if (failure != null) {
      throw failure;
    }
    if (finished) {
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "the COPY has ended");
    }
    session.running(cancel);
    Lock lock = database.schemaLock().readLock();
    lock.lock();
    try {
      step.run();
    } catch (RuntimeException | StackOverflowError e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  private AccelException failed(Throwable e) {
    AccelException translated = e instanceof AccelException a ? a : ErrorTranslator.translate(e);
    failure = translated;
    cancellation.finish();
    session.statementFailed(statementKey);
    return translated;
  }

  private void append(byte[] data, int offset, int count) {
    if (length + count > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(pending.length * 2, length + count));
    }
    System.arraycopy(data, offset, pending, length, count);
    length += count;
  }

  /** Handles every complete line in the buffer; at the end ({@code last}) also a final line without newline. */
  private void lines(boolean last) {
    int start = 0;
    int i = scanned;
    byte quote = (byte) format.quote();
    byte escape = (byte) format.escape();
    while (!ended) {
      int end = -1;
      if (format.csv()) {
        for (; i < length; i++) {
          byte b = pending[i];
          if (quoted) {
            if (b == escape && escape != quote && i + 1 < length
                && (pending[i + 1] == quote || pending[i + 1] == escape)) {
              i++;
            } else if (b == quote) {
              quoted = false;
            }
          } else if (b == quote) {
            quoted = true;
          } else if (b == '\n') {
            end = i;
            break;
          }
        }
      } else {
        for (; i < length; i++) {
          if (pending[i] == '\n') {
            end = i;
            break;
          }
        }
      }
      if (end < 0) {
        if (last && start < length) {
          end = length;
        } else {
          break;
        }
      }
      int lineEnd = end > start && pending[end - 1] == '\r' ? end - 1 : end;
      line(start, lineEnd);
      start = Math.min(end + 1, length);
      i = start;
      quoted = false;
    }
    // keep the unfinished line at the front of the buffer
    System.arraycopy(pending, start, pending, 0, length - start);
    length -= start;
    scanned = Math.max(0, i - start);
    if (ended) {
      length = 0;
      scanned = 0;
    }
  }

  private void line(int from, int to) {
    line++;
    if (to - from == 2 && pending[from] == '\\' && pending[from + 1] == '.') {
      ended = true;
      return;
    }
    if (line == 1 && format.header()) {
      if (format.headerMatch()) {
        checkHeader(fields(from, to));
      }
      return;
    }
    Object[] row = newRow();
    if (format.csv()) {
      List<String> fields = csvFields(from, to);
      checkFieldCount(fields.size(), from, to);
      for (int f = 0; f < targets.length; f++) {
        row[targets[f]] = parseField(fields.get(f), targets[f]);
      }
    } else {
      textValues(row, from, to);
    }
    try {
      writer.normalize(row);
    } catch (AccelException e) {
      throw e.withContext(lineContext(from, to));
    }
    batch.add(row);
    rows++;
    if (batch.size() >= BATCH) {
      flush();
    }
  }

  /** A field's text as its column's value; a value the type rejects names the line, column and text. */
  private Object parseField(String text, int column) {
    try {
      return PgText.parse(text, table.columns().get(column).type(), zone);
    } catch (AccelException e) {
      throw e.withContext("COPY " + table.name() + ", line " + line + ", column "
          + table.columns().get(column).name() + ": \"" + text + "\"");
    }
  }

  /** Bounds of the fields of the current text-format line (start, end, whether it holds a backslash). */
  private int[] fieldStarts = new int[16];
  private int[] fieldEnds = new int[16];
  private boolean[] fieldEscaped = new boolean[16];

  /**
   * The values of a line of PostgreSQL's text format: fields split in place, then each converted; a field without
   * escapes that is a plain number or date is read straight from the bytes (PgText.parseSimple), any other through
   * its text.
   */
  private void textValues(Object[] row, int from, int to) {
    checkFieldCount(textFieldBounds(from, to), from, to);
    for (int f = 0; f < targets.length; f++) {
      int column = targets[f];
      int start = fieldStarts[f];
      int end = fieldEnds[f];
      Object value = fieldEscaped[f] || isNull(start, end) ? null
          : PgText.parseSimple(pending, start, end, table.columns().get(column).type());
      row[column] = value != null ? value : parseField(textField(start, end, fieldEscaped[f]), column);
    }
  }

  /** 22P04 when a line has fewer or more fields than the COPY's columns. */
  private void checkFieldCount(int count, int from, int to) {
    if (count < targets.length) {
      throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "missing data for column \""
          + table.columns().get(targets[count]).name() + "\"").withContext(lineContext(from, to));
    }
    if (count > targets.length) {
      throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "extra data after last expected column")
          .withContext(lineContext(from, to));
    }
  }

  /** Whether the bytes from {@code from} to {@code to} are the NULL marker (matched before de-escaping). */
  private boolean isNull(int from, int to) {
    return to - from == nullBytes.length && Arrays.equals(pending, from, to, nullBytes, 0, nullBytes.length);
  }

  /** Splits a text-format line at its delimiters (a backslash escapes the next byte), filling the bound arrays. */
  private int textFieldBounds(int from, int to) {
    byte delimiter = (byte) format.delimiter();
    int count = 0;
    int start = from;
    boolean escaped = false;
    for (int i = from; i <= to; i++) {
      if (i == to || pending[i] == delimiter) {
        count = addBounds(count, start, i, escaped);
        start = i + 1;
        escaped = false;
      } else if (pending[i] == '\\') {
        escaped = true;
        i++;
        if (i == to) {
          count = addBounds(count, start, i, true);
          break;
        }
      }
    }
    return count;
  }

  private int addBounds(int count, int start, int end, boolean escaped) {
    if (count == fieldStarts.length) {
      fieldStarts = Arrays.copyOf(fieldStarts, count * 2);
      fieldEnds = Arrays.copyOf(fieldEnds, count * 2);
      fieldEscaped = Arrays.copyOf(fieldEscaped, count * 2);
    }
    fieldStarts[count] = start;
    fieldEnds[count] = end;
    fieldEscaped[count] = escaped;
    return count + 1;
  }

  private String lineContext(int from, int to) {
    return "COPY " + table.name() + ", line " + line + ": \"" + new String(pending, from, to - from,
        StandardCharsets.UTF_8) + "\"";
  }

  private void flush() {
    if (batch.isEmpty()) {
      return;
    }
    cancellation.check();
    if (bulk == null && bulkUsable && batch.size() >= BATCH && rows == batch.size()) {
      bulk = BulkLoad.start(database, table); // this COPY's first batch, and a large one
      if (bulk != null) {
        ctx.bulkLoad(table, bulk);
      }
    }
    try {
      if (bulk != null) {
        for (Object[] row : batch) {
          if (!table.checks().isEmpty()) {
            database.checkConstraints().verify(table, row, ctx);
          }
          bulk.add(row);
        }
      } else {
        writer.insert(batch);
      }
    } catch (AccelException e) {
      if (e.context() == null) {
        e.withContext("COPY " + table.name());
      }
      throw e;
    }
    batch.clear();
  }

  private void checkHeader(List<String> names) {
    if (names.size() != targets.length) {
      throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "wrong number of fields in header line: field count is "
          + names.size() + ", expected " + targets.length);
    }
    for (int f = 0; f < targets.length; f++) {
      String expected = table.columns().get(targets[f]).name();
      if (!expected.equals(names.get(f))) {
        throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "column name mismatch in header line field "
            + (f + 1) + ": got \"" + names.get(f) + "\", expected \"" + expected + "\"");
      }
    }
  }

  /** The fields of one line, null for the NULL marker. */
  private List<String> fields(int from, int to) {
    return format.csv() ? csvFields(from, to) : textFields(from, to);
  }

  /** PostgreSQL's text format: delimiter-separated, backslash escapes, NULL matched before de-escaping. */
  private List<String> textFields(int from, int to) {
    int count = textFieldBounds(from, to);
    List<String> fields = new ArrayList<>(count);
    for (int f = 0; f < count; f++) {
      fields.add(textField(fieldStarts[f], fieldEnds[f], fieldEscaped[f]));
    }
    return fields;
  }

  private String textField(int from, int to, boolean escaped) {
    if (isNull(from, to)) {
      return null;
    }
    if (!escaped) {
      return new String(pending, from, to - from, StandardCharsets.UTF_8);
    }
    byte[] out = new byte[to - from];
    int n = 0;
    for (int i = from; i < to; i++) {
      byte b = pending[i];
      if (b != '\\' || i + 1 >= to) {
        out[n++] = b;
        continue;
      }
      byte c = pending[++i];
      switch (c) {
        case 'b' -> out[n++] = '\b';
        case 'f' -> out[n++] = '\f';
        case 'n' -> out[n++] = '\n';
        case 'r' -> out[n++] = '\r';
        case 't' -> out[n++] = '\t';
        case 'v' -> out[n++] = 0x0b;
        case 'x' -> {
          int value = 0;
          int digits = 0;
          while (digits < 2 && i + 1 < to && Character.digit(pending[i + 1], 16) >= 0) {
            value = value * 16 + Character.digit(pending[++i], 16);
            digits++;
          }
          out[n++] = digits == 0 ? (byte) 'x' : (byte) value;
        }
        default -> {
          if (c >= '0' && c <= '7') {
            int value = c - '0';
            for (int d = 0; d < 2 && i + 1 < to && pending[i + 1] >= '0' && pending[i + 1] <= '7'; d++) {
              value = value * 8 + pending[++i] - '0';
            }
            out[n++] = (byte) value;
          } else {
            out[n++] = c;
          }
        }
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  /** CSV: quoted fields may hold delimiters, newlines and doubled (or escaped) quotes; unquoted NULL string is NULL. */
  private List<String> csvFields(int from, int to) {
    List<String> fields = new ArrayList<>(targets.length);
    byte delimiter = (byte) format.delimiter();
    byte quote = (byte) format.quote();
    byte escape = (byte) format.escape();
    int i = from;
    while (true) {
      java.io.ByteArrayOutputStream value = null;
      int start = i;
      boolean wasQuoted = false;
      while (i < to && pending[i] != delimiter) {
        if (pending[i] == quote) {
          if (value == null) {
            value = new java.io.ByteArrayOutputStream();
            value.write(pending, start, i - start);
          }
          wasQuoted = true;
          i++;
          while (true) {
            if (i >= to) {
              throw new AccelException(SqlState.BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field")
                  .withContext(lineContext(from, to));
            }
            byte b = pending[i];
            if (b == escape && i + 1 < to && (pending[i + 1] == quote || pending[i + 1] == escape)
                && !(escape == quote && pending[i + 1] != quote)) {
              value.write(pending[i + 1]);
              i += 2;
            } else if (b == quote) {
              i++;
              break;
            } else {
              value.write(b);
              i++;
            }
          }
        } else {
          if (value != null) {
            value.write(pending[i]);
          }
          i++;
        }
      }
      if (value == null) {
        fields.add(isNull(start, i) ? null : new String(pending, start, i - start, StandardCharsets.UTF_8));
      } else {
        fields.add(wasQuoted ? value.toString(StandardCharsets.UTF_8) : null);
      }
      if (i >= to) {
        break;
      }
      i++; // the delimiter
    }
    return fields;
  }

  /** A row of the defaults of the columns COPY leaves out: volatile ones computed for this row. */
  private Object[] newRow() {
    Object[] row = defaults.clone();
    if (perRow != null) {
      for (int i = 0; i < perRow.length; i++) {
        if (perRow[i] != null) {
          row[i] = perRow[i].get();
        }
      }
    }
    return row;
  }

  private static final java.util.regex.Pattern NEXTVAL = java.util.regex.Pattern.compile(
      "(?i)\\s*nextval\\s*\\(\\s*'((?:[^']|'')+)'(?:\\s*::\\s*regclass)?\\s*\\)\\s*");
  /** A DEFAULT PostgreSQL evaluates per row (volatile functions): per COPY row, per row of ADD COLUMN's rewrite. */
  static final java.util.regex.Pattern VOLATILE = java.util.regex.Pattern.compile(
      "(?i)\\b(random|gen_random_uuid|uuid_generate_v[14]|uuid_generate_v1mc|gen_random_bytes|clock_timestamp|timeofday"
      + "|nextval)\\s*\\(");

  /**
   * The columns COPY leaves out whose DEFAULT changes from row to row, as PostgreSQL evaluates it per row: a serial
   * or identity column's nextval from the session's sequences, gen_random_uuid directly, any other volatile
   * expression by evaluating the default in the COPY's transaction (slower); null when there is none.
   */
  @SuppressWarnings("unchecked")
  private java.util.function.Supplier<Object>[] perRowDefaults(Session session, TableDef table, List<Integer> targets) {
    java.util.function.Supplier<Object>[] out = new java.util.function.Supplier[table.columns().size()];
    boolean any = false;
    for (int i = 0; i < out.length; i++) {
      io.accel.catalog.Column column = table.columns().get(i);
      String sql = column.insertDefault().orElse(null);
      if (targets.contains(i) || sql == null || !VOLATILE.matcher(sql).find()) {
        continue;
      }
      io.accel.catalog.DataType type = column.type();
      java.util.regex.Matcher m = NEXTVAL.matcher(sql);
      if (m.matches()) {
        String sequence = m.group(1).replace("''", "'");
        out[i] = () -> Values.coerce(type, session.sequences().nextval(sequence));
      } else if (sql.trim().equalsIgnoreCase("gen_random_uuid()") || sql.trim().equalsIgnoreCase("uuid_generate_v4()")) {
        out[i] = java.util.UUID::randomUUID;
      } else {
        int[] one = {i};
        out[i] = () -> database.defaultValues().of(table, one, ctx)[0];
      }
      any = true;
    }
    return any ? out : null;
  }

  /** Columns as COPY lists them, with the columns it leaves out filled by their defaults. */
  static final class Target {
    private Target() {
    }

    /** Table ordinals of the listed columns (all when none are listed): 42703 for an unknown one. */
    static List<Integer> ordinals(TableDef table, List<String> columns) {
      List<Integer> out = new ArrayList<>();
      if (columns.isEmpty()) {
        for (int i = 0; i < table.columns().size(); i++) {
          if (!table.columns().get(i).generated()) { // as PostgreSQL: COPY leaves generated columns out
            out.add(i);
          }
        }
        return out;
      }
      for (String c : columns) {
        int o = table.columnOrdinal(c).orElseThrow(() -> new AccelException(SqlState.UNDEFINED_COLUMN,
            "column \"" + c + "\" of relation \"" + table.name() + "\" does not exist"));
        if (table.columns().get(o).generated()) {
          throw new AccelException(SqlState.INVALID_COLUMN_REFERENCE, "column \"" + c + "\" is a generated column")
              .withDetail("Generated columns cannot be used in COPY.");
        }
        if (out.contains(o)) {
          throw new AccelException(SqlState.DUPLICATE_COLUMN, "column \"" + c + "\" specified more than once");
        }
        out.add(o);
      }
      return out;
    }

    static boolean hasDefault(Column column) {
      return column.insertDefault().isPresent();
    }
  }
}
