package io.accel.exec;

import io.accel.sql.AccelException;
import io.accel.sql.SqlState;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session's run-time parameters, as PostgreSQL's SET, SHOW and RESET see them. Names are case-insensitive;
 * SHOW prints them as PostgreSQL does ({@code TimeZone}, {@code DateStyle}). Values are checked when set
 * (22023 for a bad value, 42704 for an unknown name, 55P02 for a read-only one). Names with a dot are custom
 * settings any value may be given, as PostgreSQL's placeholders are.
 */
public final class Settings {
  /** A parameter: its name as SHOW prints it, its default, whether SET may change it, what it means. */
  private record Parameter(String display, String defaultValue, boolean readOnly, String description) {
  }

  public static final String SERVER_VERSION = "15.0 (Accel 0.1.0)";
  /** The PostgreSQL release whose SQL and catalog Accel answers as: server_version's numbers. */
  public static final int SERVER_MAJOR_VERSION = 15;
  public static final int SERVER_MINOR_VERSION = 0;

  private static final Map<String, Parameter> KNOWN = new LinkedHashMap<>();

  static {
    known("application_name", "", false, "the name of the application, as clients report it");
    known("client_encoding", "UTF8", false, "the client's character set (UTF8 only)");
    known("DateStyle", "ISO, MDY", false, "the display format of dates (ISO only)");
    known("default_transaction_isolation", "read committed", false, "isolation of new transactions");
    known("extra_float_digits", "1", false, "digits of float output beyond the default");
    known("integer_datetimes", "on", true, "datetimes are 64-bit integers");
    known("max_index_keys", "32", true, "the most columns an index key holds (pgJDBC reads it for key metadata)");
    known("IntervalStyle", "postgres", false, "the display format of intervals");
    known("is_superuser", "off", true, "whether the user is a superuser");
    known("lc_messages", "C", false, "the language of messages");
    known("role", "none", false, "the current role: the session's user (none) is the only one");
    known("search_path", "\"$user\", public", false, "the schemas unqualified names are looked up in");
    known("server_encoding", "UTF8", true, "the database's character set");
    known("server_version", SERVER_VERSION, true, "the server's version");
    known("server_version_num", "150000", true, "the server's version as a number");
    known("standard_conforming_strings", "on", false, "'...' strings treat backslashes literally (on only)");
    known("statement_timeout", "0", false, "the longest a statement may run, in milliseconds; 0 for no limit");
    known("TimeZone", "UTC", false, "the time zone of TIMESTAMP WITH TIME ZONE values and the current time");
    known("transaction_isolation", "read committed", true, "the current transaction's isolation");
    // parameters clients, pools, ORMs and dump or migration tools set as a matter of course: kept and shown,
    // with no effect on Accel (it sends no notices below WARNING, prints bytea as hex)
    known("client_min_messages", "notice", false, "the lowest severity sent to the client (no effect)");
    known("lock_timeout", "0", false, "the longest a row lock wait may take, in milliseconds; 0 for no limit");
    known("idle_in_transaction_session_timeout", "0", false, "(no effect)");
    known("default_transaction_read_only", "off", false, "(no effect)");
    known("default_transaction_deferrable", "off", false, "(no effect)");
    known("transaction_read_only", "off", true, "whether the current transaction is read-only");
    known("synchronous_commit", "on", false, "(the store's syncCommits decides)");
    known("row_security", "on", false, "(Accel has no row-level security)");
    known("bytea_output", "hex", false, "the output format of bytea (hex only)");
    known("escape_string_warning", "on", false, "(no effect)");
    known("check_function_bodies", "on", false, "(no effect)");
    known("xmloption", "content", false, "(no effect)");
    known("work_mem", "4MB", false, "(no effect)");
    known("maintenance_work_mem", "64MB", false, "(no effect)");
    known("jit", "off", false, "(no effect)");
    known("max_parallel_workers_per_gather", "0", false, "(no effect)");
    known("lc_monetary", "C", false, "(no effect)");
    known("lc_numeric", "C", false, "(no effect)");
    known("lc_time", "C", false, "(no effect)");
    known("default_tablespace", "", false, "(no effect)");
    known("default_table_access_method", "heap", false, "(no effect)");
    known("idle_session_timeout", "0", false, "(the server's --idle-session-timeout decides)");
  }

  private static void known(String display, String defaultValue, boolean readOnly, String description) {
    KNOWN.put(display.toLowerCase(Locale.ROOT), new Parameter(display, defaultValue, readOnly, description));
  }

  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, String> defaults = new LinkedHashMap<>();

  /** @param timeZone the session's initial time zone; {@code user} its user (session_authorization) */
  Settings(TimeZone timeZone, String user) {
    defaults.put("timezone", timeZone.getID());
    defaults.put("session_authorization", user == null ? "accel" : user);
  }

