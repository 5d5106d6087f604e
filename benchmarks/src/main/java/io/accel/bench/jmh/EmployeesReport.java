package io.accel.bench.jmh;

import io.accel.bench.workload.Employees;
import io.accel.bench.workload.WorkloadData;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@link EmployeesBenchmark} (E1) for each scale and mode in one JMH run and prints, as a Markdown
 * table, the average time per execution, E1's result size (the generator's, which every trial checked its
 * mode against) and the ratios to mode {@code accel}.
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.EmployeesReport --scales 300024
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.EmployeesReport --scales 30000 --warmup 1 --time 1s --iterations 2
 * </pre>
 */
@Command(name = "employees-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the employees JMH benchmark (E1 on Accel with and without lookup joins, and PostgreSQL) "
        + "and prints the average time per execution and the ratios."})
public final class EmployeesReport implements Callable<Integer> {
  @Option(names = "--scales", split = ",", paramLabel = "N",
      description = "numbers of employees (default: ${DEFAULT-VALUE})")
  List<Integer> scales = new ArrayList<>(List.of(Employees.DEFAULT_EMPLOYEES));

  @Option(names = "--modes", split = ",", paramLabel = "MODE", description = "accel, hash, postgres (default: ${DEFAULT-VALUE})")
  List<String> modes = new ArrayList<>(EmployeesBenchmark.MODES);

  @Option(names = "--warmup", paramLabel = "N", description = "warmup iterations (default: ${DEFAULT-VALUE})")
  int warmup = 1;

  @Option(names = "--iterations", paramLabel = "N", description = "measurement iterations (default: ${DEFAULT-VALUE})")
  int iterations = 3;

  @Option(names = "--time", paramLabel = "TIME", description = "time per iteration, e.g. 5s (default: ${DEFAULT-VALUE})")
  String time = "5s";

  @Option(names = "--forks", paramLabel = "N", description = "JMH forks per configuration (default: ${DEFAULT-VALUE})")
  int forks = 1;

  private final PrintStream out;

  public EmployeesReport() {
    this(System.out);
  }

  EmployeesReport(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new EmployeesReport());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    for (String m : modes) {
      if (!m.equals("postgres")) {
        EmployeesBenchmark.accelProperties(m);
      }
    }
    boolean postgres = modes.contains("postgres") && WorkloadData.postgresReachable(out);
    if (!postgres && modes.remove("postgres")) {
      out.println("mode postgres left out");
    }
    List<String> loads = new ArrayList<>();
    List<Employees.E1Summary> expected = new ArrayList<>();
    for (int scale : scales) {
      Employees w = new Employees(scale);
      loads.add(WorkloadData.ensureAccel(w, out).toString());
      if (postgres) {
        loads.add(WorkloadData.ensurePostgres(w, out).toString());
      }
      expected.add(w.e1Summary());
    }

    StraddleReport.Pass pass = new StraddleReport.Pass(modes, warmup, TimeValue.fromString(time), iterations,
        TimeValue.fromString(time));
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(EmployeesBenchmark.class.getName() + ".execute")
        .param("scale", scales.stream().map(String::valueOf).toArray(String[]::new))
        .param("mode", modes.toArray(new String[0]));
    Map<String, StraddleReport.Measured> measured =
        StraddleReport.measured(StraddleReport.run(options, pass, forks, StraddleReport.jvmArgs()), "scale");

    out.println();
    out.println("## employees: E1");
    for (String load : loads) {
      out.println("- " + load);
    }
    out.println("- " + StraddleReport.machine());
    out.printf(Locale.ROOT, "- JMH: %d fork(s), %d warmup iteration(s) and %d measurement iteration(s) of %s; "
        + "average time per execution of E1 (± 99.9%% interval)%n", forks, warmup, iterations, pass.time());
    out.println();
    out.println("| employees | salaries | E1 rows (employees) | mode | ms per E1 | time / accel's |");
    out.println("|---:|---:|---:|---|---:|---:|");
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < scales.size(); i++) {
      int scale = scales.get(i);
      Employees.E1Summary e = expected.get(i);
      double accel = millis(measured, scale, "accel");
      for (String m : modes) {
        StraddleReport.Measured r = measured.get(scale + " " + m);
        if (r == null) {
          missing.add(scale + " " + m);
        }
        out.printf(Locale.ROOT, "| %,d | %,d | %,d (%,d) | %s | %s | %s |%n", scale, new Employees(scale).salaryCount(),
            e.rows(), e.employees(), m, r == null ? "not measured"
                : StraddleReport.withError(r.meanMicros() / 1e3, r.meanErrorMicros() / 1e3),
            LineitemReport.ratio(millis(measured, scale, m), accel));
      }
    }
    if (!missing.isEmpty()) {
      out.println();
      out.println("Not measured (the trial failed; see the JMH output above): " + String.join(", ", missing));
    }
    return missing.isEmpty() ? 0 : 1;
  }

  private static double millis(Map<String, StraddleReport.Measured> m, int scale, String mode) {
    StraddleReport.Measured r = m.get(scale + " " + mode);
    return r == null ? Double.NaN : r.meanMicros() / 1e3;
  }
}
