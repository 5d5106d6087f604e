package io.accel.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The {@code employees} workload of DATASETS.md: the shape of MySQL's employees sample database,
 * {@code employees} and their yearly {@code salaries}, and the three-way join E1 (employees whose current
 * salary is below one they earned before the previous one).
 *
 * <p>Each employee and their whole salary history is a pure function of (seed, emp_no):
 * {@link #employee(int)} and {@link #salaries(int)} regenerate any of them without loading anything, which
 * is what the loader inserts and what tests evaluate E1 against.
 * <ul>
 *   <li>employees: emp_no {@value #FIRST_EMP_NO} .. {@value #FIRST_EMP_NO} + employees - 1; birth_date
 *       uniform in [1952-02-01, 1965-02-01]; first and last names from lists of the sample's names;
 *       gender M 60%, F 40%; hire_date uniform in [1985-01-01, min(2000-01-28, {@link #LAST_RAISE} minus
 *       (periods - 1) years)], so that every salary period starts by 2002-08-01 as in the sample.
 *   <li>salaries: the number of yearly periods is uniform over 1..18 (mean 9.5: 2,855,676 rows
 *       for 300,024 employees; the sample has 1 to 18 and 2,844,047). Period k (from 0) runs from
 *       hire_date + k years to hire_date + k + 1 years; the last one to {@link #CURRENT} ('9999-01-01').
 *       The first salary is uniform in 40,000 .. 69,999; each later one is the previous one raised by
 *       0 to 8% with probability {@value #RAISE_PERCENT}%, otherwise cut by 1 to 12%, rounded to a whole
 *       amount. With these draws E1 finds 9.4% of the employees at the default size (28,142, in 59,154 rows;
 *       see {@code EmployeesTest}).
 * </ul>
 */
public final class Employees implements Workload {
  public static final String NAME = "employees";
  public static final long DEFAULT_SEED = 42;
  /** The DATASETS.md size, the MySQL sample's. */
  public static final int DEFAULT_EMPLOYEES = 300_024;
  public static final int FIRST_EMP_NO = 10_001;
  public static final int MAX_PERIODS = 18;

  public static final LocalDate CURRENT = LocalDate.of(9999, 1, 1);
  public static final LocalDate FIRST_HIRE = LocalDate.of(1985, 1, 1);
  public static final LocalDate LAST_HIRE = LocalDate.of(2000, 1, 28);
  /** The latest from_date of any salary period. */
  public static final LocalDate LAST_RAISE = LocalDate.of(2002, 8, 1);
  public static final LocalDate FIRST_BIRTH = LocalDate.of(1952, 2, 1);
  public static final LocalDate LAST_BIRTH = LocalDate.of(1965, 2, 1);

  /** Chance in percent that a yearly salary rises (0 to 8%) rather than falls (1 to 12%). */
  public static final int RAISE_PERCENT = 95;
  static final int FIRST_SALARY_MIN = 40_000;
  static final int FIRST_SALARY_SPAN = 30_000;

  /** Bumped whenever the generated rows change (the golden values of EmployeesTest change with it). */
  static final int DATA_VERSION = 1;

  private static final int STREAM_EMPLOYEES = 1;

  /** First names of the MySQL sample (at most 14 characters). */
  static final List<String> FIRST_NAMES = List.of(
      "Georgi", "Bezalel", "Parto", "Chirstian", "Kyoichi", "Anneke", "Tzvetan", "Saniya", "Sumant", "Duangkaew",
      "Mary", "Patricio", "Eberhardt", "Berni", "Guoxiang", "Kazuhito", "Cristinel", "Kazuhide", "Lillian",
      "Mayuko", "Ramzi", "Shahaf", "Bojan", "Suzette", "Prasadram", "Yongqiao", "Divier", "Domenick", "Otmar",
      "Elvis", "Karsten", "Jeong", "Arif", "Bader", "Alain", "Adamantios", "Pradeep", "Huan", "Alejandro",
      "Weiyi", "Uri", "Magy", "Yishay", "Mingsen", "Moss", "Lucien", "Zvonko", "Florian", "Basil", "Yinghua",
      "Hidefumi", "Heping", "Sanjiv", "Mayumi", "Georgy", "Brendon", "Ebbe", "Berhard", "Breannda", "Tse");
  /** Last names of the MySQL sample (at most 16 characters). */
  static final List<String> LAST_NAMES = List.of(
      "Facello", "Simmel", "Bamford", "Koblick", "Maliniak", "Preusig", "Zielinski", "Kalloufi", "Peac",
      "Piveteau", "Sluis", "Bridgland", "Terkki", "Genin", "Nooteboom", "Cappelletti", "Bouloucos", "Peha",
      "Haddadi", "Warwick", "Erde", "Famili", "Pettey", "Heyers", "Berztiss", "Reistad", "Tempesti", "Herbst",
      "Demeyer", "Joslin", "Stamatiou", "Hofting", "Chappelet", "Schusler", "Rosenbaum", "Merlo", "Rahimi",
      "Morton", "Zschoche", "Schueller", "Bernatsky", "Casley", "Fujisawa", "Gargeya", "Wuwongse",
      "Montemayor", "Baek", "Thambidurai", "Setiz", "Renear", "Garigliano", "Stanfel", "Swan", "Kambil",
      "Escriba", "Syrotiuk", "Ossenbruggen", "Cusworth", "Pietracaprina", "Lenart");

  public static final String CREATE_EMPLOYEES = "CREATE TABLE employees ("
      + "emp_no INTEGER PRIMARY KEY, birth_date DATE NOT NULL, first_name VARCHAR(14) NOT NULL, "
      + "last_name VARCHAR(16) NOT NULL, gender CHAR(1) NOT NULL, hire_date DATE NOT NULL)";
  public static final String CREATE_SALARIES = "CREATE TABLE salaries ("
      + "emp_no INTEGER NOT NULL, from_date DATE NOT NULL, salary INTEGER NOT NULL, to_date DATE NOT NULL, "
      + "PRIMARY KEY (emp_no, from_date))";

  public static final String INSERT_EMPLOYEE = "INSERT INTO employees "
      + "(emp_no, birth_date, first_name, last_name, gender, hire_date) VALUES (?, ?, ?, ?, ?, ?)";
  public static final String INSERT_SALARY =
      "INSERT INTO salaries (emp_no, from_date, salary, to_date) VALUES (?, ?, ?, ?)";

  /**
   * E1 of DATASETS.md: every earlier salary (ended before the current one began) above the employee's
   * current salary, with the employee's name. No parameters. The date is a typed literal
   * ({@code DATE '9999-01-01'}) so that Accel and PostgreSQL compare dates alike.
   */
  public static final String E1 = "SELECT e.emp_no, e.first_name, e.last_name, s1.salary AS initial_salary, "
      + "s2.salary AS recent_salary FROM employees e JOIN salaries s1 ON e.emp_no = s1.emp_no "
      + "JOIN salaries s2 ON e.emp_no = s2.emp_no WHERE s1.to_date < s2.from_date AND s1.salary > s2.salary "
      + "AND s2.to_date = DATE '9999-01-01'";

  /** An employees row. */
  public record Employee(int empNo, LocalDate birthDate, String firstName, String lastName, String gender,
      LocalDate hireDate) {
  }

  /** A salaries row. */
  public record Salary(int empNo, LocalDate fromDate, int salary, LocalDate toDate) {
  }

  /** A row of E1's result. */
  public record E1Row(int empNo, String firstName, String lastName, int initialSalary, int recentSalary) {
  }

  private final int employees;
  private final long seed;
  private final int batchSize;
  private long salaryCount = -1;

  /** The DATASETS.md size: 300,024 employees, seed 42. */
  public Employees() {
    this(DEFAULT_EMPLOYEES);
  }

  /** {@code employees} employees (and about 9.5 times as many salaries), seed 42. */
  public Employees(int employees) {
    this(employees, DEFAULT_SEED, BatchLoader.DEFAULT_BATCH_SIZE);
  }

  public Employees(int employees, long seed, int batchSize) {
    if (employees < 1) {
      throw new IllegalArgumentException("employees must be at least 1: " + employees);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
    this.employees = employees;
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

  /** Rows of employees. */
  public int employees() {
    return employees;
  }

  /** Rows of salaries (the sum of every employee's periods; computed once, about 0.1 s per 300,000). */
  public synchronized long salaryCount() {
    if (salaryCount < 0) {
      long n = 0;
      for (int empNo = FIRST_EMP_NO; empNo < FIRST_EMP_NO + employees; empNo++) {
        n += periods(new RowRandom(seed, STREAM_EMPLOYEES, empNo));
      }
      salaryCount = n;
    }
    return salaryCount;
  }

  /** The highest emp_no. */
  public int lastEmpNo() {
    return FIRST_EMP_NO + employees - 1;
  }

  /** {@code <employees>}, and {@code _s<seed>} unless the seed is 42: {@code 300024}. */
  @Override
  public String sizeLabel() {
    return employees + (seed == DEFAULT_SEED ? "" : "_s" + Long.toUnsignedString(seed));
  }

  @Override
  public String fingerprint() {
    return Workload.super.fingerprint() + " v" + DATA_VERSION;
  }

  @Override
  public List<String> tables() {
    return List.of("employees", "salaries");
  }

  @Override
  public List<String> createTables() {
    return List.of(CREATE_EMPLOYEES, CREATE_SALARIES);
  }

  /** None: both tables are read through their primary keys, as in the MySQL sample. */
  @Override
  public List<String> createIndexes() {
    return List.of();
  }

  // ---------------------------------------------------------------------------------------------------
  // Rows

  private static int periods(RowRandom r) {
    return 1 + r.nextInt(MAX_PERIODS);
  }

  /** Employees row {@code empNo}, {@value #FIRST_EMP_NO} &lt;= empNo &lt;= {@link #lastEmpNo()}. */
  public Employee employee(int empNo) {
    return generate(empNo, null);
  }

  /** The salary history of employee {@code empNo}, oldest first; the last period is the current one. */
  public List<Salary> salaries(int empNo) {
    List<Salary> history = new ArrayList<>(MAX_PERIODS);
    generate(empNo, history);
    return history;
  }

  /** Draws employee {@code empNo}, and into {@code history} (unless null) their salaries. */
  private Employee generate(int empNo, List<Salary> history) {
    if (empNo < FIRST_EMP_NO || empNo > lastEmpNo()) {
      throw new IllegalArgumentException("emp_no out of range " + FIRST_EMP_NO + ".." + lastEmpNo() + ": " + empNo);
    }
    RowRandom r = new RowRandom(seed, STREAM_EMPLOYEES, empNo);
    int periods = periods(r);
    LocalDate lastHire = LAST_RAISE.minusYears(periods - 1L);
    if (lastHire.isAfter(LAST_HIRE)) {
      lastHire = LAST_HIRE;
    }
    LocalDate hireDate = day(r, FIRST_HIRE, lastHire);
    LocalDate birthDate = day(r, FIRST_BIRTH, LAST_BIRTH);
    String firstName = FIRST_NAMES.get(r.nextInt(FIRST_NAMES.size()));
    String lastName = LAST_NAMES.get(r.nextInt(LAST_NAMES.size()));
    String gender = r.nextInt(100) < 60 ? "M" : "F";
    if (history != null) {
      long salary = FIRST_SALARY_MIN + r.nextLong(FIRST_SALARY_SPAN);
      for (int k = 0; k < periods; k++) {
        if (k > 0) {
          // In basis points: a raise of 0 to 8.00%, or a cut of 1.00 to 12.00%.
          long change = r.nextInt(100) < RAISE_PERCENT ? r.nextLong(801) : -(100 + r.nextLong(1_101));
          salary = Math.round(salary * (10_000 + change) / 10_000.0);
        }
        LocalDate to = k == periods - 1 ? CURRENT : hireDate.plusYears(k + 1L);
        history.add(new Salary(empNo, hireDate.plusYears(k), (int) salary, to));
      }
    }
    return new Employee(empNo, birthDate, firstName, lastName, gender, hireDate);
  }

  private static LocalDate day(RowRandom r, LocalDate first, LocalDate last) {
    return first.plusDays(r.nextLong(last.toEpochDay() - first.toEpochDay() + 1));
  }

  /** Every employee, in emp_no order. */
  public Iterable<Employee> employeeRows() {
    return () -> new Iterator<>() {
      private int next = FIRST_EMP_NO;

      @Override
      public boolean hasNext() {
        return next <= lastEmpNo();
      }

      @Override
      public Employee next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return employee(next++);
      }
    };
  }

  /** Every salary, in (emp_no, from_date) order. */
  public Iterable<Salary> salaryRows() {
    return () -> new Iterator<>() {
      private int empNo = FIRST_EMP_NO;
      private Iterator<Salary> current = salaries(FIRST_EMP_NO).iterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext() && empNo < lastEmpNo()) {
          current = salaries(++empNo).iterator();
        }
        return current.hasNext();
      }

      @Override
      public Salary next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // E1 computed from the generator

  /**
   * E1's rows for employee {@code empNo}, evaluated on the generated rows by E1's definition (every pair
   * of an earlier salary s1 and the current one s2 with s1.to_date &lt; s2.from_date and s1.salary &gt;
   * s2.salary), in from_date order of s1.
   */
  public List<E1Row> e1Rows(int empNo) {
    Employee e = employee(empNo);
    List<Salary> history = salaries(empNo);
    List<E1Row> rows = new ArrayList<>();
    for (Salary s2 : history) {
      if (!s2.toDate().equals(CURRENT)) {
        continue;
      }
      for (Salary s1 : history) {
        if (s1.toDate().isBefore(s2.fromDate()) && s1.salary() > s2.salary()) {
          rows.add(new E1Row(empNo, e.firstName(), e.lastName(), s1.salary(), s2.salary()));
        }
      }
    }
    return rows;
  }

  /** What E1 returns over the whole data: its row count, the employees in it and a checksum. */
  public record E1Summary(long rows, long employees, long salarySum) {
  }

  /**
   * E1 evaluated on the generator: rows, distinct employees, and the sum of initial_salary + recent_salary
   * over the rows (what the benchmark checks each engine's result against).
   */
  public E1Summary e1Summary() {
    long rows = 0;
    long people = 0;
    long sum = 0;
    for (int empNo = FIRST_EMP_NO; empNo <= lastEmpNo(); empNo++) {
      List<E1Row> found = e1Rows(empNo);
      rows += found.size();
      people += found.isEmpty() ? 0 : 1;
      for (E1Row row : found) {
        sum += row.initialSalary() + (long) row.recentSalary();
      }
    }
    return new E1Summary(rows, people, sum);
  }

  // ---------------------------------------------------------------------------------------------------
  // Loading

  @Override
  public LoadResult loadRows(Connection connection, LoadListener listener) throws SQLException {
    BatchLoader loader = new BatchLoader(batchSize);
    LoadResult.TableLoad e = loader.insert(connection, "employees", INSERT_EMPLOYEE, employees, (ps, row) -> {
      Employee emp = employee(FIRST_EMP_NO + (int) row);
      ps.setInt(1, emp.empNo());
      ps.setObject(2, emp.birthDate());
      ps.setString(3, emp.firstName());
      ps.setString(4, emp.lastName());
      ps.setString(5, emp.gender());
      ps.setObject(6, emp.hireDate());
    }, listener);
    Iterator<Salary> salaries = salaryRows().iterator();
    LoadResult.TableLoad s = loader.insert(connection, "salaries", INSERT_SALARY, salaryCount(), (ps, row) -> {
      if (!salaries.hasNext()) {
        throw new NoSuchElementException("the generator ended before salaries row " + (row + 1));
      }
      Salary salary = salaries.next();
      ps.setInt(1, salary.empNo());
      ps.setObject(2, salary.fromDate());
      ps.setInt(3, salary.salary());
      ps.setObject(4, salary.toDate());
    }, listener);
    return LoadResult.of(e, s);
  }

  @Override
  public String toString() {
    return NAME + "(employees=" + employees + ", seed=" + seed + ")";
  }
}
