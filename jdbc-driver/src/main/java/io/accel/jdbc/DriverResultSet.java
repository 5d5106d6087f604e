package io.accel.jdbc;

import io.accel.exec.PgText;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The result set applications get from a local statement. The calls made for every row and value ({@code next}, the
 * common getters by index or label, {@code wasNull}) run here directly on Avatica's result set; every other call goes
 * to {@code general}, the driver's proxy over the same result set, with its locking, conversions and error
 * translation. A proxy call costs a reflective dispatch and a boxed value, about half of a value's cost before.
 */
final class DriverResultSet implements ResultSet {
  private final JdbcErrors.Handler handler;
  private final ResultSet rs;
  private final ResultSet general;
  /** The same result set when it knows its cursor's rows, for reading values as the row holds them; else null. */
  private final AccelJdbcFactory.LocalResultSet local;
  /**
   * Per column (from 1), from the metadata at the first read: the class of the values Avatica's getObject returns
   * unchanged from the row (int, bigint, varchar, boolean, double; else null), read straight from the row...
   */
  private Class<?>[] rawClasses;
  /** ...and whether it holds text (numbers are parsed from it), a timestamptz or an interval (the general path). */
  private byte[] kinds;
  /** The zone timestamptz values print in, read with the kinds. */
  private java.time.ZoneId zone;
  private static final byte PLAIN = 0;
  private static final byte TEXT = 1;
  private static final byte TIMESTAMPTZ = 2;
  private static final byte INTERVAL = 3;
  /**
   * A timestamp, time, array, boolean or float: getString gives PostgreSQL's text (as for a timestamptz), as pgJDBC
   * gives the server's ({@code t}, {@code 2024} for a double 2024, {@code {1,2}}).
   */
  private static final byte PG_TEXT = 4;
  /** What wasNull reports after a value read from the row: ASK_AVATICA after any other read. */
  private byte lastNull = ASK_AVATICA;
  private static final byte ASK_AVATICA = 0;
  private static final byte NOT_NULL = 1;
  private static final byte NULL = 2;
  /** {@link #raw} when the value must be read through Avatica. */
  private static final Object NOT_RAW = new Object();

  DriverResultSet(JdbcErrors.Handler handler, ResultSet rs, ResultSet general) {
    this.handler = handler;
    this.rs = rs;
    this.general = general;
    this.local = rs instanceof AccelJdbcFactory.LocalResultSet l ? l : null;
  }

  /** The general path, after which wasNull is Avatica's again. */
  private ResultSet general() {
    lastNull = ASK_AVATICA;
    return general;
  }

  /**
   * The column's value as the current row holds it when it is of {@code type} (or null), recording it for
   * wasNull; {@link #NOT_RAW} when Avatica must read it: no row known (before the first, after the last, closed),
   * a column Avatica converts, or a value of another class.
   */
  private Object raw(int column, Class<?> type) throws SQLException {
    if (local == null) {
      return NOT_RAW;
    }
    Object[] row = local.currentRow();
    if (row == null || column < 1 || column > row.length) {
      return NOT_RAW;
    }
    if (rawClasses == null) {
      describe();
    }
    Class<?> c = column < rawClasses.length ? rawClasses[column] : null;
    if (c == null || type != null && c != type) {
      return NOT_RAW;
    }
    Object v = row[column - 1];
    if (v == null) {
      lastNull = NULL;
      return null;
    }
    if (v.getClass() != c) {
      return NOT_RAW;
    }
    lastNull = NOT_NULL;
    return v;
  }

