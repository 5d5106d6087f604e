package io.accel.bench.jmh;

import io.accel.bench.workload.Employees;
import io.accel.bench.workload.Workload;
import io.accel.bench.workload.WorkloadData;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Loads (or finds complete) the data of {@link StraddleBenchmark}, {@link ClicksBenchmark},
 * {@link EventsBenchmark} and {@link EmployeesBenchmark} ahead of a measurement run, through
 * {@link WorkloadData}, and prints each load's time; the benchmarks and reports would otherwise load what is
 * missing in their first trial.
 *
 * <pre>
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.BenchData straddle full
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.BenchData clicks small
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.BenchData events full
 * java -cp benchmarks/target/accel-benchmarks.jar io.accel.bench.jmh.BenchData employees 300024 --targets accel
 * </pre>
 */
@Command(name = "bench-data", mixinStandardHelpOptions = true,
    description = {"Loads a workload into its Accel store under target/bench-data and its PostgreSQL schema, "
        + "unless complete there already."})
public final class BenchData implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "straddle, clicks, events or employees")
  String workload;

  @Parameters(index = "1", arity = "0..1", paramLabel = "SIZE",
      description = "straddle: full, small or USERS_ORDERS; clicks and events: full, small or the number of rows; "
          + "employees: the number of employees (default: full)")
  String size = "full";

  @Option(names = "--targets", split = ",", paramLabel = "T", description = "accel, postgres (default: ${DEFAULT-VALUE})")
  List<String> targets = new ArrayList<>(List.of("accel", "postgres"));

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new BenchData());
    cli.setOut(new PrintWriter(System.out, true));
    System.exit(cli.execute(args));
  }

  /** The workload {@code name} at {@code size}. */
  static Workload workload(String name, String size) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "straddle":
        return StraddleBenchmark.workload(size);
      case "clicks":
        return ClicksBenchmark.workload(size);
      case "events":
        return EventsBenchmark.workload(size);
      case "employees":
        return size.equalsIgnoreCase("full") ? new Employees() : new Employees(Integer.parseInt(size));
      default:
        throw new IllegalArgumentException(
            "unknown workload \"" + name + "\"; expected straddle, clicks, events or employees");
    }
  }

  @Override
  public Integer call() throws Exception {
    Workload w = workload(workload, size);
    List<String> done = new ArrayList<>();
    if (targets.contains("accel")) {
      done.add(WorkloadData.ensureAccel(w, System.out).toString());
    }
    if (targets.contains("postgres")) {
      done.add(WorkloadData.ensurePostgres(w, System.out).toString());
    }
    System.out.println();
    done.forEach(line -> System.out.println("- " + line));
    return 0;
  }
}
