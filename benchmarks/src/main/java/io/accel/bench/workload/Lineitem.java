package io.accel.bench.workload;

import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The {@code lineitem} workload of DATASETS.md (Index Condition Pushdown, TPC-H Q19): TPC-H's {@code part}
 * and {@code lineitem} tables at a scale factor, generated in process by the Java port of TPC-H dbgen
 * ({@code io.trino.tpch:tpch}), and the queries {@link Query#Q1}, {@link Query#Q19} and {@link Query#SKIP}
 * over the index {@code i_l_partkey (l_partkey, l_quantity, l_shipmode, l_shipinstruct)}.
 *
 * <p>The rows are dbgen's, which seeds every column from fixed constants: scale factor 1 is 200,000 parts
 * and 6,001,215 lineitems, 0.1 is 20,000 and 600,572, 0.01 is 2,000 and 60,175, 0.001 is 200 and 6,005;
 * any positive fraction is allowed (parts = floor(200,000 x sf), 1 to 7 lineitems per order of
 * floor(1,500,000 x sf) orders). {@link #seed()} seeds only the query parameters, which are drawn from
 * values that exist in the data (part keys 1..parts).
 *
 * <p>Column types are those both Accel and PostgreSQL treat alike: text columns are VARCHAR (TPC-H's
 * CHAR(n) columns hold no trailing spaces, so the values are the same), money and quantities
 * NUMERIC(12,2), dates DATE, keys BIGINT.
 */
public final class Lineitem implements Workload {
  public static final String NAME = "lineitem";
  public static final long DEFAULT_SEED = 42;
  /** The DATASETS.md size. */
  public static final String DEFAULT_SCALE_FACTOR = "1";
  /** Parameter sets of Q1 and SKIP (and Q19), cycled by the benchmark. */
  public static final int PARAMETER_SETS = 1_000;

  public static final String CREATE_PART = "CREATE TABLE part ("
      + "p_partkey BIGINT NOT NULL, p_name VARCHAR(55) NOT NULL, p_mfgr VARCHAR(25) NOT NULL, "
      + "p_brand VARCHAR(10) NOT NULL, p_type VARCHAR(25) NOT NULL, p_size INTEGER NOT NULL, "
      + "p_container VARCHAR(10) NOT NULL, p_retailprice NUMERIC(12,2) NOT NULL, p_comment VARCHAR(23) NOT NULL, "
      + "PRIMARY KEY (p_partkey))";
  public static final String CREATE_LINEITEM = "CREATE TABLE lineitem ("
      + "l_orderkey BIGINT NOT NULL, l_partkey BIGINT NOT NULL, l_suppkey BIGINT NOT NULL, "
      + "l_linenumber INTEGER NOT NULL, l_quantity NUMERIC(12,2) NOT NULL, l_extendedprice NUMERIC(12,2) NOT NULL, "
      + "l_discount NUMERIC(12,2) NOT NULL, l_tax NUMERIC(12,2) NOT NULL, l_returnflag VARCHAR(1) NOT NULL, "
      + "l_linestatus VARCHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL, "
      + "l_receiptdate DATE NOT NULL, l_shipinstruct VARCHAR(25) NOT NULL, l_shipmode VARCHAR(10) NOT NULL, "
      + "l_comment VARCHAR(44) NOT NULL, PRIMARY KEY (l_orderkey, l_linenumber))";
  public static final String INDEX =
      "CREATE INDEX i_l_partkey ON lineitem (l_partkey, l_quantity, l_shipmode, l_shipinstruct)";

  public static final String PART_COLUMNS =
      "p_partkey, p_name, p_mfgr, p_brand, p_type, p_size, p_container, p_retailprice, p_comment";
  public static final String LINEITEM_COLUMNS = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, "
      + "l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, "
      + "l_shipinstruct, l_shipmode, l_comment";
  public static final String INSERT_PART = "INSERT INTO part (" + PART_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  public static final String INSERT_LINEITEM = "INSERT INTO lineitem (" + LINEITEM_COLUMNS
      + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** Q1, the lineitem half of Q19: part key, lowest and highest quantity. */
  public static final String Q1_WHERE = "l_partkey = ? AND l_quantity >= ? AND l_quantity <= ? "
      + "AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON'";
  public static final String Q1 = "SELECT SUM(l_extendedprice * (1 - l_discount)) FROM lineitem WHERE " + Q1_WHERE;
  public static final String Q1_COUNT = "SELECT COUNT(*) FROM lineitem WHERE " + Q1_WHERE;

  /**
   * TPC-H query 19 as published (TPC-H 3.0.1, 2.4.19), its substitution parameters as JDBC parameters:
   * BRAND1, QUANTITY1, QUANTITY1, BRAND2, QUANTITY2, QUANTITY2, BRAND3, QUANTITY3, QUANTITY3.
   */
  public static final String Q19_WHERE = "("
      + "p_partkey = l_partkey AND p_brand = ? "
      + "AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') "
      + "AND l_quantity >= ? AND l_quantity <= ? + 10 AND p_size BETWEEN 1 AND 5 "
      + "AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON'"
      + ") OR ("
      + "p_partkey = l_partkey AND p_brand = ? "
      + "AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') "
      + "AND l_quantity >= ? AND l_quantity <= ? + 10 AND p_size BETWEEN 1 AND 10 "
      + "AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON'"
      + ") OR ("
      + "p_partkey = l_partkey AND p_brand = ? "
      + "AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') "
      + "AND l_quantity >= ? AND l_quantity <= ? + 10 AND p_size BETWEEN 1 AND 15 "
      + "AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')";
  public static final String Q19 = "SELECT SUM(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem, part WHERE "
      + Q19_WHERE;
  public static final String Q19_COUNT = "SELECT COUNT(*) FROM lineitem, part WHERE " + Q19_WHERE;

  /**
   * Q19 with the join condition every branch repeats also written as {@code JOIN ... ON}: the same result,
   * and an equi-join even for a planner that does not pull common factors out of an OR (Calcite's own rules
   * do not; Accel's planner has done so since 2026-11-21, before which Q19 as published was a filtered
   * cross product).
   */
  public static final String Q19J = "SELECT SUM(l_extendedprice * (1 - l_discount)) AS revenue "
      + "FROM lineitem JOIN part ON p_partkey = l_partkey WHERE " + Q19_WHERE;
  public static final String Q19J_COUNT = "SELECT COUNT(*) FROM lineitem JOIN part ON p_partkey = l_partkey WHERE "
      + Q19_WHERE;

  /** SKIP: a skip scan over IN lists of the index's leading columns; four part keys. */
  public static final String SKIP = "SELECT COUNT(*) FROM lineitem WHERE l_partkey IN (?, ?, ?, ?) "
      + "AND l_quantity IN (5, 10, 15) AND l_shipmode = 'AIR'";
  public static final List<Integer> SKIP_QUANTITIES = List.of(5, 10, 15);

  /** TPC-H's ship modes and ship instructions (Q19's 'AIR REG' is not among them: as published). */
  public static final List<String> SHIP_MODES = List.of("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB");
  public static final List<String> SHIP_INSTRUCTIONS =
      List.of("DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN");
  /** Q19's three branches: container lists and largest size. */
  public static final List<List<String>> Q19_CONTAINERS = List.of(
      List.of("SM CASE", "SM BOX", "SM PACK", "SM PKG"),
      List.of("MED BAG", "MED BOX", "MED PKG", "MED PACK"),
      List.of("LG CASE", "LG BOX", "LG PACK", "LG PKG"));
  public static final List<Integer> Q19_MAX_SIZE = List.of(5, 10, 15);

  private static final int STREAM_Q1 = 1;
  private static final int STREAM_Q19 = 2;
  private static final int STREAM_SKIP = 3;

  /** The benchmarked queries. */
  public enum Query {
    /** The lineitem half of Q19 for one part key and a quantity range. */
    Q1(Lineitem.Q1, Q1_COUNT),
    /** TPC-H Q19: part joined with lineitem, three OR branches. */
    Q19(Lineitem.Q19, Q19_COUNT),
    /** Q19 with its join condition also as JOIN ... ON (see {@link Lineitem#Q19J}); Q19's parameters. */
    Q19J(Lineitem.Q19J, Q19J_COUNT),
    /** Four part keys, three quantities, one ship mode: a seek per combination of leading values. */
    SKIP(Lineitem.SKIP, Lineitem.SKIP);

    private final String sql;
    private final String countSql;

    Query(String sql, String countSql) {
      this.sql = sql;
      this.countSql = countSql;
    }

    /** The benchmarked statement. */
    public String sql() {
      return sql;
    }

    /** The same predicate counting the rows (joined rows for Q19) that satisfy it. */
    public String countSql() {
      return countSql;
    }

    public static Query of(String name) {
      return valueOf(name.toUpperCase(Locale.ROOT));
    }
  }

  /** A part row. */
  public record PartRow(long partkey, String name, String mfgr, String brand, String type, int size,
      String container, BigDecimal retailprice, String comment) {
  }

  /** A lineitem row; quantities and money have scale 2. */
  public record LineitemRow(long orderkey, long partkey, long suppkey, int linenumber, BigDecimal quantity,
      BigDecimal extendedprice, BigDecimal discount, BigDecimal tax, String returnflag, String linestatus,
      LocalDate shipdate, LocalDate commitdate, LocalDate receiptdate, String shipinstruct, String shipmode,
      String comment) {
  }

  /**
   * What one query's parameter sets select, computed from the generator (not from any engine):
   * {@code matching[i]} rows satisfy the whole predicate of set i (joined rows for Q19), and
   * {@code candidates[i]} satisfy its conditions on l_partkey and l_quantity alone (for Q19 with the
   * part-side conditions of the same branch): the rows an index scan fetches without pushing the
   * conditions on l_shipmode and l_shipinstruct down to the index entries.
   */
  public record Selectivity(Query query, long[] matching, long[] candidates) {
    public int sets() {
      return matching.length;
    }

    public double meanMatching() {
      return Arrays.stream(matching).average().orElse(Double.NaN);
    }

    public double meanCandidates() {
      return Arrays.stream(candidates).average().orElse(Double.NaN);
    }
  }

  private final BigDecimal scaleFactor;
  private final long seed;
  private final int batchSize;
  private long lineitemCount = -1;

  /** Scale factor 1 (DATASETS.md), seed 42. */
  public Lineitem() {
    this(DEFAULT_SCALE_FACTOR);
  }

  public Lineitem(String scaleFactor) {
    this(scaleFactor, DEFAULT_SEED, 20_000);
  }

  public Lineitem(String scaleFactor, long seed, int batchSize) {
    BigDecimal sf;
    try {
      sf = new BigDecimal(scaleFactor.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("scale factor is not a number: \"" + scaleFactor + "\"");
    }
    if (sf.signum() <= 0 || (long) (PartGenerator.SCALE_BASE * sf.doubleValue()) < 1) {
      throw new IllegalArgumentException("scale factor must give at least one part: " + scaleFactor);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
    this.scaleFactor = sf.stripTrailingZeros();
    this.seed = seed;
    this.batchSize = batchSize;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long seed() {
    return seed;
  }

  /** The scale factor as written without trailing zeros: {@code 1}, {@code 0.1}, {@code 0.001}. */
  public String scaleFactor() {
    return scaleFactor.toPlainString();
  }

  private double sf() {
    return scaleFactor.doubleValue();
  }

  public int batchSize() {
    return batchSize;
  }

  /** Rows of part: floor(200,000 x sf). */
  public long parts() {
    return (long) (PartGenerator.SCALE_BASE * sf());
  }

  /** Rows of lineitem (counted by running the generator once; about 0.6 s per 600,000 rows). */
  public synchronized long lineitems() {
    if (lineitemCount < 0) {
      long n = 0;
      for (Iterator<LineItem> it = new LineItemGenerator(sf(), 1, 1).iterator(); it.hasNext(); it.next()) {
        n++;
      }
      lineitemCount = n;
    }
    return lineitemCount;
  }

  @Override
  public List<String> tables() {
    return List.of("part", "lineitem");
  }

  @Override
  public List<String> createTables() {
    return List.of(CREATE_PART, CREATE_LINEITEM);
  }

  @Override
  public List<String> createIndexes() {
    return List.of(INDEX);
  }

  /** Every part row, in key order. */
  public Iterable<PartRow> partRows() {
    return () -> map(new PartGenerator(sf(), 1, 1).iterator(), Lineitem::partRow);
  }

  /** Every lineitem row, in (l_orderkey, l_linenumber) order. */
  public Iterable<LineitemRow> lineitemRows() {
    return () -> map(new LineItemGenerator(sf(), 1, 1).iterator(), Lineitem::lineitemRow);
  }

  static PartRow partRow(Part p) {
    return new PartRow(p.getPartKey(), p.getName(), p.getManufacturer(), p.getBrand(), p.getType(), p.getSize(),
        p.getContainer(), BigDecimal.valueOf(p.getRetailPriceInCents(), 2), p.getComment());
  }

  static LineitemRow lineitemRow(LineItem l) {
    return new LineitemRow(l.getOrderKey(), l.getPartKey(), l.getSupplierKey(), l.getLineNumber(),
        BigDecimal.valueOf(l.getQuantity() * 100, 2), BigDecimal.valueOf(l.getExtendedPriceInCents(), 2),
        BigDecimal.valueOf(l.getDiscountPercent(), 2), BigDecimal.valueOf(l.getTaxPercent(), 2),
        l.getReturnFlag(), l.getStatus(), LocalDate.ofEpochDay(l.getShipDate()),
        LocalDate.ofEpochDay(l.getCommitDate()), LocalDate.ofEpochDay(l.getReceiptDate()),
        l.getShipInstructions(), l.getShipMode(), l.getComment());
  }

  private static <A, B> Iterator<B> map(Iterator<A> source, Function<A, B> f) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return source.hasNext();
      }

      @Override
      public B next() {
        return f.apply(source.next());
      }
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // Loading

  @Override
  public LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException {
    BatchLoader loader = new BatchLoader(batchSize);
    Iterator<PartRow> parts = partRows().iterator();
    LoadResult.TableLoad p = loader.insert(connection, "part", INSERT_PART, parts(),
        (ps, row) -> bindPart(ps, next(parts, "part", row)), listener);
    Iterator<LineitemRow> lineitems = lineitemRows().iterator();
    LoadResult.TableLoad l = loader.insert(connection, "lineitem", INSERT_LINEITEM, lineitems(),
        (ps, row) -> bindLineitem(ps, next(lineitems, "lineitem", row)), listener);
    return LoadResult.of(p, l);
  }

  private static <T> T next(Iterator<T> it, String table, long row) {
    if (!it.hasNext()) {
      throw new NoSuchElementException("the generator ended before " + table + " row " + (row + 1));
    }
    return it.next();
  }

  static void bindPart(PreparedStatement ps, PartRow p) throws SQLException {
    ps.setLong(1, p.partkey());
    ps.setString(2, p.name());
    ps.setString(3, p.mfgr());
    ps.setString(4, p.brand());
    ps.setString(5, p.type());
    ps.setInt(6, p.size());
    ps.setString(7, p.container());
    ps.setBigDecimal(8, p.retailprice());
    ps.setString(9, p.comment());
  }

  static void bindLineitem(PreparedStatement ps, LineitemRow l) throws SQLException {
    ps.setLong(1, l.orderkey());
    ps.setLong(2, l.partkey());
    ps.setLong(3, l.suppkey());
    ps.setInt(4, l.linenumber());
    ps.setBigDecimal(5, l.quantity());
    ps.setBigDecimal(6, l.extendedprice());
    ps.setBigDecimal(7, l.discount());
    ps.setBigDecimal(8, l.tax());
    ps.setString(9, l.returnflag());
    ps.setString(10, l.linestatus());
    ps.setObject(11, l.shipdate());
    ps.setObject(12, l.commitdate());
    ps.setObject(13, l.receiptdate());
    ps.setString(14, l.shipinstruct());
    ps.setString(15, l.shipmode());
    ps.setString(16, l.comment());
  }

  /** Writes every part row in PostgreSQL's COPY text format (columns in {@link #PART_COLUMNS} order). */
  public void copyParts(Writer out) {
    for (PartRow p : partRows()) {
      copyLine(out, p.partkey(), p.name(), p.mfgr(), p.brand(), p.type(), p.size(), p.container(),
          p.retailprice().toPlainString(), p.comment());
    }
  }

  /** Writes every lineitem row in PostgreSQL's COPY text format (columns in {@link #LINEITEM_COLUMNS} order). */
  public void copyLineitems(Writer out) {
    for (LineitemRow l : lineitemRows()) {
      copyLine(out, l.orderkey(), l.partkey(), l.suppkey(), l.linenumber(), l.quantity().toPlainString(),
          l.extendedprice().toPlainString(), l.discount().toPlainString(), l.tax().toPlainString(), l.returnflag(),
          l.linestatus(), l.shipdate(), l.commitdate(), l.receiptdate(), l.shipinstruct(), l.shipmode(),
          l.comment());
    }
  }

  private static void copyLine(Writer out, Object... values) {
    StringBuilder line = new StringBuilder(256);
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        line.append('\t');
      }
      String v = String.valueOf(values[i]);
      for (int j = 0; j < v.length(); j++) {
        char c = v.charAt(j);
        switch (c) {
          case '\\' -> line.append("\\\\");
          case '\t' -> line.append("\\t");
          case '\n' -> line.append("\\n");
          case '\r' -> line.append("\\r");
          default -> line.append(c);
        }
      }
    }
    line.append('\n');
    try {
      out.write(line.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Query parameters

  /** How many parameter sets {@code query} cycles through. */
  public int parameterSets(Query query) {
    return PARAMETER_SETS;
  }

  /**
   * The parameters of {@code query}'s set {@code set} (0 &lt;= set), as bound by {@link #bind}:
   * <ul>
   *   <li>Q1: a part key uniform over 1..parts, then the quantity range of Q19's branch {@code set % 3}:
   *       1..11, 10..20 or 20..30 (as BigDecimal).
   *   <li>Q19: set 0 is the spec's validation query (Brand#12, Brand#23, Brand#34; quantities 1, 10, 20);
   *       later sets draw the substitution parameters as the spec does: brands Brand#MN with M, N in 1..5,
   *       QUANTITY1 in 1..10, QUANTITY2 in 10..20, QUANTITY3 in 20..30 (as Integer).
   *   <li>SKIP: four distinct part keys uniform over 1..parts (fewer when there are fewer parts, repeated).
   * </ul>
   * Sets repeat with period {@link #parameterSets(Query)}.
   */
  public Object[] parameters(Query query, int set) {
    if (set < 0) {
      throw new IllegalArgumentException("parameter set must not be negative: " + set);
    }
    int i = set % parameterSets(query);
    switch (query) {
      case Q1: {
        long partkey = 1 + new RowRandom(seed, STREAM_Q1, i).nextLong(parts());
        int low = Q19_LOW_QUANTITY[i % 3];
        return new Object[] {partkey, BigDecimal.valueOf(low), BigDecimal.valueOf(low + 10)};
      }
      case Q19:
      case Q19J: {
        if (i == 0) {
          return new Object[] {"Brand#12", 1, 1, "Brand#23", 10, 10, "Brand#34", 20, 20};
        }
        RowRandom r = new RowRandom(seed, STREAM_Q19, i);
        Object[] p = new Object[9];
        for (int b = 0; b < 3; b++) {
          String brand = "Brand#" + (1 + r.nextInt(5)) + (1 + r.nextInt(5));
          int quantity = b == 0 ? 1 + r.nextInt(10) : 10 * b + r.nextInt(11);
          p[3 * b] = brand;
          p[3 * b + 1] = quantity;
          p[3 * b + 2] = quantity;
        }
        return p;
      }
      case SKIP: {
        RowRandom r = new RowRandom(seed, STREAM_SKIP, i);
        long[] keys = new long[4];
        int n = 0;
        while (n < 4) {
          long k = 1 + r.nextLong(parts());
          boolean seen = false;
          for (int j = 0; j < n; j++) {
            seen |= keys[j] == k;
          }
          if (!seen || parts() < 4) {
            keys[n++] = k;
          }
        }
        return new Object[] {keys[0], keys[1], keys[2], keys[3]};
      }
      default:
        throw new AssertionError(query);
    }
  }

  private static final int[] Q19_LOW_QUANTITY = {1, 10, 20};

  /** Binds {@code query}'s parameter set {@code set} to a statement prepared from {@link Query#sql()} or {@link Query#countSql()}. */
  public void bind(Query query, PreparedStatement ps, int set) throws SQLException {
    bind(ps, parameters(query, set));
  }

  /** Binds parameters as {@link #parameters(Query, int)} gives them, each with its typed setter. */
  public static void bind(PreparedStatement ps, Object[] p) throws SQLException {
    for (int j = 0; j < p.length; j++) {
      Object v = p[j];
      if (v instanceof Long) {
        ps.setLong(j + 1, (Long) v);
      } else if (v instanceof Integer) {
        ps.setInt(j + 1, (Integer) v);
      } else if (v instanceof BigDecimal) {
        ps.setBigDecimal(j + 1, (BigDecimal) v);
      } else {
        ps.setString(j + 1, (String) v);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Selectivity, from the generator

  /** {@link Selectivity} of the first {@code sets} parameter sets of {@code query}: one pass over the generator. */
  public Selectivity selectivity(Query query, int sets) {
    return selectivity(List.of(query), sets).get(0);
  }

  /** {@link Selectivity} of several queries from one pass over the generator. */
  public List<Selectivity> selectivity(List<Query> queries, int sets) {
    Compact data = new Compact(this);
    List<Selectivity> out = new ArrayList<>();
    for (Query q : queries) {
      long[] matching = new long[sets];
      long[] candidates = new long[sets];
      for (int i = 0; i < sets; i++) {
        long[] mc = data.evaluate(this, q, parameters(q, i));
        matching[i] = mc[0];
        candidates[i] = mc[1];
      }
      out.add(new Selectivity(q, matching, candidates));
    }
    return out;
  }

  /**
   * The columns the queries filter on, packed per lineitem and grouped by part key (lineitems of part k are
   * rows {@code start[k] .. start[k+1]-1}), and the part columns Q19 filters on. About 20 bytes per lineitem.
   */
  private static final class Compact {
    final int[] start;
    final byte[] quantity;
    final byte[] shipmode;
    final byte[] shipinstruct;
    final String[] brand;
    final String[] container;
    final int[] size;

    Compact(Lineitem w) {
      int parts = (int) w.parts();
      brand = new String[parts + 1];
      container = new String[parts + 1];
      size = new int[parts + 1];
      for (Part p : new PartGenerator(w.sf(), 1, 1)) {
        int k = (int) p.getPartKey();
        brand[k] = p.getBrand();
        container[k] = p.getContainer();
        size[k] = p.getSize();
      }
      int n = (int) w.lineitems();
      int[] partkeys = new int[n];
      byte[] q = new byte[n];
      byte[] m = new byte[n];
      byte[] s = new byte[n];
      int[] count = new int[parts + 2];
      int i = 0;
      for (LineItem l : new LineItemGenerator(w.sf(), 1, 1)) {
        partkeys[i] = (int) l.getPartKey();
        q[i] = (byte) l.getQuantity();
        m[i] = (byte) SHIP_MODES.indexOf(l.getShipMode());
        s[i] = (byte) SHIP_INSTRUCTIONS.indexOf(l.getShipInstructions());
        count[partkeys[i] + 1]++;
        i++;
      }
      start = new int[parts + 2];
      for (int k = 1; k < parts + 2; k++) {
        start[k] = start[k - 1] + count[k];
      }
      int[] fill = Arrays.copyOf(start, start.length);
      quantity = new byte[n];
      shipmode = new byte[n];
      shipinstruct = new byte[n];
      for (int j = 0; j < n; j++) {
        int at = fill[partkeys[j]]++;
        quantity[at] = q[j];
        shipmode[at] = m[j];
        shipinstruct[at] = s[j];
      }
    }

    private static final int AIR = SHIP_MODES.indexOf("AIR");
    private static final int AIR_REG = SHIP_MODES.indexOf("AIR REG"); // -1: not a TPC-H ship mode
    private static final int DELIVER_IN_PERSON = SHIP_INSTRUCTIONS.indexOf("DELIVER IN PERSON");

    private boolean q19Modes(int at) {
      return (shipmode[at] == AIR || (AIR_REG >= 0 && shipmode[at] == AIR_REG))
          && shipinstruct[at] == DELIVER_IN_PERSON;
    }

    /** {matching, candidates} of one parameter set. */
    long[] evaluate(Lineitem w, Query query, Object[] p) {
      long matching = 0;
      long candidates = 0;
      switch (query) {
        case Q1: {
          int k = (int) (long) (Long) p[0];
          int low = ((BigDecimal) p[1]).intValueExact();
          int high = ((BigDecimal) p[2]).intValueExact();
          for (int at = start[k]; at < start[k + 1]; at++) {
            if (quantity[at] >= low && quantity[at] <= high) {
              candidates++;
              if (q19Modes(at)) {
                matching++;
              }
            }
          }
          break;
        }
        case Q19:
        case Q19J: {
          for (int k = 1; k < brand.length; k++) {
            boolean[] branch = new boolean[3];
            boolean any = false;
            for (int b = 0; b < 3; b++) {
              branch[b] = brand[k].equals(p[3 * b]) && Q19_CONTAINERS.get(b).contains(container[k])
                  && size[k] >= 1 && size[k] <= Q19_MAX_SIZE.get(b);
              any |= branch[b];
            }
            if (!any) {
              continue;
            }
            for (int at = start[k]; at < start[k + 1]; at++) {
              boolean inRange = false;
              for (int b = 0; b < 3; b++) {
                int low = (Integer) p[3 * b + 1];
                inRange |= branch[b] && quantity[at] >= low && quantity[at] <= low + 10;
              }
              if (inRange) {
                candidates++;
                if (q19Modes(at)) {
                  matching++;
                }
              }
            }
          }
          break;
        }
        case SKIP: {
          long[] seen = new long[4];
          int distinct = 0;
          for (int j = 0; j < 4; j++) {
            long k = (Long) p[j];
            boolean dup = false;
            for (int d = 0; d < distinct; d++) {
              dup |= seen[d] == k;
            }
            if (dup) {
              continue;
            }
            seen[distinct++] = k;
            for (int at = start[(int) k]; at < start[(int) k + 1]; at++) {
              if (SKIP_QUANTITIES.contains((int) quantity[at])) {
                candidates++;
                if (shipmode[at] == AIR) {
                  matching++;
                }
              }
            }
          }
          break;
        }
        default:
          throw new AssertionError(query);
      }
      return new long[] {matching, candidates};
    }
  }

  @Override
  public String toString() {
    return NAME + "(sf=" + scaleFactor() + ", seed=" + seed + ")";
  }
}