  /** Reads the columns' {@link #rawClasses} and {@link #kinds} from the metadata. */
  private void describe() throws SQLException {
    try {
      ResultSetMetaData metaData = rs.getMetaData();
      int columns = metaData.getColumnCount();
      Class<?>[] classes = new Class<?>[columns + 1];
      byte[] columnKinds = new byte[columns + 1];
      for (int i = 1; i <= columns; i++) {
        int type = metaData.getColumnType(i);
        String typeName = metaData.getColumnTypeName(i);
        classes[i] = switch (type) {
          case java.sql.Types.INTEGER -> Integer.class;
          case java.sql.Types.BIGINT -> Long.class;
          case java.sql.Types.VARCHAR -> String.class;
          case java.sql.Types.BOOLEAN -> Boolean.class;
          case java.sql.Types.DOUBLE -> Double.class;
          default -> null;
        };
        columnKinds[i] = JdbcValues.isTextType(type) ? TEXT : JdbcValues.TIMESTAMPTZ.equals(typeName) ? TIMESTAMPTZ
            : typeName.startsWith("INTERVAL_") ? INTERVAL
            : type == java.sql.Types.TIMESTAMP || type == java.sql.Types.TIME || type == java.sql.Types.ARRAY
                || type == java.sql.Types.BOOLEAN || type == java.sql.Types.DOUBLE || type == java.sql.Types.REAL
                || type == java.sql.Types.FLOAT || type == java.sql.Types.DECIMAL ? PG_TEXT
            : PLAIN;
      }
      rawClasses = classes;
      kinds = columnKinds;
      zone = local == null ? null : local.sessionZone();
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  /** The column's kind; PLAIN for an index out of range (the getter reports that). */
  private byte kind(int column) throws SQLException {
    if (kinds == null) {
      describe();
    }
    return column >= 1 && column < kinds.length ? kinds[column] : PLAIN;
  }

  @Override
  public boolean next() throws SQLException {
    lastNull = ASK_AVATICA;
    return handler.nextLocked(rs);
  }

  // The getters below read the current row, which Avatica holds on the heap: no native resource is touched, so
  // they do not take the connection's lock (next and close, which step and free the cursor, do).

  @Override
  public boolean wasNull() throws SQLException {
    if (lastNull != ASK_AVATICA) {
      return lastNull == NULL;
    }
    try {
      return rs.wasNull();
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public String getString(int column) throws SQLException {
    Object v = raw(column, String.class);
    if (v != NOT_RAW) {
      return v == null ? null : (String) v;
    }
    lastNull = ASK_AVATICA;
    byte kind = kind(column);
    if (kind == INTERVAL) {
      return general().getString(column); // PostgreSQL's text of it
    }
    if ((kind == PG_TEXT || kind == TIMESTAMPTZ) && local != null) {
      Object[] row = local.currentRow();
      if (row != null) {
        Object value = row[column - 1];
        lastNull = value == null ? NULL : NOT_NULL;
        return PgText.format(value, local.columnType(column), zone);
      }
    }
    try {
      return rs.getString(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  /** The column's text (for an array's toString); wasNull stays as the getter that asked left it. */
  private String text(int column) throws SQLException {
    byte saved = lastNull;
    try {
      return getString(column);
    } finally {
      lastNull = saved;
    }
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    Object v = raw(column, Boolean.class);
    if (v != NOT_RAW) {
      return v == null ? false : (Boolean) v;
    }
    lastNull = ASK_AVATICA;
    try {
      return rs.getBoolean(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public Date getDate(int column) throws SQLException {
    lastNull = ASK_AVATICA;
    try {
      return rs.getDate(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  // numbers read from a text column are parsed by the general path (Avatica refuses them)

  @Override
  public short getShort(int column) throws SQLException {
    lastNull = ASK_AVATICA;
    if (kind(column) == TEXT) {
      return general().getShort(column);
    }
    try {
      return rs.getShort(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public int getInt(int column) throws SQLException {
    Object v = raw(column, Integer.class);
    if (v != NOT_RAW) {
      return v == null ? 0 : (Integer) v;
    }
    lastNull = ASK_AVATICA;
    if (kind(column) == TEXT) {
      return general().getInt(column);
    }
    try {
      return rs.getInt(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public long getLong(int column) throws SQLException {
    Object v = raw(column, Long.class);
    if (v == NOT_RAW) {
      v = raw(column, Integer.class);
    }
    if (v != NOT_RAW) {
      return v == null ? 0 : ((Number) v).longValue();
    }
    lastNull = ASK_AVATICA;
    if (kind(column) == TEXT) {
      return general().getLong(column);
    }
    try {
      return rs.getLong(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public double getDouble(int column) throws SQLException {
    Object v = raw(column, Double.class);
    if (v != NOT_RAW) {
      return v == null ? 0 : (Double) v;
    }
    lastNull = ASK_AVATICA;
    if (kind(column) == TEXT) {
      return general().getDouble(column);
    }
    try {
      return rs.getDouble(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public BigDecimal getBigDecimal(int column) throws SQLException {
    lastNull = ASK_AVATICA;
    if (kind(column) == TEXT) {
      return general().getBigDecimal(column);
    }
    try {
      return rs.getBigDecimal(column);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  /**
   * A timestamptz is an instant the general path converts, an interval its PostgreSQL text; bytes come as byte[], not
   * Avatica's ByteString, and arrays as pgJDBC's ({@link JdbcArray}).
   */
  @Override
  public Object getObject(int column) throws SQLException {
    Object v = raw(column, null);
    if (v != NOT_RAW) {
      return v;
    }
    lastNull = ASK_AVATICA;
    if (kind(column) == TIMESTAMPTZ || kind(column) == INTERVAL) {
      return general().getObject(column);
    }
    try {
      Object o = rs.getObject(column);
      return o instanceof org.apache.calcite.avatica.util.ByteString b ? b.getBytes()
          : o instanceof Array a ? JdbcArray.of(a, text(column)) : o;
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  private int column(String label) throws SQLException {
    try {
      return rs.findColumn(label);
    } catch (SQLException | RuntimeException e) {
      throw JdbcErrors.translateOnce(e);
    }
  }

  @Override
  public String getString(String label) throws SQLException {
    return getString(column(label));
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(column(label));
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(column(label));
  }

  @Override
  public short getShort(String label) throws SQLException {
    return getShort(column(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(column(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(column(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(column(label));
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(column(label));
  }

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(column(label));
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(this) ? iface.cast(this) : general().unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || general().isWrapperFor(iface);
  }

  @Override
  public String toString() {
    return general.toString();
  }

  // everything else: the general path

  @Override
  public void close() throws SQLException {
    general().close();
  }

  @Override
  public byte getByte(int column) throws SQLException {
    return general().getByte(column);
  }

  @Override
  public float getFloat(int column) throws SQLException {
    return general().getFloat(column);
  }

  @Deprecated
  @Override
  public BigDecimal getBigDecimal(int column, int scale) throws SQLException {
    return general().getBigDecimal(column, scale);
  }

  @Override
  public byte[] getBytes(int column) throws SQLException {
    return general().getBytes(column);
  }

  @Override
  public Time getTime(int column) throws SQLException {
    return general().getTime(column);
  }

  @Override
  public Timestamp getTimestamp(int column) throws SQLException {
    return general().getTimestamp(column);
  }

  @Override
  public InputStream getAsciiStream(int column) throws SQLException {
    return general().getAsciiStream(column);
  }

  @Deprecated
  @Override
  public InputStream getUnicodeStream(int column) throws SQLException {
    return general().getUnicodeStream(column);
  }

  @Override
  public InputStream getBinaryStream(int column) throws SQLException {
    return general().getBinaryStream(column);
  }

  @Override
  public byte getByte(String label) throws SQLException {
    return general().getByte(label);
  }

  @Override
  public float getFloat(String label) throws SQLException {
    return general().getFloat(label);
  }

  @Deprecated
  @Override
  public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
    return general().getBigDecimal(label, scale);
  }

  @Override
  public byte[] getBytes(String label) throws SQLException {
    return general().getBytes(label);
  }

  @Override
  public Time getTime(String label) throws SQLException {
    return general().getTime(label);
  }

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return general().getTimestamp(label);
  }

  @Override
  public InputStream getAsciiStream(String label) throws SQLException {
    return general().getAsciiStream(label);
  }

  @Deprecated
  @Override
  public InputStream getUnicodeStream(String label) throws SQLException {
    return general().getUnicodeStream(label);
  }

  @Override
  public InputStream getBinaryStream(String label) throws SQLException {
    return general().getBinaryStream(label);
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return general().getWarnings();
  }

  @Override
  public void clearWarnings() throws SQLException {
    general().clearWarnings();
  }

  @Override
  public String getCursorName() throws SQLException {
    return general().getCursorName();
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return general().getMetaData();
  }

  @Override
  public int findColumn(String label) throws SQLException {
    return general().findColumn(label);
  }

  @Override
  public Reader getCharacterStream(int column) throws SQLException {
    return general().getCharacterStream(column);
  }

  @Override
  public Reader getCharacterStream(String label) throws SQLException {
    return general().getCharacterStream(label);
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    return general().isBeforeFirst();
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    return general().isAfterLast();
  }

  @Override
  public boolean isFirst() throws SQLException {
    return general().isFirst();
  }

  @Override
  public boolean isLast() throws SQLException {
    return general().isLast();
  }

  @Override
  public void beforeFirst() throws SQLException {
    general().beforeFirst();
  }

  @Override
  public void afterLast() throws SQLException {
    general().afterLast();
  }

  @Override
  public boolean first() throws SQLException {
    return general().first();
  }

  @Override
  public boolean last() throws SQLException {
    return general().last();
  }

  @Override
  public int getRow() throws SQLException {
    return general().getRow();
  }

  @Override
  public boolean absolute(int row) throws SQLException {
    return general().absolute(row);
  }

  @Override
  public boolean relative(int rows) throws SQLException {
    return general().relative(rows);
  }

  @Override
  public boolean previous() throws SQLException {
    return general().previous();
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    general().setFetchDirection(direction);
  }

  @Override
  public int getFetchDirection() throws SQLException {
    return general().getFetchDirection();
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    general().setFetchSize(rows);
  }

  @Override
  public int getFetchSize() throws SQLException {
    return general().getFetchSize();
  }

  @Override
  public int getType() throws SQLException {
    return general().getType();
  }

  @Override
  public int getConcurrency() throws SQLException {
    return general().getConcurrency();
  }

  @Override
  public boolean rowUpdated() throws SQLException {
    return general().rowUpdated();
  }

  @Override
  public boolean rowInserted() throws SQLException {
    return general().rowInserted();
  }

  @Override
  public boolean rowDeleted() throws SQLException {
    return general().rowDeleted();
  }

  @Override
  public void updateNull(int column) throws SQLException {
    general().updateNull(column);
  }

  @Override
  public void updateBoolean(int column, boolean value) throws SQLException {
    general().updateBoolean(column, value);
  }

  @Override
  public void updateByte(int column, byte value) throws SQLException {
    general().updateByte(column, value);
  }

  @Override
  public void updateShort(int column, short value) throws SQLException {
    general().updateShort(column, value);
  }

  @Override
  public void updateInt(int column, int value) throws SQLException {
    general().updateInt(column, value);
  }

  @Override
  public void updateLong(int column, long value) throws SQLException {
    general().updateLong(column, value);
  }

  @Override
  public void updateFloat(int column, float value) throws SQLException {
    general().updateFloat(column, value);
  }

  @Override
  public void updateDouble(int column, double value) throws SQLException {
    general().updateDouble(column, value);
  }

  @Override
  public void updateBigDecimal(int column, BigDecimal value) throws SQLException {
    general().updateBigDecimal(column, value);
  }

  @Override
  public void updateString(int column, String value) throws SQLException {
    general().updateString(column, value);
  }

  @Override
  public void updateBytes(int column, byte[] value) throws SQLException {
    general().updateBytes(column, value);
  }

  @Override
  public void updateDate(int column, Date value) throws SQLException {
    general().updateDate(column, value);
  }

  @Override
  public void updateTime(int column, Time value) throws SQLException {
    general().updateTime(column, value);
  }

  @Override
  public void updateTimestamp(int column, Timestamp value) throws SQLException {
    general().updateTimestamp(column, value);
  }

  @Override
  public void updateAsciiStream(int column, InputStream value, int length) throws SQLException {
    general().updateAsciiStream(column, value, length);
  }

  @Override
  public void updateBinaryStream(int column, InputStream value, int length) throws SQLException {
    general().updateBinaryStream(column, value, length);
  }

  @Override
  public void updateCharacterStream(int column, Reader value, int length) throws SQLException {
    general().updateCharacterStream(column, value, length);
  }

  @Override
  public void updateObject(int column, Object value, int scaleOrLength) throws SQLException {
    general().updateObject(column, value, scaleOrLength);
  }

  @Override
  public void updateObject(int column, Object value) throws SQLException {
    general().updateObject(column, value);
  }

  @Override
  public void updateNull(String label) throws SQLException {
    general().updateNull(label);
  }

  @Override
  public void updateBoolean(String label, boolean value) throws SQLException {
    general().updateBoolean(label, value);
  }

  @Override
  public void updateByte(String label, byte value) throws SQLException {
    general().updateByte(label, value);
  }

  @Override
  public void updateShort(String label, short value) throws SQLException {
    general().updateShort(label, value);
  }

  @Override
  public void updateInt(String label, int value) throws SQLException {
    general().updateInt(label, value);
  }

  @Override
  public void updateLong(String label, long value) throws SQLException {
    general().updateLong(label, value);
  }

  @Override
  public void updateFloat(String label, float value) throws SQLException {
    general().updateFloat(label, value);
  }

  @Override
  public void updateDouble(String label, double value) throws SQLException {
    general().updateDouble(label, value);
  }

  @Override
  public void updateBigDecimal(String label, BigDecimal value) throws SQLException {
    general().updateBigDecimal(label, value);
  }

  @Override
  public void updateString(String label, String value) throws SQLException {
    general().updateString(label, value);
  }

  @Override
  public void updateBytes(String label, byte[] value) throws SQLException {
    general().updateBytes(label, value);
  }

  @Override
  public void updateDate(String label, Date value) throws SQLException {
    general().updateDate(label, value);
  }

  @Override
  public void updateTime(String label, Time value) throws SQLException {
    general().updateTime(label, value);
  }

  @Override
  public void updateTimestamp(String label, Timestamp value) throws SQLException {
    general().updateTimestamp(label, value);
  }

  @Override
  public void updateAsciiStream(String label, InputStream value, int length) throws SQLException {
    general().updateAsciiStream(label, value, length);
  }

  @Override
  public void updateBinaryStream(String label, InputStream value, int length) throws SQLException {
    general().updateBinaryStream(label, value, length);
  }

  @Override
  public void updateCharacterStream(String label, Reader value, int length) throws SQLException {
    general().updateCharacterStream(label, value, length);
  }

  @Override
  public void updateObject(String label, Object value, int scaleOrLength) throws SQLException {
    general().updateObject(label, value, scaleOrLength);
  }

  @Override
  public void updateObject(String label, Object value) throws SQLException {
    general().updateObject(label, value);
  }

  @Override
  public void insertRow() throws SQLException {
    general().insertRow();
  }

  @Override
  public void updateRow() throws SQLException {
    general().updateRow();
  }

  @Override
  public void deleteRow() throws SQLException {
    general().deleteRow();
  }

  @Override
  public void refreshRow() throws SQLException {
    general().refreshRow();
  }

  @Override
  public void cancelRowUpdates() throws SQLException {
    general().cancelRowUpdates();
  }

  @Override
  public void moveToInsertRow() throws SQLException {
    general().moveToInsertRow();
  }

  @Override
  public void moveToCurrentRow() throws SQLException {
    general().moveToCurrentRow();
  }

  @Override
  public Statement getStatement() throws SQLException {
    return general().getStatement();
  }

  @Override
  public Object getObject(int column, Map<String, Class<?>> map) throws SQLException {
    return general().getObject(column, map);
  }

  @Override
  public Ref getRef(int column) throws SQLException {
    return general().getRef(column);
  }

  @Override
  public Blob getBlob(int column) throws SQLException {
    return general().getBlob(column);
  }

  @Override
  public Clob getClob(int column) throws SQLException {
    return general().getClob(column);
  }

  @Override
  public Array getArray(int column) throws SQLException {
    return JdbcArray.of(general().getArray(column), text(column));
  }

  @Override
  public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
    return general().getObject(label, map);
  }

  @Override
  public Ref getRef(String label) throws SQLException {
    return general().getRef(label);
  }

  @Override
  public Blob getBlob(String label) throws SQLException {
    return general().getBlob(label);
  }

  @Override
  public Clob getClob(String label) throws SQLException {
    return general().getClob(label);
  }

  @Override
  public Array getArray(String label) throws SQLException {
    return getArray(column(label));
  }

  @Override
  public Date getDate(int column, Calendar calendar) throws SQLException {
    return general().getDate(column, calendar);
  }

  @Override
  public Date getDate(String label, Calendar calendar) throws SQLException {
    return general().getDate(label, calendar);
  }

  @Override
  public Time getTime(int column, Calendar calendar) throws SQLException {
    return general().getTime(column, calendar);
  }

  @Override
  public Time getTime(String label, Calendar calendar) throws SQLException {
    return general().getTime(label, calendar);
  }

  @Override
  public Timestamp getTimestamp(int column, Calendar calendar) throws SQLException {
    return general().getTimestamp(column, calendar);
  }

  @Override
  public Timestamp getTimestamp(String label, Calendar calendar) throws SQLException {
    return general().getTimestamp(label, calendar);
  }

  @Override
  public URL getURL(int column) throws SQLException {
    return general().getURL(column);
  }

  @Override
  public URL getURL(String label) throws SQLException {
    return general().getURL(label);
  }

  @Override
  public void updateRef(int column, Ref value) throws SQLException {
    general().updateRef(column, value);
  }

  @Override
  public void updateRef(String label, Ref value) throws SQLException {
    general().updateRef(label, value);
  }

  @Override
  public void updateBlob(int column, Blob value) throws SQLException {
    general().updateBlob(column, value);
  }

  @Override
  public void updateBlob(String label, Blob value) throws SQLException {
    general().updateBlob(label, value);
  }

  @Override
  public void updateClob(int column, Clob value) throws SQLException {
    general().updateClob(column, value);
  }

  @Override
  public void updateClob(String label, Clob value) throws SQLException {
    general().updateClob(label, value);
  }

  @Override
  public void updateArray(int column, Array value) throws SQLException {
    general().updateArray(column, value);
  }

  @Override
  public void updateArray(String label, Array value) throws SQLException {
    general().updateArray(label, value);
  }

  @Override
  public RowId getRowId(int column) throws SQLException {
    return general().getRowId(column);
  }

  @Override
  public RowId getRowId(String label) throws SQLException {
    return general().getRowId(label);
  }

  @Override
  public void updateRowId(int column, RowId value) throws SQLException {
    general().updateRowId(column, value);
  }

  @Override
  public void updateRowId(String label, RowId value) throws SQLException {
    general().updateRowId(label, value);
  }

  @Override
  public int getHoldability() throws SQLException {
    return general().getHoldability();
  }

  @Override
  public boolean isClosed() throws SQLException {
    return general().isClosed();
  }

  @Override
  public void updateNString(int column, String value) throws SQLException {
    general().updateNString(column, value);
  }

  @Override
  public void updateNString(String label, String value) throws SQLException {
    general().updateNString(label, value);
  }

  @Override
  public void updateNClob(int column, NClob value) throws SQLException {
    general().updateNClob(column, value);
  }

  @Override
  public void updateNClob(String label, NClob value) throws SQLException {
    general().updateNClob(label, value);
  }

  @Override
  public NClob getNClob(int column) throws SQLException {
    return general().getNClob(column);
  }

  @Override
  public NClob getNClob(String label) throws SQLException {
    return general().getNClob(label);
  }

  @Override
  public SQLXML getSQLXML(int column) throws SQLException {
    return general().getSQLXML(column);
  }

  @Override
  public SQLXML getSQLXML(String label) throws SQLException {
    return general().getSQLXML(label);
  }

  @Override
  public void updateSQLXML(int column, SQLXML value) throws SQLException {
    general().updateSQLXML(column, value);
  }

  @Override
  public void updateSQLXML(String label, SQLXML value) throws SQLException {
    general().updateSQLXML(label, value);
  }

  @Override
  public String getNString(int column) throws SQLException {
    return general().getNString(column);
  }

  @Override
  public String getNString(String label) throws SQLException {
    return general().getNString(label);
  }

  @Override
  public Reader getNCharacterStream(int column) throws SQLException {
    return general().getNCharacterStream(column);
  }

  @Override
  public Reader getNCharacterStream(String label) throws SQLException {
    return general().getNCharacterStream(label);
  }

  @Override
  public void updateNCharacterStream(int column, Reader value, long length) throws SQLException {
    general().updateNCharacterStream(column, value, length);
  }

  @Override
  public void updateNCharacterStream(String label, Reader value, long length) throws SQLException {
    general().updateNCharacterStream(label, value, length);
  }

  @Override
  public void updateAsciiStream(int column, InputStream value, long length) throws SQLException {
    general().updateAsciiStream(column, value, length);
  }

  @Override
  public void updateBinaryStream(int column, InputStream value, long length) throws SQLException {
    general().updateBinaryStream(column, value, length);
  }

  @Override
  public void updateCharacterStream(int column, Reader value, long length) throws SQLException {
    general().updateCharacterStream(column, value, length);
  }

  @Override
  public void updateAsciiStream(String label, InputStream value, long length) throws SQLException {
    general().updateAsciiStream(label, value, length);
  }

  @Override
  public void updateBinaryStream(String label, InputStream value, long length) throws SQLException {
    general().updateBinaryStream(label, value, length);
  }

  @Override
  public void updateCharacterStream(String label, Reader value, long length) throws SQLException {
    general().updateCharacterStream(label, value, length);
  }

  @Override
  public void updateBlob(int column, InputStream value, long length) throws SQLException {
    general().updateBlob(column, value, length);
  }

  @Override
  public void updateBlob(String label, InputStream value, long length) throws SQLException {
    general().updateBlob(label, value, length);
  }

  @Override
  public void updateClob(int column, Reader value, long length) throws SQLException {
    general().updateClob(column, value, length);
  }

  @Override
  public void updateClob(String label, Reader value, long length) throws SQLException {
    general().updateClob(label, value, length);
  }

  @Override
  public void updateNClob(int column, Reader value, long length) throws SQLException {
    general().updateNClob(column, value, length);
  }

  @Override
  public void updateNClob(String label, Reader value, long length) throws SQLException {
    general().updateNClob(label, value, length);
  }

  @Override
  public void updateNCharacterStream(int column, Reader value) throws SQLException {
    general().updateNCharacterStream(column, value);
  }

  @Override
  public void updateNCharacterStream(String label, Reader value) throws SQLException {
    general().updateNCharacterStream(label, value);
  }

  @Override
  public void updateAsciiStream(int column, InputStream value) throws SQLException {
    general().updateAsciiStream(column, value);
  }

  @Override
  public void updateBinaryStream(int column, InputStream value) throws SQLException {
    general().updateBinaryStream(column, value);
  }

  @Override
  public void updateCharacterStream(int column, Reader value) throws SQLException {
    general().updateCharacterStream(column, value);
  }

  @Override
  public void updateAsciiStream(String label, InputStream value) throws SQLException {
    general().updateAsciiStream(label, value);
  }

  @Override
  public void updateBinaryStream(String label, InputStream value) throws SQLException {
    general().updateBinaryStream(label, value);
  }

  @Override
  public void updateCharacterStream(String label, Reader value) throws SQLException {
    general().updateCharacterStream(label, value);
  }

  @Override
  public void updateBlob(int column, InputStream value) throws SQLException {
    general().updateBlob(column, value);
  }

  @Override
  public void updateBlob(String label, InputStream value) throws SQLException {
    general().updateBlob(label, value);
  }

  @Override
  public void updateClob(int column, Reader value) throws SQLException {
    general().updateClob(column, value);
  }

  @Override
  public void updateClob(String label, Reader value) throws SQLException {
    general().updateClob(label, value);
  }

  @Override
  public void updateNClob(int column, Reader value) throws SQLException {
    general().updateNClob(column, value);
  }

  @Override
  public void updateNClob(String label, Reader value) throws SQLException {
    general().updateNClob(label, value);
  }

  @Override
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    return general().getObject(column, type);
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return general().getObject(label, type);
  }

  @Override
  public void updateObject(int column, Object value, SQLType type, int scaleOrLength) throws SQLException {
    general().updateObject(column, value, type, scaleOrLength);
  }

  @Override
  public void updateObject(String label, Object value, SQLType type, int scaleOrLength) throws SQLException {
    general().updateObject(label, value, type, scaleOrLength);
  }

  @Override
  public void updateObject(int column, Object value, SQLType type) throws SQLException {
    general().updateObject(column, value, type);
  }

  @Override
  public void updateObject(String label, Object value, SQLType type) throws SQLException {
    general().updateObject(label, value, type);
  }
}
