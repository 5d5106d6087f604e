package io.accel.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The employees generator as a user sees it: loaded through the Accel driver at a tiny size, and E1 on it. */
class EmployeesTest {
  private static final int EMPLOYEES = 400;
  private static final AtomicInteger STORES = new AtomicInteger();

  private static Employees employees;
  private static Connection db;
  private static LoadResult loaded;

  @BeforeAll
  static void load() throws SQLException {
    employees = new Employees(EMPLOYEES);
    db = open();
    loaded = employees.load(db);
  }

  @AfterAll
  static void close() throws SQLException {
    if (db != null) {
      db.close();
    }
  }

  private static Connection open() throws SQLException {
    return DriverManager.getConnection("jdbc:accel:mem:employees-test-" + STORES.incrementAndGet());
  }

  @Test
  void loadsTheRequestedRowCounts() throws SQLException {
    assertThat(count("SELECT COUNT(*) FROM employees")).isEqualTo(EMPLOYEES);
    assertThat(count("SELECT COUNT(*) FROM salaries")).isEqualTo(employees.salaryCount());
    assertThat(count("SELECT MIN(emp_no) FROM employees")).isEqualTo(10_001);
    assertThat(count("SELECT MAX(emp_no) FROM employees")).isEqualTo(10_400);
    assertThat(count("SELECT COUNT(*) FROM salaries WHERE to_date = DATE '9999-01-01'"))
        .as("one current salary per employee").isEqualTo(EMPLOYEES);
    assertThat(loaded.rows("employees")).isEqualTo(EMPLOYEES);
    assertThat(loaded.rows("salaries")).isEqualTo(employees.salaryCount());
    assertThat(db.getAutoCommit()).isTrue();
  }

