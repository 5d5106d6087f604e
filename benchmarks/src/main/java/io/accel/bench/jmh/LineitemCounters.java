package io.accel.bench.jmh;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The counts of one {@link LineitemBenchmark} trial over its measurement iterations: queries executed, the
 * rows their predicates select (from the generator) and what the engine read ({@link EngineCounters#NAMES},
 * NaN where the engine does not report it). One line of text each way ({@link #toLine()},
 * {@link #parse(String)}) so forked benchmark JVMs can hand them to {@link LineitemReport}.
 */
public final class LineitemCounters {
  public String sf = "";
  public String query = "";
  public String mode = "";
  public long queries;
  /** Rows (joined rows for Q19) satisfying the whole predicate, summed over the queries. */
  public long matching;
  /** Rows satisfying the conditions on l_partkey and l_quantity, summed over the queries. */
  public long candidates;
  public double rowsFetched;
  public double entriesRead;
  public double icpAttempts;
  public double icpMatches;

  /** Adds one iteration: its queries and the engine's counter deltas in {@link EngineCounters#NAMES} order. */
  public void add(long queries, long matching, long candidates, double[] engine) {
    this.queries += queries;
    this.matching += matching;
    this.candidates += candidates;
    rowsFetched += engine[0];
    entriesRead += engine[1];
    icpAttempts += engine[2];
    icpMatches += engine[3];
  }

  private double perQuery(double total) {
    return queries == 0 ? Double.NaN : total / queries;
  }

  public double rowsFetchedPerQuery() {
    return perQuery(rowsFetched);
  }

  public double entriesReadPerQuery() {
    return perQuery(entriesRead);
  }

  public double icpAttemptsPerQuery() {
    return perQuery(icpAttempts);
  }

  public double icpMatchesPerQuery() {
    return perQuery(icpMatches);
  }

  public double matchingPerQuery() {
    return perQuery(matching);
  }

  public double candidatesPerQuery() {
    return perQuery(candidates);
  }

  /** Rows fetched per row that satisfies the whole predicate (1 is ideal); NaN without rows or counters. */
  public double fetchedPerMatching() {
    return matching == 0 ? Double.NaN : rowsFetched / matching;
  }

  /** Index entries read per row that satisfies the whole predicate. */
  public double entriesPerMatching() {
    return matching == 0 ? Double.NaN : entriesRead / matching;
  }

  public String toLine() {
    return LineitemBenchmark.COUNTERS_PREFIX + "\tsf=" + sf + "\tquery=" + query + "\tmode=" + mode
        + "\tqueries=" + queries + "\tmatching=" + matching + "\tcandidates=" + candidates
        + "\trowsFetched=" + rowsFetched + "\tentriesRead=" + entriesRead
        + "\ticpAttempts=" + icpAttempts + "\ticpMatches=" + icpMatches;
  }

  /** The counters of a {@link #toLine()} line, or null for any other line. */
  public static LineitemCounters parse(String line) {
    if (!line.startsWith(LineitemBenchmark.COUNTERS_PREFIX + "\t")) {
      return null;
    }
    Map<String, String> f = new LinkedHashMap<>();
    for (String field : line.split("\t")) {
      int eq = field.indexOf('=');
      if (eq > 0) {
        f.put(field.substring(0, eq), field.substring(eq + 1));
      }
    }
    LineitemCounters c = new LineitemCounters();
    c.sf = f.getOrDefault("sf", "");
    c.query = f.getOrDefault("query", "");
    c.mode = f.getOrDefault("mode", "");
    c.queries = Long.parseLong(f.getOrDefault("queries", "0"));
    c.matching = Long.parseLong(f.getOrDefault("matching", "0"));
    c.candidates = Long.parseLong(f.getOrDefault("candidates", "0"));
    c.rowsFetched = Double.parseDouble(f.getOrDefault("rowsFetched", "NaN"));
    c.entriesRead = Double.parseDouble(f.getOrDefault("entriesRead", "NaN"));
    c.icpAttempts = Double.parseDouble(f.getOrDefault("icpAttempts", "NaN"));
    c.icpMatches = Double.parseDouble(f.getOrDefault("icpMatches", "NaN"));
    return c;
  }

  /** Per-query figures for people. */
  public String describe() {
    return String.format(Locale.ROOT, "%s %s sf=%s: %d queries measured; per query: rows fetched %s, "
            + "index entries read %s, ICP attempts %s, ICP matches %s, matching rows %s, "
            + "rows in the l_partkey/l_quantity range %s; rows fetched / matching rows %s",
        query, mode, sf, queries, num(rowsFetchedPerQuery()), num(entriesReadPerQuery()), num(icpAttemptsPerQuery()),
        num(icpMatchesPerQuery()), num(matchingPerQuery()), num(candidatesPerQuery()), num(fetchedPerMatching()));
  }

  /** A count for a table: NaN as {@code n/a}, otherwise 3 significant digits at least. */
  public static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    double a = Math.abs(v);
    if (a >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
