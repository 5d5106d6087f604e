package io.accel.jdbc;

import io.accel.exec.Notifications.Notification;
import java.sql.SQLException;
import java.util.List;

/**
 * LISTEN / NOTIFY on a standalone connection, as pgJDBC's {@code PGConnection.getNotifications} offers them:
 * {@code connection.unwrap(AccelNotifications.class)}.
 */
public interface AccelNotifications {
  /** The notifications received so far, without waiting (empty when none). */
  List<Notification> getNotifications() throws SQLException;

  /**
   * The notifications received, waiting for the first up to {@code timeoutMillis} (0: until one arrives), as
   * pgJDBC's method of that name.
   */
  List<Notification> getNotifications(int timeoutMillis) throws SQLException;
}
