package io.accel.sql;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Readyset's cache statements, in its spelling: CREATE CACHE, DROP CACHE, DROP ALL CACHES, SHOW CACHES, EXPLAIN; and
 * Accel's SHOW ACCEL STATUS and SHOW ACCEL TABLES.
 */
public final class CacheCommands {
  private static final Pattern CREATE = Pattern.compile(
      "(?is)^\\s*CREATE\\s+(?:(DEEP|SHALLOW)\\s+)?CACHE\\b(.*)$");
  private static final Pattern POLICY = Pattern.compile("(?is)^\\s*POLICY\\s+TTL\\s+(\\d+)\\s+SECONDS?\\b(.*)$");
  private static final Pattern NAME_FROM = Pattern.compile(
      "(?is)^\\s*(?:(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\s+)?FROM\\s+(.+?)\\s*;?\\s*$");
  private static final Pattern QUERY_ID = Pattern.compile("(?i)^q_[0-9a-f]+$");
  private static final Pattern DROP = Pattern.compile(
      "(?is)^\\s*DROP\\s+CACHE\\s+(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\s*;?\\s*$");
  private static final Pattern DROP_ALL = Pattern.compile("(?is)^\\s*DROP\\s+ALL\\s+CACHES\\s*;?\\s*$");
  private static final Pattern SHOW = Pattern.compile("(?is)^\\s*SHOW\\s+CACHES\\s*;?\\s*$");
  private static final Pattern SHOW_ACCEL = Pattern.compile("(?is)^\\s*SHOW\\s+ACCEL\\s+(STATUS|TABLES)\\s*;?\\s*$");
  private static final Pattern EXPLAIN_LAST = Pattern.compile("(?is)^\\s*EXPLAIN\\s+LAST\\s+STATEMENT\\s*;?\\s*$");
  private static final Pattern EXPLAIN = Pattern.compile(
      "(?is)^\\s*EXPLAIN\\s+CREATE\\s+(?:(?:DEEP|SHALLOW)\\s+)?CACHE\\s+FROM\\s+(.+?)\\s*;?\\s*$");

  private CacheCommands() {
  }

  /** Whether {@code sql} is one of the cache statements (not EXPLAIN LAST STATEMENT): the fronting router's test. */
  public static boolean isCacheCommand(String sql) {
    return isCacheStatement(sql) || DROP.matcher(sql).matches() || DROP_ALL.matcher(sql).matches()
        || SHOW.matcher(sql).matches();
  }

  /** Whether {@code sql} is CREATE CACHE or EXPLAIN CREATE CACHE (whose query may hold {@code $n} placeholders). */
  static boolean isCacheStatement(String sql) {
    return CREATE.matcher(sql).matches() || EXPLAIN.matcher(sql).matches();
  }

  /** {@code sql} as CREATE CACHE, if it is one (the fronting router defines caches of upstream results itself). */
  public static Optional<Command.CreateCache> createCache(String sql) {
    Matcher m = CREATE.matcher(sql);
    return m.matches() ? Optional.of((Command.CreateCache) create(m.group(1), m.group(2))) : Optional.empty();
  }

  /** The query of EXPLAIN CREATE CACHE FROM query, if {@code sql} is one. */
  public static Optional<String> explainCreateCache(String sql) {
    Matcher m = EXPLAIN.matcher(sql);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  static Optional<Command> parse(String sql) {
    Matcher m = CREATE.matcher(sql);
    if (m.matches()) {
      return Optional.of(create(m.group(1), m.group(2)));
    }
    if ((m = DROP.matcher(sql)).matches()) {
      return Optional.of(new Command.DropCache(identifier(m.group(1))));
    }
    if (DROP_ALL.matcher(sql).matches()) {
      return Optional.of(new Command.DropAllCaches());
    }
    if (SHOW.matcher(sql).matches()) {
      return Optional.of(new Command.ShowCaches());
    }
    if ((m = SHOW_ACCEL.matcher(sql)).matches()) {
      return Optional.of(new Command.ShowAccel(m.group(1).equalsIgnoreCase("tables")));
    }
    if (EXPLAIN_LAST.matcher(sql).matches()) {
      return Optional.of(new Command.ExplainLast());
    }
    if ((m = EXPLAIN.matcher(sql)).matches()) {
      return Optional.of(new Command.ExplainCreateCache(m.group(1)));
    }
    return Optional.empty();
  }

  private static Command create(String kind, String rest) {
    boolean shallow = kind != null && kind.equalsIgnoreCase("shallow");
    Optional<Duration> ttl = Optional.empty();
    Matcher policy = POLICY.matcher(rest);
    if (policy.matches()) {
      long seconds = Long.parseLong(policy.group(1));
      if (seconds <= 0) {
        throw new AccelException(SqlState.INVALID_PARAMETER_VALUE, "a cache's TTL must be at least 1 second");
      }
      ttl = Optional.of(Duration.ofSeconds(seconds));
      rest = policy.group(2);
      if (!shallow && kind != null) {
        throw new AccelException(SqlState.SYNTAX_ERROR, "a TTL policy is for SHALLOW caches; a DEEP cache is kept exact");
      }
      shallow = true;
    }
    Matcher m = NAME_FROM.matcher(rest);
    if (!m.matches()) {
      throw new AccelException(SqlState.SYNTAX_ERROR,
          "syntax error in CREATE CACHE: expected CREATE [DEEP | SHALLOW] CACHE [POLICY TTL n SECONDS] [name] FROM query");
    }
    String query = m.group(2);
    boolean byId = QUERY_ID.matcher(query).matches();
    return new Command.CreateCache(Optional.ofNullable(m.group(1)).map(CacheCommands::identifier), shallow, ttl,
        byId ? query.toLowerCase(java.util.Locale.ROOT) : query, byId);
  }

  private static String identifier(String text) {
    if (text.startsWith("\"")) {
      return text.substring(1, text.length() - 1).replace("\"\"", "\"");
    }
    return text.toLowerCase(java.util.Locale.ROOT);
  }
}
