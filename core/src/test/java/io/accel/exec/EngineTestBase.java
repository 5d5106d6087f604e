package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.storage.Store;
import io.accel.storage.StoreOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A session on a fresh in-memory store for each test, for tests that drive core's engine API as a frontend does. */
public abstract class EngineTestBase {
  protected Database db;
  protected Session s;
  protected int keys;

  /** The session's user (session_authorization, current_user). */
  protected String user() {
    return "tester";
  }

  @BeforeEach
  protected void openSession() throws Exception {
    db = Database.open(Store.openInMemory(getClass().getSimpleName() + "-" + System.nanoTime(),
        new StoreOptions(8 << 20, false)));
    s = new Session(db, new Session.Options(100, TimeZone.getTimeZone("UTC"), user()));
  }

  @AfterEach
  protected void closeSession() {
    s.close();
    db.close();
  }

  protected Result run(String sql) {
    return s.execute("k" + keys++, sql);
  }

  /** A statement's rows as a user reads them: the value, or for several columns the row's list as text. */
  protected List<Object> rows(String sql) {
    return rows(s, sql);
  }

  /** {@link #rows(String)} of another session's statement. */
  protected static List<Object> rows(Session session, String sql) {
    List<Object> out = new ArrayList<>();
    try (Result r = session.execute(new Object(), sql)) {
      while (r.cursor().hasNext()) {
        Object row = r.cursor().next();
        out.add(row instanceof Object[] a ? Arrays.asList(a).toString() : row);
      }
    }
    return out;
  }

  protected static AccelException failure(Runnable r) {
    try {
      r.run();
    } catch (AccelException e) {
      return e;
    }
    throw new AssertionError("no failure");
  }
}
