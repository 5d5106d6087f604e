package io.accel.e2e.fronting;

import io.accel.jdbc.AccelDriver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A process that holds a mirror open (for {@link MirrorCrashTest}, which kills it with SIGKILL): it connects through
 * {@code jdbc:accel:postgresql://} (taking or resuming the snapshot), prints {@code ready}, then reads until killed.
 * With {@code abandon} after the URL it reads once and returns from main without closing its connection.
 */
public final class MirrorHolder {
  private MirrorHolder() {
  }

  public static void main(String[] args) throws Exception {
    AccelDriver.load();
    if (args.length > 1 && args[1].equals("abandon")) {
      // an application that ends without closing its connection: its JVM must still exit
      Connection c = DriverManager.getConnection(args[0]);
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM accounts")) {
        rs.next();
        System.out.println("abandoning " + rs.getLong(1));
      }
      return;
    }
    System.out.println("connecting");
    try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
      System.out.println("ready");
      while (true) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM events")) {
          rs.next();
        }
        Thread.sleep(10);
      }
    }
  }
}