  /** The current value of {@code name}, as SHOW prints it. */
  public synchronized String get(String name) {
    String key = name.toLowerCase(Locale.ROOT);
    if (values.containsKey(key)) {
      return values.get(key);
    }
    if (key.equals("transaction_isolation")) {
      return transactionIsolation != null ? transactionIsolation : get("default_transaction_isolation");
    }
    if (defaults.containsKey(key)) {
      return defaults.get(key);
    }
    Parameter p = KNOWN.get(key);
    if (p != null) {
      return p.defaultValue();
    }
    if (key.contains(".")) {
      throw new AccelException(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
    }
    throw unknown(name);
  }

  /** The value of {@code name}, or null for a custom setting never set. */
  synchronized String find(String name) {
    String key = name.toLowerCase(Locale.ROOT);
    return key.contains(".") && !values.containsKey(key) ? null : get(key);
  }

  /** The name SHOW gives its column: PostgreSQL's spelling ({@code TimeZone}). */
  public static String displayName(String name) {
    Parameter p = KNOWN.get(name.toLowerCase(Locale.ROOT));
    return p == null ? name.toLowerCase(Locale.ROOT) : p.display();
  }

  /** Every parameter with its value and description, for SHOW ALL. */
  public synchronized Map<String, String[]> all() {
    Map<String, String[]> all = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (Map.Entry<String, Parameter> e : KNOWN.entrySet()) {
      all.put(e.getValue().display(), new String[] {get(e.getKey()), e.getValue().description()});
    }
    all.put("session_authorization", new String[] {get("session_authorization"), "the session's user"});
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!KNOWN.containsKey(e.getKey())) {
        all.put(e.getKey(), new String[] {e.getValue(), "custom setting"});
      }
    }
    return all;
  }

  /** Sets {@code name}; null resets it to its default. Returns the value stored (normalised). */
  public synchronized String set(String name, String value) {
    String key = name.toLowerCase(Locale.ROOT);
    Parameter p = KNOWN.get(key);
    if (p == null && !key.contains(".") && !key.equals("session_authorization")) {
      throw unknown(name);
    }
    if (p != null && p.readOnly() || key.equals("session_authorization")) {
      throw new AccelException(SqlState.CANT_CHANGE_RUNTIME_PARAM,
          "parameter \"" + name + "\" cannot be changed");
    }
    if (value == null) {
      values.remove(key);
      version++;
      if (key.equals("statement_timeout")) {
        statementTimeout = 0;
      } else if (key.equals("lock_timeout")) {
        lockTimeout = 0;
      }
      return get(key);
    }
    String v = switch (key) {
      case "timezone" -> zoneSetting(value);
      case "statement_timeout", "lock_timeout" -> Long.toString(millis(name, value));
      case "extra_float_digits" -> Integer.toString(integer(name, value, -15, 3));
      case "datestyle" -> {
        String upper = value.toUpperCase(Locale.ROOT);
        if (!upper.startsWith("ISO")) {
          throw invalid(name, value, "Accel formats dates as ISO only");
        }
        yield "ISO, MDY";
      }
      case "client_encoding" -> {
        String upper = value.toUpperCase(Locale.ROOT).replace("-", "");
        if (!upper.equals("UTF8") && !upper.equals("UNICODE")) {
          throw invalid(name, value, "Accel speaks UTF8 only");
        }
        yield "UTF8";
      }
      case "standard_conforming_strings" -> {
        if (!value.equalsIgnoreCase("on") && !value.equalsIgnoreCase("true")) {
          throw new AccelException(SqlState.FEATURE_NOT_SUPPORTED,
              "Accel supports standard_conforming_strings = on only");
        }
        yield "on";
      }
      case "bytea_output" -> {
        if (!value.equalsIgnoreCase("hex")) {
          throw invalid(name, value, "Accel prints bytea as hex only");
        }
        yield "hex";
      }
      case "role" -> {
        if (value.equalsIgnoreCase("none")) {
          yield "none";
        }
        if (!value.equals(get("session_authorization"))) {
          throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "role \"" + value + "\" does not exist");
        }
        yield value;
      }
      case "client_min_messages" -> {
        String lower = value.toLowerCase(Locale.ROOT);
        if (!java.util.Set.of("debug5", "debug4", "debug3", "debug2", "debug1", "debug", "log", "notice",
            "warning", "error").contains(lower)) {
          throw invalid(name, value, null);
        }
        yield lower;
      }
      case "default_transaction_isolation" -> {
        String lower = value.toLowerCase(Locale.ROOT);
        yield isolation(name, value);
      }
      default -> value;
    };
    values.put(key, v);
    version++;
    if (key.equals("statement_timeout")) {
      statementTimeout = Long.parseLong(v);
    } else if (key.equals("lock_timeout")) {
      lockTimeout = Long.parseLong(v);
    }
    return v;
  }

  private volatile int version;

  /** The open transaction's isolation level, null outside one (transaction_isolation is then the default's). */
  private String transactionIsolation;

  synchronized void transactionIsolation(String level) {
    transactionIsolation = level;
  }

  /** An isolation level as PostgreSQL names it (READ UNCOMMITTED is READ COMMITTED); 22023 for anything else. */
  static String isolation(String name, String value) {
    String lower = value.toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", " ");
    return switch (lower) {
      case "read committed", "read uncommitted" -> "read committed";
      case "repeatable read", "serializable" -> lower;
      default -> throw invalid(name, value, null);
    };
  }

  /** lock_timeout in milliseconds, 0 for none (read on every execution: kept parsed). */
  public long lockTimeoutMillis() {
    return lockTimeout;
  }

  private volatile long lockTimeout;

  /** Changes with every SET or RESET (also through set_config()): a frontend re-reads what it reports when it moves. */
  public int version() {
    return version;
  }

  /** The session's time zone. */
  public TimeZone timeZone() {
    return TimeZone.getTimeZone(zone(get("timezone")));
  }

  /** statement_timeout in milliseconds, 0 for none (read on every execution: kept parsed). */
  public long statementTimeoutMillis() {
    return statementTimeout;
  }

  private volatile long statementTimeout;

  private static final Pattern DURATION = Pattern.compile("\\s*(-?\\d+)\\s*(ms|s|min|h|d)?\\s*");

  private static long millis(String name, String value) {
    Matcher m = DURATION.matcher(value);
    if (!m.matches()) {
      throw invalid(name, value, "expected milliseconds, or a number with ms, s, min, h or d");
    }
    long n = Long.parseLong(m.group(1));
    if (n < 0) {
      throw invalid(name, value, "it must not be negative");
    }
    String unit = m.group(2) == null ? "ms" : m.group(2);
    return switch (unit) {
      case "s" -> n * 1000;
      case "min" -> n * 60_000;
      case "h" -> n * 3_600_000;
      case "d" -> n * 86_400_000;
      default -> n;
    };
  }

  private static int integer(String name, String value, int min, int max) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(name, value, "expected an integer from " + min + " to " + max);
  }

  /**
   * The TimeZone setting for {@code value} as PostgreSQL shows it, which {@link #zone} reads back as the same zone:
   * a name as given, a POSIX offset as written, hours east as {@code <+05>-05}.
   */
  static String zoneSetting(String value) {
    ZoneId z = zone(value);
    String v = value.trim();
    if (!(z instanceof ZoneOffset o)) {
      return z.getId();
    }
    if (v.equalsIgnoreCase("utc") || v.equalsIgnoreCase("gmt") || v.equalsIgnoreCase("z")) {
      return v.equalsIgnoreCase("gmt") ? "GMT" : "UTC";
    }
    if (POSIX_OFFSET.matcher(v).matches()) {
      return v;
    }
    int seconds = Math.abs(o.getTotalSeconds());
    String hours = String.format(Locale.ROOT, "%02d", seconds / 3600)
        + (seconds % 3600 == 0 ? "" : String.format(Locale.ROOT, ":%02d", seconds % 3600 / 60));
    boolean east = o.getTotalSeconds() >= 0;
    return "<" + (east ? "+" : "-") + hours + ">" + (east ? "-" : "+") + hours;
  }

  private static final java.util.regex.Pattern POSIX_OFFSET =
      java.util.regex.Pattern.compile("(?i)(utc|gmt|<[^>]*>)?([+-])(\\d{1,2})(?::(\\d{2}))?");

  /**
   * A time zone as PostgreSQL reads one: a name ({@code Europe/Paris}, {@code UTC}), a POSIX offset (hours west),
   * or a number of hours east.
   */
  static ZoneId zone(String value) {
    String v = value.trim();
    try {
      if (v.equalsIgnoreCase("utc") || v.equalsIgnoreCase("gmt") || v.equalsIgnoreCase("z")) {
        return ZoneOffset.UTC;
      }
      if (v.matches("[+-]?\\d{1,2}(\\.\\d+)?")) {
        // a number is hours east of UTC (SET TIME ZONE -5)
        return ZoneOffset.ofTotalSeconds((int) Math.round(Double.parseDouble(v) * 3600));
      }
      // POSIX offsets count hours west: '+05:30' and 'UTC+5' are behind UTC (pgJDBC names a JVM in GMT+05:30
      // 'GMT-05:30' for that reason)
      java.util.regex.Matcher posix = POSIX_OFFSET.matcher(v);
      if (posix.matches()) {
        int seconds = Integer.parseInt(posix.group(3)) * 3600
            + (posix.group(4) == null ? 0 : Integer.parseInt(posix.group(4)) * 60);
        return ZoneOffset.ofTotalSeconds(posix.group(2).equals("+") ? -seconds : seconds);
      }
      return ZoneId.of(v);
    } catch (DateTimeException | NumberFormatException e) {
      throw invalid("TimeZone", value, null);
    }
  }

  private static AccelException unknown(String name) {
    return new AccelException(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
  }

  private static AccelException invalid(String name, String value, String hint) {
    return new AccelException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + name + "\": \""
        + value + "\"" + (hint == null ? "" : " (" + hint + ")"));
  }
}