  @Test
  void storedRowsAreTheGeneratedRows() throws SQLException {
    List<Employees.Employee> people = new ArrayList<>();
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT emp_no, birth_date, first_name, last_name, gender, hire_date FROM employees ORDER BY emp_no")) {
      while (rs.next()) {
        people.add(new Employees.Employee(rs.getInt(1), rs.getObject(2, LocalDate.class), rs.getString(3),
            rs.getString(4), rs.getString(5), rs.getObject(6, LocalDate.class)));
      }
    }
    List<Employees.Salary> salaries = new ArrayList<>();
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT emp_no, from_date, salary, to_date FROM salaries ORDER BY emp_no, from_date")) {
      while (rs.next()) {
        salaries.add(new Employees.Salary(rs.getInt(1), rs.getObject(2, LocalDate.class), rs.getInt(3),
            rs.getObject(4, LocalDate.class)));
      }
    }
    List<Employees.Employee> expectedPeople = new ArrayList<>();
    employees.employeeRows().forEach(expectedPeople::add);
    List<Employees.Salary> expectedSalaries = new ArrayList<>();
    employees.salaryRows().forEach(expectedSalaries::add);
    assertThat(people).containsExactlyElementsOf(expectedPeople);
    assertThat(salaries).containsExactlyElementsOf(expectedSalaries);
  }

  @Test
  void e1ReturnsWhatTheGeneratedRowsSay() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (int empNo = Employees.FIRST_EMP_NO; empNo <= employees.lastEmpNo(); empNo++) {
      for (Employees.E1Row r : employees.e1Rows(empNo)) {
        expected.add(r.empNo() + "|" + r.firstName() + "|" + r.lastName() + "|" + r.initialSalary() + "|" + r.recentSalary());
      }
    }
    assertThat(expected).as("E1 finds something at 400 employees").hasSizeGreaterThan(10);
    assertThat(rowsOf(db, Employees.E1)).containsExactlyInAnyOrderElementsOf(expected);
    Employees.E1Summary summary = employees.e1Summary();
    assertThat(summary.rows()).isEqualTo(expected.size());
  }

  @Test
  void e1AgreesWithPostgresql() throws SQLException {
    String schema = "employees_test_" + EMPLOYEES;
    try (Connection pg = PostgresService.connect(schema)) {
      WorkloadData.ensurePostgres(employees, schema, null);
      assertThat(rowsOf(pg, Employees.E1)).containsExactlyInAnyOrderElementsOf(rowsOf(db, Employees.E1));
      try (Statement s = pg.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  @Test
  void e1IsDatasetsMdsQueryWithATypedDate() {
    assertThat(Employees.E1).isEqualTo("SELECT e.emp_no, e.first_name, e.last_name, s1.salary AS initial_salary, "
        + "s2.salary AS recent_salary FROM employees e JOIN salaries s1 ON e.emp_no = s1.emp_no "
        + "JOIN salaries s2 ON e.emp_no = s2.emp_no WHERE s1.to_date < s2.from_date AND s1.salary > s2.salary "
        + "AND s2.to_date = DATE '9999-01-01'");
  }

  @Test
  void salaryHistoriesAreConsecutiveYearlyPeriodsEndingInTheCurrentOne() {
    Employees big = new Employees(30_000);
    long periods = 0;
    long steps = 0;
    long rises = 0;
    long men = 0;
    long inE1 = 0;
    int[] byLength = new int[Employees.MAX_PERIODS + 1];
    for (int empNo = Employees.FIRST_EMP_NO; empNo <= big.lastEmpNo(); empNo++) {
      Employees.Employee e = big.employee(empNo);
      List<Employees.Salary> history = big.salaries(empNo);
      assertThat(e.firstName().length()).isLessThanOrEqualTo(14);
      assertThat(e.lastName().length()).isLessThanOrEqualTo(16);
      assertThat(e.gender()).isIn("M", "F");
      assertThat(e.hireDate()).isBetween(Employees.FIRST_HIRE, Employees.LAST_HIRE);
      assertThat(e.birthDate()).isBetween(Employees.FIRST_BIRTH, Employees.LAST_BIRTH);
      assertThat(history).hasSizeBetween(1, Employees.MAX_PERIODS);
      assertThat(history.get(0).fromDate()).isEqualTo(e.hireDate());
      for (int k = 0; k < history.size(); k++) {
        Employees.Salary s = history.get(k);
        assertThat(s.empNo()).isEqualTo(empNo);
        assertThat(s.fromDate()).isEqualTo(e.hireDate().plusYears(k)).isBeforeOrEqualTo(Employees.LAST_RAISE);
        if (k == history.size() - 1) {
          assertThat(s.toDate()).isEqualTo(Employees.CURRENT);
        } else {
          assertThat(s.toDate()).isEqualTo(history.get(k + 1).fromDate());
          steps++;
          rises += history.get(k + 1).salary() >= s.salary() ? 1 : 0;
        }
        assertThat(s.salary()).isBetween(20_000, 200_000);
      }
      periods += history.size();
      byLength[history.size()]++;
      men += e.gender().equals("M") ? 1 : 0;
      inE1 += big.e1Rows(empNo).isEmpty() ? 0 : 1;
    }
    assertThat(periods).isEqualTo(big.salaryCount());
    assertThat(periods / 30_000.0).as("salaries per employee (MySQL's sample: 9.48)").isCloseTo(9.48, within(0.15));
    for (int n = 1; n <= Employees.MAX_PERIODS; n++) {
      assertThat(byLength[n]).as("employees with " + n + " periods").isBetween(1_400, 1_950);
    }
    assertThat(rises / (double) steps).as("share of yearly changes that are raises").isCloseTo(0.95, within(0.01));
    assertThat(men / 30_000.0).isCloseTo(0.60, within(0.02));
    assertThat(inE1 / 30_000.0).as("share of employees E1 returns").isBetween(0.05, 0.15);
  }

  @Test
  void theSameSeedGivesTheSameDataAndRowsDoNotDependOnTheSize() {
    Employees again = new Employees(EMPLOYEES);
    Employees bigger = new Employees(EMPLOYEES * 3, Employees.DEFAULT_SEED, 7);
    Employees other = new Employees(EMPLOYEES, 43, BatchLoader.DEFAULT_BATCH_SIZE);
    int differ = 0;
    for (int empNo = Employees.FIRST_EMP_NO; empNo <= employees.lastEmpNo(); empNo++) {
      assertThat(again.employee(empNo)).isEqualTo(employees.employee(empNo));
      assertThat(again.salaries(empNo)).isEqualTo(employees.salaries(empNo));
      assertThat(bigger.salaries(empNo)).isEqualTo(employees.salaries(empNo));
      differ += other.salaries(empNo).equals(employees.salaries(empNo)) ? 0 : 1;
    }
    assertThat(differ).isGreaterThan(EMPLOYEES - 5);
    assertThat(again.fingerprint()).isEqualTo(employees.fingerprint());
    assertThat(other.fingerprint()).isNotEqualTo(employees.fingerprint());
    assertThat(other.sizeLabel()).isEqualTo("400_s43");
    assertThatThrownBy(() -> employees.employee(10_000)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> employees.employee(10_401)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void generatedValuesArePinned() {
    // Golden values: if these change, every stored benchmark result was made on other data.
    assertThat(employees.employee(10_001)).isEqualTo(new Employees.Employee(10_001, LocalDate.of(1958, 5, 25),
        "Elvis", "Berztiss", "M", LocalDate.of(1985, 10, 3)));
    List<Employees.Salary> first = employees.salaries(10_001);
    assertThat(first).hasSize(17);
    assertThat(first.get(0)).isEqualTo(new Employees.Salary(10_001, LocalDate.of(1985, 10, 3), 61_677,
        LocalDate.of(1986, 10, 3)));
    Employees full = new Employees();
    assertThat(full.employees()).isEqualTo(300_024);
    assertThat(full.sizeLabel()).isEqualTo("300024");
    assertThat(full.salaryCount()).isEqualTo(2_855_676);
    assertThat(full.e1Summary()).isEqualTo(new Employees.E1Summary(59_154, 28_142, 8_076_832_880L));
  }

  @Test
  void workloadsKnowsEmployees() {
    assertThat(Workloads.names()).contains("employees");
    Workload w = Workloads.byName("Employees");
    assertThat(w).isInstanceOf(Employees.class);
    assertThat(((Employees) w).employees()).isEqualTo(300_024);
    assertThat(w.seed()).isEqualTo(42);
    assertThat(w.dropTables()).containsExactly("DROP TABLE IF EXISTS salaries", "DROP TABLE IF EXISTS employees");
    assertThat(w.createIndexes()).isEmpty();
  }

  private static List<String> rowsOf(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getInt(4) + "|" + rs.getInt(5));
      }
    }
    return rows;
  }

  private static long count(String sql) throws SQLException {
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
