package io.accel.exec;

import io.accel.catalog.SequenceDef;
import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The sequence functions as one session calls them: nextval, currval, setval and lastval, with PostgreSQL's
 * per-session currval/lastval (55000 before this session's first nextval) and its reading of a sequence name
 * ({@code 'S'} is {@code s}, {@code '"S"'} is {@code S}, {@code 'public.s'} is {@code s}).
 */
public final class SessionSequences {
  private final Database database;
  /** Per sequence id, the value this session's last nextval (or setval) gave. */
  private final Map<Long, Long> current = new HashMap<>();
  private long lastId = -1;

  SessionSequences(Database database) {
    this.database = database;
  }

  public synchronized long nextval(String name) {
    SequenceDef s = resolve(name);
    long v = database.sequenceValues().next(s);
    current.put(s.id(), v);
    lastId = s.id();
    return v;
  }

  public synchronized long currval(String name) {
    SequenceDef s = resolve(name);
    Long v = current.get(s.id());
    if (v == null) {
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
          "currval of sequence \"" + s.name() + "\" is not yet defined in this session");
    }
    return v;
  }

  public synchronized long setval(String name, long value, boolean called) {
    SequenceDef s = resolve(name);
    database.sequenceValues().set(s, value, called);
    if (called) {
      current.put(s.id(), value);
      lastId = s.id();
    }
    return value;
  }

  public synchronized long lastval() {
    Long v = lastId < 0 ? null : current.get(lastId);
    if (v == null || database.sequences().byId(lastId).isEmpty()) {
      throw new AccelException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "lastval is not yet defined in this session");
    }
    return v;
  }

  /** The sequence a name given as text denotes: 42P01 when none, 42809 when it names a table. */
  public SequenceDef resolve(String text) {
    if (text == null) {
      throw new AccelException(SqlState.NULL_VALUE_NOT_ALLOWED, "sequence name must not be null");
    }
    String name = relationName(text);
    return database.sequences().sequence(name).orElseThrow(() -> database.catalog().table(name).isPresent()
        ? new AccelException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a sequence")
        : new AccelException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
  }

  /** A relation name written as text, as PostgreSQL's regclass input reads it (optionally qualified by public). */
  public static String relationNameOf(String text) {
    return relationName(text);
  }

  static String relationName(String text) {
    String t = text.trim();
    String schema = null;
    int dot = dotOutsideQuotes(t);
    if (dot >= 0) {
      schema = identifier(t.substring(0, dot));
      t = t.substring(dot + 1);
    }
    if (schema != null && !schema.equals("public")) {
      throw new AccelException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + schema + "\" does not exist");
    }
    return identifier(t);
  }

  private static int dotOutsideQuotes(String t) {
    boolean quoted = false;
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        return i;
      }
    }
    return -1;
  }

  private static String identifier(String part) {
    String p = part.trim();
    if (p.length() >= 2 && p.startsWith("\"") && p.endsWith("\"")) {
      return p.substring(1, p.length() - 1).replace("\"\"", "\"");
    }
    return p.toLowerCase(Locale.ROOT);
  }
}
