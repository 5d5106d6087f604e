package io.accel.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.accel.bench.jmh.Compare.Row;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The comparison's written output: the summary table, its ratios, the charts, the block in RESULTS.md. */
class CompareTest {
  private static final List<Row> ROWS = List.of(
      new Row("S1", "join", 17.5, 126.7, "us", "Accel 5.5x faster", 5.5),
      new Row("Q19", "tpch", 4_000, 3_000, "us", "PostgreSQL 8x faster", 0.125),
      new Row("LOAD", "loading", 50_000, 100_000, "rows/s", "before", Double.NaN));

  @Test
  void theSummaryStatesEachRatioTheWayItFalls() {
    String summary = new Compare().summary(ROWS, "results/small/");
    assertThat(summary).contains("| S1 | join | 17.5 us | 126.7 us | **Accel 7.2x faster** | Accel 5.5x faster |")
        .contains("| Q19 | tpch | 4.00 ms | 3.00 ms | PostgreSQL 1.3x faster |")
        .contains("| LOAD | loading | 50,000 rows/s | 100,000 rows/s | PostgreSQL 2.0x faster |");
  }

  @Test
  void chartsArePngImages(@TempDir Path dir) throws Exception {
    Charts.write(dir, "small", ROWS);
    for (String name : List.of("latency.png", "speedup.png")) {
      BufferedImage image = ImageIO.read(dir.resolve(name).toFile());
      assertThat(image).as(name).isNotNull();
      assertThat(image.getWidth()).isEqualTo(1100);
    }
  }

  @Test
  void theResultsBlockIsReplacedNotRepeated(@TempDir Path dir) throws Exception {
    Path results = dir.resolve("RESULTS.md");
    Files.writeString(results, "# Benchmark results\n\nintro\n\n## 2026-11-21 — old\n\nold text\n");
    Compare compare = new Compare();
    compare.resultsFile = results;
    compare.updateResults(compare.summary(ROWS.subList(0, 1), ""));
    compare.updateResults(compare.summary(ROWS, ""));
    String text = Files.readString(results, StandardCharsets.UTF_8);
    assertThat(text).containsOnlyOnce(Compare.SUMMARY_START).containsOnlyOnce("## Summary")
        .contains("| Q19 |").contains("## 2026-11-21 — old\n\nold text");
    assertThat(text.indexOf("## Summary")).isLessThan(text.indexOf("## 2026-11-21"));
  }
}
