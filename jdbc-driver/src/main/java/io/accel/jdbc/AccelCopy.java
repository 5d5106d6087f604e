package io.accel.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.sql.SQLException;

/**
 * COPY on a standalone connection, as pgJDBC's {@code CopyManager} offers it: {@code connection.unwrap(AccelCopy.class)
 * .copyIn("COPY t FROM STDIN (FORMAT csv)", reader)}. The data streams through in chunks (bounded memory); the rows
 * join the connection's open transaction, or commit with the COPY under auto-commit; an error rolls the COPY back.
 */
public interface AccelCopy {
  /** {@code COPY ... FROM STDIN} reading the data (UTF-8) from {@code from} to its end; the rows copied. */
  long copyIn(String sql, InputStream from) throws SQLException, IOException;

  /** As {@link #copyIn(String, InputStream)}, from characters. */
  long copyIn(String sql, Reader from) throws SQLException, IOException;

  /** {@code COPY ... TO STDOUT} writing the data (UTF-8) to {@code to}; the rows copied. */
  long copyOut(String sql, OutputStream to) throws SQLException, IOException;

  /** As {@link #copyOut(String, OutputStream)}, as characters. */
  long copyOut(String sql, Writer to) throws SQLException, IOException;
}
