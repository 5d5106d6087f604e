package io.accel.bench.jmh;

import io.accel.bench.jmh.Compare.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The comparison's charts as PNG files (XChart): latency per workload, and Accel's speed-up over PostgreSQL. */
final class Charts {
  private Charts() {
  }

  static void write(Path dir, String size, List<Row> rows) throws IOException {
    List<Row> timed = rows.stream().filter(r -> r.unit().equals("us") && valid(r)).toList();
    if (!timed.isEmpty()) {
      CategoryChart latency = chart("Time per operation, size " + size + " (log scale, lower is better)",
          "microseconds");
      List<String> ids = timed.stream().map(Row::id).toList();
      logarithmic(latency, timed.stream().flatMap(r -> java.util.stream.Stream.of(r.accelMicros(), r.postgresMicros()))
          .toList());
      latency.addSeries("Accel", ids, timed.stream().map(Row::accelMicros).toList());
      latency.addSeries("PostgreSQL 15", ids, timed.stream().map(Row::postgresMicros).toList());
      BitmapEncoder.saveBitmap(latency, dir.resolve("latency.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
    List<Row> all = rows.stream().filter(Charts::valid).toList();
    if (!all.isEmpty()) {
      CategoryChart speedup = chart("Accel's speed-up over PostgreSQL, size " + size
          + " (log scale; above 1: Accel faster)", "PostgreSQL time / Accel time (loading: rate ratio)");
      List<String> ids = all.stream().map(Row::id).toList();
      List<Double> values = new java.util.ArrayList<>(all.stream().map(Row::speedup).toList());
      values.add(1.0);
      all.stream().map(Row::beforeSpeedup).filter(v -> !Double.isNaN(v)).forEach(values::add);
      logarithmic(speedup, values);
      // bars for rows without a figure from before are left out (a log axis cannot draw 0)
      speedup.addSeries("before issue 14", ids, all.stream()
          .map(r -> Double.isNaN(r.beforeSpeedup()) ? null : (Number) r.beforeSpeedup()).toList());
      speedup.addSeries("now", ids, all.stream().map(r -> (Number) r.speedup()).toList());
      BitmapEncoder.saveBitmap(speedup, dir.resolve("speedup.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
  }

  /** A log axis spanning the values (XChart starts bar axes at 0, which a log axis cannot show). */
  private static void logarithmic(CategoryChart chart, List<Double> values) {
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(1);
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(10);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
    chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(max * 1.01))));
  }

  private static boolean valid(Row r) {
    return r.accelMicros() > 0 && r.postgresMicros() > 0 && !Double.isNaN(r.speedup());
  }

  private static CategoryChart chart(String title, String yAxis) {
    CategoryChart chart = new CategoryChartBuilder().width(1100).height(600).title(title).xAxisTitle("workload")
        .yAxisTitle(yAxis).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setToolTipsEnabled(false);
    chart.getStyler().setOverlapped(false);
    return chart;
  }
}
