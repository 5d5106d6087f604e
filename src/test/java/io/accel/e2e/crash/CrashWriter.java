package io.accel.e2e.crash;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

/**
 * Writes an endless stream of transactions into {@code ledger} of a file store until it is killed.
 *
 * <p>Usage: {@code CrashWriter <store dir> <create: true|false> <first txn number> <first id> [seed]}. Each
 * transaction {@code T} inserts 3-5 rows with consecutive ids, noted {@code t=T n=N k=K}, then updates its first row
 * (new account, amount set so that the transaction's amounts sum to zero, note suffixed {@code done}) and commits.
 * After each commit returns it prints {@code COMMITTED <T> <last id>} and flushes stdout.
 */
public final class CrashWriter {
  static final int ACCOUNTS = 10;

  private CrashWriter() {
  }

  public static void main(String[] args) throws Exception {
    String dir = args[0];
    boolean create = Boolean.parseBoolean(args[1]);
    long txn = Long.parseLong(args[2]);
    long id = Long.parseLong(args[3]);
    Random rnd = new Random(args.length > 4 ? Long.parseLong(args[4]) : System.nanoTime());
    PrintStream out = System.out;
    try (Connection c = DriverManager.getConnection(url(dir))) {
      if (create) {
        createSchema(c);
      }
      c.setAutoCommit(false);
      Ledger ledger = new Ledger(c);
      out.println("READY " + txn + " " + id);
      out.flush();
      while (true) {
        long last = ledger.writeTransaction(rnd, txn, id);
        c.commit();
        out.println("COMMITTED " + txn + " " + last);
        out.flush();
        txn++;
        id = last + 1;
      }
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(2);
    }
  }

  static String url(String dir) {
    return "jdbc:accel:file:" + dir;
  }

  static void createSchema(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE ledger (id BIGINT PRIMARY KEY, account INTEGER NOT NULL, amount BIGINT NOT NULL,"
          + " note VARCHAR(50))");
      st.execute("CREATE INDEX ledger_account ON ledger (account)");
    }
  }

  static String note(long txn, int n, int k) {
    return "t=" + txn + " n=" + n + " k=" + k;
  }

  /** The writer's statements, prepared once per connection. */
  static final class Ledger implements AutoCloseable {
    private final PreparedStatement ins;
    private final PreparedStatement upd;

    Ledger(Connection c) throws SQLException {
      ins = c.prepareStatement("INSERT INTO ledger (id, account, amount, note) VALUES (?, ?, ?, ?)");
      upd = c.prepareStatement("UPDATE ledger SET account = ?, amount = ?, note = ? WHERE id = ?");
    }

    /** Runs the statements of transaction {@code txn} (without committing); returns its last id. */
    long writeTransaction(Random rnd, long txn, long firstId) throws SQLException {
      int n = 3 + rnd.nextInt(3);
      long others = 0;
      for (int k = 0; k < n; k++) {
        long amount = 1 + rnd.nextInt(1000);
        if (k > 0) {
          others += amount;
        }
        ins.setLong(1, firstId + k);
        ins.setInt(2, rnd.nextInt(ACCOUNTS));
        ins.setLong(3, amount);
        ins.setString(4, note(txn, n, k));
        int inserted = ins.executeUpdate();
        if (inserted != 1) {
          throw new SQLException("INSERT of id " + (firstId + k) + " reported " + inserted + " rows");
        }
      }
      upd.setInt(1, rnd.nextInt(ACCOUNTS));
      upd.setLong(2, -others);
      upd.setString(3, note(txn, n, 0) + " done");
      upd.setLong(4, firstId);
      int updated = upd.executeUpdate();
      if (updated != 1) {
        throw new SQLException("UPDATE of id " + firstId + " changed " + updated + " rows");
      }
      return firstId + n - 1;
    }

    @Override
    public void close() throws SQLException {
      ins.close();
      upd.close();
    }
  }
}
